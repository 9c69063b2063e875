/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ICMP_PING_H
#define ICMP_PING_H

#include "ns3/application.h"
#include "ns3/event-id.h"
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
 * @brief ping(8) for IPv4: ICMP echo requests at a fixed interval, RTT of each reply.
 *
 * Works on every supported ns-3 release (ns-3's Ping exists only from 3.38, V4Ping only up
 * to 3.40). Like iputils ping, each request carries its send time in the first 8 bytes of
 * its payload (default 56 bytes, an 84-byte IP packet), so a reply needs no lookup. Replies
 * with another identifier are ignored, as ping ignores other processes' replies.
 */
class IcmpPing : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    IcmpPing();
    ~IcmpPing() override;

    /// @return echo requests sent
    uint32_t GetSent() const;
    /// @return echo replies received
    uint32_t GetReceived() const;

    /**
     * TracedCallback signature for a reply.
     * @param [in] sequence the echo sequence number
     * @param [in] rtt the round-trip time
     */
    typedef void (*RttTracedCallback)(uint16_t sequence, Time rtt);

  private:
    void StartApplication() override;
    void StopApplication() override;
    void DoDispose() override;

    /// Sends one echo request and schedules the next.
    void Send();
    /**
     * Handles replies.
     * @param socket the raw socket
     */
    void Receive(Ptr<Socket> socket);

    Ipv4Address m_remote;                      ///< destination
    Time m_interval;                           ///< time between requests (ping -i)
    uint32_t m_size;                           ///< payload bytes, at least 8 (ping -s)
    uint32_t m_count;                          ///< requests to send, 0 for no limit (ping -c)
    uint8_t m_tos;                             ///< IP TOS byte, DSCP << 2 (ping -Q)
    uint16_t m_identifier{0};                  ///< echo identifier (the process id)
    uint16_t m_sequence{0};                    ///< next sequence number
    uint32_t m_sent{0};                        ///< requests sent
    uint32_t m_received{0};                    ///< replies received
    Ptr<Socket> m_socket;                      ///< raw ICMP socket
    EventId m_next;                            ///< next request
    TracedCallback<uint16_t, Time> m_rttTrace; ///< RTT of each reply
};

} // namespace debloat
} // namespace ns3

#endif /* ICMP_PING_H */
