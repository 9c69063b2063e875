/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_sfq.c of Linux: the modern SFQ of Linux 3.3 and later, with the int
 * allotment of "net_sched: sch_sfq: handle bigger packets" (2024) and the 2024-2025
 * configuration checks; and, as a classic mode, the SFQ of Linux ~3.1-3.2.
 */

#ifndef SFQ_SCHEDULER_H
#define SFQ_SCHEDULER_H

#include "red-core.h"

#include "ns3/tc-options.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief The options of `tc qdisc ... sfq`, as the kernel sees them (struct tc_sfq_qopt_v1
 * without perturb: the caller owns the perturbation timer and the hash key).
 *
 * Classic mode models SFQ as Linux ~3.1-3.2 ran it (see SfqScheduler); it takes limit,
 * divisor and quantum only: flows and depth must keep their defaults (128 slots and
 * 127, which were fixed then), headdrop and red must be off.
 */
struct SfqParameters
{
    static constexpr uint32_t MAX_DEPTH = 127;     ///< SFQ_MAX_DEPTH: packets per flow
    static constexpr uint32_t MAX_FLOWS = 65408;   ///< SFQ_MAX_FLOWS: 0x10000 - 127 - 1
    static constexpr uint32_t MAX_DIVISOR = 65536; ///< largest hash table
    static constexpr uint32_t CLASSIC_SLOTS = 128; ///< SFQ_SLOTS of the classic kernels
    static constexpr uint32_t CLASSIC_LIMIT = 127; ///< SFQ_DEPTH - 1: classic maximum limit

    uint32_t limit{127};              ///< limit: packets in the whole qdisc
    uint32_t depth{127};              ///< depth: packets per flow, 1..127
    uint32_t flows{128};              ///< flows: flow slots, 1..65408 and <= divisor
    uint32_t divisor{1024};           ///< divisor: hash buckets, a power of two <= 65536
    uint32_t quantum{1514};           ///< quantum: bytes a flow may send per round
    bool headdrop{false};             ///< headdrop: drop a flow's oldest packet, not the new
    bool classic{false};              ///< run the Linux ~3.1-3.2 algorithm
    std::optional<RedParameters> red; ///< per-flow RED (tc's redflowlimit and friends)

    /**
     * Checks the options the way sfq_change() and iproute2 do, and refuses what the kernel
     * would silently clamp.
     *
     * Deviation from Linux: the kernel clamps flows to 65408 and to divisor, depth to 127
     * and (classic) limit to 127, and reads 0 in any field as "keep the current value"; here
     * those values are refused, so that a configuration never silently becomes another.
     * Classic mode refuses limit 1 too, which the classic kernels accepted.
     *
     * @throws std::invalid_argument naming the option and its accepted values
     */
    void Validate() const;

    /**
     * The words of `tc qdisc ... sfq` as iproute2's sfq_parse_opt() (tc/q_sfq.c) reads
     * them: limit as get_u32() with its "must be > 1", quantum and avpkt as get_size(),
     * perturb as get_integer(), redflowlimit, min and max as plain get_u32() (no units),
     * burst as get_unsigned(), probability as "%lg".
     * @return the grammar
     */
    static const TcGrammar& Grammar();

    /**
     * sfq_change(): limit = min(limit, depth * flows); classic: limit.
     * @return the number of packets the qdisc holds at most
     */
    uint32_t GetEffectiveLimit() const;

    /**
     * sfq_change(): flows = min(flows, effective limit); classic: 128 slots.
     *
     * Deviation from Linux: the kernel derives limit and flows only when tc passes a limit,
     * so a plain `tc qdisc add ... sfq` keeps 128 slots for its 127 packets. Here the
     * derivation always applies (127 slots by default). That matters only when 127 flows of
     * one packet each fill the qdisc and a 128th flow arrives: the kernel drops the packet of
     * the slot about to be served, this model the new one (NO_FREE_SLOT).
     *
     * @return the number of flow slots
     */
    uint32_t GetEffectiveFlows() const;

    /**
     * depth; classic: limit (a slot could hold the whole qdisc).
     * @return the number of packets one flow holds at most
     */
    uint32_t GetEffectiveDepth() const;
};

