/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for CpuCoreModel: a poll's cost, preemption by class, net_rx_action()'s
 * budget and time limit, handle_softirqs()'s restarts and ksoftirqd, utilisation over an
 * interval, and invalid settings. Times are nanoseconds.
 */

#include "error-message.h"

#include "ns3/cpu-core-model.h"

#include <gtest/gtest.h>
#include <vector>

namespace
{

using ns3::debloat::CpuClass;
using ns3::debloat::CpuCoreModel;

/// Costs used throughout: per poll p = 2 us, per RX packet c = 1 us, per TX packet 0.5 us,
/// per hard IRQ h = 3 us.
CpuCoreModel::Config
TestConfig()
{
    CpuCoreModel::Config config;
    config.pollCost = 2000;
    config.rxPacketCost = 1000;
    config.txPacketCost = 500;
    config.hardIrqCost = 3000;
    return config;
}

/// A scheduling latency of 50 us on every draw.
int64_t
FixedLatency()
{
    return 50000;
}

/**
 * Polls one NAPI instance the way a driver with weight 64 is polled while packets remain:
 * each poll takes min(64, left), and one that used its weight is raised again when it ends.
 * @param cpu the model
 * @param packets packets waiting at the start
 * @param placements each poll's placement
 * @return when the last poll ends
 */
int64_t
DrainOneNapi(CpuCoreModel& cpu, uint32_t packets, std::vector<CpuCoreModel::PollPlacement>& out)
{
    int64_t now = 0;
    uint32_t left = packets;
    while (true)
    {
        const uint32_t work = std::min<uint32_t>(64, left);
        left -= work;
        const auto placement = cpu.NapiPoll(0, 1, work, cpu.NapiPollCost(work, 0), now);
        out.push_back(placement);
        now = placement.completion;
        cpu.AdvanceTo(now);
        if (work < 64)
        {
            return now;
        }
    }
}

TEST(CpuCoreModelTest, PollEndsPPlusNc)
{
    // A poll of N = 10 packets raised at 5 us on an idle core starts at once and costs
    // p + N c = 2 + 10 x 1 = 12 us: it ends at 17 us. With 4 TX packets reclaimed as well the
    // cost would be 12 + 4 x 0.5 = 14 us.
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    EXPECT_EQ(cpu.NapiPollCost(10, 0), 12000);
    EXPECT_EQ(cpu.NapiPollCost(10, 4), 14000);
    const auto poll = cpu.NapiPoll(0, 1, 10, cpu.NapiPollCost(10, 0), 5000);
    EXPECT_FALSE(poll.ksoftirqd);
    EXPECT_EQ(poll.run, 1U);
    EXPECT_EQ(poll.completion, 17000);
    cpu.AdvanceTo(16999);
    EXPECT_TRUE(cpu.TakeFinished().empty());
    cpu.AdvanceTo(17000);
    const auto finished = cpu.TakeFinished();
    ASSERT_EQ(finished.size(), 1U);
    EXPECT_EQ(finished[0].id, poll.id);
    EXPECT_EQ(finished[0].time, 17000);
    // /proc/stat: 12 us softirq, 5 us idle before it.
    EXPECT_EQ(cpu.GetUsage(0).busy[1], 12000);
    EXPECT_EQ(cpu.GetUsage(0).idle, 5000);
}

TEST(CpuCoreModelTest, ForwardedFramesAddForwardCost)
{
    // With forwardCost f = 3 us, a poll of N = 10 frames of which 6 are forwarded costs
    // p + N c + 6 f = 2 + 10 + 6 x 3 = 30 us; with 4 TX packets reclaimed as well,
    // 30 + 4 x 0.5 = 32 us. Without forwarded frames f adds nothing: 12 us, as above.
    CpuCoreModel::Config config = TestConfig();
    config.forwardCost = 3000;
    CpuCoreModel cpu(config, FixedLatency);
    EXPECT_EQ(cpu.NapiPollCost(10, 0, 6), 30000);
    EXPECT_EQ(cpu.NapiPollCost(10, 4, 6), 32000);
    EXPECT_EQ(cpu.NapiPollCost(10, 0), 12000);
}

TEST(CpuCoreModelTest, DiscardedTransitionsAreGone)
{
    // A poll of 2 frames costing 4 us at 0 (idle -> softirq -> idle by 10 us): discarded,
    // nothing is taken; the same poll at 10 us records its own two changes.
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    cpu.NapiPoll(0, 1, 2, 4000, 0);
    cpu.AdvanceTo(10000);
    cpu.DiscardTransitions();
    EXPECT_TRUE(cpu.TakeTransitions().empty());
    const auto poll = cpu.NapiPoll(0, 1, 2, 4000, 10000);
    EXPECT_EQ(cpu.GetCompletion(poll.id), 14000);
    cpu.AdvanceTo(20000);
    EXPECT_EQ(cpu.TakeTransitions().size(), 2U);
}

TEST(CpuCoreModelTest, ZeroCostWorkFinishesWhenSubmittedAtAReachedTime)
{
    // The core is run to 5 us; a task of cost 0 submitted then ends at 5 us, so running the
    // core to 5 us again retires it (the core skips a run to a time it stands at only when
    // nothing was added since), and a 1 us task added behind it ends at 6 us.
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    cpu.AdvanceTo(5000);
    const uint64_t zero = cpu.Submit(0, ns3::debloat::CpuClass::TASK, 0, 5000);
    EXPECT_EQ(cpu.GetCompletion(zero), 5000);
    cpu.AdvanceTo(5000);
    const auto finished = cpu.TakeFinished();
    ASSERT_EQ(finished.size(), 1U);
    EXPECT_EQ(finished[0].id, zero);
    EXPECT_EQ(finished[0].time, 5000);
    const uint64_t task = cpu.Submit(0, ns3::debloat::CpuClass::TASK, 1000, 5000);
    cpu.AdvanceTo(5000);
    EXPECT_TRUE(cpu.TakeFinished().empty());
    EXPECT_EQ(cpu.GetCompletion(task), 6000);
}

TEST(CpuCoreModelTest, WorkAloneOnACoreEndsItsCostAfterItsRelease)
{
    // A task woken at 1 us with the 50 us latency and cost 2 us is alone on the core: it
    // runs from its release at 51 us and ends at 53 us (as the full projection would).
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    const uint64_t task = cpu.WakeTask(0, 2000, 1000);
    EXPECT_EQ(cpu.GetCompletion(task), 53000);
    cpu.AdvanceTo(60000);
    const auto finished = cpu.TakeFinished();
    ASSERT_EQ(finished.size(), 1U);
    EXPECT_EQ(finished[0].time, 53000);
}

TEST(CpuCoreModelTest, HardIrqDelaysSoftirqByItsCost)
{
    // The 12 us poll starts at 0; a hard IRQ (h = 3 us) at 4 us preempts it, so the poll ends
    // h later, at 15 us, and the IRQ at 7 us. The core runs softirq, hardirq, softirq, idle.
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    const auto poll = cpu.NapiPoll(0, 1, 10, 12000, 0);
    const uint64_t irq = cpu.HardIrq(0, 4000);
    EXPECT_EQ(cpu.GetCompletion(poll.id), 15000);
    EXPECT_EQ(cpu.GetCompletion(irq), 7000);
    cpu.AdvanceTo(20000);
    const auto transitions = cpu.TakeTransitions();
    const uint32_t idle = CpuCoreModel::IDLE;
    const std::vector<std::vector<int64_t>> expected = {{0, idle, 1},
                                                        {4000, 1, 0},
                                                        {7000, 0, 1},
                                                        {15000, 1, idle}};
    ASSERT_EQ(transitions.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
    {
        EXPECT_EQ(transitions[i].time, expected[i][0]) << i;
        EXPECT_EQ(transitions[i].from, expected[i][1]) << i;
        EXPECT_EQ(transitions[i].to, expected[i][2]) << i;
    }
    EXPECT_EQ(cpu.GetUsage(0).busy[0], 3000);
    EXPECT_EQ(cpu.GetUsage(0).busy[1], 12000);
}

TEST(CpuCoreModelTest, SoftirqPreemptsTaskNotTheOtherWay)
{
    // A 10 us task from 0; a 12 us poll raised at 2 us runs at once and ends at 14 us; the
    // task, 2 us done, finishes its 8 us after that, at 22 us. A task released during a
    // softirq waits for it: a task at 30 us behind a poll raised at 25 us (ends 37 us) runs
    // 37 to 47 us.
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    const uint64_t task = cpu.Submit(0, CpuClass::TASK, 10000, 0);
    const auto poll = cpu.NapiPoll(0, 1, 10, 12000, 2000);
    EXPECT_EQ(poll.completion, 14000);
    EXPECT_EQ(cpu.GetCompletion(task), 22000);
    const auto poll2 = cpu.NapiPoll(0, 1, 10, 12000, 25000);
    const uint64_t task2 = cpu.Submit(0, CpuClass::TASK, 10000, 30000);
    EXPECT_EQ(poll2.completion, 37000);
    EXPECT_EQ(cpu.GetCompletion(task2), 47000);
}

TEST(CpuCoreModelTest, OneNapiInstanceRestartsInsteadOfExhaustingTheBudget)
{
    // 500 packets at one NAPI instance, weight 64. net_rx_action() polls an instance once per
    // run: a poll that used its weight goes to the repoll list, the list empties, and the run
    // ends with NET_RX_SOFTIRQ raised again (budget 300 - 64 = 236 > 0: no time_squeeze).
    // handle_softirqs() restarts (10 runs at most, within 2 ms), so the packets go as polls of
    // 64 x 7 = 448 and a last one of 52 < 64 (napi_complete_done()), all in softirq context,
    // runs 1 to 8. Each full poll costs p + 64 c = 66 us; the 8th starts at 7 x 66 = 462 us
    // (< 2 ms) and costs p + 52 c = 54 us: the last packet is up at 516 us.
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    std::vector<CpuCoreModel::PollPlacement> polls;
    EXPECT_EQ(DrainOneNapi(cpu, 500, polls), 516000);
    ASSERT_EQ(polls.size(), 8U);
    for (uint32_t i = 0; i < polls.size(); ++i)
    {
        EXPECT_FALSE(polls[i].ksoftirqd) << i;
        EXPECT_EQ(polls[i].run, i + 1) << i;
        EXPECT_FALSE(polls[i].timeSqueeze) << i;
    }
    EXPECT_EQ(cpu.GetTimeSqueeze(0), 0U);
    EXPECT_EQ(cpu.GetKsoftirqdWakeups(0), 0U);
    EXPECT_EQ(cpu.GetUsage(0).busy[1], 516000);
}

TEST(CpuCoreModelTest, TenRunsThenKsoftirqd)
{
    // 1000 packets at one instance: runs 1 to 10 take 640 packets, ending at 10 x 66 = 660
    // us. The 11th poll finds max_restart spent (--max_restart reaches 0), so
    // handle_softirqs() wakes ksoftirqd: the poll runs as a task after the 50 us scheduling
    // latency, 710 to 776 us. The repolls stay in ksoftirqd, back to back: 64 x 4 more (842,
    // 908, 974, 1040 us) and the last 1000 - 960 = 40 packets, p + 40 c = 42 us: 1082 us.
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    std::vector<CpuCoreModel::PollPlacement> polls;
    EXPECT_EQ(DrainOneNapi(cpu, 1000, polls), 1082000);
    ASSERT_EQ(polls.size(), 16U);
    for (uint32_t i = 0; i < 10; ++i)
    {
        EXPECT_FALSE(polls[i].ksoftirqd) << i;
    }
    for (uint32_t i = 10; i < 16; ++i)
    {
        EXPECT_TRUE(polls[i].ksoftirqd) << i;
    }
    EXPECT_EQ(polls[10].completion, 776000);
    EXPECT_EQ(cpu.GetKsoftirqdWakeups(0), 1U);
    EXPECT_EQ(cpu.GetTimeSqueeze(0), 0U);
    // /proc/stat: 660 us softirq, 5 x 66 + 42 = 372 us of ksoftirqd (a task), 50 us idle.
    EXPECT_EQ(cpu.GetUsage(0).busy[1], 660000);
    EXPECT_EQ(cpu.GetUsage(0).busy[2], 372000);
    EXPECT_EQ(cpu.GetUsage(0).idle, 50000);
}

TEST(CpuCoreModelTest, BudgetBreaksTheRunAfterFivePollsOf64)
{
    // Six instances raised at 0 with 64 packets each: the run polls them in order, budget
    // 300 - 64 k; after the 5th it is -20 <= 0, so the run breaks (time_squeeze 1) and the 6th
    // goes to the next run, a restart at 5 x 66 = 330 us (< 2 ms), ending at 396 us.
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    std::vector<CpuCoreModel::PollPlacement> polls;
    for (uint64_t napi = 1; napi <= 6; ++napi)
    {
        polls.push_back(cpu.NapiPoll(0, napi, 64, cpu.NapiPollCost(64, 0), 0));
    }
    for (uint32_t i = 0; i < 5; ++i)
    {
        EXPECT_EQ(polls[i].run, 1U) << i;
        EXPECT_EQ(polls[i].timeSqueeze, i == 4) << i;
    }
    EXPECT_EQ(polls[5].run, 2U);
    EXPECT_FALSE(polls[5].ksoftirqd);
    EXPECT_EQ(polls[5].completion, 396000);
    EXPECT_EQ(cpu.GetTimeSqueeze(0), 1U);
}

TEST(CpuCoreModelTest, BudgetReachingExactlyZeroBreaksTheRun)
{
    // budget <= 0: five polls of 60 leave 300 - 300 = 0, and the run breaks after the 5th.
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    std::vector<CpuCoreModel::PollPlacement> polls;
    for (uint64_t napi = 1; napi <= 5; ++napi)
    {
        polls.push_back(cpu.NapiPoll(0, napi, 60, cpu.NapiPollCost(60, 0), 0));
    }
    EXPECT_FALSE(polls[3].timeSqueeze);
    EXPECT_TRUE(polls[4].timeSqueeze);
    EXPECT_EQ(cpu.GetTimeSqueeze(0), 1U);
}

TEST(CpuCoreModelTest, TwoMillisecondLimitsWithCostlyPackets)
{
    // c = 20 us per packet: a poll of 64 costs 2 + 64 x 20 = 1282 us.
    // One instance: run 1 ends at 1282 us (< netdev_budget_usecs 2000 us: no squeeze); the
    // repoll at 1282 us is a restart (1282 us < MAX_SOFTIRQ_TIME 2 ms) ending at 2564 us; the
    // next repoll at 2564 us finds 2 ms spent since the invocation began at 0, so ksoftirqd
    // runs it after the 50 us latency: 2614 to 3896 us.
    CpuCoreModel::Config config = TestConfig();
    config.rxPacketCost = 20000;
    {
        CpuCoreModel cpu(config, FixedLatency);
        const auto p1 = cpu.NapiPoll(0, 1, 64, cpu.NapiPollCost(64, 0), 0);
        EXPECT_EQ(p1.completion, 1282000);
        cpu.AdvanceTo(p1.completion);
        const auto p2 = cpu.NapiPoll(0, 1, 64, cpu.NapiPollCost(64, 0), p1.completion);
        EXPECT_EQ(p2.run, 2U);
        EXPECT_EQ(p2.completion, 2564000);
        cpu.AdvanceTo(p2.completion);
        const auto p3 = cpu.NapiPoll(0, 1, 64, cpu.NapiPollCost(64, 0), p2.completion);
        EXPECT_TRUE(p3.ksoftirqd);
        EXPECT_EQ(p3.completion, 3896000);
        EXPECT_EQ(cpu.GetTimeSqueeze(0), 0U);
        EXPECT_EQ(cpu.GetKsoftirqdWakeups(0), 1U);
    }
    // Two instances raised at 0: A ends at 1282 us (budget 236), B in the same run ends at
    // 2564 us, 2564 us >= 2000 us after the run began: the run breaks on its time limit
    // (budget 172 > 0) and counts time_squeeze.
    {
        CpuCoreModel cpu(config, FixedLatency);
        const auto a = cpu.NapiPoll(0, 1, 64, cpu.NapiPollCost(64, 0), 0);
        const auto b = cpu.NapiPoll(0, 2, 64, cpu.NapiPollCost(64, 0), 0);
        EXPECT_FALSE(a.timeSqueeze);
        EXPECT_TRUE(b.timeSqueeze);
        EXPECT_EQ(b.run, 1U);
        EXPECT_EQ(b.completion, 2564000);
        EXPECT_EQ(cpu.GetTimeSqueeze(0), 1U);
    }
}

TEST(CpuCoreModelTest, UtilisationIsTheSumOfCostsOverTheInterval)
{
    // In [0, 100 us): a hard IRQ of 3 us at 10 us, a 12 us poll at 20 us, a 30 us task at
    // 40 us. Busy 3 + 12 + 30 = 45 us of 100: 45 %; %irq 3, %soft 12, %usr 30, idle 55 us.
    // Over [0, 50 us) the task has run 10 us of its 30: busy 3 + 12 + 10 = 25 us: 50 %.
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    const CpuCoreModel::Usage start = cpu.GetUsage(0);
    cpu.HardIrq(0, 10000);
    cpu.NapiPoll(0, 1, 10, 12000, 20000);
    cpu.Submit(0, CpuClass::TASK, 30000, 40000);
    cpu.AdvanceTo(50000);
    const CpuCoreModel::Usage middle = cpu.GetUsage(0);
    cpu.AdvanceTo(100000);
    const CpuCoreModel::Usage end = cpu.GetUsage(0);
    EXPECT_DOUBLE_EQ(CpuCoreModel::BusyFraction(start, middle), 25000.0 / 50000.0);
    EXPECT_DOUBLE_EQ(CpuCoreModel::BusyFraction(start, end), 45000.0 / 100000.0);
    EXPECT_DOUBLE_EQ(CpuCoreModel::ClassFraction(start, end, CpuClass::HARDIRQ), 0.03);
    EXPECT_DOUBLE_EQ(CpuCoreModel::ClassFraction(start, end, CpuClass::SOFTIRQ), 0.12);
    EXPECT_DOUBLE_EQ(CpuCoreModel::ClassFraction(start, end, CpuClass::TASK), 0.30);
    EXPECT_EQ(end.idle - start.idle, 55000);
    // The second half alone: the task's last 20 us of 50.
    EXPECT_DOUBLE_EQ(CpuCoreModel::BusyFraction(middle, end), 20000.0 / 50000.0);
}

TEST(CpuCoreModelTest, WokenTaskWaitsForItsLatencyDraw)
{
    // The generator draws 40 us then 10 us: a 10 us task woken at 0 runs 40 to 50 us; one
    // woken at 100 us runs 110 to 120 us. Same draws, same times.
    std::vector<int64_t> draws = {40000, 10000};
    std::size_t next = 0;
    CpuCoreModel cpu(TestConfig(), [&]() { return draws[next++ % draws.size()]; });
    const uint64_t a = cpu.WakeTask(0, 10000, 0);
    EXPECT_EQ(cpu.GetCompletion(a), 50000);
    cpu.AdvanceTo(100000);
    const uint64_t b = cpu.WakeTask(0, 10000, 100000);
    EXPECT_EQ(cpu.GetCompletion(b), 120000);
}

TEST(CpuCoreModelTest, NetTxRunsInTheRestartOfThePollThatRaisedIt)
{
    // A poll of 10 rx raised at 0 costs p + 10 c = 12 us. The TX queue it woke raises
    // NET_TX_SOFTIRQ when it ends; handle_softirqs() restarts (12 us < 2 ms, 1 < 10 passes,
    // no task woken): net_tx_action() of 4 us runs in pass 2, from 12 to 16 us, as softirq.
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    const auto poll = cpu.NapiPoll(0, 1, 10, 12000, 0);
    EXPECT_EQ(poll.completion, 12000);
    cpu.AdvanceTo(12000);
    const auto tx = cpu.NetTx(0, 4000, 12000);
    EXPECT_FALSE(tx.ksoftirqd);
    EXPECT_EQ(tx.run, 2u);
    EXPECT_EQ(tx.completion, 16000);
    EXPECT_EQ(cpu.GetKsoftirqdWakeups(0), 0u);
}

TEST(CpuCoreModelTest, ATaskWokenInThePollSendsNetTxToKsoftirqdBehindIt)
{
    // The same poll, ending at 12 us, delivers data that wakes a task of w = 20 us on its
    // core: need_resched. The restart test fails, so net_tx_action() goes to ksoftirqd,
    // woken at the invocation's end (12 us) and released a latency L = 50 us later, at
    // 62 us, as is the task (woken at 12 us + L). Tasks run first come, first served: the
    // task runs 62 to 82 us, net_tx_action()'s 4 us 82 to 86 us. The queue disc refills
    // 86 - 16 = 70 us later than without the wake-up: L + w.
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    cpu.NapiPoll(0, 1, 10, 12000, 0);
    cpu.AdvanceTo(12000);
    const uint64_t task = cpu.WakeTask(0, 20000, 12000);
    const auto tx = cpu.NetTx(0, 4000, 12000);
    EXPECT_TRUE(tx.ksoftirqd);
    EXPECT_EQ(cpu.GetKsoftirqdWakeups(0), 1u);
    EXPECT_EQ(cpu.GetCompletion(task), 82000);
    EXPECT_EQ(tx.completion, 86000);
}

TEST(CpuCoreModelTest, NeedReschedEndsWithItsInvocation)
{
    // A task woken at 100 us, outside any softirq, sets no need_resched; it runs 150 to
    // 170 us. A poll raised at 200 us starts a new invocation and its NET_TX restarts in
    // softirq: poll 200 to 212 us, net_tx_action() 212 to 216 us.
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    cpu.AdvanceTo(100000);
    cpu.WakeTask(0, 20000, 100000);
    cpu.AdvanceTo(200000);
    const auto poll = cpu.NapiPoll(0, 1, 10, 12000, 200000);
    EXPECT_EQ(poll.completion, 212000);
    cpu.AdvanceTo(212000);
    const auto tx = cpu.NetTx(0, 4000, 212000);
    EXPECT_FALSE(tx.ksoftirqd);
    EXPECT_EQ(tx.completion, 216000);
}

TEST(CpuCoreModelTest, NetTxRaisedOutsideSoftirqStartsAnInvocation)
{
    // Raised at 30 us on an idle core (local_bh_enable() runs it): pass 1, 30 to 34 us. A
    // poll raised at 34 us as it ends is pending at the restart test: pass 2, 34 to 46 us.
    CpuCoreModel cpu(TestConfig(), FixedLatency);
    cpu.AdvanceTo(30000);
    const auto tx = cpu.NetTx(0, 4000, 30000);
    EXPECT_FALSE(tx.ksoftirqd);
    EXPECT_EQ(tx.run, 1u);
    EXPECT_EQ(tx.completion, 34000);
    cpu.AdvanceTo(34000);
    const auto poll = cpu.NapiPoll(0, 1, 10, 12000, 34000);
    EXPECT_EQ(poll.run, 2u);
    EXPECT_EQ(poll.completion, 46000);
}

TEST(CpuCoreModelTest, CoresAreIndependent)
{
    // A poll on core 1 does not delay a poll on core 0: both 12 us polls raised at 0 end at
    // 12 us, and only core 1's time is softirq on core 1.
    CpuCoreModel::Config config = TestConfig();
    config.cores = 2;
    CpuCoreModel cpu(config, FixedLatency);
    const auto p0 = cpu.NapiPoll(0, 1, 10, 12000, 0);
    const auto p1 = cpu.NapiPoll(1, 2, 10, 12000, 0);
    EXPECT_EQ(p0.completion, 12000);
    EXPECT_EQ(p1.completion, 12000);
    cpu.AdvanceTo(20000);
    EXPECT_EQ(cpu.GetUsage(0).busy[1], 12000);
    EXPECT_EQ(cpu.GetUsage(1).busy[1], 12000);
    EXPECT_EQ(cpu.GetNextCompletion(0), CpuCoreModel::NEVER);
}

TEST(CpuCoreModelTest, BadInputNamesTheSetting)
{
    using debloattest::ErrorOf;
    CpuCoreModel::Config config;
    config.cores = 0;
    EXPECT_NE(ErrorOf([&]() { CpuCoreModel(config, FixedLatency); }).find("Cores"),
              std::string::npos);
    config = CpuCoreModel::Config();
    config.netdevBudget = 0;
    EXPECT_NE(ErrorOf([&]() { CpuCoreModel(config, FixedLatency); }).find("NetdevBudget"),
              std::string::npos);
    config = CpuCoreModel::Config();
    config.rxPacketCost = -1;
    EXPECT_NE(ErrorOf([&]() { CpuCoreModel(config, FixedLatency); }).find("RxPacketCost"),
              std::string::npos);
    config = CpuCoreModel::Config();
    config.forwardCost = -1;
    EXPECT_NE(ErrorOf([&]() { CpuCoreModel(config, FixedLatency); }).find("ForwardCost"),
              std::string::npos);
    CpuCoreModel cpu(CpuCoreModel::Config(), []() { return int64_t{-5}; });
    EXPECT_NE(ErrorOf([&]() { cpu.Submit(1, CpuClass::TASK, 10, 0); }).find("core 1"),
              std::string::npos);
    EXPECT_NE(ErrorOf([&]() { cpu.WakeTask(0, 10, 0); }).find("scheduling latency"),
              std::string::npos);
    cpu.AdvanceTo(100);
    EXPECT_NE(ErrorOf([&]() { cpu.Submit(0, CpuClass::TASK, 10, 50); }).find("before"),
              std::string::npos);
}

} // namespace
