/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for RunSummary: the metrics of a hand-made run, and its CPU statistics
 * (flent's cpu_stats series): the netperf -c style metrics over the load window, the printed
 * CPU column and the flent file's results.
 */

#include "ns3/flent-writer.h"
#include "ns3/run-summary.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <sstream>

namespace
{

using namespace ns3::debloat;

/**
 * @param metrics the metrics
 * @param scope the metric's scope
 * @param name the metric's name
 * @return its value, NaN when absent
 */
double
Find(const std::vector<Metric>& metrics, const std::string& scope, const std::string& name)
{
    for (const Metric& metric : metrics)
    {
        if (metric.scope == scope && metric.name == name)
        {
            return metric.value;
        }
    }
    return NO_VALUE;
}

/// A run with LENGTH 10 s and DELAY 2 s: the load phase is [2, 12] s.
RunRecord
LoadedRun()
{
    RunRecord run;
    run.test = "rrul_be";
    run.length = 10;
    run.delay = 2;
    run.totalLength = 14;
    Series up1{"TCP upload BE", "NetperfDemoRunner", "Mbits/s", {"val", "dur"}, {}, {}};
    up1.meta["MEAN_VALUE"] = 30.0;
    Series up2 = up1;
    up2.name = "TCP upload BE2";
    up2.meta["MEAN_VALUE"] = 10.0;
    Series down{"TCP download BE", "NetperfDemoRunner", "Mbits/s", {"val", "dur"}, {}, {}};
    down.meta["MEAN_VALUE"] = int64_t{50}; // an integer MEAN_VALUE counts as well
    // Ping: 100 ms outside the load phase, 1..10 ms inside it.
    Series ping{"Ping (ms) ICMP", "PingRunner", "ms", {"val", "seq"}, {}, {}};
    ping.samples.push_back({0.5, {100, 0}});
    for (int i = 1; i <= 10; ++i)
    {
        ping.samples.push_back({2.0 + i, {static_cast<double>(i), static_cast<double>(i)}});
    }
    ping.samples.push_back({13.5, {100, 11}});
    // irtt: two replies and one lost probe in the load phase.
    Series udp{"Ping (ms) UDP BE1",
               "IrttRunner",
               "ms",
               {"val", "seq", "lost"},
               {{3, {4, 0, NO_VALUE}}, {4, {NO_VALUE, 1, 1}}, {5, {6, 2, NO_VALUE}}},
               {}};
    // qdisc stats: backlog 0..4000 bytes in the load phase, drops 1 + 2 + 3 over the run.
    Series tc{"qdisc_stats_client",
              "TcRunner",
              "misc",
              {"backlog_bytes", "dropped", "bql_inflight"},
              {{0, {9999, 0, NO_VALUE}},
               {3, {0, 1, NO_VALUE}},
               {4, {1000, 2, NO_VALUE}},
               {5, {2000, 0, NO_VALUE}},
               {6, {3000, 0, NO_VALUE}},
               {7, {4000, 3, NO_VALUE}}},
              {}};
    run.series = {up1, up2, down, ping, udp, tc};
    return run;
}

TEST(RunSummaryTest, GoodputTotalsAndFairness)
{
    const std::vector<Metric> metrics = RunSummary::ComputeMetrics(LoadedRun());
    EXPECT_DOUBLE_EQ(Find(metrics, "TCP upload BE", "goodput"), 30);
    EXPECT_DOUBLE_EQ(Find(metrics, "TCP download BE", "goodput"), 50);
    EXPECT_DOUBLE_EQ(Find(metrics, "total", "upload_goodput"), 40);
    EXPECT_DOUBLE_EQ(Find(metrics, "total", "download_goodput"), 50);
    EXPECT_DOUBLE_EQ(Find(metrics, "total", "total_goodput"), 90);
    // Jain's index of (30, 10): 40^2 / (2 * (900 + 100)) = 0.8; one download: no index.
    EXPECT_DOUBLE_EQ(Find(metrics, "total", "upload_fairness"), 0.8);
    EXPECT_TRUE(std::isnan(Find(metrics, "total", "download_fairness")));
}

TEST(RunSummaryTest, LatencyOverTheLoadPhase)
{
    const std::vector<Metric> metrics = RunSummary::ComputeMetrics(LoadedRun());
    // Only the ten samples 1..10 ms lie in [2, 12] s: mean 5.5, median 5.5, and numpy's
    // p90 = 1 + 0.9 * 9 = 9.1; the 100 ms samples outside are left out.
    EXPECT_DOUBLE_EQ(Find(metrics, "Ping (ms) ICMP", "rtt_mean"), 5.5);
    EXPECT_DOUBLE_EQ(Find(metrics, "Ping (ms) ICMP", "rtt_p50"), 5.5);
    EXPECT_DOUBLE_EQ(Find(metrics, "Ping (ms) ICMP", "rtt_p90"), 9.1);
    EXPECT_DOUBLE_EQ(Find(metrics, "Ping (ms) ICMP", "rtt_max"), 10);
    EXPECT_DOUBLE_EQ(Find(metrics, "Ping (ms) ICMP", "rtt_samples"), 10);
    // irtt: replies 4 and 6 ms, one of three probes lost.
    EXPECT_DOUBLE_EQ(Find(metrics, "Ping (ms) UDP BE1", "rtt_mean"), 5);
    EXPECT_DOUBLE_EQ(Find(metrics, "Ping (ms) UDP BE1", "rtt_samples"), 2);
    EXPECT_DOUBLE_EQ(Find(metrics, "Ping (ms) UDP BE1", "lost"), 1);
    EXPECT_DOUBLE_EQ(Find(metrics, "Ping (ms) UDP BE1", "loss_rate"), 1.0 / 3);
}

TEST(RunSummaryTest, DeviceOccupancyAndDrops)
{
    const std::vector<Metric> metrics = RunSummary::ComputeMetrics(LoadedRun());
    // Backlog in the load phase: 0, 1000, 2000, 3000, 4000 (the 9999 at t=0 is outside):
    // p50 2000, p99 = 3000 + 0.96 * 1000 = 3960, max 4000.
    EXPECT_DOUBLE_EQ(Find(metrics, "qdisc_stats_client", "backlog_bytes_p50"), 2000);
    EXPECT_DOUBLE_EQ(Find(metrics, "qdisc_stats_client", "backlog_bytes_p99"), 3960);
    EXPECT_DOUBLE_EQ(Find(metrics, "qdisc_stats_client", "backlog_bytes_max"), 4000);
    // Drops are summed over the whole run: 1 + 2 + 3.
    EXPECT_DOUBLE_EQ(Find(metrics, "qdisc_stats_client", "dropped"), 6);
    // A key no sample carries (no BQL) gives no metric.
    EXPECT_TRUE(std::isnan(Find(metrics, "qdisc_stats_client", "bql_inflight_p50")));
}

TEST(RunSummaryTest, UnloadedRunUsesTheWholeRun)
{
    // The ping test has no TCP flows: its window is [0, TOTAL_LENGTH].
    RunRecord run;
    run.test = "ping";
    run.length = 4;
    run.totalLength = 4;
    run.delay = 5;
    run.series = {{"Ping (ms) ICMP",
                   "PingRunner",
                   "ms",
                   {"val", "seq"},
                   {{0.2, {10, 0}}, {3.8, {20, 1}}},
                   {}}};
    const std::vector<Metric> metrics = RunSummary::ComputeMetrics(run);
    EXPECT_DOUBLE_EQ(Find(metrics, "Ping (ms) ICMP", "rtt_mean"), 15);
    EXPECT_TRUE(std::isnan(Find(metrics, "total", "total_goodput")));
}

/// @return the tables of a printed summary: its blocks of lines between blank lines
std::vector<std::vector<std::string>>
Tables(const std::string& text)
{
    std::vector<std::vector<std::string>> tables(1);
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
    {
        if (line.empty())
        {
            tables.emplace_back();
        }
        else
        {
            tables.back().push_back(line);
        }
    }
    return tables;
}

/// @return the first table one of whose lines starts with "  " + first
std::vector<std::string>
TableWith(const std::vector<std::vector<std::string>>& tables, const std::string& first)
{
    for (const auto& table : tables)
    {
        for (const auto& line : table)
        {
            if (line.rfind("  " + first, 0) == 0)
            {
                return table;
            }
        }
    }
    return {};
}

TEST(RunSummaryTest, PrintsAlignedTablesOfLikeScopes)
{
    RunRecord run = LoadedRun();
    run.metrics = RunSummary::ComputeMetrics(run);
    std::ostringstream os;
    RunSummary::Print(run, os);
    const auto tables = Tables(os.str());
    ASSERT_EQ(tables[0].size(), 1U) << "the title line";
    // The three TCP flows have the same metric (goodput): one table, a header, a units line
    // and a row each, every line as long as the others (right-aligned numbers).
    const auto tcp = TableWith(tables, "TCP upload BE2");
    ASSERT_EQ(tcp.size(), 5U) << os.str();
    EXPECT_NE(tcp[0].find("goodput"), std::string::npos);
    EXPECT_NE(tcp[1].find("Mbit/s"), std::string::npos);
    EXPECT_EQ(tcp[2].rfind("  TCP upload BE ", 0), 0U);
    EXPECT_EQ(tcp[4].rfind("  TCP download BE", 0), 0U);
    EXPECT_NE(tcp[3].find(" 10"), std::string::npos); // BE2's 10 Mbit/s
    for (const auto& line : tcp)
    {
        EXPECT_EQ(line.size(), tcp[0].size()) << line;
    }
    // irtt's 9 metrics (7 RTT figures, lost, loss_rate) exceed 8: turned around, a row per
    // metric under a header naming the series.
    const auto udp = TableWith(tables, "loss_rate");
    ASSERT_EQ(udp.size(), 10U) << os.str();
    EXPECT_NE(udp[0].find("Ping (ms) UDP BE1"), std::string::npos);
    // The totals: fairness 0.8 under upload_fairness.
    const auto total = TableWith(tables, "total");
    ASSERT_EQ(total.size(), 3U) << os.str();
    const std::size_t column = total[0].find("upload_fairness");
    ASSERT_NE(column, std::string::npos);
    EXPECT_NE(total[2].find("0.8", column), std::string::npos);
}

TEST(RunSummaryTest, HeadlineSplitsIdleFromLoad)
{
    RunRecord run = LoadedRun();
    run.title = "fq_codel+bql";
    run.metrics = RunSummary::ComputeMetrics(run);
    const RunSummary::Headline h = RunSummary::GetHeadline(run);
    EXPECT_EQ(h.label, "fq_codel+bql");
    EXPECT_DOUBLE_EQ(h.uploadMbps, 40); // 30 + 10
    EXPECT_DOUBLE_EQ(h.downloadMbps, 50);
    // Idle: the one ICMP sample before DELAY (100 ms at 0.5 s); under load: 1..10 ms, so
    // p50 5.5, p90 9.1 and numpy's p99 = 1 + 0.99 * 9 = 9.91; induced 5.5 - 100.
    EXPECT_DOUBLE_EQ(h.idleRttMs, 100);
    EXPECT_DOUBLE_EQ(h.rttP50Ms, 5.5);
    EXPECT_DOUBLE_EQ(h.rttP90Ms, 9.1);
    EXPECT_DOUBLE_EQ(h.rttP99Ms, 9.91);
    EXPECT_DOUBLE_EQ(h.inducedMs, -94.5);
    // The percentiles rest on the ten samples under load, the idle median on one.
    EXPECT_EQ(h.loadSamples, 10U);
    EXPECT_EQ(h.idleSamples, 1U);
}

TEST(RunSummaryTest, MissingPingsNamesTheWindow)
{
    RunRecord run = LoadedRun();
    run.title = "x";
    run.metrics = RunSummary::ComputeMetrics(run);
    RunSummary::Headline h = RunSummary::GetHeadline(run);
    EXPECT_EQ(RunSummary::MissingPings(h), "");
    h.idleSamples = 0;
    EXPECT_NE(RunSummary::MissingPings(h).find("no ping before the load"), std::string::npos);
    h.idleSamples = 1;
    h.loadSamples = 0;
    EXPECT_NE(RunSummary::MissingPings(h).find("no ping under load"), std::string::npos);
}

TEST(RunSummaryTest, ComparisonHasARowPerRun)
{
    RunRecord a = LoadedRun();
    a.title = "pfifo_fast";
    a.metrics = RunSummary::ComputeMetrics(a);
    RunRecord b;
    b.title = "no-series";
    std::ostringstream os;
    RunSummary::PrintComparison({a, b}, os);
    const std::string text = os.str();
    // Two header lines, then one row per run; a run without series shows "-".
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4);
    EXPECT_NE(text.find("pfifo_fast"), std::string::npos);
    EXPECT_NE(text.find("40.0"), std::string::npos);
    EXPECT_NE(text.find("-94.500"), std::string::npos);
    // The row ends with the ten pings under load the percentiles rest on.
    const std::string first = text.substr(text.find("pfifo_fast"));
    EXPECT_NE(first.find("-94.500      10\n"), std::string::npos);
    const std::string last = text.substr(text.find("no-series"));
    EXPECT_NE(last.find(" -"), std::string::npos);
    EXPECT_EQ(last.find('.'), std::string::npos);
}

/**
 * A run with LENGTH 2 s, DELAY 1 s, TOTAL_LENGTH 4 s, STEP_SIZE 1 s, one TCP flow (so the
 * load window is [1, 3] s) and the CPU series of a 2-core "router". Sample k covers the step
 * (k - 1, k] s. The steps inside the window:
 * - (1, 2]: core 0 busy 0.8 s (irq 0.1, soft 0.6, task 0.1), core 1 busy 0.2 s (task):
 *   load = 1.0 / 2 = 0.5, irq 0.05, soft 0.3, task 0.15;
 * - (2, 3]: core 0 busy 0.4 s (soft), core 1 idle: load 0.2, soft 0.2.
 * The steps outside it, (0, 1] and (3, 4], are fully busy (load 1), so that a window cut in
 * the wrong place shows.
 * @return the run
 */
RunRecord
CpuRun()
{
    RunRecord run;
    run.test = "tcp_upload";
    run.hosts = {"server"};
    run.length = 2;
    run.delay = 1;
    run.totalLength = 4;
    run.stepSize = 1;
    Series tcp{"TCP upload", "NetperfDemoRunner", "Mbits/s", {"val", "dur"}, {}, {}};
    tcp.samples = {{2, {10, 1}}, {3, {10, 1}}};
    tcp.meta["MEAN_VALUE"] = 10.0;
    Series cpu{"cpu_stats_router",
               "CpuStatsRunner",
               "misc",
               {"load",
                "irq",
                "soft",
                "task",
                "load_cpu0",
                "irq_cpu0",
                "soft_cpu0",
                "task_cpu0",
                "load_cpu1",
                "irq_cpu1",
                "soft_cpu1",
                "task_cpu1"},
               {},
               {}};
    const std::vector<double> busy = {1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0};
    cpu.samples = {{1, busy},
                   {2, {0.5, 0.05, 0.3, 0.15, 0.8, 0.1, 0.6, 0.1, 0.2, 0, 0, 0.2}},
                   {3, {0.2, 0, 0.2, 0, 0.4, 0, 0.4, 0, 0, 0, 0, 0}},
                   {4, busy}};
    run.series = {tcp, cpu};
    run.testParameters["cpu_stats_hosts"] = "router";
    run.metrics = RunSummary::ComputeMetrics(run);
    return run;
}

/**
 * Over the window the router's cores had 2 x 2 s = 4 s; they were busy 1.0 + 0.4 = 1.4 s:
 * cpu_util 35 %; irq 0.1 s: 2.5 %; soft 0.6 + 0.4 = 1.0 s: 25 %; task 0.1 + 0.2 = 0.3 s:
 * 7.5 %. Core 0 was busy 1.2 of its 2 s (60 %), core 1 0.2 s (10 %): cpu_core_max 60 %.
 */
TEST(CpuStats, MetricsCoverTheLoadWindow)
{
    const RunRecord run = CpuRun();
    EXPECT_NEAR(Find(run.metrics, "cpu_stats_router", "cpu_util"), 35, 1e-12);
    EXPECT_NEAR(Find(run.metrics, "cpu_stats_router", "cpu_irq"), 2.5, 1e-12);
    EXPECT_NEAR(Find(run.metrics, "cpu_stats_router", "cpu_soft"), 25, 1e-12);
    EXPECT_NEAR(Find(run.metrics, "cpu_stats_router", "cpu_task"), 7.5, 1e-12);
    EXPECT_NEAR(Find(run.metrics, "cpu_stats_router", "cpu_core_max"), 60, 1e-12);
    for (const Metric& metric : run.metrics)
    {
        if (metric.scope == "cpu_stats_router")
        {
            EXPECT_EQ(metric.units, "%") << metric.name;
        }
    }
}

/// A run without a CPU series has no cpu_* metric; one whose window holds no CPU sample
/// neither (nothing to report, as for a qdisc series without samples).
TEST(CpuStats, NoSeriesNoMetrics)
{
    RunRecord run = CpuRun();
    run.series.pop_back();
    for (const Metric& metric : RunSummary::ComputeMetrics(run))
    {
        EXPECT_NE(metric.name.rfind("cpu_", 0), 0U) << metric.name;
    }
    run = CpuRun();
    run.series.back().samples = {run.series.back().samples.front()}; // only (0, 1]
    for (const Metric& metric : RunSummary::ComputeMetrics(run))
    {
        EXPECT_NE(metric.name.rfind("cpu_", 0), 0U) << metric.name;
    }
}

/// The printed summary has the router's row; the comparison a "CPU router" column (35.0 %
/// for the run with it, "-" for one without), and no CPU column when no run has a CPU.
TEST(CpuStats, PrintedColumnOnlyWithACpu)
{
    const RunRecord with = CpuRun();
    std::ostringstream summary;
    RunSummary::Print(with, summary);
    // The router's row under cpu_util and cpu_irq, in %.
    const auto cpu = TableWith(Tables(summary.str()), "cpu_stats_router");
    ASSERT_EQ(cpu.size(), 3U) << summary.str();
    const std::size_t util = cpu[0].find("cpu_util");
    const std::size_t irq = cpu[0].find("cpu_irq");
    ASSERT_NE(util, std::string::npos);
    ASSERT_NE(irq, std::string::npos);
    EXPECT_NE(cpu[1].find("%"), std::string::npos);
    // Right-aligned under their headers: 35 in cpu_util's column, 2.5 in cpu_irq's.
    EXPECT_NE(cpu[2].substr(util, irq - util).find("35"), std::string::npos) << summary.str();
    EXPECT_NE(cpu[2].substr(irq).find("2.5"), std::string::npos) << summary.str();

    RunRecord without = CpuRun();
    without.title = "none";
    without.series.pop_back();
    without.metrics = RunSummary::ComputeMetrics(without);
    std::ostringstream both;
    RunSummary::PrintComparison({with, without}, both);
    std::istringstream lines(both.str());
    std::string header;
    std::string units;
    std::string first;
    std::string second;
    std::getline(lines, header);
    std::getline(lines, units);
    std::getline(lines, first);
    std::getline(lines, second);
    EXPECT_EQ(header.substr(header.size() - 10), "CPU router");
    EXPECT_EQ(units.substr(units.size() - 10), "         %");
    EXPECT_EQ(first.substr(first.size() - 10), "      35.0");
    EXPECT_EQ(second.substr(second.size() - 10), "         -");

    std::ostringstream alone;
    RunSummary::PrintComparison({without}, alone);
    EXPECT_EQ(alone.str().find("CPU"), std::string::npos) << alone.str();
    EXPECT_EQ(alone.str().find('%'), std::string::npos) << alone.str();
}

/**
 * The flent file: the load's results grid "cpu_stats_router::load" (flent's CpuStatsRunner
 * parses the load alone), and the same grid as "cpu_stats_router" (the writer's deviation),
 * when cpu_stats_hosts declares the router, neither otherwise; the raw samples with every key
 * and the load again as "val" either way. Grid x = 0, 1, 2, 3 s over samples at 1..4 s
 * (Resample()): x = 0 lies a whole step before the first sample (more than half a step):
 * null; x = 1, 2, 3 are samples: 1, 0.5, 0.2.
 */
TEST(CpuStats, FlentFileHasTheLoad)
{
    RunRecord run = CpuRun();
    std::string json = FlentWriter::ToJson(run);
    EXPECT_NE(json.find("\"cpu_stats_router::load\":[null,1,0.5,0.2]"), std::string::npos);
    EXPECT_NE(json.find("\"cpu_stats_hosts\":\"router\""), std::string::npos);
    EXPECT_NE(json.find("\"cpu_stats_router\":[null,1,0.5,0.2]"), std::string::npos);
    EXPECT_NE(
        json.find("{\"t\":2,\"load\":0.5,\"val\":0.5,\"irq\":0.05,\"soft\":0.3,\"task\":0.15,"),
        std::string::npos);
    EXPECT_NE(json.find("\"RUNNER\":\"CpuStatsRunner\""), std::string::npos);

    run.testParameters.erase("cpu_stats_hosts");
    json = FlentWriter::ToJson(run);
    EXPECT_EQ(json.find("cpu_stats_router::"), std::string::npos);
    EXPECT_EQ(json.find("\"cpu_stats_router\":[null"), std::string::npos);
    EXPECT_NE(json.find("\"cpu_stats_router\":[{\"t\":1,\"load\":1,\"val\":1"), std::string::npos);
}

} // namespace
