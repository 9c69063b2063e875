/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * CpuSampler and the CPU statistics of a flent run: the load of a step is the sum of the
 * costs in it over cores x step, a flent run with HostCpus carries flent's cpu_stats series,
 * test parameter and netperf -c style metrics, and a run without a HostCpu has none of them.
 */

#include "debloat-test-utils.h"

#include "ns3/core-module.h"
#include "ns3/cpu-sampler.h"
#include "ns3/debloat-compat.h"
#include "ns3/flent-test-helper.h"
#include "ns3/flent-test.h"
#include "ns3/flent-writer.h"
#include "ns3/host-cpu.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/nic-net-device.h"
#include "ns3/run-summary.h"

#include <algorithm>
#include <sstream>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// Frame time at 1 Gbit/s: a 1500-byte payload is a 1514-byte frame, 1538 bytes on the wire.
const Time FRAME = NanoSeconds(12304);

/// The costs every HostCpu of these tests has.
struct Costs
{
    Time irq = MicroSeconds(1);   ///< h, HardIrqCost
    Time poll = MicroSeconds(2);  ///< p, PollCost
    Time rx = NanoSeconds(1500);  ///< c, RxPacketCost
    Time tx = NanoSeconds(500);   ///< t, TxPacketCost
    Time xmit = MicroSeconds(3);  ///< x, XmitCost
    Time qdisc = MicroSeconds(1); ///< q, QdiscCost (any kind)
};

/**
 * @param cores Cores
 * @return a HostCpu with the Costs and a fixed scheduling latency
 */
Ptr<HostCpu>
MakeCpu(uint32_t cores)
{
    const Costs costs;
    Ptr<HostCpu> cpu = CreateObject<HostCpu>();
    cpu->SetAttribute("Cores", UintegerValue(cores));
    cpu->SetAttribute("HardIrqCost", TimeValue(costs.irq));
    cpu->SetAttribute("PollCost", TimeValue(costs.poll));
    cpu->SetAttribute("RxPacketCost", TimeValue(costs.rx));
    cpu->SetAttribute("TxPacketCost", TimeValue(costs.tx));
    cpu->SetAttribute("XmitCost", TimeValue(costs.xmit));
    cpu->SetAttribute("QdiscCost", TimeValue(costs.qdisc));
    cpu->SetAttribute("SchedulingLatency",
                      StringValue("ns3::ConstantRandomVariable[Constant=0.00005]"));
    cpu->AssignStreams(1);
    return cpu;
}

/**
 * @param series a series
 * @param key one of its keys
 * @return the key's values, one per sample
 */
std::vector<double>
Column(const Series& series, const std::string& key)
{
    const auto it = std::find(series.keys.begin(), series.keys.end(), key);
    std::vector<double> values;
    if (it == series.keys.end())
    {
        return values;
    }
    for (const Sample& sample : series.samples)
    {
        values.push_back(sample.values[static_cast<std::size_t>(it - series.keys.begin())]);
    }
    return values;
}

/**
 * @param values numbers
 * @return their sum
 */
double
Sum(const std::vector<double>& values)
{
    double sum = 0;
    for (double value : values)
    {
        sum += value;
    }
    return sum;
}

/**
 * @ingroup debloat-tests
 * @brief The load of a step is the sum of the costs in it over cores x step.
 *
 * A 1 Gbit/s NicNetDevice link; the receiver has rx-usecs 1 ms, SoftirqDelay 10 us and
 * NapiWeight 64, and a HostCpu of 2 cores with h = 1 us per hard interrupt, p = 2 us per
 * poll and c = 1.5 us per frame passed up. The sender sends bursts of N = 10, 20 and 40
 * 1500-byte frames at 0, 2 and 4 ms. A burst's frames arrive T = 12.304 us apart from
 * 2k ms + T, all within 40 T = 0.49 ms, so the interrupt (1 ms after the burst's first
 * frame) finds them all: one hard interrupt (h) at 2k ms + T + 1 ms on core 0 (the device's
 * single vector 0, 0 mod 2), one poll (10 us later) of the N frames (p + N c, N < 64 so it
 * completes), which ends by 2k ms + 1.09 ms: the burst's work lies inside the step
 * (2k, 2k + 2] ms.
 *
 * The sampler reads at 0 and samples every 2 ms until 8 ms: four samples at 2, 4, 6, 8 ms.
 * Each step holds cores x step = 2 x 2000 us = 4000 us of CPU time, so step k's
 * - load = (h + p + N c) / 4000 us: 18 / 4000, 33 / 4000, 63 / 4000, and 0 in the last;
 * - irq = h / 4000 us = 0.00025 (0 in the last), soft = (p + N c) / 4000 us, task = 0;
 * - load_cpu0 = (h + p + N c) / 2000 us, twice the load; load_cpu1 = 0.
 * The NIC's counters confirm the counts: 3 interrupts, 3 polls, 70 frames up.
 */
