/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HOST_CPU_HELPER_H
#define HOST_CPU_HELPER_H

#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>

namespace ns3
{
namespace debloat
{

class HostCpu;

/**
 * @ingroup debloat-nic
 * @brief Aggregates a HostCpu to nodes, with a machine's profile (CpuProfile) and
 * attributes.
 *
 * Install before Simulator::Run() (a NicNetDevice looks for its node's HostCpu when it is
 * initialised). Nodes without one keep infinitely fast CPUs.
 *
 * @code
 *   HostCpuHelper cpu;
 *   cpu.SetProfile("armada385");
 *   cpu.Install(router);
 *   cpu.AssignStreams(NodeContainer(router), 100);
 * @endcode
 */
class HostCpuHelper
{
  public:
    HostCpuHelper();

    /**
     * Applies a machine's profile (generic, laptop-2011, nuc, atom-c2758, xeon-e5-1650v4,
     * armada385). Precedence, highest first: attributes set on this helper afterwards, a default
     * the user changed (Config::SetDefault or --ns3::debloat::HostCpu::X= on the command line), the
     * profile, the attribute's declared default. Stops with the list of names for an unknown
     * profile.
     * @param name the profile name
     */
    void SetProfile(const std::string& name);

    /**
     * Sets a HostCpu attribute of the CPUs to be made.
     * @param name attribute name
     * @param value attribute value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @return a HostCpu as Install() would make it, not aggregated (to read its settings)
     */
    Ptr<HostCpu> Create() const;

    /**
     * Aggregates a new HostCpu to each node; stops if a node has one already.
     * @param nodes the nodes
     */
    void Install(const NodeContainer& nodes) const;

    /**
     * Assigns fixed random streams to the nodes' HostCpus (their scheduling latencies).
     * @param nodes the nodes (those without a HostCpu are skipped)
     * @param stream the first stream index
     * @return the number of streams used
     */
    static int64_t AssignStreams(const NodeContainer& nodes, int64_t stream);

  private:
    ObjectFactory m_factory; ///< makes the HostCpus
};

} // namespace debloat
} // namespace ns3

#endif /* HOST_CPU_HELPER_H */
