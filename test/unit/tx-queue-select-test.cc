/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for ReciprocalScale, the skb_tx_hash queue choice.
 */

#include "ns3/tx-queue-select.h"

#include <gtest/gtest.h>

namespace
{

using ns3::debloat::ReciprocalScale;

TEST(TxQueueSelectTest, ScalesTheHashRangeOntoTheQueues)
{
    // With 8 queues each queue owns 2^32 / 8 = 0x20000000 consecutive hash values:
    // (h * 8) >> 32 = h >> 29.
    EXPECT_EQ(ReciprocalScale(0x00000000, 8), 0U);
    EXPECT_EQ(ReciprocalScale(0x1FFFFFFF, 8), 0U);
    EXPECT_EQ(ReciprocalScale(0x20000000, 8), 1U);
    EXPECT_EQ(ReciprocalScale(0x80000000, 8), 4U);
    EXPECT_EQ(ReciprocalScale(0xFFFFFFFF, 8), 7U);
    // With 3 queues the boundaries fall at ceil(k * 2^32 / 3): 0x55555556 and 0xAAAAAAAB.
    EXPECT_EQ(ReciprocalScale(0x55555555, 3), 0U);
    EXPECT_EQ(ReciprocalScale(0x55555556, 3), 1U);
    EXPECT_EQ(ReciprocalScale(0xAAAAAAAA, 3), 1U);
    EXPECT_EQ(ReciprocalScale(0xAAAAAAAB, 3), 2U);
    // One queue takes everything.
    EXPECT_EQ(ReciprocalScale(0xFFFFFFFF, 1), 0U);
}

} // namespace