class CpuSamplerStepLoadTestCase : public TestCase
{
  public:
    CpuSamplerStepLoadTestCase()
        : TestCase("The load of a step is the sum of the costs in it over cores x step")
    {
    }

  private:
    void DoRun() override
    {
        NicHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
        helper.SetDeviceAttribute("NapiWeight", UintegerValue(64));
        helper.SetDeviceAttribute("RxUsecs", TimeValue(MilliSeconds(1)));
        helper.SetDeviceAttribute("SoftirqDelay",
                                  StringValue("ns3::ConstantRandomVariable[Constant=0.00001]"));
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devices = helper.Install(nodes);
        Ptr<NicNetDevice> tx = DynamicCast<NicNetDevice>(devices.Get(0));
        Ptr<NicNetDevice> rx = DynamicCast<NicNetDevice>(devices.Get(1));
        Ptr<HostCpu> cpu = MakeCpu(2);
        nodes.Get(1)->AggregateObject(cpu);

        Ptr<CpuSampler> sampler = CreateObject<CpuSampler>();
        sampler->SetAttribute("Interval", TimeValue(MilliSeconds(2)));
        sampler->SetHostCpu(cpu);
        sampler->Start(Seconds(0), MilliSeconds(8));
        const std::vector<uint32_t> bursts = {10, 20, 40};
        for (std::size_t k = 0; k < bursts.size(); ++k)
        {
            Simulator::Schedule(MilliSeconds(2 * k),
                                &debloattest::SendFrames,
                                tx,
                                rx,
                                bursts[k],
                                1500);
        }
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        const Series series = sampler->GetSeries("cpu_stats_receiver");
        const NicNetDevice::Stats stats = rx->GetStats();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(stats.interrupts, 3, "one interrupt per burst");
        NS_TEST_ASSERT_MSG_EQ(stats.polls, 3, "one poll per burst");
        NS_TEST_ASSERT_MSG_EQ(stats.rxPackets, 70, "10 + 20 + 40 frames up");
        NS_TEST_EXPECT_MSG_EQ(series.runner, "CpuStatsRunner", "flent's runner class");
        NS_TEST_EXPECT_MSG_EQ(series.units, "misc", "cpu_stats.inc's units");
        const std::vector<std::string> keys = {"load",
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
                                               "task_cpu1"};
        NS_TEST_ASSERT_MSG_EQ(series.keys.size(), keys.size(), "4 + 4 x 2 keys");
        for (std::size_t i = 0; i < keys.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(series.keys[i], keys[i], "key " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(series.samples.size(), 4, "samples at 2, 4, 6 and 8 ms");

        const Costs costs;
        const double h = costs.irq.GetMicroSeconds();
        const double p = costs.poll.GetMicroSeconds();
        const double c = costs.rx.GetNanoSeconds() / 1e3;
        const double total = 2 * 2000; // cores x step, us
        const std::vector<double> n = {10, 20, 40, 0};
        for (std::size_t k = 0; k < 4; ++k)
        {
            const Sample& sample = series.samples[k];
            const double work = n[k] > 0 ? h + p + n[k] * c : 0;
            const double soft = n[k] > 0 ? p + n[k] * c : 0;
            const double irq = n[k] > 0 ? h : 0;
            NS_TEST_EXPECT_MSG_EQ_TOL(sample.t, 0.002 * (k + 1), 1e-15, "sample " << k);
            const std::vector<double> expected = {work / total,
                                                  irq / total,
                                                  soft / total,
                                                  0,
                                                  work / 2000,
                                                  irq / 2000,
                                                  soft / 2000,
                                                  0,
                                                  0,
                                                  0,
                                                  0,
                                                  0};
            for (std::size_t i = 0; i < expected.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(sample.values[i],
                                          expected[i],
                                          1e-12,
                                          "sample " << k << " " << keys[i]);
            }
        }
    }
};

/// A two-node NicNetDevice link with IP, for flent runs.
struct FlentLink
{
    NodeContainer nodes;               ///< client, server
    Ptr<NicNetDevice> client;          ///< the client's device
    Ptr<NicNetDevice> server;          ///< the server's device
    Ipv4InterfaceContainer interfaces; ///< 10.0.0.1, 10.0.0.2
    std::array<uint64_t, 2> ipSent{};  ///< per node: IPv4 packets its NIC sent
};

/**
 * Counts an IPv4 packet sent on the NIC (interface 1; 0 is the loopback).
 * @param count the node's counter
 * @param packet the packet
 * @param ipv4 the node's IPv4
 * @param interface its interface
 */
void
CountIpSent(uint64_t* count, Ptr<const Packet> packet, Ptr<Ipv4> ipv4, uint32_t interface)
{
    *count += interface == 1 ? 1 : 0;
}

/**
 * Runs flent's ping test (LENGTH 2 s, STEP_SIZE 0.2 s, T0 = 1 s) over a 1 Gbit/s NIC link.
 * @param withCpu whether the client (2 cores) and the server (1 core) get a HostCpu
 * @param link the link, filled in
 * @return the run
 */
RunRecord
RunPing(bool withCpu, FlentLink& link)
{
    link.nodes.Create(2);
    NicHelper nic;
    nic.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    NetDeviceContainer devices = nic.Install(link.nodes);
    link.client = DynamicCast<NicNetDevice>(devices.Get(0));
    link.server = DynamicCast<NicNetDevice>(devices.Get(1));
    InternetStackHelper internet;
    internet.Install(link.nodes);
    Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");
    link.interfaces = address.Assign(devices);
    for (uint32_t i = 0; i < 2; ++i)
    {
        link.nodes.Get(i)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Tx",
            MakeBoundCallback(&CountIpSent, &link.ipSent[i]));
    }
    if (withCpu)
    {
        link.nodes.Get(0)->AggregateObject(MakeCpu(2));
        link.nodes.Get(1)->AggregateObject(MakeCpu(1));
    }
    FlentTestOptions options;
    options.length = 2;
    FlentTestHelper flent(FlentTest::Get("ping", options));
    flent.SetClient(link.nodes.Get(0), "client");
    flent.AddHost(link.nodes.Get(1), link.interfaces.GetAddress(1));
    // Already sampled as HOSTS' "server": not sampled twice.
    flent.AddCpuStats(link.nodes.Get(1), "again");
    flent.SetProgress(false);
    flent.Install(Seconds(1));
    Simulator::Stop(flent.GetEnd() + Seconds(1));
    Simulator::Run();
    RunRecord run = flent.Collect();
    Simulator::Destroy();
    return run;
}

/**
 * @param run a run
 * @param scope a metric's scope
 * @param name its name
 * @return its value, or NaN
 */
double
FindMetric(const RunRecord& run, const std::string& scope, const std::string& name)
{
    for (const Metric& metric : run.metrics)
    {
        if (metric.scope == scope && metric.name == name)
        {
            return metric.value;
        }
    }
    return NO_VALUE;
}

/**
 * @ingroup debloat-tests
 * @brief A flent run with HostCpus carries flent's cpu_stats series for each, the test
 * parameter cpu_stats_hosts and the netperf -c style metrics.
 *
 * flent's ping test, LENGTH = TOTAL_LENGTH = 2 s, STEP_SIZE 0.2 s, from T0 = 1 s: an ICMP
 * echo and an irtt probe every 0.2 s over a 1 Gbit/s NIC link, nothing before T0 and
 * everything answered and its TX descriptors reclaimed within milliseconds of the last
 * probe at T0 + 1.8 s. The client has 2 cores, the server 1, both with h = 1 us,
 * p = 2 us, c = 1.5 us, t = 0.5 us.
 *
 * cpu_stats.inc names the series "cpu_stats_<host>" for each host of cpu_stats_hosts; the
 * client is LOCAL_HOST "client", the server HOSTS' "server" (AddCpuStats() of it again
 * adds nothing): two series, cpu_stats_hosts = "client,server". Each has TOTAL_LENGTH /
 * STEP_SIZE = 10 samples, at 0.2 k s (k = 1..10).
 *
 * A node's busy time is the sum of its costs, from its NIC's counters: h x interrupts +
 * p x polls + c x frames up + t x frames sent (all reclaimed by the end), and x + q =
 * 3 + 1 us (XmitCost, and QdiscCost for the root qdisc ns-3's Ipv4AddressHelper installs,
 * fq_codel, one qdisc) for each IPv4 packet the node sent (Ipv4L3Protocol's Tx on the NIC;
 * its ARP frame costs no transmit path); all of it lies in (T0, T0 + 2 s], so the loads sum to it
 * over cores x step: sum_k load_k x cores x 0.2 s = busy. The hard interrupts are irq
 * (sum irq_k x cores x 0.2 s = h x interrupts), the transmit paths task (x + q per
 * packet sent, charged as task work), the rest softirq (a poll at this load never reaches
 * ksoftirqd). The device has one vector, served by core 0: the client's core 1 takes no
 * interrupt or poll, only transmit paths (charged on a core by flow hash).
 *
 * Metrics: a test without TCP flows uses the whole run, so cpu_util = 100 busy / (cores x
 * 2 s) %, cpu_irq = 100 h x interrupts / (cores x 2 s) %, cpu_task = 100 (x + q) x sent /
 * (cores x 2 s) %, and cpu_core_max between 100 (busy - task) / 2 s % (core 0 has all the
 * rest) and 100 busy / 2 s %. The printed comparison
 * has a CPU column per node.
 */
class FlentCpuStatsTestCase : public TestCase
{
  public:
    FlentCpuStatsTestCase()
        : TestCase("A flent run with HostCpus carries cpu_stats series and CPU metrics")
    {
    }

