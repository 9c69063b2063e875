/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for NicDriver, the NIC driver core: descriptors per post, the stop and
 * wake thresholds of e1000e and igb, the TX work limit with one BQL completion per clean,
 * the NAPI weight, the hardware's round robin, and interrupt due times. Each expected value
 * is derived in a comment from the drivers (drivers/net/ethernet/intel/e1000e/netdev.c,
 * igb/igb_main.c) with the constants the profiles use. Times are nanoseconds.
 */

#include "ns3/nic-driver.h"

#include <gtest/gtest.h>
#include <vector>

namespace
{

using ns3::debloat::DynamicItr;
using ns3::debloat::InterruptModeration;
using ns3::debloat::NicDriver;

/// The Ethernet frame of a 1500-byte IP packet without FCS: skb->len 1514.
constexpr uint32_t FULL_FRAME = 1514;

/// Records what the core tells its adapter.
class Recorder : public NicDriver::Listener
{
  public:
    void TxReclaimed(uint32_t queue, uint32_t slot) override
    {
        reclaimed.push_back(slot);
        lastQueue = queue;
    }

    void TxCompleted(uint32_t queue, const NicDriver::Ring::Cleaned& cleaned) override
    {
        completions.push_back(cleaned.bytes);
        lastQueue = queue;
    }

    void TxWake(uint32_t queue) override
    {
        wakes++;
        lastQueue = queue;
    }

    void RxDeliver(uint32_t queue, uint32_t slot) override
    {
        delivered.push_back(slot);
        rxQueues.push_back(queue);
    }

