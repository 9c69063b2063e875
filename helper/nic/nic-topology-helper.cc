/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "nic-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/byte-queue-limits-helper.h"
#include "ns3/data-rate.h"
#include "ns3/debloat-compat.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-global-routing-helper.h"
#include "ns3/log.h"
#include "ns3/nic-helper.h"
#include "ns3/nic-net-device.h"
#include "ns3/nic-profile.h"
#include "ns3/offload-helper.h"
#include "ns3/queue-disc-streams.h"
#include "ns3/string.h"
#include "ns3/tc-qdisc-helper.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("NicTopologyHelper");

namespace
{

/// Most hosts or routers on one side: one /24 per link, numbered 0 to 253.
constexpr uint32_t MAX_NODES = 254;

/**
 * Makes a NicHelper for one end of a link, checking each setting.
 * @param end the end's settings
 * @param rate the link's rate
 * @param what "left link 0, left end" for messages
 * @return the helper
 */
NicHelper
EndHelper(const NicInterfaceConfig& end, const std::string& rate, const std::string& what)
{
    const std::vector<NicProfile>& profiles = NicProfile::GetAll();
    if (std::none_of(profiles.begin(), profiles.end(), [&end](const NicProfile& profile) {
            return profile.name == end.profile;
        }))
    {
        std::string accepted;
        for (const NicProfile& profile : profiles)
        {
            accepted += (accepted.empty() ? "" : ", ") + profile.name;
        }
        NS_FATAL_ERROR(what << ": NIC profile \"" << end.profile
                            << "\" is unknown; accepted: " << accepted);
    }
    NicHelper nic;
    nic.SetProfile(end.profile);
    // Parsed here rather than by DataRateValue, which aborts on text it cannot read ("1Gbpz")
    // with a message that does not name the link.
    std::istringstream in(rate);
    DataRate dataRate;
    in >> dataRate;
    NS_ABORT_MSG_UNLESS(!in.fail() && in.eof() && dataRate.GetBitRate() > 0,
                        what << ": rate \"" << rate
                             << "\" is not a data rate; accepted: a positive rate such as "
                                "100Mbps or 1Gbps");
    nic.SetDeviceAttribute("DataRate", DataRateValue(dataRate));
    if (end.txRing != 0)
    {
        nic.SetDeviceAttribute("TxRingSize", UintegerValue(end.txRing));
    }
    if (const uint32_t tx = end.txQueues != 0 ? end.txQueues : end.combined; tx != 0)
    {
        nic.SetDeviceAttribute("TxQueues", UintegerValue(tx));
    }
    if (const uint32_t rx = end.rxQueues != 0 ? end.rxQueues : end.combined; rx != 0)
    {
        nic.SetDeviceAttribute("RxQueues", UintegerValue(rx));
    }
    std::map<std::string, bool> features;
    const std::string error = OffloadHelper::Parse(end.offloads, features);
    NS_ABORT_MSG_UNLESS(error.empty(), what << ": offloads: " << error);
    for (const auto& [name, on] : features)
    {
        nic.SetDeviceAttribute(name, BooleanValue(on));
    }
    const TypeId tid = NicNetDevice::GetTypeId();
    for (const auto& [name, value] : end.attributes)
    {
        TypeId::AttributeInformation info;
        NS_ABORT_MSG_UNLESS(tid.LookupAttributeByName(name, &info),
                            what << ": \"" << name
                                 << "\" is not a NicNetDevice attribute (see NicNetDevice's "
                                    "attribute list)");
        Ptr<AttributeValue> parsed = info.checker->CreateValidValue(StringValue(value));
        NS_ABORT_MSG_UNLESS(parsed,
                            what << ": " << name << " \"" << value << "\" is not valid; accepted: "
                                 << info.checker->GetUnderlyingTypeInformation());
        nic.SetDeviceAttribute(name, *parsed);
    }
    return nic;
}

/**
 * @param end an end's settings
 * @param nTxQueues its device's TX queues
 * @return its qdisc as tc text: the one given, or Linux's default for the device
 */
std::string
QdiscText(const NicInterfaceConfig& end, uint32_t nTxQueues)
{
    return end.qdisc.empty() ? TcQdiscHelper::DefaultQdiscText(nTxQueues, end.txqueuelen)
                             : end.qdisc;
}

/**
 * @param end an end's settings
 * @return the TX queues its device will have: txQueues, a TxQueues attribute, or its
 * profile's (1 if the profile does not say)
 */
uint32_t
ProfileTxQueues(const NicInterfaceConfig& end)
{
    // As MakeNic() applies them: the attributes last, then txQueues or combined.
    const auto attribute = end.attributes.find("TxQueues");
    if (attribute != end.attributes.end())
    {
        return static_cast<uint32_t>(std::stoul(attribute->second));
    }
    if (end.txQueues != 0 || end.combined != 0)
    {
        return end.txQueues != 0 ? end.txQueues : end.combined;
    }
    return NicProfile::Get(end.profile).GetTxQueues();
}

/**
 * Installs an end's root qdisc and BQL.
 * @param device the end's device
 * @param end the end's settings
 * @param what "left link 0, left end" for messages
 */
void
InstallQdisc(Ptr<NetDevice> device, const NicInterfaceConfig& end, const std::string& what)
{
    TrafficControlHelper tch;
    const auto nTxQueues = static_cast<uint32_t>(DynamicCast<NicNetDevice>(device)->GetNTxQueues());
    std::string error;
    try
    {
        TcQdiscHelper::SetRootQueueDisc(tch, QdiscText(end, nTxQueues), end.txqueuelen, nTxQueues);
    }
    catch (const std::invalid_argument& invalid)
    {
        error = invalid.what(); // stops below, outside the handler: no exception in flight
    }
    NS_ABORT_MSG_IF(!error.empty(), what << ": qdisc \"" << end.qdisc << "\": " << error);
    tch.Install(device);
    if (!end.bql)
    {
        NS_ABORT_MSG_IF(end.bqlLimitMax || end.bqlLimitMin || end.bqlHoldTime,
                        what << ": BQL limits are set but bql is false; set bql to true or "
                                "leave the limits unset");
        return;
    }
    // Unset limits keep ByteQueueLimits' defaults, which are the kernel's; it checks the rest.
    ByteQueueLimitsHelper bql;
    if (end.bqlLimitMax)
    {
        bql.SetAttribute("LimitMax", UintegerValue(*end.bqlLimitMax));
    }
    if (end.bqlLimitMin)
    {
        bql.SetAttribute("LimitMin", UintegerValue(*end.bqlLimitMin));
    }
    if (end.bqlHoldTime)
    {
        bql.SetAttribute("HoldTime", TimeValue(*end.bqlHoldTime));
    }
    bql.Install(device);
}

} // namespace

