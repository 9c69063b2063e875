/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for FlentTest: the series of each test, their markings and timings,
 * written down from flent 2.1.1's own definitions (flent/tests/<test>.conf), not from the code:
 *   - every TCP flow has 'delay': DELAY and 'length': LENGTH, every ping 'length':
 *     TOTAL_LENGTH, and netperf_definitions.inc sets TOTAL_LENGTH = LENGTH + 2 * DELAY;
 *     ping.conf sets TOTAL_LENGTH = LENGTH and runs both pings for LENGTH;
 *   - a marking 'X,X' is the TOS byte of X in flent's MARKING_MAP: CS0 0x00, CS1 0x20,
 *     CS5 0xa0, EF 0xb8; a series without 'marking' sends 0x00.
 */

#include "ns3/flent-test.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{

using namespace ns3::debloat;

/// A flow as the test expects it; start and length in seconds.
struct Expected
{
    const char* series; ///< flent series name
    FlowKind kind;      ///< what the flow does
    uint8_t tos;        ///< TOS byte
    uint32_t host;      ///< index into HOSTS
    double start;       ///< seconds after T0
    double length;      ///< seconds
};

/// Checks the flows of a spec, in order, against the expected ones.
void
ExpectFlows(const FlentTestSpec& spec, const std::vector<Expected>& expected)
{
    ASSERT_EQ(spec.flows.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i)
    {
        const FlowSpec& flow = spec.flows[i];
        SCOPED_TRACE(expected[i].series);
        EXPECT_EQ(flow.series, expected[i].series);
        EXPECT_EQ(flow.kind, expected[i].kind);
        EXPECT_EQ(flow.tos, expected[i].tos);
        EXPECT_EQ(flow.host, expected[i].host);
        EXPECT_DOUBLE_EQ(flow.start, expected[i].start);
        EXPECT_DOUBLE_EQ(flow.length, expected[i].length);
        const bool tcp = flow.kind == FlowKind::TCP_STREAM || flow.kind == FlowKind::TCP_MAERTS;
        // runners.py class names: netperf_demo -> NetperfDemoRunner, ping -> PingRunner, and
        // udp_rtt delegates to IrttRunner, whose metadata (RUNNER) the series carries.
        EXPECT_EQ(flow.runner,
                  tcp                                ? "NetperfDemoRunner"
                  : flow.kind == FlowKind::ICMP_PING ? "PingRunner"
                                                     : "IrttRunner");
        EXPECT_EQ(flow.units, tcp ? "Mbits/s" : "ms");
    }
}

/// Checks that f throws std::invalid_argument whose message contains each of words.
template <typename F>
void
ExpectInvalid(F f, const std::vector<std::string>& words)
{
    try
    {
        f();
        ADD_FAILURE() << "no exception; expected one naming " << words.front();
    }
    catch (const std::invalid_argument& e)
    {
        for (const auto& word : words)
        {
            EXPECT_NE(std::string(e.what()).find(word), std::string::npos)
                << "\"" << e.what() << "\" lacks \"" << word << "\"";
        }
    }
}

TEST(FlentTestTest, NamesAreTheSupportedTests)
{
    // The flent 2.1.1 tests whose flows are netperf TCP streams, ICMP pings and irtt probes.
    EXPECT_EQ(FlentTest::Names(),
              (std::vector<std::string>{"rrul",
                                        "rrul_be",
                                        "rrul_cs8",
                                        "rrul_noclassification",
                                        "rrul_up",
                                        "rrul_50_down",
                                        "rrul_50_up",
                                        "rrul_100_up",
                                        "tcp_upload",
                                        "tcp_download",
                                        "tcp_bidirectional",
                                        "tcp_1up",
                                        "tcp_1down",
                                        "tcp_nup",
                                        "tcp_ndown",
                                        "tcp_2up",
                                        "tcp_4up",
                                        "tcp_6up",
                                        "tcp_8up",
                                        "tcp_12up",
                                        "tcp_2down",
                                        "tcp_4down",
                                        "tcp_6down",
                                        "tcp_8down",
                                        "tcp_12down",
                                        "ping",
                                        "voip",
                                        "udp_flood",
                                        "rtt_fair",
                                        "rtt_fair4be",
                                        "rtt_fair_up",
                                        "rtt_fair6be",
                                        "rtt_fair_var",
                                        "rtt_fair_var_up",
                                        "rtt_fair_var_down"}));
}

