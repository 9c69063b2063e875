/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "byte-queue-limits-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("ByteQueueLimitsHelper");

namespace
{

/**
 * Returns the device's queue interface or stops with a message naming the device.
 * @param device the device
 * @return its NetDeviceQueueInterface
 */
Ptr<NetDeviceQueueInterface>
GetQueueInterface(Ptr<NetDevice> device)
{
    NS_ABORT_MSG_IF(!device, "ByteQueueLimitsHelper: null device");
    Ptr<NetDeviceQueueInterface> ndqi = device->GetObject<NetDeviceQueueInterface>();
    NS_ABORT_MSG_IF(!ndqi,
                    "ByteQueueLimitsHelper: device " << device->GetIfIndex() << " of node "
                                                     << device->GetNode()->GetId() << " ("
                                                     << device->GetInstanceTypeId().GetName()
                                                     << ") has no NetDeviceQueueInterface; BQL "
                                                        "needs a device with flow control");
    return ndqi;
}

} // namespace

ByteQueueLimitsHelper::ByteQueueLimitsHelper()
{
    m_factory.SetTypeId(ByteQueueLimits::GetTypeId());
}

void
ByteQueueLimitsHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
ByteQueueLimitsHelper::Install(Ptr<NetDevice> device) const
{
    NS_LOG_FUNCTION(this << device);
    Ptr<NetDeviceQueueInterface> ndqi = GetQueueInterface(device);
    for (std::size_t i = 0; i < ndqi->GetNTxQueues(); i++)
    {
        ndqi->GetTxQueue(i)->SetQueueLimits(m_factory.Create<ByteQueueLimits>());
    }
}

void
ByteQueueLimitsHelper::Install(const NetDeviceContainer& devices) const
{
    for (auto it = devices.Begin(); it != devices.End(); ++it)
    {
        Install(*it);
    }
}

Ptr<ByteQueueLimits>
ByteQueueLimitsHelper::Get(Ptr<NetDevice> device, std::size_t txQueue)
{
    Ptr<NetDeviceQueueInterface> ndqi = GetQueueInterface(device);
    NS_ABORT_MSG_IF(txQueue >= ndqi->GetNTxQueues(),
                    "ByteQueueLimitsHelper: TX queue " << txQueue << " does not exist; the device "
                                                       << "has " << ndqi->GetNTxQueues());
    return DynamicCast<ByteQueueLimits>(ndqi->GetTxQueue(txQueue)->GetQueueLimits());
}

void
ByteQueueLimitsHelper::PrintSysfs(Ptr<NetDevice> device, std::ostream& os)
{
    Ptr<NetDeviceQueueInterface> ndqi = GetQueueInterface(device);
    for (std::size_t i = 0; i < ndqi->GetNTxQueues(); i++)
    {
        Ptr<ByteQueueLimits> bql = Get(device, i);
        const std::string dir = "tx-" + std::to_string(i) + "/byte_queue_limits/";
        if (!bql)
        {
            os << dir << ": (no ByteQueueLimits)\n";
            continue;
        }
        os << dir << "hold_time: " << bql->GetHoldTime().GetMilliSeconds() << "\n"
           << dir << "inflight: " << bql->GetInflight() << "\n"
           << dir << "limit: " << bql->GetLimit() << "\n"
           << dir << "limit_max: " << bql->GetLimitMax() << "\n"
           << dir << "limit_min: " << bql->GetLimitMin() << "\n"
           << dir << "stall_cnt: " << bql->GetStallCount() << "\n"
           << dir << "stall_max: " << bql->GetStallMax().GetMilliSeconds() << "\n"
           << dir << "stall_thrs: " << bql->GetStallThreshold().GetMilliSeconds() << "\n";
    }
}

} // namespace debloat
} // namespace ns3
