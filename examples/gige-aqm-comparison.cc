/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat
 * The module's main experiment: flent's rrul_be across nuc -> rangeley -> nuc at GigE,
 * comparing queue disciplines with and without Byte Queue Limits, after the third seed
 * ("A little nearly GigE testing of various AQM and packet scheduling and fair queuing
 * technologies", Dave Taht, Bloat list, 2014).
 *
 * Topology (NicTopologyHelper preset "nuc-rangeley-nuc"):
 *
 *     nuc1 ================== rangeley ================== nuc2
 *     e1000e        1 Gbit/s  igb (i354)  1 Gbit/s       e1000e
 *     (client)      1 us      8 TX queues 1 us           (server)
 *
 * Every egress (both NUCs and both router ports) runs the configuration's root qdisc, with
 * BQL on every TX queue when the configuration ends in "+bql". The links all run at line
 * rate, so the queues build at the NUCs: nuc1's egress for the uploads, nuc2's for the
 * downloads.
 *
 * Configurations run side by side, one process each (--jobs, default one per processor).
 * Each writes a flent data file (--outputDir/<test>-<config>.flent.gz, plotted by the real
 * flent: `flent -i FILE -p all_scaled`), a run in the SQLite results database (--db), and the
 * comparison table is printed at the end.
 *
 * Options:
 * - --configs: comma-separated [mq-]QDISC[+bql], QDISC one of pfifo_fast, codel, pie, sfq,
 *   fq_codel, cake (default pfifo_fast,fq_codel+bql,sfq+bql,cake+bql: the README's run); with
 *   "mq-" the rangeley's ports run mq with QDISC on each TX queue (the NUCs QDISC as root);
 * - --test: rrul_be (default) or rrul (diffserv marks: cake's tins and pfifo_fast's bands);
 * - --length, --delay, --step: flent's LENGTH, DELAY and STEP_SIZE in seconds (6, 2, 0.02:
 *   flent pings every STEP_SIZE, so 300 pings under load, enough for a p99);
 * - --bqlLimitMax: BQL limit_max in bytes (default 0: the kernel's; the seed ran 8000 and
 *   32000);
 * - --routerQueues: the rangeley's TX queues (8, or 1 for the seed's birthday-problem
 *   comparison);
 * - --egressRate: the rangeley -- nuc2 link's rate (default 1Gbps, the seed's). Below the
 *   NUCs' GigE the rangeley's egress is the uploads' bottleneck and its TX queues hold the
 *   standing queue: the run then also prints each upload flow's goodput, the smallest over
 *   the largest and Jain's index (issue 18's variant: flows that share a TX queue share the
 *   hardware's turn for that queue, the seed's birthday problem);
 * - --rss: the rangeley's ports as Linux runs igb: RSS over --routerQueues RX queues, each
 *   forwarded flow on the TX queue of its RX queue (RecordRxQueue);
 * - --pcap=PREFIX: every interface's frames in PREFIX-CONFIG-NODE-IFINDEX.pcap (tcpdump -w);
 * - --limit: packet limit of codel and pie (the seed: 1000, then 10000; default 10000);
 * - --offloads: the seed's hosts (NicTopologyHelper::Preset with seedHosts): TSO, GSO and
 *   GRO on every NIC and TCP small queues (Linux 3.18's tcp_limit_output_bytes 131072) on
 *   the NUCs (default off, the ideal hosts of the earlier results);
 * - --cpu: CPUs (HostCpu): the nuc profile on the NUCs and atom-c2758 on the rangeley
 *   (calibrated against a measured Linux forwarding rate, scaled by clock); interrupts, polls,
 * forwarding, qdiscs, transmit paths and netperf's wake-ups take time (default off: infinitely fast
 * CPUs; --check refuses it);
 * - --jobs, --outputDir (default "."), --db (default gige-aqm-comparison.sqlite, "none" for
 *   none), --check (exit 1 unless the seed's qualitative result holds), and ns-3's --RngRun.
 *
 * Expected result (the seed, which shows plots rather than a table):
 *   "cake and cake2 wins on latency and throughput across the board"; "variants of codel
 *    beat pie across the board on latency and are an even match on throughput";
 *   "At these rates. BQL is *needed* to keep the hardware busy ... With insufficient BQL
 *    the various algos starve ... Most of the tests ran with BQL = 8000 ... The bql 32000
 *    results were much better"; "Limited numbers of hardware queues (the rangeley has 8)
 *    hit the birthday problem"; "A packet limit of 1000 results in some tail drop behavior
 *    on pie and codel with offloads off. Upped it to 10000."
 * The latency each configuration induces: pfifo_fast without BQL keeps ping behind up to
 * 1000 packets of qdisc plus the ring at each NUC, 12.3 us a packet at GigE; fq_codel, sfq
 * and cake with BQL serve the sparse ping first and leave it behind a few packets of ring, at
 * about the line's goodput (1 Gbit/s x 1448 / (1538 + 42): each 1538-byte frame on the wire
 * shares it with half an 84-byte ACK of the other direction, 916.5 Mbit/s).
 * --check asserts bounds derived from these (CheckRuns(): the flow-queueing qdiscs with BQL
 * at 98-100% of 916.5 Mbit/s each way and at most 2.05 ms induced, 4.21 ms with the seed's
 * offloads; pfifo_fast above that and at most its full buffers' 31.9 ms). The manual's chapter on
 * this seed (Seed 002) has the measured numbers, the seed's variants (BQL limit_max 8000 against
 * 32000, one TX queue against eight, a packet limit of 1000 against 10000) and how they compare,
 * with and without the seed's offloads. Without --cpu the model has no CPU cost: the rangeley
 * "loafing" has no counterpart, and BQL's limit settles from the modelled interrupt timing
 * alone; with it, the scheduler's latency enters BQL's hold-off (the host CPU chapter).
 */

