/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLENT_METADATA_H
#define FLENT_METADATA_H

#include "ns3/net-device.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>

/**
 * @file
 * @ingroup debloat-measurement
 * flent's extended metadata (flent -x: flent/metadata.py) for a simulated host.
 */

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief The metadata flent records about the test's host with -x, made from the simulated
 * one: EGRESS_INFO (get_egress_info()) and SYSCTLS (get_sysctls()), as JSON text for
 * RunRecord::extraMetadata.
 */
class FlentMetadata
{
  public:
    /**
     * The egress device as flent's get_egress_info() describes it, read off the simulated
     * device after the run: `iface`; `driver` (the NIC profile); `qdiscs` (the root qdisc:
     * name, parent, and its tc words paired as flent's parse_tc() pairs them, plus the tc
     * text itself as `tc`); `tc_stats_post` (TcQdiscHelper::PrintStats(), one item per qdisc
     * as flent's get_tc_stats() splits `tc -s qdisc`); `bql` (tx-N: limit_max, when BQL is
     * installed); `offloads` (ethtool -k's tcp-segmentation-offload,
     * generic-segmentation-offload and generic-receive-offload, for a NicNetDevice);
     * `link_params` (qlen, speed as ethtool prints it, duplex); and, beyond flent, `ring` (tx
     * and rx descriptors per queue) and `tx_queues`.
     * @param device the egress device
     * @param iface its name, e.g. "eth0"
     * @param driver the driver (profile) name
     * @param tcText the root qdisc as tc text
     * @param txqueuelen the device's txqueuelen (ip link qlen)
     * @return a JSON object
     */
    static std::string EgressInfo(Ptr<NetDevice> device,
                                  const std::string& iface,
                                  const std::string& driver,
                                  const std::string& tcText,
                                  uint32_t txqueuelen);

    /**
     * flent's INTERESTING_SYSCTLS that the simulated TCP settles, from LinuxTcpDefaults:
     * tcp_congestion_control, tcp_sack, tcp_timestamps, tcp_window_scaling, tcp_ecn, and
     * tcp_rmem / tcp_wmem as min default max of the fixed buffers ns-3 sockets have (no
     * autotuning: the three values equal).
     * @return a JSON object of sysctl name to value text
     */
    static std::string Sysctls();

    /**
     * A batch identifier for flent's BATCH_UUID that the same inputs always give (flent
     * draws uuid4; a simulation must give the same file for the same seed): a UUID of
     * version 8 (custom) made from two 64-bit FNV-1a hashes of the text (of the text, and of
     * the text followed by a 0 byte).
     * @param text what identifies the batch (test, title, time, first run, configuration)
     * @return e.g. "3f2a...-...-8...-...-..."
     */
    static std::string BatchUuid(const std::string& text);
};

} // namespace debloat
} // namespace ns3

#endif /* FLENT_METADATA_H */
