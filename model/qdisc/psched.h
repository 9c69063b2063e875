/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PSCHED_H
#define PSCHED_H

#include "ns3/net-device.h"
#include "ns3/ptr.h"

#include <cstdint>

/**
 * @file
 * @ingroup debloat-qdisc
 * What Linux's queue disciplines know of the link layer: the hard header they count in
 * qdisc_pkt_len() and psched_mtu(), the default quantum of SFQ, HTB's leaves and CAKE.
 */

namespace ns3
{
namespace debloat
{

/// ETH_HLEN: the Ethernet header that dev->hard_header_len adds to every packet the qdiscs
/// see (ns-3's queue discs get the IP packet; the device adds the header later).
constexpr uint32_t ETH_HLEN = 14;

/// The MTU assumed when a queue disc has no device (tests on a bare queue disc).
constexpr uint32_t DEFAULT_MTU = 1500;

/**
 * psched_mtu(): dev->mtu + dev->hard_header_len, the default quantum of SFQ, fq_codel and
 * HTB leaves and CAKE's MTU.
 * @param device the queue disc's device, or nullptr
 * @return the MTU plus the Ethernet header, bytes (1514 without a device)
 */
inline uint32_t
PschedMtu(Ptr<const NetDevice> device)
{
    return (device ? device->GetMtu() : DEFAULT_MTU) + ETH_HLEN;
}

} // namespace debloat
} // namespace ns3

#endif /* PSCHED_H */
