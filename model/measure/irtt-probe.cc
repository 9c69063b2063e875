/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "irtt-probe.h"

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

NS_LOG_COMPONENT_DEFINE("IrttProbe");

NS_OBJECT_ENSURE_REGISTERED(IrttHeader);
NS_OBJECT_ENSURE_REGISTERED(IrttServer);
NS_OBJECT_ENSURE_REGISTERED(IrttClient);

TypeId
IrttHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::IrttHeader")
                            .SetParent<Header>()
                            .SetGroupName("Debloat")
                            .AddConstructor<IrttHeader>();
    return tid;
}

TypeId
IrttHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
IrttHeader::GetSerializedSize() const
{
    return 4 + 3 * 8;
}

void
IrttHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(sequence);
    start.WriteHtonU64(static_cast<uint64_t>(clientSend));
    start.WriteHtonU64(static_cast<uint64_t>(serverReceive));
    start.WriteHtonU64(static_cast<uint64_t>(serverSend));
}

uint32_t
IrttHeader::Deserialize(Buffer::Iterator start)
{
    sequence = start.ReadNtohU32();
    clientSend = static_cast<int64_t>(start.ReadNtohU64());
    serverReceive = static_cast<int64_t>(start.ReadNtohU64());
    serverSend = static_cast<int64_t>(start.ReadNtohU64());
    return GetSerializedSize();
}

void
IrttHeader::Print(std::ostream& os) const
{
    os << "seq=" << sequence << " client-send=" << clientSend << " server-receive=" << serverReceive
       << " server-send=" << serverSend;
}

TypeId
IrttServer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::IrttServer")
                            .SetParent<Application>()
                            .SetGroupName("Debloat")
                            .AddConstructor<IrttServer>()
                            .AddAttribute("Port",
                                          "UDP port (irtt's default 2112)",
                                          UintegerValue(2112),
                                          MakeUintegerAccessor(&IrttServer::m_port),
                                          MakeUintegerChecker<uint16_t>());
    return tid;
}

IrttServer::IrttServer()
{
    NS_LOG_FUNCTION(this);
}

IrttServer::~IrttServer()
{
    NS_LOG_FUNCTION(this);
}

void
IrttServer::DoDispose()
{
    m_socket = nullptr;
    Application::DoDispose();
}

void
IrttServer::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    NS_ABORT_MSG_IF(m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                    "IrttServer: cannot bind UDP Port=" << m_port);
    m_socket->SetRecvCallback(MakeCallback(&IrttServer::Receive, this));
}

void
IrttServer::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_socket)
    {
        m_socket->Close();
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    }
}

void
IrttServer::Receive(Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> packet = socket->RecvFrom(from))
    {
        IrttHeader header;
        if (packet->GetSize() < header.GetSerializedSize())
        {
            NS_LOG_DEBUG("ignoring a " << packet->GetSize() << "-byte datagram");
            continue;
        }
        packet->RemoveHeader(header);
        header.serverReceive = Simulator::Now().GetNanoSeconds();
        header.serverSend = header.serverReceive;
        packet->AddHeader(header);
        socket->SendTo(packet, 0, from);
    }
}

TypeId
IrttClient::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::IrttClient")
            .SetParent<Application>()
            .SetGroupName("Debloat")
            .AddConstructor<IrttClient>()
            .AddAttribute("Remote",
                          "The server's address",
                          Ipv4AddressValue(),
                          MakeIpv4AddressAccessor(&IrttClient::m_remote),
                          MakeIpv4AddressChecker())
            .AddAttribute("Port",
                          "The server's UDP port",
                          UintegerValue(2112),
                          MakeUintegerAccessor(&IrttClient::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Interval",
                          "Time between probes (irtt -i; flent's rrul uses 0.2 s)",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&IrttClient::m_interval),
                          MakeTimeChecker())
            .AddAttribute("Size",
                          "UDP payload bytes (irtt -l), at least the 28-byte timestamp header",
                          UintegerValue(60),
                          MakeUintegerAccessor(&IrttClient::m_size),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Count",
                          "Probes to send; 0 sends until the application stops",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IrttClient::m_count),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Tos",
                          "IP TOS byte of the probes: DSCP << 2 | ECN",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IrttClient::m_tos),
                          MakeUintegerChecker<uint8_t>())
            .AddTraceSource("Reply",
                            "Each reply: sequence, RTT, send delay, receive delay, IPDV",
                            MakeTraceSourceAccessor(&IrttClient::m_replyTrace),
                            "ns3::debloat::IrttClient::ReplyTracedCallback");
    return tid;
}

IrttClient::IrttClient()
{
    NS_LOG_FUNCTION(this);
}

IrttClient::~IrttClient()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
IrttClient::GetSent() const
{
    return m_sequence;
}

uint32_t
IrttClient::GetReceived() const
{
    return m_received;
}

void
IrttClient::DoDispose()
{
    m_next.Cancel();
    m_socket = nullptr;
    Application::DoDispose();
}

void
IrttClient::StartApplication()
{
    NS_LOG_FUNCTION(this);
    const uint32_t minimum = IrttHeader().GetSerializedSize();
    NS_ABORT_MSG_IF(m_size < minimum,
                    "IrttClient: Size=" << m_size << " is too small; accepted " << minimum
                                        << " or more bytes");
    NS_ABORT_MSG_IF(!m_interval.IsStrictlyPositive(), "IrttClient: Interval must be positive");
    NS_ABORT_MSG_IF(m_remote == Ipv4Address(), "IrttClient: Remote is not set");
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    m_socket->SetIpTos(m_tos);
    m_socket->Bind();
    m_socket->Connect(compat::InetAddressWithTos(m_remote, m_port, m_tos));
    m_socket->SetRecvCallback(MakeCallback(&IrttClient::Receive, this));
    m_next = Simulator::ScheduleNow(&IrttClient::Send, this);
}

void
IrttClient::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_next.Cancel();
    if (m_socket)
    {
        m_socket->Close();
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    }
    NS_LOG_INFO("sent " << m_sequence << ", received " << m_received << ", lost "
                        << m_sequence - m_received);
}

void
IrttClient::Send()
{
    IrttHeader header;
    header.sequence = m_sequence++;
    header.clientSend = Simulator::Now().GetNanoSeconds();
    Ptr<Packet> packet = Create<Packet>(m_size - header.GetSerializedSize());
    packet->AddHeader(header);
    m_socket->Send(packet);
    if (m_count == 0 || m_sequence < m_count)
    {
        m_next = Simulator::Schedule(m_interval, &IrttClient::Send, this);
    }
}

void
IrttClient::Receive(Ptr<Socket> socket)
{
    while (Ptr<Packet> packet = socket->Recv())
    {
        IrttHeader header;
        if (packet->GetSize() < header.GetSerializedSize())
        {
            continue;
        }
        packet->RemoveHeader(header);
        const int64_t now = Simulator::Now().GetNanoSeconds();
        const Time sendDelay = NanoSeconds(header.serverReceive - header.clientSend);
        const Time receiveDelay = NanoSeconds(now - header.serverSend);
        const Time rtt = sendDelay + receiveDelay;
        const Time ipdv = m_haveLast ? rtt - m_lastRtt : Seconds(0);
        m_haveLast = true;
        m_lastRtt = rtt;
        m_received++;
        m_replyTrace(header.sequence, rtt, sendDelay, receiveDelay, ipdv);
    }
}

} // namespace debloat
} // namespace ns3
