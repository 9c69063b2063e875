/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_cake.c of Linux 6.x: the packets of the flow queues with their
 * cobalt_skb_cb (enqueue time, adjusted length), flow_queue_add() and dequeue_head().
 */

#ifndef CAKE_PACKET_POOL_H
#define CAKE_PACKET_POOL_H

#include "cake-tin-data.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief The queued packets of CAKE's flows: nodes in one pool, linked by index into the
 * flows' queues (the kernel links the skbs themselves).
 *
 * Plain C++ with no ns-3 dependency. Nodes are reused through a free list, so the pool
 * grows to the largest number of packets queued at once.
 */
class CakePacketPool
{
  public:
    /// One queued packet (the skb with its cobalt_skb_cb).
    struct Node
    {
        uint32_t handle{0};      ///< the caller's handle of the packet
        int64_t enqueueTime{0};  ///< enqueue_time, ns
        uint32_t len{0};         ///< qdisc_pkt_len()
        uint32_t adjustedLen{0}; ///< adjusted_len
        uint32_t truesize{0};    ///< truesize
        int32_t next{CAKE_NIL};  ///< next node of the flow, or of the free list
    };

    /// @return a node from the pool (its fields are those it was freed with)
    int32_t Alloc();
    /**
     * Returns a node to the pool.
     * @param node the node
     * @return its packet's handle
     */
    uint32_t Free(int32_t node);
    /**
     * flow_queue_add(): appends a node to a flow's queue.
     * @param flow the flow
     * @param node the node
     */
    void QueueAdd(CakeFlow& flow, int32_t node);
    /**
     * dequeue_head(): takes the first node of a flow's queue.
     * @param flow the flow
     * @return the node, or CAKE_NIL when the queue is empty
     */
    int32_t DequeueHead(CakeFlow& flow);

    /// @param node a node index @return the node
    Node& operator[](int32_t node)
    {
        return m_nodes[node];
    }

    /// @param node a node index @return the node
    const Node& operator[](int32_t node) const
    {
        return m_nodes[node];
    }

  private:
    std::vector<Node> m_nodes; ///< the nodes
    int32_t m_free{CAKE_NIL};  ///< free list
};

} // namespace debloat
} // namespace ns3

#endif /* CAKE_PACKET_POOL_H */