#include "ns3/command-line-options.h"
#include "ns3/core-module.h"
#include "ns3/dql.h"
#include "ns3/flent-test-helper.h"
#include "ns3/flent-test.h"
#include "ns3/host-cpu-helper.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/network-module.h"
#include "ns3/nic-topology-helper.h"
#include "ns3/run-summary.h"
#include "ns3/seed-experiment.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// The qdiscs the seed compared.
const std::vector<std::string> QDISCS = {"pfifo_fast", "codel", "pie", "sfq", "fq_codel", "cake"};

/// The scenario's settings, from the command line.
struct Settings
{
    std::string test{"rrul_be"};     ///< flent test
    double length{6};                ///< LENGTH, s
    double delay{2};                 ///< DELAY, s
    double step{0.02};               ///< STEP_SIZE, s: 300 pings under load
    uint32_t bqlLimitMax{0};         ///< 0: the kernel's
    uint32_t routerQueues{8};        ///< the rangeley's TX queues
    uint32_t limit{10000};           ///< codel and pie packet limit
    bool offloads{false};            ///< the seed hosts' TSO/GSO/GRO and TSQ
    bool cpu{false};                 ///< the NUCs' and the rangeley's CPU profiles
    std::string egressRate{"1Gbps"}; ///< the rangeley -- nuc2 link's rate (the seed's GigE)
    bool rss{false};                 ///< the rangeley's ports: RSS queues, RX queue recorded
};

/// One configuration: a qdisc and whether BQL runs.
struct EgressConfig
{
    std::string label; ///< as given, e.g. "fq_codel+bql"
    std::string qdisc; ///< tc text
    bool bql{false};   ///< BQL on every TX queue
    bool mq{false};    ///< the rangeley's ports: mq with the qdisc per TX queue
};

/**
 * The rangeley's qdisc for a configuration: the qdisc as the root over all TX queues (`tc
 * qdisc add dev X root QDISC`), or under mq one per TX queue (`tc qdisc replace dev X parent
 * :N QDISC` for every N).
 * @param config the configuration
 * @param queues the rangeley's TX queues
 * @return tc text
 */
std::string
RouterQdisc(const EgressConfig& config, uint32_t queues)
{
    if (!config.mq)
    {
        return config.qdisc;
    }
    std::ostringstream text;
    text << "mq";
    for (uint32_t queue = 1; queue <= queues; ++queue)
    {
        text << "; parent :" << std::hex << queue << std::dec << " " << config.qdisc;
    }
    return text.str();
}