TEST(FlentTestTest, RrulMarksFourClassesEachWay)
{
    // rrul.conf with flent's defaults: TCP flows from DELAY 5 for LENGTH 60; pings from 0 for
    // TOTAL_LENGTH = 60 + 2 * 5 = 70. 'Ping (ms) UDP BE' has no marking.
    const auto spec = FlentTest::Get("rrul", FlentTestOptions{});
    EXPECT_EQ(spec.name, "rrul");
    EXPECT_DOUBLE_EQ(spec.length, 60);
    EXPECT_DOUBLE_EQ(spec.totalLength, 70);
    EXPECT_DOUBLE_EQ(spec.stepSize, 0.2);
    EXPECT_DOUBLE_EQ(spec.delay, 5);
    EXPECT_EQ(spec.hosts, std::vector<std::string>{"server"});
    EXPECT_TRUE(spec.testParameters.empty());
    const auto up = FlowKind::TCP_STREAM;
    const auto down = FlowKind::TCP_MAERTS;
    ExpectFlows(spec,
                {{"TCP upload BE", up, 0x00, 0, 5, 60},
                 {"TCP upload BK", up, 0x20, 0, 5, 60},
                 {"TCP upload CS5", up, 0xa0, 0, 5, 60},
                 {"TCP upload EF", up, 0xb8, 0, 5, 60},
                 {"TCP download BE", down, 0x00, 0, 5, 60},
                 {"TCP download BK", down, 0x20, 0, 5, 60},
                 {"TCP download CS5", down, 0xa0, 0, 5, 60},
                 {"TCP download EF", down, 0xb8, 0, 5, 60},
                 {"Ping (ms) UDP EF", FlowKind::UDP_RTT, 0xb8, 0, 0, 70},
                 {"Ping (ms) UDP BK", FlowKind::UDP_RTT, 0x20, 0, 0, 70},
                 {"Ping (ms) UDP BE", FlowKind::UDP_RTT, 0x00, 0, 0, 70},
                 {"Ping (ms) ICMP", FlowKind::ICMP_PING, 0x00, 0, 0, 70}});
    EXPECT_EQ(spec.computedSeries,
              (std::vector<std::string>{"TCP upload avg",
                                        "TCP upload sum",
                                        "TCP download avg",
                                        "TCP download sum",
                                        "TCP totals",
                                        "Ping (ms) avg"}));
    EXPECT_EQ(spec.defaultPlot, "all_scaled");
    EXPECT_EQ(spec.plots, (std::vector<std::string>{"all_scaled", "totals", "ping_cdf"}));
    EXPECT_TRUE(spec.qdiscSeries.empty());
}

TEST(FlentTestTest, RrulBeIsAllBestEffort)
{
    // rrul_be.conf: every flow 'CS0,CS0'; three UDP pings BE1..BE3; same computed series.
    // LENGTH 30, DELAY 2: TCP from 2 for 30, pings for 30 + 2 * 2 = 34.
    FlentTestOptions options;
    options.length = 30;
    options.delay = 2;
    const auto spec = FlentTest::Get("rrul_be", options);
    EXPECT_DOUBLE_EQ(spec.totalLength, 34);
    const auto up = FlowKind::TCP_STREAM;
    const auto down = FlowKind::TCP_MAERTS;
    ExpectFlows(spec,
                {{"TCP upload BE", up, 0, 0, 2, 30},
                 {"TCP upload BE2", up, 0, 0, 2, 30},
                 {"TCP upload BE3", up, 0, 0, 2, 30},
                 {"TCP upload BE4", up, 0, 0, 2, 30},
                 {"TCP download BE", down, 0, 0, 2, 30},
                 {"TCP download BE2", down, 0, 0, 2, 30},
                 {"TCP download BE3", down, 0, 0, 2, 30},
                 {"TCP download BE4", down, 0, 0, 2, 30},
                 {"Ping (ms) UDP BE1", FlowKind::UDP_RTT, 0, 0, 0, 34},
                 {"Ping (ms) UDP BE2", FlowKind::UDP_RTT, 0, 0, 0, 34},
                 {"Ping (ms) UDP BE3", FlowKind::UDP_RTT, 0, 0, 0, 34},
                 {"Ping (ms) ICMP", FlowKind::ICMP_PING, 0, 0, 0, 34}});
    EXPECT_EQ(spec.computedSeries.size(), 6U);
    EXPECT_EQ(spec.defaultPlot, "all_scaled");
}

TEST(FlentTestTest, TcpUploadAndDownloadAreOneFlowAndAPing)
{
    // tcp_upload.conf and tcp_download.conf delete one direction of tcp_bidirectional.conf
    // (unmarked flows); no computed series; DEFAULTS PLOT 'totals'.
    const auto upload = FlentTest::Get("tcp_upload", FlentTestOptions{});
    ExpectFlows(upload,
                {{"TCP upload", FlowKind::TCP_STREAM, 0, 0, 5, 60},
                 {"Ping (ms) ICMP", FlowKind::ICMP_PING, 0, 0, 0, 70}});
    EXPECT_TRUE(upload.computedSeries.empty());
    EXPECT_EQ(upload.defaultPlot, "totals");
    EXPECT_EQ(upload.plots, (std::vector<std::string>{"totals", "ping_cdf"}));

    const auto download = FlentTest::Get("tcp_download", FlentTestOptions{});
    ExpectFlows(download,
                {{"TCP download", FlowKind::TCP_MAERTS, 0, 0, 5, 60},
                 {"Ping (ms) ICMP", FlowKind::ICMP_PING, 0, 0, 0, 70}});
    EXPECT_TRUE(download.computedSeries.empty());
}

