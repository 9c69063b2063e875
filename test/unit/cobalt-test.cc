/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for the COBALT AQM of net/sched/sch_cake.c. Expected values are derived
 * in comments from:
 *   newton step:  inv2 = (inv * inv) >> 32; val = ((3 << 32) - count * inv2) >> 2;
 *                 inv' = (val * inv) >> 31     (all Q0.32, y' = y * (3 - count * y^2) / 2)
 *   control law:  t + ((u32)interval * rec_inv_sqrt) >> 32  (= t + interval / sqrt(count))
 *   should_drop:  over = sojourn > target && > 2 * mtu_time * bulk && > 4 * mtu_time;
 *                 next_due = count && now >= drop_next; entering dropping sets
 *                 drop_next = control(now); a due signal while dropping marks/drops, count++,
 *                 drop_next = control(drop_next); otherwise due steps decay count;
 *                 BLUE drops if p_drop && not dropped && rnd < p_drop; finally
 *                 count == 0 -> drop_next = now + interval, else schedule > 0 && !drop ->
 *                 drop_next = now.
 *   BLUE timer:   p_drop changes only if now - blue_timer > target (target, not interval).
 * Times are ns; 1 ms = 1000000.
 */

#include "ns3/cobalt.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

namespace
{

using ns3::debloat::COBALT_REC_INV_SQRT_CACHE;
using ns3::debloat::CobaltCacheInit;
using ns3::debloat::CobaltControl;
using ns3::debloat::CobaltInvSqrt;
using ns3::debloat::CobaltNewtonStep;
using ns3::debloat::CobaltParameters;
using ns3::debloat::CobaltParametersForRate;
using ns3::debloat::CobaltQueueEmpty;
using ns3::debloat::CobaltQueueFull;
using ns3::debloat::CobaltRandomSource;
using ns3::debloat::CobaltRecInvSqrtCache;
using ns3::debloat::CobaltShouldDrop;
using ns3::debloat::CobaltTrySetCe;
using ns3::debloat::CobaltVars;
using ns3::debloat::CobaltVarsInit;
using ns3::debloat::CobaltVerdict;

constexpr int64_t MS = 1000000;

/// A random source that replays a script and counts its calls.
struct ScriptedRandom
{
    std::vector<uint32_t> values; ///< the numbers to return, in order
    std::size_t calls{0};         ///< numbers returned so far

    /// @return a callable returning the next scripted number
    CobaltRandomSource Source()
    {
        return [this]() { return values.at(calls++); };
    }
};

/// An ECN marker that answers a fixed capability and counts its calls.
struct Marker
{
    bool ect{false};      ///< whether the packet is ECN-capable
    std::size_t calls{0}; ///< calls so far

