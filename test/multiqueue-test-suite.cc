/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * Multiqueue NICs: RSS puts each received frame on the RX queue its Toeplitz hash selects
 * and that queue's vector polls it; a forwarded packet leaves on the TX queue of its RX
 * queue when the driver records it (skb_record_rx_queue() -> skb_tx_hash()); and the queue
 * choices of skb_tx_hash() and of RSS with Linux's random ephemeral ports collide as often
 * as the birthday problem says.
 *
 * The RSS expectations come from the Microsoft RSS verification suite's hashes (key
 * 6d:5a:56:da:25:5b:...; test/unit/rss-hash-test.cc checks them), through the default
 * indirection table of 128 entries, entry i = i mod n (ethtool_rxfh_indir_default()): the
 * queue of hash h is (h & 127) mod n.
 */

#include "ns3/byte-queue-limits-helper.h"
#include "ns3/byte-queue-limits.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/ethernet-header.h"
#include "ns3/host-cpu.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/nic-net-device.h"
#include "ns3/nic-rx-queue-tag.h"
#include "ns3/queue-disc-item-keys.h"
#include "ns3/tc-qdisc-helper.h"
#include "ns3/traffic-control-module.h"

#include <array>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// The key of the Microsoft RSS verification suite, in ethtool -X hkey's form.
const std::string SPEC_KEY = "6d:5a:56:da:25:5b:0e:c2:41:67:25:3d:43:a3:8f:b0:d0:ca:2b:cb:ae:7b:"
                             "30:b4:77:cb:2d:a3:80:30:f2:0c:6a:42:b7:3b:be:ac:01:fa";

/// One IPv4 row of the verification suite.
struct SpecFlow
{
    const char* source;       ///< source address
    uint16_t sourcePort;      ///< source port
    const char* destination;  ///< destination address
    uint16_t destinationPort; ///< destination port
};

/// The five IPv4 rows.
const std::array<SpecFlow, 5> SPEC_FLOWS{{
    {"66.9.149.187", 2794, "161.142.100.80", 1766},
    {"199.92.111.2", 14230, "65.69.140.83", 4739},
    {"24.19.198.95", 12898, "12.22.207.184", 38024},
    {"38.27.205.30", 48228, "209.142.163.6", 2217},
    {"153.39.163.191", 44251, "202.188.127.2", 1303},
}};

/**
 * An IPv4 packet with a TCP or UDP header and 100 bytes of payload.
 * @param flow the addresses and ports
 * @param protocol 6 (TCP) or 17 (UDP)
 * @return the packet, its IPv4 header first
 */
Ptr<Packet>
MakeIpPacket(const SpecFlow& flow, uint8_t protocol)
{
    Ptr<Packet> packet = Create<Packet>(100);
    if (protocol == 6)
    {
        TcpHeader tcp;
        tcp.SetSourcePort(flow.sourcePort);
        tcp.SetDestinationPort(flow.destinationPort);
        tcp.SetFlags(TcpHeader::ACK);
        packet->AddHeader(tcp);
    }
    else
    {
        UdpHeader udp;
        udp.SetSourcePort(flow.sourcePort);
        udp.SetDestinationPort(flow.destinationPort);
        packet->AddHeader(udp);
    }
    Ipv4Header ip;
    ip.SetSource(Ipv4Address(flow.source));
    ip.SetDestination(Ipv4Address(flow.destination));
    ip.SetProtocol(protocol);
    ip.SetPayloadSize(packet->GetSize());
    ip.SetTtl(64);
    packet->AddHeader(ip);
    return packet;
}

/**
 * The same packet as a received frame.
 * @param flow the addresses and ports
 * @param protocol 6 (TCP) or 17 (UDP)
 * @return the frame, its Ethernet header first
 */
Ptr<Packet>
MakeFrame(const SpecFlow& flow, uint8_t protocol)
{
    Ptr<Packet> frame = MakeIpPacket(flow, protocol);
    EthernetHeader ethernet(false);
    ethernet.SetLengthType(0x0800);
    frame->AddHeader(ethernet);
    return frame;
}

/**
 * A device at one end of a link of its own, not yet initialised.
 * @param helper the configured helper
 * @return the device
 */
Ptr<NicNetDevice>
MakeDevice(const NicHelper& helper)
{
    NodeContainer nodes;
    nodes.Create(2);
    return DynamicCast<NicNetDevice>(helper.Install(nodes).Get(0));
}

/**
 * @ingroup debloat-tests
 * @brief RSS picks the RX queue of the verification suite's flows from their hashes.
 *
 * 8 RX queues, the spec's key. TCP hashes the 4-tuple: 0x51ccc178, 0xc626b0ea, 0x5c2b394a,
 * 0xafc7327f, 0x10e828a2, whose low seven bits 120, 106, 74, 127, 34 give queues 0, 2, 2, 7,
 * 2 (mod 8). UDP is hashed by its addresses only (igb's and ixgbe's default): 0x323e8fc2,
 * 0xd718262a, 0xd2d0a5de, 0x82989176, 0x5d1809c5, low bits 66, 42, 94, 118, 69: queues 2,
 * 2, 6, 6, 5; with RssUdpPorts its ports count as TCP's do: 0, 2, 2, 7, 2. A frame that is
 * not IP (ARP) goes to queue 0, and with one RX queue everything does. With RssIndirection
 * "weight 0 0 0 1" every entry of the table names queue 3, so every flow lands there.
 */
