/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "netperf-client.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/debloat-compat.h"
#include "ns3/enum.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("NetperfClient");

NS_OBJECT_ENSURE_REGISTERED(NetperfClient);

TypeId
NetperfClient::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::NetperfClient")
            .SetParent<Application>()
            .SetGroupName("Debloat")
            .AddConstructor<NetperfClient>()
            .AddAttribute("Remote",
                          "The server's address (netperf -H)",
                          Ipv4AddressValue(),
                          MakeIpv4AddressAccessor(&NetperfClient::m_remote),
                          MakeIpv4AddressChecker())
            .AddAttribute("Port",
                          "The server's TCP port",
                          UintegerValue(12865),
                          MakeUintegerAccessor(&NetperfClient::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("Test",
                          "The test (netperf -t): TCP_STREAM, TCP_MAERTS or TCP_RR",
                          EnumValue(NetperfTest::TCP_STREAM),
                          compat::MakeEnumAccessor<NetperfTest>(&NetperfClient::m_test),
                          MakeEnumChecker(NetperfTest::TCP_STREAM,
                                          "TCP_STREAM",
                                          NetperfTest::TCP_MAERTS,
                                          "TCP_MAERTS",
                                          NetperfTest::TCP_RR,
                                          "TCP_RR"))
            .AddAttribute("SendSize",
                          "Bytes per send() call in TCP_STREAM (netperf -m; Linux's initial "
                          "SO_SNDBUF, 16384, is netperf's default)",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&NetperfClient::m_sendSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RequestSize",
                          "TCP_RR request bytes (netperf -r REQ,RESP)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NetperfClient::m_requestSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ResponseSize",
                          "TCP_RR response bytes (netperf -r REQ,RESP)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&NetperfClient::m_responseSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Tos",
                          "IP TOS byte of the data in both directions, DSCP << 2 (netperf -Y)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&NetperfClient::m_tos),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("InterimInterval",
                          "Demo-mode reporting interval (netperf -D; flent uses its STEP_SIZE, "
                          "0.2 s); 0 disables interim results",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&NetperfClient::m_interimInterval),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Interim",
                            "Demo-mode result: bytes (or transactions) and the interval",
                            MakeTraceSourceAccessor(&NetperfClient::m_interimTrace),
                            "ns3::debloat::NetperfClient::InterimTracedCallback")
            .AddTraceSource("Transaction",
                            "Latency of each completed TCP_RR transaction",
                            MakeTraceSourceAccessor(&NetperfClient::m_transactionTrace),
                            "ns3::debloat::NetperfClient::TransactionTracedCallback")
            .AddTraceSource("CongestionWindow",
                            "The data connection's congestion window, bytes (its socket's "
                            "trace, from the socket's creation on: what ss reports)",
                            MakeTraceSourceAccessor(&NetperfClient::m_cwndTrace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("Rtt",
                            "The data connection's RTT samples (its socket's RTT trace)",
                            MakeTraceSourceAccessor(&NetperfClient::m_rttTrace),
                            "ns3::TracedValueCallback::Time");
    return tid;
}

NetperfClient::NetperfClient()
{
    NS_LOG_FUNCTION(this);
}

NetperfClient::~NetperfClient()
{
    NS_LOG_FUNCTION(this);
}

NetperfTest
NetperfClient::GetTest() const
{
    return m_test;
}

void
NetperfClient::ForwardCwnd(uint32_t oldValue, uint32_t newValue)
{
    m_cwndTrace(oldValue, newValue);
}

void
NetperfClient::ForwardRtt(Time oldValue, Time newValue)
{
    m_rttTrace(oldValue, newValue);
}

Ptr<Socket>
NetperfClient::GetSocket() const
{
    return m_socket;
}

uint64_t
NetperfClient::GetBytes() const
{
    if (m_test != NetperfTest::TCP_STREAM)
    {
        return m_read;
    }
    if (!m_socket)
    {
        return m_bytesAtStop;
    }
    // Bytes that left the send buffer: handed to TCP less what the buffer still holds, less
    // the test request that went first.
    const uint64_t handed = m_written + (m_requestSent ? NetperfHeader::SIZE : 0);
    const uint64_t acknowledged = handed - (m_sendBufferSize - m_socket->GetTxAvailable());
    return acknowledged > NetperfHeader::SIZE ? acknowledged - NetperfHeader::SIZE : 0;
}

uint64_t
NetperfClient::GetTransactions() const
{
    return m_transactions;
}

Time
NetperfClient::GetElapsed() const
{
    if (!m_connected && m_testEnd.IsZero())
    {
        return Time(0);
    }
    return (m_running ? Simulator::Now() : m_testEnd) - m_testStart;
}

double
NetperfClient::GetThroughput() const
{
    const double seconds = GetElapsed().GetSeconds();
    if (seconds <= 0)
    {
        return 0;
    }
    if (m_test == NetperfTest::TCP_RR)
    {
        return static_cast<double>(m_transactions) / seconds;
    }
    return 8.0 * static_cast<double>(GetBytes()) / seconds;
}

void
NetperfClient::DoDispose()
{
    m_appCpu.Detach();
    m_socket = nullptr;
    Application::DoDispose();
}

void
NetperfClient::StartApplication()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_remote == Ipv4Address(), "NetperfClient: Remote is not set");
    m_running = true;
    m_appCpu.Attach(GetNode());
    m_socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    // The socket's own traces, forwarded so that a sampler can connect before it exists.
    m_socket->TraceConnectWithoutContext("CongestionWindow",
                                         MakeCallback(&NetperfClient::ForwardCwnd, this));
    m_socket->TraceConnectWithoutContext("RTT", MakeCallback(&NetperfClient::ForwardRtt, this));
    UintegerValue sendBuffer;
    m_socket->GetAttribute("SndBufSize", sendBuffer);
    m_sendBufferSize = static_cast<uint32_t>(sendBuffer.Get());
    // Set before connect() so that the SYN carries the mark, as setsockopt(IP_TOS) does.
    m_socket->SetIpTos(m_tos);
    if (m_test == NetperfTest::TCP_RR)
    {
        // Linux's Minshall Nagle never holds a request's tail behind its full segments; ns-3's
        // classic Nagle would, until the server's delayed ACK (see NetperfServer).
        m_socket->SetAttribute("TcpNoDelay", BooleanValue(true));
    }
    m_socket->Bind();
    m_socket->SetConnectCallback(MakeCallback(&NetperfClient::Connected, this),
                                 MakeCallback(&NetperfClient::ConnectionFailed, this));
    m_socket->SetRecvCallback(MakeCallback(&NetperfClient::Ready, this));
    m_socket->SetSendCallback(MakeCallback(&NetperfClient::SendReady, this));
    m_socket->Connect(compat::InetAddressWithTos(m_remote, m_port, m_tos));
}

