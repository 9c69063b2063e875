/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "descriptor-ring.h"

namespace ns3
{
namespace debloat
{

DescriptorRing::DescriptorRing(uint32_t size)
    : m_slots(size)
{
}

bool
DescriptorRing::Post(Item item, uint32_t descriptors, uint32_t bytes)
{
    if (descriptors == 0 || descriptors > GetUnused() || m_packets == m_slots.size())
    {
        return false;
    }
    Slot& slot = m_slots[Index(m_packets)];
    slot.item = item;
    slot.descriptors = descriptors;
    slot.bytes = bytes;
    m_packets++;
    m_usedDescriptors += descriptors;
    m_bytes += bytes;
    return true;
}

DescriptorRing::Item
DescriptorRing::Fetch()
{
    const Slot& slot = m_slots[Index(m_done + m_fetched)];
    m_fetched++;
    return slot.item;
}

void
DescriptorRing::MarkDone()
{
    m_fetched--;
    m_done++;
}

} // namespace debloat
} // namespace ns3