    std::vector<uint32_t> reclaimed;   ///< TX slots, in order
    std::vector<uint64_t> completions; ///< bytes of each BQL completion
    std::vector<uint32_t> delivered;   ///< RX slots, in order
    std::vector<uint32_t> rxQueues;    ///< RX queue of each delivery
    uint32_t wakes{0};                 ///< TxWake calls
    uint32_t lastQueue{UINT32_MAX};    ///< queue of the last call
};

/**
 * The e1000e profile: one TX queue of 256 descriptors, tx_fifo_limit 24 KiB per data
 * descriptor plus a context descriptor, e1000_maybe_stop_tx((MAX_SKB_FRAGS + 1) *
 * ceil(PAGE_SIZE / 24576) + 4) = 18 * 1 + 4 = 22 (since "e1000e: Fix TX dispatch
 * condition", 2022; 19 before), e1000_desc_unused() = size - used - 1, TX_WAKE_THRESHOLD
 * 32, NAPI weight 64, TIDV 8 and TADV 32 units of 1.024 us (8192 and 32768 ns).
 * @return the settings
 */
NicDriver::Config
E1000e()
{
    NicDriver::Config config;
    config.txQueues = 1;
    config.txRingSize = 256;
    config.rxRingSize = 256;
    config.txMaxDataPerDescriptor = 24576;
    config.txContextDescriptor = true;
    config.txStopThreshold = 22;
    config.txWakeThreshold = 32;
    config.txRingGap = 1;
    config.txWorkLimit = 256;
    config.napiWeight = 64;
    config.txIrq = {0, 8192, 32768, 0};
    return config;
}

/**
 * The igb profile: 8 TX queues of 256 descriptors, IGB_MAX_DATA_PER_TXD 32 KiB plus a
 * context descriptor, DESC_NEEDED = MAX_SKB_FRAGS + 4 = 21, TX_WAKE_THRESHOLD =
 * 2 * DESC_NEEDED = 42, IGB_DEFAULT_TX_WORK 128, NAPI weight 64.
 * @return the settings
 */
NicDriver::Config
Igb()
{
    NicDriver::Config config;
    config.txQueues = 8;
    config.txRingSize = 256;
    config.rxRingSize = 256;
    config.txMaxDataPerDescriptor = 32768;
    config.txContextDescriptor = true;
    config.txStopThreshold = 21;
    config.txWakeThreshold = 42;
    config.txWorkLimit = 128;
    config.napiWeight = 64;
    return config;
}

/**
 * Posts count full frames to a queue.
 * @param driver the core
 * @param queue the TX queue
 * @param count frames
 * @return how many posts asked for a stop
 */
uint32_t
PostFull(NicDriver& driver, uint32_t queue, uint32_t count)
{
    uint32_t stops = 0;
    for (uint32_t i = 0; i < count; i++)
    {
        uint32_t slot = 0;
        EXPECT_TRUE(driver.PostTx(queue, FULL_FRAME, slot));
        stops += driver.MaybeStop(queue) ? 1 : 0;
    }
    return stops;
}

/**
 * The hardware sends count frames: each starts on the idle wire, its last bit leaves and its
 * descriptors are written back.
 * @param driver the core
 * @param count frames
 * @param now the time of the write-backs
 */
void
SendFrames(NicDriver& driver, uint32_t count, int64_t now)
{
    for (uint32_t i = 0; i < count; i++)
    {
        const auto frame = driver.StartFrame();
        ASSERT_TRUE(frame.started);
        driver.WireIdle();
        driver.TxDone(frame.queue, now);
    }
}

TEST(NicDriverTest, DescriptorsPerPost)
{
    // e1000_xmit_frame: count = ceil(len / tx_fifo_limit) for the linear data + 1 context
    // descriptor. A 1514-byte frame: ceil(1514 / 24576) = 1, + 1 = 2; a 60-byte one also 2.
    EXPECT_EQ(NicDriver::CountTxDescriptors(FULL_FRAME, 24576, true), 2U);
    EXPECT_EQ(NicDriver::CountTxDescriptors(60, 24576, true), 2U);
    // At the limit, 24576 bytes fill one data descriptor; one byte more needs a second.
    EXPECT_EQ(NicDriver::CountTxDescriptors(24576, 24576, true), 2U);
    EXPECT_EQ(NicDriver::CountTxDescriptors(24577, 24576, true), 3U);
    // ag71xx on AR7100 splits into 512-byte descriptors, no context: ceil(1514 / 512) = 3.
    EXPECT_EQ(NicDriver::CountTxDescriptors(FULL_FRAME, 512, false), 3U);
    // A packet takes at least one data descriptor.
    EXPECT_EQ(NicDriver::CountTxDescriptors(0, 32768, false), 1U);

    NicDriver driver;
    driver.Configure(E1000e());
    uint32_t slot = 99;
    ASSERT_TRUE(driver.PostTx(0, FULL_FRAME, slot));
    EXPECT_EQ(slot, 0U);
    ASSERT_TRUE(driver.PostTx(0, 60, slot));
    EXPECT_EQ(slot, 1U);
    // Two packets of 2 descriptors: 4 used, 256 - 4 = 252 free, 1514 + 60 bytes.
    EXPECT_EQ(driver.GetTxRing(0).GetUsed(), 4U);
    EXPECT_EQ(driver.GetTxRing(0).GetUnused(), 252U);
    EXPECT_EQ(driver.GetTxRing(0).GetBytes(), 1574U);
}

TEST(NicDriverTest, WireTimeOfAFrame)
{
    // A 1514-byte frame plus preamble and SFD 8, FCS 4 and the inter-frame gap 12 holds the
    // wire for 1538 * 8 = 12304 bits: 12304 ns at 1 Gbit/s, 123040 ns at 100 Mbit/s.
    EXPECT_EQ(NicDriver::GetWireTime(FULL_FRAME, 60, 24, 1000000000), 12304);
    EXPECT_EQ(NicDriver::GetWireTime(FULL_FRAME, 60, 24, 100000000), 123040);
    // A 42-byte ARP frame is padded to ETH_ZLEN 60: (60 + 24) * 8 = 672 bits, 6720 ns at
    // 100 Mbit/s.
    EXPECT_EQ(NicDriver::GetWireTime(42, 60, 24, 100000000), 6720);
    // Rounded to the nearest ns: 12304 bits at 300 Mbit/s are 41013.33 ns.
    EXPECT_EQ(NicDriver::GetWireTime(FULL_FRAME, 60, 24, 300000000), 41013);
    // ATM (ADSL, PPPoE over LLC/SNAP: 40 bytes on the IP packet, 26 on the 14-byte-header
    // frame, no padding): a 1500-byte IP packet, 1514 + 26 = 1540 bytes, fills
    // ceil(1540 / 48) = 33 cells, 1749 bytes, 13992 bits: 13.992 ms at 1 Mbit/s. A 52-byte
    // ACK, 66 + 26 = 92 bytes, fills 2 cells: 848 bits, 848 us.
    EXPECT_EQ(NicDriver::GetWireTime(FULL_FRAME, 0, 26, 1000000, true), 13992000);
    EXPECT_EQ(NicDriver::GetWireTime(66, 0, 26, 1000000, true), 848000);
    // Exactly 48 bytes is one cell, 49 two.
    EXPECT_EQ(NicDriver::GetWireTime(48, 0, 0, 1000000, true), 424000);
    EXPECT_EQ(NicDriver::GetWireTime(49, 0, 0, 1000000, true), 848000);
}

TEST(NicDriverTest, E1000eStopsBelowTwentyTwoAndWakesAtThirtyTwo)
{
    NicDriver driver;
    driver.Configure(E1000e());
    // e1000_maybe_stop_tx(22) after each post, e1000_desc_unused() = 256 - used - 1:
    // free = 255 - 2n < 22 first at n = 117 (255 - 234 = 21); after 116 posts 23 are free
    // and the queue runs.
    EXPECT_EQ(PostFull(driver, 0, 116), 0U);
    EXPECT_FALSE(driver.IsStopped(0));
    EXPECT_EQ(driver.GetTxUnused(0), 23U);
    EXPECT_EQ(driver.GetTxRing(0).GetUnused(), 24U); // the ring's own count has no gap
    EXPECT_TRUE([&] {
        uint32_t slot = 0;
        return driver.PostTx(0, FULL_FRAME, slot);
    }());
    EXPECT_TRUE(driver.MaybeStop(0));
    EXPECT_TRUE(driver.IsStopped(0));
    EXPECT_EQ(driver.GetTxUnused(0), 21U);
    // A stopped queue is stopped once: the next check asks for nothing.
    EXPECT_FALSE(driver.MaybeStop(0));

    // e1000_clean_tx_irq wakes once e1000_desc_unused() >= TX_WAKE_THRESHOLD 32: 21 + 2k
    // >= 32 needs k = 6 reclaimed packets. Five leave 31 free and the queue stopped.
    SendFrames(driver, 6, 1000);
    Recorder rec;
    auto cleaned = driver.CleanTx(0, 5, rec);
    EXPECT_EQ(cleaned.packets, 5U);
    EXPECT_EQ(cleaned.descriptors, 10U);
    EXPECT_EQ(driver.GetTxUnused(0), 31U);
    EXPECT_EQ(rec.wakes, 0U);
    EXPECT_TRUE(driver.IsStopped(0));
    cleaned = driver.CleanTx(0, 5, rec);
    EXPECT_EQ(cleaned.packets, 1U);
    EXPECT_EQ(driver.GetTxUnused(0), 33U);
    EXPECT_EQ(rec.wakes, 1U);
    EXPECT_FALSE(driver.IsStopped(0));
    // Each clean made one BQL completion: 5 * 1514 = 7570 and 1514 bytes.
    ASSERT_EQ(rec.completions.size(), 2U);
    EXPECT_EQ(rec.completions[0], 7570U);
    EXPECT_EQ(rec.completions[1], 1514U);
    // The skbs were freed oldest first: slots 0 to 5.
    EXPECT_EQ(rec.reclaimed, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5}));
}

