/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NIC_HELPER_H
#define NIC_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{
namespace debloat
{

class NicChannel;
class NicNetDevice;

/**
 * @ingroup debloat-nic
 * @brief Builds NicNetDevice links between pairs of nodes, as PointToPointHelper does.
 *
 * Each Install() makes a NicChannel and two NicNetDevices and aggregates to each a
 * NetDeviceQueueInterface with one NicDeviceQueue per hardware TX queue, so that
 * TrafficControlHelper (including MqQueueDisc) and ByteQueueLimits work unchanged. With more
 * than one TX queue the stack picks a queue per flow as Linux's skb_tx_hash does. The
 * helper is stateless between installs; pcap (DLT_EN10MB) and ascii traces are enabled as on
 * any ns-3 device.
 */
class NicHelper : public PcapHelperForDevice, public AsciiTraceHelperForDevice
{
  public:
    NicHelper();
    ~NicHelper() override;

    /**
     * Applies a driver profile (e1000e, igb, ixgbe, mvneta, forcedeth, ag71xx, ag71xx-ar7100,
     * iwl3945, ideal) to the devices to be made. Precedence, highest first: attributes set
     * on this helper afterwards, a default the user changed (Config::SetDefault or
     * --ns3::debloat::NicNetDevice::X= on the command line), the profile, the attribute's
     * declared default. Stops with the list of names for an unknown profile.
     * @param name the profile name
     */
    void SetProfile(const std::string& name);

    /**
     * Sets an attribute of the devices to be made (ethtool-style knobs: DataRate, TxRingSize,
     * TxUsecs, ...).
     * @param name attribute name
     * @param value attribute value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Sets an attribute of the channels to be made (Delay).
     * @param name attribute name
     * @param value attribute value
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Links two nodes.
     * @param a first node
     * @param b second node
     * @return the two devices, a's first
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

    /**
     * Links two nodes whose NICs differ (a host's e1000e to a router's igb): a's device is
     * made by this helper, b's by another; the channel by this one.
     * @param a first node
     * @param b second node
     * @param bSide the helper whose device settings b's device gets
     * @return the two devices, a's first
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b, const NicHelper& bSide) const;

    /**
     * Links the two nodes of a container.
     * @param nodes exactly two nodes
     * @return the two devices
     */
    NetDeviceContainer Install(const NodeContainer& nodes) const;

    /**
     * Assigns fixed random variable stream numbers to the devices' random variables (the
     * soft-IRQ delay and the flow-hash key).
     * @param devices the devices (others are skipped)
     * @param stream first stream index to use
     * @return the number of stream indices assigned
     */
    static int64_t AssignStreams(const NetDeviceContainer& devices, int64_t stream);

  private:
    /**
     * Makes one device on a node, attached to a channel, with its queue interface.
     * @param node the node
     * @param channel the channel
     * @return the device
     */
    Ptr<NicNetDevice> MakeDevice(Ptr<Node> node, Ptr<NicChannel> channel) const;

    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;
    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                             std::string prefix,
                             Ptr<NetDevice> nd,
                             bool explicitFilename) override;

    ObjectFactory m_deviceFactory;  ///< makes the devices
    ObjectFactory m_channelFactory; ///< makes the channels
};

} // namespace debloat
} // namespace ns3

#endif /* NIC_HELPER_H */
