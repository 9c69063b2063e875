/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "no-queue-disc.h"

#include "ns3/drop-tail-queue.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("NoQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(NoQueueDisc);

TypeId
NoQueueDisc::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::NoQueueDisc")
                            .SetParent<QueueDisc>()
                            .SetGroupName("Debloat")
                            .AddConstructor<NoQueueDisc>();
    return tid;
}

NoQueueDisc::NoQueueDisc()
    : QueueDisc(QueueDiscSizePolicy::NO_LIMITS)
{
    NS_LOG_FUNCTION(this);
}

NoQueueDisc::~NoQueueDisc()
{
    NS_LOG_FUNCTION(this);
}

bool
NoQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    // __dev_queue_xmit() for a device without a qdisc: a stopped queue drops the packet.
    Ptr<NetDeviceQueueInterface> ndqi = GetNetDeviceQueueInterface();
    if (ndqi && ndqi->GetTxQueue(item->GetTxQueueIndex())->IsStopped())
    {
        DropBeforeEnqueue(item, STOPPED_DROP);
        return false;
    }
    // Held only until QueueDisc::Run() hands it to the device, within this same event.
    return GetInternalQueue(0)->Enqueue(item);
}

Ptr<QueueDiscItem>
NoQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    return GetInternalQueue(0)->Dequeue();
}

bool
NoQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(GetNQueueDiscClasses() > 0 || GetNPacketFilters() > 0,
                    "NoQueueDisc (noqueue): takes no classes and no filters");
    if (GetNInternalQueues() == 0)
    {
        // One packet: the one being sent, within its own enqueue.
        AddInternalQueue(CreateObjectWithAttributes<DropTailQueue<QueueDiscItem>>(
            "MaxSize",
            QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, 1))));
    }
    return true;
}

void
NoQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
}

} // namespace debloat
} // namespace ns3
