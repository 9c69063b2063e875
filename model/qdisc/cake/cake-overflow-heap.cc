/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cake-overflow-heap.h"

namespace ns3
{
namespace debloat
{

CakeOverflowHeap::CakeOverflowHeap(std::vector<CakeTinData>& tins)
    : m_tins(tins),
      m_heap(SIZE)
{
    for (uint32_t i = 0; i < CAKE_MAX_TINS; ++i)
    {
        for (uint32_t j = 0; j < CAKE_QUEUES; ++j)
        {
            const uint32_t k = j * CAKE_MAX_TINS + i;
            m_heap[k] = Entry{static_cast<uint16_t>(i), static_cast<uint16_t>(j)};
            m_tins[i].overflowIdx[j] = static_cast<uint16_t>(k);
        }
    }
}

CakeOverflowHeap::Entry
CakeOverflowHeap::Top() const
{
    return m_heap[0];
}

void
CakeOverflowHeap::Build()
{
    for (int32_t i = SIZE / 2; i >= 0; --i)
    {
        Heapify(static_cast<uint32_t>(i));
    }
}

void
CakeOverflowHeap::Swap(uint32_t i, uint32_t j)
{
    const Entry ii = m_heap[i];
    const Entry jj = m_heap[j];
    m_heap[i] = jj;
    m_heap[j] = ii;
    m_tins[ii.tin].overflowIdx[ii.queue] = static_cast<uint16_t>(j);
    m_tins[jj.tin].overflowIdx[jj.queue] = static_cast<uint16_t>(i);
}

uint32_t
CakeOverflowHeap::Backlog(uint32_t i) const
{
    const Entry e = m_heap[i];
    return m_tins[e.tin].backlogs[e.queue];
}

void
CakeOverflowHeap::Heapify(uint32_t i)
{
    const uint32_t a = SIZE;
    uint32_t mb = Backlog(i);
    uint32_t m = i;
    while (m < a)
    {
        const uint32_t l = m + m + 1;
        const uint32_t r = l + 1;
        if (l < a && Backlog(l) > mb)
        {
            m = l;
            mb = Backlog(l);
        }
        if (r < a && Backlog(r) > mb)
        {
            m = r;
            mb = Backlog(r);
        }
        if (m == i)
        {
            break;
        }
        Swap(i, m);
        i = m;
    }
}

void
CakeOverflowHeap::HeapifyUp(uint32_t i)
{
    while (i > 0 && i < SIZE)
    {
        const uint32_t p = (i - 1) >> 1;
        if (Backlog(i) <= Backlog(p))
        {
            break;
        }
        Swap(i, p);
        i = p;
    }
}

} // namespace debloat
} // namespace ns3
