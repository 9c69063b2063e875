/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * FlentTestHelper: what a flent test records on a known link, determinism, and the results
 * database round trip of a simulated run.
 */

#include "debloat-test-utils.h"

#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/flent-test-helper.h"
#include "ns3/flent-test.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/point-to-point-module.h"
#include "ns3/results-database.h"
#include "ns3/traffic-control-module.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/**
 * Runs a flent test without load for LENGTH 2 s from T0 = 1 s over MakeIdleLink()'s
 * 10 Mbit/s, 5 ms PointToPoint link.
 * @param test the flent test
 * @param parameters its test parameters
 * @return the run
 */
RunRecord
RunOnIdleLink(const std::string& test, const std::map<std::string, std::string>& parameters = {})
{
    const debloattest::IdleLink link = debloattest::MakeIdleLink();
    FlentTestOptions options;
    options.length = 2;
    options.delay = 1;
    options.testParameters = parameters;
    FlentTestHelper flent(FlentTest::Get(test, options));
    flent.SetClient(link.nodes.Get(0), "client");
    flent.AddHost(link.nodes.Get(1), link.interfaces.GetAddress(1));
    flent.SetProgress(false);
    flent.Install(Seconds(1));
    Simulator::Stop(flent.GetEnd() + Seconds(1));
    Simulator::Run();
    const RunRecord run = flent.Collect();
    Simulator::Destroy();
    return run;
}

/**
 * @ingroup debloat-tests
 * @brief flent's ping test on an idle link records the path's RTT in both probes.
 *
 * 10 Mbit/s PointToPoint, 5 ms (0.8 us per byte). ICMP echo: 56 + 8 + 20 = 84 bytes, 86 with
 * PPP, 68.8 us: RTT 2 * (5 ms + 68.8 us) = 10.1376 ms. irtt: 60 + 8 + 20 + 2 = 90 bytes,
 * 72 us each way. Both probes leave at the same instant, and the ICMP request (its flow comes
 * first in the test) is serialised first, so the UDP probe waits 68.8 us behind it: one-way
 * delays 5.1408 ms up and 5.072 ms down, RTT 10.2128 ms, IPDV 0 (the replies do not meet:
 * the ICMP reply is on the wire before the UDP probe reaches the server). LENGTH 2 s at
 * STEP_SIZE 0.2 s: 10 probes of each kind from T0 = 1 s, probe k sent at T0 + 0.2 k s.
 * Probe 0 of each kind waits for ARP, so the checks start at probe 1.
 */
class FlentPingTestCase : public TestCase
{
  public:
    FlentPingTestCase()
        : TestCase("ping test records the path RTT")
    {
    }

  private:
    void DoRun() override
    {
        const RunRecord run = RunOnIdleLink("ping");

        NS_TEST_ASSERT_MSG_EQ(run.series.size(), 2, "ICMP and UDP series");
        for (const Series& series : run.series)
        {
            const bool icmp = series.runner == "PingRunner";
            const double rtt = icmp ? 10.1376 : 10.2128;
            NS_TEST_ASSERT_MSG_EQ(series.samples.size(), 10, series.name);
            for (std::size_t k = 1; k < series.samples.size(); ++k)
            {
                const Sample& sample = series.samples[k];
                NS_TEST_EXPECT_MSG_EQ_TOL(sample.values[0], rtt, 1e-9, series.name << " " << k);
                NS_TEST_EXPECT_MSG_EQ(sample.values[1], k, "sequence");
                NS_TEST_EXPECT_MSG_EQ_TOL(sample.t, 0.2 * k + rtt / 1e3, 1e-9, "reply time");
                if (!icmp)
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(sample.values[2], 5.1408, 1e-9, "owd_up");
                    NS_TEST_EXPECT_MSG_EQ_TOL(sample.values[3], 5.072, 1e-9, "owd_down");
                    NS_TEST_EXPECT_MSG_EQ_TOL(sample.values[4], 0, 1e-9, "ipdv_up");
                    NS_TEST_EXPECT_MSG_EQ(std::isnan(sample.values[7]), true, "not lost");
                }
            }
        }
    }
};