/// Why SFQ dropped a packet.
enum class SfqDropReason : uint8_t
{
    NO_FREE_SLOT,    ///< a new flow found every slot busy (dep[0] empty)
    FLOW_DEPTH,      ///< the flow held depth packets
    RED_PROB_DROP,   ///< RED between the thresholds, not marked (prob_drop)
    RED_FORCED_DROP, ///< RED at or above max, not marked (forced_drop)
    OVERLIMIT,       ///< the qdisc held more than limit packets (sfq_drop())
};

/// Why SFQ marked a packet CE (the fields of struct tc_sfqred_stats that count marks).
enum class SfqMarkReason : uint8_t
{
    PROB_MARK,        ///< RED between the thresholds: the new packet
    PROB_MARK_HEAD,   ///< RED between the thresholds, headdrop: the flow's oldest packet
    FORCED_MARK,      ///< RED at or above max: the new packet
    FORCED_MARK_HEAD, ///< RED at or above max, headdrop: the flow's oldest packet
};

/// RED counters, as struct tc_sfqred_stats (tc -s qdisc prints them).
struct SfqRedStats
{
    uint32_t probDrop{0};       ///< prob_drop
    uint32_t forcedDrop{0};     ///< forced_drop
    uint32_t probMark{0};       ///< prob_mark
    uint32_t forcedMark{0};     ///< forced_mark
    uint32_t probMarkHead{0};   ///< prob_mark_head
    uint32_t forcedMarkHead{0}; ///< forced_mark_head
};

/// One active flow as `tc -s class show` prints it (sfq_dump_class_stats()).
struct SfqFlowStats
{
    uint32_t bucket{0};  ///< hash bucket; the tc class minor is bucket + 1
    uint32_t qlen{0};    ///< packets
    uint32_t backlog{0}; ///< bytes
    int32_t allot{0};    ///< remaining allotment this round, bytes
};

/// What an SfqObserver hears of a drop.
struct SfqDropEvent
{
    uint32_t handle{0};                             ///< the dropped packet
    uint32_t length{0};                             ///< its length, bytes
    uint32_t bucket{0};                             ///< its hash bucket
    uint32_t slot{0};                               ///< its slot; SfqScheduler::NO_SLOT: none
    SfqDropReason reason{SfqDropReason::OVERLIMIT}; ///< why
    bool isNew{false}; ///< it is the packet being enqueued, else it was queued
};

/// What an SfqObserver hears of a CE mark (already made).
struct SfqMarkEvent
{
    uint32_t handle{0};                             ///< the marked packet
    uint32_t bucket{0};                             ///< its hash bucket
    uint32_t slot{0};                               ///< its slot
    SfqMarkReason reason{SfqMarkReason::PROB_MARK}; ///< the tc_sfqred_stats counter it adds to
};

/// What an SfqObserver hears at the end of a rehash (sfq_rehash()).
struct SfqRehashEvent
{
    uint32_t requeued{0}; ///< packets re-inserted under the new hash
    uint32_t dropped{0};  ///< packets dropped (no free slot, or the slot at depth)
};

/**
 * @ingroup debloat-qdisc
 * @brief Listeners for SfqScheduler's decisions; an unset member costs one test.
 *
 * They run inside the scheduler's calls once its state has changed, and must not call back
 * into the scheduler. A drop is heard before the DropCallback of Rehash() receives it.
 */
struct SfqObserver
{
    std::function<void(const SfqDropEvent&)> onDrop;     ///< each drop, in Rehash() too
    std::function<void(const SfqMarkEvent&)> onMark;     ///< each RED CE mark
    std::function<void(const SfqRehashEvent&)> onRehash; ///< the end of each Rehash()
    std::function<void(uint32_t bucket, uint32_t slot)>
        onSlotAllocated; ///< an empty bucket took a free slot (Enqueue() or Rehash())
};

