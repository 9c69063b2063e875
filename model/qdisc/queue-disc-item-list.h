/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QUEUE_DISC_ITEM_LIST_H
#define QUEUE_DISC_ITEM_LIST_H

#include "ns3/queue-item.h"
#include "ns3/queue.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief The internal queue of a queue disc whose scheduler keeps its own packet order (SFQ,
 * CAKE), and the pool of handles that scheduler queues instead of packets.
 *
 * ns-3's QueueDisc counts packets, bytes and drops through the traces of its internal
 * queues, so a queue disc whose scheduler holds the packets in its own structures still needs
 * one. This list holds every queued item in no particular order and gives each a handle, a
 * small integer that the plain C++ scheduler core queues in its place (the kernel links the
 * skbs themselves). Take() removes an item by its handle in O(1), which fires the dequeue
 * trace the queue disc counts, and frees the handle for reuse. Handles are dense: they run
 * from 0 to GetHandleBound() - 1, so a queue disc may keep per-packet side tables indexed
 * by them. The list never drops: the scheduler decides.
 */
class QueueDiscItemList : public Queue<QueueDiscItem>
{
  public:
    /// What the scheduler core queues for an item.
    using Handle = uint32_t;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * Adds an item, counted as enqueued.
     * @param item the item
     * @return its handle: NextHandle() as it was before the call
     */
    Handle Insert(Ptr<QueueDiscItem> item);

    /**
     * @return the handle the next Insert() returns, for a scheduler that must be offered
     *         the packet before the queue disc knows whether it is accepted
     */
    Handle NextHandle() const;

    /**
     * Takes an item out, counted as dequeued; its handle is free again.
     * @param handle what Insert() returned
     * @return the item
     */
    Ptr<QueueDiscItem> Take(Handle handle);

    /**
     * @param handle the handle of a queued item
     * @return the item, still queued
     */
    Ptr<QueueDiscItem> Get(Handle handle) const;

    /// @return one more than the largest handle handed out so far
    uint32_t GetHandleBound() const;

    bool Enqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> Dequeue() override;
    Ptr<QueueDiscItem> Remove() override;
    Ptr<const QueueDiscItem> Peek() const override;

  protected:
    void DoDispose() override;

  private:
    /// Where an item sits in the list.
    using Position = Queue<QueueDiscItem>::Iterator;

    std::vector<Position> m_positions; ///< list position per handle
    std::vector<Handle> m_free;        ///< handles not in use, the next one last
};

} // namespace debloat
} // namespace ns3

#endif /* QUEUE_DISC_ITEM_LIST_H */
