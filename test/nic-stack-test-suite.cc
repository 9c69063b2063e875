/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * NicNetDevice under the IP stack and the traffic-control layer: BQL never lets more than its
 * limit plus one packet into the ring, and flows are steered to TX queues as skb_tx_hash does.
 */

#include "debloat-test-utils.h"

#include "ns3/applications-module.h"
#include "ns3/byte-queue-limits.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
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

/**
 * @ingroup debloat-tests
 * @brief BQL inflight never exceeds its limit plus one packet.
 *
 * The queue stops on the post that makes dql_avail() negative: before that post inflight was
 * at most the limit, so right after any post inflight <= limit + that packet <= limit + 1514
 * (a full-size frame). A UDP flood at 1.2 times the line rate through pfifo_fast keeps BQL
 * busy for 0.3 s on the given profile; every post is checked against the limit in force.
 */
class NicBqlInflightTestCase : public TestCase
{
  public:
    /**
     * @param profile NIC profile
     * @param rate line rate
     */
    NicBqlInflightTestCase(const std::string& profile, const std::string& rate)
        : TestCase("BQL inflight <= limit + one packet: " + profile + " " + rate),
          m_profile(profile),
          m_rate(rate)
    {
    }

  private:
    void DoRun() override
    {
        const debloattest::FloodedNicLink link =
            debloattest::MakeFloodedNicLink(m_profile, m_rate, true);
        const NetDeviceContainer& devices = link.devices;
        // Whichever TX queue the flow hashes to, its own BQL is checked.
        Ptr<NetDeviceQueueInterface> ndqi = devices.Get(0)->GetObject<NetDeviceQueueInterface>();
        for (std::size_t q = 0; q < ndqi->GetNTxQueues(); q++)
        {
            Ptr<ByteQueueLimits> bql =
                DynamicCast<ByteQueueLimits>(ndqi->GetTxQueue(q)->GetQueueLimits());
            NS_TEST_ASSERT_MSG_NE(bql, nullptr, "BQL installed on queue " << q);
            NS_TEST_ASSERT_MSG_EQ(
                bql->TraceConnectWithoutContext(
                    "Inflight",
                    MakeCallback(&NicBqlInflightTestCase::Inflight, this).Bind(PeekPointer(bql))),
                true,
                "Inflight trace");
        }
        Simulator::Stop(MilliSeconds(300));
        Simulator::Run();
        // At 100 Mbit/s 0.3 s carries about 24000 frames: the check must have seen thousands.
        NS_TEST_EXPECT_MSG_GT(m_posts, 1000U, "posts checked");
        NS_TEST_EXPECT_MSG_EQ(m_violations, 0U, "posts that left inflight above limit + 1514");
        Simulator::Destroy();
    }

    /**
     * Checks each post.
     * @param bql the queue's BQL (a raw pointer: a Ptr bound into its own trace never frees)
     * @param oldValue inflight before
     * @param newValue inflight after
     */
    void Inflight(const ByteQueueLimits* bql, uint32_t oldValue, uint32_t newValue)
    {
        if (newValue > oldValue)
        {
            m_posts++;
            if (newValue > bql->GetLimit() + 1514)
            {
                m_violations++;
            }
        }
    }

    std::string m_profile;    ///< profile
    std::string m_rate;       ///< line rate
    uint32_t m_posts{0};      ///< posts seen
    uint32_t m_violations{0}; ///< posts above the bound
};

/**
 * @ingroup debloat-tests
 * @brief Flows are steered to TX queues as skb_tx_hash does.
 *
 * igb profile (8 TX queues) at 1 Gbit/s. 16 UDP flows from 10.0.0.1 ports 2000..2015 to
 * 10.0.0.2 port 9 send 50 datagrams each from 100 ms, 1 ms apart, so no queue ever stops.
 * Address assignment installs ns-3's default root for 8 TX queues, MqQueueDisc with one
 * FqCoDel child per queue, so the steering runs under MqQueueDisc. Flow f must land on
 * queue (hash_f * 8) >> 32 = hash_f >> 29 (skb_tx_hash's reciprocal_scale with 8 queues),
 * where hash_f is the device's flow hash of the flow's 5-tuple (QueueDiscItem::Hash with the
 * device's key). Flow 0 sends one more
 * datagram at 1 ms, which makes node 0 resolve ARP before the flows start (ns-3's ARP keeps
 * only 3 packets while it waits). The expected posts per queue are 50 times the flows mapped
 * there, plus 1 on flow 0's queue, plus 1 on the queue of the one ARP request node 0 sends
 * (an ArpQueueDiscItem hashes its addresses the same way).
 */
