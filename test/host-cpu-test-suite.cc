/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * HostCpu on a NicNetDevice link, with exact expected times derived in comments: a burst
 * received in one interrupt goes up p + N c after its poll starts, the CPU's usage is the
 * sum of the costs, repolls restart the softirq loop until ksoftirqd takes over, and without
 * a HostCpu the poll takes no time.
 *
 * The link: 1 Gbit/s, no propagation delay. A 1500-byte payload is a 1514-byte frame that
 * holds the wire for 1538 bytes: T = 1538 x 8 / 10^9 s = 12.304 us, and frame k of a burst
 * sent at t = 0 arrives at k T. The receiver's rx-usecs is 1 ms, so its RX interrupt fires
 * at T + 1000 us (1 ms after the first frame's arrival, with the whole burst in the ring),
 * and its SoftirqDelay is 10 us: the poll starts at P0 = T + 1010 us (as in
 * nic-net-device-test-suite.cc's NAPI tests). Receiver's CPU: HardIrqCost h = 1 us,
 * PollCost p = 2 us, RxPacketCost c = 1.5 us, SchedulingLatency 50 us.
 */

#include "debloat-test-utils.h"

#include "ns3/cake-queue-disc.h"
#include "ns3/core-module.h"
#include "ns3/cpu-profile.h"
#include "ns3/debloat-compat.h"
#include "ns3/host-cpu-helper.h"
#include "ns3/host-cpu.h"
#include "ns3/htb-queue-disc.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/netperf-client.h"
#include "ns3/netperf-helper.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/nic-net-device.h"
#include "ns3/no-queue-disc.h"
#include "ns3/tc-qdisc-helper.h"
#include "ns3/traffic-control-module.h"

#include <map>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// Frame time at 1 Gbit/s: 1538 bytes x 8 ns.
const Time FRAME = NanoSeconds(12304);
/// When the receiver's poll starts: the first frame, rx-usecs 1 ms, SoftirqDelay 10 us.
const Time POLL_START = FRAME + MicroSeconds(1010);

/// A receiver with an optional HostCpu.
struct CpuLink
{
    NodeContainer nodes;                       ///< sender, receiver
    Ptr<NicNetDevice> tx;                      ///< sender
    Ptr<NicNetDevice> rx;                      ///< receiver
    Ptr<HostCpu> cpu;                          ///< the receiver's CPU, if any
    std::vector<Time> upAt;                    ///< when each frame went up the receiver's stack
    std::vector<std::vector<uint32_t>> states; ///< (time ns, from, to) of the core
};

/**
 * Records a frame passed up.
 * @param link the link
 * @param packet the packet
 */
void
RecordUp(CpuLink* link, Ptr<const Packet> packet)
{
    link->upAt.push_back(Simulator::Now());
}

/**
 * Records when the receiver passes each frame up.
 * @param link the link
 * @return whether the trace connected
 */
bool
ConnectRecordUp(CpuLink& link)
{
    return link.rx->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&RecordUp, &link));
}

/**
 * Builds the link; the receiver gets a HostCpu when asked.
 * @param napiWeight the receiver's NapiWeight
 * @param withCpu whether to aggregate a HostCpu to the receiver's node
 * @param link the link to fill
 * @param cpuNode the node that gets the HostCpu (1: the receiver)
 */
void
MakeCpuLink(uint32_t napiWeight, bool withCpu, CpuLink& link, uint32_t cpuNode = 1)
{
    NicHelper helper;
    helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    helper.SetDeviceAttribute("NapiWeight", UintegerValue(napiWeight));
    helper.SetDeviceAttribute("RxUsecs", TimeValue(MilliSeconds(1)));
    helper.SetDeviceAttribute("SoftirqDelay",
                              StringValue("ns3::ConstantRandomVariable[Constant=0.00001]"));
    link.nodes.Create(2);
    NetDeviceContainer devices = helper.Install(link.nodes);
    link.tx = DynamicCast<NicNetDevice>(devices.Get(0));
    link.rx = DynamicCast<NicNetDevice>(devices.Get(1));
    if (withCpu)
    {
        link.cpu = CreateObject<HostCpu>();
        link.cpu->SetAttribute("HardIrqCost", TimeValue(MicroSeconds(1)));
        link.cpu->SetAttribute("PollCost", TimeValue(MicroSeconds(2)));
        link.cpu->SetAttribute("RxPacketCost", TimeValue(NanoSeconds(1500)));
        link.cpu->SetAttribute("SchedulingLatency",
                               StringValue("ns3::ConstantRandomVariable[Constant=0.00005]"));
        link.cpu->AssignStreams(1);
        link.cpu->SetAttribute("TxPacketCost", TimeValue(NanoSeconds(500)));
        link.nodes.Get(cpuNode)->AggregateObject(link.cpu);
    }
}

/**
 * Sends count 1500-byte packets from the sender at once.
 * @param link the link
 * @param count number of packets
 */
void
SendBurst(CpuLink* link, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
    {
        link->tx->Send(Create<Packet>(1500), link->rx->GetAddress(), 0x0800);
    }
}

/**
 * @ingroup debloat-tests
 * @brief A burst of N frames received in one interrupt goes up p + N c after the poll
 * starts; without a HostCpu at the poll's start.
 *
 * N = 10 frames, NapiWeight 64: one poll at P0 passes all ten up (10 < 64, it completes).
 * With the HostCpu: the hard IRQ runs T + 1000 to T + 1001 us, before the poll; the poll
 * costs p + N c = 2 + 10 x 1.5 = 17 us, so every frame goes up at P0 + 17 us. Without it:
 * at P0. The core's states: hardirq from T + 1000 us to T + 1001 us, softirq from P0 to
 * P0 + 17 us, idle otherwise.
 *
 * Usage over [0, 2 ms): the sum of the costs, h + p + N c = 1 + 17 = 18 us, all of it in
 * the interval (P0 + 17 us = 1039.304 us): busy 18 / 2000 = 0.9 %; %irq 1 us, %soft 17 us.
 */
class HostCpuBurstTestCase : public TestCase
{
  public:
    /// @param withCpu whether the receiver has a HostCpu
    explicit HostCpuBurstTestCase(bool withCpu)
        : TestCase(withCpu ? "A burst of N frames goes up p + N c after the poll starts"
                           : "Without a HostCpu the poll takes no time"),
          m_withCpu(withCpu)
    {
    }

