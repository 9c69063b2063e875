/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TC_QDISC_HELPER_H
#define TC_QDISC_HELPER_H

#include "ns3/attribute.h"
#include "ns3/ptr.h"
#include "ns3/traffic-control-helper.h"

#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief Root queue discs from the text after `tc qdisc add dev X root`, e.g.
 * "cake bandwidth 50Mbit diffserv4", "sfq perturb 10", "fq_codel", "pfifo limit 100".
 *
 * Qdiscs and the words each takes (tc's defaults where ns-3's differ):
 * - pfifo_fast: none (txqueuelen packets; with txqueuelen 0 the device gets noqueue, as
 *   Linux's attach_default_qdiscs() falls back to it);
 * - pfifo: limit N (packets, default txqueuelen);
 * - noqueue: none (NoQueueDisc: straight to the driver, dropped when its queue is stopped);
 * - prio: bands N (3, 2 to 16), priomap P0 ... P15 (1 2 2 2 1 2 0 0 1 1 1 1 1 1 1 1): ns-3's
 *   PrioQueueDisc with a pfifo of txqueuelen packets per band, classifying by the socket
 *   priority Linux derives from the TOS byte (rt_tos2priority());
 * - fq_codel: limit N (10240), flows N (1024), target TIME (5ms), interval TIME (100ms),
 *   ce_threshold TIME, ecn (default) / noecn;
 * - codel: limit N (1000), target TIME (5ms), interval TIME (100ms), ce_threshold TIME,
 *   ecn / noecn (default);
 * - pie: limit N (1000), target TIME (15ms), tupdate TIME (15ms), ecn / noecn (default);
 * - sfq: the words of SfqQueueDisc's Options;
 * - cake: the words of CakeQueueDisc's Options;
 * - htb: a whole tree, as lines separated by ';' or newlines: the qdisc line ("htb default
 *   12 r2q 10"), class lines ("class parent 1: classid 1:1 rate 92Mbit", see
 *   ParseHtbClass()) and one leaf qdisc line per leaf class ("qdisc parent 1:12 sfq
 *   perturb 10").
 *
 * One configuration path per qdisc: the words of htb, sfq and cake go to the queue disc's
 * Options attribute unchanged (the queue disc parses them into its own attributes); the
 * words of the others are translated here into their ns-3 attributes (Parse()), and an htb
 * tree's qdisc line and leaves go through Parse() too. The helper never sets both Options
 * and an attribute for the same setting. A bad word stops with a message naming it and
 * the accepted words.
 *
 * Deviation from Linux: fq_codel's quantum and memory_limit, pie's alpha and beta, and the
 * other less common words are not accepted (an error names them).
 */
class TcQdiscHelper
{
  public:
    /**
     * Sets the root queue disc of a TrafficControlHelper from tc text.
     * @param helper the helper
     * @param text the qdisc and its options
     * @param txqueuelen the device's txqueuelen (`ip link set DEV txqueuelen N`): the limit
     *        of pfifo_fast and of a pfifo or prio band made without one
     * @throws std::invalid_argument naming the unknown qdisc or word and what is accepted
     */
    static void SetRootQueueDisc(TrafficControlHelper& helper,
                                 const std::string& text,
                                 uint32_t txqueuelen = 1000);

    /**
     * @param text the qdisc and its options
     * @return ns-3's TypeId name of the qdisc ("ns3::FqCoDelQueueDisc")
     * @throws std::invalid_argument for an unknown qdisc
     */
    static std::string GetTypeName(const std::string& text);

    /// @return the qdisc names accepted
    static std::vector<std::string> GetQdiscNames();

    /// A queue disc as ns-3 builds it: the type and its attributes.
    struct QdiscSpec
    {
        std::string type;                                                    ///< TypeId name
        std::vector<std::pair<std::string, Ptr<AttributeValue>>> attributes; ///< settings
    };

    /**
     * @param text one qdisc and its options (not an htb tree; prio's bands are left out)
     * @param txqueuelen the device's txqueuelen
     * @return its type and attributes
     * @throws std::invalid_argument naming the unknown qdisc or word
     */
    static QdiscSpec Parse(const std::string& text, uint32_t txqueuelen = 1000);
};

} // namespace debloat
} // namespace ns3

#endif /* TC_QDISC_HELPER_H */
