/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * The irtt-like UDP probe's one-way delays add up to its RTT.
 */

#include "debloat-test-utils.h"

#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/internet-module.h"
#include "ns3/irtt-probe.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/**
 * @ingroup debloat-tests
 * @brief One-way delays, RTT and IPDV on an idle link.
 *
 * 10 Mbit/s PointToPoint with 5 ms delay. A 60-byte probe is an 88-byte IP packet (UDP 8,
 * IPv4 20), 90 bytes with PPP: 72 us on the wire. Each way takes 72 us + 5 ms = 5.072 ms,
 * the server answers at once, so RTT = 10.144 ms = send delay + receive delay, and the IPDV
 * of every reply is 0. Five probes, 100 ms apart, all answered.
 */
class IrttProbeDelayTestCase : public TestCase
{
  public:
    IrttProbeDelayTestCase()
        : TestCase("One-way delays add up to the RTT")
    {
    }

  private:
    /// One reply.
    struct Reply
    {
        uint32_t sequence; ///< probe number
        Time rtt;          ///< round-trip time
        Time send;         ///< client to server
        Time receive;      ///< server to client
        Time ipdv;         ///< RTT change
    };

    void DoRun() override
    {
        const debloattest::IdleLink link = debloattest::MakeIdleLink();
        const NodeContainer& nodes = link.nodes;
        const Ipv4InterfaceContainer& interfaces = link.interfaces;

        nodes.Get(1)->AddApplication(CreateObject<IrttServer>());
        Ptr<IrttClient> client =
            CreateObjectWithAttributes<IrttClient>("Remote",
                                                   Ipv4AddressValue(interfaces.GetAddress(1)),
                                                   "Interval",
                                                   TimeValue(MilliSeconds(100)),
                                                   "Count",
                                                   UintegerValue(5));
        nodes.Get(0)->AddApplication(client);
        client->SetStartTime(Seconds(1));
        NS_TEST_ASSERT_MSG_EQ(
            client->TraceConnectWithoutContext("Reply",
                                               MakeCallback(&IrttProbeDelayTestCase::Record, this)),
            true,
            "Reply trace");
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(client->GetSent(), 5, "probes");
        NS_TEST_EXPECT_MSG_EQ(client->GetReceived(), 5, "replies");
        NS_TEST_ASSERT_MSG_EQ(m_replies.size(), 5, "replies traced");
        for (uint32_t i = 0; i < 5; i++)
        {
            const Reply& r = m_replies[i];
            NS_TEST_EXPECT_MSG_EQ(r.sequence, i, "sequence");
            NS_TEST_EXPECT_MSG_EQ(r.send, MicroSeconds(5072), "send delay " << i);
            NS_TEST_EXPECT_MSG_EQ(r.receive, MicroSeconds(5072), "receive delay " << i);
            NS_TEST_EXPECT_MSG_EQ(r.rtt, MicroSeconds(10144), "RTT " << i);
            NS_TEST_EXPECT_MSG_EQ(r.ipdv, Seconds(0), "IPDV " << i);
        }
        Simulator::Destroy();
    }

    /**
     * Records a reply.
     * @param sequence probe number
     * @param rtt round-trip time
     * @param send client to server
     * @param receive server to client
     * @param ipdv RTT change
     */
    void Record(uint32_t sequence, Time rtt, Time send, Time receive, Time ipdv)
    {
        m_replies.push_back({sequence, rtt, send, receive, ipdv});
    }

    std::vector<Reply> m_replies; ///< replies
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-irtt-probe suite.
 */
class IrttProbeTestSuite : public TestSuite
{
  public:
    IrttProbeTestSuite()
        : TestSuite("debloat-irtt-probe", compat::SUITE_UNIT)
    {
        AddTestCase(new IrttProbeDelayTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
IrttProbeTestSuite g_irttProbeTestSuite;

} // namespace