class RssQueueSelectionTestCase : public TestCase
{
  public:
    RssQueueSelectionTestCase()
        : TestCase("RSS selects the RX queue from the verification suite's Toeplitz hashes")
    {
    }

  private:
    void DoRun() override
    {
        NicHelper helper;
        helper.SetDeviceAttribute("RxQueues", UintegerValue(8));
        helper.SetDeviceAttribute("RssKey", StringValue(SPEC_KEY));
        Ptr<NicNetDevice> device = MakeDevice(helper);
        helper.SetDeviceAttribute("RssUdpPorts", BooleanValue(true));
        Ptr<NicNetDevice> udpPorts = MakeDevice(helper);
        const std::array<uint32_t, 5> tcp{0, 2, 2, 7, 2};
        const std::array<uint32_t, 5> udp{2, 2, 6, 6, 5};
        for (std::size_t i = 0; i < SPEC_FLOWS.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(device->SelectRxQueue(MakeFrame(SPEC_FLOWS[i], 6)),
                                  tcp[i],
                                  "TCP flow " << i);
            NS_TEST_EXPECT_MSG_EQ(device->SelectRxQueue(MakeFrame(SPEC_FLOWS[i], 17)),
                                  udp[i],
                                  "UDP flow " << i);
            NS_TEST_EXPECT_MSG_EQ(udpPorts->SelectRxQueue(MakeFrame(SPEC_FLOWS[i], 17)),
                                  tcp[i],
                                  "UDP flow " << i << " with RssUdpPorts");
        }
        Ptr<Packet> arp = Create<Packet>(28);
        EthernetHeader ethernet(false);
        ethernet.SetLengthType(0x0806);
        arp->AddHeader(ethernet);
        NS_TEST_EXPECT_MSG_EQ(device->SelectRxQueue(arp), 0, "ARP on queue 0");
        // ethtool -X weight 0 0 0 1: every entry on queue 3, whatever the hash.
        helper.SetDeviceAttribute("RssIndirection", StringValue("weight 0 0 0 1"));
        Ptr<NicNetDevice> weighted = MakeDevice(helper);
        for (const SpecFlow& flow : SPEC_FLOWS)
        {
            NS_TEST_EXPECT_MSG_EQ(weighted->SelectRxQueue(MakeFrame(flow, 6)),
                                  3,
                                  "RssIndirection weight 0 0 0 1");
        }
        NicHelper single;
        NS_TEST_EXPECT_MSG_EQ(MakeDevice(single)->SelectRxQueue(MakeFrame(SPEC_FLOWS[3], 6)),
                              0,
                              "one RX queue");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief A received frame waits on its RSS queue's ring and goes up in that queue's
 * vector's poll.
 *
 * The receiver has 8 RX queues (one TX queue: vectors 0 to 7) and the spec's key; the sender
 * sends the five TCP flows' packets at t = 0. They land on queues 0, 2, 2, 7, 2 (see
 * RssQueueSelectionTestCase), so vectors 0 and 7 each poll one frame, vector 2 three, and no
 * other vector polls any; the receiver passes all five up.
 */
class RssPollTestCase : public TestCase
{
  public:
    RssPollTestCase()
        : TestCase("Each RX queue's frames go up in its own vector's poll")
    {
    }

  private:
    void DoRun() override
    {
        NicHelper helper;
        helper.SetDeviceAttribute("RxQueues", UintegerValue(8));
        helper.SetDeviceAttribute("RssKey", StringValue(SPEC_KEY));
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devices = helper.Install(nodes);
        auto sender = DynamicCast<NicNetDevice>(devices.Get(0));
        auto receiver = DynamicCast<NicNetDevice>(devices.Get(1));
        NS_TEST_ASSERT_MSG_EQ(
            receiver->TraceConnectWithoutContext("Poll",
                                                 MakeCallback(&RssPollTestCase::Poll, this)),
            true,
            "Poll trace");
        for (const SpecFlow& flow : SPEC_FLOWS)
        {
            Simulator::ScheduleNow(&NicNetDevice::Send,
                                   sender,
                                   MakeIpPacket(flow, 6),
                                   receiver->GetAddress(),
                                   0x0800);
        }
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        const std::map<uint32_t, uint32_t> expected{{0, 1}, {2, 3}, {7, 1}};
        NS_TEST_EXPECT_MSG_EQ(m_rxByVector.size(), expected.size(), "vectors that polled frames");
        for (const auto& [vector, frames] : expected)
        {
            NS_TEST_EXPECT_MSG_EQ(m_rxByVector[vector], frames, "frames of vector " << vector);
        }
        NS_TEST_EXPECT_MSG_EQ(receiver->GetStats().rxPackets, 5, "all five up");
        NS_TEST_EXPECT_MSG_EQ(receiver->GetNRxQueues(), 8, "RX queues");
        Simulator::Destroy();
    }