  private:
    void DoRun() override
    {
        CpuLink link;
        MakeCpuLink(64, m_withCpu, link);
        NS_TEST_ASSERT_MSG_EQ(ConnectRecordUp(link), true, "MacRx trace");
        if (m_withCpu)
        {
            NS_TEST_ASSERT_MSG_EQ(link.cpu->TraceConnectWithoutContext(
                                      "CoreState",
                                      MakeCallback(&HostCpuBurstTestCase::State, this)),
                                  true,
                                  "CoreState trace");
            Simulator::Schedule(MilliSeconds(2), &HostCpuBurstTestCase::Sample, this, &link);
        }
        Simulator::ScheduleNow(&SendBurst, &link, 10);
        Simulator::Stop(MilliSeconds(3));
        Simulator::Run();

        const Time up = m_withCpu ? POLL_START + MicroSeconds(17) : POLL_START;
        NS_TEST_ASSERT_MSG_EQ(link.upAt.size(), 10, "all ten frames up");
        for (std::size_t i = 0; i < link.upAt.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(link.upAt[i], up, "frame " << i << " up");
        }
        if (m_withCpu)
        {
            const int64_t t = FRAME.GetNanoSeconds();
            const int64_t p0 = POLL_START.GetNanoSeconds();
            const std::vector<std::vector<int64_t>> expected = {{t + 1000000, 3, 0},
                                                                {t + 1001000, 0, 3},
                                                                {p0, 3, 1},
                                                                {p0 + 17000, 1, 3}};
            NS_TEST_ASSERT_MSG_EQ(m_states.size(), expected.size(), "core state changes");
            for (std::size_t i = 0; i < expected.size(); i++)
            {
                for (std::size_t k = 0; k < 3; k++)
                {
                    NS_TEST_EXPECT_MSG_EQ(m_states[i][k], expected[i][k], "change " << i);
                }
            }
            const CpuCoreModel::Usage zero;
            NS_TEST_EXPECT_MSG_EQ(m_usage.busy[0], 1000, "irq time: h");
            NS_TEST_EXPECT_MSG_EQ(m_usage.busy[1], 17000, "softirq time: p + N c");
            NS_TEST_EXPECT_MSG_EQ(m_usage.busy[2], 0, "no task time");
            NS_TEST_EXPECT_MSG_EQ(m_usage.idle, 2000000 - 18000, "idle time");
            NS_TEST_EXPECT_MSG_EQ_TOL(CpuCoreModel::BusyFraction(zero, m_usage),
                                      18.0 / 2000.0,
                                      1e-12,
                                      "utilisation over [0, 2 ms)");
            NS_TEST_EXPECT_MSG_EQ(link.cpu->GetTimeSqueeze(0), 0, "no time_squeeze");
        }
        Simulator::Destroy();
    }

    /**
     * Records a core state change.
     * @param core the core
     * @param from the old state
     * @param to the new state
     */
    void State(uint32_t core, uint32_t from, uint32_t to)
    {
        m_states.push_back({Simulator::Now().GetNanoSeconds(), from, to});
    }

    /**
     * Samples the receiver's core 0.
     * @param link the link
     */
    void Sample(CpuLink* link)
    {
        m_usage = link->cpu->GetUsage(0);
    }

    bool m_withCpu;                             ///< the receiver has a HostCpu
    std::vector<std::vector<int64_t>> m_states; ///< (time ns, from, to)
    CpuCoreModel::Usage m_usage;                ///< usage at 2 ms
};

/**
 * @ingroup debloat-tests
 * @brief Repolls restart the softirq loop ten times, then ksoftirqd runs the rest.
 *
 * NapiWeight 1, 12 frames in one interrupt: every poll passes one frame up and uses its whole
 * weight, so it is polled again at once. Each costs p + c = 3.5 us. Polls 1 to 10 are
 * net_rx_action() runs 1 to 10 of one softirq invocation (0 to 35 us after P0, within 2 ms):
 * frame k goes up at P0 + 3.5 k us. The 11th finds handle_softirqs()'s restarts spent and
 * wakes ksoftirqd, which runs 50 us (SchedulingLatency) after the invocation ends: frame 11
 * at P0 + 35 + 50 + 3.5 = P0 + 88.5 us; ksoftirqd keeps the repolls: frame 12 at P0 + 92 us,
 * and, that poll too having used its weight, a last poll finds nothing and completes at
 * P0 + 94 us (cost p). ksoftirqd woken once; no run broke on a limit (one instance per run).
 * Usage: softirq 10 x 3.5 = 35 us, ksoftirqd (task) 3.5 + 3.5 + 2 = 9 us.
 */
class HostCpuKsoftirqdTestCase : public TestCase
{
  public:
    HostCpuKsoftirqdTestCase()
        : TestCase("Ten softirq runs, then ksoftirqd after the scheduling latency")
    {
    }

