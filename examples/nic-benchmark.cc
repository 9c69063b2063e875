/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat
 * Cost of the NIC model against ns-3's PointToPointNetDevice, side by side in one process.
 *
 * Topology (every link the same device type and rate):
 *
 *     sender ---- router ---- receiver
 *
 * A UDP flow of 1472-byte datagrams at 1.2 times the line rate for --duration simulated
 * seconds (default 2) through pfifo_fast; the router forwards every datagram the first link
 * delivers. Each configuration (p2p, and NicNetDevice with the ideal, e1000e and igb
 * profiles) is run in turn and measured: CPU time (getrusage) and, where the kernel allows
 * perf_event_open, instructions retired, each per forwarded packet, and the ratio to p2p.
 * The target for the NIC model is at most 1.3 times p2p.
 *
 * Options: --duration (simulated seconds), --rate (line rate, default 1Gbps), --device
 * (all, p2p, or one NIC profile). Where perf_event_open is not allowed (many virtual
 * machines), count instructions with valgrind, one device at a time:
 *     valgrind --tool=callgrind nic-benchmark --device=p2p --rate=100Mbps
 * and divide the total by the packets printed.
 */

#include "ns3/applications-module.h"
#include "ns3/command-line-options.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cstring>
#include <iomanip>
#include <iostream>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// Counts instructions retired by this process, if the kernel lets it.
class InstructionCounter
{
  public:
    InstructionCounter()
    {
        perf_event_attr attr;
        std::memset(&attr, 0, sizeof(attr));
        attr.type = PERF_TYPE_HARDWARE;
        attr.size = sizeof(attr);
        attr.config = PERF_COUNT_HW_INSTRUCTIONS;
        attr.disabled = 1;
        attr.exclude_kernel = 1;
        attr.exclude_hv = 1;
        m_fd = static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
    }

    ~InstructionCounter()
    {
        if (m_fd >= 0)
        {
            close(m_fd);
        }
    }

    InstructionCounter(const InstructionCounter&) = delete;
    InstructionCounter& operator=(const InstructionCounter&) = delete;

    /// @return whether counting works here
    bool IsAvailable() const
    {
        return m_fd >= 0;
    }

    /// Resets and starts the count.
    void Start()
    {
        if (m_fd >= 0)
        {
            ioctl(m_fd, PERF_EVENT_IOC_RESET, 0);
            ioctl(m_fd, PERF_EVENT_IOC_ENABLE, 0);
        }
    }

    /// @return instructions since Start()
    uint64_t Stop()
    {
        uint64_t count = 0;
        if (m_fd >= 0)
        {
            ioctl(m_fd, PERF_EVENT_IOC_DISABLE, 0);
            if (read(m_fd, &count, sizeof(count)) != sizeof(count))
            {
                count = 0;
            }
        }
        return count;
    }

  private:
    int m_fd{-1}; ///< perf event file descriptor
};

/// @return CPU time used by this process so far, seconds
double
CpuSeconds()
{
    rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/**
 * Installs one link of the chosen device type.
 * @param device p2p or a NIC profile
 * @param rate line rate
 * @param a one node
 * @param b the other
 * @return the two devices
 */
NetDeviceContainer
Link(const std::string& device, const std::string& rate, Ptr<Node> a, Ptr<Node> b)
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
    return nic.Install(a, b);
}

/**
 * Runs the flow over one device type.
 * @param device p2p or a NIC profile
 * @param rate line rate
 * @param duration simulated time
 * @param counter the instruction counter
 * @param[out] packets datagrams the receiver got
 * @param[out] instructions instructions retired during the run
 * @return CPU seconds of the run
 */
