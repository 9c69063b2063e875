/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nic-device-queue.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("NicDeviceQueue");

NS_OBJECT_ENSURE_REGISTERED(NicDeviceQueue);

TypeId
NicDeviceQueue::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::NicDeviceQueue")
                            .SetParent<NetDeviceQueue>()
                            .SetGroupName("Debloat")
                            .AddConstructor<NicDeviceQueue>();
    return tid;
}

NicDeviceQueue::NicDeviceQueue()
{
}

NicDeviceQueue::~NicDeviceQueue()
{
}

void
NicDeviceQueue::SetWakeCallback(WakeCallback cb)
{
    m_qdiscWake = cb;
    NetDeviceQueue::SetWakeCallback(MakeCallback(&NicDeviceQueue::WakeRequested, this));
}

void
NicDeviceQueue::SetDriverActive(bool active)
{
    m_driverActive = active;
}

void
NicDeviceQueue::SetNetTxHook(std::function<void()> hook)
{
    m_netTxHook = std::move(hook);
}

void
NicDeviceQueue::WakeRequested()
{
    if (m_netTxHook)
    {
        m_netTxHook();
        return;
    }
    if (m_driverActive)
    {
        Simulator::ScheduleNow(&NicDeviceQueue::RunWake, this);
        return;
    }
    RunWake();
}

void
NicDeviceQueue::RunWake()
{
    if (!m_qdiscWake.IsNull())
    {
        m_qdiscWake();
    }
}

void
NicDeviceQueue::SetQuotaExhausted(bool exhausted)
{
    m_quotaExhausted = exhausted;
}

bool
NicDeviceQueue::IsStopped() const
{
    return m_quotaExhausted || NetDeviceQueue::IsStopped();
}

NicDriverScope::NicDriverScope(const std::vector<NicDeviceQueue*>& queues, uint32_t& depth)
    : m_queues(queues),
      m_depth(depth)
{
    if (m_depth++ == 0)
    {
        SetActive(true);
    }
}

NicDriverScope::~NicDriverScope()
{
    if (--m_depth == 0)
    {
        SetActive(false);
    }
}

void
NicDriverScope::SetActive(bool active)
{
    for (NicDeviceQueue* queue : m_queues)
    {
        if (queue)
        {
            queue->SetDriverActive(active);
        }
    }
}

} // namespace debloat
} // namespace ns3
