/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IRTT_PROBE_H
#define IRTT_PROBE_H

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/header.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class Socket;

namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief The timestamps an irtt-like probe carries: sequence, client send, server receive
 * and server send times (ns of simulation time, which both ends share).
 */
class IrttHeader : public Header
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint32_t sequence{0};     ///< probe number
    int64_t clientSend{0};    ///< when the client sent it, ns
    int64_t serverReceive{0}; ///< when the server received it, ns
    int64_t serverSend{0};    ///< when the server sent the reply, ns
};

/**
 * @ingroup debloat-measurement
 * @brief The server end of an irtt-like UDP probe: stamps each probe and sends it back.
 */
class IrttServer : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    IrttServer();
    ~IrttServer() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void DoDispose() override;
    /**
     * Echoes probes.
     * @param socket the socket
     */
    void Receive(Ptr<Socket> socket);

    uint16_t m_port;      ///< UDP port
    Ptr<Socket> m_socket; ///< listening socket
};

/**
 * @ingroup debloat-measurement
 * @brief The client end of an irtt-like UDP probe (irtt client -i INTERVAL -l LENGTH).
 *
 * Sends a probe every Interval; for each reply it reports the round-trip time, the one-way
 * send and receive delays (exact: both ends read the same simulation clock), and the IPDV
 * (the change in one-way delay from the previous reply, RFC 3393). Probes that never come
 * back are counted as lost when the application stops.
 */
class IrttClient : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    IrttClient();
    ~IrttClient() override;

    /// @return probes sent
    uint32_t GetSent() const;
    /// @return replies received
    uint32_t GetReceived() const;

    /**
     * TracedCallback signature for a reply.
     * @param [in] sequence the probe number
     * @param [in] rtt round-trip time, less the server's turnaround
     * @param [in] sendDelay client to server
     * @param [in] receiveDelay server to client
     * @param [in] ipdv change of the round-trip delay since the previous reply (zero first)
     */
    typedef void (*ReplyTracedCallback)(uint32_t sequence,
                                        Time rtt,
                                        Time sendDelay,
                                        Time receiveDelay,
                                        Time ipdv);

  private:
    void StartApplication() override;
    void StopApplication() override;
    void DoDispose() override;
    /// Sends a probe and schedules the next.
    void Send();
    /**
     * Handles replies.
     * @param socket the socket
     */
    void Receive(Ptr<Socket> socket);

    Ipv4Address m_remote;   ///< server address
    uint16_t m_port;        ///< server port
    Time m_interval;        ///< time between probes
    uint32_t m_size;        ///< UDP payload bytes
    uint32_t m_count;       ///< probes to send, 0 for no limit
    uint8_t m_tos;          ///< IP TOS byte (DSCP << 2)
    uint32_t m_sequence{0}; ///< next probe number
    uint32_t m_received{0}; ///< replies received
    bool m_haveLast{false}; ///< a reply was seen
    Time m_lastRtt;         ///< the previous reply's RTT
    Ptr<Socket> m_socket;   ///< the socket
    EventId m_next;         ///< next probe
    TracedCallback<uint32_t, Time, Time, Time, Time> m_replyTrace; ///< each reply
};

} // namespace debloat
} // namespace ns3

#endif /* IRTT_PROBE_H */
