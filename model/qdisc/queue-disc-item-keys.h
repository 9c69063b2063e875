/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QUEUE_DISC_ITEM_KEYS_H
#define QUEUE_DISC_ITEM_KEYS_H

#include "flow-dissector.h"

#include "ns3/queue-item.h"

#include <cstddef>
#include <cstdint>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * The flow keys of a queued packet, for hashing and tin selection: what
 * skb_flow_dissect_flow_keys() finds, read from the item's IP header and the first 8 bytes
 * after it (the ports). ns-3's QueueDiscItem::Hash() parses whole transport headers with
 * their options instead, which is the largest single cost of ns-3's FqCoDel.
 *
 * Deviation from Linux: IPv6 flows are told apart by their ports, never by the flow label.
 * Linux labels each flow differently (auto_flowlabels) and its dissector then stops at the
 * label (FLOW_DISSECTOR_F_STOP_AT_FLOW_LABEL); ns-3 gives every packet the same label, which
 * would put all flows between two hosts into one queue.
 *
 * @param item the packet (IPv4, IPv6 or anything else)
 * @param[out] keys its keys; family NONE and only etherType for packets that are not IP
 * @return true for IPv4 and IPv6 packets
 */
bool QueueDiscItemFlowKeys(const QueueDiscItem* item, FlowKeys& keys);

/**
 * The packet as the kernel's skb holds it from the network header on: the IP header
 * serialized, then the start of the payload.
 * @param item the packet
 * @param buffer where to write
 * @param capacity its size (a fixed IPv4 header of 20 or an IPv6 header of 40 bytes, then
 *        as much of the payload as fits)
 * @return the bytes written; 0 when the packet is not IP
 */
size_t QueueDiscItemNetworkBytes(const QueueDiscItem* item, uint8_t* buffer, size_t capacity);

/**
 * @ingroup debloat-qdisc
 * ns-3's QueueDiscItem::Hash() of an IPv4 or IPv6 item, bit for bit, without its cost: the
 * same 5-tuple and perturbation in the same bytes through the same Hash32 (murmur3), but the
 * ports read as the L4 header's first four bytes instead of by deserialising a whole
 * TcpHeader with its options (the flow dissector's way). As Ipv4QueueDiscItem::Hash(): ports
 * for TCP (6) and UDP (17) with fragment offset 0 (a first fragment too), none otherwise; as
 * Ipv6QueueDiscItem::Hash(): ports when the next header is TCP or UDP (after an extension
 * header there are none). A payload shorter than four bytes has no ports.
 * @param item the item
 * @param perturbation ns-3's perturbation argument
 * @return the hash; for an item that is neither, its own Hash()
 */
uint32_t QueueDiscItemTupleHash(const QueueDiscItem* item, uint32_t perturbation);

} // namespace debloat
} // namespace ns3

#endif /* QUEUE_DISC_ITEM_KEYS_H */