TEST(NicDriverTest, IgbStopsBelowDescNeededAndWakesAtTwiceIt)
{
    NicDriver driver;
    driver.Configure(Igb());
    // igb_maybe_stop_tx(DESC_NEEDED 21): free = 256 - 2n < 21 first at n = 118 (20 free).
    EXPECT_EQ(PostFull(driver, 3, 117), 0U);
    EXPECT_EQ(driver.GetTxRing(3).GetUnused(), 22U);
    EXPECT_EQ(PostFull(driver, 3, 1), 1U);
    EXPECT_EQ(driver.GetTxRing(3).GetUnused(), 20U);
    // The other queues are untouched.
    EXPECT_FALSE(driver.IsStopped(0));
    EXPECT_EQ(driver.GetTxRing(0).GetUnused(), 256U);
    // A stopped queue still takes posts while descriptors are free (a sender that ignores
    // the stop): 10 more packets fill 20 descriptors; the next finds 0 free and fails.
    EXPECT_EQ(PostFull(driver, 3, 10), 0U);
    uint32_t slot = 0;
    EXPECT_FALSE(driver.PostTx(3, FULL_FRAME, slot));
    EXPECT_EQ(driver.GetTxRing(3).GetUnused(), 0U);

    // igb_clean_tx_irq wakes at unused >= TX_WAKE_THRESHOLD 42: 2k >= 42 needs k = 21.
    SendFrames(driver, 21, 0);
    Recorder rec;
    driver.CleanTx(3, 20, rec);
    EXPECT_EQ(driver.GetTxRing(3).GetUnused(), 40U);
    EXPECT_EQ(rec.wakes, 0U);
    driver.CleanTx(3, 20, rec);
    EXPECT_EQ(driver.GetTxRing(3).GetUnused(), 42U);
    EXPECT_EQ(rec.wakes, 1U);
    EXPECT_EQ(rec.lastQueue, 3U);
}

TEST(NicDriverTest, CleanReclaimsAtMostTheWorkLimitWithOneCompletion)
{
    NicDriver::Config config = Igb();
    config.txQueues = 1;
    config.txRingSize = 512;
    NicDriver driver;
    driver.Configure(config);
    // 200 frames of 2 descriptors (400 of 512), all done.
    PostFull(driver, 0, 200);
    SendFrames(driver, 200, 0);
    Recorder rec;
    // The poll's clean stops at IGB_DEFAULT_TX_WORK: min(128, 200) = 128 packets, one
    // completion of 128 * 1514 = 193792 bytes, 72 done left: the poll returns its budget.
    auto poll = driver.Poll(0, rec);
    EXPECT_EQ(poll.tx.packets, 128U);
    EXPECT_EQ(poll.tx.bytes, 193792U);
    EXPECT_TRUE(poll.workLeft);
    ASSERT_EQ(rec.completions.size(), 1U);
    EXPECT_EQ(rec.completions[0], 193792U);
    // The re-poll takes the other min(128, 72) = 72: 72 * 1514 = 109008 bytes, done.
    poll = driver.Poll(0, rec);
    EXPECT_EQ(poll.tx.packets, 72U);
    EXPECT_EQ(poll.tx.bytes, 109008U);
    EXPECT_FALSE(poll.workLeft);
    ASSERT_EQ(rec.completions.size(), 2U);
    EXPECT_EQ(rec.completions[1], 109008U);
    EXPECT_EQ(rec.reclaimed.size(), 200U);
    EXPECT_EQ(driver.GetTxRing(0).GetUsed(), 0U);
    // Nothing done: no reclaim, no completion (netdev_tx_completed_queue is not called).
    poll = driver.Poll(0, rec);
    EXPECT_EQ(poll.tx.packets, 0U);
    EXPECT_EQ(rec.completions.size(), 2U);
    // Exactly 128 done: igb_clean_tx_irq() counts its budget down to 0 and returns !!budget
    // = false, so igb_poll() returns its budget although nothing done is left; the next
    // poll reclaims nothing, its clean returns true, and it completes. 127 done: the first
    // poll completes.
    for (uint32_t done : {128U, 127U})
    {
        PostFull(driver, 0, done);
        SendFrames(driver, done, 0);
        poll = driver.Poll(0, rec);
        EXPECT_EQ(poll.tx.packets, done);
        EXPECT_EQ(driver.GetTxRing(0).GetUsed(), 0U);
        EXPECT_EQ(poll.workLeft, done == 128) << done << " done";
        if (poll.workLeft)
        {
            poll = driver.Poll(0, rec);
            EXPECT_EQ(poll.tx.packets, 0U);
            EXPECT_FALSE(poll.workLeft);
        }
    }
}

