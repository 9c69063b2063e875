/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GsoTrafficControlLayer: a local TCP socket's burst reaches the queue disc as super-packets
 * of tcp_tso_segs() segments; a forwarded GRO packet's segments are joined again; packets of
 * other kinds keep their place.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/gro-segment-tag.h"
#include "ns3/gso-tag.h"
#include "ns3/gso-traffic-control-layer.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/offload-helper.h"
#include "ns3/traffic-control-module.h"

#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// Two hosts joined by e1000e NICs at 1 Gbit/s, 50 us, addressed 10.0.0.1 and 10.0.0.2.
struct GsoLink
{
    NodeContainer nodes;               ///< sender, receiver
    NetDeviceContainer nics;           ///< the sender's NIC, the receiver's
    Ptr<GsoTrafficControlLayer> layer; ///< the sender's layer
};

/**
 * Builds the link with ethtool -K words on the sender's NIC.
 * @param features the words
 * @param gsoMaxSegs the sender NIC's gso_max_segs
 * @return the link
 */
GsoLink
MakeGsoLink(const std::string& features, uint32_t gsoMaxSegs)
{
    GsoLink link;
    link.nodes.Create(2);
    NicHelper nic;
    nic.SetProfile("e1000e");
    nic.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    nic.SetChannelAttribute("Delay", TimeValue(MicroSeconds(50)));
    link.nics = nic.Install(link.nodes);
    link.nics.Get(0)->SetAttribute("GsoMaxSegs", UintegerValue(gsoMaxSegs));
    InternetStackHelper internet;
    internet.Install(link.nodes);
    Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");
    address.Assign(link.nics);
    OffloadHelper offloads;
    offloads.SetFeatures(features);
    auto layers = offloads.Install(NetDeviceContainer(link.nics.Get(0)));
    link.layer = layers.at(0);
    return link;
}

/**
 * A TCP/IPv4 segment as the IP layer hands it on: 10.0.0.1:49153 -> 10.0.0.2:5001, ACK
 * set, a timestamp option (12 bytes with its padding: a 32-byte TCP header).
 * @param seq sequence number
 * @param payload payload bytes
 * @param tsval the timestamp value
 * @return the item
 */
