/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "netperf-server.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

NS_LOG_COMPONENT_DEFINE("NetperfServer");

NS_OBJECT_ENSURE_REGISTERED(NetperfServer);

TypeId
NetperfServer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::NetperfServer")
            .SetParent<Application>()
            .SetGroupName("Debloat")
            .AddConstructor<NetperfServer>()
            .AddAttribute("Port",
                          "TCP port to listen on (netserver's 12865)",
                          UintegerValue(12865),
                          MakeUintegerAccessor(&NetperfServer::m_port),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("SendSize",
                          "Bytes per send() call in TCP_MAERTS (netperf -M; Linux's initial "
                          "SO_SNDBUF, 16384, is netperf's default)",
                          UintegerValue(16384),
                          MakeUintegerAccessor(&NetperfServer::m_sendSize),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

NetperfServer::NetperfServer()
{
    NS_LOG_FUNCTION(this);
}

NetperfServer::~NetperfServer()
{
    NS_LOG_FUNCTION(this);
}

uint64_t
NetperfServer::GetBytesReceived() const
{
    return m_bytesReceived;
}

uint64_t
NetperfServer::GetBytesSent() const
{
    return m_bytesSent;
}

uint32_t
NetperfServer::GetConnections() const
{
    return static_cast<uint32_t>(m_connections.size());
}

void
NetperfServer::DoDispose()
{
    // Simulator::Destroy() may dispose the node's stack before its applications: drop the
    // sockets without Close(), which would send a FIN through a disposed Ipv4L3Protocol.
    for (auto& connection : m_connections)
    {
        connection->Detach();
    }
    m_connections.clear();
    if (m_listener)
    {
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeNullCallback<void, Ptr<Socket>, const Address&>());
        m_listener = nullptr;
    }
    Application::DoDispose();
}

void
NetperfServer::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_listener = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    NS_ABORT_MSG_IF(m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0,
                    "NetperfServer: cannot bind TCP Port=" << m_port);
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&NetperfServer::Accept, this));
}

void
NetperfServer::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (auto& connection : m_connections)
    {
        connection->Close();
    }
    m_connections.clear();
    if (m_listener)
    {
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeNullCallback<void, Ptr<Socket>, const Address&>());
        m_listener->Close();
        m_listener = nullptr;
    }
}

void
NetperfServer::Accept(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_FUNCTION(this << socket << from);
    m_connections.push_back(Create<Connection>(this, socket));
}

NetperfServer::Connection::Connection(NetperfServer* server, Ptr<Socket> socket)
    : m_server(server),
      m_socket(socket),
      m_pending(Create<Packet>())
{
    // netserver forks a process per connection.
    m_appCpu.Attach(server->GetNode());
    // The callbacks hold a Ptr to this connection; Close() drops them to break the cycle.
    socket->SetRecvCallback(MakeCallback(&Connection::Ready, Ptr<Connection>(this)));
    socket->SetSendCallback(MakeCallback(&Connection::SendReady, Ptr<Connection>(this)));
    // The client closing ends the test (netserver stops at the client's FIN or reset).
    socket->SetCloseCallbacks(MakeCallback(&Connection::PeerClosed, Ptr<Connection>(this)),
                              MakeCallback(&Connection::PeerClosed, Ptr<Connection>(this)));
}

void
NetperfServer::Connection::PeerClosed(Ptr<Socket> socket)
{
    NS_LOG_FUNCTION(this << socket);
    Close();
}

void
NetperfServer::Connection::Close()
{
    if (Ptr<Socket> socket = m_socket)
    {
        Detach();
        socket->Close();
    }
}

void
NetperfServer::Connection::Detach()
{
    if (!m_socket)
    {
        return;
    }
    m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    m_socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
    m_socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                MakeNullCallback<void, Ptr<Socket>>());
    m_socket = nullptr;
    m_appCpu.Detach();
}

void
NetperfServer::Connection::Ready(Ptr<Socket> socket)
{
    if (!m_appCpu.IsOn())
    {
        Receive(socket); // an infinitely fast CPU: at once, as before
        return;
    }
    // The pending wake-up holds the connection alive until it runs.
    m_appCpu.Wake(socket->GetRxAvailable(), [self = Ptr<Connection>(this), socket]() {
        if (self->m_socket == socket)
        {
            self->Receive(socket);
            self->Send(socket, socket->GetTxAvailable());
        }
    });
}

void
NetperfServer::Connection::SendReady(Ptr<Socket> socket, uint32_t available)
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
NetperfServer::Connection::Receive(Ptr<Socket> socket)
{
    while (Ptr<Packet> packet = socket->Recv())
    {
        if (packet->GetSize() == 0)
        {
            break;
        }
        if (!m_started)
        {
            // The test request may arrive split over several reads.
            m_pending->AddAtEnd(packet);
            if (m_pending->GetSize() < NetperfHeader::SIZE)
            {
                continue;
            }
            m_pending->RemoveHeader(m_request);
            if (!m_request.IsValid())
            {
                NS_LOG_WARN("NetperfServer: not a netperf test request (" << m_request
                                                                          << "); closing");
                Close();
                return;
            }
            m_started = true;
            socket->SetIpTos(m_request.tos);
            if (m_request.test == NetperfTest::TCP_RR)
            {
                // Linux's Nagle (tcp_nagle_check() with tcp_minshall_check()) holds a partial
                // segment back only behind an unacknowledged partial one, never behind full
                // segments; ns-3's classic Nagle would hold each response's tail until the
                // client's delayed ACK. For request/response the two agree with no Nagle.
                socket->SetAttribute("TcpNoDelay", BooleanValue(true));
            }
            packet = m_pending;
            m_pending = nullptr;
            NS_LOG_INFO("NetperfServer: starting " << m_request);
        }
        const uint32_t size = packet->GetSize();
        m_server->m_bytesReceived += size;
        if (m_request.test == NetperfTest::TCP_RR)
        {
            // Each complete request owes one response (netserver's recv loop, then send).
            m_requestBytes += size;
            m_owed += m_requestBytes / m_request.requestSize * m_request.responseSize;
            m_requestBytes %= m_request.requestSize;
        }
    }
    if (m_started && m_request.test != NetperfTest::TCP_STREAM)
    {
        Send(socket, socket->GetTxAvailable());
    }
}

void
NetperfServer::Connection::Send(Ptr<Socket> socket, uint32_t available)
{
    if (!m_started || !m_socket)
    {
        return;
    }
    const bool bulk = m_request.test == NetperfTest::TCP_MAERTS;
    const uint32_t chunk = bulk ? m_server->m_sendSize : m_request.responseSize;
    while (socket->GetTxAvailable() > 0 && (bulk || m_owed > 0))
    {
        uint64_t size = std::min<uint64_t>(chunk, socket->GetTxAvailable());
        if (!bulk)
        {
            size = std::min(size, m_owed);
            m_owed -= size;
        }
        const int sent = socket->Send(Create<Packet>(static_cast<uint32_t>(size)));
        if (sent > 0)
        {
            m_appCpu.Sent(static_cast<uint32_t>(sent));
        }
        if (sent <= 0)
        {
            if (!bulk)
            {
                m_owed += size;
            }
            break;
        }
        m_server->m_bytesSent += static_cast<uint64_t>(sent);
    }
    // Left with data to write: blocked on the send buffer (SOCK_NOSPACE).
    m_sendBlocked = bulk || m_owed > 0;
}

} // namespace debloat
} // namespace ns3