NicTopologyHelper::NicTopologyHelper()
    : m_leftLinks(1),
      m_rightLinks(1)
{
}

void
NicTopologyHelper::SetLeftHosts(uint32_t n, const NicLinkConfig& link)
{
    NS_ABORT_MSG_UNLESS(n >= 1 && n <= MAX_NODES,
                        "NicTopologyHelper: " << n << " left hosts; accepted: 1 to " << MAX_NODES);
    m_leftLinks.assign(n, link);
}

void
NicTopologyHelper::SetRightHosts(uint32_t n, const NicLinkConfig& link)
{
    NS_ABORT_MSG_UNLESS(n >= 1 && n <= MAX_NODES,
                        "NicTopologyHelper: " << n << " right hosts; accepted: 1 to " << MAX_NODES);
    m_rightLinks.assign(n, link);
}

void
NicTopologyHelper::SetRouters(uint32_t n, const NicLinkConfig& link)
{
    NS_ABORT_MSG_UNLESS(n <= MAX_NODES,
                        "NicTopologyHelper: " << n << " routers; accepted: 0 to " << MAX_NODES);
    m_nRouters = n;
    m_routerLinks.assign(n > 1 ? n - 1 : 0, link);
}

void
NicTopologyHelper::SetLeftLink(uint32_t i, const NicLinkConfig& link)
{
    LeftLink(i) = link;
}