void
NetperfClient::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_running && m_connected)
    {
        m_testEnd = Simulator::Now();
    }
    m_running = false;
    m_appCpu.Detach();
    m_interimEvent.Cancel();
    if (m_socket)
    {
        // Counted before the close, which may discard what the send buffer holds.
        m_bytesAtStop = GetBytes();
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
        m_socket->Close();
        m_socket = nullptr;
    }
    NS_LOG_INFO("NetperfClient: " << GetBytes() << " bytes, " << m_transactions
                                  << " transactions in " << GetElapsed().As(Time::S));
}

void
NetperfClient::Connected(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    m_connected = true;
    m_testStart = Simulator::Now();
    m_lastInterim = m_testStart;
    m_request = Create<Packet>();
    NetperfHeader request;
    request.test = m_test;
    request.tos = m_tos;
    request.requestSize = m_requestSize;
    request.responseSize = m_responseSize;
    m_request->AddHeader(request);
    if (m_interimInterval.IsStrictlyPositive())
    {
        m_interimEvent = Simulator::Schedule(m_interimInterval, &NetperfClient::Interim, this);
    }
    if (m_test == NetperfTest::TCP_RR)
    {
        StartTransaction();
    }
    Send(socket, socket->GetTxAvailable());
}

void
NetperfClient::ConnectionFailed(Ptr<Socket> socket)
{
    NS_LOG_WARN("NetperfClient: connection to " << m_remote << ":" << m_port << " failed");
}

