/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PACKET_MARK_TAG_H
#define PACKET_MARK_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief A packet's firewall mark: what skb->mark is in Linux (set by iptables' MARK target
 * or SO_MARK), read by qdiscs such as CAKE's `fwmark`.
 *
 * Attach it as a packet tag (Packet::AddPacketTag) before the packet reaches the queue disc.
 */
class PacketMarkTag : public Tag
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    PacketMarkTag() = default;

    /// @param mark the mark
    explicit PacketMarkTag(uint32_t mark);

    /// @param mark the mark
    void SetMark(uint32_t mark);
    /// @return the mark
    uint32_t GetMark() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_mark{0}; ///< skb->mark
};

} // namespace debloat
} // namespace ns3

#endif /* PACKET_MARK_TAG_H */