void
NicTopologyHelper::SetRightLink(uint32_t i, const NicLinkConfig& link)
{
    RightLink(i) = link;
}

void
NicTopologyHelper::SetNames(const std::string& left,
                            const std::string& routers,
                            const std::string& right)
{
    m_leftName = left;
    m_routerName = routers;
    m_rightName = right;
}

uint32_t
NicTopologyHelper::GetNLeft() const
{
    return static_cast<uint32_t>(m_leftLinks.size());
}

uint32_t
NicTopologyHelper::GetNRight() const
{
    return static_cast<uint32_t>(m_rightLinks.size());
}

uint32_t
NicTopologyHelper::GetNRouters() const
{
    return m_nRouters;
}

NicLinkConfig&
NicTopologyHelper::LeftLink(uint32_t i)
{
    NS_ABORT_MSG_UNLESS(i < m_leftLinks.size(),
                        "NicTopologyHelper: no left link " << i << "; there are "
                                                           << m_leftLinks.size());
    return m_leftLinks[i];
}

NicLinkConfig&
NicTopologyHelper::RightLink(uint32_t i)
{
    NS_ABORT_MSG_UNLESS(i < m_rightLinks.size(),
                        "NicTopologyHelper: no right link " << i << "; there are "
                                                            << m_rightLinks.size());
    return m_rightLinks[i];
}

NicLinkConfig&
NicTopologyHelper::RouterLink(uint32_t k)
{
    NS_ABORT_MSG_UNLESS(k < m_routerLinks.size(),
                        "NicTopologyHelper: no router link " << k << "; there are "
                                                             << m_routerLinks.size());
    return m_routerLinks[k];
}

std::string
NicTopologyHelper::Numbered(const std::string& base, uint32_t i, uint32_t n)
{
    return n > 1 ? base + std::to_string(i + 1) : base;
}

NetDeviceContainer
NicTopologyHelper::MakeLink(Ptr<Node> a,
                            Ptr<Node> b,
                            const NicLinkConfig& link,
                            const std::string& what,
                            Ipv4Address network)
{
    NS_ABORT_MSG_IF(link.delay.IsStrictlyNegative(),
                    what << ": delay " << link.delay.As(Time::US) << " is negative");
    NicHelper left = EndHelper(link.left,
                               link.left.rate.empty() ? link.rate : link.left.rate,
                               what + ", left end");
    const NicHelper right = EndHelper(link.right,
                                      link.right.rate.empty() ? link.rate : link.right.rate,
                                      what + ", right end");
    left.SetChannelAttribute("Delay", TimeValue(link.delay));
    NetDeviceContainer devices = left.Install(a, b, right);
    for (const auto& [node, end] : {std::make_pair(a, &link.left), std::make_pair(b, &link.right)})
    {
        if (end->tsqLimitOutputBytes)
        {
            NS_ABORT_MSG_IF(*end->tsqLimitOutputBytes == 0,
                            what << ": tsqLimitOutputBytes must be at least 1 byte");
            m_tsqNodes[node->GetId()] = *end->tsqLimitOutputBytes;
        }
    }
    // Qdiscs first: Ipv4AddressHelper::Assign() gives a device without one fq_codel.
    InstallQdisc(devices.Get(0), link.left, what + ", left end");
    InstallQdisc(devices.Get(1), link.right, what + ", right end");
    Ipv4AddressHelper address(network, "255.255.255.0");
    address.Assign(devices);
    // The link has been in use before the test: no address resolution at t = 0.
    compat::PopulateNeighborCache(devices.Get(0)->GetChannel());
    return devices;
}