/**
 * @ingroup debloat-tests
 * @brief flent's voip test: irtt's 172-byte probes every 20 ms for LENGTH.
 *
 * The idle link of FlentPingTestCase (10 Mbit/s PointToPoint, 5 ms, 0.8 us per byte). A
 * probe is 172 + 8 + 20 + 2 = 202 bytes, 161.6 us each way: RTT 2 x (5 ms + 161.6 us) =
 * 10.3232 ms, one-way 5.1616 ms, IPDV 0. LENGTH 2 s (TOTAL_LENGTH too) at 20 ms: 100
 * probes, k sent at T0 + 20 k ms and answered an RTT later; probe 0 waits for ARP, so the
 * checks start at probe 1. IrttRunner's counts: 100 sent, 100 received, loss 0.
 */
class FlentVoipTestCase : public TestCase
{
  public:
    FlentVoipTestCase()
        : TestCase("voip test: 172-byte probes every 20 ms")
    {
    }

  private:
    void DoRun() override
    {
        const RunRecord run = RunOnIdleLink("voip");

        NS_TEST_ASSERT_MSG_EQ(run.series.size(), 1, "the VoIP series");
        const Series& voip = run.series[0];
        NS_TEST_EXPECT_MSG_EQ(voip.name, "VoIP", "name");
        NS_TEST_ASSERT_MSG_EQ(voip.samples.size(), 100, "2 s at 20 ms");
        for (std::size_t k = 1; k < voip.samples.size(); ++k)
        {
            const Sample& sample = voip.samples[k];
            NS_TEST_EXPECT_MSG_EQ_TOL(sample.values[0], 10.3232, 1e-9, "RTT " << k);
            NS_TEST_EXPECT_MSG_EQ_TOL(sample.values[2], 5.1616, 1e-9, "owd_up " << k);
            NS_TEST_EXPECT_MSG_EQ_TOL(sample.t, 0.02 * k + 10.3232e-3, 1e-9, "reply time");
        }
        NS_TEST_EXPECT_MSG_EQ(std::get<int64_t>(voip.meta.at("PACKETS_SENT")), 100, "sent");
        NS_TEST_EXPECT_MSG_EQ(std::get<int64_t>(voip.meta.at("PACKETS_RECEIVED")), 100, "got");
    }
};

/**
 * @ingroup debloat-tests
 * @brief flent's udp_flood: iperf's sent rate every STEP_SIZE, the server's received rate.
 *
 * udp_bandwidth 20m, udp_pktsize 1470 over the idle link (10 Mbit/s PointToPoint): a
 * datagram every 1470 x 8 / 20e6 = 588 us, so a 0.2 s report holds 340 or 341 of them
 * (340.14 on average): 19.992 or 20.051 Mbit/s sent. The link carries 1470 + 8 + 20 + 2 =
 * 1500 bytes per datagram, 1.2 ms each, and stays busy from the first arrival to the last
 * (the queue drains after the flood stops): the server receives 1470 x 8 / 1.2 ms = 9.8
 * Mbit/s, less the ICMP pings' share of the link (86 bytes, 68.8 us every 0.2 s: 0.034%).
 * The flood runs LENGTH 2 s from DELAY 1 s: 10 reports.
 */
class FlentUdpFloodTestCase : public TestCase
{
  public:
    FlentUdpFloodTestCase()
        : TestCase("udp_flood test: iperf's sent and received rates")
    {
    }