TEST(NicDriverTest, CleanTakesOnlyDonePackets)
{
    NicDriver driver;
    driver.Configure(E1000e());
    // Ten posted, five sent and written back, one on the wire: the clean reclaims the five
    // done ones only, min(256, 5) = 5, and leaves the rest in the ring.
    PostFull(driver, 0, 10);
    SendFrames(driver, 5, 0);
    EXPECT_TRUE(driver.StartFrame().started);
    Recorder rec;
    const auto cleaned = driver.CleanTx(0, 256, rec);
    EXPECT_EQ(cleaned.packets, 5U);
    EXPECT_EQ(cleaned.bytes, 5U * FULL_FRAME);
    EXPECT_EQ(driver.GetTxRing(0).GetPackets(), 5U);
    EXPECT_EQ(driver.GetTxRing(0).GetFetched(), 1U);
    EXPECT_EQ(driver.GetTxRing(0).GetPending(), 4U);
}

TEST(NicDriverTest, PollPassesUpAtMostTheNapiWeight)
{
    NicDriver driver;
    driver.Configure(E1000e());
    // 65 frames arrive: each takes one RX descriptor, in slots 0 to 64.
    for (uint32_t i = 0; i < 65; i++)
    {
        uint32_t slot = 0;
        ASSERT_TRUE(driver.PostRx(0, FULL_FRAME, 0, slot));
        EXPECT_EQ(slot, i);
    }
    Recorder rec;
    // e1000e_poll / igb_poll pass up at most the weight 64; with one frame left the poll
    // returns its whole budget and NAPI polls again instead of napi_complete_done().
    auto poll = driver.Poll(0, rec);
    EXPECT_EQ(poll.rx, 64U);
    EXPECT_TRUE(poll.workLeft);
    EXPECT_EQ(rec.delivered.size(), 64U);
    EXPECT_EQ(rec.delivered.front(), 0U);
    EXPECT_EQ(rec.delivered.back(), 63U);
    poll = driver.Poll(0, rec);
    EXPECT_EQ(poll.rx, 1U);
    EXPECT_FALSE(poll.workLeft);
    EXPECT_EQ(rec.delivered.back(), 64U);
    EXPECT_EQ(driver.GetRxRing().GetUsed(), 0U);
    // Exactly the weight: 64 frames fit one poll and none is left, but the poll used its
    // whole budget (e1000e_poll: work_done == budget; igb_poll: cleaned >= budget), so it
    // returns the budget without napi_complete_done() and NAPI polls again; that poll finds
    // 0 < 64 frames and completes.
    for (uint32_t i = 0; i < 64; i++)
    {
        uint32_t slot = 0;
        driver.PostRx(0, FULL_FRAME, 0, slot);
    }
    poll = driver.Poll(0, rec);
    EXPECT_EQ(poll.rx, 64U);
    EXPECT_TRUE(poll.workLeft);
    EXPECT_EQ(driver.GetRxRing().GetUsed(), 0U);
    poll = driver.Poll(0, rec);
    EXPECT_EQ(poll.rx, 0U);
    EXPECT_FALSE(poll.workLeft);
    // 63 frames: below the weight, the first poll completes.
    for (uint32_t i = 0; i < 63; i++)
    {
        uint32_t slot = 0;
        driver.PostRx(0, FULL_FRAME, 0, slot);
    }
    poll = driver.Poll(0, rec);
    EXPECT_EQ(poll.rx, 63U);
    EXPECT_FALSE(poll.workLeft);
}

TEST(NicDriverTest, FullRxRingMissesFrames)
{
    NicDriver::Config config = E1000e();
    config.rxRingSize = 4;
    NicDriver driver;
    driver.Configure(config);
    uint32_t slot = 0;
    // Four descriptors take four frames; the fifth is rx_missed_errors.
    for (uint32_t i = 0; i < 4; i++)
    {
        EXPECT_TRUE(driver.PostRx(0, 100, 0, slot));
    }
    EXPECT_FALSE(driver.PostRx(0, 100, 0, slot));
    // Only vector 0 serves RX: a poll of another vector delivers nothing.
    NicDriver igb;
    igb.Configure(Igb());
    igb.PostRx(0, 100, 0, slot);
    Recorder rec;
    EXPECT_EQ(igb.Poll(1, rec).rx, 0U);
    EXPECT_EQ(igb.Poll(0, rec).rx, 1U);
}

