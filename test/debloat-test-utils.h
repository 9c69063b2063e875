/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DEBLOAT_TEST_UTILS_H
#define DEBLOAT_TEST_UTILS_H

#include "ns3/internet-module.h"
#include "ns3/network-module.h"

#include <functional>
#include <string>

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

} // namespace debloattest

#endif /* DEBLOAT_TEST_UTILS_H */