  private:
    void DoRun() override
    {
        CpuLink link;
        MakeCpuLink(1, true, link);
        NS_TEST_ASSERT_MSG_EQ(ConnectRecordUp(link), true, "MacRx trace");
        Simulator::ScheduleNow(&SendBurst, &link, 12);
        Simulator::Stop(MilliSeconds(3));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(link.upAt.size(), 12, "all twelve frames up");
        for (uint32_t k = 1; k <= 10; k++)
        {
            NS_TEST_EXPECT_MSG_EQ(link.upAt[k - 1],
                                  POLL_START + NanoSeconds(3500 * k),
                                  "frame " << k << " in softirq run " << k);
        }
        NS_TEST_EXPECT_MSG_EQ(link.upAt[10], POLL_START + NanoSeconds(88500), "frame 11");
        NS_TEST_EXPECT_MSG_EQ(link.upAt[11], POLL_START + MicroSeconds(92), "frame 12");
        NS_TEST_EXPECT_MSG_EQ(link.cpu->GetKsoftirqdWakeups(0), 1, "ksoftirqd woken once");
        NS_TEST_EXPECT_MSG_EQ(link.cpu->GetTimeSqueeze(0), 0, "no time_squeeze");
        const CpuCoreModel::Usage usage = link.cpu->GetUsage(0);
        NS_TEST_EXPECT_MSG_EQ(usage.busy[1], 35000, "softirq time");
        NS_TEST_EXPECT_MSG_EQ(usage.busy[2], 9000, "ksoftirqd time");
        NS_TEST_EXPECT_MSG_EQ(link.rx->GetStats().polls, 13, "13 polls");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief On the sender, the TX clean's effects wait for its CPU time, and so does the
 * interrupt's re-enable.
 *
 * Two frames sent at t = 0, the HostCpu on the sender (TxPacketCost 0.5 us); no TX
 * moderation, so a done frame asserts the interrupt at once unless it is masked, and its poll
 * follows SoftirqDelay 10 us later.
 * - Frame 1 is done at T = 12.304 us: interrupt (hard IRQ T to T + 1 us), poll at T + 10 us
 *   reclaims it, costing p + 1 x 0.5 = 2.5 us: its BQL completion and the Poll trace at
 *   T + 12.5 us = 24.804 us, when napi_complete_done() re-enables the interrupt.
 * - Frame 2 is done at 2T = 24.608 us, while the poll still runs (the interrupt masked): its
 *   cause stays latched and fires at the re-enable, 24.804 us; its poll at 34.804 us ends at
 *   37.304 us.
 * Without the HostCpu: polls at T + 10 = 22.304 us and, frame 2's interrupt coming at 2T
 * after the re-enable at 22.304 us, at 2T + 10 = 34.608 us.
 */
class HostCpuTxCleanTestCase : public TestCase
{
  public:
    /// @param withCpu whether the sender has a HostCpu
    explicit HostCpuTxCleanTestCase(bool withCpu)
        : TestCase(withCpu ? "TX clean effects and the re-enable wait for the poll's CPU time"
                           : "TX clean without a HostCpu"),
          m_withCpu(withCpu)
    {
    }

  private:
    void DoRun() override
    {
        CpuLink link;
        MakeCpuLink(64, m_withCpu, link, 0);
        NS_TEST_ASSERT_MSG_EQ(
            link.tx->TraceConnectWithoutContext("Poll",
                                                MakeCallback(&HostCpuTxCleanTestCase::Poll, this)),
            true,
            "Poll trace");
        Simulator::ScheduleNow(&SendBurst, &link, 2);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();

        const std::vector<Time> expected =
            m_withCpu ? std::vector<Time>{NanoSeconds(24804), NanoSeconds(37304)}
                      : std::vector<Time>{NanoSeconds(22304), NanoSeconds(34608)};
        NS_TEST_ASSERT_MSG_EQ(m_polls.size(), expected.size(), "two cleans");
        for (std::size_t i = 0; i < expected.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_polls[i], expected[i], "clean " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(link.tx->GetStats().txCompletions, 2, "two BQL completions");
        Simulator::Destroy();
    }

    /**
     * Records polls that reclaimed TX packets.
     * @param vector the vector
     * @param txPackets TX packets reclaimed
     * @param txBytes their bytes
     * @param rxPackets RX packets
     */
    void Poll(uint32_t vector, uint32_t txPackets, uint64_t txBytes, uint32_t rxPackets)
    {
        if (txPackets > 0)
        {
            m_polls.push_back(Simulator::Now());
        }
    }

    bool m_withCpu;            ///< the sender has a HostCpu
    std::vector<Time> m_polls; ///< times of the polls that reclaimed
};

/**
 * @ingroup debloat-tests
 * @brief A TX queue woken by a clean runs its queue disc when net_tx_action() has run.
 *
 * The sender's ring holds two descriptors (TxRingSize 2, stop and wake thresholds 1): two
 * frames sent at t = 0 fill it and the driver stops the queue. As in the TX clean test, the
 * poll that reclaims frame 1 ends at T + 12.5 us = 24.804 us with the HostCpu and frees a
 * descriptor, so the driver wakes the queue: __netif_schedule() raises NET_TX_SOFTIRQ. No
 * task was woken, so the invocation restarts for net_tx_action(), NetTxCost n. Frame 2's
 * interrupt, latched while the poll ran, fires at the poll's re-enable, 24.804 us, and its
 * hard IRQ (h = 1 us) preempts the softirq: net_tx_action() runs from 25.804 us and the
 * queue disc's wake callback runs at 24.804 + h + n: 28.804 us with n = 3 us, 27.804 us
 * with n = 2 us. Without a HostCpu the wake comes with the clean at T + 10 = 22.304 us. Frame
 * 2's clean finds the queue awake: one wake in all.
 */
class HostCpuNetTxTestCase : public TestCase
{
  public:
    /**
     * @param withCpu whether the sender has a HostCpu
     * @param netTxCost its NetTxCost
     */
    HostCpuNetTxTestCase(bool withCpu, Time netTxCost)
        : TestCase(withCpu ? "a woken TX queue's qdisc runs after net_tx_action(), NetTxCost " +
                                 std::to_string(netTxCost.GetNanoSeconds()) + " ns"
                           : "a woken TX queue's qdisc runs at the clean without a HostCpu"),
          m_withCpu(withCpu),
          m_netTxCost(netTxCost)
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::debloat::NicNetDevice::TxRingSize", UintegerValue(2));
        CpuLink link;
        MakeCpuLink(64, m_withCpu, link, 0);
        if (link.cpu)
        {
            link.cpu->SetAttribute("NetTxCost", TimeValue(m_netTxCost));
        }
        Ptr<NetDeviceQueueInterface> queues = link.tx->GetObject<NetDeviceQueueInterface>();
        NS_TEST_ASSERT_MSG_NE(queues, nullptr, "the sender's queue interface");
        queues->GetTxQueue(0)->SetWakeCallback(MakeCallback(&HostCpuNetTxTestCase::Woken, this));
        Simulator::ScheduleNow(&SendBurst, &link, 2);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();

        const Time expected =
            !m_withCpu ? NanoSeconds(22304) : NanoSeconds(24804) + MicroSeconds(1) + m_netTxCost;
        NS_TEST_ASSERT_MSG_EQ(m_wakes.size(), 1, "one wake");
        NS_TEST_EXPECT_MSG_EQ(m_wakes[0], expected, "the queue disc's wake");
        Simulator::Destroy();
        Config::Reset();
    }

    /// The queue disc's wake callback.
    void Woken()
    {
        m_wakes.push_back(Simulator::Now());
    }

    bool m_withCpu;            ///< the sender has a HostCpu
    Time m_netTxCost;          ///< its NetTxCost
    std::vector<Time> m_wakes; ///< when the wake callback ran
};

/**
 * Sends datagrams of 1472 bytes (1500-byte IP packets, 1514-byte frames) at once.
 * @param socket a connected UDP socket
 * @param count how many
 */
void
SendDatagrams(Ptr<Socket> socket, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
    {
        socket->Send(Create<Packet>(1472));
    }
}

/**
 * @ingroup debloat-tests
 * @brief net_tx_action()'s qdisc run stops after DevTxWeight packets and reschedules
 * itself, as __qdisc_run() does with its quota (dev_tx_weight, 64).
 *
 * The sender (IPv4, a pfifo root with no quota of its own, TxRingSize 160, tx-usecs 2 ms,
 * SoftirqDelay 10 us; HostCpu h = 1 us, p = 2 us, TxPacketCost t = 0.5 us, NetTxCost
 * n = 2 us) sends 300 datagrams of 1472 bytes at t = 0, 1514-byte frames of wire time
 * T = 12.304 us. The ring takes 160 (the 160th post leaves no free descriptor and stops the
 * queue); the pfifo keeps 140. Frame 1 is done at T, so the TX interrupt fires at
 * T + 2000 us = 2012.304 us, when all 160 are done (160 T = 1968.64 us), and its poll
 * starts 10 us later, at 2022.304 us, and reclaims all 160 (TxWorkLimit 256): it costs
 * p + 160 t = 82 us and ends at 2104.304 us, waking the queue. Nothing woke a task, so
 * the invocation restarts for net_tx_action(), done at t1 = 2104.304 + n = 2106.304 us.
 * - DevTxWeight 64: the run sends 64 and __netif_schedule()s the qdisc; each further
 *   net_tx_action() is another restart (3 passes, fewer than MAX_SOFTIRQ_RESTART 10, within
 *   2 ms): 64 at t1, 64 at t1 + n = 2108.304 us, the last 12 at t1 + 2n = 2110.304 us.
 * - DevTxWeight 200: all 140 at t1.
 * - Without a HostCpu: the wake comes with the clean at 2022.304 us and the qdisc's run has
 *   no quota: all 140 then.
 */
class HostCpuQdiscQuotaTestCase : public TestCase
{
  public:
    /**
     * @param withCpu whether the sender has a HostCpu
     * @param devTxWeight its DevTxWeight
     */
    HostCpuQdiscQuotaTestCase(bool withCpu, uint32_t devTxWeight)
        : TestCase(withCpu ? "net_tx_action()'s qdisc run sends DevTxWeight " +
                                 std::to_string(devTxWeight) + " packets, then reschedules"
                           : "without a HostCpu the woken qdisc's run has no quota"),
          m_withCpu(withCpu),
          m_devTxWeight(devTxWeight)
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        NicHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        helper.SetDeviceAttribute("TxRingSize", UintegerValue(160));
        helper.SetDeviceAttribute("TxUsecs", TimeValue(MilliSeconds(2)));
        helper.SetDeviceAttribute("SoftirqDelay",
                                  StringValue("ns3::ConstantRandomVariable[Constant=0.00001]"));
        NetDeviceContainer devices = helper.Install(nodes);
        if (m_withCpu)
        {
            Ptr<HostCpu> cpu = CreateObject<HostCpu>();
            cpu->SetAttribute("HardIrqCost", TimeValue(MicroSeconds(1)));
            cpu->SetAttribute("PollCost", TimeValue(MicroSeconds(2)));
            cpu->SetAttribute("TxPacketCost", TimeValue(NanoSeconds(500)));
            cpu->SetAttribute("NetTxCost", TimeValue(MicroSeconds(2)));
            cpu->SetAttribute("DevTxWeight", UintegerValue(m_devTxWeight));
            cpu->AssignStreams(1);
            nodes.Get(0)->AggregateObject(cpu);
        }
        InternetStackHelper internet;
        internet.Install(nodes);
        TrafficControlHelper tc;
        TcQdiscHelper::SetRootQueueDisc(tc, "pfifo limit 1000");
        QueueDiscContainer qdiscs = tc.Install(devices.Get(0));
        NS_TEST_ASSERT_MSG_EQ(qdiscs.Get(0)->TraceConnectWithoutContext(
                                  "Dequeue",
                                  MakeCallback(&HostCpuQdiscQuotaTestCase::Dequeued, this)),
                              true,
                              "Dequeue trace");
        Ipv4AddressHelper address;
        address.SetBase("10.1.1.0", "255.255.255.0");
        const Ipv4InterfaceContainer interfaces = address.Assign(devices);
        compat::PopulateNeighborCaches();
        // A bound receiver: no ICMP port unreachable comes back to the sender's CPU.
        Ptr<Socket> sink = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        Ptr<Socket> source = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        source->Connect(InetSocketAddress(interfaces.GetAddress(1), 9));
        Simulator::ScheduleNow(&SendDatagrams, source, 300);
        Simulator::Stop(MilliSeconds(3));
        Simulator::Run();

        const Time t1 = NanoSeconds(2106304);
        const Time n = MicroSeconds(2);
        const std::map<Time, uint32_t> expected =
            !m_withCpu ? std::map<Time, uint32_t>{{Time(0), 160}, {NanoSeconds(2022304), 140}}
            : m_devTxWeight == 64
                ? std::map<Time, uint32_t>{{Time(0), 160}, {t1, 64}, {t1 + n, 64}, {t1 + 2 * n, 12}}
                : std::map<Time, uint32_t>{{Time(0), 160}, {t1, 140}};
        NS_TEST_EXPECT_MSG_EQ(m_dequeues.size(), expected.size(), "dequeue batches");
        for (const auto& [at, count] : expected)
        {
            const auto it = m_dequeues.find(at);
            NS_TEST_EXPECT_MSG_EQ((it == m_dequeues.end() ? 0 : it->second),
                                  count,
                                  "dequeues at " << at.As(Time::US));
        }
        Simulator::Destroy();
    }

    /**
     * Counts a dequeue by its time.
     * @param item the item
     */
    void Dequeued(Ptr<const QueueDiscItem> item)
    {
        m_dequeues[Simulator::Now()]++;
    }

    bool m_withCpu;                      ///< the sender has a HostCpu
    uint32_t m_devTxWeight;              ///< its DevTxWeight
    std::map<Time, uint32_t> m_dequeues; ///< dequeues by time
};

/// The router's per-packet costs (HardIrqCost and PollCost 1 us each).
struct RouterCosts
{
    Time rx;      ///< RxPacketCost c
    Time forward; ///< ForwardCost f
    Time qdisc;   ///< the egress qdisc tree's cost q
    Time tx;      ///< TxPacketCost t
    /// The egress's root qdisc as tc text ("": ns-3's default pfifo_fast) and the HostCpu's
    /// QdiscCost and QdiscCosts that make its tree cost q.
    std::string egressQdisc;
    Time qdiscCost;         ///< QdiscCost ("" egressQdisc: q)
    std::string qdiscCosts; ///< QdiscCosts
};

/// host -> router -> host over two 1 Gbit/s NIC links, a HostCpu on the router.
struct RouterChain
{
    NodeContainer nodes;          ///< sender, router, receiver
    Ptr<NicNetDevice> senderDev;  ///< the sender's device
    Ptr<NicNetDevice> ingress;    ///< the router's device towards the sender
    Ptr<NicNetDevice> egress;     ///< the router's device towards the receiver
    Ptr<HostCpu> cpu;             ///< the router's CPU
    Ptr<Socket> source;           ///< the sender's UDP socket
    Ptr<Socket> sink;             ///< the receiver's UDP socket
    uint64_t sent{0};             ///< datagrams sent
    std::vector<Time> receivedAt; ///< when each datagram reached the receiver
};

/**
 * Counts a datagram at the receiver.
 * @param chain the chain
 * @param socket the receiver's socket
 */
void
ChainReceive(RouterChain* chain, Ptr<Socket> socket)
{
    while (socket->Recv())
    {
        chain->receivedAt.push_back(Simulator::Now());
    }
}

/**
 * Sends one 1472-byte datagram (a 1500-byte IP packet, a 1514-byte frame) and the rest of
 * the flood one frame time apart.
 * @param chain the chain
 * @param left datagrams still to send, this one included
 */
void
ChainSend(RouterChain* chain, uint32_t left)
{
    chain->source->Send(Create<Packet>(1472));
    chain->sent++;
    if (left > 1)
    {
        Simulator::Schedule(FRAME, &ChainSend, chain, left - 1);
    }
}

/**
 * Builds the chain: NIC links at 1 Gbit/s with the NIC's defaults (no interrupt moderation,
 * SoftirqDelay 0, 256-descriptor rings, NapiWeight 64), IPv4 with global routes and
 * pre-filled ARP caches (no ARP frames), and the router's one-core HostCpu.
 * @param costs the router's per-packet costs
 * @param chain the chain to fill
 */
void
MakeRouterChain(const RouterCosts& costs, RouterChain& chain)
{
    chain.nodes.Create(3);
    NicHelper helper;
    helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    NetDeviceContainer left = helper.Install(chain.nodes.Get(0), chain.nodes.Get(1));
    NetDeviceContainer right = helper.Install(chain.nodes.Get(1), chain.nodes.Get(2));
    chain.senderDev = DynamicCast<NicNetDevice>(left.Get(0));
    chain.ingress = DynamicCast<NicNetDevice>(left.Get(1));
    chain.egress = DynamicCast<NicNetDevice>(right.Get(0));

    chain.cpu = CreateObject<HostCpu>();
    chain.cpu->SetAttribute("HardIrqCost", TimeValue(MicroSeconds(1)));
    chain.cpu->SetAttribute("PollCost", TimeValue(MicroSeconds(1)));
    chain.cpu->SetAttribute("RxPacketCost", TimeValue(costs.rx));
    chain.cpu->SetAttribute("ForwardCost", TimeValue(costs.forward));
    chain.cpu->SetAttribute("QdiscCost",
                            TimeValue(costs.egressQdisc.empty() ? costs.qdisc : costs.qdiscCost));
    chain.cpu->SetAttribute("QdiscCosts", StringValue(costs.qdiscCosts));
    chain.cpu->SetAttribute("TxPacketCost", TimeValue(costs.tx));
    chain.cpu->AssignStreams(1);
    chain.nodes.Get(1)->AggregateObject(chain.cpu);

    InternetStackHelper internet;
    internet.Install(chain.nodes);
    if (!costs.egressQdisc.empty())
    {
        TrafficControlHelper tc;
        TcQdiscHelper::SetRootQueueDisc(tc, costs.egressQdisc);
        tc.Install(chain.egress);
    }
    Ipv4AddressHelper address;
    address.SetBase("10.1.1.0", "255.255.255.0");
    address.Assign(left);
    address.SetBase("10.3.1.0", "255.255.255.0");
    const Ipv4InterfaceContainer receiver = address.Assign(right);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    compat::PopulateNeighborCaches();

    chain.sink = Socket::CreateSocket(chain.nodes.Get(2), UdpSocketFactory::GetTypeId());
    chain.sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
    chain.sink->SetRecvCallback(MakeBoundCallback(&ChainReceive, &chain));
    chain.source = Socket::CreateSocket(chain.nodes.Get(0), UdpSocketFactory::GetTypeId());
    chain.source->Connect(InetSocketAddress(receiver.GetAddress(1), 9));
}

/**
 * @ingroup debloat-tests
 * @brief A router whose CPU costs C per forwarded packet forwards at most 1/C packets per
 * second and drops the rest at its RX ring; below that it forwards everything.
 *
 * The sender floods 24,000 1500-byte datagrams at line rate, one per frame time
 * T = 12.304 us (81.27 kpps), from t = 0 to 295.3 ms; the router's one core has h = p = 1 us
 * and, per forwarded packet, c + f + q on the ingress poll and t on the egress poll that
 * reclaims it: C = c + f + q + t.
 *
 * CPU-bound (c = 10, f = 6, q = 2, t = 2 us: C = 20 us, 1/C = 50 kpps < 81.27 kpps). A poll
 * of n frames makes the next n T / (18 n + 1) us ~ 1.46 n arrive: the ring fills and every
 * ingress poll takes the full weight of 64 and is polled again, its interrupt masked; the
 * frames that find the 256 descriptors in use are rx_missed. A batch of 64 costs p + 64 x 18
 * = 1153 us on the ingress instance; it leaves the router at the poll's end and takes
 * 64 T = 787 us on the egress link, completing during the next ingress poll, so the egress
 * instance takes at least one and at most two interrupt + poll pairs per batch (the first
 * reclaims the frames done when it is raised; the frames done meanwhile re-assert the
 * interrupt at its re-enable and the second reclaims the rest, which are all done within
 * 787 us < 1153 us): per batch 64 x 20 + 1 + k (h + p), k in {1, 2}, 1283 to 1285 us, so
 * 64 / 1285 us = 49.81 kpps to 64 / 1283 us = 49.88 kpps, against 1/C = 50 kpps. After the
 * first softirq invocation passes 2 ms, ksoftirqd runs the polls back to back: the core is
 * never idle while the flood lasts (busy fraction 1). Over the window [100, 250) ms, 150 ms,
 * the receiver gets 150 ms x [49.81, 49.88] kpps = 7471.6 to 7482.5 datagrams, give or take
 * the batch granularity: one batch of 64 at each edge (+/- 128).
 *
 * Conservation, exact after the drain (the flood stopped, 100 ms more): nothing is queued,
 * the sender's device lost nothing (its queue never holds more than one frame), so every
 * datagram sent arrived at the router and rx_missed = sent - received. The router accepted
 * what its polls completed by the flood's end D = 295.3 ms, D x [49.81, 49.88] kpps within
 * one batch (14,709 - 64 to 14,730), plus at most the batch of a poll in progress (0 to
 * 64), plus the ring at D (256 less the 64 descriptors a poll frees, refilled within 787 us:
 * 192 to 256): 14,837 to 15,050 accepted, so rx_missed is 24,000 minus that, 8,950 to
 * 9,163. The CPU time is the sum of the costs the NICs' counters give: h x interrupts +
 * p x polls + c x frames passed up + (f + q) x forwarded + t x TX reclaimed, to the
 * nanosecond.
 *
 * The same bound holds when q is the sum of the egress tree's per-kind costs: HTB
 * (QdiscCosts "htb:1us", not shaping at 1 Gbit/s: ~50 kpps x 1500 bytes is 600 Mbit/s)
 * with an fq_codel leaf, a kind not listed (QdiscCost 1 us): q = 1 + 1 = 2 us, C = 20 us
 * again, and every expectation above.
 *
 * Below the bottleneck (c = 1, f = 0.5, q = 0.25, t = 0.25 us: C = 2 us, 500 kpps > 81.27
 * kpps): nothing is missed and the receiver gets all 24,000. Without interrupt moderation
 * each frame interrupts on arrival and its poll (h + p + c + f + q = 3.75 us) ends before
 * the next frame, T later; so does the egress's clean of it (h + p + t = 2.25 us): one
 * interrupt and one poll per packet on each device, 24,000 each, and per T = 12.304 us the
 * core works C + 2 (h + p) = 6 us: busy fraction 6 / 12.304 = 48.77 %, over the window
 * within one packet's 6 us at each edge (+/- 12 us / 150 ms = 8e-5).
 */
class HostCpuRouterTestCase : public TestCase
{
  public:
    /**
     * @param cpuBound whether the router's CPU is the bottleneck
     * @param htbTree whether q is an HTB + fq_codel tree's per-kind costs (cpuBound only)
     */
    HostCpuRouterTestCase(bool cpuBound, bool htbTree = false)
        : TestCase(!cpuBound ? "A router below its CPU bottleneck forwards everything"
                   : htbTree ? "A router of per-packet cost C, its egress qdisc tree's kinds "
                               "costed apart, forwards one packet per C at most"
                             : "A router of per-packet cost C forwards one packet per C at most, "
                               "its RX ring drops the rest"),
          m_cpuBound(cpuBound),
          m_htbTree(htbTree)
    {
    }

