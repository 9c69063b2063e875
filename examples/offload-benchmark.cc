/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat
 * Cost of simulating flent's rrul_be over the seed 002 rig with offloads on and off, at
 * 1 and 10 Gbit/s, side by side in one process.
 *
 * Topology (NicTopologyHelper preset "nuc-rangeley-nuc"; --rate=10Gbps sets both links and
 * puts every port on the ixgbe profile, which holds 10 Gbit/s where e1000e and igb cannot):
 *
 *     nuc1 (e1000e) ==== rangeley (igb, 8 TX queues) ==== nuc2 (e1000e)
 *
 * Every egress runs fq_codel with BQL (the main experiment's fq_codel+bql). Offloads on:
 * every NIC end has "tso on gso on gro on" and both hosts run TCP small queues with
 * tcp_limit_output_bytes 1048576 (Linux 4.20 and later); offloads off: the preset as it is.
 * The TCP stack starts from LinuxTcpDefaults, as in gige-aqm-comparison.
 *
 * Each configuration (rate, offloads) runs flent rrul_be once (LENGTH --length, DELAY 1 s,
 * STEP_SIZE 0.2 s, qdisc stats at both hosts), one after another. Events scheduled at the
 * start and the end of the load phase (DELAY to DELAY + LENGTH) read the process's CPU time
 * (getrusage, user + system), the simulator's executed events (Simulator::GetEventCount())
 * and the bytes the netperf flows received (the server's uploads, the client's downloads),
 * so the idle phases before and after do not flatter the figures. The table gives, over the
 * load: simulated seconds per CPU second, events and CPU milliseconds per transferred
 * megabyte (10^6 bytes), the goodput flent reports, and with offloads on the ratio of the
 * per-megabyte costs to offloads off at the same rate; the last column is simulated seconds
 * per CPU second over the whole run.
 *
 * Targets (issue 15): at 1 Gbit/s with offloads on, at least real time (simulated seconds
 * per CPU second >= 1 under load); at 10 Gbit/s, >= 0.2. The benchmark prints whether they
 * hold; its exit status does not depend on them (the figures depend on the machine). The
 * goodput column shows what the rig moved.
 *
 * Options: --length (LENGTH, whole seconds, default 5), --rate (all, 1Gbps, 10Gbps),
 * --offloads (all, on, off).
 */

#include "benchmark-meter.h"

#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/flent-test-helper.h"
#include "ns3/flent-test.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/netperf-client.h"
#include "ns3/netperf-server.h"
#include "ns3/network-module.h"
#include "ns3/nic-topology-helper.h"
#include "ns3/run-summary.h"

#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

using debloat_benchmark::BenchmarkMeter;

/// What the counters read at one instant of a run.
struct Snapshot
{
    double cpu{0};      ///< CPU seconds of the process
    uint64_t events{0}; ///< events executed
    uint64_t bytes{0};  ///< bytes the netperf flows received
};

/// The figures of one run.
struct Result
{
    double loadSeconds{0}; ///< simulated seconds of the load phase
    double loadCpu{0};     ///< CPU seconds of the load phase
    uint64_t events{0};    ///< events of the load phase
    uint64_t bytes{0};     ///< bytes received during the load phase
    double goodputMbps{0}; ///< flent's upload + download goodput under load
    double runSeconds{0};  ///< simulated seconds of the whole run
    double runCpu{0};      ///< CPU seconds of the whole run
};

/**
 * @param server the host's netperf server (uploads)
 * @param clients the client's netperf clients (TCP_MAERTS: downloads)
 * @return the counters now
 */
Snapshot
Take(Ptr<NetperfServer> server, const std::vector<Ptr<NetperfClient>>& clients)
{
    Snapshot snapshot;
    snapshot.cpu = BenchmarkMeter::CpuSeconds();
    snapshot.events = Simulator::GetEventCount();
    // TCP_STREAM clients count acknowledged bytes; the server's count is what arrived.
    snapshot.bytes = server->GetBytesReceived();
    for (const Ptr<NetperfClient>& client : clients)
    {
        if (client->GetTest() == NetperfTest::TCP_MAERTS)
        {
            snapshot.bytes += client->GetBytes();
        }
    }
    return snapshot;
}

/**
 * Runs flent rrul_be over the seed 002 rig once.
 * @param rate both links' line rate
 * @param offloads whether TSO, GSO, GRO and TSQ are on
 * @param length LENGTH, seconds
 * @return the figures
 */
Result
Run(const std::string& rate, bool offloads, uint32_t length)
{
    LinuxTcpDefaults::Apply();
    NicTopologyHelper topology = NicTopologyHelper::Preset("nuc-rangeley-nuc");
    // The seed's e1000e and i354 cannot carry 10 Gbit/s (their rings and interrupt rates
    // hold them to 2.5-5.3): the 10 Gbit/s rig has ixgbe ports, the rangeley's with its 8
    // queue pairs as the i354's.
    const bool tenGig = DataRate(rate) > DataRate("1Gbps");
    for (NicLinkConfig* link : {&topology.LeftLink(0), &topology.RightLink(0)})
    {
        link->rate = rate;
        for (NicInterfaceConfig* end : {&link->left, &link->right})
        {
            if (tenGig)
            {
                end->profile = "ixgbe";
            }
            end->qdisc = "fq_codel";
            end->bql = true;
            if (offloads)
            {
                end->offloads = "tso on gso on gro on";
            }
        }
    }
    if (offloads)
    {
        topology.LeftLink(0).left.tsqLimitOutputBytes = 1048576;
        topology.RightLink(0).right.tsqLimitOutputBytes = 1048576;
    }
    topology.Install();
    topology.AssignStreams(1);

    FlentTestOptions options;
    options.length = length;
    options.delay = 1;
    options.stepSize = 0.2;
    options.hosts = {topology.GetRightName(0)};
    options.qdiscStats = {{topology.GetLeftName(0), "eth0"}, {topology.GetRightName(0), "eth0"}};
    FlentTestHelper flent(FlentTest::Get("rrul_be", options));
    flent.SetClient(topology.GetLeft(0), topology.GetLeftName(0));
    flent.AddHost(topology.GetRight(0), topology.GetRightAddress(0));
    flent.AddQdiscStats(topology.GetLeftDevices(0).Get(0));
    flent.AddQdiscStats(topology.GetRightDevices(0).Get(1));
    flent.SetProgress(false);
    const Time start = Seconds(1); // one second for ARP and routing to settle
    flent.Install(start);

    Ptr<NetperfServer> server;
    for (uint32_t i = 0; i < topology.GetRight(0)->GetNApplications(); ++i)
    {
        if (Ptr<NetperfServer> app =
                DynamicCast<NetperfServer>(topology.GetRight(0)->GetApplication(i)))
        {
            server = app;
        }
    }
    std::vector<Ptr<NetperfClient>> clients;
    for (uint32_t i = 0; i < topology.GetLeft(0)->GetNApplications(); ++i)
    {
        if (Ptr<NetperfClient> app =
                DynamicCast<NetperfClient>(topology.GetLeft(0)->GetApplication(i)))
        {
            clients.push_back(app);
        }
    }
    NS_ABORT_MSG_IF(!server || clients.empty(), "offload-benchmark: no netperf flows installed");

    Snapshot loadStart;
    Snapshot loadEnd;
    const Time loadBegin = start + Seconds(options.delay);
    compat::ScheduleFunction(loadBegin, [&]() { loadStart = Take(server, clients); });
    compat::ScheduleFunction(loadBegin + Seconds(length),
                             [&]() { loadEnd = Take(server, clients); });

    Simulator::Stop(flent.GetEnd() + Seconds(1));
    const double cpuBefore = BenchmarkMeter::CpuSeconds();
    Simulator::Run();
    Result result;
    result.runCpu = BenchmarkMeter::CpuSeconds() - cpuBefore;
    result.runSeconds = Simulator::Now().GetSeconds();
    const RunRecord run = flent.Collect();
    Simulator::Destroy();

    const RunSummary::Headline headline = RunSummary::GetHeadline(run);
    result.loadSeconds = length;
    result.loadCpu = loadEnd.cpu - loadStart.cpu;
    result.events = loadEnd.events - loadStart.events;
    result.bytes = loadEnd.bytes - loadStart.bytes;
    result.goodputMbps = headline.uploadMbps + headline.downloadMbps;
    return result;
}

/**
 * @param numerator a figure
 * @param denominator what it is divided by
 * @return their ratio, 0 for a zero denominator
 */
double
Ratio(double numerator, double denominator)
{
    return denominator > 0 ? numerator / denominator : 0;
}

/**
 * Prints whether a target holds.
 * @param results the results by (rate, offloads on)
 * @param rate the rate
 * @param target the least simulated seconds per CPU second
 */
void
PrintTarget(const std::map<std::pair<std::string, bool>, Result>& results,
            const std::string& rate,
            double target)
{
    std::cout << std::defaultfloat << "Target at " << rate
              << " with offloads on, simulated s per CPU s under load >= " << target << ": ";
    const auto it = results.find({rate, true});
    if (it == results.end())
    {
        std::cout << "not measured\n";
        return;
    }
    const double speed = Ratio(it->second.loadSeconds, it->second.loadCpu);
    std::cout << (speed >= target ? "holds" : "does NOT hold") << " (" << std::fixed
              << std::setprecision(3) << speed << ")\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t length = 5;
    std::string rate = "all";
    std::string offloads = "all";
    CommandLine cmd(__FILE__);
    cmd.AddValue("length", "LENGTH: seconds of load per configuration", length);
    cmd.AddValue("rate", "all, 1Gbps or 10Gbps", rate);
    cmd.AddValue("offloads", "all, on or off", offloads);
    cmd.Parse(argc, argv);
    if (length < 1)
    {
        std::cerr << "--length=" << length << " is out of range; accepted: 1 or more seconds\n";
        return 1;
    }
    std::vector<std::string> rates{"1Gbps", "10Gbps"};
    if (rate != "all")
    {
        if (rate != "1Gbps" && rate != "10Gbps")
        {
            std::cerr << "--rate=" << rate << " is not accepted; accepted: all, 1Gbps, 10Gbps\n";
            return 1;
        }
        rates = {rate};
    }
    // Off first, so that the on row can show its ratio to off.
    std::vector<bool> modes{false, true};
    if (offloads != "all")
    {
        if (offloads != "on" && offloads != "off")
        {
            std::cerr << "--offloads=" << offloads << " is not accepted; accepted: all, on, off\n";
            return 1;
        }
        modes = {offloads == "on"};
    }

    std::cout << "flent rrul_be over nuc -> rangeley -> nuc, fq_codel+bql on every egress, LENGTH "
              << length << " s; figures over the load phase\n\n"
              << std::left << std::setw(8) << "rate" << std::setw(10) << "offloads" << std::right
              << std::setw(8) << "sim s" << std::setw(9) << "CPU s" << std::setw(11) << "sim/CPU"
              << std::setw(12) << "events" << std::setw(10) << "MB" << std::setw(12) << "events/MB"
              << std::setw(11) << "CPU ms/MB" << std::setw(10) << "Mbit/s" << std::setw(16)
              << "vs off: ev, CPU" << std::setw(12) << "run sim/CPU" << std::endl;
    std::map<std::pair<std::string, bool>, Result> results;
    for (const std::string& r : rates)
    {
        for (bool on : modes)
        {
            const Result result = Run(r, on, length);
            results[{r, on}] = result;
            const double megabytes = static_cast<double>(result.bytes) / 1e6;
            const double eventsPerMb = Ratio(static_cast<double>(result.events), megabytes);
            const double cpuMsPerMb = Ratio(result.loadCpu * 1e3, megabytes);
            std::cout << std::left << std::setw(8) << r << std::setw(10) << (on ? "on" : "off")
                      << std::right << std::fixed << std::setprecision(1) << std::setw(8)
                      << result.loadSeconds << std::setprecision(2) << std::setw(9)
                      << result.loadCpu << std::setprecision(3) << std::setw(11)
                      << Ratio(result.loadSeconds, result.loadCpu) << std::setw(12) << result.events
                      << std::setprecision(1) << std::setw(10) << megabytes << std::setprecision(0)
                      << std::setw(12) << eventsPerMb << std::setprecision(2) << std::setw(11)
                      << cpuMsPerMb << std::setprecision(1) << std::setw(10) << result.goodputMbps;
            const auto off = results.find({r, false});
            if (on && off != results.end())
            {
                const Result& base = off->second;
                const double baseMb = static_cast<double>(base.bytes) / 1e6;
                const double baseEvents = Ratio(static_cast<double>(base.events), baseMb);
                const double baseCpu = Ratio(base.loadCpu * 1e3, baseMb);
                std::ostringstream ratio;
                ratio << std::fixed << std::setprecision(2) << Ratio(eventsPerMb, baseEvents)
                      << "x, " << Ratio(cpuMsPerMb, baseCpu) << "x";
                std::cout << std::setw(16) << ratio.str();
            }
            else
            {
                std::cout << std::setw(16) << "-"; // no offloads-off run to compare with
            }
            // Flushed: a run takes minutes, so each row shows as soon as it is known.
            std::cout << std::setprecision(3) << std::setw(12)
                      << Ratio(result.runSeconds, result.runCpu) << std::endl;
        }
    }
    std::cout << "\nMB: 10^6 bytes the netperf flows received under load; Mbit/s: flent's upload "
                 "+ download goodput.\n";
    PrintTarget(results, "1Gbps", 1.0);
    PrintTarget(results, "10Gbps", 0.2);
    return 0;
}
