/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gro-segment-tag.h"

namespace ns3
{
namespace debloat
{

NS_OBJECT_ENSURE_REGISTERED(GroSegmentTag);

TypeId
GroSegmentTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::GroSegmentTag")
                            .SetParent<Tag>()
                            .SetGroupName("Debloat")
                            .AddConstructor<GroSegmentTag>();
    return tid;
}

TypeId
GroSegmentTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

GroSegmentTag::GroSegmentTag(uint16_t index, uint16_t count)
    : m_index(index),
      m_count(count)
{
}

uint16_t
GroSegmentTag::GetIndex() const
{
    return m_index;
}

uint16_t
GroSegmentTag::GetCount() const
{
    return m_count;
}

uint32_t
GroSegmentTag::GetSerializedSize() const
{
    return 4;
}

void
GroSegmentTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU16(m_index);
    buffer.WriteU16(m_count);
}

void
GroSegmentTag::Deserialize(TagBuffer buffer)
{
    m_index = buffer.ReadU16();
    m_count = buffer.ReadU16();
}

void
GroSegmentTag::Print(std::ostream& os) const
{
    os << "gro segment " << m_index << " of " << m_count;
}

} // namespace debloat
} // namespace ns3
