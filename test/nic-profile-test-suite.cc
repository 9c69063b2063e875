/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * Driver profiles under load: with BQL every profile keeps its link busy, so goodput at line
 * rate with BQL is within 1% of goodput without it, at 100 Mbit/s and 1 Gbit/s, and ixgbe's
 * at its 10 Gbit/s too.
 */

#include "debloat-test-utils.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/nic-net-device.h"
#include "ns3/nic-profile.h"
#include "ns3/traffic-control-module.h"

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/**
 * Reads a sink's received bytes.
 * @param sink the sink
 * @param bytes where to store them
 */
void
ReadRx(Ptr<PacketSink> sink, uint64_t* bytes)
{
    *bytes = sink->GetTotalRx();
}

/**
 * @ingroup debloat-tests
 * @brief Saturating UDP goodput on one profile, with and without BQL.
 *
 * A UDP flow of 1472-byte datagrams at 1.2 times the line rate goes through pfifo_fast
 * (1000 packets). Each datagram is a 1500-byte IP packet in a 1514-byte frame holding the
 * wire for 1538 bytes (Ethernet; the iwl3945 profile: 1514 bytes plus 2.083 ms of airtime,
 * the ideal profile: 1514 bytes), so the wire carries 1472 payload bytes per frame time W.
 * Counted in whole datagrams over [0.2 s, 0.7 s], goodput without BQL must be 1472 * 8 / W
 * within 0.5% plus one datagram in 0.5 s (W / 0.5 s: 0.86% for the slow iwl3945) because the
 * wire never idles; with BQL at its defaults it must be within 1% of that.
 */
class NicProfileGoodputTestCase : public TestCase
{
  public:
    /**
     * @param profile the profile name
     * @param rate the line rate ("" keeps the profile's)
     */
    NicProfileGoodputTestCase(const std::string& profile, const std::string& rate)
        : TestCase("Goodput with BQL within 1% of without: " + profile + " " + rate),
          m_profile(profile),
          m_rate(rate)
    {
    }

  private:
    /**
     * Runs the flow.
     * @param bql whether BQL is installed
     * @return goodput, bit/s
     */
    double Goodput(bool bql)
    {
        const debloattest::FloodedNicLink link =
            debloattest::MakeFloodedNicLink(m_profile, m_rate, bql);
        Ptr<NicNetDevice> tx = DynamicCast<NicNetDevice>(link.devices.Get(0));
        PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), 9));
        Ptr<PacketSink> sink =
            DynamicCast<PacketSink>(sinkHelper.Install(link.nodes.Get(1)).Get(0));
        uint64_t at200 = 0;
        uint64_t at700 = 0;
        Simulator::Schedule(MilliSeconds(200), &ReadRx, sink, &at200);
        Simulator::Schedule(MilliSeconds(700), &ReadRx, sink, &at700);
        Simulator::Stop(MilliSeconds(700));
        Simulator::Run();
        m_wireTime = debloattest::ExpectedWireTime(tx, 1514).GetSeconds();
        Simulator::Destroy();
        return static_cast<double>(at700 - at200) * 8 / 0.5;
    }

    void DoRun() override
    {
        const double without = Goodput(false);
        // 1472 payload bytes per frame time.
        const double expected = 1472 * 8 / m_wireTime;
        const double oneDatagram = m_wireTime / 0.5;
        NS_TEST_EXPECT_MSG_EQ_TOL(without / expected,
                                  1.0,
                                  0.005 + oneDatagram,
                                  "line-rate goodput without BQL");
        const double with = Goodput(true);
        NS_TEST_EXPECT_MSG_EQ_TOL(with / without, 1.0, 0.01, "goodput with BQL");
    }

    std::string m_profile; ///< profile name
    std::string m_rate;    ///< line rate, or empty
    double m_lineRate{0};  ///< line rate, bit/s
    double m_wireTime{0};  ///< wire time of a 1514-byte frame, s
};

