/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_HASH_PACKET_FILTER_H
#define FLOW_HASH_PACKET_FILTER_H

#include "ns3/packet-filter.h"

#include <cstdint>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief ns-3's flow hash for a flow queue (FqCoDelQueueDisc) as a packet filter, read as
 * bytes.
 *
 * ns-3's FqCoDelQueueDisc hashes each packet it has no filter for with
 * QueueDiscItem::Hash(Perturbation); Ipv4QueueDiscItem::Hash() deserialises the whole TCP
 * header, and with it an ns-3 Object per TCP option (the timestamp every ns-3 TCP segment
 * carries): about 5k instructions per packet, 7% of a TCP bulk transfer's simulation
 * through one fq_codel. This filter returns the same value, computed from the addresses,
 * protocol and ports as QueueDiscItemTupleHash() reads them, for every packet (IPv4, IPv6,
 * anything else as QueueDiscItem::Hash()); FqCoDelQueueDisc takes a filter's class as the
 * flow hash, so the queue disc classifies, and drops, the same packets the same way.
 * TcQdiscHelper adds it to every fq_codel it makes, with the queue disc's Perturbation
 * and Flows.
 *
 * Deviation from ns-3's hash: a packet whose hash is 0xffffffff (one in 2^32) would read as
 * PF_NO_MATCH (-1) and be dropped as unclassified, so the filter returns 0xffffffff - Flows
 * instead, which falls in the same flow queue (the remainder by Flows is the same); with
 * EnableSetAssociativeHash its tag differs from the hash's.
 */
class FlowHashPacketFilter : public PacketFilter
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    FlowHashPacketFilter();
    ~FlowHashPacketFilter() override;

  private:
    bool CheckProtocol(Ptr<QueueDiscItem> item) const override;
    int32_t DoClassify(Ptr<QueueDiscItem> item) const override;

    uint32_t m_perturbation; ///< the queue disc's Perturbation
    uint32_t m_flows;        ///< the queue disc's Flows
};

} // namespace debloat
} // namespace ns3

#endif /* FLOW_HASH_PACKET_FILTER_H */