class NicSteeringTestCase : public TestCase
{
  public:
    NicSteeringTestCase()
        : TestCase("Flows steered to TX queues by (hash * 8) >> 32")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        NicHelper nic;
        nic.SetProfile("igb");
        NetDeviceContainer devices = nic.Install(nodes);
        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");
        Ipv4InterfaceContainer interfaces = address.Assign(devices);
        Ptr<NicNetDevice> tx = DynamicCast<NicNetDevice>(devices.Get(0));
        NS_TEST_ASSERT_MSG_EQ(
            tx->TraceConnectWithoutContext("TxRing",
                                           MakeCallback(&NicSteeringTestCase::Ring, this)),
            true,
            "TxRing trace");

        // A bound socket on node 1, so that it answers nothing (no ICMP port unreachable,
        // hence no ARP request from node 1 and no ARP reply from node 0).
        Ptr<Socket> sink = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));

        const uint32_t key = tx->GetFlowHashKey();
        std::vector<uint32_t> expected(8, 0);
        ArpHeader arp;
        arp.SetRequest(tx->GetAddress(),
                       interfaces.GetAddress(0),
                       tx->GetBroadcast(),
                       interfaces.GetAddress(1));
        Ptr<ArpQueueDiscItem> arpItem =
            Create<ArpQueueDiscItem>(Create<Packet>(), tx->GetBroadcast(), 0x0806, arp);
        expected[arpItem->Hash(key) >> 29] += 1;
        for (uint16_t f = 0; f < 16; f++)
        {
            const uint16_t sourcePort = 2000 + f;
            Ptr<Packet> probe = Create<Packet>(100);
            UdpHeader udp;
            udp.SetSourcePort(sourcePort);
            udp.SetDestinationPort(9);
            probe->AddHeader(udp);
            Ipv4Header ip;
            ip.SetSource(interfaces.GetAddress(0));
            ip.SetDestination(interfaces.GetAddress(1));
            ip.SetProtocol(UdpL4Protocol::PROT_NUMBER);
            Ptr<Ipv4QueueDiscItem> item = Create<Ipv4QueueDiscItem>(probe, Address(), 0x0800, ip);
            expected[item->Hash(key) >> 29] += f == 0 ? 51 : 50;

            Ptr<Socket> socket = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
            socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), sourcePort));
            socket->Connect(InetSocketAddress(interfaces.GetAddress(1), 9));
            if (f == 0)
            {
                Simulator::Schedule(MilliSeconds(1), &NicSteeringTestCase::SendOne, socket);
            }
            for (int i = 0; i < 50; i++)
            {
                Simulator::Schedule(MilliSeconds(100 + i), &NicSteeringTestCase::SendOne, socket);
            }
        }
        Simulator::Run();
        uint32_t used = 0;
        for (uint32_t q = 0; q < 8; q++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_posts[q], expected[q], "posts on queue " << q);
            used += expected[q] > 1 ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_GT(used, 1U, "flows spread over several queues");
        Simulator::Destroy();
    }

    /**
     * Sends one 100-byte datagram.
     * @param socket the connected socket
     */
    static void SendOne(Ptr<Socket> socket)
    {
        socket->Send(Create<Packet>(100));
    }

    /**
     * Counts posts per queue: a post raises the descriptors in use.
     * @param queue TX queue
     * @param descriptors descriptors in use
     * @param bytes bytes in the ring
     */
    void Ring(uint32_t queue, uint32_t descriptors, uint64_t bytes)
    {
        if (descriptors > m_used[queue])
        {
            m_posts[queue]++;
        }
        m_used[queue] = descriptors;
    }

    std::vector<uint32_t> m_posts = std::vector<uint32_t>(8, 0); ///< posts per queue
    std::vector<uint32_t> m_used = std::vector<uint32_t>(8, 0);  ///< last descriptors in use
};