/**
 * Parses "QDISC[+bql]".
 * @param label the configuration's name
 * @param settings the settings (codel's and pie's limit)
 * @return the configuration
 * @throws std::invalid_argument naming the accepted values
 */
EgressConfig
ParseConfig(const std::string& label, const Settings& settings)
{
    EgressConfig config;
    config.label = label;
    std::string name = label;
    const std::string prefix = "mq-";
    if (name.compare(0, prefix.size(), prefix) == 0)
    {
        config.mq = true;
        name = name.substr(prefix.size());
    }
    const std::string suffix = "+bql";
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    {
        config.bql = true;
        name.resize(name.size() - suffix.size());
    }
    if (std::find(QDISCS.begin(), QDISCS.end(), name) == QDISCS.end())
    {
        std::string accepted;
        for (const std::string& qdisc : QDISCS)
        {
            accepted += (accepted.empty() ? "" : ", ") + qdisc;
        }
        throw std::invalid_argument("--configs: \"" + label +
                                    "\" is unknown; accepted: [mq-]QDISC[+bql], QDISC one of " +
                                    accepted);
    }
    config.qdisc = name;
    if (name == "codel" || name == "pie")
    {
        // The seed ran both with ECN on.
        config.qdisc += " limit " + std::to_string(settings.limit) + " ecn";
    }
    return config;
}

/**
 * The rig before its qdiscs: the preset, the rangeley's TX queues (and with --rss its RSS
 * queues), the rangeley -- nuc2 link's rate.
 * @param settings the settings
 * @return the topology, not installed
 */
NicTopologyHelper
MakeTopology(const Settings& settings)
{
    NicTopologyHelper topology = NicTopologyHelper::Preset("nuc-rangeley-nuc", settings.offloads);
    for (NicInterfaceConfig* end : {&topology.LeftLink(0).right, &topology.RightLink(0).left})
    {
        end->txQueues = settings.routerQueues;
        if (settings.rss)
        {
            // igb as Linux runs it: RSS over as many RX queues as TX queues (combined
            // channels), each frame's RX queue recorded, so a forwarded flow leaves on the
            // TX queue of its RSS queue.
            end->rxQueues = settings.routerQueues;
            end->attributes["RecordRxQueue"] = "true";
        }
    }
    topology.RightLink(0).rate = settings.egressRate;
    return topology;
}

/**
 * Builds and runs one configuration (in its own process).
 * @param config the configuration
 * @param settings the settings
 * @param pcap the pcap files' prefix ("": none)
 * @return the run
 */
