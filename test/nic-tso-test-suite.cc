/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * The NIC's transmit side of TSO/GSO: a super-packet's descriptors and BQL bytes as each
 * driver counts them, its frames back to back on the wire, software GSO in front of a
 * driver that cannot TSO (with the rest requeued once the driver stops the queue), and the
 * drop granularity of fq_codel on super-packets.
 *
 * Every super-packet here is one TCP/IPv4 packet of 10 segments of 1448 bytes behind a
 * 20-byte IP header and a 32-byte TCP header (a timestamp option): 20 + 32 + 14480 = 14532
 * bytes at the IP layer, skb->len 14546 with the Ethernet header, hdr_len 66, each frame
 * 66 + 1448 = 1514 bytes.
 */

#include "debloat-test-utils.h"

#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/gso-tag.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/nic-net-device.h"
#include "ns3/traffic-control-module.h"

#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// Segments per super-packet.
constexpr uint32_t SEGS = 10;
/// Payload per segment (gso_size).
constexpr uint32_t MSS = 1448;
/// IP + TCP headers of every segment.
constexpr uint32_t L3L4 = 20 + 32;
/// skb->len of the super-packet: Ethernet, IP and TCP headers once and the payload.
constexpr uint32_t SKB_LEN = 14 + L3L4 + SEGS * MSS;
/// Each frame on the wire.
constexpr uint32_t FRAME = 14 + L3L4 + MSS;

/**
 * A TCP/IPv4 super-packet with its IP header, as a NetDevice's Send() receives it.
 * @param segs segments
 * @param gsoSize payload per segment
 * @param seq the first sequence number
 * @param sourcePort the TCP source port (the flow)
 * @return the packet, with a GsoTag
 */
