/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_netem.c of Linux 6.x (get_crandom(), tabledist(), loss_4state(),
 * loss_gilb_ell(), loss_event(), packet_time_ns(), tfifo_enqueue(), the delay and reorder
 * part of netem_enqueue(), netem_peek(), get_slot_next() and netem_dequeue()) and the table
 * generators netem/normal.c, netem/pareto.c and netem/paretonormal.c of iproute2.
 */

#ifndef NETEM_CORE_H
#define NETEM_CORE_H

#include "netem-config.h"

#include "ns3/prandom.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

namespace ns3
{
namespace debloat
{

/// @ingroup debloat-qdisc
/// NETEM_DIST_SCALE: a table entry of 8192 is one standard deviation.
constexpr int32_t NETEM_DIST_SCALE = 8192;

/**
 * @ingroup debloat-qdisc
 * @brief struct crndstate: the state of one correlated random sequence.
 */
struct NetemCorrelation
{
    uint32_t last{0}; ///< the previous value
    uint32_t rho{0};  ///< the correlation, a u32 fraction of UINT32_MAX
};

/**
 * @ingroup debloat-qdisc
 * Mirrors get_crandom(): with rho 0 (or no state) a plain prandom_u32_state(); else the
 * weighted mean (value * (2^32 - (rho + 1)) + last * (rho + 1)) >> 32 of a new uniform value
 * and the previous result, which becomes the new last. (This lag-1 correlation also narrows
 * the distribution: the values are no longer uniform, a known property of netem's
 * correlation.)
 * @param state the sequence's state (nullptr: uncorrelated)
 * @param prng the qdisc's generator (q->prng)
 * @return the next value
 */
uint32_t NetemGetCrandom(NetemCorrelation* state, Prandom& prng);

/**
 * @ingroup debloat-qdisc
 * A distribution table as iproute2 generates it (its .dist file, 4096 signed 16-bit values:
 * the inverse cumulative distribution at 4096 evenly spaced points, scaled by
 * NETEM_DIST_SCALE): normal.c (the N(0,1) quantiles from a search of erf() over -10 to 10
 * in steps of 0.00005), pareto.c ((4/3)(u^(-1/3) - 1.5) for u from 1 down to 1/4096: a
 * Pareto of shape 3 shifted to mean 0, clipped at 32767) and paretonormal.c ((normal + 3
 * pareto) / 4). Each table is built once, with the generators' own arithmetic.
 * @param distribution the table
 * @return the table; empty for UNIFORM (no table)
 */
const std::vector<int16_t>& NetemDistTable(NetemDistribution distribution);

/**
 * @ingroup debloat-qdisc
 * Mirrors tabledist(): a value of mean mu and deviation sigma. sigma 0 gives mu and draws
 * nothing; without a table, ((rnd % (2 sigma)) + mu) - sigma, uniform on [mu - sigma,
 * mu + sigma); with one, mu + t sigma / NETEM_DIST_SCALE rounded half away from zero, t being
 * the table entry rnd % size.
 * @param mu the mean
 * @param sigma the deviation (0 to INT_MAX)
 * @param state the correlation state (nullptr: uncorrelated)
 * @param prng the generator
 * @param table the table (nullptr or empty: uniform)
 * @return the value
 */
int64_t NetemTabledist(int64_t mu,
                       int32_t sigma,
                       NetemCorrelation* state,
                       Prandom& prng,
                       const std::vector<int16_t>* table);

/**
 * @ingroup debloat-qdisc
 * Mirrors packet_time_ns(): the time a packet takes at the rate, ns:
 * len' = len + packetOverhead; with a cell size, len' = ceil(len' / cellSize) *
 * (cellSize + cellOverhead); then floor(len' * 10^9 / rate).
 *
 * Deviation from Linux: a length that the overheads make negative counts as 0 bytes (the
 * kernel's u64 would wrap to a time of centuries), and the cell product is not wrapped at 32
 * bits.
 *
 * @param len the packet's length as the qdisc counts it (qdisc_pkt_len(), bytes)
 * @param rate bytes per second (above 0)
 * @param packetOverhead bytes added to every packet (may be negative)
 * @param cellSize cell payload bytes (0: no cells)
 * @param cellOverhead bytes added to every cell (may be negative)
 * @return the time, ns
 */
uint64_t NetemPacketTimeNs(uint64_t len,
                           uint64_t rate,
                           int32_t packetOverhead,
                           uint32_t cellSize,
                           int32_t cellOverhead);

/// @ingroup debloat-qdisc
/// The states of loss_4state()'s Markov chain (the kernel's _4_state_model values).
enum class Netem4State : uint8_t
{
    TX_IN_GAP = 1,     ///< TX_IN_GAP_PERIOD: delivered, in a gap period
    TX_IN_BURST = 2,   ///< TX_IN_BURST_PERIOD: delivered, in a burst period
    LOST_IN_GAP = 3,   ///< LOST_IN_GAP_PERIOD: an isolated loss in a gap period
    LOST_IN_BURST = 4, ///< LOST_IN_BURST_PERIOD: lost, in a burst period
};

/// @ingroup debloat-qdisc
/// The states of loss_gilb_ell()'s chain (GE_state_model).
enum class NetemGeState : uint8_t
{
    GOOD = 1, ///< GOOD_STATE
    BAD = 2,  ///< BAD_STATE
};

/**
 * @ingroup debloat-qdisc
 * Mirrors loss_4state(): one draw against the transition probabilities out of the current
 * state picks the next state, and the packet is lost when that state is a loss state.
 * From TX_IN_GAP: below p14 to LOST_IN_GAP, below p13 + p14 to LOST_IN_BURST (the u32 sum,
 * as the kernel adds it), else stay; from TX_IN_BURST: below p23 to LOST_IN_BURST, else
 * stay; from LOST_IN_BURST: below p32 to TX_IN_BURST, below p31 + p32 to TX_IN_GAP, else
 * stay (lost); from LOST_IN_GAP: back to TX_IN_GAP.
 * @param config p13, p31, p32, p23, p14
 * @param state the chain's state, updated
 * @param prng the generator
 * @return whether the packet is lost
 */
bool NetemLoss4State(const NetemConfig& config, Netem4State& state, Prandom& prng);

/**
 * @ingroup debloat-qdisc
 * Mirrors loss_gilb_ell(): in the good state one draw below p moves to the bad state, and a
 * second draw below 1-K loses the packet; in the bad state one draw below r moves to the good
 * state, and a second draw above h loses it. The loss draw uses the probability of the state
 * the packet found, before the transition.
 * @param config geP, geR, geH, geK1
 * @param state the chain's state, updated
 * @param prng the generator
 * @return whether the packet is lost
 */
bool NetemLossGilbElliott(const NetemConfig& config, NetemGeState& state, Prandom& prng);

/**
 * @ingroup debloat-qdisc
 * get_random_u32_below(): a uniform value in 0..ceil - 1 by Lemire's multiply-and-shift with
 * rejection, as the kernel draws the byte and the bit that corruption flips.
 * @param ceil the bound (above 0)
 * @param generator the source of get_random_u32()
 * @return the value
 */
uint32_t NetemRandomBelow(uint32_t ceil, Prandom& generator);

/**
 * @ingroup debloat-qdisc
 * @brief Counters of what netem did, as tc_netem_xstats names them.
 */
struct NetemStats
{
    uint64_t delayed{0};    ///< packets put in the time-ordered queue
    uint64_t dropped{0};    ///< packets the loss model dropped
    uint64_t corrupted{0};  ///< packets with a bit flipped
    uint64_t duplicated{0}; ///< copies made
    uint64_t reordered{0};  ///< packets sent ahead of the queue (reorder/gap)
    uint64_t ecnMarked{0};  ///< packets the loss model CE-marked instead of dropping
};

/**
 * @ingroup debloat-qdisc
 * @brief netem's per-qdisc state (struct netem_sched_data without the skbs): the random
 * generators and correlation states, the loss chain, the reorder counter, the time-ordered
 * queue (tfifo), the queue of reordered packets and the slots.
 *
 * The queue disc calls the phases of netem_enqueue() in the kernel's order, doing what
 * needs the packet itself (copying, marking, corrupting) in between: DrawDuplicate(),
 * DrawLoss(), DrawCorrupt() (then NetemRandomBelow() on GetEntropy() for the byte and bit),
 * IsFull(), and Insert(), which draws the reorder decision and the delay and queues the
 * packet's handle. Dequeue() is netem_dequeue() without the qdisc's counters; when it holds
 * a packet back it leaves the watchdog time for TakeWatchdog().
 *
 * Two generators: the qdisc's prng (q->prng: prandom_u32_state() seeded by
 * prandom_seed_state() from tc's seed, or from a random 64-bit value), which drives the
 * correlated draws, the loss models and a slot distribution; and the entropy source that
 * stands for the kernel's get_random_u32() (the correlation states' first values, the
 * corrupted byte and bit, and uniform slot delays). With a given seed the prng's sequence is
 * the kernel's.
 *
 * The tfifo holds the packets in time_to_send order, equal times in arrival order: as the
 * kernel, a linear list while times come in order (t_head..t_tail) and otherwise a second
 * structure for the earlier ones (the kernel's rbtree, a binary heap here), the earlier of
 * the two heads leaving first.
 */
class NetemScheduler
{
  public:
    /// What the queue disc queues for a packet.
    using Handle = uint32_t;

