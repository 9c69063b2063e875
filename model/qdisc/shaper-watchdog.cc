/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "shaper-watchdog.h"

#include "ns3/debloat-compat.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/node.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("ShaperWatchdog");

ShaperWatchdog::ShaperWatchdog(QueueDisc* qdisc)
    : m_qdisc(qdisc)
{
}

void
ShaperWatchdog::SetQueueDisc(QueueDisc* qdisc)
{
    m_qdisc = qdisc;
    m_root = nullptr;
}

namespace
{

/**
 * @param tree a qdisc tree's root
 * @param qdisc a qdisc
 * @return whether qdisc is in the tree
 */
bool
Contains(Ptr<QueueDisc> tree, const QueueDisc* qdisc)
{
    if (PeekPointer(tree) == qdisc)
    {
        return true;
    }
    for (std::size_t i = 0; i < tree->GetNQueueDiscClasses(); ++i)
    {
        Ptr<QueueDisc> child = tree->GetQueueDiscClass(i)->GetQueueDisc();
        if (child && Contains(child, qdisc))
        {
            return true;
        }
    }
    return false;
}

} // namespace

QueueDisc*
ShaperWatchdog::Root()
{
    if (m_root)
    {
        return m_root;
    }
    // ns-3's queue discs know neither their parent nor their device: find the tree that
    // holds this one among the nodes' root qdiscs, once.
    m_root = m_qdisc;
    for (auto node = NodeList::Begin(); node != NodeList::End(); ++node)
    {
        Ptr<TrafficControlLayer> tc = (*node)->GetObject<TrafficControlLayer>();
        for (uint32_t i = 0; tc && i < (*node)->GetNDevices(); ++i)
        {
            Ptr<QueueDisc> root = tc->GetRootQueueDiscOnDevice((*node)->GetDevice(i));
            if (root && Contains(root, m_qdisc))
            {
                m_root = PeekPointer(root);
                return m_root;
            }
        }
    }
    return m_root; // not installed on a device (a test's bare qdisc): itself
}

void
ShaperWatchdog::Schedule(int64_t at)
{
    NS_ASSERT_MSG(m_qdisc, "ShaperWatchdog: no queue disc to run");
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const int64_t expires = std::max(at, now);
    // qdisc_watchdog_schedule_range_ns() with delta 0: a timer already queued for this very
    // time is left alone (a throttled qdisc asks again at every run); any other time, earlier
    // or later, reprograms it.
    if (compat::IsPending(m_event) && TimeStep(m_event.GetTs()) == NanoSeconds(expires))
    {
        return;
    }
    m_event.Cancel();
    NS_LOG_LOGIC("watchdog in " << expires - now << " ns");
    m_event = Simulator::Schedule(NanoSeconds(expires - now), &ShaperWatchdog::Expire, this);
}

void
ShaperWatchdog::Cancel()
{
    m_event.Cancel();
}

bool
ShaperWatchdog::IsPending() const
{
    return compat::IsPending(m_event);
}

void
ShaperWatchdog::Expire()
{
    NS_LOG_FUNCTION(this);
    // qdisc_watchdog(): __netif_schedule(qdisc_root(wd->qdisc)). A child qdisc (cake as
    // HTB's leaf) cannot send by itself: the root dequeues through it.
    Root()->Run();
}

} // namespace debloat
} // namespace ns3