Ptr<Ipv4QueueDiscItem>
MakeSegment(uint32_t seq, uint32_t payload, uint32_t tsval = 7)
{
    Ptr<Packet> packet = Create<Packet>(payload);
    TcpHeader tcp;
    tcp.SetSourcePort(49153);
    tcp.SetDestinationPort(5001);
    tcp.SetSequenceNumber(SequenceNumber32(seq));
    tcp.SetAckNumber(SequenceNumber32(1));
    tcp.SetFlags(TcpHeader::ACK);
    tcp.SetWindowSize(1000);
    Ptr<TcpOptionTS> ts = CreateObject<TcpOptionTS>();
    ts->SetTimestamp(tsval);
    ts->SetEcho(3);
    tcp.AppendOption(ts);
    packet->AddHeader(tcp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(6);
    ip.SetTtl(63);
    ip.SetPayloadSize(packet->GetSize());
    return Create<Ipv4QueueDiscItem>(packet, Mac48Address("00:00:00:00:00:02"), 0x0800, ip);
}

/**
 * @ingroup debloat-tests
 * @brief The initial window leaves as super-packets of at most gso_max_segs segments.
 *
 * A bulk sender's first flight is the initial window, 10 segments of 1448 bytes, sent in
 * the event that completes the handshake. tcp_tso_autosize() allows more whatever the
 * handshake's RTT sample: with none the pacing rate is sk_max_pacing_rate (45 segments);
 * with the link's ~0.1 ms (2 x 50 us plus serialisation) it is 2 x 10 x 1448 / 0.1 ms =
 * 290 MB/s, 283 KB per ms, capped at 65536 bytes: 45 segments. So gso_max_segs 4 decides:
 * 4 + 4 + 2. Each is 20 (IP) + 32 (TCP with timestamps) bytes of
 * headers and its payloads: 4 x 1448 + 52 = 5844 and 2 x 1448 + 52 = 2948 bytes, the GsoTag
 * gso_size 1448 with 4, 4 and 2 segments.
 */
class GsoInitialWindowTestCase : public TestCase
{
  public:
    GsoInitialWindowTestCase()
        : TestCase("the initial window as super-packets of gso_max_segs 4: 4 + 4 + 2")
    {
    }

  private:
    void DoRun() override
    {
        LinuxTcpDefaults::Apply();
        GsoLink link = MakeGsoLink("gso on", 4);
        link.layer->TraceConnectWithoutContext(
            "SuperPacket",
            MakeCallback(&GsoInitialWindowTestCase::SuperPacket, this));
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress("10.0.0.2", 5001));
        bulk.SetAttribute("MaxBytes", UintegerValue(14480));
        bulk.Install(link.nodes.Get(0)).Start(MilliSeconds(1));
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), 5001));
        sink.Install(link.nodes.Get(1)).Start(Seconds(0));
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT_OR_EQ(m_sizes.size(), 3U, "super-packets of the first flight");
        const std::vector<uint32_t> segments{4, 4, 2};
        const std::vector<uint32_t> sizes{5844, 5844, 2948};
        for (std::size_t i = 0; i < 3; i++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_segments[i], segments[i], "segments of super-packet " << i);
            NS_TEST_EXPECT_MSG_EQ(m_sizes[i], sizes[i], "bytes of super-packet " << i);
            NS_TEST_EXPECT_MSG_EQ(m_gsoSize[i], 1448U, "gso_size of super-packet " << i);
        }
        Simulator::Destroy();
        Config::Reset();
    }

    /**
     * Records a super-packet.
     * @param item the super-packet
     * @param segments its segments
     */
    void SuperPacket(Ptr<const QueueDiscItem> item, uint32_t segments)
    {
        GsoTag gso;
        item->GetPacket()->PeekPacketTag(gso);
        NS_TEST_EXPECT_MSG_EQ(gso.GetGsoSegs(), segments, "GsoTag segments");
        m_segments.push_back(segments);
        m_sizes.push_back(item->GetSize());
        m_gsoSize.push_back(gso.GetGsoSize());
    }

    std::vector<uint32_t> m_segments; ///< segments per super-packet
    std::vector<uint32_t> m_sizes;    ///< bytes per super-packet
    std::vector<uint32_t> m_gsoSize;  ///< gso_size per super-packet
};

/**
 * @ingroup debloat-tests
 * @brief With gso and tso off the socket's segments pass one by one.
 *
 * sk_can_gso() is false: Linux sends MSS-sized skbs. The same first flight: no
 * super-packet, and the 10 data segments (and the handshake's ACK) pass unchanged.
 */
class GsoOffTestCase : public TestCase
{
  public:
    GsoOffTestCase()
        : TestCase("gso off: no super-packets")
    {
    }

  private:
    void DoRun() override
    {
        LinuxTcpDefaults::Apply();
        GsoLink link = MakeGsoLink("gso off tso off", 4);
        BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress("10.0.0.2", 5001));
        bulk.SetAttribute("MaxBytes", UintegerValue(14480));
        bulk.Install(link.nodes.Get(0)).Start(MilliSeconds(1));
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), 5001));
        auto apps = sink.Install(link.nodes.Get(1));
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(link.layer->GetStats().superPackets, 0U, "no super-packets");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(link.layer->GetStats().passed, 11U, "SYN, ACK, 10 segments");
        NS_TEST_EXPECT_MSG_EQ(DynamicCast<PacketSink>(apps.Get(0))->GetTotalRx(),
                              14480U,
                              "every byte delivered");
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * @ingroup debloat-tests
 * @brief A forwarded GRO packet's segments are one packet again; a hole splits it; other
 * packets keep their place.
 *
 * Sent straight into the layer, the queue disc's Enqueue trace shows what it gets:
 * - segments 0..3 of a GRO packet of 4 (1448 bytes each, contiguous): one packet of
 *   4 x 1448 + 52 = 5844 bytes with GsoTag 1448 x 4;
 * - segments 0, 1 and 3 of 4 (segment 2 went elsewhere): a packet of 2 x 1448 + 52 = 2948
 *   bytes, then segment 3 alone (1500 bytes, no GsoTag);
 * - a socket-less segment with no GroSegmentTag passes at once (1500 bytes).
 */
