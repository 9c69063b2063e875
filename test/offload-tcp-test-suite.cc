/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * TSO, GSO, GRO and TCP small queues end to end over NicTopologyHelper links: every byte a
 * TCP sender writes arrives, every frame the wire carries is received, and TSQ bounds what
 * one socket has below it.
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/gso-traffic-control-layer.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/network-module.h"
#include "ns3/nic-net-device.h"
#include "ns3/nic-topology-helper.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// Bytes each bulk transfer writes.
constexpr uint32_t BULK_BYTES = 4000000;

/// What one bulk transfer left behind.
struct BulkResult
{
    uint64_t received{0};                        ///< bytes the sink got
    NicNetDevice::Stats senderNic;               ///< the sender's NIC
    NicNetDevice::Stats receiverNic;             ///< the receiver's NIC
    NicNetDevice::Stats routerEgress;            ///< the router's NIC toward the receiver
    NicNetDevice::Stats routerIngress;           ///< the router's NIC toward the sender
    uint64_t routerQdiscDrops{0};                ///< drops in the router's egress queue disc
    uint64_t senderQdiscDrops{0};                ///< drops in the sender's queue disc
    GsoTrafficControlLayer::Stats layer;         ///< the router's egress layer (if any)
    GsoTrafficControlLayer::Stats receiverLayer; ///< the receiver's layer (if any)
    uint32_t maxRingDescriptors{0};              ///< most descriptors in the sender's ring
    uint64_t maxTsqBytes{0};                     ///< most truesize below the sender's socket
};

/**
 * Runs a bulk TCP transfer of BULK_BYTES from the left host to the right host.
 * @param left the left (sender) end of the first link
 * @param right the receiver's end
 * @param router whether a router sits between them (left link and right link at 1 Gbit/s)
 * @param routerOffloads the router's ethtool -K words on both interfaces
 * @return the counters
 */
BulkResult
RunBulk(const NicInterfaceConfig& left,
        const NicInterfaceConfig& right,
        bool router,
        const std::string& routerOffloads = "")
{
    LinuxTcpDefaults::Apply();
    NicTopologyHelper topology;
    NicLinkConfig leftLink;
    leftLink.rate = "1Gbps";
    leftLink.delay = MicroSeconds(50);
    leftLink.left = left;
    NicLinkConfig rightLink = leftLink;
    rightLink.left = NicInterfaceConfig();
    rightLink.right = right;
    if (router)
    {
        leftLink.right.offloads = routerOffloads;
        rightLink.left.offloads = routerOffloads;
        topology.SetRouters(1);
    }
    else
    {
        leftLink.right = right;
    }
    topology.SetLeftHosts(1, leftLink);
    topology.SetRightHosts(1, rightLink);
    topology.Install();

    Ptr<Node> sender = topology.GetLeft(0);
    Ptr<Node> receiver = topology.GetRight(0);
    BulkSendHelper bulk("ns3::TcpSocketFactory",
                        InetSocketAddress(topology.GetRightAddress(0), 5001));
    bulk.SetAttribute("MaxBytes", UintegerValue(BULK_BYTES));
    bulk.Install(sender).Start(MilliSeconds(1));
    PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 5001));
    ApplicationContainer sinks = sinkHelper.Install(receiver);

    BulkResult result;
    auto senderNic = DynamicCast<NicNetDevice>(sender->GetDevice(1));
    senderNic->TraceConnectWithoutContext(
        "TxRing",
        MakeCallback(+[](BulkResult* r, uint32_t, uint32_t descriptors, uint64_t) {
            r->maxRingDescriptors = std::max(r->maxRingDescriptors, descriptors);
        }).Bind(&result));
    if (auto layer = senderNic->GetObject<GsoTrafficControlLayer>())
    {
        layer->TraceConnectWithoutContext(
            "TsqBytes",
            MakeCallback(+[](BulkResult* r, uint32_t, uint64_t bytes) {
                r->maxTsqBytes = std::max(r->maxTsqBytes, bytes);
            }).Bind(&result));
    }
    Simulator::Stop(Seconds(2));
    Simulator::Run();

    result.received = DynamicCast<PacketSink>(sinks.Get(0))->GetTotalRx();
    result.senderNic = senderNic->GetStats();
    auto receiverNic = DynamicCast<NicNetDevice>(receiver->GetDevice(1));
    result.receiverNic = receiverNic->GetStats();
    if (auto layer = receiverNic->GetObject<GsoTrafficControlLayer>())
    {
        result.receiverLayer = layer->GetStats();
    }
    Ptr<TrafficControlLayer> tc = sender->GetObject<TrafficControlLayer>();
    result.senderQdiscDrops =
        tc->GetRootQueueDiscOnDevice(senderNic)->GetStats().nTotalDroppedPackets;
    if (router)
    {
        Ptr<Node> r = topology.GetRouter(0);
        auto ingress = DynamicCast<NicNetDevice>(r->GetDevice(1));
        auto egress = DynamicCast<NicNetDevice>(r->GetDevice(2));
        result.routerIngress = ingress->GetStats();
        result.routerEgress = egress->GetStats();
        result.routerQdiscDrops = r->GetObject<TrafficControlLayer>()
                                      ->GetRootQueueDiscOnDevice(egress)
                                      ->GetStats()
                                      .nTotalDroppedPackets;
        if (auto layer = egress->GetObject<GsoTrafficControlLayer>())
        {
            result.layer = layer->GetStats();
        }
    }
    Simulator::Destroy();
    return result;
}

