/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat
 * The BQL patch series' request/response run: many concurrent netperf TCP_RR streams from a
 * host with a forcedeth NIC to a GigE peer, with and without BQL, reporting transactions per
 * second and the bytes in the hardware queue (Tom Herbert, "[PATCH 0/3] net: Byte queue
 * limit patch series", netdev, 2011: "200 stream of netperf RR tests").
 *
 * Topology (NicTopologyHelper preset "forcedeth-gige"):
 *
 *     host ========================== peer
 *          --rate (1 Gbit/s), 50 us; --profile NIC (forcedeth), pfifo_fast (1000 packets)
 *
 * Each size runs once without and once with BQL: --streams TCP_RR streams whose request
 * and response are both --sizes bytes (netperf -r N,N), for --length seconds after a
 * one-second start-up. The host's egress is sampled every 0.2 s (BQL inflight, ring bytes).
 * Each run goes into the SQLite results database (--db, "none" for none) as test "tcp_rr".
 *
 * Options: --sizes (comma-separated, default 1,140,1400,14000,140000), --streams (200),
 * --length (s, 5), --rate, --profile, --db, --check (exit 1 unless each size's rate lies
 * within the bounds the line allows, within 2% with and without BQL, and BQL cuts the
 * ring's bytes as much as the series saw; Check() derives each bound).
 *
 * Expected result (the patch series, forcedeth at GigE):
 *   140000: BQL 80-215K bytes in queue, 856 tps; no BQL 2700-2930K, 854 tps
 *   14000:  BQL 25-55K, 8500 tps; no BQL 1500-1622K, 8523 tps
 *   1400:   BQL 20-38K, 86582 tps; no BQL 29-117K, 85738 tps
 *   140:    BQL 1-10K, 320540 tps; no BQL 1-13K, 323158 tps
 *   1:      BQL 0-3K, 338811 tps; no BQL 0-3K, 339947 tps
 * Here the bytes in queue are the ring's bytes (5th to 95th percentile). The small-size
 * rates of the series were CPU-bound (34-41% CPU on a 2011 host); by default the simulation
 * has no CPU cost per transaction, so only the queue sizes and the large-size rates
 * compare. --cpu=PROFILE (a CpuProfile: generic, laptop-2011, nuc, atom-c2758,
 * xeon-e5-1650v4, armada385; --ns3::debloat::HostCpu::Cores=N and the other HostCpu
 * attributes override it) puts both hosts on that CPU: interrupts, polls, and netperf's
 * wake-ups and system calls take time, and the table adds each host's utilisation over the
 * test, as netperf -c and -C report it.
 */

#include "ns3/command-line-options.h"
#include "ns3/core-module.h"
#include "ns3/cpu-profile.h"
#include "ns3/cpu-sampler.h"
#include "ns3/device-sampler.h"
#include "ns3/host-cpu-helper.h"
#include "ns3/host-cpu.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/netperf-client.h"
#include "ns3/netperf-helper.h"
#include "ns3/network-module.h"
#include "ns3/nic-topology-helper.h"
#include "ns3/progress-log.h"
#include "ns3/results-database.h"
#include "ns3/run-summary.h"
#include "ns3/summary-stats.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// One run's settings.
struct Settings
{
    uint32_t size;       ///< request and response bytes
    bool bql;            ///< ByteQueueLimits on the host's TX queues
    uint32_t streams;    ///< concurrent TCP_RR streams
    double length;       ///< seconds of test
    std::string rate;    ///< line rate
    std::string profile; ///< NIC profile
    std::string cpu;     ///< both hosts' CpuProfile ("": infinitely fast CPUs)
    std::string pcap;    ///< pcap files' prefix ("": none)
};

/**
 * Runs the streams and records the run.
 * @param settings the run's settings
 * @return the run
 */
RunRecord
Run(const Settings& settings)
{
    LinuxTcpDefaults::Apply();
    NicTopologyHelper topology = NicTopologyHelper::Preset("forcedeth-gige");
    NicLinkConfig& link = topology.LeftLink(0);
    link.rate = settings.rate;
    for (NicInterfaceConfig* end : {&link.left, &link.right})
    {
        end->profile = settings.profile;
        end->bql = settings.bql;
    }
    if (!settings.pcap.empty())
    {
        topology.EnablePcapAll(settings.pcap + "-" + std::to_string(settings.size) +
                               (settings.bql ? "-bql" : ""));
    }
    topology.Install();
    const int64_t streams = topology.AssignStreams(1);
    const NodeContainer nodes = topology.GetNodes();
    if (!settings.cpu.empty())
    {
        HostCpuHelper cpu;
        cpu.SetProfile(settings.cpu);
        cpu.Install(nodes);
        HostCpuHelper::AssignStreams(nodes, 1 + streams);
    }
    const NetDeviceContainer devices = topology.GetLeftDevices(0);

    const Time start = Seconds(1);
    const Time end = start + Seconds(settings.length);
    NetperfHelper::InstallServer(nodes.Get(1));
    NetperfHelper netperf(topology.GetRightAddress(0), NetperfTest::TCP_RR);
    netperf.SetAttribute("RequestSize", UintegerValue(settings.size));
    netperf.SetAttribute("ResponseSize", UintegerValue(settings.size));
    ApplicationContainer clients = netperf.Install(nodes.Get(0), settings.streams);
    clients.Start(start);
    clients.Stop(end);
    Ptr<DeviceSampler> sampler = CreateObject<DeviceSampler>();
    sampler->SetDevice(devices.Get(0));
    sampler->Start(start, end);
    // netperf -c and -C: each host's CPU over the test (a step of 0.2 s, as the device's).
    std::vector<Ptr<CpuSampler>> cpuSamplers;
    for (uint32_t i = 0; i < nodes.GetN() && !settings.cpu.empty(); ++i)
    {
        Ptr<CpuSampler> cpuSampler = CreateObject<CpuSampler>();
        cpuSampler->SetHostCpu(nodes.Get(i)->GetObject<HostCpu>());
        cpuSampler->Start(start, end);
        cpuSamplers.push_back(cpuSampler);
    }
    Simulator::Stop(end + Seconds(1));
    Simulator::Run();

    RunRecord run;
    run.test = "tcp_rr";
    run.title = "size " + std::to_string(settings.size) + (settings.bql ? " BQL" : " no BQL");
    run.localHost = "host";
    run.hosts = {"peer"};
    run.length = settings.length;
    run.totalLength = settings.length;
    run.delay = 0;
    run.seed = RngSeedManager::GetSeed();
    run.run = RngSeedManager::GetRun();
    run.moduleVersion = DEBLOAT_VERSION;
    run.config = {{"size", static_cast<int64_t>(settings.size)},
                  {"bql", static_cast<int64_t>(settings.bql)},
                  {"streams", static_cast<int64_t>(settings.streams)},
                  {"rate", settings.rate},
                  {"profile", settings.profile}};
    Series rr;
    rr.name = "TCP_RR";
    rr.runner = "NetperfRrRunner";
    rr.units = "transactions/s";
    // The aggregate rate is all transactions over the common test time (a sum of per-stream
    // rates would overstate it when the streams' connections came up at different times).
    uint64_t transactions = 0;
    for (uint32_t i = 0; i < clients.GetN(); ++i)
    {
        transactions += DynamicCast<NetperfClient>(clients.Get(i))->GetTransactions();
    }
    rr.meta["MEAN_VALUE"] = static_cast<double>(transactions) / settings.length;
    run.series.push_back(rr);
    run.series.push_back(sampler->GetSeries("qdisc_stats_host"));
    for (uint32_t i = 0; i < cpuSamplers.size(); ++i)
    {
        run.series.push_back(
            cpuSamplers[i]->GetSeries(i == 0 ? "cpu_stats_host" : "cpu_stats_peer"));
    }
    if (!settings.cpu.empty())
    {
        run.config["cpu"] = settings.cpu;
    }
    run.metrics = RunSummary::ComputeMetrics(run);
    // No Config::Reset(): it would drop the user's --ns3::...= defaults after the first run.
    Simulator::Destroy();
    return run;
}

/**
 * @param run a run
 * @param scope a CPU's series ("cpu_stats_host")
 * @return its utilisation over the test, % of all its cores (netperf -c), or NaN
 */
double
CpuUtil(const RunRecord& run, const std::string& scope)
{
    for (const Metric& metric : run.metrics)
    {
        if (metric.scope == scope && metric.name == "cpu_util")
        {
            return metric.value;
        }
    }
    return NO_VALUE;
}

/**
 * @param run a run
 * @param key a key of its qdisc stats
 * @return the key's samples in KiB
 */
std::vector<double>
Kib(const RunRecord& run, const std::string& key)
{
    const Series& stats = run.series.back();
    const auto column = std::find(stats.keys.begin(), stats.keys.end(), key);
    std::vector<double> values;
    for (const Sample& sample : stats.samples)
    {
        values.push_back(sample.values[column - stats.keys.begin()] / 1024);
    }
    return values;
}

/**
 * @param run a run
 * @param key a key of its qdisc stats
 * @return "p5-p95" of the key in KiB
 */
std::string
Range(const RunRecord& run, const std::string& key)
{
    std::vector<double> values = Kib(run, key);
    std::ostringstream os;
    os << std::fixed << std::setprecision(0) << Percentile(values, 5) << "-"
       << Percentile(values, 95) << "K";
    return os.str();
}

/// pfifo_fast's txqueuelen on the host's egress.
constexpr double TXQUEUELEN = 1000;

/**
 * The series' ring bytes with BQL as a fraction of those without, at each size where BQL
 * cut them (the upper ends of the series' ranges): 38K / 117K at 1400, 55K / 1622K at 14000,
 * 215K / 2930K at 140000.
 * @param size the request and response size
 * @return the fraction, or 0 for a size the series did not compare
 */
double
SeriesRingFraction(uint32_t size)
{
    switch (size)
    {
    case 1400:
        return 38.0 / 117;
    case 14000:
        return 55.0 / 1622;
    case 140000:
        return 215.0 / 2930;
    default:
        return 0;
    }
}

/**
 * Checks one size against bounds derived from the line and against the series:
 * - a transaction carries size bytes each way in k = ceil(size / 1448) segments, each with
 *   90 bytes of headers and framing on the wire (52 of TCP/IP with timestamps, 14 Ethernet,
 *   4 FCS, 8 preamble, 12 gap), and the receiver's delayed ACKs, one per two segments
 *   (floor(k / 2) frames of 90 bytes; a lone segment's ACK rides on the answer). The line
 *   allows at most rate / 8 / (size + 90 k) transactions per second (no ACK frames), and
 *   from 1400 bytes up, where a few streams fill the line, the runs reach 99% of
 *   rate / 8 / (size + 90 k + 90 floor(k / 2)) (the 1% covers the connections' start), as
 *   long as no packet is lost: while streams x k segments fit in pfifo_fast's 1000 packets.
 *   Below 1400 bytes the rate is bound by the round trip, not the line (the series' small
 *   sizes were CPU-bound), and with more segments in flight tail drops and RTOs set it; in
 *   both cases only the upper bound applies;
 * - without loss, the same rate with and without BQL within 2% (the series' largest
 *   difference: 1.0%, at 1400 bytes);
 * - where the series saw BQL cut the ring's bytes (1400 bytes and up), the 95th percentile
 *   with BQL at most 1.5 times the series' fraction of the one without (SeriesRingFraction();
 *   the model has no CPU cost, so BQL's limit may settle lower, never higher by much).
 * @param size the request and response size
 * @param streams the concurrent streams
 * @param rate the line rate in bit/s
 * @param without the run without BQL
 * @param with the run with BQL
 * @return whether it holds (each failure printed)
 */
bool
Check(uint32_t size, uint32_t streams, double rate, const RunRecord& without, const RunRecord& with)
{
    bool ok = true;
    auto expect = [&ok, size](bool condition, const std::string& what) {
        if (!condition)
        {
            std::cerr << "check failed at size " << size << ": " << what << "\n";
            ok = false;
        }
    };
    auto tps = [](const RunRecord& run) {
        return std::get<double>(run.series.front().meta.at("MEAN_VALUE"));
    };
    const double k = std::ceil(size / 1448.0);
    const double hi = rate / 8 / (size + 90 * k);
    // Lossless only while every stream's answer fits in pfifo_fast at once (the ring adds
    // room, so this is conservative); beyond, tail drops and RTOs set the rate.
    const bool lossless = streams * k <= TXQUEUELEN;
    const double lo =
        size >= 1400 && lossless ? 0.99 * rate / 8 / (size + 90 * k + 90 * std::floor(k / 2)) : 0;
    for (const RunRecord* run : {&without, &with})
    {
        std::ostringstream what;
        what << run->title << ": " << tps(*run) << " transactions/s, expected " << lo << " to "
             << hi;
        expect(tps(*run) >= lo && tps(*run) <= hi, what.str());
    }
    std::ostringstream same;
    same << tps(without) << " against " << tps(with) << " transactions/s, expected within 2%";
    expect(!lossless || std::abs(tps(with) - tps(without)) <= 0.02 * tps(without), same.str());
    if (const double fraction = SeriesRingFraction(size))
    {
        std::vector<double> ringWithout = Kib(without, "ring_bytes");
        std::vector<double> ringWith = Kib(with, "ring_bytes");
        const double p95Without = Percentile(ringWithout, 95);
        const double p95With = Percentile(ringWith, 95);
        std::ostringstream what;
        what << "ring p95 " << p95With << "K with BQL against " << p95Without
             << "K without, expected at most " << 1.5 * fraction * p95Without << "K";
        expect(p95With <= 1.5 * fraction * p95Without, what.str());
    }
    return ok;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::vector<uint32_t> sizes{1, 140, 1400, 14000, 140000};
    Settings settings{1, false, 200, 5, "1Gbps", "forcedeth", "", ""};
    std::string db = "debloat-results.sqlite";
    bool check = false;
    bool progress = true;
    CommandLine cmd(__FILE__);
    CommandLineOptions::AddUnsignedList(cmd,
                                        "sizes",
                                        "request = response sizes in bytes, comma-separated",
                                        sizes,
                                        1,
                                        16 << 20);
    CommandLineOptions::AddUnsigned(cmd,
                                    "streams",
                                    "concurrent TCP_RR streams",
                                    settings.streams,
                                    1,
                                    10000);
    CommandLineOptions::AddDouble(cmd, "length", "seconds of test", settings.length, 1, 86400);
    CommandLineOptions::AddRate(cmd, "rate", "line rate", settings.rate);
    cmd.AddValue("profile", "NicNetDevice profile", settings.profile);
    cmd.AddValue("pcap",
                 "write both hosts' frames to PCAP-SIZE[-bql]-NODE-IFINDEX.pcap (empty: none)",
                 settings.pcap);
    cmd.AddValue("cpu",
                 "both hosts' CPU profile (generic, laptop-2011, nuc, atom-c2758, "
                 "xeon-e5-1650v4, armada385); default none: infinitely fast CPUs",
                 settings.cpu);
    cmd.AddValue("db", "SQLite results database (none: do not write one)", db);
    cmd.AddValue("check", "exit 1 unless the series' result holds", check);
    cmd.AddValue("progress", "print a line on stderr as each run starts and ends", progress);
    cmd.Parse(argc, argv);
    if (!settings.cpu.empty())
    {
        CpuProfile::Get(settings.cpu); // stops with the list of names for an unknown one
    }
    bool ok = true;

    std::cout << std::left << std::setw(8) << "size" << std::setw(8) << "BQL" << std::setw(18)
              << "bytes in ring" << std::setw(18) << "BQL inflight" << std::setw(16)
              << "transactions/s" << (settings.cpu.empty() ? "" : "  CPU host %  CPU peer %")
              << "\n";
    ProgressLog log(progress ? &std::clog : nullptr, 2 * sizes.size());
    std::size_t index = 0;
    for (uint32_t size : sizes)
    {
        settings.size = size;
        std::map<bool, RunRecord> runs;
        for (bool bql : {false, true})
        {
            settings.bql = bql;
            const std::string label = std::to_string(size) + (bql ? " bytes, BQL" : " bytes");
            log.Start(index, label);
            const RunRecord& run = runs[bql] = Run(settings);
            log.End(index++, label);
            std::cout << std::setw(8) << settings.size << std::setw(8) << (bql ? "yes" : "no")
                      << std::setw(18) << Range(run, "ring_bytes") << std::setw(18)
                      << (bql ? Range(run, "bql_inflight") : "-") << std::fixed
                      << std::setprecision(0) << std::setw(16)
                      << std::get<double>(run.series.front().meta.at("MEAN_VALUE"));
            if (!settings.cpu.empty())
            {
                std::cout << std::setprecision(2) << "  " << std::setw(11)
                          << CpuUtil(run, "cpu_stats_host") << std::setw(11)
                          << CpuUtil(run, "cpu_stats_peer");
            }
            std::cout << std::endl; // each row as it comes
            if (db != "none")
            {
                ResultsDatabase(db).Write(run);
            }
        }
        if (check)
        {
            ok = Check(settings.size,
                       settings.streams,
                       static_cast<double>(DataRate(settings.rate).GetBitRate()),
                       runs[false],
                       runs[true]) &&
                 ok;
        }
    }
    return ok ? 0 : 1;
}