    /**
     * netem_init() and netem_change(): takes the settings and seeds the generators.
     * @param config the settings (checked with ValidateNetemConfig())
     * @param seed the prng's seed when config has none (netem_init()'s get_random_u64())
     * @param entropySeed the seed of the get_random_u32() stand-in
     * @param nowNs the time of the configuration (get_slot(): the first slot opens then)
     */
    NetemScheduler(const NetemConfig& config, uint64_t seed, uint64_t entropySeed, int64_t nowNs);

    /// @return the settings
    const NetemConfig& GetConfig() const;

    /**
     * netem_enqueue()'s random duplication: q->duplicate >= get_crandom(&q->dup_cor).
     * @return whether to make a copy (no draw when duplicate is 0)
     */
    bool DrawDuplicate();

    /// loss_event(): @return whether the loss model loses this packet
    bool DrawLoss();

    /// @return whether to corrupt this packet (q->corrupt >= get_crandom(&q->corrupt_cor))
    bool DrawCorrupt();

    /// @return the get_random_u32() stand-in (for NetemRandomBelow())
    Prandom& GetEntropy();

    /**
     * @param qlen the packets the qdisc holds
     * @return whether a new one goes over the limit (sch->q.qlen >= sch->limit)
     */
    bool IsFull(uint32_t qlen) const;

