/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nic-helper.h"

#include "ns3/abort.h"
#include "ns3/attribute-defaults.h"
#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/nic-channel.h"
#include "ns3/nic-device-queue.h"
#include "ns3/nic-net-device.h"
#include "ns3/nic-profile.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("NicHelper");

NicHelper::NicHelper()
{
    m_deviceFactory.SetTypeId(NicNetDevice::GetTypeId());
    m_channelFactory.SetTypeId(NicChannel::GetTypeId());
}

NicHelper::~NicHelper()
{
}

void
NicHelper::SetProfile(const std::string& name)
{
    for (const auto& [attribute, value] : NicProfile::Get(name).attributes)
    {
        // A user's default (Config::SetDefault, --ns3::debloat::NicNetDevice::X=...) wins
        // over the profile: it is applied, and checked, instead of silently ignored.
        const std::optional<std::string> userDefault =
            AttributeDefaults::GetUserDefault(NicNetDevice::GetTypeId(), attribute);
        m_deviceFactory.Set(attribute, StringValue(userDefault.value_or(value)));
    }
}

void
NicHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
NicHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

NetDeviceContainer
NicHelper::Install(const NodeContainer& nodes) const
{
    NS_ABORT_MSG_IF(nodes.GetN() != 2,
                    "NicHelper: a link joins exactly two nodes; got " << nodes.GetN());
    return Install(nodes.Get(0), nodes.Get(1));
}

NetDeviceContainer
NicHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    return Install(a, b, *this);
}

NetDeviceContainer
NicHelper::Install(Ptr<Node> a, Ptr<Node> b, const NicHelper& bSide) const
{
    NS_ABORT_MSG_IF(!a || !b, "NicHelper: null node");
    NS_ABORT_MSG_IF(a == b, "NicHelper: cannot link node " << a->GetId() << " to itself");
    Ptr<NicChannel> channel = m_channelFactory.Create<NicChannel>();
    NetDeviceContainer devices;
    devices.Add(MakeDevice(a, channel));
    devices.Add(bSide.MakeDevice(b, channel));
    return devices;
}

Ptr<NicNetDevice>
NicHelper::MakeDevice(Ptr<Node> node, Ptr<NicChannel> channel) const
{
    Ptr<NicNetDevice> device = m_deviceFactory.Create<NicNetDevice>();
    // Before NetDeviceQueueInterface is sized from TxQueues: a bad value stops with its name.
    device->CheckConfig();
    device->SetAddress(Mac48Address::Allocate());
    node->AddDevice(device);
    device->Attach(channel);
    Ptr<NetDeviceQueueInterface> ndqi = CreateObjectWithAttributes<NetDeviceQueueInterface>(
        "TxQueuesType",
        TypeIdValue(NicDeviceQueue::GetTypeId()),
        "NTxQueues",
        UintegerValue(device->GetNTxQueues()));
    if (device->GetNTxQueues() > 1)
    {
        // A raw pointer: a Ptr would keep the device and its aggregated interface alive.
        ndqi->SetSelectQueueCallback(
            MakeCallback(&NicNetDevice::SelectTxQueue, PeekPointer(device)));
    }
    device->AggregateObject(ndqi);
    return device;
}

int64_t
NicHelper::AssignStreams(const NetDeviceContainer& devices, int64_t stream)
{
    int64_t current = stream;
    for (auto it = devices.Begin(); it != devices.End(); ++it)
    {
        if (Ptr<NicNetDevice> device = DynamicCast<NicNetDevice>(*it))
        {
            current += device->AssignStreams(current);
        }
    }
    return current - stream;
}

void
NicHelper::EnablePcapInternal(std::string prefix,
                              Ptr<NetDevice> nd,
                              bool promiscuous,
                              bool explicitFilename)
{
    Ptr<NicNetDevice> device = nd->GetObject<NicNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("Device " << nd << " is not a NicNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    const std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    Ptr<PcapFileWrapper> file =
        pcapHelper.CreateFile(filename, std::ios::out, PcapHelper::DLT_EN10MB);
    pcapHelper.HookDefaultSink<NicNetDevice>(device,
                                             promiscuous ? "PromiscSniffer" : "Sniffer",
                                             file);
}

void
NicHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                               std::string prefix,
                               Ptr<NetDevice> nd,
                               bool explicitFilename)
{
    Ptr<NicNetDevice> device = nd->GetObject<NicNetDevice>();
    if (!device)
    {
        NS_LOG_INFO("Device " << nd << " is not a NicNetDevice");
        return;
    }
    Packet::EnablePrinting();
    // "+" when the driver posts a packet, "-" when it starts on the wire, "d" for drops, "r"
    // when it goes up the stack.
    if (!stream)
    {
        AsciiTraceHelper ascii;
        const std::string filename =
            explicitFilename ? prefix : ascii.GetFilenameFromDevice(prefix, device);
        Ptr<OutputStreamWrapper> file = ascii.CreateFileStream(filename);
        ascii.HookDefaultEnqueueSinkWithoutContext<NicNetDevice>(device, "MacTx", file);
        ascii.HookDefaultDequeueSinkWithoutContext<NicNetDevice>(device, "PhyTxBegin", file);
        ascii.HookDefaultDropSinkWithoutContext<NicNetDevice>(device, "MacTxDrop", file);
        ascii.HookDefaultDropSinkWithoutContext<NicNetDevice>(device, "PhyRxDrop", file);
        ascii.HookDefaultReceiveSinkWithoutContext<NicNetDevice>(device, "MacRx", file);
        return;
    }
    std::ostringstream path;
    path << "/NodeList/" << nd->GetNode()->GetId() << "/DeviceList/" << nd->GetIfIndex()
         << "/$ns3::debloat::NicNetDevice/";
    Config::Connect(path.str() + "MacTx",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultEnqueueSinkWithContext, stream));
    Config::Connect(path.str() + "PhyTxBegin",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultDequeueSinkWithContext, stream));
    Config::Connect(path.str() + "MacTxDrop",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultDropSinkWithContext, stream));
    Config::Connect(path.str() + "PhyRxDrop",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultDropSinkWithContext, stream));
    Config::Connect(path.str() + "MacRx",
                    MakeBoundCallback(&AsciiTraceHelper::DefaultReceiveSinkWithContext, stream));
}

} // namespace debloat
} // namespace ns3
