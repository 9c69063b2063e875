/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "debloat-test-utils.h"

#include "ns3/applications-module.h"
#include "ns3/nic-helper.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

namespace debloattest
{

ChildOutcome
RunInChild(const std::function<void()>& body)
{
    ChildOutcome outcome;
    std::array<int, 2> fds{};
    if (pipe(fds.data()) != 0)
    {
        outcome.output = "pipe() failed";
        return outcome;
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0)
    {
        outcome.output = "fork() failed";
        return outcome;
    }
    if (pid == 0)
    {
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        body();
        std::cout.flush();
        std::cerr.flush();
        _exit(0);
    }
    close(fds[1]);
    std::array<char, 4096> buffer{};
    ssize_t n;
    while ((n = read(fds[0], buffer.data(), buffer.size())) > 0)
    {
        outcome.output.append(buffer.data(), static_cast<std::size_t>(n));
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    outcome.stopped = WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
    return outcome;
}

FloodedNicLink
MakeFloodedNicLink(const std::string& profile, const std::string& rate, bool bql)
{
    using namespace ns3;
    FloodedNicLink link;
    link.nodes.Create(2);
    debloat::NicHelper nic;
    nic.SetProfile(profile);
    if (!rate.empty())
    {
        nic.SetDeviceAttribute("DataRate", StringValue(rate));
    }
    link.devices = nic.Install(link.nodes);
    InternetStackHelper internet;
    internet.Install(link.nodes);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc", "MaxSize", StringValue("1000p"));
    if (bql)
    {
        tch.SetQueueLimits("ns3::debloat::ByteQueueLimits");
    }
    tch.Install(link.devices.Get(0));
    Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");
    link.interfaces = address.Assign(link.devices);

    DataRateValue lineRate;
    link.devices.Get(0)->GetAttribute("DataRate", lineRate);
    OnOffHelper onoff("ns3::UdpSocketFactory", InetSocketAddress(link.interfaces.GetAddress(1), 9));
    onoff.SetConstantRate(DataRate(lineRate.Get().GetBitRate() * 6 / 5), 1472);
    onoff.Install(link.nodes.Get(0)).Start(Seconds(0));
    return link;
}

namespace
{

/**
 * Reads an unsigned attribute.
 * @param device the device
 * @param name the attribute
 * @return its value
 */
uint64_t
GetUinteger(ns3::Ptr<ns3::NetDevice> device, const std::string& name)
{
    ns3::UintegerValue value;
    device->GetAttribute(name, value);
    return value.Get();
}

} // namespace

ns3::Time
ExpectedWireTime(ns3::Ptr<ns3::NetDevice> device, uint32_t length)
{
    using namespace ns3;
    DataRateValue rate;
    device->GetAttribute("DataRate", rate);
    TimeValue overhead;
    device->GetAttribute("PerFrameOverhead", overhead);
    const uint64_t bytes = std::max<uint64_t>(length, GetUinteger(device, "MinFrameSize")) +
                           GetUinteger(device, "L1Overhead");
    const uint64_t bps = rate.Get().GetBitRate();
    return NanoSeconds(static_cast<int64_t>((bytes * 8 * 1000000000 + bps / 2) / bps)) +
           overhead.Get();
}

uint32_t
ExpectedDescriptors(ns3::Ptr<ns3::NetDevice> device, uint32_t length)
{
    using namespace ns3;
    const uint64_t perDescriptor = GetUinteger(device, "TxMaxDataPerDescriptor");
    BooleanValue context;
    device->GetAttribute("TxContextDescriptor", context);
    return static_cast<uint32_t>((length + perDescriptor - 1) / perDescriptor) +
           (context.Get() ? 1 : 0);
}

void
SendFrames(ns3::Ptr<ns3::NetDevice> from,
           ns3::Ptr<ns3::NetDevice> to,
           uint32_t count,
           uint32_t size)
{
    for (uint32_t i = 0; i < count; i++)
    {
        from->Send(ns3::Create<ns3::Packet>(size), to->GetAddress(), 0x0800);
    }
}

IdleLink
MakeIdleLink()
{
    using namespace ns3;
    IdleLink link;
    link.nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
    p2p.SetChannelAttribute("Delay", StringValue("5ms"));
    NetDeviceContainer devices = p2p.Install(link.nodes);
    InternetStackHelper internet;
    internet.Install(link.nodes);
    Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");
    link.interfaces = address.Assign(devices);
    return link;
}

ns3::Ptr<ns3::Ipv4QueueDiscItem>
MakeUdpItem(const char* source,
            const char* destination,
            uint16_t port,
            uint32_t ipSize,
            uint8_t tos)
{
    using namespace ns3;
    Ptr<Packet> packet = Create<Packet>(ipSize - 28);
    UdpHeader udp;
    udp.SetSourcePort(port);
    udp.SetDestinationPort(9);
    packet->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address(source));
    ip.SetDestination(Ipv4Address(destination));
    ip.SetProtocol(UdpL4Protocol::PROT_NUMBER);
    ip.SetPayloadSize(packet->GetSize());
    ip.SetTos(tos);
    ip.SetTtl(64);
    return Create<Ipv4QueueDiscItem>(packet, Address(), Ipv4L3Protocol::PROT_NUMBER, ip);
}

QdiscRun::QdiscRun(ns3::Ptr<ns3::QueueDisc> qdisc)
    : m_qdisc(qdisc)
{
    using namespace ns3;
    m_qdisc->SetSendCallback([this](Ptr<QueueDiscItem> item) {
        m_sent.push_back({Simulator::Now(), item, Simulator::Now() - item->GetTimeStamp()});
    });
}

void
QdiscRun::EnqueueAt(ns3::Time at, const std::vector<ns3::Ptr<ns3::QueueDiscItem>>& items)
{
    ns3::Simulator::Schedule(at, &QdiscRun::EnqueueNow, this, items);
}

void
QdiscRun::EnqueueNow(std::vector<ns3::Ptr<ns3::QueueDiscItem>> items)
{
    for (const auto& item : items)
    {
        m_qdisc->Enqueue(item);
    }
    m_qdisc->Run();
}

void
QdiscRun::RunUntil(ns3::Time stop)
{
    ns3::Simulator::Stop(stop);
    ns3::Simulator::Run();
}

void
QdiscRun::Finish()
{
    m_qdisc->Dispose();
    ns3::Simulator::Destroy();
}

const std::vector<QdiscRun::Sent>&
QdiscRun::GetSent() const
{
    return m_sent;
}

uint16_t
QdiscRun::SourcePort(const Sent& sent)
{
    using namespace ns3;
    // QueueDisc::Transmit() has added the IP header: the UDP header follows it.
    Ptr<Packet> copy = sent.item->GetPacket()->Copy();
    Ipv4Header ip;
    copy->RemoveHeader(ip);
    UdpHeader udp;
    copy->RemoveHeader(udp);
    return udp.GetSourcePort();
}

} // namespace debloattest
