/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for DynamicItr: e1000e's latency classes and rate steps, igb's wire-size
 * rule (several vectors) and its latency classes (one vector), the conservative floors and
 * the slow-link rates, and ixgbe's adaptive ITR (bulk by wire size at 10G and 1G, latency
 * mode, the packet-count steps, the late-update reset), each derived from the drivers'
 * formulas in a comment.
 */

#include "ns3/dynamic-itr.h"

#include <gtest/gtest.h>

namespace
{

using ns3::debloat::DynamicItr;

/// The ITR register interval for a rate: floor(10^9 / (rate * 256)) * 256 ns.
constexpr int64_t
E1000eInterval(int64_t rate)
{
    return 1000000000 / (rate * 256) * 256;
}

TEST(DynamicItrTest, E1000eBulkThenStepsBackUp)
{
    DynamicItr itr(DynamicItr::Mode::E1000E_CONSERVATIVE, 1000000000, true);
    // Start: 20000 ints/s = floor(10^9 / 5120000) = 195 units of 256 ns = 49920 ns.
    EXPECT_EQ(itr.GetInterval(), 49920);
    EXPECT_EQ(E1000eInterval(20000), 49920);
    // 40 full-size frames (60560 bytes) since the interrupt: low_latency with bytes > 10000
    // and 1514 bytes per packet > 1200 becomes bulk_latency: 4000 ints/s, falling at once:
    // floor(10^9 / 1024000) = 976 units = 249856 ns.
    itr.OnInterrupt();
    itr.CountTx(40, 40 * 1514);
    itr.OnPollComplete(0);
    EXPECT_EQ(itr.GetInterval(), 249856);
    // Only RX traffic now: a direction without packets keeps its class, so TX stays bulk and
    // the busier class (bulk) keeps 4000 ints/s.
    itr.OnInterrupt();
    itr.CountRx(2, 132);
    itr.OnPollComplete(0);
    EXPECT_EQ(itr.GetInterval(), 249856);
    // Two small TX frames (132 bytes): bulk with bytes < 6000 becomes low_latency, 20000
    // ints/s, but a rising rate moves by a quarter of the target: min(4000 + 5000, 20000) =
    // 9000 ints/s = floor(10^9 / 2304000) = 434 units = 111104 ns; then 14000 (279 units =
    // 71424 ns), then 19000 (205 units = 52480 ns), then 20000 (49920 ns).
    const int64_t steps[] = {111104, 71424, 52480, 49920};
    for (int64_t expected : steps)
    {
        itr.OnInterrupt();
        itr.CountTx(2, 132);
        itr.OnPollComplete(0);
        EXPECT_EQ(itr.GetInterval(), expected);
    }
}

TEST(DynamicItrTest, E1000eLowestLatencyOnlyWhenNotConservative)
{
    // Two small frames (100 bytes) each way from low_latency: packets <= 2 and bytes < 512
    // gives lowest_latency in both directions, 70000 ints/s. Stepping up from 20000:
    // min(20000 + 17500, 70000) = 37500 ints/s = floor(10^9 / 9600000) = 104 units = 26624 ns.
    // The conservative mode turns lowest_latency back into low_latency: 49920 ns.
    DynamicItr dynamic(DynamicItr::Mode::E1000E, 1000000000, true);
    dynamic.OnInterrupt();
    dynamic.CountTx(2, 100);
    dynamic.CountRx(2, 100);
    dynamic.OnPollComplete(0);
    EXPECT_EQ(dynamic.GetInterval(), 26624);

    DynamicItr conservative(DynamicItr::Mode::E1000E_CONSERVATIVE, 1000000000, true);
    conservative.OnInterrupt();
    conservative.CountTx(2, 100);
    conservative.CountRx(2, 100);
    conservative.OnPollComplete(0);
    EXPECT_EQ(conservative.GetInterval(), 49920);
}

TEST(DynamicItrTest, E1000eSlowLinkIsFourThousand)
{
    // Below 1 Gbit/s e1000_set_itr() sets 4000 ints/s whatever the traffic: 249856 ns.
    DynamicItr itr(DynamicItr::Mode::E1000E_CONSERVATIVE, 100000000, true);
    itr.OnInterrupt();
    itr.CountRx(1, 66);
    itr.OnPollComplete(0);
    EXPECT_EQ(itr.GetInterval(), 249856);
}

TEST(DynamicItrTest, IgbFollowsAverageWireSizeAtTheNextInterrupt)
{
    DynamicItr itr(DynamicItr::Mode::IGB_CONSERVATIVE, 1000000000, false);
    // IGB_START_ITR 648: 648 & 0x7FFC = 648, >> 2 = 162 us.
    EXPECT_EQ(itr.GetInterval(), 162000);
    // Full-size TX frames: 1514 + 24 = 1538, not in (300, 1200): 1538 / 2 = 769; written at
    // the next interrupt as 769 & 0x7FFC = 768, >> 2 = 192 us.
    itr.CountTx(10, 10 * 1514);
    itr.OnPollComplete(0);
    EXPECT_EQ(itr.GetInterval(), 162000) << "not before the next interrupt";
    itr.OnInterrupt();
    EXPECT_EQ(itr.GetInterval(), 192000);
    // 500-byte frames: 524 is mid-size, 524 / 3 = 174, below IGB_20K_ITR 196, which the
    // conservative mode keeps: 196 >> 2 = 49 us.
    itr.CountRx(4, 4 * 500);
    itr.OnPollComplete(0);
    itr.OnInterrupt();
    EXPECT_EQ(itr.GetInterval(), 49000);
}

TEST(DynamicItrTest, IgbDynamicGoesBelowTwentyThousand)
{
    // ACK-sized frames (66 bytes): 90 / 2 = 45, 45 & 0x7FFC = 44, >> 2 = 11 us; the
    // conservative floor is not applied with itr_setting 1.
    DynamicItr itr(DynamicItr::Mode::IGB, 1000000000, false);
    itr.CountRx(8, 8 * 66);
    itr.OnPollComplete(0);
    itr.OnInterrupt();
    EXPECT_EQ(itr.GetInterval(), 11000);
}

/// igb_write_itr(): EITR holds itr_val & 0x7FFC, microseconds in bits 2 to 14.
constexpr int64_t
IgbInterval(int64_t itrVal)
{
    return ((itrVal & 0x7FFC) >> 2) * 1000;
}

TEST(DynamicItrTest, IgbSingleVectorUsesLatencyClasses)
{
    // One q_vector: igb_ring_irq_enable() calls igb_set_itr(). Both directions start at
    // lowest_latency (the zeroed q_vector), itr_val at IGB_START_ITR 648: 162 us.
    DynamicItr itr(DynamicItr::Mode::IGB_CONSERVATIVE, 1000000000, true);
    EXPECT_EQ(itr.GetInterval(), IgbInterval(648));
    EXPECT_EQ(IgbInterval(648), 162000);
    // 40 full-size TX frames (60560 bytes): igb_update_itr() from lowest_latency moves only
    // for more than 8000 bytes per packet or fewer than 5 packets, so TX stays lowest; the
    // busier class, lowest, is low_latency in the conservative mode: IGB_20K_ITR 196, a
    // shorter interval, taken as it is, written at the next interrupt: 196 >> 2 = 49 us.
    // (igb_update_ring_itr() would give (1514 + 24) / 2 = 769: 192 us.)
    itr.CountTx(40, 40 * 1514);
    itr.OnPollComplete(0);
    EXPECT_EQ(itr.GetInterval(), 162000) << "not before the next interrupt";
    itr.OnInterrupt();
    EXPECT_EQ(itr.GetInterval(), IgbInterval(196));
    EXPECT_EQ(IgbInterval(196), 49000);
    // The conservative mode changed only the choice: TX is still lowest_latency. Two full
    // frames (3028 bytes): fewer than 5 packets and more than 512 bytes: low_latency, 196.
    itr.CountTx(2, 2 * 1514);
    itr.OnPollComplete(0);
    itr.OnInterrupt();
    EXPECT_EQ(itr.GetInterval(), 49000);
    // 40 full frames from low_latency: bytes > 10000 and 1514 per packet > 1200:
    // bulk_latency, IGB_4K_ITR 980. A longer interval is smoothed to
    // max(980 * 196 / (980 + 196 / 4), 980) = max(192080 / 1029 = 186, 980) = 980: 245 us.
    itr.CountTx(40, 40 * 1514);
    itr.OnPollComplete(0);
    itr.OnInterrupt();
    EXPECT_EQ(itr.GetInterval(), IgbInterval(980));
    EXPECT_EQ(IgbInterval(980), 245000);
    // Two small RX frames (132 bytes) keep RX at lowest_latency (2 < 5 but only 132 bytes);
    // TX, without packets, stays bulk, and the busier class wins: still 245 us.
    itr.CountRx(2, 2 * 66);
    itr.OnPollComplete(0);
    itr.OnInterrupt();
    EXPECT_EQ(itr.GetInterval(), 245000);
    // Three full TX frames, 4542 bytes: not above 25000 and not below igb's 1500 (e1000e's
    // bound is 6000): still bulk, 245 us.
    itr.CountTx(3, 3 * 1514);
    itr.OnPollComplete(0);
    itr.OnInterrupt();
    EXPECT_EQ(itr.GetInterval(), 245000);
    // Four 300-byte TX frames, 1200 bytes < 1500: low_latency; max(lowest, low) = low:
    // 196, shorter, at once: 49 us.
    itr.CountTx(4, 4 * 300);
    itr.OnPollComplete(0);
    itr.OnInterrupt();
    EXPECT_EQ(itr.GetInterval(), 49000);
}

TEST(DynamicItrTest, IgbSingleVectorDynamicReachesSeventyThousand)
{
    // itr_setting 1: two small RX frames (132 bytes) leave both directions lowest_latency,
    // which is not replaced: IGB_70K_ITR 56, 56 & 0x7FFC = 56, >> 2 = 14 us.
    DynamicItr dynamic(DynamicItr::Mode::IGB, 1000000000, true);
    dynamic.CountRx(2, 2 * 66);
    dynamic.OnPollComplete(0);
    dynamic.OnInterrupt();
    EXPECT_EQ(dynamic.GetInterval(), IgbInterval(56));
    EXPECT_EQ(IgbInterval(56), 14000);
    // The conservative mode (3) chooses low_latency instead: 196, 49 us.
    DynamicItr conservative(DynamicItr::Mode::IGB_CONSERVATIVE, 1000000000, true);
    conservative.CountRx(2, 2 * 66);
    conservative.OnPollComplete(0);
    conservative.OnInterrupt();
    EXPECT_EQ(conservative.GetInterval(), 49000);
    // Below 1 Gbit/s igb_set_itr() fixes IGB_4K_ITR, 245 us, as igb_update_ring_itr() does.
    DynamicItr slow(DynamicItr::Mode::IGB_CONSERVATIVE, 100000000, true);
    slow.CountRx(2, 2 * 66);
    slow.OnPollComplete(0);
    slow.OnInterrupt();
    EXPECT_EQ(slow.GetInterval(), 245000);
}

TEST(DynamicItrTest, IgbSlowLinkAndParse)
{
    // Below 1 Gbit/s: IGB_4K_ITR 980, 980 & 0x7FFC = 980, >> 2 = 245 us.
    DynamicItr itr(DynamicItr::Mode::IGB_CONSERVATIVE, 100000000, false);
    itr.OnPollComplete(0);
    itr.OnInterrupt();
    EXPECT_EQ(itr.GetInterval(), 245000);
    DynamicItr::Mode mode;
    EXPECT_TRUE(DynamicItr::Parse("igb-conservative", mode));
    EXPECT_EQ(mode, DynamicItr::Mode::IGB_CONSERVATIVE);
    EXPECT_FALSE(DynamicItr::Parse("i40e", mode));
}

TEST(DynamicItrTest, IxgbeBulkByWireSizeAt10GAnd1G)
{
    // ixgbe_alloc_q_vector(): a vector with an RX ring starts at IXGBE_20K_ITR 200, EITR
    // (200 & 0xFF8) >> 2 = 50 us.
    DynamicItr itr(DynamicItr::Mode::IXGBE, 10000000000ULL, false);
    EXPECT_EQ(itr.GetInterval(), 50000);
    // 300 TX packets of 1514 bytes within the first jiffy (0.5 ms, jiffy 0, not after
    // next_update 0): 256 or more is bulk; avg 1514 < 1968 gives 1514 x 5 + 22420 = 29990,
    // at 10G ceil(29990 / 512) = 59 steps of 2 us: tx.itr 118. RX saw nothing: (200 >> 2)
    // + 2 = 52 plus its latency flag 0x80 (the start value 126 | 0x80 has it) = 180. The
    // smaller, 118, becomes q_vector->itr 472 and EITR 118 us, at once (ixgbe_write_eitr).
    itr.CountTx(300, 300 * 1514);
    itr.OnPollComplete(500000);
    EXPECT_EQ(itr.GetInterval(), 118000);
    // Then 100 TX packets (96 to 255: halve, 472 >> 3 = 59) while RX stays idle ((472 >> 2)
    // + 2 = 120 | 0x80 = 248): itr 59, q_vector->itr 236, and EITR keeps bits 3 to 11:
    // 236 & 0xFF8 = 232, 58 us (2-us steps).
    itr.CountTx(100, 100 * 1514);
    itr.OnPollComplete(1000000); // jiffy 1, not after next_update 0 + 1
    EXPECT_EQ(itr.GetInterval(), 58000);
    // 60 packets (48 to 95): keep 236 >> 2 = 59, 58 us again.
    itr.CountTx(60, 60 * 1514);
    itr.OnPollComplete(1500000);
    EXPECT_EQ(itr.GetInterval(), 58000);
    // 10 packets (4 to 47): one step longer, 59 + 2 = 61: q_vector->itr 244, 240 >> 2 = 60 us.
    itr.CountTx(10, 10 * 1514);
    itr.OnPollComplete(2000000);
    EXPECT_EQ(itr.GetInterval(), 60000);

    // At 1 Gbit/s the size term is capped at 8064 and counted in 128ths: ceil(8064 / 128)
    // = 63 steps, 126 us (the adaptive maximum, about 7900 interrupts per second).
    DynamicItr gigabit(DynamicItr::Mode::IXGBE, 1000000000, false);
    gigabit.CountTx(300, 300 * 1514);
    gigabit.OnPollComplete(500000);
    EXPECT_EQ(gigabit.GetInterval(), 126000);
}

TEST(DynamicItrTest, IxgbeLatencyModeAndLateUpdates)
{
    DynamicItr itr(DynamicItr::Mode::IXGBE, 10000000000ULL, false);
    // Two 66-byte RX frames (a ping): fewer than 4 packets and 9000 bytes is latency mode,
    // sized: avg 66 <= 316 gives 66 x 40 + 2720 = 5360, halved in latency mode to 2680,
    // ceil(2680 / 512) = 6 steps: rx.itr 12 | 0x80 = 140. TX idle: 52 | 0x80 = 180. The
    // smaller is 140; without its flag 12 us (q_vector->itr 48).
    itr.CountRx(2, 2 * 66);
    itr.OnPollComplete(0);
    EXPECT_EQ(itr.GetInterval(), 12000);
    // A poll that ends more than a jiffy after the last (jiffy 5 after next_update 1) does
    // not measure: both directions restart at IXGBE_ITR_ADAPTIVE_MIN_USECS 10 in latency
    // mode, 10 us, whatever was counted.
    itr.CountTx(300, 300 * 1514);
    itr.OnPollComplete(5000000);
    EXPECT_EQ(itr.GetInterval(), 10000);
    DynamicItr::Mode mode;
    EXPECT_TRUE(DynamicItr::Parse("ixgbe", mode));
    EXPECT_EQ(mode, DynamicItr::Mode::IXGBE);
}

} // namespace
