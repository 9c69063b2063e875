/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-hash-packet-filter.h"

#include "queue-disc-item-keys.h"

#include "ns3/queue-item.h"
#include "ns3/uinteger.h"

#include <limits>

namespace ns3
{
namespace debloat
{

NS_OBJECT_ENSURE_REGISTERED(FlowHashPacketFilter);

TypeId
FlowHashPacketFilter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::FlowHashPacketFilter")
            .SetParent<PacketFilter>()
            .SetGroupName("Debloat")
            .AddConstructor<FlowHashPacketFilter>()
            .AddAttribute("Perturbation",
                          "The hash perturbation of the queue disc the filter serves (its "
                          "Perturbation attribute)",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&FlowHashPacketFilter::m_perturbation),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Flows",
                          "The flow queues of the queue disc the filter serves (its Flows "
                          "attribute; 1 or more)",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&FlowHashPacketFilter::m_flows),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

FlowHashPacketFilter::FlowHashPacketFilter() = default;

FlowHashPacketFilter::~FlowHashPacketFilter() = default;

bool
FlowHashPacketFilter::CheckProtocol(Ptr<QueueDiscItem> /* item */) const
{
    return true; // every packet has a hash, as every packet has one without a filter
}

int32_t
FlowHashPacketFilter::DoClassify(Ptr<QueueDiscItem> item) const
{
    const uint32_t hash = QueueDiscItemTupleHash(PeekPointer(item), m_perturbation);
    constexpr uint32_t NO_MATCH = std::numeric_limits<uint32_t>::max(); // PF_NO_MATCH's bits
    return static_cast<int32_t>(hash == NO_MATCH ? NO_MATCH - m_flows : hash);
}

} // namespace debloat
} // namespace ns3