    /// @return a callable standing for INET_ECN_set_ce()
    CobaltTrySetCe Source()
    {
        return [this]() {
            calls++;
            return ect;
        };
    }
};

/// A random source that must not be called.
const CobaltRandomSource kNoRandom = []() -> uint32_t {
    ADD_FAILURE() << "random source called";
    return 0;
};

/// floor(2^32 / sqrt(n)) in long double.
uint64_t
ExactInvSqrt(uint32_t n)
{
    return static_cast<uint64_t>(
        std::floor(4294967296.0L / std::sqrt(static_cast<long double>(n))));
}

// One Newton step from the exact Q0.32 value of 1/sqrt(n) stays at that value within the
// truncation error: inv2 is floored (< 1 low, so val is up to n/4 high after >> 2, plus up
// to 0.75 low from the >> 2), and val * y / 2^31 turns a val error e into e * 2 / sqrt(n)
// units, plus < 1 from the final floor. Bound: (n/4 + 1) * 2 / sqrt(n) + 2 units.
TEST(CobaltNewton, OneStepKeepsExactValueWithinKernelPrecision)
{
    for (uint32_t n : {2U, 3U, 4U, 5U, 7U, 16U, 17U, 100U, 1000U, 4096U, 65535U, 1000000U})
    {
        CobaltVars v;
        v.count = n;
        v.recInvSqrt = static_cast<uint32_t>(ExactInvSqrt(n));
        CobaltNewtonStep(v);
        const long double bound = (n / 4.0L + 1) * 2 / std::sqrt(static_cast<long double>(n)) + 2;
        const long double err =
            static_cast<long double>(v.recInvSqrt) - static_cast<long double>(ExactInvSqrt(n));
        EXPECT_LE(std::fabs(err), bound) << "count " << n;
    }
}

// count 1 from 0xFFFFFFFF (the closest to 1.0): inv2 = (2^32-1)^2 >> 32 = 2^32 - 2;
// val = 3*2^32 - (2^32 - 2) = 2^33 + 2; >> 2 = 2^31; * (2^32 - 1) >> 31 = 2^32 - 1.
TEST(CobaltNewton, FixedPointAtCountOne)
{
    CobaltVars v;
    v.count = 1;
    v.recInvSqrt = 0xFFFFFFFFU;
    CobaltNewtonStep(v);
    EXPECT_EQ(v.recInvSqrt, 0xFFFFFFFFU);
}

// Stepping from count 16 (y = 2^30 exactly) to count 17: inv2 = 2^60 >> 32 = 2^28;
// val = 48*2^28 - 17*2^28 = 31*2^28; >> 2 = 31*2^26; * 2^30 >> 31 = 31*2^25 = 1040187392
// (exact 2^32/sqrt(17) = 1041705596.6: one step lands 0.15 % low, as the kernel accepts).
TEST(CobaltNewton, StepFromSixteenToSeventeen)
{
    CobaltVars v;
    v.count = 17;
    v.recInvSqrt = 1U << 30;
    CobaltNewtonStep(v);
    EXPECT_EQ(v.recInvSqrt, 1040187392U);
}

// Older kernels' cobalt_cache_init(): entry 0 = ~0, entry n = four Newton steps at count n
// starting from entry n-1. The step in the kernel's u64 arithmetic: inv2 = inv * inv >> 32;
// val = ((3 << 32) - count * inv2) >> 2; inv' = (u32)(val * inv >> 31). By hand:
//   count 1 from 0xFFFFFFFF: inv2 = 0xFFFFFFFE, val = (3 * 2^32 - 0xFFFFFFFE) >> 2 =
//     (2^33 + 2) >> 2 = 2^31, inv' = 2^31 * (2^32 - 1) >> 31 = 2^32 - 1: a fixed point.
//   count 2 from 0xFFFFFFFF: val = (3 * 2^32 - 2 * 0xFFFFFFFE) >> 2 = (2^32 + 4) >> 2 =
//     2^30 + 1, inv' = (2^30 + 1)(2^32 - 1) >> 31 = 2^31 + 1 = 2147483649; the next three
//     steps (y' = y (3 - 2 y^2) / 2 in reals: 0.5 -> 0.625 -> 0.693359 -> 0.706708) give
//     2684354560, 2977955840 and 3035289760, still 1.7e6 below 2^32 / sqrt 2 = 3037000500.
// Entries 3..15 were replayed the same way outside this program (the integer step above
// written out in a separate script), each from the entry before it.
TEST(CobaltCache, LegacyInitMatchesTheIterationReplayedByHand)
{
    const std::array<uint32_t, 16> expected = {4294967295U,
                                               4294967295U,
                                               3035289760U,
                                               2479700455U,
                                               2147483647U,
                                               1920767767U,
                                               1753413055U,
                                               1623345051U,
                                               1518500250U,
                                               1431655765U,
                                               1358187914U,
                                               1294981364U,
                                               1239850263U,
                                               1191209601U,
                                               1147878294U,
                                               1108955788U};
    const auto cache = CobaltCacheInit();
    ASSERT_EQ(cache.size(), expected.size());
    for (uint32_t n = 0; n < expected.size(); n++)
    {
        EXPECT_EQ(cache[n], expected[n]) << "count " << n;
    }
}

// The cache cobalt_invsqrt() uses is the static table of newer kernels
// (cobalt_rec_inv_sqrt_cache in sch_cake.c, listed in linux.md 1.9): entries 0 and 1
// saturate Q0.32 (1/sqrt(0) and 1/sqrt(1) do not fit), entries 2..15 are 2^32 / sqrt(n)
// rounded to within one unit, e.g. 2^32 / sqrt 2 = 3037000499.98 -> 3037000500,
// 2^32 / sqrt 4 = 2^31, stored as 2^31 - 1 = 2147483647 (the iteration approaches from below).
// Both the literal table and the long-double value (ExactInvSqrt) are independent of the code.
TEST(CobaltCache, StaticTableIsTheKernelsTable)
{
    const std::array<uint32_t, 16> kernel = {0xFFFFFFFFU,
                                             0xFFFFFFFFU,
                                             3037000500U,
                                             2479700525U,
                                             2147483647U,
                                             1920767767U,
                                             1753413056U,
                                             1623345051U,
                                             1518500250U,
                                             1431655765U,
                                             1358187914U,
                                             1294981364U,
                                             1239850263U,
                                             1191209601U,
                                             1147878294U,
                                             1108955788U};
    const auto& cache = CobaltRecInvSqrtCache();
    ASSERT_EQ(cache.size(), 16U);
    for (uint32_t n = 0; n < 16; n++)
    {
        EXPECT_EQ(cache[n], kernel[n]) << "count " << n;
        if (n >= 2)
        {
            EXPECT_LE(std::llabs(static_cast<long long>(kernel[n]) -
                                 static_cast<long long>(ExactInvSqrt(n))),
                      1)
                << "count " << n;
        }
    }
}

// cobalt_invsqrt(): count < 16 takes the cache (count 2: 3037000500 whatever the old
// value), count >= 16 takes one Newton step (count 17 from 2^30: 1040187392 as above).
TEST(CobaltCache, InvSqrtUsesCacheBelowSixteenAndNewtonAbove)
{
    CobaltVars v;
    v.count = 2;
    v.recInvSqrt = 12345;
    CobaltInvSqrt(v);
    EXPECT_EQ(v.recInvSqrt, 3037000500U);
    v.count = 17;
    v.recInvSqrt = 1U << 30;
    CobaltInvSqrt(v);
    EXPECT_EQ(v.recInvSqrt, 1040187392U);
}

// Control law at interval 100 ms = 10^8 ns, t = 0, with the cache values:
//   count 1: 10^8 * (2^32 - 1) / 2^32 = 10^8 - 0.023 -> 99999999
//   count 2: 10^8 / sqrt(2) = 70710678.119 (entry is 0.024 above 2^32/sqrt 2) -> 70710678
//   count 3: 10^8 / sqrt(3) = 57735026.919 (entry 0.13 above) -> 57735026
//   count 4: 10^8 * (2^31 - 1) / 2^32 = 5*10^7 - 0.023 -> 49999999
TEST(CobaltControlLaw, NextDropTimesForCountOneToFour)
{
    const int64_t expected[5] = {0, 99999999, 70710678, 57735026, 49999999};
    for (uint32_t n = 1; n <= 4; n++)
    {
        CobaltVars v;
        v.count = n;
        CobaltInvSqrt(v);
        EXPECT_EQ(CobaltControl(0, 100 * MS, v.recInvSqrt), expected[n]) << "count " << n;
        EXPECT_EQ(CobaltControl(7 * MS, 100 * MS, v.recInvSqrt), 7 * MS + expected[n]);
    }
    // reciprocal_scale() takes a u32: interval 2^32 + 10^8 acts as 10^8.
    EXPECT_EQ(CobaltControl(0, (1ULL << 32) + 100 * MS, 0xFFFFFFFFU), 99999999);
}

// Sojourn equal to target (5 ms) is not over target: 1000 packets pass, count stays 0,
// and drop_next follows now + interval (activity timer).
TEST(CobaltCodel, NoDropWhileSojournNotAboveTarget)
{
    CobaltParameters p;
    CobaltVars v;
    CobaltVarsInit(v);
    for (int64_t k = 1; k <= 1000; k++)
    {
        const int64_t now = k * MS;
        EXPECT_EQ(CobaltShouldDrop(v, p, now, now - 5 * MS, 0, nullptr, kNoRandom),
                  CobaltVerdict::PASS);
        EXPECT_EQ(v.count, 0U);
        EXPECT_FALSE(v.dropping);
        EXPECT_EQ(v.dropNext, now + 100 * MS);
    }
}

// over_target also needs sojourn > 4 * mtu_time and > 2 * mtu_time * bulk_flows:
// mtu_time 2 ms: sojourn 7 ms < 8 ms -> not over; 9 ms -> over (enters dropping);
// with bulk_flows 3: 9 ms < 12 ms -> not over.
TEST(CobaltCodel, OverTargetNeedsMtuTimeMargins)
{
    CobaltParameters p;
    p.mtuTime = 2 * MS;
    CobaltVars a;
    CobaltShouldDrop(a, p, 50 * MS, 43 * MS, 0, nullptr, kNoRandom);
    EXPECT_FALSE(a.dropping);
    CobaltVars b;
    CobaltShouldDrop(b, p, 50 * MS, 41 * MS, 0, nullptr, kNoRandom);
    EXPECT_TRUE(b.dropping);
    CobaltVars c;
    CobaltShouldDrop(c, p, 50 * MS, 41 * MS, 3, nullptr, kNoRandom);
    EXPECT_FALSE(c.dropping);
}

/// Vars as a count decay to 0 leaves them: rec_inv_sqrt = cache[0] = ~0.
CobaltVars
DecayedVars()
{
    CobaltVars v;
    v.recInvSqrt = 0xFFFFFFFFU;
    return v;
}

// Full episode, defaults (target 5 ms, interval 100 ms), non-ECT packets:
//  t=1 ms, sojourn 1 ms: pass, drop_next = 101 ms.
//  t=2 ms, sojourn 6 ms: enter dropping, drop_next = 2 ms + 99999999 = 101999999, count 1;
//     schedule 2 - 101 ms < 0 so the activity rule leaves drop_next.
//  t=12..92 ms and t=101999998, over target: not due, pass.
//  t=101999999: due -> drop, count 2, drop_next += 70710678 -> 172710677.
//  t=172710677: drop, count 3, drop_next += 57735026 -> 230445703.
//  t=200 ms, sojourn 4 ms: leave dropping, not due: count 3, drop_next kept.
//  t=230445703, below target: due -> decay count 2, drop_next += 70710678 -> 301156381.
//  t=1 s, below target: decay to 1 (+99999999 -> 401156380, still due), to 0
//     (+99999999 -> 501156379); count 0 -> drop_next = 1 s + 100 ms.
TEST(CobaltCodel, DroppingEpisodeCountAndDropNextProgression)
{
    CobaltParameters p;
    CobaltVars v = DecayedVars();
    Marker m; // not ECT
    auto step = [&](int64_t now, int64_t sojourn) {
        return CobaltShouldDrop(v, p, now, now - sojourn, 0, m.Source(), kNoRandom);
    };

    EXPECT_EQ(step(1 * MS, 1 * MS), CobaltVerdict::PASS);
    EXPECT_EQ(v.dropNext, 101 * MS);

    EXPECT_EQ(step(2 * MS, 6 * MS), CobaltVerdict::PASS);
    EXPECT_TRUE(v.dropping);
    EXPECT_EQ(v.count, 1U);
    EXPECT_EQ(v.dropNext, 101999999);

    for (int64_t t = 12; t <= 92; t += 10)
    {
        EXPECT_EQ(step(t * MS, 6 * MS), CobaltVerdict::PASS) << t;
    }
    EXPECT_EQ(step(101999998, 6 * MS), CobaltVerdict::PASS);
    EXPECT_EQ(v.count, 1U);
    EXPECT_EQ(m.calls, 0U);

    EXPECT_EQ(step(101999999, 6 * MS), CobaltVerdict::DROP_CONGESTED);
    EXPECT_EQ(m.calls, 1U);
    EXPECT_FALSE(v.ecnMarked);
    EXPECT_EQ(v.count, 2U);
    EXPECT_EQ(v.recInvSqrt, 3037000500U);
    EXPECT_EQ(v.dropNext, 172710677);

    EXPECT_EQ(step(150 * MS, 6 * MS), CobaltVerdict::PASS);
    EXPECT_EQ(step(172710677, 6 * MS), CobaltVerdict::DROP_CONGESTED);
    EXPECT_EQ(v.count, 3U);
    EXPECT_EQ(v.dropNext, 230445703);

    // Exit of the dropping state.
    EXPECT_EQ(step(200 * MS, 4 * MS), CobaltVerdict::PASS);
    EXPECT_FALSE(v.dropping);
    EXPECT_EQ(v.count, 3U);
    EXPECT_EQ(v.dropNext, 230445703);

    // Decay while below target.
    EXPECT_EQ(step(230445703, 4 * MS), CobaltVerdict::PASS);
    EXPECT_EQ(v.count, 2U);
    EXPECT_EQ(v.dropNext, 301156381);

    EXPECT_EQ(step(1000 * MS, 4 * MS), CobaltVerdict::PASS);
    EXPECT_EQ(v.count, 0U);
    EXPECT_EQ(v.recInvSqrt, 0xFFFFFFFFU);
    EXPECT_EQ(v.dropNext, 1100 * MS);
}

// Same entry into dropping; at the due time an ECT packet is CE-marked instead of dropped
// (count and drop_next progress the same: count 2, drop_next 172710677). With ecn off the
// marker is not consulted and the packet is dropped.
TEST(CobaltCodel, EcnCapablePacketIsMarked)
{
    for (bool ecn : {true, false})
    {
        CobaltParameters p;
        p.ecn = ecn;
        CobaltVars v = DecayedVars();
        Marker m;
        m.ect = true;
        CobaltShouldDrop(v, p, 1 * MS, 0, 0, m.Source(), kNoRandom);
        CobaltShouldDrop(v, p, 2 * MS, -4 * MS, 0, m.Source(), kNoRandom);
        const auto verdict =
            CobaltShouldDrop(v, p, 101999999, 101999999 - 6 * MS, 0, m.Source(), kNoRandom);
        if (ecn)
        {
            EXPECT_EQ(verdict, CobaltVerdict::MARK_CE);
            EXPECT_TRUE(v.ecnMarked);
            EXPECT_EQ(m.calls, 1U);
        }
        else
        {
            EXPECT_EQ(verdict, CobaltVerdict::DROP_CONGESTED);
            EXPECT_FALSE(v.ecnMarked);
            EXPECT_EQ(m.calls, 0U);
        }
        EXPECT_EQ(v.count, 2U);
        EXPECT_EQ(v.dropNext, 172710677);
        // The next packet clears ecn_marked.
        CobaltShouldDrop(v, p, 110 * MS, 105 * MS, 0, m.Source(), kNoRandom);
        EXPECT_FALSE(v.ecnMarked);
    }
}

// Fresh vars (cobalt_vars_init: rec_inv_sqrt 0): entering dropping at t=2 ms sets
// drop_next = 2 ms + 0 = 2 ms, so the next over-target packet (t=3 ms) is already due.
TEST(CobaltCodel, FreshSlotSignalsWithoutWaitingAnInterval)
{
    CobaltParameters p;
    CobaltVars v;
    CobaltVarsInit(v);
    EXPECT_EQ(CobaltShouldDrop(v, p, 1 * MS, 0, 0, nullptr, kNoRandom), CobaltVerdict::PASS);
    EXPECT_EQ(CobaltShouldDrop(v, p, 2 * MS, -4 * MS, 0, nullptr, kNoRandom), CobaltVerdict::PASS);
    EXPECT_EQ(v.dropNext, 2 * MS);
    EXPECT_EQ(CobaltShouldDrop(v, p, 3 * MS, -3 * MS, 0, nullptr, kNoRandom),
              CobaltVerdict::DROP_CONGESTED);
    EXPECT_EQ(v.count, 2U);
}

// queue_full with target 5 ms, interval 100 ms, blue_timer 0:
//  10 ms: 10 > 5 -> p_drop 0 -> 2^24, returns true, blue_timer 10 ms; dropping, drop_next
//         10 ms, count 1.
//  15 ms: 5 > 5 false -> unchanged, returns false.
//  16 ms: 6 > 5 -> 2^25, returns false (was non-zero). The gate is target, not interval.
TEST(CobaltBlue, QueueFullRaisesPDropOncePerTarget)
{
    CobaltParameters p;
    CobaltVars v;
    EXPECT_TRUE(CobaltQueueFull(v, p, 10 * MS));
    EXPECT_EQ(v.pDrop, 1U << 24);
    EXPECT_EQ(v.blueTimer, 10 * MS);
    EXPECT_TRUE(v.dropping);
    EXPECT_EQ(v.dropNext, 10 * MS);
    EXPECT_EQ(v.count, 1U);

    EXPECT_FALSE(CobaltQueueFull(v, p, 15 * MS));
    EXPECT_EQ(v.pDrop, 1U << 24);
    EXPECT_EQ(v.blueTimer, 10 * MS);
    EXPECT_EQ(v.dropNext, 15 * MS);

    EXPECT_FALSE(CobaltQueueFull(v, p, 16 * MS));
    EXPECT_EQ(v.pDrop, 1U << 25);
    EXPECT_EQ(v.blueTimer, 16 * MS);

    // count is kept when non-zero.
    v.count = 5;
    CobaltQueueFull(v, p, 30 * MS);
    EXPECT_EQ(v.count, 5U);
}

// Saturation: 0xFF800000 + 2^24 wraps to 2^23 < p_inc -> 0xFFFFFFFF.
TEST(CobaltBlue, QueueFullSaturates)
{
    CobaltParameters p;
    CobaltVars v;
    v.pDrop = 0xFF800000U;
    EXPECT_FALSE(CobaltQueueFull(v, p, 10 * MS));
    EXPECT_EQ(v.pDrop, 0xFFFFFFFFU);
}

// queue_empty with p_dec 2^20, p_drop 3 * 2^20, blue_timer 0:
//  10 ms -> 2 * 2^20 (false); 12 ms: 2 > 5 false -> unchanged; 16 ms -> 2^20;
//  22 ms -> 0, returns true; 28 ms: p_drop 0 -> unchanged, blue_timer stays 22 ms.
TEST(CobaltBlue, QueueEmptyLowersPDrop)
{
    CobaltParameters p;
    CobaltVars v;
    v.pDrop = 3U << 20;
    v.dropping = true;
    EXPECT_FALSE(CobaltQueueEmpty(v, p, 10 * MS));
    EXPECT_EQ(v.pDrop, 2U << 20);
    EXPECT_FALSE(v.dropping);
    EXPECT_FALSE(CobaltQueueEmpty(v, p, 12 * MS));
    EXPECT_EQ(v.pDrop, 2U << 20);
    EXPECT_FALSE(CobaltQueueEmpty(v, p, 16 * MS));
    EXPECT_EQ(v.pDrop, 1U << 20);
    EXPECT_TRUE(CobaltQueueEmpty(v, p, 22 * MS));
    EXPECT_EQ(v.pDrop, 0U);
    EXPECT_FALSE(CobaltQueueEmpty(v, p, 28 * MS));
    EXPECT_EQ(v.blueTimer, 22 * MS);

    // Floor at 0: 5 < p_dec -> 0.
    CobaltVars w;
    w.pDrop = 5;
    EXPECT_TRUE(CobaltQueueEmpty(w, p, 10 * MS));
    EXPECT_EQ(w.pDrop, 0U);
}

// queue_empty decays count once when drop_next has passed: count 3, drop_next 50 ms at
// now 50 ms -> count 2, drop_next = 50 ms + 70710678 = 120710678; at 60 ms no change.
TEST(CobaltBlue, QueueEmptyDecaysCount)
{
    CobaltParameters p;
    CobaltVars v;
    v.count = 3;
    v.dropNext = 50 * MS;
    CobaltQueueEmpty(v, p, 50 * MS);
    EXPECT_EQ(v.count, 2U);
    EXPECT_EQ(v.dropNext, 120710678);
    CobaltQueueEmpty(v, p, 60 * MS);
    EXPECT_EQ(v.count, 2U);
    EXPECT_EQ(v.dropNext, 120710678);
}

// BLUE in should_drop: p_drop 2^24, below target, count 0. rnd 2^24 - 1 < p_drop -> drop;
// rnd 2^24 -> pass. p_drop 0 -> the random source is not called. drop_next = now + interval.
TEST(CobaltBlue, DropsWhenRandomBelowPDrop)
{
    CobaltParameters p;
    CobaltVars v;
    v.pDrop = 1U << 24;
    ScriptedRandom r{{(1U << 24) - 1, 1U << 24}};
    EXPECT_EQ(CobaltShouldDrop(v, p, 10 * MS, 9 * MS, 0, nullptr, r.Source()),
              CobaltVerdict::DROP_FLOOD);
    EXPECT_EQ(v.dropNext, 110 * MS);
    EXPECT_EQ(CobaltShouldDrop(v, p, 11 * MS, 10 * MS, 0, nullptr, r.Source()),
              CobaltVerdict::PASS);
    EXPECT_EQ(r.calls, 2U);

    CobaltVars quiet;
    EXPECT_EQ(CobaltShouldDrop(quiet, p, 10 * MS, 9 * MS, 0, nullptr, kNoRandom),
              CobaltVerdict::PASS);
}

// BLUE is skipped for a packet CoDel already dropped (no random draw), but may drop a packet
// CoDel CE-marked (BLUE never marks). Setup as the episode test: due at 101999999.
TEST(CobaltBlue, SkippedAfterCodelDropButNotAfterMark)
{
    for (bool ect : {false, true})
    {
        CobaltParameters p;
        CobaltVars v = DecayedVars();
        Marker m;
        m.ect = ect;
        CobaltShouldDrop(v, p, 1 * MS, 0, 0, m.Source(), kNoRandom);
        CobaltShouldDrop(v, p, 2 * MS, -4 * MS, 0, m.Source(), kNoRandom);
        v.pDrop = 0xFFFFFFFFU;
        ScriptedRandom r{{0}};
        const auto verdict =
            CobaltShouldDrop(v, p, 101999999, 101999999 - 6 * MS, 0, m.Source(), r.Source());
        if (ect)
        {
            EXPECT_EQ(verdict, CobaltVerdict::DROP_FLOOD);
            EXPECT_TRUE(v.ecnMarked);
            EXPECT_EQ(r.calls, 1U);
        }
        else
        {
            EXPECT_EQ(verdict, CobaltVerdict::DROP_CONGESTED);
            EXPECT_EQ(r.calls, 0U);
        }
    }
}

// cake_set_rate with mtu 1514, target 5 ms, rtt 100 ms:
//  rate 0: mtu_time 0, target 5 ms, interval 100 ms.
//  rate 1250000 B/s: rate_ns = 10^9 * 2^34 / 1.25e6 = 800 * 2^34, shifted to < 2^34 by 10
//    -> 800 * 2^24, shft 24; mtu_time = 1514 * 800 = 1211200; target max(1816800, 5 ms)
//    = 5 ms; interval 100 ms.
//  rate 125000 B/s: 8000 * 2^34 -> shift 13 -> 8000 * 2^21; mtu_time = 12112000;
//    target = 18168000; interval = max(100 ms + 13168000, 36336000) = 113168000.
TEST(CobaltParams, RateDependentTarget)
{
    const auto a = CobaltParametersForRate(0, 1514, 5 * MS, 100 * MS);
    EXPECT_EQ(a.mtuTime, 0U);
    EXPECT_EQ(a.target, 5000000U);
    EXPECT_EQ(a.interval, 100000000U);
    EXPECT_EQ(a.pInc, 1U << 24);
    EXPECT_EQ(a.pDec, 1U << 20);

    const auto b = CobaltParametersForRate(1250000, 1514, 5 * MS, 100 * MS);
    EXPECT_EQ(b.mtuTime, 1211200U);
    EXPECT_EQ(b.target, 5000000U);
    EXPECT_EQ(b.interval, 100000000U);

    const auto c = CobaltParametersForRate(125000, 1514, 5 * MS, 100 * MS);
    EXPECT_EQ(c.mtuTime, 12112000U);
    EXPECT_EQ(c.target, 18168000U);
    EXPECT_EQ(c.interval, 113168000U);

    const CobaltParameters d;
    EXPECT_EQ(d.target, a.target);
    EXPECT_EQ(d.interval, a.interval);
    EXPECT_TRUE(d.ecn);
}

} // namespace
