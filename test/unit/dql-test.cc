/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases that walk the DQL arithmetic of lib/dynamic_queue_limits.c step by step.
 * Each expected value is derived in a comment from the kernel's formulas:
 *   ovlimit     = POSDIFF(num_queued - num_completed, limit)
 *   inprogress  = num_queued - completed,   prev_inprogress = prev_num_queued - num_completed
 *   starved     = (ovlimit && !inprogress) || (prev_ovlimit && completed >= prev_num_queued)
 *   starved:      limit += POSDIFF(completed, prev_num_queued) + prev_ovlimit
 *   busy:         slack = max(POSDIFF(limit + prev_ovlimit, 2 * count),
 *                             prev_ovlimit ? POSDIFF(prev_last_obj_cnt, prev_ovlimit) : 0)
 *                 limit -= lowest slack once jiffies > slack_start_time + hold_time
 *   avail       = limit + completed - num_queued
 * where completed = num_completed + count.
 */

#include "ns3/dql.h"

#include <gtest/gtest.h>

namespace
{

using ns3::debloat::Dql;

/// Hold time long enough that no test below shrinks the limit by accident.
constexpr Dql::Jiffies LONG_HOLD = 1000;

/// Completes count bytes at jiffy now and fails the test if DQL refuses.
Dql::Completion
Complete(Dql& dql, uint32_t count, Dql::Jiffies now)
{
    Dql::Completion result;
    EXPECT_TRUE(dql.Completed(count, now, result));
    return result;
}

TEST(DqlTest, FreshQueueStopsOnFirstPost)
{
    // dql_reset() leaves limit = 0 and adj_limit = 0, so the first post of 1514 bytes makes
    // avail = 0 - 1514 < 0: a fresh device stops after one packet until its first completion.
    Dql dql(LONG_HOLD, 0);
    EXPECT_EQ(dql.GetLimit(), 0U);
    EXPECT_EQ(dql.Avail(), 0);
    ASSERT_TRUE(dql.Queued(1514, 0));
    EXPECT_EQ(dql.Avail(), -1514);
    EXPECT_EQ(dql.GetInflight(), 1514U);
}

TEST(DqlTest, StarvationIncreasesByCompletedBytes)
{
    Dql dql(LONG_HOLD, 0);
    ASSERT_TRUE(dql.Queued(1514, 0));
    // Completion 1: ovlimit = POSDIFF(1514, 0) = 1514 and inprogress = 0, so starved:
    // limit = 0 + POSDIFF(1514, prev_num_queued = 0) + prev_ovlimit 0 = 1514.
    // avail = 1514 + 1514 - 1514 = 1514. The limit changed, so ovlimit is stored as 0.
    Complete(dql, 1514, 1);
    EXPECT_EQ(dql.GetLimit(), 1514U);
    EXPECT_EQ(dql.Avail(), 1514);

    // Post two more packets: num_queued = 4542, avail = 3028 - 4542 = -1514 (stopped).
    ASSERT_TRUE(dql.Queued(1514, 1));
    ASSERT_TRUE(dql.Queued(1514, 1));
    EXPECT_EQ(dql.Avail(), -1514);
    // Completion 2 reclaims both: ovlimit = POSDIFF(3028, 1514) = 1514, inprogress = 0,
    // starved: limit = 1514 + POSDIFF(4542, prev_num_queued 1514) + 0 = 1514 + 3028 = 4542.
    Complete(dql, 3028, 2);
    EXPECT_EQ(dql.GetLimit(), 4542U);
    EXPECT_EQ(dql.Avail(), 4542);
}

TEST(DqlTest, PreviousOverLimitStarvation)
{
    // A device that reclaims one 1030-byte packet per completion, as ns-3's PointToPoint does
    // at the start of each transmission, with the producer refilling while avail >= 0.
    const uint32_t s = 1030;
    Dql dql(LONG_HOLD, 0);
    ASSERT_TRUE(dql.Queued(s, 0));
    // C1: starved (ovlimit s, inprogress 0): limit = s. avail = s + s - s = s.
    Complete(dql, s, 0);
    ASSERT_EQ(dql.GetLimit(), s);
    ASSERT_TRUE(dql.Queued(s, 0)); // avail 0: keeps going
    ASSERT_TRUE(dql.Queued(s, 0)); // avail -s: stops; num_queued = 3s, num_completed = s
    ASSERT_EQ(dql.Avail(), -static_cast<int32_t>(s));
    // C2: ovlimit = POSDIFF(2s, s) = s, inprogress = s, prev_inprogress = s - s = 0,
    // completed 2s >= prev_num_queued s but prev_ovlimit = 0: neither branch, limit stays s.
    // prev_ovlimit becomes s, prev_num_queued 3s. avail = s + 2s - 3s = 0.
    Complete(dql, s, 1);
    EXPECT_EQ(dql.GetLimit(), s);
    EXPECT_EQ(dql.Avail(), 0);
    ASSERT_TRUE(dql.Queued(s, 1)); // num_queued 4s, avail -s
    // C3: completed = 3s = prev_num_queued, so all_prev_completed with prev_ovlimit = s:
    // starved, limit = s + POSDIFF(3s, 3s) + s = 2s. avail = 2s + 3s - 4s = s.
    Complete(dql, s, 2);
    EXPECT_EQ(dql.GetLimit(), 2 * s);
    EXPECT_EQ(dql.Avail(), static_cast<int32_t>(s));
}

TEST(DqlTest, SlackDecreaseWaitsForHoldTime)
{
    const Dql::Jiffies hold = 10;
    Dql dql(hold, 0);
    // Starve once at jiffy 0: limit = 4000, slack_start_time = 0.
    ASSERT_TRUE(dql.Queued(4000, 0));
    Complete(dql, 4000, 0);
    ASSERT_EQ(dql.GetLimit(), 4000U);
    // Keep 4000 bytes (four 1000-byte objects) in flight and reclaim one per jiffy.
    for (int i = 0; i < 4; i++)
    {
        ASSERT_TRUE(dql.Queued(1000, 0));
    }
    // Jiffy 1: prev_inprogress = prev_num_queued 4000 - num_completed 4000 = 0, so no slack
    // is measured yet; ovlimit = POSDIFF(4000, 4000) = 0, nothing starved.
    Complete(dql, 1000, 1);
    ASSERT_TRUE(dql.Queued(1000, 1));
    EXPECT_EQ(dql.GetLowestSlack(), UINT32_MAX);
    // Jiffies 2..10: busy the whole interval (inprogress 3000, prev_inprogress 3000, not all
    // completed): slack = POSDIFF(4000 + 0, 2 * 1000) = 2000. time_after(now, 0 + 10) is
    // false up to and including jiffy 10, so the limit holds.
    for (Dql::Jiffies now = 2; now <= 10; now++)
    {
        Complete(dql, 1000, now);
        ASSERT_TRUE(dql.Queued(1000, now));
        EXPECT_EQ(dql.GetLimit(), 4000U) << "jiffy " << now;
        EXPECT_EQ(dql.GetLowestSlack(), 2000U) << "jiffy " << now;
    }
    // Jiffy 11 > 0 + 10: limit = 4000 - lowest slack 2000 = 2000, slack search restarts.
    Complete(dql, 1000, 11);
    EXPECT_EQ(dql.GetLimit(), 2000U);
    EXPECT_EQ(dql.GetLowestSlack(), UINT32_MAX);
}

TEST(DqlTest, SlackOfLastObjectRoundsDown)
{
    Dql dql(LONG_HOLD, 0);
    // Starve once: limit = 5000; num_queued = num_completed = 5000.
    ASSERT_TRUE(dql.Queued(5000, 0));
    Complete(dql, 5000, 0);
    ASSERT_EQ(dql.GetLimit(), 5000U);
    // Post 100, 4000 and 1000 bytes: inflight 5100, avail = 10000 - 10100 = -100.
    ASSERT_TRUE(dql.Queued(100, 0));
    ASSERT_TRUE(dql.Queued(4000, 0));
    ASSERT_TRUE(dql.Queued(1000, 0));
    ASSERT_EQ(dql.Avail(), -100);
    // C1 reclaims 100: ovlimit = POSDIFF(5100, 5000) = 100, prev_inprogress = 0: no branch.
    // Stored: prev_ovlimit 100, prev_last_obj_cnt 1000, prev_num_queued 10100.
    Complete(dql, 100, 1);
    EXPECT_EQ(dql.GetLimit(), 5000U);
    // C2 reclaims 4000: inprogress 1000, prev_inprogress 5000, completed 9100 < 10100: busy.
    // slack = POSDIFF(5000 + 100, 2 * 4000) = 0, but the last object rounds down:
    // POSDIFF(1000, 100) = 900, so the lowest slack is 900 (no decrease before hold time).
    Complete(dql, 4000, 2);
    EXPECT_EQ(dql.GetLowestSlack(), 900U);
    EXPECT_EQ(dql.GetLimit(), 5000U);
}

TEST(DqlTest, LimitIsClampedToMinAndMax)
{
    // limit_max 3000: a starvation that would give 5000 is clamped to 3000;
    // avail = 3000 + 5000 - 5000 = 3000.
    Dql high(LONG_HOLD, 0);
    high.SetMaxLimit(3000);
    ASSERT_TRUE(high.Queued(5000, 0));
    Complete(high, 5000, 1);
    EXPECT_EQ(high.GetLimit(), 3000U);
    EXPECT_EQ(high.Avail(), 3000);

    // limit_min 2000: a starvation that would give 500 is raised to 2000;
    // avail = 2000 + 500 - 500 = 2000.
    Dql low(LONG_HOLD, 0);
    low.SetMinLimit(2000);
    ASSERT_TRUE(low.Queued(500, 0));
    Complete(low, 500, 1);
    EXPECT_EQ(low.GetLimit(), 2000U);
    EXPECT_EQ(low.Avail(), 2000);
}

TEST(DqlTest, CountersWrapAroundAt32Bits)
{
    const uint32_t x = Dql::MAX_OBJECT; // 268435455 = (2^32 - 1) / 16
    Dql dql(LONG_HOLD, 0);
    // Pin the limit to x so that each round trip of one x-byte object is neither over the
    // limit nor starved: after 16 round trips both counters are 16x = 2^32 - 16.
    dql.SetMinLimit(x);
    dql.SetMaxLimit(x);
    for (int i = 0; i < 16; i++)
    {
        ASSERT_TRUE(dql.Queued(x, 0));
        Complete(dql, x, 0);
    }
    ASSERT_EQ(dql.GetNumQueued(), UINT32_MAX - 15);
    ASSERT_EQ(dql.GetLimit(), x);
    dql.SetMinLimit(0);
    dql.SetMaxLimit(Dql::MAX_LIMIT);

    // Post x bytes: num_queued wraps to x - 16; avail = x + (2^32 - 16) - (x - 16) = 0 mod 2^32.
    ASSERT_TRUE(dql.Queued(x, 0));
    EXPECT_EQ(dql.GetNumQueued(), x - 16);
    EXPECT_EQ(dql.GetInflight(), x);
    EXPECT_EQ(dql.Avail(), 0);
    // Post 1000 more: avail = -1000, stopped.
    ASSERT_TRUE(dql.Queued(1000, 0));
    EXPECT_EQ(dql.Avail(), -1000);
    // Reclaim both: ovlimit = POSDIFF(x + 1000, x) = 1000, inprogress 0: starved.
    // POSDIFF(completed = x + 984, prev_num_queued = 2^32 - 16) = x + 1000 across the wrap,
    // so limit = x + (x + 1000) + 0 = 2x + 1000 and avail = limit.
    Complete(dql, x + 1000, 1);
    EXPECT_EQ(dql.GetLimit(), 2 * x + 1000);
    EXPECT_EQ(dql.Avail(), static_cast<int32_t>(2 * x + 1000));
    EXPECT_EQ(dql.GetInflight(), 0U);
}

TEST(DqlTest, RefusesOversizedPostsAndCompletions)
{
    Dql dql(LONG_HOLD, 0);
    EXPECT_FALSE(dql.Queued(Dql::MAX_OBJECT + 1, 0));
    EXPECT_EQ(dql.GetNumQueued(), 0U);
    ASSERT_TRUE(dql.Queued(1000, 0));
    Dql::Completion result;
    EXPECT_FALSE(dql.Completed(1001, 0, result));
    EXPECT_EQ(dql.GetNumCompleted(), 0U);
}

TEST(DqlTest, StallThresholdRange)
{
    // net-sysfs: 0, or 4 .. 4 / 2 * BITS_PER_LONG = 128 jiffies on a 64-bit kernel.
    Dql dql(LONG_HOLD, 0);
    EXPECT_FALSE(dql.SetStallThreshold(3, 0));
    EXPECT_FALSE(dql.SetStallThreshold(129, 0));
    EXPECT_TRUE(dql.SetStallThreshold(4, 0));
    EXPECT_TRUE(dql.SetStallThreshold(128, 0));
    EXPECT_TRUE(dql.SetStallThreshold(0, 0));
    EXPECT_EQ(dql.GetStallThreshold(), 0U);
}

TEST(DqlTest, StallDetectedWhenQueuedEarlyInALongGap)
{
    Dql dql(LONG_HOLD, 0);
    ASSERT_TRUE(dql.SetStallThreshold(10, 0)); // last_reap = 0
    ASSERT_TRUE(dql.Queued(1000, 5));          // history bit for jiffy 5
    // At jiffy 30: 30 >= last_reap 0 + 10. history_head = 0, so start = max(last_reap + 1,
    // (0 - 4 + 1) * 64) = 1 and end = min(0 * 64 + 63, 30 - 10 / 2) = 25. The first queued
    // jiffy in [1, 25] is 5: a stall of 30 - 5 = 25 jiffies.
    const Dql::Completion c = Complete(dql, 1000, 30);
    EXPECT_TRUE(c.stall);
    EXPECT_EQ(c.stallJiffies, 25);
    EXPECT_EQ(dql.GetStallCount(), 1U);
    EXPECT_EQ(dql.GetStallMax(), 25);
}

TEST(DqlTest, NoStallWhenQueuedInTheSecondHalf)
{
    Dql dql(LONG_HOLD, 0);
    ASSERT_TRUE(dql.SetStallThreshold(10, 0));
    // Queued at jiffy 8; completion at 12: 12 >= 0 + 10, but end = 12 - 5 = 7 < 8, so the
    // post was in the second half of the gap: not a stall.
    ASSERT_TRUE(dql.Queued(1000, 8));
    EXPECT_FALSE(Complete(dql, 1000, 12).stall);
    // Queued at jiffy 13 and completed at 20: 20 < last_reap 12 + 10, no check at all.
    ASSERT_TRUE(dql.Queued(1000, 13));
    EXPECT_FALSE(Complete(dql, 1000, 20).stall);
    EXPECT_EQ(dql.GetStallCount(), 0U);

    // A post in the jiffy of the last reap is outside [last_reap + 1, end]: detection
    // switched on at jiffy 0 (last_reap = 0) never blames a post made in jiffy 0.
    Dql same(LONG_HOLD, 0);
    ASSERT_TRUE(same.SetStallThreshold(10, 0));
    ASSERT_TRUE(same.Queued(1000, 0));
    EXPECT_FALSE(Complete(same, 1000, 30).stall);
}

TEST(DqlTest, StallHistoryForgetsOldWords)
{
    Dql dql(LONG_HOLD, 0);
    ASSERT_TRUE(dql.SetStallThreshold(10, 0));
    ASSERT_TRUE(dql.Queued(100, 5)); // word 0, bit 5
    // Jiffy 300 is in word 300 / 64 = 4: the head moves from 0 to 4 and words 1, 2, 3 and
    // 4 % 4 = 0 are cleared before bit 300 % 64 = 44 is set; jiffy 5's bit is gone.
    ASSERT_TRUE(dql.Queued(100, 300));
    // At jiffy 320 (last_reap 0): start = max(1, (4 - 3) * 64) = 64, end = min(4 * 64 + 63,
    // 320 - 5) = 315. Jiffy 261 shares jiffy 5's slot (261 % 256 = 5); had the old word
    // survived the search would stop there (59 jiffies). It finds 300: 20 jiffies.
    const Dql::Completion c = Complete(dql, 200, 320);
    EXPECT_TRUE(c.stall);
    EXPECT_EQ(c.stallJiffies, 20);
}

TEST(DqlTest, StallMaxKeepsTheLongestAndResets)
{
    Dql dql(LONG_HOLD, 0);
    ASSERT_TRUE(dql.SetStallThreshold(10, 0));
    ASSERT_TRUE(dql.Queued(100, 5));
    EXPECT_EQ(Complete(dql, 100, 30).stallJiffies, 25); // as above: 30 - 5
    // Next: last_reap 30; queued at 31, completed at 43 (>= 40): end = 43 - 5 = 38,
    // start = 31: stall of 43 - 31 = 12 jiffies; stall_max stays 25.
    ASSERT_TRUE(dql.Queued(100, 31));
    EXPECT_EQ(Complete(dql, 100, 43).stallJiffies, 12);
    EXPECT_EQ(dql.GetStallCount(), 2U);
    EXPECT_EQ(dql.GetStallMax(), 25);
    dql.ResetStallMax();
    EXPECT_EQ(dql.GetStallMax(), 0);
    // dql_reset() keeps the stall statistics and the threshold.
    dql.Reset(50);
    EXPECT_EQ(dql.GetStallCount(), 2U);
    EXPECT_EQ(dql.GetStallThreshold(), 10U);
    EXPECT_EQ(dql.GetLimit(), 0U);
}

} // namespace