class GsoGroJoinTestCase : public TestCase
{
  public:
    GsoGroJoinTestCase()
        : TestCase("forwarded GRO segments joined again, a hole splits them")
    {
    }

  private:
    void DoRun() override
    {
        GsoLink link = MakeGsoLink("gro on", 65535);
        Ptr<TrafficControlLayer> tc = link.nodes.Get(0)->GetObject<TrafficControlLayer>();
        Ptr<QueueDisc> root = tc->GetRootQueueDiscOnDevice(link.nics.Get(0));
        root->TraceConnectWithoutContext("Enqueue",
                                         MakeCallback(&GsoGroJoinTestCase::Enqueued, this));
        Ptr<NetDevice> nic = link.nics.Get(0);
        auto send = [&](uint32_t seq, uint16_t index, uint16_t count) {
            Ptr<Ipv4QueueDiscItem> item = MakeSegment(seq, 1448);
            if (count > 0)
            {
                item->GetPacket()->AddPacketTag(GroSegmentTag(index, count));
            }
            link.layer->Send(nic, item);
        };
        compat::ScheduleFunction(MilliSeconds(1), [&]() {
            for (uint16_t i = 0; i < 4; i++)
            {
                send(1 + 1448 * i, i, 4);
            }
        });
        compat::ScheduleFunction(MilliSeconds(2), [&]() {
            send(1, 0, 4);
            send(1 + 1448, 1, 4);
            send(1 + 3 * 1448, 3, 4);
        });
        compat::ScheduleFunction(MilliSeconds(3), [&]() { send(1, 0, 0); });
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        const std::vector<uint32_t> sizes{5844, 2948, 1500, 1500};
        const std::vector<uint32_t> segs{4, 2, 0, 0};
        NS_TEST_ASSERT_MSG_EQ(m_sizes.size(), sizes.size(), "packets the queue disc got");
        for (std::size_t i = 0; i < sizes.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_sizes[i], sizes[i], "size of packet " << i);
            NS_TEST_EXPECT_MSG_EQ(m_segs[i], segs[i], "GsoTag segments of packet " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(link.layer->GetStats().groPackets, 2U, "GRO packets joined");
        Simulator::Destroy();
    }

    /**
     * Records what the queue disc got.
     * @param item the packet
     */
    void Enqueued(Ptr<const QueueDiscItem> item)
    {
        auto ip = DynamicCast<const Ipv4QueueDiscItem>(item);
        if (!ip || ip->GetHeader().GetProtocol() != 6)
        {
            return; // the ARP traffic of the link
        }
        GsoTag gso;
        const bool tagged = item->GetPacket()->PeekPacketTag(gso);
        GroSegmentTag gro;
        NS_TEST_EXPECT_MSG_EQ(item->GetPacket()->PeekPacketTag(gro),
                              false,
                              "no GroSegmentTag reaches the queue disc");
        m_sizes.push_back(item->GetSize());
        m_segs.push_back(tagged ? gso.GetGsoSegs() : 0);
    }

    std::vector<uint32_t> m_sizes; ///< sizes in order
    std::vector<uint32_t> m_segs;  ///< GsoTag segments in order (0: none)
};

/**
 * @ingroup debloat-tests
 * @brief The GsoTrafficControlLayer test suite.
 */
class GsoTrafficControlLayerTestSuite : public TestSuite
{
  public:
    GsoTrafficControlLayerTestSuite()
        : TestSuite("debloat-gso-layer", compat::SUITE_UNIT)
    {
        AddTestCase(new GsoInitialWindowTestCase(), compat::TEST_QUICK);
        AddTestCase(new GsoOffTestCase(), compat::TEST_QUICK);
        AddTestCase(new GsoGroJoinTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's instance.
GsoTrafficControlLayerTestSuite g_gsoTrafficControlLayerTestSuite;

} // namespace
