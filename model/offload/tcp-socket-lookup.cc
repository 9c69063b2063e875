/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-socket-lookup.h"

#include "ns3/node.h"
#include "ns3/object-vector.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-base.h"

namespace ns3
{
namespace debloat
{

Ptr<TcpSocketBase>
FindTcpSocket(Ptr<Node> node, const Address& local, const Address& peer)
{
    Ptr<TcpL4Protocol> tcp = node ? node->GetObject<TcpL4Protocol>() : nullptr;
    if (!tcp)
    {
        return nullptr;
    }
    ObjectVectorValue sockets;
    tcp->GetAttribute("SocketList", sockets);
    for (auto it = sockets.Begin(); it != sockets.End(); ++it)
    {
        Ptr<TcpSocketBase> socket = DynamicCast<TcpSocketBase>(it->second);
        Address name;
        Address peerName;
        // GetPeerName fails on a socket that is not connected (a listener).
        if (socket && socket->GetSockName(name) == 0 && socket->GetPeerName(peerName) == 0 &&
            name == local && peerName == peer)
        {
            return socket;
        }
    }
    return nullptr;
}

} // namespace debloat
} // namespace ns3