    /**
     * The rest of netem_enqueue() for a packet that stays: unless gap is set and this is
     * a gap-th packet that draws a reorder, its time_to_send is now + tabledist(latency,
     * jitter); with a rate, after the last queued packet's time (the delay it already has
     * counts against the new one's, at least 0) plus packet_time_ns(); then tfifo_enqueue().
     * A reordered packet is sent at once: it goes to the head of the queue of reordered
     * packets (__qdisc_enqueue_head(): the newest first).
     * @param handle the packet's handle
     * @param len its length as the qdisc counts it (for the rate and the slots)
     * @param nowNs the time
     * @return its time_to_send, ns
     */
    int64_t Insert(Handle handle, uint32_t len, int64_t nowNs);

    /**
     * netem_dequeue(): a reordered packet first; else the tfifo's earliest packet when its
     * time has come and the slot is open (starting a new slot when the earliest packet's
     * time is after the current slot's start, and when a slot's packets or bytes run out).
     * @param nowNs the time
     * @return the packet's handle, or nullopt (then TakeWatchdog() has the time to try again)
     */
    std::optional<Handle> Dequeue(int64_t nowNs);

    /// @return the time the held packet may go (the watchdog's), once; nullopt if none
    std::optional<int64_t> TakeWatchdog();

    /// @return the packets queued
    uint32_t GetQlen() const;

    /// @return the counters
    NetemStats& GetStats();

    /// @return the start of the next slot, ns (meaningful when slots are on)
    int64_t GetSlotNext() const;

  private:
    /// One queued packet.
    struct Entry
    {
        int64_t timeToSend; ///< ns
        uint64_t order;     ///< arrival order, to keep equal times first in first out
        Handle handle;      ///< the packet
        uint32_t len;       ///< its length, bytes
    };

    /// Heap order: the earliest time, then the earliest arrival, on top.
    struct Later
    {
        /// @param a an entry @param b another @return whether a leaves after b
        bool operator()(const Entry& a, const Entry& b) const
        {
            return a.timeToSend != b.timeToSend ? a.timeToSend > b.timeToSend : a.order > b.order;
        }
    };

    /// tfifo_enqueue(): in order at the tail of the linear list, else into the heap.
    void TfifoEnqueue(const Entry& entry);
    /// netem_peek(): @return the tfifo's next entry, or nullptr
    const Entry* Peek() const;
    /// netem_erase_head(): removes the entry Peek() returned
    void EraseHead();
    /// @return the latest time_to_send queued (the rate's reference), or nullopt
    std::optional<int64_t> LastTimeToSend() const;
    /// get_slot_next(): a new slot from now, with a fresh packet and byte budget
    void GetSlotNext(int64_t nowNs);

    NetemConfig m_config;                         ///< the settings
    const std::vector<int16_t>* m_delayDist;      ///< delay table (nullptr: uniform)
    const std::vector<int16_t>* m_slotDist;       ///< slot table (nullptr: uniform slots)
    Prandom m_prng;                               ///< q->prng
    Prandom m_entropy;                            ///< get_random_u32()
    NetemCorrelation m_delayCor;                  ///< delay_cor
    NetemCorrelation m_lossCor;                   ///< loss_cor
    NetemCorrelation m_dupCor;                    ///< dup_cor
    NetemCorrelation m_reorderCor;                ///< reorder_cor
    NetemCorrelation m_corruptCor;                ///< corrupt_cor
    Netem4State m_4state{Netem4State::TX_IN_GAP}; ///< loss_4state()'s chain
    NetemGeState m_geState{NetemGeState::GOOD};   ///< loss_gilb_ell()'s chain
    uint32_t m_counter{0};                        ///< packets since the last reordered one

    std::deque<Entry> m_linear;    ///< t_head..t_tail: times in order
    std::vector<Entry> m_heap;     ///< the rbtree's part: earlier times, a min-heap
    int64_t m_heapLast{0};         ///< the heap's latest time (skb_rb_last())
    std::deque<Entry> m_reordered; ///< sch->q: reordered packets, newest at the front
    uint64_t m_order{0};           ///< arrivals so far

    bool m_slotsOn{false};             ///< slots configured
    int64_t m_slotNext{0};             ///< slot.slot_next, ns
    int64_t m_packetsLeft{0};          ///< slot.packets_left
    int64_t m_bytesLeft{0};            ///< slot.bytes_left
    std::optional<int64_t> m_watchdog; ///< pending watchdog time, ns
    NetemStats m_stats;                ///< counters
};

} // namespace debloat
} // namespace ns3

#endif /* NETEM_CORE_H */
