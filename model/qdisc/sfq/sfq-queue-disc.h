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
 * kernel's byte-based deficit round robin (SfqScheduler). Options are the ns-3 attributes
 * below, or one tc-style string in `Options` ("limit 127 quantum 1514 perturb 10 headdrop"),
 * which overrides them. Packet filters, when added, choose the bucket as tc filters do
 * (class 1..divisor); a packet they do not classify is dropped.
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
     */
    void PrintStats(std::ostream& os);

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
    const SfqScheduler<QueueDiscItemList::Handle>& GetScheduler() const;

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
    using Item = QueueDiscItemList::Handle;

    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;
    void DoDispose() override;

    /**
     * The options from the attributes and the Options string, checked.
     * @return the scheduler's parameters
     * @throws std::invalid_argument naming the offending word or value
     */
    SfqParameters BuildParameters();
    /// Applies the Options string over the attributes; stops with tc's message when invalid.
    void ParseOptions();
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
    std::string m_options;   ///< the tc-style option string

    std::unique_ptr<SfqScheduler<Item>> m_scheduler; ///< the algorithm
    Ptr<QueueDiscItemList> m_list;                   ///< accounting for ns-3's QueueDisc
    Ptr<QueueDiscItem> m_arriving;                   ///< the packet being enqueued
    Ptr<UniformRandomVariable> m_uniform;            ///< hash keys and RED's random numbers
    uint64_t m_key0{0};                              ///< perturbation key, first half
    uint64_t m_key1{0};                              ///< perturbation key, second half
    EventId m_perturbEvent;                          ///< next perturbation
};

} // namespace debloat
} // namespace ns3

#endif /* SFQ_QUEUE_DISC_H */
