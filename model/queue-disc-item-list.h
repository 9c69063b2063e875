/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef QUEUE_DISC_ITEM_LIST_H
#define QUEUE_DISC_ITEM_LIST_H

#include "ns3/queue-item.h"
#include "ns3/queue.h"

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief The internal queue of a queue disc that keeps its own packet order (SFQ, CAKE).
 *
 * ns-3's QueueDisc counts packets, bytes and drops through the traces of its internal
 * queues, so a queue disc whose scheduler holds the packets in its own structures still needs
 * one. This list holds every queued item in no particular order; the scheduler keeps each
 * item's position (from Insert()) and takes it out from there in O(1) (Take()), which fires
 * the dequeue trace the queue disc counts. It never drops: the scheduler decides.
 */
class QueueDiscItemList : public Queue<QueueDiscItem>
{
  public:
    /// Where an item sits, for Take().
    using Position = Queue<QueueDiscItem>::Iterator;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * Adds an item.
     * @param item the item
     * @return its position
     */
    Position Insert(Ptr<QueueDiscItem> item);

    /**
     * Takes an item out, counted as dequeued.
     * @param position where Insert() put it
     * @return the item
     */
    Ptr<QueueDiscItem> Take(Position position);

    bool Enqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> Dequeue() override;
    Ptr<QueueDiscItem> Remove() override;
    Ptr<const QueueDiscItem> Peek() const override;
};

} // namespace debloat
} // namespace ns3

#endif /* QUEUE_DISC_ITEM_LIST_H */
