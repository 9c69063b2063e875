/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cake-scheduler.h"

#include <algorithm>
#include <limits>

namespace ns3
{
namespace debloat
{

uint64_t
CakeEwma(uint64_t avg, uint64_t sample, uint32_t shift)
{
    avg -= avg >> shift;
    avg += sample >> shift;
    return avg;
}

CakeScheduler::CakeScheduler(const CakeConfig& config,
                             uint32_t mtu,
                             uint64_t seed,
                             MarkCallback mark,
                             DropCallback drop,
                             AckViewCallback ackView)
    : m_config(config),
      m_mtu(mtu),
      m_mark(std::move(mark)),
      m_drop(std::move(drop)),
      m_ackView(std::move(ackView)),
      m_tins(CAKE_MAX_TINS),
      m_heap(m_tins)
{
    // cake_init(): the heap (its constructor) and COBALT state zeroed.
    for (uint32_t i = 0; i < CAKE_MAX_TINS; ++i)
    {
        for (uint32_t j = 0; j < CAKE_QUEUES; ++j)
        {
            CobaltVarsInit(m_tins[i].flows[j].cvars);
        }
    }
    for (uint32_t i = 0; i <= CAKE_QUEUES; ++i)
    {
        m_quantumDiv[i] = static_cast<uint16_t>(CakeQuantumDiv(i));
    }
    m_prandom.Seed(seed);
    // Built once: constructing std::function objects per packet costs more than the calls.
    m_cobaltRandom = [this] { return m_prandom.Next(); };
    m_trySetCe = [this] {
        const Handle handle = m_nodes[m_markNode].handle;
        const bool marked = m_mark(handle);
        if (marked && m_observer.mark)
        {
            m_observer.mark(m_curTin, m_curFlow, handle);
        }
        return marked;
    };
    Reconfigure();
    m_avgPeakBandwidth = m_config.rate;
}

void
CakeScheduler::Seed(uint64_t seed)
{
    m_prandom.Seed(seed);
}

void
CakeScheduler::SetObserver(CakeObserver observer)
{
    m_observer = std::move(observer);
}

void
CakeScheduler::Drop(uint32_t tin, uint32_t queue, int32_t node, CakeDropReason reason)
{
    const uint32_t len = m_nodes[node].len;
    const Handle handle = m_nodes.Free(node);
    if (m_observer.drop)
    {
        m_observer.drop(tin, queue, handle, reason);
    }
    m_drop(handle, len, reason);
}

void
CakeScheduler::CheckDropState(uint32_t tin, uint32_t queue, const CakeFlow& flow, bool wasDropping)
{
    if (m_observer.dropState && flow.cvars.dropping != wasDropping)
    {
        m_observer.dropState(tin, queue, flow.cvars.dropping, flow.cvars.count);
    }
}

bool
CakeScheduler::NeedsFlowHash() const
{
    return CakeTinData::Has(m_config.flowMode, CakeFlowMode::FLOWS);
}

bool
CakeScheduler::NeedsHostHashes() const
{
    // Any host bit: srchost, dsthost, hosts and the dual and triple modes.
    return CakeTinData::Has(m_config.flowMode, CakeFlowMode::SRC_IP) ||
           CakeTinData::Has(m_config.flowMode, CakeFlowMode::DST_IP);
}

uint32_t
CakeScheduler::SelectTin(uint8_t dscp, bool isArp, uint32_t mark) const
{
    return CakeSelectTin(m_layout, dscp, isArp, mark, m_config.fwmark);
}

void
CakeScheduler::Reconfigure()
{
    // cake_reconfigure(): tins from the preset; the shaper runs at tin 0's rate (the
    // full-rate tin of every preset); tins beyond the preset keep tin 0's mtu_time.
    m_layout = CakeConfigureTins(m_config.diffserv,
                                 m_config.rate,
                                 m_mtu,
                                 m_config.targetNs,
                                 m_config.intervalNs);
    m_rate = m_layout.tins[0].shaper;
    m_bufferLimit =
        CakeBufferLimit(m_config.rate, m_config.intervalNs / 1000, m_config.memlimit, m_mtu);
}

void
CakeScheduler::SetRate(uint64_t rate)
{
    m_config.rate = rate;
    Reconfigure();
}

uint32_t
CakeScheduler::CalcOverhead(uint32_t len, uint32_t off)
{
    const uint32_t netlen = UsesNetworkOffset(m_config.linkLayer) ? len - off : len;
    m_maxNetlen = std::max(m_maxNetlen, netlen);
    m_minNetlen = std::min(m_minNetlen, netlen);
    const uint32_t adjusted = debloat::CalcOverhead(m_config.linkLayer, len, off);
    m_maxAdjlen = std::max(m_maxAdjlen, adjusted);
    m_minAdjlen = std::min(m_minAdjlen, adjusted);
    return adjusted;
}

uint32_t
CakeScheduler::Overhead(const CakePacketSize& size)
{
    // cake_overhead(): a GSO packet counts as its segments.
    m_avgNetoff =
        static_cast<uint32_t>(CakeEwma(m_avgNetoff, uint64_t{size.networkOffset} << 16, 8));
    if (size.gsoSize == 0)
    {
        return CalcOverhead(size.len, size.networkOffset);
    }
    const uint32_t segs = std::max<uint32_t>(size.gsoSegs, 1);
    const uint32_t full = size.gsoSize + size.gsoHeaderLen;
    const uint32_t last = size.len - size.gsoSize * (segs - 1);
    return CalcOverhead(full, size.networkOffset) * (segs - 1) +
           CalcOverhead(last, size.networkOffset);
}

int32_t
CakeScheduler::AckFilter(CakeFlow& flow)
{
    if (flow.head == flow.tail || !m_ackView)
    {
        return CAKE_NIL;
    }
    m_scratch.clear();
    for (int32_t node = flow.head; node != CAKE_NIL; node = m_nodes[node].next)
    {
        m_scratch.push_back(node);
    }
    const std::optional<size_t> victim =
        CakeAckFilter(m_config.ackFilter, m_scratch.size(), [this](size_t i) {
            return m_ackView(m_nodes[m_scratch[i]].handle);
        });
    if (!victim)
    {
        return CAKE_NIL;
    }
    // Unlink it (it is never the tail, the trigger).
    const int32_t node = m_scratch[*victim];
    if (*victim == 0)
    {
        flow.head = m_nodes[node].next;
    }
    else
    {
        m_nodes[m_scratch[*victim - 1]].next = m_nodes[node].next;
    }
    flow.qlen--;
    return node;
}

void
CakeScheduler::RefreshShaper(int64_t now, CakeTinData& tin)
{
    if (tin.stats.backlog != 0)
    {
        return;
    }
    // An idle tin, or an idle qdisc, must not keep credit or debt from the past.
    tin.stats.timeNextPacket = std::max(tin.stats.timeNextPacket, now);
    if (m_qlen == 0)
    {
        if (m_timeNextPacket < now)
        {
            m_failsafeNextPacket = now;
            m_timeNextPacket = now;
        }
        else if (m_timeNextPacket > now && m_failsafeNextPacket > now)
        {
            m_overlimits++;
            ScheduleWatchdog(std::min(m_timeNextPacket, m_failsafeNextPacket));
        }
    }
}

void
CakeScheduler::Enqueue(int64_t now,
                       const CakeClassification& where,
                       Handle handle,
                       CakePacketSize size,
                       bool segment)
{
    const uint32_t tinIndex = where.tin < m_layout.tinCount ? where.tin : 0;
    CakeTinData& tin = m_tins[tinIndex];
    const uint32_t queue = tin.Hash(where, m_config.flowMode);
    CakeFlow& flow = tin.flows[queue];

    RefreshShaper(now, tin);
    if (!segment)
    {
        tin.stats.maxSkbLen = std::max(tin.stats.maxSkbLen, size.len);
    }

    const int32_t node = m_nodes.Alloc();
    CakePacketPool::Node& n = m_nodes[node];
    n.handle = handle;
    n.enqueueTime = now;
    n.len = size.len;
    n.adjustedLen = Overhead(size);
    n.truesize = size.truesize;
    m_nodes.QueueAdd(flow, node);

    const int32_t ack =
        m_config.ackFilter != CakeAckFilterMode::NONE && !segment ? AckFilter(flow) : CAKE_NIL;
    // The kernel's len becomes this packet's length minus the dropped ACK's, which can be
    // negative: add and subtract instead, so that no unsigned counter wraps.
    uint32_t ackLen = 0;
    if (ack != CAKE_NIL)
    {
        // The new packet takes the dropped ACK's place in the counts.
        CakePacketPool::Node& a = m_nodes[ack];
        ackLen = a.len;
        tin.stats.ackDrops++;
        tin.stats.bytes += ackLen;
        m_bufferUsed += m_nodes[node].truesize;
        m_bufferUsed -= a.truesize;
        if (m_config.ingress)
        {
            AdvanceShaper(tin, tinIndex, a, now, true);
        }
        Drop(tinIndex, queue, ack, CakeDropReason::ACK_FILTER);
    }
    else
    {
        m_qlen++;
        m_bufferUsed += m_nodes[node].truesize;
    }
    tin.stats.packets++;
    tin.stats.bytes += size.len;
    tin.stats.bytes -= ackLen;
    tin.backlogs[queue] += size.len;
    tin.backlogs[queue] -= ackLen;
    tin.stats.backlog += size.len;
    tin.stats.backlog -= ackLen;
    m_backlog += size.len;
    m_backlog -= ackLen;
    m_avgWindowBytes += size.len;
    m_avgWindowBytes -= ackLen;
    AfterEnqueue(now, tin, tinIndex, queue);
}

void
CakeScheduler::RecordMaxLen(uint32_t tin, uint32_t len)
{
    CakeTinStats& stats = m_tins[tin < m_layout.tinCount ? tin : 0].stats;
    stats.maxSkbLen = std::max(stats.maxSkbLen, len);
}

void
CakeScheduler::AfterEnqueue(int64_t now, CakeTinData& tin, uint32_t tinIndex, uint32_t queue)
{
    CakeFlow& flow = tin.flows[queue];
    if (m_overflowTimeout)
    {
        m_heap.HeapifyUp(tin.overflowIdx[queue]);
    }

    // Incoming bandwidth capacity estimate.
    if (m_config.autorateIngress)
    {
        const uint64_t packetInterval =
            std::min<uint64_t>(static_cast<uint64_t>(now - m_lastPacketTime), 1000000000);
        // Filter out short-term bursts, e.g. wifi aggregation.
        m_avgPacketInterval = CakeEwma(m_avgPacketInterval,
                                       packetInterval,
                                       packetInterval > m_avgPacketInterval ? 2 : 8);
        m_lastPacketTime = now;
        if (packetInterval > m_avgPacketInterval)
        {
            const uint64_t window = static_cast<uint64_t>(now - m_avgWindowBegin);
            const uint64_t rate = window ? m_avgWindowBytes * 1000000000ULL / window : 0;
            m_avgPeakBandwidth =
                CakeEwma(m_avgPeakBandwidth, rate, rate > m_avgPeakBandwidth ? 2 : 8);
            m_avgWindowBytes = 0;
            m_avgWindowBegin = now;
            if (now > m_lastReconfigTime + 250000000)
            {
                SetRate((m_avgPeakBandwidth * 15) >> 4);
            }
        }
    }
    else
    {
        m_avgWindowBytes = 0;
        m_lastPacketTime = now;
    }

    // Flowchain: an idle or decaying flow becomes sparse with a fresh deficit.
    if (flow.set == CakeFlowSet::NONE || flow.set == CakeFlowSet::DECAYING)
    {
        if (flow.set == CakeFlowSet::DECAYING)
        {
            tin.stats.decayingFlows--;
        }
        tin.MoveTail(static_cast<int32_t>(queue), CakeListId::NEW);
        flow.set = CakeFlowSet::SPARSE;
        tin.stats.sparseFlows++;
        flow.deficit = GetFlowQuantum(tin, flow, m_layout.tins[tinIndex].flowQuantum, m_prandom);
    }
    else if (flow.set == CakeFlowSet::SPARSE_WAIT)
    {
        // Empty, counted sparse, but already in the bulk rotation.
        flow.set = CakeFlowSet::BULK;
        tin.stats.sparseFlows--;
        tin.stats.bulkFlows++;
        tin.IncSrcHostBulkFlowCount(flow, m_config.flowMode);
        tin.IncDstHostBulkFlowCount(flow, m_config.flowMode);
    }

    m_bufferMaxUsed = std::max(m_bufferMaxUsed, m_bufferUsed);
    if (m_bufferUsed > m_bufferLimit)
    {
        uint32_t dropped = 0;
        while (m_bufferUsed > m_bufferLimit)
        {
            dropped++;
            DropOverflow(now);
        }
        tin.stats.dropOverlimit += dropped;
    }
}

void
CakeScheduler::DropOverflow(int64_t now)
{
    if (!m_overflowTimeout)
    {
        // Build a fresh max-heap.
        m_heap.Build();
    }
    m_overflowTimeout = 65535;
    const CakeOverflowHeap::Entry top = m_heap.Top();
    CakeTinData& tin = m_tins[top.tin];
    CakeFlow& flow = tin.flows[top.queue];
    const int32_t node = m_nodes.DequeueHead(flow);
    if (node == CAKE_NIL)
    {
        // The heap has gone wrong: rebuild it next time. (Unreachable while
        // buffer_used > 0 means some queue holds a packet.)
        m_overflowTimeout = 0;
        return;
    }
    const bool wasDropping = flow.cvars.dropping;
    if (CobaltQueueFull(flow.cvars, m_layout.tins[top.tin].cparams, now))
    {
        tin.stats.unresponsiveFlows++;
    }
    CheckDropState(top.tin, top.queue, flow, wasDropping);
    const CakePacketPool::Node& n = m_nodes[node];
    m_bufferUsed -= n.truesize;
    tin.backlogs[top.queue] -= n.len;
    tin.stats.backlog -= n.len;
    m_backlog -= n.len;
    flow.dropped++;
    tin.stats.dropped++;
    if (m_config.ingress)
    {
        AdvanceShaper(tin, top.tin, n, now, true);
    }
    m_qlen--;
    Drop(top.tin, top.queue, node, CakeDropReason::OVERLIMIT);
    m_heap.Heapify(0);
}

uint32_t
CakeScheduler::AdvanceShaper(CakeTinData& tin,
                             uint32_t tinIndex,
                             const CakePacketPool::Node& node,
                             int64_t now,
                             bool drop)
{
    const uint32_t len = node.adjustedLen;
    if (m_rate.rateNs)
    {
        const CakeRate& tinRate = m_layout.tins[tinIndex].shaper;
        const auto tinDur = static_cast<int64_t>(TimeForBytes(tinRate, len));
        const auto globalDur = static_cast<int64_t>(TimeForBytes(m_rate, len));
        const int64_t failsafeDur = globalDur + (globalDur >> 1);
        // A lagging tin keeps its credit; a tin ahead of now moves to now + its duration.
        if (tin.stats.timeNextPacket < now)
        {
            tin.stats.timeNextPacket += tinDur;
        }
        else if (tin.stats.timeNextPacket < now + tinDur)
        {
            tin.stats.timeNextPacket = now + tinDur;
        }
        m_timeNextPacket += globalDur;
        if (!drop)
        {
            m_failsafeNextPacket += failsafeDur;
        }
    }
    return len;
}

int32_t
CakeScheduler::GetFlowQuantum(const CakeTinData& tin,
                              const CakeFlow& flow,
                              uint32_t flowQuantum,
                              Prandom& random) const
{
    const uint32_t hostLoad = tin.HostLoad(flow, m_config.flowMode);
    // get_random_u16(): the low 16 bits of one draw.
    return static_cast<int32_t>(CakeFlowQuantum(flowQuantum,
                                                m_quantumDiv[std::min(hostLoad, CAKE_QUEUES)],
                                                static_cast<uint16_t>(random.Next())));
}

void
CakeScheduler::Refill(const CakeTinData& tin, CakeFlow& flow, uint32_t flowQuantum, Prandom& random)
{
    flow.deficit += GetFlowQuantum(tin, flow, flowQuantum, random);
}

int32_t
CakeScheduler::DequeueOne()
{
    CakeTinData& tin = m_tins[m_curTin];
    CakeFlow& flow = tin.flows[m_curFlow];
    const int32_t node = m_nodes.DequeueHead(flow);
    if (node != CAKE_NIL)
    {
        const CakePacketPool::Node& n = m_nodes[node];
        tin.backlogs[m_curFlow] -= n.len;
        tin.stats.backlog -= n.len;
        m_backlog -= n.len;
        m_bufferUsed -= n.truesize;
        m_qlen--;
        if (m_overflowTimeout)
        {
            m_heap.Heapify(tin.overflowIdx[m_curFlow]);
        }
    }
    return node;
}

void
CakeScheduler::RetireEmptyFlow(CakeTinData& tin, int32_t index, int64_t now)
{
    CakeFlow& flow = tin.flows[index];
    // The queue was empty.
    const bool wasDropping = flow.cvars.dropping;
    if (CobaltQueueEmpty(flow.cvars, m_layout.tins[m_curTin].cparams, now))
    {
        tin.stats.unresponsiveFlows--;
    }
    CheckDropState(m_curTin, static_cast<uint32_t>(index), flow, wasDropping);
    if (flow.cvars.pDrop || flow.cvars.count || now < flow.cvars.dropNext)
    {
        // Keep it on the decaying list until its state comes to rest.
        tin.MoveTail(index, CakeListId::DECAYING);
        if (flow.set == CakeFlowSet::BULK)
        {
            tin.stats.bulkFlows--;
            tin.DecSrcHostBulkFlowCount(flow, m_config.flowMode);
            tin.DecDstHostBulkFlowCount(flow, m_config.flowMode);
            tin.stats.decayingFlows++;
        }
        else if (flow.set == CakeFlowSet::SPARSE || flow.set == CakeFlowSet::SPARSE_WAIT)
        {
            tin.stats.sparseFlows--;
            tin.stats.decayingFlows++;
        }
        flow.set = CakeFlowSet::DECAYING;
    }
    else
    {
        tin.Unlink(index);
        if (flow.set == CakeFlowSet::SPARSE || flow.set == CakeFlowSet::SPARSE_WAIT)
        {
            tin.stats.sparseFlows--;
        }
        else if (flow.set == CakeFlowSet::BULK)
        {
            tin.stats.bulkFlows--;
            tin.DecSrcHostBulkFlowCount(flow, m_config.flowMode);
            tin.DecDstHostBulkFlowCount(flow, m_config.flowMode);
        }
        else
        {
            tin.stats.decayingFlows--;
        }
        flow.set = CakeFlowSet::NONE;
    }
}

std::optional<CakeScheduler::Handle>
CakeScheduler::Dequeue(int64_t now)
{
    bool firstFlow = true;
    CakeTinData* tin = &m_tins[m_curTin];
    for (;;) // begin:
    {
        if (m_qlen == 0)
        {
            return std::nullopt;
        }
        // Global hard shaper.
        if (m_timeNextPacket > now && m_failsafeNextPacket > now)
        {
            m_overlimits++;
            ScheduleWatchdog(std::min(m_timeNextPacket, m_failsafeNextPacket));
            return std::nullopt;
        }
        // Choose a tin.
        if (!m_rate.rateNs)
        {
            // Unlimited: DRR between tins on tin_quantum.
            bool wrapped = false;
            bool empty = true;
            while (tin->stats.tinDeficit < 0 || !(tin->stats.sparseFlows + tin->stats.bulkFlows))
            {
                if (tin->stats.tinDeficit <= 0)
                {
                    tin->stats.tinDeficit += m_layout.tins[m_curTin].tinQuantum;
                }
                if (tin->stats.sparseFlows + tin->stats.bulkFlows)
                {
                    empty = false;
                }
                m_curTin++;
                if (m_curTin >= m_layout.tinCount)
                {
                    m_curTin = 0;
                    if (wrapped)
                    {
                        if (empty)
                        {
                            // Only decaying flows hold the qlen: nothing to send.
                            return std::nullopt;
                        }
                    }
                    else
                    {
                        wrapped = true;
                    }
                }
                tin = &m_tins[m_curTin];
            }
        }
        else
        {
            // Shaped: the highest tin that is due, else the earliest (ties: the higher).
            int64_t bestTime = std::numeric_limits<int64_t>::max();
            uint32_t best = 0;
            for (uint32_t t = 0; t < m_layout.tinCount; ++t)
            {
                const CakeTinData& candidate = m_tins[t];
                if (candidate.stats.sparseFlows + candidate.stats.bulkFlows > 0)
                {
                    const int64_t timeToPacket = candidate.stats.timeNextPacket - now;
                    if (timeToPacket <= 0 || timeToPacket <= bestTime)
                    {
                        bestTime = timeToPacket;
                        best = t;
                    }
                }
            }
            m_curTin = best;
            tin = &m_tins[best];
            if (!(tin->stats.sparseFlows + tin->stats.bulkFlows))
            {
                return std::nullopt;
            }
        }
        const CakeTin& config = m_layout.tins[m_curTin];

        bool restart = false;
        for (;;) // retry:
        {
            CakeFlowList* head = &tin->decayingFlows;
            if (!firstFlow || head->head == CAKE_NIL)
            {
                head = &tin->newFlows;
                if (head->head == CAKE_NIL)
                {
                    head = &tin->oldFlows;
                    if (head->head == CAKE_NIL)
                    {
                        head = &tin->decayingFlows;
                        if (head->head == CAKE_NIL)
                        {
                            restart = true;
                            break;
                        }
                    }
                }
            }
            const int32_t index = head->head;
            CakeFlow& flow = tin->flows[index];
            m_curFlow = static_cast<uint32_t>(index);
            firstFlow = false;

            // DRR++: a flow out of deficit goes to the old list with a new quantum, scaled
            // down by its hosts' bulk flow counts.
            if (flow.deficit <= 0)
            {
                if (flow.set == CakeFlowSet::SPARSE)
                {
                    if (flow.head != CAKE_NIL)
                    {
                        tin->stats.sparseFlows--;
                        tin->stats.bulkFlows++;
                        tin->IncSrcHostBulkFlowCount(flow, m_config.flowMode);
                        tin->IncDstHostBulkFlowCount(flow, m_config.flowMode);
                        flow.set = CakeFlowSet::BULK;
                    }
                    else
                    {
                        flow.set = CakeFlowSet::SPARSE_WAIT;
                    }
                }
                Refill(*tin, flow, config.flowQuantum, m_prandom);
                tin->MoveTail(index, CakeListId::OLD);
                // What the retry loop would do next, without its bookkeeping: when no new
                // flow waits, the old list's head is the next flow; one out of deficit (and
                // not sparse, whose first visit changes state) is refilled and rotated.
                // With host fairness a packet can take dozens of these steps.
                if (tin->newFlows.head == CAKE_NIL)
                {
                    // Locals for the generator and the list ends: the compiler keeps them in
                    // registers across the stores (nothing else changes the lists here).
                    CakeFlowList& old = tin->oldFlows;
                    Prandom random = m_prandom;
                    int32_t head = old.head;
                    int32_t tail = old.tail;
                    for (;;)
                    {
                        CakeFlow& next = tin->flows[head];
                        if (next.deficit > 0 || next.set == CakeFlowSet::SPARSE)
                        {
                            break;
                        }
                        Refill(*tin, next, config.flowQuantum, random);
                        // MoveTail(head, OLD): the rotation, written out.
                        if (head != tail)
                        {
                            const int32_t second = next.next;
                            tin->flows[second].prev = CAKE_NIL;
                            next.prev = tail;
                            next.next = CAKE_NIL;
                            tin->flows[tail].next = head;
                            tail = head;
                            head = second;
                        }
                    }
                    old.head = head;
                    old.tail = tail;
                    m_prandom = random;
                }
                continue;
            }

            // Retrieve a packet via the AQM.
            int32_t node = CAKE_NIL;
            bool retry = false;
            for (;;)
            {
                node = DequeueOne();
                if (node == CAKE_NIL)
                {
                    RetireEmptyFlow(*tin, index, now);
                    restart = true;
                    break;
                }
                CakePacketPool::Node& n = m_nodes[node];
                const uint32_t bulkFlows = m_config.ingress ? tin->stats.bulkFlows : 0;
                m_markNode = node;
                const bool wasDropping = flow.cvars.dropping;
                const CobaltVerdict verdict = CobaltShouldDrop(flow.cvars,
                                                               config.cparams,
                                                               now,
                                                               n.enqueueTime,
                                                               bulkFlows,
                                                               m_trySetCe,
                                                               m_cobaltRandom);
                CheckDropState(m_curTin, m_curFlow, flow, wasDropping);
                // The last packet of a queue may be marked but is never dropped.
                if (!CobaltIsDrop(verdict) || flow.head == CAKE_NIL)
                {
                    break;
                }
                if (m_config.ingress)
                {
                    const uint32_t len = AdvanceShaper(*tin, m_curTin, n, now, true);
                    flow.deficit -= static_cast<int32_t>(len);
                    tin->stats.tinDeficit -= static_cast<int32_t>(len);
                }
                flow.dropped++;
                tin->stats.dropped++;
                Drop(m_curTin,
                     m_curFlow,
                     node,
                     verdict == CobaltVerdict::DROP_FLOOD ? CakeDropReason::FLOOD
                                                          : CakeDropReason::CONGESTED);
                if (m_config.ingress)
                {
                    retry = true;
                    break;
                }
            }
            if (restart)
            {
                break;
            }
            if (retry)
            {
                continue;
            }

            CakePacketPool::Node& n = m_nodes[node];
            tin->stats.ecnMarked += flow.cvars.ecnMarked ? 1 : 0;
            const auto delay = static_cast<uint64_t>(now - n.enqueueTime);
            tin->stats.avgDelay = CakeEwma(tin->stats.avgDelay, delay, 8);
            tin->stats.peakDelay =
                CakeEwma(tin->stats.peakDelay, delay, delay > tin->stats.peakDelay ? 2 : 8);
            tin->stats.baseDelay =
                CakeEwma(tin->stats.baseDelay, delay, delay < tin->stats.baseDelay ? 2 : 8);
            const uint32_t len = AdvanceShaper(*tin, m_curTin, n, now, false);
            flow.deficit -= static_cast<int32_t>(len);
            tin->stats.tinDeficit -= static_cast<int32_t>(len);

            if (m_timeNextPacket > now && m_qlen)
            {
                ScheduleWatchdog(std::min(m_timeNextPacket, m_failsafeNextPacket));
            }
            else if (!m_qlen)
            {
                // Wake up to let decaying flows' AQM state come to rest.
                for (uint32_t t = 0; t < m_layout.tinCount; ++t)
                {
                    if (m_tins[t].stats.decayingFlows)
                    {
                        ScheduleWatchdog(now +
                                         static_cast<int64_t>(m_layout.tins[t].cparams.target));
                        break;
                    }
                }
            }
            if (m_overflowTimeout)
            {
                m_overflowTimeout--;
            }
            return m_nodes.Free(node);
        }
    }
}

void
CakeScheduler::ScheduleWatchdog(int64_t at)
{
    m_watchdog = at;
}

std::optional<int64_t>
CakeScheduler::TakeWatchdog()
{
    std::optional<int64_t> at = m_watchdog;
    m_watchdog.reset();
    return at;
}

const CakeTinLayout&
CakeScheduler::GetLayout() const
{
    return m_layout;
}

CakeTinStats
CakeScheduler::GetTinStats(uint32_t tin) const
{
    return m_tins.at(tin).stats;
}

uint32_t
CakeScheduler::GetQlen() const
{
    return m_qlen;
}

uint64_t
CakeScheduler::GetBacklog() const
{
    return m_backlog;
}

uint32_t
CakeScheduler::GetBufferLimit() const
{
    return m_bufferLimit;
}

uint32_t
CakeScheduler::GetBufferUsed() const
{
    return m_bufferUsed;
}

uint32_t
CakeScheduler::GetBufferMaxUsed() const
{
    return m_bufferMaxUsed;
}

uint64_t
CakeScheduler::GetCapacityEstimate() const
{
    return m_avgPeakBandwidth;
}

uint32_t
CakeScheduler::GetOverlimits() const
{
    return m_overlimits;
}

uint32_t
CakeScheduler::GetMinNetLen() const
{
    return m_minNetlen;
}

uint32_t
CakeScheduler::GetMaxNetLen() const
{
    return m_maxNetlen;
}

uint32_t
CakeScheduler::GetMinAdjLen() const
{
    return m_minAdjlen;
}

uint32_t
CakeScheduler::GetMaxAdjLen() const
{
    return m_maxAdjlen;
}

uint32_t
CakeScheduler::GetAvgNetOffset() const
{
    return (m_avgNetoff + 0x8000) >> 16;
}

CakeScheduler::FlowStats
CakeScheduler::GetFlowStats(uint32_t tin, uint32_t queue) const
{
    const CakeTinData& t = m_tins.at(tin);
    const CakeFlow& flow = t.flows.at(queue);
    FlowStats stats;
    stats.set = flow.set;
    stats.qlen = flow.qlen;
    stats.backlog = t.backlogs[queue];
    stats.dropped = flow.dropped;
    stats.deficit = flow.deficit;
    stats.cvars = flow.cvars;
    stats.srchost = flow.srchost;
    stats.dsthost = flow.dsthost;
    return stats;
}

std::pair<uint32_t, uint32_t>
CakeScheduler::GetHostBulkCounts(uint32_t tin, uint32_t host) const
{
    const CakeHost& h = m_tins.at(tin).hosts.at(host);
    return {h.srchostBulkFlows, h.dsthostBulkFlows};
}

} // namespace debloat
} // namespace ns3
