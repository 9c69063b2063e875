/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "gso-tag.h"

#include "tsq-tag.h"

#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/node.h"
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

namespace
{

/// TCP's protocol number.
constexpr uint8_t IPPROTO_TCP_NUMBER = 6;

/**
 * The TCP part of tcp_gso_segment(): cuts a TCP packet into gso_size payloads behind
 * copies of its header, the sequence number advanced by the bytes before each, CWR only
 * on the first segment, FIN and PSH only on the last.
 * @param tcpPacket the TCP header and the payload (its GsoTag removed)
 * @param gsoSize payload bytes per segment, at least 1
 * @param emit called with each segment (TCP header included) and its index, in order
 * @tparam F the callback's type
 */
template <typename F>
void
CutTcpSegments(Ptr<Packet> tcpPacket, uint32_t gsoSize, F&& emit)
{
    TcpHeader tcp;
    tcpPacket->RemoveHeader(tcp);
    // tcp_gso_segment() gives every segment the socket's destructor: the charge is shared
    // out by payload, the last segment taking the rest, so the sum given back is the same.
    TsqTag tsq;
    const bool charged = tcpPacket->RemovePacketTag(tsq);
    uint32_t chargeLeft = tsq.GetBytes();
    const uint32_t total = tcpPacket->GetSize();
    const uint8_t flags = tcp.GetFlags();
    for (uint32_t offset = 0, index = 0; offset < total; offset += gsoSize, ++index)
    {
        const uint32_t length = std::min(gsoSize, total - offset);
        const bool last = offset + length == total;
        Ptr<Packet> segment = tcpPacket->CreateFragment(offset, length);
        if (charged)
        {
            const auto share =
                last
                    ? chargeLeft
                    : static_cast<uint32_t>(static_cast<uint64_t>(tsq.GetBytes()) * length / total);
            chargeLeft -= share;
            segment->AddPacketTag(TsqTag(tsq.GetLayer(), tsq.GetFlow(), share));
        }
        TcpHeader header = tcp;
        header.SetSequenceNumber(tcp.GetSequenceNumber() + offset);
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
        emit(segment, index);
    }
}

} // namespace

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
    if (protocol != IPPROTO_TCP_NUMBER)
    {
        return segments;
    }
    Ptr<Packet> packet = item->GetPacket()->Copy();
    packet->RemovePacketTag(gso);
    CutTcpSegments(packet, gso.GetGsoSize(), [&](Ptr<Packet> segment, uint32_t index) {
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
    });
    return segments;
}

std::vector<Ptr<Packet>>
GsoSegmentPacket(Ptr<const Packet> packet, uint16_t protocolNumber)
{
    std::vector<Ptr<Packet>> segments;
    GsoTag gso;
    if (!packet->PeekPacketTag(gso) || gso.GetGsoSize() == 0 ||
        (protocolNumber != Ipv4L3Protocol::PROT_NUMBER &&
         protocolNumber != Ipv6L3Protocol::PROT_NUMBER))
    {
        return segments;
    }
    Ptr<Packet> copy = packet->Copy();
    copy->RemovePacketTag(gso);
    const bool checksums = Node::ChecksumEnabled();
    if (protocolNumber == Ipv4L3Protocol::PROT_NUMBER)
    {
        Ipv4Header ip;
        copy->RemoveHeader(ip);
        if (ip.GetProtocol() != IPPROTO_TCP_NUMBER)
        {
            return segments;
        }
        CutTcpSegments(copy, gso.GetGsoSize(), [&](Ptr<Packet> segment, uint32_t index) {
            Ipv4Header header = ip;
            header.SetPayloadSize(static_cast<uint16_t>(segment->GetSize()));
            header.SetIdentification(static_cast<uint16_t>(ip.GetIdentification() + index));
            if (checksums)
            {
                header.EnableChecksum();
            }
            segment->AddHeader(header);
            segments.push_back(segment);
        });
        return segments;
    }
    Ipv6Header ip;
    copy->RemoveHeader(ip);
    if (ip.GetNextHeader() != IPPROTO_TCP_NUMBER)
    {
        return segments;
    }
    CutTcpSegments(copy, gso.GetGsoSize(), [&](Ptr<Packet> segment, uint32_t) {
        Ipv6Header header = ip;
        header.SetPayloadLength(static_cast<uint16_t>(segment->GetSize()));
        segment->AddHeader(header);
        segments.push_back(segment);
    });
    return segments;
}

} // namespace debloat
} // namespace ns3
