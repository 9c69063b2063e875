/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nic-gro.h"

#include "gro-segment-tag.h"
#include "gso-tag.h"
#include "tcp-socket-lookup.h"

#include "ns3/ethernet-header.h"
#include "ns3/flow-dissector.h"
#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/nic-net-device.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/psched.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NicGro");

namespace debloat
{

namespace
{
constexpr uint16_t ETH_P_IP = 0x0800;
constexpr uint16_t ETH_P_IPV6 = 0x86DD;
constexpr uint8_t IPPROTO_TCP = 6;

/// @param bytes 4 or 16 address bytes @return the IPv4 address
Ipv4Address
V4(const std::array<uint8_t, 16>& bytes)
{
    return Ipv4Address(uint32_t{bytes[0]} << 24 | uint32_t{bytes[1]} << 16 |
                       uint32_t{bytes[2]} << 8 | bytes[3]);
}

/// @param bytes 16 address bytes @return the IPv6 address
Ipv6Address
V6(const std::array<uint8_t, 16>& bytes)
{
    return Ipv6Address(const_cast<uint8_t*>(bytes.data()));
}
} // namespace

NicGro::NicGro(NicNetDevice& device, uint32_t groMaxSize)
    : m_device(device),
      m_gro(groMaxSize)
{
}

NicGro::~NicGro() = default;

void
NicGro::Parse(Ptr<const Packet> frame, GroSegment& s) const
{
    // Ethernet, an IPv6 header (40) or IPv4 (20), a TCP header of up to 60 bytes.
    uint8_t buf[ETH_HLEN + 40 + 60];
    const uint32_t n = frame->CopyData(buf, sizeof(buf));
    s.tcp = false;
    if (n < ETH_HLEN + 20)
    {
        return;
    }
    const uint16_t etherType = ReadBe16(buf + 12);
    const uint8_t* l3 = buf + ETH_HLEN;
    if (etherType == ETH_P_IP && l3[0] != 0x45)
    {
        return; // inet_gro_receive(): IPv4 options go up without GRO
    }
    if (etherType != ETH_P_IP && etherType != ETH_P_IPV6)
    {
        return;
    }
    FlowKeys keys;
    keys.etherType = etherType;
    if (!Dissect(l3, n - ETH_HLEN, keys) || keys.protocol != IPPROTO_TCP || keys.fragment ||
        keys.tcpHeaderLength == 0)
    {
        return;
    }
    s.ipv6 = keys.family == FlowKeys::Family::IPV6;
    if (s.ipv6 && keys.l4Offset != 40)
    {
        return; // extension headers: not modelled
    }
    s.hash = FlowHash(keys, m_device.m_hashSalt, 0);
    s.src = keys.source;
    s.dst = keys.destination;
    s.srcPort = keys.sourcePort;
    s.dstPort = keys.destinationPort;
    s.flowLabel = keys.flowLabel;
    s.tos = static_cast<uint8_t>(keys.dscp << 2 | keys.ecn);
    if (s.ipv6)
    {
        s.ttl = l3[7];
        s.df = false;
        s.id = 0;
    }
    else
    {
        s.ttl = l3[8];
        s.df = (l3[6] & 0x40) != 0;
        s.id = ReadBe16(l3 + 4);
    }
    const uint8_t* th = l3 + keys.l4Offset;
    s.seq = keys.tcpSequence;
    s.ack = keys.tcpAck;
    s.flags = static_cast<uint8_t>(keys.tcpFlags & 0xff);
    s.window = ReadBe16(th + 14);
    s.optionLength = static_cast<uint8_t>(keys.tcpHeaderLength - 20);
    std::copy(th + 20, th + keys.tcpHeaderLength, s.options.begin());
    std::fill(s.options.begin() + s.optionLength, s.options.end(), 0);
    s.headerLength = keys.l4Offset + keys.tcpHeaderLength;
    s.payloadLength = keys.payloadLength;
    s.tcp = true;
}

void
NicGro::Receive(Ptr<Packet> frame, int64_t nowNs)
{
    GroSegment s;
    Parse(frame, s);
    m_frame = frame;
    const TcpGro::Result result = m_gro.Receive(s, nowNs, *this);
    NS_LOG_LOGIC("frame of " << frame->GetSize() << " bytes: "
                             << (result == TcpGro::HELD     ? "held"
                                 : result == TcpGro::MERGED ? "merged"
                                                            : "normal")
                             << ", " << m_gro.GetHeld() << " held");
    m_frame = nullptr;
}

void
NicGro::Flush(bool flushOld, int64_t nowNs)
{
    if (m_gro.GetHeld() > 0)
    {
        NS_LOG_LOGIC("flush " << (flushOld ? "old" : "all") << " of " << m_gro.GetHeld());
        m_gro.Flush(flushOld, nowNs, *this);
    }
}

uint32_t
NicGro::GetHeld() const
{
    return m_gro.GetHeld();
}

void
NicGro::GroHeld(uint32_t slot)
{
    m_frames[slot].clear(); // keeps its capacity: no allocation per train
    m_frames[slot].push_back(m_frame);
}

void
NicGro::GroMerged(uint32_t slot)
{
    m_frames[slot].push_back(m_frame);
}

void
NicGro::GroNormal()
{
    m_device.DeliverUp(m_frame);
}

bool
NicGro::IsLocal(const GroSegment& first)
{
    if (!m_stackKnown)
    {
        Ptr<Node> node = m_device.GetNode();
        m_ipv4 = node ? node->GetObject<Ipv4>() : nullptr;
        m_ipv6 = node ? node->GetObject<Ipv6>() : nullptr;
        m_ipv4Interface = m_ipv4 ? m_ipv4->GetInterfaceForDevice(&m_device) : -1;
        m_stackKnown = true;
    }
    if (first.ipv6)
    {
        // A node without IPv6 cannot forward it either: pass it up whole.
        return !m_ipv6 || m_ipv6->GetInterfaceForAddress(V6(first.dst)) >= 0;
    }
    if (!m_ipv4 || m_ipv4Interface < 0)
    {
        return true;
    }
    return m_ipv4->IsDestinationAddress(V4(first.dst), static_cast<uint32_t>(m_ipv4Interface));
}

Ptr<Packet>
NicGro::Build(const std::vector<Ptr<Packet>>& frames, const GroPacket& p)
{
    const GroSegment& first = p.first;
    Ptr<Packet> headers = frames[0]->Copy();
    EthernetHeader eth(false);
    headers->RemoveHeader(eth);
    Ipv4Header ip4;
    Ipv6Header ip6;
    if (first.ipv6)
    {
        headers->RemoveHeader(ip6);
    }
    else
    {
        headers->RemoveHeader(ip4);
    }
    // The TCP header is read and written again only if tcp_gro_receive() ORed in a flag it
    // lacks (FIN, PSH) or checksums are on; otherwise its bytes stay as they are (a
    // TcpHeader would build an object per option).
    const bool checksums = Node::ChecksumEnabled();
    const bool rewrite = (p.orFlags & ~first.flags) != 0 || checksums;
    // Parse() takes IPv4 without options and IPv6 without extension headers only.
    const uint32_t tcpHeaderLength = 20 + first.optionLength;
    const uint32_t ipHeaderLength = first.headerLength - tcpHeaderLength;
    TcpHeader tcp;
    if (rewrite)
    {
        headers->RemoveHeader(tcp);
    }
    // The payloads: gso_size each, the last one the rest, behind the first frame's TCP
    // header unless it is written again. The first fragment keeps the first frame's packet
    // tags (the skb's metadata).
    const uint32_t offset = ETH_HLEN + first.headerLength;
    Ptr<Packet> merged =
        rewrite ? frames[0]->CreateFragment(offset, p.gsoSize)
                : frames[0]->CreateFragment(ETH_HLEN + ipHeaderLength, tcpHeaderLength + p.gsoSize);
    for (std::size_t i = 1; i < frames.size(); ++i)
    {
        const uint32_t length =
            i + 1 < frames.size() ? p.gsoSize : p.payload - p.gsoSize * (p.segments - 1);
        merged->AddAtEnd(frames[i]->CreateFragment(offset, length));
    }
    if (rewrite)
    {
        tcp.SetFlags(tcp.GetFlags() | p.orFlags);
    }
    if (first.ipv6)
    {
        if (rewrite)
        {
            if (checksums)
            {
                tcp.EnableChecksums();
                tcp.InitializeChecksum(ip6.GetSource(), ip6.GetDestination(), IPPROTO_TCP);
            }
            merged->AddHeader(tcp);
        }
        ip6.SetPayloadLength(merged->GetSize());
        merged->AddHeader(ip6);
    }
    else
    {
        if (rewrite)
        {
            if (checksums)
            {
                tcp.EnableChecksums();
                tcp.InitializeChecksum(ip4.GetSource(), ip4.GetDestination(), IPPROTO_TCP);
                ip4.EnableChecksum();
            }
            merged->AddHeader(tcp);
        }
        ip4.SetPayloadSize(merged->GetSize());
        merged->AddHeader(ip4);
    }
    merged->AddPacketTag(
        GsoTag(static_cast<uint16_t>(p.gsoSize), static_cast<uint16_t>(p.segments)));
    merged->AddHeader(eth);
    return merged;
}

Ptr<TcpSocketBase>
NicGro::SocketFor(uint32_t slot, const GroSegment& first)
{
    CachedSocket& cached = m_sockets[slot];
    if (cached.socket && TcpGro::SameFlow(cached.flow, first) &&
        cached.flow.dstPort == first.dstPort)
    {
        return cached.socket;
    }
    Ptr<TcpSocketBase> socket;
    if (first.ipv6)
    {
        socket = FindTcpSocket(m_device.GetNode(),
                               Inet6SocketAddress(V6(first.dst), first.dstPort),
                               Inet6SocketAddress(V6(first.src), first.srcPort));
    }
    else
    {
        socket = FindTcpSocket(m_device.GetNode(),
                               InetSocketAddress(V4(first.dst), first.dstPort),
                               InetSocketAddress(V4(first.src), first.srcPort));
    }
    // Only a found socket is kept: a connection not yet in the list is looked up again.
    if (socket)
    {
        cached.flow = first;
        cached.socket = socket;
    }
    return socket;
}

void
NicGro::GroComplete(uint32_t slot, const GroPacket& p)
{
    std::vector<Ptr<Packet>>& frames = m_frames[slot];
    NS_ASSERT_MSG(frames.size() == p.segments,
                  "NicGro: slot " << slot << " holds " << frames.size() << " frames, GRO "
                                  << p.segments);
    m_device.m_groReceiveTrace(p.segments, p.length);
    if (p.segments == 1)
    {
        // napi_gro_complete(): count 1 goes up as it came (gso_size 0).
        NS_LOG_LOGIC("complete: one segment of " << p.payload << " bytes");
        m_device.DeliverUp(frames[0]);
        frames.clear();
        return;
    }
    m_device.m_stats.groPackets++;
    m_device.m_stats.groSegments += p.segments;
    uint64_t wireBytes = 0;
    for (const auto& f : frames)
    {
        wireBytes += f->GetSize();
    }
    if (!IsLocal(p.first))
    {
        NS_LOG_LOGIC("complete: " << p.segments << " segments, forwarded as GRO segments");
        for (uint32_t i = 0; i < p.segments; ++i)
        {
            Ptr<Packet> segment = frames[i]->Copy();
            segment->AddPacketTag(
                GroSegmentTag(static_cast<uint16_t>(i), static_cast<uint16_t>(p.segments)));
            m_device.DeliverUp(segment);
        }
        frames.clear();
        return;
    }
    Ptr<Packet> merged = Build(frames, p);
    NS_LOG_LOGIC("complete: " << p.segments << " segments, " << p.length << " bytes, gso_size "
                              << p.gsoSize << " delivered whole");
    Ptr<TcpSocketBase> socket = SocketFor(slot, p.first);
    frames.clear();
    if (!socket)
    {
        m_device.DeliverUp(merged, p.segments, wireBytes);
        return;
    }
    // __tcp_ack_snd_check(): more than one full-sized segment received: ACK now.
    UintegerValue delAck;
    socket->GetAttribute("DelAckCount", delAck);
    socket->SetAttribute("DelAckCount", UintegerValue(1));
    m_device.DeliverUp(merged, p.segments, wireBytes);
    socket->SetAttribute("DelAckCount", delAck);
}

} // namespace debloat
} // namespace ns3
