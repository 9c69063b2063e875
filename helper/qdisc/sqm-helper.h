/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SQM_HELPER_H
#define SQM_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/traffic-control-helper.h"

#include <string>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief The egress layouts of sqm-scripts (src/simplest.qos, simple.qos,
 * piece_of_cake.qos), at a percentage of the link rate.
 *
 * - simplest: htb default 10; 1:1 and its leaf 1:10 at the shaped rate (rate = ceil), the
 *   AQM on 1:10.
 * - simple: htb default 12; 1:1 at the shaped rate R; leaves 1:10 (R, prio 0, pfifo: sqm
 *   adds no qdisc there and Linux gives it pfifo), 1:11 (rate 128 kbit, ceil R/3, prio 1),
 *   1:12 (rate R/6, ceil R - 16 kbit, prio 2, the default), 1:13 (rate R/6, ceil
 *   R - 16 kbit, prio 3), the AQM on 1:11 to 1:13; a DscpPacketFilter sends CS6, EF, AF42
 *   and the Minimize-Delay TOS to 1:11 and CS1 to 1:13, as sqm's iptables marks and fw
 *   filters do.
 * - piece_of_cake: "cake bandwidth R besteffort" alone.
 * Rates are whole kbit/s, as sqm computes them with shell arithmetic. The layout is tc
 * text installed by TcQdiscHelper, so each qdisc has that helper's one configuration path
 * (and its messages for a bad word in the AQM text).
 *
 * Deviation from sqm-scripts: the HTB quantum is tc's default (rate / r2q) instead of
 * sqm's get_htb_quantum(), whose formula changed between releases; no stab/link-layer
 * options (give them in the AQM text, e.g. cake's overhead).
 */
class SqmHelper
{
  public:
    /// The sqm-scripts script.
    enum Script
    {
        SIMPLEST,      ///< simplest.qos
        SIMPLE,        ///< simple.qos
        PIECE_OF_CAKE, ///< piece_of_cake.qos
    };

    /**
     * @param script the layout
     * @param kbit the shaped rate, kbit/s
     * @param qdisc the AQM of the leaves, as tc text ("fq_codel", "sfq perturb 10", ...)
     * @return the layout as TcQdiscHelper text
     */
    static std::string GetTcText(Script script, uint64_t kbit, const std::string& qdisc);

    /**
     * Sets a TrafficControlHelper's root queue disc (and, for simple, its filter) to a
     * layout.
     * @param helper the helper
     * @param script the layout
     * @param linkRate the link's rate
     * @param percent the share of it to shape to (sqm users set 85-95)
     * @param qdisc the AQM of the leaves, as tc text
     * @throws std::invalid_argument for a bad qdisc text or a percentage outside (0, 100]
     */
    static void SetRootQueueDisc(TrafficControlHelper& helper,
                                 Script script,
                                 DataRate linkRate,
                                 double percent,
                                 const std::string& qdisc = "fq_codel");
};

} // namespace debloat
} // namespace ns3

#endif /* SQM_HELPER_H */