  private:
    void DoRun() override
    {
        FlentLink link;
        const RunRecord run = RunPing(true, link);
        const Costs costs;

        const auto hosts = run.testParameters.find("cpu_stats_hosts");
        NS_TEST_ASSERT_MSG_EQ((hosts != run.testParameters.end()), true, "cpu_stats_hosts");
        NS_TEST_EXPECT_MSG_EQ(hosts->second, "client,server", "both nodes, client first");
        const std::vector<std::pair<std::string, Ptr<NicNetDevice>>> nodes = {
            {"client", link.client},
            {"server", link.server}};
        for (const auto& [name, device] : nodes)
        {
            const uint32_t cores = name == "client" ? 2 : 1;
            const auto it = std::find_if(run.series.begin(), run.series.end(), [&](const auto& s) {
                return s.name == "cpu_stats_" + name;
            });
            NS_TEST_ASSERT_MSG_EQ((it != run.series.end()), true, "series of " << name);
            const Series& series = *it;
            NS_TEST_EXPECT_MSG_EQ(series.runner, "CpuStatsRunner", name);
            NS_TEST_EXPECT_MSG_EQ(series.units, "misc", name);
            NS_TEST_ASSERT_MSG_EQ(series.samples.size(), 10, name << ": 10 steps");
            for (std::size_t k = 0; k < 10; ++k)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(series.samples[k].t, 0.2 * (k + 1), 1e-12, name);
            }
            const NicNetDevice::Stats& stats = device->GetStats();
            NS_TEST_EXPECT_MSG_GT(stats.rxPackets, 0, name << " received");
            const uint64_t sent = link.ipSent[name == "client" ? 0 : 1];
            NS_TEST_EXPECT_MSG_GT(sent, 0, name << " sent");
            const Time irq = costs.irq * stats.interrupts;
            const Time task = (costs.xmit + costs.qdisc) * sent;
            const Time busy = irq + costs.poll * stats.polls + costs.rx * stats.rxPackets +
                              costs.tx * stats.txPackets + task;
            const double ns = cores * 0.2e9; // cores x step
            NS_TEST_EXPECT_MSG_EQ_TOL(Sum(Column(series, "load")) * ns,
                                      busy.GetNanoSeconds(),
                                      0.01,
                                      name << ": the loads add up to the costs");
            NS_TEST_EXPECT_MSG_EQ_TOL(Sum(Column(series, "irq")) * ns,
                                      irq.GetNanoSeconds(),
                                      0.01,
                                      name << ": irq is h x interrupts");
            NS_TEST_EXPECT_MSG_EQ_TOL(Sum(Column(series, "task")) * ns,
                                      task.GetNanoSeconds(),
                                      0.01,
                                      name << ": task is x + q per IPv4 packet sent");
            if (cores == 2)
            {
                // Only transmit paths (task work, on a core by flow hash) can reach core 1.
                NS_TEST_EXPECT_MSG_EQ(Sum(Column(series, "irq_cpu1")) +
                                          Sum(Column(series, "soft_cpu1")),
                                      0,
                                      "core 1 takes no interrupt or poll");
            }

            const std::string scope = "cpu_stats_" + name;
            const double window = cores * 2e9; // cores x the whole run, ns
            NS_TEST_EXPECT_MSG_EQ_TOL(FindMetric(run, scope, "cpu_util"),
                                      100.0 * busy.GetNanoSeconds() / window,
                                      1e-9,
                                      name << " cpu_util");
            NS_TEST_EXPECT_MSG_EQ_TOL(FindMetric(run, scope, "cpu_irq"),
                                      100.0 * irq.GetNanoSeconds() / window,
                                      1e-9,
                                      name << " cpu_irq");
            NS_TEST_EXPECT_MSG_EQ_TOL(FindMetric(run, scope, "cpu_task"),
                                      100.0 * task.GetNanoSeconds() / window,
                                      1e-9,
                                      name << " cpu_task");
            // Core 0 has every interrupt and poll and possibly transmit paths; core 1 at
            // most the transmit paths, less than the rest.
            NS_TEST_EXPECT_MSG_GT_OR_EQ(FindMetric(run, scope, "cpu_core_max"),
                                        100.0 * (busy - task).GetNanoSeconds() / 2e9 - 1e-9,
                                        name << " cpu_core_max: core 0's at least");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(FindMetric(run, scope, "cpu_core_max"),
                                        100.0 * busy.GetNanoSeconds() / 2e9 + 1e-9,
                                        name << " cpu_core_max: all of it at most");
        }
        const auto cpuSeries =
            std::count_if(run.series.begin(), run.series.end(), [](const Series& s) {
                return s.runner == "CpuStatsRunner";
            });
        NS_TEST_EXPECT_MSG_EQ(cpuSeries, 2, "one series per node, none for \"again\"");