    /**
     * Counts the frames each vector's polls pass up.
     * @param vector the vector
     * @param txPackets TX packets reclaimed
     * @param txBytes their bytes
     * @param rxPackets frames passed up
     */
    void Poll(uint32_t vector, uint32_t txPackets, uint64_t txBytes, uint32_t rxPackets)
    {
        if (rxPackets > 0)
        {
            m_rxByVector[vector] += rxPackets;
        }
    }

    std::map<uint32_t, uint32_t> m_rxByVector; ///< frames passed up per vector
};

/**
 * @ingroup debloat-tests
 * @brief A router's forwarded packets leave on the TX queue their RX queue steers them to:
 * through the recorded RX queue (RecordRxQueue: skb_record_rx_queue() -> skb_tx_hash()), or
 * through the CPU that polled them (XPS: get_xps_queue() with the softirq's CPU).
 *
 * host -> router -> host over NIC links; the router's ingress spreads UDP over its RX queues
 * by RSS (with ports), its egress has as many TX queues. 16 UDP flows (source ports 5001 to
 * 5016), one datagram each. Whatever queues RSS picks, every datagram the ingress passes up
 * on RX queue r must be posted to the egress's TX queue s(r): the per-queue counts of the two
 * sides match through s.
 * - RecordRxQueue, 8 queues: s(r) = r. A record does not outlive its node: the receiving
 *   host's device, which records nothing, keeps none.
 * - XPS, 2 queues, a two-core HostCpu on the router: RX queue r's vector r is served by core
 *   r (vector mod cores), so its forwarding runs there; XpsCpus "1,2" (CPU 0 on TX queue 0,
 *   CPU 1 on 1) gives s(r) = r, "2,1" gives s(r) = 1 - r.
 */
class RecordRxQueueTestCase : public TestCase
{
  public:
    /// @param xpsCpus the egress's XpsCpus; empty: steer by RecordRxQueue instead
    explicit RecordRxQueueTestCase(const std::string& xpsCpus = "")
        : TestCase(xpsCpus.empty()
                       ? "A forwarded packet leaves on the TX queue of its recorded RX queue"
                       : "XPS " + xpsCpus + ": a forwarded packet leaves on its CPU's TX queue"),
          m_xpsCpus(xpsCpus)
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(3);
        // The left link's ends (the router's ingress among them) have RSS and, without XPS,
        // record the RX queue; the right link's ends have as many TX queues.
        const bool xps = !m_xpsCpus.empty();
        const uint32_t queues = xps ? 2 : 8;
        NicHelper rss;
        rss.SetDeviceAttribute("RxQueues", UintegerValue(queues));
        rss.SetDeviceAttribute("RssUdpPorts", BooleanValue(true));
        rss.SetDeviceAttribute("RecordRxQueue", BooleanValue(!xps));
        NetDeviceContainer left = rss.Install(nodes.Get(0), nodes.Get(1));
        NicHelper multiqueue;
        multiqueue.SetDeviceAttribute("TxQueues", UintegerValue(queues));
        NetDeviceContainer right = multiqueue.Install(nodes.Get(1), nodes.Get(2));
        if (xps)
        {
            right.Get(0)->SetAttribute("XpsCpus", StringValue(m_xpsCpus));
            Ptr<HostCpu> cpu = CreateObject<HostCpu>();
            cpu->SetAttribute("Cores", UintegerValue(2));
            cpu->AssignStreams(1);
            nodes.Get(1)->AggregateObject(cpu);
        }
        auto ingress = DynamicCast<NicNetDevice>(left.Get(1));
        auto egress = DynamicCast<NicNetDevice>(right.Get(0));
        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4AddressHelper address;
        address.SetBase("10.1.1.0", "255.255.255.0");
        address.Assign(left);
        address.SetBase("10.3.1.0", "255.255.255.0");
        const Ipv4InterfaceContainer receiver = address.Assign(right);
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
        compat::PopulateNeighborCaches();
        NS_TEST_ASSERT_MSG_EQ(
            ingress->TraceConnectWithoutContext("Poll",
                                                MakeCallback(&RecordRxQueueTestCase::Poll, this)),
            true,
            "Poll trace");
        NS_TEST_ASSERT_MSG_EQ(
            egress->TraceConnectWithoutContext("TxRing",
                                               MakeCallback(&RecordRxQueueTestCase::TxRing, this)),
            true,
            "TxRing trace");
        Ptr<Socket> sink = Socket::CreateSocket(nodes.Get(2), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        sink->SetRecvCallback(MakeCallback(&RecordRxQueueTestCase::Received, this));
        for (uint16_t port = 5001; port <= 5016; port++)
        {
            Ptr<Socket> source = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
            source->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
            source->Connect(InetSocketAddress(receiver.GetAddress(1), 9));
            Simulator::Schedule(MicroSeconds(20 * (port - 5000)),
                                &RecordRxQueueTestCase::SendOne,
                                source);
            m_sources.push_back(source);
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(m_received, 16, "all 16 datagrams delivered");
        uint32_t rx = 0;
        for (const auto& [queue, frames] : m_rxByQueue)
        {
            rx += frames;
        }
        NS_TEST_EXPECT_MSG_EQ(rx, 16, "the ingress passed up 16 frames");
        NS_TEST_EXPECT_MSG_GT(m_rxByQueue.size(), 1, "RSS used several RX queues");
        std::map<uint32_t, uint32_t> steered; // ingress frames by the TX queue s(r)
        for (const auto& [queue, frames] : m_rxByQueue)
        {
            steered[m_xpsCpus == "2,1" ? 1 - queue : queue] = frames;
        }
        NS_TEST_EXPECT_MSG_EQ((m_postsByQueue == steered),
                              true,
                              "per-queue counts: egress TX posts equal ingress RX frames");
        NS_TEST_EXPECT_MSG_EQ(m_recordAtReceiver, false, "no record past the router");
        Simulator::Destroy();
    }

    /**
     * Sends one 100-byte datagram.
     * @param socket a connected socket
     */
    static void SendOne(Ptr<Socket> socket)
    {
        socket->Send(Create<Packet>(100));
    }

    /**
     * Counts a datagram at the receiver and checks it carries no RX-queue record.
     * @param socket the receiver's socket
     */
    void Received(Ptr<Socket> socket)
    {
        while (Ptr<Packet> packet = socket->Recv())
        {
            m_received++;
            uint16_t queue = 0;
            m_recordAtReceiver = m_recordAtReceiver || NicRxQueueTag::Get(packet, queue);
        }
    }

    /**
     * Counts the frames the ingress passes up per vector (= RX queue).
     * @param vector the vector
     * @param txPackets TX packets reclaimed
     * @param txBytes their bytes
     * @param rxPackets frames passed up
     */
    void Poll(uint32_t vector, uint32_t txPackets, uint64_t txBytes, uint32_t rxPackets)
    {
        if (rxPackets > 0)
        {
            m_rxByQueue[vector] += rxPackets;
        }
    }

    /**
     * Counts the egress's posts per TX queue: each post raises its ring's occupancy.
     * @param queue the TX queue
     * @param used descriptors in use
     * @param bytes their bytes
     */
    void TxRing(uint32_t queue, uint32_t used, uint64_t bytes)
    {
        if (used > m_lastUsed[queue])
        {
            m_postsByQueue[queue]++;
        }
        m_lastUsed[queue] = used;
    }

    std::vector<Ptr<Socket>> m_sources;          ///< the senders
    std::map<uint32_t, uint32_t> m_rxByQueue;    ///< ingress frames per RX queue
    std::map<uint32_t, uint32_t> m_postsByQueue; ///< egress posts per TX queue
    std::map<uint32_t, uint32_t> m_lastUsed;     ///< egress ring occupancy per queue
    uint32_t m_received{0};                      ///< datagrams delivered
    bool m_recordAtReceiver{false};              ///< a delivered datagram kept a record
    std::string m_xpsCpus;                       ///< the egress's XpsCpus, if any
};

/**
 * @ingroup debloat-tests
 * @brief The birthday problem: 4 flows on 8 queues all land on distinct queues in
 * 8 x 7 x 6 x 5 / 8^4 = 1680 / 4096 = 0.41015625 of the runs.
 *
 * Each of n = 2000 runs is a device with its own random streams (AssignStreams), so its own
 * hash key, and 4 TCP flows from 10.1.1.1 to 10.1.1.2:5001:
 * - skb_tx_hash(): 8 TX queues, the flows' source ports 49153 to 49156 (ns-3's first
 *   ephemeral ports), hashed with the device's random key;
 * - RSS: 8 RX queues, a random Toeplitz key per device (netdev_rss_key_fill()), and source
 *   ports drawn from Linux's ip_local_port_range, 32768 to 60999, as Linux's connect()
 *   picks them. (With consecutive ports the Toeplitz hash, linear in its input, is not
 *   uniform over the flows: about 0.56 of the runs would be collision-free.)
 * The count of collision-free runs is binomial(n, p): standard deviation
 * sqrt(p (1 - p) / n) = sqrt(0.41016 x 0.58984 / 2000) = 0.0110, so its fraction lies within
 * p +/- 3.29 sd = [0.3740, 0.4463] with probability 0.999.
 */
class BirthdayTestCase : public TestCase
{
  public:
    /// @param rss RSS's RX queue choice, else skb_tx_hash()'s TX queue choice
    explicit BirthdayTestCase(bool rss)
        : TestCase(rss ? "RSS: 4 flows on 8 RX queues are all apart in 0.41 of the runs"
                       : "skb_tx_hash: 4 flows on 8 TX queues are all apart in 0.41 of the runs"),
          m_rss(rss)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t runs = 2000;
        NicHelper helper;
        helper.SetDeviceAttribute(m_rss ? "RxQueues" : "TxQueues", UintegerValue(8));
        Ptr<UniformRandomVariable> ports = CreateObject<UniformRandomVariable>();
        ports->SetStream(1);
        uint32_t apart = 0;
        for (uint32_t run = 0; run < runs; run++)
        {
            Ptr<NicNetDevice> device = MakeDevice(helper);
            device->AssignStreams(100 + 2 * run);
            std::set<uint32_t> queues;
            for (uint16_t i = 0; i < 4; i++)
            {
                const auto port =
                    static_cast<uint16_t>(m_rss ? ports->GetInteger(32768, 60999) : 49153 + i);
                const SpecFlow flow{"10.1.1.1", port, "10.1.1.2", 5001};
                queues.insert(m_rss ? device->SelectRxQueue(MakeFrame(flow, 6))
                                    : device->SelectTxQueue(Item(flow)));
            }
            apart += queues.size() == 4 ? 1 : 0;
        }
        const double fraction = static_cast<double>(apart) / runs;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(fraction, 0.3740, "collision-free fraction " << fraction);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(fraction, 0.4463, "collision-free fraction " << fraction);
        Simulator::Destroy();
    }