TEST(FlentTestTest, TcpNupNamesStreamsAndSetsTheirCount)
{
    // tcp_nup.conf: STREAMS = upload_streams; streams 'TCP upload::1'..'::N' (i + 1), CS0;
    // the ping comes first in DATA_SETS. tcp_ndown.conf mirrors it with download_streams.
    FlentTestOptions options;
    options.streams = 3;
    const auto nup = FlentTest::Get("tcp_nup", options);
    ExpectFlows(nup,
                {{"Ping (ms) ICMP", FlowKind::ICMP_PING, 0, 0, 0, 70},
                 {"TCP upload::1", FlowKind::TCP_STREAM, 0, 0, 5, 60},
                 {"TCP upload::2", FlowKind::TCP_STREAM, 0, 0, 5, 60},
                 {"TCP upload::3", FlowKind::TCP_STREAM, 0, 0, 5, 60}});
    EXPECT_EQ(nup.testParameters, (std::map<std::string, std::string>{{"upload_streams", "3"}}));
    EXPECT_EQ(nup.computedSeries, (std::vector<std::string>{"TCP upload avg", "TCP upload sum"}));
    EXPECT_EQ(nup.defaultPlot, "totals");

    options.streams = 1;
    const auto ndown = FlentTest::Get("tcp_ndown", options);
    ExpectFlows(ndown,
                {{"Ping (ms) ICMP", FlowKind::ICMP_PING, 0, 0, 0, 70},
                 {"TCP download::1", FlowKind::TCP_MAERTS, 0, 0, 5, 60}});
    EXPECT_EQ(ndown.testParameters,
              (std::map<std::string, std::string>{{"download_streams", "1"}}));
    EXPECT_EQ(ndown.computedSeries,
              (std::vector<std::string>{"TCP download avg", "TCP download sum"}));
}

TEST(FlentTestTest, PingRunsBothProbesForLength)
{
    // ping.conf: TOTAL_LENGTH = LENGTH; both pings 'length': LENGTH from 0; plot 'ping'.
    FlentTestOptions options;
    options.length = 10;
    const auto spec = FlentTest::Get("ping", options);
    EXPECT_DOUBLE_EQ(spec.totalLength, 10);
    ExpectFlows(spec,
                {{"Ping (ms) ICMP", FlowKind::ICMP_PING, 0, 0, 0, 10},
                 {"Ping (ms) UDP", FlowKind::UDP_RTT, 0, 0, 0, 10}});
    EXPECT_TRUE(spec.computedSeries.empty());
    EXPECT_EQ(spec.defaultPlot, "ping");
    EXPECT_EQ(spec.plots, (std::vector<std::string>{"ping", "ping_cdf"}));
}

TEST(FlentTestTest, VoipIsOneIrttStreamForLength)
{
    // voip.conf: TOTAL_LENGTH = LENGTH; 'VoIP' (runner voip, an IrttRunner) for LENGTH from
    // 0, marked with voip_marking (EF: 0xb8); flent computes VoIP::induced_delay; plot
    // voip_delay.
    FlentTestOptions options;
    options.length = 10;
    options.testParameters = {{"voip_marking", "EF"}};
    const auto spec = FlentTest::Get("voip", options);
    EXPECT_DOUBLE_EQ(spec.totalLength, 10);
    ASSERT_EQ(spec.flows.size(), 1U);
    EXPECT_EQ(spec.flows[0].series, "VoIP");
    EXPECT_EQ(spec.flows[0].kind, FlowKind::VOIP);
    EXPECT_EQ(spec.flows[0].tos, 0xb8);
    EXPECT_EQ(spec.flows[0].runner, "IrttRunner");
    EXPECT_DOUBLE_EQ(spec.flows[0].start, 0);
    EXPECT_DOUBLE_EQ(spec.flows[0].length, 10);
    EXPECT_EQ(spec.computedSeries, (std::vector<std::string>{"VoIP::induced_delay"}));
    EXPECT_EQ(spec.defaultPlot, "voip_delay");
}