/**
 * @ingroup debloat-tests
 * @brief An unknown profile name stops with the list of names.
 */
class NicProfileUnknownTestCase : public TestCase
{
  public:
    NicProfileUnknownTestCase()
        : TestCase("An unknown profile stops with the accepted names")
    {
    }

  private:
    void DoRun() override
    {
        const auto outcome = debloattest::RunInChild([]() {
            NicHelper helper;
            helper.SetProfile("e1000");
        });
        NS_TEST_EXPECT_MSG_EQ(outcome.stopped, true, "stops");
        NS_TEST_EXPECT_MSG_NE(outcome.output.find("unknown profile 'e1000'; accepted: e1000e, "
                                                  "igb, ixgbe, mvneta, forcedeth, ag71xx, "
                                                  "ag71xx-ar7100, iwl3945, ideal"),
                              std::string::npos,
                              outcome.output);
    }
};

/**
 * @ingroup debloat-tests
 * @brief A default the user changed wins over the profile; a bad one stops with its name.
 */
class NicProfileUserDefaultTestCase : public TestCase
{
  public:
    NicProfileUserDefaultTestCase()
        : TestCase("A user's attribute default wins over the profile and is checked")
    {
    }

  private:
    /// @return the first device's TxRingSize after SetProfile("e1000e") and Install
    static uint64_t InstalledRing()
    {
        NodeContainer nodes(2);
        NicHelper helper;
        helper.SetProfile("e1000e");
        NetDeviceContainer devices = helper.Install(nodes);
        UintegerValue ring;
        devices.Get(0)->GetAttribute("TxRingSize", ring);
        return ring.Get();
    }

    void DoRun() override
    {
        // e1000e's profile: 256 descriptors (E1000_DEFAULT_TXD).
        NS_TEST_EXPECT_MSG_EQ(InstalledRing(), 256, "the profile's ring");
        Config::SetDefault("ns3::debloat::NicNetDevice::TxRingSize", UintegerValue(512));
        NS_TEST_EXPECT_MSG_EQ(InstalledRing(), 512, "the user's default ring");
        Config::Reset();
        Simulator::Destroy();
        const auto outcome = debloattest::RunInChild([]() {
            Config::SetDefault("ns3::debloat::NicNetDevice::TxQueues", UintegerValue(0));
            InstalledRing();
        });
        NS_TEST_EXPECT_MSG_EQ(outcome.stopped, true, "stops");
        NS_TEST_EXPECT_MSG_NE(outcome.output.find("TxQueues=0 is out of range; accepted 1 to 64"),
                              std::string::npos,
                              outcome.output);
    }
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-nic-profiles suite.
 */
class NicProfileTestSuite : public TestSuite
{
  public:
    NicProfileTestSuite()
        : TestSuite("debloat-nic-profiles", compat::SUITE_SYSTEM)
    {
        AddTestCase(new NicProfileUnknownTestCase(), compat::TEST_QUICK);
        AddTestCase(new NicProfileUserDefaultTestCase(), compat::TEST_QUICK);
        for (const NicProfile& profile : NicProfile::GetAll())
        {
            if (profile.name == "iwl3945")
            {
                AddTestCase(new NicProfileGoodputTestCase(profile.name, ""), compat::TEST_QUICK);
                continue;
            }
            for (const std::string rate : {"100Mbps", "1Gbps"})
            {
                AddTestCase(new NicProfileGoodputTestCase(profile.name, rate), compat::TEST_QUICK);
            }
            if (profile.name == "ixgbe")
            {
                // Its own speed: 10 Gbit/s, 1.2304 us per frame.
                AddTestCase(new NicProfileGoodputTestCase(profile.name, ""), compat::TEST_QUICK);
            }
        }
    }
};

/// The suite's single instance.
NicProfileTestSuite g_nicProfileTestSuite;

} // namespace
