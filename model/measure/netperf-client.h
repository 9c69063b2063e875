/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NETPERF_CLIENT_H
#define NETPERF_CLIENT_H

#include "netperf-header.h"

#include "ns3/app-cpu.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class Packet;
class Socket;

namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief netperf: TCP_STREAM, TCP_MAERTS and TCP_RR against a NetperfServer, with demo-mode
 * interim results (netperf -D).
 *
 * The test runs from the connection's establishment until the application stops (netperf
 * -l). Every InterimInterval the client reports what the test moved in that interval, the
 * way flent's netperf_demo runner reads netperf's interim lines, and at the end the
 * throughput over the whole test (netperf's THROUGHPUT, flent's MEAN_VALUE).
 *
 * - TCP_STREAM sends SendSize-byte writes as fast as the send buffer takes them. Deviation
 *   from netperf: netperf counts the bytes its send() calls accepted; Linux autotunes the
 *   send buffer up from 16 KiB, so those bytes lag the ACKs by little. ns-3's send buffer has
 *   a fixed size (4 MiB with LinuxTcpDefaults), which would put the first 4 MiB into the
 *   first interval. The client therefore counts bytes that left the send buffer, i.e. bytes
 *   the receiver acknowledged.
 * - TCP_MAERTS counts the bytes the client read.
 * - TCP_RR sends a RequestSize-byte request, waits for the whole ResponseSize-byte response,
 *   and repeats; it counts transactions and traces each one's latency.
 *
 * With a HostCpu on the node (off by default) the client is a process on one of its cores
 * (AppCpu): it reads and writes once woken and scheduled, and its system calls take time.
 */
class NetperfClient : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NetperfClient();
    ~NetperfClient() override;

    /// @return the test this client runs
    NetperfTest GetTest() const;
    /// @return bytes the test moved: acknowledged (TCP_STREAM) or read (TCP_MAERTS, TCP_RR)
    uint64_t GetBytes() const;
    /// @return completed TCP_RR transactions
    uint64_t GetTransactions() const;
    /// @return time from the connection's establishment to the end of the test (or now)
    Time GetElapsed() const;
    /**
     * netperf's result: bit/s for the stream tests, transactions/s for TCP_RR, over the
     * elapsed time.
     * @return the throughput, 0 before the connection is established
     */
    double GetThroughput() const;
    /// @return the data connection's socket (null before the application starts): what
    /// `ss` reports on for flent's socket stats
    Ptr<Socket> GetSocket() const;

  private:
    /**
     * Forwards the socket's CongestionWindow trace.
     * @param oldValue the previous window
     * @param newValue the window, bytes
     */
    void ForwardCwnd(uint32_t oldValue, uint32_t newValue);
    /**
     * Forwards the socket's RTT trace.
     * @param oldValue the previous sample
     * @param newValue the sample
     */
    void ForwardRtt(Time oldValue, Time newValue);

  public:
    /**
     * TracedCallback signature for demo-mode interim results.
     * @param [in] amount bytes (stream tests) or transactions (TCP_RR) in the interval
     * @param [in] duration the interval's length
     */
    typedef void (*InterimTracedCallback)(uint64_t amount, Time duration);

    /**
     * TracedCallback signature for a completed transaction.
     * @param [in] latency from the request's first write to the response's last byte
     */
    typedef void (*TransactionTracedCallback)(Time latency);

  private:
    void StartApplication() override;
    void StopApplication() override;
    void DoDispose() override;

    /**
     * The connection is up: send the test request and start the test.
     * @param socket the socket
     */
    void Connected(Ptr<Socket> socket);
    /**
     * The connection failed.
     * @param socket the socket
     */
    void ConnectionFailed(Ptr<Socket> socket);
    /**
     * Writes what the test has to send while the send buffer has room.
     * @param socket the socket
     * @param available bytes free in the send buffer
     */
    void Send(Ptr<Socket> socket, uint32_t available);
    /**
     * Reads everything the socket holds.
     * @param socket the socket
     */
    void Receive(Ptr<Socket> socket);
    /**
     * The socket can be read or written: wakes the process (AppCpu), which then reads and
     * writes what it can.
     * @param socket the socket
     */
    void Ready(Ptr<Socket> socket);
    /**
     * The socket's send buffer has room (sk_write_space()).
     * @param socket the socket
     * @param available bytes free in the send buffer
     */
    void SendReady(Ptr<Socket> socket, uint32_t available);
    /// Starts the next TCP_RR request.
    void StartTransaction();
    /// Reports one demo-mode interval and schedules the next.
    void Interim();
    /// @return the test's progress counter: bytes, or transactions for TCP_RR
    uint64_t Progress() const;

    Ipv4Address m_remote;         ///< the server's address (netperf -H)
    uint16_t m_port;              ///< the server's port
    NetperfTest m_test;           ///< the test (netperf -t)
    uint32_t m_sendSize;          ///< bytes per send() call in TCP_STREAM (netperf -m)
    uint32_t m_requestSize;       ///< TCP_RR request bytes (netperf -r)
    uint32_t m_responseSize;      ///< TCP_RR response bytes (netperf -r)
    uint8_t m_tos;                ///< TOS byte of both directions (netperf -Y)
    Time m_interimInterval;       ///< demo-mode interval (netperf -D), 0 for none
    Ptr<Socket> m_socket;         ///< the data connection
    Ptr<Packet> m_request;        ///< the test request, until it goes out with the first data
    uint32_t m_sendBufferSize{0}; ///< the socket's SndBufSize, to count acknowledged bytes
    AppCpu m_appCpu;              ///< the process on the node's HostCpu, if any
    bool m_sendBlocked{false};    ///< the last Send() left data unwritten
    bool m_connected{false};      ///< the connection is established
    bool m_running{false};        ///< between StartApplication and StopApplication
    Time m_testStart;             ///< connection establishment
    Time m_testEnd;               ///< end of the test
    bool m_requestSent{false};    ///< the test request was handed to TCP
    uint64_t m_written{0};        ///< test bytes handed to TCP (the request excluded)
    uint64_t m_bytesAtStop{0};    ///< TCP_STREAM: GetBytes() when the socket closed
    uint64_t m_read{0};           ///< bytes read
    uint64_t m_toSend{0};         ///< TCP_RR: request bytes not yet handed to TCP
    uint64_t m_responseRead{0};   ///< TCP_RR: bytes of the current response read
    uint64_t m_transactions{0};   ///< completed TCP_RR transactions
    Time m_transactionStart;      ///< TCP_RR: when the current request started
    uint64_t m_lastProgress{0};   ///< Progress() at the last interim report
    Time m_lastInterim;           ///< time of the last interim report
    EventId m_interimEvent;       ///< next interim report
    TracedCallback<uint64_t, Time> m_interimTrace;  ///< demo-mode interim results
    TracedCallback<Time> m_transactionTrace;        ///< TCP_RR transaction latencies
    TracedCallback<uint32_t, uint32_t> m_cwndTrace; ///< the socket's CongestionWindow
    TracedCallback<Time, Time> m_rttTrace;          ///< the socket's RTT samples
};

} // namespace debloat
} // namespace ns3

#endif /* NETPERF_CLIENT_H */
