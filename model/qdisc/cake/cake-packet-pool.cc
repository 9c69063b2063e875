/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cake-packet-pool.h"

namespace ns3
{
namespace debloat
{

int32_t
CakePacketPool::Alloc()
{
    if (m_free == CAKE_NIL)
    {
        m_nodes.emplace_back();
        return static_cast<int32_t>(m_nodes.size() - 1);
    }
    const int32_t node = m_free;
    m_free = m_nodes[node].next;
    return node;
}

uint32_t
CakePacketPool::Free(int32_t node)
{
    const uint32_t handle = m_nodes[node].handle;
    m_nodes[node].handle = 0;
    m_nodes[node].next = m_free;
    m_free = node;
    return handle;
}

void
CakePacketPool::QueueAdd(CakeFlow& flow, int32_t node)
{
    if (flow.head == CAKE_NIL)
    {
        flow.head = node;
    }
    else
    {
        m_nodes[flow.tail].next = node;
    }
    flow.tail = node;
    m_nodes[node].next = CAKE_NIL;
    flow.qlen++;
}

int32_t
CakePacketPool::DequeueHead(CakeFlow& flow)
{
    const int32_t node = flow.head;
    if (node != CAKE_NIL)
    {
        flow.head = m_nodes[node].next;
        if (flow.head == CAKE_NIL)
        {
            flow.tail = CAKE_NIL;
        }
        flow.qlen--;
    }
    return node;
}

} // namespace debloat
} // namespace ns3