        // The data file: raw samples with t and load, and flent's one result, "::load".
        const std::string json = FlentWriter::ToJson(run);
        NS_TEST_EXPECT_MSG_NE(json.find("\"cpu_stats_server::load\":["),
                              std::string::npos,
                              "results grid of the load");
        NS_TEST_EXPECT_MSG_NE(json.find("\"cpu_stats_hosts\":\"client,server\""),
                              std::string::npos,
                              "TEST_PARAMETERS");
        NS_TEST_EXPECT_MSG_NE(json.find("\"RUNNER\":\"CpuStatsRunner\""),
                              std::string::npos,
                              "SERIES_META RUNNER");
        std::ostringstream table;
        RunSummary::PrintComparison({run}, table);
        NS_TEST_EXPECT_MSG_NE(table.str().find("CPU client"), std::string::npos, "CPU column");
        NS_TEST_EXPECT_MSG_NE(table.str().find("CPU server"), std::string::npos, "CPU column");
    }
};

/**
 * @ingroup debloat-tests
 * @brief Without a HostCpu a flent run has no cpu_stats series, test parameter or metric,
 * and prints no CPU column.
 *
 * The same ping run without HostCpus: the series are the test's own two (ICMP and UDP), the
 * test parameters those of FlentTest::Get() (none for ping), no metric is named cpu_*, and
 * neither the printed summary nor the comparison mentions a CPU.
 */
