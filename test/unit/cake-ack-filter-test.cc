/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for CAKE's ACK filter (cake_ack_filter() of net/sched/sch_cake.c). Packets
 * are written out as IPv4/IPv6 + TCP bytes (RFC 791, 8200, 9293 layouts) and parsed with
 * CakeAckPacketFromL3(). Expectations are derived in comments from the kernel's rules:
 *   trigger:    the flow's last packet; >= 2 packets; TCP; (flags & (ACK|SYN)) == ACK;
 *               its TSval/TSecr are those of its first timestamp option of size 10, else 0.
 *   candidate:  each earlier TCP packet with the trigger's IP version, addresses, ports:
 *               1. if an ACK is remembered and ECE/CWR differ from its -> forget it;
 *               2. eligible iff flags & 0xF3F == ACK (ECE/CWR free), no payload,
 *                  !after(ack, trigger ack), options only NOP/EOL/MD5/SACK(2+8n)/
 *                  TS(size 10, !after(TSval), !after(TSecr)), and
 *                  sack = SackCompare(candidate, trigger) is 1, or 0 with a smaller ack;
 *               3. first eligible is remembered; a second one drops the remembered one.
 *   aggressive: a lone remembered ACK right before the trigger, with the trigger's ECE/CWR,
 *               is dropped too.
 *   SackCompare(a, b): only a has blocks -1, only b 1, neither 0; else -1 for a D-SACK
 *               (a block starting before a's ack) or a block of a inside no block of b,
 *               otherwise (sum of b's block lengths > sum of a's) ? 1 : 0.
 *   after(a, b) = (int32_t)(b - a) < 0.
 */

#include "ns3/cake-ack-filter.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <optional>
#include <utility>
#include <vector>

namespace
{

using ns3::debloat::CakeAckFilter;
using ns3::debloat::CakeAckFilterMode;
using ns3::debloat::CakeAckPacket;
using ns3::debloat::CakeAckPacketFromL3;
using ns3::debloat::CakeSackCompare;
using ns3::debloat::CakeSeqAfter;
using ns3::debloat::CakeSeqBefore;
using ns3::debloat::CakeTcpGetOption;
using ns3::debloat::CakeTcpGetTimestamp;
using ns3::debloat::CakeTcpMayDrop;
using ns3::debloat::FlowKeys;

using Bytes = std::vector<uint8_t>;

constexpr uint16_t ACK = FlowKeys::TCP_ACK; ///< ACK flag
constexpr uint16_t SYN = FlowKeys::TCP_SYN; ///< SYN flag
constexpr uint16_t ECE = FlowKeys::TCP_ECE; ///< ECE flag
constexpr uint16_t CWR = FlowKeys::TCP_CWR; ///< CWR flag

constexpr auto FILTER = CakeAckFilterMode::FILTER;         ///< "ack-filter"
constexpr auto AGGRESSIVE = CakeAckFilterMode::AGGRESSIVE; ///< "ack-filter-aggressive"

/// @param a first bytes @param b more bytes @return a followed by b
Bytes
Concat(Bytes a, const Bytes& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

/// @param out the buffer @param value appended big-endian, 4 bytes
void
Put32(Bytes& out, uint32_t value)
{
    out.push_back(static_cast<uint8_t>(value >> 24));
    out.push_back(static_cast<uint8_t>(value >> 16));
    out.push_back(static_cast<uint8_t>(value >> 8));
    out.push_back(static_cast<uint8_t>(value));
}

/// @param tsval TSval @param tsecr TSecr @return NOP, NOP, timestamp option (12 bytes)
Bytes
Timestamp(uint32_t tsval, uint32_t tsecr)
{
    Bytes o{1, 1, 8, 10};
    Put32(o, tsval);
    Put32(o, tsecr);
    return o;
}

/// @param blocks SACK blocks (start, end) @return NOP, NOP, SACK option (4 + 8n bytes)
Bytes
Sack(const std::vector<std::pair<uint32_t, uint32_t>>& blocks)
{
    Bytes o{1, 1, 5, static_cast<uint8_t>(2 + 8 * blocks.size())};
    for (const auto& [start, end] : blocks)
    {
        Put32(o, start);
        Put32(o, end);
    }
    return o;
}

const Bytes MSS{2, 4, 0x05, 0xb4};            ///< MSS 1460
const Bytes WINDOW_SCALE{1, 3, 3, 7};         ///< NOP, window scale 7
const Bytes SACK_PERMITTED{1, 1, 4, 2};       ///< NOP, NOP, SACK permitted
const Bytes FAST_OPEN{34, 2, 1, 1};           ///< empty fast-open cookie request, NOP, NOP
const Bytes EXPERIMENTAL{254, 4, 0xf9, 0x89}; ///< RFC 6994 experimental option
const Bytes MPTCP{30, 4, 0x20, 0x00};         ///< an option the filter does not know (MPTCP)
/// NOP, NOP, MD5 signature (kind 19, length 18, 16 bytes of digest)
const Bytes MD5{1, 1, 19, 18, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

/// One packet of a test queue.
struct Segment
{
    uint16_t flags{ACK};          ///< the low 12 bits of the TCP flag word
    uint32_t ack{1000};           ///< acknowledgement number
    Bytes options;                ///< TCP options, padded with EOL to a multiple of 4
    size_t payload{0};            ///< payload bytes after the TCP header
    uint16_t sourcePort{5001};    ///< TCP source port
    uint16_t destinationPort{80}; ///< TCP destination port
    uint8_t sourceHost{1};        ///< last byte of the source address
    uint8_t destinationHost{2};   ///< last byte of the destination address
    bool ipv6{false};             ///< IPv6 rather than IPv4
    bool udp{false};              ///< a UDP packet instead (not TCP for the filter)

    /// @param f flags @return a copy with these flags
    Segment Flags(uint16_t f) const
    {
        Segment s = *this;
        s.flags = f;
        return s;
    }

    /// @param bytes payload length @return a copy with this payload
    Segment Payload(size_t bytes) const
    {
        Segment s = *this;
        s.payload = bytes;
        return s;
    }

    /// @return a copy over IPv6
    Segment V6() const
    {
        Segment s = *this;
        s.ipv6 = true;
        return s;
    }
};

/// @param ack acknowledgement number @param options TCP options @return a pure ACK
Segment
Ack(uint32_t ack, const Bytes& options = {})
{
    Segment s;
    s.ack = ack;
    s.options = options;
    return s;
}

/// @return a UDP packet between the same hosts and ports
Segment
Udp()
{
    Segment s;
    s.udp = true;
    return s;
}

/// @param s the segment @return its TCP (or UDP) header and payload
Bytes
L4(const Segment& s)
{
    if (s.udp)
    {
        const auto length = static_cast<uint16_t>(8 + s.payload);
        Bytes u{static_cast<uint8_t>(s.sourcePort >> 8),
                static_cast<uint8_t>(s.sourcePort),
                static_cast<uint8_t>(s.destinationPort >> 8),
                static_cast<uint8_t>(s.destinationPort),
                static_cast<uint8_t>(length >> 8),
                static_cast<uint8_t>(length),
                0,
                0};
        u.resize(length);
        return u;
    }
    Bytes options = s.options;
    while (options.size() % 4 != 0)
    {
        options.push_back(0); // EOL
    }
    const auto doff = static_cast<uint8_t>((20 + options.size()) / 4);
    Bytes h{static_cast<uint8_t>(s.sourcePort >> 8),
            static_cast<uint8_t>(s.sourcePort),
            static_cast<uint8_t>(s.destinationPort >> 8),
            static_cast<uint8_t>(s.destinationPort),
            0x01,
            0x02,
            0x03,
            0x04}; // sequence number
    Put32(h, s.ack);
    h.push_back(static_cast<uint8_t>(doff << 4 | (s.flags >> 8 & 0x0F)));
    h.push_back(static_cast<uint8_t>(s.flags));
    h.insert(h.end(), {0xff, 0xff, 0x00, 0x00, 0x00, 0x00}); // window, checksum, urgent
    h = Concat(h, options);
    h.resize(h.size() + s.payload);
    return h;
}

/**
 * An IPv4 header (no options) for an L4 length.
 * @param protocol the protocol field
 * @param l4Length bytes after the header
 * @param source last byte of 10.0.0.x
 * @param destination last byte of 10.0.0.x
 * @return the 20-byte header
 */
Bytes
Ipv4Header(uint8_t protocol, size_t l4Length, uint8_t source, uint8_t destination)
{
    const size_t total = 20 + l4Length;
    return {0x45,
            0x00,
            static_cast<uint8_t>(total >> 8),
            static_cast<uint8_t>(total),
            0x12,
            0x34,
            0x40, // DF, not a fragment
            0x00,
            64,
            protocol,
            0x00,
            0x00,
            10,
            0,
            0,
            source,
            10,
            0,
            0,
            destination};
}

/**
 * An IPv6 header 2001:db8::source -> 2001:db8::destination.
 * @param nextHeader the next-header field
 * @param payloadLength bytes after the header
 * @param source last byte of the source address
 * @param destination last byte of the destination address
 * @return the 40-byte header
 */
Bytes
Ipv6Header(uint8_t nextHeader, size_t payloadLength, uint8_t source, uint8_t destination)
{
    Bytes p{0x60,
            0x00,
            0x00,
            0x00,
            static_cast<uint8_t>(payloadLength >> 8),
            static_cast<uint8_t>(payloadLength),
            nextHeader,
            64};
    for (uint8_t host : {source, destination})
    {
        p.insert(p.end(), {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, host});
    }
    return p;
}

/// @param s the segment @return the whole IP packet
Bytes
L3(const Segment& s)
{
    const Bytes l4 = L4(s);
    const uint8_t protocol = s.udp ? 17 : 6;
    const Bytes header = s.ipv6 ? Ipv6Header(protocol, l4.size(), s.sourceHost, s.destinationHost)
                                : Ipv4Header(protocol, l4.size(), s.sourceHost, s.destinationHost);
    return Concat(header, l4);
}

/// @param s a TCP segment @return it parsed (the parse is expected to succeed)
CakeAckPacket
Parse(const Segment& s)
{
    const Bytes bytes = L3(s);
    CakeAckPacket packet;
    EXPECT_TRUE(CakeAckPacketFromL3(bytes.data(), bytes.size(), packet));
    return packet;
}

/// A flow queue: parsed packets, nullopt for those that are not TCP.
class Queue
{
  public:
    /// @param segments the packets, head first; the last one is the trigger
    explicit Queue(const std::vector<Segment>& segments)
    {
        for (const auto& s : segments)
        {
            const Bytes bytes = L3(s);
            CakeAckPacket packet;
            const bool tcp = CakeAckPacketFromL3(bytes.data(), bytes.size(), packet);
            EXPECT_EQ(tcp, !s.udp);
            m_packets.push_back(tcp ? std::optional<CakeAckPacket>(packet) : std::nullopt);
        }
    }

    /// @param mode the filter mode @return CakeAckFilter() on the queue
    std::optional<size_t> Run(CakeAckFilterMode mode) const
    {
        return CakeAckFilter(mode, m_packets.size(), [this](size_t i) -> const CakeAckPacket* {
            const auto& p = m_packets.at(i);
            return p ? &*p : nullptr;
        });
    }

    /// @param i index of a packet to remove, as the caller does with the filter's answer
    void Erase(size_t i)
    {
        m_packets.erase(m_packets.begin() + static_cast<std::ptrdiff_t>(i));
    }

    /// @param i an index @return the acknowledgement number of the packet there
    uint32_t AckAt(size_t i) const
    {
        return m_packets.at(i)->keys.tcpAck;
    }

  private:
    std::vector<std::optional<CakeAckPacket>> m_packets; ///< head first
};

/// @param segments the queue @param mode the mode @return the filter's answer
std::optional<size_t>
Filter(const std::vector<Segment>& segments, CakeAckFilterMode mode = FILTER)
{
    return Queue(segments).Run(mode);
}

/**
 * Whether the filter finds a variant of a pure ACK eligible, by queueing
 * [variant, Ack(2000), trigger]: the plain ACK at index 1 is always eligible, so in normal
 * mode index 0 is dropped if the variant is eligible and nothing is dropped otherwise.
 * @param variant the candidate (ack_seq at most 2000 unless that is what is tested)
 * @param trigger the trigger (ack_seq above 2000)
 * @return true if the variant would be dropped
 */
bool
Droppable(const Segment& variant, const Segment& trigger = Ack(3000))
{
    Segment plain = Ack(2000);
    plain.ipv6 = trigger.ipv6;
    const auto drop = Filter({variant, plain, trigger});
    EXPECT_TRUE(!drop || *drop == 0);
    return drop.has_value();
}

TEST(CakeAckFilter, DropsOlderPureAck)
{
    // Both queued ACKs are pure, carry no SACK (SackCompare 0) and ack less than 3000: both
    // eligible; the second makes the filter drop the first, the one nearest the head.
    EXPECT_EQ(Filter({Ack(1000), Ack(2000), Ack(3000)}), 0U);
    // Aggressive mode reaches the second eligible ACK the same way.
    EXPECT_EQ(Filter({Ack(1000), Ack(2000), Ack(3000)}, AGGRESSIVE), 0U);
    // Control for Droppable(): a plain ACK is droppable.
    EXPECT_TRUE(Droppable(Ack(1000)));
}

TEST(CakeAckFilter, DropsOnlyOnePerCall)
{
    // Four eligible ACKs before the trigger: the scan stops at the second, dropping the
    // head. The caller removes it; the next enqueue of a trigger drops the new head, until a
    // single ACK is left, which normal mode keeps.
    Queue queue({Ack(1000), Ack(2000), Ack(3000), Ack(4000), Ack(5000)});
    for (uint32_t expected : {1000U, 2000U, 3000U})
    {
        const auto drop = queue.Run(FILTER);
        ASSERT_EQ(drop, 0U);
        EXPECT_EQ(queue.AckAt(*drop), expected);
        queue.Erase(*drop);
    }
    EXPECT_EQ(queue.Run(FILTER), std::nullopt);
    EXPECT_EQ(queue.AckAt(0), 4000U);
}

TEST(CakeAckFilter, KeepsSingleOlderAckUnlessAggressive)
{
    // One eligible ACK: normal mode needs a second. Aggressive mode drops it because it sits
    // right before the trigger and both have ECE/CWR clear.
    EXPECT_EQ(Filter({Ack(1000), Ack(2000)}), std::nullopt);
    EXPECT_EQ(Filter({Ack(1000), Ack(2000)}, AGGRESSIVE), 0U);
}

TEST(CakeAckFilter, AggressiveNeedsAdjacentAck)
{
    // elig_ack->next must be the trigger. Anything in between breaks that: a data segment of
    // the connection (not eligible: payload), a packet of another connection sharing the
    // queue, or a packet that is not TCP.
    const Segment data = Ack(1500).Flags(ACK | FlowKeys::TCP_PSH).Payload(100);
    Segment other = Ack(1500);
    other.sourcePort = 5002;
    EXPECT_EQ(Filter({Ack(1000), data, Ack(2000)}, AGGRESSIVE), std::nullopt);
    EXPECT_EQ(Filter({Ack(1000), other, Ack(2000)}, AGGRESSIVE), std::nullopt);
    EXPECT_EQ(Filter({Ack(1000), Udp(), Ack(2000)}, AGGRESSIVE), std::nullopt);
    // The data segment is not eligible itself, so the remembered ACK at 1 is adjacent.
    EXPECT_EQ(Filter({data, Ack(1000), Ack(2000)}, AGGRESSIVE), 1U);
}

TEST(CakeAckFilter, AggressiveNeedsEqualEceCwr)
{
    // The lone eligible ACK's ECE/CWR must equal the trigger's; eligibility itself ignores
    // them (mask 0xF3F).
    EXPECT_EQ(Filter({Ack(1000).Flags(ACK | ECE), Ack(2000)}, AGGRESSIVE), std::nullopt);
    EXPECT_EQ(Filter({Ack(1000), Ack(2000).Flags(ACK | ECE)}, AGGRESSIVE), std::nullopt);
    EXPECT_EQ(Filter({Ack(1000).Flags(ACK | CWR), Ack(2000).Flags(ACK | ECE)}, AGGRESSIVE),
              std::nullopt);
    EXPECT_EQ(Filter({Ack(1000).Flags(ACK | ECE), Ack(2000).Flags(ACK | ECE)}, AGGRESSIVE), 0U);
    EXPECT_EQ(
        Filter({Ack(1000).Flags(ACK | ECE | CWR), Ack(2000).Flags(ACK | ECE | CWR)}, AGGRESSIVE),
        0U);
}

TEST(CakeAckFilter, NoneModeNeverDrops)
{
    // cake_ack_filter() is not called without ack-filter.
    EXPECT_EQ(Filter({Ack(1000), Ack(2000), Ack(3000)}, CakeAckFilterMode::NONE), std::nullopt);
}

TEST(CakeAckFilter, KeepsAckWithPayload)
{
    // seglen - doff * 4 must be 0: one payload byte makes the ACK a data segment.
    EXPECT_FALSE(Droppable(Ack(1000).Payload(1)));
    EXPECT_FALSE(Droppable(Ack(1000, Timestamp(1, 1)).Payload(1), Ack(3000, Timestamp(2, 2))));
    // IPv6: the payload length field minus the TCP header.
    EXPECT_TRUE(Droppable(Ack(1000).V6(), Ack(3000).V6()));
    EXPECT_FALSE(Droppable(Ack(1000).V6().Payload(1), Ack(3000).V6()));
}

TEST(CakeAckFilter, KeepsAckWithOtherFlags)
{
    // flags & 0xF3F must be exactly ACK: SYN, FIN, RST, PSH, URG, NS/AE and the three
    // reserved bits each forbid dropping, and so does a missing ACK.
    for (uint16_t extra : {FlowKeys::TCP_SYN,
                           FlowKeys::TCP_FIN,
                           FlowKeys::TCP_RST,
                           FlowKeys::TCP_PSH,
                           FlowKeys::TCP_URG,
                           FlowKeys::TCP_NS,
                           uint16_t{0x200},
                           uint16_t{0x400},
                           uint16_t{0x800}})
    {
        EXPECT_FALSE(Droppable(Ack(1000).Flags(ACK | extra))) << "flag " << extra;
    }
    EXPECT_FALSE(Droppable(Ack(1000).Flags(0)));
    EXPECT_FALSE(Droppable(Ack(1000).Flags(FlowKeys::TCP_RST)));
}

TEST(CakeAckFilter, AllowsEceCwrOnQueuedAcks)
{
    // ECE and CWR are outside the 0xF3F mask; two ACKs with the same ECE/CWR bits do not
    // reset each other, and normal mode does not compare them with the trigger's.
    const Segment ece = Ack(1000).Flags(ACK | ECE | CWR);
    EXPECT_EQ(Filter({ece, Ack(2000).Flags(ACK | ECE | CWR), Ack(3000)}), 0U);
}

TEST(CakeAckFilter, KeepsAckWithSynOptions)
{
    // Only NOP, EOL, MD5SIG, SACK and timestamp are allowed; MSS, window scale,
    // SACK-permitted, fast open, experimental and unknown kinds forbid dropping.
    for (const Bytes& option : {MSS, WINDOW_SCALE, SACK_PERMITTED, FAST_OPEN, EXPERIMENTAL, MPTCP})
    {
        EXPECT_FALSE(Droppable(Ack(1000, option))) << "kind " << int{option[0]};
    }
}

TEST(CakeAckFilter, IgnoresNopEolAndMd5)
{
    // MD5SIG "doesn't influence state"; NOPs are skipped; EOL ends the walk, so an MSS
    // option after it is never seen.
    EXPECT_TRUE(Droppable(Ack(1000, MD5)));
    EXPECT_TRUE(Droppable(Ack(1000, {1, 1, 1, 1})));
    EXPECT_TRUE(Droppable(Ack(1000, Concat({0}, MSS))));
    // Without the EOL, the same MSS option is seen.
    EXPECT_FALSE(Droppable(Ack(1000, Concat(MD5, MSS))));
}

TEST(CakeAckFilter, KeepsAckWithNewerAckSeq)
{
    // after(3500, 3000): the queued ACK acknowledges more than the trigger.
    EXPECT_FALSE(Droppable(Ack(3500)));
    // An equal ack_seq without SACK on either side is a duplicate ACK: SackCompare is 0 and
    // ack_seq equal, so it is kept (duplicate ACKs tell the sender about loss).
    EXPECT_FALSE(Droppable(Ack(3000)));
    EXPECT_EQ(Filter({Ack(1000), Ack(1000), Ack(1000)}), std::nullopt);
    EXPECT_EQ(Filter({Ack(1000), Ack(1000)}, AGGRESSIVE), std::nullopt);
}

TEST(CakeAckFilter, KeepsAckWithNewerTimestamp)
{
    // Trigger TSval 100, TSecr 50. A queued ACK is kept if after(TSval, 100) or
    // after(TSecr, 50); equal values are not after.
    const Segment trigger = Ack(3000, Timestamp(100, 50));
    EXPECT_FALSE(Droppable(Ack(1000, Timestamp(101, 50)), trigger));
    EXPECT_FALSE(Droppable(Ack(1000, Timestamp(100, 51)), trigger));
    EXPECT_TRUE(Droppable(Ack(1000, Timestamp(100, 50)), trigger));
    EXPECT_TRUE(Droppable(Ack(1000, Timestamp(99, 49)), trigger));
}

TEST(CakeAckFilter, TriggerWithoutTimestampCountsAsZero)
{
    // cake_tcph_get_tstamp() leaves tsval = tsecr = 0 when the trigger has no timestamp, so a
    // queued ACK with TSval 5 is after it and kept; TSval = TSecr = 0 is not after.
    EXPECT_FALSE(Droppable(Ack(1000, Timestamp(5, 5))));
    EXPECT_TRUE(Droppable(Ack(1000, Timestamp(0, 0))));
    // The same holds when the trigger's first timestamp option has a wrong size (8): it is
    // found first, rejected, and the valid one after it is never looked at.
    const Bytes badThenGood = Concat({8, 8, 0, 0, 0, 0, 0, 0}, Timestamp(100, 50));
    EXPECT_FALSE(Droppable(Ack(1000, Timestamp(5, 5)), Ack(3000, badThenGood)));
}

TEST(CakeAckFilter, KeepsAckWithBadTimestampSize)
{
    // A timestamp option must have size 10 (TCPOLEN_TIMESTAMP).
    const Segment trigger = Ack(3000, Timestamp(100, 50));
    EXPECT_FALSE(Droppable(Ack(1000, {8, 8, 0, 0, 0, 0, 0, 0}), trigger));
    EXPECT_FALSE(Droppable(Ack(1000, {8, 12, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0}), trigger));
}

TEST(CakeAckFilter, KeepsAckWithUncoveredSack)
{
    // Trigger ack 3000 SACKs [4000, 5000). A queued ACK whose block lies inside it is
    // covered (SackCompare 1: 1000 bytes > 500, or 0 with a smaller ack: still eligible).
    const Segment trigger = Ack(3000, Sack({{4000, 5000}}));
    EXPECT_TRUE(Droppable(Ack(1000, Sack({{4000, 4500}})), trigger));
    EXPECT_TRUE(Droppable(Ack(1000, Sack({{4000, 5000}})), trigger));
    // A block reaching past 5000, or one elsewhere, is not inside a trigger block: -1.
    EXPECT_FALSE(Droppable(Ack(1000, Sack({{4000, 5001}})), trigger));
    EXPECT_FALSE(Droppable(Ack(1000, Sack({{3500, 3600}})), trigger));
    // Two blocks, one covered and one not: -1.
    EXPECT_FALSE(Droppable(Ack(1000, Sack({{4000, 4500}, {6000, 7000}})), trigger));
    // The trigger has no SACK but the queued ACK has: -1 (that SACK information would be
    // lost).
    EXPECT_FALSE(Droppable(Ack(1000, Sack({{4000, 4500}}))));
}

TEST(CakeAckFilter, DropsSameAckWhenTriggerSacksMore)
{
    // Equal ack_seq 1000: SackCompare must be 1, i.e. the trigger covers every block and its
    // block lengths sum to more bytes.
    const auto sameAck = [](const Bytes& queued, const Bytes& trigger) {
        return Filter({Ack(1000, queued), Ack(1000, queued), Ack(1000, trigger)}).has_value();
    };
    // [2000, 3000) inside [2000, 4000): 2000 bytes > 1000 -> 1, droppable.
    EXPECT_TRUE(sameAck(Sack({{2000, 3000}}), Sack({{2000, 4000}})));
    // Same SACK: 1000 = 1000 -> 0 with equal ack_seq, kept.
    EXPECT_FALSE(sameAck(Sack({{2000, 3000}}), Sack({{2000, 3000}})));
    // No SACK on the queued ACK, SACK on the trigger: 1 at once, droppable.
    EXPECT_TRUE(sameAck({}, Sack({{2000, 3000}})));
    // A new block: covered and 2000 > 1000 -> droppable.
    EXPECT_TRUE(sameAck(Sack({{2000, 3000}}), Sack({{5000, 6000}, {2000, 3000}})));
}

TEST(CakeAckFilter, KeepsDsack)
{
    // A queued block starting before that ACK's own ack_seq (1000) is a D-SACK: -1 whatever
    // the trigger SACKs.
    const Segment trigger = Ack(3000, Sack({{500, 1000}, {4000, 5000}}));
    EXPECT_FALSE(Droppable(Ack(1000, Sack({{500, 1000}})), trigger));
    // The trigger's own D-SACK block is not checked: it only has to cover.
    EXPECT_TRUE(Droppable(Ack(1000, Sack({{4000, 4500}})), trigger));
}

TEST(CakeAckFilter, KeepsAckWithMalformedSackLength)
{
    // A SACK option whose size is not 2 + 8n (here 12: one block and 2 stray bytes) makes
    // cake_tcph_may_drop() refuse.
    const Bytes sack12{1, 1, 5, 12, 0, 0, 0x0f, 0xa0, 0, 0, 0x11, 0x94, 0, 0, 0, 0};
    EXPECT_FALSE(Droppable(Ack(1000, sack12), Ack(3000, Sack({{4000, 5000}}))));
}

TEST(CakeAckFilter, SackLengthPastOptionsEndsWalk)
{
    // A SACK option claiming 26 bytes with 10 left: the walk stops (opsize > length) before
    // judging it, so cake_tcph_may_drop() returns true, and cake_get_tcpopt() does not find
    // it either: the queued ACK counts as having no SACK (SackCompare 0, smaller ack_seq) and
    // is droppable. This mirrors the kernel; a real TCP never sends such an option.
    const Bytes sackPastEnd{1, 1, 5, 26, 0, 0, 0x0f, 0xa0, 0, 0, 0x11, 0x94};
    EXPECT_TRUE(Droppable(Ack(1000, sackPastEnd)));
    // Same walk, MSS hidden behind the bad length: still droppable.
    EXPECT_TRUE(Droppable(Ack(1000, Concat({5, 40, 0, 0}, MSS))));
    // A length below 2 ends the walk too.
    EXPECT_TRUE(Droppable(Ack(1000, Concat({30, 1, 1, 1}, MSS))));
}

TEST(CakeAckFilter, EceCwrChangeResetsCandidate)
{
    // [A, B(ECE), T]: A is remembered (flags 0); B's ECE differs, so A is forgotten; B is
    // eligible and becomes the only remembered ACK: normal mode drops nothing.
    const Segment b = Ack(2000).Flags(ACK | ECE);
    EXPECT_EQ(Filter({Ack(1000), b, Ack(3000)}), std::nullopt);
    // Aggressive: B is adjacent but its ECE differs from the trigger's 0 -> nothing; with
    // ECE on the trigger B (not A) is dropped.
    EXPECT_EQ(Filter({Ack(1000), b, Ack(3000)}, AGGRESSIVE), std::nullopt);
    EXPECT_EQ(Filter({Ack(1000), b, Ack(3000).Flags(ACK | ECE)}, AGGRESSIVE), 1U);
    // [A, B(ECE), C(ECE), T]: B remembered after the reset, C is the second eligible -> B.
    EXPECT_EQ(Filter({Ack(1000), b, Ack(2500).Flags(ACK | ECE), Ack(3000)}), 1U);
}

TEST(CakeAckFilter, EceCwrChangeInDataSegmentResets)
{
    // The reset happens before the eligibility test, so a data segment of the connection
    // with different ECE/CWR forgets the remembered ACK too: [A, D(CWR, data), B, T]
    // leaves only B remembered.
    const Segment d = Ack(1500).Flags(ACK | CWR).Payload(100);
    EXPECT_EQ(Filter({Ack(1000), d, Ack(2000), Ack(3000)}), std::nullopt);
    // Without CWR on D, A stays remembered and B drops it.
    EXPECT_EQ(Filter({Ack(1000), d.Flags(ACK), Ack(2000), Ack(3000)}), 0U);
    // Packets of other connections never reset it.
    Segment other = Ack(1500).Flags(ACK | CWR);
    other.destinationPort = 443;
    EXPECT_EQ(Filter({Ack(1000), other, Ack(2000), Ack(3000)}), 0U);
}

TEST(CakeAckFilter, IgnoresOtherConnections)
{
    // Only the trigger's IP version, source and destination addresses and ports count; with
    // A of another connection, B is the only eligible ACK.
    Segment port = Ack(1000);
    port.sourcePort = 5002;
    Segment dport = Ack(1000);
    dport.destinationPort = 81;
    Segment source = Ack(1000);
    source.sourceHost = 3;
    Segment destination = Ack(1000);
    destination.destinationHost = 3;
    // Reverse direction: addresses and ports swapped.
    Segment reverse = Ack(1000);
    std::swap(reverse.sourceHost, reverse.destinationHost);
    std::swap(reverse.sourcePort, reverse.destinationPort);
    for (const Segment& a : {port, dport, source, destination, reverse, Ack(1000).V6()})
    {
        EXPECT_FALSE(Droppable(a));
    }
    // Other connections in between are skipped: A and B are still found.
    EXPECT_EQ(Filter({Ack(1000), port, Udp(), Ack(2000), Ack(3000)}), 0U);
}

TEST(CakeAckFilter, Ipv6)
{
    // The same rules over IPv6 (payload from the payload length field, 16-byte addresses).
    EXPECT_EQ(Filter({Ack(1000).V6(), Ack(2000).V6(), Ack(3000).V6()}), 0U);
    EXPECT_EQ(Filter({Ack(1000).V6(), Ack(2000).V6()}), std::nullopt);
    EXPECT_EQ(Filter({Ack(1000).V6(), Ack(2000).V6()}, AGGRESSIVE), 0U);
    EXPECT_FALSE(Droppable(Ack(1000).V6().Payload(10), Ack(3000).V6()));
    EXPECT_FALSE(Droppable(Ack(1000, MSS).V6(), Ack(3000).V6()));
    Segment source = Ack(1000).V6();
    source.sourceHost = 9;
    EXPECT_FALSE(Droppable(source, Ack(3000).V6()));
    // An IPv4 trigger does not match IPv6 ACKs of the same ports.
    EXPECT_EQ(Filter({Ack(1000).V6(), Ack(2000).V6(), Ack(3000)}), std::nullopt);
}

TEST(CakeAckFilter, SixInFourComparesInnerHeader)
{
    // cake_get_iphdr()/cake_get_tcphdr() look through IPv4 protocol 41: a 6in4 ACK is the
    // same connection as a native IPv6 ACK with the same inner header.
    const Bytes inner = L3(Ack(1000).V6());
    const Bytes tunnelled = Concat(Ipv4Header(41, inner.size(), 7, 8), inner);
    CakeAckPacket a;
    ASSERT_TRUE(CakeAckPacketFromL3(tunnelled.data(), tunnelled.size(), a));
    EXPECT_EQ(a.keys.family, FlowKeys::Family::IPV6);
    EXPECT_EQ(a.keys.source[15], 1);
    const CakeAckPacket b = Parse(Ack(2000).V6());
    const CakeAckPacket t = Parse(Ack(3000).V6());
    const std::vector<const CakeAckPacket*> queue{&a, &b, &t};
    EXPECT_EQ(CakeAckFilter(FILTER, 3, [&](size_t i) { return queue.at(i); }), 0U);
}

TEST(CakeAckFilter, TriggerMustBeAckWithoutSyn)
{
    // (flags & (ACK|SYN)) must be ACK: a SYN-ACK or a segment without ACK triggers nothing.
    EXPECT_EQ(Filter({Ack(1000), Ack(2000), Ack(3000).Flags(ACK | SYN)}), std::nullopt);
    EXPECT_EQ(Filter({Ack(1000), Ack(2000), Ack(3000).Flags(FlowKeys::TCP_RST)}), std::nullopt);
    EXPECT_EQ(Filter({Ack(1000), Ack(2000), Ack(3000).Flags(0).Payload(10)}), std::nullopt);
    // A trigger that is not TCP.
    EXPECT_EQ(Filter({Ack(1000), Ack(2000), Udp()}), std::nullopt);
    // The trigger need only have ACK: data, PSH, FIN are fine.
    const Segment data = Ack(3000).Flags(ACK | FlowKeys::TCP_PSH | FlowKeys::TCP_FIN).Payload(500);
    EXPECT_EQ(Filter({Ack(1000), Ack(2000), data}), 0U);
}

TEST(CakeAckFilter, NeedsTwoPackets)
{
    // flow->head == flow->tail: only the trigger, nothing to filter; packetAt is not called.
    const CakeAckPacket t = Parse(Ack(3000));
    size_t calls = 0;
    const auto at = [&](size_t) {
        ++calls;
        return &t;
    };
    EXPECT_EQ(CakeAckFilter(AGGRESSIVE, 1, at), std::nullopt);
    EXPECT_EQ(CakeAckFilter(AGGRESSIVE, 0, at), std::nullopt);
    EXPECT_EQ(calls, 0U);
}

TEST(CakeAckFilter, SkipsPacketsThatAreNotTcp)
{
    // A non-TCP packet at the head is skipped; A (1) and B (2) are eligible -> A.
    EXPECT_EQ(Filter({Udp(), Ack(1000), Ack(2000), Ack(3000)}), 1U);
}

TEST(CakeAckFilter, AckSeqWrapsAround)
{
    // after() is modulo 2^32: 0xFFFFFF00 and 0xFFFFFFF0 are before 0x10.
    EXPECT_EQ(Filter({Ack(0xFFFFFF00), Ack(0xFFFFFFF0), Ack(0x10)}), 0U);
    // 0x10 is after 0xFFFFFFF8: the ACK at the head is newer than the trigger, kept.
    EXPECT_EQ(Filter({Ack(0x10), Ack(0xFFFFFFF0), Ack(0xFFFFFFF8)}), std::nullopt);
    // Exactly half the space away counts as after: 0x1000 - 0x80001000 = 0x80000000 is
    // negative as int32, so after(0x80001000, 0x1000) holds and the head is kept; 0x800 is
    // the only eligible ACK.
    EXPECT_EQ(Filter({Ack(0x80001000), Ack(0x800), Ack(0x1000)}), std::nullopt);
}

TEST(CakeAckFilter, TimestampsWrapAround)
{
    // Trigger TSval 0x10, TSecr 0x20 just after the wrap; queued values just before it are
    // not after them.
    const Segment trigger = Ack(3000, Timestamp(0x10, 0x20));
    EXPECT_TRUE(Droppable(Ack(1000, Timestamp(0xFFFFFFF0, 0xFFFFFF00)), trigger));
    EXPECT_FALSE(Droppable(Ack(1000, Timestamp(0x11, 0xFFFFFF00)), trigger));
    EXPECT_FALSE(Droppable(Ack(1000, Timestamp(0xFFFFFFF0, 0x21)), trigger));
}

TEST(CakeAckFilter, SackBlocksWrapAround)
{
    // Ack 0xFFFFF000; block [0xFFFFFF00, 0x100) lies inside [0xFFFFF800, 0x800) modulo 2^32,
    // and the u32 byte sums (0x200 and 0x1000) wrap the same way.
    const CakeAckPacket a = Parse(Ack(0xFFFFF000, Sack({{0xFFFFFF00, 0x100}})));
    const CakeAckPacket b = Parse(Ack(0xFFFFF000, Sack({{0xFFFFF800, 0x800}})));
    EXPECT_EQ(CakeSackCompare(a, b), 1);
    EXPECT_EQ(CakeSackCompare(b, a), -1);
}

TEST(CakeAckFilter, SackCompare)
{
    const auto cmp = [](uint32_t ackA, const Bytes& a, const Bytes& b) {
        return CakeSackCompare(Parse(Ack(ackA, a)), Parse(Ack(1000, b)));
    };
    EXPECT_EQ(cmp(1000, {}, {}), 0);
    EXPECT_EQ(cmp(1000, Sack({{2000, 3000}}), {}), -1);
    EXPECT_EQ(cmp(1000, {}, Sack({{2000, 3000}})), 1);
    // An empty SACK option (size 2, no block) counts as none.
    EXPECT_EQ(cmp(1000, {1, 1, 5, 2}, {}), 0);
    EXPECT_EQ(cmp(1000, {1, 1, 5, 2}, Sack({{2000, 3000}})), 1);
    // Two blocks of a, covered by b's blocks in the other order: 2000 bytes each -> 0.
    EXPECT_EQ(cmp(1000, Sack({{2000, 3000}, {4000, 5000}}), Sack({{4000, 5000}, {2000, 3000}})), 0);
    // One block of b covers both of a's: 3000 > 2000 -> 1.
    EXPECT_EQ(cmp(1000, Sack({{2000, 3000}, {4000, 5000}}), Sack({{2000, 5000}})), 1);
    // bytes_b is the plain sum of b's block lengths: a repeated block counts twice, so b
    // "SACKs more" (2000 > 1000) without covering anything new.
    EXPECT_EQ(cmp(1000, Sack({{2000, 3000}}), Sack({{2000, 3000}, {2000, 3000}})), 1);
    // Covered block but fewer bytes in b than in a (a's blocks overlap): 0, not -1.
    EXPECT_EQ(cmp(1000, Sack({{2000, 3000}, {2000, 3000}}), Sack({{2000, 3000}})), 0);
    // D-SACK in a: its start is before a's ack_seq.
    EXPECT_EQ(cmp(1500, Sack({{1000, 1500}}), Sack({{1000, 1500}})), -1);
    // Only the first SACK option counts.
    EXPECT_EQ(cmp(1000, Concat(Sack({{2000, 3000}}), Sack({{9000, 9999}})), Sack({{2000, 4000}})),
              1);
}

TEST(CakeAckFilter, TcpOptionWalk)
{
    uint8_t size = 0;
    // Found after NOPs; data points after the length byte.
    const CakeAckPacket p = Parse(Ack(1000, Timestamp(0x01020304, 0x05060708)));
    const uint8_t* data = CakeTcpGetOption(p, 8, size);
    ASSERT_NE(data, nullptr);
    EXPECT_EQ(size, 10);
    EXPECT_EQ(data, p.options.data() + 4);
    uint32_t tsval = 0;
    uint32_t tsecr = 0;
    EXPECT_TRUE(CakeTcpGetTimestamp(p, tsval, tsecr));
    EXPECT_EQ(tsval, 0x01020304U);
    EXPECT_EQ(tsecr, 0x05060708U);
    // Not found after EOL.
    const CakeAckPacket eol = Parse(Ack(1000, Concat({0}, MSS)));
    EXPECT_EQ(CakeTcpGetOption(eol, 2, size), nullptr);
    // A wrong-size timestamp leaves the outputs alone.
    const CakeAckPacket bad = Parse(Ack(1000, {8, 8, 0, 0, 0, 1, 0, 0}));
    tsval = 7;
    tsecr = 9;
    EXPECT_FALSE(CakeTcpGetTimestamp(bad, tsval, tsecr));
    EXPECT_EQ(tsval, 7U);
    EXPECT_EQ(tsecr, 9U);
    // CakeTcpMayDrop() judges flags and options only.
    EXPECT_TRUE(CakeTcpMayDrop(Parse(Ack(5000).Payload(10)), 0, 0));
    EXPECT_FALSE(CakeTcpMayDrop(Parse(Ack(1000, MSS)), 0, 0));
    EXPECT_TRUE(CakeTcpMayDrop(Parse(Ack(1000, Timestamp(3, 3))), 3, 3));
    EXPECT_FALSE(CakeTcpMayDrop(Parse(Ack(1000, Timestamp(3, 3))), 2, 3));
}

TEST(CakeAckFilter, SequenceComparison)
{
    EXPECT_TRUE(CakeSeqAfter(2, 1));
    EXPECT_FALSE(CakeSeqAfter(1, 1));
    EXPECT_FALSE(CakeSeqAfter(1, 2));
    EXPECT_TRUE(CakeSeqAfter(0x10, 0xFFFFFFF0));
    EXPECT_TRUE(CakeSeqBefore(0xFFFFFFF0, 0x10));
    EXPECT_FALSE(CakeSeqBefore(5, 5));
    // Exactly half the space apart: both directions are "after" as int32 -0x80000000 < 0.
    EXPECT_TRUE(CakeSeqAfter(0x80000000, 0));
    EXPECT_TRUE(CakeSeqAfter(0, 0x80000000));
}

TEST(CakeAckFilter, PacketFromL3)
{
    // IPv4 ACK with a timestamp: keys and the 12 option bytes.
    const Segment s = Ack(0x0a0b0c0d, Timestamp(1, 2));
    const Bytes bytes = L3(s);
    CakeAckPacket p;
    ASSERT_TRUE(CakeAckPacketFromL3(bytes.data(), bytes.size(), p));
    EXPECT_EQ(p.keys.protocol, 6);
    EXPECT_EQ(p.keys.tcpHeaderLength, 32);
    EXPECT_EQ(p.keys.tcpAck, 0x0a0b0c0dU);
    EXPECT_EQ(p.keys.tcpFlags, ACK);
    EXPECT_EQ(p.keys.payloadLength, 0U);
    EXPECT_EQ(p.optionsLength, 12);
    EXPECT_EQ(Bytes(p.options.begin(), p.options.begin() + 12), Timestamp(1, 2));

    // Every truncation of the TCP header is rejected (buffers of exactly that size).
    for (size_t length = 0; length < bytes.size(); ++length)
    {
        Bytes prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(length));
        prefix.shrink_to_fit();
        EXPECT_FALSE(CakeAckPacketFromL3(prefix.data(), prefix.size(), p)) << length;
    }

    // Not TCP: UDP.
    const Bytes udp = L3(Udp());
    EXPECT_FALSE(CakeAckPacketFromL3(udp.data(), udp.size(), p));

    // IPv4 fragment (offset 8 bytes): no TCP header for the dissector.
    Bytes fragment = bytes;
    fragment[6] = 0x00;
    fragment[7] = 0x01;
    EXPECT_FALSE(CakeAckPacketFromL3(fragment.data(), fragment.size(), p));

    // IPv4 total length shorter than the TCP header: negative seglen in the kernel.
    Bytes shortLength = bytes;
    shortLength[3] = static_cast<uint8_t>(shortLength[3] - 4);
    EXPECT_FALSE(CakeAckPacketFromL3(shortLength.data(), shortLength.size(), p));

    // IPv6 with a hop-by-hop header before TCP: cake_get_tcphdr() wants TCP right away.
    const Bytes tcp = L4(Ack(1000));
    const Bytes hopByHop{6, 0, 1, 4, 0, 0, 0, 0};
    const Bytes withExtension =
        Concat(Ipv6Header(0, hopByHop.size() + tcp.size(), 1, 2), Concat(hopByHop, tcp));
    EXPECT_FALSE(CakeAckPacketFromL3(withExtension.data(), withExtension.size(), p));
    const Bytes plain6 = Concat(Ipv6Header(6, tcp.size(), 1, 2), tcp);
    EXPECT_TRUE(CakeAckPacketFromL3(plain6.data(), plain6.size(), p));

    // Ethernet padding after the packet is not payload.
    const Bytes padded = Concat(L3(Ack(1000)), Bytes(6, 0));
    ASSERT_TRUE(CakeAckPacketFromL3(padded.data(), padded.size(), p));
    EXPECT_EQ(p.keys.payloadLength, 0U);
}

} // namespace