  private:
    void DoRun() override
    {
        RouterCosts costs = m_cpuBound ? RouterCosts{MicroSeconds(10),
                                                     MicroSeconds(6),
                                                     MicroSeconds(2),
                                                     MicroSeconds(2),
                                                     "",
                                                     Time(0),
                                                     ""}
                                       : RouterCosts{MicroSeconds(1),
                                                     NanoSeconds(500),
                                                     NanoSeconds(250),
                                                     NanoSeconds(250),
                                                     "",
                                                     Time(0),
                                                     ""};
        if (m_htbTree)
        {
            costs.egressQdisc = "htb default 1; class parent 1: classid 1:1 rate 1Gbit; "
                                "qdisc parent 1:1 fq_codel";
            costs.qdiscCost = MicroSeconds(1);
            costs.qdiscCosts = "htb:1us";
        }
        const uint32_t flood = 24000;
        const Time floodEnd = FRAME * flood;
        RouterChain chain;
        MakeRouterChain(costs, chain);
        Simulator::ScheduleNow(&ChainSend, &chain, flood);
        CpuCoreModel::Usage at100;
        CpuCoreModel::Usage at250;
        compat::ScheduleFunction(MilliSeconds(100), [&]() { at100 = chain.cpu->GetUsage(0); });
        compat::ScheduleFunction(MilliSeconds(250), [&]() { at250 = chain.cpu->GetUsage(0); });
        Simulator::Stop(floodEnd + MilliSeconds(100));
        Simulator::Run();

        const NicNetDevice::Stats& in = chain.ingress->GetStats();
        const NicNetDevice::Stats& out = chain.egress->GetStats();
        const uint64_t received = chain.receivedAt.size();
        NS_TEST_ASSERT_MSG_EQ(chain.sent, flood, "the flood was sent");
        NS_TEST_ASSERT_MSG_EQ(chain.senderDev->GetStats().txPackets, flood, "all on the wire");
        NS_TEST_EXPECT_MSG_EQ(in.rxPackets + in.rxMissed, flood, "all reached the router");
        NS_TEST_EXPECT_MSG_EQ(in.rxMissed, chain.sent - received, "rx_missed = sent - received");
        NS_TEST_EXPECT_MSG_EQ(out.txPackets, in.rxPackets, "the router forwarded what it took");
        NS_TEST_EXPECT_MSG_EQ(in.rxDropped + out.txDropped, 0, "no other NIC drops");

        // The CPU time is the sum of the costs, from the NICs' counters.
        const CpuCoreModel::Usage usage = chain.cpu->GetUsage(0);
        const Time expectedBusy =
            MicroSeconds(1) * (in.interrupts + out.interrupts) +
            MicroSeconds(1) * (in.polls + out.polls) + costs.rx * (in.rxPackets + out.rxPackets) +
            (costs.forward + costs.qdisc) * in.rxPackets + costs.tx * out.txPackets;
        NS_TEST_EXPECT_MSG_EQ(usage.busy[0] + usage.busy[1] + usage.busy[2],
                              expectedBusy.GetNanoSeconds(),
                              "busy time is the sum of the costs");
        NS_TEST_EXPECT_MSG_EQ(out.rxPackets, 0, "nothing came back");

        if (m_cpuBound)
        {
            uint64_t inWindow = 0;
            for (const Time& t : chain.receivedAt)
            {
                inWindow += (t >= MilliSeconds(100) && t < MilliSeconds(250)) ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_GT_OR_EQ(inWindow, 7471 - 128, "forwarded in [100, 250) ms");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(inWindow, 7483 + 128, "forwarded in [100, 250) ms");
            NS_TEST_EXPECT_MSG_EQ_TOL(CpuCoreModel::BusyFraction(at100, at250),
                                      1.0,
                                      1e-12,
                                      "the core is busy all the time");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(in.rxMissed, 24000 - 15050, "rx_missed");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(in.rxMissed, 24000 - 14837, "rx_missed");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(in.rxMissed, 0, "nothing missed");
            NS_TEST_EXPECT_MSG_EQ(received, flood, "everything forwarded");
            for (const auto& stats : {in, out})
            {
                NS_TEST_EXPECT_MSG_EQ(stats.interrupts, flood, "one interrupt per packet");
                NS_TEST_EXPECT_MSG_EQ(stats.polls, flood, "one poll per packet");
            }
            NS_TEST_EXPECT_MSG_EQ_TOL(CpuCoreModel::BusyFraction(at100, at250),
                                      6.0 / 12.304,
                                      8e-5,
                                      "busy: (C + 2 (h + p)) / T");
        }
        Simulator::Destroy();
    }

    bool m_cpuBound; ///< the router's CPU is the bottleneck
    bool m_htbTree;  ///< q is an HTB + fq_codel tree's
};

/**
 * @ingroup debloat-tests
 * @brief HostCpuHelper applies a CpuProfile, and a HostCpu costs a qdisc by its kind.
 *
 * armada385 (cpu-profile.cc): 2 cores with every interrupt on CPU0 (IrqCores 1), so
 * vectors 0 to 7 are all served by core 0; QdiscCosts "cake:2300ns,htb:2200ns" and
 * QdiscCost 400 ns: a cake root costs 2.3 us, an HTB root without classes 2.2 us, a kind
 * not listed (fq_codel) 0.4 us, noqueue 0 and no qdisc 0. An attribute set on the helper
 * after the profile wins (Cores 4, and with IrqCores 1 still core 0). generic with Cores 3
 * spreads vector v to core v mod 3.
 */
class HostCpuProfileTestCase : public TestCase
{
  public:
    HostCpuProfileTestCase()
        : TestCase("HostCpuHelper applies a profile; qdiscs cost by kind")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes(3);
        HostCpuHelper armada;
        armada.SetProfile("armada385");
        armada.Install(nodes.Get(0));
        armada.SetAttribute("Cores", UintegerValue(4));
        armada.Install(nodes.Get(1));
        HostCpuHelper generic;
        generic.SetProfile("generic");
        generic.SetAttribute("Cores", UintegerValue(3));
        generic.Install(nodes.Get(2));
        NS_TEST_EXPECT_MSG_EQ(HostCpuHelper::AssignStreams(nodes, 7), 3, "one stream each");

