/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for CAKE's link-layer compensation (cake_calc_overhead, cake_overhead),
 * the tc-cake keyword presets of q_cake.c and the shaper's time per byte (cake_set_rate).
 * Every expected value is derived by hand in the comment next to it.
 */

#include "ns3/cake-overhead.h"

#include <gtest/gtest.h>
#include <string>

namespace
{

using ns3::debloat::ApplyKeyword;
using ns3::debloat::CakeAtmMode;
using ns3::debloat::CakeKeywordPresets;
using ns3::debloat::CakeOverhead;
using ns3::debloat::CakeRate;
using ns3::debloat::CakeSetRate;
using ns3::debloat::CalcOverhead;
using ns3::debloat::GsoAccountedBytes;
using ns3::debloat::GsoSegments;
using ns3::debloat::LinkLayer;
using ns3::debloat::ParseLinkLayer;
using ns3::debloat::SetMpu;
using ns3::debloat::SetOverhead;
using ns3::debloat::TimeForBytes;
using ns3::debloat::UsesNetworkOffset;

/// Ethernet MAC header: the network-header offset of every skb below.
constexpr uint32_t ETH_HLEN = 14;

/// Settings after parsing options; the parse must succeed.
LinkLayer
Parsed(const std::string& options)
{
    LinkLayer ll;
    EXPECT_TRUE(ParseLinkLayer(ll, options)) << options;
    return ll;
}

/// Accounted size of an IP packet of ipLen bytes sent on Ethernet (skb = ipLen + 14).
uint32_t
AccountIp(const LinkLayer& ll, uint32_t ipLen)
{
    return CalcOverhead(ll, ipLen + ETH_HLEN, ETH_HLEN);
}

TEST(CakeOverheadTest, DefaultAccountsTheSkbAsIs)
{
    // No keyword: overhead 0, no CAKE_FLAG_OVERHEAD, so the MAC header is not stripped:
    // a 1500-byte IP packet is a 1514-byte skb and is accounted as 1514.
    LinkLayer ll;
    EXPECT_FALSE(UsesNetworkOffset(ll));
    EXPECT_EQ(AccountIp(ll, 1500), 1514U);
}

TEST(CakeOverheadTest, PresetTableValues)
{
    // The values q_cake.c applies, one keyword on default settings each.
    struct Expect
    {
        const char* word;
        int32_t overhead;
        uint32_t mpu;
        CakeAtmMode atm;
    };

    const Expect expected[] = {
        {"conservative", 48, 0, CakeAtmMode::ATM},
        {"ipoa-vcmux", 8, 0, CakeAtmMode::ATM},
        {"ipoa-llcsnap", 16, 0, CakeAtmMode::ATM},
        {"bridged-vcmux", 24, 0, CakeAtmMode::ATM},
        {"bridged-llcsnap", 32, 0, CakeAtmMode::ATM},
        {"pppoa-vcmux", 10, 0, CakeAtmMode::ATM},
        {"pppoa-llc", 14, 0, CakeAtmMode::ATM},
        {"pppoe-vcmux", 32, 0, CakeAtmMode::ATM},
        {"pppoe-llcsnap", 40, 0, CakeAtmMode::ATM},
        {"pppoe-ptm", 30, 0, CakeAtmMode::PTM},
        {"bridged-ptm", 22, 0, CakeAtmMode::PTM},
        {"ethernet", 38, 84, CakeAtmMode::NONE},
        {"ether-vlan", 4, 0, CakeAtmMode::NONE},
        {"docsis", 18, 64, CakeAtmMode::NONE},
    };
    for (const auto& e : expected)
    {
        LinkLayer ll;
        ASSERT_TRUE(ApplyKeyword(ll, e.word)) << e.word;
        EXPECT_EQ(ll.overhead, e.overhead) << e.word;
        EXPECT_EQ(ll.mpu, e.mpu) << e.word;
        EXPECT_EQ(ll.atm, e.atm) << e.word;
        EXPECT_TRUE(ll.overheadSet) << e.word;
        EXPECT_FALSE(ll.raw) << e.word;
        EXPECT_TRUE(UsesNetworkOffset(ll)) << e.word;
    }
    // Every row of the table is a keyword ApplyKeyword() accepts.
    for (const auto& p : CakeKeywordPresets())
    {
        LinkLayer ll;
        EXPECT_TRUE(ApplyKeyword(ll, p.name)) << p.name;
    }
}

TEST(CakeOverheadTest, UnknownKeywordIsRefusedAndLeavesSettings)
{
    LinkLayer ll;
    ASSERT_TRUE(ApplyKeyword(ll, "pppoe-vcmux"));
    EXPECT_FALSE(ApplyKeyword(ll, "pppoe-vcmuxx"));
    EXPECT_FALSE(ApplyKeyword(ll, "Ethernet")); // q_cake.c uses strcmp: case matters
    EXPECT_FALSE(ApplyKeyword(ll, ""));
    EXPECT_EQ(ll.overhead, 32);
    EXPECT_EQ(ll.atm, CakeAtmMode::ATM);
    EXPECT_FALSE(ParseLinkLayer(ll, "ethernet bogus"));
    EXPECT_FALSE(ParseLinkLayer(ll, "overhead"));     // number missing
    EXPECT_FALSE(ParseLinkLayer(ll, "overhead 38x")); // trailing junk
    EXPECT_FALSE(ParseLinkLayer(ll, "overhead 257")); // range -64..256
    EXPECT_FALSE(ParseLinkLayer(ll, "overhead -65"));
    EXPECT_FALSE(ParseLinkLayer(ll, "mpu 257")); // range 0..256
    EXPECT_FALSE(ParseLinkLayer(ll, "mpu -1"));
}

TEST(CakeOverheadTest, RangeLimitsAreInclusive)
{
    LinkLayer ll;
    EXPECT_TRUE(SetOverhead(ll, -64));
    EXPECT_EQ(ll.overhead, -64);
    EXPECT_TRUE(SetOverhead(ll, 256));
    EXPECT_EQ(ll.overhead, 256);
    EXPECT_FALSE(SetOverhead(ll, 257));
    EXPECT_EQ(ll.overhead, 256);
    EXPECT_TRUE(SetMpu(ll, 0));
    EXPECT_TRUE(SetMpu(ll, 256));
    EXPECT_EQ(ll.mpu, 256U);
    EXPECT_FALSE(SetMpu(ll, 257));
    EXPECT_EQ(ll.mpu, 256U);
}

TEST(CakeOverheadTest, EveryPresetFor1500ByteIpPacket)
{
    // All presets set an overhead, so the 14-byte MAC header of the 1514-byte skb is
    // stripped first: base 1500. ATM: cells = ceil(x / 48), bytes = 53 * cells; 48 * 31 =
    // 1488, 48 * 32 = 1536, 48 * 33 = 1584. PTM: x + ceil(x / 64); 64 * 23 = 1472,
    // 64 * 24 = 1536.
    struct Expect
    {
        const char* word;
        uint32_t bytes;
    };

    const Expect expected[] = {
        {"ethernet", 1538},        // 1500 + 38, mpu 84 below
        {"ether-vlan", 1504},      // 1500 + 4
        {"docsis", 1518},          // 1500 + 18, mpu 64 below
        {"pppoe-ptm", 1554},       // 1530 -> + ceil(1530/64) = 24 -> 1554
        {"bridged-ptm", 1546},     // 1522 -> + 24 -> 1546
        {"pppoa-vcmux", 1696},     // 1510 -> 32 cells -> 1696
        {"pppoa-llc", 1696},       // 1514 -> 32 cells -> 1696
        {"pppoe-vcmux", 1696},     // 1532 -> 32 cells -> 1696
        {"pppoe-llcsnap", 1749},   // 1540 -> 33 cells -> 1749
        {"ipoa-vcmux", 1696},      // 1508 -> 32 cells -> 1696
        {"ipoa-llcsnap", 1696},    // 1516 -> 32 cells -> 1696
        {"bridged-vcmux", 1696},   // 1524 -> 32 cells -> 1696
        {"bridged-llcsnap", 1696}, // 1532 -> 32 cells -> 1696
        {"conservative", 1749},    // 1548 -> 33 cells -> 1749
    };
    for (const auto& e : expected)
    {
        EXPECT_EQ(AccountIp(Parsed(e.word), 1500), e.bytes) << e.word;
    }
}

TEST(CakeOverheadTest, AtmPresetsFor40ByteAck)
{
    // A 40-byte IP packet (bare TCP ACK) separates the ATM presets that all give 32 cells
    // at 1500: one cell holds 48.
    EXPECT_EQ(AccountIp(Parsed("ipoa-vcmux"), 40), 53U);       // 48 -> 1 cell
    EXPECT_EQ(AccountIp(Parsed("ipoa-llcsnap"), 40), 106U);    // 56 -> 2 cells
    EXPECT_EQ(AccountIp(Parsed("pppoa-vcmux"), 40), 106U);     // 50 -> 2 cells
    EXPECT_EQ(AccountIp(Parsed("bridged-llcsnap"), 40), 106U); // 72 -> 2 cells
    EXPECT_EQ(AccountIp(Parsed("pppoe-llcsnap"), 40), 106U);   // 80 -> 2 cells
    EXPECT_EQ(AccountIp(Parsed("conservative"), 40), 106U);    // 88 -> 2 cells
    EXPECT_EQ(AccountIp(Parsed("conservative"), 49), 159U);    // 97 -> 3 cells
}

TEST(CakeOverheadTest, AdditiveAndOverridingKeywords)
{
    // Framing presets add to what was accumulated (q_cake.c "overhead += N").
    LinkLayer a = Parsed("pppoe-vcmux ether-vlan");
    EXPECT_EQ(a.overhead, 36);
    EXPECT_EQ(a.atm, CakeAtmMode::ATM);
    // (its accounted sizes are pinned in AtmCeilingAtExactCellMultiple)

    // "ethernet ether-vlan": 38 + 4 = 42, mpu 84, atm untouched (NONE): 1542.
    LinkLayer b = Parsed("ethernet ether-vlan");
    EXPECT_EQ(b.overhead, 42);
    EXPECT_EQ(b.mpu, 84U);
    EXPECT_EQ(AccountIp(b, 1500), 1542U);

    // ethernet does not touch the atm mode: after pppoa-vcmux it stays ATM, overhead 48.
    LinkLayer c = Parsed("pppoa-vcmux ethernet");
    EXPECT_EQ(c.overhead, 48);
    EXPECT_EQ(c.atm, CakeAtmMode::ATM);
    EXPECT_EQ(c.mpu, 84U);

    // docsis sets noatm: after pppoa-vcmux the mode is NONE and the overhead 28.
    LinkLayer d = Parsed("pppoa-vcmux docsis");
    EXPECT_EQ(d.overhead, 28);
    EXPECT_EQ(d.atm, CakeAtmMode::NONE);
    EXPECT_EQ(d.mpu, 64U);

    // conservative overrides: ether-vlan's 4 is replaced by 48.
    LinkLayer e = Parsed("ether-vlan conservative");
    EXPECT_EQ(e.overhead, 48);
    EXPECT_EQ(e.atm, CakeAtmMode::ATM);

    // "overhead N" sets; a later preset adds to it: 10 + 10 = 20.
    LinkLayer f = Parsed("overhead 10 pppoa-vcmux");
    EXPECT_EQ(f.overhead, 20);
    // ...and a later "overhead N" replaces what presets accumulated.
    LinkLayer g = Parsed("pppoe-llcsnap overhead 5");
    EXPECT_EQ(g.overhead, 5);
    EXPECT_EQ(g.atm, CakeAtmMode::ATM);

    // atm / ptm / noatm change only the mode.
    LinkLayer h = Parsed("pppoe-ptm noatm");
    EXPECT_EQ(h.overhead, 30);
    EXPECT_EQ(h.atm, CakeAtmMode::NONE);
    EXPECT_EQ(AccountIp(h, 1500), 1530U);
}

TEST(CakeOverheadTest, AtmCeilingAtExactCellMultiple)
{
    // pppoe-vcmux + ether-vlan: 1500 + 36 = 1536 = 48 * 32 exactly -> 32 cells = 1696;
    // one byte more (1501) -> 1537 -> 33 cells = 1749.
    LinkLayer a = Parsed("pppoe-vcmux ether-vlan");
    EXPECT_EQ(AccountIp(a, 1500), 1696U);
    EXPECT_EQ(AccountIp(a, 1501), 1749U);
}

TEST(CakeOverheadTest, PtmFor1500Bytes)
{
    // "ptm" alone: no overhead set, so the skb is measured whole. Give it a 1500-byte skb
    // with no MAC header (offset 0): 1500 + ceil(1500/64) = 1500 + 24 = 1524.
    LinkLayer ptm = Parsed("ptm");
    EXPECT_FALSE(UsesNetworkOffset(ptm));
    EXPECT_EQ(CalcOverhead(ptm, 1500, 0), 1524U);
    // Exact multiple: 1536 = 64 * 24 -> +24 = 1560; 1537 -> +25 = 1562.
    EXPECT_EQ(CalcOverhead(ptm, 1536, 0), 1560U);
    EXPECT_EQ(CalcOverhead(ptm, 1537, 0), 1562U);
    // "ptm overhead 8": 1500 + 8 = 1508 -> + ceil(1508/64) = 24 -> 1532.
    EXPECT_EQ(AccountIp(Parsed("ptm overhead 8"), 1500), 1532U);
}

TEST(CakeOverheadTest, MpuFloorBeforeCellFraming)
{
    // ethernet: a 20-byte IP packet -> 20 + 38 = 58 < 84 -> 84.
    EXPECT_EQ(AccountIp(Parsed("ethernet"), 20), 84U);
    // 46 bytes (the minimum Ethernet payload) -> 84 exactly; 47 -> 85.
    EXPECT_EQ(AccountIp(Parsed("ethernet"), 46), 84U);
    EXPECT_EQ(AccountIp(Parsed("ethernet"), 47), 85U);
    // docsis: 40 + 18 = 58 < 64 -> 64.
    EXPECT_EQ(AccountIp(Parsed("docsis"), 40), 64U);
    // The mpu applies before ATM framing: pppoa-vcmux mpu 100, 40-byte packet:
    // 50 -> 100 -> ceil(100/48) = 3 cells -> 159 (without the mpu: 2 cells, 106).
    EXPECT_EQ(AccountIp(Parsed("pppoa-vcmux mpu 100"), 40), 159U);
    EXPECT_EQ(AccountIp(Parsed("pppoa-vcmux"), 40), 106U);
}

TEST(CakeOverheadTest, RawVersusNetworkOffsetBase)
{
    // "overhead 38": MAC header stripped: 1514 - 14 + 38 = 1538.
    LinkLayer stripped = Parsed("overhead 38");
    EXPECT_TRUE(UsesNetworkOffset(stripped));
    EXPECT_EQ(CalcOverhead(stripped, 1514, ETH_HLEN), 1538U);
    // The offset used is the one given: with offset 18 (a VLAN-tagged skb of 1518) the IP
    // packet is still 1500 -> 1538.
    EXPECT_EQ(CalcOverhead(stripped, 1518, 18), 1538U);

    // "raw": overhead 0, noatm, RAW attribute -> nothing stripped: 1514.
    LinkLayer raw = Parsed("raw");
    EXPECT_EQ(raw.overhead, 0);
    EXPECT_EQ(raw.atm, CakeAtmMode::NONE);
    EXPECT_FALSE(UsesNetworkOffset(raw));
    EXPECT_EQ(CalcOverhead(raw, 1514, ETH_HLEN), 1514U);

    // q_cake.c keeps sending RAW once "raw" appeared, so "raw overhead 38" adds 38 to the
    // whole skb: 1514 + 38 = 1552, and the offset does not matter.
    LinkLayer rawPlus = Parsed("raw overhead 38");
    EXPECT_FALSE(UsesNetworkOffset(rawPlus));
    EXPECT_EQ(CalcOverhead(rawPlus, 1514, ETH_HLEN), 1552U);
    EXPECT_EQ(CalcOverhead(rawPlus, 1514, 0), 1552U);

    // raw resets an earlier atm mode and overhead: "pppoa-vcmux raw" -> 1514 unchanged.
    EXPECT_EQ(CalcOverhead(Parsed("pppoa-vcmux raw"), 1514, ETH_HLEN), 1514U);
}

TEST(CakeOverheadTest, Overhead18FromTheNetworkHeader)
{
    // tc's "overhead 18" sets CAKE_FLAG_OVERHEAD: a 1514-byte frame with its 14-byte MAC
    // header is 1500 network bytes, + 18 = 1518 (not 1514 + 18 = 1532).
    EXPECT_EQ(CalcOverhead(Parsed("overhead 18"), 1514, ETH_HLEN), 1518U);
    // mpu raises a short packet only: a 60-byte frame is 46 + 18 = 64 < 84 -> 84; the
    // 1514-byte one stays 1518.
    EXPECT_EQ(CalcOverhead(Parsed("overhead 18 mpu 84"), 60, ETH_HLEN), 84U);
    EXPECT_EQ(CalcOverhead(Parsed("overhead 18 mpu 84"), 1514, ETH_HLEN), 1518U);
    // atm: 1518 bytes fill ceil(1518 / 48) = 32 cells (31 x 48 = 1488 < 1518 <= 1536) of 53
    // bytes = 1696; mpu first, then cells: 84 -> ceil(84 / 48) = 2 cells = 106.
    EXPECT_EQ(CalcOverhead(Parsed("overhead 18 atm"), 1514, ETH_HLEN), 1696U);
    EXPECT_EQ(CalcOverhead(Parsed("overhead 18 mpu 84 atm"), 60, ETH_HLEN), 106U);
}

TEST(CakeOverheadTest, NegativeOverhead)
{
    // "overhead -4" on a 1514-byte skb: 1500 - 4 = 1496.
    EXPECT_EQ(CalcOverhead(Parsed("overhead -4"), 1514, ETH_HLEN), 1496U);
    // Deviation from Linux: a result below zero stops at 0 (then the mpu applies):
    // 30-byte skb -> 16 - 64 < 0 -> 0 -> mpu 20 -> 20.
    EXPECT_EQ(CalcOverhead(Parsed("overhead -64 mpu 20"), 30, ETH_HLEN), 20U);
    EXPECT_EQ(CalcOverhead(Parsed("overhead -64"), 30, ETH_HLEN), 0U);
}

TEST(CakeOverheadTest, SeedOverhead38Mpu84)
{
    LinkLayer ll = Parsed("overhead 38 mpu 84");
    // 1500-byte IP packet: 1500 + 38 = 1538 (what GigE occupies: 14 + 1500 + 4 FCS
    // + 8 preamble/SFD + 12 IFG).
    EXPECT_EQ(AccountIp(ll, 1500), 1538U);
    // 64-byte IP packet: 64 + 38 = 102 > 84.
    EXPECT_EQ(AccountIp(ll, 64), 102U);
    // A 64-byte Ethernet frame (FCS included) carries 46 IP bytes: 46 + 38 = 84 = mpu.
    EXPECT_EQ(AccountIp(ll, 46), 84U);
    // A 28-byte IP packet also occupies a padded 64-byte frame: 66 -> raised to 84.
    EXPECT_EQ(AccountIp(ll, 28), 84U);
}

/// True when the shaper at rate spaces a packet at least as long as the wire needs.
/// GigE: 8 ns per byte; wire bytes of an IP packet: max(ip + 38, 84).
bool
WireStaysAhead(const CakeRate& rate, const LinkLayer& ll, uint32_t ipLen)
{
    const uint32_t wire = ipLen + 38 < 84 ? 84 : ipLen + 38;
    return TimeForBytes(rate, AccountIp(ll, ipLen)) >= uint64_t{wire} * 8;
}

TEST(CakeOverheadTest, SeedRemark900MbitOnGigE)
{
    // 900 Mbit/s = 112,500,000 bytes/s: exact time per byte 1e9 / 112.5e6 = 80/9 ns.
    // Shaper spacing of A accounted bytes = 80A/9 ns; the wire takes 8W ns for W bytes.
    // The wire stays ahead while 80A/9 >= 8W, i.e. (1000/900) A >= W.
    const CakeRate r900 = CakeSetRate(112500000);

    // (1) Accounting as the kernel does with overhead 38 (MAC header stripped): A = L + 38
    // for an IP packet of L bytes, and W = L + 38 too (for L >= 46), so 10/9 A >= W holds
    // for every size: no crossover. With mpu 84 the small sizes are A = W = 84: still
    // ahead. Checked over every IP size 20..1500.
    const LinkLayer eth = Parsed("overhead 38 mpu 84");
    for (uint32_t l = 20; l <= 1500; ++l)
    {
        EXPECT_TRUE(WireStaysAhead(r900, eth, l)) << l;
    }
    // Without the mpu the small frames are padded on the wire (W = 84) but accounted
    // L + 38: ahead iff 80(L + 38)/9 >= 672 <=> L + 38 >= 75.6 <=> L >= 38 (margin at
    // L = 38: 76 * 80/9 = 675.6 ns vs 672 ns, above the <= 1 ns rounding).
    const LinkLayer noMpu = Parsed("overhead 38");
    EXPECT_TRUE(WireStaysAhead(r900, noMpu, 38));
    EXPECT_FALSE(WireStaysAhead(r900, noMpu, 37));

    // (2) The brief's inequality 1000/900 * (len + 24) >= len + 38 (accounted len + 24,
    // wire len + 38, same len on both sides): 10 len + 240 >= 9 len + 342 <=> len >= 102,
    // not 162. Reproduced with "overhead 24": at L = 102 both sides are 1120 ns exactly
    // (126 * 80/9 = 1120 = 140 * 8), so the rounded-down shaper time decides the tie and
    // is checked to be 1119 or 1120; L = 103 is ahead, L = 101 behind.
    const LinkLayer ov24 = Parsed("overhead 24");
    EXPECT_TRUE(WireStaysAhead(r900, ov24, 103));
    EXPECT_FALSE(WireStaysAhead(r900, ov24, 101));
    const uint64_t tie = TimeForBytes(r900, AccountIp(ov24, 102));
    EXPECT_GE(tie, 1119U);
    EXPECT_LE(tie, 1120U);

    // (3) Where 162 does come from: ahead iff 10 (L + b) >= 9 (L + 38) <=> L >= 342 - 10 b;
    // L = 162 needs b = 18, i.e. a shaper that counts the Ethernet frame with FCS but not
    // preamble and gap (docsis, overhead 18) against a GigE wire of L + 38. Tie at L = 162
    // (180 * 80/9 = 1600 = 200 * 8); 163 ahead, 161 behind.
    const LinkLayer docsis = Parsed("docsis");
    EXPECT_TRUE(WireStaysAhead(r900, docsis, 163));
    EXPECT_TRUE(WireStaysAhead(r900, docsis, 1500));
    EXPECT_FALSE(WireStaysAhead(r900, docsis, 161));
    EXPECT_FALSE(WireStaysAhead(r900, docsis, 64));
}

TEST(CakeOverheadTest, GsoEachSegmentCarriesItsOwnOverhead)
{
    const LinkLayer eth = Parsed("ethernet");
    // TCP GSO skb on Ethernet: hdr_len = 14 MAC + 20 IP + 32 TCP (timestamps) = 66,
    // gso_size 1448, 10 full segments: each segment is 1448 + 66 = 1514 bytes -> 1500 + 38
    // = 1538; total 10 * 1538 = 15380.
    EXPECT_EQ(GsoAccountedBytes(eth, 10, 1448, 66, ETH_HLEN), 15380U);
    // The same skb accounted as one packet would be 66 + 14480 = 14546 -> 14546 - 14 + 38 =
    // 14570: 810 = 9 * (52 headers + 38 overhead) less.
    EXPECT_EQ(CalcOverhead(eth, 14546, ETH_HLEN), 14570U);
    EXPECT_EQ(CakeOverhead(eth, 14546, ETH_HLEN, 1448, 66, 10), 15380U);

    // A short last segment: skb = 66 + 9 * 1448 + 500 = 13598, segs 10. Last length
    // = 13598 - 1448 * 9 = 566 -> 566 - 14 + 38 = 590; total 9 * 1538 + 590 = 14432.
    EXPECT_EQ(CakeOverhead(eth, 13598, ETH_HLEN, 1448, 66, 10), 14432U);
    // SKB_GSO_DODGY count: ceil((13598 - 66) / 1448) = ceil(13532 / 1448) = 10
    // (9 * 1448 = 13032 < 13532 <= 14480).
    EXPECT_EQ(GsoSegments(13598, 66, 1448), 10U);
    EXPECT_EQ(GsoSegments(14546, 66, 1448), 10U);
    EXPECT_EQ(GsoSegments(14547, 66, 1448), 11U);

    // ATM per segment: pppoe-vcmux, 3 full segments of 1514 -> 1500 + 32 = 1532 -> 32
    // cells = 1696 each -> 5088. As one packet: 66 + 4344 = 4410 -> 4396 + 32 = 4428 ->
    // ceil(4428/48) = 93 cells (48 * 92 = 4416) -> 4929.
    const LinkLayer atm = Parsed("pppoe-vcmux");
    EXPECT_EQ(GsoAccountedBytes(atm, 3, 1448, 66, ETH_HLEN), 5088U);
    EXPECT_EQ(CalcOverhead(atm, 4410, ETH_HLEN), 4929U);

    // gso_size 0: a plain packet.
    EXPECT_EQ(CakeOverhead(eth, 1514, ETH_HLEN, 0, 0, 0), 1538U);
    // One segment: the last-segment path alone: 66 + 1000 = 1066 -> 1052 + 38 = 1090.
    EXPECT_EQ(CakeOverhead(eth, 1066, ETH_HLEN, 1448, 66, 1), 1090U);
}

TEST(CakeOverheadTest, SetRateKernelLoop)
{
    // Unlimited.
    const CakeRate zero = CakeSetRate(0);
    EXPECT_EQ(zero.rateNs, 0U);
    EXPECT_EQ(zero.rateShift, 0);
    EXPECT_EQ(TimeForBytes(zero, 1538), 0U);

    // 50 Mbit/s = 6,250,000 bytes/s: 1e9 / 6.25e6 = 160 ns per byte exactly, so
    // (1e9 << 34) / 6.25e6 = 160 * 2^34. 160 * 2^34 >= 2^34, halved until below 2^34:
    // 160 < 2^8 = 256 -> 8 halvings (exact, 160 * 2^34 has 2^34 as a factor):
    // rate_ns = 160 * 2^26, rate_shft = 26.
    const CakeRate r50 = CakeSetRate(6250000);
    EXPECT_EQ(r50.rateShift, 26);
    EXPECT_EQ(r50.rateNs, uint64_t{160} << 26);

    // Below MIN_RATE: rate 1 is treated as 64 bytes/s: 1e9 / 64 = 15,625,000 ns per byte
    // exactly. 15,625,000 < 2^24 = 16,777,216 and >= 2^23, so 24 halvings:
    // rate_ns = 15,625,000 * 2^10, rate_shft = 10.
    const CakeRate r1 = CakeSetRate(1);
    EXPECT_EQ(r1.rateShift, 10);
    EXPECT_EQ(r1.rateNs, uint64_t{15625000} << 10);
    EXPECT_EQ(TimeForBytes(r1, 1), 15625000U);

    // 10 Gbit/s = 1.25e9 bytes/s: 0.8 ns per byte; (1e9 << 34) / 1.25e9 = 0.8 * 2^34
    // = 13,743,895,347.2 -> 13,743,895,347 < 2^34: no halving, rate_shft stays 34.
    const CakeRate r10g = CakeSetRate(1250000000);
    EXPECT_EQ(r10g.rateShift, 34);
    EXPECT_EQ(r10g.rateNs, 13743895347U);
    // 1538 bytes: 1538 * 0.8 = 1230.4 ns -> 1230.
    EXPECT_EQ(TimeForBytes(r10g, 1538), 1230U);
}

TEST(CakeOverheadTest, ShaperSpacing1538BytesAt50Mbit)
{
    // Exact: 1538 * 8 bits / 50e6 bit/s = 246.08 us = 246,080 ns.
    // Bound from the rate_ns rounding: rate_ns / 2^shft never exceeds the true ns per byte
    // t = 1e9 / rate (every step rounds down) and is at most 2^-shft below it (the division
    // loses < 1 unit of 2^-34, each halving < 1 unit of its own 2^-shft, and these add to
    // < 2^-shft). TimeForBytes floors once more, so for B bytes
    //   B t - B 2^-shft - 1 < TimeForBytes <= B t.
    // At 50 Mbit/s shft = 26: 1538 * 2^-26 = 0.000023 ns, so 246,079 <= result <= 246,080;
    // here t = 160 is exact, so the result is 246,080 exactly.
    const CakeRate r50 = CakeSetRate(6250000);
    const uint64_t t = TimeForBytes(r50, 1538);
    EXPECT_GE(t, 246079U);
    EXPECT_LE(t, 246080U);
    EXPECT_EQ(t, 246080U);
    // The ethernet preset gives exactly those 1538 bytes for a 1500-byte IP packet.
    EXPECT_EQ(TimeForBytes(r50, AccountIp(Parsed("ethernet"), 1500)), 246080U);
}

TEST(CakeOverheadTest, ShaperSpacingRoundingBoundAtInexactRate)
{
    // 900 Mbit/s: t = 80/9 ns per byte, not representable. (1e9 << 34) / 112.5e6
    // = 80 * 2^34 / 9 = 1,374,389,534,720 / 9 = 152,709,948,302 remainder 2
    // (9 * 152,709,948,302 = 1,374,389,534,718). That is 8.9 * 2^34, so 4 halvings bring it
    // below 2^34: rate_shft = 30, rate_ns = floor(152,709,948,302 / 16) = 9,544,371,768
    // (16 * 9,544,371,768 = 152,709,948,288, remainder 14).
    const CakeRate r900 = CakeSetRate(112500000);
    EXPECT_EQ(r900.rateShift, 30);
    EXPECT_EQ(r900.rateNs, 9544371768U);
    // 1538 bytes: exact 1538 * 80/9 = 13,671.1 ns; bound (13,671.1 - 1538 * 2^-30 - 1,
    // 13,671.1] contains only the integers 13,671 (and 13,670 only if the error reached 1.1,
    // which it cannot): result 13,671.
    EXPECT_EQ(TimeForBytes(r900, 1538), 13671U);
    // The invariant of the loop: 2^33 <= rate_ns < 2^34 once it halved at least once.
    EXPECT_LT(r900.rateNs, uint64_t{1} << 34);
    EXPECT_GE(r900.rateNs, uint64_t{1} << 33);
}

} // namespace
