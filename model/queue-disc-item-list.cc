/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "queue-disc-item-list.h"

#include "debloat-compat.h"

#include "ns3/abort.h"

namespace ns3
{
namespace debloat
{

NS_OBJECT_ENSURE_REGISTERED(QueueDiscItemList);

TypeId
QueueDiscItemList::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::QueueDiscItemList")
                            .SetParent<Queue<QueueDiscItem>>()
                            .SetGroupName("Debloat")
                            .AddConstructor<QueueDiscItemList>();
    return tid;
}

QueueDiscItemList::Position
QueueDiscItemList::Insert(Ptr<QueueDiscItem> item)
{
    Position position;
    const bool inserted = DoEnqueue(DEBLOAT_QUEUE_END(), item, position);
    NS_ABORT_MSG_IF(!inserted, "QueueDiscItemList: the list refused an item (MaxSize too small)");
    return position;
}

Ptr<QueueDiscItem>
QueueDiscItemList::Take(Position position)
{
    return DoDequeue(position);
}

bool
QueueDiscItemList::Enqueue(Ptr<QueueDiscItem> item)
{
    Insert(item);
    return true;
}

Ptr<QueueDiscItem>
QueueDiscItemList::Dequeue()
{
    NS_ABORT_MSG("QueueDiscItemList: the scheduler dequeues with Take()");
    return nullptr;
}

Ptr<QueueDiscItem>
QueueDiscItemList::Remove()
{
    NS_ABORT_MSG("QueueDiscItemList: the scheduler drops with Take() and DropAfterDequeue()");
    return nullptr;
}

Ptr<const QueueDiscItem>
QueueDiscItemList::Peek() const
{
    NS_ABORT_MSG("QueueDiscItemList: the scheduler peeks itself");
    return nullptr;
}

} // namespace debloat
} // namespace ns3
