/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/core/gro.c, net/ipv4/af_inet.c, net/ipv6/ip6_offload.c, include/net/gro.h
 * and net/ipv4/tcp_offload.c of Linux 6.12 to 6.18.
 */

#include "tcp-gro.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

TcpGro::TcpGro(uint32_t groMaxSize)
    : m_limit(std::min(groMaxSize, GRO_LEGACY_MAX_SIZE))
{
}

bool
TcpGro::SameFlow(const GroSegment& a, const GroSegment& b)
{
    // gro_list_prepare() (hash), inet_gro_receive()/ipv6_gro_receive() (protocol,
    // addresses, flow label), tcp_gro_lookup() (ports).
    return a.hash == b.hash && a.ipv6 == b.ipv6 && a.src == b.src && a.dst == b.dst &&
           a.srcPort == b.srcPort && a.dstPort == b.dstPort && a.flowLabel == b.flowLabel;
}

bool
TcpGro::MustFlush(const GroPacket& p, const GroSegment& s) const
{
    const GroSegment& h = p.first;
    // tcp_flag_word(): flags other than FIN and PSH, the data offset and the window.
    const uint8_t keep = GroSegment::FIN | GroSegment::PSH;
    bool flush = ((s.flags ^ h.flags) & ~keep) != 0;
    flush |= s.optionLength != h.optionLength || s.window != h.window;
    flush |= s.ack != h.ack;
    flush |= !std::equal(s.options.begin(), s.options.begin() + s.optionLength, h.options.begin());
    // gro_receive_network_flush()
    if (s.ipv6)
    {
        // ipv6_gro_flush(): traffic class and hop limit
        flush |= s.tos != h.tos || s.ttl != h.ttl;
    }
    else
    {
        // inet_gro_flush(): tos, ttl, DF; the ID advances by the segments held unless the
        // flow keeps a fixed ID (DF set and the second segment repeating the first's ID).
        flush |= s.tos != h.tos || s.ttl != h.ttl || s.df != h.df;
        const uint16_t idOffset = static_cast<uint16_t>(s.id - h.id);
        const bool fixedId = p.fixedId || (p.segments == 1 && s.df && idOffset == 0);
        if (fixedId && s.df)
        {
            flush |= idOffset != 0;
        }
        else
        {
            flush |= idOffset != static_cast<uint16_t>(p.segments);
        }
    }
    // Not longer than the held gso_size: (len - 1) >= mss, unsigned (a pure ACK flushes).
    flush |= s.payloadLength - 1 >= p.gsoSize;
    // Contiguous: th2->seq + skb_gro_len(p) == th->seq
    flush |= h.seq + p.payload != s.seq;
    // skb_gro_receive(): p->len + len >= gro_max_size refuses the merge
    flush |= p.length + s.payloadLength >= m_limit;
    return flush;
}

void
TcpGro::Complete(Bucket& bucket, uint32_t pos, Listener& listener)
{
    const uint32_t slot = bucket.order[pos];
    for (uint32_t i = pos; i + 1 < bucket.count; ++i)
    {
        bucket.order[i] = bucket.order[i + 1];
    }
    bucket.count--;
    m_held--;
    m_used[slot] = false;
    listener.GroComplete(slot, m_slots[slot]);
}

TcpGro::Result
TcpGro::Receive(const GroSegment& s, int64_t nowNs, Listener& listener)
{
    if (!s.tcp)
    {
        // No gro_receive callback for the protocol (or an IPv4 header GRO does not parse):
        // GRO_NORMAL, held packets stay.
        listener.GroNormal();
        return NORMAL;
    }
    const uint32_t b = s.hash & (GRO_HASH_BUCKETS - 1);
    Bucket& bucket = m_buckets[b];
    // tcp_gro_lookup(): the first same-flow packet of the list (youngest first)
    uint32_t pos = bucket.count;
    for (uint32_t i = 0; i < bucket.count; ++i)
    {
        if (SameFlow(m_slots[bucket.order[i]].first, s))
        {
            pos = i;
            break;
        }
    }
    const uint8_t finalFlags =
        GroSegment::URG | GroSegment::PSH | GroSegment::RST | GroSegment::SYN | GroSegment::FIN;
    uint32_t mss = 1;
    bool merged = false;
    if (pos < bucket.count)
    {
        GroPacket& p = m_slots[bucket.order[pos]];
        if (!MustFlush(p, s))
        {
            // skb_gro_receive() and the FIN/PSH OR of tcp_gro_receive()
            mss = p.gsoSize;
            p.segments++;
            p.payload += s.payloadLength;
            p.length += s.payloadLength;
            p.orFlags |= s.flags & (GroSegment::FIN | GroSegment::PSH);
            if (p.segments == 2 && !p.fixedId && s.df && s.id == p.first.id)
            {
                p.fixedId = true;
            }
            merged = true;
            listener.GroMerged(bucket.order[pos]);
        }
    }
    // out_check_final: a short segment or a final flag completes
    const bool flush = s.payloadLength < mss || (s.flags & finalFlags) != 0;
    if (pos < bucket.count && (!merged || flush))
    {
        Complete(bucket, pos, listener);
    }
    if (merged)
    {
        return MERGED;
    }
    if (flush)
    {
        listener.GroNormal();
        return NORMAL;
    }
    // Hold as a new packet; a full bucket completes its oldest first.
    if (bucket.count >= MAX_GRO_SKBS)
    {
        Complete(bucket, bucket.count - 1, listener);
    }
    uint32_t slot = b * MAX_GRO_SKBS;
    while (m_used[slot])
    {
        ++slot;
    }
    m_used[slot] = true;
    GroPacket& p = m_slots[slot];
    p.segments = 1;
    p.length = s.headerLength + s.payloadLength;
    p.payload = s.payloadLength;
    p.gsoSize = s.payloadLength;
    p.orFlags = 0;
    p.firstSeq = s.seq;
    p.age = nowNs / NS_PER_JIFFY;
    p.fixedId = false;
    p.first = s;
    for (uint32_t i = bucket.count; i > 0; --i)
    {
        bucket.order[i] = bucket.order[i - 1];
    }
    bucket.order[0] = static_cast<uint8_t>(slot);
    bucket.count++;
    m_held++;
    listener.GroHeld(slot);
    return HELD;
}

void
TcpGro::Flush(bool flushOld, int64_t nowNs, Listener& listener)
{
    const int64_t jiffy = nowNs / NS_PER_JIFFY;
    for (Bucket& bucket : m_buckets)
    {
        // __napi_gro_flush_chain(): oldest first; stop at one held in this jiffy
        while (bucket.count > 0)
        {
            const uint32_t oldest = bucket.count - 1;
            if (flushOld && m_slots[bucket.order[oldest]].age == jiffy)
            {
                break;
            }
            Complete(bucket, oldest, listener);
        }
    }
}

uint32_t
TcpGro::GetHeld() const
{
    return m_held;
}

const GroPacket&
TcpGro::GetPacket(uint32_t slot) const
{
    return m_slots[slot];
}

} // namespace debloat
} // namespace ns3
