/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NETPERF_HELPER_H
#define NETPERF_HELPER_H

#include "ns3/application-container.h"
#include "ns3/ipv4-address.h"
#include "ns3/netperf-header.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief Installs netperf clients (NetperfClient) and netservers (NetperfServer).
 *
 * @code
 *   NetperfHelper netperf(serverAddress, NetperfTest::TCP_RR);
 *   netperf.SetAttribute("RequestSize", UintegerValue(1400));
 *   netperf.SetAttribute("ResponseSize", UintegerValue(1400));
 *   NetperfHelper::InstallServer(server);
 *   ApplicationContainer streams = netperf.Install(client, 200); // netperf x 200
 * @endcode
 */
class NetperfHelper
{
  public:
    /**
     * @param remote the server's address (netperf -H)
     * @param test the test (netperf -t)
     */
    NetperfHelper(Ipv4Address remote, NetperfTest test);

    /**
     * Sets an attribute of the NetperfClient applications to come.
     * @param name the attribute
     * @param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Installs streams clients on each node.
     * @param nodes the client nodes
     * @param streams concurrent tests per node, each on its own connection
     * @return the clients
     */
    ApplicationContainer Install(NodeContainer nodes, uint32_t streams = 1) const;

    /**
     * Installs a NetperfServer on each node.
     * @param nodes the server nodes
     * @param port the listening port (netserver's 12865)
     * @return the servers
     */
    static ApplicationContainer InstallServer(NodeContainer nodes, uint16_t port = 12865);

  private:
    ObjectFactory m_factory; ///< makes the NetperfClient applications
};

} // namespace debloat
} // namespace ns3

#endif /* NETPERF_HELPER_H */
