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
 * - "Options": the qdisc line, e.g. "default 12 r2q 10" (`default` is hexadecimal, as
 *   classids are);
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
     * Prints `tc -s qdisc show` for htb (r2q, default, direct_packets_stat, counters).
     * @param os where to print
     */
    void PrintStats(std::ostream& os);

    /**
     * Prints `tc -s class show` for every class: rate, ceil, burst, cburst, the counters,
     * lended, borrowed, giants, tokens and ctokens (psched ticks of 64 ns, as the kernel
     * reports them).
     * @param os where to print
     */
    void PrintClassStats(std::ostream& os) const;

    /// @return the scheduler (classes, their state and counters), once initialized
    const HtbScheduler& GetScheduler() const;

    /// @return the leaf ids in increasing order (the order of the QueueDiscClasses)
    const std::vector<uint32_t>& GetLeaves() const;

    /// Drop reason: the direct queue is full.
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

    std::string m_options;                              ///< the qdisc line
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
};

} // namespace debloat
} // namespace ns3

#endif /* HTB_QUEUE_DISC_H */