    /**
     * @param flow the addresses and ports
     * @return a queue disc item of a TCP segment of the flow, as the IP layer hands it over
     */
    static Ptr<QueueItem> Item(const SpecFlow& flow)
    {
        Ptr<Packet> packet = MakeIpPacket(flow, 6);
        Ipv4Header ip;
        packet->RemoveHeader(ip);
        return Create<Ipv4QueueDiscItem>(packet, Address(), 0x0800, ip);
    }

    bool m_rss; ///< RSS, else skb_tx_hash()
};

/// A 100 Mbit/s link whose sender has 2 TX queues under mq with a pfifo of 1000 each.
struct MqLink
{
    NodeContainer nodes;                                    ///< sender, receiver
    Ptr<NicNetDevice> sender;                               ///< the sender's device
    Ipv4InterfaceContainer interfaces;                      ///< their addresses
    std::map<uint32_t, std::vector<uint16_t>> portsByQueue; ///< UDP ports 5001-5099 by TX queue
};

/**
 * Builds the link, with BQL on the sender's queues when asked, and sorts UDP source ports
 * 5001 to 5099 (to port 9) by the TX queue the sender's skb_tx_hash() gives them.
 * @param bql whether the sender's TX queues have ByteQueueLimits
 * @param link the link to fill
 */
void
MakeMqLink(bool bql, MqLink& link)
{
    link.nodes.Create(2);
    NicHelper helper;
    helper.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    helper.SetDeviceAttribute("TxQueues", UintegerValue(2));
    NetDeviceContainer devices = helper.Install(link.nodes);
    link.sender = DynamicCast<NicNetDevice>(devices.Get(0));
    link.sender->AssignStreams(1);
    InternetStackHelper internet;
    internet.Install(link.nodes);
    TrafficControlHelper tc;
    TcQdiscHelper::SetRootQueueDisc(tc,
                                    "mq; parent :1 pfifo limit 1000; parent :2 pfifo limit 1000",
                                    1000,
                                    2);
    tc.Install(devices.Get(0));
    if (bql)
    {
        ByteQueueLimitsHelper().Install(devices.Get(0));
    }
    Ipv4AddressHelper address;
    address.SetBase("10.1.1.0", "255.255.255.0");
    link.interfaces = address.Assign(devices);
    compat::PopulateNeighborCaches();
    for (uint16_t port = 5001; port < 5100; port++)
    {
        UdpHeader udp;
        udp.SetSourcePort(port);
        udp.SetDestinationPort(9);
        Ptr<Packet> packet = Create<Packet>(1472);
        packet->AddHeader(udp);
        Ipv4Header ip;
        ip.SetSource(link.interfaces.GetAddress(0));
        ip.SetDestination(link.interfaces.GetAddress(1));
        ip.SetProtocol(17);
        ip.SetPayloadSize(packet->GetSize());
        const std::size_t queue =
            link.sender->SelectTxQueue(Create<Ipv4QueueDiscItem>(packet, Address(), 0x0800, ip));
        link.portsByQueue[static_cast<uint32_t>(queue)].push_back(port);
    }
}

/**
 * Sends a 1472-byte datagram (1538 bytes on the wire) now and the next one an interval
 * later, until the simulation stops.
 * @param socket the flow's socket
 * @param interval between datagrams
 */
void
SendPeriodic(Ptr<Socket> socket, Time interval)
{
    socket->Send(Create<Packet>(1472));
    Simulator::Schedule(interval, &SendPeriodic, socket, interval);
}

/**
 * Starts a UDP flow from the link's sender to the receiver's port 9.
 * @param link the link
 * @param port the flow's source port
 * @param interval between datagrams
 * @return the flow's socket
 */
Ptr<Socket>
StartFlow(MqLink& link, uint16_t port, Time interval)
{
    Ptr<Socket> source = Socket::CreateSocket(link.nodes.Get(0), UdpSocketFactory::GetTypeId());
    source->Bind(InetSocketAddress(Ipv4Address::GetAny(), port));
    source->Connect(InetSocketAddress(link.interfaces.GetAddress(1), 9));
    Simulator::ScheduleNow(&SendPeriodic, source, interval);
    return source;
}

/**
 * @ingroup debloat-tests
 * @brief Under mq, flows that share a TX queue share that queue's turn: the hardware serves
 * its backlogged queues in turn, a frame each (the birthday problem's cost).
 *
 * A 100 Mbit/s NIC with 2 TX queues under "mq; parent :1 pfifo limit 1000; parent :2 pfifo
 * limit 1000" sends three UDP flows of 1472-byte datagrams (1538 bytes on the wire,
 * T = 123.04 us), each at 0.6 of the line (one every T / 0.6 = 205.07 us): two flows whose
 * ports skb_tx_hash() puts on one TX queue (the device's own choice, read from its
 * SelectTxQueue()) and one alone on the other. Both queues stay backlogged (1.2 and 0.6 of
 * the line offered, 0.5 served each), so the hardware alternates them frame by frame: over
 * W = 0.4 s the receiver gets W / T = 3251 frames, W / 2T = 1625.5 of the lone flow and
 * W / 4T = 812.7 of each sharing flow (its pfifo holds the two flows' datagrams in their
 * alternating arrival order), within a frame for the window's edges.
 */
class MqSharedQueueTestCase : public TestCase
{
  public:
    MqSharedQueueTestCase()
        : TestCase("Under mq, two flows on one TX queue each get half of a lone flow's share")
    {
    }

