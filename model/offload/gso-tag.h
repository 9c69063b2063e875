/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows include/linux/skbuff.h (skb_shared_info's gso_size and gso_segs) and
 * net/ipv4/tcp_offload.c (tcp_gso_segment) of Linux.
 */

#ifndef GSO_TAG_H
#define GSO_TAG_H

#include "ns3/ptr.h"
#include "ns3/queue-item.h"
#include "ns3/tag.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-offload
 * @brief Marks a TCP packet as a GSO super-packet (skb_shinfo()->gso_size and gso_segs):
 * its payload is gso_segs segments of gso_size bytes, the last one possibly shorter, that
 * the stack or the NIC cuts into separate packets later.
 *
 * ns-3's TCP sends MSS-sized segments; attach this tag to model a host with GSO/TSO (a
 * super-packet of up to 64 KB that a qdisc such as CAKE accounts per segment, or splits
 * with split-gso).
 */
class GsoTag : public Tag
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    GsoTag() = default;

    /**
     * @param gsoSize payload bytes per segment (the MSS)
     * @param gsoSegs number of segments
     */
    GsoTag(uint16_t gsoSize, uint16_t gsoSegs);

    /// @return payload bytes per segment
    uint16_t GetGsoSize() const;
    /// @return number of segments
    uint16_t GetGsoSegs() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

  private:
    uint16_t m_gsoSize{0}; ///< gso_size
    uint16_t m_gsoSegs{0}; ///< gso_segs
};

/**
 * Cuts a TCP/IPv4 or TCP/IPv6 queue disc item tagged with a GsoTag into its segments, as
 * skb_gso_segment() -> tcp_gso_segment() does: each segment carries gso_size bytes of the
 * payload (the last the rest) behind copies of the IP and TCP headers, the TCP sequence
 * number advanced by the bytes before it, CWR only on the first segment, FIN and PSH only
 * on the last, and (IPv4) the identification incremented per segment. The segments carry
 * no GsoTag.
 *
 * Deviation from Linux: TCP options are copied unchanged and checksums are not computed
 * here (ns-3 computes them when the headers are serialized, if enabled).
 *
 * @param item the super-packet
 * @return the segments in order; empty when the item is not a tagged TCP packet over IP
 */
std::vector<Ptr<QueueDiscItem>> GsoSegment(Ptr<const QueueDiscItem> item);

/**
 * Cuts a TCP super-packet that carries its IP header (as a NetDevice's Send() receives it)
 * into its segments, each with its own IP header, as GsoSegment() does for a queue disc
 * item: validate_xmit_skb() -> skb_gso_segment() in front of a driver that cannot take it,
 * or the NIC's TSO engine cutting the frames. The IPv4 header checksum is enabled when
 * ns-3's checksums are.
 *
 * @param packet the super-packet, IP header first, with a GsoTag
 * @param protocolNumber its EtherType (0x0800 IPv4, 0x86DD IPv6)
 * @return the segments in order; empty when the packet is not a tagged TCP packet over IP
 */
std::vector<Ptr<Packet>> GsoSegmentPacket(Ptr<const Packet> packet, uint16_t protocolNumber);

} // namespace debloat
} // namespace ns3

#endif /* GSO_TAG_H */
