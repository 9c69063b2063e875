/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NETPERF_SERVER_H
#define NETPERF_SERVER_H

#include "netperf-header.h"

#include "ns3/app-cpu.h"
#include "ns3/application.h"
#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

#include <vector>

namespace ns3
{

class Socket;
class Packet;
class Address;

namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief netserver: the far end of NetperfClient's TCP_STREAM, TCP_MAERTS and TCP_RR tests.
 *
 * Listens on one TCP port and serves every connection by the test request that opens it
 * (NetperfHeader): TCP_STREAM data is read and discarded, TCP_MAERTS sends bulk data until
 * the client closes, TCP_RR answers each complete request with one response. The server
 * marks its own data with the TOS byte the client asked for (netperf -Y local,remote).
 */
class NetperfServer : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NetperfServer();
    ~NetperfServer() override;

    /// @return test data bytes received over all connections (requests included)
    uint64_t GetBytesReceived() const;
    /// @return test data bytes handed to the sockets over all connections
    uint64_t GetBytesSent() const;
    /// @return connections accepted
    uint32_t GetConnections() const;

  private:
    /// One accepted data connection and the test it runs.
    class Connection : public SimpleRefCount<Connection>
    {
      public:
        /**
         * Starts serving an accepted socket.
         * @param server the application (outlives the connection's callbacks)
         * @param socket the accepted socket
         */
        Connection(NetperfServer* server, Ptr<Socket> socket);
        /// Closes the socket and drops its callbacks.
        void Close();
        /// Drops the socket's callbacks and the socket, without closing it.
        void Detach();

      private:
        /**
         * Reads everything the socket holds.
         * @param socket the socket
         */
        void Receive(Ptr<Socket> socket);
        /**
         * Sends what the test owes while the send buffer has room.
         * @param socket the socket
         * @param available bytes free in the send buffer
         */
        void Send(Ptr<Socket> socket, uint32_t available);
        /**
         * The socket can be read or written: wakes the connection's process (AppCpu),
         * which then reads and answers.
         * @param socket the socket
         */
        void Ready(Ptr<Socket> socket);
        /**
         * The socket's send buffer has room (sk_write_space()).
         * @param socket the socket
         * @param available bytes free in the send buffer
         */
        void SendReady(Ptr<Socket> socket, uint32_t available);
        /**
         * Ends the test when the client closes or resets the connection.
         * @param socket the socket
         */
        void PeerClosed(Ptr<Socket> socket);

        NetperfServer* m_server;    ///< the application
        Ptr<Socket> m_socket;       ///< the data connection
        Ptr<Packet> m_pending;      ///< bytes of the test request not yet complete
        bool m_started{false};      ///< the test request has arrived
        NetperfHeader m_request;    ///< the test request
        uint64_t m_requestBytes{0}; ///< TCP_RR: bytes of the current request so far
        uint64_t m_owed{0};         ///< TCP_RR: response bytes not yet handed to TCP
        AppCpu m_appCpu;            ///< netserver's process for it, on the node's HostCpu
        bool m_sendBlocked{false};  ///< the last Send() left data unwritten
    };

    void StartApplication() override;
    void StopApplication() override;
    void DoDispose() override;

    /**
     * Accepts a new data connection.
     * @param socket the new socket
     * @param from the client
     */
    void Accept(Ptr<Socket> socket, const Address& from);

    uint16_t m_port;                            ///< listening port (netserver's 12865)
    uint32_t m_sendSize;                        ///< TCP_MAERTS bytes per send() call
    Ptr<Socket> m_listener;                     ///< listening socket
    std::vector<Ptr<Connection>> m_connections; ///< accepted connections
    uint64_t m_bytesReceived{0};                ///< test data received
    uint64_t m_bytesSent{0};                    ///< test data sent
};

} // namespace debloat
} // namespace ns3

#endif /* NETPERF_SERVER_H */
