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

#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/device-sampler.h"
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
 * @ingroup debloat-tests
 * @brief Samples of a qdisc draining a burst.
 *
 * 10 Mbit/s PointToPoint with a one-packet device queue, pfifo_fast (1000 packets) above it.
 * At t = 0 the sender writes 1100 datagrams of 1472 bytes: 1500-byte IP packets, 1502 bytes
 * with PPP, 1.2016 ms each on the wire. The qdisc passes the first to the wire and the second
 * to the device queue, which then stops; it holds the next 1000 and drops the last 98.
 * Thereafter each transmission end frees the device queue and the qdisc dequeues one packet,
 * the k-th at k x 1.2016 ms, after a sojourn of k x 1.2016 ms.
 *
 * Samples every 10 ms from 10 ms:
 * - at 10 ms: dequeues k = 1..8 (8 x 1.2016 = 9.6128 ms), so backlog 1000 - 8 = 992 packets,
 *   1488000 bytes; sent 2 + 8 = 10 packets; dropped 98 (all since the start); mean sojourn
 *   1.2016 x (1 + ... + 8) / 8 = 5.4072 ms;
 * - at 20 ms: k = 9..16 (19.2256 ms): backlog 984, dropped 0, sojourn 1.2016 x 12.5 =
 *   15.02 ms;
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
        NodeContainer nodes;
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("1ms"));
        p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
        NetDeviceContainer devices = p2p.Install(nodes);
        InternetStackHelper().Install(nodes);
        TrafficControlHelper tch;
        tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc", "MaxSize", StringValue("1000p"));
        tch.Install(devices);
        Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");
        const Ipv4InterfaceContainer interfaces = address.Assign(devices);
        // Resolve ARP first, so that the burst meets no ARP queue.
        Ptr<Socket> socket = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        socket->Connect(InetSocketAddress(interfaces.GetAddress(1), 9));
        Simulator::Schedule(MilliSeconds(900), [socket] { socket->Send(Create<Packet>(10)); });
        Simulator::Schedule(Seconds(1), [socket] {
            for (int i = 0; i < 1100; ++i)
            {
                socket->Send(Create<Packet>(1472));
            }
        });

        Ptr<DeviceSampler> sampler = CreateObject<DeviceSampler>();
        sampler->SetAttribute("Interval", TimeValue(MilliSeconds(10)));
        sampler->SetDevice(devices.Get(0));
        sampler->Start(Seconds(1) + MilliSeconds(10), Seconds(1) + MilliSeconds(100));
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        const Series series = sampler->GetSeries("qdisc_stats_client");
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(series.samples.size(), 9, "samples at 10, 20, ..., 90 ms");
        auto value = [&series](std::size_t sample, const std::string& key) {
            const auto column = std::find(series.keys.begin(), series.keys.end(), key);
            return series.samples[sample].values[column - series.keys.begin()];
        };
        NS_TEST_EXPECT_MSG_EQ(series.samples[0].t, 0, "first sample at the origin");
        NS_TEST_EXPECT_MSG_EQ(value(0, "backlog_pkts"), 992, "backlog at 10 ms");
        NS_TEST_EXPECT_MSG_EQ(value(0, "backlog_bytes"), 992 * 1500, "backlog bytes at 10 ms");
        NS_TEST_EXPECT_MSG_EQ(value(0, "dropped"), 98, "drops by 10 ms");
        NS_TEST_EXPECT_MSG_EQ(value(0, "sent_pkts"), 1 + 10, "sent by 10 ms (with the ARP probe)");
        NS_TEST_EXPECT_MSG_EQ_TOL(value(0, "delay"), 5.4072, 1e-9, "mean sojourn to 10 ms");
        NS_TEST_EXPECT_MSG_EQ(value(1, "backlog_pkts"), 984, "backlog at 20 ms");
        NS_TEST_EXPECT_MSG_EQ(value(1, "dropped"), 0, "drops between 10 and 20 ms");
        NS_TEST_EXPECT_MSG_EQ_TOL(value(1, "delay"), 15.02, 1e-9, "mean sojourn 10-20 ms");
        for (const char* key : {"bql_limit", "bql_inflight", "ring_used", "nic_dropped"})
        {
            NS_TEST_EXPECT_MSG_EQ(std::isnan(value(0, key)), true, key << " absent");
        }
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
    }
};

/// The suite's single instance.
DeviceSamplerTestSuite g_deviceSamplerTestSuite;

} // namespace