TEST(NicDriverTest, EachRxQueueHasItsRingAndVector)
{
    // igb with 8 combined channels' worth of TX queues and 4 RX queues: vectors 0 to 7, the
    // first four with an RX ring of 4 descriptors each.
    NicDriver::Config config = Igb();
    config.rxQueues = 4;
    config.rxRingSize = 4;
    NicDriver driver;
    driver.Configure(config);
    EXPECT_EQ(driver.GetNRxQueues(), 4U);
    EXPECT_EQ(driver.GetNVectors(), 8U);
    uint32_t slot = 0;
    // Five frames on queue 2: four descriptors, the fifth is missed; queue 3 still has room.
    for (uint32_t i = 0; i < 4; i++)
    {
        EXPECT_TRUE(driver.PostRx(2, 100, 1000, slot));
        EXPECT_EQ(slot, i);
    }
    EXPECT_FALSE(driver.PostRx(2, 100, 1000, slot));
    EXPECT_TRUE(driver.PostRx(3, 100, 1000, slot));
    EXPECT_EQ(slot, 0U);
    // No moderation: each frame raises its own queue's vector at once, no other.
    EXPECT_EQ(driver.GetInterruptDue(2), 1000);
    EXPECT_EQ(driver.GetInterruptDue(3), 1000);
    EXPECT_EQ(driver.GetInterruptDue(0), InterruptModeration::NEVER);
    EXPECT_EQ(driver.Interrupt(2, 1000).rx, 4U);
    // Vector 2's poll passes up queue 2's four frames, oldest first; vector 0's finds none.
    Recorder rec;
    EXPECT_EQ(driver.Poll(0, rec).rx, 0U);
    EXPECT_EQ(driver.Poll(2, rec).rx, 4U);
    EXPECT_EQ(rec.delivered, (std::vector<uint32_t>{0, 1, 2, 3}));
    EXPECT_EQ(rec.rxQueues, (std::vector<uint32_t>{2, 2, 2, 2}));
    EXPECT_EQ(driver.GetRxRing(2).GetUsed(), 0U);
    EXPECT_EQ(driver.GetRxRing(3).GetUsed(), 1U);
    // More RX than TX queues: vector 3 of a one-TX-queue device serves RX only.
    config = E1000e();
    config.rxQueues = 4;
    driver.Configure(config);
    EXPECT_EQ(driver.GetNVectors(), 4U);
    EXPECT_TRUE(driver.PostRx(3, 100, 0, slot));
    Recorder rx;
    const auto poll = driver.Poll(3, rx);
    EXPECT_EQ(poll.rx, 1U);
    EXPECT_EQ(poll.tx.packets, 0U);
    EXPECT_EQ(rx.rxQueues, (std::vector<uint32_t>{3}));
}

TEST(NicDriverTest, HardwareRoundRobinOverQueues)
{
    NicDriver driver;
    driver.Configure(Igb());
    uint32_t slot = 0;
    driver.PostTx(1, 100, slot); // A, queue 1 slot 0
    driver.PostTx(0, 100, slot); // B, queue 0 slot 0
    driver.PostTx(1, 100, slot); // C, queue 1 slot 1
    // The arbiter starts at queue 0: B; then queue 1: A; then from queue 2 around to 1: C.
    auto frame = driver.StartFrame();
    EXPECT_TRUE(frame.started);
    EXPECT_EQ(frame.queue, 0U);
    // One frame on the wire at a time.
    EXPECT_TRUE(driver.IsWireBusy());
    EXPECT_FALSE(driver.StartFrame().started);
    driver.WireIdle();
    frame = driver.StartFrame();
    EXPECT_EQ(frame.queue, 1U);
    EXPECT_EQ(frame.slot, 0U);
    driver.WireIdle();
    frame = driver.StartFrame();
    EXPECT_EQ(frame.queue, 1U);
    EXPECT_EQ(frame.slot, 1U);
    driver.WireIdle();
    EXPECT_FALSE(driver.StartFrame().started);
}

TEST(NicDriverTest, TxInterruptDueUnderUsecsAndFrames)
{
    // ethtool -C tx-frames 4 tx-usecs 100: completions at 0, 10 and 20 us wait for the
    // timer of the first (0 + 100 us); the fourth at 30 us completes the count.
    NicDriver::Config config = E1000e();
    config.txIrq = {4, 0, 100000, 0};
    NicDriver driver;
    driver.Configure(config);
    PostFull(driver, 0, 4);
    EXPECT_EQ(driver.GetInterruptDue(0), InterruptModeration::NEVER);
    SendFrames(driver, 1, 0);
    SendFrames(driver, 1, 10000);
    SendFrames(driver, 1, 20000);
    EXPECT_EQ(driver.GetInterruptDue(0), 100000);
    SendFrames(driver, 1, 30000);
    EXPECT_EQ(driver.GetInterruptDue(0), 30000);
    const auto events = driver.Interrupt(0, 30000);
    EXPECT_EQ(events.tx, 4U);
    EXPECT_EQ(events.rx, 0U);
    // Masked while NAPI runs.
    EXPECT_EQ(driver.GetInterruptDue(0), InterruptModeration::NEVER);
}

TEST(NicDriverTest, ThrottleHoldsTheNextInterrupt)
{
    // e1000e TIDV 8192 ns and TADV 32768 ns at a fixed InterruptThrottleRate of 20000
    // ints/s: at least 1e9 / 20000 = 50000 ns between interrupts.
    NicDriver::Config config = E1000e();
    config.interruptRate = 20000;
    NicDriver driver;
    driver.Configure(config);
    PostFull(driver, 0, 2);
    // First completion at 0: the packet timer ends first, at 0 + 8192.
    SendFrames(driver, 1, 0);
    EXPECT_EQ(driver.GetInterruptDue(0), 8192);
    EXPECT_EQ(driver.Interrupt(0, 8192).tx, 1U);
    Recorder rec;
    driver.Poll(0, rec);
    driver.CompletePoll(0, 9000);
    // Next completion at 10000: the timers say 10000 + 8192 = 18192, the throttle
    // 8192 + 50000 = 58192; the later wins.
    SendFrames(driver, 1, 10000);
    EXPECT_EQ(driver.GetInterruptDue(0), 58192);
}