  private:
    void DoRun() override
    {
        const RunRecord run =
            RunOnIdleLink("udp_flood", {{"udp_bandwidth", "20m"}, {"udp_pktsize", "1470"}});
        NS_TEST_ASSERT_MSG_EQ(run.series.size(), 2, "UDP upload and the ping");
        const Series& flood = run.series[0];
        NS_TEST_EXPECT_MSG_EQ(flood.name, "UDP upload", "name");
        NS_TEST_EXPECT_MSG_EQ(flood.runner, "IperfCsvRunner", "runner");
        NS_TEST_ASSERT_MSG_EQ(flood.samples.size(), 10, "2 s of 0.2 s reports");
        for (const Sample& sample : flood.samples)
        {
            const double datagrams = sample.values[0] * 1e6 * 0.2 / 8 / 1470;
            const bool either =
                std::fabs(datagrams - 340) < 1e-6 || std::fabs(datagrams - 341) < 1e-6;
            NS_TEST_EXPECT_MSG_EQ(either, true, "340 or 341 datagrams: " << datagrams);
        }
        const double received = std::get<double>(flood.meta.at("MEAN_VALUE"));
        NS_TEST_EXPECT_MSG_LT_OR_EQ(received, 9.8 + 1e-9, "received, Mbit/s");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(received, 9.8 * (1 - 0.000344) - 1e-9, "received, Mbit/s");
    }
};

/**
 * Runs tcp_upload (LENGTH 2 s, DELAY 1 s) over an e1000e link at 100 Mbit/s with
 * fq_codel and BQL on the client, whose NAPI soft-IRQ delays are random.
 * @return the run
 */
RunRecord
RunUpload()
{
    LinuxTcpDefaults::Apply();
    NodeContainer nodes;
    nodes.Create(2);
    NicHelper nic;
    nic.SetProfile("e1000e");
    nic.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    NetDeviceContainer devices = nic.Install(nodes);
    InternetStackHelper internet;
    internet.Install(nodes);
    // Fixed streams: without them ns-3 numbers streams in creation order across the whole
    // process, so a second run in the same process would draw other numbers.
    nic.AssignStreams(devices, 7);
    internet.AssignStreams(nodes, 100);
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::FqCoDelQueueDisc");
    tch.SetQueueLimits("ns3::debloat::ByteQueueLimits");
    tch.Install(devices);
    Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");
    const Ipv4InterfaceContainer interfaces = address.Assign(devices);

    FlentTestOptions options;
    options.length = 2;
    options.delay = 1;
    options.qdiscStats = {{"client", "eth0"}};
    FlentTestHelper flent(FlentTest::Get("tcp_upload", options));
    flent.SetClient(nodes.Get(0), "client");
    flent.AddHost(nodes.Get(1), interfaces.GetAddress(1));
    flent.AddQdiscStats(devices.Get(0));
    flent.SetProgress(false);
    flent.Install(Seconds(1));
    Simulator::Stop(flent.GetEnd() + Seconds(1));
    Simulator::Run();
    RunRecord run = flent.Collect();
    Simulator::Destroy();
    Config::Reset();
    return run;
}

/**
 * @param a a run
 * @param b another
 * @return the first difference in their series or metrics, "" when they are identical
 * (every number equal bit for bit, NaN matching NaN)
 */
std::string
Difference(const RunRecord& a, const RunRecord& b)
{
    auto same = [](double x, double y) { return (std::isnan(x) && std::isnan(y)) || x == y; };
    if (a.series.size() != b.series.size() || a.metrics.size() != b.metrics.size())
    {
        return "series or metric counts";
    }
    for (std::size_t i = 0; i < a.series.size(); ++i)
    {
        const Series& x = a.series[i];
        const Series& y = b.series[i];
        if (x.name != y.name || x.keys != y.keys || x.samples.size() != y.samples.size() ||
            x.meta != y.meta)
        {
            return x.name + ": name, keys, sample count or meta";
        }
        for (std::size_t k = 0; k < x.samples.size(); ++k)
        {
            if (!same(x.samples[k].t, y.samples[k].t) ||
                x.samples[k].values.size() != y.samples[k].values.size())
            {
                return x.name + ": sample " + std::to_string(k);
            }
            for (std::size_t v = 0; v < x.samples[k].values.size(); ++v)
            {
                if (!same(x.samples[k].values[v], y.samples[k].values[v]))
                {
                    return x.name + ": sample " + std::to_string(k) + " " + x.keys[v];
                }
            }
        }
    }
    for (std::size_t i = 0; i < a.metrics.size(); ++i)
    {
        if (a.metrics[i].scope != b.metrics[i].scope || a.metrics[i].name != b.metrics[i].name ||
            !same(a.metrics[i].value, b.metrics[i].value))
        {
            return "metric " + a.metrics[i].scope + " " + a.metrics[i].name;
        }
    }
    return "";
}

