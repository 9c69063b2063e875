/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gso-tag.h"

#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/tcp-header.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

NS_OBJECT_ENSURE_REGISTERED(GsoTag);

TypeId
GsoTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::GsoTag")
                            .SetParent<Tag>()
                            .SetGroupName("Debloat")
                            .AddConstructor<GsoTag>();
    return tid;
}

TypeId
GsoTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

GsoTag::GsoTag(uint16_t gsoSize, uint16_t gsoSegs)
    : m_gsoSize(gsoSize),
      m_gsoSegs(gsoSegs)
{
}

uint16_t
GsoTag::GetGsoSize() const
{
    return m_gsoSize;
}

uint16_t
GsoTag::GetGsoSegs() const
{
    return m_gsoSegs;
}

uint32_t
GsoTag::GetSerializedSize() const
{
    return 4;
}

void
GsoTag::Serialize(TagBuffer buffer) const
{
    buffer.WriteU16(m_gsoSize);
    buffer.WriteU16(m_gsoSegs);
}

void
GsoTag::Deserialize(TagBuffer buffer)
{
    m_gsoSize = buffer.ReadU16();
    m_gsoSegs = buffer.ReadU16();
}

void
GsoTag::Print(std::ostream& os) const
{
    os << "gso_size=" << m_gsoSize << " gso_segs=" << m_gsoSegs;
}

std::vector<Ptr<QueueDiscItem>>
GsoSegment(Ptr<const QueueDiscItem> item)
{
    std::vector<Ptr<QueueDiscItem>> segments;
    GsoTag gso;
    if (!item->GetPacket()->PeekPacketTag(gso) || gso.GetGsoSize() == 0)
    {
        return segments;
    }
    auto ip4 = DynamicCast<const Ipv4QueueDiscItem>(item);
    auto ip6 = DynamicCast<const Ipv6QueueDiscItem>(item);
    const uint8_t protocol =
        ip4 ? ip4->GetHeader().GetProtocol() : (ip6 ? ip6->GetHeader().GetNextHeader() : 0);
    if (protocol != 6)
    {
        return segments;
    }
    Ptr<Packet> packet = item->GetPacket()->Copy();
    packet->RemovePacketTag(gso);
    TcpHeader tcp;
    packet->RemoveHeader(tcp);
    const uint32_t total = packet->GetSize();
    const uint8_t flags = tcp.GetFlags();
    for (uint32_t offset = 0, index = 0; offset < total; offset += gso.GetGsoSize(), ++index)
    {
        const uint32_t length = std::min<uint32_t>(gso.GetGsoSize(), total - offset);
        const bool last = offset + length == total;
        Ptr<Packet> segment = packet->CreateFragment(offset, length);
        TcpHeader header = tcp;
        header.SetSequenceNumber(tcp.GetSequenceNumber() + offset);
        // tcp_gso_segment(): CWR on the first segment only, FIN and PSH on the last only.
        uint8_t segmentFlags = flags;
        if (index > 0)
        {
            segmentFlags &= ~TcpHeader::CWR;
        }
        if (!last)
        {
            segmentFlags &= ~(TcpHeader::FIN | TcpHeader::PSH);
        }
        header.SetFlags(segmentFlags);
        segment->AddHeader(header);
        if (ip4)
        {
            Ipv4Header ip = ip4->GetHeader();
            ip.SetPayloadSize(static_cast<uint16_t>(segment->GetSize()));
            ip.SetIdentification(static_cast<uint16_t>(ip.GetIdentification() + index));
            segments.push_back(
                Create<Ipv4QueueDiscItem>(segment, item->GetAddress(), item->GetProtocol(), ip));
        }
        else
        {
            Ipv6Header ip = ip6->GetHeader();
            ip.SetPayloadLength(static_cast<uint16_t>(segment->GetSize()));
            segments.push_back(
                Create<Ipv6QueueDiscItem>(segment, item->GetAddress(), item->GetProtocol(), ip));
        }
    }
    return segments;
}

} // namespace debloat
} // namespace ns3