  private:
    void DoRun() override
    {
        MqLink link;
        MakeMqLink(false, link);
        std::map<uint32_t, std::vector<uint16_t>>& byQueue = link.portsByQueue;
        NS_TEST_ASSERT_MSG_EQ(byQueue.size(), 2, "ports on both queues");
        const uint32_t shared = byQueue[0].size() >= 2 ? 0 : 1;
        const std::vector<uint16_t> ports{byQueue[shared][0],
                                          byQueue[shared][1],
                                          byQueue[1 - shared][0]};

        Ptr<Socket> sink = Socket::CreateSocket(link.nodes.Get(1), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        sink->SetRecvCallback(MakeCallback(&MqSharedQueueTestCase::Received, this));
        for (const uint16_t port : ports)
        {
            m_sources.push_back(StartFlow(link, port, NanoSeconds(205067))); // T / 0.6
        }
        Simulator::Stop(MilliSeconds(600));
        Simulator::Run();
        // W / 4T = 812.7 for each sharing flow, W / 2T = 1625.5 for the lone one.
        const std::vector<double> expected{812.7, 812.7, 1625.5};
        for (std::size_t i = 0; i < ports.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(m_received[ports[i]]),
                                      expected[i],
                                      1,
                                      "flow from port " << ports[i]);
        }
        Simulator::Destroy();
    }