RunRecord
Run(const EgressConfig& config, const Settings& settings, const std::string& pcap)
{
    LinuxTcpDefaults::Apply();
    NicTopologyHelper topology = MakeTopology(settings);
    for (NicLinkConfig* link : {&topology.LeftLink(0), &topology.RightLink(0)})
    {
        for (NicInterfaceConfig* end : {&link->left, &link->right})
        {
            const bool router =
                end == &topology.LeftLink(0).right || end == &topology.RightLink(0).left;
            end->qdisc = router ? RouterQdisc(config, settings.routerQueues) : config.qdisc;
            end->bql = config.bql;
            if (config.bql && settings.bqlLimitMax != 0)
            {
                end->bqlLimitMax = settings.bqlLimitMax;
            }
        }
    }
    if (!pcap.empty())
    {
        topology.EnablePcapAll(pcap);
    }
    topology.Install();
    const int64_t streams = topology.AssignStreams(1);
    if (settings.cpu)
    {
        // The NUCs' Core i5-4250U and the rangeley's Atom C2758 (scaled profiles).
        HostCpuHelper nuc;
        nuc.SetProfile("nuc");
        nuc.Install(NodeContainer(topology.GetLeft(0), topology.GetRight(0)));
        HostCpuHelper atom;
        atom.SetProfile("atom-c2758");
        atom.Install(topology.GetRouter(0));
        HostCpuHelper::AssignStreams(topology.GetNodes(), 1 + streams);
    }

    FlentTestOptions options;
    options.length = settings.length;
    options.delay = settings.delay;
    options.stepSize = settings.step;
    options.hosts = {topology.GetRightName(0)};
    options.qdiscStats = {{topology.GetLeftName(0), "eth0"}, {topology.GetRightName(0), "eth0"}};
    FlentTestHelper flent(FlentTest::Get(settings.test, options));
    flent.SetClient(topology.GetLeft(0), topology.GetLeftName(0));
    flent.AddHost(topology.GetRight(0), topology.GetRightAddress(0));
    flent.AddQdiscStats(topology.GetLeftDevices(0).Get(0));
    flent.AddQdiscStats(topology.GetRightDevices(0).Get(1));
    flent.SetProgress(false);
    flent.Install(Seconds(1)); // one second for ARP and routing to settle
    Simulator::Stop(flent.GetEnd() + Seconds(1));
    Simulator::Run();
    RunRecord run = flent.Collect();
    Simulator::Destroy();
    run.title = config.label;
    run.epoch = 1767225600; // 2026-01-01: the same seed writes the same file
    run.config = {{"topology", std::string("nuc-rangeley-nuc")},
                  {"qdisc", config.qdisc},
                  {"bql", static_cast<int64_t>(config.bql)},
                  {"bql_limit_max", static_cast<int64_t>(settings.bqlLimitMax)},
                  {"router_tx_queues", static_cast<int64_t>(settings.routerQueues)},
                  {"router_qdisc", RouterQdisc(config, settings.routerQueues)},
                  {"router_rss", static_cast<int64_t>(settings.rss)},
                  {"egress_rate", settings.egressRate},
                  {"offloads", static_cast<int64_t>(settings.offloads)}};
    if (settings.cpu)
    {
        run.config["cpu"] = std::string("nuc,atom-c2758,nuc");
    }
    for (const auto& [path, value] : LinuxTcpDefaults::Settings())
    {
        run.config[path] = value;
    }
    return run;
}

/// GigE: bits per second of every link.
constexpr double LINE_BPS = 1e9;
/// A full-sized frame on the wire: 1500 bytes of IP, 14 of Ethernet header, 4 of FCS, 8 of
/// preamble and 12 of inter-frame gap.
constexpr double FRAME_WIRE_BYTES = 1538;
/// The ping's interrupt-delay bound per receiving NIC under load: e1000e's and igb's
/// conservative dynamic ITR never falls below 4000 interrupts/s (250 us between interrupts).
constexpr double ITR_FLOOR_S = 1.0 / 4000;
/// Receiving NICs on the ping's round trip: rangeley and nuc2 out, rangeley and nuc1 back.
constexpr double RECEIVERS = 4;
/// The e1000e's TX ring (ethtool -G tx) at each NUC.
constexpr double NUC_TX_RING = 256;
/// pfifo_fast's txqueuelen.
constexpr double TXQUEUELEN = 1000;

/**
 * The line's TCP goodput per direction when both directions are loaded: each 1538-byte frame
 * carries 1448 bytes of payload and, without GRO, shares the wire with half an 84-byte ACK
 * (one delayed ACK per two segments of the other direction's data); with the seed's offloads
 * the receivers ACK GRO packets, so at most the ACK-free 1448 / 1538.
 * @param offloads whether the seed's offloads run
 * @return Mbit/s
 */
double
LineGoodputMbps(bool offloads)
{
    const double ackShare = offloads ? 0 : 84.0 / 2;
    return LINE_BPS * 1448 / (FRAME_WIRE_BYTES + ackShare) / 1e6;
}

/**
 * The latency a flow-queueing qdisc with BQL may induce on the sparse ping at most: the
 * qdisc serves the ping first, so it waits only behind the bytes BQL lets into the ring at
 * each egress it crosses, the one unit the qdisc may have handed out just before it, and the
 * receivers' interrupt moderation under load. DQL settles at the bytes completed between two
 * TX interrupts (at most 250 us at the ITR floor: 31.25 KB at GigE); the unit is a frame of
 * 12.3 us, or with the seed's offloads a GSO super-packet of up to 45 frames (gso_max_size
 * 65536: 554 us). Four egress (nuc1, rangeley both ways, nuc2) and four receivers:
 * 4 x (250 + 12.3) us + 4 x 250 us = 2.05 ms, with offloads 4 x (250 + 554) us + 1 ms =
 * 4.21 ms.
 * @param offloads whether the seed's offloads run
 * @return ms
 */
