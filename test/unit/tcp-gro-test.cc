/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for TcpGro: in-order trains, the gro_max_size limit, holes, option, ACK,
 * window and IP ID changes, PSH and short segments, the full bucket, bypassing frames and
 * the jiffy flush, each expectation derived from the kernel's rules (tcp_gro_receive(),
 * skb_gro_receive(), dev_gro_receive(), napi_gro_flush()).
 */

#include "ns3/tcp-gro.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace
{

using ns3::debloat::GroPacket;
using ns3::debloat::GroSegment;
using ns3::debloat::TcpGro;

constexpr uint32_t MSS = 1448;   // 1500 - 20 (IPv4) - 32 (TCP with timestamps)
constexpr uint32_t HEADERS = 52; // IPv4 20 + TCP 20 + 12 option bytes

/// Records the listener's calls in order.
class Recorder : public TcpGro::Listener
{
  public:
    struct Event
    {
        char type;         ///< 'H' held, 'M' merged, 'C' complete, 'N' normal
        uint32_t segments; ///< for 'C'
        uint32_t length;   ///< for 'C'
        uint8_t orFlags;   ///< for 'C'
        uint16_t srcPort;  ///< for 'C'
    };

    void GroHeld(uint32_t) override
    {
        events.push_back({'H', 0, 0, 0, 0});
    }

    void GroMerged(uint32_t) override
    {
        events.push_back({'M', 0, 0, 0, 0});
    }

    void GroComplete(uint32_t, const GroPacket& p) override
    {
        events.push_back({'C', p.segments, p.length, p.orFlags, p.first.srcPort});
    }

    void GroNormal() override
    {
        events.push_back({'N', 0, 0, 0, 0});
    }

    /// @return the event types as a string
    std::string Types() const
    {
        std::string s;
        for (const auto& e : events)
        {
            s += e.type;
        }
        return s;
    }

    /// @return the completed packets' segment counts
    std::vector<uint32_t> Completed() const
    {
        std::vector<uint32_t> v;
        for (const auto& e : events)
        {
            if (e.type == 'C')
            {
                v.push_back(e.segments);
            }
        }
        return v;
    }

    std::vector<Event> events; ///< in order
};

/// A full-sized data segment of flow (10.0.0.1:port -> 10.0.0.2:5001), number n.
GroSegment
Segment(uint32_t n, uint16_t port = 49153, uint32_t hash = 0)
{
    GroSegment s;
    s.hash = hash;
    s.tcp = true;
    s.src = {10, 0, 0, 1};
    s.dst = {10, 0, 0, 2};
    s.srcPort = port;
    s.dstPort = 5001;
    s.ttl = 64;
    s.df = true;
    s.id = static_cast<uint16_t>(100 + n);
    s.seq = 1 + n * MSS;
    s.ack = 1;
    s.window = 502;
    s.flags = GroSegment::ACK;
    s.optionLength = 12;
    s.options = {1, 1, 8, 10, 0, 0, 0, 7, 0, 0, 0, 3}; // NOP NOP TS(7, 3)
    s.headerLength = HEADERS;
    s.payloadLength = MSS;
    return s;
}

TEST(TcpGroTest, AnInOrderTrainBecomesOnePacket)
{
    // 10 full segments, contiguous, same headers: the first is held, 9 merge; nothing is
    // complete until the flush, which passes up one packet of 10 segments, its length the
    // headers once plus 10 payloads: 52 + 14480 = 14532.
    TcpGro gro;
    Recorder r;
    for (uint32_t n = 0; n < 10; ++n)
    {
        gro.Receive(Segment(n), 0, r);
    }
    EXPECT_EQ(r.Types(), "HMMMMMMMMM");
    EXPECT_EQ(gro.GetHeld(), 1U);
    gro.Flush(false, 0, r);
    ASSERT_EQ(r.events.size(), 11U);
    EXPECT_EQ(r.events.back().segments, 10U);
    EXPECT_EQ(r.events.back().length, HEADERS + 10 * MSS);
    EXPECT_EQ(gro.GetHeld(), 0U);
}

TEST(TcpGroTest, GroMaxSizeLimitsTheTrain)
{
    // skb_gro_receive() refuses when p->len + len >= 65536: with k segments held p->len =
    // 52 + 1448 k, so segment k + 1 merges while 52 + 1448 (k + 1) < 65536, i.e.
    // k + 1 <= floor(65483 / 1448) = 45. Segment 46 completes the 45 and is held anew; of
    // 50 segments the flush then passes the last 5.
    TcpGro gro(65536);
    Recorder r;
    for (uint32_t n = 0; n < 50; ++n)
    {
        gro.Receive(Segment(n), 0, r);
    }
    gro.Flush(false, 0, r);
    EXPECT_EQ(r.Completed(), (std::vector<uint32_t>{45, 5}));
    EXPECT_EQ(r.events[45].type, 'C');
    EXPECT_EQ(r.events[45].length, HEADERS + 45 * MSS); // 65212 < 65536
    // A smaller gro_max_size 16384: k + 1 <= floor((16384 - 52 - 1) / 1448) = 11.
    TcpGro small(16384);
    Recorder r2;
    for (uint32_t n = 0; n < 12; ++n)
    {
        small.Receive(Segment(n), 0, r2);
    }
    small.Flush(false, 0, r2);
    EXPECT_EQ(r2.Completed(), (std::vector<uint32_t>{11, 1}));
}

TEST(TcpGroTest, AHoleFlushes)
{
    // 0 1 2 | 4 5 | 3: segment 4's seq is not held seq + 3 * 1448, so {0,1,2} completes and
    // 4 is held; 5 follows 4; 3 does not follow {4,5} (seq below), so {4,5} completes and 3
    // is held; the flush passes it: packets of 3, 2 and 1 segments, 6 segments in all.
    TcpGro gro;
    Recorder r;
    for (uint32_t n : {0, 1, 2, 4, 5, 3})
    {
        gro.Receive(Segment(n), 0, r);
    }
    gro.Flush(false, 0, r);
    EXPECT_EQ(r.Types(), "HMMCHMCHC");
    EXPECT_EQ(r.Completed(), (std::vector<uint32_t>{3, 2, 1}));
}

TEST(TcpGroTest, AnOptionChangeFlushes)
{
    // tcp_gro_receive() compares the option bytes word by word: segment 2 with a new TSval
    // completes {0,1} and starts a packet that segment 3 (same new TSval) joins.
    TcpGro gro;
    Recorder r;
    for (uint32_t n = 0; n < 4; ++n)
    {
        GroSegment s = Segment(n);
        if (n >= 2)
        {
            s.options[7] = 8; // TSval 8
        }
        gro.Receive(s, 0, r);
    }
    gro.Flush(false, 0, r);
    EXPECT_EQ(r.Completed(), (std::vector<uint32_t>{2, 2}));

    // A SACK block (12 more option bytes: the data offset changes) after segment 1: {0,1}
    // completes, the SACK segment is held alone and completes at the flush: 2 then 1.
    TcpGro gro2;
    Recorder r2;
    gro2.Receive(Segment(0), 0, r2);
    gro2.Receive(Segment(1), 0, r2);
    GroSegment sack = Segment(2);
    sack.optionLength = 24;
    sack.options[12] = 1;
    sack.options[13] = 1;
    sack.options[14] = 5;  // SACK
    sack.options[15] = 10; // one block
    sack.headerLength = HEADERS + 12;
    sack.payloadLength = MSS - 12;
    gro2.Receive(sack, 0, r2);
    gro2.Flush(false, 0, r2);
    EXPECT_EQ(r2.Completed(), (std::vector<uint32_t>{2, 1}));
}

TEST(TcpGroTest, AnAckOrWindowChangeFlushes)
{
    // Segment 2 acknowledges new data: ack_seq differs, {0,1} completes, {2,3} follows.
    TcpGro gro;
    Recorder r;
    for (uint32_t n = 0; n < 4; ++n)
    {
        GroSegment s = Segment(n);
        s.ack = n >= 2 ? 1001 : 1;
        gro.Receive(s, 0, r);
    }
    gro.Flush(false, 0, r);
    EXPECT_EQ(r.Completed(), (std::vector<uint32_t>{2, 2}));
    // The window is in tcp_flag_word(): a new window at segment 1 splits 1 | 3.
    TcpGro gro2;
    Recorder r2;
    for (uint32_t n = 0; n < 4; ++n)
    {
        GroSegment s = Segment(n);
        s.window = n >= 1 ? 503 : 502;
        gro2.Receive(s, 0, r2);
    }
    gro2.Flush(false, 0, r2);
    EXPECT_EQ(r2.Completed(), (std::vector<uint32_t>{1, 3}));
}

TEST(TcpGroTest, PshMergesThenFlushes)
{
    // PSH is left out of the flag comparison, so segment 2 merges; out_check_final then
    // completes the packet at once: 3 segments with PSH ORed in, before any flush.
    // Segment 3 starts a new packet.
    TcpGro gro;
    Recorder r;
    gro.Receive(Segment(0), 0, r);
    gro.Receive(Segment(1), 0, r);
    GroSegment psh = Segment(2);
    psh.flags |= GroSegment::PSH;
    EXPECT_EQ(gro.Receive(psh, 0, r), TcpGro::MERGED);
    EXPECT_EQ(r.Types(), "HMMC");
    EXPECT_EQ(r.events[3].segments, 3U);
    EXPECT_EQ(r.events[3].orFlags, GroSegment::PSH);
    EXPECT_EQ(gro.Receive(Segment(3), 0, r), TcpGro::HELD);
    // A PSH segment with no packet of its flow held is passed up as it is.
    TcpGro gro2;
    Recorder r2;
    EXPECT_EQ(gro2.Receive(psh, 0, r2), TcpGro::NORMAL);
}

TEST(TcpGroTest, ShortAndLongSegments)
{
    // A shorter segment (1000 < gso_size 1448) merges and completes: 52 + 2 * 1448 + 1000.
    TcpGro gro;
    Recorder r;
    gro.Receive(Segment(0), 0, r);
    gro.Receive(Segment(1), 0, r);
    GroSegment tail = Segment(2);
    tail.payloadLength = 1000;
    gro.Receive(tail, 0, r);
    EXPECT_EQ(r.Types(), "HMMC");
    EXPECT_EQ(r.events[3].length, HEADERS + 2 * MSS + 1000);
    // A longer segment than the held gso_size 1000 ((len - 1) >= mss) completes the held
    // one and is held itself.
    TcpGro gro2;
    Recorder r2;
    GroSegment first = Segment(0);
    first.payloadLength = 1000;
    gro2.Receive(first, 0, r2);
    GroSegment next = Segment(0);
    next.seq = first.seq + 1000;
    next.id = first.id + 1;
    gro2.Receive(next, 0, r2);
    EXPECT_EQ(r2.Types(), "HCH");
}

TEST(TcpGroTest, IpIdMustAdvanceOrStayFixed)
{
    // inet_gro_flush(): segment 1 with ID 100 + 2 (offset 2 != 1 held) completes {0}.
    TcpGro gro;
    Recorder r;
    gro.Receive(Segment(0), 0, r);
    GroSegment s = Segment(1);
    s.id = 102;
    gro.Receive(s, 0, r);
    EXPECT_EQ(r.Types(), "HCH");
    // With DF, a second segment repeating the first's ID makes the flow fixed-ID: three
    // segments with ID 100 merge.
    TcpGro gro2;
    Recorder r2;
    for (uint32_t n = 0; n < 3; ++n)
    {
        GroSegment f = Segment(n);
        f.id = 100;
        gro2.Receive(f, 0, r2);
    }
    EXPECT_EQ(r2.Types(), "HMM");
    // A TTL change flushes.
    TcpGro gro3;
    Recorder r3;
    gro3.Receive(Segment(0), 0, r3);
    GroSegment t = Segment(1);
    t.ttl = 63;
    gro3.Receive(t, 0, r3);
    EXPECT_EQ(r3.Types(), "HCH");
}

TEST(TcpGroTest, NineFlowsInOneBucketFlushTheOldest)
{
    // MAX_GRO_SKBS 8 per bucket: flows 0..7 (hash 0, 8, ..., 56: all bucket 0) are held;
    // flow 8 (hash 64, bucket 0) makes gro_flush_oldest() complete flow 0, the oldest.
    TcpGro gro;
    Recorder r;
    for (uint16_t f = 0; f < 9; ++f)
    {
        gro.Receive(Segment(0, 1000 + f, 8U * f), 0, r);
    }
    EXPECT_EQ(r.Types(), "HHHHHHHHCH");
    EXPECT_EQ(r.events[8].srcPort, 1000);
    EXPECT_EQ(gro.GetHeld(), 8U);
    // napi_gro_flush() then goes from the oldest: flows 1..8 in that order.
    r.events.clear();
    gro.Flush(false, 0, r);
    ASSERT_EQ(r.events.size(), 8U);
    for (uint16_t i = 0; i < 8; ++i)
    {
        EXPECT_EQ(r.events[i].srcPort, 1001 + i);
    }
    // Nine flows over the 8 buckets (hash 0..8): bucket 0 holds two, nothing is flushed.
    TcpGro spread;
    Recorder r2;
    for (uint16_t f = 0; f < 9; ++f)
    {
        spread.Receive(Segment(0, 1000 + f, f), 0, r2);
    }
    EXPECT_EQ(r2.Types(), "HHHHHHHHH");
    EXPECT_EQ(spread.GetHeld(), 9U);
}

TEST(TcpGroTest, NonTcpAndPureAcksBypassInOrder)
{
    // A (held) | UDP: no gro_receive, passed up, A stays | pure ACK of another flow: no
    // packet to flush, len 0 < mss 1: passed up | pure ACK of A's flow: (0 - 1) >= mss
    // flushes A, then the ACK goes up | SYN of a new flow: up.
    TcpGro gro;
    Recorder r;
    gro.Receive(Segment(0), 0, r);
    GroSegment udp;
    udp.tcp = false;
    gro.Receive(udp, 0, r);
    GroSegment otherAck = Segment(0, 2000);
    otherAck.payloadLength = 0;
    gro.Receive(otherAck, 0, r);
    GroSegment ack = Segment(1);
    ack.payloadLength = 0;
    gro.Receive(ack, 0, r);
    GroSegment syn = Segment(0, 3000);
    syn.flags = GroSegment::SYN;
    syn.payloadLength = 0;
    gro.Receive(syn, 0, r);
    EXPECT_EQ(r.Types(), "HNNCNN");
    EXPECT_EQ(gro.GetHeld(), 0U);
}

TEST(TcpGroTest, FlushOldKeepsThisJiffy)
{
    // HZ 1000: flow A held at 0.5 ms (jiffy 0), flow B at 1.2 ms (jiffy 1), same bucket.
    // A flushOld at 1.5 ms completes A only (age 0 != 1) and stops at B (age 1); at 2.0 ms
    // (jiffy 2) B goes too.
    TcpGro gro;
    Recorder r;
    gro.Receive(Segment(0, 1000), 500000, r);
    gro.Receive(Segment(0, 2000), 1200000, r);
    gro.Flush(true, 1500000, r);
    EXPECT_EQ(r.Types(), "HHC");
    EXPECT_EQ(r.events[2].srcPort, 1000);
    gro.Flush(true, 2000000, r);
    EXPECT_EQ(r.Types(), "HHCC");
}

} // namespace
