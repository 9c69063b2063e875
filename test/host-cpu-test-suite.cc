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

#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/host-cpu.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/nic-net-device.h"

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
    }
};

/// The suite's instance.
HostCpuTestSuite g_hostCpuTestSuite;

} // namespace
