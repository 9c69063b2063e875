/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for DescriptorRing: descriptor accounting, ring order, the work limit of
 * a clean and wrap-around.
 */

#include "ns3/descriptor-ring.h"

#include <gtest/gtest.h>
#include <vector>

namespace
{

using ns3::debloat::DescriptorRing;

TEST(DescriptorRingTest, PostsUntilTheDescriptorsRunOut)
{
    // 8 descriptors, 3 per packet: two packets use 6, a third needs 3 > 2 unused.
    DescriptorRing ring(8);
    EXPECT_TRUE(ring.Post(1, 3, 1514));
    EXPECT_TRUE(ring.Post(2, 3, 1514));
    EXPECT_FALSE(ring.Post(3, 3, 1514));
    EXPECT_EQ(ring.GetUsed(), 6U);
    EXPECT_EQ(ring.GetUnused(), 2U);
    EXPECT_EQ(ring.GetPackets(), 2U);
    EXPECT_EQ(ring.GetBytes(), 2U * 1514);
    // Two one-descriptor packets still fit, then nothing.
    EXPECT_TRUE(ring.Post(3, 1, 60));
    EXPECT_TRUE(ring.Post(4, 1, 60));
    EXPECT_FALSE(ring.Post(5, 1, 60));
    EXPECT_FALSE(ring.Post(6, 0, 60)) << "a packet needs at least one descriptor";
}

TEST(DescriptorRingTest, HardwareOrderAndCleanWorkLimit)
{
    DescriptorRing ring(16);
    for (int i = 1; i <= 5; i++)
    {
        ASSERT_TRUE(ring.Post(static_cast<uint32_t>(i), 2, 100 * i));
    }
    EXPECT_EQ(ring.GetPending(), 5U);
    // The hardware fetches in ring order.
    EXPECT_EQ(ring.Fetch(), 1U);
    EXPECT_EQ(ring.Fetch(), 2U);
    EXPECT_EQ(ring.Fetch(), 3U);
    EXPECT_EQ(ring.GetPending(), 2U);
    EXPECT_EQ(ring.GetFetched(), 3U);
    ring.MarkDone();
    ring.MarkDone();
    ring.MarkDone();
    EXPECT_EQ(ring.GetDone(), 3U);
    // A clean with work limit 2 reclaims packets 1 and 2: 4 descriptors, 100 + 200 bytes.
    std::vector<uint32_t> cleaned;
    auto cleanedOnes = ring.Clean(2, [&cleaned](uint32_t item) { cleaned.push_back(item); });
    EXPECT_EQ(cleanedOnes.packets, 2U);
    EXPECT_EQ(cleanedOnes.descriptors, 4U);
    EXPECT_EQ(cleanedOnes.bytes, 300U);
    EXPECT_EQ(cleaned, (std::vector<uint32_t>{1, 2}));
    // Packet 3 is done but waits for the next clean; 3 packets and 6 descriptors remain.
    EXPECT_EQ(ring.GetDone(), 1U);
    EXPECT_EQ(ring.GetPackets(), 3U);
    EXPECT_EQ(ring.GetUsed(), 6U);
    EXPECT_EQ(ring.GetBytes(), 300U + 400 + 500);
    // Nothing more is done: a clean with a large limit reclaims only packet 3.
    EXPECT_EQ(ring.Clean(64, [&cleaned](uint32_t item) { cleaned.push_back(item); }).packets, 1U);
    EXPECT_EQ(cleaned.back(), 3U);
}

TEST(DescriptorRingTest, WrapsAroundInOrder)
{
    // Ten rounds of three one-descriptor packets through a four-descriptor ring: every
    // packet comes back in the order it was posted.
    DescriptorRing ring(4);
    std::vector<uint32_t> cleaned;
    uint32_t next = 0;
    for (int round = 0; round < 10; round++)
    {
        for (int i = 0; i < 3; i++)
        {
            ASSERT_TRUE(ring.Post(next++, 1, 60));
        }
        for (int i = 0; i < 3; i++)
        {
            ring.Fetch();
            ring.MarkDone();
        }
        ring.Clean(3, [&cleaned](uint32_t item) { cleaned.push_back(item); });
    }
    ASSERT_EQ(cleaned.size(), 30U);
    for (uint32_t i = 0; i < 30; i++)
    {
        EXPECT_EQ(cleaned[i], i);
    }
    EXPECT_EQ(ring.GetUsed(), 0U);
}

} // namespace
