/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for CakeScheduler, the plain-C++ core of net/sched/sch_cake.c. Items are
 * plain integers; times are ns. Expected values are derived in comments from the kernel's
 * arithmetic:
 *   shaper:   rate_ns = (1e9 << 34) / rate, halved with shift-- until < 2^34;
 *             time for L bytes = (L * rate_ns) >> shift; each dequeue advances the global
 *             time_next_packet by that time, and dequeue waits while it is in the future.
 *   DRR++:    a new flow gets, and a refill adds, cake_get_flow_quantum() =
 *             (flow_quantum * quantum_div[host_load] + rand16) >> 16 of deficit (rand16
 *             uniform: the rounding is up with the fraction's probability), with
 *             quantum_div[n] = 65535 / n and host_load the host's bulk flow count; rand16
 *             is the low 16 bits of the next Prandom draw (the scheduler's seed).
 *   hashing:  queue = hash % 1024 within the 8-way set (hash % 1024) & ~7.
 *   memory:   buffer_limit = memlimit; overflow drops the head of the flow with the most
 *             backlog bytes until buffer_used <= buffer_limit.
 */

#include "ns3/cake-scheduler.h"
#include "ns3/prandom.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <ostream>
#include <vector>

namespace
{

using ns3::debloat::CakeAckFilterMode;
using ns3::debloat::CakeClassification;
using ns3::debloat::CakeConfig;
using ns3::debloat::CakeDiffservMode;
using ns3::debloat::CakeDropReason;
using ns3::debloat::CakeFlowMode;
using ns3::debloat::CakeFlowSet;
using ns3::debloat::CakeObserver;
using ns3::debloat::CakePacketSize;
using ns3::debloat::CakeScheduler;
using ns3::debloat::Prandom;

/// A packet of the tests: an id, used as its handle.
using Item = CakeScheduler::Handle;

/// A scheduler with recorded drops and a fixed random source.
struct Fixture
{
    /// @param config the settings
    explicit Fixture(const CakeConfig& config)
        : scheduler(
              config,
              1514,
              1,
              [](Item) { return false; },
              [this](Item item, uint32_t len, CakeDropReason reason) {
                  drops.push_back({item, reason});
                  droppedBytes += len;
              })
    {
    }

    /**
     * Enqueues one packet.
     * @param now time, ns
     * @param id item id
     * @param len qdisc length
     * @param flowHash flow hash
     * @param src source host hash
     * @param tin tin
     */
    void Add(int64_t now,
             Item id,
             uint32_t len,
             uint32_t flowHash,
             uint32_t src = 0,
             uint32_t tin = 0)
    {
        CakeClassification where;
        where.tin = tin;
        where.flowHash = flowHash;
        where.srcHostHash = src;
        where.dstHostHash = 77;
        CakePacketSize size;
        size.len = len;
        size.networkOffset = 14;
        size.truesize = len;
        scheduler.Enqueue(now, where, id, size);
    }

    CakeScheduler scheduler;                            ///< under test
    std::vector<std::pair<Item, CakeDropReason>> drops; ///< dropped items
    uint64_t droppedBytes{0};                           ///< their lengths
};

/// @return diffserv-less, flows-only settings at a rate
CakeConfig
Besteffort(uint64_t rate, CakeFlowMode mode = CakeFlowMode::FLOWS)
{
    CakeConfig config;
    config.rate = rate;
    config.diffserv = CakeDiffservMode::BESTEFFORT;
    config.flowMode = mode;
    return config;
}

TEST(CakeScheduler, ShaperSpacesPacketsAtTheRate)
{
    // 1 Mbit/s = 125000 B/s: rate_ns = (1e9 << 34) / 125000 = 8000 << 34, shifted 13 times
    // to 8000 << 21 (8000 < 2^13), shift 21; 1000 bytes take 1000 * 8000 = 8 ms exactly.
    Fixture f(Besteffort(125000));
    for (Item i = 0; i < 3; ++i)
    {
        f.Add(0, i, 1000, 42);
    }
    auto first = f.scheduler.Dequeue(0);
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(*first, 0U);
    // The global time_next_packet is now 8 ms: the next dequeue waits for it.
    EXPECT_FALSE(f.scheduler.Dequeue(0).has_value());
    EXPECT_EQ(f.scheduler.TakeWatchdog(), std::optional<int64_t>(8000000));
    EXPECT_EQ(f.scheduler.GetOverlimits(), 1U);
    EXPECT_FALSE(f.scheduler.Dequeue(7999999).has_value());
    EXPECT_EQ(f.scheduler.Dequeue(8000000), std::optional<Item>(1));
    EXPECT_EQ(f.scheduler.Dequeue(16000000), std::optional<Item>(2));
}

TEST(CakeScheduler, ShaperCountsOverheadAndMpu)
{
    // `ethernet` (overhead 38, mpu 84, MAC header stripped): a 60-byte skb (46 bytes of IP)
    // counts max(46 + 38, 84) = 84 bytes; at 125000 B/s that is 84 * 8000 ns = 672 us. A
    // 1514-byte skb counts 1500 + 38 = 1538 bytes, 12.304 ms.
    CakeConfig config = Besteffort(125000);
    ASSERT_TRUE(ns3::debloat::ApplyKeyword(config.linkLayer, "ethernet"));
    Fixture f(config);
    f.Add(0, 1, 60, 1);
    f.Add(0, 2, 1514, 1);
    f.Add(0, 3, 60, 1);
    EXPECT_EQ(f.scheduler.Dequeue(0), std::optional<Item>(1));
    EXPECT_FALSE(f.scheduler.Dequeue(671999).has_value());
    EXPECT_EQ(f.scheduler.Dequeue(672000), std::optional<Item>(2));
    EXPECT_FALSE(f.scheduler.Dequeue(672000 + 12304000 - 1).has_value());
    EXPECT_EQ(f.scheduler.Dequeue(672000 + 12304000), std::optional<Item>(3));
    EXPECT_EQ(f.scheduler.GetMinNetLen(), 46U);
    EXPECT_EQ(f.scheduler.GetMaxNetLen(), 1500U);
    EXPECT_EQ(f.scheduler.GetMinAdjLen(), 84U);
    EXPECT_EQ(f.scheduler.GetMaxAdjLen(), 1538U);
}

TEST(CakeScheduler, AtmCellsSetTheSpacing)
{
    // pppoa-vcmux: overhead 10, atm. A 1514-byte skb counts 1500 + 10 = 1510 bytes, which
    // fill ceil(1510 / 48) = 32 cells of 53 bytes = 1696 bytes: 13.568 ms at 125000 B/s.
    CakeConfig config = Besteffort(125000);
    ASSERT_TRUE(ns3::debloat::ApplyKeyword(config.linkLayer, "pppoa-vcmux"));
    Fixture f(config);
    f.Add(0, 1, 1514, 1);
    f.Add(0, 2, 1514, 1);
    EXPECT_EQ(f.scheduler.Dequeue(0), std::optional<Item>(1));
    EXPECT_FALSE(f.scheduler.Dequeue(13567999).has_value());
    EXPECT_EQ(f.scheduler.Dequeue(13568000), std::optional<Item>(2));
}

TEST(CakeScheduler, SparseFlowGoesFirst)
{
    // Unlimited: a bulk flow with 10 packets is being served; a new flow's first packet
    // joins new_flows, which dequeue serves before old_flows.
    Fixture f(Besteffort(0));
    for (Item i = 0; i < 10; ++i)
    {
        f.Add(0, i, 1514, 1);
    }
    EXPECT_EQ(f.scheduler.Dequeue(0), std::optional<Item>(0));
    // Flow 1 has used its 1514-byte quantum: the next dequeue moves it to old_flows.
    f.Add(0, 100, 100, 2);
    EXPECT_EQ(f.scheduler.Dequeue(0), std::optional<Item>(100));
    EXPECT_EQ(f.scheduler.Dequeue(0), std::optional<Item>(1));
}

TEST(CakeScheduler, ByteFairnessBetweenFlows)
{
    // Two bulk flows, 1514-byte and 514-byte packets, unlimited, flows mode: DRR++ with a
    // 1514-byte quantum gives each the same bytes per round, so after many rounds the byte
    // counts differ by less than one quantum plus one packet.
    Fixture f(Besteffort(0));
    Item id = 0;
    for (int i = 0; i < 400; ++i)
    {
        f.Add(0, id++, 1514, 1);
    }
    for (int i = 0; i < 1200; ++i)
    {
        f.Add(0, 100000 + id++, 514, 2);
    }
    uint64_t big = 0;
    uint64_t small = 0;
    for (int i = 0; i < 600; ++i)
    {
        auto item = f.scheduler.Dequeue(0);
        ASSERT_TRUE(item.has_value());
        (*item >= 100000 ? small : big) += (*item >= 100000 ? 514 : 1514);
    }
    EXPECT_LT(std::abs(static_cast<int64_t>(big) - static_cast<int64_t>(small)), 1514 + 1514);
}

TEST(CakeScheduler, DualSrcHostFairness)
{
    // dual-srchost, unlimited: host A has 1 bulk flow, host B 8. Each of B's flows gets
    // (1514 * (65535 / 8) + 0x8000) >> 16 = 189 bytes per refill, A's flow 1514, so each
    // host gets about 1514 bytes per round: equal shares (the 8-flow host does not get 8/9).
    // Both hosts hold more than the 1000 packets dequeued (A 1000, B 8 x 200).
    Fixture f(Besteffort(0, CakeFlowMode::DUAL_SRC));
    Item id = 0;
    for (int i = 0; i < 1000; ++i)
    {
        f.Add(0, id++, 1514, 1000, 0xA);
        for (uint32_t flow = 0; flow < 8 && i < 200; ++flow)
        {
            f.Add(0, 100000 + id++, 1514, 2000 + flow * 8 + 1, 0xB);
        }
    }
    std::map<bool, uint64_t> bytes;
    for (int i = 0; i < 1000; ++i)
    {
        auto item = f.scheduler.Dequeue(0);
        ASSERT_TRUE(item.has_value());
        bytes[*item >= 100000] += 1514;
    }
    // After the first round every flow is bulk; the shares then match to within a few
    // packets over 1000 (1514-byte rounding of each 189-byte deficit).
    const double ratio = static_cast<double>(bytes[true]) / bytes[false];
    EXPECT_NEAR(ratio, 1.0, 0.05);
}

TEST(CakeScheduler, FlowsModeIgnoresHosts)
{
    // The same traffic in flows mode: nine equal flows, host B gets 8/9.
    Fixture f(Besteffort(0, CakeFlowMode::FLOWS));
    Item id = 0;
    for (int i = 0; i < 300; ++i)
    {
        f.Add(0, id++, 1514, 1000, 0xA);
        for (uint32_t flow = 0; flow < 8; ++flow)
        {
            f.Add(0, 100000 + id++, 1514, 2000 + flow * 8 + 1, 0xB);
        }
    }
    uint64_t hostB = 0;
    for (int i = 0; i < 900; ++i)
    {
        auto item = f.scheduler.Dequeue(0);
        ASSERT_TRUE(item.has_value());
        hostB += *item >= 100000 ? 1 : 0;
    }
    EXPECT_NEAR(static_cast<double>(hostB) / 900, 8.0 / 9, 0.01);
}

TEST(CakeScheduler, SetAssociativeHashing)
{
    // Hashes 5, 1029 and 2053 all reduce to queue 5 (mod 1024): the first takes queue 5
    // (way_miss: 5 is idle), the second finds 5 busy and takes the next idle way of set
    // 0..7, queue 6 (way_miss), the third queue 7. A repeat of 1029 finds its tag at queue 6,
    // one way on from where it looked (way_inds).
    Fixture f(Besteffort(0));
    f.Add(0, 1, 100, 5);
    f.Add(0, 2, 100, 1029);
    f.Add(0, 3, 100, 2053);
    f.Add(0, 4, 100, 1029);
    const auto stats = f.scheduler.GetTinStats(0);
    EXPECT_EQ(stats.wayMisses, 3U);
    EXPECT_EQ(stats.wayHits, 1U);
    EXPECT_EQ(stats.wayCollisions, 0U);
    EXPECT_EQ(f.scheduler.GetFlowStats(0, 5).qlen, 1U);
    EXPECT_EQ(f.scheduler.GetFlowStats(0, 6).qlen, 2U);
    EXPECT_EQ(f.scheduler.GetFlowStats(0, 7).qlen, 1U);
}

TEST(CakeScheduler, NinthFlowInASetCollides)
{
    // Nine flows whose hashes all fall into set 0..7: eight get their own queues, the ninth
    // (hash 8 * 1024 + 3, reduced 3) shares queue 3: a collision.
    Fixture f(Besteffort(0));
    for (uint32_t i = 0; i < 8; ++i)
    {
        f.Add(0, i, 100, i * 1024 + i);
    }
    f.Add(0, 8, 100, 8 * 1024 + 3);
    EXPECT_EQ(f.scheduler.GetTinStats(0).wayCollisions, 1U);
    EXPECT_EQ(f.scheduler.GetFlowStats(0, 3).qlen, 2U);
}

TEST(CakeScheduler, MemlimitDropsFromTheFattestFlow)
{
    // memlimit 10000 bytes of truesize (here truesize = len). Flow 1 holds 6 x 1000, flow 2
    // 3 x 1000: 9000. A 1500-byte packet of flow 2 makes 10500 > 10000: one drop from the
    // head of flow 1 (6000 bytes, the fattest), leaving 9500.
    CakeConfig config = Besteffort(0);
    config.memlimit = 10000;
    Fixture f(config);
    for (Item i = 0; i < 6; ++i)
    {
        f.Add(0, i, 1000, 1);
    }
    for (Item i = 10; i < 13; ++i)
    {
        f.Add(0, i, 1000, 2);
    }
    EXPECT_TRUE(f.drops.empty());
    f.Add(0, 13, 1500, 2);
    ASSERT_EQ(f.drops.size(), 1U);
    EXPECT_EQ(f.drops[0].first, 0U);
    EXPECT_EQ(f.drops[0].second, CakeDropReason::OVERLIMIT);
    EXPECT_EQ(f.scheduler.GetBufferUsed(), 9500U);
    EXPECT_EQ(f.scheduler.GetBufferMaxUsed(), 10500U);
    EXPECT_EQ(f.scheduler.GetTinStats(0).dropOverlimit, 1U);
    // BLUE on the victim: p_drop rose by p_inc = 2^24 (blue_timer was 0, now - 0 > target
    // is false at now = 0, so in fact it does not rise; dropping starts with count 1).
    const auto flow = f.scheduler.GetFlowStats(0, 1);
    EXPECT_TRUE(flow.cvars.dropping);
    EXPECT_EQ(flow.cvars.count, 1U);
    EXPECT_EQ(flow.dropped, 1U);
}

TEST(CakeScheduler, BufferLimitFromTheRate)
{
    // cake_reconfigure(): 100 Mbit/s (12500000 B/s) and rtt 100 ms: 12500000 * 100000 us /
    // 250000 = 5000000 bytes (above 4 MiB, below 10240 * 1514 = 15503360).
    Fixture f(Besteffort(12500000));
    EXPECT_EQ(f.scheduler.GetBufferLimit(), 5000000U);
    // Unlimited: 10240 * 1514.
    Fixture g(Besteffort(0));
    EXPECT_EQ(g.scheduler.GetBufferLimit(), 15503360U);
    // 10 Mbit/s: 500000 bytes, raised to 4 MiB.
    Fixture h(Besteffort(1250000));
    EXPECT_EQ(h.scheduler.GetBufferLimit(), 4194304U);
}

TEST(CakeScheduler, IngressChargesDropsAndTheFailsafeBoundsThem)
{
    // 125000 B/s: 1000 bytes take 8 ms. memlimit 2500 (truesize = len here): the third
    // 1000-byte packet makes 3000 > 2500 and the head (packet 0) is dropped at t = 0.
    // ingress: cake_drop() charges the shaper for it: time_next_packet = 8 ms, but the
    // failsafe only advances for packets sent, so it stays at 0 and dequeue is not held
    // (both must be in the future). Packet 1 leaves at 0: time_next = 16 ms, failsafe =
    // 0 + 1.5 x 8 = 12 ms; packet 2 waits for min(16, 12) = 12 ms.
    CakeConfig config = Besteffort(125000);
    config.memlimit = 2500;
    config.ingress = true;
    Fixture f(config);
    for (Item i = 0; i < 3; ++i)
    {
        f.Add(0, i, 1000, 1);
    }
    ASSERT_EQ(f.drops.size(), 1U);
    EXPECT_EQ(f.drops[0].first, 0U);
    EXPECT_EQ(f.scheduler.Dequeue(0), std::optional<Item>(1));
    EXPECT_FALSE(f.scheduler.Dequeue(11999999).has_value());
    EXPECT_EQ(f.scheduler.Dequeue(12000000), std::optional<Item>(2));

    // Egress: the drop costs nothing; packet 2 leaves 8 ms after packet 1.
    config.ingress = false;
    Fixture g(config);
    for (Item i = 0; i < 3; ++i)
    {
        g.Add(0, i, 1000, 1);
    }
    EXPECT_EQ(g.scheduler.Dequeue(0), std::optional<Item>(1));
    EXPECT_FALSE(g.scheduler.Dequeue(7999999).has_value());
    EXPECT_EQ(g.scheduler.Dequeue(8000000), std::optional<Item>(2));
}

TEST(CakeScheduler, AutorateIngressFollowsTheArrivalRate)
{
    // autorate-ingress: bursts of 10 packets of 1000 bytes, 100 us apart, every 10 ms:
    // 1000000 B/s on average. avg_packet_interval (starting at 0) first rises with every
    // 100 us interval, and each of those ends a short window with a high rate estimate; once
    // it has followed the 9.1 ms gaps up (shift 2, against shift 8 down for the 100 us
    // spacing) it settles near 8.2 ms: avg = 0.75 avg (255/256)^9 + 9.1 / 4 ms. Then only a
    // burst's first packet ends a window. Each such window runs from one burst's first
    // packet to the next's, exactly 10 ms, and holds 10 packets (the trigger's bytes are
    // counted before the window closes): 10000 bytes / 10 ms = 1000000 B/s exactly.
    // avg_peak_bandwidth, pushed above that by the early windows, comes down by 1/256 per
    // window (shift 8): avg' = avg - floor(avg / 256) + floor(1000000 / 256), which stops at
    // the first value whose floor(avg / 256) is 3906 from above: 3906 x 256 + 255 = 1000191.
    // 3000 windows take the excess down by (255/256)^3000, to nothing. Past 250 ms every
    // window end sets the rate to avg_peak_bandwidth x 15 / 16 = 937679.
    CakeConfig config = Besteffort(125000);
    config.autorateIngress = true;
    Fixture f(config);
    Item id = 0;
    for (int64_t burst = 0; burst < 3000; ++burst)
    {
        for (int64_t k = 0; k < 10; ++k)
        {
            f.Add(burst * 10000000 + k * 100000, id++, 1000, 1);
        }
    }
    EXPECT_EQ(f.scheduler.GetCapacityEstimate(), 1000191U);
    EXPECT_EQ(f.scheduler.GetLayout().tins[0].rate, 937679U);
}

TEST(CakeScheduler, EveryPacketAccountedFor)
{
    // A mixed load with a small memlimit: every enqueued item is either dequeued or dropped
    // exactly once.
    CakeConfig config = Besteffort(1250000, CakeFlowMode::TRIPLE);
    config.memlimit = 20000;
    Fixture f(config);
    std::map<Item, int> seen;
    int64_t now = 0;
    Item id = 0;
    for (int step = 0; step < 5000; ++step)
    {
        f.Add(now, id, 200 + (id * 37) % 1300, id % 13, id % 3, 0);
        ++id;
        if (step % 2)
        {
            while (auto item = f.scheduler.Dequeue(now))
            {
                seen[*item]++;
            }
        }
        now += 500000;
    }
    for (now += 1000000000; auto item = f.scheduler.Dequeue(now); now += 100000000)
    {
        seen[*item]++;
    }
    for (const auto& [item, reason] : f.drops)
    {
        seen[item]++;
    }
    EXPECT_EQ(f.scheduler.GetQlen(), 0U);
    ASSERT_EQ(seen.size(), id);
    for (const auto& [item, count] : seen)
    {
        EXPECT_EQ(count, 1) << "item " << item;
    }
}

/// One observer event: kind ('D' drop, 'M' mark, 'S' dropping state), tin, queue, and
/// handle (D, M) or dropping flag (S), reason (D) or count (S).
struct Event
{
    char kind;      ///< event kind
    uint32_t tin;   ///< tin
    uint32_t queue; ///< flow queue
    uint32_t value; ///< handle, or dropping flag
    uint32_t extra; ///< reason, or count

    /// @param other another event @return equal
    bool operator==(const Event& other) const
    {
        return kind == other.kind && tin == other.tin && queue == other.queue &&
               value == other.value && extra == other.extra;
    }
};

/// @param os a stream @param e an event @return os
std::ostream&
operator<<(std::ostream& os, const Event& e)
{
    return os << e.kind << " tin " << e.tin << " queue " << e.queue << " " << e.value << " "
              << e.extra;
}

/// @param events where to record @return an observer recording every event
CakeObserver
Recorder(std::vector<Event>& events)
{
    CakeObserver observer;
    observer.drop = [&events](uint32_t tin, uint32_t queue, Item item, CakeDropReason reason) {
        events.push_back({'D', tin, queue, item, static_cast<uint32_t>(reason)});
    };
    observer.mark = [&events](uint32_t tin, uint32_t queue, Item item) {
        events.push_back({'M', tin, queue, item, 0});
    };
    observer.dropState = [&events](uint32_t tin, uint32_t queue, bool dropping, uint32_t count) {
        events.push_back({'S', tin, queue, dropping ? 1U : 0U, count});
    };
    return observer;
}

TEST(CakeScheduler, BulkCountsFollowFlowsOntoTheOldList)
{
    // dual-srchost, unlimited (flow_quantum 1514): flows A (hash 1: ids 0..2) and B (hash 2:
    // ids 10..12) of one source host, 1514-byte packets, all at t = 0. A new flow's deficit
    // is (1514 * 65535 + rand16) >> 16 = 1513 or 1514 (1514 * 65535 = 1514 * 65536 - 1514).
    // Dequeue 1: A (new list) sends 0, deficit -1 or 0; no bulk flows yet.
    // Dequeue 2: A is out of deficit with packets: sparse -> bulk, host count 1, A to the old
    //            list; B (new list) sends 10, deficit -1 or 0.
    // Dequeue 3: B goes bulk: host count 2; A (refilled to 1512 .. 1514) sends 1.
    // dual-srchost keeps no destination counts: those stay 0.
    Fixture f(Besteffort(0, CakeFlowMode::DUAL_SRC));
    for (Item i = 0; i < 3; ++i)
    {
        f.Add(0, i, 1514, 1, 0xA);
    }
    for (Item i = 10; i < 13; ++i)
    {
        f.Add(0, i, 1514, 2, 0xA);
    }
    const uint32_t host = f.scheduler.GetFlowStats(0, 1).srchost;
    EXPECT_EQ(f.scheduler.GetFlowStats(0, 2).srchost, host);
    const uint32_t dst = f.scheduler.GetFlowStats(0, 1).dsthost;
    EXPECT_EQ(f.scheduler.Dequeue(0), std::optional<Item>(0));
    EXPECT_EQ(f.scheduler.GetHostBulkCounts(0, host).first, 0U);
    EXPECT_EQ(f.scheduler.Dequeue(0), std::optional<Item>(10));
    EXPECT_EQ(f.scheduler.GetHostBulkCounts(0, host).first, 1U);
    EXPECT_EQ(f.scheduler.Dequeue(0), std::optional<Item>(1));
    EXPECT_EQ(f.scheduler.GetHostBulkCounts(0, host).first, 2U);
    EXPECT_EQ(f.scheduler.GetHostBulkCounts(0, dst).second, 0U);
    EXPECT_EQ(f.scheduler.GetTinStats(0).bulkFlows, 2U);
}

TEST(CakeScheduler, NewFlowDeficitIsDithered)
{
    // cake_enqueue() gives a flow that becomes active cake_get_flow_quantum(), dithered as
    // the refills are (current kernels; older ones gave flow_quantum * quantum_div >> 16).
    // Flows mode, unlimited: flow_quantum 1514, host_load 1, quantum_div[1] = 65535, and
    // 1514 * 65535 = 99219990 = 1514 * 65536 - 1514, so each new flow's deficit is
    // (99219990 + r) >> 16 = 1513 + (r >= 1514), with r the low 16 bits of the scheduler's
    // next draw. The fixture seeds its Prandom with 1 and nothing else draws here (BLUE only
    // draws while its p_drop is non-zero), so a Prandom seeded with 1 replays the dithers:
    // 16 new flows (hashes 16 + 8k: queues 16 + 8k, one per set) take r_0 .. r_15 in order.
    Fixture f(Besteffort(0));
    Prandom dithers;
    dithers.Seed(1);
    uint32_t roundedUp = 0;
    for (uint32_t k = 0; k < 16; ++k)
    {
        f.Add(0, k, 1514, 16 + 8 * k);
        const uint32_t r = dithers.Next() & 0xFFFF;
        const int32_t expected = (99219990 + r) >> 16;
        EXPECT_EQ(f.scheduler.GetFlowStats(0, 16 + 8 * k).deficit, expected) << "flow " << k;
        roundedUp += expected == 1514;
    }
    // The draws are uniform: P(r >= 1514) = 64022 / 65536, so (almost) every flow rounds up;
    // without the dither all 16 deficits would be 1513.
    EXPECT_GT(roundedUp, 0U);
}

TEST(CakeScheduler, RefillDrawsAfterTheNewFlowsDither)
{
    // One flow of three 1514-byte packets, unlimited, flows mode: the enqueue of the first
    // packet makes it new with d0 = (99219990 + r_0) >> 16 (the later two find it active and
    // draw nothing). Dequeue 1 sends a packet: deficit d0 - 1514 (-1 or 0). Dequeue 2 finds it
    // out of deficit, refills d1 = (99219990 + r_1) >> 16 and sends: d0 + d1 - 3028.
    Fixture f(Besteffort(0));
    Prandom dithers;
    dithers.Seed(1);
    const int32_t d0 = (99219990 + (dithers.Next() & 0xFFFF)) >> 16;
    const int32_t d1 = (99219990 + (dithers.Next() & 0xFFFF)) >> 16;
    for (Item i = 0; i < 3; ++i)
    {
        f.Add(0, i, 1514, 40);
    }
    EXPECT_EQ(f.scheduler.GetFlowStats(0, 40).deficit, d0);
    EXPECT_EQ(f.scheduler.Dequeue(0), std::optional<Item>(0));
    EXPECT_EQ(f.scheduler.GetFlowStats(0, 40).deficit, d0 - 1514);
    EXPECT_EQ(f.scheduler.Dequeue(0), std::optional<Item>(1));
    EXPECT_EQ(f.scheduler.GetFlowStats(0, 40).deficit, d0 + d1 - 3028);
}

TEST(CakeScheduler, ObserverSeesOverflowDrop)
{
    // The MemlimitDropsFromTheFattestFlow scenario: the overflow drop of packet 0 from queue 1
    // of tin 0. cake_drop() first runs cobalt_queue_full() on the victim, which enters the
    // dropping state with count 1 (the S event), then drops (the D event, reason OVERLIMIT).
    CakeConfig config = Besteffort(0);
    config.memlimit = 10000;
    Fixture f(config);
    std::vector<Event> events;
    f.scheduler.SetObserver(Recorder(events));
    for (Item i = 0; i < 6; ++i)
    {
        f.Add(0, i, 1000, 1);
    }
    for (Item i = 10; i < 14; ++i)
    {
        f.Add(0, i, i == 13 ? 1500 : 1000, 2);
    }
    const std::vector<Event> expected = {
        {'S', 0, 1, 1, 1},
        {'D', 0, 1, 0, static_cast<uint32_t>(CakeDropReason::OVERLIMIT)},
    };
    EXPECT_EQ(events, expected);
    ASSERT_EQ(f.drops.size(), 1U);
}

TEST(CakeScheduler, ObserverSeesCobaltEnterAndLeaveDropping)
{
    // besteffort, unlimited: target 5 ms, interval 100 ms, mtu_time 0 (no rate). Queue 1
    // holds ids 0 and 1 (enqueued at 0) and 2 (at 9 ms), 100 bytes each; dequeued at 10 ms.
    // The mark callback fails (not ECN-capable), so CoDel signals are drops.
    // - id 0: sojourn 10 ms > 5 ms: cobalt_should_drop() enters dropping, count 0 -> 1, and
    //   drop_next = cobalt_control(now, interval, rec_inv_sqrt) = now, because
    //   cobalt_vars_init() leaves rec_inv_sqrt 0; next_due was false (count was 0), so the
    //   packet passes: S(true, 1).
    // - id 1 (next Dequeue): count 1 and now - drop_next = 0 >= 0: due, and not the last
    //   packet: dropped, D(1, CONGESTED), count 2; cake_dequeue() goes on to the next packet:
    // - id 2: sojourn 1 ms <= target: dropping ends with count 2: S(false, 2); it passes.
    Fixture f(Besteffort(0));
    std::vector<Event> events;
    f.scheduler.SetObserver(Recorder(events));
    f.Add(0, 0, 100, 1);
    f.Add(0, 1, 100, 1);
    f.Add(9000000, 2, 100, 1);
    EXPECT_EQ(f.scheduler.Dequeue(10000000), std::optional<Item>(0));
    EXPECT_EQ(f.scheduler.Dequeue(10000000), std::optional<Item>(2));
    const std::vector<Event> expected = {
        {'S', 0, 1, 1, 1},
        {'D', 0, 1, 1, static_cast<uint32_t>(CakeDropReason::CONGESTED)},
        {'S', 0, 1, 0, 2},
    };
    EXPECT_EQ(events, expected);
    ASSERT_EQ(f.drops.size(), 1U);
    EXPECT_EQ(f.drops[0].first, 1U);
}

TEST(CakeScheduler, ObserverSeesMark)
{
    // Queue 1 of tin 0 holds ids 0 and 1 (at 0), ECN-capable (the mark callback succeeds).
    // id 0 at 10 ms: enters dropping with count 1 and drop_next = 10 ms (rec_inv_sqrt is 0
    // until the first signal). id 1 at 200 ms: sojourn 200 ms over target and drop_next
    // passed: a CoDel signal, which
    // INET_ECN_set_ce() turns into a mark: M(handle 1), no drop; tin_ecn_mark 1.
    std::vector<Item> dropped;
    CakeScheduler scheduler(
        Besteffort(0),
        1514,
        1,
        [](Item) { return true; },
        [&dropped](Item item, uint32_t, CakeDropReason) { dropped.push_back(item); });
    std::vector<Event> events;
    scheduler.SetObserver(Recorder(events));
    CakeClassification where;
    where.flowHash = 1;
    CakePacketSize size;
    size.len = 100;
    size.networkOffset = 14;
    size.truesize = 100;
    scheduler.Enqueue(0, where, 0, size);
    scheduler.Enqueue(0, where, 1, size);
    EXPECT_EQ(scheduler.Dequeue(10000000), std::optional<Item>(0));
    EXPECT_EQ(scheduler.Dequeue(200000000), std::optional<Item>(1));
    const std::vector<Event> expected = {{'S', 0, 1, 1, 1}, {'M', 0, 1, 1, 0}};
    EXPECT_EQ(events, expected);
    EXPECT_TRUE(dropped.empty());
    EXPECT_EQ(scheduler.GetTinStats(0).ecnMarked, 1U);
}

} // namespace