void
NetperfClient::StartTransaction()
{
    m_toSend = m_requestSize;
    m_responseRead = 0;
    m_transactionStart = Simulator::Now();
}

void
NetperfClient::Send(Ptr<Socket> socket, uint32_t available)
{
    if (!m_connected || !m_running)
    {
        return;
    }
    const bool bulk = m_test == NetperfTest::TCP_STREAM;
    // The test request goes out with the first data, in one write: on its own, Nagle would
    // hold a TCP_RR request behind it until the server's delayed ACK.
    while (m_request || (socket->GetTxAvailable() > 0 && (bulk || m_toSend > 0)))
    {
        const uint32_t header = m_request ? NetperfHeader::SIZE : 0;
        if (socket->GetTxAvailable() < header)
        {
            break;
        }
        const auto size = static_cast<uint32_t>(
            std::min<uint64_t>(bulk ? m_sendSize : m_toSend, socket->GetTxAvailable() - header));
        Ptr<Packet> packet = m_request ? m_request->Copy() : Create<Packet>();
        packet->AddAtEnd(Create<Packet>(size));
        const uint32_t written = packet->GetSize();
        if (socket->Send(packet) <= 0)
        {
            break;
        }
        m_appCpu.Sent(written);
        if (m_request)
        {
            m_request = nullptr;
            m_requestSent = true;
        }
        m_written += size;
        m_toSend -= bulk ? 0 : size;
    }
    // Left with data to write: blocked on the send buffer (SOCK_NOSPACE).
    m_sendBlocked = m_request || bulk || m_toSend > 0;
}

void
NetperfClient::Ready(Ptr<Socket> socket)
{
    if (!m_appCpu.IsOn())
    {
        Receive(socket); // an infinitely fast CPU: at once, as before
        return;
    }
    m_appCpu.Wake(socket->GetRxAvailable(), [this, socket]() {
        if (m_running && m_socket == socket)
        {
            Receive(socket);
            Send(socket, socket->GetTxAvailable());
        }
    });
}

void
NetperfClient::SendReady(Ptr<Socket> socket, uint32_t available)
{
    if (!m_appCpu.IsOn())
    {
        Send(socket, available);
        return;
    }
    if (m_sendBlocked)
    {
        Ready(socket); // sk_stream_write_space() wakes only a writer waiting for room
    }
}

void
NetperfClient::Receive(Ptr<Socket> socket)
{
    while (Ptr<Packet> packet = socket->Recv())
    {
        const uint32_t size = packet->GetSize();
        if (size == 0)
        {
            break;
        }
        m_read += size;
        if (m_test != NetperfTest::TCP_RR)
        {
            continue;
        }
        // One request is outstanding at a time, so a read never spans two responses.
        m_responseRead += size;
        if (m_responseRead >= m_responseSize)
        {
            ++m_transactions;
            m_transactionTrace(Simulator::Now() - m_transactionStart);
            StartTransaction();
            Send(socket, socket->GetTxAvailable());
        }
    }
}

uint64_t
NetperfClient::Progress() const
{
    return m_test == NetperfTest::TCP_RR ? m_transactions : GetBytes();
}

void
NetperfClient::Interim()
{
    const uint64_t progress = Progress();
    const Time now = Simulator::Now();
    m_interimTrace(progress - m_lastProgress, now - m_lastInterim);
    m_lastProgress = progress;
    m_lastInterim = now;
    m_interimEvent = Simulator::Schedule(m_interimInterval, &NetperfClient::Interim, this);
}

} // namespace debloat
} // namespace ns3