        Ptr<HostCpu> cpu = nodes.Get(0)->GetObject<HostCpu>();
        NS_TEST_EXPECT_MSG_EQ(cpu->GetNCores(), 2, "armada385: 2 cores");
        for (uint32_t vector = 0; vector < 8; vector++)
        {
            NS_TEST_EXPECT_MSG_EQ(cpu->GetIrqCore(vector), 0, "every interrupt on CPU0");
            NS_TEST_EXPECT_MSG_EQ(nodes.Get(2)->GetObject<HostCpu>()->GetIrqCore(vector),
                                  vector % 3,
                                  "generic: spread over the cores");
        }
        NS_TEST_EXPECT_MSG_EQ(nodes.Get(1)->GetObject<HostCpu>()->GetNCores(),
                              4,
                              "the helper's attribute wins over the profile");
        NS_TEST_EXPECT_MSG_EQ(nodes.Get(1)->GetObject<HostCpu>()->GetIrqCore(5), 0, "still CPU0");

        NS_TEST_EXPECT_MSG_EQ(cpu->GetQdiscCost(CreateObject<CakeQueueDisc>()),
                              NanoSeconds(2300),
                              "cake");
        NS_TEST_EXPECT_MSG_EQ(cpu->GetQdiscCost(CreateObject<HtbQueueDisc>()),
                              NanoSeconds(2200),
                              "htb without classes");
        NS_TEST_EXPECT_MSG_EQ(cpu->GetQdiscCost(CreateObject<FqCoDelQueueDisc>()),
                              NanoSeconds(400),
                              "fq_codel: QdiscCost");
        NS_TEST_EXPECT_MSG_EQ(cpu->GetQdiscCost(CreateObject<NoQueueDisc>()), Time(0), "noqueue");
        NS_TEST_EXPECT_MSG_EQ(cpu->GetQdiscCost(nullptr), Time(0), "no qdisc");
        Simulator::Destroy();
    }
};

/**
 * @ingroup debloat-tests
 * @brief netperf's processes wait for the scheduler: each TCP_RR transaction gains two
 * wake-ups.
 *
 * netperf-test-suite.cc's idle link (10 Mbit/s PointToPoint, 5 ms): without a HostCpu each
 * transaction after the first takes exactly 10.088 ms. With a one-core HostCpu on each node
 * (SchedulingLatency L = 50 us constant, WakeupCost w = 2 us, SyscallCost s = 1 us, CopyRate
 * 8 Gbit/s: a byte in 1 ns), the server reads a request only once woken, L + w + s + 1 ns
 * after it arrived, and answers then; the client likewise reads the response, which ends
 * the transaction and sends the next request. A send made outside TCP's receive processing
 * leaves one time step (1 ns) later: TcpSocketBase::Send() schedules SendPendingData() at
 * TimeStep(1), where an answer made within the receive callback left at once. Each
 * transaction therefore takes 10.088 ms + 2 x (53.001 us + 1 ns) = 10.194004 ms. The
 * sends' own syscalls (s + 1 ns, after each wake-up on the same core) end long before the
 * next arrival and delay nothing. Per transaction each core is busy w plus twice s + 1 ns
 * (its read and its send): 2 + 2 x 1.001 = 4.002 us, the client's core 4.002 us per
 * 10.194004 ms transaction (the PointToPoint devices take no CPU time).
 */
class HostCpuNetperfWakeupTestCase : public TestCase
{
  public:
    HostCpuNetperfWakeupTestCase()
        : TestCase("netperf TCP_RR: each transaction waits for two wake-ups")
    {
    }

