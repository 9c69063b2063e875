/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for the tc-cake option parser and printer. Expected values are derived in
 * comments from iproute2's tc/q_cake.c (cake_parse_opt: which words set which local variable
 * and which attributes are then sent; cake_print_opt: the `tc qdisc show` wording and order)
 * and from Linux's sch_cake.c (cake_init defaults, cake_change applying only the attributes
 * sent, cake_dump reporting all of them).
 */

#include "error-message.h"

#include "ns3/cake-config.h"

#include <gtest/gtest.h>
#include <string>

namespace
{

using ns3::debloat::CakeAckFilterMode;
using ns3::debloat::CakeAckFilterName;
using ns3::debloat::CakeAtmMode;
using ns3::debloat::CakeConfig;
using ns3::debloat::CakeDiffservMode;
using ns3::debloat::CakeDiffservName;
using ns3::debloat::CakeFlowMode;
using ns3::debloat::CakeFlowModeName;
using ns3::debloat::FormatCakeOptionChanges;
using ns3::debloat::FormatCakeOptions;
using ns3::debloat::ParseCakeOptions;
using ns3::debloat::UsesNetworkOffset;

/// One ms in ns.
constexpr uint64_t MS = 1000000;
/// One us in ns.
constexpr uint64_t US = 1000;

/**
 * @param options a tc-cake option string that must be accepted
 * @param base the settings before
 * @return the settings after ParseCakeOptions()
 */
CakeConfig
Parsed(const std::string& options, CakeConfig base = CakeConfig{})
{
    ParseCakeOptions(base, options);
    return base;
}

/**
 * @param options a tc-cake option string that must be refused
 * @return the message of the std::invalid_argument, or "" if none was thrown
 */
std::string
ParseError(const std::string& options)
{
    CakeConfig config;
    return debloattest::ErrorOf([&] { ParseCakeOptions(config, options); });
}

/**
 * Compares every field of two configurations.
 * @param actual the settings under test
 * @param expected the settings they should equal
 */
void
ExpectSameConfig(const CakeConfig& actual, const CakeConfig& expected)
{
    EXPECT_EQ(actual.rate, expected.rate);
    EXPECT_EQ(actual.autorateIngress, expected.autorateIngress);
    EXPECT_EQ(actual.linkLayer.overhead, expected.linkLayer.overhead);
    EXPECT_EQ(actual.linkLayer.mpu, expected.linkLayer.mpu);
    EXPECT_EQ(actual.linkLayer.atm, expected.linkLayer.atm);
    EXPECT_EQ(actual.linkLayer.overheadSet, expected.linkLayer.overheadSet);
    EXPECT_EQ(actual.linkLayer.raw, expected.linkLayer.raw);
    EXPECT_EQ(actual.targetNs, expected.targetNs);
    EXPECT_EQ(actual.intervalNs, expected.intervalNs);
    EXPECT_EQ(actual.diffserv, expected.diffserv);
    EXPECT_EQ(actual.flowMode, expected.flowMode);
    EXPECT_EQ(actual.nat, expected.nat);
    EXPECT_EQ(actual.wash, expected.wash);
    EXPECT_EQ(actual.ingress, expected.ingress);
    EXPECT_EQ(actual.ackFilter, expected.ackFilter);
    EXPECT_EQ(actual.splitGso, expected.splitGso);
    EXPECT_EQ(actual.memlimit, expected.memlimit);
    EXPECT_EQ(actual.fwmark, expected.fwmark);
}

TEST(CakeConfig, EmptyStringKeepsTheKernelDefaults)
{
    // cake_init(): unlimited, diffserv3, triple-isolate, interval 100 ms, target 5 ms,
    // split-gso; everything else 0 / off.
    const CakeConfig defaults;
    EXPECT_EQ(defaults.rate, 0U);
    EXPECT_EQ(defaults.diffserv, CakeDiffservMode::DIFFSERV3);
    EXPECT_EQ(defaults.flowMode, CakeFlowMode::TRIPLE);
    EXPECT_EQ(defaults.intervalNs, 100 * MS);
    EXPECT_EQ(defaults.targetNs, 5 * MS);
    EXPECT_TRUE(defaults.splitGso);
    // No word: cake_parse_opt() sends no attribute, cake_change() changes nothing.
    ExpectSameConfig(Parsed(""), defaults);
    ExpectSameConfig(Parsed(" \t\n "), defaults);
    // Nor does it reset settings already made.
    const CakeConfig shaped = Parsed("bandwidth 10Mbit besteffort wash ethernet");
    ExpectSameConfig(Parsed("", shaped), shaped);
}

TEST(CakeConfig, IssueExample)
{
    const CakeConfig config =
        Parsed("bandwidth 50Mbit diffserv4 dual-srchost nat ack-filter overhead 38 mpu 84");
    // get_rate64(): 50 * 10^6 bit/s / 8 = 6250000 bytes/s (TCA_CAKE_BASE_RATE64).
    EXPECT_EQ(config.rate, 6250000U);
    EXPECT_EQ(config.diffserv, CakeDiffservMode::DIFFSERV4);
    EXPECT_EQ(config.flowMode, CakeFlowMode::DUAL_SRC);
    EXPECT_TRUE(config.nat);
    EXPECT_EQ(config.ackFilter, CakeAckFilterMode::FILTER);
    // overhead 38: overhead_set, TCA_CAKE_OVERHEAD = 38, no TCA_CAKE_RAW.
    EXPECT_EQ(config.linkLayer.overhead, 38);
    EXPECT_TRUE(config.linkLayer.overheadSet);
    EXPECT_FALSE(config.linkLayer.raw);
    EXPECT_TRUE(UsesNetworkOffset(config.linkLayer));
    // mpu 84 > 0: TCA_CAKE_MPU sent.
    EXPECT_EQ(config.linkLayer.mpu, 84U);
    // No atm word: TCA_CAKE_ATM not sent, the default noatm stays.
    EXPECT_EQ(config.linkLayer.atm, CakeAtmMode::NONE);
    // Untouched: bandwidth sends autorate 0 (already off); rtt, wash, split-gso as before.
    EXPECT_FALSE(config.autorateIngress);
    EXPECT_EQ(config.intervalNs, 100 * MS);
    EXPECT_EQ(config.targetNs, 5 * MS);
    EXPECT_FALSE(config.wash);
    EXPECT_TRUE(config.splitGso);
    EXPECT_FALSE(config.ingress);
}

TEST(CakeConfig, TinPresets)
{
    EXPECT_EQ(Parsed("besteffort").diffserv, CakeDiffservMode::BESTEFFORT);
    EXPECT_EQ(Parsed("precedence").diffserv, CakeDiffservMode::PRECEDENCE);
    EXPECT_EQ(Parsed("diffserv8").diffserv, CakeDiffservMode::DIFFSERV8);
    EXPECT_EQ(Parsed("diffserv4").diffserv, CakeDiffservMode::DIFFSERV4);
    // q_cake.c: strcmp(*argv, "diffserv") also selects CAKE_DIFFSERV_DIFFSERV4.
    EXPECT_EQ(Parsed("diffserv").diffserv, CakeDiffservMode::DIFFSERV4);
    // Since "q_cake: allow changing to diffserv3" diffserv3 (value 0) is sent too, so it
    // switches an existing diffserv4 back.
    EXPECT_EQ(Parsed("diffserv3", Parsed("diffserv4")).diffserv, CakeDiffservMode::DIFFSERV3);
    // One variable: the last word wins.
    EXPECT_EQ(Parsed("diffserv8 besteffort").diffserv, CakeDiffservMode::BESTEFFORT);
    EXPECT_EQ(Parsed("besteffort diffserv").diffserv, CakeDiffservMode::DIFFSERV4);
}

TEST(CakeConfig, RttPresets)
{
    // q_cake.c's presets[] (target us, interval us); every target is interval / 20.
    struct Expected
    {
        const char* name;
        uint64_t targetNs;
        uint64_t intervalNs;
    };

    const Expected table[] = {
        {"datacentre", 5 * US, 100 * US},
        {"lan", 50 * US, 1 * MS},
        {"metro", 500 * US, 10 * MS},
        {"regional", 1500 * US, 30 * MS},
        {"internet", 5 * MS, 100 * MS},
        {"oceanic", 15 * MS, 300 * MS},
        {"satellite", 50 * MS, 1000 * MS},
        // 50000000 us = 50 s and 1000000000 us = 1000 s (tc-cake(8) says 3600 s).
        {"interplanetary", 50000 * MS, 1000000 * MS},
    };
    // Start from another rtt so that every preset visibly changes both values.
    const CakeConfig base = Parsed("rtt 20ms");
    for (const auto& row : table)
    {
        const CakeConfig config = Parsed(row.name, base);
        EXPECT_EQ(config.targetNs, row.targetNs) << row.name;
        EXPECT_EQ(config.intervalNs, row.intervalNs) << row.name;
    }
}

TEST(CakeConfig, RttSetsIntervalAndATwentiethAsTarget)
{
    // target = interval / 20: 20000 us / 20 = 1000 us.
    CakeConfig config = Parsed("rtt 20ms");
    EXPECT_EQ(config.intervalNs, 20 * MS);
    EXPECT_EQ(config.targetNs, 1 * MS);
    // A bare number is microseconds: 300 us -> target 15 us.
    config = Parsed("rtt 300");
    EXPECT_EQ(config.intervalNs, 300 * US);
    EXPECT_EQ(config.targetNs, 15 * US);
    // 10 us / 20 = 0, raised to 1 us ("if (!target) target = 1").
    config = Parsed("rtt 10us");
    EXPECT_EQ(config.intervalNs, 10 * US);
    EXPECT_EQ(config.targetNs, 1 * US);
    // rtt 0: the interval 0 is not sent (the kernel keeps 100 ms), the target 1 us is.
    config = Parsed("rtt 0");
    EXPECT_EQ(config.intervalNs, 100 * MS);
    EXPECT_EQ(config.targetNs, 1 * US);
    // rtt and a preset write the same variables: the later word counts.
    config = Parsed("lan rtt 20ms");
    EXPECT_EQ(config.intervalNs, 20 * MS);
    EXPECT_EQ(config.targetNs, 1 * MS);
    config = Parsed("rtt 20ms lan");
    EXPECT_EQ(config.intervalNs, 1 * MS);
    EXPECT_EQ(config.targetNs, 50 * US);
    // Two presets are duparg(), even the same one twice.
    EXPECT_EQ(ParseError("lan metro"),
              "tc cake: \"metro\" conflicts with \"lan\"; give only one of: datacentre, lan, "
              "metro, regional, internet, oceanic, satellite, interplanetary");
    EXPECT_EQ(ParseError("lan rtt 5ms lan"), "tc cake: \"lan\" given twice");
    // Two rtt values are not: the last one counts.
    EXPECT_EQ(Parsed("rtt 5ms rtt 40ms").intervalNs, 40 * MS);
}

TEST(CakeConfig, BandwidthUnlimitedAndAutorate)
{
    // bps units count bytes: 1mbps = 10^6 bytes/s; a bare number is bit/s, truncated to
    // whole bytes: 100 bit = 12.5 -> 12 bytes/s.
    EXPECT_EQ(Parsed("bandwidth 1mbps").rate, 1000000U);
    EXPECT_EQ(Parsed("bandwidth 100").rate, 12U);
    // unlimited sets bandwidth = 0 and unlimited = 1: the rate 0 is sent.
    const CakeConfig shaped = Parsed("bandwidth 10Mbit");
    EXPECT_EQ(shaped.rate, 1250000U);
    EXPECT_EQ(Parsed("bandwidth 10Mbit unlimited").rate, 0U);
    EXPECT_EQ(Parsed("unlimited", shaped).rate, 0U);
    EXPECT_EQ(Parsed("unlimited bandwidth 10Mbit").rate, 1250000U);
    // "bandwidth 0" leaves bandwidth and unlimited 0: no rate attribute, the rate stays.
    EXPECT_EQ(Parsed("bandwidth 0", shaped).rate, 1250000U);
    EXPECT_EQ(Parsed("bandwidth 7bit", shaped).rate, 1250000U); // 7 bit = 0 bytes/s
    // autorate-ingress sets autorate = 1; bandwidth and unlimited set it back to 0.
    EXPECT_TRUE(Parsed("autorate-ingress").autorateIngress);
    EXPECT_TRUE(Parsed("bandwidth 10Mbit autorate-ingress").autorateIngress);
    EXPECT_FALSE(Parsed("autorate-ingress bandwidth 10Mbit").autorateIngress);
    EXPECT_FALSE(Parsed("autorate-ingress unlimited").autorateIngress);
    // ... and "bandwidth 0" still sends autorate 0, turning it off.
    const CakeConfig autorate = Parsed("bandwidth 10Mbit autorate-ingress");
    EXPECT_FALSE(Parsed("bandwidth 0", autorate).autorateIngress);
    // A word that does not mention it keeps it.
    EXPECT_TRUE(Parsed("besteffort", autorate).autorateIngress);
    EXPECT_EQ(Parsed("autorate-ingress", shaped).rate, 1250000U);
}

TEST(CakeConfig, IsolationWords)
{
    EXPECT_EQ(Parsed("flowblind").flowMode, CakeFlowMode::NONE);
    EXPECT_EQ(Parsed("srchost").flowMode, CakeFlowMode::SRC_IP);
    EXPECT_EQ(Parsed("dsthost").flowMode, CakeFlowMode::DST_IP);
    EXPECT_EQ(Parsed("hosts").flowMode, CakeFlowMode::HOSTS);
    EXPECT_EQ(Parsed("flows").flowMode, CakeFlowMode::FLOWS);
    EXPECT_EQ(Parsed("dual-srchost").flowMode, CakeFlowMode::DUAL_SRC);
    EXPECT_EQ(Parsed("dual-dsthost").flowMode, CakeFlowMode::DUAL_DST);
    EXPECT_EQ(Parsed("triple-isolate", Parsed("flows")).flowMode, CakeFlowMode::TRIPLE);
    // nat is a separate attribute: changing the isolation keeps it (cake_change() keeps
    // CAKE_FLOW_NAT_FLAG when it sets the mode).
    const CakeConfig natted = Parsed("nat dual-dsthost");
    EXPECT_TRUE(natted.nat);
    EXPECT_TRUE(Parsed("srchost", natted).nat);
    EXPECT_EQ(Parsed("srchost", natted).flowMode, CakeFlowMode::SRC_IP);
    EXPECT_EQ(Parsed("nonat", natted).flowMode, CakeFlowMode::DUAL_DST);
    EXPECT_FALSE(Parsed("nonat", natted).nat);
}

TEST(CakeConfig, OnOffWords)
{
    EXPECT_TRUE(Parsed("wash").wash);
    EXPECT_FALSE(Parsed("nowash", Parsed("wash")).wash);
    EXPECT_TRUE(Parsed("ingress").ingress);
    EXPECT_FALSE(Parsed("egress", Parsed("ingress")).ingress);
    EXPECT_FALSE(Parsed("no-split-gso").splitGso);
    EXPECT_TRUE(Parsed("split-gso", Parsed("no-split-gso")).splitGso);
    EXPECT_EQ(Parsed("ack-filter").ackFilter, CakeAckFilterMode::FILTER);
    EXPECT_EQ(Parsed("ack-filter-aggressive").ackFilter, CakeAckFilterMode::AGGRESSIVE);
    EXPECT_EQ(Parsed("no-ack-filter", Parsed("ack-filter")).ackFilter, CakeAckFilterMode::NONE);
    // One variable each: the last word wins.
    EXPECT_TRUE(Parsed("nowash wash").wash);
    EXPECT_FALSE(Parsed("wash nowash").wash);
    EXPECT_EQ(Parsed("ack-filter no-ack-filter ack-filter-aggressive").ackFilter,
              CakeAckFilterMode::AGGRESSIVE);
}

TEST(CakeConfig, MemlimitAndFwmark)
{
    // get_size(): "mb" is 1024 * 1024 bytes: 32 * 1048576 = 33554432.
    EXPECT_EQ(Parsed("memlimit 32mb").memlimit, 33554432U);
    EXPECT_EQ(Parsed("memlimit 1500000").memlimit, 1500000U);
    // "kbit" is 1024 bits = 128 bytes.
    EXPECT_EQ(Parsed("memlimit 8kbit").memlimit, 1024U);
    // 4gb = 2^32 > UINT_MAX: get_size() refuses it.
    EXPECT_NE(ParseError("memlimit 4gb"), "");
    // memlimit 0 is not sent: an explicit limit stays.
    const CakeConfig limited = Parsed("memlimit 32mb");
    EXPECT_EQ(Parsed("memlimit 0", limited).memlimit, 33554432U);
    // get_u32(x, 0): 0xff00 = 65280; a leading 0 is octal (010 = 8).
    EXPECT_EQ(Parsed("fwmark 0xff00").fwmark, 0xff00U);
    EXPECT_EQ(Parsed("fwmark 010").fwmark, 8U);
    EXPECT_EQ(Parsed("fwmark 4294967295").fwmark, 4294967295U);
    EXPECT_NE(ParseError("fwmark 0x100000000"), "");
    EXPECT_NE(ParseError("fwmark -1"), "");
    // fwmark 0 is not sent either: tc cannot turn the mark off again.
    EXPECT_EQ(Parsed("fwmark 0", Parsed("fwmark 0xff00")).fwmark, 0xff00U);
}

TEST(CakeConfig, LinkLayerWordsAccumulateWithinOneLine)
{
    // pppoe-ptm: overhead += 30, atm = ptm; ether-vlan: overhead += 4 -> 34, ptm.
    CakeConfig config = Parsed("pppoe-ptm ether-vlan");
    EXPECT_EQ(config.linkLayer.overhead, 34);
    EXPECT_EQ(config.linkLayer.atm, CakeAtmMode::PTM);
    EXPECT_TRUE(config.linkLayer.overheadSet);
    EXPECT_FALSE(config.linkLayer.raw);
    // Repeated ether-vlan adds each time: 38 + 4 + 4 = 46; ethernet sets mpu 84 and leaves
    // the atm mode alone (no TCA_CAKE_ATM), so an earlier atm stays.
    config = Parsed("ethernet ether-vlan ether-vlan", Parsed("atm"));
    EXPECT_EQ(config.linkLayer.overhead, 46);
    EXPECT_EQ(config.linkLayer.mpu, 84U);
    EXPECT_EQ(config.linkLayer.atm, CakeAtmMode::ATM);
    // overhead N sets; later framing words add to it; a later overhead N replaces all.
    EXPECT_EQ(Parsed("ether-vlan overhead 10").linkLayer.overhead, 10);
    EXPECT_EQ(Parsed("overhead 10 ether-vlan").linkLayer.overhead, 14);
    EXPECT_EQ(Parsed("overhead 10 ether-vlan overhead 20").linkLayer.overhead, 20);
    EXPECT_EQ(Parsed("overhead -64").linkLayer.overhead, -64);
    // conservative: overhead = 48, atm. docsis: += 18, mpu 64, noatm.
    config = Parsed("conservative");
    EXPECT_EQ(config.linkLayer.overhead, 48);
    EXPECT_EQ(config.linkLayer.atm, CakeAtmMode::ATM);
    config = Parsed("docsis", Parsed("atm"));
    EXPECT_EQ(config.linkLayer.overhead, 18);
    EXPECT_EQ(config.linkLayer.mpu, 64U);
    EXPECT_EQ(config.linkLayer.atm, CakeAtmMode::NONE);
    // The atm words alone touch neither overhead nor its flag.
    config = Parsed("ptm");
    EXPECT_EQ(config.linkLayer.atm, CakeAtmMode::PTM);
    EXPECT_FALSE(config.linkLayer.overheadSet);
    EXPECT_EQ(Parsed("noatm", Parsed("atm")).linkLayer.atm, CakeAtmMode::NONE);
    // via-ethernet is accepted and ignored.
    ExpectSameConfig(Parsed("via-ethernet"), CakeConfig{});
}

TEST(CakeConfig, EachLineStartsFromOverheadZero)
{
    // q_cake.c's overhead variable starts at 0 on every command line and is sent whole:
    // "ether-vlan" on a qdisc with overhead 34 sends 4, not 38.
    const CakeConfig vdsl = Parsed("pppoe-ptm ether-vlan");
    const CakeConfig changed = Parsed("ether-vlan", vdsl);
    EXPECT_EQ(changed.linkLayer.overhead, 4);
    EXPECT_EQ(changed.linkLayer.atm, CakeAtmMode::PTM); // no atm word: ptm stays
    // A line without overhead words keeps the overhead.
    EXPECT_EQ(Parsed("besteffort", vdsl).linkLayer.overhead, 34);
    // mpu is sent only when > 0: "mpu 0" keeps an earlier mpu, even after "ethernet" on
    // the same line (mpu = 84, then mpu = 0: nothing sent).
    const CakeConfig docsis = Parsed("docsis");
    EXPECT_EQ(Parsed("mpu 0", docsis).linkLayer.mpu, 64U);
    EXPECT_EQ(Parsed("ethernet mpu 0", docsis).linkLayer.mpu, 64U);
    EXPECT_EQ(Parsed("ethernet mpu 0").linkLayer.mpu, 0U);
    EXPECT_EQ(Parsed("mpu 0 ethernet", docsis).linkLayer.mpu, 84U);
}

TEST(CakeConfig, RawClearsTheOverheadFlag)
{
    // raw: atm none, overhead 0, overhead_set and TCA_CAKE_RAW: the kernel sets then clears
    // CAKE_FLAG_OVERHEAD, so packets are measured as they are.
    CakeConfig config = Parsed("raw", Parsed("pppoe-vcmux"));
    EXPECT_EQ(config.linkLayer.overhead, 0);
    EXPECT_EQ(config.linkLayer.atm, CakeAtmMode::NONE);
    EXPECT_TRUE(config.linkLayer.raw);
    EXPECT_FALSE(UsesNetworkOffset(config.linkLayer));
    // raw anywhere on the line: "raw overhead 10" sends overhead 10 and RAW.
    config = Parsed("raw overhead 10");
    EXPECT_EQ(config.linkLayer.overhead, 10);
    EXPECT_FALSE(UsesNetworkOffset(config.linkLayer));
    // A later line with an overhead but no raw sets the flag again.
    config = Parsed("overhead 5", config);
    EXPECT_EQ(config.linkLayer.overhead, 5);
    EXPECT_FALSE(config.linkLayer.raw);
    EXPECT_TRUE(UsesNetworkOffset(config.linkLayer));
}

TEST(CakeConfig, Errors)
{
    EXPECT_EQ(ParseError("bogus"),
              "tc cake: unknown word \"bogus\"; accepted: bandwidth, unlimited, "
              "autorate-ingress, rtt, datacentre, lan, metro, regional, internet, oceanic, "
              "satellite, interplanetary, besteffort, precedence, diffserv8, diffserv4, "
              "diffserv, diffserv3, nowash, wash, split-gso, no-split-gso, flowblind, srchost, "
              "dsthost, hosts, flows, dual-srchost, dual-dsthost, triple-isolate, nat, nonat, "
              "ptm, atm, noatm, raw, conservative, ipoa-vcmux, ipoa-llcsnap, bridged-vcmux, "
              "bridged-llcsnap, pppoa-vcmux, pppoa-llc, pppoe-vcmux, pppoe-llcsnap, pppoe-ptm, "
              "bridged-ptm, via-ethernet, ethernet, ether-vlan, docsis, overhead, mpu, ingress, "
              "egress, no-ack-filter, ack-filter, ack-filter-aggressive, memlimit, fwmark");
    // strcmp(): case matters; "help" prints the usage in tc and is an unknown word here.
    EXPECT_NE(ParseError("Bandwidth 10Mbit"), "");
    EXPECT_NE(ParseError("help"), "");
    // q_cake.c: "Illegal \"overhead\", valid range is -64 to 256".
    EXPECT_EQ(ParseError("overhead 300"),
              "tc cake: overhead \"300\": expected an integer in -64..256");
    EXPECT_EQ(ParseError("overhead -65"),
              "tc cake: overhead \"-65\": expected an integer in -64..256");
    EXPECT_NE(ParseError("overhead 0x10"), ""); // strtol(.., 10) stops at 'x'
    EXPECT_NE(ParseError("overhead 4294967296"), "");
    // q_cake.c: "Illegal \"mpu\", valid range is 0 to 256".
    EXPECT_EQ(ParseError("mpu -1"), "tc cake: mpu \"-1\": expected an integer in 0..256");
    EXPECT_EQ(ParseError("mpu 257"), "tc cake: mpu \"257\": expected an integer in 0..256");
    // NEXT_ARG() with nothing left.
    EXPECT_EQ(ParseError("bandwidth"),
              "tc cake: \"bandwidth\" needs a value: a rate (units bit, kbit, mbit, gbit, tbit, "
              "kibit, mibit, gibit, tibit; bps, kbps, mbps, gbps, tbps, kibps, mibps, gibps, "
              "tibps are bytes/s; a bare number is bit/s)");
    EXPECT_EQ(ParseError("besteffort rtt"),
              "tc cake: \"rtt\" needs a value: a time (units s/sec/secs, ms/msec/msecs, "
              "us/usec/usecs; a bare number is us)");
    // q_cake.c: "Illegal value for \"memlimit\": \"x\"".
    EXPECT_EQ(ParseError("memlimit x"),
              "tc cake: memlimit \"x\": expected a size in bytes (units b, k/kb, m/mb, g/gb, "
              "kbit, mbit, gbit)");
    EXPECT_NE(ParseError("bandwidth fast"), "");
    EXPECT_NE(ParseError("rtt 5ns"), "");
    EXPECT_NE(ParseError("fwmark mark"), "");
    // A flag takes no value: the number is the next word, an unknown one.
    EXPECT_NE(ParseError("nat 1"), "");

    // Nothing is applied when a word is refused, even the words before it.
    CakeConfig config = Parsed("bandwidth 10Mbit");
    EXPECT_NE(debloattest::ErrorOf([&] { ParseCakeOptions(config, "besteffort wash mpu 300"); }),
              "");
    ExpectSameConfig(config, Parsed("bandwidth 10Mbit"));
}

TEST(CakeConfig, Names)
{
    EXPECT_STREQ(CakeDiffservName(CakeDiffservMode::DIFFSERV3), "diffserv3");
    EXPECT_STREQ(CakeDiffservName(CakeDiffservMode::DIFFSERV4), "diffserv4");
    EXPECT_STREQ(CakeDiffservName(CakeDiffservMode::DIFFSERV8), "diffserv8");
    EXPECT_STREQ(CakeDiffservName(CakeDiffservMode::BESTEFFORT), "besteffort");
    EXPECT_STREQ(CakeDiffservName(CakeDiffservMode::PRECEDENCE), "precedence");
    EXPECT_STREQ(CakeDiffservName(static_cast<CakeDiffservMode>(5)), "(?diffserv?)");
    EXPECT_STREQ(CakeFlowModeName(CakeFlowMode::NONE), "flowblind");
    EXPECT_STREQ(CakeFlowModeName(CakeFlowMode::SRC_IP), "srchost");
    EXPECT_STREQ(CakeFlowModeName(CakeFlowMode::DST_IP), "dsthost");
    EXPECT_STREQ(CakeFlowModeName(CakeFlowMode::HOSTS), "hosts");
    EXPECT_STREQ(CakeFlowModeName(CakeFlowMode::FLOWS), "flows");
    EXPECT_STREQ(CakeFlowModeName(CakeFlowMode::DUAL_SRC), "dual-srchost");
    EXPECT_STREQ(CakeFlowModeName(CakeFlowMode::DUAL_DST), "dual-dsthost");
    EXPECT_STREQ(CakeFlowModeName(CakeFlowMode::TRIPLE), "triple-isolate");
    EXPECT_STREQ(CakeFlowModeName(static_cast<CakeFlowMode>(8)), "(?flowmode?)");
    EXPECT_STREQ(CakeAckFilterName(CakeAckFilterMode::NONE), "no-ack-filter");
    EXPECT_STREQ(CakeAckFilterName(CakeAckFilterMode::FILTER), "ack-filter");
    EXPECT_STREQ(CakeAckFilterName(CakeAckFilterMode::AGGRESSIVE), "ack-filter-aggressive");
}

TEST(CakeConfig, FormatDefaults)
{
    // cake_dump() reports rate 0 ("bandwidth unlimited"), autorate 0 (silent), diffserv3,
    // triple-isolate, nat 0, wash 0, ingress 0 (silent), ack-filter 0, split-gso 1,
    // rtt 100000 us (sprint_time: "100ms"), RAW because CAKE_FLAG_OVERHEAD is clear (then
    // no "noatm"), overhead 0, mpu/memlimit/fwmark 0 (silent).
    EXPECT_EQ(FormatCakeOptions(CakeConfig{}),
              "bandwidth unlimited diffserv3 triple-isolate nonat nowash no-ack-filter "
              "split-gso rtt 100ms raw overhead 0");
}

TEST(CakeConfig, FormatIssueExample)
{
    // print_rate(): 6250000 bytes/s << 3 = 50000000 bit/s = "50Mbit"; the overhead flag is
    // set, so no "raw" and atm none prints "noatm"; "mpu 84" as it is non-zero.
    const CakeConfig config =
        Parsed("bandwidth 50Mbit diffserv4 dual-srchost nat ack-filter overhead 38 mpu 84");
    EXPECT_EQ(FormatCakeOptions(config),
              "bandwidth 50Mbit diffserv4 dual-srchost nat nowash ack-filter split-gso "
              "rtt 100ms noatm overhead 38 mpu 84");
}

TEST(CakeConfig, FormatEveryOptionalWord)
{
    // satellite: rtt 1000000 us -> "1s"; pppoe-vcmux + ether-vlan: 32 + 4 = 36, atm;
    // memlimit 32 MiB -> sprint_size "32Mb"; fwmark printed "0x%x".
    const CakeConfig config =
        Parsed("bandwidth 20Mbit autorate-ingress besteffort flows wash ingress "
               "ack-filter-aggressive no-split-gso satellite pppoe-vcmux ether-vlan "
               "memlimit 32mb fwmark 0xff00");
    EXPECT_EQ(FormatCakeOptions(config),
              "bandwidth 20Mbit autorate-ingress besteffort flows nonat wash ingress "
              "ack-filter-aggressive no-split-gso rtt 1s atm overhead 36 memlimit 32Mb "
              "fwmark 0xff00");
    // raw then ptm: TCA_CAKE_RAW is reported and "ptm" still printed; interplanetary's
    // 1000 s prints as sprint_time's "%.3gs": "1e+03s". 1001 bit = 125 bytes/s (truncated) =
    // 1000 bit/s, which print_rate() shortens to "1Kbit"; docsis's mpu 64.
    EXPECT_EQ(FormatCakeOptions(Parsed("interplanetary raw ptm")),
              "bandwidth unlimited diffserv3 triple-isolate nonat nowash no-ack-filter "
              "split-gso rtt 1e+03s raw ptm overhead 0");
    EXPECT_EQ(FormatCakeOptions(Parsed("bandwidth 1001bit docsis regional")),
              "bandwidth 1Kbit diffserv3 triple-isolate nonat nowash no-ack-filter "
              "split-gso rtt 30ms noatm overhead 18 mpu 64");
    // memlimit 1500000 is neither near a whole Mb nor Kb: bytes.
    EXPECT_EQ(FormatCakeOptions(Parsed("memlimit 1500000 overhead -4")),
              "bandwidth unlimited diffserv3 triple-isolate nonat nowash no-ack-filter "
              "split-gso rtt 100ms noatm overhead -4 memlimit 1500000b");
}

TEST(CakeConfig, FormatsOnlyTheChangedSettings)
{
    // The settings of FormatCakeOptions() that are not among the defaults' ("bandwidth
    // unlimited", "diffserv3", "triple-isolate", "nonat", "nowash", "no-ack-filter",
    // "split-gso", "rtt 100ms" and the link-layer group "raw overhead 0"), in its order.
    EXPECT_EQ(FormatCakeOptionChanges(CakeConfig{}), "");
    EXPECT_EQ(FormatCakeOptionChanges(Parsed("rtt 50ms nat bandwidth 50Mbit")),
              "bandwidth 50Mbit nat rtt 50ms");
    // The link-layer words form one setting, printed whole when it differs: overhead 38
    // counts from the network header ("noatm overhead 38"); raw with an mpu keeps "raw
    // overhead 0" in front of "mpu 64".
    EXPECT_EQ(FormatCakeOptionChanges(Parsed("overhead 38")), "noatm overhead 38");
    EXPECT_EQ(FormatCakeOptionChanges(Parsed("mpu 64")), "raw overhead 0 mpu 64");
    EXPECT_EQ(FormatCakeOptionChanges(Parsed("ethernet besteffort memlimit 1500000")),
              "besteffort noatm overhead 38 mpu 84 memlimit 1500000b");
    // Parsed over the defaults, the text gives the settings back.
    const CakeConfig config = Parsed("bandwidth 20Mbit autorate-ingress flows wash ingress "
                                     "ack-filter-aggressive no-split-gso rtt 1s atm overhead 36 "
                                     "fwmark 0xff00");
    EXPECT_EQ(FormatCakeOptions(Parsed(FormatCakeOptionChanges(config))),
              FormatCakeOptions(config));
}

} // namespace