TEST(FlentTestTest, UdpFloodReadsIperfsBandwidthAndSize)
{
    // udp_flood.conf: 'UDP upload' (iperf_csv, from DELAY for LENGTH) and 'Ping (ms) ICMP';
    // iperf's defaults -b 1 Mbit/s and -l 1470. byte_atof(): k, m, g are powers of 1000,
    // K, M, G of 1024: "10m" is 1e7 bit/s, "2M" 2 x 1048576.
    const auto plain = FlentTest::Get("udp_flood", FlentTestOptions{});
    ASSERT_EQ(plain.flows.size(), 2U);
    EXPECT_EQ(plain.flows[0].series, "UDP upload");
    EXPECT_EQ(plain.flows[0].kind, FlowKind::UDP_FLOOD);
    EXPECT_EQ(plain.flows[0].runner, "IperfCsvRunner");
    EXPECT_DOUBLE_EQ(plain.flows[0].start, 5);
    EXPECT_DOUBLE_EQ(plain.flows[0].length, 60);
    EXPECT_DOUBLE_EQ(plain.flows[0].udpRate, 1e6);
    EXPECT_EQ(plain.flows[0].udpSize, 1470U);
    EXPECT_EQ(plain.flows[1].series, "Ping (ms) ICMP");
    FlentTestOptions options;
    options.testParameters = {{"udp_bandwidth", "10m"}, {"udp_pktsize", "500"}};
    EXPECT_DOUBLE_EQ(FlentTest::Get("udp_flood", options).flows[0].udpRate, 1e7);
    EXPECT_EQ(FlentTest::Get("udp_flood", options).flows[0].udpSize, 500U);
    options.testParameters = {{"udp_bandwidth", "2M"}};
    EXPECT_DOUBLE_EQ(FlentTest::Get("udp_flood", options).flows[0].udpRate, 2 * 1048576.0);
    options.testParameters = {{"udp_bandwidth", "fast"}};
    ExpectInvalid([&] { FlentTest::Get("udp_flood", options); }, {"udp_bandwidth", "\"fast\""});
    options.testParameters = {{"udp_pktsize", "70000"}};
    ExpectInvalid([&] { FlentTest::Get("udp_flood", options); }, {"udp_pktsize", "1 to 65507"});
}

TEST(FlentTestTest, RttFairNamesFlowsAfterLabelAndHost)
{
    // rtt_fair.conf: markings CS0,CS0,CS1,CS1, labels BE1,BE2,BK1,BK2, ping_labels ICMP1..4;
    // rtt_fair.inc adds per host 'TCP upload <label> <host>', 'TCP download <label> <host>'
    // and 'Ping (ms) <ping_label> <host>' (unmarked), after the computed series.
    FlentTestOptions options;
    options.hosts = {"a", "b", "c", "d"};
    const auto spec = FlentTest::Get("rtt_fair", options);
    const auto up = FlowKind::TCP_STREAM;
    const auto down = FlowKind::TCP_MAERTS;
    const auto icmp = FlowKind::ICMP_PING;
    ExpectFlows(spec,
                {{"TCP upload BE1 a", up, 0x00, 0, 5, 60},
                 {"TCP download BE1 a", down, 0x00, 0, 5, 60},
                 {"Ping (ms) ICMP1 a", icmp, 0x00, 0, 0, 70},
                 {"TCP upload BE2 b", up, 0x00, 1, 5, 60},
                 {"TCP download BE2 b", down, 0x00, 1, 5, 60},
                 {"Ping (ms) ICMP2 b", icmp, 0x00, 1, 0, 70},
                 {"TCP upload BK1 c", up, 0x20, 2, 5, 60},
                 {"TCP download BK1 c", down, 0x20, 2, 5, 60},
                 {"Ping (ms) ICMP3 c", icmp, 0x00, 2, 0, 70},
                 {"TCP upload BK2 d", up, 0x20, 3, 5, 60},
                 {"TCP download BK2 d", down, 0x20, 3, 5, 60},
                 {"Ping (ms) ICMP4 d", icmp, 0x00, 3, 0, 70}});
    EXPECT_EQ(spec.computedSeries,
              (std::vector<std::string>{"TCP upload avg",
                                        "TCP upload sum",
                                        "TCP upload fairness",
                                        "TCP download avg",
                                        "TCP download sum",
                                        "TCP download fairness",
                                        "Ping (ms) avg"}));
    // The .conf sets these with set_test_parameter(), so flent's own files carry them.
    EXPECT_EQ(spec.testParameters,
              (std::map<std::string, std::string>{{"labels", "BE1,BE2,BK1,BK2"},
                                                  {"markings", "CS0,CS0,CS1,CS1"},
                                                  {"ping_labels", "ICMP1,ICMP2,ICMP3,ICMP4"}}));
    EXPECT_EQ(spec.defaultPlot, "all_scaled");
    EXPECT_EQ(spec.plots, (std::vector<std::string>{"all_scaled", "totals", "ping_cdf"}));
}

TEST(FlentTestTest, RttFair4beAndUpAreBestEffort)
{
    // rtt_fair4be.conf: labels BE1..BE4, all CS0. rtt_fair_up.conf: the same without any
    // series whose name contains 'download'.
    FlentTestOptions options;
    options.hosts = {"a", "b", "c", "d"};
    const auto be = FlentTest::Get("rtt_fair4be", options);
    ASSERT_EQ(be.flows.size(), 12U);
    EXPECT_EQ(be.flows[10].series, "TCP download BE4 d");
    for (const auto& flow : be.flows)
    {
        EXPECT_EQ(flow.tos, 0x00) << flow.series;
    }
    EXPECT_EQ(be.testParameters.at("labels"), "BE1,BE2,BE3,BE4");
    EXPECT_EQ(be.testParameters.at("markings"), "CS0,CS0,CS0,CS0");

    const auto up = FlentTest::Get("rtt_fair_up", options);
    const auto icmp = FlowKind::ICMP_PING;
    ExpectFlows(up,
                {{"TCP upload BE1 a", FlowKind::TCP_STREAM, 0, 0, 5, 60},
                 {"Ping (ms) ICMP1 a", icmp, 0, 0, 0, 70},
                 {"TCP upload BE2 b", FlowKind::TCP_STREAM, 0, 1, 5, 60},
                 {"Ping (ms) ICMP2 b", icmp, 0, 1, 0, 70},
                 {"TCP upload BE3 c", FlowKind::TCP_STREAM, 0, 2, 5, 60},
                 {"Ping (ms) ICMP3 c", icmp, 0, 2, 0, 70},
                 {"TCP upload BE4 d", FlowKind::TCP_STREAM, 0, 3, 5, 60},
                 {"Ping (ms) ICMP4 d", icmp, 0, 3, 0, 70}});
    EXPECT_EQ(up.computedSeries,
              (std::vector<std::string>{"TCP upload avg",
                                        "TCP upload sum",
                                        "TCP upload fairness",
                                        "Ping (ms) avg"}));
}