void
NicTopologyHelper::SetPcapPrefix(const std::string& prefix)
{
    m_pcapPrefix = prefix;
}

void
NicTopologyHelper::EnablePcapAll(const std::string& prefix)
{
    SetPcapPrefix(prefix);
    for (auto* links : {&m_leftLinks, &m_routerLinks, &m_rightLinks})
    {
        for (NicLinkConfig& link : *links)
        {
            link.left.pcap = true;
            link.right.pcap = true;
        }
    }
}

void
NicTopologyHelper::EnablePcaps() const
{
    auto enable = [this](const NetDeviceContainer& devices,
                         const NicLinkConfig& link,
                         const std::string& left,
                         const std::string& right) {
        for (const auto& [device, end, node] :
             {std::make_tuple(devices.Get(0), &link.left, left),
              std::make_tuple(devices.Get(1), &link.right, right)})
        {
            if (end->pcap)
            {
                NicHelper().EnablePcap(m_pcapPrefix + "-" + node + "-" +
                                           std::to_string(device->GetIfIndex()) + ".pcap",
                                       device,
                                       false,
                                       true);
            }
        }
    };
    if (m_nRouters == 0)
    {
        enable(m_leftDevices[0], m_leftLinks[0], GetLeftName(0), GetRightName(0));
        return;
    }
    for (uint32_t i = 0; i < GetNLeft(); ++i)
    {
        enable(m_leftDevices[i], m_leftLinks[i], GetLeftName(i), GetRouterName(0));
    }
    for (uint32_t k = 0; k + 1 < m_nRouters; ++k)
    {
        enable(m_routerDevices[k], m_routerLinks[k], GetRouterName(k), GetRouterName(k + 1));
    }
    for (uint32_t i = 0; i < GetNRight(); ++i)
    {
        enable(m_rightDevices[i], m_rightLinks[i], GetRouterName(m_nRouters - 1), GetRightName(i));
    }
}

void
NicTopologyHelper::Install()
{
    NS_ABORT_MSG_IF(m_installed, "NicTopologyHelper: Install() called twice");
    NS_ABORT_MSG_IF(m_nRouters == 0 && (m_leftLinks.size() != 1 || m_rightLinks.size() != 1),
                    "NicTopologyHelper: without routers there must be one host on each side "
                    "(got "
                        << m_leftLinks.size() << " left and " << m_rightLinks.size()
                        << " right); add a router to join more");
    m_installed = true;
    m_left.Create(GetNLeft());
    m_routers.Create(m_nRouters);
    m_right.Create(GetNRight());
    m_internet.Install(GetNodes());

    auto net = [](uint32_t side, uint32_t index) {
        return Ipv4Address((10U << 24) | (side << 16) | (index << 8));
    };
    if (m_nRouters == 0)
    {
        m_leftDevices.push_back(
            MakeLink(m_left.Get(0), m_right.Get(0), m_leftLinks[0], "left link 0", net(1, 0)));
    }
    else
    {
        for (uint32_t i = 0; i < GetNLeft(); ++i)
        {
            m_leftDevices.push_back(MakeLink(m_left.Get(i),
                                             m_routers.Get(0),
                                             m_leftLinks[i],
                                             "left link " + std::to_string(i),
                                             net(1, i)));
        }
        for (uint32_t k = 0; k + 1 < m_nRouters; ++k)
        {
            m_routerDevices.push_back(MakeLink(m_routers.Get(k),
                                               m_routers.Get(k + 1),
                                               m_routerLinks[k],
                                               "router link " + std::to_string(k),
                                               net(2, k)));
        }
        for (uint32_t i = 0; i < GetNRight(); ++i)
        {
            m_rightDevices.push_back(MakeLink(m_routers.Get(m_nRouters - 1),
                                              m_right.Get(i),
                                              m_rightLinks[i],
                                              "right link " + std::to_string(i),
                                              net(3, i)));
        }
    }
    EnablePcaps();
    auto address = [](Ptr<NetDevice> device) {
        Ptr<Ipv4> ipv4 = device->GetNode()->GetObject<Ipv4>();
        return ipv4->GetAddress(ipv4->GetInterfaceForDevice(device), 0).GetLocal();
    };
    for (const NetDeviceContainer& devices : m_leftDevices)
    {
        m_leftAddresses.push_back(address(devices.Get(0)));
    }
    if (m_nRouters == 0)
    {
        m_rightAddresses.push_back(address(m_leftDevices[0].Get(1)));
    }
    for (const NetDeviceContainer& devices : m_rightDevices)
    {
        m_rightAddresses.push_back(address(devices.Get(1)));
    }
    // A node with an offload on any NIC gets the layer on all of them: a router joins the
    // GRO packets it forwards on whichever interface they leave.
    // TCP small queues live in the same layer.
    for (uint32_t n = 0; n < GetNodes().GetN(); ++n)
    {
        Ptr<Node> node = GetNodes().Get(n);
        OffloadHelper offloads;
        const auto tsq = m_tsqNodes.find(node->GetId());
        bool layers = tsq != m_tsqNodes.end();
        if (layers)
        {
            offloads.SetLayerAttribute("TcpSmallQueues", BooleanValue(true));
            offloads.SetLayerAttribute("LimitOutputBytes", UintegerValue(tsq->second));
        }
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            Ptr<NicNetDevice> nic = DynamicCast<NicNetDevice>(node->GetDevice(d));
            const NicNetDevice::Offloads o = nic ? nic->GetOffloads() : NicNetDevice::Offloads();
            layers = layers || o.tso || o.gso || o.gro;
        }
        if (layers)
        {
            offloads.InstallLayers(node);
        }
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
}