double
FqBqlInducedBoundMs(bool offloads)
{
    const double unitS = (offloads ? 45 : 1) * FRAME_WIRE_BYTES * 8 / LINE_BPS;
    return (4 * (ITR_FLOOR_S + unitS) + RECEIVERS * ITR_FLOOR_S) * 1e3;
}

/**
 * The latency pfifo_fast without BQL may induce at most: the ping behind a full qdisc and a
 * full ring at both NUCs (2 x (1000 + 256) frames of 12.3 us = 30.9 ms) plus the receivers'
 * interrupt moderation (1 ms).
 * @return ms
 */
double
FifoInducedBoundMs()
{
    const double frameS = FRAME_WIRE_BYTES * 8 / LINE_BPS;
    return (2 * (TXQUEUELEN + NUC_TX_RING) * frameS + RECEIVERS * ITR_FLOOR_S) * 1e3;
}

/**
 * The seed's result for the default comparison, as bounds derived from the topology:
 * - each flow-queueing qdisc (sfq, fq_codel, cake) with BQL reaches the line's goodput in
 *   both directions (at least 98% of LineGoodputMbps() without GRO: the 2% covers the flows'
 *   slow start at the start of the window and the goodput samples' STEP_SIZE granularity; at
 *   most LineGoodputMbps() of the configuration: GRO saves ACK frames, how many depends on
 *   how much it merges, which cake's peeling of super-packets reduces) and induces at most
 *   FqBqlInducedBoundMs();
 * - pfifo_fast without BQL keeps a standing queue: it induces more than any flow-queueing
 *   qdisc with BQL can (FqBqlInducedBoundMs()) and at most its full buffers
 *   (FifoInducedBoundMs()), at no more than the line's goodput.
 * codel and pie do not isolate the ping (the seed's "several ms"), so the check does not
 * cover them, nor BQL limits below the kernel's (the seed's 8000 starves the line), nor
 * --cpu.
 * @param runs the runs
 * @param settings the scenario
 * @return whether it holds (each failure printed)
 */
bool
CheckRuns(const std::vector<RunRecord>& runs, const Settings& settings)
{
    bool ok = true;
    auto expect = [&ok](bool condition, const std::string& what) {
        if (!condition)
        {
            std::cerr << "check: " << what << "\n";
            ok = false;
        }
    };
    expect(settings.bqlLimitMax == 0,
           "--check derives its bounds for the kernel's BQL limit_max; drop --bqlLimitMax");
    expect(!settings.cpu, "--check derives its bounds for infinitely fast CPUs; drop --cpu");
    expect(CommandLineOptions::ParseRate(settings.egressRate).value_or(0) == LINE_BPS &&
               !settings.rss,
           "--check derives its bounds for the seed's GigE links and steering; drop "
           "--egressRate and --rss");
    const double line = LineGoodputMbps(settings.offloads);
    const double fqBound = FqBqlInducedBoundMs(settings.offloads);
    // The fewest ACK frames with GRO, the most (one per two segments) without: any goodput
    // between the two lines.
    const double lineLow = LineGoodputMbps(false);
    uint32_t compared = 0;
    for (const RunRecord& run : runs)
    {
        const RunSummary::Headline h = RunSummary::GetHeadline(run);
        if (const std::string missing = RunSummary::MissingPings(h); !missing.empty())
        {
            expect(false, missing);
            continue;
        }
        std::ostringstream got;
        got << run.title << ": " << h.uploadMbps << "/" << h.downloadMbps << " Mbit/s, induced "
            << h.inducedMs << " ms";
        if (run.title == "pfifo_fast")
        {
            ++compared;
            expect(h.inducedMs > fqBound && h.inducedMs <= FifoInducedBoundMs(),
                   got.str() + "; expected above " + std::to_string(fqBound) +
                       " ms (a standing queue) and at most " +
                       std::to_string(FifoInducedBoundMs()) + " ms (full buffers)");
            expect(h.uploadMbps <= line && h.downloadMbps <= line,
                   got.str() + "; above the line's " + std::to_string(line) + " Mbit/s");
        }
        else if (run.title == "sfq+bql" || run.title == "fq_codel+bql" || run.title == "cake+bql")
        {
            ++compared;
            expect(h.inducedMs <= fqBound,
                   got.str() + "; expected at most " + std::to_string(fqBound) + " ms");
            for (double goodput : {h.uploadMbps, h.downloadMbps})
            {
                expect(goodput >= 0.98 * lineLow && goodput <= line,
                       got.str() + "; expected " + std::to_string(0.98 * lineLow) + " to " +
                           std::to_string(line) + " Mbit/s each way");
            }
        }
        else
        {
            expect(false,
                   run.title + ": --check covers pfifo_fast and sfq, fq_codel or cake with BQL");
        }
    }
    expect(compared > 0, "no configuration --check covers ran");
    return ok;
}