TEST(FlentTestTest, RrulCs8RunsAFlowAndAPingPerClassSelector)
{
    // rrul_cs8.conf: uploads then downloads CS0_BE, CS1_BK, CS2 .. CS7 marked 'CSn,CSn' (TOS
    // n << 5), then UDP pings CS7 down to CS1_BK marked, 'UDP CS0_BE' unmarked, then ICMP;
    // computed series as rrul's.
    const auto spec = FlentTest::Get("rrul_cs8", FlentTestOptions{});
    const std::vector<std::string> labels =
        {"CS0_BE", "CS1_BK", "CS2", "CS3", "CS4", "CS5", "CS6", "CS7"};
    std::vector<Expected> expected;
    std::vector<std::string> names; // keeps the c_str() of Expected alive
    for (const char* direction : {"upload", "download"})
    {
        for (const auto& label : labels)
        {
            names.push_back(std::string("TCP ") + direction + " " + label);
        }
    }
    for (auto it = labels.rbegin(); it != labels.rend(); ++it)
    {
        names.push_back("Ping (ms) UDP " + *it);
    }
    names.emplace_back("Ping (ms) ICMP");
    for (std::size_t i = 0; i < names.size(); ++i)
    {
        const bool tcp = i < 16;
        const uint8_t tos = tcp      ? static_cast<uint8_t>((i % 8) << 5)
                            : i < 24 ? static_cast<uint8_t>((23 - i) << 5)
                                     : 0;
        const FlowKind kind = i < 8    ? FlowKind::TCP_STREAM
                              : tcp    ? FlowKind::TCP_MAERTS
                              : i < 24 ? FlowKind::UDP_RTT
                                       : FlowKind::ICMP_PING;
        expected.push_back({names[i].c_str(), kind, tos, 0, tcp ? 5.0 : 0.0, tcp ? 60.0 : 70.0});
    }
    ExpectFlows(spec, expected);
    EXPECT_EQ(spec.computedSeries.size(), 6U);
    EXPECT_EQ(spec.defaultPlot, "all_scaled");
}

TEST(FlentTestTest, RrulNoclassificationAndUpFollowTheirConfs)
{
    // rrul_noclassification.conf: rrul_be's four CS0 flows each way with rrul's pings (UDP
    // EF marked EF, UDP BK marked CS1, UDP BE unmarked); its DATA_SETS has no 'TCP totals'.
    const auto noc = FlentTest::Get("rrul_noclassification", FlentTestOptions{});
    ASSERT_EQ(noc.flows.size(), 12U);
    for (std::size_t i = 0; i < 8; ++i)
    {
        EXPECT_EQ(noc.flows[i].tos, 0x00) << noc.flows[i].series;
    }
    EXPECT_EQ(noc.flows[3].series, "TCP upload BE4");
    EXPECT_EQ(noc.flows[4].series, "TCP download BE");
    FlentTestSpec pings; // the last four flows
    pings.flows.assign(noc.flows.begin() + 8, noc.flows.end());
    ExpectFlows(pings,
                {{"Ping (ms) UDP EF", FlowKind::UDP_RTT, 0xb8, 0, 0, 70},
                 {"Ping (ms) UDP BK", FlowKind::UDP_RTT, 0x20, 0, 0, 70},
                 {"Ping (ms) UDP BE", FlowKind::UDP_RTT, 0x00, 0, 0, 70},
                 {"Ping (ms) ICMP", FlowKind::ICMP_PING, 0x00, 0, 0, 70}});
    EXPECT_EQ(noc.computedSeries,
              (std::vector<std::string>{"TCP upload avg",
                                        "TCP upload sum",
                                        "TCP download avg",
                                        "TCP download sum",
                                        "Ping (ms) avg"}));

    // rrul_up.conf: rrul.conf with every series whose name holds 'download' deleted.
    const auto up = FlentTest::Get("rrul_up", FlentTestOptions{});
    const auto rrul = FlentTest::Get("rrul", FlentTestOptions{});
    std::vector<std::string> expected;
    for (const auto& flow : rrul.flows)
    {
        if (flow.series.find("download") == std::string::npos)
        {
            expected.push_back(flow.series);
        }
    }
    std::vector<std::string> got;
    for (const auto& flow : up.flows)
    {
        got.push_back(flow.series);
    }
    EXPECT_EQ(got, expected);
    EXPECT_EQ(got.size(), 8U); // 4 uploads + 4 pings
    EXPECT_EQ(up.computedSeries,
              (std::vector<std::string>{"TCP upload avg",
                                        "TCP upload sum",
                                        "TCP totals",
                                        "Ping (ms) avg"}));
}

