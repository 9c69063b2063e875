/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat
 * Cost of the NIC model against ns-3's PointToPointNetDevice, and of the host CPU model on
 * top of the NIC model, side by side in one process.
 *
 * Topology (every link the same device type and rate):
 *
 *     sender ---- router ---- receiver
 *
 * --traffic=udp (the default): the forwarding cost. A UDP flow of 1472-byte datagrams at
 * 0.95 x 1472 / 1538 of the line rate (95% of the wire with Ethernet's framing and layer-1
 * overhead, the largest of the devices compared) for --duration simulated seconds, through
 * pfifo_fast: nothing queues for long and nothing is dropped (the output checks it), so
 * every configuration forwards the same datagrams and each cost is divided by packets that
 * all crossed both links. Configurations: p2p, and NicNetDevice with the ideal, e1000e and
 * igb profiles; with --cpu=1 or both (the default) each NIC profile also runs with a
 * HostCpu aggregated to every node (one core, the default costs), and its ratio gives its
 * cost over the same profile without it (target under 1.10x, issue 17). The ideal profile
 * passes frames up as they arrive without a HostCpu, but under one its frames take the NAPI
 * path (an interrupt and a poll each) like the drivers': its CPU row is compared with
 * "ideal napi", the profile with RxAtArrival off and no HostCpu, so that the ratio is the
 * CPU model's own cost. p2p devices take no CPU time, so p2p runs without it only.
 *
 * --traffic=tcp: the cost per bottleneck packet of a NIC with BQL and a fair queue against
 * PointToPoint with ns-3's own. --flows TCP bulk transfers (default 4) from the sender to
 * the receiver; the sender's egress is the bottleneck, where the queue disc holds the
 * standing queue. Configurations: p2p with ns-3's FqCoDel and FqCobalt, the e1000e profile
 * with BQL and fq_codel (ns-3's FqCoDel as tc text makes it: with
 * a FlowHashPacketFilter, the same flow hash read as bytes) and with BQL and cake
 * (CakeQueueDisc); each cost is per data segment delivered. Targets (issue 21): NIC + BQL
 * + fq_codel at most 1.0x p2p + FqCoDel, NIC + BQL + cake at most 0.8x p2p + FqCobalt.
 * ns-3's TCP endpoints take most of each row's cost, the same in every row; to compare the
 * components alone, split a row's callgrind profile (below) into the stack's cost and the
 * components' with scripts/callgrind-components.py PROFILE PACKETS.
 *
 * Each run is measured inside Simulator::Run(): CPU time (getrusage) and, where the kernel
 * allows perf_event_open, instructions retired, each per packet, and the simulator events
 * per packet (Simulator::GetEventCount()); ratios are by instructions when counted, else by
 * CPU time. Where perf_event_open is not allowed (many virtual machines), count
 * instructions with valgrind, one configuration at a time and only inside
 * Simulator::Run() (setup excluded, as perf counts here):
 *     valgrind --tool=callgrind --collect-atstart=no --toggle-collect='ns3::Simulator::Run()'
 *         nic-benchmark --device=e1000e --cpu=0 --duration=1
 * and divide the total ("Collected" in callgrind's output) by the packets printed; the counts
 * are deterministic, so they compare on a loaded machine where CPU time does not.
 *
 * Options: --traffic (udp or tcp), --duration (simulated seconds, default 2), --rate (line
 * rate, default 1Gbps), --device (udp: all, p2p or a NIC profile; tcp: all or one of the
 * rows' names), --cpu (udp only: 0, 1 or both), --flows (tcp: 1 to 64).
 */

#include "benchmark-meter.h"

#include "ns3/applications-module.h"
#include "ns3/command-line-options.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/host-cpu.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/nic-net-device.h"
#include "ns3/point-to-point-module.h"
#include "ns3/tc-qdisc-helper.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cstdlib>
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
using debloat_benchmark::Cost;

/**
 * Installs one link of the chosen device type.
 * @param device p2p or a NIC profile
 * @param rate line rate
 * @param a one node
 * @param b the other
 * @return the two devices
 */
NetDeviceContainer
Link(const std::string& device, const std::string& rate, Ptr<Node> a, Ptr<Node> b, bool napi)
{
    if (device == "p2p")
    {
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue(rate));
        p2p.SetChannelAttribute("Delay", StringValue("100us"));
        return p2p.Install(a, b);
    }
    NicHelper nic;
    nic.SetProfile(device);
    nic.SetDeviceAttribute("DataRate", StringValue(rate));
    nic.SetChannelAttribute("Delay", StringValue("100us"));
    if (napi)
    {
        nic.SetDeviceAttribute("RxAtArrival", BooleanValue(false));
    }
    return nic.Install(a, b);
}

/// One configuration: the devices, their root qdisc and BQL, the CPU model.
struct RunConfig
{
    std::string name;   ///< the row's name
    std::string device; ///< p2p or a NIC profile
    std::string qdisc;  ///< an ns-3 TypeId ("ns3::...") or tc text (TcQdiscHelper)
    bool bql{false};    ///< ByteQueueLimits on every TX queue
    bool cpu{false};    ///< a HostCpu on every node
    bool napi{false};   ///< RxAtArrival off: the ideal profile's path under a HostCpu
};

/// What one run measured.
struct Measurement
{
    uint64_t packets{0}; ///< datagrams or data segments the receiver got
    uint64_t sent{0};    ///< frames the sender's NIC put on the wire (NIC profiles)
    uint64_t dropped{0}; ///< packets the sender's qdisc dropped
    Cost cost;           ///< inside Simulator::Run()
    uint64_t events{0};  ///< simulator events it executed
    double busiest{0};   ///< the busiest modelled core's busy fraction (with a HostCpu)
};

/**
 * Runs the traffic over one configuration.
 * @param config the configuration
 * @param tcp TCP bulk flows (else the UDP flow)
 * @param flows TCP flows
 * @param rate line rate
 * @param duration simulated time
 * @param meter the meter
 * @return what the run measured
 */
Measurement
Run(const RunConfig& config,
    bool tcp,
    uint32_t flows,
    const std::string& rate,
    Time duration,
    BenchmarkMeter& meter)
{
    NodeContainer nodes;
    nodes.Create(3);
    std::vector<Ptr<HostCpu>> cpus;
    if (config.cpu)
    {
        // The default costs (HostCpu's attributes): the router spends about 6 us per
        // forwarded packet at 77 kpps, under half of one core.
        for (uint32_t i = 0; i < nodes.GetN(); ++i)
        {
            Ptr<HostCpu> cpu = CreateObject<HostCpu>();
            cpu->AssignStreams(i);
            nodes.Get(i)->AggregateObject(cpu);
            cpus.push_back(cpu);
        }
    }
    InternetStackHelper internet;
    internet.Install(nodes);
    NetDeviceContainer first = Link(config.device, rate, nodes.Get(0), nodes.Get(1), config.napi);
    NetDeviceContainer second = Link(config.device, rate, nodes.Get(1), nodes.Get(2), config.napi);
    TrafficControlHelper tch;
    if (config.qdisc.rfind("ns3::", 0) == 0)
    {
        tch.SetRootQueueDisc(config.qdisc);
    }
    else
    {
        TcQdiscHelper::SetRootQueueDisc(tch, config.qdisc, 1000, 1);
    }
    if (config.bql)
    {
        tch.SetQueueLimits("ns3::debloat::ByteQueueLimits");
    }
    tch.Install(first);
    tch.Install(second);
    Ipv4AddressHelper address("10.1.0.0", "255.255.255.0");
    address.Assign(first);
    address.SetBase("10.2.0.0", "255.255.255.0");
    Ipv4InterfaceContainer last = address.Assign(second);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    compat::PopulateNeighborCaches(); // links in use before the test: no ARP at t = 0

    ApplicationContainer sources;
    Ptr<PacketSink> sink;
    if (tcp)
    {
        Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
        for (uint32_t i = 0; i < flows; ++i)
        {
            BulkSendHelper bulk("ns3::TcpSocketFactory", InetSocketAddress(last.GetAddress(1), 9));
            sources.Add(bulk.Install(nodes.Get(0)));
        }
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), 9));
        sink = DynamicCast<PacketSink>(sinkHelper.Install(nodes.Get(2)).Get(0));
    }
    else
    {
        // 95% of the wire with Ethernet framing (1538 bytes per 1472-byte datagram): no
        // device queues for long, none drops.
        OnOffHelper onoff("ns3::UdpSocketFactory", InetSocketAddress(last.GetAddress(1), 9));
        onoff.SetConstantRate(DataRate(DataRate(rate).GetBitRate() * 95 / 100 * 1472 / 1538), 1472);
        sources = onoff.Install(nodes.Get(0));
        PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), 9));
        sink = DynamicCast<PacketSink>(sinkHelper.Install(nodes.Get(2)).Get(0));
    }
    sources.Start(Seconds(0));
    sources.Stop(duration);

    Measurement m;
    // The queues drain after the sources stop, so every packet the sender's qdisc took
    // arrives, with or without the CPU model's delays.
    Simulator::Stop(duration + MilliSeconds(100));
    const uint64_t eventsBefore = Simulator::GetEventCount();
    meter.Start();
    Simulator::Run();
    m.cost = meter.Stop();
    m.events = Simulator::GetEventCount() - eventsBefore;
    m.packets = sink->GetTotalRx() / (tcp ? 1448 : 1472);
    if (Ptr<NicNetDevice> nic = DynamicCast<NicNetDevice>(first.Get(0)))
    {
        m.sent = nic->GetStats().txPackets;
    }
    Ptr<TrafficControlLayer> tc = nodes.Get(0)->GetObject<TrafficControlLayer>();
    m.dropped = tc->GetRootQueueDiscOnDevice(first.Get(0))->GetStats().nTotalDroppedPackets;
    for (const Ptr<HostCpu>& cpu : cpus)
    {
        const CpuCoreModel::Usage usage = cpu->GetUsage(0);
        m.busiest = std::max(m.busiest, CpuCoreModel::BusyFraction(CpuCoreModel::Usage(), usage));
    }
    Simulator::Destroy();
    return m;
}

