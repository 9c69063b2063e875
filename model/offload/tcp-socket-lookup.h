/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TCP_SOCKET_LOOKUP_H
#define TCP_SOCKET_LOOKUP_H

#include "ns3/address.h"
#include "ns3/ptr.h"

namespace ns3
{
class Node;
class TcpSocketBase;

namespace debloat
{

/**
 * @ingroup debloat-offload
 * Finds the connected TCP socket of a node by its four-tuple, as the kernel's
 * __inet_lookup_established() does for a received segment: among the sockets of the node's
 * TcpL4Protocol ("SocketList"), the one whose local address and port (GetSockName) and peer
 * address and port (GetPeerName) are those given. A scan over the sockets: callers keep the
 * result per flow.
 *
 * @param node the node
 * @param local the local address and port (InetSocketAddress or Inet6SocketAddress)
 * @param peer the peer's address and port, of the same family
 * @return the socket, or null if the node has no TCP or no such connected socket
 */
Ptr<TcpSocketBase> FindTcpSocket(Ptr<Node> node, const Address& local, const Address& peer);

} // namespace debloat
} // namespace ns3

#endif /* TCP_SOCKET_LOOKUP_H */
