/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef UDP_FLOOD_H
#define UDP_FLOOD_H

#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

/**
 * @file
 * @ingroup debloat-measurement
 * An iperf2-like UDP flood (iperf -u -b RATE -l SIZE), the load of flent's udp_flood test.
 */

namespace ns3
{

class Socket;

namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief The receiving end of a UDP flood (iperf -s -u): counts what arrives.
 */
class UdpFloodServer : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /// @return UDP payload bytes received
    uint64_t GetReceived() const;

    /**
     * iperf2's server report: the payload rate from the first datagram's arrival to the
     * last's (the queue that drains after the client stops counts, over the time it takes).
     * @return bit/s, 0 before two datagrams arrived
     */
    double GetReceiveRate() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /**
     * Reads what arrived.
     * @param socket the socket
     */
    void Receive(Ptr<Socket> socket);

    uint16_t m_port;          ///< UDP port
    Ptr<Socket> m_socket;     ///< listening socket
    uint64_t m_received{0};   ///< payload bytes received
    uint64_t m_firstBytes{0}; ///< the first datagram's payload bytes
    Time m_first;             ///< the first datagram's arrival
    Time m_last;              ///< the last one's
};

/**
 * @ingroup debloat-measurement
 * @brief The sending end of a UDP flood (iperf -u -c HOST -b RATE -l SIZE -i INTERVAL):
 * datagrams of Size payload bytes, one every Size x 8 / Rate (iperf2 paces its payload
 * rate so), and every InterimInterval the payload rate it sent in that interval (iperf's
 * -i report, what flent's iperf_csv runner plots).
 */
class UdpFloodClient : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /// @return UDP payload bytes sent
    uint64_t GetSent() const;

    /**
     * TracedCallback signature for the interval reports.
     * @param [in] bytes payload bytes sent in the interval
     * @param [in] duration the interval
     */
    typedef void (*InterimTracedCallback)(uint64_t bytes, Time duration);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    /// Sends one datagram and schedules the next.
    void Send();
    /// Reports the interval that ends now and schedules the next report.
    void Report();
    /// Reports the interval from the last report to now.
    void EmitReport();

    Ipv4Address m_remote;                          ///< the server
    uint16_t m_port;                               ///< its port
    DataRate m_rate;                               ///< payload rate (iperf -b)
    uint32_t m_size;                               ///< payload bytes per datagram (iperf -l)
    uint8_t m_tos;                                 ///< IP TOS byte
    Time m_interim;                                ///< report interval (iperf -i)
    Ptr<Socket> m_socket;                          ///< the socket
    EventId m_next;                                ///< the next datagram
    EventId m_report;                              ///< the next report
    uint64_t m_sent{0};                            ///< payload bytes sent
    uint64_t m_reported{0};                        ///< m_sent at the last report
    Time m_lastReport;                             ///< when it was
    TracedCallback<uint64_t, Time> m_interimTrace; ///< the interval reports
};

} // namespace debloat
} // namespace ns3

#endif /* UDP_FLOOD_H */