class FlentWithoutCpuTestCase : public TestCase
{
  public:
    FlentWithoutCpuTestCase()
        : TestCase("Without a HostCpu a flent run has no CPU statistics")
    {
    }

  private:
    void DoRun() override
    {
        FlentLink link;
        const RunRecord run = RunPing(false, link);
        FlentTestOptions options;
        options.length = 2;
        const FlentTestSpec spec = FlentTest::Get("ping", options);
        NS_TEST_EXPECT_MSG_EQ(run.series.size(), 2, "ICMP and UDP series only");
        NS_TEST_EXPECT_MSG_EQ((run.testParameters == spec.testParameters),
                              true,
                              "the test's own parameters");
        for (const Metric& metric : run.metrics)
        {
            NS_TEST_EXPECT_MSG_EQ(metric.name.rfind("cpu_", 0), std::string::npos, metric.name);
        }
        std::ostringstream summary;
        RunSummary::Print(run, summary);
        RunSummary::PrintComparison({run}, summary);
        NS_TEST_EXPECT_MSG_EQ(summary.str().find("cpu"), std::string::npos, "no cpu rows");
        NS_TEST_EXPECT_MSG_EQ(summary.str().find("CPU"), std::string::npos, "no CPU column");
        NS_TEST_EXPECT_MSG_EQ(FlentWriter::ToJson(run).find("cpu_stats"),
                              std::string::npos,
                              "nothing about CPUs in the data file");
    }
};

/**
 * @ingroup debloat-tests
 * @brief The CpuSampler test suite.
 */
class CpuSamplerTestSuite : public TestSuite
{
  public:
    CpuSamplerTestSuite()
        : TestSuite("debloat-cpu-sampler", compat::SUITE_UNIT)
    {
        AddTestCase(new CpuSamplerStepLoadTestCase(), compat::TEST_QUICK);
        AddTestCase(new FlentCpuStatsTestCase(), compat::TEST_QUICK);
        AddTestCase(new FlentWithoutCpuTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's instance.
CpuSamplerTestSuite g_cpuSamplerTestSuite;

} // namespace
