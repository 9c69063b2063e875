/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HTB_QUEUE_DISC_H
#define HTB_QUEUE_DISC_H

#include "htb-config.h"
#include "htb-scheduler.h"

#include "ns3/queue-disc.h"
#include "ns3/shaper-watchdog.h"
#include "ns3/traced-callback.h"

#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief HTB (Hierarchical Token Bucket) as net/sched/sch_htb.c runs it: a tree of classes
 * with rate and ceil token buckets, borrowing from ancestors up to ceil, priorities and
 * DRR quanta, a default class and a direct queue; any ns-3 queue disc as a leaf.
 *
 * The algorithm is HtbScheduler (plain C++); this class classifies packets, holds the leaf
 * queue discs and the direct queue, and restarts itself when the next class may send.
 *
 * Configuration, as tc does it:
 * - the attributes Default, R2q and DirectQlen, or "Options": the qdisc line, e.g.
 *   "default 12 r2q 10" (`default` is hexadecimal, as classids are), parsed when it is set
 *   into those attributes (they are the only store; getting Options prints them);
 * - "Classes": class lines separated by ';' or newlines, e.g.
 *   "parent 1: classid 1:1 rate 92Mbit; parent 1:1 classid 1:10 rate 92Mbit prio 0";
 *   or AddClass() with one line at a time;
 * - leaf queue discs: one QueueDiscClass per leaf, in increasing classid order
 *   (TrafficControlHelper::AddQueueDiscClasses and AddChildQueueDisc, or SetLeafQueueDisc()).
 *
 * Classification: the packet filters (a result is a class minor id, e.g. 0x12 for 1:12),
 * else the default class; with no default class (0) unclassified packets go to the direct
 * queue, which is sent first and unshaped (DirectQlen packets, then drops).
 *
 * Observability: the trace source "ClassModeChange" (a class's mode as
 * htb_change_class_mode() changes it), and NS_LOG (component HtbQueueDisc): LOGIC for the
 * per-packet decisions (classification, borrowing, mode changes, the watchdog, drops with
 * their reason), INFO for the configuration.
 *
 * Deviations from Linux:
 * - A leaf without a queue disc, a default class that does not exist or is not a leaf, a
 *   ceil below the rate and a prio above 7 stop with a message naming the class. Linux
 *   gives a leaf a pfifo, sends packets for a missing default class to the direct queue,
 *   and clamps prio to 7.
 * - skb->priority does not select classes (ns-3 queue discs have no handle); a filter
 *   result that names an inner class selects the default class (Linux runs that class's
 *   own filters).
 */
class HtbQueueDisc : public QueueDisc
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    HtbQueueDisc();
    ~HtbQueueDisc() override;

    /**
     * TracedCallback signature of "ClassModeChange".
     * @param classId the class's minor id (0x10 for 1:10)
     * @param oldMode its mode before
     * @param newMode its mode now
     */
    typedef void (*ClassModeTracedCallback)(uint32_t classId, HtbMode oldMode, HtbMode newMode);

    /**
     * Sets the qdisc line: its words set the attributes, the others take tc's defaults:
     * Default 0 and R2q 10 (htb_parse_opt() sends them always); DirectQlen keeps its value
     * unless direct_qlen is given (tc then leaves it to the kernel, which takes the
     * device's txqueuelen, for which the attribute stands). An empty line changes nothing.
     * Bad text stops with a message naming the word and the accepted words.
     * @param options e.g. "default 12 r2q 10" (a leading "htb" is accepted)
     */
    void SetOptions(const std::string& options);

    /// @return the effective qdisc line, e.g. "default 12 r2q 10 direct_qlen 1000"
    std::string GetOptions() const;

    /**
     * Assigns fixed random streams to the leaves' queue discs that have random variables
     * (AssignQueueDiscStreams(), in increasing classid order); HTB itself draws none. Call
     * once the leaves are attached (SetLeafQueueDisc() or the QueueDiscClasses) and before
     * the queue disc initializes: leaves such as sfq and cake draw their hash keys then.
     * @param stream the first stream
     * @return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * Adds a class from a tc class line (see ParseHtbClass()); before initialization.
     * @param line e.g. "parent 1:1 classid 1:10 rate 5Mbit ceil 10Mbit prio 1"
     */
    void AddClass(const std::string& line);

    /**
     * Attaches a leaf's queue disc, before initialization (in any order; do not also add
     * QueueDiscClasses yourself).
     * @param id the leaf's minor id
     * @param qdisc its queue disc
     */
    void SetLeafQueueDisc(uint32_t id, Ptr<QueueDisc> qdisc);

    /**
     * Prints `tc -s qdisc show` for htb (r2q, default, direct_packets_stat, counters). The
     * overlimits are htb_dump()'s q->overlimits: the classes' changes to CANT_SEND
     * (HtbScheduler::GetOverlimits()).
     * @param os where to print
     */
    void PrintStats(std::ostream& os);

    /**
     * Prints `tc -s class show` for every class: rate, ceil, burst, cburst, the counters
     * (htb_dump_class_stats(): the class's own overlimits, its changes to CANT_SEND),
     * lended, borrowed, giants, tokens and ctokens (psched ticks of 64 ns, as the kernel
     * reports them).
     * @param os where to print
     */
    void PrintClassStats(std::ostream& os) const;

    /// @return the scheduler (classes, their state and counters), once initialized
    const HtbScheduler& GetScheduler() const;

    /// @return the leaf ids in increasing order (the order of the QueueDiscClasses)
    const std::vector<uint32_t>& GetLeaves() const;

    /// Drop reason: the direct queue is full (reported by the internal queue, as
    /// QueueDisc::INTERNAL_QUEUE_DROP; logged with this reason).
    static constexpr const char* DIRECT_QUEUE_FULL = "Direct queue full";

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;
    void DoDispose() override;

    /**
     * @param id a class minor id
     * @return the leaf's queue disc, or nullptr when id is not a leaf
     */
    QueueDisc* LeafQdisc(uint32_t id) const;
    /// Arms the watchdog at the scheduler's next event.
    void ArmWatchdog();

    /**
     * The scheduler's mode change observer: logs and fires "ClassModeChange".
     * @param classId the class
     * @param oldMode before
     * @param newMode after
     */
    void NotifyModeChange(uint32_t classId, HtbMode oldMode, HtbMode newMode);

    std::string m_classes;                              ///< class lines
    std::vector<std::string> m_classLines;              ///< lines added with AddClass()
    uint32_t m_defaultClass{0};                         ///< default (minor id)
    uint32_t m_r2q{10};                                 ///< r2q
    uint32_t m_directQlen{1000};                        ///< direct_qlen
    std::unique_ptr<HtbScheduler> m_scheduler;          ///< the algorithm
    std::vector<uint32_t> m_leaves;                     ///< leaf ids, increasing
    std::map<uint32_t, Ptr<QueueDisc>> m_pendingLeaves; ///< SetLeafQueueDisc() calls
    std::vector<Ptr<QueueDisc>> m_leafQdiscs;           ///< leaf queue discs, as m_leaves
    Ptr<QueueDiscItem> m_pulled;                        ///< the packet a pull took
    ShaperWatchdog m_watchdog;                          ///< qdisc_watchdog
    uint32_t m_directPackets{0};                        ///< direct_pkts
    /// "ClassModeChange": classid, old mode, new mode
    TracedCallback<uint32_t, HtbMode, HtbMode> m_classModeChangeTrace;
};

} // namespace debloat
} // namespace ns3

#endif /* HTB_QUEUE_DISC_H */