/**
 * @param part a count
 * @param packets packets
 * @return the count per packet, 0 without packets
 */
double
PerPacket(double part, uint64_t packets)
{
    return packets == 0 ? 0 : part / static_cast<double>(packets);
}

/// Prints the table's header.
void
PrintHeader()
{
    std::cout << std::left << std::setw(20) << "configuration" << std::right << std::setw(10)
              << "packets" << std::setw(9) << "dropped" << std::setw(9) << "CPU s" << std::setw(11)
              << "us/packet" << std::setw(14) << "instr/packet" << std::setw(15) << "events/packet"
              << std::setw(10) << "ratio"
              << "\n";
}

/**
 * Prints one row.
 * @param name the configuration's name
 * @param m what it measured
 * @param cost its cost per packet (instructions when counted, else us)
 * @param reference the cost it is compared with (0: none)
 * @param against the name of what it is compared with
 */
void
PrintRow(const std::string& name,
         const Measurement& m,
         double cost,
         double reference,
         const std::string& against)
{
    std::cout << std::left << std::setw(20) << name << std::right << std::setw(10) << m.packets
              << std::setw(9) << m.dropped << std::fixed << std::setprecision(2) << std::setw(9)
              << m.cost.cpuSeconds << std::setw(11) << PerPacket(m.cost.cpuSeconds * 1e6, m.packets)
              << std::setprecision(0) << std::setw(14)
              << PerPacket(static_cast<double>(m.cost.instructions), m.packets)
              << std::setprecision(2) << std::setw(15)
              << PerPacket(static_cast<double>(m.events), m.packets) << std::setw(9);
    if (reference > 0)
    {
        std::cout << cost / reference << "x vs " << against;
    }
    else
    {
        std::cout << "-";
    }
    std::cout << "\n";
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t durationS = 2;
    std::string rate = "1Gbps";
    std::string only = "all";
    std::string cpuRuns = "both";
    std::string traffic = "udp";
    uint32_t flows = 4;
    CommandLine cmd(__FILE__);
    cmd.AddValue("traffic", "udp (forwarding cost) or tcp (cost per bottleneck packet)", traffic);
    CommandLineOptions::AddUnsigned(cmd,
                                    "duration",
                                    "Simulated seconds per configuration",
                                    durationS,
                                    1,
                                    3600);
    CommandLineOptions::AddRate(cmd, "rate", "Line rate", rate);
    cmd.AddValue("device", "udp: all, p2p or a NIC profile; tcp: all or a row's name", only);
    cmd.AddValue("cpu",
                 "udp: NIC runs without the host CPU model (0), with it (1) or both ways (both)",
                 cpuRuns);
    CommandLineOptions::AddUnsigned(cmd, "flows", "tcp: bulk TCP flows", flows, 1, 64);
    cmd.Parse(argc, argv);
    if (traffic != "udp" && traffic != "tcp")
    {
        std::cerr << "nic-benchmark: --traffic is '" << traffic << "'; accepted: udp or tcp\n";
        return 1;
    }
    if (cpuRuns != "0" && cpuRuns != "1" && cpuRuns != "both")
    {
        std::cerr << "nic-benchmark: --cpu is '" << cpuRuns << "'; accepted: 0, 1 or both\n";
        return 1;
    }
    const bool tcp = traffic == "tcp";
    BenchmarkMeter meter;
    const bool byInstructions = meter.CountsInstructions();
    const auto costOf = [byInstructions](const Measurement& m) {
        return byInstructions ? PerPacket(static_cast<double>(m.cost.instructions), m.packets)
                              : PerPacket(m.cost.cpuSeconds * 1e6, m.packets);
    };

    if (tcp)
    {
        // The comparison: each of the module's rows against ns-3's own closest
        // queue disc on PointToPoint.
        const std::vector<std::pair<RunConfig, std::string>> rows{
            {{"p2p+fq_codel", "p2p", "ns3::FqCoDelQueueDisc"}, ""},
            {{"p2p+fq_cobalt", "p2p", "ns3::FqCobaltQueueDisc"}, ""},
            {{"e1000e+bql+fq_codel", "e1000e", "fq_codel", true}, "p2p+fq_codel"},
            {{"e1000e+bql+cake", "e1000e", "cake", true}, "p2p+fq_cobalt"},
        };
        bool known = only == "all";
        for (const auto& [row, against] : rows)
        {
            known = known || row.name == only;
        }
        if (!known)
        {
            std::cerr << "nic-benchmark: --device=" << only
                      << " is not a tcp row; accepted: all, p2p+fq_codel, p2p+fq_cobalt, "
                         "e1000e+bql+fq_codel, e1000e+bql+cake\n";
            return 1;
        }
        std::cout << "Cost per bottleneck packet, " << flows << " TCP flows sender -> router -> "
                  << "receiver at " << rate << ", " << durationS
                  << " simulated s per configuration\n"
                  << (byInstructions ? "" : "(instruction counts unavailable here)\n") << "\n";
        PrintHeader();
        std::map<std::string, double> costs;
        for (const auto& [row, against] : rows)
        {
            if (only != "all" && row.name != only)
            {
                continue;
            }
            const Measurement m = Run(row, true, flows, rate, Seconds(durationS), meter);
            costs[row.name] = costOf(m);
            const auto reference = costs.find(against);
            PrintRow(row.name,
                     m,
                     costs[row.name],
                     reference == costs.end() ? 0 : reference->second,
                     against);
        }
        std::cout << "\nPer data segment delivered. Ratios by "
                  << (byInstructions ? "instructions" : "CPU time")
                  << ". Targets: e1000e+bql+fq_codel <= 1.0x p2p+fq_codel, e1000e+bql+cake <= "
                     "0.8x p2p+fq_cobalt. The components' share of a row's callgrind profile: "
                     "scripts/callgrind-components.py.\n";
    }
    else
    {
        std::vector<std::string> devices{"p2p", "ideal", "e1000e", "igb"};
        if (only != "all")
        {
            devices = {only};
        }
        std::vector<bool> cpuSettings;
        if (cpuRuns != "1")
        {
            cpuSettings.push_back(false);
        }
        if (cpuRuns != "0")
        {
            cpuSettings.push_back(true);
        }
        std::cout << "Forwarding cost, sender -> router -> receiver at " << rate << ", "
                  << durationS << " simulated s per configuration\n"
                  << (byInstructions ? "" : "(instruction counts unavailable here)\n") << "\n";
        PrintHeader();
        double p2pCost = 0;
        std::ostringstream notes; // the busiest cores and the frames lost, after the table
        for (const std::string& device : devices)
        {
            double offCost = 0;
            // PointToPointNetDevice takes no CPU time: p2p runs without the model only.
            const std::vector<bool> settings =
                device == "p2p" ? std::vector<bool>{false} : cpuSettings;
            for (const bool withCpu : settings)
            {
                if (withCpu && device == "ideal")
                {
                    // Under a HostCpu the ideal profile's frames take the NAPI path (an
                    // interrupt and a poll each, as no moderation batches them), which it
                    // skips without one: the CPU model's own cost is measured against it.
                    const RunConfig napi{"ideal napi", device, "pfifo_fast", false, false, true};
                    const Measurement m = Run(napi, false, 0, rate, Seconds(durationS), meter);
                    offCost = costOf(m);
                    PrintRow(napi.name, m, offCost, p2pCost, "p2p");
                }
                const RunConfig config{device + (withCpu ? " cpu" : ""),
                                       device,
                                       "pfifo_fast",
                                       false,
                                       withCpu};
                const Measurement m = Run(config, false, 0, rate, Seconds(durationS), meter);
                const double cost = costOf(m);
                if (device == "p2p")
                {
                    p2pCost = cost;
                }
                if (withCpu)
                {
                    PrintRow(config.name,
                             m,
                             cost,
                             offCost,
                             device == "ideal" ? "ideal napi" : device);
                    // Frames lost between the sender's NIC and the receiver: none unless a
                    // CPU saturated (its RX ring overflowed while the polls lagged).
                    notes << device << " with the CPU model: busiest core " << std::fixed
                          << std::setprecision(1) << m.busiest * 100 << "% busy, "
                          << static_cast<int64_t>(m.sent) - static_cast<int64_t>(m.packets)
                          << " of " << m.sent << " frames lost after the sender's NIC\n";
                }
                else
                {
                    PrintRow(config.name, m, cost, device == "p2p" ? 0 : p2pCost, "p2p");
                    offCost = cost;
                }
            }
        }
        std::cout << "\n"
                  << notes.str()
                  << "Every configuration forwards the same datagrams (none dropped: the "
                     "dropped column). Ratios by "
                  << (byInstructions ? "instructions" : "CPU time")
                  << ". Targets: the ideal profile <= 1.0x p2p, every NIC <= 1.3x p2p; the "
                     "CPU model < 1.10x the NIC without it.\n";
    }
    if (!byInstructions)
    {
        std::cout << "For instructions, run one configuration under valgrind --tool=callgrind "
                     "as this program's header describes.\n";
    }
    return 0;
}
