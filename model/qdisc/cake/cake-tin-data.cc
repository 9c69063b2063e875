/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cake-tin-data.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

namespace
{

/**
 * The body of the kernel's four bulk flow count helpers, increment side.
 * @param count srchost_bulk_flow_count or dsthost_bulk_flow_count
 * @param kept cake_dsrc() or cake_ddst() of the flow mode
 */
void
IncBulkFlowCount(uint16_t& count, bool kept)
{
    if (kept && count < CAKE_QUEUES)
    {
        count++;
    }
}

/**
 * The decrement side.
 * @param count srchost_bulk_flow_count or dsthost_bulk_flow_count
 * @param kept cake_dsrc() or cake_ddst() of the flow mode
 */
void
DecBulkFlowCount(uint16_t& count, bool kept)
{
    if (kept && count)
    {
        count--;
    }
}

} // namespace

void
CakeTinData::IncSrcHostBulkFlowCount(const CakeFlow& flow, CakeFlowMode mode)
{
    IncBulkFlowCount(hosts[flow.srchost].srchostBulkFlows, Dsrc(mode));
}

void
CakeTinData::DecSrcHostBulkFlowCount(const CakeFlow& flow, CakeFlowMode mode)
{
    DecBulkFlowCount(hosts[flow.srchost].srchostBulkFlows, Dsrc(mode));
}

void
CakeTinData::IncDstHostBulkFlowCount(const CakeFlow& flow, CakeFlowMode mode)
{
    IncBulkFlowCount(hosts[flow.dsthost].dsthostBulkFlows, Ddst(mode));
}

void
CakeTinData::DecDstHostBulkFlowCount(const CakeFlow& flow, CakeFlowMode mode)
{
    DecBulkFlowCount(hosts[flow.dsthost].dsthostBulkFlows, Ddst(mode));
}

uint32_t
CakeTinData::AllocateHost(uint32_t hash, uint32_t CakeHost::* tag, uint16_t CakeHost::* bulk)
{
    const uint32_t index = hash % CAKE_QUEUES;
    const uint32_t hostInner = index % CAKE_SET_WAYS;
    const uint32_t hostOuter = index - hostInner;
    uint32_t way = hostInner;
    for (uint32_t i = 0; i < CAKE_SET_WAYS; ++i, way = (way + 1) % CAKE_SET_WAYS)
    {
        if (hosts[hostOuter + way].*tag == hash)
        {
            return hostOuter + way;
        }
    }
    for (uint32_t i = 0; i < CAKE_SET_WAYS; ++i, way = (way + 1) % CAKE_SET_WAYS)
    {
        if (!(hosts[hostOuter + way].*bulk))
        {
            break;
        }
    }
    hosts[hostOuter + way].*tag = hash;
    return hostOuter + way;
}

