/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for TcpSmallQueues, each expected value worked out from
 * tcp_small_queue_check() and the skb's truesize:
 *   truesize = SKB_TRUESIZE(704) + payload = 704 + 256 + 320 + payload = 1280 + payload
 *   limit    = min(max(2 * truesize, pacing_rate >> 10), tcp_limit_output_bytes)
 *   throttled = sk_wmem_alloc > limit and the retransmit queue holds more than one skb
 */

#include "ns3/tcp-small-queues.h"

#include <gtest/gtest.h>

namespace
{

using ns3::debloat::TcpSmallQueues;

TEST(TcpSmallQueues, TruesizeIsTheHeadPlusThePayload)
{
    // One MSS: 1280 + 1448 = 2728. A 45-segment super-packet: 1280 + 65160 = 66440.
    EXPECT_EQ(TcpSmallQueues::Truesize(1448), 2728U);
    EXPECT_EQ(TcpSmallQueues::Truesize(45 * 1448), 66440U);
}

TEST(TcpSmallQueues, SlowFlowsMayHaveTwoSkbsBelowThem)
{
    TcpSmallQueues::Config config;
    // 10 Mbit/s = 1,250,000 bytes/s: >> 10 = 1220 bytes < 2 x 2728 = 5456.
    EXPECT_EQ(TcpSmallQueues::Limit(config, 2728, 1250000), 5456U);
}

TEST(TcpSmallQueues, FastFlowsMayHaveAMillisecondBelowThem)
{
    TcpSmallQueues::Config config;
    // 1.2 x 1 Gbit/s = 150,000,000 bytes/s: >> 10 = 146484 > 2 x 66440 = 132880.
    EXPECT_EQ(TcpSmallQueues::Limit(config, 66440, 150000000), 146484U);
}

TEST(TcpSmallQueues, TheSysctlCapsTheLimit)
{
    // Linux 3.6's tcp_limit_output_bytes 131072 caps 146484.
    TcpSmallQueues::Config config;
    config.limitOutputBytes = 131072;
    EXPECT_EQ(TcpSmallQueues::Limit(config, 66440, 150000000), 131072U);
    // 10 Gbit/s at 200 %: 2.5e9 >> 10 = 2441406, capped at 4.20's 1 MiB.
    config.limitOutputBytes = 1048576;
    EXPECT_EQ(TcpSmallQueues::Limit(config, 66440, 2500000000ULL), 1048576U);
}

TEST(TcpSmallQueues, ThrottledOnlyAboveTheLimitWithMoreThanOneSkbOut)
{
    // At the limit the skb still goes (the test is strictly greater).
    EXPECT_FALSE(TcpSmallQueues::Throttled(5456, 5456, false));
    EXPECT_TRUE(TcpSmallQueues::Throttled(5457, 5456, false));
    // tcp_rtx_queue_empty_or_single_skb(): never throttled.
    EXPECT_FALSE(TcpSmallQueues::Throttled(1000000, 5456, true));
}

} // namespace