/**
 * Prints each run's upload flows, which the rangeley's egress limits when its link is slower
 * than the NUCs': each flow's goodput, the smallest over the largest, and Jain's index. With
 * the egress's TX queues each served in turn by the hardware (mq: a qdisc per queue), flows
 * that share a queue share its turn: the birthday problem of the seed's 8 queues.
 * @param runs the runs
 * @param settings the scenario
 * @param os where to print
 */
void
PrintFlowSpread(const std::vector<RunRecord>& runs, const Settings& settings, std::ostream& os)
{
    os << "\nUpload flows through the rangeley's " << settings.egressRate << " egress ("
       << settings.routerQueues << " TX queues" << (settings.rss ? ", RSS" : "")
       << "), goodput in Mbit/s:\n";
    std::size_t width = 6;
    for (const RunRecord& run : runs)
    {
        width = std::max(width, run.title.size());
    }
    for (const RunRecord& run : runs)
    {
        std::vector<double> flows;
        double fairness = NO_VALUE;
        for (const Metric& metric : RunSummary::ComputeMetrics(run))
        {
            if (metric.name == "goodput" && metric.scope.rfind("TCP upload", 0) == 0)
            {
                flows.push_back(metric.value);
            }
            fairness = metric.name == "upload_fairness" ? metric.value : fairness;
        }
        os << std::left << std::setw(static_cast<int>(width)) << run.title << std::right
           << std::fixed << std::setprecision(1);
        for (double goodput : flows)
        {
            os << std::setw(8) << goodput;
        }
        const auto [low, high] = std::minmax_element(flows.begin(), flows.end());
        if (!flows.empty() && *high > 0)
        {
            os << "   min/max " << std::setprecision(2) << *low / *high;
        }
        os << "   Jain " << std::setprecision(3) << fairness << "\n";
        os.unsetf(std::ios::floatfield);
    }
}

/// The main experiment on the shared driver: its options, configurations and check.
class GigeAqmComparison : public SeedExperiment
{
  public:
    GigeAqmComparison()
        : SeedExperiment("gige-aqm-comparison")
    {
    }