uint32_t
CakeTinData::Hash(const CakeClassification& where, CakeFlowMode mode)
{
    if (mode == CakeFlowMode::NONE)
    {
        return 0;
    }
    uint32_t flowHash = Has(mode, CakeFlowMode::FLOWS) ? where.flowHash : 0;
    const auto bits = static_cast<uint8_t>(mode);
    if (!(bits & static_cast<uint8_t>(CakeFlowMode::FLOWS)))
    {
        // srchost, dsthost, hosts: one queue per host (pair).
        if (bits & static_cast<uint8_t>(CakeFlowMode::SRC_IP))
        {
            flowHash ^= where.srcHostHash;
        }
        if (bits & static_cast<uint8_t>(CakeFlowMode::DST_IP))
        {
            flowHash ^= where.dstHostHash;
        }
    }
    uint32_t reduced = flowHash % CAKE_QUEUES;
    if (tags[reduced] == flowHash && flows[reduced].set != CakeFlowSet::NONE)
    {
        stats.wayDirects++;
        return reduced;
    }
    uint32_t inner = reduced % CAKE_SET_WAYS;
    uint32_t outer = reduced - inner;
    bool allocateSrc = false;
    bool allocateDst = false;
    uint32_t k = inner;
    bool found = false;
    // A queue of the set already reserved for this flow?
    for (uint32_t i = 0; i < CAKE_SET_WAYS; ++i, k = (k + 1) % CAKE_SET_WAYS)
    {
        if (tags[outer + k] == flowHash)
        {
            if (i)
            {
                stats.wayHits++;
            }
            if (flows[outer + k].set == CakeFlowSet::NONE)
            {
                allocateSrc = Dsrc(mode);
                allocateDst = Ddst(mode);
            }
            found = true;
            break;
        }
    }
    if (!found)
    {
        // An idle queue of the set?
        for (uint32_t i = 0; i < CAKE_SET_WAYS; ++i, k = (k + 1) % CAKE_SET_WAYS)
        {
            if (flows[outer + k].set == CakeFlowSet::NONE)
            {
                stats.wayMisses++;
                allocateSrc = Dsrc(mode);
                allocateDst = Ddst(mode);
                found = true;
                break;
            }
        }
    }
    if (!found)
    {
        // All eight busy: share the original queue (k is back at inner, outer + k is
        // reduced) and retag its hosts, first taking a bulk flow out of its old hosts'
        // counts.
        stats.wayCollisions++;
        if (flows[outer + k].set == CakeFlowSet::BULK)
        {
            DecSrcHostBulkFlowCount(flows[reduced], mode);
            DecDstHostBulkFlowCount(flows[reduced], mode);
        }
        allocateSrc = Dsrc(mode);
        allocateDst = Ddst(mode);
    }
    reduced = outer + k;
    tags[reduced] = flowHash;
    CakeFlow& flow = flows[reduced];

    if (allocateSrc)
    {
        const uint32_t hash =
            where.keys ? SourceHostHash(*where.keys, where.key0, where.key1) : where.srcHostHash;
        flow.srchost = static_cast<uint16_t>(
            AllocateHost(hash, &CakeHost::srchostTag, &CakeHost::srchostBulkFlows));
        if (flow.set == CakeFlowSet::BULK)
        {
            IncSrcHostBulkFlowCount(flow, mode);
        }
    }
    if (allocateDst)
    {
        const uint32_t hash = where.keys ? DestinationHostHash(*where.keys, where.key0, where.key1)
                                         : where.dstHostHash;
        flow.dsthost = static_cast<uint16_t>(
            AllocateHost(hash, &CakeHost::dsthostTag, &CakeHost::dsthostBulkFlows));
        if (flow.set == CakeFlowSet::BULK)
        {
            IncDstHostBulkFlowCount(flow, mode);
        }
    }
    return reduced;
}

CakeFlowList&
CakeTinData::ListOf(CakeListId list)
{
    switch (list)
    {
    case CakeListId::NEW:
        return newFlows;
    case CakeListId::OLD:
        return oldFlows;
    default:
        return decayingFlows;
    }
}

void
CakeTinData::Unlink(int32_t index)
{
    CakeFlow& flow = flows[index];
    if (flow.list == CakeListId::NONE)
    {
        return;
    }
    CakeFlowList& list = ListOf(flow.list);
    (flow.prev == CAKE_NIL ? list.head : flows[flow.prev].next) = flow.next;
    (flow.next == CAKE_NIL ? list.tail : flows[flow.next].prev) = flow.prev;
    flow.prev = CAKE_NIL;
    flow.next = CAKE_NIL;
    flow.list = CakeListId::NONE;
}

void
CakeTinData::MoveTail(int32_t index, CakeListId to)
{
    CakeFlow& flow = flows[index];
    CakeFlowList& list = ListOf(to);
    if (flow.list == to && list.head == index)
    {
        // The DRR rotation (head to tail of the same list), the hot case.
        if (list.tail != index)
        {
            list.head = flow.next;
            flows[flow.next].prev = CAKE_NIL;
            flow.prev = list.tail;
            flow.next = CAKE_NIL;
            flows[list.tail].next = index;
            list.tail = index;
        }
        return;
    }
    Unlink(index);
    flow.prev = list.tail;
    flow.next = CAKE_NIL;
    (list.tail == CAKE_NIL ? list.head : flows[list.tail].next) = index;
    list.tail = index;
    flow.list = to;
}

} // namespace debloat
} // namespace ns3
