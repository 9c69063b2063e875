/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SFQ_QUEUE_DISC_H
#define SFQ_QUEUE_DISC_H

#include "sfq-scheduler.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc-item-list.h"
#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

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
 * @brief Linux's Stochastic Fairness Queueing (net/sched/sch_sfq.c) as an ns-3 queue disc:
 * modern SFQ (Linux 3.3 and later) with headdrop and per-flow RED/ECN ("sfqred"), and the
 * classic SFQ of Linux ~3.1-3.2 that the 2011 BQL experiments ran.
 *
 * Packets are hashed into `Divisor` buckets by their flow (the 5-tuple, dissected from the
 * IP header and the first bytes of the transport header, with SipHash and a random key that
 * `Perturb` renews), each bucket maps to one of `Flows` slots, and slots are served by the
 * kernel's byte-based deficit round robin (SfqScheduler). The options are the ns-3
 * attributes below, the one source of truth: setting `Options` to tc-sfq's words ("limit 127
 * quantum 1514 perturb 10 headdrop") sets the attributes they name at once, and getting it
 * gives the words that reproduce the attributes. Packet filters, when added, choose the
 * bucket as tc filters do (class 1..divisor); a packet they do not classify is dropped.
 *
 * Traces: FlowDrop and FlowMark name the flow (bucket and slot) of each drop and RED mark;
 * Perturbation reports each renewal of the hash key and what the rehash moved.
 *
 * Deviation from Linux: the kernel also takes the bucket from skb->priority when its major
 * number equals the qdisc's handle; ns-3 queue discs have no handle.
 */
