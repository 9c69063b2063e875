/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nic-rx-queue-tag.h"

namespace ns3
{
namespace debloat
{

NS_OBJECT_ENSURE_REGISTERED(NicRxQueueTag);

TypeId
NicRxQueueTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::NicRxQueueTag")
                            .SetParent<Tag>()
                            .SetGroupName("Debloat")
                            .AddConstructor<NicRxQueueTag>();
    return tid;
}

TypeId
NicRxQueueTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
NicRxQueueTag::GetSerializedSize() const
{
    return 2;
}

void
NicRxQueueTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU16(queue);
}

void
NicRxQueueTag::Deserialize(TagBuffer buffer)
{
    queue = buffer.ReadU16();
}

void
NicRxQueueTag::Print(std::ostream& os) const
{
    os << "rxq=" << queue;
}

void
NicRxQueueTag::Record(Ptr<Packet> packet, uint16_t queue)
{
    NicRxQueueTag tag;
    tag.queue = queue;
    packet->ReplacePacketTag(tag); // adds the tag if the packet has none
}

bool
NicRxQueueTag::Get(Ptr<const Packet> packet, uint16_t& queue)
{
    NicRxQueueTag tag;
    if (!packet->PeekPacketTag(tag))
    {
        return false;
    }
    queue = tag.queue;
    return true;
}

} // namespace debloat
} // namespace ns3
