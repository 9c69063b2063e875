/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DEBLOAT_TEST_UTILS_H
#define DEBLOAT_TEST_UTILS_H

#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/traffic-control-module.h"

#include <functional>
#include <string>
#include <vector>

/**
 * @defgroup debloat-tests debloat module tests
 * @ingroup debloat
 * @ingroup tests
 */

namespace debloattest
{

/**
 * @ingroup debloat-tests
 * @brief What a body run in a child process did.
 */
struct ChildOutcome
{
    bool stopped{false}; ///< the child died of a signal or exited non-zero
    std::string output;  ///< what it wrote to stdout and stderr
};

/**
 * @ingroup debloat-tests
 * Runs body in a forked child process, so that a test can check that a bad configuration
 * stops the simulation with a message (NS_ABORT_MSG) without stopping the test runner.
 * @param body the code expected to stop
 * @return whether it stopped and what it printed
 */
ChildOutcome RunInChild(const std::function<void()>& body);

/**
 * @ingroup debloat-tests
 * @brief Two nodes joined by a NicNetDevice link, with the IP stack and a UDP flood.
 */
struct FloodedNicLink
{
    ns3::NodeContainer nodes;               ///< sender, receiver
    ns3::NetDeviceContainer devices;        ///< sender's device first
    ns3::Ipv4InterfaceContainer interfaces; ///< 10.0.0.1, 10.0.0.2
};

/**
 * @ingroup debloat-tests
 * Builds a NIC link on a profile, puts pfifo_fast (1000 packets) and optionally
 * ByteQueueLimits on the sender's egress, and starts at t = 0 a UDP flow of 1472-byte
 * datagrams (1500-byte IP packets) at 1.2 times the line rate to port 9 of the receiver.
 * @param profile the NicNetDevice profile
 * @param rate the line rate ("" keeps the profile's)
 * @param bql whether to install ByteQueueLimits
 * @return the link
 */
FloodedNicLink MakeFloodedNicLink(const std::string& profile, const std::string& rate, bool bql);

/**
 * @ingroup debloat-tests
 * The time a frame holds a NIC's wire, computed in the test from the device's settings as
 * IEEE 802.3 defines it: (max(length, MinFrameSize) + L1Overhead) bytes at DataRate, plus
 * PerFrameOverhead, to the nearest nanosecond.
 * @param device a NicNetDevice
 * @param length the frame without FCS
 * @return the wire time
 */
ns3::Time ExpectedWireTime(ns3::Ptr<ns3::NetDevice> device, uint32_t length);

/**
 * @ingroup debloat-tests
 * The TX descriptors a frame takes, computed in the test from the device's settings:
 * ceil(length / TxMaxDataPerDescriptor), plus one with TxContextDescriptor.
 * @param device a NicNetDevice
 * @param length the frame without FCS
 * @return the descriptors
 */
uint32_t ExpectedDescriptors(ns3::Ptr<ns3::NetDevice> device, uint32_t length);

/**
 * @ingroup debloat-tests
 * @brief Two nodes with the IP stack on an idle 10 Mbit/s PointToPoint link, 5 ms delay.
 */
struct IdleLink
{
    ns3::NodeContainer nodes;               ///< the two nodes
    ns3::Ipv4InterfaceContainer interfaces; ///< 10.0.0.1, 10.0.0.2
};

/**
 * @ingroup debloat-tests
 * Builds an idle link for measuring applications: serialisation 0.8 us per byte, 5 ms delay.
 * @return the link
 */
IdleLink MakeIdleLink();

/**
 * @ingroup debloat-tests
 * Sends frames from one device to another at once, below IP (protocol 0x0800, no headers).
 * @param from the sending device
 * @param to the receiving device
 * @param count frames
 * @param size payload bytes each (1500: a 1514-byte Ethernet frame)
 */
void SendFrames(ns3::Ptr<ns3::NetDevice> from,
                ns3::Ptr<ns3::NetDevice> to,
                uint32_t count,
                uint32_t size = 1500);

/**
 * @ingroup debloat-tests
 * A UDP/IPv4 queue disc item, as the IP layer hands it to a queue disc.
 * @param source source address
 * @param destination destination address
 * @param port source port (tells the flows of a host apart)
 * @param ipSize the IP packet's size in bytes (queue discs that follow Linux count 14
 *        more, the Ethernet header)
 * @param tos the TOS byte (DSCP << 2 | ECN)
 * @return the item
 */
ns3::Ptr<ns3::Ipv4QueueDiscItem> MakeUdpItem(const char* source,
                                             const char* destination,
                                             uint16_t port,
                                             uint32_t ipSize,
                                             uint8_t tos = 0);

/**
 * @ingroup debloat-tests
 * @brief A queue disc behind an always-ready device: it runs as the traffic control layer
 * runs it after each enqueue (and as its watchdog runs it), and every packet it lets go is
 * recorded with its time, so that the queue disc's own shaping is the only bottleneck.
 */
class QdiscRun
{
  public:
    /// One packet the queue disc sent.
    struct Sent
    {
        ns3::Time at;                      ///< when it left
        ns3::Ptr<ns3::QueueDiscItem> item; ///< the packet (its IP header added by Transmit)
        ns3::Time sojourn;                 ///< how long it was queued
    };

    /// @param qdisc an initialized queue disc
    explicit QdiscRun(ns3::Ptr<ns3::QueueDisc> qdisc);

    /**
     * Enqueues items at a time, all of them before the queue disc runs (as a burst reaches
     * it before the device asks for the next packet), then runs the queue disc.
     * @param at the time
     * @param items the items
     */
    void EnqueueAt(ns3::Time at, const std::vector<ns3::Ptr<ns3::QueueDiscItem>>& items);

    /**
     * Runs the simulation until a time.
     * @param stop the time
     */
    void RunUntil(ns3::Time stop);

    /// Disposes of the queue disc and the simulator.
    void Finish();

    /// @return what was sent, in order
    const std::vector<Sent>& GetSent() const;

    /**
     * @param sent a packet sent (UDP over IPv4)
     * @return its UDP source port
     */
    static uint16_t SourcePort(const Sent& sent);

  private:
    /**
     * Enqueues items, then runs the queue disc (a member function: ns-3.35's
     * Simulator::Schedule takes no lambdas).
     * @param items the items
     */
    void EnqueueNow(std::vector<ns3::Ptr<ns3::QueueDiscItem>> items);

    ns3::Ptr<ns3::QueueDisc> m_qdisc; ///< the queue disc
    std::vector<Sent> m_sent;         ///< what it sent
};

} // namespace debloattest

#endif /* DEBLOAT_TEST_UTILS_H */
