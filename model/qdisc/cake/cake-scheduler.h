/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_cake.c of Linux 6.x: cake_enqueue, cake_dequeue (tin choice, DRR++
 * with new, old and decaying flow lists, COBALT per flow), cake_advance_shaper, cake_drop,
 * the autorate-ingress estimator and cake_reconfigure's buffer limit. The flow and host
 * tables with cake_hash() are CakeTinData's, the overflow heap CakeOverflowHeap's.
 */

#ifndef CAKE_SCHEDULER_H
#define CAKE_SCHEDULER_H

#include "cake-ack-filter.h"
#include "cake-config.h"
#include "cake-overflow-heap.h"
#include "cake-overhead.h"
#include "cake-packet-pool.h"
#include "cake-tin-data.h"
#include "cake-tins.h"
#include "cobalt.h"

#include "ns3/prandom.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace ns3
{
namespace debloat
{

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
 * @brief What an observer of CakeScheduler is told, per flow queue (for traces). Each member
 * may be left empty; an empty one costs a test per event.
 */
struct CakeObserver
{
    /// A packet of queue `queue` of tin `tin` is about to go to the drop callback.
    std::function<void(uint32_t tin, uint32_t queue, uint32_t handle, CakeDropReason reason)> drop;
    /// COBALT CE-marked the head packet of a queue (the mark callback returned true).
    std::function<void(uint32_t tin, uint32_t queue, uint32_t handle)> mark;
    /// A queue's COBALT state entered (dropping true) or left the dropping state; count is
    /// cobalt_vars.count after the change.
    std::function<void(uint32_t tin, uint32_t queue, bool dropping, uint32_t count)> dropState;
};

/**
 * @ingroup debloat-qdisc
 * @brief CAKE's scheduler: tins, set-associative flow queues, DRR++, COBALT and the shaper,
 * as net/sched/sch_cake.c runs them, over packets named by uint32_t handles.
 *
 * Plain C++ with no ns-3 dependency: time is passed in (ns); ECN marking, drops and the
 * ACK filter's view of a packet go through callbacks given a packet's handle; random numbers
 * come from a Prandom seeded by the caller. The caller classifies (tin and hashes), computes
 * truesize and reports what the watchdog asks for (TakeWatchdog()). Every handle given to
 * Enqueue() is either returned by Dequeue(), handed to the drop callback with a reason, or
 * still queued.
 *
 * Deviations from Linux:
 * - Flow queues are linked lists of nodes in one pool (the kernel links the skbs);
 *   behaviour is the same.
 * - tc filters' flow/host overrides are the caller's business (it passes the hashes); the
 *   skb->l4_hash shortcut is not modelled: flows are always hashed from their keys.
 * - Packet memory (truesize) is whatever the caller charges; see CakeQueueDisc.
 */
class CakeScheduler
{
  public:
    /// What is queued: the caller's handle of a packet.
    using Handle = uint32_t;
    /// INET_ECN_set_ce(): true when the packet was ECN-capable and is now CE-marked.
    using MarkCallback = std::function<bool(Handle handle)>;
    /// Receives every dropped packet, with its qdisc length and the reason.
    using DropCallback = std::function<void(Handle handle, uint32_t len, CakeDropReason reason)>;
    /// The ACK filter's view of a queued packet, or nullptr when it is not TCP.
    using AckViewCallback = std::function<const CakeAckPacket*(Handle handle)>;

    /**
     * cake_init() and cake_change().
     * @param config the settings
     * @param mtu psched_mtu(): device MTU plus link-layer header (1514 on Ethernet)
     * @param seed seed of the random numbers (DRR dithering, BLUE)
     * @param mark ECN marking
     * @param drop dropped packets
     * @param ackView the ACK filter's view of packets (needed when the ACK filter is on)
     */
    CakeScheduler(const CakeConfig& config,
                  uint32_t mtu,
                  uint64_t seed,
                  MarkCallback mark,
                  DropCallback drop,
                  AckViewCallback ackView = nullptr);

    /// Not copyable: callbacks and the heap refer to this instance.
    CakeScheduler(const CakeScheduler&) = delete;
    /// Not copyable. @return nothing
    CakeScheduler& operator=(const CakeScheduler&) = delete;

    /// @param seed a new seed for the random numbers (prandom_seed_state())
    void Seed(uint64_t seed);

    /// @param observer the per-flow events to report (replaces any earlier observer)
    void SetObserver(CakeObserver observer);

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
     * @param handle the packet
     * @param size its sizes
     * @param segment the packet is a segment of a GSO packet split on enqueue: no ACK
     *        filtering, and max_len keeps the super-packet's length (RecordMaxLen())
     */
    void Enqueue(int64_t now,
                 const CakeClassification& where,
                 Handle handle,
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
    std::optional<Handle> Dequeue(int64_t now);

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
    /// cake_reconfigure().
    void Reconfigure();
    /// cake_overhead() plus the length statistics of cake_calc_overhead().
    /// @param size the packet's sizes @return the adjusted length
    uint32_t Overhead(const CakePacketSize& size);
    /// cake_calc_overhead() with statistics.
    /// @param len a length @param off the network offset @return the adjusted length
    uint32_t CalcOverhead(uint32_t len, uint32_t off);

    /// cake_ack_filter() on the flow's tail. @param flow the flow @return the node to drop,
    /// or CAKE_NIL
    int32_t AckFilter(CakeFlow& flow);
    /// cake_enqueue()'s "ensure shaper state isn't stale" for a tin about to get a packet.
    /// @param now the time, ns @param tin the tin
    void RefreshShaper(int64_t now, CakeTinData& tin);
    /// The flowchain step of cake_enqueue(), the overflow heap, autorate and the limit.
    /// @param now the time, ns @param tin the tin @param tinIndex its index @param queue the
    /// packet's queue
    void AfterEnqueue(int64_t now, CakeTinData& tin, uint32_t tinIndex, uint32_t queue);

    /**
     * cake_get_flow_quantum(): a flow's quantum divided by its hosts' bulk flow counts
     * (host_load), dithered with 16 random bits (CakeFlowQuantum()). cake_enqueue() gives it
     * to a flow that becomes active, cake_dequeue() adds it when a flow runs out of deficit.
     * @param tin the flow's tin
     * @param flow the flow
     * @param flowQuantum the tin's flow quantum
     * @param random the random numbers (m_prandom, or a local copy of it in a hot loop)
     * @return bytes of deficit
     */
    int32_t GetFlowQuantum(const CakeTinData& tin,
                           const CakeFlow& flow,
                           uint32_t flowQuantum,
                           Prandom& random) const;
    /**
     * The DRR++ refill of cake_dequeue(): flow->deficit += cake_get_flow_quantum().
     * @param tin the flow's tin
     * @param flow the flow
     * @param flowQuantum the tin's flow quantum
     * @param random the random numbers (m_prandom, or a local copy of it in a hot loop)
     */
    void Refill(const CakeTinData& tin, CakeFlow& flow, uint32_t flowQuantum, Prandom& random);
    /// cake_dequeue_one() of (m_curTin, m_curFlow). @return the node, or CAKE_NIL
    int32_t DequeueOne();
    /**
     * cake_advance_shaper().
     * @param tin the tin @param tinIndex its index @param node the packet @param now the time
     * @param drop the packet is being dropped (no failsafe advance)
     * @return the adjusted length
     */
    uint32_t AdvanceShaper(CakeTinData& tin,
                           uint32_t tinIndex,
                           const CakePacketPool::Node& node,
                           int64_t now,
                           bool drop);
    /// cake_drop(): one overflow drop from the fattest flow. @param now the time, ns
    void DropOverflow(int64_t now);

    /**
     * Hands a dropped node to the observer and the drop callback.
     * @param tin the tin index @param queue the queue @param node the node
     * @param reason why
     */
    void Drop(uint32_t tin, uint32_t queue, int32_t node, CakeDropReason reason);
    /**
     * Tells the observer when a flow's COBALT dropping state differs from before.
     * @param tin the tin index @param queue the queue @param flow the flow
     * @param wasDropping cvars.dropping before the COBALT step
     */
    void CheckDropState(uint32_t tin, uint32_t queue, const CakeFlow& flow, bool wasDropping);

    /// The flow-set bookkeeping of cake_dequeue() when a flow's queue is found empty.
    /// @param tin the tin @param index the flow @param now the time, ns
    void RetireEmptyFlow(CakeTinData& tin, int32_t index, int64_t now);

    /// qdisc_watchdog_schedule_ns(). @param at the time, ns
    void ScheduleWatchdog(int64_t at);

    CakeConfig m_config;               ///< the settings
    uint32_t m_mtu;                    ///< psched_mtu()
    Prandom m_prandom;                 ///< get_random_u32() and get_random_u16()
    CobaltRandomSource m_cobaltRandom; ///< m_prandom for COBALT's BLUE
    int32_t m_markNode{CAKE_NIL};      ///< the node COBALT may mark
    CobaltTrySetCe m_trySetCe;         ///< marks m_markNode
    MarkCallback m_mark;               ///< INET_ECN_set_ce()
    DropCallback m_drop;               ///< drop sink
    AckViewCallback m_ackView;         ///< ACK filter's packet view
    CakeObserver m_observer;           ///< per-flow events
    CakeTinLayout m_layout;            ///< tins' configuration
    std::vector<CakeTinData> m_tins;   ///< CAKE_MAX_TINS tins
    CakePacketPool m_nodes;            ///< packet pool
    CakeOverflowHeap m_heap;           ///< overflow_heap
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
uint64_t CakeEwma(uint64_t avg, uint64_t sample, uint32_t shift);

} // namespace debloat
} // namespace ns3

#endif /* CAKE_SCHEDULER_H */