/**
 * @ingroup debloat-qdisc
 * @brief Stochastic Fairness Queueing, the algorithm of Linux's sch_sfq, free of ns-3.
 *
 * The caller hashes each packet (the kernel's skb_get_hash_perturb() with the perturbation
 * key, or a class chosen by skb->priority or a filter, minus one) and passes its length
 * (qdisc_pkt_len()); the bucket is hash & (divisor - 1). The data layout is the kernel's:
 * ht[divisor] maps a bucket to a slot or EMPTY; each slot has a packet FIFO, qlen, backlog,
 * allot, its bucket, the next slot in the round and RED variables; dep[d] lists the slots
 * holding d packets (dep[0] is the free list) with cur_depth the longest; the active slots
 * form a ring whose tail is the slot served last, so tail->next is served next. Packets live
 * in a pool of limit + 1 entries linked by index, allocated once: nothing is allocated per
 * packet.
 *
 * Modern mode (Linux 3.3 and later): per-flow depth, headdrop, per-flow RED with ECN, new
 * flows join the END of the round, rehash on perturbation.
 *
 * Classic mode reproduces SFQ as Linux ~3.1-3.2 ran it (the 2011 bufferbloat experiments):
 * - 128 slots and a total limit of at most 127 (SFQ_DEPTH 128, limit min(limit, 127));
 *   a slot may hold up to limit packets (its new packet is dropped at qlen >= limit), so only
 *   the total counts; no headdrop, no RED; the divisor and quantum options existed.
 * - Overflow drops the tail of a longest slot; with every slot at one packet, the packet of
 *   the slot about to be served (sfq_drop(), same as today).
 * - A new flow is linked right after the tail WITHOUT moving the tail, so it is served next:
 *   commit d47a0ac7b668 "sch_sfq: dont put new flow at the end of flows" (Eric Dumazet,
 *   reported by Dave Taht), read in the stored ~3.2/3.3 sch_sfq.c (blob 02a9098e). A later
 *   kernel reverted it (old flows could starve under stress, Jesper Brouer) and new flows
 *   join the end again, as in modern mode. The reference dates the change to ~3.1-3.2 and the
 *   revert to after 3.3 from the stored versions only: treat the release numbers as hedged.
 *   Kernels 2.6.38-3.0 appended new flows at the end; that variant is not modelled.
 * - Perturbation re-keys the hash and never moves queued packets, as in releases up to 3.2
 *   (the stored ~3.2/3.3 development copy already has sfq_rehash(), which came with the 3.3
 *   work): in classic mode the caller only changes its hash key, and Rehash() refuses to run.
 *
 * Allotment. Up to 2024 a slot's allot was a 16-bit short in units of 8 bytes
 * (SFQ_ALLOT_SHIFT 3): a new or refilled slot got ceil(quantum / 8) and each packet cost
 * ceil(len / 8). "net_sched: sch_sfq: handle bigger packets" (Eric Dumazet, Oct 2024, merged
 * for ~6.13 and backported to stable) made it a 32-bit int in bytes. Both modes use the byte
 * allot. Deviation from Linux (classic mode, and modern kernels before that patch): with the
 * scaled allot a flow could send up to 7 bytes more per round (a 1514-byte quantum was 190
 * units = 1520 bytes) and a packet cost its length rounded up to 8; the order of service
 * differs only when those few bytes decide whether a slot's allot is still positive.
 *
 * Packets are uint32_t handles that the caller chooses (the ns-3 adapter passes those of its
 * QueueDiscItemList); the scheduler keeps each queued handle and gives it back when the
 * packet leaves or is dropped. An SfqObserver, when set, hears each drop and mark with its
 * bucket and slot, each slot allocation and each rehash.
 */
class SfqScheduler
{
  public:
    /// A packet, as the caller names it.
    using Handle = uint32_t;

    /// The slot of a drop that found no free slot (SfqDropEvent::slot).
    static constexpr uint32_t NO_SLOT = UINT32_MAX;

    /**
     * Tries to set CE on a packet (INET_ECN_set_ce()): returns false, and leaves the packet
     * alone, when it is not ECN-capable. Called only with RED and ecn configured.
     */
    using MarkCallback = std::function<bool(Handle handle, SfqMarkReason reason)>;

    /// Receives each packet that Rehash() drops (it was queued).
    using DropCallback = std::function<void(Handle handle, uint32_t length, SfqDropReason reason)>;