TEST(FlentTestTest, RrulManyDuplicatesOneDirection)
{
    // rrul_50_down.conf: 'TCP upload BE', then 'TCP download BE' with 'duplicates': 50, which
    // testenv.py's expand_duplicates() names "TCP download BE::1" .. "::50"; rrul_be's UDP
    // pings BE1..BE3 (CS0) and ICMP; computed avg/sum each way and the ping avg, no totals.
    const auto down = FlentTest::Get("rrul_50_down", FlentTestOptions{});
    ASSERT_EQ(down.flows.size(), 1U + 50 + 4);
    EXPECT_EQ(down.flows[0].series, "TCP upload BE");
    EXPECT_EQ(down.flows[1].series, "TCP download BE::1");
    EXPECT_EQ(down.flows[50].series, "TCP download BE::50");
    EXPECT_EQ(down.flows[50].kind, FlowKind::TCP_MAERTS);
    EXPECT_EQ(down.flows[51].series, "Ping (ms) UDP BE1");
    EXPECT_EQ(down.flows[54].series, "Ping (ms) ICMP");
    EXPECT_EQ(down.computedSeries.size(), 5U);
    // rrul_100_up.conf: 'TCP upload BE' duplicated 100 times, one download.
    const auto up = FlentTest::Get("rrul_100_up", FlentTestOptions{});
    ASSERT_EQ(up.flows.size(), 100U + 1 + 4);
    EXPECT_EQ(up.flows[99].series, "TCP upload BE::100");
    EXPECT_EQ(up.flows[100].series, "TCP download BE");
    EXPECT_EQ(FlentTest::Get("rrul_50_up", FlentTestOptions{}).flows[49].series,
              "TCP upload BE::50");
}

TEST(FlentTestTest, TcpBidirectionalAnd1upFollowTheirConfs)
{
    // tcp_bidirectional.conf: 'TCP download', 'TCP upload', 'Ping (ms) ICMP' in that order.
    const auto bidir = FlentTest::Get("tcp_bidirectional", FlentTestOptions{});
    ExpectFlows(bidir,
                {{"TCP download", FlowKind::TCP_MAERTS, 0, 0, 5, 60},
                 {"TCP upload", FlowKind::TCP_STREAM, 0, 0, 5, 60},
                 {"Ping (ms) ICMP", FlowKind::ICMP_PING, 0, 0, 0, 70}});
    EXPECT_EQ(bidir.defaultPlot, "totals");

    // tcp_1up.conf: MARKING = try_test_parameters(('marking', 'markings'), split=True)[0];
    // CS1 is TOS 0x20 and EF 0xb8 in MARKING_MAP; parse_int() reads numbers, 0x hex too.
    FlentTestOptions options;
    options.testParameters = {{"marking", "CS1"}};
    ExpectFlows(FlentTest::Get("tcp_1up", options),
                {{"TCP upload", FlowKind::TCP_STREAM, 0x20, 0, 5, 60},
                 {"Ping (ms) ICMP", FlowKind::ICMP_PING, 0, 0, 0, 70}});
    options.testParameters = {{"markings", "EF,CS1"}};
    EXPECT_EQ(FlentTest::Get("tcp_1up", options).flows[0].tos, 0xb8);
    options.testParameters = {{"marking", "0x48"}};
    EXPECT_EQ(FlentTest::Get("tcp_1up", options).flows[0].tos, 0x48);
    options.testParameters = {{"marking", "40"}};
    EXPECT_EQ(FlentTest::Get("tcp_1up", options).flows[0].tos, 40);
    // The user's parameters are stored, as flent stores them.
    EXPECT_EQ(FlentTest::Get("tcp_1up", options).testParameters.at("marking"), "40");
    ExpectFlows(FlentTest::Get("tcp_1down", FlentTestOptions{}),
                {{"TCP download", FlowKind::TCP_MAERTS, 0, 0, 5, 60},
                 {"Ping (ms) ICMP", FlowKind::ICMP_PING, 0, 0, 0, 70}});
}