  private:
    void DoRun() override
    {
        LinuxTcpDefaults::Apply();
        const debloattest::IdleLink link = debloattest::MakeIdleLink();
        HostCpuHelper cpu;
        cpu.SetAttribute("SchedulingLatency",
                         StringValue("ns3::ConstantRandomVariable[Constant=0.00005]"));
        cpu.SetAttribute("WakeupCost", TimeValue(MicroSeconds(2)));
        cpu.SetAttribute("SyscallCost", TimeValue(MicroSeconds(1)));
        cpu.SetAttribute("CopyRate", DataRateValue(DataRate("8Gbps")));
        cpu.Install(link.nodes);
        NetperfHelper::InstallServer(link.nodes.Get(1));
        NetperfHelper netperf(link.interfaces.GetAddress(1), NetperfTest::TCP_RR);
        ApplicationContainer apps = netperf.Install(link.nodes.Get(0));
        apps.Start(Seconds(1));
        apps.Stop(Seconds(3));
        Ptr<NetperfClient> client = DynamicCast<NetperfClient>(apps.Get(0));
        m_cpu = link.nodes.Get(0)->GetObject<HostCpu>();
        client->TraceConnectWithoutContext(
            "Transaction",
            MakeCallback(&HostCpuNetperfWakeupTestCase::Record, this));
        Simulator::Stop(Seconds(4));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_GT(m_latencies.size(), 100, "transactions");
        for (size_t i = 1; i < m_latencies.size(); i++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_latencies[i].GetNanoSeconds(), 10194004, "transaction " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(m_windowEnd - m_windowStart,
                              NanoSeconds(10 * 10194004),
                              "ten transactions");
        NS_TEST_EXPECT_MSG_EQ(Busy(m_atEnd) - Busy(m_atStart),
                              10 * 4002,
                              "busy: w + 2 (s + 1 ns) per transaction");
        m_cpu = nullptr;
        Simulator::Destroy();
        Config::Reset();
    }

    /**
     * @param usage a core's usage
     * @return its busy time, ns
     */
    static int64_t Busy(const CpuCoreModel::Usage& usage)
    {
        return usage.busy[0] + usage.busy[1] + usage.busy[2];
    }

    /**
     * Records a transaction, and the client's core usage after the 5th and the 15th.
     * @param latency its latency
     */
    void Record(Time latency)
    {
        m_latencies.push_back(latency);
        if (m_latencies.size() == 5 || m_latencies.size() == 15)
        {
            (m_latencies.size() == 5 ? m_atStart : m_atEnd) = m_cpu->GetUsage(0);
            (m_latencies.size() == 5 ? m_windowStart : m_windowEnd) = Simulator::Now();
        }
    }

    std::vector<Time> m_latencies; ///< transaction latencies
    Ptr<HostCpu> m_cpu;            ///< the client's CPU
    CpuCoreModel::Usage m_atStart; ///< its usage after the 5th transaction
    CpuCoreModel::Usage m_atEnd;   ///< and after the 15th
    Time m_windowStart;            ///< when the 5th ended
    Time m_windowEnd;              ///< when the 15th ended
};

/**
 * @ingroup debloat-tests
 * @brief The x86 CPU profiles reproduce the measurement they are calibrated against.
 *
 * The XDP paper (Hoiland-Jorgensen et al., CoNEXT 2018) forwards 1,739,672 64-byte packets
 * per second with Linux on one core of a Xeon E5-1650 v4 at 3.6 GHz: 574.8 ns, 2069
 * cycles per packet. Under overload a forwarded packet costs C + (2 p + h) / 64, C = c +
 * f + q + t (HostCpuRouterTestCase's batch of 64: the ingress poll, and one interrupt and
 * poll of the egress clean per batch; that case checks the simulation spends it). So:
 * - xeon-e5-1650v4 forwards 1 / (C + (2 p + h) / 64) = 1,739,672 pps;
 * - every calibrated x86 profile costs 2069 cycles per forwarded packet at its clock and
 *   work per clock relative to Broadwell (cpu-profile.cc): laptop-2011 2.5 GHz x 0.9, nuc
 *   2.6 GHz x 1, atom-c2758 2.4 GHz x 0.6;
 * - each keeps generic's proportions f = 0.3 c, q = 0.1 c, t = 0.25 c, h = p = c.
 * The profiles give whole nanoseconds: rounding each of the seven costs by up to 0.5 ns
 * moves the sum by at most (4 + 3 / 64) x 0.5 ns ~ 2.0 ns, 0.35% of the 575.9 ns of the
 * fastest profile: the tolerance is 0.4%, and 1 ns on each proportion.
 */
class HostCpuCalibrationTestCase : public TestCase
{
  public:
    HostCpuCalibrationTestCase()
        : TestCase("The x86 CPU profiles forward at the XDP paper's measured rate, scaled")
    {
    }

