/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nic-tx-queue-tag.h"

namespace ns3
{
namespace debloat
{

NS_OBJECT_ENSURE_REGISTERED(NicTxQueueTag);

TypeId
NicTxQueueTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::NicTxQueueTag")
                            .SetParent<Tag>()
                            .SetGroupName("Debloat")
                            .AddConstructor<NicTxQueueTag>();
    return tid;
}

TypeId
NicTxQueueTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
NicTxQueueTag::GetSerializedSize() const
{
    return 2;
}

void
NicTxQueueTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU16(queue);
}

void
NicTxQueueTag::Deserialize(TagBuffer buffer)
{
    queue = buffer.ReadU16();
}

void
NicTxQueueTag::Print(std::ostream& os) const
{
    os << "txq=" << queue;
}

void
NicTxQueueTag::Set(Ptr<Packet> packet, uint16_t queue)
{
    NicTxQueueTag tag;
    tag.queue = queue;
    NicTxQueueTag old;
    if (packet->PeekPacketTag(old))
    {
        packet->ReplacePacketTag(tag);
    }
    else
    {
        packet->AddPacketTag(tag);
    }
}

bool
NicTxQueueTag::Take(Ptr<Packet> packet, uint16_t& queue)
{
    NicTxQueueTag tag;
    if (!packet->RemovePacketTag(tag))
    {
        return false;
    }
    queue = tag.queue;
    return true;
}

} // namespace debloat
} // namespace ns3
