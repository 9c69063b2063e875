/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OFFLOAD_HELPER_H
#define OFFLOAD_HELPER_H

#include "ns3/gso-traffic-control-layer.h"
#include "ns3/net-device-container.h"
#include "ns3/object-factory.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-offload
 * @brief Switches TSO, GSO and GRO on NicNetDevices with ethtool -K words and puts the
 * GsoTrafficControlLayer on their nodes' interfaces.
 *
 * @code
 *   OffloadHelper offloads;
 *   offloads.SetFeatures("tso on gso on gro on");
 *   offloads.Install(devices); // after the addresses are assigned
 * @endcode
 * Install() sets the features on the devices given and puts a layer on every
 * NicNetDevice interface of their nodes, so that a router joins the GRO packets it
 * forwards on whichever interface they leave.
 */
class OffloadHelper
{
  public:
    OffloadHelper();

    /**
     * Parses ethtool -K words: pairs of a feature and on or off. Features: tso (or
     * tcp-segmentation-offload), gso (generic-segmentation-offload), gro
     * (generic-receive-offload).
     * @param words the words, e.g. "tso on gso on gro off"
     * @param [out] features NicNetDevice attribute name (Tso, Gso, Gro) to value
     * @return "" if valid, else a message naming the word and the accepted values
     */
    static std::string Parse(const std::string& words, std::map<std::string, bool>& features);

    /**
     * Sets the features Install() switches (ethtool -K words); stops with a message if
     * the words are invalid.
     * @param words the words
     */
    void SetFeatures(const std::string& words);

    /**
     * Sets an attribute of the layers Install() makes (the TCP sysctls: PacingShift,
     * MinTsoSegs, TsoRttAllowance, TsoRttLog, PacingSsRatio, PacingCaRatio).
     * @param name the attribute
     * @param value its value
     */
    void SetLayerAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Switches the features on the devices and puts a layer on every NicNetDevice
     * interface of their nodes that has none. Call after the addresses are assigned.
     * @param devices NicNetDevices
     * @return the layers made
     */
    std::vector<Ptr<GsoTrafficControlLayer>> Install(const NetDeviceContainer& devices) const;

    /**
     * Puts a layer on every addressed NicNetDevice interface of a node that has none.
     * @param node the node
     * @return the layers made
     */
    std::vector<Ptr<GsoTrafficControlLayer>> InstallLayers(Ptr<Node> node) const;

  private:
    std::map<std::string, bool> m_features; ///< NicNetDevice attribute to value
    ObjectFactory m_layer;                  ///< makes the layers
};

} // namespace debloat
} // namespace ns3

#endif /* OFFLOAD_HELPER_H */