TEST(FlentTestTest, FixedStreamVariantsAndStreamParameters)
{
    // tcp_4up.conf: TEST_PARAMETERS['upload_streams'] = 4, then tcp_nup.conf; the name stays
    // tcp_4up (flent reloads that .conf). tcp_12down likewise with 12 download streams.
    FlentTestOptions options;
    options.streams = 7; // ignored by the fixed variants
    const auto four = FlentTest::Get("tcp_4up", options);
    ASSERT_EQ(four.flows.size(), 5U);
    EXPECT_EQ(four.flows[4].series, "TCP upload::4");
    EXPECT_EQ(four.testParameters.at("upload_streams"), "4");
    const auto twelve = FlentTest::Get("tcp_12down", options);
    ASSERT_EQ(twelve.flows.size(), 13U);
    EXPECT_EQ(twelve.flows[12].series, "TCP download::12");
    EXPECT_EQ(twelve.flows[12].kind, FlowKind::TCP_MAERTS);

    // tcp_nup: upload_streams wins over the option; for_stream_config() gives stream i item
    // i of markings and stream_delays: stream 2 starts at DELAY + 2 = 7 s and runs
    // LENGTH - 2 = 58 s, marked CS1 (0x20); stream 3 has no items: CS0, no extra delay.
    options.testParameters = {{"upload_streams", "3"},
                              {"markings", "EF,CS1"},
                              {"stream_delays", "0;2"}};
    ExpectFlows(FlentTest::Get("tcp_nup", options),
                {{"Ping (ms) ICMP", FlowKind::ICMP_PING, 0, 0, 0, 70},
                 {"TCP upload::1", FlowKind::TCP_STREAM, 0xb8, 0, 5, 60},
                 {"TCP upload::2", FlowKind::TCP_STREAM, 0x20, 0, 7, 58},
                 {"TCP upload::3", FlowKind::TCP_STREAM, 0x00, 0, 5, 60}});
}

TEST(FlentTestTest, RttFairVariableHostsTakeTheirLabelsFromParameters)
{
    // rtt_fair6be.conf: six hosts, labels BE1..BE6, ping labels ICMP1..ICMP6, all CS0.
    FlentTestOptions options;
    options.hosts = {"a", "b", "c", "d", "e", "f"};
    const auto six = FlentTest::Get("rtt_fair6be", options);
    ASSERT_EQ(six.flows.size(), 18U);
    EXPECT_EQ(six.flows[15].series, "TCP upload BE6 f");
    EXPECT_EQ(six.flows[17].series, "Ping (ms) ICMP6 f");
    EXPECT_EQ(six.testParameters.at("markings"), "CS0,CS0,CS0,CS0,CS0,CS0");

    // rtt_fair_var: any number of hosts; rtt_fair.inc names with label or 'BE', ping_label
    // or 'ICMP', marking or 'CS0' from the parameters' item i.
    options.hosts = {"x", "y"};
    options.testParameters = {{"labels", "fast"}, {"markings", ",CS1"}};
    const auto var = FlentTest::Get("rtt_fair_var", options);
    const auto up = FlowKind::TCP_STREAM;
    const auto down = FlowKind::TCP_MAERTS;
    const auto icmp = FlowKind::ICMP_PING;
    ExpectFlows(var,
                {{"TCP upload fast x", up, 0x00, 0, 5, 60},
                 {"TCP download fast x", down, 0x00, 0, 5, 60},
                 {"Ping (ms) ICMP x", icmp, 0x00, 0, 0, 70},
                 {"TCP upload BE y", up, 0x20, 1, 5, 60},
                 {"TCP download BE y", down, 0x20, 1, 5, 60},
                 {"Ping (ms) ICMP y", icmp, 0x00, 1, 0, 70}});
    // rtt_fair_var_up deletes the downloads (and their computed series), _down the uploads.
    const auto varUp = FlentTest::Get("rtt_fair_var_up", options);
    EXPECT_EQ(varUp.flows.size(), 4U);
    EXPECT_EQ(varUp.computedSeries.size(), 4U);
    const auto varDown = FlentTest::Get("rtt_fair_var_down", options);
    ASSERT_EQ(varDown.flows.size(), 4U);
    EXPECT_EQ(varDown.flows[0].series, "TCP download fast x");
    EXPECT_EQ(varDown.computedSeries,
              (std::vector<std::string>{"TCP download avg",
                                        "TCP download sum",
                                        "TCP download fairness",
                                        "Ping (ms) avg"}));
}

TEST(FlentTestTest, TestParametersThatTheModelCannotRunAreRefused)
{
    FlentTestOptions options;
    options.testParameters = {{"cc_algos", "bbr,cubic"}};
    ExpectInvalid([&] { FlentTest::Get("tcp_nup", options); },
                  {"cc_algos", "not modelled", "upload_streams"});
    options.testParameters = {{"marking", "CS9"}};
    ExpectInvalid([&] { FlentTest::Get("tcp_1up", options); },
                  {"marking", "\"CS9\"", "AF11", "EF", "0-255"});
    options.testParameters = {{"marking", "256"}};
    ExpectInvalid([&] { FlentTest::Get("tcp_1up", options); }, {"marking", "0-255"});
    options.testParameters = {{"stream_delays", "60"}}; // LENGTH is 60 s
    ExpectInvalid([&] { FlentTest::Get("tcp_nup", options); },
                  {"stream_delays", "\"60\"", "from 0 to LENGTH - 1 (59)"});
    options.testParameters = {{"upload_streams", "many"}};
    ExpectInvalid([&] { FlentTest::Get("tcp_nup", options); },
                  {"upload_streams", "from 1 to 1024", "\"many\""});
    options.testParameters = {};
    options.hosts = {"a", "b", "c", "d"};
    ExpectInvalid([&] { FlentTest::Get("rtt_fair6be", options); }, {"HOSTS", "exactly 6", "got 4"});
}