    /**
     * Counts the datagrams of each flow that arrive in the window [0.1 s, 0.5 s).
     * @param socket the sink
     */
    void Received(Ptr<Socket> socket)
    {
        Address from;
        while (Ptr<Packet> packet = socket->RecvFrom(from))
        {
            const Time now = Simulator::Now();
            if (now >= MilliSeconds(100) && now < MilliSeconds(500))
            {
                m_received[InetSocketAddress::ConvertFrom(from).GetPort()]++;
            }
        }
    }

    std::vector<Ptr<Socket>> m_sources;      ///< the flows' sockets
    std::map<uint16_t, uint32_t> m_received; ///< datagrams in the window, by source port
};

/**
 * @ingroup debloat-tests
 * @brief Each TX queue has its own BQL: a loaded queue's limit moves, an idle one's does not.
 *
 * The same link with ByteQueueLimits on both TX queues and one UDP flow at 1.2 times the
 * line (a datagram every T / 1.2 = 102.53 us) on one queue. Its DQL must grow from its
 * initial limit 0 (limit_min) to at least one frame, 1514 bytes, or the queue would stop
 * after every packet and idle the wire; it holds at most its limit plus the last packet in
 * flight. The other queue sees no packet: no dql_queued(), no dql_completed(), so its limit
 * and inflight stay 0.
 */
class MqBqlPerQueueTestCase : public TestCase
{
  public:
    MqBqlPerQueueTestCase()
        : TestCase("Each TX queue's BQL limit moves with its own traffic only")
    {
    }

