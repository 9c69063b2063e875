/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * DeviceSampler: qdisc backlog, drops, sent counters and sojourn times under a burst whose
 * drain is known.
 */

#include "ns3/cake-queue-disc.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/device-sampler.h"
#include "ns3/gso-tag.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cmath>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/**
 * Sends datagrams back to back (a function, not a lambda: ns-3.35 schedules no lambdas).
 * @param socket a connected UDP socket
 * @param count datagrams
 * @param size payload bytes each
 */
void
SendDatagrams(Ptr<Socket> socket, uint32_t count, uint32_t size)
{
    for (uint32_t i = 0; i < count; ++i)
    {
        socket->Send(Create<Packet>(size));
    }
}

/**
 * Enqueues an item into a queue disc and runs it (a function: ns-3.35 schedules no lambdas).
 * @param qdisc the queue disc
 * @param item the item
 */
void
EnqueueAndRun(Ptr<QueueDisc> qdisc, Ptr<QueueDiscItem> item)
{
    qdisc->Enqueue(item);
    qdisc->Run();
}

/**
 * @return two nodes with IPv4 joined by 10 Mbit/s PointToPoint (1 ms, a one-packet device
 * queue): their devices
 */
NetDeviceContainer
MakeLink()
{
    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("1ms"));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
    NetDeviceContainer devices = p2p.Install(nodes);
    InternetStackHelper().Install(nodes);
    return devices;
}

/**
 * @param series a sampled series
 * @param sample the sample's index
 * @param key the key
 * @return the sample's value for the key
 */
double
SampleValue(const Series& series, std::size_t sample, const std::string& key)
{
    const auto column = std::find(series.keys.begin(), series.keys.end(), key);
    return series.samples[sample].values[column - series.keys.begin()];
}

/**
 * @ingroup debloat-tests
 * @brief Samples of a qdisc draining a burst.
 *
 * 10 Mbit/s PointToPoint with a one-packet device queue, pfifo_fast (1000 packets) above it.
 * At 1.005 s the sender writes one datagram of 1472 bytes (a 1500-byte IP packet, 1502 bytes
 * with PPP, 1.2016 ms on the wire), which the qdisc passes straight to the wire, and 1 ns
 * later 1099 more: the qdisc passes the first to the device queue (sojourn 0), which then
 * stops, holds the next 1000 and drops the last 98. Thereafter each transmission end frees
 * the device queue and the qdisc dequeues one packet, the k-th at 1.005 s + k x 1.2016 ms,
 * after a sojourn of k x 1.2016 ms less 1 ns.
 * A 10-byte datagram at 0.9 s resolves ARP first (one packet through the qdisc).
 *
 * Samples every 10 ms from 0.99 s:
 * - 0.99 s opens the series: dropped 0, no delay, sent 1 (the ARP datagram);
 * - 1.00 s: nothing happened in the interval: dropped 0, no delay, backlog 0;
 * - 1.01 s: 5 ms into the drain, dequeues k = 1..4 (4.8064 ms): backlog 1000 - 4 = 996
 *   packets, 1494000 bytes; sent 1 + 2 + 4 = 7; dropped 98; mean sojourn of the six
 *   dequeues 1.2016 x (0 + 0 + 1 + 2 + 3 + 4) / 6 = 2.002667 ms (less 4 ns / 6);
 * - 1.02 s: k = 5..12 (14.4192 ms): backlog 988, dropped 0, mean sojourn
 *   1.2016 x (5 + ... + 12) / 8 = 10.2136 ms (less 1 ns);
 * - no BQL and no NicNetDevice: the BQL and ring keys are absent.
 */
class DeviceSamplerBurstTestCase : public TestCase
{
  public:
    DeviceSamplerBurstTestCase()
        : TestCase("Backlog, drops and sojourn of a draining burst")
    {
    }

