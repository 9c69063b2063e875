/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for InterruptModeration: each trigger alone, the earliest-trigger rule,
 * the throttle, masking during NAPI, and invalid settings. Times are nanoseconds.
 */

#include "ns3/interrupt-moderation.h"

#include <gtest/gtest.h>

namespace
{

using ns3::debloat::InterruptModeration;

TEST(InterruptModerationTest, NoTriggerAssertsAtOnce)
{
    InterruptModeration irq;
    EXPECT_EQ(irq.GetDueTime(), InterruptModeration::NEVER);
    irq.OnEvent(1000);
    EXPECT_EQ(irq.GetDueTime(), 1000);
    EXPECT_EQ(irq.Assert(1000), 1U);
    // Masked while NAPI polls: a new event waits for the re-enable at 5000.
    irq.OnEvent(2000);
    EXPECT_EQ(irq.GetDueTime(), InterruptModeration::NEVER);
    irq.Unmask(5000);
    EXPECT_EQ(irq.GetDueTime(), 5000);
}

TEST(InterruptModerationTest, FramesOrAbsoluteDelay)
{
    // ethtool tx-frames 4, tx-usecs 100: three events at 0, 10 and 20 us wait for the
    // timer started by the first (0 + 100 us); a fourth at 30 us completes the count.
    InterruptModeration irq;
    irq.SetConfig({4, 0, 100000, 0});
    irq.OnEvent(0);
    irq.OnEvent(10000);
    irq.OnEvent(20000);
    EXPECT_EQ(irq.GetDueTime(), 100000);
    irq.OnEvent(30000);
    EXPECT_EQ(irq.GetDueTime(), 30000);
    EXPECT_EQ(irq.Assert(30000), 4U);
}

TEST(InterruptModerationTest, PacketTimerCappedByAbsoluteTimer)
{
    // e1000e defaults: TIDV 8 x 1.024 us = 8192 ns restarts with each event, TADV
    // 32 x 1.024 us = 32768 ns runs from the first. Events at 0, 5 and 10 us: the packet
    // timer ends first, at 10000 + 8192. Events every 5 us up to 30 us keep restarting it
    // (30000 + 8192 = 38192), so the absolute timer wins at 32768.
    InterruptModeration irq;
    irq.SetConfig({0, 8192, 32768, 0});
    irq.OnEvent(0);
    irq.OnEvent(5000);
    irq.OnEvent(10000);
    EXPECT_EQ(irq.GetDueTime(), 18192);
    for (int64_t t = 15000; t <= 30000; t += 5000)
    {
        irq.OnEvent(t);
    }
    EXPECT_EQ(irq.GetDueTime(), 32768);
}

TEST(InterruptModerationTest, ThrottleSpacesAssertions)
{
    // 4000 interrupts/s: 1e9 / 4000 = 250000 ns between assertions. The first event asserts
    // at once; after the poll re-enables at 10 us, an event at 20 us waits until 250 us.
    InterruptModeration irq;
    irq.SetConfig({0, 0, 0, 250000});
    irq.OnEvent(0);
    EXPECT_EQ(irq.GetDueTime(), 0);
    irq.Assert(0);
    irq.Unmask(10000);
    irq.OnEvent(20000);
    EXPECT_EQ(irq.GetDueTime(), 250000);
}

TEST(InterruptModerationTest, RejectsSettingsThatNeverFire)
{
    EXPECT_EQ(InterruptModeration::Validate({1, 0, 0, 0}), "");
    EXPECT_EQ(InterruptModeration::Validate({32, 0, 100000, 0}), "");
    EXPECT_NE(InterruptModeration::Validate({2, 0, 0, 0}), "");
    EXPECT_NE(InterruptModeration::Validate({0, -1, 0, 0}), "");
}

} // namespace
