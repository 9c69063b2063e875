/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GRO in a NicNetDevice's NAPI poll: hand-built TCP/IPv4 frames sent back to back and held
 * in one poll by RX moderation (merged packets, their lengths and GsoTags, a hole and an
 * option change splitting them, the forwarded case with GroSegmentTags, conservation), and
 * a TCP bulk transfer whose receiver ACKs once per GRO packet.
 *
 * Frames: a 1448-byte payload behind a 32-byte TCP header (20 + timestamp option 10, padded
 * to 12) and a 20-byte IPv4 header is a 1500-byte IP packet, a 1514-byte frame that holds a
 * 1 Gbit/s wire for (1514 + 24) * 8 ns = 12.304 us. With rx-usecs 1 ms (absolute) the RX
 * interrupt fires 1 ms after the first frame arrives; N <= 64 frames (NapiWeight 64, 256 RX
 * descriptors) sent at once arrive within N * 12.304 us <= 788 us of it, so one poll takes
 * all N and completes (napi_complete_done() flushes GRO).
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/gro-segment-tag.h"
#include "ns3/gso-tag.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/nic-net-device.h"

#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

constexpr uint32_t MSS = 1448;       ///< payload per segment
constexpr uint32_t IP_PACKET = 1500; ///< 20 + 32 + 1448
constexpr uint32_t HEADERS = 52;     ///< IPv4 and TCP (with timestamps) headers
constexpr uint32_t MSS6 = 1428;      ///< payload per TCP/IPv6 segment: 1500 - 40 - 32

/// What the receiver's device passed up.
struct Delivered
{
    uint32_t size;     ///< IP packet bytes
    uint16_t gsoSize;  ///< GsoTag gso_size, 0 without a tag
    uint16_t gsoSegs;  ///< GsoTag gso_segs
    int32_t segIndex;  ///< GroSegmentTag index, -1 without a tag
    uint16_t segCount; ///< GroSegmentTag count
};

/// Records the receive callback's packets (the IP stack does not see them).
struct Capture
{
    /**
     * The device's receive callback.
     * @param packet the packet, Ethernet header removed
     * @return true
     */
    bool Receive(Ptr<NetDevice>, Ptr<const Packet> packet, uint16_t, const Address&)
    {
        Delivered d{packet->GetSize(), 0, 0, -1, 0};
        GsoTag gso;
        if (packet->PeekPacketTag(gso))
        {
            d.gsoSize = gso.GetGsoSize();
            d.gsoSegs = gso.GetGsoSegs();
        }
        GroSegmentTag seg;
        if (packet->PeekPacketTag(seg))
        {
            d.segIndex = seg.GetIndex();
            d.segCount = seg.GetCount();
        }
        packets.push_back(d);
        return true;
    }

    /// @return the segments the packets stand for (gso_segs, or 1)
    uint32_t Segments() const
    {
        uint32_t n = 0;
        for (const auto& d : packets)
        {
            n += d.gsoSegs > 0 ? d.gsoSegs : 1;
        }
        return n;
    }

    /// @return the payload bytes the packets carry
    uint64_t Payload() const
    {
        uint64_t n = 0;
        for (const auto& d : packets)
        {
            n += d.size - HEADERS;
        }
        return n;
    }

    std::vector<Delivered> packets; ///< in order
};

/// One segment to send.
struct SegmentSpec
{
    uint32_t index;      ///< sequence number 1 + index * MSS
    uint32_t tsval{100}; ///< TSval
};

/**
 * A TCP/IPv4 segment 10.1.1.1:49153 -> dst:5001.
 * @param dst destination address
 * @param spec which segment
 * @param id IPv4 identification
 * @return the IP packet
 */