NodeContainer
NicTopologyHelper::GetNodes() const
{
    return NodeContainer(m_left, m_routers, m_right);
}

Ptr<Node>
NicTopologyHelper::GetLeft(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_left.GetN(), "NicTopologyHelper: no left host " << i);
    return m_left.Get(i);
}

Ptr<Node>
NicTopologyHelper::GetRight(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_right.GetN(), "NicTopologyHelper: no right host " << i);
    return m_right.Get(i);
}

Ptr<Node>
NicTopologyHelper::GetRouter(uint32_t k) const
{
    NS_ABORT_MSG_UNLESS(k < m_routers.GetN(), "NicTopologyHelper: no router " << k);
    return m_routers.Get(k);
}

Ipv4Address
NicTopologyHelper::GetLeftAddress(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_leftAddresses.size(), "NicTopologyHelper: no left host " << i);
    return m_leftAddresses[i];
}

Ipv4Address
NicTopologyHelper::GetRightAddress(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_rightAddresses.size(), "NicTopologyHelper: no right host " << i);
    return m_rightAddresses[i];
}

NetDeviceContainer
NicTopologyHelper::GetLeftDevices(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_leftDevices.size(), "NicTopologyHelper: no left link " << i);
    return m_leftDevices[i];
}

NetDeviceContainer
NicTopologyHelper::GetRightDevices(uint32_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_rightDevices.size(), "NicTopologyHelper: no right link " << i);
    return m_rightDevices[i];
}

NetDeviceContainer
NicTopologyHelper::GetRouterDevices(uint32_t k) const
{
    NS_ABORT_MSG_UNLESS(k < m_routerDevices.size(), "NicTopologyHelper: no router link " << k);
    return m_routerDevices[k];
}

std::string
NicTopologyHelper::GetLeftName(uint32_t i) const
{
    return Numbered(m_leftName, i, GetNLeft());
}

std::string
NicTopologyHelper::GetRightName(uint32_t i) const
{
    return Numbered(m_rightName, i, GetNRight());
}

std::string
NicTopologyHelper::GetRouterName(uint32_t k) const
{
    return Numbered(m_routerName, k, m_nRouters);
}

