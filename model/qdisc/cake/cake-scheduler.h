/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_cake.c of Linux 6.x: cake_hash (8-way set-associative flow and host
 * tables), cake_enqueue, cake_dequeue (tin choice, DRR++ with new, old and decaying flow
 * lists, COBALT per flow), cake_advance_shaper, cake_drop with its overflow heap, the
 * autorate-ingress estimator and cake_reconfigure's buffer limit.
 */

#ifndef CAKE_SCHEDULER_H
#define CAKE_SCHEDULER_H

#include "cake-ack-filter.h"
#include "cake-config.h"
#include "cake-overhead.h"
#include "cake-tins.h"
#include "cobalt.h"

#include "ns3/prandom.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace ns3
{
namespace debloat
{

/// CAKE_SET_WAYS: associativity of the flow and host tables.
constexpr uint32_t CAKE_SET_WAYS = 8;
/// sch->limit of cake_init(): packets, used only in the buffer limit's upper bound.
constexpr uint32_t CAKE_PACKET_LIMIT = 10240;

/**
 * @ingroup debloat-qdisc
 * @brief The state of a flow queue (CAKE_SET_*).
 */
enum class CakeFlowSet : uint8_t
{
    NONE = 0,        ///< idle, on no list
    SPARSE = 1,      ///< on the new-flows list
    SPARSE_WAIT = 2, ///< empty, moved to the old list but still counted sparse
    BULK = 3,        ///< on the old-flows list with packets
    DECAYING = 4,    ///< empty, waiting for its COBALT state to come to rest
};

/**
 * @ingroup debloat-qdisc
 * @brief Why CAKE dropped a packet.
 */
enum class CakeDropReason : uint8_t
{
    CONGESTED,  ///< SKB_DROP_REASON_QDISC_CONGESTED: a CoDel signal on a non-ECT packet
    FLOOD,      ///< SKB_DROP_REASON_CAKE_FLOOD: BLUE
    OVERLIMIT,  ///< cake_drop(): the buffer limit, from the fattest flow's head
    ACK_FILTER, ///< cake_ack_filter(): a queued ACK made redundant
};

/**
 * @ingroup debloat-qdisc
 * @brief Where a packet goes: its tin and the hashes cake_hash() reduces to a queue.
 *
 * The caller computes the hashes (flow_hash_from_keys() of the 5-tuple and of the address
 * halves, or a filter's override) and may leave unneeded ones at 0: see
 * CakeScheduler::NeedsFlowHash() and NeedsHostHashes().
 */
struct CakeClassification
{
    uint32_t tin{0};         ///< tin index (CakeSelectTin())
    uint32_t flowHash{0};    ///< 5-tuple hash
    uint32_t srcHostHash{0}; ///< source host hash
    uint32_t dstHostHash{0}; ///< destination host hash
    /// When set (dual and triple modes), the host hashes are computed from these keys only
    /// when a queue's hosts are (re)assigned, instead of being given above: a packet of an
    /// active flow needs none (the kernel computes them for every packet).
    const FlowKeys* keys{nullptr};
    uint64_t key0{0}; ///< hash key, first half (with keys)
    uint64_t key1{0}; ///< hash key, second half (with keys)
};

/**
 * @ingroup debloat-qdisc
 * @brief The size of one packet as CAKE accounts it.
 */
struct CakePacketSize
{
    uint32_t len{0};           ///< qdisc_pkt_len(): bytes including the link-layer header
    uint32_t networkOffset{0}; ///< skb_network_offset(): the link-layer header length
    uint32_t truesize{0};      ///< skb->truesize: memory charged against the buffer limit
    uint32_t gsoSize{0};       ///< gso_size of a GSO super-packet (0: not GSO)
    uint32_t gsoHeaderLen{0};  ///< its headers, link layer to transport inclusive
    uint32_t gsoSegs{0};       ///< its segment count
};

/**
 * @ingroup debloat-qdisc
 * @brief Counters and averages of one tin (struct cake_tin_data's, as tc prints them).
 */
struct CakeTinStats
{
    uint64_t packets{0};           ///< packets: enqueued (including later drops)
    uint64_t bytes{0};             ///< bytes: enqueued
    uint32_t backlog{0};           ///< tin_backlog, bytes
    uint32_t dropped{0};           ///< tin_dropped: AQM and overflow drops
    uint32_t ecnMarked{0};         ///< tin_ecn_mark
    uint32_t ackDrops{0};          ///< ack_drops
    uint32_t dropOverlimit{0};     ///< drop_overlimit: overflow drops caused by this tin
    uint64_t avgDelay{0};          ///< avge_delay, ns
    uint64_t peakDelay{0};         ///< peak_delay, ns
    uint64_t baseDelay{0};         ///< base_delay, ns
    uint32_t wayDirects{0};        ///< way_directs (not exported by the kernel)
    uint32_t wayHits{0};           ///< way_hits (tc: way_inds)
    uint32_t wayMisses{0};         ///< way_misses
    uint32_t wayCollisions{0};     ///< way_collisions (tc: way_cols)
    uint32_t sparseFlows{0};       ///< sparse_flow_count
    uint32_t bulkFlows{0};         ///< bulk_flow_count
    uint32_t decayingFlows{0};     ///< decaying_flow_count
    uint32_t unresponsiveFlows{0}; ///< unresponsive_flow_count
    uint32_t maxSkbLen{0};         ///< max_skblen
    int64_t timeNextPacket{0};     ///< time_next_packet, ns
    int32_t tinDeficit{0};         ///< tin_deficit (unlimited mode)
};

/**
 * @ingroup debloat-qdisc
 * @brief CAKE's scheduler: tins, set-associative flow queues, DRR++, COBALT and the shaper,
 * as net/sched/sch_cake.c runs them, over items of any type.
 *
 * Plain C++ with no ns-3 dependency: time is passed in (ns); ECN marking, drops and the
 * ACK filter's view of a packet go through callbacks; random numbers come from a Prandom
 * seeded by the caller. The caller classifies
 * (tin and hashes), computes truesize and reports what the watchdog asks for
 * (TakeWatchdog()). Every packet handed to Enqueue() is either returned by Dequeue(),
 * handed to the drop callback with a reason, or still queued.
 *
 * Deviations from Linux:
 * - Flow queues are linked lists of nodes in one pool (the kernel links the skbs);
 *   behaviour is the same.
 * - tc filters' flow/host overrides are the caller's business (it passes the hashes); the
 *   skb->l4_hash shortcut is not modelled: flows are always hashed from their keys.
 * - Packet memory (truesize) is whatever the caller charges; see CakeQueueDisc.
 *
 * @tparam Item what is queued (e.g. a packet pointer and a bookkeeping index)
 */
template <typename Item>
class CakeScheduler
{
  public:
    /// INET_ECN_set_ce(): true when the item was ECN-capable and is now CE-marked.
    using MarkCallback = std::function<bool(Item& item)>;
    /// Receives every dropped packet, with its qdisc length and the reason.
    using DropCallback = std::function<void(Item&& item, uint32_t len, CakeDropReason reason)>;
    /// The ACK filter's view of a queued item, or nullptr when it is not TCP.
    using AckViewCallback = std::function<const CakeAckPacket*(const Item& item)>;

    /**
     * cake_init() and cake_change().
     * @param config the settings
     * @param mtu psched_mtu(): device MTU plus link-layer header (1514 on Ethernet)
     * @param seed seed of the random numbers (DRR dithering, BLUE)
     * @param mark ECN marking
     * @param drop dropped packets
     * @param ackView the ACK filter's view of items (needed when the ACK filter is on)
     */
    CakeScheduler(const CakeConfig& config,
                  uint32_t mtu,
                  uint64_t seed,
                  MarkCallback mark,
                  DropCallback drop,
                  AckViewCallback ackView = nullptr);

    /// @param seed a new seed for the random numbers (prandom_seed_state())
    void Seed(uint64_t seed);

    /// @return true when the queue needs CakeClassification::flowHash
    bool NeedsFlowHash() const;
    /// @return true when the queue needs the host hashes
    bool NeedsHostHashes() const;

    /**
     * cake_select_tin() without the washing (the caller rewrites the DSCP).
     * @param dscp the packet's DSCP (before any washing)
     * @param isArp the packet is ARP
     * @param mark skb->mark (ns-3: a packet tag)
     * @return the tin
     */
    uint32_t SelectTin(uint8_t dscp, bool isArp, uint32_t mark) const;

    /**
     * cake_enqueue() of one packet, or of one segment of a GSO packet that split-gso cuts
     * (the kernel adds the segments in one go): timestamps it, accounts its adjusted size,
     * runs the ACK filter, places the flow on its list and enforces the buffer limit.
     * Packets this drops (an ACK, or overflow from the fattest flow, possibly this packet)
     * go to the drop callback before it returns.
     * @param now the time, ns
     * @param where tin and hashes
     * @param item the packet
     * @param size its sizes
     * @param segment the packet is a segment of a GSO packet split on enqueue: no ACK
     *        filtering, and max_len keeps the super-packet's length (RecordMaxLen())
     */
    void Enqueue(int64_t now,
                 const CakeClassification& where,
                 Item item,
                 CakePacketSize size,
                 bool segment = false);

    /**
     * Records the length of a GSO packet about to be split in its tin's max_len, as
     * cake_enqueue() does before splitting.
     * @param tin the tin
     * @param len the super-packet's qdisc length
     */
    void RecordMaxLen(uint32_t tin, uint32_t len);

    /**
     * cake_dequeue().
     * @param now the time, ns
     * @return the next packet, or nullopt (empty, or the shaper holds; see TakeWatchdog())
     */
    std::optional<Item> Dequeue(int64_t now);

    /**
     * qdisc_watchdog_schedule_ns(): the time the last Enqueue() or Dequeue() asked to be
     * woken at, consumed by this call.
     * @return the time, ns, or nullopt
     */
    std::optional<int64_t> TakeWatchdog();

    /**
     * cake_reconfigure() with a new shaper rate (autorate-ingress uses it too).
     * @param rate bytes/s, 0 for unlimited
     */
    void SetRate(uint64_t rate);

    /// @return the tin layout (rates, quanta, AQM parameters, DSCP table)
    const CakeTinLayout& GetLayout() const;
    /// @param tin a tin index @return its counters
    CakeTinStats GetTinStats(uint32_t tin) const;
    /// @return packets queued (sch->q.qlen)
    uint32_t GetQlen() const;
    /// @return bytes queued (sch->qstats.backlog)
    uint64_t GetBacklog() const;
    /// @return buffer_limit, bytes of truesize
    uint32_t GetBufferLimit() const;
    /// @return buffer_used, bytes of truesize
    uint32_t GetBufferUsed() const;
    /// @return buffer_max_used, bytes of truesize
    uint32_t GetBufferMaxUsed() const;
    /// @return avg_peak_bandwidth, bytes/s
    uint64_t GetCapacityEstimate() const;
    /// @return sch->qstats.overlimits: times the shaper held a dequeue
    uint32_t GetOverlimits() const;
    /// @return min_netlen (UINT32_MAX before the first packet)
    uint32_t GetMinNetLen() const;
    /// @return max_netlen
    uint32_t GetMaxNetLen() const;
    /// @return min_adjlen (UINT32_MAX before the first packet)
    uint32_t GetMinAdjLen() const;
    /// @return max_adjlen
    uint32_t GetMaxAdjLen() const;
    /// @return (avg_netoff + 0x8000) >> 16, as cake_dump_stats() rounds it
    uint32_t GetAvgNetOffset() const;

    /**
     * @brief One flow queue as `tc -s class show` prints it (cake_dump_class_stats()).
     */
    struct FlowStats
    {
        CakeFlowSet set{CakeFlowSet::NONE}; ///< state
        uint32_t qlen{0};                   ///< packets
        uint32_t backlog{0};                ///< bytes
        uint32_t dropped{0};                ///< drops
        int32_t deficit{0};                 ///< DRR deficit, bytes
        CobaltVars cvars;                   ///< COBALT state
        uint16_t srchost{0};                ///< source host index
        uint16_t dsthost{0};                ///< destination host index
    };

    /**
     * @param tin a tin index
     * @param queue a queue index, 0..1023
     * @return the queue's state
     */
    FlowStats GetFlowStats(uint32_t tin, uint32_t queue) const;

    /**
     * @param tin a tin index
     * @param host a host index, 0..1023
     * @return srchost_bulk_flow_count and dsthost_bulk_flow_count
     */
    std::pair<uint32_t, uint32_t> GetHostBulkCounts(uint32_t tin, uint32_t host) const;

  private:
    /// No node / no flow.
    static constexpr int32_t NIL = -1;

    /// One queued packet (the skb with its cobalt_skb_cb).
    struct Node
    {
        Item item{};             ///< the packet
        int64_t enqueueTime{0};  ///< enqueue_time, ns
        uint32_t len{0};         ///< qdisc_pkt_len()
        uint32_t adjustedLen{0}; ///< adjusted_len
        uint32_t truesize{0};    ///< truesize
        int32_t next{NIL};       ///< next node of the flow, or of the free list
    };

    /// Which list a flow is on.
    enum class ListId : uint8_t
    {
        NONE,
        NEW,
        OLD,
        DECAYING
    };

    /// struct cake_flow.
    struct Flow
    {
        int32_t head{NIL};                  ///< first packet
        int32_t tail{NIL};                  ///< last packet
        int32_t prev{NIL};                  ///< flowchain: previous flow on the list
        int32_t next{NIL};                  ///< flowchain: next flow on the list
        ListId list{ListId::NONE};          ///< the list the flow is on
        int32_t deficit{0};                 ///< deficit
        uint32_t dropped{0};                ///< dropped
        uint32_t qlen{0};                   ///< packets (for the class stats)
        CobaltVars cvars;                   ///< cvars
        uint16_t srchost{0};                ///< srchost index
        uint16_t dsthost{0};                ///< dsthost index
        CakeFlowSet set{CakeFlowSet::NONE}; ///< set
    };

    /// struct cake_host.
    struct Host
    {
        uint32_t srchostTag{0};       ///< srchost_tag
        uint32_t dsthostTag{0};       ///< dsthost_tag
        uint16_t srchostBulkFlows{0}; ///< srchost_bulk_flow_count
        uint16_t dsthostBulkFlows{0}; ///< dsthost_bulk_flow_count
    };

    /// A doubly linked list of flows (a struct list_head).
    struct FlowList
    {
        int32_t head{NIL}; ///< first flow
        int32_t tail{NIL}; ///< last flow
    };

    /// struct cake_tin_data.
    struct Tin
    {
        std::array<Flow, CAKE_QUEUES> flows;             ///< flows
        std::array<uint32_t, CAKE_QUEUES> backlogs{};    ///< backlogs
        std::array<uint32_t, CAKE_QUEUES> tags{};        ///< tags
        std::array<uint16_t, CAKE_QUEUES> overflowIdx{}; ///< overflow_idx
        std::array<Host, CAKE_QUEUES> hosts;             ///< hosts
        FlowList newFlows;                               ///< new_flows
        FlowList oldFlows;                               ///< old_flows
        FlowList decayingFlows;                          ///< decaying_flows
        CakeTinStats stats;                              ///< counters
    };

    /// An overflow heap entry: tin and queue.
    struct HeapEntry
    {
        uint16_t tin;   ///< t
        uint16_t queue; ///< b
    };

    /**
     * @param mode a flow mode
     * @param bits mode bits
     * @return true when mode has all of them
     */
    static bool Has(CakeFlowMode mode, CakeFlowMode bits);
    /// @param mode a flow mode @return cake_dsrc()
    static bool Dsrc(CakeFlowMode mode);
    /// @param mode a flow mode @return cake_ddst()
    static bool Ddst(CakeFlowMode mode);

    /// cake_reconfigure().
    void Reconfigure();
    /// @return cake_hash() for the tin
    uint32_t Hash(Tin& tin, const CakeClassification& where);
    /// cake_overhead() plus the length statistics of cake_calc_overhead().
    uint32_t Overhead(const CakePacketSize& size);
    /// cake_calc_overhead() with statistics.
    uint32_t CalcOverhead(uint32_t len, uint32_t off);

    /// flow_queue_add().
    void QueueAdd(Flow& flow, int32_t node);
    /// dequeue_head().
    int32_t DequeueHead(Flow& flow);
    /// Returns a node to the pool and its item to the caller.
    Item FreeNode(int32_t node);
    /// @return a node from the pool
    int32_t AllocNode();

    /// list_add_tail / list_move_tail.
    void MoveTail(Tin& tin, int32_t flow, ListId list);
    /// list_del_init.
    void Unlink(Tin& tin, int32_t flow);
    /// @return the list head of an id
    FlowList& ListOf(Tin& tin, ListId list);

    /// cake_ack_filter() on the flow's tail: @return the node to drop, or NIL
    int32_t AckFilter(Flow& flow);
    /// cake_enqueue()'s "ensure shaper state isn't stale" for a tin about to get a packet.
    void RefreshShaper(int64_t now, Tin& tin);
    /// The flowchain step of cake_enqueue(), the overflow heap, autorate and the limit.
    void AfterEnqueue(int64_t now, Tin& tin, uint32_t tinIndex, uint32_t queue);

    /**
     * The DRR++ refill of cake_dequeue(): a flow's quantum divided by its hosts' bulk flow
     * counts (host_load), with random dithering.
     * @param tin the flow's tin
     * @param flow the flow
     * @param flowQuantum the tin's flow quantum
     * @param random the random numbers (m_prandom, or a local copy of it in a hot loop)
     */
    void Refill(const Tin& tin, Flow& flow, uint32_t flowQuantum, Prandom& random);
    /// cake_dequeue_one() of (m_curTin, m_curFlow).
    int32_t DequeueOne();
    /// cake_advance_shaper(): @return the adjusted length
    uint32_t AdvanceShaper(Tin& tin, uint32_t tinIndex, const Node& node, int64_t now, bool drop);
    /// cake_drop(): one overflow drop from the fattest flow.
    void DropOverflow(int64_t now);

    /// cake_heap_swap().
    void HeapSwap(uint32_t i, uint32_t j);
    /// cake_heap_get_backlog().
    uint32_t HeapBacklog(uint32_t i) const;
    /// cake_heapify().
    void Heapify(uint32_t i);
    /// cake_heapify_up().
    void HeapifyUp(uint32_t i);

    /// qdisc_watchdog_schedule_ns().
    void ScheduleWatchdog(int64_t at);

    CakeConfig m_config;               ///< the settings
    uint32_t m_mtu;                    ///< psched_mtu()
    Prandom m_prandom;                 ///< get_random_u32() and get_random_u16()
    CobaltRandomSource m_cobaltRandom; ///< m_prandom for COBALT's BLUE
    int32_t m_markNode{NIL};           ///< the node COBALT may mark
    CobaltTrySetCe m_trySetCe;         ///< marks m_markNode
    MarkCallback m_mark;               ///< INET_ECN_set_ce()
    DropCallback m_drop;               ///< drop sink
    AckViewCallback m_ackView;         ///< ACK filter's packet view
    CakeTinLayout m_layout;            ///< tins' configuration
    std::vector<Tin> m_tins;           ///< CAKE_MAX_TINS tins
    std::vector<Node> m_nodes;         ///< packet pool
    int32_t m_freeNodes{NIL};          ///< free list of the pool
    std::vector<HeapEntry> m_heap;     ///< overflow_heap
    uint16_t m_overflowTimeout{0};     ///< overflow_timeout
    CakeRate m_rate;                   ///< rate_ns, rate_shft
    int64_t m_timeNextPacket{0};       ///< time_next_packet
    int64_t m_failsafeNextPacket{0};   ///< failsafe_next_packet
    uint32_t m_bufferUsed{0};          ///< buffer_used
    uint32_t m_bufferMaxUsed{0};       ///< buffer_max_used
    uint32_t m_bufferLimit{0};         ///< buffer_limit
    uint32_t m_curTin{0};              ///< cur_tin
    uint32_t m_curFlow{0};             ///< cur_flow
    uint32_t m_qlen{0};                ///< sch->q.qlen
    uint64_t m_backlog{0};             ///< sch->qstats.backlog
    uint32_t m_overlimits{0};          ///< sch->qstats.overlimits
    std::optional<int64_t> m_watchdog; ///< pending watchdog request
    int64_t m_lastPacketTime{0};       ///< last_packet_time
    int64_t m_avgWindowBegin{0};       ///< avg_window_begin
    uint64_t m_avgPacketInterval{0};   ///< avg_packet_interval
    uint64_t m_avgWindowBytes{0};      ///< avg_window_bytes
    uint64_t m_avgPeakBandwidth{0};    ///< avg_peak_bandwidth
    int64_t m_lastReconfigTime{0};     ///< last_reconfig_time (never written, as in Linux)
    uint32_t m_avgNetoff{0};           ///< avg_netoff (Q16)
    uint32_t m_maxNetlen{0};           ///< max_netlen
    uint32_t m_maxAdjlen{0};           ///< max_adjlen
    uint32_t m_minNetlen{UINT32_MAX};  ///< min_netlen
    uint32_t m_minAdjlen{UINT32_MAX};  ///< min_adjlen
    std::vector<int32_t> m_scratch;    ///< the ACK filter's node list, reused
    std::array<uint16_t, CAKE_QUEUES + 1> m_quantumDiv{}; ///< quantum_div[], a local copy
};

/**
 * cake_ewma(): avg - avg >> shift + sample >> shift.
 * @param avg the average
 * @param sample the new sample
 * @param shift the weight, as a shift
 * @return the new average
 */
inline uint64_t
CakeEwma(uint64_t avg, uint64_t sample, uint32_t shift)
{
    avg -= avg >> shift;
    avg += sample >> shift;
    return avg;
}

/**
 * cake_reconfigure()'s buffer limit.
 * @param rate bytes/s (0: unlimited)
 * @param intervalUs the rtt setting, us (q->interval)
 * @param memlimit the memlimit setting (0: none)
 * @param mtu psched_mtu()
 * @return buffer_limit, bytes
 */
inline uint32_t
CakeBufferLimit(uint64_t rate, uint64_t intervalUs, uint32_t memlimit, uint32_t mtu)
{
    uint64_t limit;
    if (memlimit)
    {
        limit = memlimit;
    }
    else if (rate)
    {
        // 4 x the bytes of one interval, at least 4 MiB (do_div by USEC_PER_SEC / 4).
        limit = std::max<uint64_t>(static_cast<uint32_t>(rate * intervalUs / 250000), 4U << 20);
    }
    else
    {
        limit = UINT32_MAX;
    }
    const uint64_t cap = std::max<uint64_t>(uint64_t{CAKE_PACKET_LIMIT} * mtu, memlimit);
    return static_cast<uint32_t>(std::min(limit, cap));
}

// ---------------------------------------------------------------------------------------
// Implementation

template <typename Item>
CakeScheduler<Item>::CakeScheduler(const CakeConfig& config,
                                   uint32_t mtu,
                                   uint64_t seed,
                                   MarkCallback mark,
                                   DropCallback drop,
                                   AckViewCallback ackView)
    : m_config(config),
      m_mtu(mtu),
      m_mark(std::move(mark)),
      m_drop(std::move(drop)),
      m_ackView(std::move(ackView)),
      m_tins(CAKE_MAX_TINS),
      m_heap(CAKE_MAX_TINS * CAKE_QUEUES)
{
    // cake_init(): heap entry k = queue * CAKE_MAX_TINS + tin; COBALT state zeroed.
    for (uint32_t i = 0; i < CAKE_MAX_TINS; ++i)
    {
        for (uint32_t j = 0; j < CAKE_QUEUES; ++j)
        {
            const uint32_t k = j * CAKE_MAX_TINS + i;
            m_heap[k] = HeapEntry{static_cast<uint16_t>(i), static_cast<uint16_t>(j)};
            m_tins[i].overflowIdx[j] = static_cast<uint16_t>(k);
            CobaltVarsInit(m_tins[i].flows[j].cvars);
        }
    }
    for (uint32_t i = 0; i <= CAKE_QUEUES; ++i)
    {
        m_quantumDiv[i] = static_cast<uint16_t>(CakeQuantumDiv(i));
    }
    m_prandom.Seed(seed);
    // Built once: constructing std::function objects per packet costs more than the calls.
    m_cobaltRandom = [this] { return m_prandom.Next(); };
    m_trySetCe = [this] { return m_mark(m_nodes[m_markNode].item); };
    Reconfigure();
    m_avgPeakBandwidth = m_config.rate;
}

template <typename Item>
void
CakeScheduler<Item>::Seed(uint64_t seed)
{
    m_prandom.Seed(seed);
}

template <typename Item>
bool
CakeScheduler<Item>::Has(CakeFlowMode mode, CakeFlowMode bits)
{
    return (static_cast<uint8_t>(mode) & static_cast<uint8_t>(bits)) == static_cast<uint8_t>(bits);
}

template <typename Item>
bool
CakeScheduler<Item>::Dsrc(CakeFlowMode mode)
{
    return Has(mode, CakeFlowMode::DUAL_SRC);
}

template <typename Item>
bool
CakeScheduler<Item>::Ddst(CakeFlowMode mode)
{
    return Has(mode, CakeFlowMode::DUAL_DST);
}

template <typename Item>
bool
CakeScheduler<Item>::NeedsFlowHash() const
{
    return Has(m_config.flowMode, CakeFlowMode::FLOWS);
}

template <typename Item>
bool
CakeScheduler<Item>::NeedsHostHashes() const
{
    // Any host bit: srchost, dsthost, hosts and the dual and triple modes.
    return Has(m_config.flowMode, CakeFlowMode::SRC_IP) ||
           Has(m_config.flowMode, CakeFlowMode::DST_IP);
}

template <typename Item>
uint32_t
CakeScheduler<Item>::SelectTin(uint8_t dscp, bool isArp, uint32_t mark) const
{
    return CakeSelectTin(m_layout, dscp, isArp, mark, m_config.fwmark);
}

template <typename Item>
void
CakeScheduler<Item>::Reconfigure()
{
    // cake_reconfigure(): tins from the preset; the shaper runs at tin 0's rate (the
    // full-rate tin of every preset); tins beyond the preset keep tin 0's mtu_time.
    m_layout = CakeConfigureTins(m_config.diffserv,
                                 m_config.rate,
                                 m_mtu,
                                 m_config.targetNs,
                                 m_config.intervalNs);
    m_rate = m_layout.tins[0].shaper;
    m_bufferLimit =
        CakeBufferLimit(m_config.rate, m_config.intervalNs / 1000, m_config.memlimit, m_mtu);
}

template <typename Item>
void
CakeScheduler<Item>::SetRate(uint64_t rate)
{
    m_config.rate = rate;
    Reconfigure();
}

template <typename Item>
uint32_t
CakeScheduler<Item>::Hash(Tin& tin, const CakeClassification& where)
{
    const CakeFlowMode mode = m_config.flowMode;
    if (mode == CakeFlowMode::NONE)
    {
        return 0;
    }
    uint32_t flowHash = NeedsFlowHash() ? where.flowHash : 0;
    const auto bits = static_cast<uint8_t>(mode);
    if (!(bits & static_cast<uint8_t>(CakeFlowMode::FLOWS)))
    {
        // srchost, dsthost, hosts: one queue per host (pair).
        if (bits & static_cast<uint8_t>(CakeFlowMode::SRC_IP))
        {
            flowHash ^= where.srcHostHash;
        }
        if (bits & static_cast<uint8_t>(CakeFlowMode::DST_IP))
        {
            flowHash ^= where.dstHostHash;
        }
    }
    uint32_t reduced = flowHash % CAKE_QUEUES;
    if (tin.tags[reduced] == flowHash && tin.flows[reduced].set != CakeFlowSet::NONE)
    {
        tin.stats.wayDirects++;
        return reduced;
    }
    uint32_t inner = reduced % CAKE_SET_WAYS;
    uint32_t outer = reduced - inner;
    bool allocateSrc = false;
    bool allocateDst = false;
    uint32_t k = inner;
    bool found = false;
    // A queue of the set already reserved for this flow?
    for (uint32_t i = 0; i < CAKE_SET_WAYS; ++i, k = (k + 1) % CAKE_SET_WAYS)
    {
        if (tin.tags[outer + k] == flowHash)
        {
            if (i)
            {
                tin.stats.wayHits++;
            }
            if (tin.flows[outer + k].set == CakeFlowSet::NONE)
            {
                allocateSrc = Dsrc(mode);
                allocateDst = Ddst(mode);
            }
            found = true;
            break;
        }
    }
    if (!found)
    {
        // An idle queue of the set?
        for (uint32_t i = 0; i < CAKE_SET_WAYS; ++i, k = (k + 1) % CAKE_SET_WAYS)
        {
            if (tin.flows[outer + k].set == CakeFlowSet::NONE)
            {
                tin.stats.wayMisses++;
                allocateSrc = Dsrc(mode);
                allocateDst = Ddst(mode);
                found = true;
                break;
            }
        }
    }
    if (!found)
    {
        // All eight busy: share the original queue (k is back at inner) and retag its
        // hosts, first taking a bulk flow out of its old hosts' counts.
        tin.stats.wayCollisions++;
        if (tin.flows[outer + k].set == CakeFlowSet::BULK)
        {
            // Only the counts the mode keeps, never below zero (a flows-mode queue has no
            // hosts to decrement; the kernel's 2025 bounds checks guard the same).
            uint16_t& src = tin.hosts[tin.flows[reduced].srchost].srchostBulkFlows;
            uint16_t& dst = tin.hosts[tin.flows[reduced].dsthost].dsthostBulkFlows;
            if (Dsrc(mode) && src)
            {
                src--;
            }
            if (Ddst(mode) && dst)
            {
                dst--;
            }
        }
        allocateSrc = Dsrc(mode);
        allocateDst = Ddst(mode);
    }
    reduced = outer + k;
    tin.tags[reduced] = flowHash;
    Flow& flow = tin.flows[reduced];

    // The host tables: the same set search, by tag, else a host with no bulk flows, else
    // the original index (sharing).
    auto allocate = [&tin](uint32_t hash, uint32_t Host::* tag, uint16_t Host::* bulk) {
        const uint32_t index = hash % CAKE_QUEUES;
        const uint32_t hostInner = index % CAKE_SET_WAYS;
        const uint32_t hostOuter = index - hostInner;
        uint32_t way = hostInner;
        for (uint32_t i = 0; i < CAKE_SET_WAYS; ++i, way = (way + 1) % CAKE_SET_WAYS)
        {
            if (tin.hosts[hostOuter + way].*tag == hash)
            {
                return hostOuter + way;
            }
        }
        for (uint32_t i = 0; i < CAKE_SET_WAYS; ++i, way = (way + 1) % CAKE_SET_WAYS)
        {
            if (!(tin.hosts[hostOuter + way].*bulk))
            {
                break;
            }
        }
        tin.hosts[hostOuter + way].*tag = hash;
        return hostOuter + way;
    };
    if (allocateSrc)
    {
        const uint32_t hash =
            where.keys ? SourceHostHash(*where.keys, where.key0, where.key1) : where.srcHostHash;
        const uint32_t host = allocate(hash, &Host::srchostTag, &Host::srchostBulkFlows);
        if (flow.set == CakeFlowSet::BULK)
        {
            tin.hosts[host].srchostBulkFlows++;
        }
        flow.srchost = static_cast<uint16_t>(host);
    }
    if (allocateDst)
    {
        const uint32_t hash = where.keys ? DestinationHostHash(*where.keys, where.key0, where.key1)
                                         : where.dstHostHash;
        const uint32_t host = allocate(hash, &Host::dsthostTag, &Host::dsthostBulkFlows);
        if (flow.set == CakeFlowSet::BULK)
        {
            tin.hosts[host].dsthostBulkFlows++;
        }
        flow.dsthost = static_cast<uint16_t>(host);
    }
    return reduced;
}

template <typename Item>
uint32_t
CakeScheduler<Item>::CalcOverhead(uint32_t len, uint32_t off)
{
    const uint32_t netlen = UsesNetworkOffset(m_config.linkLayer) ? len - off : len;
    m_maxNetlen = std::max(m_maxNetlen, netlen);
    m_minNetlen = std::min(m_minNetlen, netlen);
    const uint32_t adjusted = debloat::CalcOverhead(m_config.linkLayer, len, off);
    m_maxAdjlen = std::max(m_maxAdjlen, adjusted);
    m_minAdjlen = std::min(m_minAdjlen, adjusted);
    return adjusted;
}

template <typename Item>
uint32_t
CakeScheduler<Item>::Overhead(const CakePacketSize& size)
{
    // cake_overhead(): a GSO packet counts as its segments.
    m_avgNetoff =
        static_cast<uint32_t>(CakeEwma(m_avgNetoff, uint64_t{size.networkOffset} << 16, 8));
    if (size.gsoSize == 0)
    {
        return CalcOverhead(size.len, size.networkOffset);
    }
    const uint32_t segs = std::max<uint32_t>(size.gsoSegs, 1);
    const uint32_t full = size.gsoSize + size.gsoHeaderLen;
    const uint32_t last = size.len - size.gsoSize * (segs - 1);
    return CalcOverhead(full, size.networkOffset) * (segs - 1) +
           CalcOverhead(last, size.networkOffset);
}

template <typename Item>
int32_t
CakeScheduler<Item>::AllocNode()
{
    if (m_freeNodes == NIL)
    {
        m_nodes.emplace_back();
        return static_cast<int32_t>(m_nodes.size() - 1);
    }
    const int32_t node = m_freeNodes;
    m_freeNodes = m_nodes[node].next;
    return node;
}

template <typename Item>
Item
CakeScheduler<Item>::FreeNode(int32_t node)
{
    Item item = std::move(m_nodes[node].item);
    m_nodes[node].item = Item{};
    m_nodes[node].next = m_freeNodes;
    m_freeNodes = node;
    return item;
}

template <typename Item>
void
CakeScheduler<Item>::QueueAdd(Flow& flow, int32_t node)
{
    if (flow.head == NIL)
    {
        flow.head = node;
    }
    else
    {
        m_nodes[flow.tail].next = node;
    }
    flow.tail = node;
    m_nodes[node].next = NIL;
    flow.qlen++;
}

template <typename Item>
int32_t
CakeScheduler<Item>::DequeueHead(Flow& flow)
{
    const int32_t node = flow.head;
    if (node != NIL)
    {
        flow.head = m_nodes[node].next;
        if (flow.head == NIL)
        {
            flow.tail = NIL;
        }
        flow.qlen--;
    }
    return node;
}

template <typename Item>
typename CakeScheduler<Item>::FlowList&
CakeScheduler<Item>::ListOf(Tin& tin, ListId list)
{
    switch (list)
    {
    case ListId::NEW:
        return tin.newFlows;
    case ListId::OLD:
        return tin.oldFlows;
    default:
        return tin.decayingFlows;
    }
}

template <typename Item>
void
CakeScheduler<Item>::Unlink(Tin& tin, int32_t index)
{
    Flow& flow = tin.flows[index];
    if (flow.list == ListId::NONE)
    {
        return;
    }
    FlowList& list = ListOf(tin, flow.list);
    (flow.prev == NIL ? list.head : tin.flows[flow.prev].next) = flow.next;
    (flow.next == NIL ? list.tail : tin.flows[flow.next].prev) = flow.prev;
    flow.prev = NIL;
    flow.next = NIL;
    flow.list = ListId::NONE;
}

template <typename Item>
void
CakeScheduler<Item>::MoveTail(Tin& tin, int32_t index, ListId to)
{
    Flow& flow = tin.flows[index];
    FlowList& list = ListOf(tin, to);
    if (flow.list == to && list.head == index)
    {
        // The DRR rotation (head to tail of the same list), the hot case.
        if (list.tail != index)
        {
            list.head = flow.next;
            tin.flows[flow.next].prev = NIL;
            flow.prev = list.tail;
            flow.next = NIL;
            tin.flows[list.tail].next = index;
            list.tail = index;
        }
        return;
    }
    Unlink(tin, index);
    flow.prev = list.tail;
    flow.next = NIL;
    (list.tail == NIL ? list.head : tin.flows[list.tail].next) = index;
    list.tail = index;
    flow.list = to;
}

template <typename Item>
int32_t
CakeScheduler<Item>::AckFilter(Flow& flow)
{
    if (flow.head == flow.tail || !m_ackView)
    {
        return NIL;
    }
    m_scratch.clear();
    for (int32_t node = flow.head; node != NIL; node = m_nodes[node].next)
    {
        m_scratch.push_back(node);
    }
    const std::optional<size_t> victim =
        CakeAckFilter(m_config.ackFilter, m_scratch.size(), [this](size_t i) {
            return m_ackView(m_nodes[m_scratch[i]].item);
        });
    if (!victim)
    {
        return NIL;
    }
    // Unlink it (it is never the tail, the trigger).
    const int32_t node = m_scratch[*victim];
    if (*victim == 0)
    {
        flow.head = m_nodes[node].next;
    }
    else
    {
        m_nodes[m_scratch[*victim - 1]].next = m_nodes[node].next;
    }
    flow.qlen--;
    return node;
}

template <typename Item>
void
CakeScheduler<Item>::RefreshShaper(int64_t now, Tin& tin)
{
    if (tin.stats.backlog != 0)
    {
        return;
    }
    // An idle tin, or an idle qdisc, must not keep credit or debt from the past.
    tin.stats.timeNextPacket = std::max(tin.stats.timeNextPacket, now);
    if (m_qlen == 0)
    {
        if (m_timeNextPacket < now)
        {
            m_failsafeNextPacket = now;
            m_timeNextPacket = now;
        }
        else if (m_timeNextPacket > now && m_failsafeNextPacket > now)
        {
            m_overlimits++;
            ScheduleWatchdog(std::min(m_timeNextPacket, m_failsafeNextPacket));
        }
    }
}

template <typename Item>
void
CakeScheduler<Item>::Enqueue(int64_t now,
                             const CakeClassification& where,
                             Item item,
                             CakePacketSize size,
                             bool segment)
{
    const uint32_t tinIndex = where.tin < m_layout.tinCount ? where.tin : 0;
    Tin& tin = m_tins[tinIndex];
    const uint32_t queue = Hash(tin, where);
    Flow& flow = tin.flows[queue];

    RefreshShaper(now, tin);
    if (!segment)
    {
        tin.stats.maxSkbLen = std::max(tin.stats.maxSkbLen, size.len);
    }

    const int32_t node = AllocNode();
    Node& n = m_nodes[node];
    n.item = std::move(item);
    n.enqueueTime = now;
    n.len = size.len;
    n.adjustedLen = Overhead(size);
    n.truesize = size.truesize;
    QueueAdd(flow, node);

    const int32_t ack =
        m_config.ackFilter != CakeAckFilterMode::NONE && !segment ? AckFilter(flow) : NIL;
    // The kernel's len becomes this packet's length minus the dropped ACK's, which can be
    // negative: add and subtract instead, so that no unsigned counter wraps.
    uint32_t ackLen = 0;
    if (ack != NIL)
    {
        // The new packet takes the dropped ACK's place in the counts.
        Node& a = m_nodes[ack];
        ackLen = a.len;
        tin.stats.ackDrops++;
        tin.stats.bytes += ackLen;
        m_bufferUsed += m_nodes[node].truesize;
        m_bufferUsed -= a.truesize;
        if (m_config.ingress)
        {
            AdvanceShaper(tin, tinIndex, a, now, true);
        }
        m_drop(FreeNode(ack), ackLen, CakeDropReason::ACK_FILTER);
    }
    else
    {
        m_qlen++;
        m_bufferUsed += m_nodes[node].truesize;
    }
    tin.stats.packets++;
    tin.stats.bytes += size.len;
    tin.stats.bytes -= ackLen;
    tin.backlogs[queue] += size.len;
    tin.backlogs[queue] -= ackLen;
    tin.stats.backlog += size.len;
    tin.stats.backlog -= ackLen;
    m_backlog += size.len;
    m_backlog -= ackLen;
    m_avgWindowBytes += size.len;
    m_avgWindowBytes -= ackLen;
    AfterEnqueue(now, tin, tinIndex, queue);
}

template <typename Item>
void
CakeScheduler<Item>::RecordMaxLen(uint32_t tin, uint32_t len)
{
    CakeTinStats& stats = m_tins[tin < m_layout.tinCount ? tin : 0].stats;
    stats.maxSkbLen = std::max(stats.maxSkbLen, len);
}

template <typename Item>
void
CakeScheduler<Item>::AfterEnqueue(int64_t now, Tin& tin, uint32_t tinIndex, uint32_t queue)
{
    Flow& flow = tin.flows[queue];
    if (m_overflowTimeout)
    {
        HeapifyUp(tin.overflowIdx[queue]);
    }

    // Incoming bandwidth capacity estimate.
    if (m_config.autorateIngress)
    {
        const uint64_t packetInterval =
            std::min<uint64_t>(static_cast<uint64_t>(now - m_lastPacketTime), 1000000000);
        // Filter out short-term bursts, e.g. wifi aggregation.
        m_avgPacketInterval = CakeEwma(m_avgPacketInterval,
                                       packetInterval,
                                       packetInterval > m_avgPacketInterval ? 2 : 8);
        m_lastPacketTime = now;
        if (packetInterval > m_avgPacketInterval)
        {
            const uint64_t window = static_cast<uint64_t>(now - m_avgWindowBegin);
            const uint64_t rate = window ? m_avgWindowBytes * 1000000000ULL / window : 0;
            m_avgPeakBandwidth =
                CakeEwma(m_avgPeakBandwidth, rate, rate > m_avgPeakBandwidth ? 2 : 8);
            m_avgWindowBytes = 0;
            m_avgWindowBegin = now;
            if (now > m_lastReconfigTime + 250000000)
            {
                SetRate((m_avgPeakBandwidth * 15) >> 4);
            }
        }
    }
    else
    {
        m_avgWindowBytes = 0;
        m_lastPacketTime = now;
    }

    // Flowchain: an idle or decaying flow becomes sparse with a fresh deficit.
    Host& srchost = tin.hosts[flow.srchost];
    Host& dsthost = tin.hosts[flow.dsthost];
    if (flow.set == CakeFlowSet::NONE || flow.set == CakeFlowSet::DECAYING)
    {
        if (flow.set == CakeFlowSet::DECAYING)
        {
            tin.stats.decayingFlows--;
        }
        MoveTail(tin, static_cast<int32_t>(queue), ListId::NEW);
        flow.set = CakeFlowSet::SPARSE;
        tin.stats.sparseFlows++;
        uint32_t hostLoad = 1;
        if (Dsrc(m_config.flowMode))
        {
            hostLoad = std::max<uint32_t>(hostLoad, srchost.srchostBulkFlows);
        }
        if (Ddst(m_config.flowMode))
        {
            hostLoad = std::max<uint32_t>(hostLoad, dsthost.dsthostBulkFlows);
        }
        flow.deficit = static_cast<int32_t>(
            (m_layout.tins[tinIndex].flowQuantum * m_quantumDiv[std::min(hostLoad, CAKE_QUEUES)]) >>
            16);
    }
    else if (flow.set == CakeFlowSet::SPARSE_WAIT)
    {
        // Empty, counted sparse, but already in the bulk rotation.
        flow.set = CakeFlowSet::BULK;
        tin.stats.sparseFlows--;
        tin.stats.bulkFlows++;
        if (Dsrc(m_config.flowMode))
        {
            srchost.srchostBulkFlows++;
        }
        if (Ddst(m_config.flowMode))
        {
            dsthost.dsthostBulkFlows++;
        }
    }

    m_bufferMaxUsed = std::max(m_bufferMaxUsed, m_bufferUsed);
    if (m_bufferUsed > m_bufferLimit)
    {
        uint32_t dropped = 0;
        while (m_bufferUsed > m_bufferLimit)
        {
            dropped++;
            DropOverflow(now);
        }
        tin.stats.dropOverlimit += dropped;
    }
}

template <typename Item>
void
CakeScheduler<Item>::HeapSwap(uint32_t i, uint32_t j)
{
    const HeapEntry ii = m_heap[i];
    const HeapEntry jj = m_heap[j];
    m_heap[i] = jj;
    m_heap[j] = ii;
    m_tins[ii.tin].overflowIdx[ii.queue] = static_cast<uint16_t>(j);
    m_tins[jj.tin].overflowIdx[jj.queue] = static_cast<uint16_t>(i);
}

template <typename Item>
uint32_t
CakeScheduler<Item>::HeapBacklog(uint32_t i) const
{
    const HeapEntry e = m_heap[i];
    return m_tins[e.tin].backlogs[e.queue];
}

template <typename Item>
void
CakeScheduler<Item>::Heapify(uint32_t i)
{
    const uint32_t a = CAKE_MAX_TINS * CAKE_QUEUES;
    uint32_t mb = HeapBacklog(i);
    uint32_t m = i;
    while (m < a)
    {
        const uint32_t l = m + m + 1;
        const uint32_t r = l + 1;
        if (l < a && HeapBacklog(l) > mb)
        {
            m = l;
            mb = HeapBacklog(l);
        }
        if (r < a && HeapBacklog(r) > mb)
        {
            m = r;
            mb = HeapBacklog(r);
        }
        if (m == i)
        {
            break;
        }
        HeapSwap(i, m);
        i = m;
    }
}

template <typename Item>
void
CakeScheduler<Item>::HeapifyUp(uint32_t i)
{
    while (i > 0 && i < CAKE_MAX_TINS * CAKE_QUEUES)
    {
        const uint32_t p = (i - 1) >> 1;
        if (HeapBacklog(i) <= HeapBacklog(p))
        {
            break;
        }
        HeapSwap(i, p);
        i = p;
    }
}

template <typename Item>
void
CakeScheduler<Item>::DropOverflow(int64_t now)
{
    if (!m_overflowTimeout)
    {
        // Build a fresh max-heap.
        for (int32_t i = CAKE_MAX_TINS * CAKE_QUEUES / 2; i >= 0; --i)
        {
            Heapify(static_cast<uint32_t>(i));
        }
    }
    m_overflowTimeout = 65535;
    const HeapEntry top = m_heap[0];
    Tin& tin = m_tins[top.tin];
    Flow& flow = tin.flows[top.queue];
    const int32_t node = DequeueHead(flow);
    if (node == NIL)
    {
        // The heap has gone wrong: rebuild it next time. (Unreachable while
        // buffer_used > 0 means some queue holds a packet.)
        m_overflowTimeout = 0;
        return;
    }
    if (CobaltQueueFull(flow.cvars, m_layout.tins[top.tin].cparams, now))
    {
        tin.stats.unresponsiveFlows++;
    }
    const Node& n = m_nodes[node];
    m_bufferUsed -= n.truesize;
    tin.backlogs[top.queue] -= n.len;
    tin.stats.backlog -= n.len;
    m_backlog -= n.len;
    flow.dropped++;
    tin.stats.dropped++;
    if (m_config.ingress)
    {
        AdvanceShaper(tin, top.tin, n, now, true);
    }
    m_qlen--;
    const uint32_t len = n.len;
    m_drop(FreeNode(node), len, CakeDropReason::OVERLIMIT);
    Heapify(0);
}

template <typename Item>
uint32_t
CakeScheduler<Item>::AdvanceShaper(Tin& tin,
                                   uint32_t tinIndex,
                                   const Node& node,
                                   int64_t now,
                                   bool drop)
{
    const uint32_t len = node.adjustedLen;
    if (m_rate.rateNs)
    {
        const CakeRate& tinRate = m_layout.tins[tinIndex].shaper;
        const auto tinDur = static_cast<int64_t>(TimeForBytes(tinRate, len));
        const auto globalDur = static_cast<int64_t>(TimeForBytes(m_rate, len));
        const int64_t failsafeDur = globalDur + (globalDur >> 1);
        // A lagging tin keeps its credit; a tin ahead of now moves to now + its duration.
        if (tin.stats.timeNextPacket < now)
        {
            tin.stats.timeNextPacket += tinDur;
        }
        else if (tin.stats.timeNextPacket < now + tinDur)
        {
            tin.stats.timeNextPacket = now + tinDur;
        }
        m_timeNextPacket += globalDur;
        if (!drop)
        {
            m_failsafeNextPacket += failsafeDur;
        }
    }
    return len;
}

template <typename Item>
inline void
CakeScheduler<Item>::Refill(const Tin& tin, Flow& flow, uint32_t flowQuantum, Prandom& random)
{
    uint32_t hostLoad = 1;
    if (Dsrc(m_config.flowMode))
    {
        hostLoad = std::max<uint32_t>(hostLoad, tin.hosts[flow.srchost].srchostBulkFlows);
    }
    if (Ddst(m_config.flowMode))
    {
        hostLoad = std::max<uint32_t>(hostLoad, tin.hosts[flow.dsthost].dsthostBulkFlows);
    }
    // get_random_u16() dithers away the rounding error.
    flow.deficit += static_cast<int32_t>(
        (flowQuantum * m_quantumDiv[std::min(hostLoad, CAKE_QUEUES)] + (random.Next() & 0xFFFF)) >>
        16);
}

template <typename Item>
int32_t
CakeScheduler<Item>::DequeueOne()
{
    Tin& tin = m_tins[m_curTin];
    Flow& flow = tin.flows[m_curFlow];
    const int32_t node = DequeueHead(flow);
    if (node != NIL)
    {
        const Node& n = m_nodes[node];
        tin.backlogs[m_curFlow] -= n.len;
        tin.stats.backlog -= n.len;
        m_backlog -= n.len;
        m_bufferUsed -= n.truesize;
        m_qlen--;
        if (m_overflowTimeout)
        {
            Heapify(tin.overflowIdx[m_curFlow]);
        }
    }
    return node;
}

template <typename Item>
std::optional<Item>
CakeScheduler<Item>::Dequeue(int64_t now)
{
    bool firstFlow = true;
    Tin* tin = &m_tins[m_curTin];
    for (;;) // begin:
    {
        if (m_qlen == 0)
        {
            return std::nullopt;
        }
        // Global hard shaper.
        if (m_timeNextPacket > now && m_failsafeNextPacket > now)
        {
            m_overlimits++;
            ScheduleWatchdog(std::min(m_timeNextPacket, m_failsafeNextPacket));
            return std::nullopt;
        }
        // Choose a tin.
        if (!m_rate.rateNs)
        {
            // Unlimited: DRR between tins on tin_quantum.
            bool wrapped = false;
            bool empty = true;
            while (tin->stats.tinDeficit < 0 || !(tin->stats.sparseFlows + tin->stats.bulkFlows))
            {
                if (tin->stats.tinDeficit <= 0)
                {
                    tin->stats.tinDeficit += m_layout.tins[m_curTin].tinQuantum;
                }
                if (tin->stats.sparseFlows + tin->stats.bulkFlows)
                {
                    empty = false;
                }
                m_curTin++;
                if (m_curTin >= m_layout.tinCount)
                {
                    m_curTin = 0;
                    if (wrapped)
                    {
                        if (empty)
                        {
                            // Only decaying flows hold the qlen: nothing to send.
                            return std::nullopt;
                        }
                    }
                    else
                    {
                        wrapped = true;
                    }
                }
                tin = &m_tins[m_curTin];
            }
        }
        else
        {
            // Shaped: the highest tin that is due, else the earliest (ties: the higher).
            int64_t bestTime = std::numeric_limits<int64_t>::max();
            uint32_t best = 0;
            for (uint32_t t = 0; t < m_layout.tinCount; ++t)
            {
                const Tin& candidate = m_tins[t];
                if (candidate.stats.sparseFlows + candidate.stats.bulkFlows > 0)
                {
                    const int64_t timeToPacket = candidate.stats.timeNextPacket - now;
                    if (timeToPacket <= 0 || timeToPacket <= bestTime)
                    {
                        bestTime = timeToPacket;
                        best = t;
                    }
                }
            }
            m_curTin = best;
            tin = &m_tins[best];
            if (!(tin->stats.sparseFlows + tin->stats.bulkFlows))
            {
                return std::nullopt;
            }
        }
        const CakeTin& config = m_layout.tins[m_curTin];

        bool restart = false;
        for (;;) // retry:
        {
            FlowList* head = &tin->decayingFlows;
            if (!firstFlow || head->head == NIL)
            {
                head = &tin->newFlows;
                if (head->head == NIL)
                {
                    head = &tin->oldFlows;
                    if (head->head == NIL)
                    {
                        head = &tin->decayingFlows;
                        if (head->head == NIL)
                        {
                            restart = true;
                            break;
                        }
                    }
                }
            }
            const int32_t index = head->head;
            Flow& flow = tin->flows[index];
            m_curFlow = static_cast<uint32_t>(index);
            firstFlow = false;
            Host& srchost = tin->hosts[flow.srchost];
            Host& dsthost = tin->hosts[flow.dsthost];

            // DRR++: a flow out of deficit goes to the old list with a new quantum, scaled
            // down by its hosts' bulk flow counts.
            if (flow.deficit <= 0)
            {
                if (flow.set == CakeFlowSet::SPARSE)
                {
                    if (flow.head != NIL)
                    {
                        tin->stats.sparseFlows--;
                        tin->stats.bulkFlows++;
                        if (Dsrc(m_config.flowMode))
                        {
                            srchost.srchostBulkFlows++;
                        }
                        if (Ddst(m_config.flowMode))
                        {
                            dsthost.dsthostBulkFlows++;
                        }
                        flow.set = CakeFlowSet::BULK;
                    }
                    else
                    {
                        flow.set = CakeFlowSet::SPARSE_WAIT;
                    }
                }
                Refill(*tin, flow, config.flowQuantum, m_prandom);
                MoveTail(*tin, index, ListId::OLD);
                // What the retry loop would do next, without its bookkeeping: when no new
                // flow waits, the old list's head is the next flow; one out of deficit (and
                // not sparse, whose first visit changes state) is refilled and rotated.
                // With host fairness a packet can take dozens of these steps.
                if (tin->newFlows.head == NIL)
                {
                    // Locals for the generator and the list ends: the compiler keeps them in
                    // registers across the stores (nothing else changes the lists here).
                    FlowList& old = tin->oldFlows;
                    Prandom random = m_prandom;
                    int32_t head = old.head;
                    int32_t tail = old.tail;
                    for (;;)
                    {
                        Flow& next = tin->flows[head];
                        if (next.deficit > 0 || next.set == CakeFlowSet::SPARSE)
                        {
                            break;
                        }
                        Refill(*tin, next, config.flowQuantum, random);
                        // MoveTail(head, OLD): the rotation, written out.
                        if (head != tail)
                        {
                            const int32_t second = next.next;
                            tin->flows[second].prev = NIL;
                            next.prev = tail;
                            next.next = NIL;
                            tin->flows[tail].next = head;
                            tail = head;
                            head = second;
                        }
                    }
                    old.head = head;
                    old.tail = tail;
                    m_prandom = random;
                }
                continue;
            }

            // Retrieve a packet via the AQM.
            int32_t node = NIL;
            bool retry = false;
            for (;;)
            {
                node = DequeueOne();
                if (node == NIL)
                {
                    // The queue was empty.
                    if (CobaltQueueEmpty(flow.cvars, config.cparams, now))
                    {
                        tin->stats.unresponsiveFlows--;
                    }
                    if (flow.cvars.pDrop || flow.cvars.count || now < flow.cvars.dropNext)
                    {
                        // Keep it on the decaying list until its state comes to rest.
                        MoveTail(*tin, index, ListId::DECAYING);
                        if (flow.set == CakeFlowSet::BULK)
                        {
                            tin->stats.bulkFlows--;
                            if (Dsrc(m_config.flowMode))
                            {
                                srchost.srchostBulkFlows--;
                            }
                            if (Ddst(m_config.flowMode))
                            {
                                dsthost.dsthostBulkFlows--;
                            }
                            tin->stats.decayingFlows++;
                        }
                        else if (flow.set == CakeFlowSet::SPARSE ||
                                 flow.set == CakeFlowSet::SPARSE_WAIT)
                        {
                            tin->stats.sparseFlows--;
                            tin->stats.decayingFlows++;
                        }
                        flow.set = CakeFlowSet::DECAYING;
                    }
                    else
                    {
                        Unlink(*tin, index);
                        if (flow.set == CakeFlowSet::SPARSE || flow.set == CakeFlowSet::SPARSE_WAIT)
                        {
                            tin->stats.sparseFlows--;
                        }
                        else if (flow.set == CakeFlowSet::BULK)
                        {
                            tin->stats.bulkFlows--;
                            if (Dsrc(m_config.flowMode))
                            {
                                srchost.srchostBulkFlows--;
                            }
                            if (Ddst(m_config.flowMode))
                            {
                                dsthost.dsthostBulkFlows--;
                            }
                        }
                        else
                        {
                            tin->stats.decayingFlows--;
                        }
                        flow.set = CakeFlowSet::NONE;
                    }
                    restart = true;
                    break;
                }
                Node& n = m_nodes[node];
                const uint32_t bulkFlows = m_config.ingress ? tin->stats.bulkFlows : 0;
                m_markNode = node;
                const CobaltVerdict verdict = CobaltShouldDrop(flow.cvars,
                                                               config.cparams,
                                                               now,
                                                               n.enqueueTime,
                                                               bulkFlows,
                                                               m_trySetCe,
                                                               m_cobaltRandom);
                // The last packet of a queue may be marked but is never dropped.
                if (!CobaltIsDrop(verdict) || flow.head == NIL)
                {
                    break;
                }
                if (m_config.ingress)
                {
                    const uint32_t len = AdvanceShaper(*tin, m_curTin, n, now, true);
                    flow.deficit -= static_cast<int32_t>(len);
                    tin->stats.tinDeficit -= static_cast<int32_t>(len);
                }
                flow.dropped++;
                tin->stats.dropped++;
                const uint32_t len = n.len;
                m_drop(FreeNode(node),
                       len,
                       verdict == CobaltVerdict::DROP_FLOOD ? CakeDropReason::FLOOD
                                                            : CakeDropReason::CONGESTED);
                if (m_config.ingress)
                {
                    retry = true;
                    break;
                }
            }
            if (restart)
            {
                break;
            }
            if (retry)
            {
                continue;
            }

            Node& n = m_nodes[node];
            tin->stats.ecnMarked += flow.cvars.ecnMarked ? 1 : 0;
            const auto delay = static_cast<uint64_t>(now - n.enqueueTime);
            tin->stats.avgDelay = CakeEwma(tin->stats.avgDelay, delay, 8);
            tin->stats.peakDelay =
                CakeEwma(tin->stats.peakDelay, delay, delay > tin->stats.peakDelay ? 2 : 8);
            tin->stats.baseDelay =
                CakeEwma(tin->stats.baseDelay, delay, delay < tin->stats.baseDelay ? 2 : 8);
            const uint32_t len = AdvanceShaper(*tin, m_curTin, n, now, false);
            flow.deficit -= static_cast<int32_t>(len);
            tin->stats.tinDeficit -= static_cast<int32_t>(len);

            if (m_timeNextPacket > now && m_qlen)
            {
                ScheduleWatchdog(std::min(m_timeNextPacket, m_failsafeNextPacket));
            }
            else if (!m_qlen)
            {
                // Wake up to let decaying flows' AQM state come to rest.
                for (uint32_t t = 0; t < m_layout.tinCount; ++t)
                {
                    if (m_tins[t].stats.decayingFlows)
                    {
                        ScheduleWatchdog(now +
                                         static_cast<int64_t>(m_layout.tins[t].cparams.target));
                        break;
                    }
                }
            }
            if (m_overflowTimeout)
            {
                m_overflowTimeout--;
            }
            return FreeNode(node);
        }
    }
}

template <typename Item>
void
CakeScheduler<Item>::ScheduleWatchdog(int64_t at)
{
    m_watchdog = at;
}

template <typename Item>
std::optional<int64_t>
CakeScheduler<Item>::TakeWatchdog()
{
    std::optional<int64_t> at = m_watchdog;
    m_watchdog.reset();
    return at;
}

template <typename Item>
const CakeTinLayout&
CakeScheduler<Item>::GetLayout() const
{
    return m_layout;
}

template <typename Item>
CakeTinStats
CakeScheduler<Item>::GetTinStats(uint32_t tin) const
{
    return m_tins.at(tin).stats;
}

template <typename Item>
uint32_t
CakeScheduler<Item>::GetQlen() const
{
    return m_qlen;
}

template <typename Item>
uint64_t
CakeScheduler<Item>::GetBacklog() const
{
    return m_backlog;
}

template <typename Item>
uint32_t
CakeScheduler<Item>::GetBufferLimit() const
{
    return m_bufferLimit;
}

template <typename Item>
uint32_t
CakeScheduler<Item>::GetBufferUsed() const
{
    return m_bufferUsed;
}

template <typename Item>
uint32_t
CakeScheduler<Item>::GetBufferMaxUsed() const
{
    return m_bufferMaxUsed;
}

template <typename Item>
uint64_t
CakeScheduler<Item>::GetCapacityEstimate() const
{
    return m_avgPeakBandwidth;
}

template <typename Item>
uint32_t
CakeScheduler<Item>::GetOverlimits() const
{
    return m_overlimits;
}

template <typename Item>
uint32_t
CakeScheduler<Item>::GetMinNetLen() const
{
    return m_minNetlen;
}

template <typename Item>
uint32_t
CakeScheduler<Item>::GetMaxNetLen() const
{
    return m_maxNetlen;
}

template <typename Item>
uint32_t
CakeScheduler<Item>::GetMinAdjLen() const
{
    return m_minAdjlen;
}

template <typename Item>
uint32_t
CakeScheduler<Item>::GetMaxAdjLen() const
{
    return m_maxAdjlen;
}

template <typename Item>
uint32_t
CakeScheduler<Item>::GetAvgNetOffset() const
{
    return (m_avgNetoff + 0x8000) >> 16;
}

template <typename Item>
typename CakeScheduler<Item>::FlowStats
CakeScheduler<Item>::GetFlowStats(uint32_t tin, uint32_t queue) const
{
    const Tin& t = m_tins.at(tin);
    const Flow& flow = t.flows.at(queue);
    FlowStats stats;
    stats.set = flow.set;
    stats.qlen = flow.qlen;
    stats.backlog = t.backlogs[queue];
    stats.dropped = flow.dropped;
    stats.deficit = flow.deficit;
    stats.cvars = flow.cvars;
    stats.srchost = flow.srchost;
    stats.dsthost = flow.dsthost;
    return stats;
}

template <typename Item>
std::pair<uint32_t, uint32_t>
CakeScheduler<Item>::GetHostBulkCounts(uint32_t tin, uint32_t host) const
{
    const Host& h = m_tins.at(tin).hosts.at(host);
    return {h.srchostBulkFlows, h.dsthostBulkFlows};
}

} // namespace debloat
} // namespace ns3

#endif /* CAKE_SCHEDULER_H */
