/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for TcpTsoAutosize: tcp_update_pacing_rate() and tcp_tso_autosize() /
 * tcp_tso_segs(), each expected value worked out from the kernel's formulas:
 *   rate  = mss * ratio / 100 * max(cwnd, packets_out) * 1e6 / srtt_us
 *           (ratio 200 while cwnd < ssthresh / 2, else 120)
 *   bytes = min(rate >> 10 + [r < 32] * (65536 >> r), 65536),  r = min_rtt_us >> 9
 *   segs  = min(max(bytes / mss, 2), gso_max_segs)
 */

#include "ns3/tcp-tso-autosize.h"

#include <gtest/gtest.h>

namespace
{

using ns3::debloat::TcpTsoAutosize;

TEST(TcpTsoAutosize, PacingRateInSlowStartIsTwiceCwndOverSrtt)
{
    TcpTsoAutosize::Config config;
    // cwnd 10 < ssthresh 100 / 2: 200 %. 1448 * 2 * 10 / 1 ms = 28,960,000 bytes/s.
    EXPECT_EQ(TcpTsoAutosize::PacingRate(config, 1448, 10, 0, 100, 1000), 28960000U);
}

TEST(TcpTsoAutosize, PacingRateInCongestionAvoidanceIs120PerCent)
{
    TcpTsoAutosize::Config config;
    // cwnd 60 >= ssthresh 100 / 2: 120 %. 1448 * 1.2 * 60 / 2 ms = 52,128,000 bytes/s.
    EXPECT_EQ(TcpTsoAutosize::PacingRate(config, 1448, 60, 0, 100, 2000), 52128000U);
    // packets_out above cwnd counts instead: 1448 * 1.2 * 80 / 2 ms = 69,504,000.
    EXPECT_EQ(TcpTsoAutosize::PacingRate(config, 1448, 60, 80, 100, 2000), 69504000U);
}

TEST(TcpTsoAutosize, PacingRateTruncatesLikeDoDiv)
{
    TcpTsoAutosize::Config config;
    // ssthresh 0: cwnd 7 is not below 0 / 2, 120 %. 1448 * 1.2 * 7 = 12,163.2 bytes per
    // srtt of 9 us = 1,351,466,666.67 bytes/s; do_div truncates: 1,351,466,666.
    EXPECT_EQ(TcpTsoAutosize::PacingRate(config, 1448, 7, 0, 0, 9), 1351466666U);
}

TEST(TcpTsoAutosize, PacingRateBeforeTheFirstSampleIsTheCap)
{
    TcpTsoAutosize::Config config;
    EXPECT_EQ(TcpTsoAutosize::PacingRate(config, 1448, 10, 0, 100, 0), UINT64_MAX);
    config.maxPacingRate = 125000000;
    EXPECT_EQ(TcpTsoAutosize::PacingRate(config, 1448, 10, 0, 100, 0), 125000000U);
    // A computed rate above sk_max_pacing_rate is capped: 1448 * 2 * 10 / 1 us.
    EXPECT_EQ(TcpTsoAutosize::PacingRate(config, 1448, 10, 0, 100, 1), 125000000U);
}

TEST(TcpTsoAutosize, OneMillisecondOfPacingWithoutTheRttAllowance)
{
    TcpTsoAutosize::Config config;
    config.rttAllowance = false;
    // 100 Mbit/s = 12,500,000 bytes/s; >> 10 = 12,207 bytes; / 1448 = 8 segments.
    EXPECT_EQ(TcpTsoAutosize::Segments(config, 12500000, 1448, 1000), 8U);
    // 10 Mbit/s: 1,250,000 >> 10 = 1,220 bytes: less than a segment, tcp_min_tso_segs 2.
    EXPECT_EQ(TcpTsoAutosize::Segments(config, 1250000, 1448, 1000), 2U);
    // 1 Gbit/s: 125,000,000 >> 10 = 122,070 bytes, capped at 65,536: 45 segments.
    EXPECT_EQ(TcpTsoAutosize::Segments(config, 125000000, 1448, 1000), 45U);
}

TEST(TcpTsoAutosize, TheRttAllowanceHalvesEvery512Microseconds)
{
    TcpTsoAutosize::Config config;
    // 10 Mbit/s, min_rtt 1,100 us: r = 1100 >> 9 = 2, + 65536 >> 2 = 16,384;
    // 1,220 + 16,384 = 17,604 bytes / 1448 = 12 segments.
    EXPECT_EQ(TcpTsoAutosize::Segments(config, 1250000, 1448, 1100), 12U);
    // min_rtt 100 us: r = 0, + 65,536, capped at 65,536: 45 segments.
    EXPECT_EQ(TcpTsoAutosize::Segments(config, 1250000, 1448, 100), 45U);
    // min_rtt 20 ms: r = 39 >= 32, no allowance: 1,220 bytes, 2 segments.
    EXPECT_EQ(TcpTsoAutosize::Segments(config, 1250000, 1448, 20000), 2U);
}

TEST(TcpTsoAutosize, TheDeviceLimitsCap)
{
    TcpTsoAutosize::Config config;
    config.gsoMaxSegs = 100;
    config.gsoMaxSize = 16384;
    // 1 Gbit/s, close peer: min(122,070 + 16,384, 16,384) = 16,384 / 1448 = 11 segments.
    EXPECT_EQ(TcpTsoAutosize::Segments(config, 125000000, 1448, 100), 11U);
    config.gsoMaxSize = 65536;
    config.gsoMaxSegs = 10;
    // 45 segments by size, gso_max_segs 10.
    EXPECT_EQ(TcpTsoAutosize::Segments(config, 125000000, 1448, 100), 10U);
    // tcp_min_tso_segs above gso_max_segs: tcp_tso_segs() applies the device's cap last.
    config.gsoMaxSegs = 1;
    EXPECT_EQ(TcpTsoAutosize::Segments(config, 1250000, 1448, 20000), 1U);
}

} // namespace