    /// Gives a queued packet's flow hash under the new key (Rehash()).
    using HashCallback = std::function<uint32_t(Handle handle)>;

    /// Receives one active flow (ForEachActiveFlow()).
    using FlowVisitor = std::function<void(const SfqFlowStats& flow)>;

    /// A dropped packet.
    struct Drop
    {
        Handle handle;        ///< the packet
        uint32_t length;      ///< its length, bytes
        SfqDropReason reason; ///< why
        bool isNew;           ///< it is the packet of this Enqueue(), else it was queued
    };

    /**
     * What one Enqueue() did. At most one packet is dropped per enqueue. A dropped new packet
     * (isNew) never counts as queued: the ns-3 side reports it with DropBeforeEnqueue(); a
     * dropped queued packet with DropAfterDequeue().
     */
    struct EnqueueResult
    {
        bool accepted{false};              ///< the new packet is queued
        std::optional<Drop> drop;          ///< the packet dropped, if any
        std::optional<SfqMarkReason> mark; ///< the CE mark made, if any (already applied)
    };

    /**
     * Mirrors sfq_init() and sfq_change() on an empty qdisc.
     * @param params the options; validated here
     * @param random uniform 32-bit random numbers; required with RED
     * @param mark sets CE on a packet; required with RED and ecn
     * @throws std::invalid_argument naming the option at fault
     */
    explicit SfqScheduler(const SfqParameters& params,
                          Red::RandomSource random = {},
                          MarkCallback mark = {});

    /**
     * Sets the listeners, replacing those set before.
     * @param observer the listeners; unset members are skipped
     */
    void SetObserver(SfqObserver observer);

    /**
     * Mirrors sfq_enqueue():
     * 1. bucket = hash & (divisor - 1). An empty bucket takes the free slot at the head of
     *    dep[0] (none: drop the packet, NO_FREE_SLOT), resets its backlog and RED variables
     *    and goes to step 4: a flow's first packet sees neither RED nor the depth limit.
     * 2. With RED: qavg = EWMA of the slot's backlog (without this packet); PROB_MARK and
     *    HARD_MARK count an overlimit; with ecn (and, for HARD_MARK, without harddrop) mark
     *    the slot's oldest packet if headdrop, else (or if that fails) the new one; a packet
     *    that could not be marked makes a congestion drop (RED_PROB_DROP/RED_FORCED_DROP).
     * 3. A congestion drop, or a slot already holding depth packets (FLOW_DEPTH): without
     *    headdrop the new packet is dropped; with headdrop the slot's oldest packet is
     *    dropped and the new one appended in its place, and the enqueue ends there.
     * 4. Append, add to the backlogs, sfq_inc(); a slot that just became active joins the
     *    round (modern: at its end, as the new tail; classic: right after the tail, served
     *    next) with allot = quantum.
     * 5. If the qdisc now holds more than limit packets, sfq_drop() drops one (OVERLIMIT):
     *    the tail (headdrop: the head) of a longest slot, the one that most recently reached
     *    cur_depth; if every slot holds one packet, the packet of the slot about to be served,
     *    which leaves the round (reachable in classic mode only: in modern mode flows <= limit).
     *    That may be the new packet itself.
     * @param handle the packet
     * @param length its length, bytes (below 2^31)
     * @param hash its flow hash
     * @return what happened
     */
    EnqueueResult Enqueue(Handle handle, uint32_t length, uint32_t hash);

    /**
     * Mirrors sfq_dequeue(): from the slot after the tail, skipping (and making the tail)
     * every slot whose allot is used up (allot <= 0) after crediting it quantum bytes, take
     * the head packet. A slot left empty frees its bucket and leaves the round; otherwise its
     * allot drops by the packet's length.
     * @return the packet, or nothing when the qdisc is empty
     */
    std::optional<Handle> Dequeue();