/**
 * @ingroup debloat-tests
 * @brief TSO and GRO between two hosts: every byte and every frame arrives.
 *
 * The sender's e1000e with tso, gso and gro on hands its NIC super-packets; the receiver's
 * GRO merges the frames. Conservation: TCP delivers the 4,000,000 bytes; no queue disc or
 * NIC drops anything, so the frames the sender's wire carried (tx_packets, one per segment)
 * are the frames the receiver took in (rx_packets counts the frames GRO merged). TSO was
 * used (super-packets posted) and GRO merged (GRO packets passed up).
 */
class OffloadBulkConservationTestCase : public TestCase
{
  public:
    OffloadBulkConservationTestCase()
        : TestCase("TSO + GRO bulk transfer: every byte and every frame arrives")
    {
    }

  private:
    void DoRun() override
    {
        NicInterfaceConfig end;
        end.offloads = "tso on gso on gro on";
        const BulkResult r = RunBulk(end, end, false);
        NS_TEST_EXPECT_MSG_EQ(r.received, BULK_BYTES, "every byte");
        NS_TEST_EXPECT_MSG_GT(r.senderNic.tsoPackets, 0, "super-packets went to the NIC");
        NS_TEST_EXPECT_MSG_GT(r.receiverNic.groPackets, 0, "the receiver merged");
        NS_TEST_EXPECT_MSG_EQ(r.senderNic.txDropped + r.senderQdiscDrops, 0, "no drop");
        NS_TEST_EXPECT_MSG_EQ(r.receiverNic.rxMissed + r.receiverNic.rxDropped, 0, "no drop");
        // The receiver's TX carried its ACKs; its frames in equal the sender's frames out.
        NS_TEST_EXPECT_MSG_EQ(r.receiverNic.rxPackets, r.senderNic.txPackets, "frames");
        // Its other frames: the SYN-ACK and its FIN (no ARP: the topology helper filled the
        // neighbour caches): 1 or 2 that are not pure ACKs.
        NS_TEST_EXPECT_MSG_LT_OR_EQ(r.receiverLayer.pureAcks + 1, r.receiverNic.txPackets, "ACKs");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(r.receiverLayer.pureAcks + 2, r.receiverNic.txPackets, "ACKs");
    }
};

/**
 * @ingroup debloat-tests
 * @brief A router that GROs its input forwards super-packets and segments them on egress,
 * by TSO or in software, and loses nothing.
 *
 * Hosts without offloads; the router with gro on (and tso on, or off) on both NICs. The
 * router's egress layer joins the GRO packets again (its groPackets count), the egress NIC
 * TSOs them (tsoPackets) or segments them in software (gsoPackets). Conservation, link by
 * link: nothing is dropped, so the frames each wire carried are the frames its far end
 * took in (sender -> router ingress, router egress -> receiver), and TCP delivers every
 * byte.
 */
