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
 * - --configs: comma-separated QDISC or QDISC+bql, QDISC one of pfifo_fast, codel, pie, sfq,
 *   fq_codel, cake (default pfifo_fast,fq_codel+bql,sfq+bql,cake+bql: the README's run);
 * - --test: rrul_be (default) or rrul (diffserv marks: cake's tins and pfifo_fast's bands);
 * - --length, --delay, --step: flent's LENGTH, DELAY and STEP_SIZE in seconds (6, 2, 0.2);
 * - --bqlLimitMax: BQL limit_max in bytes (default 0: the kernel's; the seed ran 8000 and
 *   32000);
 * - --routerQueues: the rangeley's TX queues (8, or 1 for the seed's birthday-problem
 *   comparison);
 * - --limit: packet limit of codel and pie (the seed: 1000, then 10000; default 10000);
 * - --offloads: the seed's hosts (NicTopologyHelper::Preset with seedHosts): TSO, GSO and
 *   GRO on every NIC and TCP small queues (Linux 3.18's tcp_limit_output_bytes 131072) on
 *   the NUCs (default off, the ideal hosts of the earlier results);
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
 * --check asserts that each BQL configuration induces less than a third of pfifo_fast's
 * latency at 95% of its goodput or better. The manual's chapter on this seed (Seed 002) has
 * the measured numbers, the seed's variants (BQL limit_max 8000 against 32000, one TX queue
 * against eight, a packet limit of 1000 against 10000) and how they compare, with and without
 * the seed's offloads. The model has no CPU cost: the rangeley "loafing" has no counterpart,
 * and BQL's limit settles from the modelled interrupt timing alone.
 */

#include "ns3/command-line-options.h"
#include "ns3/core-module.h"
#include "ns3/dql.h"
#include "ns3/flent-test-helper.h"
#include "ns3/flent-test.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/network-module.h"
#include "ns3/nic-topology-helper.h"
#include "ns3/run-summary.h"
#include "ns3/seed-experiment.h"

#include <algorithm>
#include <iostream>
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
    std::string test{"rrul_be"}; ///< flent test
    double length{6};            ///< LENGTH, s
    double delay{2};             ///< DELAY, s
    double step{0.2};            ///< STEP_SIZE, s
    uint32_t bqlLimitMax{0};     ///< 0: the kernel's
    uint32_t routerQueues{8};    ///< the rangeley's TX queues
    uint32_t limit{10000};       ///< codel and pie packet limit
    bool offloads{false};        ///< the seed hosts' TSO/GSO/GRO and TSQ
};

/// One configuration: a qdisc and whether BQL runs.
struct EgressConfig
{
    std::string label; ///< as given, e.g. "fq_codel+bql"
    std::string qdisc; ///< tc text
    bool bql{false};   ///< BQL on every TX queue
};

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
        throw std::invalid_argument("--configs: \"" + label + "\" is unknown; accepted: QDISC or " +
                                    "QDISC+bql, QDISC one of " + accepted);
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
 * Builds and runs one configuration (in its own process).
 * @param config the configuration
 * @param settings the settings
 * @return the run
 */
RunRecord
Run(const EgressConfig& config, const Settings& settings)
{
    LinuxTcpDefaults::Apply();
    NicTopologyHelper topology = NicTopologyHelper::Preset("nuc-rangeley-nuc", settings.offloads);
    for (NicLinkConfig* link : {&topology.LeftLink(0), &topology.RightLink(0)})
    {
        for (NicInterfaceConfig* end : {&link->left, &link->right})
        {
            end->qdisc = config.qdisc;
            end->bql = config.bql;
            if (config.bql && settings.bqlLimitMax != 0)
            {
                end->bqlLimitMax = settings.bqlLimitMax;
            }
        }
    }
    topology.LeftLink(0).right.txQueues = settings.routerQueues;
    topology.RightLink(0).left.txQueues = settings.routerQueues;
    topology.Install();
    topology.AssignStreams(1);

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
                  {"offloads", static_cast<int64_t>(settings.offloads)}};
    for (const auto& [path, value] : LinuxTcpDefaults::Settings())
    {
        run.config[path] = value;
    }
    return run;
}

/**
 * The seed's qualitative result for the default comparison: every configuration with BQL
 * induces less than a third of pfifo_fast's latency, at 95% of its goodput or better.
 * @param runs the runs
 * @return whether it holds (each failure printed)
 */
bool
CheckRuns(const std::vector<RunRecord>& runs)
{
    const RunRecord* baseline = nullptr;
    for (const RunRecord& run : runs)
    {
        if (run.title == "pfifo_fast")
        {
            baseline = &run;
        }
    }
    if (!baseline)
    {
        std::cerr << "--check needs a pfifo_fast run to compare with\n";
        return false;
    }
    const RunSummary::Headline base = RunSummary::GetHeadline(*baseline);
    bool ok = base.inducedMs > 0;
    if (!ok)
    {
        std::cerr << "check: pfifo_fast induced no latency (" << base.inducedMs << " ms)\n";
    }
    uint32_t compared = 0;
    for (const RunRecord& run : runs)
    {
        const RunSummary::Headline h = RunSummary::GetHeadline(run);
        if (run.title.find("+bql") == std::string::npos)
        {
            continue;
        }
        ++compared;
        const double goodput = h.uploadMbps + h.downloadMbps;
        const double baseGoodput = base.uploadMbps + base.downloadMbps;
        if (!(h.inducedMs < base.inducedMs / 3) || !(goodput >= 0.95 * baseGoodput))
        {
            std::cerr << "check: " << run.title << " induced " << h.inducedMs << " ms at "
                      << goodput << " Mbit/s against pfifo_fast's " << base.inducedMs << " ms at "
                      << baseGoodput << " Mbit/s\n";
            ok = false;
        }
    }
    if (compared == 0)
    {
        std::cerr << "check: no QDISC+bql run to compare with pfifo_fast; --check needs one\n";
        ok = false;
    }
    return ok;
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
            AddRun(config.label, [config, settings]() { return Run(config, settings); });
        }
    }

    void Describe(std::ostream& os) const override
    {
        os << "flent " << m_settings.test << " over nuc -> rangeley -> nuc (LENGTH "
           << m_settings.length << " s), " << m_list.size() << " configurations, " << GetJobs()
           << " at a time\n";
        NicTopologyHelper::Preset("nuc-rangeley-nuc", m_settings.offloads).Describe(os);
        os << "(qdisc and BQL on every egress as each configuration says; rangeley "
           << m_settings.routerQueues << " TX queues"
           << (m_settings.bqlLimitMax ? ", BQL limit_max " + std::to_string(m_settings.bqlLimitMax)
                                      : std::string())
           << ")\n\n";
    }

    void Report(const std::vector<RunRecord>& runs, std::ostream& os) const override
    {
        SeedExperiment::Report(runs, os);
        os << "\nSeed (nuc1 -> rangeley -> nuc2, GigE, 2014): cake wins on latency and "
              "throughput; codel variants beat pie\non latency at even throughput; BQL is "
              "needed to keep the hardware busy (limit 32000 much better than 8000).\n";
    }

    bool Check(const std::vector<RunRecord>& runs) const override
    {
        return CheckRuns(runs);
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
