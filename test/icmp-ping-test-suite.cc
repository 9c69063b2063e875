/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * IcmpPing measures the path's round-trip time.
 */

#include "debloat-test-utils.h"

#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/icmp-ping.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/**
 * @ingroup debloat-tests
 * @brief On an idle link the ping RTT is the path's RTT.
 *
 * 10 Mbit/s PointToPoint with 5 ms propagation delay. A request is 20 (IPv4) + 8 (ICMP)
 * + 56 (payload) = 84 bytes, 86 with the PPP header: 86 * 8 / 10^7 s = 68.8 us on the wire,
 * and the reply is the same size. RTT = 2 * (68.8 us + 5 ms) = 10.1376 ms for each of the 5
 * requests sent 100 ms apart.
 */
class IcmpPingRttTestCase : public TestCase
{
  public:
    IcmpPingRttTestCase()
        : TestCase("Ping RTT equals the path's RTT")
    {
    }

  private:
    void DoRun() override
    {
        const debloattest::IdleLink link = debloattest::MakeIdleLink();
        const NodeContainer& nodes = link.nodes;
        const Ipv4InterfaceContainer& interfaces = link.interfaces;

        Ptr<IcmpPing> ping =
            CreateObjectWithAttributes<IcmpPing>("Remote",
                                                 Ipv4AddressValue(interfaces.GetAddress(1)),
                                                 "Interval",
                                                 TimeValue(MilliSeconds(100)),
                                                 "Count",
                                                 UintegerValue(5));
        nodes.Get(0)->AddApplication(ping);
        ping->SetStartTime(Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(
            ping->TraceConnectWithoutContext("Rtt", MakeCallback(&IcmpPingRttTestCase::Rtt, this)),
            true,
            "Rtt trace");
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(ping->GetSent(), 5, "requests");
        NS_TEST_EXPECT_MSG_EQ(ping->GetReceived(), 5, "replies");
        NS_TEST_ASSERT_MSG_EQ(m_rtts.size(), 5, "RTTs");
        for (uint16_t i = 0; i < 5; i++)
        {
            NS_TEST_EXPECT_MSG_EQ(m_rtts[i].first, i, "sequence");
            NS_TEST_EXPECT_MSG_EQ(m_rtts[i].second, NanoSeconds(10137600), "RTT " << i);
        }
        Simulator::Destroy();
    }

    /**
     * Records a reply.
     * @param sequence its sequence number
     * @param rtt its RTT
     */
    void Rtt(uint16_t sequence, Time rtt)
    {
        m_rtts.emplace_back(sequence, rtt);
    }

    std::vector<std::pair<uint16_t, Time>> m_rtts; ///< replies
};

/**
 * @ingroup debloat-tests
 * @brief A payload too small for the timestamp stops with a message.
 */
class IcmpPingBadConfigTestCase : public TestCase
{
  public:
    IcmpPingBadConfigTestCase()
        : TestCase("Invalid ping settings stop with a message")
    {
    }

  private:
    void DoRun() override
    {
        const auto outcome = debloattest::RunInChild([]() {
            Ptr<Node> node = CreateObject<Node>();
            InternetStackHelper internet;
            internet.Install(node);
            Ptr<IcmpPing> ping =
                CreateObjectWithAttributes<IcmpPing>("Remote",
                                                     Ipv4AddressValue(Ipv4Address("10.0.0.2")),
                                                     "Size",
                                                     UintegerValue(4));
            node->AddApplication(ping);
            Simulator::Run();
        });
        NS_TEST_EXPECT_MSG_EQ(outcome.stopped, true, "stops");
        NS_TEST_EXPECT_MSG_NE(outcome.output.find("IcmpPing: Size=4 is too small"),
                              std::string::npos,
                              outcome.output);
    }
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-icmp-ping suite.
 */
class IcmpPingTestSuite : public TestSuite
{
  public:
    IcmpPingTestSuite()
        : TestSuite("debloat-icmp-ping", compat::SUITE_UNIT)
    {
        AddTestCase(new IcmpPingRttTestCase(), compat::TEST_QUICK);
        AddTestCase(new IcmpPingBadConfigTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
IcmpPingTestSuite g_icmpPingTestSuite;

} // namespace