  private:
    void DoRun() override
    {
        MqLink link;
        MakeMqLink(true, link);
        NS_TEST_ASSERT_MSG_EQ(link.portsByQueue.count(0), 1, "a port on queue 0");
        Ptr<Socket> flow = StartFlow(link, link.portsByQueue[0].front(), NanoSeconds(102533));
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();
        Ptr<ByteQueueLimits> loaded = ByteQueueLimitsHelper::Get(link.sender, 0);
        Ptr<ByteQueueLimits> idle = ByteQueueLimitsHelper::Get(link.sender, 1);
        NS_TEST_ASSERT_MSG_NE(loaded, nullptr, "BQL on queue 0");
        NS_TEST_ASSERT_MSG_NE(idle, nullptr, "BQL on queue 1");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(loaded->GetLimit(), 1514, "the loaded queue's limit");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(loaded->GetInflight(),
                                    loaded->GetLimit() + 1514,
                                    "the loaded queue's bytes in flight");
        NS_TEST_EXPECT_MSG_EQ(idle->GetLimit(), 0, "the idle queue's limit");
        NS_TEST_EXPECT_MSG_EQ(idle->GetInflight(), 0, "the idle queue's bytes in flight");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief XPS steers a host's own packets by the sending CPU: without a HostCpu that is CPU 0.
 *
 * The MqLink sender (2 TX queues) with XpsCpus "0,1": CPU 0's mask is on TX queue 1 only,
 * so every datagram of four flows, sent from process context (no poll running) on CPU 0,
 * takes TX queue 1 whatever skb_tx_hash() would pick (two ports of each hash queue); with
 * XpsCpus "1,0", queue 0. The TX queue is read from the datagrams' children under mq.
 */
class XpsLocalTestCase : public TestCase
{
  public:
    XpsLocalTestCase()
        : TestCase("XPS: a host's packets take the TX queue of the sending CPU's mask")
    {
    }

  private:
    void DoRun() override
    {
        for (const auto& [masks, queue] :
             std::vector<std::pair<std::string, uint32_t>>{{"0,1", 1}, {"1,0", 0}})
        {
            // The ports' skb_tx_hash() queues, from a link without XPS whose sender has the
            // same streams, so the same flow-hash key.
            std::map<uint32_t, std::vector<uint16_t>> portsByQueue;
            {
                MqLink hashed;
                MakeMqLink(false, hashed);
                portsByQueue = hashed.portsByQueue;
                Simulator::Destroy();
            }
            NS_TEST_ASSERT_MSG_EQ(portsByQueue.size(), 2, "ports hash to both queues");
            Config::SetDefault("ns3::debloat::NicNetDevice::XpsCpus", StringValue(masks));
            MqLink link;
            MakeMqLink(false, link);
            Config::Reset();
            std::vector<Ptr<Socket>> flows;
            for (const auto& [hashQueue, ports] : portsByQueue)
            {
                flows.push_back(StartFlow(link, ports.front(), MicroSeconds(500)));
                flows.push_back(StartFlow(link, ports.back(), MicroSeconds(500)));
            }
            Simulator::Stop(MilliSeconds(10));
            Simulator::Run();
            Ptr<TrafficControlLayer> tc = link.nodes.Get(0)->GetObject<TrafficControlLayer>();
            Ptr<QueueDisc> root = tc->GetRootQueueDiscOnDevice(link.sender);
            const uint64_t sent =
                root->GetQueueDiscClass(queue)->GetQueueDisc()->GetStats().nTotalSentPackets;
            const uint64_t other =
                root->GetQueueDiscClass(1 - queue)->GetQueueDisc()->GetStats().nTotalSentPackets;
            // 4 flows x 20 datagrams (one per 500 us over 10 ms).
            NS_TEST_EXPECT_MSG_EQ(sent, 80, "XpsCpus " << masks << ": TX queue " << queue);
            NS_TEST_EXPECT_MSG_EQ(other, 0, "XpsCpus " << masks << ": the other queue");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief The TX queue's flow hash (QueueDiscItemTupleHash, the ports read as the flow
 * dissector reads them) equals ns-3's QueueDiscItem::Hash() bit for bit, so the queue
 * choice (reciprocal_scale() of it) is ns-3's: for TCP segments with options (timestamps on
 * every segment, window scale and SACK-permitted on a SYN), UDP, ICMP, IPv4 first and later
 * fragments, IPv6 TCP, UDP, ICMPv6 and a hop-by-hop header, random addresses and ports, and
 * perturbations 0, 1, 0xdeadbeef and random ones.
 */
class TupleHashTestCase : public TestCase
{
  public:
    TupleHashTestCase()
        : TestCase("The TX queue hash equals ns-3's QueueDiscItem::Hash()")
    {
    }

  private:
    /**
     * @param protocol 6, 17 or another
     * @param syn for TCP: a SYN with its options
     * @param random the source of ports
     * @return a transport payload as the protocol's header and 100 bytes
     */
    static Ptr<Packet> Payload(uint8_t protocol, bool syn, std::mt19937& random)
    {
        Ptr<Packet> packet = Create<Packet>(100);
        const auto port = [&random]() { return static_cast<uint16_t>(random()); };
        if (protocol == 6)
        {
            TcpHeader tcp;
            tcp.SetSourcePort(port());
            tcp.SetDestinationPort(port());
            tcp.SetFlags(syn ? TcpHeader::SYN : TcpHeader::ACK);
            Ptr<TcpOptionTS> ts = CreateObject<TcpOptionTS>();
            ts->SetTimestamp(static_cast<uint32_t>(random()));
            tcp.AppendOption(ts);
            if (syn)
            {
                tcp.AppendOption(CreateObject<TcpOptionWinScale>());
                tcp.AppendOption(CreateObject<TcpOptionSackPermitted>());
            }
            packet->AddHeader(tcp);
        }
        else if (protocol == 17)
        {
            UdpHeader udp;
            udp.SetSourcePort(port());
            udp.SetDestinationPort(port());
            packet->AddHeader(udp);
        }
        return packet;
    }

    void DoRun() override
    {
        std::mt19937 random(20261203);
        const auto address4 = [&random]() { return Ipv4Address(static_cast<uint32_t>(random())); };
        const auto address6 = [&random]() {
            uint8_t bytes[16];
            for (uint8_t& byte : bytes)
            {
                byte = static_cast<uint8_t>(random());
            }
            return Ipv6Address(bytes);
        };
        std::vector<uint32_t> perturbations{0, 1, 0xdeadbeef};
        for (int i = 0; i < 5; ++i)
        {
            perturbations.push_back(static_cast<uint32_t>(random()));
        }
        uint32_t compared = 0;
        for (int round = 0; round < 50; ++round)
        {
            for (const uint8_t protocol : {uint8_t{6}, uint8_t{17}, uint8_t{1}})
            {
                for (const uint16_t fragmentOffset : {0, 0, 1480})
                {
                    Ipv4Header ip;
                    ip.SetSource(address4());
                    ip.SetDestination(address4());
                    ip.SetProtocol(protocol);
                    ip.SetFragmentOffset(fragmentOffset);
                    if (fragmentOffset == 0 && round % 2 == 1)
                    {
                        ip.SetMoreFragments(); // a first fragment: ns-3 hashes its ports
                    }
                    Ptr<Packet> payload = Payload(protocol, round % 3 == 0, random);
                    Ptr<Ipv4QueueDiscItem> item =
                        Create<Ipv4QueueDiscItem>(payload, Address(), 0x0800, ip);
                    for (const uint32_t p : perturbations)
                    {
                        NS_TEST_ASSERT_MSG_EQ(QueueDiscItemTupleHash(PeekPointer(item), p),
                                              item->Hash(p),
                                              "IPv4 protocol " << +protocol << " offset "
                                                               << fragmentOffset);
                        ++compared;
                    }
                }
            }
            for (const uint8_t next : {uint8_t{6}, uint8_t{17}, uint8_t{58}, uint8_t{0}})
            {
                Ipv6Header ip;
                ip.SetSource(address6());
                ip.SetDestination(address6());
                ip.SetNextHeader(next);
                Ptr<Packet> payload = Payload(next, round % 3 == 0, random);
                Ptr<Ipv6QueueDiscItem> item =
                    Create<Ipv6QueueDiscItem>(payload, Address(), 0x86DD, ip);
                for (const uint32_t p : perturbations)
                {
                    NS_TEST_ASSERT_MSG_EQ(QueueDiscItemTupleHash(PeekPointer(item), p),
                                          item->Hash(p),
                                          "IPv6 next header " << +next);
                    ++compared;
                }
            }
        }
        // 50 rounds x (9 IPv4 + 4 IPv6 items) x 8 perturbations.
        NS_TEST_EXPECT_MSG_EQ(compared, 50 * 13 * 8, "every case compared");
    }
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-multiqueue test suite.
 */
class MultiqueueTestSuite : public TestSuite
{
  public:
    MultiqueueTestSuite()
        : TestSuite("debloat-multiqueue", compat::SUITE_UNIT)
    {
        AddTestCase(new RssQueueSelectionTestCase(), compat::TEST_QUICK);
        AddTestCase(new RssPollTestCase(), compat::TEST_QUICK);
        AddTestCase(new RecordRxQueueTestCase(), compat::TEST_QUICK);
        AddTestCase(new RecordRxQueueTestCase("1,2"), compat::TEST_QUICK);
        AddTestCase(new RecordRxQueueTestCase("2,1"), compat::TEST_QUICK);
        AddTestCase(new XpsLocalTestCase(), compat::TEST_QUICK);
        AddTestCase(new MqSharedQueueTestCase(), compat::TEST_QUICK);
        AddTestCase(new MqBqlPerQueueTestCase(), compat::TEST_QUICK);
        AddTestCase(new BirthdayTestCase(false), compat::TEST_QUICK);
        AddTestCase(new BirthdayTestCase(true), compat::TEST_QUICK);
        AddTestCase(new TupleHashTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's instance.
MultiqueueTestSuite g_multiqueueTestSuite;

} // namespace