Ptr<Packet>
MakeSegment(Ipv4Address dst, const SegmentSpec& spec, uint16_t id)
{
    Ptr<Packet> p = Create<Packet>(MSS);
    TcpHeader tcp;
    tcp.SetSourcePort(49153);
    tcp.SetDestinationPort(5001);
    tcp.SetSequenceNumber(SequenceNumber32(1 + spec.index * MSS));
    tcp.SetAckNumber(SequenceNumber32(1));
    tcp.SetFlags(TcpHeader::ACK);
    tcp.SetWindowSize(502);
    Ptr<TcpOptionTS> ts = CreateObject<TcpOptionTS>();
    ts->SetTimestamp(spec.tsval);
    ts->SetEcho(1);
    tcp.AppendOption(ts);
    p->AddHeader(tcp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.1.1.1"));
    ip.SetDestination(dst);
    ip.SetProtocol(6);
    ip.SetTtl(64);
    ip.SetIdentification(id);
    ip.SetDontFragment();
    ip.SetPayloadSize(p->GetSize());
    p->AddHeader(ip);
    return p;
}

/**
 * @ingroup debloat-tests
 * @brief Hand-built frames through one poll of a GRO receiver: what goes up.
 */
class GroFramesTestCase : public TestCase
{
  public:
    /// The cases.
    enum Kind
    {
        IN_ORDER,      ///< 10 in order
        OUT_OF_ORDER,  ///< 0 1 2 4 5 3
        OPTION_CHANGE, ///< 6, TSval changes at the fourth
        FORWARDED,     ///< 4 in order for another host
        GRO_OFF,       ///< 4 in order, Gro off
    };

    /// @param kind which case
    explicit GroFramesTestCase(Kind kind)
        : TestCase(Name(kind)),
          m_kind(kind)
    {
    }

  private:
    /// @param kind the case @return its name
    static std::string Name(Kind kind)
    {
        switch (kind)
        {
        case IN_ORDER:
            return "GRO merges an in-order train into one packet";
        case OUT_OF_ORDER:
            return "GRO: a hole splits the train";
        case OPTION_CHANGE:
            return "GRO: a TSval change splits the train";
        case FORWARDED:
            return "GRO: a forwarded train goes up as tagged segments";
        default:
            return "Gro off: frames go up as they came";
        }
    }

    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        NicHelper tx;
        tx.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        NicHelper rx = tx;
        rx.SetDeviceAttribute("RxUsecs", TimeValue(MilliSeconds(1)));
        rx.SetDeviceAttribute("Gro", BooleanValue(m_kind != GRO_OFF));
        NetDeviceContainer devices = tx.Install(nodes.Get(0), nodes.Get(1), rx);
        InternetStackHelper().Install(nodes);
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        addresses.Assign(devices);
        Ptr<NicNetDevice> sender = DynamicCast<NicNetDevice>(devices.Get(0));
        Ptr<NicNetDevice> receiver = DynamicCast<NicNetDevice>(devices.Get(1));
        Capture capture;
        receiver->SetReceiveCallback(MakeCallback(&Capture::Receive, &capture));
        std::vector<uint32_t> polls;
        NS_TEST_ASSERT_MSG_EQ(receiver->TraceConnectWithoutContext(
                                  "Poll",
                                  MakeBoundCallback(&GroFramesTestCase::Poll, &polls)),
                              true,
                              "Poll trace");

        std::vector<SegmentSpec> specs;
        switch (m_kind)
        {
        case IN_ORDER:
            for (uint32_t i = 0; i < 10; ++i)
            {
                specs.push_back({i});
            }
            break;
        case OUT_OF_ORDER:
            for (uint32_t i : {0, 1, 2, 4, 5, 3})
            {
                specs.push_back({i});
            }
            break;
        case OPTION_CHANGE:
            for (uint32_t i = 0; i < 6; ++i)
            {
                specs.push_back({i, i < 3 ? 100U : 101U});
            }
            break;
        default:
            for (uint32_t i = 0; i < 4; ++i)
            {
                specs.push_back({i});
            }
        }
        const Ipv4Address dst(m_kind == FORWARDED ? "10.9.9.9" : "10.1.1.2");
        for (std::size_t k = 0; k < specs.size(); ++k)
        {
            // IDs advance by one per frame sent, as the sender's IPv4 numbers them.
            Ptr<Packet> p = MakeSegment(dst, specs[k], static_cast<uint16_t>(1000 + k));
            NS_TEST_ASSERT_MSG_EQ(p->GetSize(), IP_PACKET, "20 + 32 + 1448");
            sender->Send(p, receiver->GetAddress(), 0x0800);
        }
        Simulator::Run();

        // One poll took every frame (see the file comment).
        NS_TEST_ASSERT_MSG_EQ(polls.size(), 1, "one RX poll");
        NS_TEST_EXPECT_MSG_EQ(polls[0], specs.size(), "all frames in it");
        const auto& got = capture.packets;
        const NicNetDevice::Stats& stats = receiver->GetStats();
        switch (m_kind)
        {
        case IN_ORDER:
            // One packet: 52 + 10 * 1448 = 14532 bytes, GsoTag(1448, 10).
            NS_TEST_ASSERT_MSG_EQ(got.size(), 1, "one packet");
            NS_TEST_EXPECT_MSG_EQ(got[0].size, HEADERS + 10 * MSS, "merged length");
            NS_TEST_EXPECT_MSG_EQ(got[0].gsoSize, MSS, "gso_size");
            NS_TEST_EXPECT_MSG_EQ(got[0].gsoSegs, 10, "gso_segs");
            NS_TEST_EXPECT_MSG_EQ(stats.groPackets, 1, "one GRO packet");
            NS_TEST_EXPECT_MSG_EQ(stats.groSegments, 10, "of 10 segments");
            break;
        case OUT_OF_ORDER:
            // Segment 4 does not follow {0,1,2}: that goes up (52 + 3 * 1448 = 4396); 5
            // joins 4; 3 does not follow {4,5}: that goes up (2948); 3 is held alone and the
            // flush passes it as it came (1500, no tag).
            NS_TEST_ASSERT_MSG_EQ(got.size(), 3, "three packets");
            NS_TEST_EXPECT_MSG_EQ(got[0].size, HEADERS + 3 * MSS, "first");
            NS_TEST_EXPECT_MSG_EQ(got[0].gsoSegs, 3, "first");
            NS_TEST_EXPECT_MSG_EQ(got[1].size, HEADERS + 2 * MSS, "second");
            NS_TEST_EXPECT_MSG_EQ(got[1].gsoSegs, 2, "second");
            NS_TEST_EXPECT_MSG_EQ(got[2].size, IP_PACKET, "third");
            NS_TEST_EXPECT_MSG_EQ(got[2].gsoSegs, 0, "third has no GsoTag");
            NS_TEST_EXPECT_MSG_EQ(stats.groPackets, 2, "two GRO packets");
            break;
        case OPTION_CHANGE:
            // The option bytes differ from the fourth frame on: 3 + 3, 4396 bytes each.
            NS_TEST_ASSERT_MSG_EQ(got.size(), 2, "two packets");
            for (const auto& d : got)
            {
                NS_TEST_EXPECT_MSG_EQ(d.size, HEADERS + 3 * MSS, "3 segments");
                NS_TEST_EXPECT_MSG_EQ(d.gsoSegs, 3, "3 segments");
            }
            break;
        case FORWARDED:
            // 10.9.9.9 is not the receiver's: the merged train of 4 goes up as its frames,
            // back to back, tagged 0..3 of 4, without GsoTag.
            NS_TEST_ASSERT_MSG_EQ(got.size(), 4, "four segments");
            for (uint32_t i = 0; i < 4; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(got[i].size, IP_PACKET, "a segment");
                NS_TEST_EXPECT_MSG_EQ(got[i].gsoSegs, 0, "no GsoTag");
                NS_TEST_EXPECT_MSG_EQ(got[i].segIndex, static_cast<int32_t>(i), "index");
                NS_TEST_EXPECT_MSG_EQ(got[i].segCount, 4, "count");
            }
            NS_TEST_EXPECT_MSG_EQ(stats.groPackets, 1, "one GRO packet");
            break;
        default:
            NS_TEST_ASSERT_MSG_EQ(got.size(), 4, "four frames");
            for (const auto& d : got)
            {
                NS_TEST_EXPECT_MSG_EQ(d.size, IP_PACKET, "as sent");
                NS_TEST_EXPECT_MSG_EQ(d.gsoSegs + d.segCount, 0, "no tags");
            }
            NS_TEST_EXPECT_MSG_EQ(stats.groPackets, 0, "no GRO");
        }
        // Conservation: every frame is in exactly one packet, every payload byte too;
        // rx_packets counts the frames received.
        NS_TEST_EXPECT_MSG_EQ(capture.Segments(), specs.size(), "segments conserved");
        NS_TEST_EXPECT_MSG_EQ(capture.Payload(), specs.size() * MSS, "payload conserved");
        NS_TEST_EXPECT_MSG_EQ(stats.rxPackets, specs.size(), "rx_packets per frame");
        NS_TEST_EXPECT_MSG_EQ(stats.rxBytes, specs.size() * (IP_PACKET + 14), "rx_bytes");
        Simulator::Destroy();
    }

    /**
     * Records the RX frames of each poll that had any.
     * @param polls the record
     * @param rxPackets RX frames the poll passed up
     */
    static void Poll(std::vector<uint32_t>* polls, uint32_t, uint32_t, uint64_t, uint32_t rxPackets)
    {
        if (rxPackets > 0)
        {
            polls->push_back(rxPackets);
        }
    }

    Kind m_kind; ///< the case
};