/**
 * @ingroup debloat-tests
 * @brief The same seed gives the same numbers, and the database gives them back.
 *
 * Two runs of the same configuration with the same seed, run number and streams must record
 * identical samples and metrics (all randomness goes through ns-3's streams), and a third
 * with another run number must not (so the runs do draw random numbers). Both go into
 * one results database; reading them back gives the recorded numbers bit for bit.
 */
class FlentDeterminismTestCase : public TestCase
{
  public:
    FlentDeterminismTestCase()
        : TestCase("Same seed, same numbers; the database gives them back")
    {
    }

  private:
    void DoRun() override
    {
        const RunRecord first = RunUpload();
        const RunRecord second = RunUpload();
        NS_TEST_ASSERT_MSG_EQ(first.series.size(), 3, "TCP upload, ICMP ping, qdisc stats");
        NS_TEST_EXPECT_MSG_GT(first.series[0].samples.size(), 5, "TCP upload samples");
        NS_TEST_EXPECT_MSG_EQ(Difference(first, second), "", "two runs with one seed");
        // The same streams under another run number draw other NAPI delays: the numbers
        // differ, so the equality above is the seed's doing, not a run without randomness.
        const uint64_t runNumber = RngSeedManager::GetRun();
        RngSeedManager::SetRun(runNumber + 1);
        const RunRecord other = RunUpload();
        RngSeedManager::SetRun(runNumber);
        NS_TEST_EXPECT_MSG_NE(Difference(first, other), "", "another RngRun, other numbers");

        char path[] = "/tmp/debloat-results-XXXXXX";
        const int fd = mkstemp(path);
        NS_TEST_ASSERT_MSG_NE(fd, -1, "temporary file");
        close(fd);
        std::remove(path);
        {
            ResultsDatabase db(path);
            const int64_t a = db.Write(first);
            const int64_t b = db.Write(second);
            NS_TEST_EXPECT_MSG_EQ(Difference(db.Read(a), first), "", "first run read back");
            NS_TEST_EXPECT_MSG_EQ(Difference(db.Read(b), second), "", "second run read back");
            NS_TEST_EXPECT_MSG_EQ(db.Read(a).seed, first.seed, "seed");
            NS_TEST_EXPECT_MSG_EQ(db.Read(a).ns3Version, first.ns3Version, "ns-3 version");
        }
        std::remove(path);
    }
};

/**
 * @ingroup debloat-tests
 * @brief flent's --socket-stats: the upload's cwnd and RTT every STEP_SIZE, as ss reports
 * them, inside what the path allows.
 *
 * tcp_upload, LENGTH 2 s, DELAY 1 s, STEP_SIZE 0.2 s, over PointToPoint 10 Mbit/s and 5 ms
 * with a 50-packet pfifo and a 1-packet device queue. A data frame is 1448 + 32 (TCP with
 * timestamps) + 20 (IP) + 2 (PPP) = 1502 bytes, 1.2016 ms; an ACK 52 + 2 = 54 bytes,
 * 43.2 us (SACK blocks add at most 18 us). Every RTT sample is at least 2 x 5 ms + 1.2016 +
 * 0.0432 = 11.2448 ms, and at most that plus 50 + 1 queued frames and one frame of delayed
 * ACK: 11.2448 + 52 x 1.2016 = 73.73 ms (+ 0.02 for SACK blocks); srtt and rttvar, smoothed
 * from samples in that range, stay in it (rttvar below its width). Slow start overflows the
 * pfifo, so some sample's srtt exceeds half the queue: 11.2448 + 25 x 1.2016 = 41.29 ms.
 * The socket's window and RTT are traced from its creation at DELAY; the first ACKs come
 * back within 12 ms, so every sample, k = 1 to LENGTH / STEP_SIZE = 10 steps after DELAY,
 * has them: 10 samples at exactly DELAY + k x STEP_SIZE. The ping series has none.
 */
