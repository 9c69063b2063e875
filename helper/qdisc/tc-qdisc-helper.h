/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TC_QDISC_HELPER_H
#define TC_QDISC_HELPER_H

#include "ns3/attribute.h"
#include "ns3/net-device.h"
#include "ns3/ptr.h"
#include "ns3/traffic-control-helper.h"

#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief Root queue discs from the text after `tc qdisc add dev X root`, e.g.
 * "cake bandwidth 50Mbit diffserv4", "sfq perturb 10", "fq_codel", "pfifo limit 100", or an
 * mq with a qdisc per TX queue ("mq; parent :2 fq_codel; parent :4 cake bandwidth 50Mbit").
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
 * - netem: the words of NetemQueueDisc's Options (ParseNetemOptions());
 * - htb: a whole tree, as lines separated by ';' or newlines: the qdisc line ("htb default
 *   12 r2q 10"), class lines ("class parent 1: classid 1:1 rate 92Mbit", see
 *   ParseHtbClass()) and one leaf qdisc line per leaf class ("qdisc parent 1:12 sfq
 *   perturb 10");
 * - mq (a multiqueue device only: SetRootQueueDisc()'s nTxQueues >= 2): lines separated by
 *   ';' or newlines, as htb's. The first is "mq", optionally "mq handle N:" (N hexadecimal,
 *   1 to ffff; 1: if not given). Each further line gives one TX queue its qdisc, as
 *   `tc qdisc replace dev X parent :N QDISC ...` does: "parent :N QDISC WORDS...",
 *   "parent MAJ:N QDISC WORDS..." or "qdisc parent MAJ:N QDISC WORDS...", MAJ being the mq's
 *   handle. N is tc's class minor, hexadecimal and 1-based (mq_find() and mq_queue_get():
 *   class N is TX queue N - 1), from 1 to nTxQueues. The QDISC is any of the above but htb
 *   and mq, with its words; "prio" gets its bands. A TX queue named in no line gets the
 *   default qdisc, pfifo_fast of txqueuelen packets (noqueue with txqueuelen 0, as for a
 *   root), as mq_init() gives each TX queue get_default_qdisc_ops() (net.core.default_qdisc,
 *   pfifo_fast unless set). DefaultQdiscText() gives what Linux attaches when nobody runs tc.
 *
 * One configuration path per qdisc: the words of htb, sfq, cake and netem go to the queue disc's
 * Options attribute unchanged (the queue disc parses them into its own attributes); the
 * words of the others are translated here into their ns-3 attributes (Parse()), and an htb
 * tree's qdisc line and leaves, and an mq's children, go through Parse() too. The helper
 * never sets both Options and an attribute for the same setting. A bad word stops with a
 * message naming it and the accepted words.
 *
 * The qdisc a TX queue wakes (the root, or with mq the TX queue's child) gets an unlimited
 * Quota, as explained at SetRootQueueDisc().
 *
 * Deviation from Linux: fq_codel's quantum and memory_limit, pie's alpha and beta, and the
 * other less common words are not accepted (an error names them).
 *
 * Deviation from Linux: an mq child cannot be an htb tree (its lines would be mq's), and the
 * default child is always pfifo_fast (net.core.default_qdisc is not modelled: name each
 * queue's qdisc to model another default). With txqueuelen 0, Linux's mq_init() fails
 * (pfifo_fast_init() refuses a zero-length ring) and `tc qdisc add ... mq` is refused; the
 * helper gives those queues noqueue, which is what attach_default_qdiscs() falls back to for
 * every queue of such a device, so that the same text works at any txqueuelen.
 *
 * Deviation from Linux: "parent :N" names the mq whatever its handle (in Linux, major 0 is
 * the handle of the mq that attach_default_qdiscs() makes, shown as "mq 0:"), and an mq given
 * without a handle takes 1: (Linux would allocate one, 8001: and up), so that both the lines
 * written for a default mq and those of a `root handle 1: mq` script fit.
 */
class TcQdiscHelper
{
  public:
    /**
     * Sets the root queue disc of a TrafficControlHelper from tc text.
     *
     * The qdisc that runs when a TX queue wakes (the root, or with mq each TX queue's child,
     * which ns-3's TrafficControlLayer wakes and runs directly) gets an unlimited Quota,
     * unless the user set a default for ns3::QueueDisc::Quota.
     *
     * Deviation from Linux: __qdisc_run() stops after dev_tx_weight (64) packets and
     * __netif_schedule()s the qdisc, so the NET_TX softirq carries on at once. ns-3's
     * QueueDisc::Run() stops at its Quota and reschedules nothing: what is left waits for the
     * next enqueue or queue wake, which may never come. Without a HostCpu the softirq takes
     * no time, so one run without a quota sends the packets when Linux would; with one, the
     * runs in net_tx_action() have the kernel's quota (HostCpu's DevTxWeight).
     *
     * @param helper the helper
     * @param text the qdisc and its options (for htb and mq, several lines)
     * @param txqueuelen the device's txqueuelen (`ip link set DEV txqueuelen N`): the limit
     *        of pfifo_fast and of a pfifo or prio band made without one
     * @param nTxQueues the device's TX queues (`ethtool -L DEV tx N`): mq makes one child
     *        per queue and needs at least 2; it must be the device's count, or ns-3's
     *        TrafficControlLayer stops when it initializes ("The number of child queue discs
     *        does not match the number of netdevice queues"). Other qdiscs ignore it.
     *        Accepted: 1 to 256 (ns-3's QueueItem numbers TX queues in 8 bits).
     * @throws std::invalid_argument naming the unknown qdisc or word and what is accepted
     */
    static void SetRootQueueDisc(TrafficControlHelper& helper,
                                 const std::string& text,
                                 uint32_t txqueuelen = 1000,
                                 uint32_t nTxQueues = 1);

    /**
     * The root qdisc Linux gives a device when nobody runs tc, as tc text for
     * SetRootQueueDisc(). Mirrors attach_default_qdiscs() in net/sched/sch_generic.c: a
     * single-queue device gets the default qdisc (pfifo_fast), a multiqueue device mq with
     * the default qdisc per TX queue; a device whose default qdisc cannot start (pfifo_fast
     * with txqueuelen 0: pfifo_fast_init() refuses a zero-length ring) falls back to noqueue.
     * @param nTxQueues the device's TX queues
     * @param txqueuelen the device's txqueuelen
     * @return "pfifo_fast" (1 TX queue), "mq" (2 or more) or "noqueue" (txqueuelen 0)
     * @throws std::invalid_argument for nTxQueues 0 or above 256 (ns-3 numbers TX queues
     *         in 8 bits)
     */
    static std::string DefaultQdiscText(uint32_t nTxQueues, uint32_t txqueuelen = 1000);

    /**
     * Prints what `tc -s qdisc show dev X` prints for a device's qdiscs: the root; under mq
     * the mq line ("qdisc mq 1: root"), with its children's counters added up as mq_dump()
     * adds them, then each child as "parent 1:N" (N hexadecimal, TX queue N - 1). cake, sfq,
     * htb and netem print their options and statistics (their PrintStats()); the other kinds print
     * tc's generic counters: Sent bytes and packets, dropped, overlimits (0: they do not
     * count it), requeues, backlog.
     * Deviation from tc: no handles but mq's ("1:" whatever the text gave; ns-3 keeps none)
     * and no options for the generic kinds.
     * @param device the device (its node's TrafficControlLayer has its qdiscs)
     * @param os where to print
     */
    static void PrintStats(Ptr<NetDevice> device, std::ostream& os);

    /**
     * @param text the qdisc and its options
     * @return ns-3's TypeId name of the qdisc ("ns3::FqCoDelQueueDisc"; "ns3::MqQueueDisc"
     *         for mq)
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
     * @param text one qdisc and its options (not an htb tree, not mq; prio's bands are left
     *        out)
     * @param txqueuelen the device's txqueuelen
     * @return its type and attributes
     * @throws std::invalid_argument naming the unknown qdisc or word (and for mq, which is
     *         a multiqueue device's root only and takes lines of its own)
     */
    static QdiscSpec Parse(const std::string& text, uint32_t txqueuelen = 1000);
};

} // namespace debloat
} // namespace ns3

#endif /* TC_QDISC_HELPER_H */
