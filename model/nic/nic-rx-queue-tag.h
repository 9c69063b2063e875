/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NIC_RX_QUEUE_TAG_H
#define NIC_RX_QUEUE_TAG_H

#include "ns3/packet.h"
#include "ns3/tag.h"

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-nic
 * @brief The RX queue a frame arrived on, as a driver records it in the skb
 * (skb_record_rx_queue(): igb, ixgbe), so that skb_tx_hash() sends a forwarded packet on the
 * TX queue of the same index (NicNetDevice's RecordRxQueue).
 *
 * A packet keeps it only while it is inside the node that received it: a NicNetDevice drops
 * it when the packet leaves (the skb is freed there), once any device records queues.
 */
class NicRxQueueTag : public Tag
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
     * Records the RX queue on a packet, replacing an earlier record.
     * @param packet the packet
     * @param queue the RX queue index
     */
    static void Record(Ptr<Packet> packet, uint16_t queue);
    /**
     * @param packet the packet
     * @param [out] queue the RX queue it records
     * @return false if it records none (skb_rx_queue_recorded())
     */
    static bool Get(Ptr<const Packet> packet, uint16_t& queue);

    uint16_t queue{0}; ///< the RX queue index
};

} // namespace debloat
} // namespace ns3

#endif /* NIC_RX_QUEUE_TAG_H */
