/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "udp-flood.h"

#include "ns3/abort.h"
#include "ns3/debloat-compat.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("UdpFlood");
NS_OBJECT_ENSURE_REGISTERED(UdpFloodServer);
NS_OBJECT_ENSURE_REGISTERED(UdpFloodClient);

TypeId
UdpFloodServer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::UdpFloodServer")
                            .SetParent<Application>()
                            .SetGroupName("Debloat")
                            .AddConstructor<UdpFloodServer>()
                            .AddAttribute("Port",
                                          "UDP port (iperf's 5001)",
                                          UintegerValue(5001),
                                          MakeUintegerAccessor(&UdpFloodServer::m_port),
                                          MakeUintegerChecker<uint16_t>());
    return tid;
}

uint64_t
UdpFloodServer::GetReceived() const
{
    return m_received;
}

double
UdpFloodServer::GetReceiveRate() const
{
    // The first datagram opens the interval; what arrives after it fills it.
    const double seconds = (m_last - m_first).GetSeconds();
    return seconds > 0 ? 8.0 * static_cast<double>(m_received - m_firstBytes) / seconds : 0;
}

void
UdpFloodServer::DoDispose()
{
    m_socket = nullptr;
    Application::DoDispose();
}

void
UdpFloodServer::StartApplication()
{
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                    "UdpFloodServer: cannot bind UDP Port=" << m_port);
    m_socket->SetRecvCallback(MakeCallback(&UdpFloodServer::Receive, this));
}

void
UdpFloodServer::StopApplication()
{
    if (m_socket)
    {
        m_socket->Close();
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    }
}

void
UdpFloodServer::Receive(Ptr<Socket> socket)
{
    while (Ptr<Packet> packet = socket->Recv())
    {
        if (m_received == 0)
        {
            m_first = Simulator::Now();
            m_firstBytes = packet->GetSize();
        }
        m_last = Simulator::Now();
        m_received += packet->GetSize();
    }
}

TypeId
UdpFloodClient::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::UdpFloodClient")
            .SetParent<Application>()
            .SetGroupName("Debloat")
            .AddConstructor<UdpFloodClient>()
            .AddAttribute("Remote",
                          "The server's address",
                          Ipv4AddressValue(),
                          MakeIpv4AddressAccessor(&UdpFloodClient::m_remote),
                          MakeIpv4AddressChecker())
            .AddAttribute("Port",
                          "The server's UDP port",
                          UintegerValue(5001),
                          MakeUintegerAccessor(&UdpFloodClient::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Rate",
                          "UDP payload rate (iperf -b; iperf2's default 1 Mbit/s)",
                          DataRateValue(DataRate("1Mbps")),
                          MakeDataRateAccessor(&UdpFloodClient::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("Size",
                          "UDP payload bytes per datagram (iperf -l; default 1470)",
                          UintegerValue(1470),
                          MakeUintegerAccessor(&UdpFloodClient::m_size),
                          MakeUintegerChecker<uint32_t>(1, 65507))
            .AddAttribute("Tos",
                          "IP TOS byte: DSCP << 2 | ECN (iperf -S)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&UdpFloodClient::m_tos),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("InterimInterval",
                          "Report interval (iperf -i)",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&UdpFloodClient::m_interim),
                          MakeTimeChecker())
            .AddTraceSource("Interim",
                            "Payload bytes sent in each report interval, and the interval",
                            MakeTraceSourceAccessor(&UdpFloodClient::m_interimTrace),
                            "ns3::debloat::UdpFloodClient::InterimTracedCallback");
    return tid;
}

uint64_t
UdpFloodClient::GetSent() const
{
    return m_sent;
}

void
UdpFloodClient::DoDispose()
{
    m_next.Cancel();
    m_report.Cancel();
    m_socket = nullptr;
    Application::DoDispose();
}

void
UdpFloodClient::StartApplication()
{
    NS_ABORT_MSG_IF(m_remote == Ipv4Address(), "UdpFloodClient: Remote is not set");
    NS_ABORT_MSG_IF(m_rate.GetBitRate() == 0, "UdpFloodClient: Rate must be above 0");
    NS_ABORT_MSG_IF(!m_interim.IsStrictlyPositive(),
                    "UdpFloodClient: InterimInterval must be positive");
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    m_socket->SetIpTos(m_tos);
    m_socket->Bind();
    m_socket->Connect(compat::InetAddressWithTos(m_remote, m_port, m_tos));
    m_lastReport = Simulator::Now();
    m_next = Simulator::ScheduleNow(&UdpFloodClient::Send, this);
    m_report = Simulator::Schedule(m_interim, &UdpFloodClient::Report, this);
}

void
UdpFloodClient::StopApplication()
{
    m_next.Cancel();
    m_report.Cancel();
    if (Simulator::Now() > m_lastReport)
    {
        EmitReport(); // iperf's last interval ends with the test, even a short one
    }
    if (m_socket)
    {
        m_socket->Close();
    }
    NS_LOG_INFO("sent " << m_sent << " payload bytes");
}

void
UdpFloodClient::Send()
{
    // A datagram the stack refuses (a full device queue with no qdisc) is iperf's failed
    // write: not sent, so not counted.
    if (m_socket->Send(Create<Packet>(m_size)) >= 0)
    {
        m_sent += m_size;
    }
    m_next = Simulator::Schedule(m_rate.CalculateBytesTxTime(m_size), &UdpFloodClient::Send, this);
}

void
UdpFloodClient::Report()
{
    EmitReport();
    m_report = Simulator::Schedule(m_interim, &UdpFloodClient::Report, this);
}

void
UdpFloodClient::EmitReport()
{
    m_interimTrace(m_sent - m_reported, Simulator::Now() - m_lastReport);
    m_reported = m_sent;
    m_lastReport = Simulator::Now();
}

} // namespace debloat
} // namespace ns3
