/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "queue-disc-item-list.h"

#include "ns3/abort.h"
#include "ns3/debloat-compat.h"

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

QueueDiscItemList::Handle
QueueDiscItemList::NextHandle() const
{
    return m_free.empty() ? static_cast<Handle>(m_positions.size()) : m_free.back();
}

QueueDiscItemList::Handle
QueueDiscItemList::Insert(Ptr<QueueDiscItem> item)
{
    Position position;
    const bool inserted = DoEnqueue(DEBLOAT_QUEUE_END(), item, position);
    NS_ABORT_MSG_IF(!inserted, "QueueDiscItemList: the list refused an item (MaxSize too small)");
    if (m_free.empty())
    {
        m_positions.push_back(position);
        return static_cast<Handle>(m_positions.size() - 1);
    }
    const Handle handle = m_free.back();
    m_free.pop_back();
    m_positions[handle] = position;
    return handle;
}

Ptr<QueueDiscItem>
QueueDiscItemList::Take(Handle handle)
{
    NS_ASSERT_MSG(handle < m_positions.size(), "QueueDiscItemList: no such handle");
    m_free.push_back(handle);
    return DoDequeue(m_positions[handle]);
}

Ptr<QueueDiscItem>
QueueDiscItemList::Get(Handle handle) const
{
    NS_ASSERT_MSG(handle < m_positions.size(), "QueueDiscItemList: no such handle");
    return *m_positions[handle];
}

uint32_t
QueueDiscItemList::GetHandleBound() const
{
    return static_cast<uint32_t>(m_positions.size());
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

void
QueueDiscItemList::DoDispose()
{
    m_positions.clear();
    m_free.clear();
    Queue<QueueDiscItem>::DoDispose();
}

} // namespace debloat
} // namespace ns3