TEST(NicDriverTest, RxCauseSharesVectorZero)
{
    // No RX moderation (rx-usecs 0, rx-frames 0): a frame asserts vector 0 at once; the
    // interrupt carries it as an RX event.
    NicDriver driver;
    driver.Configure(Igb());
    uint32_t slot = 0;
    driver.PostRx(0, FULL_FRAME, 5000, slot);
    EXPECT_EQ(driver.GetInterruptDue(0), 5000);
    EXPECT_EQ(driver.GetInterruptDue(1), InterruptModeration::NEVER);
    const auto events = driver.Interrupt(0, 5000);
    EXPECT_EQ(events.tx, 0U);
    EXPECT_EQ(events.rx, 1U);
    // A frame arriving while NAPI polls is latched; the interrupt stays masked.
    driver.PostRx(0, FULL_FRAME, 6000, slot);
    EXPECT_EQ(driver.GetInterruptDue(0), InterruptModeration::NEVER);
    Recorder rec;
    EXPECT_EQ(driver.Poll(0, rec).rx, 2U);
    // The poll took that frame too, but its cause stays latched (as an ICR bit does): the
    // re-enable at 7000 asserts at once, and that interrupt finds the ring empty.
    driver.CompletePoll(0, 7000);
    EXPECT_EQ(driver.GetInterruptDue(0), 7000);
    EXPECT_EQ(driver.Interrupt(0, 7000).rx, 1U);
    EXPECT_EQ(driver.Poll(0, rec).rx, 0U);
}

TEST(NicDriverTest, CompletionAtTxStartCleansWithoutInterrupt)
{
    // The ideal profile: reclaimed the moment the frame starts, no interrupt cause, no
    // work limit.
    NicDriver::Config config = E1000e();
    config.completionAtTxStart = true;
    config.txWorkLimit = 1;
    NicDriver driver;
    driver.Configure(config);
    PostFull(driver, 0, 1);
    const auto frame = driver.StartFrame();
    Recorder rec;
    const auto cleaned = driver.CompleteAtTxStart(frame.queue, rec);
    EXPECT_EQ(cleaned.packets, 1U);
    EXPECT_EQ(rec.completions.size(), 1U);
    driver.WireIdle();
    EXPECT_FALSE(driver.TxDone(0, 1000));
    EXPECT_EQ(driver.GetInterruptDue(0), InterruptModeration::NEVER);
}

TEST(NicDriverTest, ValidateNamesTheSetting)
{
    // 1514 bytes at 24 KiB per descriptor with a context descriptor: the worst case is 2.
    EXPECT_EQ(NicDriver::Validate(E1000e(), FULL_FRAME), "");
    EXPECT_EQ(NicDriver::Validate(Igb(), FULL_FRAME), "");
    NicDriver::Config config = E1000e();
    config.txStopThreshold = 1;
    EXPECT_EQ(NicDriver::Validate(config, FULL_FRAME),
              "TxStopThreshold=1 is below the 2 descriptors of a worst-case packet; accepted 2 "
              "to TxWakeThreshold");
    config = E1000e();
    config.txWakeThreshold = 18;
    EXPECT_EQ(NicDriver::Validate(config, FULL_FRAME),
              "TxWakeThreshold=18 is below TxStopThreshold=22; accepted TxStopThreshold to "
              "TxRingSize");
    // The ring must hold 22 + 2 = 24 descriptors and reach the wake threshold 32, plus the
    // gap of 1 that e1000_desc_unused() never counts: 33.
    config = E1000e();
    config.txRingSize = 20;
    EXPECT_EQ(NicDriver::Validate(config, FULL_FRAME),
              "TxRingSize=20 cannot hold a worst-case packet (2 descriptors) above the stop "
              "threshold (22) and reach the wake threshold (32) with TxRingGap=1; accepted 33 "
              "or more");
    config = Igb();
    config.txQueues = 65;
    EXPECT_EQ(NicDriver::Validate(config, FULL_FRAME),
              "TxQueues=65 is out of range; accepted 1 to 64");
    config = Igb();
    config.rxQueues = 0;
    EXPECT_EQ(NicDriver::Validate(config, FULL_FRAME),
              "RxQueues=0 is out of range; accepted 1 to 64");
    config = Igb();
    config.napiWeight = 0;
    EXPECT_EQ(NicDriver::Validate(config, FULL_FRAME),
              "NapiWeight=0 is out of range; accepted 1 or more");
    // --ring=-1 read as an unsigned: 4294967295 descriptors would exhaust memory.
    config = E1000e();
    config.txRingSize = 4294967295U;
    EXPECT_EQ(NicDriver::Validate(config, FULL_FRAME),
              "TxRingSize=4294967295 is out of range; accepted up to 65536");
    config = E1000e();
    config.txRingSize = NicDriver::MAX_RING_SIZE;
    EXPECT_EQ(NicDriver::Validate(config, FULL_FRAME), "");
    config.rxRingSize = NicDriver::MAX_RING_SIZE + 1;
    EXPECT_EQ(NicDriver::Validate(config, FULL_FRAME),
              "RxRingSize=65537 is out of range; accepted 1 to 65536");
}