/**
 * @ingroup debloat-tests
 * @brief The adaptive ITR of the e1000e and igb profiles under a bulk UDP flood at 1 Gbit/s.
 *
 * The sender only transmits full-size frames (1514 bytes; no RX besides ARP), and every
 * completion would interrupt at once, so in steady state interrupts come exactly one
 * throttle interval apart:
 * - e1000e (InterruptThrottleRate 3) starts at 20000 ints/s, an ITR register of
 *   floor(10^9 / (20000 * 256)) = 195 units of 256 ns: 49920 ns. An interval that long
 *   carries 4 frames of 12.304 us (6056 bytes): low_latency moves to bulk only above 10000
 *   bytes (or above 2000 bytes per packet), and to lowest only with at most 2 packets, so the
 *   class, and the 49920 ns, stay;
 * - igb (conservative): average wire size 1514 + 24 = 1538, halved: 769, written as
 *   769 & 0x7FFC = 768, i.e. 768 >> 2 = 192 us.
 * Interrupts between 50 ms and 100 ms must be spaced by exactly that interval.
 */
class NicDynamicItrTestCase : public TestCase
{
  public:
    /**
     * @param profile e1000e or igb
     * @param interval the expected steady interval
     */
    NicDynamicItrTestCase(const std::string& profile, Time interval)
        : TestCase("Adaptive ITR under bulk TX: " + profile),
          m_profile(profile),
          m_interval(interval)
    {
    }

  private:
    void DoRun() override
    {
        const debloattest::FloodedNicLink link =
            debloattest::MakeFloodedNicLink(m_profile, "1Gbps", false);
        NS_TEST_ASSERT_MSG_EQ(link.devices.Get(0)->TraceConnectWithoutContext(
                                  "Interrupt",
                                  MakeCallback(&NicDynamicItrTestCase::Interrupt, this)),
                              true,
                              "Interrupt trace");
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        // 50 ms at one interrupt per 192 to 250 us: about 200 to 260 intervals.
        NS_TEST_ASSERT_MSG_GT(m_times.size(), 100U, "interrupts seen");
        for (std::size_t i = 1; i < m_times.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_times[i] - m_times[i - 1], m_interval, "interval " << i);
        }
        Simulator::Destroy();
    }

    /**
     * Records TX interrupts after 50 ms.
     * @param vector the vector
     * @param txEvents TX completions carried
     * @param rxEvents RX frames carried
     */
    void Interrupt(uint32_t vector, uint32_t txEvents, uint32_t rxEvents)
    {
        if (Simulator::Now() >= MilliSeconds(50) && txEvents > 0)
        {
            m_times.push_back(Simulator::Now());
        }
    }

    std::string m_profile;     ///< profile
    Time m_interval;           ///< expected interval
    std::vector<Time> m_times; ///< interrupt times
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-nic-stack suite.
 */
class NicStackTestSuite : public TestSuite
{
  public:
    NicStackTestSuite()
        : TestSuite("debloat-nic-stack", compat::SUITE_SYSTEM)
    {
        AddTestCase(new NicBqlInflightTestCase("e1000e", "100Mbps"), compat::TEST_QUICK);
        AddTestCase(new NicBqlInflightTestCase("igb", "1Gbps"), compat::TEST_QUICK);
        AddTestCase(new NicBqlInflightTestCase("mvneta", "1Gbps"), compat::TEST_QUICK);
        AddTestCase(new NicSteeringTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicDynamicItrTestCase("e1000e", NanoSeconds(49920)), compat::TEST_QUICK);
        AddTestCase(new NicDynamicItrTestCase("igb", MicroSeconds(192)), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
NicStackTestSuite g_nicStackTestSuite;

} // namespace
