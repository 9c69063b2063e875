/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NIC_TX_QUEUE_TAG_H
#define NIC_TX_QUEUE_TAG_H

#include "ns3/packet.h"
#include "ns3/tag.h"

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-nic
 * @brief Carries the TX queue the stack chose (skb->queue_mapping) from the select-queue
 * callback to NicNetDevice::Send(), which ns-3 calls without it.
 */
class NicTxQueueTag : public Tag
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer buffer) const override;
    void Deserialize(TagBuffer buffer) override;
    void Print(std::ostream& os) const override;

    /**
     * Tags a packet with its TX queue, replacing an earlier choice.
     * @param packet the packet
     * @param queue the TX queue index
     */
    static void Set(Ptr<Packet> packet, uint16_t queue);

    /**
     * Removes the tag.
     * @param packet the packet
     * @param [out] queue the TX queue it carried
     * @return false if the packet had none
     */
    static bool Take(Ptr<Packet> packet, uint16_t& queue);

    uint16_t queue{0}; ///< the TX queue index
};

} // namespace debloat
} // namespace ns3

#endif /* NIC_TX_QUEUE_TAG_H */
