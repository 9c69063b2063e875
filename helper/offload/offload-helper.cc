/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "offload-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv6-l3-protocol.h"
#include "ns3/nic-net-device.h"
#include "ns3/node.h"

#include <sstream>

namespace ns3
{
namespace debloat
{

OffloadHelper::OffloadHelper()
{
    m_layer.SetTypeId(GsoTrafficControlLayer::GetTypeId());
}

std::string
OffloadHelper::Parse(const std::string& words, std::map<std::string, bool>& features)
{
    // ethtool's short and long names (ethtool -k prints the long ones).
    static const std::map<std::string, std::string> names{
        {"tso", "Tso"},
        {"tcp-segmentation-offload", "Tso"},
        {"gso", "Gso"},
        {"generic-segmentation-offload", "Gso"},
        {"gro", "Gro"},
        {"generic-receive-offload", "Gro"},
    };
    std::istringstream in(words);
    std::string feature;
    while (in >> feature)
    {
        auto name = names.find(feature);
        if (name == names.end())
        {
            return "ethtool -K: feature \"" + feature +
                   "\" is unknown; accepted: tso, gso, gro (or tcp-segmentation-offload, "
                   "generic-segmentation-offload, generic-receive-offload)";
        }
        std::string state;
        if (!(in >> state) || (state != "on" && state != "off"))
        {
            return "ethtool -K: " + feature + " needs on or off" +
                   (state.empty() ? std::string() : ", not \"" + state + "\"");
        }
        features[name->second] = state == "on";
    }
    return "";
}

void
OffloadHelper::SetFeatures(const std::string& words)
{
    std::map<std::string, bool> features;
    const std::string error = Parse(words, features);
    NS_ABORT_MSG_UNLESS(error.empty(), "OffloadHelper: " << error);
    m_features = features;
}

void
OffloadHelper::SetLayerAttribute(const std::string& name, const AttributeValue& value)
{
    m_layer.Set(name, value);
}

std::vector<Ptr<GsoTrafficControlLayer>>
OffloadHelper::Install(const NetDeviceContainer& devices) const
{
    std::vector<Ptr<GsoTrafficControlLayer>> layers;
    for (uint32_t i = 0; i < devices.GetN(); i++)
    {
        Ptr<NicNetDevice> nic = DynamicCast<NicNetDevice>(devices.Get(i));
        NS_ABORT_MSG_UNLESS(nic, "OffloadHelper: device " << i << " is not a NicNetDevice");
        for (const auto& [name, on] : m_features)
        {
            nic->SetAttribute(name, BooleanValue(on));
        }
    }
    for (uint32_t i = 0; i < devices.GetN(); i++)
    {
        for (auto& layer : InstallLayers(devices.Get(i)->GetNode()))
        {
            layers.push_back(layer);
        }
    }
    return layers;
}

std::vector<Ptr<GsoTrafficControlLayer>>
OffloadHelper::InstallLayers(Ptr<Node> node) const
{
    std::vector<Ptr<GsoTrafficControlLayer>> layers;
    for (uint32_t i = 0; i < node->GetNDevices(); i++)
    {
        Ptr<NetDevice> device = node->GetDevice(i);
        Ptr<Ipv4L3Protocol> ipv4 = node->GetObject<Ipv4L3Protocol>();
        Ptr<Ipv6L3Protocol> ipv6 = node->GetObject<Ipv6L3Protocol>();
        const bool addressed = (ipv4 && ipv4->GetInterfaceForDevice(device) >= 0) ||
                               (ipv6 && ipv6->GetInterfaceForDevice(device) >= 0);
        if (!DynamicCast<NicNetDevice>(device) || !addressed ||
            device->GetObject<GsoTrafficControlLayer>())
        {
            continue;
        }
        Ptr<GsoTrafficControlLayer> layer = m_layer.Create<GsoTrafficControlLayer>();
        layer->Attach(device);
        layers.push_back(layer);
    }
    return layers;
}

} // namespace debloat
} // namespace ns3
