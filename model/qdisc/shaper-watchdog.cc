/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "shaper-watchdog.h"

#include "ns3/debloat-compat.h"
#include "ns3/log.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"

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
}

void
ShaperWatchdog::Schedule(int64_t at)
{
    NS_ASSERT_MSG(m_qdisc, "ShaperWatchdog: no queue disc to run");
    m_event.Cancel();
    const int64_t delay = std::max<int64_t>(at - Simulator::Now().GetNanoSeconds(), 0);
    NS_LOG_LOGIC("watchdog in " << delay << " ns");
    m_event = Simulator::Schedule(NanoSeconds(delay), &ShaperWatchdog::Expire, this);
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
    m_qdisc->Run();
}

} // namespace debloat
} // namespace ns3