  private:
    void DoRun() override
    {
        struct Machine
        {
            std::string profile; ///< CpuProfile name
            double ghz;          ///< clock
            double workPerCycle; ///< relative to Broadwell
        };

        for (const Machine& m : {Machine{"xeon-e5-1650v4", 3.6, 1.0},
                                 Machine{"laptop-2011", 2.5, 0.9},
                                 Machine{"nuc", 2.6, 1.0},
                                 Machine{"atom-c2758", 2.4, 0.6}})
        {
            std::map<std::string, double> ns;
            for (const auto& [name, value] : CpuProfile::Get(m.profile).attributes)
            {
                if (name.size() > 4 && name.substr(name.size() - 4) == "Cost")
                {
                    ns[name] = Time(value).GetNanoSeconds();
                }
            }
            const double c = ns.at("RxPacketCost");
            const double perPacket = c + ns.at("ForwardCost") + ns.at("QdiscCost") +
                                     ns.at("TxPacketCost") +
                                     (2 * ns.at("PollCost") + ns.at("HardIrqCost")) / 64;
            NS_TEST_EXPECT_MSG_EQ_TOL(perPacket * m.ghz * m.workPerCycle / 2069.0,
                                      1.0,
                                      0.004,
                                      m.profile << ": 2069 Broadwell cycles per forwarded packet");
            NS_TEST_EXPECT_MSG_EQ_TOL(ns.at("ForwardCost"), 0.3 * c, 1.0, m.profile);
            NS_TEST_EXPECT_MSG_EQ_TOL(ns.at("QdiscCost"), 0.1 * c, 1.0, m.profile);
            NS_TEST_EXPECT_MSG_EQ_TOL(ns.at("TxPacketCost"), 0.25 * c, 1.0, m.profile);
            NS_TEST_EXPECT_MSG_EQ(ns.at("PollCost"), c, m.profile);
            NS_TEST_EXPECT_MSG_EQ(ns.at("HardIrqCost"), c, m.profile);
            if (m.profile == "xeon-e5-1650v4")
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(1e9 / perPacket / 1739672.0,
                                          1.0,
                                          0.004,
                                          "the measured machine forwards 1,739,672 pps");
            }
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief The HostCpu's tests.
 */
class HostCpuTestSuite : public TestSuite
{
  public:
    HostCpuTestSuite()
        : TestSuite("debloat-host-cpu", compat::SUITE_UNIT)
    {
        AddTestCase(new HostCpuBurstTestCase(true), compat::TEST_QUICK);
        AddTestCase(new HostCpuBurstTestCase(false), compat::TEST_QUICK);
        AddTestCase(new HostCpuKsoftirqdTestCase(), compat::TEST_QUICK);
        AddTestCase(new HostCpuTxCleanTestCase(true), compat::TEST_QUICK);
        AddTestCase(new HostCpuTxCleanTestCase(false), compat::TEST_QUICK);
        AddTestCase(new HostCpuNetTxTestCase(true, MicroSeconds(3)), compat::TEST_QUICK);
        AddTestCase(new HostCpuNetTxTestCase(true, MicroSeconds(2)), compat::TEST_QUICK);
        AddTestCase(new HostCpuNetTxTestCase(false, Time(0)), compat::TEST_QUICK);
        AddTestCase(new HostCpuQdiscQuotaTestCase(true, 64), compat::TEST_QUICK);
        AddTestCase(new HostCpuQdiscQuotaTestCase(true, 200), compat::TEST_QUICK);
        AddTestCase(new HostCpuQdiscQuotaTestCase(false, 64), compat::TEST_QUICK);
        AddTestCase(new HostCpuRouterTestCase(true), compat::TEST_QUICK);
        AddTestCase(new HostCpuRouterTestCase(false), compat::TEST_QUICK);
        AddTestCase(new HostCpuRouterTestCase(true, true), compat::TEST_QUICK);
        AddTestCase(new HostCpuProfileTestCase(), compat::TEST_QUICK);
        AddTestCase(new HostCpuCalibrationTestCase(), compat::TEST_QUICK);
        AddTestCase(new HostCpuNetperfWakeupTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's instance.
HostCpuTestSuite g_hostCpuTestSuite;

} // namespace