TEST(NicDriverTest, DynamicItrThrottlesFromItsRate)
{
    // e1000e InterruptThrottleRate 3 starts at 20000 ints/s; e1000e_write_itr() programs
    // 10^9 / (20000 * 256) = 195 units of 256 ns: 49920 ns between interrupts, whatever
    // InterruptRate says. Completion at 0: no interrupt yet, the packet timer rules (8192).
    NicDriver::Config config = E1000e();
    config.itrMode = DynamicItr::Mode::E1000E_CONSERVATIVE;
    config.interruptRate = 100000;
    NicDriver driver;
    driver.Configure(config);
    PostFull(driver, 0, 3);
    SendFrames(driver, 1, 0);
    EXPECT_EQ(driver.GetInterruptDue(0), 8192);
    driver.Interrupt(0, 8192);
    Recorder rec;
    driver.Poll(0, rec);
    // Poll completion at 9000: e1000_update_itr() keeps low_latency for one packet of 1514
    // bytes (bytes <= 10000, 1514 per packet <= 2000), 20000 ints/s again, so
    // the next completion at 10000 asserts at max(10000 + 8192, 8192 + 49920) = 58112.
    driver.CompletePoll(0, 9000);
    SendFrames(driver, 1, 10000);
    EXPECT_EQ(driver.GetInterruptDue(0), 58112);

    // Below 1 Gbit/s e1000_set_itr() fixes 4000 ints/s: 10^9 / (4000 * 256) = 976 units,
    // 249856 ns after the first interrupt: 8192 + 249856 = 258048.
    config.linkBps = 100000000;
    driver.Configure(config);
    PostFull(driver, 0, 2);
    SendFrames(driver, 1, 0);
    driver.Interrupt(0, 8192);
    driver.Poll(0, rec);
    driver.CompletePoll(0, 9000);
    SendFrames(driver, 1, 10000);
    EXPECT_EQ(driver.GetInterruptDue(0), 258048);
}

TEST(NicDriverTest, IgbThrottleDependsOnTheVectorCount)
{
    // igb, dynamic conservative ITR, no coalescing timers: a TX completion asserts at once,
    // held only by EITR. 40 full frames done at t = 0: the interrupt at 0 writes
    // IGB_START_ITR 648 (162 us); the poll reclaims the 40 (below IGB_DEFAULT_TX_WORK 128)
    // and completes at 1000. The next completion, at 2000, asserts at 0 + 162 us, when the
    // interrupt writes the value the poll chose; a completion at 163000 then waits for
    // 162000 + the new interval.
    // - One TX queue, one q_vector: igb_set_itr(). TX stays lowest_latency (40 packets of
    //   1514 bytes), low_latency in the conservative mode: IGB_20K_ITR 196, 49 us: 211000.
    // - Eight queues, one vector each: igb_update_ring_itr(): (1514 + 24) / 2 = 769, written
    //   as 768: 192 us: 354000.
    for (uint32_t queues : {1U, 8U})
    {
        NicDriver::Config config = Igb();
        config.txQueues = queues;
        config.itrMode = DynamicItr::Mode::IGB_CONSERVATIVE;
        NicDriver driver;
        driver.Configure(config);
        PostFull(driver, 0, 42);
        SendFrames(driver, 40, 0);
        EXPECT_EQ(driver.GetInterruptDue(0), 0);
        driver.Interrupt(0, 0);
        Recorder rec;
        EXPECT_EQ(driver.Poll(0, rec).tx.packets, 40U);
        driver.CompletePoll(0, 1000);
        SendFrames(driver, 1, 2000);
        EXPECT_EQ(driver.GetInterruptDue(0), 162000) << queues << " queues";
        driver.Interrupt(0, 162000);
        driver.Poll(0, rec);
        driver.CompletePoll(0, 162500);
        SendFrames(driver, 1, 163000);
        EXPECT_EQ(driver.GetInterruptDue(0), queues == 1 ? 211000 : 354000) << queues << " queues";
    }
}

} // namespace