  private:
    void DoRun() override
    {
        NetDeviceContainer devices = MakeLink();
        TrafficControlHelper tch;
        tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc", "MaxSize", StringValue("1000p"));
        tch.Install(devices);
        Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");
        const Ipv4InterfaceContainer interfaces = address.Assign(devices);
        Ptr<Socket> socket =
            Socket::CreateSocket(devices.Get(0)->GetNode(), UdpSocketFactory::GetTypeId());
        socket->Connect(InetSocketAddress(interfaces.GetAddress(1), 9));
        // One datagram resolves ARP first, so that the burst meets no ARP queue.
        Simulator::Schedule(MilliSeconds(900), &SendDatagrams, socket, 1, 10);
        // The burst's first datagram goes alone: PointToPoint's queue stops when it holds a
        // packet and restarts when the device takes it for the wire, at once on ns-3.37 and
        // in a later event on ns-3.48; 1 ns later every release has restarted it.
        Simulator::Schedule(MilliSeconds(1005), &SendDatagrams, socket, 1, 1472);
        Simulator::Schedule(MilliSeconds(1005) + NanoSeconds(1),
                            &SendDatagrams,
                            socket,
                            1099,
                            1472);

        Ptr<DeviceSampler> sampler = CreateObject<DeviceSampler>();
        sampler->SetAttribute("Interval", TimeValue(MilliSeconds(10)));
        sampler->SetDevice(devices.Get(0));
        sampler->Start(MilliSeconds(990), MilliSeconds(1100));
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        const Series series = sampler->GetSeries("qdisc_stats_client");
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(series.samples.size(), 11, "samples at 0.99, 1.00, ..., 1.09 s");
        auto value = [&series](std::size_t sample, const std::string& key) {
            return SampleValue(series, sample, key);
        };
        NS_TEST_EXPECT_MSG_EQ(series.samples[0].t, 0, "first sample at the origin");
        NS_TEST_EXPECT_MSG_EQ(value(0, "dropped"), 0, "first sample: no interval");
        NS_TEST_EXPECT_MSG_EQ(std::isnan(value(0, "delay")), true, "first sample: no delay");
        NS_TEST_EXPECT_MSG_EQ(value(0, "sent_pkts"), 1, "the ARP datagram");
        NS_TEST_EXPECT_MSG_EQ(value(1, "backlog_pkts"), 0, "before the burst");
        NS_TEST_EXPECT_MSG_EQ(std::isnan(value(1, "delay")), true, "no dequeue, no delay");
        NS_TEST_EXPECT_MSG_EQ(value(2, "backlog_pkts"), 996, "backlog at 1.01 s");
        NS_TEST_EXPECT_MSG_EQ(value(2, "backlog_bytes"), 996 * 1500, "backlog bytes");
        NS_TEST_EXPECT_MSG_EQ(value(2, "dropped"), 98, "drops of the burst");
        NS_TEST_EXPECT_MSG_EQ(value(2, "sent_pkts"), 7, "sent by 1.01 s");
        NS_TEST_EXPECT_MSG_EQ_TOL(value(2, "delay"), 1.2016 * 10 / 6, 1e-5, "mean sojourn");
        NS_TEST_EXPECT_MSG_EQ(value(3, "backlog_pkts"), 988, "backlog at 1.02 s");
        NS_TEST_EXPECT_MSG_EQ(value(3, "dropped"), 0, "no drops in the drain");
        NS_TEST_EXPECT_MSG_EQ_TOL(value(3, "delay"), 10.2136, 1e-5, "mean sojourn");
        for (const char* key : {"bql_limit", "bql_inflight", "ring_used", "nic_dropped"})
        {
            NS_TEST_EXPECT_MSG_EQ(std::isnan(value(2, key)), true, key << " absent");
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief `dropped` is tc's count: a GSO super-packet CAKE splits is not a drop.
 *
 * A TCP super-packet of 4 x 1448 payload bytes (GsoTag) enters a CAKE root with split-gso
 * at 1.005 s. cake_enqueue() replaces it by its 4 segments and consumes it: tc reports
 * "dropped 0", while ns-3's QueueDisc counts the super-packet as a drop with reason
 * GSO_SPLIT (1). The sample at 1.01 s reads dropped 0 and, as the 10 Mbit/s link takes
 * one 1502-byte frame (1.2016 ms) at a time, sent_pkts 4 (all gone by 1.005 + 4 x 1.2016
 * = 1.0098 s).
 */
class DeviceSamplerGsoSplitTestCase : public TestCase
{
  public:
    DeviceSamplerGsoSplitTestCase()
        : TestCase("A GSO super-packet CAKE splits is not counted as dropped")
    {
    }

  private:
    void DoRun() override
    {
        NetDeviceContainer devices = MakeLink();
        TrafficControlHelper tch;
        tch.SetRootQueueDisc("ns3::debloat::CakeQueueDisc", "SplitGso", BooleanValue(true));
        QueueDiscContainer qdiscs = tch.Install(devices.Get(0));
        Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");
        address.Assign(devices);

        Ptr<Packet> packet = Create<Packet>(4 * 1448);
        TcpHeader tcp;
        tcp.SetSourcePort(5001);
        tcp.SetDestinationPort(5002);
        tcp.SetSequenceNumber(SequenceNumber32(1));
        tcp.SetFlags(TcpHeader::ACK);
        packet->AddHeader(tcp);
        Ipv4Header ip;
        ip.SetSource(Ipv4Address("10.0.0.1"));
        ip.SetDestination(Ipv4Address("10.0.0.2"));
        ip.SetProtocol(6);
        ip.SetPayloadSize(packet->GetSize());
        packet->AddPacketTag(GsoTag(1448, 4));
        Ptr<QueueDisc> root = qdiscs.Get(0);
        Ptr<QueueDiscItem> item =
            Create<Ipv4QueueDiscItem>(packet, devices.Get(1)->GetAddress(), 0x0800, ip);
        Simulator::Schedule(MilliSeconds(1005), &EnqueueAndRun, root, item);

        Ptr<DeviceSampler> sampler = CreateObject<DeviceSampler>();
        sampler->SetAttribute("Interval", TimeValue(MilliSeconds(10)));
        sampler->SetDevice(devices.Get(0));
        sampler->Start(MilliSeconds(1000), MilliSeconds(1020));
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        const Series series = sampler->GetSeries("qdisc_stats_client");
        const QueueDisc::Stats stats = root->GetStats();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(series.samples.size(), 2, "samples at 1.00 and 1.01 s");
        auto value = [&series](std::size_t sample, const std::string& key) {
            return SampleValue(series, sample, key);
        };
        NS_TEST_EXPECT_MSG_EQ(stats.GetNDroppedPackets(CakeQueueDisc::GSO_SPLIT),
                              1,
                              "ns-3 counts the split super-packet");
        NS_TEST_EXPECT_MSG_EQ(value(1, "dropped"), 0, "tc counts no drop");
        NS_TEST_EXPECT_MSG_EQ(value(1, "sent_pkts"), 4, "the four segments");
    }
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-device-sampler suite.
 */
class DeviceSamplerTestSuite : public TestSuite
{
  public:
    DeviceSamplerTestSuite()
        : TestSuite("debloat-device-sampler", compat::SUITE_UNIT)
    {
        AddTestCase(new DeviceSamplerBurstTestCase(), compat::TEST_QUICK);
        AddTestCase(new DeviceSamplerGsoSplitTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
DeviceSamplerTestSuite g_deviceSamplerTestSuite;

} // namespace
