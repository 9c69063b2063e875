/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "netperf-helper.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/netperf-client.h"
#include "ns3/netperf-server.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace debloat
{

NetperfHelper::NetperfHelper(Ipv4Address remote, NetperfTest test)
{
    m_factory.SetTypeId(NetperfClient::GetTypeId());
    m_factory.Set("Remote", Ipv4AddressValue(remote));
    m_factory.Set("Test", EnumValue(test));
}

void
NetperfHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
NetperfHelper::Install(NodeContainer nodes, uint32_t streams) const
{
    NS_ABORT_MSG_IF(streams == 0, "NetperfHelper: streams=0; accepted 1 or more");
    ApplicationContainer apps;
    for (auto node = nodes.Begin(); node != nodes.End(); ++node)
    {
        for (uint32_t i = 0; i < streams; ++i)
        {
            Ptr<Application> app = m_factory.Create<Application>();
            (*node)->AddApplication(app);
            apps.Add(app);
        }
    }
    return apps;
}

ApplicationContainer
NetperfHelper::InstallServer(NodeContainer nodes, uint16_t port)
{
    ApplicationContainer apps;
    for (auto node = nodes.Begin(); node != nodes.End(); ++node)
    {
        Ptr<NetperfServer> server = CreateObject<NetperfServer>();
        server->SetAttribute("Port", UintegerValue(port));
        (*node)->AddApplication(server);
        apps.Add(server);
    }
    return apps;
}

} // namespace debloat
} // namespace ns3
