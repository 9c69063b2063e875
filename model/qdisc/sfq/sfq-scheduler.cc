/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_sfq.c of Linux: the modern SFQ of Linux 3.3 and later, with the int
 * allotment of "net_sched: sch_sfq: handle bigger packets" (2024) and the 2024-2025
 * configuration checks; and, as a classic mode, the SFQ of Linux ~3.1-3.2.
 */

#include "sfq-scheduler.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace ns3
{
namespace debloat
{

const TcGrammar&
SfqParameters::Grammar()
{
    static const TcGrammar grammar("sfq",
                                   {TcKeyword::Unsigned("limit", 2, UINT32_MAX),
                                    TcKeyword::Unsigned("depth", 0, UINT32_MAX),
                                    TcKeyword::Unsigned("flows", 0, UINT32_MAX),
                                    TcKeyword::Unsigned("divisor", 0, UINT32_MAX),
                                    TcKeyword::Size("quantum"),
                                    TcKeyword::Unsigned("perturb", 0, INT32_MAX),
                                    TcKeyword::Flag("headdrop"),
                                    TcKeyword::Unsigned("redflowlimit", 0, UINT32_MAX),
                                    TcKeyword::Unsigned("min", 0, UINT32_MAX),
                                    TcKeyword::Unsigned("max", 0, UINT32_MAX),
                                    TcKeyword::Size("avpkt"),
                                    TcKeyword::Unsigned("burst", 0, UINT32_MAX),
                                    TcKeyword::Double("probability", 0, 1),
                                    TcKeyword::Flag("ecn"),
                                    TcKeyword::Flag("harddrop")});
    return grammar;
}

namespace
{

/**
 * Throws std::invalid_argument for an SFQ option.
 * @param option the tc keyword
 * @param value the value given
 * @param accepted the accepted values, in words
 */
[[noreturn]] void
Refuse(const char* option, uint32_t value, const std::string& accepted)
{
    throw std::invalid_argument(std::string("SFQ ") + option + " " + std::to_string(value) +
                                " is invalid: " + accepted);
}

} // namespace

void
SfqParameters::Validate() const
{
    if (divisor == 0 || divisor > MAX_DIVISOR || (divisor & (divisor - 1)) != 0)
    {
        Refuse("divisor", divisor, "needs a power of two from 1 to 65536");
    }
    if (quantum == 0 || quantum > static_cast<uint32_t>(INT32_MAX))
    {
        Refuse("quantum", quantum, "needs 1 to 2147483647 bytes");
    }
    // iproute2 refuses limit 1, and the kernel too since "net_sched: sch_sfq: don't allow
    // 1 packet limit" (Dec 2024): the algorithm does not work with a one-packet limit.
    if (limit < 2)
    {
        Refuse("limit", limit, "needs at least 2 packets");
    }
    if (classic)
    {
        // The classic kernels had no such options: refuse them rather than ignore them.
        if (limit > CLASSIC_LIMIT)
        {
            Refuse("limit", limit, "classic SFQ holds 2 to 127 packets");
        }
        if (flows != CLASSIC_SLOTS)
        {
            Refuse("flows", flows, "classic SFQ has a fixed 128 slots; keep flows 128");
        }
        if (depth != MAX_DEPTH)
        {
            Refuse("depth", depth, "classic SFQ caps a flow at limit; keep depth 127");
        }
        if (headdrop)
        {
            throw std::invalid_argument("SFQ headdrop is not available in classic SFQ");
        }
        if (red)
        {
            throw std::invalid_argument("SFQ RED (redflowlimit) is not available in classic SFQ");
        }
        return;
    }
    if (depth == 0 || depth > MAX_DEPTH)
    {
        Refuse("depth", depth, "needs 1 to 127 packets per flow");
    }
    if (flows == 0 || flows > MAX_FLOWS || flows > divisor)
    {
        Refuse("flows",
               flows,
               "needs 1 to 65408 slots and at most divisor (" + std::to_string(divisor) + ")");
    }
    // "net_sched: sch_sfq: move the limit validation" (2025) checks the derived limit.
    if (GetEffectiveLimit() < 2)
    {
        Refuse("limit",
               limit,
               "the effective limit min(limit, depth * flows) = " +
                   std::to_string(GetEffectiveLimit()) + " needs at least 2 packets");
    }
    if (red)
    {
        Red::CheckParameters(*red);
    }
}

uint32_t
SfqParameters::GetEffectiveLimit() const
{
    return classic ? limit : std::min(limit, depth * flows);
}

uint32_t
SfqParameters::GetEffectiveFlows() const
{
    return classic ? CLASSIC_SLOTS : std::min(flows, GetEffectiveLimit());
}

uint32_t
SfqParameters::GetEffectiveDepth() const
{
    return classic ? limit : depth;
}

SfqScheduler::SfqScheduler(const SfqParameters& params, Red::RandomSource random, MarkCallback mark)
    : m_params(params)
{
    params.Validate();
    m_limit = params.GetEffectiveLimit();
    m_nSlots = params.GetEffectiveFlows();
    m_maxDepth = params.GetEffectiveDepth();
    m_mask = params.divisor - 1;
    m_quantum = static_cast<int32_t>(params.quantum);
    if (params.red)
    {
        m_red.emplace(*params.red, std::move(random));
        if (params.red->ecn && !mark)
        {
            throw std::invalid_argument("SFQ RED with ecn needs a mark callback");
        }
        m_mark = std::move(mark);
    }
    m_ht.assign(params.divisor, EMPTY);
    m_slots.resize(m_nSlots);
    m_depNext.resize(m_nSlots + SfqParameters::MAX_DEPTH + 1);
    m_depPrev.resize(m_depNext.size());
    for (uint32_t d = 0; d <= SfqParameters::MAX_DEPTH; d++)
    {
        m_depNext[DepHead(d)] = DepHead(d);
        m_depPrev[DepHead(d)] = DepHead(d);
    }
    for (uint32_t x = 0; x < m_nSlots; x++)
    {
        DepLink(x);
    }
    // limit + 1: a packet is appended before the limit check drops one.
    m_packets.resize(m_limit + 1);
    for (uint32_t i = 0; i < m_packets.size(); i++)
    {
        m_packets[i].next = i + 1 < m_packets.size() ? i + 1 : EMPTY;
    }
    m_freePacket = 0;
}

void
SfqScheduler::SetObserver(SfqObserver observer)
{
    m_observer = std::move(observer);
}

SfqScheduler::EnqueueResult
SfqScheduler::Enqueue(Handle handle, uint32_t length, uint32_t hash)
{
    EnqueueResult result;
    const uint32_t bucket = hash & m_mask;
    uint32_t x = m_ht[bucket];
    if (x == EMPTY)
    {
        x = AllocateSlot(bucket);
        if (x >= m_nSlots)
        {
            result.drop = Drop{handle, length, SfqDropReason::NO_FREE_SLOT, true};
            NotifyDrop(handle, length, bucket, NO_SLOT, SfqDropReason::NO_FREE_SLOT, true);
            return result;
        }
        Slot& slot = m_slots[x];
        slot.backlog = 0;
        Red::ResetVars(slot.vars);
    }
    else
    {
        Slot& slot = m_slots[x];
        std::optional<SfqDropReason> congestion;
        if (m_red)
        {
            congestion = RedEnqueue(x, handle, result);
        }
        if (!congestion && slot.qlen >= m_maxDepth)
        {
            congestion = SfqDropReason::FLOW_DEPTH;
        }
        if (congestion)
        {
            if (!m_params.headdrop)
            {
                result.drop = Drop{handle, length, *congestion, true};
                NotifyDrop(handle, length, bucket, x, *congestion, true);
                return result;
            }
            // The oldest packet goes and the new one takes its place: the slot's qlen,
            // its depth list and the qdisc's qlen do not change.
            const uint32_t head = SlotPopHead(slot);
            const uint32_t headLength = m_packets[head].length;
            slot.backlog = slot.backlog - headLength + length;
            m_backlog = m_backlog - headLength + length;
            result.drop = Drop{TakePacket(head), headLength, *congestion, false};
            SlotAppend(slot, PutPacket(handle, length));
            result.accepted = true;
            NotifyDrop(result.drop->handle, headLength, bucket, x, *congestion, false);
            return result;
        }
    }

    Slot& slot = m_slots[x];
    const uint32_t packet = PutPacket(handle, length);
    m_backlog += length;
    slot.backlog += length;
    SlotAppend(slot, packet);
    Inc(x);
    if (slot.qlen == 1)
    {
        JoinRound(x);
    }
    result.accepted = true;
    if (++m_qlen <= m_limit)
    {
        return result;
    }
    uint32_t victim = EMPTY;
    const uint32_t dropped = DropFromLongest(victim);
    const bool isNew = dropped == packet;
    result.accepted = !isNew;
    const uint32_t droppedLength = m_packets[dropped].length;
    result.drop = Drop{TakePacket(dropped), droppedLength, SfqDropReason::OVERLIMIT, isNew};
    NotifyDrop(result.drop->handle,
               droppedLength,
               m_slots[victim].bucket,
               victim,
               SfqDropReason::OVERLIMIT,
               isNew);
    return result;
}

std::optional<SfqScheduler::Handle>
SfqScheduler::Dequeue()
{
    if (m_tail == EMPTY)
    {
        return std::nullopt;
    }
    uint32_t a = m_slots[m_tail].next;
    while (m_slots[a].allot <= 0)
    {
        m_tail = a;
        m_slots[a].allot += m_quantum;
        a = m_slots[a].next;
    }
    Slot& slot = m_slots[a];
    const uint32_t packet = SlotPopHead(slot);
    const uint32_t length = m_packets[packet].length;
    Dec(a);
    m_qlen--;
    m_backlog -= length;
    slot.backlog -= length;
    if (slot.qlen == 0)
    {
        m_ht[slot.bucket] = EMPTY;
        m_activeFlows--;
        if (slot.next == a)
        {
            m_tail = EMPTY; // no more active slots
        }
        else
        {
            m_slots[m_tail].next = slot.next;
        }
    }
    else
    {
        slot.allot -= static_cast<int32_t>(length);
    }
    return TakePacket(packet);
}

void
SfqScheduler::Rehash(const HashCallback& newHash, const DropCallback& onDrop)
{
    if (m_params.classic)
    {
        throw std::logic_error("SFQ classic mode does not rehash queued packets: change the "
                               "hash key only");
    }
    // Pull out, reusing the packets' links for one list.
    uint32_t first = EMPTY;
    uint32_t last = EMPTY;
    for (uint32_t x = 0; x < m_nSlots; x++)
    {
        Slot& slot = m_slots[x];
        if (slot.qlen == 0)
        {
            continue;
        }
        while (slot.qlen != 0)
        {
            const uint32_t packet = SlotPopHead(slot);
            Dec(x);
            m_packets[packet].next = EMPTY;
            (last == EMPTY ? first : m_packets[last].next) = packet;
            last = packet;
        }
        slot.backlog = 0;
        Red::ResetVars(slot.vars);
        m_ht[slot.bucket] = EMPTY;
    }
    m_tail = EMPTY;
    m_activeFlows = 0;

    SfqRehashEvent counts;
    while (first != EMPTY)
    {
        const uint32_t packet = first;
        first = m_packets[packet].next;
        const uint32_t length = m_packets[packet].length;
        const uint32_t bucket = newHash(m_packets[packet].handle) & m_mask;
        uint32_t x = m_ht[bucket];
        std::optional<SfqDropReason> drop;
        if (x == EMPTY)
        {
            x = AllocateSlot(bucket);
            if (x >= m_nSlots)
            {
                drop = SfqDropReason::NO_FREE_SLOT;
            }
        }
        if (!drop && m_slots[x].qlen >= m_maxDepth)
        {
            drop = SfqDropReason::FLOW_DEPTH;
        }
        if (drop)
        {
            m_qlen--;
            m_backlog -= length;
            const Handle handle = TakePacket(packet);
            NotifyDrop(handle,
                       length,
                       bucket,
                       *drop == SfqDropReason::NO_FREE_SLOT ? NO_SLOT : x,
                       *drop,
                       false);
            counts.dropped++;
            onDrop(handle, length, *drop);
            continue;
        }
        Slot& slot = m_slots[x];
        SlotAppend(slot, packet);
        if (m_red)
        {
            // red_calc_qavg(): a slot never idles in SFQ, so this is the no-idle form.
            slot.vars.qavg = m_red->CalcQavgNoIdleTime(slot.vars, slot.backlog);
        }
        slot.backlog += length;
        Inc(x);
        if (slot.qlen == 1)
        {
            JoinRound(x);
        }
        counts.requeued++;
    }
    if (m_observer.onRehash)
    {
        m_observer.onRehash(counts);
    }
}

uint32_t
SfqScheduler::GetQlen() const
{
    return m_qlen;
}

uint64_t
SfqScheduler::GetBacklog() const
{
    return m_backlog;
}

uint32_t
SfqScheduler::GetActiveFlows() const
{
    return m_activeFlows;
}

std::optional<SfqFlowStats>
SfqScheduler::GetFlowStats(uint32_t bucket) const
{
    if (bucket > m_mask || m_ht[bucket] == EMPTY)
    {
        return std::nullopt;
    }
    const Slot& slot = m_slots[m_ht[bucket]];
    return SfqFlowStats{bucket, slot.qlen, slot.backlog, slot.allot};
}

void
SfqScheduler::ForEachActiveFlow(const FlowVisitor& visit) const
{
    for (uint32_t bucket = 0; bucket <= m_mask; bucket++)
    {
        if (m_ht[bucket] != EMPTY)
        {
            const Slot& slot = m_slots[m_ht[bucket]];
            visit(SfqFlowStats{bucket, slot.qlen, slot.backlog, slot.allot});
        }
    }
}

const SfqRedStats&
SfqScheduler::GetRedStats() const
{
    return m_redStats;
}

uint32_t
SfqScheduler::GetOverlimits() const
{
    return m_overlimits;
}

const SfqParameters&
SfqScheduler::GetParameters() const
{
    return m_params;
}

uint32_t
SfqScheduler::GetLimit() const
{
    return m_limit;
}

uint32_t
SfqScheduler::GetFlows() const
{
    return m_nSlots;
}

uint32_t
SfqScheduler::GetDepth() const
{
    return m_maxDepth;
}

uint32_t
SfqScheduler::DepHead(uint32_t d) const
{
    return m_nSlots + d;
}

void
SfqScheduler::DepLink(uint32_t x)
{
    const uint32_t head = DepHead(m_slots[x].qlen);
    const uint32_t n = m_depNext[head];
    m_depNext[x] = n;
    m_depPrev[x] = head;
    m_depNext[head] = x;
    m_depPrev[n] = x;
}

void
SfqScheduler::Dec(uint32_t x)
{
    const uint32_t n = m_depNext[x];
    const uint32_t p = m_depPrev[x];
    m_depNext[p] = n;
    m_depPrev[n] = p;
    const uint32_t d = m_slots[x].qlen--;
    if (n == p && m_curDepth == d)
    {
        m_curDepth--;
    }
    DepLink(x);
}

void
SfqScheduler::Inc(uint32_t x)
{
    const uint32_t n = m_depNext[x];
    const uint32_t p = m_depPrev[x];
    m_depNext[p] = n;
    m_depPrev[n] = p;
    const uint32_t d = ++m_slots[x].qlen;
    if (m_curDepth < d)
    {
        m_curDepth = d;
    }
    DepLink(x);
}

void
SfqScheduler::JoinRound(uint32_t x)
{
    Slot& slot = m_slots[x];
    if (m_tail == EMPTY)
    {
        slot.next = x;
        m_tail = x;
    }
    else
    {
        slot.next = m_slots[m_tail].next;
        m_slots[m_tail].next = x;
        if (!m_params.classic)
        {
            m_tail = x;
        }
    }
    slot.allot = m_quantum;
    m_activeFlows++;
}

std::optional<SfqDropReason>
SfqScheduler::RedEnqueue(uint32_t x, Handle handle, EnqueueResult& result)
{
    Slot& slot = m_slots[x];
    slot.vars.qavg = m_red->CalcQavgNoIdleTime(slot.vars, slot.backlog);
    const RedAction action = m_red->Action(slot.vars, slot.vars.qavg);
    if (action == RedAction::DONT_MARK)
    {
        return std::nullopt;
    }
    m_overlimits++;
    const RedParameters& red = m_red->GetParameters();
    const bool prob = action == RedAction::PROB_MARK;
    if (red.ecn && (prob || !red.harddrop))
    {
        const SfqMarkReason headReason =
            prob ? SfqMarkReason::PROB_MARK_HEAD : SfqMarkReason::FORCED_MARK_HEAD;
        const SfqMarkReason newReason =
            prob ? SfqMarkReason::PROB_MARK : SfqMarkReason::FORCED_MARK;
        if (m_params.headdrop && m_mark(m_packets[slot.head].handle, headReason))
        {
            (prob ? m_redStats.probMarkHead : m_redStats.forcedMarkHead)++;
            result.mark = headReason;
            if (m_observer.onMark)
            {
                m_observer.onMark(
                    SfqMarkEvent{m_packets[slot.head].handle, slot.bucket, x, headReason});
            }
            return std::nullopt;
        }
        if (m_mark(handle, newReason))
        {
            (prob ? m_redStats.probMark : m_redStats.forcedMark)++;
            result.mark = newReason;
            if (m_observer.onMark)
            {
                m_observer.onMark(SfqMarkEvent{handle, slot.bucket, x, newReason});
            }
            return std::nullopt;
        }
    }
    (prob ? m_redStats.probDrop : m_redStats.forcedDrop)++;
    return prob ? SfqDropReason::RED_PROB_DROP : SfqDropReason::RED_FORCED_DROP;
}

uint32_t
SfqScheduler::DropFromLongest(uint32_t& x)
{
    if (m_curDepth > 1)
    {
        x = m_depNext[DepHead(m_curDepth)];
    }
    else
    {
        // Every slot holds one packet: drop the one about to be served, and its slot
        // leaves the round.
        x = m_slots[m_tail].next;
        m_slots[m_tail].next = m_slots[x].next;
        m_ht[m_slots[x].bucket] = EMPTY;
        m_activeFlows--;
    }
    Slot& slot = m_slots[x];
    const uint32_t packet = m_params.headdrop ? SlotPopHead(slot) : SlotPopTail(slot);
    const uint32_t length = m_packets[packet].length;
    slot.backlog -= length;
    Dec(x);
    m_qlen--;
    m_backlog -= length;
    return packet;
}

void
SfqScheduler::SlotAppend(Slot& slot, uint32_t packet)
{
    m_packets[packet].next = EMPTY;
    m_packets[packet].prev = slot.tail;
    (slot.tail == EMPTY ? slot.head : m_packets[slot.tail].next) = packet;
    slot.tail = packet;
}

uint32_t
SfqScheduler::SlotPopHead(Slot& slot)
{
    const uint32_t packet = slot.head;
    slot.head = m_packets[packet].next;
    (slot.head == EMPTY ? slot.tail : m_packets[slot.head].prev) = EMPTY;
    return packet;
}

uint32_t
SfqScheduler::SlotPopTail(Slot& slot)
{
    const uint32_t packet = slot.tail;
    slot.tail = m_packets[packet].prev;
    (slot.tail == EMPTY ? slot.head : m_packets[slot.tail].next) = EMPTY;
    return packet;
}

void
SfqScheduler::NotifyDrop(Handle handle,
                         uint32_t length,
                         uint32_t bucket,
                         uint32_t x,
                         SfqDropReason reason,
                         bool isNew) const
{
    if (m_observer.onDrop)
    {
        m_observer.onDrop(SfqDropEvent{handle, length, bucket, x, reason, isNew});
    }
}

uint32_t
SfqScheduler::AllocateSlot(uint32_t bucket)
{
    const uint32_t x = m_depNext[DepHead(0)];
    if (x >= m_nSlots)
    {
        return x;
    }
    m_ht[bucket] = x;
    m_slots[x].bucket = bucket;
    if (m_observer.onSlotAllocated)
    {
        m_observer.onSlotAllocated(bucket, x);
    }
    return x;
}

uint32_t
SfqScheduler::PutPacket(Handle handle, uint32_t length)
{
    const uint32_t packet = m_freePacket;
    m_freePacket = m_packets[packet].next;
    m_packets[packet].handle = handle;
    m_packets[packet].length = length;
    return packet;
}

SfqScheduler::Handle
SfqScheduler::TakePacket(uint32_t packet)
{
    const Handle handle = m_packets[packet].handle;
    m_packets[packet].handle = 0;
    m_packets[packet].next = m_freePacket;
    m_freePacket = packet;
    return handle;
}

} // namespace debloat
} // namespace ns3
