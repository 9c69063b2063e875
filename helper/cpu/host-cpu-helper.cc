/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "host-cpu-helper.h"

#include "ns3/abort.h"
#include "ns3/attribute-defaults.h"
#include "ns3/cpu-profile.h"
#include "ns3/host-cpu.h"
#include "ns3/string.h"

#include <optional>

namespace ns3
{
namespace debloat
{

HostCpuHelper::HostCpuHelper()
{
    m_factory.SetTypeId(HostCpu::GetTypeId());
}

void
HostCpuHelper::SetProfile(const std::string& name)
{
    for (const auto& [attribute, value] : CpuProfile::Get(name).attributes)
    {
        // A user's default wins over the profile, as NicHelper::SetProfile() does.
        const std::optional<std::string> userDefault =
            AttributeDefaults::GetUserDefault(HostCpu::GetTypeId(), attribute);
        m_factory.Set(attribute, StringValue(userDefault.value_or(value)));
    }
}

void
HostCpuHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

Ptr<HostCpu>
HostCpuHelper::Create() const
{
    return m_factory.Create<HostCpu>();
}

void
HostCpuHelper::Install(const NodeContainer& nodes) const
{
    for (auto node = nodes.Begin(); node != nodes.End(); ++node)
    {
        NS_ABORT_MSG_IF((*node)->GetObject<HostCpu>(),
                        "HostCpuHelper: node " << (*node)->GetId() << " has a HostCpu already");
        (*node)->AggregateObject(Create());
    }
}

int64_t
HostCpuHelper::AssignStreams(const NodeContainer& nodes, int64_t stream)
{
    int64_t used = 0;
    for (auto node = nodes.Begin(); node != nodes.End(); ++node)
    {
        if (Ptr<HostCpu> cpu = (*node)->GetObject<HostCpu>())
        {
            used += cpu->AssignStreams(stream + used);
        }
    }
    return used;
}

} // namespace debloat
} // namespace ns3