    /**
     * Mirrors sfq_rehash(), which the perturbation timer runs after drawing a new key:
     * pulls every packet out, slot by slot in slot order and oldest first within a slot,
     * resets the slots (backlog, RED variables) and re-inserts each packet with its new hash.
     * A packet finding no free slot (NO_FREE_SLOT) or a full slot (FLOW_DEPTH) is dropped;
     * RED's average is updated per re-insert but RED takes no action; slots that become
     * active join the end of the round with allot = quantum. The order within each new flow
     * is the order in which packets were pulled out, so two packets of one old flow keep
     * their order.
     * The kernel's timer rehashes only when no tc filter classifies and the qdisc is not
     * empty; that choice is the caller's.
     * @param newHash the flow hash of a queued packet under the new key
     * @param onDrop receives each dropped packet (it was queued); must not call back into
     *        this scheduler
     * @throws std::logic_error in classic mode, whose kernels never moved queued packets
     */
    void Rehash(const HashCallback& newHash, const DropCallback& onDrop);

    /// @return packets queued (sch->q.qlen)
    uint32_t GetQlen() const;

    /// @return bytes queued (sch->qstats.backlog)
    uint64_t GetBacklog() const;

    /// @return slots in the round, i.e. flows with packets queued
    uint32_t GetActiveFlows() const;

    /**
     * Mirrors sfq_dump_class_stats() for class bucket + 1.
     * @param bucket the hash bucket
     * @return its flow's counters, or nothing when no flow holds the bucket
     */
    std::optional<SfqFlowStats> GetFlowStats(uint32_t bucket) const;

    /**
     * Mirrors sfq_walk(): visits each active flow in bucket order, as `tc -s class show`.
     * @param visit called with each flow's SfqFlowStats
     */
    void ForEachActiveFlow(const FlowVisitor& visit) const;

    /// @return the RED counters (all zero without RED)
    const SfqRedStats& GetRedStats() const;

    /// @return RED decisions to mark or drop (sch->qstats.overlimits)
    uint32_t GetOverlimits() const;

    /// @return the options as given
    const SfqParameters& GetParameters() const;

    /// @return the effective limit, packets (tc qdisc show: limit)
    uint32_t GetLimit() const;

    /// @return the flow slots (tc qdisc show -d: flows)
    uint32_t GetFlows() const;

    /// @return packets per flow at most (tc qdisc show: depth)
    uint32_t GetDepth() const;

  private:
    /// "No slot", "no packet" and "empty bucket" (SFQ_EMPTY_SLOT).
    static constexpr uint32_t EMPTY = UINT32_MAX;

    /// A queued packet, linked into its slot's FIFO (or the free list, by next).
    struct Packet
    {
        Handle handle{0};     ///< the packet
        uint32_t length{0};   ///< its length, bytes
        uint32_t next{EMPTY}; ///< the next packet of the slot (or free entry)
        uint32_t prev{EMPTY}; ///< the previous packet of the slot
    };

    /// struct sfq_slot; its dep anchor lives in m_depNext/m_depPrev.
    struct Slot
    {
        uint32_t head{EMPTY}; ///< oldest packet
        uint32_t tail{EMPTY}; ///< newest packet
        uint32_t qlen{0};     ///< packets
        uint32_t next{EMPTY}; ///< next slot in the round
        uint32_t bucket{0};   ///< the hash bucket holding this slot
        uint32_t backlog{0};  ///< bytes
        int32_t allot{0};     ///< credit this round, bytes
        Red::Vars vars;       ///< per-flow RED variables
    };

    /**
     * @param d a depth, 0..127
     * @return the index of dep[d]'s head among the dep links (the kernel's SFQ_MAX_FLOWS + d)
     */
    uint32_t DepHead(uint32_t d) const;

    /**
     * Mirrors sfq_link(): inserts slot x at the head of dep[qlen].
     * @param x the slot
     */
    void DepLink(uint32_t x);

    /**
     * Mirrors sfq_dec(): moves slot x one depth down, lowering cur_depth if it was the only
     * slot that deep.
     * @param x the slot
     */
    void Dec(uint32_t x);

    /**
     * Mirrors sfq_inc(): moves slot x one depth up, raising cur_depth.
     * @param x the slot
     */
    void Inc(uint32_t x);