int64_t
NicTopologyHelper::AssignStreams(int64_t stream)
{
    NS_ABORT_MSG_UNLESS(m_installed, "NicTopologyHelper: AssignStreams() before Install()");
    int64_t current = stream;
    current += m_internet.AssignStreams(GetNodes(), current);
    const std::array<const std::vector<NetDeviceContainer>*, 3> allLinks = {&m_leftDevices,
                                                                            &m_routerDevices,
                                                                            &m_rightDevices};
    for (const auto* links : allLinks)
    {
        for (const NetDeviceContainer& devices : *links)
        {
            current += NicHelper::AssignStreams(devices, current);
        }
    }
    // The queue discs after the stacks and NICs, so that theirs keep the streams they had
    // before the queue discs were covered.
    for (const auto* links : allLinks)
    {
        for (const NetDeviceContainer& devices : *links)
        {
            for (uint32_t i = 0; i < devices.GetN(); ++i)
            {
                Ptr<NetDevice> device = devices.Get(i);
                Ptr<TrafficControlLayer> tc = device->GetNode()->GetObject<TrafficControlLayer>();
                current += AssignQueueDiscStreams(tc->GetRootQueueDiscOnDevice(device), current);
            }
        }
    }
    return current - stream;
}

void
NicTopologyHelper::Describe(std::ostream& os) const
{
    auto end = [&os](const std::string& node, const NicInterfaceConfig& e) {
        os << "    " << node << ": " << e.profile;
        if (e.txRing != 0)
        {
            os << ", tx ring " << e.txRing;
        }
        if (e.txQueues != 0)
        {
            os << ", " << e.txQueues << " tx queues";
        }
        if (e.rxQueues != 0)
        {
            os << ", " << e.rxQueues << " rx queues";
        }
        if (e.combined != 0)
        {
            os << ", " << e.combined << " combined";
        }
        for (const auto& [name, value] : e.attributes)
        {
            os << ", " << name << " " << value;
        }
        if (!e.offloads.empty())
        {
            os << "; ethtool -K " << e.offloads;
        }
        if (e.tsqLimitOutputBytes)
        {
            os << "; TSQ tcp_limit_output_bytes " << *e.tsqLimitOutputBytes;
        }
        os << "; txqueuelen " << e.txqueuelen << "; qdisc " << QdiscText(e, ProfileTxQueues(e));
        if (e.pcap)
        {
            os << "; pcap";
        }
        if (e.bql)
        {
            os << "; BQL";
            if (e.bqlLimitMax)
            {
                os << " limit_max " << *e.bqlLimitMax;
            }
            if (e.bqlLimitMin)
            {
                os << " limit_min " << *e.bqlLimitMin;
            }
            if (e.bqlHoldTime)
            {
                os << " hold_time " << e.bqlHoldTime->GetMilliSeconds() << " ms";
            }
        }
        os << "\n";
    };
    auto link = [&os, &end](const std::string& a, const std::string& b, const NicLinkConfig& l) {
        const int64_t ns = l.delay.GetNanoSeconds();
        os << a << " -- " << b << ": "
           << (l.left.rate.empty() && l.right.rate.empty()
                   ? l.rate
                   : (l.left.rate.empty() ? l.rate : l.left.rate) + " -> / " +
                         (l.right.rate.empty() ? l.rate : l.right.rate) + " <-")
           << ", ";
        if (ns % 1000000 == 0)
        {
            os << ns / 1000000 << " ms\n";
        }
        else
        {
            os << static_cast<double>(ns) / 1000 << " us\n";
        }
        end(a, l.left);
        end(b, l.right);
    };
    const std::string first = m_nRouters == 0 ? GetRightName(0) : GetRouterName(0);
    for (uint32_t i = 0; i < GetNLeft(); ++i)
    {
        link(GetLeftName(i), first, m_leftLinks[i]);
    }
    for (uint32_t k = 0; k < m_routerLinks.size(); ++k)
    {
        link(GetRouterName(k), GetRouterName(k + 1), m_routerLinks[k]);
    }
    for (uint32_t i = 0; m_nRouters > 0 && i < GetNRight(); ++i)
    {
        link(GetRouterName(m_nRouters - 1), GetRightName(i), m_rightLinks[i]);
    }
}