  protected:
    void AddOptions(CommandLine& cmd) override
    {
        cmd.AddValue("configs", "comma-separated QDISC or QDISC+bql", m_configs);
        cmd.AddValue("test", "flent test: rrul_be or rrul", m_settings.test);
        cmd.AddValue("length", "LENGTH: seconds of load", m_settings.length);
        cmd.AddValue("delay", "DELAY: seconds of idle before and after the load", m_settings.delay);
        cmd.AddValue("step", "STEP_SIZE: seconds between samples", m_settings.step);
        CommandLineOptions::AddUnsigned(cmd,
                                        "bqlLimitMax",
                                        "BQL limit_max in bytes (0: the kernel's)",
                                        m_settings.bqlLimitMax,
                                        0,
                                        Dql::MAX_LIMIT);
        CommandLineOptions::AddUnsigned(cmd,
                                        "routerQueues",
                                        "the rangeley's TX queues (the i354's)",
                                        m_settings.routerQueues,
                                        1,
                                        8);
        CommandLineOptions::AddUnsigned(cmd,
                                        "limit",
                                        "packet limit of codel and pie",
                                        m_settings.limit,
                                        1,
                                        1000000);
        cmd.AddValue("offloads",
                     "the seed's hosts: TSO/GSO/GRO on every NIC, TSQ (131072) on the NUCs",
                     m_settings.offloads);
        cmd.AddValue("cpu",
                     "CPUs: the nuc profile on the NUCs, atom-c2758 on the rangeley (default "
                     "infinitely fast CPUs)",
                     m_settings.cpu);
        CommandLineOptions::AddRate(cmd,
                                    "egressRate",
                                    "the rangeley -- nuc2 link's rate (the seed's GigE); below "
                                    "1 Gbit/s the rangeley's egress holds the uploads' standing "
                                    "queue",
                                    m_settings.egressRate);
        cmd.AddValue("rss",
                     "the rangeley's ports as Linux runs the i354: RSS over --routerQueues RX "
                     "queues, each forwarded flow on the TX queue of its RX queue",
                     m_settings.rss);
    }

    void Configure() override
    {
        const Settings& settings = m_settings;
        if (settings.test != "rrul_be" && settings.test != "rrul")
        {
            throw std::invalid_argument("--test=" + settings.test +
                                        " is not accepted; accepted: rrul_be, rrul");
        }
        for (const std::string& item : SplitList(m_configs))
        {
            m_list.push_back(ParseConfig(item, settings));
            if (m_list.back().mq && settings.routerQueues < 2)
            {
                throw std::invalid_argument("--configs: \"" + item +
                                            "\" puts mq on the rangeley, which needs "
                                            "--routerQueues 2 or more (Linux refuses mq on a "
                                            "single-queue device); accepted: QDISC[+bql] with "
                                            "--routerQueues=1");
            }
        }
        if (m_list.empty())
        {
            throw std::invalid_argument("--configs is empty; give at least one QDISC[+bql]");
        }
        // Checks the flent options (LENGTH and DELAY against STEP_SIZE) before any run.
        FlentTestOptions options;
        options.length = settings.length;
        options.delay = settings.delay;
        options.stepSize = settings.step;
        FlentTest::Get(settings.test, options);
        for (const EgressConfig& config : m_list)
        {
            AddRun(config.label, [config, settings, pcap = GetPcapPrefix(config.label)]() {
                return Run(config, settings, pcap);
            });
        }
    }

    void Describe(std::ostream& os) const override
    {
        os << "flent " << m_settings.test << " over nuc -> rangeley -> nuc (LENGTH "
           << m_settings.length << " s), " << m_list.size() << " configurations, " << GetJobs()
           << " at a time\n";
        MakeTopology(m_settings).Describe(os);
        os << "(qdisc and BQL on every egress as each configuration says; rangeley "
           << m_settings.routerQueues << " TX queues"
           << (m_settings.bqlLimitMax ? ", BQL limit_max " + std::to_string(m_settings.bqlLimitMax)
                                      : std::string())
           << ")\n\n";
    }

    void Report(const std::vector<RunRecord>& runs, std::ostream& os) const override
    {
        SeedExperiment::Report(runs, os);
        if (CommandLineOptions::ParseRate(m_settings.egressRate).value_or(0) < LINE_BPS)
        {
            PrintFlowSpread(runs, m_settings, os);
        }
        os << "\nSeed (nuc1 -> rangeley -> nuc2, GigE, 2014): cake wins on latency and "
              "throughput; codel variants beat pie\non latency at even throughput; BQL is "
              "needed to keep the hardware busy (limit 32000 much better than 8000).\n";
    }

    bool Check(const std::vector<RunRecord>& runs) const override
    {
        return CheckRuns(runs, m_settings);
    }

  private:
    Settings m_settings;                                               ///< the scenario
    std::string m_configs{"pfifo_fast,fq_codel+bql,sfq+bql,cake+bql"}; ///< --configs
    std::vector<EgressConfig> m_list;                                  ///< parsed --configs
};

} // namespace

int
main(int argc, char* argv[])
{
    return GigeAqmComparison().Main(argc, argv, __FILE__);
}
