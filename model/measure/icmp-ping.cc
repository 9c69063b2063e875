/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "icmp-ping.h"

#include "ns3/abort.h"
#include "ns3/debloat-compat.h"
#include "ns3/icmpv4.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-raw-socket-factory.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/uinteger.h"

#include <vector>

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("IcmpPing");

NS_OBJECT_ENSURE_REGISTERED(IcmpPing);

namespace
{
/// The ICMP protocol number.
constexpr uint8_t ICMP_PROTOCOL = 1;
/// Bytes of the send timestamp at the start of the payload.
constexpr uint32_t STAMP_BYTES = 8;
} // namespace

TypeId
IcmpPing::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::IcmpPing")
            .SetParent<Application>()
            .SetGroupName("Debloat")
            .AddConstructor<IcmpPing>()
            .AddAttribute("Remote",
                          "The address to ping",
                          Ipv4AddressValue(),
                          MakeIpv4AddressAccessor(&IcmpPing::m_remote),
                          MakeIpv4AddressChecker())
            .AddAttribute("Interval",
                          "Time between echo requests (ping -i; flent uses 0.2 s)",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&IcmpPing::m_interval),
                          MakeTimeChecker())
            .AddAttribute("Size",
                          "Payload bytes (ping -s), at least 8 for the timestamp",
                          UintegerValue(56),
                          MakeUintegerAccessor(&IcmpPing::m_size),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Count",
                          "Echo requests to send (ping -c); 0 sends until the application stops",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IcmpPing::m_count),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Tos",
                          "IP TOS byte of the requests (ping -Q): DSCP << 2 | ECN",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IcmpPing::m_tos),
                          MakeUintegerChecker<uint8_t>())
            .AddTraceSource("Rtt",
                            "The round-trip time of each echo reply",
                            MakeTraceSourceAccessor(&IcmpPing::m_rttTrace),
                            "ns3::debloat::IcmpPing::RttTracedCallback");
    return tid;
}

IcmpPing::IcmpPing()
{
    NS_LOG_FUNCTION(this);
}

IcmpPing::~IcmpPing()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
IcmpPing::GetSent() const
{
    return m_sent;
}

uint32_t
IcmpPing::GetReceived() const
{
    return m_received;
}

void
IcmpPing::DoDispose()
{
    m_next.Cancel();
    m_socket = nullptr;
    Application::DoDispose();
}

void
IcmpPing::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_size < STAMP_BYTES,
                    "IcmpPing: Size=" << m_size << " is too small; accepted 8 or more bytes");
    NS_ABORT_MSG_IF(!m_interval.IsStrictlyPositive(), "IcmpPing: Interval must be positive");
    NS_ABORT_MSG_IF(m_remote == Ipv4Address(), "IcmpPing: Remote is not set");
    m_identifier = static_cast<uint16_t>(GetNode()->GetId() * 256 + 1);
    m_socket = Socket::CreateSocket(GetNode(), Ipv4RawSocketFactory::GetTypeId());
    m_socket->SetAttribute("Protocol", UintegerValue(ICMP_PROTOCOL));
    m_socket->SetIpTos(m_tos);
    m_socket->Connect(compat::InetAddressWithTos(m_remote, 0, m_tos));
    m_socket->SetRecvCallback(MakeCallback(&IcmpPing::Receive, this));
    m_next = Simulator::ScheduleNow(&IcmpPing::Send, this);
}

void
IcmpPing::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_next.Cancel();
    if (m_socket)
    {
        m_socket->Close();
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    }
}

void
IcmpPing::Send()
{
    std::vector<uint8_t> payload(m_size, 0);
    const uint64_t now = static_cast<uint64_t>(Simulator::Now().GetNanoSeconds());
    for (uint32_t i = 0; i < STAMP_BYTES; i++)
    {
        payload[i] = static_cast<uint8_t>(now >> (8 * (STAMP_BYTES - 1 - i)));
    }
    Icmpv4Echo echo;
    echo.SetIdentifier(m_identifier);
    echo.SetSequenceNumber(m_sequence++);
    echo.SetData(Create<Packet>(payload.data(), m_size));
    Ptr<Packet> packet = Create<Packet>();
    packet->AddHeader(echo);
    Icmpv4Header header;
    header.SetType(Icmpv4Header::ICMPV4_ECHO);
    header.SetCode(0);
    packet->AddHeader(header);
    m_socket->Send(packet);
    m_sent++;
    if (m_count == 0 || m_sent < m_count)
    {
        m_next = Simulator::Schedule(m_interval, &IcmpPing::Send, this);
    }
}

void
IcmpPing::Receive(Ptr<Socket> socket)
{
    while (Ptr<Packet> packet = socket->Recv())
    {
        Ipv4Header ip;
        packet->RemoveHeader(ip);
        Icmpv4Header icmp;
        packet->RemoveHeader(icmp);
        if (icmp.GetType() != Icmpv4Header::ICMPV4_ECHO_REPLY)
        {
            continue;
        }
        Icmpv4Echo echo;
        packet->RemoveHeader(echo);
        if (echo.GetIdentifier() != m_identifier || echo.GetDataSize() < STAMP_BYTES)
        {
            continue;
        }
        std::vector<uint8_t> payload(echo.GetDataSize());
        echo.GetData(payload.data());
        uint64_t sent = 0;
        for (uint32_t i = 0; i < STAMP_BYTES; i++)
        {
            sent = (sent << 8) | payload[i];
        }
        m_received++;
        const Time rtt = Simulator::Now() - NanoSeconds(static_cast<int64_t>(sent));
        NS_LOG_INFO("reply seq=" << echo.GetSequenceNumber() << " rtt=" << rtt.As(Time::MS));
        m_rttTrace(echo.GetSequenceNumber(), rtt);
    }
}

} // namespace debloat
} // namespace ns3
