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
 * ring at a packet or two anyway. Each rate writes
 * <outputDir>/rrul_be-SHAPER-RATE[-cpu].flent.gz (plot it with `flent -i FILE -p
 * all_scaled`) and a run in the SQLite database; the comparison table follows, with the
 * seed's numbers and the goodput derived below.
 *
 * Options:
 * - --rates: comma-separated cake bandwidths in tc's words (default 50Mbit,500Mbit: the
 *   seed's); --cakeOptions: more cake words (default none: plain `cake bandwidth RATE`);
 * - --length, --delay: flent's LENGTH and DELAY in seconds (8 and 2; STEP_SIZE 0.2);
 * - --offloads: the seed's machines (NicTopologyHelper::Preset with seedHosts): TSO, GSO
 *   and GRO on every NIC (the router's mvneta TSO in its driver, at most 100 segments) and
 *   TCP small queues (tcp_limit_output_bytes 131072) on the hosts; default off;
 * - --shaper: cake (default: cake bandwidth RATE), htb+cake (`htb` at RATE with an unlimited
 *   cake as its leaf, the seed's "cake just playing leaf qdisc for HTB") or htb+fq_codel
 *   (sqm-scripts' simple.qos); the runs are titled SHAPER-RATE;
 * - --cpu: the router on the armada385 CpuProfile (two Cortex-A9 cores, every interrupt on
 *   CPU0, qdisc costs calibrated against this seed) with its 2015 mvneta rings (RX 128,
 *   TX 532); its CPU then bounds the goodput (RouterCpu) and --check bounds a CPU-bound
 *   run's goodput and latency from the profile's costs (CheckShaping()); default off;
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
#include "ns3/host-cpu-helper.h"
#include "ns3/host-cpu.h"
#include "ns3/htb-queue-disc.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/network-module.h"
#include "ns3/nic-topology-helper.h"
#include "ns3/run-summary.h"
#include "ns3/seed-experiment.h"
#include "ns3/tc-options.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
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
    std::string shaper{"cake"};     ///< cake, htb+cake or htb+fq_codel
    bool cpu{false};                ///< the router on the armada385 CPU profile
    std::string pcap;               ///< this run's pcap files' prefix ("": none)
};

/// The router's CPU profile with --cpu: the WRT1200AC's Armada 385.
const char* const ROUTER_CPU = "armada385";
/// The shapers --shaper takes: cake alone, HTB with cake as its leaf (the seed's "cake
/// just playing leaf qdisc for HTB"), HTB with fq_codel (sqm-scripts' simple.qos).
const char* const SHAPERS[] = {"cake", "htb+cake", "htb+fq_codel"};

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

/// Seed 003's router rings with --cpu (the 2015 mvneta driver): MVNETA_MAX_RXD.
constexpr double ROUTER_RX_RING = 128;
/// mvneta's RX interrupt coalescing: a poll takes at most this many frames when not busy.
constexpr double ROUTER_RX_FRAMES = 32;

/**
 * The router's CPU with --cpu, from the ROUTER_CPU profile: every interrupt is served by
 * core 0 (IrqCores 1), which pays per forwarded frame RxPacketCost + ForwardCost +
 * TxPacketCost and the costs of the egress tree's qdiscs (QdiscCosts, or QdiscCost for a
 * kind not listed), and per interrupt and poll HardIrqCost + PollCost.
 */
struct RouterCpu
{
    double frameUs;   ///< a forwarded frame's cost C
    double irqPollUs; ///< an interrupt's and a poll's, h + p

    /**
     * @param settings the settings (the shaper)
     * @return the costs
     */
    static RouterCpu Get(const Settings& settings)
    {
        HostCpuHelper helper;
        helper.SetProfile(ROUTER_CPU);
        Ptr<HostCpu> cpu = helper.Create();
        auto cost = [&cpu](const std::string& name) {
            TimeValue value;
            cpu->GetAttribute(name, value);
            return value.Get();
        };
        // The tree's kinds, each costed alone (an HTB root without classes counts itself).
        Ptr<QueueDisc> cake = CreateObject<CakeQueueDisc>();
        Ptr<QueueDisc> htb = CreateObject<HtbQueueDisc>();
        Ptr<QueueDisc> fqCodel = CreateObject<FqCoDelQueueDisc>();
        const Time qdiscs = settings.shaper == "cake" ? cpu->GetQdiscCost(cake)
                            : settings.shaper == "htb+cake"
                                ? cpu->GetQdiscCost(htb) + cpu->GetQdiscCost(cake)
                                : cpu->GetQdiscCost(htb) + cpu->GetQdiscCost(fqCodel);
        const Time frame =
            cost("RxPacketCost") + cost("ForwardCost") + cost("TxPacketCost") + qdiscs;
        return {frame.GetSeconds() * 1e6,
                (cost("HardIrqCost") + cost("PollCost")).GetSeconds() * 1e6};
    }

    /**
     * The goodput each way that the core allows. Each way carries D data segments per
     * second, D = G / (1448 x 8 bits), and the other way's ACKs, acksPerSegment per segment:
     * the core forwards 2 (1 + acksPerSegment) D frames per second, one per frame time.
     * @param acksPerSegment ACKs per data segment
     * @param frameUs the core's time per frame: frameUs, or more with interrupts and polls
     * @return Mbit/s of TCP payload
     */
    static double GoodputMbps(double acksPerSegment, double frameUs)
    {
        return TCP_PAYLOAD * 8 / (2 * (1 + acksPerSegment) * frameUs);
    }

    /// @return the most goodput each way: an ACK per two segments at least (DelAckCount
    /// 2), and no interrupt or poll costs
    double MostMbps() const
    {
        return GoodputMbps(1 / SEGMENTS_PER_ACK, frameUs);
    }

    /// @return the least goodput each way with the core saturated: an ACK per segment, and
    /// an interrupt and a poll per frame
    double LeastMbps() const
    {
        return GoodputMbps(1, frameUs + irqPollUs);
    }
};

/**
 * @param shaper a --shaper value
 * @return the seed's goodput each way of the CPU-bound router with that shaper ("roughly
 * 455" with cake, "roughly 360" with cake as HTB's leaf), or NO_VALUE
 */
double
SeedCpuBoundMbps(const std::string& shaper)
{
    return shaper == "cake" ? 455 : shaper == "htb+cake" ? 360 : NO_VALUE;
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
    const std::string options = settings.cakeOptions.empty() ? "" : " " + settings.cakeOptions;
    if (settings.shaper == "cake")
    {
        return "cake bandwidth " + rate + options;
    }
    // HTB shapes; its leaf is unlimited. HTB counts skb->len, the IP packet and the 14-byte
    // MAC header, as cake does without overhead words.
    const std::string leaf = settings.shaper == "htb+cake" ? "cake" + options : "fq_codel";
    return "htb default 1; class parent 1: classid 1:1 rate " + rate + "; qdisc parent 1:1 " + leaf;
}

/**
 * @param rate the shaper's rate (tc word)
 * @param settings the settings
 * @return the accounting of the shaper: cake's words, or HTB's (cake's without overhead)
 */
CakeConfig
ShaperAccounting(const std::string& rate, const Settings& settings)
{
    return CakeOptions("bandwidth " + rate +
                       (settings.shaper == "cake" ? " " + settings.cakeOptions : ""));
}

/**
 * Part 1's rig: the preset with fq_codel and BQL on the hosts (e1000e has had BQL since
 * Linux 3.3; fq_codel was the hosts' default qdisc by 2015, and the seed suspects "fq or
 * fq_codel on the server and client"), and cake on both router egresses, as sqm shapes a
 * WAN's egress and (through an IFB) its ingress. The router has no BQL: the 2015 mvneta
 * driver had none ("still not BQL!").
 * @param cake the router's qdisc
 * @param offloads whether the ends get the seed's offloads and TSQ (Preset's seedHosts)
 * @param cpu whether the router runs on ROUTER_CPU with its 2015 driver's rings
 * @return the topology, to install
 */
NicTopologyHelper
ShapingTopology(const std::string& cake, bool offloads, bool cpu)
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
    if (cpu)
    {
        // The seed's 2015 driver (Linux 4.0's mvneta): MVNETA_MAX_RXD 128 and
        // MVNETA_MAX_TXD 532. Its queue stops MVNETA_MAX_SKB_DESCS (217) short of full, as
        // the profile's, and wakes when the used descriptors fall to half the stop
        // threshold (TxWakeAtHalfStop), (532 - 217) / 2 = 157 used: 375 free. A CPU-bound
        // router queues in its RX ring, so the ring's size is the latency.
        for (NicInterfaceConfig* port : {&lan.right, &wan.left})
        {
            port->txRing = 532;
            port->attributes["RxRingSize"] = "128";
        }
    }
    return topology;
}

/**
 * @param rate the shaper's rate (tc word)
 * @param settings the settings
 * @return the run's title: SHAPER-RATE, "-cpu" with the router's CPU
 */
std::string
RunTitle(const std::string& rate, const Settings& settings)
{
    return settings.shaper + "-" + rate + (settings.cpu ? "-cpu" : "");
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
    NicTopologyHelper topology = ShapingTopology(cake, settings.offloads, settings.cpu);
    if (!settings.pcap.empty())
    {
        topology.EnablePcapAll(settings.pcap);
    }
    topology.Install();
    // The stacks, the NICs, then both router egresses' qdiscs; then the router's CPU.
    const int64_t streams = topology.AssignStreams(1);
    if (settings.cpu)
    {
        HostCpuHelper cpu;
        cpu.SetProfile(ROUTER_CPU);
        cpu.Install(topology.GetRouter(0));
        HostCpuHelper::AssignStreams(topology.GetRouter(0), 1 + streams);
    }

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
    run.title = RunTitle(rate, settings);
    run.epoch = 1767225600; // 2026-01-01: the same seed writes the same file
    run.config = {{"topology", std::string("wrt1200ac")},
                  {"router_qdisc", cake},
                  {"router_bql", static_cast<int64_t>(0)},
                  {"host_qdisc", std::string("fq_codel")},
                  {"host_bql", static_cast<int64_t>(1)},
                  {"offloads", static_cast<int64_t>(settings.offloads)}};
    if (settings.cpu)
    {
        run.config["router_cpu"] = std::string(ROUTER_CPU);
    }
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
 *   500 Mbit/s): without --cpu the model leaves out latency the router had (its CPU, NAPI),
 *   never adds;
 * - goodput, each way, between GoodputMbps() with an ACK for every segment (quick ACKs, the
 *   least goodput the shaper's accounting allows) and with ACKs that cost nothing
 *   (filtered, or stretched by GRO): -2.1% and +2.2% around the delayed-ACK expectation at
 *   50 and 500 Mbit/s without overhead words.
 * With --cpu the router's core (RouterCpu) is the bottleneck when the shaper allows more
 * than the core's most, MostMbps(); the shaper is when it allows less than the core's
 * least, LeastMbps(); a rate between is refused (neither derivation holds).
 * - Shaper-bound: as above, the induced bound plus, each way, the poll that takes the ping:
 *   an interrupt and a poll and at most ROUTER_RX_FRAMES frames ahead of it; no seed cap.
 * - CPU-bound: the mean goodput each way at most MostMbps() and at least LeastMbps(), and
 *   within 10% of the seed's "roughly" 455 (cake) or 360 Mbit/s (cake as HTB's leaf); the
 *   induced latency at most the two saturated RX rings a ping crosses each way, which the
 *   core serves in turn: 2 x 2 x ROUTER_RX_RING frames, each at most a frame's cost and an
 *   interrupt and a poll.
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
    const RouterCpu cpu = RouterCpu::Get(settings);
    bool ok = true;
    for (std::size_t i = 0; i < runs.size(); ++i)
    {
        const std::string& title = runs[i].title;
        const RunSummary::Headline h = RunSummary::GetHeadline(runs[i]);
        const CakeConfig config = ShaperAccounting(settings.rates[i], settings);
        if (!(static_cast<double>(config.rate) * 8 / 1e6 < lineMbps))
        {
            std::cerr << "check: " << title << ": a shaper at or above the line rate (" << lineMbps
                      << " Mbit/s) is not the bottleneck; the bounds need a rate "
                      << "below it\n";
            ok = false;
            continue;
        }
        double low = GoodputMbps(config, 1, lineMbps);
        double high = GoodputMbps(config, 0, lineMbps);
        double inducedBound = InducedBoundMs(config, settings.offloads, lineMbps);
        const bool cpuBound = settings.cpu && low > cpu.MostMbps();
        if (settings.cpu && !cpuBound && high >= cpu.LeastMbps())
        {
            std::cerr << "check: " << title << ": the shaper allows " << low << " to " << high
                      << " Mbit/s, within the router CPU's " << cpu.LeastMbps() << " to "
                      << cpu.MostMbps() << "; the bounds need a rate whose goodput is below "
                      << cpu.LeastMbps() << " or above " << cpu.MostMbps() << " Mbit/s\n";
            ok = false;
            continue;
        }
        const double seedMs = SeedInducedMs(settings.rates[i]);
        if (cpuBound)
        {
            inducedBound = 4 * ROUTER_RX_RING * (cpu.frameUs + cpu.irqPollUs) / 1000;
            low = cpu.LeastMbps();
            high = cpu.MostMbps();
            const double seed = SeedCpuBoundMbps(settings.shaper);
            const double mean = (h.uploadMbps + h.downloadMbps) / 2;
            if (!(mean <= high && mean >= low) ||
                (!std::isnan(seed) && !(std::abs(mean - seed) <= 0.1 * seed)))
            {
                std::cerr << "check: " << title << " mean goodput " << mean
                          << " Mbit/s each way, outside the CPU's " << low << " to " << high
                          << (std::isnan(seed) ? "" : " or 10% from the seed's " + Text(seed))
                          << "\n";
                ok = false;
            }
        }
        else if (settings.cpu)
        {
            inducedBound += 2 * (cpu.irqPollUs + ROUTER_RX_FRAMES * cpu.frameUs) / 1000;
        }
        else if (!std::isnan(seedMs))
        {
            inducedBound = std::min(inducedBound, seedMs);
        }
        if (!(h.inducedMs >= 0 && h.inducedMs <= inducedBound))
        {
            std::cerr << "check: " << title << " induced " << h.inducedMs
                      << " ms; the derived bound is " << inducedBound << " ms\n";
            ok = false;
        }
        if (cpuBound)
        {
            continue;
        }
        for (const auto& [direction, goodput] :
             {std::pair<std::string, double>{"upload", h.uploadMbps}, {"download", h.downloadMbps}})
        {
            if (!(goodput >= low && goodput <= high))
            {
                std::cerr << "check: " << title << " " << direction << " " << goodput
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
        cmd.AddValue("shaper",
                     "the router's shaper: cake, htb+cake (cake as HTB's leaf) or htb+fq_codel",
                     m_settings.shaper);
        cmd.AddValue("cpu",
                     "the router's CPU: the armada385 profile (2 Cortex-A9 cores, every "
                     "interrupt on CPU0); default an infinitely fast CPU",
                     m_settings.cpu);
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
        if (std::find(std::begin(SHAPERS), std::end(SHAPERS), settings.shaper) == std::end(SHAPERS))
        {
            std::string accepted;
            for (const char* shaper : SHAPERS)
            {
                accepted += (accepted.empty() ? "" : ", ") + std::string(shaper);
            }
            throw std::invalid_argument("--shaper: \"" + settings.shaper +
                                        "\" is unknown; accepted: " + accepted);
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
            Settings run = settings;
            run.pcap = GetPcapPrefix(RunTitle(rate, settings));
            AddRun(RunTitle(rate, settings), [rate, run]() { return RunShaping(rate, run); });
        }
    }

    void Describe(std::ostream& os) const override
    {
        os << "Seed 003: cake on a WRT1200AC (client -> wrt1200ac -> server, GigE), " << GetJobs()
           << " runs at a time\n";
        os << "\nPart 1: rrul_be, LENGTH " << m_settings.length << " s, DELAY " << m_settings.delay
           << " s, at RATE = " << m_rates << "\n";
        ShapingTopology(ShapingQdisc("RATE", m_settings), m_settings.offloads, m_settings.cpu)
            .Describe(os);
    }

    void Report(const std::vector<RunRecord>& shapingRuns, std::ostream& os) const override
    {
        const Settings& settings = m_settings;
        const double lineMbps = LineMbps();
        os << "\nPart 1: rrul_be through " << settings.shaper << "\n";
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
            const CakeConfig config = ShaperAccounting(settings.rates[i], settings);
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
        if (settings.cpu)
        {
            const RouterCpu cpu = RouterCpu::Get(settings);
            const double seed = SeedCpuBoundMbps(settings.shaper);
            os << std::setprecision(4) << "\nThe router's CPU (" << ROUTER_CPU << ", "
               << settings.shaper << "): " << cpu.frameUs
               << " us per forwarded frame on core 0, at most " << cpu.MostMbps()
               << " Mbit/s each way\n(an ACK per two segments, no interrupt "
               << "or poll costs), at least " << cpu.LeastMbps() << " saturated; the seed: "
               << (std::isnan(seed) ? std::string("no figure") : "roughly " + Text(seed))
               << " Mbit/s each way\n";
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