std::vector<std::string>
NicTopologyHelper::GetPresetNames()
{
    return {"laptop-server",
            "wifi-ap",
            "nuc-rangeley-nuc",
            "wrt1200ac",
            "forcedeth-gige",
            "home-50-1",
            "docsis-100-20",
            "adsl-20-1"};
}

NicTopologyHelper
NicTopologyHelper::Preset(const std::string& name, bool seedHosts)
{
    NicTopologyHelper topology;
    auto ends = [](const std::string& left, const std::string& right) {
        NicLinkConfig link;
        link.left.profile = left;
        link.right.profile = right;
        return link;
    };
    if (name == "laptop-server")
    {
        // Seed 000: "ethtool -G eth0 tx 64" on the laptop's e1000e, 100 Mbit/s.
        NicLinkConfig link = ends("e1000e", "e1000e");
        link.rate = "100Mbps";
        link.delay = MilliSeconds(1);
        link.left.txRing = 64;
        topology.SetRouters(0);
        topology.SetLeftHosts(1, link);
        topology.SetNames("laptop", "", "server");
    }
    else if (name == "wifi-ap")
    {
        // Seed 001: the laptop's iwl3945 (256-entry queue, 223 frames queued at most) to a
        // Netgear access point; "frances" behind it on 100 Mbit/s Ethernet. The propagation
        // delay is nil next to the profile's per-frame airtime.
        NicLinkConfig wifi = ends("iwl3945", "iwl3945");
        wifi.rate = "5.5Mbps";
        wifi.delay = MicroSeconds(1);
        NicLinkConfig wired = ends("e1000e", "e1000e");
        wired.rate = "100Mbps";
        wired.delay = MicroSeconds(1);
        topology.SetLeftHosts(1, wifi);
        topology.SetRouters(1);
        topology.SetRightHosts(1, wired);
        topology.SetNames("laptop", "ap", "frances");
    }
    else if (name == "nuc-rangeley-nuc")
    {
        // Seed 002: e1000e NUCs either side of a Rangeley (Atom C2758, i354 ports on igb with
        // 8 TX queues), GigE, a short lab path.
        NicLinkConfig left = ends("e1000e", "igb");
        NicLinkConfig right = ends("igb", "e1000e");
        topology.SetLeftHosts(1, left);
        topology.SetRouters(1);
        topology.SetRightHosts(1, right);
        topology.SetNames("nuc1", "rangeley", "nuc2");
    }
    else if (name == "wrt1200ac")
    {
        // Seed 003: a Linksys WRT1200AC (Armada 385, mvneta) routing between GigE hosts.
        NicLinkConfig left = ends("e1000e", "mvneta");
        NicLinkConfig right = ends("mvneta", "e1000e");
        topology.SetLeftHosts(1, left);
        topology.SetRouters(1);
        topology.SetRightHosts(1, right);
        topology.SetNames("client", "wrt1200ac", "server");
    }
    else if (name == "forcedeth-gige")
    {
        // Seed 004: the BQL series' forcedeth host against a GigE peer.
        NicLinkConfig link = ends("forcedeth", "forcedeth");
        link.delay = MicroSeconds(50);
        topology.SetRouters(0);
        topology.SetLeftHosts(1, link);
        topology.SetNames("host", "", "peer");
    }
    else if (name == "home-50-1" || name == "docsis-100-20" || name == "adsl-20-1")
    {
        // The home router's case: client -- home router == access line == ISP -- server.
        // The line is asymmetric (each end's own rate: the modem's upstream, the head end's
        // downstream); the home router runs SQM: CAKE on its WAN egress at 95% of the
        // upstream, and on its LAN egress at 95% of the downstream in ingress mode (the
        // download shaped after the line, as sqm-scripts does on an ifb); the ISP's end keeps
        // a dumb FIFO (pfifo_fast, 1000 packets), the bloat SQM hides.
        const bool adsl = name == "adsl-20-1";
        const bool docsis = name == "docsis-100-20";
        const std::string up = adsl ? "1Mbps" : docsis ? "20Mbps" : "1Mbps";
        const std::string down = adsl ? "20Mbps" : docsis ? "100Mbps" : "50Mbps";
        // CAKE's framing keyword matches the line: Ethernet's 38 bytes on the IP packet
        // (14 header, 4 FCS, 8 preamble, 12 gap; mpu 84), DOCSIS's 18 (mpu 64: the
        // provisioned rate counts the frame without preamble and gap), ADSL's PPPoE over
        // LLC/SNAP in ATM cells (40 bytes on the IP packet, 48 of every 53 bytes carried).
        const std::string framing = adsl ? "pppoe-llcsnap" : docsis ? "docsis" : "ethernet";
        const std::string ackFilter = docsis ? "" : " ack-filter"; // 1:5 needs none
        const std::string upShaper = adsl ? "950kbit" : docsis ? "19Mbit" : "950kbit";
        const std::string downShaper = adsl ? "19Mbit" : docsis ? "95Mbit" : "47500kbit";
        NicLinkConfig line = ends("e1000e", "e1000e");
        line.delay = MilliSeconds(adsl ? 10 : 5);
        line.left.rate = up;
        line.right.rate = down;
        for (NicInterfaceConfig* end : {&line.left, &line.right})
        {
            if (adsl)
            {
                // The Ethernet header's 14 bytes are in the frame; PPPoE/LLC adds 26 more.
                end->attributes = {{"AtmCells", "true"},
                                   {"L1Overhead", "26"},
                                   {"MinFrameSize", "0"}};
            }
            else if (docsis)
            {
                end->attributes = {{"L1Overhead", "4"}}; // the FCS: the frame's 18 bytes
            }
        }
        line.left.qdisc = "cake bandwidth " + upShaper + " " + framing + ackFilter;
        NicLinkConfig lan = ends("e1000e", "e1000e");
        lan.right.qdisc = "cake bandwidth " + downShaper + " " + framing + " ingress";
        NicLinkConfig wan = ends("e1000e", "e1000e");
        topology.SetLeftHosts(1, lan);
        topology.SetRouters(2, line);
        topology.SetRightHosts(1, wan);
        topology.SetNames("client", "router", "server");
    }
    else
    {
        std::string accepted;
        for (const std::string& preset : GetPresetNames())
        {
            accepted += (accepted.empty() ? "" : ", ") + preset;
        }
        NS_FATAL_ERROR("NicTopologyHelper: preset \"" << name
                                                      << "\" is unknown; accepted: " << accepted);
    }
    if (seedHosts)
    {
        const bool tsq = name == "nuc-rangeley-nuc" || name == "wrt1200ac";
        auto offload = [](NicInterfaceConfig& end) {
            const auto& attributes = NicProfile::Get(end.profile).attributes;
            const bool tso = std::any_of(attributes.begin(), attributes.end(), [](const auto& a) {
                return a.first == "TsoSupport" && a.second != "none";
            });
            end.offloads = tso ? "tso on gso on gro on" : "gso on gro on";
        };
        for (auto* links : {&topology.m_leftLinks, &topology.m_routerLinks, &topology.m_rightLinks})
        {
            for (NicLinkConfig& link : *links)
            {
                offload(link.left);
                offload(link.right);
            }
        }
        if (tsq)
        {
            for (NicLinkConfig& link : topology.m_leftLinks)
            {
                link.left.tsqLimitOutputBytes = 131072;
            }
            for (NicLinkConfig& link : topology.m_rightLinks)
            {
                link.right.tsqLimitOutputBytes = 131072;
            }
        }
    }
    return topology;
}

} // namespace debloat
} // namespace ns3