namespace
{

/// A super-packet of 10 segments of 1448 bytes behind 66 bytes of Ethernet, IP and TCP
/// headers: skb->len 66 + 14480 = 14546, hdr_len 66.
const NicDriver::TxPacket TSO_PACKET{14546, 10, 66, 1448};

TEST(NicDriverTest, TsoDescriptorsAsEachDriverCountsThem)
{
    // Hardware TSO (e1000_tso, igb_tso): a context descriptor and the data by the data
    // limit: 1 + ceil(14546 / 24576) = 2 (e1000e), 1 + ceil(14546 / 32768) = 2 (igb).
    NicDriver::Config e1000e = E1000e();
    e1000e.tso = NicDriver::Tso::HARDWARE;
    EXPECT_EQ(NicDriver::CountTxDescriptors(e1000e, TSO_PACKET), 2U);
    // Driver TSO (mvneta_tx_tso): per frame a header and a data descriptor: 10 x 2 = 20;
    // with 512-byte data descriptors 1 + ceil(1448 / 512) = 4 per frame: 40.
    NicDriver::Config mvneta;
    mvneta.tso = NicDriver::Tso::DRIVER;
    mvneta.txMaxDataPerDescriptor = 65535;
    EXPECT_EQ(NicDriver::CountTxDescriptors(mvneta, TSO_PACKET), 20U);
    mvneta.txMaxDataPerDescriptor = 512;
    EXPECT_EQ(NicDriver::CountTxDescriptors(mvneta, TSO_PACKET), 40U);
    // A last frame shorter than gso_size: 9 x 1448 + 100 bytes of payload, the last frame's
    // 100 bytes still take a header and a data descriptor: 20 with 65535-byte descriptors.
    mvneta.txMaxDataPerDescriptor = 65535;
    EXPECT_EQ(NicDriver::CountTxDescriptors(mvneta, {66 + 9 * 1448 + 100, 10, 66, 1448}), 20U);
}

TEST(NicDriverTest, TsoBqlBytesAreSkbLenOrEveryFramesHeaders)
{
    NicDriver::Config config = Igb();
    config.tso = NicDriver::Tso::HARDWARE;
    // e1000e and mvneta: netdev_sent_queue(skb->len) = 14546.
    EXPECT_EQ(NicDriver::GetTxBytes(config, TSO_PACKET), 14546U);
    // igb_tso: bytecount = skb->len + (gso_segs - 1) x hdr_len = 14546 + 9 x 66 = 15140.
    config.tsoBytesPerFrame = true;
    EXPECT_EQ(NicDriver::GetTxBytes(config, TSO_PACKET), 15140U);
    // An ordinary frame is its length either way.
    EXPECT_EQ(NicDriver::GetTxBytes(config, {FULL_FRAME, 1, 0, 0}), FULL_FRAME);
}

TEST(NicDriverTest, TsoWorstCaseSetsTheStopReserve)
{
    // igb, gso_max_size 65536 + 14: 1 + ceil(65550 / 32768) = 4 descriptors, under its 21.
    NicDriver::Config igb = Igb();
    igb.tso = NicDriver::Tso::HARDWARE;
    EXPECT_EQ(NicDriver::WorstCaseDescriptors(igb, FULL_FRAME, 65550, 65535), 4U);
    EXPECT_EQ(NicDriver::Validate(igb, FULL_FRAME, 65550, 65535), "");
    // mvneta, MVNETA_MAX_TSO_SEGS 100: 100 x (1 + ceil(1514 / 65535)) = 200 descriptors,
    // under its stop reserve 218 (MVNETA_MAX_SKB_DESCS 217 + 1); gso_max_segs 65535 would
    // need min(65535, 65550) x 2 and is refused, naming TxStopThreshold.
    NicDriver::Config mvneta;
    mvneta.txQueues = 8;
    mvneta.txRingSize = 1024;
    mvneta.txMaxDataPerDescriptor = 65535;
    mvneta.txStopThreshold = 218;
    mvneta.txWakeThreshold = 621;
    mvneta.tso = NicDriver::Tso::DRIVER;
    EXPECT_EQ(NicDriver::WorstCaseDescriptors(mvneta, FULL_FRAME, 65550, 100), 200U);
    EXPECT_EQ(NicDriver::Validate(mvneta, FULL_FRAME, 65550, 100), "");
    EXPECT_NE(NicDriver::Validate(mvneta, FULL_FRAME, 65550, 65535).find("TxStopThreshold=218"),
              std::string::npos);
}

TEST(NicDriverTest, TsoPostTakesOneSlot)
{
    // A TSO packet is one skb: one slot, its descriptors and bytes, reclaimed as one.
    NicDriver::Config config = Igb();
    config.tso = NicDriver::Tso::HARDWARE;
    config.tsoBytesPerFrame = true;
    NicDriver driver;
    driver.Configure(config);
    uint32_t slot = 99;
    ASSERT_TRUE(driver.PostTx(0, TSO_PACKET, slot));
    EXPECT_EQ(slot, 0U);
    EXPECT_EQ(driver.GetTxRing(0).GetPackets(), 1U);
    EXPECT_EQ(driver.GetTxRing(0).GetUsed(), 2U);
    EXPECT_EQ(driver.GetTxRing(0).GetBytes(), 15140U);
}

} // namespace

TEST(NicDriverTest, HalfStopWakeThreshold)
{
    // mvneta_txq_sw_init(): tx_stop_threshold = size - MVNETA_MAX_SKB_DESCS (217) used,
    // tx_wake_threshold = tx_stop_threshold / 2 used. With TxStopThreshold 218 (stop below
    // 218 free): ring 1024 stops at 807 used and wakes at 403 used, 621 free; the seed's
    // 2015 ring of 532 stops at 315 and wakes at 157 used, 375 free.
    EXPECT_EQ(NicDriver::HalfStopWakeThreshold(1024, 0, 218), 621U);
    EXPECT_EQ(NicDriver::HalfStopWakeThreshold(532, 0, 218), 375U);
    // With a ring gap of 1 the usable ring is 255: stop at 255 - 21 = 234 used, wake at 117
    // used, 138 free.
    EXPECT_EQ(NicDriver::HalfStopWakeThreshold(256, 1, 22), 138U);
}