class OffloadRouterTestCase : public TestCase
{
  public:
    OffloadRouterTestCase()
        : TestCase("a GRO router forwards super-packets by TSO or software GSO, losing none")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string words : {"gro on tso on", "gro on"})
        {
            const BulkResult r = RunBulk(NicInterfaceConfig(), NicInterfaceConfig(), true, words);
            NS_TEST_EXPECT_MSG_EQ(r.received, BULK_BYTES, words << ": every byte");
            NS_TEST_EXPECT_MSG_GT(r.layer.groPackets, 0, words << ": GRO packets forwarded");
            if (words == std::string("gro on tso on"))
            {
                NS_TEST_EXPECT_MSG_GT(r.routerEgress.tsoPackets, 0, words << ": TSO on egress");
                NS_TEST_EXPECT_MSG_EQ(r.routerEgress.gsoPackets, 0, words);
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(r.routerEgress.gsoPackets, 0, words << ": software GSO");
                NS_TEST_EXPECT_MSG_EQ(r.routerEgress.tsoPackets, 0, words);
            }
            NS_TEST_EXPECT_MSG_EQ(r.routerEgress.txDropped + r.routerQdiscDrops, 0, words);
            NS_TEST_EXPECT_MSG_EQ(r.receiverNic.rxPackets, r.routerEgress.txPackets, words);
            NS_TEST_EXPECT_MSG_EQ(r.routerIngress.rxPackets, r.senderNic.txPackets, words);
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief TCP small queues bound what one socket has in the queue disc and the ring.
 *
 * Without offloads every skb is one 1448-byte segment, truesize 1280 + 1448 = 2728. With
 * tcp_limit_output_bytes 10000 the limit is min(max(2 x 2728, rate >> 10), 10000) <= 10000,
 * and an skb goes while sk_wmem_alloc <= limit: after 0, 2728, 5456 and 8184 bytes, not
 * after 10912. So at most 4 skbs (10912 bytes) are below the socket, and the e1000e ring,
 * 2 descriptors per frame, holds at most 4 data frames and the handshake's final ACK that
 * goes in the same event as the first data (no TSQ charge: no payload): 10 descriptors.
 * Without TSQ the first flight alone is that ACK and the initial window, 11 frames, 22
 * descriptors.
 */
class TsqBoundTestCase : public TestCase
{
  public:
    TsqBoundTestCase()
        : TestCase("TSQ with tcp_limit_output_bytes 10000: at most 4 skbs below the socket")
    {
    }

  private:
    void DoRun() override
    {
        NicInterfaceConfig sender;
        sender.tsqLimitOutputBytes = 10000;
        const BulkResult tsq = RunBulk(sender, NicInterfaceConfig(), false);
        NS_TEST_EXPECT_MSG_EQ(tsq.received, BULK_BYTES, "every byte");
        NS_TEST_EXPECT_MSG_EQ(tsq.maxTsqBytes, 4 * 2728, "4 skbs of truesize 2728 at most");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(tsq.maxRingDescriptors, 10, "5 frames in the ring at most");

        const BulkResult plain = RunBulk(NicInterfaceConfig(), NicInterfaceConfig(), false);
        NS_TEST_EXPECT_MSG_EQ(plain.received, BULK_BYTES, "every byte");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(plain.maxRingDescriptors, 22, "the initial window");
    }
};

/**
 * @ingroup debloat-tests
 * @brief TSQ with TSO: the limit holds super-packets.
 *
 * With tso on the skbs are super-packets of up to 45 segments; tcp_limit_output_bytes
 * 100000 lets an skb go while sk_wmem_alloc <= 100000, so the most below the socket is
 * 100000 plus one skb, at most 1280 + 65160 = 66440 bytes of truesize: 166440. Every byte
 * arrives.
 */
class TsqWithTsoTestCase : public TestCase
{
  public:
    TsqWithTsoTestCase()
        : TestCase("TSQ with TSO: at most the limit plus one super-packet below the socket")
    {
    }

  private:
    void DoRun() override
    {
        NicInterfaceConfig sender;
        sender.offloads = "tso on gso on";
        sender.tsqLimitOutputBytes = 100000;
        const BulkResult r = RunBulk(sender, NicInterfaceConfig(), false);
        NS_TEST_EXPECT_MSG_EQ(r.received, BULK_BYTES, "every byte");
        NS_TEST_EXPECT_MSG_GT(r.senderNic.tsoPackets, 0, "TSO used");
        NS_TEST_EXPECT_MSG_GT(r.maxTsqBytes, 0, "TSQ charged");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(r.maxTsqBytes, 100000 + 66440, "limit + one skb");
    }
};

/**
 * @ingroup debloat-tests
 * @brief The presets' seed hosts: the offloads the seeds' drivers had and TSQ where the
 * seed's kernel had it.
 *
 * Seed 002 (Linux 3.18): every NIC can TSO (e1000e, igb), so "tso on gso on gro on"
 * everywhere, and the NUCs run TSQ with 3.6 to 4.1's 131072 bytes; the router none (it
 * forwards). Seed 001 (2010): the iwl3945 card cannot TSO ("gso on gro on"), the wired
 * e1000e can, and no TSQ (before 3.6). Without seedHosts nothing is set.
 */
class SeedHostsPresetTestCase : public TestCase
{
  public:
    SeedHostsPresetTestCase()
        : TestCase("Preset(name, seedHosts): the seeds' offloads and TSQ")
    {
    }

  private:
    void DoRun() override
    {
        const std::string all = "tso on gso on gro on";
        NicTopologyHelper nuc = NicTopologyHelper::Preset("nuc-rangeley-nuc", true);
        NS_TEST_EXPECT_MSG_EQ(nuc.LeftLink(0).left.offloads, all, "nuc1");
        NS_TEST_EXPECT_MSG_EQ(nuc.LeftLink(0).right.offloads, all, "rangeley");
        NS_TEST_EXPECT_MSG_EQ(nuc.RightLink(0).right.offloads, all, "nuc2");
        NS_TEST_EXPECT_MSG_EQ(nuc.LeftLink(0).left.tsqLimitOutputBytes.value_or(0), 131072, "");
        NS_TEST_EXPECT_MSG_EQ(nuc.RightLink(0).right.tsqLimitOutputBytes.value_or(0), 131072, "");
        NS_TEST_EXPECT_MSG_EQ(nuc.LeftLink(0).right.tsqLimitOutputBytes.has_value(), false, "");

        NicTopologyHelper wifi = NicTopologyHelper::Preset("wifi-ap", true);
        NS_TEST_EXPECT_MSG_EQ(wifi.LeftLink(0).left.offloads, "gso on gro on", "iwl3945");
        NS_TEST_EXPECT_MSG_EQ(wifi.RightLink(0).right.offloads, all, "e1000e");
        NS_TEST_EXPECT_MSG_EQ(wifi.LeftLink(0).left.tsqLimitOutputBytes.has_value(), false, "");

        NicTopologyHelper plain = NicTopologyHelper::Preset("nuc-rangeley-nuc");
        NS_TEST_EXPECT_MSG_EQ(plain.LeftLink(0).left.offloads, "", "off by default");
        NS_TEST_EXPECT_MSG_EQ(plain.LeftLink(0).left.tsqLimitOutputBytes.has_value(), false, "");
    }
};

/**
 * @ingroup debloat-tests
 * @brief The offload suite.
 */
class OffloadTcpTestSuite : public TestSuite
{
  public:
    OffloadTcpTestSuite()
        : TestSuite("debloat-offload-tcp", compat::SUITE_UNIT)
    {
        AddTestCase(new OffloadBulkConservationTestCase, compat::TEST_QUICK);
        AddTestCase(new OffloadRouterTestCase, compat::TEST_QUICK);
        AddTestCase(new TsqBoundTestCase, compat::TEST_QUICK);
        AddTestCase(new TsqWithTsoTestCase, compat::TEST_QUICK);
        AddTestCase(new SeedHostsPresetTestCase, compat::TEST_QUICK);
    }
};

/// The suite's instance.
OffloadTcpTestSuite g_offloadTcpTestSuite;

} // namespace
