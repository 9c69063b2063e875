/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for HtbScheduler. Expected values are derived in comments from the
 * kernel's sch_htb.c and psched arithmetic:
 *   - l2t(len) = (len' * mult) >> shift, len' = max(len + overhead, mpu), atm: ceil(len' /
 *     48) * 53; mult = (1e9 << shift) / rate with the first shift that sets bit 31;
 *   - buffer = 64 ns * ceil(15.625 * 1e6 * burst / rate) (tc_calc_xmittime in psched ticks),
 *     default burst = rate / 1e9 + mtu = 1600 B below 8 Gbit/s;
 *   - a class starts with tokens = buffer, ctokens = cbuffer; sending len charges
 *     l2t(rate, len) to tokens (at and above the level it is sent at) and l2t(ceil, len) to
 *     ctokens; after the charge it is CANT_SEND if ctokens < 0 (back after -ctokens ns),
 *     CAN_SEND if tokens >= 0, else MAY_BORROW (own rate back after -tokens ns). So a class
 *     sends while its bucket is not negative: one packet more than fits in the burst.
 *
 * The tests drive the scheduler with fake leaves (a deque of packet lengths each) and a
 * clock advanced to GetNextEvent(), or to the times a device at a line rate asks.
 */

#include "error-message.h"

#include "ns3/htb-scheduler.h"

#include <cstdint>
#include <deque>
#include <gtest/gtest.h>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{

using debloattest::ErrorOf;

using ns3::debloat::HTB_MAXDEPTH;
using ns3::debloat::HtbClassConfig;
using ns3::debloat::HtbClassStats;
using ns3::debloat::HtbMode;
using ns3::debloat::HtbPschedRate;
using ns3::debloat::HtbRate;
using ns3::debloat::HtbScheduler;

/// One millisecond in ns.
constexpr int64_t MS = 1000000;
/// One second in ns.
constexpr int64_t SEC = 1000000000;

/**
 * @param bitsPerSecond a rate
 * @return it as HtbRate
 */
HtbRate
Rate(uint64_t bitsPerSecond)
{
    HtbRate r;
    r.bytesPerSecond = bitsPerSecond / 8;
    return r;
}

/**
 * @param id class id
 * @param parent parent id, 0 for top level
 * @param rate rate, bit/s
 * @param ceil ceil, bit/s (0: rate)
 * @return the class
 */
HtbClassConfig
Class(uint32_t id, uint32_t parent, uint64_t rate, uint64_t ceil = 0)
{
    HtbClassConfig c;
    c.id = id;
    c.parent = parent;
    c.rate = Rate(rate);
    c.ceil = Rate(ceil);
    return c;
}

/// One packet the scheduler let out.
struct Sent
{
    int64_t time{0};   ///< when, ns
    uint32_t leaf{0};  ///< from which leaf
    uint32_t len{0};   ///< bytes
    uint32_t level{0}; ///< the level it was sent at (GetLastSendLevel())
};

/**
 * @ingroup debloat-tests
 * The scheduler with fake leaf queues and a clock.
 */
class Harness
{
  public:
    /**
     * @param r2q tc's r2q
     */
    explicit Harness(uint32_t r2q = 10)
        : scheduler(r2q)
    {
    }

    /**
     * Queues a packet and activates the leaf, as htb_enqueue() does.
     * @param leaf the leaf
     * @param len bytes
     */
    void Enqueue(uint32_t leaf, uint32_t len)
    {
        queues[leaf].push_back(len);
        scheduler.Activate(leaf, now);
    }

    /**
     * @return the leaf served by one Dequeue() at now, with the packet logged
     */
    std::optional<uint32_t> DequeueOne()
    {
        auto pull = [this](uint32_t leaf) -> std::optional<uint32_t> {
            std::deque<uint32_t>& q = queues[leaf];
            if (q.empty())
            {
                return std::nullopt;
            }
            const uint32_t len = q.front();
            q.pop_front();
            lastLen = len;
            return len;
        };
        auto empty = [this](uint32_t leaf) { return queues[leaf].empty(); };
        const std::optional<uint32_t> leaf = scheduler.Dequeue(now, pull, empty);
        if (leaf)
        {
            log.push_back(Sent{now, *leaf, lastLen, scheduler.GetLastSendLevel()});
        }
        return leaf;
    }

    /**
     * Runs until end: each saturated leaf is topped up to two packets of len bytes before
     * every dequeue; a device at lineBitsPerSecond (0: infinitely fast) asks again when it
     * has sent the packet, and the clock jumps to GetNextEvent() when nothing was sendable.
     * @param saturated the leaves kept backlogged
     * @param len their packets' length
     * @param end stop time, ns (exclusive)
     * @param lineBitsPerSecond the device's rate, 0 for none
     */
    void Run(const std::vector<uint32_t>& saturated,
             uint32_t len,
             int64_t end,
             uint64_t lineBitsPerSecond = 0)
    {
        while (now < end)
        {
            for (uint32_t leaf : saturated)
            {
                while (queues[leaf].size() < 2)
                {
                    Enqueue(leaf, len);
                }
            }
            if (DequeueOne())
            {
                if (lineBitsPerSecond != 0)
                {
                    now += static_cast<int64_t>(uint64_t{lastLen} * 8 * SEC / lineBitsPerSecond);
                }
                continue;
            }
            const std::optional<int64_t> next = scheduler.GetNextEvent();
            ASSERT_TRUE(next.has_value());
            ASSERT_GE(*next, now);
            now = *next;
        }
    }

    /**
     * @param leaf a leaf
     * @param from start time, ns
     * @param to end time, ns (exclusive)
     * @return the bytes the leaf sent in [from, to)
     */
    uint64_t BytesOf(uint32_t leaf, int64_t from = 0, int64_t to = INT64_MAX) const
    {
        uint64_t bytes = 0;
        for (const Sent& s : log)
        {
            if (s.leaf == leaf && s.time >= from && s.time < to)
            {
                bytes += s.len;
            }
        }
        return bytes;
    }

    HtbScheduler scheduler;                          ///< under test
    std::map<uint32_t, std::deque<uint32_t>> queues; ///< the leaves' packets
    std::vector<Sent> log;                           ///< what was sent
    int64_t now{0};                                  ///< the clock, ns
    uint32_t lastLen{0};                             ///< length of the last pulled packet
};

// psched_ratecfg_precompute() and psched_l2t_ns().
TEST(HtbScheduler, RateToTimeIsTheKernelsMultShift)
{
    // 1 Mbit/s = 125000 B/s: 1e9 / 125000 = 8000; 8000 << 18 = 2097152000 < 2^31,
    // 8000 << 19 = 4194304000 has bit 31: shift 19, mult 4194304000, exact.
    HtbPschedRate r = HtbPschedRate::Precompute(Rate(1000000));
    EXPECT_EQ(r.shift, 19);
    EXPECT_EQ(r.mult, 4194304000U);
    EXPECT_EQ(r.TimeForBytes(1500), 12000000U); // 1500 * 8000 ns
    EXPECT_EQ(Rate(1000000).TimeForBytes(1500), 12000000U);

    // 1 Gbit/s = 125e6 B/s: 1e9 / 125e6 = 8 = 2^3, bit 31 at shift 28: mult 2^31.
    r = HtbPschedRate::Precompute(Rate(1000000000));
    EXPECT_EQ(r.shift, 28);
    EXPECT_EQ(r.mult, 2147483648U);
    EXPECT_EQ(r.TimeForBytes(1500), 12000U);

    // 24 Mbit/s = 3e6 B/s: mult = floor(2^k * 1000 / 3); k = 22 gives 1398101333 < 2^31,
    // k = 23 gives floor(2796202666.67) = 2796202666. 1500 * 2796202666 = 4194303999000,
    // >> 23 (/ 8388608) = 499999.9998: 499999 ns, one ns below the exact 500 us.
    r = HtbPschedRate::Precompute(Rate(24000000));
    EXPECT_EQ(r.shift, 23);
    EXPECT_EQ(r.mult, 2796202666U);
    EXPECT_EQ(r.TimeForBytes(1500), 499999U);

    // 1 B/s: 1e9 < 2^31, 2e9 < 2^31 = 2147483648, 4e9 has bit 31: shift 2, 1 B = 1 s.
    HtbRate slow;
    slow.bytesPerSecond = 1;
    r = HtbPschedRate::Precompute(slow);
    EXPECT_EQ(r.shift, 2);
    EXPECT_EQ(r.mult, 4000000000U);
    EXPECT_EQ(r.TimeForBytes(1), 1000000000U);

    // Rate 0 (never configured): mult 1, shift 0, l2t = len.
    EXPECT_EQ(HtbRate{}.TimeForBytes(1500), 1500U);
}

// The length adjustments of psched_l2t_ns(): overhead, then mpu, then ATM cells.
TEST(HtbScheduler, RateToTimeWithOverheadMpuAndAtm)
{
    HtbRate r = Rate(1000000); // 8000 ns per byte, exactly
    r.overhead = 24;
    EXPECT_EQ(r.TimeForBytes(1500), 1524U * 8000); // 12192000

    r.overhead = 0;
    r.mpu = 64;
    EXPECT_EQ(r.TimeForBytes(40), 64U * 8000);   // 40 < mpu
    EXPECT_EQ(r.TimeForBytes(100), 100U * 8000); // above mpu: unchanged

    r.overhead = 14;
    EXPECT_EQ(r.TimeForBytes(40), 64U * 8000); // 54 < 64
    EXPECT_EQ(r.TimeForBytes(60), 74U * 8000); // 74 > 64

    r.overhead = 0;
    r.mpu = 0;
    r.atm = true;
    // 1500 B = 31.25 cells -> 32 cells of 53 B = 1696 B on the wire.
    EXPECT_EQ(r.TimeForBytes(1500), 1696U * 8000);
    // 40 B -> one cell, 53 B; 48 B -> one cell; 49 B -> two cells, 106 B.
    EXPECT_EQ(r.TimeForBytes(40), 53U * 8000);
    EXPECT_EQ(r.TimeForBytes(48), 53U * 8000);
    EXPECT_EQ(r.TimeForBytes(49), 106U * 8000);
    // Order: 20 + 8 overhead = 28, mpu 64 -> 64, then ATM: 2 cells = 106 B.
    r.overhead = 8;
    r.mpu = 64;
    EXPECT_EQ(r.TimeForBytes(20), 106U * 8000);
}

// tc's defaults (q_htb.c) and the kernel's quantum clamp (htb_change_class).
TEST(HtbScheduler, DefaultsOfTcAndTheKernel)
{
    HtbScheduler s;                          // r2q 10
    s.AddClass(Class(0x10, 0, 1000000));     // 125000 B/s
    s.AddClass(Class(0x11, 0, 100000));      // 12500 B/s
    s.AddClass(Class(0x12, 0, 8000));        // 1000 B/s
    s.AddClass(Class(0x13, 0, 20000000));    // 2.5e6 B/s
    s.AddClass(Class(0x14, 0, 6000000));     // 750000 B/s
    s.AddClass(Class(0x15, 0, 16000000000)); // 2e9 B/s

    // quantum = rate / r2q: 12500; 1250 (>= 1000: kept); 100 -> clamped up to 1000;
    // 250000 -> clamped down to 200000.
    EXPECT_EQ(s.GetClassConfig(0x10).quantum, 12500U);
    EXPECT_EQ(s.GetClassConfig(0x11).quantum, 1250U);
    EXPECT_EQ(s.GetClassConfig(0x12).quantum, 1000U);
    EXPECT_EQ(s.GetClassConfig(0x13).quantum, 200000U);
    EXPECT_EQ(s.GetClassStats(0x13).quantum, 200000U);

    // ceil = rate; burst = cburst = rate / 1e9 + 1600 = 1600 B (2e9 B/s: 2 + 1600).
    const HtbClassConfig& c = s.GetClassConfig(0x10);
    EXPECT_EQ(c.ceil.bytesPerSecond, 125000U);
    EXPECT_EQ(c.burst, 1600U);
    EXPECT_EQ(c.cburst, 1600U);
    EXPECT_EQ(s.GetClassConfig(0x15).burst, 1602U);

    // buffer: 1600 B at 125000 B/s = 12.8 ms = 200000 ticks of 64 ns, exact.
    HtbClassStats st = s.GetClassStats(0x10);
    EXPECT_EQ(st.buffer, 12800000U);
    EXPECT_EQ(st.cbuffer, 12800000U);
    EXPECT_EQ(st.tokens, 12800000); // starts full
    EXPECT_EQ(st.ctokens, 12800000);
    EXPECT_EQ(st.mode, static_cast<int>(HtbMode::CAN_SEND));
    EXPECT_EQ(st.mode, 2);
    EXPECT_EQ(st.level, 0U);
    EXPECT_TRUE(st.leaf);
    // 1600 B at 12500 B/s = 128 ms.
    EXPECT_EQ(s.GetClassStats(0x11).buffer, 128000000U);
    // 1600 B at 750000 B/s: 15.625e6 * 1600 / 750000 = 33333.3 -> ceil 33334 ticks
    // = 2133376 ns (exact would be 2133333 ns).
    EXPECT_EQ(HtbScheduler::TcXmitTicks(750000, 1600), 33334U);
    EXPECT_EQ(s.GetClassStats(0x14).buffer, 2133376U);

    // An explicit quantum is used as is, even below 1000; r2q 1 gives quantum = rate.
    HtbClassConfig q = Class(0x20, 0, 8000);
    q.quantum = 300;
    s.AddClass(q);
    EXPECT_EQ(s.GetClassConfig(0x20).quantum, 300U);
    HtbScheduler r2q1(1);
    r2q1.AddClass(Class(1, 0, 1000000));
    EXPECT_EQ(r2q1.GetClassConfig(1).quantum, 125000U);

    // An explicit burst: 15000 B at 125000 B/s = 120 ms.
    HtbClassConfig b = Class(0x21, 0, 1000000);
    b.burst = 15000;
    s.AddClass(b);
    EXPECT_EQ(s.GetClassStats(0x21).buffer, 120000000U);
}

// Levels as htb_change_class() sets them: leaves 0, a top-level inner class 7, its inner
// child 6; at most 8 levels.
TEST(HtbScheduler, LevelsFollowTheKernel)
{
    HtbScheduler s;
    for (uint32_t id = 1; id <= HTB_MAXDEPTH; ++id)
    {
        s.AddClass(Class(id, id - 1, 1000000));
    }
    // Chain 1 -> 2 -> ... -> 8: class k has level 8 - k, class 8 is the leaf.
    for (uint32_t id = 1; id <= HTB_MAXDEPTH; ++id)
    {
        EXPECT_EQ(s.GetClassStats(id).level, HTB_MAXDEPTH - id) << id;
        EXPECT_EQ(s.IsLeaf(id), id == HTB_MAXDEPTH);
    }
    EXPECT_EQ(s.GetLeaves(), std::vector<uint32_t>{8});
    // A ninth level: the grandparent (class 7) is at level 1 < 2: "tree is too deep".
    EXPECT_EQ(ErrorOf([&] { s.AddClass(Class(9, 8, 1000000)); }),
              "class 1:9: tree is too deep (more than 8 levels)");
    // A sibling of the leaf is fine.
    s.AddClass(Class(0xa, 7, 1000000));
    EXPECT_EQ(s.GetLeaves(), (std::vector<uint32_t>{8, 0xa}));
    EXPECT_TRUE(s.HasClass(0xa));
    EXPECT_FALSE(s.HasClass(9));
}

// Invalid configurations are refused with the class named as tc spells it (hex minor).
TEST(HtbScheduler, InvalidConfigurationsNameTheClass)
{
    HtbScheduler s;
    s.AddClass(Class(1, 0, 10000000));
    EXPECT_EQ(ErrorOf([&] { s.AddClass(Class(0x10, 1, 2000000, 1000000)); }),
              "class 1:10: ceil 1Mbit below rate 2Mbit");
    EXPECT_EQ(ErrorOf([&] { s.AddClass(Class(0x10, 1, 0)); }), "class 1:10: rate must be above 0");
    EXPECT_EQ(ErrorOf([&] { s.AddClass(Class(0x10, 2, 1000000)); }),
              "class 1:10: parent 1:2 does not exist");
    EXPECT_EQ(ErrorOf([&] { s.AddClass(Class(1, 0, 1000000)); }), "class 1:1: already exists");
    EXPECT_EQ(ErrorOf([&] { s.AddClass(Class(0, 0, 1000000)); }),
              "class 1:0: the minor id must be 1..ffff");
    HtbClassConfig c = Class(0x10, 1, 1000000);
    c.prio = 8;
    EXPECT_EQ(ErrorOf([&] { s.AddClass(c); }), "class 1:10: prio 8 above 7");
    c = Class(0x10, 1, 1000000);
    c.rate.overhead = -4;
    EXPECT_EQ(ErrorOf([&] { s.AddClass(c); }), "class 1:10: overhead -4 outside 0..65535");
    c = Class(0x10, 1, 1000000);
    c.rate.mpu = 70000;
    EXPECT_EQ(ErrorOf([&] { s.AddClass(c); }), "class 1:10: mpu 70000 outside 0..65535");
    // 1e6 B at 1 B/s = 1e6 s = 1.5625e13 ticks > UINT32_MAX.
    c = Class(0x10, 1, 8);
    c.burst = 1000000;
    EXPECT_EQ(ErrorOf([&] { s.AddClass(c); }),
              "class 1:10: burst 1000000 out of range (tc: \"htb: burst out of range\")");
    EXPECT_FALSE(s.HasClass(0x10));

    // A leaf with packets cannot get children (the kernel would purge its queue).
    Harness h;
    h.scheduler.AddClass(Class(1, 0, 1000000));
    h.Enqueue(1, 1500);
    EXPECT_EQ(ErrorOf([&] { h.scheduler.AddClass(Class(2, 1, 1000000)); }),
              "class 1:2: parent 1:1 has queued packets");
    EXPECT_THROW(h.scheduler.Activate(3, 0), std::out_of_range);
}

// A fresh class sends back to back while its bucket is not negative, then paces.
TEST(HtbScheduler, FreshClassSendsItsBurstThenPaces)
{
    // Default burst: buffer = 12.8 ms, l2t(1500) = 12 ms at 1 Mbit/s. After packet 1:
    // 0.8 ms >= 0, CAN_SEND; after packet 2: -11.2 ms, CANT_SEND (ceil = rate, so ctokens
    // are the same). Two packets at t = 0, the third at 11.2 ms, then one every 12 ms.
    {
        Harness h;
        h.scheduler.AddClass(Class(1, 0, 1000000));
        h.Run({1}, 1500, 50 * MS);
        ASSERT_GE(h.log.size(), 5U);
        EXPECT_EQ(h.log[0].time, 0);
        EXPECT_EQ(h.log[1].time, 0);
        EXPECT_EQ(h.log[2].time, 11200000);
        EXPECT_EQ(h.log[3].time, 23200000);
        EXPECT_EQ(h.log[4].time, 35200000);
        const HtbClassStats st = h.scheduler.GetClassStats(1);
        EXPECT_EQ(st.lends, st.packets); // all sent at level 0, within its own rate
        EXPECT_EQ(st.borrows, 0U);
    }
    // burst = cburst = 15000 B: buffer 120 ms = 10 packets of 12 ms. Tokens after n packets
    // are 120 - 12n ms: the 10th leaves 0 (still CAN_SEND), the 11th -12 ms. So 11 packets
    // (16500 B, burst + one packet) at t = 0, the 12th at 12 ms, then every 12 ms.
    {
        Harness h;
        HtbClassConfig c = Class(1, 0, 1000000);
        c.burst = 15000;
        c.cburst = 15000;
        h.scheduler.AddClass(c);
        h.Run({1}, 1500, 40 * MS);
        EXPECT_EQ(h.BytesOf(1, 0, 1), 16500U);
        ASSERT_GE(h.log.size(), 13U);
        EXPECT_EQ(h.log[11].time, 12 * MS);
        EXPECT_EQ(h.log[12].time, 24 * MS);
        // Overlimits are changes to CANT_SEND (htb_change_class_mode()): the 11th packet at
        // t = 0 (tokens -12 ms), then each packet at 12, 24 and 36 ms, which finds tokens
        // back at 0 (CAN_SEND) and leaves them at -12 ms: 4. The run stops after the dequeue
        // at 36 ms comes back empty (next event 48 ms >= 40 ms). The qdisc's overlimits are
        // the sum over its classes (Linux 5.2 and later), here the one class's 4. The
        // empty dequeues, what kernels before 5.2 printed: one after each CANT_SEND, 4.
        EXPECT_EQ(h.scheduler.GetClassStats(1).overlimits, 4U);
        EXPECT_EQ(h.scheduler.GetOverlimits(), 4U);
        EXPECT_EQ(h.scheduler.GetEmptyDequeues(), 4U);
    }
}

// Over a long run a class sends at its rate, within one burst and one packet.
TEST(HtbScheduler, LongRunRateOfOneClass)
{
    // As above: 2 packets at t = 0, then at 11.2 + 12k ms. In [0, 10 s): 11.2 + 12k < 10000
    // for k <= 832, so 833 + 2 = 835 packets = 1252500 B; the rate gives 1250000 B, and the
    // difference (2500 B) is within burst (1600 B) + one packet (1500 B).
    Harness h;
    h.scheduler.AddClass(Class(1, 0, 1000000));
    h.Run({1}, 1500, 10 * SEC);
    const uint64_t bytes = h.BytesOf(1, 0, 10 * SEC);
    EXPECT_EQ(bytes, 835U * 1500);
    EXPECT_LE(bytes, 1250000U + 1600 + 1500);
    EXPECT_GE(bytes + 1500, 1250000U);
    EXPECT_EQ(h.scheduler.GetClassStats(1).bytes, h.BytesOf(1));
}

// Two leaves borrowing the spare rate of their parent share it by their quanta.
TEST(HtbScheduler, BorrowedRateSplitsByQuantum)
{
    // Parent 1:1 rate = ceil = R = 8 Mbit/s (1e6 B/s). Leaves 1:10 (quantum 1500) and 1:20
    // (quantum 4500), each rate R/4 ceil R, saturated with 1500 B packets, no device limit.
    // Each leaf sends its own rate at level 0 (level 0 is served before the borrowing level
    // 7), R/2 in all; the parent's tokens allow R in all, so R/2 is borrowed at level 7,
    // where the leaves sit in the parent's feed and DRR with deficit[7] gives 1:20 three
    // 1500 B packets for each one of 1:10 (quantum 4500 vs 1500). So 1:10 gets R/4 + R/8 =
    // 3R/8 = 375000 B/s, 1:20 gets R/4 + 3R/8 = 5R/8 = 625000 B/s. Over 20 s: 7.5 MB and
    // 12.5 MB, total 20 MB (within the parent's burst and a packet).
    Harness h;
    h.scheduler.AddClass(Class(1, 0, 8000000));
    HtbClassConfig a = Class(0x10, 1, 2000000, 8000000);
    a.quantum = 1500;
    HtbClassConfig b = Class(0x20, 1, 2000000, 8000000);
    b.quantum = 4500;
    h.scheduler.AddClass(a);
    h.scheduler.AddClass(b);
    EXPECT_EQ(h.scheduler.GetClassStats(1).level, 7U);
    const int64_t end = 20 * SEC;
    h.Run({0x10, 0x20}, 1500, end);
    const double bytesA = static_cast<double>(h.BytesOf(0x10, 0, end));
    const double bytesB = static_cast<double>(h.BytesOf(0x20, 0, end));
    EXPECT_NEAR(bytesA + bytesB, 20e6, 1600 + 3000);
    EXPECT_NEAR(bytesA, 7.5e6, 7.5e6 * 0.01);
    EXPECT_NEAR(bytesB, 12.5e6, 12.5e6 * 0.01);
    // The borrowed parts: the leaves' borrows are their packets sent at level 7; 3:1.
    const HtbClassStats sa = h.scheduler.GetClassStats(0x10);
    const HtbClassStats sb = h.scheduler.GetClassStats(0x20);
    EXPECT_NEAR(static_cast<double>(sb.borrows) / sa.borrows, 3.0, 0.03);
    // Own-rate parts: R/4 * 20 s = 5 MB = 3333 packets each, sent at level 0.
    EXPECT_NEAR(sa.lends, 3333, 34);
    EXPECT_NEAR(sb.lends, 3333, 34);
    // The parent lent every borrowed packet, and counts its subtree's traffic.
    const HtbClassStats sp = h.scheduler.GetClassStats(1);
    EXPECT_EQ(sp.lends, sa.borrows + sb.borrows);
    EXPECT_EQ(sp.packets, sa.packets + sb.packets);
    EXPECT_FALSE(sp.leaf);
}

// A lower prio value is served first while within its rate; the other gets the rest.
TEST(HtbScheduler, LowerPrioIsServedFirstWithinItsRate)
{
    // Two top-level leaves at level 0: 1:10 prio 0 and 1:20 prio 1, each rate 6 Mbit/s
    // (750000 B/s, l2t(1500) = 1999999 ns, buffer 2133376 ns), saturated, behind a device
    // at 10 Mbit/s (1.2 ms per 1500 B packet). Whenever 1:10 is CAN_SEND it wins (prio 0
    // row first); while it waits for tokens, 1:20 (which only gets 4 Mbit/s of its 6, so it
    // is always CAN_SEND) fills the device. The device is always busy: it asks at 1.2k ms,
    // k <= 8333 in [0, 10 s): 8334 packets. 1:10 waits at most 1.2 ms for the device,
    // less than its 2.13 ms buffer, so it loses no tokens: it gets its rate, 10 s / 2 ms =
    // 5000 packets, plus the extra packet of its initial bucket (2.13 ms > 2 ms): ~5001.
    // 1:20 gets the rest, ~3333 (4 Mbit/s).
    Harness h;
    HtbClassConfig hi = Class(0x10, 0, 6000000);
    hi.prio = 0;
    HtbClassConfig lo = Class(0x20, 0, 6000000);
    lo.prio = 1;
    h.scheduler.AddClass(hi);
    h.scheduler.AddClass(lo);
    const int64_t end = 10 * SEC;
    h.Run({0x10, 0x20}, 1500, end, 10000000);
    const uint64_t pktHi = h.BytesOf(0x10, 0, end) / 1500;
    const uint64_t pktLo = h.BytesOf(0x20, 0, end) / 1500;
    EXPECT_EQ(pktHi + pktLo, 8334U);
    EXPECT_GE(pktHi, 4999U);
    EXPECT_LE(pktHi, 5003U);
    // The first two packets: 1:10 goes first (both start full and CAN_SEND).
    ASSERT_GE(h.log.size(), 2U);
    EXPECT_EQ(h.log[0].leaf, 0x10U);

    // Control: with equal prios, DRR at level 0 (quantum 75000 each) shares the device
    // 5:5 in the long run, so the prio-1 leaf then gets about 5000, not 3333.
    Harness e;
    e.scheduler.AddClass(Class(0x10, 0, 6000000));
    e.scheduler.AddClass(Class(0x20, 0, 6000000));
    e.Run({0x10, 0x20}, 1500, end, 10000000);
    EXPECT_NEAR(static_cast<double>(e.BytesOf(0x20, 0, end) / 1500), 4167, 60);
}

// ceil caps a leaf even when its parent has plenty to lend.
TEST(HtbScheduler, CeilCapsBorrowing)
{
    // Parent 10 Mbit/s; leaf rate 1 Mbit/s (l2t 12 ms, buffer 12.8 ms) ceil 2 Mbit/s (l2t
    // 6 ms, cbuffer 6.4 ms), saturated, no device limit. t = 0: packet 1 leaves tokens
    // 0.8, ctokens 0.4 (CAN_SEND); packet 2: tokens -11.2, ctokens -5.6: CANT_SEND for
    // 5.6 ms. At 5.6 ms ctokens = 0, tokens = -5.6: MAY_BORROW, it borrows one packet at
    // level 7 (tokens only catch up, ctokens -6): CANT_SEND until 11.6 ms, when tokens are
    // 0.4 >= 0: a level-0 packet, ctokens -6 again... one packet every 6 ms (2 Mbit/s),
    // alternating borrowed and own. In [0, 10 s): 2 + #{k: 5.6 + 6k < 10000} = 2 + 1666.
    Harness h;
    h.scheduler.AddClass(Class(1, 0, 10000000));
    h.scheduler.AddClass(Class(0x10, 1, 1000000, 2000000));
    const int64_t end = 10 * SEC;
    h.Run({0x10}, 1500, end);
    ASSERT_GE(h.log.size(), 4U);
    EXPECT_EQ(h.log[2].time, 5600000);
    EXPECT_EQ(h.log[3].time, 11600000);
    const uint64_t bytes = h.BytesOf(0x10, 0, end);
    EXPECT_EQ(bytes, 1668U * 1500);
    // Never above ceil * time + cburst + one packet.
    EXPECT_LE(bytes, 2500000U + 1600 + 1500);
    const HtbClassStats leaf = h.scheduler.GetClassStats(0x10);
    EXPECT_EQ(leaf.lends + leaf.borrows, 1668U);
    EXPECT_NEAR(leaf.borrows, 834, 2);
    EXPECT_EQ(h.scheduler.GetClassStats(1).lends, leaf.borrows);
}

/// One mode change the observer saw.
struct ModeChange
{
    int64_t time{0};                    ///< when, ns
    uint32_t id{0};                     ///< the class
    HtbMode oldMode{HtbMode::CAN_SEND}; ///< before
    HtbMode newMode{HtbMode::CAN_SEND}; ///< after

    /**
     * @param other another change
     * @return true if both are the same change at the same time
     */
    bool operator==(const ModeChange& other) const
    {
        return time == other.time && id == other.id && oldMode == other.oldMode &&
               newMode == other.newMode;
    }
};

// The mode change observer sees every htb_change_class_mode() change, in order.
TEST(HtbScheduler, ModeChangeObserverSeesEveryChange)
{
    // CeilCapsBorrowing's tree: parent 1:1 rate 10 Mbit/s (l2t(1500) = 1.2 ms, buffer =
    // cbuffer = 1.28 ms); leaf 1:10 rate 1 Mbit/s (l2t 12 ms, buffer 12.8 ms) ceil 2 Mbit/s
    // (l2t 6 ms, cbuffer 6.4 ms), saturated with 1500 B packets, no device limit.
    // - t = 0, packet 1: leaf tokens 0.8, ctokens 0.4; parent 0.08, 0.08: no change.
    //   Packet 2: leaf tokens -11.2, ctokens -5.6: CAN_SEND -> CANT_SEND; then the parent
    //   (charged after its child) -1.12, -1.12: CAN_SEND -> CANT_SEND.
    // - 1.12 ms, the parent's event: ctokens = tokens = 0: CANT_SEND -> CAN_SEND. The leaf
    //   still waits: nothing is sent.
    // - 5.6 ms, the leaf's event: ctokens 0, tokens -5.6: CANT_SEND -> MAY_BORROW; it
    //   borrows a packet at level 7 (tokens only catch up to -5.6, ctokens -6):
    //   MAY_BORROW -> CANT_SEND. The parent, refilled to 1.28 ms, is left at 0.08: no
    //   change, and none later (a packet every 6 ms refills it).
    // - 11.6 ms: ctokens 0, tokens 0.4: CANT_SEND -> CAN_SEND; a level-0 packet: tokens
    //   -11.6, ctokens -6: CAN_SEND -> CANT_SEND.
    // - 17.6 ms: ctokens 0, tokens -5.6: as at 5.6 ms (the pattern repeats every 12 ms).
    Harness h;
    h.scheduler.AddClass(Class(1, 0, 10000000));
    h.scheduler.AddClass(Class(0x10, 1, 1000000, 2000000));
    std::vector<ModeChange> changes;
    h.scheduler.SetModeChangeObserver([&h, &changes](uint32_t id, HtbMode from, HtbMode to) {
        changes.push_back(ModeChange{h.now, id, from, to});
    });
    h.Run({0x10}, 1500, 20 * MS);
    using M = HtbMode;
    const std::vector<ModeChange> expected = {
        {0, 0x10, M::CAN_SEND, M::CANT_SEND},
        {0, 1, M::CAN_SEND, M::CANT_SEND},
        {1120000, 1, M::CANT_SEND, M::CAN_SEND},
        {5600000, 0x10, M::CANT_SEND, M::MAY_BORROW},
        {5600000, 0x10, M::MAY_BORROW, M::CANT_SEND},
        {11600000, 0x10, M::CANT_SEND, M::CAN_SEND},
        {11600000, 0x10, M::CAN_SEND, M::CANT_SEND},
        {17600000, 0x10, M::CANT_SEND, M::MAY_BORROW},
        {17600000, 0x10, M::MAY_BORROW, M::CANT_SEND},
    };
    ASSERT_EQ(changes.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i)
    {
        EXPECT_TRUE(changes[i] == expected[i])
            << "change " << i << " at " << changes[i].time << " ns, class " << changes[i].id;
    }
    // Every change to CANT_SEND is an overlimit: 4 of the leaf's, 1 of the parent's; the
    // qdisc's are their sum, 5.
    EXPECT_EQ(h.scheduler.GetClassStats(0x10).overlimits, 4U);
    EXPECT_EQ(h.scheduler.GetClassStats(1).overlimits, 1U);
    EXPECT_EQ(h.scheduler.GetOverlimits(), 5U);
    // The packets at 5.6 and 17.6 ms were borrowed at the parent's level, 7; the one at
    // 11.6 ms was sent at the leaf's own level, 0.
    ASSERT_EQ(h.log.size(), 5U);
    EXPECT_EQ(h.log[2].level, 7U);
    EXPECT_EQ(h.log[3].level, 0U);
    EXPECT_EQ(h.log[4].level, 7U);

    // Without an observer (an empty function) the same run makes the same decisions.
    Harness plain;
    plain.scheduler.AddClass(Class(1, 0, 10000000));
    plain.scheduler.AddClass(Class(0x10, 1, 1000000, 2000000));
    plain.scheduler.SetModeChangeObserver(nullptr);
    plain.Run({0x10}, 1500, 20 * MS);
    ASSERT_EQ(plain.log.size(), h.log.size());
    EXPECT_EQ(plain.log[4].time, h.log[4].time);
}

// A leaf borrows through two inner levels, from its grandparent.
TEST(HtbScheduler, BorrowsThroughTwoLevels)
{
    // 1:1 (level 7) rate 10 Mbit/s; 1:2 (level 6) rate 1 Mbit/s ceil 10 Mbit/s; leaf 1:20
    // rate 1 Mbit/s ceil 10 Mbit/s, saturated, no device limit. The leaf's own 1 Mbit/s
    // (level 0) is charged to 1:2's tokens at 1:2's rate too, so 1:2 has nothing left to
    // lend beyond its initial bucket (a packet or two at level 6); the other 9 Mbit/s are
    // borrowed at level 7 from 1:1. Over 10 s: 10 Mbit/s = 12.5 MB = 8333 packets (within
    // the top class's burst and a packet), of which ~833 at level 0 and ~7500 at level 7.
    Harness h;
    h.scheduler.AddClass(Class(1, 0, 10000000));
    h.scheduler.AddClass(Class(2, 1, 1000000, 10000000));
    h.scheduler.AddClass(Class(0x20, 2, 1000000, 10000000));
    EXPECT_EQ(h.scheduler.GetClassStats(1).level, 7U);
    EXPECT_EQ(h.scheduler.GetClassStats(2).level, 6U);
    const int64_t end = 10 * SEC;
    h.Run({0x20}, 1500, end);
    const uint64_t bytes = h.BytesOf(0x20, 0, end);
    EXPECT_LE(bytes, 12500000U + 1600 + 1500);
    EXPECT_GE(bytes + 1500, 12500000U);
    const HtbClassStats leaf = h.scheduler.GetClassStats(0x20);
    const HtbClassStats mid = h.scheduler.GetClassStats(2);
    const HtbClassStats top = h.scheduler.GetClassStats(1);
    EXPECT_NEAR(leaf.lends, 833, 3);
    EXPECT_LE(mid.lends, 3U);
    EXPECT_NEAR(top.lends, 7500, 5);
    EXPECT_EQ(leaf.lends + mid.lends + top.lends, leaf.packets);
    // Packets sent at level 7 count as borrows for both classes below it.
    EXPECT_EQ(mid.borrows, top.lends);
    EXPECT_EQ(leaf.borrows, mid.lends + top.lends);
}

// htb_do_events() handles at most 500 events per level and dequeue.
TEST(HtbScheduler, EventsPerDequeueAreCapped)
{
    // 600 top-level leaves at 1 Mbit/s with 3 packets each. At t = 0 each sends two (see
    // the burst test) and waits until 11.2 ms (CANT_SEND), all with the same event time.
    Harness h;
    constexpr uint32_t LEAVES = 600;
    for (uint32_t id = 1; id <= LEAVES; ++id)
    {
        h.scheduler.AddClass(Class(id, 0, 1000000));
        for (int i = 0; i < 3; ++i)
        {
            h.Enqueue(id, 1500);
        }
    }
    while (h.DequeueOne())
    {
    }
    EXPECT_EQ(h.log.size(), 2U * LEAVES);
    EXPECT_EQ(h.scheduler.GetNextEvent(), std::optional<int64_t>(11200000));
    auto count = [&h](HtbMode mode) {
        uint32_t n = 0;
        for (uint32_t id = 1; id <= LEAVES; ++id)
        {
            n += h.scheduler.GetClassStats(id).mode == static_cast<int>(mode) ? 1 : 0;
        }
        return n;
    };
    EXPECT_EQ(count(HtbMode::CANT_SEND), LEAVES);
    // At 11.2 ms one dequeue turns 500 classes CAN_SEND (in the order they started
    // waiting: 1:1 first) and sends one packet (from 1:1, the lowest classid of the row),
    // which makes 1:1 wait again: 499 CAN_SEND, 101 CANT_SEND.
    h.now = 11200000;
    EXPECT_EQ(h.DequeueOne(), 1U);
    EXPECT_EQ(count(HtbMode::CAN_SEND), 499U);
    EXPECT_EQ(count(HtbMode::CANT_SEND), 101U);
    // The level's event cache is now, so the next dequeue handles the last 100.
    EXPECT_EQ(h.DequeueOne(), 2U);
    EXPECT_EQ(count(HtbMode::CAN_SEND), 598U);
}

// The idle watchdog: nothing queued, nothing to wait for; a lone CANT_SEND class.
TEST(HtbScheduler, NextEventAndEmptyLeaves)
{
    Harness h;
    h.scheduler.AddClass(Class(1, 0, 1000000));
    // Nothing queued: no packet, no watchdog, no empty dequeue with packets waiting.
    EXPECT_FALSE(h.DequeueOne().has_value());
    EXPECT_FALSE(h.scheduler.GetNextEvent().has_value());
    EXPECT_EQ(h.scheduler.GetEmptyDequeues(), 0U);
    EXPECT_EQ(h.scheduler.GetOverlimits(), 0U);
    // Three packets: two go at t = 0 (see the burst test), the third waits 11.2 ms.
    h.Enqueue(1, 1500);
    h.Enqueue(1, 1500);
    h.Enqueue(1, 1500);
    EXPECT_EQ(h.DequeueOne(), 1U);
    EXPECT_FALSE(h.scheduler.GetNextEvent().has_value());
    EXPECT_EQ(h.DequeueOne(), 1U);
    EXPECT_FALSE(h.DequeueOne().has_value());
    EXPECT_EQ(h.scheduler.GetNextEvent(), std::optional<int64_t>(11200000));
    // One empty dequeue with a packet waiting; one overlimit, the second packet's charge
    // (tokens -11.2 ms) turning the class CANT_SEND.
    EXPECT_EQ(h.scheduler.GetEmptyDequeues(), 1U);
    EXPECT_EQ(h.scheduler.GetOverlimits(), 1U);
    EXPECT_EQ(h.scheduler.GetClassStats(1).mode, static_cast<int>(HtbMode::CANT_SEND));
    // One ns early: still nothing.
    h.now = 11200000 - 1;
    EXPECT_FALSE(h.DequeueOne().has_value());
    EXPECT_EQ(h.scheduler.GetEmptyDequeues(), 2U);
    EXPECT_EQ(h.scheduler.GetOverlimits(), 1U) << "no mode change before the event";
    h.now = 11200000;
    EXPECT_EQ(h.DequeueOne(), 1U);
    // The due event made the class CAN_SEND (tokens 0); the third packet's charge, -12 ms,
    // turns it CANT_SEND again: the second overlimit.
    EXPECT_EQ(h.scheduler.GetOverlimits(), 2U);
    // The leaf is empty now and was deactivated: nothing to wait for.
    EXPECT_FALSE(h.DequeueOne().has_value());
    EXPECT_FALSE(h.scheduler.GetNextEvent().has_value());
    // A leaf whose queue emptied behind the scheduler's back is skipped and deactivated.
    h.Enqueue(1, 1500);
    h.queues[1].clear();
    h.now = 100 * MS;
    EXPECT_FALSE(h.DequeueOne().has_value());
    EXPECT_FALSE(h.scheduler.GetNextEvent().has_value());
}

} // namespace