/**
 * @ingroup debloat-tests
 * @brief GRO of TCP/IPv6: ten in-order segments to the receiver's address become one packet.
 *
 * ipv6_gro_receive() and tcp_gro_receive() apply the same rules as for IPv4 (no IP ID to
 * check). Each segment is a 40-byte IPv6 header, 32 bytes of TCP with timestamps and the
 * IPv6 MSS of 1500 - 40 - 32 = 1428 bytes of payload; one poll (rx-usecs 1 ms) takes all
 * ten and GRO passes up one packet of 40 + 32 + 10 x 1428 = 14352 bytes with
 * GsoTag(1428, 10).
 */
class GroIpv6TestCase : public TestCase
{
  public:
    GroIpv6TestCase()
        : TestCase("GRO merges an in-order TCP over IPv6 train into one packet")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        NicHelper tx;
        tx.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        NicHelper rx = tx;
        rx.SetDeviceAttribute("RxUsecs", TimeValue(MilliSeconds(1)));
        rx.SetDeviceAttribute("Gro", BooleanValue(true));
        NetDeviceContainer devices = tx.Install(nodes.Get(0), nodes.Get(1), rx);
        InternetStackHelper().Install(nodes);
        Ipv6AddressHelper addresses(Ipv6Address("2001:db8::"), Ipv6Prefix(64));
        Ipv6InterfaceContainer interfaces = addresses.Assign(devices);
        Ptr<NicNetDevice> sender = DynamicCast<NicNetDevice>(devices.Get(0));
        Ptr<NicNetDevice> receiver = DynamicCast<NicNetDevice>(devices.Get(1));
        Capture capture;
        receiver->SetReceiveCallback(MakeCallback(&Capture::Receive, &capture));
        const Ipv6Address src = interfaces.GetAddress(0, 1);
        const Ipv6Address dst = interfaces.GetAddress(1, 1);
        for (uint32_t i = 0; i < 10; ++i)
        {
            Ptr<Packet> p = Create<Packet>(MSS6);
            TcpHeader tcp;
            tcp.SetSourcePort(49153);
            tcp.SetDestinationPort(5001);
            tcp.SetSequenceNumber(SequenceNumber32(1 + i * MSS6));
            tcp.SetAckNumber(SequenceNumber32(1));
            tcp.SetFlags(TcpHeader::ACK);
            tcp.SetWindowSize(502);
            Ptr<TcpOptionTS> ts = CreateObject<TcpOptionTS>();
            ts->SetTimestamp(100);
            ts->SetEcho(1);
            tcp.AppendOption(ts);
            p->AddHeader(tcp);
            Ipv6Header ip;
            ip.SetSource(src);
            ip.SetDestination(dst);
            ip.SetNextHeader(6);
            ip.SetHopLimit(64);
            ip.SetPayloadLength(p->GetSize());
            p->AddHeader(ip);
            NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 40 + 32 + MSS6, "a TCP/IPv6 segment");
            sender->Send(p, receiver->GetAddress(), 0x86DD);
        }
        Simulator::Run();
        // Only the TCP packets: the addresses' neighbour discovery goes up too.
        std::vector<Delivered> tcp;
        for (const auto& d : capture.packets)
        {
            if (d.size >= 40 + 32 + MSS6)
            {
                tcp.push_back(d);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(tcp.size(), 1, "one packet");
        NS_TEST_EXPECT_MSG_EQ(tcp[0].size, 40 + 32 + 10 * MSS6, "merged length");
        NS_TEST_EXPECT_MSG_EQ(tcp[0].gsoSize, MSS6, "gso_size");
        NS_TEST_EXPECT_MSG_EQ(tcp[0].gsoSegs, 10, "gso_segs");
        NS_TEST_EXPECT_MSG_EQ(receiver->GetStats().groSegments, 10, "of 10 segments");
        Simulator::Destroy();
    }
};

