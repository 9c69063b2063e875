/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GRO_SEGMENT_TAG_H
#define GRO_SEGMENT_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{
class Packet;

namespace debloat
{

/**
 * @ingroup debloat-offload
 * @brief Marks a TCP segment as segment index of count of one GRO packet that a router
 * forwards.
 *
 * Linux forwards a GRO packet as one skb. ns-3's IPv4 would fragment a packet longer than
 * the egress MTU, so a NicNetDevice passes a GRO packet it does not deliver locally up as
 * its segments, back to back in one call chain, each with this tag; the
 * GsoTrafficControlLayer of the egress interface joins them into the super-packet again
 * before its queue disc sees it. The tag never leaves the node.
 */
class GroSegmentTag : public Tag
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    GroSegmentTag() = default;

    /**
     * @param index this segment's place in the GRO packet, from 0
     * @param count the GRO packet's segments (NAPI_GRO_CB(skb)->count)
     */
    GroSegmentTag(uint16_t index, uint16_t count);

    /// @return this segment's place, from 0
    uint16_t GetIndex() const;
    /// @return the GRO packet's segments
    uint16_t GetCount() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

  private:
    uint16_t m_index{0}; ///< place in the GRO packet
    uint16_t m_count{0}; ///< segments in the GRO packet
};

} // namespace debloat
} // namespace ns3

#endif /* GRO_SEGMENT_TAG_H */