class SfqQueueDisc : public QueueDisc
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    SfqQueueDisc();
    ~SfqQueueDisc() override;

    /**
     * Prints the queue disc as `tc -s qdisc show` does.
     * @param os the stream
     * @param parent where it hangs: "root", or an mq child's "parent 1:3"
     */
    void PrintStats(std::ostream& os, const std::string& parent = "root");

    /**
     * Prints the active flows as `tc -s class show` does for sfq (sfq_dump_class_stats()):
     * one class per occupied bucket, numbered bucket + 1, with its backlog and allot.
     * @param os the stream
     */
    void PrintClassStats(std::ostream& os) const;

    /**
     * Assigns a fixed random stream number to the random variables used by this model.
     * @param stream first stream index to use
     * @return the number of stream indices assigned by this model
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * Checks a tc-sfq option string as CheckConfig() would, without a device (the quantum
     * defaults to 1514).
     * @param options the options
     * @throws std::invalid_argument naming the offending word or value
     */
    static void ValidateOptions(const std::string& options);

    /// @return the scheduler (flows, RED statistics), once the queue disc is initialized
    const SfqScheduler& GetScheduler() const;

    /**
     * TracedCallback signature for a drop or a mark in one flow.
     * @param item the packet dropped or marked
     * @param bucket its hash bucket (tc numbers its class bucket + 1)
     * @param slot its flow slot; SfqScheduler::NO_SLOT when no slot was free
     * @param reason a drop reason below, or the tc_sfqred_stats counter of a mark
     *        ("prob_mark", "prob_mark_head", "forced_mark", "forced_mark_head")
     */
    typedef void (*FlowEventTracedCallback)(Ptr<const QueueDiscItem> item,
                                            uint32_t bucket,
                                            uint32_t slot,
                                            const char* reason);

    /**
     * TracedCallback signature for a perturbation (sfq_perturbation()).
     * @param rehashed whether the queued packets moved to their new buckets
     * @param requeued packets re-inserted by the rehash
     * @param dropped packets the rehash dropped
     */
    typedef void (*PerturbationTracedCallback)(bool rehashed, uint32_t requeued, uint32_t dropped);

    // Reasons for dropping packets, as tc-sfq's counters name them.
    static constexpr const char* NO_FREE_SLOT = "No free flow slot";     ///< every slot busy
    static constexpr const char* FLOW_DEPTH = "Flow depth exceeded";     ///< depth
    static constexpr const char* OVERLIMIT = "Overlimit (longest flow)"; ///< limit
    static constexpr const char* RED_PROB_DROP = "RED prob_drop";        ///< RED
    static constexpr const char* RED_FORCED_DROP = "RED forced_drop";    ///< RED
    static constexpr const char* UNCLASSIFIED = "Not classified";        ///< filters
    static constexpr const char* RED_MARK = "RED mark";                  ///< ECN mark

  private:
    /// What the scheduler queues: the item's handle in the internal list.
    using Item = SfqScheduler::Handle;

    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;
    void DoDispose() override;

    /**
     * The options from the attributes, checked.
     * @return the scheduler's parameters
     * @throws std::invalid_argument naming the offending word or value
     */
    SfqParameters BuildParameters() const;
    /**
     * Sets the attributes that tc-sfq's words name (tc/q_sfq.c's sfq_parse_opt()); the
     * attributes of words not given keep their values.
     * @param options the words
     * @throws std::invalid_argument naming the offending word, before any attribute changes
     */
    void ParseOptions(const std::string& options);
    /**
     * The Options attribute's setter: ParseOptions(), stopping with tc's message when invalid.
     * @param options the words
     */
    void SetOptions(std::string options);
    /**
     * The Options attribute's getter.
     * @return the tc-sfq words that reproduce the attributes: those that differ from their
     *         defaults, in tc-sfq's order (empty for the defaults)
     */
    std::string GetOptions() const;
    /**
     * Connects the scheduler's observer to the traces and the log.
     */
    void ObserveScheduler();
    /**
     * @param item a packet
     * @return its flow hash under the current perturbation key (classify by filters first)
     */
    uint32_t Hash(const QueueDiscItem* item) const;
    /// Draws a new perturbation key and, in modern mode, rehashes the queued packets.
    void Perturb();
    /**
     * Takes a queued item out of the internal list and reports it dropped.
     * @param item the item
     * @param reason why
     */
    void DropQueued(Item item, const char* reason);
    /**
     * @param item a handle the scheduler holds: a queued packet's, or the arriving one's
     * @return the packet
     */
    Ptr<QueueDiscItem> ItemOf(Item item) const;
    /**
     * @param reason a scheduler drop reason
     * @return the queue disc's reason string
     */
    static const char* ReasonString(SfqDropReason reason);
    /**
     * @param reason a scheduler mark reason
     * @return the tc_sfqred_stats counter it adds to
     */
    static const char* MarkReasonString(SfqMarkReason reason);

    // Attributes (tc-sfq's options).
    uint32_t m_limit;        ///< limit, packets
    uint32_t m_depth;        ///< depth, packets per flow
    uint32_t m_flows;        ///< flows, slots
    uint32_t m_divisor;      ///< divisor, buckets
    uint32_t m_quantum;      ///< quantum, bytes (0: device MTU plus Ethernet header)
    Time m_perturb;          ///< perturb period (0: never)
    bool m_headdrop;         ///< headdrop
    bool m_classic;          ///< Linux ~3.1-3.2 behaviour
    uint32_t m_redFlowLimit; ///< redflowlimit, bytes (0: no RED)
    uint32_t m_redMin;       ///< min, bytes (0: tc's default)
    uint32_t m_redMax;       ///< max, bytes (0: tc's default)
    uint32_t m_redAvpkt;     ///< avpkt, bytes
    uint32_t m_redBurst;     ///< burst, packets (0: tc's default)
    double m_redProbability; ///< probability
    bool m_ecn;              ///< ecn
    bool m_harddrop;         ///< harddrop

    std::unique_ptr<SfqScheduler> m_scheduler; ///< the algorithm
    Ptr<QueueDiscItemList> m_list;             ///< accounting for ns-3's QueueDisc
    Ptr<QueueDiscItem> m_arriving;             ///< the packet being enqueued
    Ptr<UniformRandomVariable> m_uniform;      ///< hash keys and RED's random numbers
    uint64_t m_key0{0};                        ///< perturbation key, first half
    uint64_t m_key1{0};                        ///< perturbation key, second half
    EventId m_perturbEvent;                    ///< next perturbation
    uint32_t m_rehashRequeued{0};              ///< the last rehash's re-inserts
    uint32_t m_rehashDropped{0};               ///< the last rehash's drops

    TracedCallback<Ptr<const QueueDiscItem>, uint32_t, uint32_t, const char*>
        m_flowDropTrace; ///< drops, with their flow
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t, uint32_t, const char*>
        m_flowMarkTrace;                                     ///< RED CE marks, with their flow
    TracedCallback<bool, uint32_t, uint32_t> m_perturbTrace; ///< perturbations
};

} // namespace debloat
} // namespace ns3

#endif /* SFQ_QUEUE_DISC_H */