    /**
     * The "flow is new" step of sfq_enqueue(): slot x joins the round with allot = quantum.
     * Modern: after the tail, becoming the tail (served last). Classic: after the tail, which
     * stays, so x is served next. The first flow forms the ring alone.
     * @param x the slot
     */
    void JoinRound(uint32_t x);

    /**
     * The RED step of sfq_enqueue() for a slot that holds packets.
     * @param x the new packet's slot
     * @param handle the new packet
     * @param result receives the mark made
     * @return the congestion drop to make, or nothing
     */
    std::optional<SfqDropReason> RedEnqueue(uint32_t x, Handle handle, EnqueueResult& result);

    /**
     * Mirrors sfq_drop() with the qdisc over its limit (cur_depth >= 1).
     * @param[out] x receives the slot it dropped from
     * @return the dropped packet, still in the pool
     */
    uint32_t DropFromLongest(uint32_t& x);

    /**
     * Tells the observer of a drop, if it listens.
     * @param handle the packet
     * @param length its length, bytes
     * @param bucket its bucket
     * @param x its slot, or NO_SLOT
     * @param reason why
     * @param isNew it is the packet being enqueued
     */
    void NotifyDrop(Handle handle,
                    uint32_t length,
                    uint32_t bucket,
                    uint32_t x,
                    SfqDropReason reason,
                    bool isNew) const;

    /**
     * Gives an empty bucket the free slot at the head of dep[0], telling the observer.
     * @param bucket the bucket
     * @return the slot, or a value >= m_nSlots when none is free (nothing changed)
     */
    uint32_t AllocateSlot(uint32_t bucket);

    /**
     * Mirrors slot_queue_add(): appends a packet to a slot's FIFO.
     * @param slot the slot
     * @param packet the packet
     */
    void SlotAppend(Slot& slot, uint32_t packet);

    /**
     * Mirrors slot_dequeue_head(). Requires a packet in the slot.
     * @param slot the slot
     * @return its oldest packet, unlinked
     */
    uint32_t SlotPopHead(Slot& slot);

    /**
     * Mirrors slot_dequeue_tail(). Requires a packet in the slot.
     * @param slot the slot
     * @return its newest packet, unlinked
     */
    uint32_t SlotPopTail(Slot& slot);

    /**
     * Stores a handle in a free pool entry.
     * @param handle the packet
     * @param length its length, bytes
     * @return the entry
     */
    uint32_t PutPacket(Handle handle, uint32_t length);

    /**
     * Frees a pool entry.
     * @param packet the entry, unlinked from its slot
     * @return the handle it held
     */
    Handle TakePacket(uint32_t packet);

    SfqParameters m_params;   ///< the options as given
    uint32_t m_limit{0};      ///< effective limit, packets
    uint32_t m_nSlots{0};     ///< slots (maxflows)
    uint32_t m_maxDepth{0};   ///< packets per slot at most
    uint32_t m_mask{0};       ///< divisor - 1
    int32_t m_quantum{0};     ///< quantum, bytes
    std::optional<Red> m_red; ///< per-flow RED, if configured
    MarkCallback m_mark;      ///< sets CE, with RED and ecn
    SfqObserver m_observer;   ///< listeners, all optional

    std::vector<uint32_t> m_ht;      ///< bucket -> slot or EMPTY
    std::vector<Slot> m_slots;       ///< the flow slots
    std::vector<uint32_t> m_depNext; ///< dep links: slots 0..m_nSlots-1, then dep[0..127]
    std::vector<uint32_t> m_depPrev; ///< dep links, backwards
    uint32_t m_curDepth{0};          ///< qlen of the longest slot
    uint32_t m_tail{EMPTY};          ///< slot served last in the round; EMPTY: none active
    uint32_t m_activeFlows{0};       ///< slots in the round
    std::vector<Packet> m_packets;   ///< the packet pool
    uint32_t m_freePacket{EMPTY};    ///< first free pool entry

    uint32_t m_qlen{0};       ///< packets queued
    uint64_t m_backlog{0};    ///< bytes queued
    uint32_t m_overlimits{0}; ///< RED mark/drop decisions
    SfqRedStats m_redStats;   ///< RED counters
};

} // namespace debloat
} // namespace ns3

#endif /* SFQ_SCHEDULER_H */