TEST(FlentTestTest, QdiscStatsAreDeclaredAsTestParameters)
{
    // qdisc_stats.inc zips qdisc_stats_hosts with qdisc_stats_interfaces and names the
    // TcRunner series 'qdisc_stats_<host>'; it adds the plots backlog, drops and delay.
    FlentTestOptions options;
    options.qdiscStats = {{"router", "eth0"}, {"wan", "eth1"}};
    const auto spec = FlentTest::Get("tcp_upload", options);
    EXPECT_EQ(spec.testParameters,
              (std::map<std::string, std::string>{{"qdisc_stats_hosts", "router,wan"},
                                                  {"qdisc_stats_interfaces", "eth0,eth1"}}));
    EXPECT_EQ(spec.qdiscSeries,
              (std::vector<std::string>{"qdisc_stats_router", "qdisc_stats_wan"}));
    EXPECT_EQ(spec.plots,
              (std::vector<std::string>{"totals", "ping_cdf", "backlog", "drops", "delay"}));
}

TEST(FlentTestTest, InvalidInputNamesTheParameter)
{
    const FlentTestOptions defaults;
    ExpectInvalid([&] { FlentTest::Get("foo", defaults); },
                  {"\"foo\"", "accepted: rrul, rrul_be, rrul_cs8"});

    FlentTestOptions hosts = defaults;
    hosts.hosts = {"a", "b", "c"};
    ExpectInvalid([&] { FlentTest::Get("rtt_fair", hosts); }, {"HOSTS", "exactly 4", "got 3"});
    hosts.hosts = {"a", "b", "c", "d", "e"};
    ExpectInvalid([&] { FlentTest::Get("rtt_fair_up", hosts); }, {"HOSTS", "got 5"});
    hosts.hosts = {};
    ExpectInvalid([&] { FlentTest::Get("rrul", hosts); }, {"HOSTS"});
    hosts.hosts = {""};
    ExpectInvalid([&] { FlentTest::Get("rrul", hosts); }, {"HOSTS"});

    FlentTestOptions streams = defaults;
    streams.streams = 0;
    ExpectInvalid([&] { FlentTest::Get("tcp_nup", streams); },
                  {"upload_streams", "from 1 to 1024", "got 0"});
    ExpectInvalid([&] { FlentTest::Get("tcp_ndown", streams); }, {"download_streams"});
    // --streams=-1 read as an unsigned would start 4294967295 flows.
    streams.streams = 1025;
    ExpectInvalid([&] { FlentTest::Get("tcp_nup", streams); }, {"from 1 to 1024", "got 1025"});

    // A day of load at most (86400 s), an hour of idle (3600 s).
    for (double length : {0.0, -60.0, 2.5, std::nan(""), 86401.0, 1e12})
    {
        FlentTestOptions bad = defaults;
        bad.length = length;
        ExpectInvalid([&] { FlentTest::Get("rrul", bad); },
                      {"LENGTH", "whole number", "from 1 to 86400"});
    }
    for (double delay : {-1.0, 1.5, 3601.0})
    {
        FlentTestOptions bad = defaults;
        bad.delay = delay;
        ExpectInvalid([&] { FlentTest::Get("rrul", bad); }, {"DELAY", "from 0 to 3600"});
    }
    // 0.7 s does not divide LENGTH 60 s (85.7 steps); 0.3 s divides 60 s but not DELAY 5 s.
    for (double step : {0.0, -0.2, 0.7, 0.3, 1e-9})
    {
        FlentTestOptions bad = defaults;
        bad.stepSize = step;
        ExpectInvalid([&] { FlentTest::Get("rrul", bad); }, {"STEP_SIZE", ">= 0.001", "divide"});
    }
    // 1 ms steps over LENGTH 1000 + 2 x DELAY 5 = 1010 s: 1.01 x 10^6 samples per series.
    FlentTestOptions many = defaults;
    many.length = 1000;
    many.stepSize = 0.001;
    ExpectInvalid([&] { FlentTest::Get("rrul", many); }, {"STEP_SIZE", "1.01e+06 samples"});
    many.length = 990; // (990 + 10) / 0.001 = 10^6 samples: the most accepted
    EXPECT_NO_THROW(FlentTest::Get("rrul", many));

    FlentTestOptions qdisc = defaults;
    qdisc.qdiscStats = {{"a,b", "eth0"}};
    ExpectInvalid([&] { FlentTest::Get("rrul", qdisc); }, {"qdiscStats", "a,b"});
    qdisc.qdiscStats = {{"router", ""}};
    ExpectInvalid([&] { FlentTest::Get("rrul", qdisc); }, {"qdiscStats"});
    qdisc.qdiscStats = {{"router", "eth0"}, {"router", "eth1"}};
    ExpectInvalid([&] { FlentTest::Get("rrul", qdisc); }, {"qdiscStats", "twice"});
}

} // namespace