/// What a bulk transfer did.
struct BulkResult
{
    uint64_t received{0};    ///< bytes the sink got
    Time first;              ///< when the sink got its first bytes
    Time done;               ///< when the sink had them all
    uint64_t receiverTx{0};  ///< frames the receiver sent (its ACKs, SYN-ACK, FIN)
    uint64_t multi{0};       ///< GRO packets of >= 2 segments
    uint64_t singles{0};     ///< GRO packets of one segment
    uint64_t groSegments{0}; ///< segments in all GRO packets
    bool connected{false};   ///< both trace sources were found
};

/**
 * @ingroup debloat-tests
 * @brief A TCP bulk transfer to a GRO receiver: one ACK per GRO packet.
 *
 * 2000 segments of 1448 bytes (BulkSend MaxBytes 2896000) over a 1 Gbit/s link with 1 ms
 * delay; the receiver has rx-usecs 100 us, so a poll holds the frames of up to 100 us (about
 * 8 back to back). With Gro off ns-3's receiver ACKs every second in-order segment
 * (DelAckCount 2): ACKs for data in [2000 / 2, 2000 / 2 + 1] (the last odd one by the
 * timer or the FIN). The receiver also sends two ARP packets (the reply to the sender's
 * request, and its own request before the SYN-ACK: ns-3's ARP does not learn from a
 * request), the SYN-ACK, and at most two for the close (the ACK of the FIN and its FIN):
 * 3 to 5 more frames.
 * With Gro on, each GRO packet of >= 2 segments is ACKed at once and a packet of one
 * segment counts as one ReceivedData() toward DelAckCount 2, so the data ACKs are at least
 * the multi-segment packets and at most those plus the single ones.
 */
