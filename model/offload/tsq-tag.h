/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TSQ_TAG_H
#define TSQ_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-offload
 * @brief The socket memory an skb holds (skb->sk with the tcp_wfree destructor and its
 * truesize): the GsoTrafficControlLayer charges a local socket's packet with it, and the
 * device's TX completion or a drop gives it back. Software GSO splits the charge over the
 * segments, so the sum that comes back is the sum charged.
 */
class TsqTag : public Tag
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    TsqTag() = default;

    /**
     * @param layer the charging layer's number (a tag that reaches another node, with the
     * packet's copy, means nothing there)
     * @param flow the layer's index of the socket's flow
     * @param bytes the truesize charged
     */
    TsqTag(uint32_t layer, uint32_t flow, uint32_t bytes);

    /// @return the charging layer's number
    uint32_t GetLayer() const;
    /// @return the layer's index of the flow
    uint32_t GetFlow() const;
    /// @return the truesize charged, bytes
    uint32_t GetBytes() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_layer{0}; ///< the charging layer
    uint32_t m_flow{0};  ///< the flow
    uint32_t m_bytes{0}; ///< truesize charged
};

} // namespace debloat
} // namespace ns3

#endif /* TSQ_TAG_H */
