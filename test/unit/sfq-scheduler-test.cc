/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for SfqScheduler. Expected values are derived in comments from the
 * kernel's sch_sfq.c:
 *   - bucket = hash & (divisor - 1); a new flow takes the slot at the head of dep[0]; at
 *     init every slot is linked at the head of dep[0] in index order, so the first flow gets
 *     the highest slot index, the next one the one below, and a freed slot is reused first;
 *   - a new flow joins the round after the tail with allot = quantum and becomes the tail
 *     (modern) or leaves the tail in place, so it is served next (classic);
 *   - dequeue: while tail->next has allot <= 0, it becomes the tail and gets + quantum; then
 *     send its head; an emptied slot leaves the round, else allot -= len;
 *   - over the limit: drop from dep[cur_depth]'s first slot (the most recently grown of the
 *     longest), its tail (headdrop: head); all at one packet: the slot after the tail.
 */

#include "error-message.h"

#include "ns3/sfq-scheduler.h"

#include <cstdlib>
#include <functional>
#include <gtest/gtest.h>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace
{

using debloattest::ErrorOf;

using ns3::debloat::Red;
using ns3::debloat::RedParameters;
using ns3::debloat::SfqDropReason;
using ns3::debloat::SfqFlowStats;
using ns3::debloat::SfqMarkReason;
using ns3::debloat::SfqParameters;
using ns3::debloat::SfqScheduler;

/// A test packet.
struct Pkt
{
    int id{0};        ///< identifies the packet
    uint32_t flow{0}; ///< the hash the test gives it
    bool ect{false};  ///< ECN-capable
    bool ce{false};   ///< marked CE
};

/**
 * The scheduler with a table of test packets: a packet's handle is its index in the table,
 * so the cases below speak of packets while the scheduler queues handles.
 */
class Sfq : public SfqScheduler
{
  public:
    /// Sets CE on a test packet, or returns false.
    using PktMark = std::function<bool(Pkt& pkt, SfqMarkReason reason)>;

    /// A dropped test packet.
    struct PktDrop
    {
        Pkt item;             ///< the packet
        uint32_t length;      ///< its length, bytes
        SfqDropReason reason; ///< why
        bool isNew;           ///< it is the packet being enqueued
    };

    /// SfqScheduler::EnqueueResult with the test packet of the drop.
    struct EnqueueResult
    {
        bool accepted{false};              ///< the new packet is queued
        std::optional<PktDrop> drop;       ///< the packet dropped, if any
        std::optional<SfqMarkReason> mark; ///< the CE mark made, if any
    };

    /**
     * @param params the options
     * @param random RED's random source
     * @param mark sets CE on a test packet (unset: no mark callback)
     */
    explicit Sfq(const SfqParameters& params, Red::RandomSource random = {}, PktMark mark = {})
        : SfqScheduler(params,
                       std::move(random),
                       mark ? MarkCallback([this, mark](Handle handle, SfqMarkReason reason) {
                           return mark(m_table.at(handle), reason);
                       })
                            : MarkCallback())
    {
    }

    /**
     * @param pkt the packet; it gets the next handle
     * @param length its length
     * @param hash its hash
     * @return what happened
     */
    EnqueueResult Enqueue(const Pkt& pkt, uint32_t length, uint32_t hash)
    {
        m_table.push_back(pkt);
        const auto result = SfqScheduler::Enqueue(m_table.size() - 1, length, hash);
        EnqueueResult out{result.accepted, std::nullopt, result.mark};
        if (result.drop)
        {
            out.drop = PktDrop{m_table.at(result.drop->handle),
                               result.drop->length,
                               result.drop->reason,
                               result.drop->isNew};
        }
        return out;
    }

    /// @return the packet served next, or nothing
    std::optional<Pkt> Dequeue()
    {
        const auto handle = SfqScheduler::Dequeue();
        return handle ? std::optional<Pkt>(m_table.at(*handle)) : std::nullopt;
    }

    /**
     * @param newHash a packet's new hash
     * @param onDrop receives each dropped packet
     */
    void Rehash(const std::function<uint32_t(const Pkt&)>& newHash,
                const std::function<void(Pkt, uint32_t, SfqDropReason)>& onDrop)
    {
        SfqScheduler::Rehash([&](Handle handle) { return newHash(m_table.at(handle)); },
                             [&](Handle handle, uint32_t length, SfqDropReason reason) {
                                 onDrop(m_table.at(handle), length, reason);
                             });
    }

    /**
     * @param handle a handle the scheduler reported
     * @return its packet
     */
    const Pkt& PacketOf(Handle handle) const
    {
        return m_table.at(handle);
    }

  private:
    std::vector<Pkt> m_table; ///< every packet enqueued, by handle
};

/// Marks an ECN-capable packet, as INET_ECN_set_ce().
bool
MarkCe(Pkt& pkt, SfqMarkReason)
{
    if (!pkt.ect)
    {
        return false;
    }
    pkt.ce = true;
    return true;
}

/**
 * Enqueues a packet whose hash is its flow.
 * @param sfq the scheduler
 * @param id packet id
 * @param flow flow hash
 * @param length bytes
 * @param ect ECN-capable
 * @return the result
 */
Sfq::EnqueueResult
Add(Sfq& sfq, int id, uint32_t flow, uint32_t length = 1514, bool ect = false)
{
    return sfq.Enqueue(Pkt{id, flow, ect, false}, length, flow);
}

/**
 * @param sfq the scheduler
 * @return the ids of every packet dequeued until empty
 */
std::vector<int>
Drain(Sfq& sfq)
{
    std::vector<int> ids;
    while (auto pkt = sfq.Dequeue())
    {
        ids.push_back(pkt->id);
    }
    return ids;
}

/// What a test observer heard, in order.
struct Heard
{
    std::vector<ns3::debloat::SfqDropEvent> drops;          ///< onDrop
    std::vector<ns3::debloat::SfqMarkEvent> marks;          ///< onMark
    std::vector<ns3::debloat::SfqRehashEvent> rehashes;     ///< onRehash
    std::vector<std::pair<uint32_t, uint32_t>> allocations; ///< onSlotAllocated
};

/**
 * Connects every listener of an observer to a record.
 * @param sfq the scheduler
 * @param heard the record
 */
void
Listen(Sfq& sfq, Heard& heard)
{
    ns3::debloat::SfqObserver observer;
    observer.onDrop = [&heard](const ns3::debloat::SfqDropEvent& e) { heard.drops.push_back(e); };
    observer.onMark = [&heard](const ns3::debloat::SfqMarkEvent& e) { heard.marks.push_back(e); };
    observer.onRehash = [&heard](const ns3::debloat::SfqRehashEvent& e) {
        heard.rehashes.push_back(e);
    };
    observer.onSlotAllocated = [&heard](uint32_t bucket, uint32_t slot) {
        heard.allocations.emplace_back(bucket, slot);
    };
    sfq.SetObserver(observer);
}

TEST(SfqSchedulerTest, LimitDerivation)
{
    // Defaults: limit min(127, 127 * 128) = 127, flows min(128, 127) = 127, depth 127.
    Sfq byDefault{SfqParameters()};
    EXPECT_EQ(byDefault.GetLimit(), 127U);
    EXPECT_EQ(byDefault.GetFlows(), 127U);
    EXPECT_EQ(byDefault.GetDepth(), 127U);
    // limit 1000 depth 3 flows 4: limit min(1000, 12) = 12, flows min(4, 12) = 4.
    SfqParameters params;
    params.limit = 1000;
    params.depth = 3;
    params.flows = 4;
    Sfq small(params);
    EXPECT_EQ(small.GetLimit(), 12U);
    EXPECT_EQ(small.GetFlows(), 4U);
    // limit 10: flows min(128, 10) = 10, so ten one-packet flows take every slot and an
    // eleventh flow finds none.
    params = SfqParameters();
    params.limit = 10;
    Sfq ten(params);
    EXPECT_EQ(ten.GetFlows(), 10U);
    for (uint32_t f = 0; f < 10; f++)
    {
        ASSERT_TRUE(Add(ten, static_cast<int>(f), f).accepted);
    }
    const auto result = Add(ten, 10, 10);
    EXPECT_FALSE(result.accepted);
    ASSERT_TRUE(result.drop);
    EXPECT_EQ(result.drop->reason, SfqDropReason::NO_FREE_SLOT);
    EXPECT_TRUE(result.drop->isNew);
    EXPECT_EQ(result.drop->item.id, 10);
    // Classic: 128 slots; a flow may hold the whole limit.
    params = SfqParameters();
    params.classic = true;
    params.limit = 50;
    Sfq classic(params);
    EXPECT_EQ(classic.GetLimit(), 50U);
    EXPECT_EQ(classic.GetFlows(), 128U);
    EXPECT_EQ(classic.GetDepth(), 50U);
}

TEST(SfqSchedulerTest, InvalidParametersNameTheOption)
{
    struct Case
    {
        SfqParameters params;
        std::string option;
    };

    std::vector<Case> cases;
    auto with = [&](const std::string& option, auto change) {
        SfqParameters params;
        change(params);
        cases.push_back({params, option});
    };
    with("divisor", [](SfqParameters& p) { p.divisor = 1000; });
    with("divisor", [](SfqParameters& p) { p.divisor = 131072; });
    with("divisor", [](SfqParameters& p) { p.divisor = 0; });
    with("depth", [](SfqParameters& p) { p.depth = 0; });
    with("depth", [](SfqParameters& p) { p.depth = 128; });
    with("flows", [](SfqParameters& p) { p.flows = 0; });
    with("flows", [](SfqParameters& p) { p.flows = 65409; });
    with("flows", [](SfqParameters& p) { p.flows = 2048; }); // > divisor 1024
    with("limit", [](SfqParameters& p) { p.limit = 1; });
    with("limit", [](SfqParameters& p) { p.limit = 0; });
    with("limit", [](SfqParameters& p) { // min(10, 1 * 1) = 1
        p.limit = 10;
        p.depth = 1;
        p.flows = 1;
    });
    with("quantum", [](SfqParameters& p) { p.quantum = 0; });
    with("quantum", [](SfqParameters& p) { p.quantum = 0x80000000U; });
    with("headdrop", [](SfqParameters& p) {
        p.classic = true;
        p.headdrop = true;
    });
    with("RED", [](SfqParameters& p) {
        p.classic = true;
        p.red = RedParameters{1000, 3000, 0, 0, 0, false, false};
    });
    with("limit", [](SfqParameters& p) {
        p.classic = true;
        p.limit = 128;
    });
    with("flows", [](SfqParameters& p) {
        p.classic = true;
        p.flows = 64;
    });
    with("depth", [](SfqParameters& p) {
        p.classic = true;
        p.depth = 10;
    });
    with("qth_min",
         [](SfqParameters& p) { p.red = RedParameters{0, 3000, 0, 0, 0, false, false}; });
    for (const Case& c : cases)
    {
        const std::string error = ErrorOf([&] { c.params.Validate(); });
        EXPECT_NE(error.find(c.option), std::string::npos)
            << "expected an error naming " << c.option << ", got \"" << error << "\"";
    }
    // The scheduler validates too, and needs a random source with RED and a mark callback
    // with ecn.
    SfqParameters params;
    params.red = RedParameters{1000, 3000, 0, 0, 0, true, false};
    EXPECT_NE(ErrorOf([&] { Sfq sfq(params, [] { return 0U; }); }).find("mark"), std::string::npos);
    EXPECT_NE(ErrorOf([&] { Sfq sfq(params, {}, MarkCe); }).find("random"), std::string::npos);
    params.flows = 0;
    EXPECT_NE(ErrorOf([&] { Sfq sfq(params); }).find("flows"), std::string::npos);
}

TEST(SfqSchedulerTest, ByteFairnessBetweenBigAndSmallPackets)
{
    // Flow A sends 1514-byte packets, flow B 64-byte ones; both stay backlogged (each dequeue
    // is replaced by a packet of the same flow). A joined first: it sends one packet per
    // turn (allot 1514 -> 0). B sends while its allot is positive: from 1514 + e (e, its
    // previous end allot, in (-64, 0]) down to a new end allot in (-64, 0], i.e. 23 or 24
    // packets. Right after A's turn, served(A) - served(B) = 1514 + e <= 1514; right after
    // B's turn it is the end allot, > -64. So the two never differ by more than a quantum,
    // and B sends 1514 / 64 = 23.66 packets per A packet on average. Round-robin by packets
    // would let A pull ahead by 1450 bytes a round.
    Sfq sfq{SfqParameters()};
    int id = 0;
    for (int i = 0; i < 20; i++)
    {
        ASSERT_TRUE(Add(sfq, id++, 1, 1514).accepted);
    }
    for (int i = 0; i < 60; i++)
    {
        ASSERT_TRUE(Add(sfq, id++, 2, 64).accepted);
    }
    uint64_t bytes[3] = {0, 0, 0};
    uint64_t packets[3] = {0, 0, 0};
    int64_t widest = 0;
    for (int i = 0; i < 20000; i++)
    {
        const auto pkt = sfq.Dequeue();
        ASSERT_TRUE(pkt);
        const uint32_t length = pkt->flow == 1 ? 1514 : 64;
        bytes[pkt->flow] += length;
        packets[pkt->flow]++;
        const int64_t diff = static_cast<int64_t>(bytes[1]) - static_cast<int64_t>(bytes[2]);
        widest = std::max<int64_t>(widest, std::llabs(diff));
        ASSERT_LE(std::llabs(diff), 1514) << "after dequeue " << i;
        ASSERT_TRUE(Add(sfq, id++, pkt->flow, length).accepted);
    }
    EXPECT_GE(widest, 1400) << "A's turns do pull it ahead by almost a quantum";
    EXPECT_GE(packets[2], 23 * packets[1]);
    EXPECT_LE(packets[2], 24 * packets[1]);
}

TEST(SfqSchedulerTest, ModernNewFlowJoinsTheEndOfTheRound)
{
    // A1 A2 (flow 1) then B1 B2 (flow 2), quantum = packet size: one packet per turn.
    // A forms the ring, B joins after it and becomes the tail: tail = B, B->next = A.
    // Dequeue: A1 (A's allot 1514 -> 0). C arrives: it joins after the tail B and becomes
    // the tail: ring A, B, C. Dequeue: A's allot is 0, so A becomes the tail with +1514 and
    // B sends B1; then C1 (C leaves the round); then A2 and B2.
    Sfq sfq{SfqParameters()};
    Add(sfq, 1, 1);
    Add(sfq, 2, 1);
    Add(sfq, 3, 2);
    Add(sfq, 4, 2);
    ASSERT_EQ(sfq.Dequeue()->id, 1);
    Add(sfq, 5, 3);
    EXPECT_EQ(Drain(sfq), (std::vector<int>{3, 5, 2, 4}));
}

TEST(SfqSchedulerTest, ClassicNewFlowIsServedNext)
{
    // Same packets. Classic: A forms the ring (tail = A); B is linked after the tail A and
    // the tail stays, so B is served first: B1 (B's allot -> 0). C is linked after the tail
    // A: ring C, B, A from tail->next, so C1 goes at once (C leaves the round). Then B's allot
    // is 0: B becomes the tail with +1514, A sends A1; A's allot 0: A becomes the tail, B
    // sends B2; then A2.
    SfqParameters params;
    params.classic = true;
    Sfq sfq(params);
    Add(sfq, 1, 1);
    Add(sfq, 2, 1);
    Add(sfq, 3, 2);
    Add(sfq, 4, 2);
    ASSERT_EQ(sfq.Dequeue()->id, 3);
    Add(sfq, 5, 3);
    EXPECT_EQ(Drain(sfq), (std::vector<int>{5, 1, 4, 2}));
}

TEST(SfqSchedulerTest, OverlimitDropsFromTheLongestFlow)
{
    SfqParameters params;
    params.limit = 5;
    {
        // A holds 4, B 1: qlen 5. B2 makes qlen 6 > 5; cur_depth 4 is A's: A's tail A4
        // goes, and B2 stays.
        Sfq sfq(params);
        for (int i = 1; i <= 4; i++)
        {
            Add(sfq, i, 1);
        }
        Add(sfq, 11, 2);
        const auto result = Add(sfq, 12, 2);
        EXPECT_TRUE(result.accepted);
        ASSERT_TRUE(result.drop);
        EXPECT_EQ(result.drop->item.id, 4);
        EXPECT_EQ(result.drop->reason, SfqDropReason::OVERLIMIT);
        EXPECT_FALSE(result.drop->isNew);
        EXPECT_EQ(sfq.GetQlen(), 5U);
        EXPECT_EQ(sfq.GetBacklog(), 5U * 1514);
        EXPECT_EQ(sfq.GetFlowStats(1)->qlen, 3U);
        EXPECT_EQ(sfq.GetFlowStats(2)->qlen, 2U);
    }
    {
        // With headdrop the longest flow loses its head, A1.
        params.headdrop = true;
        Sfq sfq(params);
        for (int i = 1; i <= 4; i++)
        {
            Add(sfq, i, 1);
        }
        Add(sfq, 11, 2);
        const auto result = Add(sfq, 12, 2);
        ASSERT_TRUE(result.drop);
        EXPECT_EQ(result.drop->item.id, 1);
        EXPECT_EQ(Drain(sfq), (std::vector<int>{2, 11, 3, 12, 4}));
    }
    {
        // A holds 3, B 2, then B3: A and B both hold 3. B reached depth 3 last, so sfq_link
        // put it at the head of dep[3]: B's tail, the new B3, goes.
        params.headdrop = false;
        Sfq sfq(params);
        for (int i = 1; i <= 3; i++)
        {
            Add(sfq, i, 1);
        }
        Add(sfq, 11, 2);
        Add(sfq, 12, 2);
        const auto result = Add(sfq, 13, 2);
        EXPECT_FALSE(result.accepted);
        ASSERT_TRUE(result.drop);
        EXPECT_EQ(result.drop->item.id, 13);
        EXPECT_TRUE(result.drop->isNew);
        EXPECT_EQ(result.drop->reason, SfqDropReason::OVERLIMIT);
        EXPECT_EQ(sfq.GetQlen(), 5U);
    }
    {
        // limit 7: A and B hold 3 each. Dequeuing A1 moves A to depth 2, but B is still at 3,
        // so sfq_dec() keeps cur_depth 3. D1, D2 fill the qdisc to 7 (D reaches depth 2 after
        // A, so D heads dep[2]); E1 makes 8: the only slot at depth 3, B, loses its tail.
        params.limit = 7;
        Sfq sfq(params);
        for (int i = 1; i <= 3; i++)
        {
            Add(sfq, i, 1);
            Add(sfq, 10 + i, 2);
        }
        ASSERT_EQ(sfq.Dequeue()->id, 1);
        Add(sfq, 21, 4);
        Add(sfq, 22, 4);
        const auto result = Add(sfq, 31, 5);
        ASSERT_TRUE(result.drop);
        EXPECT_EQ(result.drop->item.id, 13);
        EXPECT_EQ(result.drop->reason, SfqDropReason::OVERLIMIT);
    }
}

TEST(SfqSchedulerTest, ClassicOverlimitWithSinglePacketFlows)
{
    // Classic, limit 3: A1, B1, C1 take three of the 128 slots. Ring: A (tail); B linked
    // after A; C linked after A: A -> C -> B -> A. D1 is linked after A too and makes qlen 4
    // with cur_depth 1: sfq_drop() drops the packet of the slot after the tail, which is D's
    // (new flows are served next), and D's slot leaves the round.
    // (Modern SFQ never gets here: flows <= limit, so a full qdisc has a flow of two.)
    SfqParameters params;
    params.classic = true;
    params.limit = 3;
    Sfq sfq(params);
    Add(sfq, 1, 1);
    Add(sfq, 2, 2);
    Add(sfq, 3, 3);
    const auto result = Add(sfq, 4, 4);
    EXPECT_FALSE(result.accepted);
    ASSERT_TRUE(result.drop);
    EXPECT_EQ(result.drop->item.id, 4);
    EXPECT_TRUE(result.drop->isNew);
    EXPECT_EQ(result.drop->reason, SfqDropReason::OVERLIMIT);
    EXPECT_FALSE(sfq.GetFlowStats(4));
    EXPECT_EQ(sfq.GetActiveFlows(), 3U);
    EXPECT_EQ(Drain(sfq), (std::vector<int>{3, 2, 1}));
}

TEST(SfqSchedulerTest, ClassicCapsAFlowAtTheLimit)
{
    // Classic limit 4: a fifth packet of the same flow meets slot->qlen >= limit and is
    // tail-dropped before the total is even checked.
    SfqParameters params;
    params.classic = true;
    params.limit = 4;
    Sfq sfq(params);
    for (int i = 1; i <= 4; i++)
    {
        Add(sfq, i, 1);
    }
    const auto result = Add(sfq, 5, 1);
    ASSERT_TRUE(result.drop);
    EXPECT_EQ(result.drop->reason, SfqDropReason::FLOW_DEPTH);
    EXPECT_EQ(result.drop->item.id, 5);
}

TEST(SfqSchedulerTest, DepthTailDropVersusHeadDrop)
{
    // depth 3; A1..A4 of 100, 200, 300, 400 bytes.
    SfqParameters params;
    params.depth = 3;
    {
        // Tail drop: A4 is refused; backlog 100 + 200 + 300 = 600.
        Sfq sfq(params);
        for (int i = 1; i <= 3; i++)
        {
            Add(sfq, i, 1, 100 * i);
        }
        const auto result = Add(sfq, 4, 1, 400);
        EXPECT_FALSE(result.accepted);
        ASSERT_TRUE(result.drop);
        EXPECT_EQ(result.drop->item.id, 4);
        EXPECT_TRUE(result.drop->isNew);
        EXPECT_EQ(result.drop->reason, SfqDropReason::FLOW_DEPTH);
        EXPECT_EQ(sfq.GetBacklog(), 600U);
        EXPECT_EQ(Drain(sfq), (std::vector<int>{1, 2, 3}));
    }
    {
        // Head drop: A1 goes, A4 takes its place: backlog 600 - 100 + 400 = 900, qlen 3.
        params.headdrop = true;
        Sfq sfq(params);
        for (int i = 1; i <= 3; i++)
        {
            Add(sfq, i, 1, 100 * i);
        }
        const auto result = Add(sfq, 4, 1, 400);
        EXPECT_TRUE(result.accepted);
        ASSERT_TRUE(result.drop);
        EXPECT_EQ(result.drop->item.id, 1);
        EXPECT_EQ(result.drop->length, 100U);
        EXPECT_FALSE(result.drop->isNew);
        EXPECT_EQ(result.drop->reason, SfqDropReason::FLOW_DEPTH);
        EXPECT_EQ(sfq.GetBacklog(), 900U);
        EXPECT_EQ(sfq.GetFlowStats(1)->backlog, 900U);
        EXPECT_EQ(sfq.GetQlen(), 3U);
        EXPECT_EQ(Drain(sfq), (std::vector<int>{2, 3, 4}));
    }
}

TEST(SfqSchedulerTest, DivisorCollisionSharesASlot)
{
    // divisor 16: hashes 5 and 21 both land in bucket 5, one flow; 6 is another.
    SfqParameters params;
    params.divisor = 16;
    params.flows = 16;
    Sfq sfq(params);
    Add(sfq, 1, 5);
    Add(sfq, 2, 21);
    EXPECT_EQ(sfq.GetActiveFlows(), 1U);
    EXPECT_EQ(sfq.GetFlowStats(5)->qlen, 2U);
    Add(sfq, 3, 6);
    EXPECT_EQ(sfq.GetActiveFlows(), 2U);
    // Bucket 5 was active first: 1 (allot -> 0), then bucket 6's 3, then 2.
    EXPECT_EQ(Drain(sfq), (std::vector<int>{1, 3, 2}));
}

TEST(SfqSchedulerTest, FlowStatsAndAllot)
{
    // A (hash 7): three 1000-byte packets; B (hash 3): one 500-byte packet.
    Sfq sfq{SfqParameters()};
    Add(sfq, 1, 7, 1000);
    Add(sfq, 2, 7, 1000);
    Add(sfq, 3, 7, 1000);
    Add(sfq, 4, 3, 500);
    // A1: A's allot 1514 - 1000 = 514.
    EXPECT_EQ(sfq.Dequeue()->id, 1);
    std::vector<SfqFlowStats> flows;
    sfq.ForEachActiveFlow([&](const SfqFlowStats& f) { flows.push_back(f); });
    ASSERT_EQ(flows.size(), 2U); // bucket order: 3, then 7
    EXPECT_EQ(flows[0].bucket, 3U);
    EXPECT_EQ(flows[0].qlen, 1U);
    EXPECT_EQ(flows[0].backlog, 500U);
    EXPECT_EQ(flows[0].allot, 1514);
    EXPECT_EQ(flows[1].bucket, 7U);
    EXPECT_EQ(flows[1].qlen, 2U);
    EXPECT_EQ(flows[1].backlog, 2000U);
    EXPECT_EQ(flows[1].allot, 514);
    EXPECT_EQ(sfq.GetQlen(), 3U);
    EXPECT_EQ(sfq.GetBacklog(), 2500U);
    // 514 > 0: A2 too, allot 514 - 1000 = -486.
    EXPECT_EQ(sfq.Dequeue()->id, 2);
    EXPECT_EQ(sfq.GetFlowStats(7)->allot, -486);
    // A is used up: it becomes the tail with -486 + 1514 = 1028; B sends and leaves.
    EXPECT_EQ(sfq.Dequeue()->id, 4);
    EXPECT_FALSE(sfq.GetFlowStats(3));
    EXPECT_EQ(sfq.GetActiveFlows(), 1U);
    EXPECT_EQ(sfq.GetFlowStats(7)->allot, 1028);
    EXPECT_EQ(sfq.Dequeue()->id, 3);
    EXPECT_FALSE(sfq.Dequeue());
    EXPECT_EQ(sfq.GetActiveFlows(), 0U);
    EXPECT_EQ(sfq.GetBacklog(), 0U);
}

TEST(SfqSchedulerTest, RehashKeepsEveryPacketInFlowOrder)
{
    // X (hash 1): X1 X2 X3; Y (hash 2): Y1 Y2, interleaved. X took the highest slot, Y the
    // one below. Rehash pulls slot by slot in index order: Y1 Y2 X1 X2 X3; the emptied
    // slots went back to the head of dep[0] (Y's, then X's on top). Re-inserted under the
    // new key (X -> 101, Y -> 102), Y takes X's old slot first and forms the round, X joins
    // after it: Y1 X1 Y2 X2 X3 (one packet per turn).
    Sfq sfq{SfqParameters()};
    Add(sfq, 1, 1);
    Add(sfq, 11, 2);
    Add(sfq, 2, 1);
    Add(sfq, 12, 2);
    Add(sfq, 3, 1);
    std::vector<int> dropped;
    sfq.Rehash([](const Pkt& pkt) { return pkt.flow + 100; },
               [&](Pkt pkt, uint32_t, SfqDropReason) { dropped.push_back(pkt.id); });
    EXPECT_TRUE(dropped.empty());
    EXPECT_EQ(sfq.GetQlen(), 5U);
    EXPECT_EQ(sfq.GetBacklog(), 5U * 1514);
    EXPECT_FALSE(sfq.GetFlowStats(1));
    EXPECT_FALSE(sfq.GetFlowStats(2));
    EXPECT_EQ(sfq.GetFlowStats(101)->qlen, 3U);
    EXPECT_EQ(sfq.GetFlowStats(102)->qlen, 2U);
    EXPECT_EQ(sfq.GetFlowStats(101)->allot, 1514);
    EXPECT_EQ(Drain(sfq), (std::vector<int>{11, 1, 12, 2, 3}));
}

TEST(SfqSchedulerTest, RehashDropsAtDepthAndWithoutAFreeSlot)
{
    {
        // depth 3; X1 X2 (hash 1), Y1 Y2 (hash 2), all moved to bucket 300. Pulled out as
        // Y1 Y2 X1 X2 (slot order); the fourth re-insert, X2, finds the slot at depth 3.
        // The observer: X held slot 126, Y 125; sfq_rehash() empties 125, then 126, each
        // going to the head of dep[0], so bucket 300 takes slot 126. It hears X2's drop
        // there (before the DropCallback receives it), then one rehash: 3 re-inserted, 1
        // dropped.
        SfqParameters params;
        params.depth = 3;
        Sfq sfq(params);
        Add(sfq, 1, 1);
        Add(sfq, 2, 1);
        Add(sfq, 11, 2);
        Add(sfq, 12, 2);
        Heard heard;
        Listen(sfq, heard);
        std::vector<int> dropped;
        sfq.Rehash([](const Pkt&) { return 300U; },
                   [&](Pkt pkt, uint32_t length, SfqDropReason reason) {
                       EXPECT_EQ(heard.drops.size(), 1U) << "the observer hears it first";
                       dropped.push_back(pkt.id);
                       EXPECT_EQ(length, 1514U);
                       EXPECT_EQ(reason, SfqDropReason::FLOW_DEPTH);
                   });
        EXPECT_EQ(dropped, (std::vector<int>{2}));
        EXPECT_EQ(sfq.GetQlen(), 3U);
        EXPECT_EQ(sfq.GetBacklog(), 3U * 1514);
        EXPECT_EQ(Drain(sfq), (std::vector<int>{11, 12, 1}));
        EXPECT_EQ(heard.allocations, (std::vector<std::pair<uint32_t, uint32_t>>{{300U, 126U}}));
        ASSERT_EQ(heard.drops.size(), 1U);
        EXPECT_EQ(sfq.PacketOf(heard.drops[0].handle).id, 2);
        EXPECT_EQ(heard.drops[0].bucket, 300U);
        EXPECT_EQ(heard.drops[0].slot, 126U);
        EXPECT_EQ(heard.drops[0].reason, SfqDropReason::FLOW_DEPTH);
        EXPECT_FALSE(heard.drops[0].isNew);
        ASSERT_EQ(heard.rehashes.size(), 1U);
        EXPECT_EQ(heard.rehashes[0].requeued, 3U);
        EXPECT_EQ(heard.rehashes[0].dropped, 1U);
    }
    {
        // flows 2: X1 X2 X3 share hash 1, then split into buckets 11, 12, 13: the third
        // needs a third slot.
        SfqParameters params;
        params.limit = 10;
        params.flows = 2;
        Sfq sfq(params);
        Add(sfq, 1, 1);
        Add(sfq, 2, 1);
        Add(sfq, 3, 1);
        std::vector<int> dropped;
        sfq.Rehash([](const Pkt& pkt) { return 10U + static_cast<uint32_t>(pkt.id); },
                   [&](Pkt pkt, uint32_t, SfqDropReason reason) {
                       dropped.push_back(pkt.id);
                       EXPECT_EQ(reason, SfqDropReason::NO_FREE_SLOT);
                   });
        EXPECT_EQ(dropped, (std::vector<int>{3}));
        EXPECT_EQ(sfq.GetActiveFlows(), 2U);
        EXPECT_EQ(sfq.GetQlen(), 2U);
    }
    {
        SfqParameters params;
        params.classic = true;
        Sfq sfq(params);
        EXPECT_THROW(sfq.Rehash([](const Pkt&) { return 0U; }, [](Pkt, uint32_t, SfqDropReason) {}),
                     std::logic_error);
    }
}

/**
 * RED thresholds for the tests below: min 1000, max 3000 bytes, Wlog 0 (qavg is the flow's
 * backlog before the packet), max_P 0.5 (2^31): max_p_delta = 2^31 / 2000 = 1073741.
 * With 1000-byte packets in one flow and a random source stuck at 2^32 - 1
 * (qR = 4294967295 / 1073741 = 4000):
 *   P1: first packet of the flow, no RED;
 *   P2: qavg 1000, between: qcount 0, qR drawn, no mark;
 *   P3: qavg 2000: (2000 - 1000) * 1 = 1000 < 4000, no mark;
 *   P4: qavg 3000 >= max: HARD_MARK.
 * @param ecn TC_RED_ECN
 * @param harddrop TC_RED_HARDDROP
 * @param headdrop headdrop
 * @return the options
 */
SfqParameters
RedOptions(bool ecn, bool harddrop, bool headdrop)
{
    SfqParameters params;
    params.headdrop = headdrop;
    params.red = RedParameters{1000, 3000, 0, 0, 1U << 31, ecn, harddrop};
    return params;
}

/// The random source of the RED tests: always 2^32 - 1.
uint32_t
MaxRandom()
{
    return UINT32_MAX;
}

/**
 * Enqueues P1..P3 (ids 1..3) of flow 1, 1000 bytes each, and checks RED left them alone.
 * @param sfq the scheduler
 * @param headEct whether P1 is ECN-capable
 */
void
FillToHardMark(Sfq& sfq, bool headEct)
{
    ASSERT_TRUE(Add(sfq, 1, 1, 1000, headEct).accepted);
    for (int i = 2; i <= 3; i++)
    {
        const auto result = Add(sfq, i, 1, 1000, true);
        ASSERT_TRUE(result.accepted);
        ASSERT_FALSE(result.drop);
        ASSERT_FALSE(result.mark);
    }
}

TEST(SfqSchedulerTest, RedForcedMarkOfTheNewPacket)
{
    Sfq sfq(RedOptions(true, false, false), MaxRandom, MarkCe);
    FillToHardMark(sfq, true);
    const auto result = Add(sfq, 4, 1, 1000, true);
    EXPECT_TRUE(result.accepted);
    EXPECT_FALSE(result.drop);
    ASSERT_TRUE(result.mark);
    EXPECT_EQ(*result.mark, SfqMarkReason::FORCED_MARK);
    EXPECT_EQ(sfq.GetRedStats().forcedMark, 1U);
    EXPECT_EQ(sfq.GetOverlimits(), 1U);
    std::vector<bool> ce;
    while (auto pkt = sfq.Dequeue())
    {
        ce.push_back(pkt->ce);
    }
    EXPECT_EQ(ce, (std::vector<bool>{false, false, false, true}));
}

TEST(SfqSchedulerTest, RedHeaddropMarksTheHead)
{
    // ecn + headdrop: the flow's oldest packet, P1, carries the mark.
    Sfq sfq(RedOptions(true, false, true), MaxRandom, MarkCe);
    FillToHardMark(sfq, true);
    const auto result = Add(sfq, 4, 1, 1000, true);
    EXPECT_TRUE(result.accepted);
    ASSERT_TRUE(result.mark);
    EXPECT_EQ(*result.mark, SfqMarkReason::FORCED_MARK_HEAD);
    EXPECT_EQ(sfq.GetRedStats().forcedMarkHead, 1U);
    EXPECT_EQ(sfq.GetRedStats().forcedMark, 0U);
    const auto head = sfq.Dequeue();
    EXPECT_EQ(head->id, 1);
    EXPECT_TRUE(head->ce);
    EXPECT_FALSE(sfq.Dequeue()->ce);
}

TEST(SfqSchedulerTest, RedMarkFallsBackThenDrops)
{
    {
        // ecn + headdrop, P1 not ECN-capable: the head cannot be marked, P4 is.
        Sfq sfq(RedOptions(true, false, true), MaxRandom, MarkCe);
        FillToHardMark(sfq, false);
        const auto result = Add(sfq, 4, 1, 1000, true);
        ASSERT_TRUE(result.mark);
        EXPECT_EQ(*result.mark, SfqMarkReason::FORCED_MARK);
        EXPECT_EQ(sfq.GetRedStats().forcedMark, 1U);
    }
    {
        // ecn, P4 not ECN-capable: a forced drop of P4.
        Sfq sfq(RedOptions(true, false, false), MaxRandom, MarkCe);
        FillToHardMark(sfq, true);
        const auto result = Add(sfq, 4, 1, 1000, false);
        EXPECT_FALSE(result.accepted);
        EXPECT_FALSE(result.mark);
        ASSERT_TRUE(result.drop);
        EXPECT_EQ(result.drop->reason, SfqDropReason::RED_FORCED_DROP);
        EXPECT_EQ(sfq.GetRedStats().forcedDrop, 1U);
    }
}

TEST(SfqSchedulerTest, RedHarddrop)
{
    {
        // ecn + harddrop: above max, drop instead of marking: P4 goes.
        Sfq sfq(RedOptions(true, true, false), MaxRandom, MarkCe);
        FillToHardMark(sfq, true);
        const auto result = Add(sfq, 4, 1, 1000, true);
        EXPECT_FALSE(result.accepted);
        EXPECT_FALSE(result.mark);
        ASSERT_TRUE(result.drop);
        EXPECT_EQ(result.drop->item.id, 4);
        EXPECT_TRUE(result.drop->isNew);
        EXPECT_EQ(result.drop->reason, SfqDropReason::RED_FORCED_DROP);
        EXPECT_EQ(sfq.GetRedStats().forcedDrop, 1U);
        EXPECT_EQ(sfq.GetRedStats().forcedMark, 0U);
        EXPECT_EQ(sfq.GetOverlimits(), 1U);
        EXPECT_EQ(sfq.GetQlen(), 3U);
    }
    {
        // ... with headdrop: P1 goes and P4 is appended.
        Sfq sfq(RedOptions(true, true, true), MaxRandom, MarkCe);
        FillToHardMark(sfq, true);
        const auto result = Add(sfq, 4, 1, 1000, true);
        EXPECT_TRUE(result.accepted);
        ASSERT_TRUE(result.drop);
        EXPECT_EQ(result.drop->item.id, 1);
        EXPECT_FALSE(result.drop->isNew);
        EXPECT_EQ(result.drop->reason, SfqDropReason::RED_FORCED_DROP);
        EXPECT_EQ(Drain(sfq), (std::vector<int>{2, 3, 4}));
    }
}

TEST(SfqSchedulerTest, RedComesBeforeTheDepthCheck)
{
    // depth 3: P4 both meets qavg 3000 >= max and a full slot.
    SfqParameters params = RedOptions(false, false, false);
    params.depth = 3;
    {
        // RED's drop goes straight to the congestion drop: the reason is RED's.
        Sfq sfq(params, MaxRandom);
        FillToHardMark(sfq, true);
        const auto result = Add(sfq, 4, 1, 1000, true);
        ASSERT_TRUE(result.drop);
        EXPECT_EQ(result.drop->reason, SfqDropReason::RED_FORCED_DROP);
    }
    {
        // With ecn RED marks P4, then the depth check still drops it.
        params.red->ecn = true;
        Sfq sfq(params, MaxRandom, MarkCe);
        FillToHardMark(sfq, true);
        const auto result = Add(sfq, 4, 1, 1000, true);
        ASSERT_TRUE(result.mark);
        EXPECT_EQ(*result.mark, SfqMarkReason::FORCED_MARK);
        ASSERT_TRUE(result.drop);
        EXPECT_EQ(result.drop->reason, SfqDropReason::FLOW_DEPTH);
        EXPECT_TRUE(result.drop->isNew);
        EXPECT_TRUE(result.drop->item.ce);
    }
}

TEST(SfqSchedulerTest, NewFlowStartsRedAfresh)
{
    // Wlog 2 (qavg = 4 x average); min 1000, max 2000 bytes: scaled 4000, 8000;
    // max_p_delta = 2^31 / 1000 = 2147483, qR = (2^32 - 1) / 2147483 = 2000.
    // Flow A, 1000-byte packets: P2 qavg 0 + 1000 = 1000; P3 1000 - 250 + 2000 = 2750;
    // P4 2750 - 687 + 3000 = 5063 (between, draws qR); P5 5063 - 1265 + 4000 = 7798
    // ((7798 - 4000) >> 2 = 949 < 2000, kept); P6 7798 - 1949 + 5000 = 10849 >= 8000: dropped.
    SfqParameters params;
    params.red = RedParameters{1000, 2000, 2, 0, 1U << 31, false, false};
    Sfq sfq(params, MaxRandom);
    for (int i = 1; i <= 5; i++)
    {
        ASSERT_TRUE(Add(sfq, i, 1, 1000).accepted);
    }
    ASSERT_EQ(Add(sfq, 6, 1, 1000).drop->reason, SfqDropReason::RED_FORCED_DROP);
    EXPECT_EQ(Drain(sfq).size(), 5U);
    // Flow B reuses A's slot (freed last, so first in dep[0]) with its RED state reset:
    // P2 sees qavg 0 + 1000 = 1000 < 4000. With A's stale 10849 it would see
    // 10849 - 2712 + 1000 = 9137 and be dropped.
    ASSERT_TRUE(Add(sfq, 11, 2, 1000).accepted);
    EXPECT_TRUE(Add(sfq, 12, 2, 1000).accepted);
    EXPECT_EQ(sfq.GetRedStats().forcedDrop, 1U);
}

TEST(SfqSchedulerTest, RedProbabilisticMarkAndDrop)
{
    // A random source stuck at 0 makes qR = 0: P2 only draws (qcount 0), P3 (qcount 1,
    // 1000 * 1 >= 0) is picked.
    auto zero = [] { return 0U; };
    {
        Sfq sfq(RedOptions(true, false, false), zero, MarkCe);
        Add(sfq, 1, 1, 1000, true);
        EXPECT_FALSE(Add(sfq, 2, 1, 1000, true).mark);
        const auto result = Add(sfq, 3, 1, 1000, true);
        ASSERT_TRUE(result.mark);
        EXPECT_EQ(*result.mark, SfqMarkReason::PROB_MARK);
        EXPECT_EQ(sfq.GetRedStats().probMark, 1U);
    }
    {
        // Without ecn, P3 is dropped; P4 then sees backlog 2000 again, qcount 0 -> 1, and
        // is picked too.
        Sfq sfq(RedOptions(false, false, false), zero);
        Add(sfq, 1, 1, 1000);
        Add(sfq, 2, 1, 1000);
        const auto p3 = Add(sfq, 3, 1, 1000);
        ASSERT_TRUE(p3.drop);
        EXPECT_EQ(p3.drop->reason, SfqDropReason::RED_PROB_DROP);
        const auto p4 = Add(sfq, 4, 1, 1000);
        ASSERT_TRUE(p4.drop);
        EXPECT_EQ(p4.drop->item.id, 4);
        EXPECT_EQ(sfq.GetRedStats().probDrop, 2U);
        EXPECT_EQ(sfq.GetOverlimits(), 2U);
        EXPECT_EQ(sfq.GetQlen(), 2U);
    }
}

TEST(SfqSchedulerTest, RehashUpdatesRedAverage)
{
    // Wlog 1 (qavg carries one fraction bit); min 1000, max 2000 bytes: scaled 2000, 4000.
    // Three 1000-byte packets of flow 1, rehashed to bucket 50 (averages reset, then
    // updated per re-insert before the backlog grows):
    //   0 + 0 - 0 = 0;  0 + 1000 - 0 = 1000;  1000 + 2000 - 500 = 2500.
    // A fourth packet: 2500 + 3000 - 1250 = 4250 >= 4000: HARD_MARK, dropped (no ecn).
    // Had the rehash left qavg at 0, it would be 0 + 3000 - 0 = 3000: between, no drop.
    SfqParameters params;
    params.red = RedParameters{1000, 2000, 1, 0, 1U << 31, false, false};
    Sfq sfq(params, MaxRandom);
    Add(sfq, 1, 1, 1000);
    Add(sfq, 2, 1, 1000);
    Add(sfq, 3, 1, 1000);
    sfq.Rehash([](const Pkt&) { return 50U; }, [](Pkt, uint32_t, SfqDropReason) {});
    const auto result = Add(sfq, 4, 50, 1000);
    ASSERT_TRUE(result.drop);
    EXPECT_EQ(result.drop->reason, SfqDropReason::RED_FORCED_DROP);
}

TEST(SfqSchedulerTest, ObserverHearsSlotsAndTheOverlimitDrop)
{
    // limit 10: flows min(128, 10) = 10 slots. sfq_init() links slots 0..9 at the head of
    // dep[0] in turn, so A (bucket 1) takes slot 9 and B (bucket 2) slot 8. A queues 8, B 3:
    // B's third makes 11 > 10 and sfq_drop() takes the tail of dep[8]'s slot, A's (slot 9):
    // A8, id 8, a queued packet. Exactly one drop and two allocations are heard.
    SfqParameters params;
    params.limit = 10;
    Sfq sfq(params);
    Heard heard;
    Listen(sfq, heard);
    for (int i = 1; i <= 8; i++)
    {
        Add(sfq, i, 1, 100);
    }
    for (int i = 11; i <= 13; i++)
    {
        Add(sfq, i, 2, 100);
    }
    EXPECT_EQ(heard.allocations, (std::vector<std::pair<uint32_t, uint32_t>>{{1U, 9U}, {2U, 8U}}));
    ASSERT_EQ(heard.drops.size(), 1U);
    const auto& drop = heard.drops[0];
    EXPECT_EQ(sfq.PacketOf(drop.handle).id, 8);
    EXPECT_EQ(drop.length, 100U);
    EXPECT_EQ(drop.bucket, 1U);
    EXPECT_EQ(drop.slot, 9U);
    EXPECT_EQ(drop.reason, SfqDropReason::OVERLIMIT);
    EXPECT_FALSE(drop.isNew);
    EXPECT_TRUE(heard.marks.empty());
    EXPECT_TRUE(heard.rehashes.empty());
}

TEST(SfqSchedulerTest, ObserverHearsNoFreeSlotAndDepthDrops)
{
    {
        // limit 10, 10 slots: ten one-packet flows take them all (flow f in slot 9 - f); the
        // eleventh (bucket 10) finds dep[0] empty: NO_FREE_SLOT, slot NO_SLOT, the new packet.
        SfqParameters params;
        params.limit = 10;
        Sfq sfq(params);
        Heard heard;
        Listen(sfq, heard);
        for (uint32_t f = 0; f < 10; f++)
        {
            Add(sfq, static_cast<int>(f), f);
        }
        Add(sfq, 10, 10);
        ASSERT_EQ(heard.allocations.size(), 10U);
        EXPECT_EQ(heard.allocations.back(), (std::pair<uint32_t, uint32_t>{9U, 0U}));
        ASSERT_EQ(heard.drops.size(), 1U);
        EXPECT_EQ(sfq.PacketOf(heard.drops[0].handle).id, 10);
        EXPECT_EQ(heard.drops[0].bucket, 10U);
        EXPECT_EQ(heard.drops[0].slot, SfqScheduler::NO_SLOT);
        EXPECT_EQ(heard.drops[0].reason, SfqDropReason::NO_FREE_SLOT);
        EXPECT_TRUE(heard.drops[0].isNew);
    }
    for (bool headdrop : {false, true})
    {
        // depth 3, defaults otherwise: 127 slots, the first flow (bucket 5) takes slot 126.
        // Its fourth packet finds qlen 3 >= depth: without headdrop the new packet (id 4)
        // goes, with headdrop the oldest (id 1), which was queued.
        SfqParameters params;
        params.depth = 3;
        params.headdrop = headdrop;
        Sfq sfq(params);
        Heard heard;
        Listen(sfq, heard);
        for (int i = 1; i <= 4; i++)
        {
            Add(sfq, i, 5);
        }
        ASSERT_EQ(heard.drops.size(), 1U) << "headdrop " << headdrop;
        EXPECT_EQ(sfq.PacketOf(heard.drops[0].handle).id, headdrop ? 1 : 4);
        EXPECT_EQ(heard.drops[0].bucket, 5U);
        EXPECT_EQ(heard.drops[0].slot, 126U);
        EXPECT_EQ(heard.drops[0].reason, SfqDropReason::FLOW_DEPTH);
        EXPECT_EQ(heard.drops[0].isNew, !headdrop);
    }
}

TEST(SfqSchedulerTest, ObserverHearsRedMarksAndDrops)
{
    {
        // RedOptions' P4 reaches HARD_MARK (see RedOptions); with ecn and headdrop the
        // flow's head P1 (ECT) is marked: forced_mark_head, flow 1 in slot 126, no drop.
        Sfq sfq(RedOptions(true, false, true), MaxRandom, MarkCe);
        Heard heard;
        Listen(sfq, heard);
        FillToHardMark(sfq, true);
        Add(sfq, 4, 1, 1000, true);
        ASSERT_EQ(heard.marks.size(), 1U);
        EXPECT_EQ(sfq.PacketOf(heard.marks[0].handle).id, 1);
        EXPECT_EQ(heard.marks[0].bucket, 1U);
        EXPECT_EQ(heard.marks[0].slot, 126U);
        EXPECT_EQ(heard.marks[0].reason, SfqMarkReason::FORCED_MARK_HEAD);
        EXPECT_TRUE(heard.drops.empty());
    }
    {
        // ecn harddrop: HARD_MARK is a forced drop of the new packet P4, never a mark.
        Sfq sfq(RedOptions(true, true, false), MaxRandom, MarkCe);
        Heard heard;
        Listen(sfq, heard);
        FillToHardMark(sfq, true);
        Add(sfq, 4, 1, 1000, true);
        EXPECT_TRUE(heard.marks.empty());
        ASSERT_EQ(heard.drops.size(), 1U);
        EXPECT_EQ(sfq.PacketOf(heard.drops[0].handle).id, 4);
        EXPECT_EQ(heard.drops[0].slot, 126U);
        EXPECT_EQ(heard.drops[0].reason, SfqDropReason::RED_FORCED_DROP);
        EXPECT_TRUE(heard.drops[0].isNew);
    }
}

TEST(SfqSchedulerTest, AnUnsetObserverChangesNothing)
{
    // The same packets with and without listeners leave in the same order: the observer only
    // watches. (limit 5, A holds 4 and B 2: A4 is dropped; see OverlimitDropsFromTheLongestFlow.)
    SfqParameters params;
    params.limit = 5;
    Sfq quiet(params);
    Sfq watched(params);
    Heard heard;
    Listen(watched, heard);
    watched.SetObserver({}); // unset again: nothing is heard
    for (Sfq* sfq : {&quiet, &watched})
    {
        for (int i = 1; i <= 4; i++)
        {
            Add(*sfq, i, 1);
        }
        Add(*sfq, 11, 2);
        Add(*sfq, 12, 2);
    }
    EXPECT_TRUE(heard.drops.empty());
    EXPECT_TRUE(heard.allocations.empty());
    EXPECT_EQ(Drain(quiet), Drain(watched));
}

} // namespace