double
Run(const std::string& device,
    const std::string& rate,
    Time duration,
    InstructionCounter& counter,
    uint64_t& packets,
    uint64_t& instructions)
{
    NodeContainer nodes;
    nodes.Create(3);
    InternetStackHelper internet;
    internet.Install(nodes);
    NetDeviceContainer first = Link(device, rate, nodes.Get(0), nodes.Get(1));
    NetDeviceContainer second = Link(device, rate, nodes.Get(1), nodes.Get(2));
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::PfifoFastQueueDisc", "MaxSize", StringValue("1000p"));
    tch.Install(first);
    tch.Install(second);
    Ipv4AddressHelper address("10.1.0.0", "255.255.255.0");
    address.Assign(first);
    address.SetBase("10.2.0.0", "255.255.255.0");
    Ipv4InterfaceContainer last = address.Assign(second);
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    compat::PopulateNeighborCaches(); // links in use before the test: no ARP at t = 0

    OnOffHelper onoff("ns3::UdpSocketFactory", InetSocketAddress(last.GetAddress(1), 9));
    onoff.SetConstantRate(DataRate(DataRate(rate).GetBitRate() * 6 / 5), 1472);
    onoff.Install(nodes.Get(0)).Start(Seconds(0));
    PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), 9));
    Ptr<PacketSink> sink = DynamicCast<PacketSink>(sinkHelper.Install(nodes.Get(2)).Get(0));

    Simulator::Stop(duration);
    const double cpuBefore = CpuSeconds();
    counter.Start();
    Simulator::Run();
    instructions = counter.Stop();
    const double cpu = CpuSeconds() - cpuBefore;
    packets = sink->GetTotalRx() / 1472;
    Simulator::Destroy();
    return cpu;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t durationS = 2;
    std::string rate = "1Gbps";
    std::string only = "all";
    CommandLine cmd(__FILE__);
    CommandLineOptions::AddUnsigned(cmd,
                                    "duration",
                                    "Simulated seconds per configuration",
                                    durationS,
                                    1,
                                    3600);
    CommandLineOptions::AddRate(cmd, "rate", "Line rate", rate);
    cmd.AddValue("device", "all, p2p or a NIC profile", only);
    cmd.Parse(argc, argv);

    InstructionCounter counter;
    std::cout << "Forwarding cost, sender -> router -> receiver at " << rate << ", " << durationS
              << " simulated s per configuration\n"
              << (counter.IsAvailable() ? "" : "(instruction counts unavailable here)\n") << "\n"
              << std::left << std::setw(14) << "device" << std::right << std::setw(12) << "packets"
              << std::setw(12) << "CPU s" << std::setw(14) << "us/packet" << std::setw(16)
              << "instr/packet" << std::setw(12) << "vs p2p" << "\n";
    double p2pCost = 0;
    std::vector<std::string> devices{"p2p", "ideal", "e1000e", "igb"};
    if (only != "all")
    {
        devices = {only};
    }
    for (const std::string& device : devices)
    {
        uint64_t packets = 0;
        uint64_t instructions = 0;
        const double cpu = Run(device, rate, Seconds(durationS), counter, packets, instructions);
        const double perPacketUs = packets == 0 ? 0 : cpu * 1e6 / static_cast<double>(packets);
        const double perPacketInstr =
            packets == 0 ? 0 : static_cast<double>(instructions) / static_cast<double>(packets);
        const double cost = counter.IsAvailable() ? perPacketInstr : perPacketUs;
        if (device == "p2p")
        {
            p2pCost = cost;
        }
        std::cout << std::left << std::setw(14) << device << std::right << std::setw(12) << packets
                  << std::fixed << std::setprecision(2) << std::setw(12) << cpu << std::setw(14)
                  << perPacketUs << std::setprecision(0) << std::setw(16) << perPacketInstr
                  << std::setprecision(2) << std::setw(12);
        if (p2pCost > 0)
        {
            std::cout << cost / p2pCost << "x\n";
        }
        else
        {
            std::cout << "-\n"; // no p2p run to compare with
        }
    }
    std::cout << "\nRatio by instructions when available, else by CPU time. Target: NIC <= "
                 "1.3x p2p.\n";
    return 0;
}
