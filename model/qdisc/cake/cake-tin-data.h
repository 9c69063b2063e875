/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_cake.c of Linux 6.x: struct cake_tin_data with its flows (struct
 * cake_flow), hosts (struct cake_host) and flow lists, cake_hash() (8-way set-associative
 * flow and host tables) and the host bulk flow counters
 * (cake_inc/dec_srchost_bulk_flow_count(), cake_inc/dec_dsthost_bulk_flow_count()).
 */

#ifndef CAKE_TIN_DATA_H
#define CAKE_TIN_DATA_H

#include "cake-config.h"
#include "cake-tins.h"
#include "cobalt.h"

#include "ns3/flow-dissector.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace ns3
{
namespace debloat
{

/// CAKE_SET_WAYS: associativity of the flow and host tables.
constexpr uint32_t CAKE_SET_WAYS = 8;

/// No node / no flow (an empty link in the index-linked lists).
constexpr int32_t CAKE_NIL = -1;

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
 * @brief Which list a flow is on (the kernel knows it from the list_head it is linked into).
 */
enum class CakeListId : uint8_t
{
    NONE,    ///< on no list
    NEW,     ///< new_flows
    OLD,     ///< old_flows
    DECAYING ///< decaying_flows
};

/**
 * @ingroup debloat-qdisc
 * @brief struct cake_flow: a flow queue, its packets linked by node index (see CakeScheduler).
 */
struct CakeFlow
{
    int32_t head{CAKE_NIL};             ///< first packet
    int32_t tail{CAKE_NIL};             ///< last packet
    int32_t prev{CAKE_NIL};             ///< flowchain: previous flow on the list
    int32_t next{CAKE_NIL};             ///< flowchain: next flow on the list
    CakeListId list{CakeListId::NONE};  ///< the list the flow is on
    int32_t deficit{0};                 ///< deficit
    uint32_t dropped{0};                ///< dropped
    uint32_t qlen{0};                   ///< packets (for the class stats)
    CobaltVars cvars;                   ///< cvars
    uint16_t srchost{0};                ///< srchost index
    uint16_t dsthost{0};                ///< dsthost index
    CakeFlowSet set{CakeFlowSet::NONE}; ///< set
};

/**
 * @ingroup debloat-qdisc
 * @brief struct cake_host.
 */
struct CakeHost
{
    uint32_t srchostTag{0};       ///< srchost_tag
    uint32_t dsthostTag{0};       ///< dsthost_tag
    uint16_t srchostBulkFlows{0}; ///< srchost_bulk_flow_count
    uint16_t dsthostBulkFlows{0}; ///< dsthost_bulk_flow_count
};

/**
 * @ingroup debloat-qdisc
 * @brief A doubly linked list of flows (a struct list_head), linked by flow index.
 */
struct CakeFlowList
{
    int32_t head{CAKE_NIL}; ///< first flow
    int32_t tail{CAKE_NIL}; ///< last flow
};

/**
 * @ingroup debloat-qdisc
 * @brief struct cake_tin_data: one tin's 1024 flow queues, their hosts and flow lists, with
 * cake_hash() and the host bulk flow counters.
 *
 * Plain C++ with no ns-3 dependency. The packets of the flows live in CakeScheduler's node
 * pool; this class knows only their list ends.
 */
class CakeTinData
{
  public:
    /**
     * @param mode a flow mode
     * @param bits mode bits
     * @return true when mode has all of them
     */
    static bool Has(CakeFlowMode mode, CakeFlowMode bits)
    {
        return (static_cast<uint8_t>(mode) & static_cast<uint8_t>(bits)) ==
               static_cast<uint8_t>(bits);
    }

    /// @param mode a flow mode @return cake_dsrc(): the mode keeps source host counts
    static bool Dsrc(CakeFlowMode mode)
    {
        return Has(mode, CakeFlowMode::DUAL_SRC);
    }

    /// @param mode a flow mode @return cake_ddst(): the mode keeps destination host counts
    static bool Ddst(CakeFlowMode mode)
    {
        return Has(mode, CakeFlowMode::DUAL_DST);
    }

    /**
     * cake_hash(): the flow queue of a packet, with its hosts (re)assigned when the queue is
     * new to the flow.
     * @param where the packet's hashes
     * @param mode the flow mode
     * @return the queue index, 0..1023
     */
    uint32_t Hash(const CakeClassification& where, CakeFlowMode mode);

    /**
     * cake_inc_srchost_bulk_flow_count(): counts the flow as bulk for its source host when
     * cake_dsrc() of the mode holds and the count is below CAKE_QUEUES.
     * @param flow the flow
     * @param mode the flow mode
     */
    void IncSrcHostBulkFlowCount(const CakeFlow& flow, CakeFlowMode mode);
    /**
     * cake_dec_srchost_bulk_flow_count(): the reverse, when cake_dsrc() holds and the count
     * is not zero.
     * @param flow the flow
     * @param mode the flow mode
     */
    void DecSrcHostBulkFlowCount(const CakeFlow& flow, CakeFlowMode mode);
    /**
     * cake_inc_dsthost_bulk_flow_count(): as IncSrcHostBulkFlowCount(), for the destination
     * host under cake_ddst().
     * @param flow the flow
     * @param mode the flow mode
     */
    void IncDstHostBulkFlowCount(const CakeFlow& flow, CakeFlowMode mode);
    /**
     * cake_dec_dsthost_bulk_flow_count(): as DecSrcHostBulkFlowCount(), for the destination
     * host under cake_ddst().
     * @param flow the flow
     * @param mode the flow mode
     */
    void DecDstHostBulkFlowCount(const CakeFlow& flow, CakeFlowMode mode);

    /**
     * cake_get_flow_quantum()'s host_load: the larger of the flow's hosts' bulk flow counts
     * that the mode keeps, at least 1. (Inline: DRR++ refills call it dozens of times per
     * packet under host fairness.)
     * @param flow the flow
     * @param mode the flow mode
     * @return the host load
     */
    uint32_t HostLoad(const CakeFlow& flow, CakeFlowMode mode) const
    {
        uint32_t hostLoad = 1;
        if (Dsrc(mode))
        {
            hostLoad = std::max<uint32_t>(hostLoad, hosts[flow.srchost].srchostBulkFlows);
        }
        if (Ddst(mode))
        {
            hostLoad = std::max<uint32_t>(hostLoad, hosts[flow.dsthost].dsthostBulkFlows);
        }
        return hostLoad;
    }

    /**
     * list_move_tail() (and list_add_tail() from no list).
     * @param index the flow
     * @param to the list
     */
    void MoveTail(int32_t index, CakeListId to);
    /**
     * list_del_init().
     * @param index the flow
     */
    void Unlink(int32_t index);
    /**
     * @param list a list id (not NONE)
     * @return its head
     */
    CakeFlowList& ListOf(CakeListId list);

    std::array<CakeFlow, CAKE_QUEUES> flows;         ///< flows
    std::array<uint32_t, CAKE_QUEUES> backlogs{};    ///< backlogs
    std::array<uint32_t, CAKE_QUEUES> tags{};        ///< tags
    std::array<uint16_t, CAKE_QUEUES> overflowIdx{}; ///< overflow_idx
    std::array<CakeHost, CAKE_QUEUES> hosts;         ///< hosts
    CakeFlowList newFlows;                           ///< new_flows
    CakeFlowList oldFlows;                           ///< old_flows
    CakeFlowList decayingFlows;                      ///< decaying_flows
    CakeTinStats stats;                              ///< counters

  private:
    /**
     * The host table half of cake_hash(): the set search by tag, else a host with no bulk
     * flows, else the original index (sharing).
     * @param hash the host hash
     * @param tag srchost_tag or dsthost_tag
     * @param bulk the matching bulk flow count
     * @return the host index
     */
    uint32_t AllocateHost(uint32_t hash, uint32_t CakeHost::* tag, uint16_t CakeHost::* bulk);
};

} // namespace debloat
} // namespace ns3

#endif /* CAKE_TIN_DATA_H */