Ptr<Packet>
MakeSuperPacket(uint32_t segs, uint32_t gsoSize, uint32_t seq = 1000, uint16_t sourcePort = 49153)
{
    Ptr<Packet> packet = Create<Packet>(segs * gsoSize);
    TcpHeader tcp;
    tcp.SetSourcePort(sourcePort);
    tcp.SetDestinationPort(5001);
    tcp.SetSequenceNumber(SequenceNumber32(seq));
    tcp.SetAckNumber(SequenceNumber32(1));
    tcp.SetFlags(TcpHeader::ACK | TcpHeader::PSH);
    tcp.SetWindowSize(1000);
    Ptr<TcpOptionTS> ts = CreateObject<TcpOptionTS>();
    ts->SetTimestamp(7);
    ts->SetEcho(3);
    tcp.AppendOption(ts);
    packet->AddHeader(tcp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(6);
    ip.SetTtl(64);
    ip.SetIdentification(100);
    ip.SetPayloadSize(packet->GetSize());
    packet->AddHeader(ip);
    GsoTag gso(static_cast<uint16_t>(gsoSize), static_cast<uint16_t>(segs));
    packet->AddPacketTag(gso);
    return packet;
}

/// A two-node NIC link and what its traces saw.
struct TsoLink
{
    NodeContainer nodes;                             ///< sender, receiver
    Ptr<NicNetDevice> tx;                            ///< sender
    Ptr<NicNetDevice> rx;                            ///< receiver
    std::vector<std::pair<uint32_t, uint64_t>> ring; ///< TX ring (descriptors, bytes) per change
    std::vector<Time> txEnds;                        ///< PhyTxEnd times
    std::vector<Ptr<const Packet>> received;         ///< frames passed up by the receiver
    std::vector<NicNetDevice::DropReason> drops;     ///< the sender's drops
};

/**
 * Builds a link on a profile at 1 Gbit/s with interrupt moderation left as the profile has
 * it, with the given sender attributes, and connects the traces.
 * @param profile the profile
 * @param attributes sender attributes (name, value)
 * @return the link
 */
std::unique_ptr<TsoLink>
MakeTsoLink(const std::string& profile,
            const std::vector<std::pair<std::string, std::string>>& attributes)
{
    auto link = std::make_unique<TsoLink>();
    link->nodes.Create(2);
    NicHelper helper;
    helper.SetProfile(profile);
    helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    NetDeviceContainer devices = helper.Install(link->nodes);
    link->tx = DynamicCast<NicNetDevice>(devices.Get(0));
    link->rx = DynamicCast<NicNetDevice>(devices.Get(1));
    for (const auto& [name, value] : attributes)
    {
        link->tx->SetAttribute(name, StringValue(value));
    }
    TsoLink* l = link.get();
    link->tx->TraceConnectWithoutContext(
        "TxRing",
        MakeCallback(+[](TsoLink* l, uint32_t, uint32_t descriptors, uint64_t bytes) {
            l->ring.emplace_back(descriptors, bytes);
        }).Bind(l));
    link->tx->TraceConnectWithoutContext("PhyTxEnd",
                                         MakeCallback(+[](TsoLink* l, Ptr<const Packet>) {
                                             l->txEnds.push_back(Simulator::Now());
                                         }).Bind(l));
    link->rx->TraceConnectWithoutContext(
        "MacRx",
        MakeCallback(+[](TsoLink* l, Ptr<const Packet> p) { l->received.push_back(p); }).Bind(l));
    link->tx->TraceConnectWithoutContext(
        "Drop",
        MakeCallback(+[](TsoLink* l, Ptr<const Packet>, NicNetDevice::DropReason r) {
            l->drops.push_back(r);
        }).Bind(l));
    return link;
}

/**
 * Sends a packet from the link's sender.
 * @param link the link
 * @param packet the packet
 */
void
SendFrom(TsoLink* link, Ptr<Packet> packet)
{
    link->tx->Send(packet, link->rx->GetAddress(), 0x0800);
}

/**
 * The TCP header of a received frame (Ethernet header already removed by the device).
 * @param packet the frame as passed up
 * @return its TCP header
 */
TcpHeader
TcpOf(Ptr<const Packet> packet)
{
    Ptr<Packet> copy = packet->Copy();
    Ipv4Header ip;
    copy->RemoveHeader(ip);
    TcpHeader tcp;
    copy->RemoveHeader(tcp);
    return tcp;
}

/**
 * @ingroup debloat-tests
 * @brief Hardware TSO (e1000e): two descriptors, skb->len for BQL, ten frames back to back.
 *
 * e1000_xmit_frame() counts a context descriptor and the data by the 24 KiB limit:
 * 1 + ceil(14546 / 24576) = 2 descriptors, and netdev_sent_queue() gets skb->len 14546.
 * The NIC sends 10 frames of 1514 bytes, each (1514 + 24) x 8 ns = 12304 ns at 1 Gbit/s,
 * back to back: frame k ends k x 12304 ns after the send. The receiver sees sequence
 * numbers 1000 + 1448 k, PSH on the last frame only, IP ids 100 to 109. ethtool's
 * tx_packets counts the 10 frames.
 */
class TsoHardwareTrainTestCase : public TestCase
{
  public:
    TsoHardwareTrainTestCase()
        : TestCase("hardware TSO: 2 descriptors, skb->len for BQL, 10 frames back to back")
    {
    }

  private:
    void DoRun() override
    {
        auto link = MakeTsoLink("e1000e", {{"Tso", "true"}});
        Simulator::Schedule(MicroSeconds(10), &SendFrom, link.get(), MakeSuperPacket(SEGS, MSS));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_GT(link->ring.size(), 0, "no post");
        NS_TEST_EXPECT_MSG_EQ(link->ring.front().first, 2, "context + one data descriptor");
        NS_TEST_EXPECT_MSG_EQ(link->ring.front().second, SKB_LEN, "skb->len");
        NS_TEST_ASSERT_MSG_EQ(link->txEnds.size(), SEGS, "one frame per segment");
        for (uint32_t k = 1; k <= SEGS; k++)
        {
            NS_TEST_EXPECT_MSG_EQ(link->txEnds[k - 1],
                                  MicroSeconds(10) + NanoSeconds(12304 * k),
                                  "frame " << k << " ends at k x 12304 ns");
        }
        NS_TEST_ASSERT_MSG_EQ(link->received.size(), SEGS, "all frames received");
        for (uint32_t k = 0; k < SEGS; k++)
        {
            Ptr<const Packet> frame = link->received[k];
            NS_TEST_EXPECT_MSG_EQ(frame->GetSize(), FRAME - 14, "IP packet of each frame");
            const TcpHeader tcp = TcpOf(frame);
            NS_TEST_EXPECT_MSG_EQ(tcp.GetSequenceNumber().GetValue(), 1000 + MSS * k, "seq");
            const bool psh = (tcp.GetFlags() & TcpHeader::PSH) != 0;
            const bool last = k == SEGS - 1;
            NS_TEST_EXPECT_MSG_EQ(psh, last, "PSH on the last frame only");
            Ipv4Header ip;
            frame->PeekHeader(ip);
            NS_TEST_EXPECT_MSG_EQ(ip.GetIdentification(), 100 + k, "IP id per segment");
        }
        const NicNetDevice::Stats& stats = link->tx->GetStats();
        NS_TEST_EXPECT_MSG_EQ(stats.txPackets, SEGS, "tx_packets counts frames");
        NS_TEST_EXPECT_MSG_EQ(stats.txBytes, SEGS * FRAME, "tx_bytes counts frames");
        NS_TEST_EXPECT_MSG_EQ(stats.tsoPackets, 1, "one TSO packet");
        NS_TEST_EXPECT_MSG_EQ(stats.tsoSegments, SEGS, "its frames");
        NS_TEST_EXPECT_MSG_EQ(link->ring.back().first, 0, "reclaimed at the end");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Each driver's count: igb's bytecount and mvneta's per-frame descriptors.
 *
 * igb_tso(): bytecount = skb->len + (gso_segs - 1) x hdr_len = 14546 + 9 x 66 = 15140
 * bytes for BQL, descriptors 1 (context) + ceil(14546 / 32768) = 2. mvneta_tx_tso(): a
 * header and a data descriptor per frame = 20 descriptors, BQL skb->len 14546. Both send
 * the same 10 frames, the last ending at 10 x 12304 ns.
 */
class TsoDriverCountsTestCase : public TestCase
{
  public:
    TsoDriverCountsTestCase()
        : TestCase("igb counts every frame's headers for BQL; mvneta 2 descriptors per frame")
    {
    }

  private:
    /**
     * Sends one super-packet and checks the first ring change and the last frame's end.
     * @param profile the profile
     * @param descriptors expected descriptors
     * @param bytes expected bytes
     */
    void Check(const std::string& profile, uint32_t descriptors, uint64_t bytes)
    {
        auto link = MakeTsoLink(profile, {{"Tso", "true"}});
        Simulator::ScheduleNow(&SendFrom, link.get(), MakeSuperPacket(SEGS, MSS));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT(link->ring.size(), 0, profile << ": no post");
        NS_TEST_EXPECT_MSG_EQ(link->ring.front().first, descriptors, profile << " descriptors");
        NS_TEST_EXPECT_MSG_EQ(link->ring.front().second, bytes, profile << " BQL bytes");
        NS_TEST_ASSERT_MSG_EQ(link->txEnds.size(), SEGS, profile << ": frames");
        NS_TEST_EXPECT_MSG_EQ(link->txEnds.back(), NanoSeconds(12304 * SEGS), profile);
        NS_TEST_EXPECT_MSG_EQ(link->received.size(), SEGS, profile << ": received");
        Simulator::Destroy();
    }

    void DoRun() override
    {
        Check("igb", 2, SKB_LEN + (SEGS - 1) * (14 + L3L4));
        Check("mvneta", 2 * SEGS, SKB_LEN);
    }
};

/**
 * @ingroup debloat-tests
 * @brief Software GSO: segments posted one by one; once the driver stops the queue the rest
 * waits and goes first when it wakes.
 *
 * e1000e with Tso off and a 33-descriptor ring, of which e1000_desc_unused() counts 32
 * (size - used - 1), stop below 19 free, wake at 32: each 1514-byte segment takes 2
 * descriptors, so posts 1 to 7 leave 30, 28, ..., 18 free and the
 * 7th stops the queue (18 < 19); segments 8 to 10 are requeued. The wake needs all 32 free,
 * i.e. the 7 reclaimed; then 8, 9 and 10 follow. The receiver gets the 10 segments in
 * order, each its own skb (ring bytes 1514 per post).
 */
class SoftwareGsoRequeueTestCase : public TestCase
{
  public:
    SoftwareGsoRequeueTestCase()
        : TestCase("software GSO: 7 segments fill a 33-descriptor ring, 3 wait for the wake")
    {
    }

  private:
    void DoRun() override
    {
        auto link = MakeTsoLink(
            "e1000e",
            {{"TxRingSize", "33"}, {"TxStopThreshold", "19"}, {"TxWakeThreshold", "32"}});
        Simulator::ScheduleNow(&SendFrom, link.get(), MakeSuperPacket(SEGS, MSS));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT(link->ring.size(), 7, "posts");
        for (uint32_t k = 1; k <= 7; k++)
        {
            NS_TEST_EXPECT_MSG_EQ(link->ring[k - 1].first, 2 * k, "post " << k);
            NS_TEST_EXPECT_MSG_EQ(link->ring[k - 1].second, k * FRAME, "post " << k << " bytes");
        }
        // The 8th post is the first change after the 7th that adds descriptors; the wake
        // at 32 free means the ring was empty before it.
        std::size_t eighth = 7;
        while (eighth < link->ring.size() &&
               link->ring[eighth].first < link->ring[eighth - 1].first)
        {
            eighth++;
        }
        NS_TEST_ASSERT_MSG_LT(eighth, link->ring.size(), "the requeued segments were posted");
        NS_TEST_EXPECT_MSG_EQ(link->ring[eighth - 1].first, 0, "the 7 reclaimed first");
        NS_TEST_EXPECT_MSG_EQ(link->ring[eighth].first, 2, "then segment 8");
        NS_TEST_ASSERT_MSG_EQ(link->received.size(), SEGS, "every segment arrives");
        for (uint32_t k = 0; k < SEGS; k++)
        {
            NS_TEST_EXPECT_MSG_EQ(TcpOf(link->received[k]).GetSequenceNumber().GetValue(),
                                  1000 + MSS * k,
                                  "in order");
        }
        const NicNetDevice::Stats& stats = link->tx->GetStats();
        NS_TEST_EXPECT_MSG_EQ(stats.gsoPackets, 1, "one software GSO packet");
        NS_TEST_EXPECT_MSG_EQ(stats.gsoSegments, SEGS, "its segments");
        NS_TEST_EXPECT_MSG_EQ(stats.txPackets, SEGS, "frames sent");
        NS_TEST_EXPECT_MSG_EQ(link->drops.size(), 0, "no drop");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief A super-packet whose frames would exceed the MTU is dropped as TX_TOO_BIG, with
 * TSO or in software GSO;
 * Tso without driver support, or a driver-TSO ring too small for gso_max_segs, stops
 * with a message.
 *
 * gso_size 1460 + 52 header bytes = 1512 > MTU 1500. mvneta's 1024 descriptors stop below
 * 218 free; with GsoMaxSegs 65535 the worst super-packet would need 2 x min(65535, 65536)
 * descriptors, far above 218.
 */
class TsoBadInputTestCase : public TestCase
{
  public:
    TsoBadInputTestCase()
        : TestCase("TSO: frames above the MTU dropped; unsupported settings stop")
    {
    }

  private:
    void DoRun() override
    {
        auto link = MakeTsoLink("e1000e", {{"Tso", "true"}});
        Simulator::ScheduleNow(&SendFrom, link.get(), MakeSuperPacket(4, 1460));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(link->drops.size(), 1, "one drop");
        NS_TEST_EXPECT_MSG_EQ(link->drops.front(), NicNetDevice::TX_TOO_BIG, "TX_TOO_BIG");
        NS_TEST_EXPECT_MSG_EQ(link->txEnds.size(), 0, "nothing sent");
        Simulator::Destroy();
        // The same packet in software GSO (Tso off): its segments would exceed the MTU too.
        link = MakeTsoLink("e1000e", {});
        Simulator::ScheduleNow(&SendFrom, link.get(), MakeSuperPacket(4, 1460));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(link->drops.size(), 1, "software GSO: one drop");
        NS_TEST_EXPECT_MSG_EQ(link->drops.front(), NicNetDevice::TX_TOO_BIG, "TX_TOO_BIG");
        NS_TEST_EXPECT_MSG_EQ(link->txEnds.size(), 0, "nothing sent");
        Simulator::Destroy();

        auto expectStop = [this](const std::string& profile,
                                 const std::vector<std::pair<std::string, std::string>>& attrs,
                                 const std::string& expected) {
            const auto outcome = debloattest::RunInChild([&]() {
                auto l = MakeTsoLink(profile, attrs);
                Simulator::ScheduleNow(&SendFrom, l.get(), MakeSuperPacket(SEGS, MSS));
                Simulator::Run();
            });
            NS_TEST_EXPECT_MSG_EQ(outcome.stopped, true, expected);
            NS_TEST_EXPECT_MSG_NE(outcome.output.find(expected), std::string::npos, outcome.output);
        };
        expectStop("ag71xx", {{"Tso", "true"}}, "Tso=true needs TsoSupport hardware or driver");
        expectStop("mvneta",
                   {{"Tso", "true"}, {"GsoMaxSegs", "65535"}},
                   "TxStopThreshold=218 is below the");
        expectStop("e1000e",
                   {{"Gso", "true"}, {"GsoMaxSize", "100"}},
                   "GsoMaxSize=100 is out of range");
    }
};

/**
 * @ingroup debloat-tests
 * @brief fq_codel drops super-packets whole, as many as its batch drop needs.
 *
 * fq_codel with limit 4 packets holds three super-packets of flow A and one of flow B
 * (14532 bytes each at the IP layer) while nothing dequeues. A fourth of A makes five,
 * over the limit: fq_codel_drop() drops from the head of the fattest flow, A with
 * 4 x 14532 = 58128 bytes, until half of that, 29064 bytes, is gone: after one drop
 * 14532 < 29064, after two 29064 is not below it, so two whole super-packets (20 segments)
 * go at once, and A's two newest and B's one remain. (ns-3's per-flow CoDel queues take
 * the qdisc's limit too, so one flow alone would tail-drop first; two flows avoid that.)
 */
class FqCoDelSuperPacketDropTestCase : public TestCase
{
  public:
    FqCoDelSuperPacketDropTestCase()
        : TestCase("fq_codel over its limit drops 2 whole super-packets of the fat flow")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FqCoDelQueueDisc> qdisc = CreateObject<FqCoDelQueueDisc>();
        qdisc->SetAttribute("MaxSize", StringValue("4p"));
        qdisc->SetAttribute("DropBatchSize", UintegerValue(64));
        // Linux's default, MTU + Ethernet header: without a device ns-3 finds no MTU to take
        // (its CheckConfig() asserts in builds with asserts, such as ns-3.35 in-tree).
        qdisc->SetQuantum(1514);
        qdisc->Initialize();
        auto enqueue = [&qdisc](uint32_t i, uint16_t port) {
            Ptr<Packet> packet = MakeSuperPacket(SEGS, MSS, 1000 + i * SEGS * MSS, port);
            Ipv4Header ip;
            packet->RemoveHeader(ip);
            qdisc->Enqueue(Create<Ipv4QueueDiscItem>(packet, Mac48Address(), 0x0800, ip));
        };
        enqueue(0, 49153);
        enqueue(1, 49153);
        enqueue(2, 49153);
        enqueue(0, 49154);
        enqueue(3, 49153);
        const QueueDisc::Stats& stats = qdisc->GetStats();
        NS_TEST_EXPECT_MSG_EQ(stats.nTotalDroppedPackets, 2, "two super-packets dropped");
        NS_TEST_EXPECT_MSG_EQ(stats.nTotalDroppedBytes, 2 * (L3L4 + SEGS * MSS), "whole");
        NS_TEST_EXPECT_MSG_EQ(qdisc->GetNPackets(), 3, "three remain");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief The TSO test suite.
 */
class NicTsoTestSuite : public TestSuite
{
  public:
    NicTsoTestSuite()
        : TestSuite("debloat-nic-tso", compat::SUITE_UNIT)
    {
        AddTestCase(new TsoHardwareTrainTestCase, compat::TEST_QUICK);
        AddTestCase(new TsoDriverCountsTestCase, compat::TEST_QUICK);
        AddTestCase(new SoftwareGsoRequeueTestCase, compat::TEST_QUICK);
        AddTestCase(new TsoBadInputTestCase, compat::TEST_QUICK);
        AddTestCase(new FqCoDelSuperPacketDropTestCase, compat::TEST_QUICK);
    }
};

/// The suite's instance.
NicTsoTestSuite g_nicTsoTestSuite;

} // namespace