class GroBulkTestCase : public TestCase
{
  public:
    GroBulkTestCase()
        : TestCase("GRO receiver: one ACK per GRO packet in a bulk transfer")
    {
    }

  private:
    static constexpr uint32_t SEGMENTS = 2000; ///< segments sent

    /**
     * @param result the record
     * @param segments GRO packet's segments
     */
    static void Gro(BulkResult* result, uint32_t segments, uint32_t)
    {
        (segments >= 2 ? result->multi : result->singles)++;
        result->groSegments += segments;
    }

    /**
     * @param result the record
     * @param packet a packet the sink got
     */
    static void Rx(BulkResult* result, Ptr<const Packet> packet, const Address&)
    {
        if (result->received == 0)
        {
            result->first = Simulator::Now();
        }
        result->received += packet->GetSize();
        if (result->received == uint64_t{SEGMENTS} * MSS)
        {
            result->done = Simulator::Now();
        }
    }

    /**
     * Runs the transfer.
     * @param gro the receiver's Gro
     * @return what happened
     */
    BulkResult Run(bool gro)
    {
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(MSS));
        Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1 << 20));
        Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1 << 20));
        NodeContainer nodes;
        nodes.Create(2);
        NicHelper tx;
        tx.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        tx.SetChannelAttribute("Delay", TimeValue(MilliSeconds(1)));
        NicHelper rx = tx;
        rx.SetDeviceAttribute("RxUsecs", TimeValue(MicroSeconds(100)));
        rx.SetDeviceAttribute("Gro", BooleanValue(gro));
        NetDeviceContainer devices = tx.Install(nodes.Get(0), nodes.Get(1), rx);
        InternetStackHelper().Install(nodes);
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), 5001));
        ApplicationContainer sinkApp = sink.Install(nodes.Get(1));
        BulkSendHelper bulk("ns3::TcpSocketFactory",
                            InetSocketAddress(interfaces.GetAddress(1), 5001));
        bulk.SetAttribute("MaxBytes", UintegerValue(uint64_t{SEGMENTS} * MSS));
        bulk.SetAttribute("SendSize", UintegerValue(MSS));
        ApplicationContainer bulkApp = bulk.Install(nodes.Get(0));
        BulkResult result;
        Ptr<NicNetDevice> receiver = DynamicCast<NicNetDevice>(devices.Get(1));
        // Connected outside NS_ASSERT: release builds compile its argument away.
        result.connected = receiver->TraceConnectWithoutContext(
                               "GroReceive",
                               MakeBoundCallback(&GroBulkTestCase::Gro, &result)) &&
                           sinkApp.Get(0)->TraceConnectWithoutContext(
                               "Rx",
                               MakeBoundCallback(&GroBulkTestCase::Rx, &result));
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        result.receiverTx = receiver->GetStats().txPackets;
        Simulator::Destroy();
        Config::Reset();
        return result;
    }

    void DoRun() override
    {
        const BulkResult off = Run(false);
        const BulkResult on = Run(true);
        NS_TEST_ASSERT_MSG_EQ(off.connected && on.connected, true, "GroReceive and Rx traced");
        NS_TEST_ASSERT_MSG_EQ(off.received, uint64_t{SEGMENTS} * MSS, "all bytes (off)");
        NS_TEST_ASSERT_MSG_EQ(on.received, uint64_t{SEGMENTS} * MSS, "all bytes (on)");
        // Gro off: 1000 or 1001 data ACKs plus 3 to 5 other frames (ARP, SYN-ACK, close).
        NS_TEST_EXPECT_MSG_GT_OR_EQ(off.receiverTx, SEGMENTS / 2 + 3, "ACKs, Gro off");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(off.receiverTx, SEGMENTS / 2 + 1 + 5, "ACKs, Gro off");
        NS_TEST_EXPECT_MSG_EQ(off.groSegments, 0, "no GRO when off");
        // Gro on: every data segment is in one GRO packet (they all go through GRO).
        NS_TEST_EXPECT_MSG_EQ(on.groSegments, SEGMENTS, "segments conserved");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(on.receiverTx, on.multi + 3, "ACKs >= multi + 3 others");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(on.receiverTx,
                                    on.multi + on.singles + 5,
                                    "ACKs <= GRO packets + 5 others");
        // Far fewer ACKs when GRO packets hold more than two segments on average:
        // multi + singles < 2000 / 2 is implied by a mean above 2 segments per packet.
        NS_TEST_EXPECT_MSG_LT(on.multi + on.singles, SEGMENTS / 2, "mean > 2 segments");
        NS_TEST_EXPECT_MSG_LT(on.receiverTx, off.receiverTx, "fewer ACKs with GRO");
        // Goodput, timed from the first data at the sink (ARP's random request jitter, up to
        // 10 ms, moves the start): GRO delays no data (the flush is at the end of the same
        // poll) and each ACK covers the same bytes at most one poll interval (100 us) later
        // than without GRO, once per round trip of at least 2 ms: at most 5% later per
        // round, 10% allowed. Earlier is bounded the same way: an ACK goes at most one
        // delayed-ACK pair of segments (2 x 12.3 us) sooner.
        const double ratio =
            (on.done - on.first).GetSeconds() / (off.done - off.first).GetSeconds();
        NS_TEST_EXPECT_MSG_EQ_TOL(ratio, 1.0, 0.10, "completion time within 10%");
    }
};

/**
 * @ingroup debloat-tests
 * @brief The GRO suite.
 */
class GroTestSuite : public TestSuite
{
  public:
    GroTestSuite()
        : TestSuite("debloat-gro", compat::SUITE_UNIT)
    {
        AddTestCase(new GroFramesTestCase(GroFramesTestCase::IN_ORDER), compat::TEST_QUICK);
        AddTestCase(new GroFramesTestCase(GroFramesTestCase::OUT_OF_ORDER), compat::TEST_QUICK);
        AddTestCase(new GroFramesTestCase(GroFramesTestCase::OPTION_CHANGE), compat::TEST_QUICK);
        AddTestCase(new GroFramesTestCase(GroFramesTestCase::FORWARDED), compat::TEST_QUICK);
        AddTestCase(new GroFramesTestCase(GroFramesTestCase::GRO_OFF), compat::TEST_QUICK);
        AddTestCase(new GroIpv6TestCase(), compat::TEST_QUICK);
        AddTestCase(new GroBulkTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's instance.
GroTestSuite g_groTestSuite;

} // namespace
