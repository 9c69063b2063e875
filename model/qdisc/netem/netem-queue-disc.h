/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_netem.c of Linux 6.x (netem_enqueue(), netem_dequeue(),
 * netem_init(), netem_change()).
 */

#ifndef NETEM_QUEUE_DISC_H
#define NETEM_QUEUE_DISC_H

#include "netem-core.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc-item-list.h"
#include "ns3/queue-disc.h"
#include "ns3/random-variable-stream.h"
#include "ns3/shaper-watchdog.h"
#include "ns3/traced-callback.h"

#include <memory>
#include <ostream>
#include <string>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief Linux's network emulator (net/sched/sch_netem.c, tc-netem(8)) as an ns-3 queue disc:
 * delay with jitter and correlation from iproute2's distribution tables, loss (random,
 * 4-state Markov, Gilbert-Elliott, optionally ECN marks instead), duplication, corruption,
 * reordering with gap, a rate with packet and cell overheads, slots, and a packet limit.
 *
 * @section netem-enqueue Enqueue (netem_enqueue())
 * In the kernel's order, for each packet: whether to duplicate it; whether the loss model
 * loses it (with Ecn an ECN-capable packet is CE-marked instead: Mark() with ECN_MARK; else
 * it is dropped with LOSS_DROP); whether to corrupt it (one random bit of the packet is
 * flipped); the limit (LIMIT_DROP when Limit packets are queued); then, unless gap and
 * reorder send it ahead at once, a time_to_send of now + tabledist(Delay, Jitter) (with a
 * Rate, after the last queued packet's time, plus the packet's time at the rate), and the
 * time-ordered queue (tfifo). A duplicate is a copy of the packet made before corruption,
 * enqueued again (it may itself be lost, corrupted or delayed, but not duplicated).
 *
 * @section netem-dequeue Dequeue (netem_dequeue())
 * A reordered packet leaves at once; otherwise the earliest packet leaves when its time has
 * come and, with slots, when a slot is open. When the earliest packet must wait, the
 * ShaperWatchdog runs the queue disc again at its time (qdisc_watchdog_schedule_ns()).
 * So without a rate, jitter reorders packets (each gets its own time; the tfifo sorts by
 * it); with a rate each time follows the previous one's, so the order holds.
 *
 * The attributes below are the one source of truth; Options takes tc-netem's words ("delay
 * 40ms 4ms 25% distribution normal loss random 1%") and sets the attributes of the word
 * groups it names (see ParseNetemOptions()). Randomness comes from the queue disc's ns-3
 * stream (AssignStreams()): the kernel's prng seed (unless Seed is set) and the stand-in of
 * the kernel's get_random_u32() are drawn from it, so the same seed and run give the same
 * packets lost, delayed and reordered.
 *
 * Traces: Schedule (each accepted packet with its time_to_send), Duplicate, Corrupt; drops
 * and marks through QueueDisc's traces with the reasons below.
 *
 * Deviation from Linux: the duplicate is enqueued after the original rather than before it,
 * and into this queue disc rather than at the root of its tree: ns-3's QueueDisc::Enqueue()
 * checks that each packet it receives is queued or dropped before the next arrives, so the
 * copy can only follow. Under a rate the copy therefore queues behind the original (the
 * kernel queues the original behind the copy; with equal sizes the times are the same), the
 * copy's random draws come after the original's delay draw, and the copy sees the original
 * in the limit. Only IPv4, IPv6 and ARP packets are copied (ns-3 needs the item's type).
 *
 * Deviation from Linux: corruption flips a bit among the bytes of the packet below its IP
 * header (the transport header and payload), because ns-3 keeps the IP header as an object
 * until the packet leaves and adds no link-layer header before the device; the kernel picks
 * a byte of the linear data from the MAC header on. Linux computes the checksum first
 * (skb_checksum_help()), so the receiver drops a packet corrupted there; in ns-3 that
 * happens only with checksums enabled (GlobalValue ChecksumEnabled), else the flipped bit is
 * delivered. A GSO super-packet is corrupted whole rather than segmented first
 * (netem_segment()).
 *
 * Deviation from Linux: netem's child qdisc (tc qdisc add ... parent X:1, q->qdisc) is not
 * modelled: packets leave the tfifo directly. skb_orphan_partial() (with a delay, jitter or
 * rate the socket's TCP small queues charge is given back at enqueue) is not modelled: a
 * charge comes back when the device completes the packet. requeues in PrintStats() adds the
 * reordered packets to ns-3's requeues, as netem counts them in sch->qstats.requeues.
 */
class NetemQueueDisc : public QueueDisc
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NetemQueueDisc();
    ~NetemQueueDisc() override;

    /// Delay tables for the Distribution and SlotDistribution attributes (NetemDistribution).
    enum Distribution
    {
        UNIFORM = static_cast<int>(NetemDistribution::UNIFORM),           ///< no table
        NORMAL = static_cast<int>(NetemDistribution::NORMAL),             ///< normal
        PARETO = static_cast<int>(NetemDistribution::PARETO),             ///< pareto
        PARETONORMAL = static_cast<int>(NetemDistribution::PARETONORMAL), ///< paretonormal
    };

    /// Loss generators for the LossModel attribute (NetemLossModel).
    enum LossModel
    {
        LOSS_RANDOM = static_cast<int>(NetemLossModel::RANDOM),   ///< loss random
        LOSS_STATE = static_cast<int>(NetemLossModel::STATE),     ///< loss state
        LOSS_GEMODEL = static_cast<int>(NetemLossModel::GEMODEL), ///< loss gemodel
    };

    /**
     * Assigns a fixed random stream number to the random variables used by this model.
     * @param stream first stream index to use
     * @return the number of stream indices assigned by this model
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * Prints the queue disc as `tc -s qdisc show` does: the options (netem_print_opt()),
     * tc's counters and netem's extended statistics (netem_print_xstats()).
     * @param os the stream
     * @param parent where it hangs: "root", or an mq child's "parent 1:3"
     */
    void PrintStats(std::ostream& os, const std::string& parent = "root");

    /**
     * Checks a tc-netem option string as CheckConfig() would.
     * @param options the options
     * @throws std::invalid_argument naming the offending word or value
     */
    static void ValidateOptions(const std::string& options);

    /// @return the settings in force (the attributes, checked), once initialized
    const NetemConfig& GetConfig() const;

    /// @return what netem did (tc_netem_xstats), once initialized
    const NetemStats& GetNetemStats() const;

    /**
     * TracedCallback signature for an accepted packet and the time it is due to leave.
     * @param item the packet
     * @param timeToSend when it may leave (now for a reordered packet)
     */
    typedef void (*ScheduleTracedCallback)(Ptr<const QueueDiscItem> item, Time timeToSend);

    /**
     * TracedCallback signature for a corrupted packet.
     * @param item the packet
     * @param byte the byte flipped (from the start of the packet below its IP header)
     * @param bit the bit flipped (0: least significant)
     */
    typedef void (*CorruptTracedCallback)(Ptr<const QueueDiscItem> item,
                                          uint32_t byte,
                                          uint32_t bit);

    static constexpr const char* LOSS_DROP = "Loss";             ///< the loss model dropped it
    static constexpr const char* LIMIT_DROP = "Limit exceeded";  ///< limit packets queued
    static constexpr const char* ECN_MARK = "Loss (ECN marked)"; ///< marked instead of lost

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    bool CheckConfig() override;
    void InitializeParams() override;
    void DoDispose() override;

    /// @return the settings the attributes give (not yet checked)
    NetemConfig BuildConfig() const;
    /// @param config settings to set the attributes to
    void ApplyConfig(const NetemConfig& config);
    /**
     * The Options attribute's setter: ParseNetemOptions() over the attributes, stopping
     * with tc's message when invalid.
     * @param options the words
     */
    void SetOptions(std::string options);
    /// The Options attribute's getter. @return the settings as netem_print_opt() prints them
    std::string GetOptions() const;
    /**
     * Flips one random bit of the packet (netem_enqueue()'s corruption).
     * @param item the packet
     */
    void Corrupt(Ptr<QueueDiscItem> item);
    /**
     * skb_clone(): a copy of the packet, without its socket charge.
     * @param item the packet
     * @return the copy; nullptr for a kind of item that cannot be copied
     */
    static Ptr<QueueDiscItem> Copy(Ptr<const QueueDiscItem> item);

    // Attributes (tc-netem's options).
    uint32_t m_limit;                ///< limit, packets
    Time m_delay;                    ///< delay
    Time m_jitter;                   ///< jitter
    double m_delayCorrelation;       ///< delay correlation, percent
    Distribution m_distribution;     ///< distribution
    LossModel m_lossModel;           ///< loss model
    double m_loss;                   ///< loss random, percent
    double m_lossCorrelation;        ///< loss random correlation, percent
    double m_p13;                    ///< loss state p13, percent
    double m_p31;                    ///< loss state p31, percent (-1: 100 - p13)
    double m_p32;                    ///< loss state p32, percent
    double m_p23;                    ///< loss state p23, percent
    double m_p14;                    ///< loss state p14, percent
    double m_geP;                    ///< loss gemodel p, percent
    double m_geR;                    ///< loss gemodel r, percent (-1: 100 - p)
    double m_ge1MinusH;              ///< loss gemodel 1-h, percent
    double m_ge1MinusK;              ///< loss gemodel 1-k, percent
    bool m_ecn;                      ///< ecn
    double m_duplicate;              ///< duplicate, percent
    double m_duplicateCorrelation;   ///< duplicate correlation, percent
    double m_reorder;                ///< reorder, percent
    double m_reorderCorrelation;     ///< reorder correlation, percent
    uint32_t m_gap;                  ///< gap
    double m_corrupt;                ///< corrupt, percent
    double m_corruptCorrelation;     ///< corrupt correlation, percent
    DataRate m_rate;                 ///< rate (0: none)
    int32_t m_packetOverhead;        ///< rate's packet overhead, bytes
    uint32_t m_cellSize;             ///< rate's cell size, bytes
    int32_t m_cellOverhead;          ///< rate's cell overhead, bytes
    Time m_slotMin;                  ///< slot MIN_DELAY
    Time m_slotMax;                  ///< slot MAX_DELAY
    Distribution m_slotDistribution; ///< slot distribution
    Time m_slotDelay;                ///< slot distribution's DELAY
    Time m_slotJitter;               ///< slot distribution's JITTER
    uint32_t m_slotPackets;          ///< slot packets (0: unlimited)
    uint32_t m_slotBytes;            ///< slot bytes (0: unlimited)
    uint64_t m_seed;                 ///< seed (0: drawn from the stream)

    std::unique_ptr<NetemScheduler> m_scheduler; ///< the algorithm
    NetemConfig m_config;                        ///< the settings in force
    Ptr<QueueDiscItemList> m_list;               ///< accounting for ns-3's QueueDisc
    Ptr<UniformRandomVariable> m_uniform;        ///< the seeds
    ShaperWatchdog m_watchdog;                   ///< runs the queue disc at time_to_send
    bool m_enqueuingDuplicate{false};            ///< the copy is being enqueued

    TracedCallback<Ptr<const QueueDiscItem>, Time> m_scheduleTrace; ///< accepted packets
    TracedCallback<Ptr<const QueueDiscItem>> m_duplicateTrace;      ///< packets copied
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t, uint32_t> m_corruptTrace; ///< flips
};

} // namespace debloat
} // namespace ns3

#endif /* NETEM_QUEUE_DISC_H */
