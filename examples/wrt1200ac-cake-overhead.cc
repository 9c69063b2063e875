/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat
 * The per-packet overhead a 900 Mbit/s CAKE shaper on GigE must account, after the fourth
 * seed ("performance numbers from WRT1200AC", Sebastian Moeller and Dave Taht,
 * Cerowrt-devel, June 2015): the seed's arithmetic, then UDP floods that show the hardware
 * queue filling when the overhead is too small. The seed's other experiment, the latency
 * cake adds when it shapes rrul_be, is wrt1200ac-cake-shaping.cc.
 *
 * Topology (NicTopologyHelper preset "wrt1200ac" with a second LAN host):
 *
 *     client ================== wrt1200ac ================== server
 *     e1000e        1 Gbit/s   mvneta  mvneta   1 Gbit/s      e1000e
 *     fq_codel+BQL  1 us       eth0    eth1     1 us          fq_codel+BQL
 *                              (LAN)   (WAN)
 *     client2 =================/       cake + BQL on both router egresses
 *
 * First the seed's arithmetic, computed from the formula: the wire time
 * `cake bandwidth 900Mbit overhead N` lets out, 900 x wire / accounted, where an IP packet of
 * S bytes takes S + 38 bytes of wire (14 header + 4 FCS + 8 preamble + 12 gap; frames padded
 * to 64 bytes) and cake accounts S + N (with the overhead keyword cake counts from the
 * network header, so N = 38 is the whole wire cost); and the size below which N = 18 loads
 * the wire beyond its 1000 Mbit/s, solved for in code. Then floods: each client sends UDP
 * packets of one IP size (--size) at a fixed interval, together --floodRate of wire time
 * (1100 Mbit/s: more than the WAN can carry, so that something must queue), through cake
 * bandwidth 900Mbit overhead N (nothing else that changes the accounting) on the router's
 * egresses, with BQL as current kernels give mvneta (--routerBql=0: none). One GigE client
 * could not do it: with the same framing on both links, a router cannot send more wire time
 * than it receives from one port, so the rig has a second LAN host (standing for the
 * router's other LAN ports or its radios). The WAN egress is sampled every 100 us after
 * 50 ms of warm-up: bytes in its TX rings (posted, on the wire or awaiting reclaim), its BQL
 * limit and cake's backlog; the server counts what arrives.
 *
 * Options:
 * - --size: comma-separated IP sizes of the floods, 40 to 1500 bytes (default 1500,100:
 *   above and below the seed's 162); --floodLength: seconds of each flood (0.3);
 *   --floodRate: their offered wire load, a tc rate above 1Gbit and up to 2Gbit (1100Mbit);
 *   --routerBql: BQL on the router's egresses (default 1);
 * - --jobs (runs at once; 0: one per processor), --db (default
 *   wrt1200ac-cake-overhead.sqlite, "none" for none; the floods are stored as test
 *   "udp_flood", and write no flent file), --check (exit 1 unless the seed's qualitative
 *   result holds), and ns-3's --RngRun.
 *
 * Expected result (the seed):
 *   "with a MTU of 1500 thee is no issue (900 * (1538/1518) = 911.85770751 Mbps) but the
 *    smaller the packets get: 900 * (MTU+38/MTU+18) = 1000 ... MTU = 162. So for TCP/IPv4
 *    MSS < 122 the shaper will not keep the ethernet hardware queues empty"
 *
 * The floods are unresponsive and above 900 Mbit/s, so cake's backlog grows with
 * --floodLength whatever the overhead: COBALT's CoDel cannot drop fast enough for them and
 * BLUE only starts when cake overflows its memory limit. The manual's chapter on this seed
 * (Seed 003) has the measured numbers.
 *
 * --check (CheckFlood()) compares each flood with the seed's arithmetic worked out here
 * (S + N accounted bytes, S + 38 on the wire, the shaper's packet times in whole ns) within
 * a tolerance of one RX interrupt interval at each end of the measured window (0.5% for a
 * 0.1 s window, 0.2% at the defaults): where the shaper's wire load is below the line, the
 * wire carries that load and the ring holds at most two packets at its 99th percentile;
 * where it is above, the wire runs at the line and the ring's median holds at least two
 * packets, more than overhead 38's 99th percentile at the same size. A load too close to
 * the line to decide, or a missing run, fails.
 */

#include "wrt1200ac-cake-common.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/device-sampler.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/network-module.h"
#include "ns3/nic-topology-helper.h"
#include "ns3/results-database.h"
#include "ns3/run-summary.h"
#include "ns3/seed-experiment.h"
#include "ns3/tc-options.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
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

constexpr uint32_t MTU = 1500; ///< the NICs' MTU: the largest IP packet

// The seed's numbers.
const std::string SEED_SHAPER = "900Mbit";  ///< "I would like a 900mbit soft shaped result"
constexpr int32_t SEED_OVERHEAD_RIGHT = 38; ///< "the correct per packet overhead of 18 + 20"
constexpr int32_t SEED_OVERHEAD_WRONG = 18; ///< Ethernet header and FCS only

constexpr uint32_t IP_UDP_HEADERS = 28; ///< IPv4 20 + UDP 8
constexpr uint32_t SEQ_TS_HEADER = 12;  ///< UdpClient's SeqTsHeader
constexpr uint16_t FLOOD_PORT = 9;      ///< the flood's UDP port (discard)

/// The experiment's settings, from the command line.
struct Settings
{
    double floodLength{0.3};                ///< seconds of flood
    double warmup{0.05};                    ///< seconds of flood before sampling
    uint64_t floodRate{1100000000};         ///< offered load in wire bits per second
    bool routerBql{true};                   ///< BQL on the router's egress
    Time sampleInterval{MicroSeconds(100)}; ///< ring and backlog sampling
    std::string pcap;                       ///< this run's pcap files' prefix ("": none)
};

/// The seed's shaper rate, Mbit/s (`cake bandwidth 900Mbit`: 112500000 bytes/s).
constexpr double SHAPER_MBPS = 900;

/**
 * @param ipSize an IP packet's length
 * @param overhead N of `overhead N`
 * @return the bytes `cake bandwidth 900Mbit overhead N` accounts for it: the overhead word
 *         makes cake count from the network header, so ipSize + N (AccountedBytes())
 */
uint32_t
FloodAccounted(uint32_t ipSize, int32_t overhead)
{
    return AccountedBytes(ipSize, overhead, true, 0);
}

/**
 * The wire load a shaper produces when it is the bottleneck, in the seed's arithmetic: it
 * sends 900 Mbit/s of accounted bytes, and each packet takes WireBytes() on the wire.
 * @param ipSize the IP packet's length
 * @param overhead cake's overhead
 * @return Mbit/s of wire time
 */
double
WireLoadMbps(uint32_t ipSize, int32_t overhead)
{
    return SHAPER_MBPS * WireBytes(ipSize) / FloodAccounted(ipSize, overhead);
}

/**
 * The time cake's shaper gives a packet of accounted bytes at 900 Mbit/s, in whole ns as
 * the kernel computes it: a byte takes 8000 / 900 = 80/9 ns; cake_set_rate() keeps that as
 * rate_ns / 2^30 with rate_ns = floor(2^30 x 80/9) (2^30 x 80 = 8 mod 9, so a fraction 8/9
 * is lost, 7e-10 ns per byte), and cake_advance_shaper() truncates (bytes x rate_ns) >> 30.
 * For fewer than 10^8 bytes that is floor(80 bytes / 9), one less when 9 divides 80 bytes
 * exactly: floor((80 bytes - 1) / 9). 138 bytes: 1226 ns (1226.67 exactly), 1538: 13671.
 * @param accounted accounted bytes
 * @return ns
 */
uint64_t
ShaperPacketNs(uint32_t accounted)
{
    return (uint64_t{80} * accounted - 1) / 9;
}

/**
 * The wire load the shaper really lets out: WireBytes() per ShaperPacketNs(); the truncation
 * makes it up to 1 ns per packet faster than WireLoadMbps() (100-byte packets, overhead 38:
 * 138 x 8 / 1226 = 900.49 Mbit/s).
 * @param ipSize the IP packet's length
 * @param overhead cake's overhead
 * @return Mbit/s of wire time
 */
double
ShaperWireMbps(uint32_t ipSize, int32_t overhead)
{
    return WireBytes(ipSize) * 8.0 * 1000 /
           static_cast<double>(ShaperPacketNs(FloodAccounted(ipSize, overhead)));
}

/**
 * @param run a run
 * @param scope a metric's scope
 * @param name its name
 * @return its value, or NO_VALUE
 */
double
GetMetric(const RunRecord& run, const std::string& scope, const std::string& name)
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
 * Reads how many packets a UDP server has received so far.
 * @param sink the server
 * @param received where to store the count
 */
void
ReadReceived(Ptr<UdpServer> sink, uint64_t* received)
{
    *received = sink->GetReceived();
}

/// One flood.
struct FloodCase
{
    uint32_t size;    ///< IP packet length, bytes
    int32_t overhead; ///< cake's overhead
};

/**
 * @param flood a flood
 * @return its run's title
 */
std::string
FloodTitle(const FloodCase& flood)
{
    return "flood-" + std::to_string(flood.size) + "B-overhead" + std::to_string(flood.overhead);
}

/**
 * @param overhead cake's overhead
 * @return the tc text of the router's qdisc
 */
std::string
FloodQdisc(const std::string& overhead)
{
    return "cake bandwidth " + SEED_SHAPER + " overhead " + overhead;
}

/**
 * The rig: the preset with a second LAN host, fq_codel and BQL on the hosts, and cake
 * at 900 Mbit/s on both router egresses, with BQL (current kernels' mvneta has it). One GigE
 * client cannot offer the WAN more wire time than its own link carries, which is the WAN's
 * own rate; two can (the second stands for the router's other LAN ports or its radios).
 * @param cake the router's qdisc
 * @param routerBql BQL on the router's egresses
 * @return the topology, to install
 */
NicTopologyHelper
FloodTopology(const std::string& cake, bool routerBql)
{
    NicTopologyHelper topology = NicTopologyHelper::Preset("wrt1200ac");
    NicLinkConfig lan = topology.LeftLink(0);
    lan.left.qdisc = "fq_codel";
    lan.left.bql = true;
    lan.right.qdisc = cake;
    lan.right.bql = routerBql;
    topology.SetLeftHosts(2, lan);
    NicLinkConfig& wan = topology.RightLink(0);
    wan.left.qdisc = cake;
    wan.left.bql = routerBql;
    wan.right.qdisc = "fq_codel";
    wan.right.bql = true;
    return topology;
}

/// @return the name of the series that samples the router's WAN egress
std::string
FloodSeries()
{
    return "qdisc_stats_" + FloodTopology("", false).GetRouterName(0);
}

/**
 * A UDP flood from two clients to the server through the router, whose WAN egress
 * runs cake bandwidth 900Mbit overhead N; samples that egress's ring, BQL and cake backlog.
 * @param flood packet size and overhead
 * @param settings the settings
 * @return the run: a TcRunner series of the WAN egress, its metrics (RunSummary), and
 *         "offered_wire", "delivered_ip" and "delivered_wire" (Mbit/s) at scope "flood"
 */
RunRecord
RunFlood(const FloodCase& flood, const Settings& settings)
{
    LinuxTcpDefaults::Apply();
    const std::string cake = FloodQdisc(std::to_string(flood.overhead));
    NicTopologyHelper topology = FloodTopology(cake, settings.routerBql);
    if (!settings.pcap.empty())
    {
        topology.EnablePcapAll(settings.pcap);
    }
    topology.Install();
    topology.AssignStreams(1); // the stacks, the NICs, then the router egresses' cake
    Ptr<NetDevice> egress = topology.GetRightDevices(0).Get(0);

    const Time start = Seconds(1);
    const Time measure = start + Seconds(settings.warmup);
    const Time stop = start + Seconds(settings.floodLength);
    UdpServerHelper sinkHelper(FLOOD_PORT);
    ApplicationContainer sinkApps = sinkHelper.Install(topology.GetRight(0));
    sinkApps.Start(Seconds(0));
    Ptr<UdpServer> sink = DynamicCast<UdpServer>(sinkApps.Get(0));

    // Each client offers half the load, in wire bits: one packet per interval.
    const uint32_t clients = topology.GetNLeft();
    const Time interval =
        Seconds(WireBytes(flood.size) * 8.0 * clients / static_cast<double>(settings.floodRate));
    const uint64_t packets =
        static_cast<uint64_t>(settings.floodLength / interval.GetSeconds()) + 2;
    for (uint32_t i = 0; i < clients; ++i)
    {
        UdpClientHelper client(topology.GetRightAddress(0), FLOOD_PORT);
        client.SetAttribute("Interval", TimeValue(interval));
        client.SetAttribute("PacketSize", UintegerValue(flood.size - IP_UDP_HEADERS));
        client.SetAttribute("MaxPackets", UintegerValue(packets));
        ApplicationContainer app = client.Install(topology.GetLeft(i));
        // Staggered, so that the two clients' packets interleave.
        app.Start(start + interval * i / clients);
        app.Stop(stop);
    }

    Ptr<DeviceSampler> sampler = CreateObject<DeviceSampler>();
    sampler->SetAttribute("Interval", TimeValue(settings.sampleInterval));
    sampler->SetDevice(egress);
    sampler->Start(measure, stop);
    uint64_t receivedAtMeasure = 0;
    uint64_t receivedAtStop = 0;
    // Functions, not lambdas: ns-3.35's Simulator::Schedule takes no lambda.
    Simulator::Schedule(measure, &ReadReceived, sink, &receivedAtMeasure);
    Simulator::Schedule(stop, &ReadReceived, sink, &receivedAtStop);
    Simulator::Stop(stop + MilliSeconds(1));
    Simulator::Run();

    RunRecord run;
    run.test = "udp_flood";
    run.title = FloodTitle(flood);
    run.localHost = topology.GetLeftName(0);
    run.hosts = {topology.GetRightName(0)};
    run.delay = 0;
    run.length = settings.floodLength - settings.warmup;
    run.totalLength = run.length;
    run.stepSize = settings.sampleInterval.GetSeconds();
    run.epoch = 1767225600;
    run.seed = RngSeedManager::GetSeed();
    run.run = RngSeedManager::GetRun();
    run.ns3Version = compat::Ns3Version();
    run.moduleVersion = DEBLOAT_VERSION;
    run.series.push_back(sampler->GetSeries(FloodSeries()));
    run.metrics = RunSummary::ComputeMetrics(run);
    const double seconds = run.length;
    const double delivered = static_cast<double>(receivedAtStop - receivedAtMeasure);
    run.metrics.push_back({"flood", "offered_wire", settings.floodRate / 1e6, "Mbit/s"});
    run.metrics.push_back(
        {"flood", "delivered_ip", delivered * flood.size * 8 / seconds / 1e6, "Mbit/s"});
    run.metrics.push_back({"flood",
                           "delivered_wire",
                           delivered * WireBytes(flood.size) * 8 / seconds / 1e6,
                           "Mbit/s"});
    run.config = {{"topology", std::string("wrt1200ac, two LAN hosts")},
                  {"router_qdisc", cake},
                  {"router_bql", static_cast<int64_t>(settings.routerBql)},
                  {"ip_size", static_cast<int64_t>(flood.size)},
                  {"offered_wire_bps", static_cast<int64_t>(settings.floodRate)}};
    Simulator::Destroy();
    return run;
}

/**
 * Prints the seed's overhead arithmetic for a 900 Mbit/s shaper on GigE, from the formula.
 * @param sizes IP packet sizes to show
 * @param lineMbps the link's rate
 * @param os where to print
 * @return the threshold size below which overhead 18 loads the wire beyond its rate
 */
double
PrintArithmetic(std::vector<uint32_t> sizes, double lineMbps, std::ostream& os)
{
    const double rateMbps = SHAPER_MBPS;
    // The framing an unpadded packet really carries, from the constants: 38 bytes.
    const double wireOverhead = WireBytes(MTU) - MTU;
    // rate * (S + wire) / (S + accounted) = line  <=>  S = (rate * wire - line * accounted)
    // / (line - rate): the seed's "MTU = (38 - ((10/9)*18))*9 = 162".
    auto threshold = [&](int32_t accounted) {
        return (rateMbps * wireOverhead - lineMbps * accounted) / (lineMbps - rateMbps);
    };
    const double wrongThreshold = threshold(SEED_OVERHEAD_WRONG);
    const double rightThreshold = threshold(SEED_OVERHEAD_RIGHT);
    // Frames padded to ETH_ZLEN hold the wire for WireBytes(0) whatever their size: the
    // load passes the line below S = rate * WireBytes(0) / line - overhead.
    const double rightPadded = rateMbps * WireBytes(0) / lineMbps - SEED_OVERHEAD_RIGHT;

    os << std::defaultfloat << std::setprecision(6) << "cake bandwidth " << SEED_SHAPER << " on "
       << lineMbps << " Mbit/s Ethernet: the wire time the shaper lets out\n"
       << "(wire = IP + 14 header + 4 FCS + 8 preamble + 12 gap, frames padded to 64 bytes;\n"
       << " wire load = " << rateMbps << " x wire / accounted)\n\n";
    os << std::setw(8) << "IP size" << std::setw(8) << "wire" << std::setw(14) << "overhead "
       << SEED_OVERHEAD_RIGHT << std::setw(10) << "load" << std::setw(14) << "overhead "
       << SEED_OVERHEAD_WRONG << std::setw(10) << "load" << "\n";
    os << std::setw(8) << "bytes" << std::setw(8) << "bytes" << std::setw(16) << "accounted"
       << std::setw(10) << "Mbit/s" << std::setw(16) << "accounted" << std::setw(10) << "Mbit/s"
       << "\n";
    sizes.push_back(static_cast<uint32_t>(std::lround(wrongThreshold)));
    std::sort(sizes.begin(), sizes.end(), std::greater<>());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    for (uint32_t size : sizes)
    {
        const double rightLoad = WireLoadMbps(size, SEED_OVERHEAD_RIGHT);
        const double wrongLoad = WireLoadMbps(size, SEED_OVERHEAD_WRONG);
        os << std::setw(8) << size << std::setw(8) << WireBytes(size) << std::setw(16)
           << FloodAccounted(size, SEED_OVERHEAD_RIGHT) << std::setw(10) << std::fixed
           << std::setprecision(1) << rightLoad << (rightLoad > lineMbps + 1e-9 ? "!" : " ")
           << std::setw(15) << FloodAccounted(size, SEED_OVERHEAD_WRONG) << std::setw(10)
           << wrongLoad << (wrongLoad > lineMbps + 1e-9 ? "!" : " ") << "\n";
    }
    os.unsetf(std::ios::fixed);
    os << std::setprecision(4)
       << "(! = more than the line: the shaper no longer keeps the hardware queue empty)\n"
       << "overhead " << SEED_OVERHEAD_WRONG << " loads the wire to " << lineMbps
       << " Mbit/s at IP size\n  S = (" << rateMbps << " x " << wireOverhead << " - " << lineMbps
       << " x " << SEED_OVERHEAD_WRONG << ") / (" << lineMbps << " - " << rateMbps
       << ") = " << wrongThreshold << " bytes (TCP/IPv4 MSS " << wrongThreshold - 40
       << "; the seed: 162 and 122)\n"
       << "overhead " << SEED_OVERHEAD_RIGHT
       << " never does for unpadded frames (S = " << rightThreshold
       << "), but a frame padded to the " << ETH_ZLEN + ETH_FCS << "-byte minimum\n  takes "
       << WireBytes(0) << " bytes of wire: IP packets below " << rightPadded
       << " bytes overload it too (tc-cake's `ethernet`\n  keyword adds mpu " << WireBytes(0)
       << ")\n";
    // The seed's other figure: a shaper that counts from the MAC header needs 24 more bytes.
    // `raw` keeps the MAC header: 100 + 14 + 24.
    os << "the seed's \"overhead of 24 bytes\" is for a shaper that counts the 14-byte MAC "
          "header:\n  cake's `raw overhead 24` accounts a 100-byte IP packet as "
       << AccountedBytes(100, 24, false, 0) << " bytes, as `overhead " << SEED_OVERHEAD_RIGHT
       << "` does (" << FloodAccounted(100, SEED_OVERHEAD_RIGHT) << ")\n";
    return wrongThreshold;
}

/**
 * The check's tolerance on a measured wire rate, as a fraction: the server counts a packet
 * when its NAPI poll hands it up, at most one RX interrupt interval after it arrived (e1000e's
 * conservative ITR: at least 4000 interrupts/s, 250 us), so each end of the measured window
 * may miss up to 250 us of arrivals: 2 x 250 us / window (0.5% for the tests' 0.1 s, 0.2% for
 * the default 0.25 s).
 * @param settings the settings
 * @return the tolerance
 */
double
WireTolerance(const Settings& settings)
{
    constexpr double RX_INTERRUPT_INTERVAL = 250e-6; // s
    return 2 * RX_INTERRUPT_INTERVAL / (settings.floodLength - settings.warmup);
}

/**
 * The check, with the tolerance tol of WireTolerance():
 * - where the shaper's wire load (ShaperWireMbps(), the seed's arithmetic with the shaper's
 *   whole-ns packet times) is below the line by more than tol, cake is the bottleneck: the
 *   wire carries that load within tol, and the ring holds at most two packets at its 99th
 *   percentile: a packet leaves cake only after its predecessor's wire time (the shaper is
 *   slower than the wire), so the ring holds that one, sent and awaiting reclaim, and the new
 *   one;
 * - where it is above the line by more than tol, the wire is the bottleneck: it runs at the
 *   line within tol, and the ring's median holds at least two packets (each packet cake
 *   releases finds its predecessor still on the wire: the hardware queue is never empty, the
 *   seed's point) and more than the correct overhead's 99th percentile at the same size;
 * - a load within tol of the line decides nothing, and fails, as do missing runs or samples.
 * @param runs the runs
 * @param floods their cases
 * @param settings the settings
 * @param lineMbps the link's rate
 * @return whether it holds (each failure printed)
 */
bool
CheckFlood(const std::vector<RunRecord>& runs,
           const std::vector<FloodCase>& floods,
           const Settings& settings,
           double lineMbps)
{
    if (runs.empty() || runs.size() != floods.size())
    {
        std::cerr << "check: " << runs.size() << " runs for " << floods.size()
                  << " floods; nothing to check without them\n";
        return false;
    }
    const std::string series = FloodSeries();
    const double tol = WireTolerance(settings);
    bool ok = true;
    for (std::size_t i = 0; i < runs.size(); ++i)
    {
        const FloodCase& flood = floods[i];
        const double load = ShaperWireMbps(flood.size, flood.overhead);
        const double wire = GetMetric(runs[i], "flood", "delivered_wire");
        const double ringP50 = GetMetric(runs[i], series, "ring_bytes_p50");
        const double ringP99 = GetMetric(runs[i], series, "ring_bytes_p99");
        const double packetBytes = flood.size + ETH_HEADER;
        if (std::isnan(wire) || std::isnan(ringP50) || std::isnan(ringP99))
        {
            std::cerr << "check: " << runs[i].title << ": no measurement (wire " << wire
                      << ", ring p50 " << ringP50 << ", p99 " << ringP99 << ")\n";
            ok = false;
        }
        else if (load < (1 - tol) * lineMbps)
        {
            if (!(std::abs(wire - load) <= tol * load) || !(ringP99 <= 2 * packetBytes))
            {
                std::cerr << "check: " << runs[i].title << ": the shaper should pace the wire at "
                          << load << " Mbit/s (within " << tol * load << ") and keep the ring "
                          << "at most " << 2 * packetBytes << " bytes; measured " << wire
                          << " Mbit/s, ring p99 " << ringP99 << " bytes\n";
                ok = false;
            }
        }
        else if (load > (1 + tol) * lineMbps)
        {
            double rightP99 = NO_VALUE;
            for (std::size_t j = 0; j < runs.size(); ++j)
            {
                if (floods[j].size == flood.size && floods[j].overhead == SEED_OVERHEAD_RIGHT)
                {
                    rightP99 = GetMetric(runs[j], series, "ring_bytes_p99");
                }
            }
            if (!(wire >= (1 - tol) * lineMbps) || !(ringP50 >= 2 * packetBytes) ||
                !(ringP50 > rightP99))
            {
                std::cerr << "check: " << runs[i].title << ": the shaper lets out " << load
                          << " Mbit/s of wire time, so the wire should run at " << lineMbps
                          << " Mbit/s (within " << tol * lineMbps << ") and the ring's median "
                          << "hold at least " << 2 * packetBytes << " bytes and more than "
                          << "overhead " << SEED_OVERHEAD_RIGHT << "'s p99 (" << rightP99
                          << " bytes); measured " << wire << " Mbit/s, ring p50 " << ringP50
                          << " bytes\n";
                ok = false;
            }
        }
        else
        {
            std::cerr << "check: " << runs[i].title << ": the shaper's wire load " << load
                      << " Mbit/s is within " << tol * 100 << "% of the line: neither bound "
                      << "applies; choose a size away from it\n";
            ok = false;
        }
    }
    return ok;
}

/// The seed's overhead experiment on the shared driver: its options, floods and check.
class Wrt1200acCakeOverhead : public SeedExperiment
{
  public:
    Wrt1200acCakeOverhead()
        : SeedExperiment("wrt1200ac-cake-overhead")
    {
    }

  protected:
    void AddOptions(CommandLine& cmd) override
    {
        cmd.AddValue("size", "comma-separated IP packet sizes of the flood, bytes", m_sizes);
        cmd.AddValue("floodLength", "seconds of flood per run", m_settings.floodLength);
        cmd.AddValue("floodRate", "offered load in wire bits (tc rate word)", m_floodRate);
        cmd.AddValue("routerBql", "BQL on the router's egresses", m_settings.routerBql);
    }

    void Configure() override
    {
        Settings& settings = m_settings;
        const double lineMbps = LineMbps();
        for (const std::string& item : SplitList(m_sizes))
        {
            char* end = nullptr;
            const unsigned long size = std::strtoul(item.c_str(), &end, 10);
            if (item.empty() || *end != '\0' || size < IP_UDP_HEADERS + SEQ_TS_HEADER || size > MTU)
            {
                throw std::invalid_argument("--size: \"" + item +
                                            "\" is not accepted; accepted: IP packet sizes from " +
                                            std::to_string(IP_UDP_HEADERS + SEQ_TS_HEADER) +
                                            " (UDP with UdpClient's 12-byte header) to 1500 (the "
                                            "MTU), comma-separated");
            }
            for (int32_t overhead : {SEED_OVERHEAD_RIGHT, SEED_OVERHEAD_WRONG})
            {
                m_floods.push_back({static_cast<uint32_t>(size), overhead});
            }
        }
        if (m_floods.empty())
        {
            throw std::invalid_argument("--size is empty; give at least one size, e.g. 100");
        }
        if (!(settings.floodLength > settings.warmup + 0.01) || settings.floodLength > 60)
        {
            throw std::invalid_argument(
                "--floodLength=" + Text(settings.floodLength) +
                " is out of range; accepted: more than " + Text(settings.warmup + 0.01) + " s (" +
                Text(settings.warmup) + " s of warm-up are not measured) up to 60 s");
        }
        const std::optional<uint64_t> flood = ParseTcRate(m_floodRate);
        if (!flood || *flood <= lineMbps * 1e6 || *flood > 2 * lineMbps * 1e6)
        {
            throw std::invalid_argument(
                "--floodRate=" + m_floodRate +
                " is not accepted; accepted: a tc rate above the WAN link's line rate (or "
                "nothing can queue) and at most twice it (two GigE clients), e.g. 1100Mbit");
        }
        settings.floodRate = *flood;
        for (const FloodCase& flood : m_floods)
        {
            Settings run = settings;
            run.pcap = GetPcapPrefix(FloodTitle(flood));
            AddRun(FloodTitle(flood), [flood, run]() { return RunFlood(flood, run); });
        }
    }

    void Describe(std::ostream& os) const override
    {
        os << "Seed 003: cake on a WRT1200AC (client -> wrt1200ac -> server, GigE), " << GetJobs()
           << " runs at a time\n";
        os << "\nPart 2: UDP flood, N = " << SEED_OVERHEAD_RIGHT << " and " << SEED_OVERHEAD_WRONG
           << ", IP sizes " << m_sizes << "\n";
        FloodTopology(FloodQdisc("N"), m_settings.routerBql).Describe(os);
    }

    /// The floods have no flent file: they go into the database alone.
    void Save(const std::vector<RunRecord>& floodRuns, std::ostream& os) const override
    {
        const std::string& db = GetDatabase();
        if (db != "none" && !floodRuns.empty())
        {
            ResultsDatabase database(db);
            for (const RunRecord& run : floodRuns)
            {
                database.Write(run);
            }
            os << "results database: " << db << " (" << floodRuns.size() << " flood runs)\n";
        }
    }

    void Report(const std::vector<RunRecord>& floodRuns, std::ostream& os) const override
    {
        const Settings& settings = m_settings;
        const std::vector<FloodCase>& floods = m_floods;
        const double lineMbps = LineMbps();
        os << "\nPart 2: the overhead arithmetic\n\n";
        std::vector<uint32_t> shown = {1500, 576, 100, 64, 40, 28};
        for (const FloodCase& flood : floods)
        {
            shown.push_back(flood.size);
        }
        PrintArithmetic(shown, lineMbps, os);
        os << std::setprecision(6) << "\nPart 2: UDP flood of " << settings.floodRate / 1e6
           << " Mbit/s of wire from two LAN hosts,\nWAN egress cake bandwidth " << SEED_SHAPER
           << " overhead N" << (settings.routerBql ? " + BQL" : ", no BQL") << " ("
           << settings.floodLength - settings.warmup << " s measured every "
           << settings.sampleInterval.GetMicroSeconds() << " us)\n\n";
        const std::string series = FloodSeries();
        os << std::setw(6) << "size" << std::setw(10) << "overhead" << std::setw(10) << "load"
           << std::setw(10) << "wire" << std::setw(10) << "ring" << std::setw(10) << "ring"
           << std::setw(10) << "BQL" << std::setw(10) << "cake" << "\n";
        os << std::setw(6) << "" << std::setw(10) << "" << std::setw(10) << "computed"
           << std::setw(10) << "measured" << std::setw(10) << "p50" << std::setw(10) << "p99"
           << std::setw(10) << "limit" << std::setw(10) << "backlog" << "\n";
        os << std::setw(6) << "bytes" << std::setw(10) << "bytes" << std::setw(10) << "Mbit/s"
           << std::setw(10) << "Mbit/s" << std::setw(10) << "bytes" << std::setw(10) << "bytes"
           << std::setw(10) << "p50" << std::setw(10) << "p50 KB"
           << "\n";
        for (std::size_t i = 0; i < floodRuns.size(); ++i)
        {
            const RunRecord& run = floodRuns[i];
            auto cell = [](double value, int precision) {
                std::ostringstream text;
                if (std::isnan(value))
                {
                    text << "-";
                }
                else
                {
                    text << std::fixed << std::setprecision(precision) << value;
                }
                return text.str();
            };
            os << std::setw(6) << floods[i].size << std::setw(10) << floods[i].overhead
               << std::setw(10) << cell(ShaperWireMbps(floods[i].size, floods[i].overhead), 1)
               << std::setw(10) << cell(GetMetric(run, "flood", "delivered_wire"), 1)
               << std::setw(10) << cell(GetMetric(run, series, "ring_bytes_p50"), 0)
               << std::setw(10) << cell(GetMetric(run, series, "ring_bytes_p99"), 0)
               << std::setw(10) << cell(GetMetric(run, series, "bql_limit_p50"), 0) << std::setw(10)
               << cell(GetMetric(run, series, "backlog_bytes_p50") / 1e3, 0) << "\n";
        }
    }

    bool Check(const std::vector<RunRecord>& runs) const override
    {
        return CheckFlood(runs, m_floods, m_settings, LineMbps());
    }

  private:
    Settings m_settings;                 ///< the scenario
    std::string m_sizes{"1500,100"};     ///< --size
    std::string m_floodRate{"1100Mbit"}; ///< --floodRate
    std::vector<FloodCase> m_floods;     ///< a flood per size and overhead
};

} // namespace

int
main(int argc, char* argv[])
{
    return Wrt1200acCakeOverhead().Main(argc, argv, __FILE__);
}
