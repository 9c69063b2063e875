/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * Asymmetric access lines (NicTopologyHelper's home-50-1, docsis-100-20 and adsl-20-1
 * presets): each direction's goodput, derived from the line's framing and the SQM shaper.
 */

#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/flent-test-helper.h"
#include "ns3/flent-test.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/network-module.h"
#include "ns3/nic-topology-helper.h"

#include <map>
#include <string>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/**
 * Runs a flent test from the client to the server of an access preset.
 * @param preset the NicTopologyHelper preset
 * @param test the flent test (tcp_upload or tcp_download)
 * @param upQdisc the home router's WAN egress qdisc instead of the preset's (unless "-")
 * @param parameters the test's parameters
 * @return the test's goodput: netperf's THROUGHPUT, or iperf's received rate, Mbit/s
 */
double
Goodput(const std::string& preset,
        const std::string& test,
        const std::string& upQdisc = "-",
        const std::map<std::string, std::string>& parameters = {})
{
    LinuxTcpDefaults::Apply();
    NicTopologyHelper topology = NicTopologyHelper::Preset(preset);
    if (upQdisc != "-")
    {
        topology.RouterLink(0).left.qdisc = upQdisc;
    }
    topology.Install();
    FlentTestOptions options;
    options.length = 10;
    options.delay = 1;
    options.testParameters = parameters;
    FlentTestHelper flent(FlentTest::Get(test, options));
    flent.SetClient(topology.GetLeft(0), "client");
    flent.AddHost(topology.GetRight(0), topology.GetRightAddress(0));
    flent.SetProgress(false);
    flent.Install(Seconds(1));
    Simulator::Stop(flent.GetEnd() + Seconds(1));
    Simulator::Run();
    const RunRecord run = flent.Collect();
    Simulator::Destroy();
    Config::Reset();
    for (const Series& series : run.series)
    {
        if (series.runner == "NetperfDemoRunner" || series.runner == "IperfCsvRunner")
        {
            return std::get<double>(series.meta.at("MEAN_VALUE"));
        }
    }
    return 0;
}

/**
 * @ingroup debloat-tests
 * @brief ADSL 20/1 in ATM cells: each direction at its CAKE shaper's rate in cells.
 *
 * A 1500-byte IP packet (a full TCP segment, or a UDP datagram of 1472 bytes) plus PPPoE
 * over LLC/SNAP's 40 bytes is 1540, ceil(1540 / 48) = 33 cells of 53 bytes, 1749 bytes on
 * the line and in CAKE's pppoe-llcsnap accounting. Upload: a UDP flood (udp_flood, 2 Mbit/s
 * offered) keeps CAKE's 950 kbit/s on the WAN egress busy from the first datagram to the
 * last; the ICMP pings take 84 + 40 = 124 bytes, 3 cells, 159 bytes every 0.2 s (6.36
 * kbit/s) of it: (950 - 6.36) x 1472 / 1749 = 794.2 kbit/s received, to 0.2% (the ARP and
 * the drain's last datagram). Without the cells it would be 908 kbit/s. (A TCP upload at a
 * bandwidth-delay product of 4 segments idles the shaper after COBALT's drops, by an amount
 * that differs between ns-3's TCP versions: hence UDP.) Download: CAKE at 19 Mbit/s on
 * the LAN egress, at most
 * (19000 - 6.36) x 1448 / 1749 = 15.725 Mbit/s (the line's 20 Mbit/s carries
 * 20 x 1448 / 1749 = 16.56, so CAKE is the bottleneck); in ingress mode the packets
 * COBALT drops count against the shaper too, and slow start takes a few round trips:
 * 2.5% is allowed.
 */
class AdslTestCase : public TestCase
{
  public:
    AdslTestCase()
        : TestCase("adsl-20-1: each direction at its shaper's rate counted in ATM cells")
    {
    }

  private:
    void DoRun() override
    {
        const double up = Goodput("adsl-20-1",
                                  "udp_flood",
                                  "-",
                                  {{"udp_bandwidth", "2m"}, {"udp_pktsize", "1472"}});
        const double upExpected = (0.950 - 0.00636) * 1472 / 1749;
        NS_TEST_EXPECT_MSG_EQ_TOL(up, upExpected, 0.002 * upExpected, "upload, Mbit/s");
        const double down = Goodput("adsl-20-1", "tcp_download");
        const double downExpected = (19 - 0.00636) * 1448 / 1749;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(down, downExpected, "download, Mbit/s");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(down, downExpected * 0.975, "download, Mbit/s");
    }
};

