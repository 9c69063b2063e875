/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat
 * CAKE shaping on a Linksys WRT1200AC, after the fourth seed ("performance numbers from
 * WRT1200AC", Sebastian Moeller and Dave Taht, Cerowrt-devel, June 2015): the latency cake
 * adds when it shapes rrul_be, and the goodput its accounting allows. The seed's other
 * experiment, the per-packet overhead a 900 Mbit/s shaper on GigE must account, is
 * wrt1200ac-cake-overhead.cc.
 *
 * Topology (NicTopologyHelper preset "wrt1200ac"):
 *
 *     client ================== wrt1200ac ================== server
 *     e1000e        1 Gbit/s   mvneta  mvneta   1 Gbit/s      e1000e
 *     fq_codel+BQL  1 us       eth0    eth1     1 us          fq_codel+BQL
 *                              (LAN)   (WAN)
 *                              cake on both router egresses
 *
 * flent's rrul_be (4 TCP uploads, 4 downloads, ICMP and UDP pings) from client to server,
 * for each rate of --rates, with `cake bandwidth RATE` (plus --cakeOptions) on both router
 * egresses: the WAN egress shapes the uploads and the LAN egress the downloads, as sqm
 * shapes a WAN's egress and (through an IFB) its ingress. The hosts run fq_codel with BQL:
 * e1000e has had BQL since Linux 3.3, fq_codel was the hosts' usual qdisc by 2015, and the
 * seed suspects "fq or fq_codel on the server and client". The router's mvneta has no BQL
 * here: the 2015 driver had none ("still not BQL!"), and a shaper below the line keeps its
 * ring at a packet or two anyway. Each rate writes <outputDir>/rrul_be-cake-RATE.flent.gz
 * (plot it with `flent -i FILE -p all_scaled`) and a run in the SQLite database; the
 * comparison table follows, with the seed's numbers and the goodput derived below.
 *
 * Options:
 * - --rates: comma-separated cake bandwidths in tc's words (default 50Mbit,500Mbit: the
 *   seed's); --cakeOptions: more cake words (default none: plain `cake bandwidth RATE`);
 * - --length, --delay: flent's LENGTH and DELAY in seconds (8 and 2; STEP_SIZE 0.2);
 * - --offloads: the seed's machines (NicTopologyHelper::Preset with seedHosts): TSO, GSO
 *   and GRO on every NIC (the router's mvneta TSO in its driver, at most 100 segments) and
 *   TCP small queues (tcp_limit_output_bytes 131072) on the hosts; default off;
 * - --jobs (runs at once; 0: one per processor), --outputDir (default "."), --db (default
 *   wrt1200ac-cake-shaping.sqlite, "none" for none), --check (exit 1 unless the seed's
 *   qualitative result holds), and ns-3's --RngRun.
 *
 * Expected result (the seed):
 *   "350 *usec* induced delay on the 50mbit rrul_be test. w00t!"
 *   "1.2ms at 500mbit. Less of a w00t. Possible it is coming from elsewhere on that path
 *    (fq or fq_codel on the server and client?)"
 *   "Now both ingress and egress are up to roughly 455Mbps from roughly 360 with cake
 *    just playing leaf qdisc for HTB."
 *
 * The goodput derived (ExpectedGoodputMbps()): without an overhead keyword cake counts the
 * IP packet plus the 14-byte MAC header, so each direction's 1514-byte segments share the
 * shaper with half a 66-byte ACK each of the other direction: RATE x 1448 / (1514 + 33).
 * A sparse ping waits, in each direction, for the shaper's next slot, at most one 1514-byte
 * packet time (242 us at 50 Mbit/s, 24 us at 500 Mbit/s). The manual's chapter on this seed
 * (Seed 003) has the measured numbers and what the model leaves out.
 *
 * --check exits 1 unless, at every rate (below the line), the induced latency stays under a
 * bound derived from the rig (InducedBoundMs(): in each direction the shaper's slot of one
 * full packet, the sending host's ring of segments released by one round of ACKs, or one GSO
 * super-packet with --offloads, and the frame on the router's wire; no more than the seed's
 * 0.35 and 1.2 ms at its rates), and each way's goodput lies between what cake's accounting
 * allows with an ACK for every segment and with ACKs that cost nothing (-2.1% and +2.2%
 * around the derived goodput without overhead words). At the defaults the bounds are
 * 0.35 ms and 0.27 ms (0.35 and 1.18 ms with --offloads). A check without runs fails.
 */

#include "wrt1200ac-cake-common.h"

#include "ns3/cake-queue-disc.h"
#include "ns3/core-module.h"
#include "ns3/flent-test-helper.h"
#include "ns3/flent-test.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/network-module.h"
#include "ns3/nic-topology-helper.h"
#include "ns3/run-summary.h"
#include "ns3/seed-experiment.h"
#include "ns3/tc-options.h"

#include <cmath>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;
using namespace wrt1200ac;

namespace
{

// TCP as LinuxTcpDefaults sets it up: MSS 1448 with timestamps.
constexpr uint32_t TCP_DATA_IP = 1500; ///< a full segment: 20 IP + 32 TCP + 1448 payload
constexpr uint32_t TCP_PAYLOAD = 1448; ///< its payload
constexpr uint32_t TCP_ACK_IP = 52;    ///< a pure ACK: 20 IP + 20 TCP + 12 timestamp option
constexpr double SEGMENTS_PER_ACK = 2; ///< delayed ACKs (DelAckCount 2)
constexpr double FLOWS_EACH_WAY = 4;   ///< rrul_be's TCP flows per direction
/// Segments in one GSO super-packet: GSO_MAX_SIZE 65536 less 66 bytes of headers (MAC, IP,
/// TCP with timestamps), over 1448-byte segments: floor(65470 / 1448) = 45.
constexpr double GSO_MAX_SEGS = 45;

/// The experiment's settings, from the command line.
struct Settings
{
    std::vector<std::string> rates; ///< cake bandwidths, tc words
    std::string cakeOptions;        ///< words after "cake bandwidth RATE"
    double length{8};               ///< flent LENGTH, s
    double delay{2};                ///< flent DELAY, s
    double step{0.2};               ///< flent STEP_SIZE, s
    bool offloads{false};           ///< the seed's hosts: TSO/GSO/GRO and TSQ
};

/**
 * The TCP goodput each way that cake bandwidth R allows under rrul_be: each direction's
 * shaper carries that direction's full segments and the other direction's ACKs, acksPerSegment
 * of them per segment, all counted as Accounted() says; and no more than the wire carries,
 * counted as WireBytes() says (the bound when R is near the line or above it).
 * @param config the cake configuration
 * @param acksPerSegment ACKs per data segment: 1 / SEGMENTS_PER_ACK with delayed ACKs, 1 when
 *        every segment is ACKed, 0 when the ACKs take no shaper time (filtered, or stretched)
 * @param lineMbps the links' rate
 * @return Mbit/s of TCP payload
 */
double
GoodputMbps(const CakeConfig& config, double acksPerSegment, double lineMbps)
{
    const double rateMbps = static_cast<double>(config.rate) * 8 / 1e6;
    const double shaped =
        rateMbps * TCP_PAYLOAD /
        (Accounted(config, TCP_DATA_IP) + acksPerSegment * Accounted(config, TCP_ACK_IP));
    const double wire =
        lineMbps * TCP_PAYLOAD / (WireBytes(TCP_DATA_IP) + acksPerSegment * WireBytes(TCP_ACK_IP));
    return std::min(shaped, wire);
}

/**
 * The goodput expected with delayed ACKs (one ACK per SEGMENTS_PER_ACK segments).
 * @param config the cake configuration
 * @param lineMbps the links' rate
 * @return Mbit/s of TCP payload
 */
double
ExpectedGoodputMbps(const CakeConfig& config, double lineMbps)
{
    return GoodputMbps(config, 1 / SEGMENTS_PER_ACK, lineMbps);
}

/**
 * A bound on the latency rrul_be's pings see added under load, derived from the rig: in
 * each direction a ping (a sparse flow, served first by fq_codel and by cake) can wait for
 * - cake's shaper: the slot of the full packet just released, Accounted(1500) bytes at R;
 * - the sending host's ring, which fq_codel cannot reorder: without offloads the segments
 *   that the other direction's ACKs just released, FLOWS_EACH_WAY flows x SEGMENTS_PER_ACK
 *   frames at the line rate; with offloads one GSO super-packet of GSO_MAX_SEGS frames;
 * - the router's egress ring: the one frame on the wire (the shaper below the line keeps
 *   no more there).
 * Twice that (both directions) is a worst case the median can only stay under.
 * @param config the cake configuration
 * @param offloads whether the hosts use TSO/GSO
 * @param lineMbps the links' rate
 * @return ms
 */
double
InducedBoundMs(const CakeConfig& config, bool offloads, double lineMbps)
{
    const double rateMbps = static_cast<double>(config.rate) * 8 / 1e6;
    const double shaperSlotUs = Accounted(config, TCP_DATA_IP) * 8 / rateMbps;
    const double frameUs = WireBytes(TCP_DATA_IP) * 8 / lineMbps;
    const double hostFrames = offloads ? GSO_MAX_SEGS : FLOWS_EACH_WAY * SEGMENTS_PER_ACK;
    return 2 * (shaperSlotUs + (hostFrames + 1) * frameUs) / 1000;
}

/**
 * @param rate a cake bandwidth (tc word)
 * @return the seed's induced latency at that rate in ms, or NO_VALUE
 */
double
SeedInducedMs(const std::string& rate)
{
    const std::optional<uint64_t> bps = ParseTcRate(rate);
    if (bps == ParseTcRate("50Mbit"))
    {
        return 0.35; // "350 *usec* induced delay on the 50mbit rrul_be test"
    }
    if (bps == ParseTcRate("500Mbit"))
    {
        return 1.2; // "1.2ms at 500mbit"
    }
    return NO_VALUE;
}

/**
 * @param rate cake's bandwidth (tc word)
 * @param settings the settings
 * @return the tc text of part 1's router qdisc
 */
std::string
ShapingQdisc(const std::string& rate, const Settings& settings)
{
    return "cake bandwidth " + rate +
           (settings.cakeOptions.empty() ? "" : " " + settings.cakeOptions);
}

/**
 * Part 1's rig: the preset with fq_codel and BQL on the hosts (e1000e has had BQL since
 * Linux 3.3; fq_codel was the hosts' default qdisc by 2015, and the seed suspects "fq or
 * fq_codel on the server and client"), and cake on both router egresses, as sqm shapes a
 * WAN's egress and (through an IFB) its ingress. The router has no BQL: the 2015 mvneta
 * driver had none ("still not BQL!").
 * @param cake the router's qdisc
 * @param offloads whether the ends get the seed's offloads and TSQ (Preset's seedHosts)
 * @return the topology, to install
 */
NicTopologyHelper
ShapingTopology(const std::string& cake, bool offloads)
{
    NicTopologyHelper topology = NicTopologyHelper::Preset("wrt1200ac", offloads);
    NicLinkConfig& lan = topology.LeftLink(0);
    NicLinkConfig& wan = topology.RightLink(0);
    for (NicInterfaceConfig* host : {&lan.left, &wan.right})
    {
        host->qdisc = "fq_codel";
        host->bql = true;
    }
    lan.right.qdisc = cake;
    wan.left.qdisc = cake;
    return topology;
}

/**
 * Part 1: rrul_be from client to server with cake shaping both of the router's egresses.
 * @param rate cake's bandwidth (tc word)
 * @param settings the settings
 * @return the run, titled "cake-RATE"
 */
RunRecord
RunShaping(const std::string& rate, const Settings& settings)
{
    LinuxTcpDefaults::Apply();
    const std::string cake = ShapingQdisc(rate, settings);
    NicTopologyHelper topology = ShapingTopology(cake, settings.offloads);
    topology.Install();
    topology.AssignStreams(1); // the stacks, the NICs, then both router egresses' cake

    FlentTestOptions options;
    options.length = settings.length;
    options.delay = settings.delay;
    options.stepSize = settings.step;
    options.hosts = {topology.GetRightName(0)};
    options.qdiscStats = {{topology.GetRouterName(0), "eth1"}};
    FlentTestHelper flent(FlentTest::Get("rrul_be", options));
    flent.SetClient(topology.GetLeft(0), topology.GetLeftName(0));
    flent.AddHost(topology.GetRight(0), topology.GetRightAddress(0));
    flent.AddQdiscStats(topology.GetRightDevices(0).Get(0)); // the WAN egress (uploads)
    flent.SetProgress(false);
    flent.Install(Seconds(1)); // one second for ARP and routing to settle
    Simulator::Stop(flent.GetEnd() + Seconds(1));
    Simulator::Run();
    RunRecord run = flent.Collect();
    Simulator::Destroy();
    run.title = "cake-" + rate;
    run.epoch = 1767225600; // 2026-01-01: the same seed writes the same file
    run.config = {{"topology", std::string("wrt1200ac")},
                  {"router_qdisc", cake},
                  {"router_bql", static_cast<int64_t>(0)},
                  {"host_qdisc", std::string("fq_codel")},
                  {"host_bql", static_cast<int64_t>(1)},
                  {"offloads", static_cast<int64_t>(settings.offloads)}};
    for (const auto& [path, value] : LinuxTcpDefaults::Settings())
    {
        run.config[path] = value;
    }
    return run;
}

/**
 * Part 1's check, each bound derived above:
 * - induced latency at most InducedBoundMs() (the worst case of both directions), and at
 *   most the seed's measurement at the seed's rates (0.35 ms at 50 Mbit/s, 1.2 ms at
 *   500 Mbit/s): the model leaves out latency the router had (its CPU, NAPI), never adds;
 * - goodput, each way, between GoodputMbps() with an ACK for every segment (quick ACKs, the
 *   least goodput cake's accounting allows) and with ACKs that cost nothing (filtered, or
 *   stretched by GRO): -2.1% and +2.2% around the delayed-ACK expectation at 50 and
 *   500 Mbit/s without overhead words, against the 5% allowed before.
 * Rates at or above the line are refused: the shaper is then not the bottleneck and the
 * derivation does not hold. Missing runs or measurements fail.
 * @param runs part 1's runs
 * @param settings the settings
 * @param lineMbps the links' rate
 * @return whether it holds (each failure printed)
 */
bool
CheckShaping(const std::vector<RunRecord>& runs, const Settings& settings, double lineMbps)
{
    if (runs.size() != settings.rates.size() || runs.empty())
    {
        std::cerr << "check: " << runs.size() << " runs for " << settings.rates.size()
                  << " rates; nothing to check without them\n";
        return false;
    }
    bool ok = true;
    for (std::size_t i = 0; i < runs.size(); ++i)
    {
        const RunSummary::Headline h = RunSummary::GetHeadline(runs[i]);
        const CakeConfig config =
            CakeOptions("bandwidth " + settings.rates[i] + " " + settings.cakeOptions);
        if (!(static_cast<double>(config.rate) * 8 / 1e6 < lineMbps))
        {
            std::cerr << "check: " << runs[i].title << ": cake at or above the line rate ("
                      << lineMbps << " Mbit/s) is not the bottleneck; the bounds need a rate "
                      << "below it\n";
            ok = false;
            continue;
        }
        double inducedBound = InducedBoundMs(config, settings.offloads, lineMbps);
        const double seed = SeedInducedMs(settings.rates[i]);
        if (!std::isnan(seed))
        {
            inducedBound = std::min(inducedBound, seed);
        }
        if (!(h.inducedMs >= 0 && h.inducedMs <= inducedBound))
        {
            std::cerr << "check: " << runs[i].title << " induced " << h.inducedMs
                      << " ms; the derived bound is " << inducedBound << " ms\n";
            ok = false;
        }
        const double low = GoodputMbps(config, 1, lineMbps);
        const double high = GoodputMbps(config, 0, lineMbps);
        for (const auto& [direction, goodput] :
             {std::pair<std::string, double>{"upload", h.uploadMbps}, {"download", h.downloadMbps}})
        {
            if (!(goodput >= low && goodput <= high))
            {
                std::cerr << "check: " << runs[i].title << " " << direction << " " << goodput
                          << " Mbit/s, outside " << low << " (an ACK per segment) to " << high
                          << " (free ACKs)\n";
                ok = false;
            }
        }
    }
    return ok;
}

/// The seed's shaping experiment on the shared driver: its options, rates and check.
class Wrt1200acCakeShaping : public SeedExperiment
{
  public:
    Wrt1200acCakeShaping()
        : SeedExperiment("wrt1200ac-cake-shaping")
    {
    }

  protected:
    void AddOptions(CommandLine& cmd) override
    {
        cmd.AddValue("rates", "comma-separated cake bandwidths (tc words)", m_rates);
        cmd.AddValue("cakeOptions", "more cake words after bandwidth RATE", m_settings.cakeOptions);
        cmd.AddValue("length", "LENGTH, seconds of rrul_be load", m_settings.length);
        cmd.AddValue("delay", "DELAY, seconds of idle before and after", m_settings.delay);
        cmd.AddValue("offloads",
                     "the seed's hosts: TSO/GSO/GRO on every NIC, TSQ (131072) on the hosts",
                     m_settings.offloads);
    }

    void Configure() override
    {
        Settings& settings = m_settings;
        for (const std::string& rate : SplitList(m_rates))
        {
            const std::optional<uint64_t> bps = ParseTcRate(rate);
            if (!bps || *bps == 0)
            {
                throw std::invalid_argument("--rates: \"" + rate +
                                            "\" is not a rate; accepted: tc rate words such as "
                                            "50Mbit or 1Gbit, comma-separated");
            }
            if (rate.find('/') != std::string::npos)
            {
                throw std::invalid_argument("--rates: \"" + rate + "\" names a file; no '/'");
            }
            settings.rates.push_back(rate);
        }
        if (settings.rates.empty())
        {
            throw std::invalid_argument("--rates is empty; give at least one rate, e.g. 50Mbit");
        }
        try
        {
            CakeQueueDisc::ValidateOptions(settings.cakeOptions);
        }
        catch (const std::invalid_argument& error)
        {
            throw std::invalid_argument("--cakeOptions: " + std::string(error.what()));
        }
        FlentTestOptions options;
        options.length = settings.length;
        options.delay = settings.delay;
        options.stepSize = settings.step;
        try
        {
            FlentTest::Get("rrul_be", options); // checks LENGTH and DELAY
        }
        catch (const std::invalid_argument& error)
        {
            throw std::invalid_argument("--length/--delay: " + std::string(error.what()));
        }
        if (settings.delay < 2 * settings.step)
        {
            throw std::invalid_argument("--delay must be at least " + Text(2 * settings.step) +
                                        " s: the idle RTT is measured before the load");
        }
        for (const std::string& rate : settings.rates)
        {
            AddRun("cake-" + rate, [rate, settings]() { return RunShaping(rate, settings); });
        }
    }

    void Describe(std::ostream& os) const override
    {
        os << "Seed 003: cake on a WRT1200AC (client -> wrt1200ac -> server, GigE), " << GetJobs()
           << " runs at a time\n";
        os << "\nPart 1: rrul_be, LENGTH " << m_settings.length << " s, DELAY " << m_settings.delay
           << " s, at RATE = " << m_rates << "\n";
        ShapingTopology(ShapingQdisc("RATE", m_settings), m_settings.offloads).Describe(os);
    }

    void Report(const std::vector<RunRecord>& shapingRuns, std::ostream& os) const override
    {
        const Settings& settings = m_settings;
        const double lineMbps = LineMbps();
        os << "\nPart 1: rrul_be through cake\n";
        RunSummary::PrintComparison(shapingRuns, os);
        os << "\n"
           << std::setw(10) << "rate" << std::setw(14) << "induced (ms)" << std::setw(10) << "seed"
           << std::setw(22) << "goodput each way" << std::setw(10) << "upload" << std::setw(10)
           << "download\n";
        os << std::setw(10) << "" << std::setw(14) << "" << std::setw(10) << "" << std::setw(22)
           << "expected (Mbit/s)" << std::setw(20) << "(Mbit/s)\n";
        for (std::size_t i = 0; i < shapingRuns.size(); ++i)
        {
            const RunSummary::Headline h = RunSummary::GetHeadline(shapingRuns[i]);
            const double seed = SeedInducedMs(settings.rates[i]);
            const CakeConfig config =
                CakeOptions("bandwidth " + settings.rates[i] + " " + settings.cakeOptions);
            std::ostringstream seedText;
            if (std::isnan(seed))
            {
                seedText << "-";
            }
            else
            {
                seedText << seed;
            }
            os << std::fixed << std::setprecision(3) << std::setw(10) << settings.rates[i]
               << std::setw(14) << h.inducedMs << std::setw(10) << seedText.str()
               << std::setprecision(1) << std::setw(22) << ExpectedGoodputMbps(config, lineMbps)
               << std::setw(10) << h.uploadMbps << std::setw(10) << h.downloadMbps << "\n";
            os.unsetf(std::ios::fixed);
        }
        const CakeConfig accounting = CakeOptions(settings.cakeOptions);
        os << "(expected: RATE x 1448 / (accounted data packet + half an accounted ACK), "
              "at most what\nthe wire carries; cake bandwidth RATE"
           << (settings.cakeOptions.empty() ? "" : " " + settings.cakeOptions)
           << " accounts a 1500-byte packet as " << Accounted(accounting, TCP_DATA_IP)
           << " bytes\nand a 52-byte ACK as " << Accounted(accounting, TCP_ACK_IP)
           << ": without an overhead keyword, the IP packet + 14)\n";
    }

    bool Check(const std::vector<RunRecord>& runs) const override
    {
        return CheckShaping(runs, m_settings, LineMbps());
    }

  private:
    Settings m_settings;                   ///< the scenario
    std::string m_rates{"50Mbit,500Mbit"}; ///< --rates
};

} // namespace

int
main(int argc, char* argv[])
{
    return Wrt1200acCakeShaping().Main(argc, argv, __FILE__);
}
