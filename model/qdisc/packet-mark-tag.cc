/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "packet-mark-tag.h"

#include "ns3/uinteger.h"

namespace ns3
{
namespace debloat
{

NS_OBJECT_ENSURE_REGISTERED(PacketMarkTag);

TypeId
PacketMarkTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::PacketMarkTag")
                            .SetParent<Tag>()
                            .SetGroupName("Debloat")
                            .AddConstructor<PacketMarkTag>()
                            .AddAttribute("Mark",
                                          "The mark (skb->mark)",
                                          UintegerValue(0),
                                          MakeUintegerAccessor(&PacketMarkTag::GetMark),
                                          MakeUintegerChecker<uint32_t>());
    return tid;
}

TypeId
PacketMarkTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

PacketMarkTag::PacketMarkTag(uint32_t mark)
    : m_mark(mark)
{
}

void
PacketMarkTag::SetMark(uint32_t mark)
{
    m_mark = mark;
}

uint32_t
PacketMarkTag::GetMark() const
{
    return m_mark;
}

uint32_t
PacketMarkTag::GetSerializedSize() const
{
    return sizeof(uint32_t);
}

void
PacketMarkTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU32(m_mark);
}

void
PacketMarkTag::Deserialize(TagBuffer buffer)
{
    m_mark = buffer.ReadU32();
}

void
PacketMarkTag::Print(std::ostream& os) const
{
    os << "mark=0x" << std::hex << m_mark << std::dec;
}

} // namespace debloat
} // namespace ns3
