/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * NicTopologyHelper: the presets' nodes, NICs, qdiscs and addresses; per-end settings (NIC
 * profile, ring, TX queues, ethtool attributes, BQL, txqueuelen and the root qdisc as tc
 * text); what noqueue and prio do on a flooded NIC; the errors that name the bad setting;
 * Describe() and AssignStreams() (stacks, NICs and the queue discs' hash keys).
 */

#include "debloat-test-utils.h"

#include "ns3/applications-module.h"
#include "ns3/byte-queue-limits-helper.h"
#include "ns3/cake-queue-disc.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/icmp-ping.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/nic-net-device.h"
#include "ns3/nic-topology-helper.h"
#include "ns3/no-queue-disc.h"
#include "ns3/pcap-file.h"
#include "ns3/sfq-queue-disc.h"
#include "ns3/trace-helper.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/**
 * @param device a device
 * @return its root queue disc, as the traffic control layer holds it
 */
Ptr<QueueDisc>
GetRoot(Ptr<NetDevice> device)
{
    return device->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(device);
}

/**
 * @param object an object
 * @param name a UintegerValue attribute
 * @return its value
 */
uint64_t
GetUinteger(Ptr<Object> object, const std::string& name)
{
    UintegerValue value;
    object->GetAttribute(name, value);
    return value.Get();
}

/**
 * @param object an object
 * @param name a TimeValue attribute
 * @return its value
 */
Time
GetTime(Ptr<Object> object, const std::string& name)
{
    TimeValue value;
    object->GetAttribute(name, value);
    return value.Get();
}

/**
 * @param object an object
 * @param name a QueueSizeValue attribute
 * @return its value
 */
QueueSize
GetSize(Ptr<Object> object, const std::string& name)
{
    QueueSizeValue value;
    object->GetAttribute(name, value);
    return value.Get();
}

/**
 * @param object an object
 * @param name a StringValue attribute
 * @return its value without surrounding white space
 */
std::string
GetTrimmedString(Ptr<Object> object, const std::string& name)
{
    StringValue value;
    object->GetAttribute(name, value);
    const std::string text = value.Get();
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos)
    {
        return "";
    }
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

/**
 * @param device a device
 * @return its line rate in bit/s
 */
uint64_t
GetBitRate(Ptr<NetDevice> device)
{
    DataRateValue value;
    device->GetAttribute("DataRate", value);
    return value.Get().GetBitRate();
}

/**
 * @param device a device
 * @return the TX queues its NetDeviceQueueInterface has
 */
std::size_t
GetNTxQueues(Ptr<NetDevice> device)
{
    return device->GetObject<NetDeviceQueueInterface>()->GetNTxQueues();
}

/**
 * Sends one datagram (a free function: ns-3.35's Simulator::Schedule takes no lambdas).
 * @param socket a connected UDP socket
 * @param size the payload, bytes
 */
void
SendDatagram(Ptr<Socket> socket, uint32_t size)
{
    socket->Send(Create<Packet>(size));
}

/**
 * @ingroup debloat-tests
 * @brief A test case that checks reachability with UDP echo exchanges across a topology.
 */
class NicTopologyTestCase : public TestCase
{
  protected:
    /// @param name the case's name
    explicit NicTopologyTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /**
     * Starts a UDP echo server (port 9) on every right host and, on every left host, one
     * client per right host that sends count 64-byte requests 50 ms apart; pair (i, j)
     * starts at start + (i * nRight + j) ms.
     *
     * NicTopologyHelper fills the neighbour caches, so no request waits for ARP; without
     * that: ns-3's ARP holds at most 3 packets per address it resolves (PendingQueueSize), sends
     * each request after a jitter of up to 10 ms (RequestJitter), and, unlike Linux, does
     * not learn the sender of a request: each of the 4 hops of an exchange (host to router,
     * router to server, and back) resolves once, in at most 4 x 10 ms plus transit. Only
     * the first request of each pair can wait: at left host i for the router (nRight
     * requests), at the router for right host j (nLeft requests) and for left host i
     * (nRight replies). With at most 3 hosts on each side nothing overflows; the later
     * requests, 50 ms on, find every address resolved.
     * @param topology an installed topology
     * @param count requests per pair
     * @param start when the first pair starts
     */
    void StartEchoes(const NicTopologyHelper& topology, uint32_t count, Time start)
    {
        m_nRight = topology.GetNRight();
        for (uint32_t j = 0; j < m_nRight; j++)
        {
            UdpEchoServerHelper server(9);
            server.Install(topology.GetRight(j)).Start(Seconds(0));
        }
        for (uint32_t i = 0; i < topology.GetNLeft(); i++)
        {
            for (uint32_t j = 0; j < m_nRight; j++)
            {
                const uint32_t pair = i * m_nRight + j;
                m_expectedFrom[pair] = topology.GetRightAddress(j);
                m_replies[pair] = 0;
                UdpEchoClientHelper client(topology.GetRightAddress(j), 9);
                client.SetAttribute("MaxPackets", UintegerValue(count));
                client.SetAttribute("Interval", TimeValue(MilliSeconds(50)));
                client.SetAttribute("PacketSize", UintegerValue(64));
                ApplicationContainer apps = client.Install(topology.GetLeft(i));
                apps.Start(start + MilliSeconds(pair));
                NS_TEST_ASSERT_MSG_EQ(
                    apps.Get(0)->TraceConnectWithoutContext(
                        "RxWithAddresses",
                        MakeCallback(&NicTopologyTestCase::EchoReply, this).Bind(pair)),
                    true,
                    "RxWithAddresses trace");
            }
        }
    }

    /**
     * @param i a left host
     * @param j a right host
     * @return the echo replies left host i got from right host j
     */
    uint32_t GetReplies(uint32_t i, uint32_t j) const
    {
        const auto found = m_replies.find(i * m_nRight + j);
        return found == m_replies.end() ? 0 : found->second;
    }

    /// @return replies that came from another address than the one asked
    uint32_t GetStrayReplies() const
    {
        return m_strayReplies;
    }

  private:
    /**
     * Counts a reply of the pair's server.
     * @param pair the pair
     * @param packet the reply
     * @param from its source
     * @param to its destination
     */
    void EchoReply(uint32_t pair, Ptr<const Packet> packet, const Address& from, const Address& to)
    {
        if (InetSocketAddress::IsMatchingType(from) &&
            InetSocketAddress::ConvertFrom(from).GetIpv4() == m_expectedFrom[pair])
        {
            m_replies[pair]++;
        }
        else
        {
            m_strayReplies++;
        }
    }

    uint32_t m_nRight{1};                           ///< right hosts
    std::map<uint32_t, uint32_t> m_replies;         ///< replies per pair
    std::map<uint32_t, Ipv4Address> m_expectedFrom; ///< the server each pair asks
    uint32_t m_strayReplies{0};                     ///< replies from an unexpected address
};

/**
 * @ingroup debloat-tests
 * @brief The "nuc-rangeley-nuc" preset (seed 002): its nodes, NICs, qdiscs and addresses,
 * and a UDP echo exchange across the router.
 *
 * The preset is documented as e1000e hosts on either side of an igb router, GigE, every
 * egress pfifo_fast without BQL, with the names nuc1, rangeley and nuc2. Hence:
 * - 3 nodes: 1 left host, 1 router, 1 right host;
 * - the left link's devices are the host's (first) and the router's; the e1000e profile
 *   has 1 TX queue, the igb profile 8 (IGB_MAX_TX_QUEUES on the i354); likewise, mirrored,
 *   on the right link;
 * - every root is PfifoFastQueueDisc with txqueuelen (default 1000) packets;
 * - left link 0 is 10.1.0.0/24 and the host is its first device: 10.1.0.1; right link 0 is
 *   10.3.0.0/24 and the host is its second device: 10.3.0.2;
 * - global routing gives the hosts routes through the router: 3 echo requests from nuc1
 *   to nuc2 get 3 replies (nothing queues on an idle GigE path).
 */
class NicTopologyNucPresetTestCase : public NicTopologyTestCase
{
  public:
    NicTopologyNucPresetTestCase()
        : NicTopologyTestCase("Preset nuc-rangeley-nuc: NICs, qdiscs, addresses, routing")
    {
    }

  private:
    void DoRun() override
    {
        NicTopologyHelper topology = NicTopologyHelper::Preset("nuc-rangeley-nuc");
        topology.Install();
        NS_TEST_ASSERT_MSG_EQ(topology.GetNodes().GetN(), 3, "nodes");
        NS_TEST_EXPECT_MSG_EQ(topology.GetNLeft(), 1, "left hosts");
        NS_TEST_EXPECT_MSG_EQ(topology.GetNRouters(), 1, "routers");
        NS_TEST_EXPECT_MSG_EQ(topology.GetNRight(), 1, "right hosts");
        NS_TEST_EXPECT_MSG_EQ(topology.GetLeftName(0), "nuc1", "left host's name");
        NS_TEST_EXPECT_MSG_EQ(topology.GetRouterName(0), "rangeley", "router's name");
        NS_TEST_EXPECT_MSG_EQ(topology.GetRightName(0), "nuc2", "right host's name");

        const NetDeviceContainer left = topology.GetLeftDevices(0);
        const NetDeviceContainer right = topology.GetRightDevices(0);
        NS_TEST_ASSERT_MSG_EQ(left.GetN(), 2, "left link devices");
        NS_TEST_ASSERT_MSG_EQ(right.GetN(), 2, "right link devices");
        // {device, its node, TX queues of its profile}
        const std::vector<std::pair<Ptr<NetDevice>, std::pair<Ptr<Node>, uint32_t>>> ends = {
            {left.Get(0), {topology.GetLeft(0), 1}},
            {left.Get(1), {topology.GetRouter(0), 8}},
            {right.Get(0), {topology.GetRouter(0), 8}},
            {right.Get(1), {topology.GetRight(0), 1}},
        };
        for (std::size_t e = 0; e < ends.size(); e++)
        {
            const Ptr<NetDevice> device = ends[e].first;
            const Ptr<NicNetDevice> nic = DynamicCast<NicNetDevice>(device);
            NS_TEST_ASSERT_MSG_NE(nic, nullptr, "end " << e << " is a NicNetDevice");
            NS_TEST_EXPECT_MSG_EQ(device->GetNode(), ends[e].second.first, "end " << e);
            NS_TEST_EXPECT_MSG_EQ(GetUinteger(device, "TxQueues"),
                                  ends[e].second.second,
                                  "end " << e << " TxQueues");
            NS_TEST_EXPECT_MSG_EQ(GetNTxQueues(device),
                                  ends[e].second.second,
                                  "end " << e << " NetDeviceQueueInterface queues");
            NS_TEST_EXPECT_MSG_EQ(GetBitRate(device), 1000000000ULL, "end " << e << " GigE");
            // No qdisc given: Linux's attach_default_qdiscs(), pfifo_fast of txqueuelen
            // packets on a single-queue device, mq with such a pfifo_fast per TX queue on the
            // rangeley's 8-queue i354s.
            const Ptr<QueueDisc> root = GetRoot(device);
            NS_TEST_ASSERT_MSG_NE(root, nullptr, "end " << e << " root qdisc");
            std::vector<Ptr<QueueDisc>> fifos{root};
            if (ends[e].second.second > 1)
            {
                NS_TEST_EXPECT_MSG_EQ(root->GetInstanceTypeId().GetName(),
                                      "ns3::MqQueueDisc",
                                      "end " << e << " mq");
                NS_TEST_ASSERT_MSG_EQ(root->GetNQueueDiscClasses(),
                                      ends[e].second.second,
                                      "end " << e << " one mq class per TX queue");
                fifos.clear();
                for (std::size_t q = 0; q < root->GetNQueueDiscClasses(); q++)
                {
                    fifos.push_back(root->GetQueueDiscClass(q)->GetQueueDisc());
                }
            }
            for (const Ptr<QueueDisc>& fifo : fifos)
            {
                NS_TEST_EXPECT_MSG_EQ(fifo->GetInstanceTypeId().GetName(),
                                      "ns3::PfifoFastQueueDisc",
                                      "end " << e << " pfifo_fast");
                NS_TEST_EXPECT_MSG_EQ(GetSize(fifo, "MaxSize"),
                                      QueueSize(QueueSizeUnit::PACKETS, 1000),
                                      "end " << e << " txqueuelen 1000");
            }
            for (std::size_t q = 0; q < ends[e].second.second; q++)
            {
                NS_TEST_EXPECT_MSG_EQ(ByteQueueLimitsHelper::Get(device, q),
                                      nullptr,
                                      "end " << e << " queue " << q << ": no BQL");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(topology.GetLeftAddress(0), Ipv4Address("10.1.0.1"), "nuc1");
        NS_TEST_EXPECT_MSG_EQ(topology.GetRightAddress(0), Ipv4Address("10.3.0.2"), "nuc2");

        StartEchoes(topology, 3, MilliSeconds(10));
        Simulator::Stop(MilliSeconds(300));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(GetReplies(0, 0), 3, "echo replies from nuc2 via rangeley");
        NS_TEST_EXPECT_MSG_EQ(GetStrayReplies(), 0, "replies from elsewhere");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief Every preset installs and carries a UDP echo exchange end to end.
 *
 * With a router the left host is 10.1.0.1 and the right host 10.3.0.2 (second device of
 * right link 0); without one, both hosts share left link 0: 10.1.0.1 and 10.1.0.2.
 */
class NicTopologyPresetReachTestCase : public NicTopologyTestCase
{
  public:
    /**
     * @param preset the preset
     * @param nodes its nodes
     * @param right the right host's address
     */
    NicTopologyPresetReachTestCase(const std::string& preset, uint32_t nodes, const char* right)
        : NicTopologyTestCase("Preset " + preset + ": installs and reaches end to end"),
          m_preset(preset),
          m_nodes(nodes),
          m_right(right)
    {
    }

  private:
    void DoRun() override
    {
        NicTopologyHelper topology = NicTopologyHelper::Preset(m_preset);
        topology.Install();
        NS_TEST_EXPECT_MSG_EQ(topology.GetNodes().GetN(), m_nodes, "nodes");
        NS_TEST_EXPECT_MSG_EQ(topology.GetLeftAddress(0), Ipv4Address("10.1.0.1"), "left");
        NS_TEST_EXPECT_MSG_EQ(topology.GetRightAddress(0), m_right, "right");
        StartEchoes(topology, 2, MilliSeconds(10));
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(GetReplies(0, 0), 2, "echo replies");
        NS_TEST_EXPECT_MSG_EQ(GetStrayReplies(), 0, "replies from elsewhere");
        Simulator::Destroy();
    }

    std::string m_preset; ///< the preset
    uint32_t m_nodes;     ///< its nodes
    Ipv4Address m_right;  ///< the right host's address
};

/**
 * @ingroup debloat-tests
 * @brief A run's first probe reads the idle RTT: the helper fills the neighbour caches, so
 * nothing waits for address resolution at t = 0.
 *
 * Five pings 100 ms apart from the left host to the right host of an idle preset, the first
 * at t = 0. Every probe crosses the same idle path (100 ms apart, each finds the rings empty
 * and the interrupt timers expired), so the first must read what the others read: within
 * 5 %. Without pre-filled caches the first waits for an ARP exchange on every hop and reads
 * several times the idle RTT (seed 001's laptop: 36 ms against 4.6 ms).
 */
class NicTopologyFirstProbeTestCase : public NicTopologyTestCase
{
  public:
    /// @param preset the preset
    NicTopologyFirstProbeTestCase(const std::string& preset)
        : NicTopologyTestCase("Preset " + preset + ": the first probe reads the idle RTT"),
          m_preset(preset)
    {
    }

  private:
    void DoRun() override
    {
        NicTopologyHelper topology = NicTopologyHelper::Preset(m_preset);
        topology.Install();
        Ptr<IcmpPing> ping =
            CreateObjectWithAttributes<IcmpPing>("Remote",
                                                 Ipv4AddressValue(topology.GetRightAddress(0)),
                                                 "Interval",
                                                 TimeValue(MilliSeconds(100)),
                                                 "Count",
                                                 UintegerValue(5));
        topology.GetLeft(0)->AddApplication(ping);
        ping->SetStartTime(Seconds(0));
        std::vector<double> rtts;
        NS_TEST_ASSERT_MSG_EQ(ping->TraceConnectWithoutContext(
                                  "Rtt",
                                  MakeBoundCallback(&NicTopologyFirstProbeTestCase::Rtt, &rtts)),
                              true,
                              "Rtt trace");
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(rtts.size(), 5, "replies");
        std::vector<double> later(rtts.begin() + 1, rtts.end());
        std::sort(later.begin(), later.end());
        const double idle = later[later.size() / 2];
        NS_TEST_EXPECT_MSG_GT(idle, 0, "idle RTT");
        NS_TEST_EXPECT_MSG_EQ_TOL(rtts.front(), idle, 0.05 * idle, "first probe vs idle RTT");
    }

    /**
     * Records an RTT.
     * @param rtts the RTTs, ms
     * @param sequence the probe's sequence number
     * @param rtt its RTT
     */
    static void Rtt(std::vector<double>* rtts, uint16_t sequence, Time rtt)
    {
        rtts->push_back(rtt.GetSeconds() * 1000);
    }

    std::string m_preset; ///< the preset
};

/**
 * @ingroup debloat-tests
 * @brief Per-end settings: each end of each link gets its own NIC, ethtool settings, BQL
 * and root qdisc.
 *
 * One router, 3 left hosts and 2 right hosts, every link alike at 100 Mbit/s and 20 us:
 * - left end: e1000e with `ethtool -G tx 128`, `ethtool -L tx 2`, TxUsecs 50 us and
 *   TxFrames 4 (attributes map), "cake bandwidth 50Mbit", BQL with limit_max 8000;
 * - right end: igb with the profile's ring (IGB_DEFAULT_TXD 256), 8 TX queues and no
 *   TxUsecs (NicNetDevice's default 0, off), "sfq perturb 10", no BQL.
 * A left link's left end is the host, its right end the router; a right link's left end is
 * the router. So the hosts on the left and the router's right-side ports run cake, the
 * router's left-side ports and the right hosts sfq. Cake stores 50 Mbit/s as tc does, in
 * bytes per second: 50000000 / 8 = 6250000; sfq's perturb 10 is its Perturb of 10 s. BQL
 * sits on both TX queues of every left end (limit_max 8000) and on none of the right end's
 * 8. Left host i is 10.1.i.1 (first device of 10.1.i.0/24) and right host j 10.3.j.2;
 * global routing joins each of the 3 x 2 pairs, each of which gets its 2 echo replies.
 */
class NicTopologyPerEndTestCase : public NicTopologyTestCase
{
  public:
    NicTopologyPerEndTestCase()
        : NicTopologyTestCase("Per-end NIC, ring, queues, attributes, BQL and qdisc")
    {
    }

  private:
    void DoRun() override
    {
        NicLinkConfig link;
        link.rate = "100Mbps";
        link.delay = MicroSeconds(20);
        link.left.profile = "e1000e";
        link.left.txRing = 128;
        link.left.txQueues = 2;
        link.left.attributes = {{"TxUsecs", "50us"}, {"TxFrames", "4"}};
        link.left.qdisc = "cake bandwidth 50Mbit";
        link.left.bql = true;
        link.left.bqlLimitMax = 8000;
        link.right.profile = "igb";
        link.right.qdisc = "sfq perturb 10";
        NicTopologyHelper topology;
        topology.SetLeftHosts(3, link);
        topology.SetRouters(1);
        topology.SetRightHosts(2, link);
        topology.Install();
        NS_TEST_ASSERT_MSG_EQ(topology.GetNodes().GetN(), 6, "3 + 1 + 2 nodes");

        std::vector<Ptr<NetDevice>> leftEnds;
        std::vector<Ptr<NetDevice>> rightEnds;
        for (uint32_t i = 0; i < 3; i++)
        {
            const NetDeviceContainer devices = topology.GetLeftDevices(i);
            NS_TEST_EXPECT_MSG_EQ(devices.Get(0)->GetNode(), topology.GetLeft(i), "host " << i);
            NS_TEST_EXPECT_MSG_EQ(devices.Get(1)->GetNode(), topology.GetRouter(0), "router");
            std::ostringstream address;
            address << "10.1." << i << ".1";
            NS_TEST_EXPECT_MSG_EQ(topology.GetLeftAddress(i),
                                  Ipv4Address(address.str().c_str()),
                                  "left host " << i);
            leftEnds.push_back(devices.Get(0));
            rightEnds.push_back(devices.Get(1));
        }
        for (uint32_t j = 0; j < 2; j++)
        {
            const NetDeviceContainer devices = topology.GetRightDevices(j);
            NS_TEST_EXPECT_MSG_EQ(devices.Get(0)->GetNode(), topology.GetRouter(0), "router");
            NS_TEST_EXPECT_MSG_EQ(devices.Get(1)->GetNode(), topology.GetRight(j), "host " << j);
            std::ostringstream address;
            address << "10.3." << j << ".2";
            NS_TEST_EXPECT_MSG_EQ(topology.GetRightAddress(j),
                                  Ipv4Address(address.str().c_str()),
                                  "right host " << j);
            leftEnds.push_back(devices.Get(0));
            rightEnds.push_back(devices.Get(1));
        }

        for (std::size_t e = 0; e < leftEnds.size(); e++)
        {
            const Ptr<NetDevice> device = leftEnds[e];
            NS_TEST_EXPECT_MSG_EQ(GetBitRate(device), 100000000ULL, "left end " << e);
            NS_TEST_EXPECT_MSG_EQ(GetTime(device->GetChannel(), "Delay"),
                                  MicroSeconds(20),
                                  "link " << e << " delay");
            NS_TEST_EXPECT_MSG_EQ(GetUinteger(device, "TxRingSize"), 128, "left end " << e);
            NS_TEST_EXPECT_MSG_EQ(GetUinteger(device, "TxQueues"), 2, "left end " << e);
            NS_TEST_ASSERT_MSG_EQ(GetNTxQueues(device), 2, "left end " << e);
            NS_TEST_EXPECT_MSG_EQ(GetTime(device, "TxUsecs"), MicroSeconds(50), "left end");
            NS_TEST_EXPECT_MSG_EQ(GetUinteger(device, "TxFrames"), 4, "left end " << e);
            const Ptr<QueueDisc> root = GetRoot(device);
            NS_TEST_ASSERT_MSG_NE(root, nullptr, "left end " << e << " root");
            NS_TEST_EXPECT_MSG_EQ(root->GetInstanceTypeId().GetName(),
                                  "ns3::debloat::CakeQueueDisc",
                                  "left end " << e);
            NS_TEST_EXPECT_MSG_EQ(GetTrimmedString(root, "Options"),
                                  "bandwidth 50Mbit",
                                  "left end " << e);
            for (std::size_t q = 0; q < 2; q++)
            {
                const Ptr<ByteQueueLimits> bql = ByteQueueLimitsHelper::Get(device, q);
                NS_TEST_ASSERT_MSG_NE(bql, nullptr, "left end " << e << " queue " << q);
                NS_TEST_EXPECT_MSG_EQ(GetUinteger(bql, "LimitMax"),
                                      8000,
                                      "left end " << e << " queue " << q << " limit_max");
            }
        }
        for (std::size_t e = 0; e < rightEnds.size(); e++)
        {
            const Ptr<NetDevice> device = rightEnds[e];
            NS_TEST_EXPECT_MSG_EQ(GetBitRate(device), 100000000ULL, "right end " << e);
            NS_TEST_EXPECT_MSG_EQ(GetUinteger(device, "TxRingSize"), 256, "right end " << e);
            NS_TEST_EXPECT_MSG_EQ(GetUinteger(device, "TxQueues"), 8, "right end " << e);
            NS_TEST_ASSERT_MSG_EQ(GetNTxQueues(device), 8, "right end " << e);
            NS_TEST_EXPECT_MSG_EQ(GetTime(device, "TxUsecs"), Time(0), "right end " << e);
            NS_TEST_EXPECT_MSG_EQ(GetUinteger(device, "TxFrames"), 0, "right end " << e);
            const Ptr<QueueDisc> root = GetRoot(device);
            NS_TEST_ASSERT_MSG_NE(root, nullptr, "right end " << e << " root");
            NS_TEST_EXPECT_MSG_EQ(root->GetInstanceTypeId().GetName(),
                                  "ns3::debloat::SfqQueueDisc",
                                  "right end " << e);
            NS_TEST_EXPECT_MSG_EQ(GetTrimmedString(root, "Options"),
                                  "perturb 10",
                                  "right end " << e);
            for (std::size_t q = 0; q < 8; q++)
            {
                NS_TEST_EXPECT_MSG_EQ(ByteQueueLimitsHelper::Get(device, q),
                                      nullptr,
                                      "right end " << e << " queue " << q << ": no BQL");
            }
        }

        StartEchoes(topology, 2, MilliSeconds(10));
        Simulator::Stop(MilliSeconds(300));
        Simulator::Run();
        // The qdiscs have initialized (CheckConfig parsed their Options).
        for (std::size_t e = 0; e < leftEnds.size(); e++)
        {
            NS_TEST_EXPECT_MSG_EQ(
                DynamicCast<CakeQueueDisc>(GetRoot(leftEnds[e]))->GetConfig().rate,
                6250000,
                "left end " << e << ": 50 Mbit/s in bytes/s");
            NS_TEST_EXPECT_MSG_EQ(GetTime(GetRoot(rightEnds[e]), "Perturb"),
                                  Seconds(10),
                                  "right end " << e << ": perturb 10");
        }
        for (uint32_t i = 0; i < 3; i++)
        {
            for (uint32_t j = 0; j < 2; j++)
            {
                NS_TEST_EXPECT_MSG_EQ(GetReplies(i, j), 2, "left " << i << " to right " << j);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(GetStrayReplies(), 0, "replies from elsewhere");
        Simulator::Destroy();
    }
};

/**
 * Reads a pcap file's frames.
 * @param path the file
 * @return the original length of each frame; none when the file does not open
 */
std::vector<uint32_t>
FrameLengths(const std::string& path)
{
    std::vector<uint32_t> lengths;
    PcapFile file;
    file.Open(path, std::ios::in);
    while (!file.Fail())
    {
        uint8_t data[2048];
        uint32_t sec = 0;
        uint32_t usec = 0;
        uint32_t inclLen = 0;
        uint32_t origLen = 0;
        uint32_t readLen = 0;
        file.Read(data, sizeof(data), sec, usec, inclLen, origLen, readLen);
        if (!file.Fail())
        {
            lengths.push_back(origLen);
        }
    }
    return lengths;
}

/**
 * @ingroup debloat-tests
 * @brief An end with pcap on writes PREFIX-NODE-IFINDEX.pcap with the frames it sends and
 * receives; the other end writes none.
 *
 * laptop -- server with pcap on the laptop's end: 3 UDP echoes (no ARP: the neighbour caches
 * are filled), so the laptop's interface (ifindex 1, after loopback) sends 3 requests and
 * receives 3 replies: 6 frames of 64 + 8 + 20 + 14 = 106 bytes in laptop-1.pcap.
 */
class NicTopologyPcapTestCase : public NicTopologyTestCase
{
  public:
    NicTopologyPcapTestCase()
        : NicTopologyTestCase("pcap per interface: PREFIX-NODE-IFINDEX.pcap")
    {
    }

  private:
    void DoRun() override
    {
        const std::string prefix = CreateTempDirFilename("capture");
        {
            // The topology holds the devices, whose trace sinks hold the pcap writers: they
            // flush and close when it goes.
            NicLinkConfig link;
            link.left.pcap = true;
            NicTopologyHelper topology;
            topology.SetRouters(0);
            topology.SetLeftHosts(1, link);
            topology.SetNames("laptop", "", "server");
            topology.SetPcapPrefix(prefix);
            topology.Install();
            StartEchoes(topology, 3, MilliSeconds(10));
            Simulator::Stop(MilliSeconds(300));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(GetReplies(0, 0), 3, "echo replies");
            Simulator::Destroy();
        }
        PcapFile file;
        file.Open(prefix + "-laptop-1.pcap", std::ios::in);
        NS_TEST_ASSERT_MSG_EQ(file.Fail(), false, "laptop-1.pcap opens");
        NS_TEST_EXPECT_MSG_EQ(file.GetDataLinkType(), PcapHelper::DLT_EN10MB, "Ethernet");
        const std::vector<uint32_t> frames = FrameLengths(prefix + "-laptop-1.pcap");
        NS_TEST_EXPECT_MSG_EQ(frames.size(), 6, "3 requests and 3 replies");
        for (const uint32_t length : frames)
        {
            NS_TEST_EXPECT_MSG_EQ(length, 106, "frame length");
        }
        PcapFile other;
        other.Open(prefix + "-server-1.pcap", std::ios::in);
        NS_TEST_EXPECT_MSG_EQ(other.Fail(), true, "no pcap for the server's end");

        // EnablePcapAll() (an example's --pcap): every end; the server's sees the same
        // 6 frames of 106 bytes, the requests received and the replies sent.
        const std::string all = CreateTempDirFilename("all");
        {
            NicTopologyHelper topology;
            topology.SetRouters(0);
            topology.SetLeftHosts(1, NicLinkConfig());
            topology.SetNames("laptop", "", "server");
            topology.EnablePcapAll(all);
            topology.Install();
            StartEchoes(topology, 3, MilliSeconds(10));
            Simulator::Stop(MilliSeconds(300));
            Simulator::Run();
            Simulator::Destroy();
        }
        for (const char* node : {"-laptop-1.pcap", "-server-1.pcap"})
        {
            const std::vector<uint32_t> lengths = FrameLengths(all + node);
            NS_TEST_EXPECT_MSG_EQ(lengths.size(), 6, node << ": 3 requests and 3 replies");
            for (const uint32_t length : lengths)
            {
                NS_TEST_EXPECT_MSG_EQ(length, 106, node << " frame length");
            }
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief ethtool -L combined N gives an end N TX and N RX queues, and Linux's default qdisc
 * for N TX queues: mq with a pfifo_fast of txqueuelen packets per queue.
 *
 * A host linked straight to another, the left end an igb (8 TX queues in its profile) with
 * combined 4, the right end an e1000e with neither: the left device has 4 TX and 4 RX
 * queues and mq with 4 pfifo_fast children of 1000 packets; the right one 1 and 1 and a
 * pfifo_fast root. Echoes cross both ways.
 */
class NicTopologyCombinedTestCase : public NicTopologyTestCase
{
  public:
    NicTopologyCombinedTestCase()
        : NicTopologyTestCase("ethtool -L combined: TX and RX queues, mq by default")
    {
    }

  private:
    void DoRun() override
    {
        NicLinkConfig link;
        link.left.profile = "igb";
        link.left.combined = 4;
        NicTopologyHelper topology;
        topology.SetRouters(0);
        topology.SetLeftHosts(1, link);
        topology.Install();
        const Ptr<NetDevice> left = topology.GetLeftDevices(0).Get(0);
        const Ptr<NetDevice> right = topology.GetLeftDevices(0).Get(1);
        NS_TEST_EXPECT_MSG_EQ(GetUinteger(left, "TxQueues"), 4, "combined 4: TX queues");
        NS_TEST_EXPECT_MSG_EQ(GetUinteger(left, "RxQueues"), 4, "combined 4: RX queues");
        NS_TEST_EXPECT_MSG_EQ(GetUinteger(right, "TxQueues"), 1, "e1000e: TX queues");
        NS_TEST_EXPECT_MSG_EQ(GetUinteger(right, "RxQueues"), 1, "e1000e: RX queues");
        const Ptr<QueueDisc> mq = GetRoot(left);
        NS_TEST_ASSERT_MSG_NE(mq, nullptr, "left root");
        NS_TEST_EXPECT_MSG_EQ(mq->GetInstanceTypeId().GetName(), "ns3::MqQueueDisc", "mq");
        NS_TEST_ASSERT_MSG_EQ(mq->GetNQueueDiscClasses(), 4, "a child per TX queue");
        for (std::size_t q = 0; q < 4; q++)
        {
            const Ptr<QueueDisc> child = mq->GetQueueDiscClass(q)->GetQueueDisc();
            NS_TEST_EXPECT_MSG_EQ(child->GetInstanceTypeId().GetName(),
                                  "ns3::PfifoFastQueueDisc",
                                  "child " << q);
            NS_TEST_EXPECT_MSG_EQ(GetSize(child, "MaxSize"),
                                  QueueSize(QueueSizeUnit::PACKETS, 1000),
                                  "child " << q);
        }
        NS_TEST_EXPECT_MSG_EQ(GetRoot(right)->GetInstanceTypeId().GetName(),
                              "ns3::PfifoFastQueueDisc",
                              "right root");
        StartEchoes(topology, 3, MilliSeconds(10));
        Simulator::Stop(MilliSeconds(300));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(GetReplies(0, 0), 3, "echo replies");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief txqueuelen: the limit of pfifo_fast and of the bands of prio, and its zero.
 *
 * As `ip link set DEV txqueuelen N` followed by `tc qdisc add dev DEV root QDISC`:
 * - pfifo_fast takes txqueuelen packets: 50p with txqueuelen 50;
 * - with txqueuelen 0 the device gets noqueue (attach_default_qdiscs() falls back to it
 *   when pfifo_fast_init() refuses a zero-length queue): NoQueueDisc. The echo replies
 *   then leave through it (the idle link never stops the queue, so none is lost);
 * - prio's bands are pfifos of txqueuelen packets: three FifoQueueDiscs of 50p;
 * - pfifo with "limit 20" keeps 20 packets whatever txqueuelen is, 0 included;
 * - pfifo and prio with txqueuelen 0 and no limit would drop every packet: Install() stops
 *   with a message naming the link, the end and txqueuelen.
 */
class NicTopologyTxqueuelenTestCase : public NicTopologyTestCase
{
  public:
    NicTopologyTxqueuelenTestCase()
        : NicTopologyTestCase("txqueuelen: pfifo_fast limit, noqueue at 0, prio bands")
    {
    }

  private:
    void DoRun() override
    {
        NicLinkConfig link;
        link.left.txqueuelen = 50;
        link.right.txqueuelen = 0;
        NicTopologyHelper pfifoFast;
        pfifoFast.SetRouters(0);
        pfifoFast.SetLeftHosts(1, link);
        pfifoFast.Install();
        const Ptr<QueueDisc> fifty = GetRoot(pfifoFast.GetLeftDevices(0).Get(0));
        const Ptr<QueueDisc> none = GetRoot(pfifoFast.GetLeftDevices(0).Get(1));
        NS_TEST_ASSERT_MSG_NE(fifty, nullptr, "left end root");
        NS_TEST_ASSERT_MSG_NE(none, nullptr, "right end root");
        NS_TEST_EXPECT_MSG_EQ(fifty->GetInstanceTypeId().GetName(),
                              "ns3::PfifoFastQueueDisc",
                              "txqueuelen 50");
        NS_TEST_EXPECT_MSG_EQ(GetSize(fifty, "MaxSize"),
                              QueueSize(QueueSizeUnit::PACKETS, 50),
                              "pfifo_fast with txqueuelen 50");
        NS_TEST_EXPECT_MSG_EQ(none->GetInstanceTypeId().GetName(),
                              "ns3::debloat::NoQueueDisc",
                              "pfifo_fast with txqueuelen 0: noqueue");
        StartEchoes(pfifoFast, 3, MilliSeconds(10));
        Simulator::Stop(MilliSeconds(300));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(GetReplies(0, 0), 3, "replies through noqueue");
        NS_TEST_EXPECT_MSG_EQ(none->GetStats().nTotalDroppedPackets, 0, "noqueue drops");
        Simulator::Destroy();

        link.left.qdisc = "prio";
        link.right.qdisc = "pfifo limit 20";
        NicTopologyHelper prio;
        prio.SetRouters(0);
        prio.SetLeftHosts(1, link);
        prio.Install();
        const Ptr<QueueDisc> bands = GetRoot(prio.GetLeftDevices(0).Get(0));
        NS_TEST_ASSERT_MSG_NE(bands, nullptr, "prio root");
        NS_TEST_EXPECT_MSG_EQ(bands->GetInstanceTypeId().GetName(), "ns3::PrioQueueDisc", "prio");
        NS_TEST_ASSERT_MSG_EQ(bands->GetNQueueDiscClasses(), 3, "prio's 3 bands");
        for (std::size_t b = 0; b < 3; b++)
        {
            const Ptr<QueueDisc> band = bands->GetQueueDiscClass(b)->GetQueueDisc();
            NS_TEST_EXPECT_MSG_EQ(band->GetInstanceTypeId().GetName(),
                                  "ns3::FifoQueueDisc",
                                  "band " << b);
            NS_TEST_EXPECT_MSG_EQ(GetSize(band, "MaxSize"),
                                  QueueSize(QueueSizeUnit::PACKETS, 50),
                                  "band " << b << ": txqueuelen packets");
        }
        const Ptr<QueueDisc> limited = GetRoot(prio.GetLeftDevices(0).Get(1));
        NS_TEST_EXPECT_MSG_EQ(limited->GetInstanceTypeId().GetName(),
                              "ns3::FifoQueueDisc",
                              "pfifo");
        NS_TEST_EXPECT_MSG_EQ(GetSize(limited, "MaxSize"),
                              QueueSize(QueueSizeUnit::PACKETS, 20),
                              "pfifo limit 20 with txqueuelen 0");
        Simulator::Destroy();

        // {the end's qdisc, which end, the message}
        const std::vector<std::pair<std::string, bool>> stops = {{"pfifo", true}, {"prio", false}};
        for (const auto& [qdisc, leftEnd] : stops)
        {
            const debloattest::ChildOutcome outcome =
                debloattest::RunInChild([qdisc = qdisc, leftEnd = leftEnd]() {
                    NicLinkConfig bad;
                    NicInterfaceConfig& end = leftEnd ? bad.left : bad.right;
                    end.qdisc = qdisc;
                    end.txqueuelen = 0;
                    NicTopologyHelper topology;
                    topology.SetRouters(0);
                    topology.SetLeftHosts(1, bad);
                    topology.Install();
                });
            NS_TEST_EXPECT_MSG_EQ(outcome.stopped, true, qdisc << " with txqueuelen 0");
            const std::string where =
                std::string("left link 0, ") + (leftEnd ? "left" : "right") + " end";
            for (const std::string& word :
                 std::vector<std::string>{where, "qdisc \"" + qdisc + "\"", "txqueuelen"})
            {
                NS_TEST_EXPECT_MSG_NE(outcome.output.find(word),
                                      std::string::npos,
                                      qdisc << ": \"" << word << "\" in " << outcome.output);
            }
        }
    }
};

/**
 * @ingroup debloat-tests
 * The flood tests' link: one host to another at 100 Mbit/s, 10 us, on the "ideal" NIC with
 * a 16-entry TX ring on the sender.
 * @param qdisc the sender's root qdisc
 * @return the installed topology, streams assigned
 */
NicTopologyHelper
FloodLink(const std::string& qdisc)
{
    NicLinkConfig link;
    link.rate = "100Mbps";
    link.delay = MicroSeconds(10);
    link.left.profile = "ideal";
    link.left.txRing = 16;
    link.left.qdisc = qdisc;
    link.right.profile = "ideal";
    NicTopologyHelper topology;
    topology.SetRouters(0);
    topology.SetLeftHosts(1, link);
    topology.Install();
    topology.AssignStreams(1);
    return topology;
}

/**
 * @ingroup debloat-tests
 * @brief noqueue on a flooded NIC: every packet goes straight to the driver or is counted
 * as dropped, and the queue disc never holds one.
 *
 * A host with the "ideal" NIC (one descriptor per packet, reclaimed when its frame starts,
 * queue stopped when no descriptor is free and woken when one is) and a TX ring of 16
 * sends to the other host over 100 Mbit/s, with noqueue. A 1514-byte frame (1472 bytes of
 * UDP payload + 8 + 20 + 14) holds the wire for 1514 * 8 / 10^8 s = 121.12 us (no layer-1
 * overhead on this profile). A UDP flood at 120 Mbit/s sends a 1472-byte datagram every
 * 1472 * 8 / 1.2e8 s = 98.13 us from 10 ms to 60 ms, faster than the wire drains them, so
 * the ring fills (at 1 / 98.13 - 1 / 121.12 = 1.93 packets per ms, about 8 ms for 16) and
 * from then on each datagram finds the queue running (after a wake) or stopped (dropped).
 * One datagram at 1 ms goes first (it once resolved ARP; the helper now fills the caches).
 *
 * Invariants:
 * - noqueue sees every datagram sent (flood + 1) and nothing else: the helper filled the
 *   neighbour caches, so no ARP request goes out;
 * - every datagram sent is either received or dropped by noqueue with reason
 *   "Device queue stopped": sent == received + dropped, once the ring has drained (the
 *   simulation runs 40 ms past the flood, far more than 16 x 121.12 us);
 * - dropped > 0, and noqueue drops for no other reason;
 * - the driver never refuses a packet (no TX_RING_FULL: noqueue never sends into a
 *   stopped queue), and the receiver misses none (rx_missed 0);
 * - GetNPackets() is 0 whenever it is sampled, every 10 us, and at the end;
 * - the wire stays busy from the first flood frame (10.098 ms) until the ring drains:
 *   ceil((60 - 10.098) ms / 121.12 us) = 413 frames start before the flood ends, and 15 or
 *   16 wait in the ring then; the flood delivers 428 or 429 frames (checked with one frame
 *   of slack either side).
 */
class NicTopologyNoQueueTestCase : public TestCase
{
  public:
    NicTopologyNoQueueTestCase()
        : TestCase("noqueue: sent == received + dropped, nothing held")
    {
    }

  private:
    void DoRun() override
    {
        NicTopologyHelper topology = FloodLink("noqueue");
        const Ptr<NetDevice> tx = topology.GetLeftDevices(0).Get(0);
        const Ptr<NetDevice> rx = topology.GetLeftDevices(0).Get(1);
        m_qdisc = GetRoot(tx);
        NS_TEST_ASSERT_MSG_NE(m_qdisc, nullptr, "root");
        NS_TEST_ASSERT_MSG_EQ(m_qdisc->GetInstanceTypeId().GetName(),
                              "ns3::debloat::NoQueueDisc",
                              "noqueue");
        const Time wire = debloattest::ExpectedWireTime(tx, 1514);
        NS_TEST_ASSERT_MSG_EQ(wire, NanoSeconds(121120), "1514 bytes at 100 Mbit/s");

        const Ipv4Address server = topology.GetRightAddress(0);
        PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), 9));
        const Ptr<PacketSink> sink =
            DynamicCast<PacketSink>(sinkHelper.Install(topology.GetRight(0)).Get(0));
        const Ptr<Socket> warmUp =
            Socket::CreateSocket(topology.GetLeft(0), UdpSocketFactory::GetTypeId());
        warmUp->Bind();
        warmUp->Connect(InetSocketAddress(server, 9));
        Simulator::Schedule(MilliSeconds(1), &SendDatagram, warmUp, 1472);
        OnOffHelper flood("ns3::UdpSocketFactory", InetSocketAddress(server, 9));
        flood.SetConstantRate(DataRate("120Mbps"), 1472);
        ApplicationContainer apps = flood.Install(topology.GetLeft(0));
        apps.Start(MilliSeconds(10));
        apps.Stop(MilliSeconds(60));
        NS_TEST_ASSERT_MSG_EQ(apps.Get(0)->TraceConnectWithoutContext(
                                  "Tx",
                                  MakeCallback(&NicTopologyNoQueueTestCase::FloodSent, this)),
                              true,
                              "Tx trace");
        for (Time t = MilliSeconds(10); t <= MilliSeconds(61); t += MicroSeconds(10))
        {
            Simulator::Schedule(t, &NicTopologyNoQueueTestCase::Sample, this);
        }
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();

        const uint64_t sent = m_floodSent + 1;
        const uint64_t received = sink->GetTotalRx() / 1472;
        const QueueDisc::Stats& stats = m_qdisc->GetStats();
        const uint64_t dropped = stats.GetNDroppedPackets(NoQueueDisc::STOPPED_DROP);
        NS_TEST_EXPECT_MSG_EQ(sink->GetTotalRx() % 1472, 0, "whole datagrams");
        NS_TEST_EXPECT_MSG_EQ(sent, received + dropped, "sent == received + dropped");
        NS_TEST_EXPECT_MSG_GT(dropped, 0, "the flood overran the ring");
        NS_TEST_EXPECT_MSG_EQ(stats.nTotalDroppedPackets, dropped, "no other drop reason");
        NS_TEST_EXPECT_MSG_EQ(stats.nTotalReceivedPackets,
                              sent,
                              "every datagram went through noqueue, and nothing else");
        NS_TEST_EXPECT_MSG_EQ(m_qdisc->GetNPackets(), 0, "nothing held at the end");
        NS_TEST_EXPECT_MSG_EQ(m_samples, 5101, "samples taken");
        NS_TEST_EXPECT_MSG_EQ(m_heldSamples, 0, "samples that found a packet in noqueue");
        NS_TEST_EXPECT_MSG_EQ(DynamicCast<NicNetDevice>(tx)->GetStats().txDropped,
                              0,
                              "driver refusals");
        NS_TEST_EXPECT_MSG_EQ(DynamicCast<NicNetDevice>(rx)->GetStats().rxMissed, 0, "rx_missed");
        const uint64_t floodReceived = received - 1;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(floodReceived, 427, "wire busy: 413 + 15 or 16 frames");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(floodReceived, 430, "wire busy: 413 + 15 or 16 frames");
        m_qdisc = nullptr;
        Simulator::Destroy();
    }

    /**
     * Counts a flood datagram.
     * @param packet the datagram
     */
    void FloodSent(Ptr<const Packet> packet)
    {
        m_floodSent++;
    }

    /// Checks, between events, that noqueue holds nothing.
    void Sample()
    {
        m_samples++;
        if (m_qdisc->GetNPackets() != 0)
        {
            m_heldSamples++;
        }
    }

    Ptr<QueueDisc> m_qdisc;    ///< the noqueue
    uint64_t m_floodSent{0};   ///< flood datagrams sent
    uint32_t m_samples{0};     ///< samples taken
    uint32_t m_heldSamples{0}; ///< samples that found a packet held
};

/**
 * @ingroup debloat-tests
 * @brief prio on a flooded NIC: the socket's TOS picks the band, and band 0 goes first.
 *
 * The NIC, ring and flood of NicTopologyNoQueueTestCase, with "prio" (3 bands of 1000
 * packets, default priomap 1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1) and a probe: a 100-byte
 * datagram every 1 ms from 10.5 ms to 59.5 ms (50) from a socket with IP_TOS 0x10
 * (IPTOS_LOWDELAY). Socket::IpTos2Priority, as Linux's rt_tos2priority(), maps
 * (0x10 & 0x1e) >> 1 = 8 to priority 6 (TC_PRIO_INTERACTIVE), and the priomap maps 6 to
 * band 0. The flood's TOS 0 is priority 0 (best effort), band 1; so is the warm-up
 * datagram. No ARP request goes out: the helper filled the neighbour caches. So:
 * - band 0 receives the 50 probes and nothing else; band 1 the flood and the warm-up;
 *   band 2 nothing; nothing is dropped (band 1's backlog stays far below
 *   1000: it grows by at most 1.93 packets per ms for 50 ms);
 * - every probe and every flood datagram arrives;
 * - a probe waits in prio for at most one full frame's wire time, 121.12 us: prio only
 *   holds packets while the queue is stopped, and the queue wakes each time a frame starts
 *   (one descriptor freed), when prio hands over band 0 first;
 * - meanwhile the flood queues in band 1: about 97 excess packets by 60 ms, 16 of them in
 *   the ring, so the last ones wait about 80 x 121.12 us = 9.7 ms; at least 5 ms is
 *   checked.
 */
class NicTopologyPrioTestCase : public TestCase
{
  public:
    NicTopologyPrioTestCase()
        : TestCase("prio: TOS 0x10 to band 0 ahead of a TOS 0 flood in band 1")
    {
    }

  private:
    void DoRun() override
    {
        NicTopologyHelper topology = FloodLink("prio");
        const Ptr<NetDevice> tx = topology.GetLeftDevices(0).Get(0);
        const Ptr<QueueDisc> root = GetRoot(tx);
        NS_TEST_ASSERT_MSG_NE(root, nullptr, "root");
        NS_TEST_ASSERT_MSG_EQ(root->GetInstanceTypeId().GetName(), "ns3::PrioQueueDisc", "prio");
        NS_TEST_ASSERT_MSG_EQ(root->GetNQueueDiscClasses(), 3, "3 bands");
        std::vector<Ptr<QueueDisc>> bands;
        for (uint32_t b = 0; b < 3; b++)
        {
            bands.push_back(root->GetQueueDiscClass(b)->GetQueueDisc());
            NS_TEST_ASSERT_MSG_EQ(
                bands[b]->TraceConnectWithoutContext(
                    "Enqueue",
                    MakeCallback(&NicTopologyPrioTestCase::Enqueued, this).Bind(b)),
                true,
                "Enqueue trace of band " << b);
            NS_TEST_ASSERT_MSG_EQ(
                bands[b]->TraceConnectWithoutContext(
                    "SojournTime",
                    MakeCallback(&NicTopologyPrioTestCase::Sojourn, this).Bind(b)),
                true,
                "SojournTime trace of band " << b);
        }

        const Ipv4Address server = topology.GetRightAddress(0);
        const Ptr<Node> host = topology.GetLeft(0);
        PacketSinkHelper floodSinkHelper("ns3::UdpSocketFactory",
                                         InetSocketAddress(Ipv4Address::GetAny(), 9));
        const Ptr<PacketSink> floodSink =
            DynamicCast<PacketSink>(floodSinkHelper.Install(topology.GetRight(0)).Get(0));
        PacketSinkHelper probeSinkHelper("ns3::UdpSocketFactory",
                                         InetSocketAddress(Ipv4Address::GetAny(), 10));
        const Ptr<PacketSink> probeSink =
            DynamicCast<PacketSink>(probeSinkHelper.Install(topology.GetRight(0)).Get(0));

        const Ptr<Socket> warmUp = Socket::CreateSocket(host, UdpSocketFactory::GetTypeId());
        warmUp->Bind();
        warmUp->Connect(InetSocketAddress(server, 9));
        Simulator::Schedule(MilliSeconds(1), &SendDatagram, warmUp, 1472);
        const Ptr<Socket> probe = Socket::CreateSocket(host, UdpSocketFactory::GetTypeId());
        probe->Bind();
        probe->SetIpTos(0x10);
        probe->Connect(compat::InetAddressWithTos(server, 10, 0x10));
        for (uint32_t k = 0; k < 50; k++)
        {
            Simulator::Schedule(MicroSeconds(10500 + 1000 * k), &SendDatagram, probe, 100);
        }
        OnOffHelper flood("ns3::UdpSocketFactory", InetSocketAddress(server, 9));
        flood.SetConstantRate(DataRate("120Mbps"), 1472);
        ApplicationContainer apps = flood.Install(host);
        apps.Start(MilliSeconds(10));
        apps.Stop(MilliSeconds(60));
        NS_TEST_ASSERT_MSG_EQ(apps.Get(0)->TraceConnectWithoutContext(
                                  "Tx",
                                  MakeCallback(&NicTopologyPrioTestCase::FloodSent, this)),
                              true,
                              "Tx trace");
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(bands[0]->GetStats().nTotalReceivedPackets, 50, "band 0: probes");
        NS_TEST_EXPECT_MSG_EQ(m_probes[0], 50, "probes in band 0");
        NS_TEST_EXPECT_MSG_EQ(m_others[0], 0, "anything else in band 0");
        NS_TEST_EXPECT_MSG_EQ(bands[1]->GetStats().nTotalReceivedPackets,
                              m_floodSent + 1,
                              "band 1: flood and warm-up");
        NS_TEST_EXPECT_MSG_EQ(m_probes[1], 0, "probes in band 1");
        NS_TEST_EXPECT_MSG_EQ(m_arp[1], 0, "no ARP request: the caches were filled");
        NS_TEST_EXPECT_MSG_EQ(bands[2]->GetStats().nTotalReceivedPackets, 0, "band 2");
        NS_TEST_EXPECT_MSG_EQ(root->GetStats().nTotalDroppedPackets, 0, "prio drops");
        NS_TEST_EXPECT_MSG_GT(m_floodSent, 400, "the flood ran");
        NS_TEST_EXPECT_MSG_EQ(probeSink->GetTotalRx(), 50 * 100, "probes delivered");
        NS_TEST_EXPECT_MSG_EQ(floodSink->GetTotalRx(),
                              (m_floodSent + 1) * 1472,
                              "flood and warm-up delivered");
        const Time wire = debloattest::ExpectedWireTime(tx, 1514);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(m_maxSojourn[0], wire, "probe waits at most one frame");
        NS_TEST_EXPECT_MSG_GT(m_maxSojourn[1], MilliSeconds(5), "the flood queued in band 1");
        Simulator::Destroy();
    }

    /**
     * Classifies what a band receives.
     * @param band the band
     * @param item the packet
     */
    void Enqueued(uint32_t band, Ptr<const QueueDiscItem> item)
    {
        const Ptr<const Ipv4QueueDiscItem> ip = DynamicCast<const Ipv4QueueDiscItem>(item);
        if (ip && ip->GetHeader().GetTos() == 0x10)
        {
            m_probes[band]++;
        }
        else if (item->GetProtocol() == 0x0806)
        {
            m_arp[band]++;
        }
        else if (!ip || ip->GetHeader().GetTos() != 0)
        {
            m_others[band]++;
        }
    }

    /**
     * Keeps each band's longest sojourn.
     * @param band the band
     * @param sojourn a packet's time in the band
     */
    void Sojourn(uint32_t band, Time sojourn)
    {
        m_maxSojourn[band] = Max(m_maxSojourn[band], sojourn);
    }

    /**
     * Counts a flood datagram.
     * @param packet the datagram
     */
    void FloodSent(Ptr<const Packet> packet)
    {
        m_floodSent++;
    }

    uint64_t m_floodSent{0};                 ///< flood datagrams sent
    std::vector<uint32_t> m_probes{0, 0, 0}; ///< TOS 0x10 packets per band
    std::vector<uint32_t> m_arp{0, 0, 0};    ///< ARP packets per band
    std::vector<uint32_t> m_others{0, 0, 0}; ///< neither TOS 0 IPv4 nor probe nor ARP
    std::vector<Time> m_maxSojourn{Time(0), Time(0), Time(0)}; ///< longest sojourn per band
};

/**
 * @ingroup debloat-tests
 * @brief Bad settings stop the program with a message naming the setting, where it is
 * (link and end), and what is accepted.
 *
 * Each is built in a child process (RunInChild). The expected texts come from the header's
 * promise: the presets' names as documented, the NicProfile names (NicHelper's list), tc's
 * unknown-qdisc message, the range of hosts and routers (1 or 0 to 254).
 */
class NicTopologyErrorsTestCase : public TestCase
{
  public:
    NicTopologyErrorsTestCase()
        : TestCase("Bad settings stop with a message naming them")
    {
    }

  private:
    /**
     * Runs a body that must stop, and checks its message.
     * @param what the case, for the report
     * @param body the body
     * @param words what the message must contain
     */
    void ExpectStop(const std::string& what,
                    const std::function<void()>& body,
                    const std::vector<std::string>& words)
    {
        const debloattest::ChildOutcome outcome = debloattest::RunInChild(body);
        NS_TEST_EXPECT_MSG_EQ(outcome.stopped, true, what << ": did not stop");
        for (const std::string& word : words)
        {
            NS_TEST_EXPECT_MSG_NE(outcome.output.find(word),
                                  std::string::npos,
                                  what << ": \"" << word << "\" not in " << outcome.output);
        }
    }

    /**
     * Installs one router between one host on each side, with a link changed by a function.
     * @param change changes the left host's link
     */
    static void InstallWith(const std::function<void(NicLinkConfig&)>& change)
    {
        NicTopologyHelper topology;
        change(topology.LeftLink(0));
        topology.Install();
    }

    void DoRun() override
    {
        ExpectStop(
            "unknown preset",
            [] { NicTopologyHelper::Preset("nuc-rangley-nuc"); },
            {"preset \"nuc-rangley-nuc\" is unknown",
             "accepted: laptop-server, wifi-ap, nuc-rangeley-nuc, wrt1200ac, forcedeth-gige"});
        ExpectStop("unknown profile",
                   [] { InstallWith([](NicLinkConfig& link) { link.right.profile = "e1001"; }); },
                   {"left link 0, right end",
                    "NIC profile \"e1001\" is unknown",
                    "accepted: e1000e, igb, ixgbe, mvneta, forcedeth, ag71xx, ag71xx-ar7100, "
                    "iwl3945, ideal"});
        ExpectStop("bad rate",
                   [] { InstallWith([](NicLinkConfig& link) { link.rate = "fast"; }); },
                   {"left link 0, left end", "rate \"fast\" is not a data rate", "100Mbps"});
        ExpectStop("zero rate",
                   [] { InstallWith([](NicLinkConfig& link) { link.rate = "0Mbps"; }); },
                   {"left link 0, left end", "rate \"0Mbps\" is not a data rate"});
        ExpectStop(
            "unknown qdisc",
            [] { InstallWith([](NicLinkConfig& link) { link.left.qdisc = "fq_codle"; }); },
            {"left link 0, left end",
             "tc qdisc \"fq_codle\" is unknown",
             "accepted: pfifo_fast, pfifo, noqueue, prio, fq_codel, codel, pie, sfq, cake, htb"});
        ExpectStop("unknown qdisc word",
                   [] {
                       InstallWith(
                           [](NicLinkConfig& link) { link.right.qdisc = "fq_codel quantum 300"; });
                   },
                   {"left link 0, right end", "qdisc \"fq_codel quantum 300\"", "\"quantum\""});
        ExpectStop(
            "no router, two left hosts",
            [] {
                NicTopologyHelper topology;
                topology.SetRouters(0);
                topology.SetLeftHosts(2, NicLinkConfig());
                topology.Install();
            },
            {"without routers there must be one host on each side", "got 2 left and 1 right"});
        ExpectStop("BQL limit without BQL",
                   [] { InstallWith([](NicLinkConfig& link) { link.left.bqlLimitMax = 8000; }); },
                   {"left link 0, left end", "BQL limits are set but bql is false"});
        ExpectStop("BQL hold time without BQL",
                   [] {
                       InstallWith(
                           [](NicLinkConfig& link) { link.right.bqlHoldTime = MilliSeconds(10); });
                   },
                   {"left link 0, right end", "BQL limits are set but bql is false"});
        ExpectStop("unknown attribute",
                   [] {
                       InstallWith(
                           [](NicLinkConfig& link) { link.left.attributes["TxUsec"] = "10us"; });
                   },
                   {"left link 0, left end", "\"TxUsec\" is not a NicNetDevice attribute"});
        // 2^32 parses as an integer but is above TxFrames' uint32_t range.
        ExpectStop("attribute out of range",
                   [] {
                       InstallWith([](NicLinkConfig& link) {
                           link.left.attributes["TxFrames"] = "4294967296";
                       });
                   },
                   {"left link 0, left end", "TxFrames \"4294967296\" is not valid"});
        ExpectStop("negative delay",
                   [] { InstallWith([](NicLinkConfig& link) { link.delay = MicroSeconds(-1); }); },
                   {"left link 0", "is negative"});
        ExpectStop("a bad router link",
                   [] {
                       NicTopologyHelper topology;
                       topology.SetRouters(3);
                       topology.RouterLink(1).left.profile = "e1001";
                       topology.Install();
                   },
                   {"router link 1, left end", "NIC profile \"e1001\" is unknown"});
        ExpectStop("a bad right link",
                   [] {
                       NicTopologyHelper topology;
                       topology.SetRightHosts(2, NicLinkConfig());
                       topology.RightLink(1).rate = "1Gbpz";
                       topology.Install();
                   },
                   {"right link 1, left end", "rate \"1Gbpz\" is not a data rate"});
        ExpectStop("no left hosts",
                   [] { NicTopologyHelper().SetLeftHosts(0, NicLinkConfig()); },
                   {"0 left hosts; accepted: 1 to 254"});
        ExpectStop("too many routers",
                   [] { NicTopologyHelper().SetRouters(255); },
                   {"255 routers; accepted: 0 to 254"});
        ExpectStop("no such link",
                   [] { NicTopologyHelper().LeftLink(1); },
                   {"no left link 1; there are 1"});
        ExpectStop("Install() twice",
                   [] {
                       NicTopologyHelper topology;
                       topology.Install();
                       topology.Install();
                   },
                   {"Install() called twice"});
        ExpectStop("AssignStreams() before Install()",
                   [] { NicTopologyHelper().AssignStreams(1); },
                   {"AssignStreams() before Install()"});
    }
};

/**
 * @ingroup debloat-tests
 * @brief Describe() prints a line per link and one per end: the node names and each end's
 * qdisc text.
 *
 * nuc-rangeley-nuc has 2 links: 2 x 3 = 6 lines, naming nuc1, rangeley and nuc2 and
 * "qdisc pfifo_fast" at each of the 4 ends. A topology of 3 clients, 1 router and 2
 * servers (the default names, numbered from 1 when several share one) has 5 links: 15
 * lines, with each end's settings as given (tx ring, the attributes, txqueuelen, the qdisc
 * text whole, BQL's limit).
 */
class NicTopologyDescribeTestCase : public TestCase
{
  public:
    NicTopologyDescribeTestCase()
        : TestCase("Describe(): node names and qdisc text")
    {
    }

  private:
    /**
     * @param text some text
     * @param word a word
     * @return the times word occurs in text
     */
    static uint32_t Count(const std::string& text, const std::string& word)
    {
        uint32_t n = 0;
        for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + 1))
        {
            n++;
        }
        return n;
    }

    void DoRun() override
    {
        std::ostringstream nuc;
        NicTopologyHelper::Preset("nuc-rangeley-nuc").Describe(nuc);
        const std::string preset = nuc.str();
        NS_TEST_EXPECT_MSG_EQ(Count(preset, "\n"), 6, preset);
        for (const std::string word : {"nuc1", "rangeley", "nuc2", "e1000e", "igb"})
        {
            NS_TEST_EXPECT_MSG_NE(preset.find(word), std::string::npos, word << " in " << preset);
        }
        // Linux's default qdiscs: pfifo_fast on the NUCs' e1000e, mq on the 8-queue i354s.
        NS_TEST_EXPECT_MSG_EQ(Count(preset, "qdisc pfifo_fast"), 2, preset);
        NS_TEST_EXPECT_MSG_EQ(Count(preset, "qdisc mq"), 2, preset);

        NicLinkConfig link;
        link.left.txRing = 128;
        link.left.attributes = {{"TxUsecs", "50us"}};
        link.left.qdisc = "cake bandwidth 50Mbit";
        link.left.bql = true;
        link.left.bqlLimitMax = 8000;
        link.right.qdisc = "sfq perturb 10";
        link.right.txqueuelen = 0;
        NicTopologyHelper topology;
        topology.SetLeftHosts(3, link);
        topology.SetRightHosts(2, link);
        std::ostringstream custom;
        topology.Describe(custom);
        const std::string text = custom.str();
        NS_TEST_EXPECT_MSG_EQ(Count(text, "\n"), 15, text);
        for (const std::string word : {"client1", "client2", "client3", "server1", "server2"})
        {
            NS_TEST_EXPECT_MSG_NE(text.find(word), std::string::npos, word << " in " << text);
        }
        NS_TEST_EXPECT_MSG_EQ(Count(text, "router"), 10, "the router at 10 ends: " << text);
        NS_TEST_EXPECT_MSG_EQ(Count(text, "qdisc cake bandwidth 50Mbit"), 5, text);
        NS_TEST_EXPECT_MSG_EQ(Count(text, "qdisc sfq perturb 10"), 5, text);
        NS_TEST_EXPECT_MSG_EQ(Count(text, "tx ring 128"), 5, text);
        NS_TEST_EXPECT_MSG_EQ(Count(text, "TxUsecs 50us"), 5, text);
        NS_TEST_EXPECT_MSG_EQ(Count(text, "BQL limit_max 8000"), 5, text);
        NS_TEST_EXPECT_MSG_EQ(Count(text, "txqueuelen 0;"), 5, text);
    }
};

/**
 * @ingroup debloat-tests
 * @brief AssignStreams() covers the stacks and every NIC, and makes runs repeatable.
 *
 * nuc-rangeley-nuc has 3 nodes and 4 NicNetDevices. NicNetDevice::AssignStreams() takes 2
 * streams (soft-IRQ delay and flow-hash key): 8, on top of the stacks' share, which differs
 * between releases (ns-3.35 takes 4 a node, 3.37 5) and is asked of InternetStackHelper.
 *
 * The flow-hash key each NIC draws comes from its stream: the same first stream gives the
 * same four keys in a second topology (whose random variables, made later in the same
 * process, would otherwise have other automatic streams), and another first stream other
 * keys.
 */
class NicTopologyStreamsTestCase : public TestCase
{
  public:
    NicTopologyStreamsTestCase()
        : TestCase("AssignStreams(): count and repeatable draws")
    {
    }

  private:
    /**
     * Builds the preset, assigns streams, and reads the NICs' flow-hash keys.
     * @param stream the first stream
     * @param[out] count the streams used
     * @param[out] stack the stack's share of them
     * @return the keys: left link's devices, then the right link's
     */
    static std::vector<uint32_t> Keys(int64_t stream, int64_t& count, int64_t& stack)
    {
        NicTopologyHelper topology = NicTopologyHelper::Preset("nuc-rangeley-nuc");
        topology.Install();
        // The stack's share differs between releases (4 or 5 per node); ask it.
        stack = InternetStackHelper().AssignStreams(topology.GetNodes(), stream);
        count = topology.AssignStreams(stream);
        std::vector<uint32_t> keys;
        for (const NetDeviceContainer& devices :
             {topology.GetLeftDevices(0), topology.GetRightDevices(0)})
        {
            for (uint32_t d = 0; d < devices.GetN(); d++)
            {
                keys.push_back(DynamicCast<NicNetDevice>(devices.Get(d))->GetFlowHashKey());
            }
        }
        Simulator::Destroy();
        return keys;
    }

    void DoRun() override
    {
        int64_t count = 0;
        int64_t stack = 0;
        const std::vector<uint32_t> first = Keys(100, count, stack);
        // NicNetDevice::AssignStreams: the soft-IRQ delay and the flow-hash key.
        NS_TEST_EXPECT_MSG_EQ(count, stack + 4 * 2, "stack + 2 per NIC");
        const std::vector<uint32_t> again = Keys(100, count, stack);
        const std::vector<uint32_t> other = Keys(200, count, stack);
        NS_TEST_ASSERT_MSG_EQ(first.size(), 4, "four NICs");
        NS_TEST_EXPECT_MSG_EQ((first == again), true, "same streams, same keys");
        NS_TEST_EXPECT_MSG_EQ((first == other), false, "other streams, other keys");
    }
};

/**
 * @ingroup debloat-tests
 * @brief AssignStreams() also pins the queue discs it installed: CAKE's and SFQ's hash keys.
 *
 * nuc-rangeley-nuc with sfq on the router's egress to nuc1, cake on its egress to nuc2 and
 * an htb tree with an sfq leaf on nuc1's egress (pfifo_fast on nuc2, which draws nothing):
 * SfqQueueDisc::AssignStreams() and CakeQueueDisc::AssignStreams() take one stream each,
 * HtbQueueDisc's its sfq leaf's, so the count is the stack's share + 2 per NIC (8) + 3,
 * the queue discs' streams coming after the NICs'.
 *
 * Each draws its hash key (SFQ's perturbation, CAKE's flow and host hash keys) from its
 * stream when it initializes. Eight UDP flows (source ports 1000 to 1007) queued in each
 * show the queues they hash to in PrintClassStats() (`tc -s class show`: class :N is queue
 * N - 1). The same first stream gives the same keys, so the same queues, in a second
 * topology (whose random variables would otherwise have other automatic streams). Another
 * first stream gives other keys: each flow's queue is then an independent draw among 1024
 * (sfq's divisor, cake's queues per tin), so that all eight stay put has probability
 * 1024^-8; with the fixed streams here the outcome is fixed.
 */
class NicTopologyQdiscStreamsTestCase : public TestCase
{
  public:
    NicTopologyQdiscStreamsTestCase()
        : TestCase("AssignStreams(): the queue discs' hash keys")
    {
    }

  private:
    /**
     * Builds the topology, assigns streams, queues the flows and prints the classes.
     * @param stream the first stream
     * @param[out] count the streams used
     * @param[out] stack the stack's share of them
     * @return sfq's class listing, then cake's
     */
    static std::pair<std::string, std::string> Queues(int64_t stream,
                                                      int64_t& count,
                                                      int64_t& stack)
    {
        NicTopologyHelper topology = NicTopologyHelper::Preset("nuc-rangeley-nuc");
        topology.LeftLink(0).right.qdisc = "sfq";
        topology.RightLink(0).left.qdisc = "cake";
        topology.LeftLink(0).left.qdisc = "htb default 10; class parent 1: classid 1:10 rate "
                                          "500Mbit; qdisc parent 1:10 sfq";
        topology.Install();
        stack = InternetStackHelper().AssignStreams(topology.GetNodes(), stream);
        count = topology.AssignStreams(stream);
        // Initializes the nodes, and so the queue discs, which draw their keys.
        Simulator::Stop(MicroSeconds(1));
        Simulator::Run();
        Ptr<SfqQueueDisc> sfq =
            DynamicCast<SfqQueueDisc>(GetRoot(topology.GetLeftDevices(0).Get(1)));
        Ptr<CakeQueueDisc> cake =
            DynamicCast<CakeQueueDisc>(GetRoot(topology.GetRightDevices(0).Get(0)));
        NS_ABORT_MSG_UNLESS(sfq && cake, "sfq and cake on the router");
        for (uint16_t port = 1000; port < 1008; ++port)
        {
            sfq->Enqueue(debloattest::MakeUdpItem("10.3.0.2", "10.1.0.1", port, 1000));
            cake->Enqueue(debloattest::MakeUdpItem("10.1.0.1", "10.3.0.2", port, 1000));
        }
        std::ostringstream sfqClasses;
        std::ostringstream cakeClasses;
        sfq->PrintClassStats(sfqClasses);
        cake->PrintClassStats(cakeClasses);
        Simulator::Destroy();
        return {sfqClasses.str(), cakeClasses.str()};
    }

    void DoRun() override
    {
        int64_t count = 0;
        int64_t stack = 0;
        const auto first = Queues(100, count, stack);
        NS_TEST_EXPECT_MSG_EQ(count,
                              stack + 4 * 2 + 3,
                              "stack + 2 per NIC + sfq + cake + htb's sfq leaf");
        const auto again = Queues(100, count, stack);
        const auto other = Queues(200, count, stack);
        NS_TEST_EXPECT_MSG_NE(first.first.find("class sfq"), std::string::npos, first.first);
        NS_TEST_EXPECT_MSG_NE(first.second.find("class cake"), std::string::npos, first.second);
        NS_TEST_EXPECT_MSG_EQ(first.first, again.first, "same streams, same sfq queues");
        NS_TEST_EXPECT_MSG_EQ(first.second, again.second, "same streams, same cake queues");
        NS_TEST_EXPECT_MSG_NE(first.first, other.first, "other streams, other sfq queues");
        NS_TEST_EXPECT_MSG_NE(first.second, other.second, "other streams, other cake queues");
    }
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-nic-topology-helper suite.
 */
class NicTopologyHelperTestSuite : public TestSuite
{
  public:
    NicTopologyHelperTestSuite()
        : TestSuite("debloat-nic-topology-helper", compat::SUITE_UNIT)
    {
        AddTestCase(new NicTopologyNucPresetTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicTopologyCombinedTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicTopologyPcapTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicTopologyPresetReachTestCase("laptop-server", 2, "10.1.0.2"),
                    compat::TEST_QUICK);
        AddTestCase(new NicTopologyPresetReachTestCase("wifi-ap", 3, "10.3.0.2"),
                    compat::TEST_QUICK);
        AddTestCase(new NicTopologyPresetReachTestCase("nuc-rangeley-nuc", 3, "10.3.0.2"),
                    compat::TEST_QUICK);
        AddTestCase(new NicTopologyPresetReachTestCase("wrt1200ac", 3, "10.3.0.2"),
                    compat::TEST_QUICK);
        AddTestCase(new NicTopologyPresetReachTestCase("forcedeth-gige", 2, "10.1.0.2"),
                    compat::TEST_QUICK);
        for (const std::string& preset : NicTopologyHelper::GetPresetNames())
        {
            AddTestCase(new NicTopologyFirstProbeTestCase(preset), compat::TEST_QUICK);
        }
        AddTestCase(new NicTopologyPerEndTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicTopologyTxqueuelenTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicTopologyNoQueueTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicTopologyPrioTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicTopologyErrorsTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicTopologyDescribeTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicTopologyStreamsTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicTopologyQdiscStreamsTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
NicTopologyHelperTestSuite g_nicTopologyHelperTestSuite;

} // namespace