/**
 * @ingroup debloat-tests
 * @brief Cable 50/1: the download is held by the upstream's ACKs unless CAKE filters them.
 *
 * With a FIFO on the home router's WAN egress (pfifo limit 2000: longer than the ACK queue
 * the sender's 4 MB send buffer can make, 4 MB at 32 Mbit/s being 1.04 s or 1450 ACKs, so
 * no ACK is dropped) every ACK crosses the 1 Mbit/s upstream: 52 + 14 = 66 bytes + 24 of
 * Ethernet's preamble, FCS and gap = 90 bytes, 720 us each, 1388.9 ACKs/s, each for two
 * segments (delayed ACKs): 1388.9 x 2 x 1448 x 8 = 32.18 Mbit/s of ACK clock. The data
 * delivered by the end is what the ACKs clocked plus the window's growth, which the send
 * buffer bounds: 4194304 x 8 bits over the 10 s, 3.36 Mbit/s more, 35.53 Mbit/s at most;
 * at least 95% of the ACK clock (slow start reaches it in well under a second). That is
 * below the download shaper's 47.5 Mbit/s x 1448 / (1500 + 38) = 44.72 Mbit/s. With the
 * preset's "cake ... ethernet ack-filter" the filter drops the ACKs a later one makes
 * redundant, and the download reaches the shaper: at most 44.72 Mbit/s, at least 98% of
 * it (slow start's round trips), above anything the ACK clock allows.
 */
class CableAckFilterTestCase : public TestCase
{
  public:
    CableAckFilterTestCase()
        : TestCase("home-50-1: ACKs on the 1 Mbit upstream clock the download at 32.18 Mbit "
                   "without CAKE's ack-filter, not with it")
    {
    }

  private:
    void DoRun() override
    {
        const double ackClock = 1e6 / (90 * 8) * 2 * 1448 * 8 / 1e6;
        const double ackLimit = ackClock + 4194304.0 * 8 / 10 / 1e6;
        const double fifo = Goodput("home-50-1", "tcp_download", "pfifo limit 2000");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(fifo, ackLimit, "FIFO upstream: ACK-clocked, Mbit/s");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(fifo, 0.95 * ackClock, "FIFO upstream: ACK-clocked");
        const double shaper = 47.5 * 1448 / (1500 + 38);
        const double filtered = Goodput("home-50-1", "tcp_download");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(filtered, shaper, "ack-filter: the shaper's rate");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(filtered, 0.98 * shaper, "ack-filter: the shaper's rate");
        NS_TEST_EXPECT_MSG_GT(filtered, ackLimit, "ack-filter: beyond the ACK clock");
    }
};

/**
 * @ingroup debloat-tests
 * @brief DOCSIS 100/20: each direction at 95% of its rate in DOCSIS framing.
 *
 * CAKE's docsis keyword counts 18 bytes on the IP packet (the frame without preamble and
 * gap, as the provisioned rate does): a segment is 1518 bytes. Upload at 19 Mbit/s:
 * 19 x 1448 / 1518 = 18.12 Mbit/s, the downstream carrying its ACKs; download at 95 Mbit/s
 * (ingress mode on the LAN egress): 90.62 Mbit/s, its ACKs (52 + 18 = 70 bytes, mpu 64, one
 * per two segments: 70 / 2 / 1518 of the upstream's 19 Mbit/s share, 2.2%) well within the
 * upstream. Slow start's round trips (from 10 segments to the path's 20 and 100, at about
 * 12 ms each) cost under 1% of the 10 s.
 */
class DocsisTestCase : public TestCase
{
  public:
    DocsisTestCase()
        : TestCase("docsis-100-20: each direction at its shaper's rate in DOCSIS framing")
    {
    }

  private:
    void DoRun() override
    {
        const double up = Goodput("docsis-100-20", "tcp_upload");
        const double upExpected = 19.0 * 1448 / 1518;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(up, upExpected, "upload, Mbit/s");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(up, 0.99 * upExpected, "upload, Mbit/s");
        const double down = Goodput("docsis-100-20", "tcp_download");
        const double downExpected = 95.0 * 1448 / 1518;
        NS_TEST_EXPECT_MSG_LT_OR_EQ(down, downExpected, "download, Mbit/s");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(down, 0.99 * downExpected, "download, Mbit/s");
    }
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-access-link suite.
 */
class AccessLinkTestSuite : public TestSuite
{
  public:
    AccessLinkTestSuite()
        : TestSuite("debloat-access-link", compat::SUITE_SYSTEM)
    {
        AddTestCase(new AdslTestCase(), compat::TEST_QUICK);
        AddTestCase(new CableAckFilterTestCase(), compat::TEST_QUICK);
        AddTestCase(new DocsisTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's instance.
AccessLinkTestSuite g_accessLinkTestSuite;

} // namespace
