/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tsq-tag.h"

namespace ns3
{
namespace debloat
{

NS_OBJECT_ENSURE_REGISTERED(TsqTag);

TypeId
TsqTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::TsqTag")
                            .SetParent<Tag>()
                            .SetGroupName("Debloat")
                            .AddConstructor<TsqTag>();
    return tid;
}

TypeId
TsqTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

TsqTag::TsqTag(uint32_t layer, uint32_t flow, uint32_t bytes)
    : m_layer(layer),
      m_flow(flow),
      m_bytes(bytes)
{
}

uint32_t
TsqTag::GetLayer() const
{
    return m_layer;
}

uint32_t
TsqTag::GetFlow() const
{
    return m_flow;
}

uint32_t
TsqTag::GetBytes() const
{
    return m_bytes;
}

uint32_t
TsqTag::GetSerializedSize() const
{
    return 12;
}

void
TsqTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU32(m_layer);
    buffer.WriteU32(m_flow);
    buffer.WriteU32(m_bytes);
}

void
TsqTag::Deserialize(TagBuffer buffer)
{
    m_layer = buffer.ReadU32();
    m_flow = buffer.ReadU32();
    m_bytes = buffer.ReadU32();
}

void
TsqTag::Print(std::ostream& os) const
{
    os << "tsq layer=" << m_layer << " flow=" << m_flow << " truesize=" << m_bytes;
}

} // namespace debloat
} // namespace ns3
