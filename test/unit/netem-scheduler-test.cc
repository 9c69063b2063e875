/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for NetemScheduler: packet_time_ns() with overheads and cells, the tfifo
 * order, the rate's reference point, reordering with gap, and the slots' arithmetic, each
 * against a timeline derived in a comment from net/sched/sch_netem.c.
 */

#include "ns3/netem-core.h"

#include <algorithm>
#include <cstdint>
#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace
{

using namespace ns3::debloat;

/// One millisecond, ns.
constexpr int64_t MS = 1000000;

/// @param text tc words @return a scheduler configured by them at time 0
NetemScheduler
Make(const std::string& text, uint64_t seed = 1)
{
    NetemConfig config;
    ParseNetemOptions(config, text);
    return NetemScheduler(config, seed, seed + 1, 0);
}

/// @param netem a scheduler @param now the time @return every handle it lets go now
std::vector<uint32_t>
DrainAt(NetemScheduler& netem, int64_t now)
{
    std::vector<uint32_t> handles;
    while (const std::optional<uint32_t> handle = netem.Dequeue(now))
    {
        handles.push_back(*handle);
    }
    return handles;
}

TEST(NetemSchedulerTest, PacketTime)
{
    // 100 Mbit/s = 12500000 bytes/s: 80 ns per byte.
    const uint64_t rate = 12500000;
    // 1514 bytes: 1514 x 80 = 121120 ns.
    EXPECT_EQ(NetemPacketTimeNs(1514, rate, 0, 0, 0), 121120U);
    // Packet overhead 20: 1534 x 80 = 122720 ns.
    EXPECT_EQ(NetemPacketTimeNs(1514, rate, 20, 0, 0), 122720U);
    // Cells of 48 with 5 bytes each (ATM): 1514 / 48 = 31.54, 31 x 48 = 1488 < 1514, so 32
    // cells of 53 bytes = 1696 bytes, 135680 ns.
    EXPECT_EQ(NetemPacketTimeNs(1514, rate, 0, 48, 5), 135680U);
    // 1488 bytes fill exactly 31 cells: 31 x 53 = 1643 bytes, 131440 ns.
    EXPECT_EQ(NetemPacketTimeNs(1488, rate, 0, 48, 5), 131440U);
    // The packet overhead comes before the cells: 1478 + 10 = 1488 -> 31 cells again.
    EXPECT_EQ(NetemPacketTimeNs(1478, rate, 10, 48, 5), 131440U);
    // Truncated: 1 byte at 3 bytes/s is 333333333.3 ns -> 333333333.
    EXPECT_EQ(NetemPacketTimeNs(1, 3, 0, 0, 0), 333333333U);
    // An overhead larger than the packet: 0 bytes (see the deviation in netem-core.h).
    EXPECT_EQ(NetemPacketTimeNs(10, rate, -20, 0, 0), 0U);
}

TEST(NetemSchedulerTest, ConstantDelay)
{
    // No jitter: time_to_send = now + latency, and the packet leaves then, not before.
    NetemScheduler netem = Make("delay 10ms");
    EXPECT_EQ(netem.Insert(0, 1000, 0), 10 * MS);
    EXPECT_EQ(netem.Insert(1, 1000, 3 * MS), 13 * MS);
    EXPECT_FALSE(netem.Dequeue(10 * MS - 1));
    EXPECT_EQ(netem.TakeWatchdog(), 10 * MS);
    EXPECT_FALSE(netem.TakeWatchdog()); // taken once
    EXPECT_EQ(DrainAt(netem, 10 * MS), std::vector<uint32_t>{0});
    EXPECT_EQ(netem.TakeWatchdog(), 13 * MS);
    EXPECT_EQ(DrainAt(netem, 13 * MS), std::vector<uint32_t>{1});
    EXPECT_EQ(netem.GetQlen(), 0U);
    EXPECT_EQ(netem.GetStats().delayed, 2U);
}

TEST(NetemSchedulerTest, TfifoIsAStableSortByTime)
{
    // With jitter every packet gets its own time; tfifo_enqueue() and netem_peek() hand
    // them out by time, equal times in arrival order (the linear list wins ties).
    NetemScheduler netem = Make("delay 10ms 5ms");
    std::vector<std::pair<int64_t, uint32_t>> expected;
    for (uint32_t h = 0; h < 200; ++h)
    {
        const int64_t t = netem.Insert(h, 100, 0);
        EXPECT_GE(t, 5 * MS); // uniform on [latency - jitter, latency + jitter)
        EXPECT_LT(t, 15 * MS);
        expected.emplace_back(t, h);
    }
    std::stable_sort(expected.begin(), expected.end(), [](const auto& a, const auto& b) {
        return a.first < b.first;
    });
    std::vector<uint32_t> order;
    for (const auto& e : expected)
    {
        order.push_back(e.second);
    }
    EXPECT_EQ(DrainAt(netem, 20 * MS), order);
    // Jitter reorders: some packet leaves before one that came earlier.
    bool reordered = false;
    for (size_t i = 1; i < order.size(); ++i)
    {
        reordered = reordered || order[i] < order[i - 1];
    }
    EXPECT_TRUE(reordered);
}

TEST(NetemSchedulerTest, RateQueuesBehindTheLastPacket)
{
    // rate 1Mbit = 125000 bytes/s: 1000 bytes take 8 ms. delay 10ms.
    // p0 at 0: no packet queued: 0 + 10 + 8 = 18 ms.
    // p1 at 0: last = 18 ms; delay 10 - (18 - 0) = -8 -> 0; 18 + 0 + 8 = 26 ms.
    // p2 at 20 ms (p0 gone, p1 still queued): last = 26; 10 - (26 - 20) = 4; 26 + 4 + 8 =
    //    38 ms = its own 20 + 10 + 8: the queue no longer holds it back.
    NetemScheduler netem = Make("delay 10ms rate 1Mbit");
    EXPECT_EQ(netem.Insert(0, 1000, 0), 18 * MS);
    EXPECT_EQ(netem.Insert(1, 1000, 0), 26 * MS);
    EXPECT_EQ(DrainAt(netem, 20 * MS), std::vector<uint32_t>{0});
    EXPECT_EQ(netem.Insert(2, 1000, 20 * MS), 38 * MS);
    // With jitter, rate keeps the order: each time is at least the last one's plus 8 ms.
    NetemScheduler jittered = Make("delay 10ms 5ms rate 1Mbit");
    int64_t last = 0;
    for (uint32_t h = 0; h < 50; ++h)
    {
        const int64_t t = jittered.Insert(h, 1000, 0);
        EXPECT_GE(t, last + 8 * MS);
        last = t;
    }
}

TEST(NetemSchedulerTest, ReorderWithGap)
{
    // reorder 100% gap 3: counter < gap - 1 = 2 keeps a packet in the delay line; the next
    // draws reorder < get_crandom(), never true for 100% (UINT32_MAX), so it goes to the
    // front and counter returns to 0. Handles 0..6 at time 0:
    //   0 (counter 0) delayed, 1 (1) delayed, 2 (2) reordered, 3 delayed, 4 delayed,
    //   5 reordered, 6 delayed.
    // The reordered queue takes each at its head (__qdisc_enqueue_head()): 5 leaves before
    // 2. The others leave at 10 ms in order.
    NetemScheduler netem = Make("delay 10ms reorder 100% gap 3");
    for (uint32_t h = 0; h < 7; ++h)
    {
        netem.Insert(h, 100, 0);
    }
    EXPECT_EQ(DrainAt(netem, 0), (std::vector<uint32_t>{5, 2}));
    EXPECT_EQ(netem.TakeWatchdog(), 10 * MS);
    EXPECT_EQ(DrainAt(netem, 10 * MS), (std::vector<uint32_t>{0, 1, 3, 4, 6}));
    EXPECT_EQ(netem.GetStats().reordered, 2U);
    EXPECT_EQ(netem.GetStats().delayed, 5U);
}

TEST(NetemSchedulerTest, SlotsReleaseBursts)
{
    // slot 1ms 1ms packets 2: configured at 0, the first slot opens at 0. Five packets at
    // 0.5 ms with no delay: the head's time (0.5 ms) is after slot_next (0), so a new slot
    // starts from now: 0.5 + 1 = 1.5 ms (min + (max - min) x r / 2^32 = 1 ms). At 1.5 ms two
    // packets go, and the second empties the slot's budget: the next one opens at 2.5 ms,
    // then 3.5 ms for the last.
    NetemScheduler netem = Make("slot 1ms 1ms packets 2");
    for (uint32_t h = 0; h < 5; ++h)
    {
        netem.Insert(h, 1000, MS / 2);
    }
    EXPECT_TRUE(DrainAt(netem, MS / 2).empty());
    EXPECT_EQ(netem.TakeWatchdog(), 3 * MS / 2);
    EXPECT_EQ(DrainAt(netem, 3 * MS / 2), (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(netem.TakeWatchdog(), 5 * MS / 2);
    EXPECT_EQ(DrainAt(netem, 5 * MS / 2), (std::vector<uint32_t>{2, 3}));
    EXPECT_EQ(DrainAt(netem, 7 * MS / 2), (std::vector<uint32_t>{4}));
}

TEST(NetemSchedulerTest, SlotBytesMayBeOverrun)
{
    // bytes 2500 with 1000-byte packets: the budget is checked after each packet takes its
    // bytes (2500 - 1000 - 1000 = 500 > 0, then -500), so a slot sends three.
    NetemScheduler netem = Make("slot 1ms bytes 2500");
    for (uint32_t h = 0; h < 7; ++h)
    {
        netem.Insert(h, 1000, MS);
    }
    // The first slot opened at 0; the head (1 ms) is after it: a new one at 2 ms.
    EXPECT_TRUE(DrainAt(netem, MS).empty());
    EXPECT_EQ(DrainAt(netem, 2 * MS), (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(DrainAt(netem, 3 * MS), (std::vector<uint32_t>{3, 4, 5}));
    EXPECT_EQ(DrainAt(netem, 4 * MS), (std::vector<uint32_t>{6}));
}

TEST(NetemSchedulerTest, UniformSlotDelaysStayInRange)
{
    // get_slot_next(): min + (max - min) x get_random_u32() / 2^32, in [min, max).
    // From 1 ms on: the slot that opened at 0 is over, so each packet starts a new one.
    NetemScheduler netem = Make("slot 800us 1ms packets 1");
    int64_t now = MS;
    for (uint32_t h = 0; h < 100; ++h)
    {
        netem.Insert(h, 100, now);
        EXPECT_TRUE(DrainAt(netem, now).empty());
        const std::optional<int64_t> at = netem.TakeWatchdog();
        ASSERT_TRUE(at);
        EXPECT_GE(*at - now, 800000);
        EXPECT_LT(*at - now, 1000000);
        EXPECT_EQ(DrainAt(netem, *at), std::vector<uint32_t>{h});
        now = *at + 5 * MS; // after the slot that the budget of one opened
    }
}

TEST(NetemSchedulerTest, LimitAndDuplicates)
{
    // sch->q.qlen >= sch->limit refuses the next packet.
    NetemScheduler netem = Make("limit 3 duplicate 100%");
    EXPECT_FALSE(netem.IsFull(2));
    EXPECT_TRUE(netem.IsFull(3));
    // duplicate 100%: UINT32_MAX >= any draw.
    for (int i = 0; i < 10; ++i)
    {
        EXPECT_TRUE(netem.DrawDuplicate());
    }
    EXPECT_FALSE(Make("").DrawDuplicate()); // 0: never, and no draw
}

TEST(NetemSchedulerTest, SameSeedSameSequence)
{
    // Two schedulers seeded alike draw alike; tc's seed overrides the seed argument, as
    // TCA_NETEM_PRNG_SEED replaces netem_init()'s random one.
    auto times = [](NetemScheduler netem) {
        std::vector<int64_t> t;
        for (uint32_t h = 0; h < 50; ++h)
        {
            t.push_back(netem.DrawLoss() ? -1 : netem.Insert(h, 100, 0));
        }
        return t;
    };
    const std::string text = "delay 10ms 5ms 30% loss 10%";
    EXPECT_EQ(times(Make(text, 1)), times(Make(text, 1)));
    EXPECT_NE(times(Make(text, 1)), times(Make(text, 2)));
    EXPECT_EQ(times(Make("delay 10ms 5ms loss 10% seed 99", 1)),
              times(Make("delay 10ms 5ms loss 10% seed 99", 2)));
    // A correlation's first "last" is init_crandom()'s get_random_u32(), not the prng's: with
    // tc's seed but another entropy seed, a correlated delay starts elsewhere (as in Linux).
    EXPECT_NE(times(Make(text + " seed 99", 1)), times(Make(text + " seed 99", 2)));
}

} // namespace