class FlentSocketStatsTestCase : public TestCase
{
  public:
    FlentSocketStatsTestCase()
        : TestCase("--socket-stats: the upload's cwnd and RTT every STEP_SIZE, within the path")
    {
    }

  private:
    void DoRun() override
    {
        LinuxTcpDefaults::Apply();
        NodeContainer nodes;
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("5ms"));
        p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("1p"));
        NetDeviceContainer devices = p2p.Install(nodes);
        InternetStackHelper internet;
        internet.Install(nodes);
        TrafficControlHelper tch;
        tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("50p"));
        tch.Install(devices);
        Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");
        const Ipv4InterfaceContainer interfaces = address.Assign(devices);

        FlentTestOptions options;
        options.length = 2;
        options.delay = 1;
        FlentTestHelper flent(FlentTest::Get("tcp_upload", options));
        flent.SetClient(nodes.Get(0), "client");
        flent.AddHost(nodes.Get(1), interfaces.GetAddress(1));
        flent.SetProgress(false);
        flent.SetSocketStats(true);
        flent.Install(Seconds(1));
        Simulator::Stop(flent.GetEnd() + Seconds(1));
        Simulator::Run();
        const RunRecord run = flent.Collect();
        Simulator::Destroy();
        Config::Reset();

        NS_TEST_ASSERT_MSG_EQ(run.series.size(), 2, "TCP upload and ICMP ping");
        const Series& upload = run.series[0];
        NS_TEST_ASSERT_MSG_EQ(upload.name, "TCP upload", "the upload first");
        const std::vector<std::string> keys = {"val", "dur", "tcp_cwnd", "tcp_rtt", "tcp_rtt_var"};
        const bool sameKeys = upload.keys == keys;
        NS_TEST_ASSERT_MSG_EQ(sameKeys, true, "netperf's keys, then ss's");
        NS_TEST_EXPECT_MSG_EQ(run.series[1].keys.size(), 2, "the ping: val and seq only");
        const double frame = 1.2016;
        const double low = 11.2448;
        const double high = low + 52 * frame + 0.02;
        std::vector<const Sample*> ss;
        double prev = -1;
        for (const Sample& sample : upload.samples)
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(sample.t, prev, "time order");
            prev = sample.t;
            if (!std::isnan(sample.values[2]))
            {
                NS_TEST_EXPECT_MSG_EQ(std::isnan(sample.values[0]), true, "ss samples: no val");
                ss.push_back(&sample);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(ss.size(), 10, "k = 1 .. 10");
        double highest = 0;
        for (std::size_t i = 0; i < ss.size(); ++i)
        {
            const std::vector<double>& v = ss[i]->values;
            NS_TEST_EXPECT_MSG_EQ_TOL(ss[i]->t, 1 + 0.2 * (i + 1), 1e-9, "DELAY + k STEP");
            const bool whole = v[2] >= 1 && v[2] == std::floor(v[2]);
            NS_TEST_EXPECT_MSG_EQ(whole, true, "whole segments");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(v[3], low, "srtt above the path's RTT");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(v[3], high, "srtt below path + full queue");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(v[4], high - low, "rttvar within the range");
            highest = std::max(highest, v[3]);
        }
        NS_TEST_EXPECT_MSG_GT(highest, low + 25 * frame, "slow start fills the pfifo");
    }
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-flent-test-helper suite.
 */
class FlentTestHelperTestSuite : public TestSuite
{
  public:
    FlentTestHelperTestSuite()
        : TestSuite("debloat-flent-test-helper", compat::SUITE_SYSTEM)
    {
        AddTestCase(new FlentPingTestCase(), compat::TEST_QUICK);
        AddTestCase(new FlentDeterminismTestCase(), compat::TEST_QUICK);
        AddTestCase(new FlentSocketStatsTestCase(), compat::TEST_QUICK);
        AddTestCase(new FlentVoipTestCase(), compat::TEST_QUICK);
        AddTestCase(new FlentUdpFloodTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
FlentTestHelperTestSuite g_flentTestHelperTestSuite;

} // namespace
