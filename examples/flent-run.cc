/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat
 * Runs one flent test (rrul, rrul_be, tcp_upload, tcp_download, tcp_nup, tcp_ndown, ping,
 * rtt_fair, ...) over a NIC bottleneck, and writes what flent would: a `.flent.gz` data
 * file that flent itself plots, plus a row in a SQLite results database and a summary.
 *
 * Topology (host i's link delay is --hostDelay; rtt_fair* use (i + 1) x --hostDelay so
 * that the four hosts have different RTTs):
 *
 *     client ==== router ==== host 0 ("server", or server-1 .. server-4 for rtt_fair*)
 *      --rate, --delay   \=== host 1 ...
 *      --profile NIC          1 Gbit/s, same NIC profile
 *
 * The bottleneck is the client-router link: the client's egress for uploads, the router's
 * egress towards the client for downloads. Both run --qdisc, the host links --hostQdisc
 * (tc text, see TcQdiscHelper), all with ByteQueueLimits when --bql, and are sampled as flent's
 * qdisc stats (qdisc_stats_client and qdisc_stats_router: backlog, drops, delay, BQL, ring).
 *
 * Options: --test, --length (s, LENGTH), --step (s, STEP_SIZE), --delay (s, DELAY),
 * --streams (tcp_nup/tcp_ndown), --rate (default 100Mbps), --linkDelay (default 1ms),
 * --hostDelay (default 1ms), --profile (default e1000e), --qdisc (default pfifo_fast; e.g.
 * "cake bandwidth 50Mbit"), --hostQdisc (default fq_codel), --bql, --cpu (a CpuProfile on
 * every node: the file then has flent's cpu_stats series, `flent -p cpu`), --output (flent
 * file, default <test>.flent.gz), --db (SQLite file, default debloat-results.sqlite; none for
 * none),
 * --title, --epoch (UNIX time of T0 in the file; default 2026-01-01, so that the same seed
 * writes the same file), --progress, and ns-3's --RngRun.
 *
 * Expected result: with pfifo_fast and no BQL, rrul_be's pings rise by tens of ms under
 * load (1000 packets of qdisc and the ring at 100 Mbit/s); with fq_codel and BQL they stay
 * within a few ms of the idle RTT, at about the same total goodput.
 */

#include "ns3/applications-module.h"
#include "ns3/command-line-options.h"
#include "ns3/core-module.h"
#include "ns3/cpu-profile.h"
#include "ns3/debloat-compat.h"
#include "ns3/flent-test-helper.h"
#include "ns3/flent-test.h"
#include "ns3/flent-writer.h"
#include "ns3/host-cpu-helper.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/nic-profile.h"
#include "ns3/results-database.h"
#include "ns3/run-summary.h"
#include "ns3/tc-qdisc-helper.h"
#include "ns3/traffic-control-module.h"

#include <iostream>
#include <map>
#include <stdexcept>

using namespace ns3;
using namespace ns3::debloat;

int
main(int argc, char* argv[])
{
    std::string test = "rrul_be";
    double length = 20;
    double step = 0.2;
    double delay = 5;
    uint32_t streams = 4;
    std::string rate = "100Mbps";
    std::string linkDelay = "1ms";
    std::string hostDelay = "1ms";
    std::string profile = "e1000e";
    std::string qdisc = "pfifo_fast";
    std::string hostQdisc = "fq_codel";
    std::string cpu;
    bool bql = false;
    std::string output;
    std::string db = "debloat-results.sqlite";
    std::string title;
    double epoch = 1767225600; // 2026-01-01T00:00:00Z
    bool progress = true;

    CommandLine cmd(__FILE__);
    cmd.AddValue("test", "flent test name", test);
    CommandLineOptions::AddDouble(cmd,
                                  "length",
                                  "LENGTH: seconds of load",
                                  length,
                                  1,
                                  FlentTestOptions::MAX_LENGTH);
    CommandLineOptions::AddDouble(cmd,
                                  "step",
                                  "STEP_SIZE: seconds between samples",
                                  step,
                                  FlentTestOptions::MIN_STEP,
                                  FlentTestOptions::MAX_LENGTH);
    CommandLineOptions::AddDouble(cmd,
                                  "delay",
                                  "DELAY: seconds of idle before and after the load",
                                  delay,
                                  0,
                                  FlentTestOptions::MAX_DELAY);
    CommandLineOptions::AddUnsigned(cmd,
                                    "streams",
                                    "tcp_nup/tcp_ndown: number of streams",
                                    streams,
                                    1,
                                    FlentTestOptions::MAX_STREAMS);
    CommandLineOptions::AddRate(cmd, "rate", "bottleneck rate (client-router)", rate);
    CommandLineOptions::AddTime(cmd, "linkDelay", "client-router propagation delay", linkDelay, 10);
    CommandLineOptions::AddTime(cmd, "hostDelay", "router-host propagation delay", hostDelay, 10);
    cmd.AddValue("profile", "NicNetDevice profile of every link", profile);
    compat::AddStringValue(cmd,
                           "qdisc",
                           "root qdisc of the bottleneck's two egresses, as tc text (\"cake "
                           "bandwidth 50Mbit\", \"sfq perturb 10\", \"fq_codel\", ...)",
                           qdisc);
    compat::AddStringValue(cmd,
                           "hostQdisc",
                           "root qdisc of the 1 Gbit/s host links, as tc text",
                           hostQdisc);
    cmd.AddValue("bql", "install ByteQueueLimits on every TX queue", bql);
    cmd.AddValue("cpu",
                 "CPU profile of every node (generic, laptop-2011, nuc, atom-c2758, armada385); "
                 "the data file then has flent's cpu_stats series; default none",
                 cpu);
    cmd.AddValue("output", "flent data file (default <test>.flent.gz)", output);
    cmd.AddValue("db", "SQLite results database (none: do not write one)", db);
    cmd.AddValue("title", "flent TITLE", title);
    cmd.AddValue("epoch", "UNIX time of T0 in the flent file", epoch);
    cmd.AddValue("progress", "print progress lines", progress);
    cmd.Parse(argc, argv);

    FlentTestOptions options;
    options.length = length;
    options.stepSize = step;
    options.delay = delay;
    options.streams = streams;
    options.qdiscStats = {{"client", "eth0"}, {"router", "eth0"}};
    FlentTestSpec spec;
    TrafficControlHelper tch;
    TrafficControlHelper hostTch;
    try
    {
        if (test.rfind("rtt_fair", 0) == 0)
        {
            options.hosts = {"server-1", "server-2", "server-3", "server-4"};
        }
        spec = FlentTest::Get(test, options);
        // Every link has the profile's TX queues ("mq" needs their number).
        const uint32_t txQueues = NicProfile::Get(profile).GetTxQueues();
        TcQdiscHelper::SetRootQueueDisc(tch, qdisc, 1000, txQueues);
        TcQdiscHelper::SetRootQueueDisc(hostTch, hostQdisc, 1000, txQueues);
    }
    catch (const std::invalid_argument& error)
    {
        std::cerr << "flent-run: " << error.what() << std::endl;
        return 1;
    }

    if (!cpu.empty())
    {
        CpuProfile::Get(cpu); // stops with the list of names for an unknown one
    }
    LinuxTcpDefaults::Apply();
    Ptr<Node> client = CreateObject<Node>();
    Ptr<Node> router = CreateObject<Node>();
    NodeContainer hosts;
    hosts.Create(spec.hosts.size());
    InternetStackHelper internet;
    internet.Install(NodeContainer(client, router, hosts));

    NicHelper nic;
    nic.SetProfile(profile);
    if (bql)
    {
        tch.SetQueueLimits("ns3::debloat::ByteQueueLimits");
        hostTch.SetQueueLimits("ns3::debloat::ByteQueueLimits");
    }
    Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");

    nic.SetDeviceAttribute("DataRate", StringValue(rate));
    nic.SetChannelAttribute("Delay", StringValue(linkDelay));
    NetDeviceContainer bottleneck = nic.Install(client, router);
    tch.Install(bottleneck);
    address.Assign(bottleneck);

    nic.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    std::vector<Ipv4Address> hostAddresses;
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        const Time propagation =
            Time(hostDelay) * (test.rfind("rtt_fair", 0) == 0 ? static_cast<int64_t>(i + 1) : 1);
        nic.SetChannelAttribute("Delay", TimeValue(propagation));
        NetDeviceContainer link = nic.Install(router, hosts.Get(i));
        hostTch.Install(link);
        address.NewNetwork();
        hostAddresses.push_back(address.Assign(link).GetAddress(1));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    compat::PopulateNeighborCaches(); // links in use before the test: no ARP at t = 0
    // Fixed random streams: the same --RngRun gives the same numbers.
    int64_t stream = 1;
    stream += internet.AssignStreams(NodeContainer(client, router, hosts), stream);
    for (uint32_t i = 0; i < NodeList::GetNNodes(); ++i)
    {
        Ptr<Node> node = NodeList::GetNode(i);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            stream += NicHelper::AssignStreams(NetDeviceContainer(node->GetDevice(d)), stream);
        }
    }
    if (!cpu.empty())
    {
        // Before FlentTestHelper::Install(), which samples the nodes that have one.
        HostCpuHelper cpus;
        cpus.SetProfile(cpu);
        const NodeContainer nodes(NodeContainer(client, router), hosts);
        cpus.Install(nodes);
        stream += HostCpuHelper::AssignStreams(nodes, stream);
    }

    FlentTestHelper flent(spec);
    flent.SetClient(client, "client");
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        flent.AddHost(hosts.Get(i), hostAddresses[i]);
    }
    flent.AddQdiscStats(bottleneck.Get(0));
    flent.AddQdiscStats(bottleneck.Get(1));
    flent.SetProgress(progress);
    flent.Install(Seconds(1)); // one second for ARP and routing to settle
    Simulator::Stop(flent.GetEnd() + Seconds(1));
    Simulator::Run();

    RunRecord run = flent.Collect();
    run.title = title;
    run.epoch = epoch;
    run.config = {{"rate", rate},
                  {"link_delay", linkDelay},
                  {"host_delay", hostDelay},
                  {"profile", profile},
                  {"qdisc", qdisc},
                  {"host_qdisc", hostQdisc},
                  {"bql", static_cast<int64_t>(bql)},
                  {"streams", static_cast<int64_t>(streams)}};
    if (!cpu.empty())
    {
        run.config["cpu"] = cpu;
    }
    for (const auto& [path, value] : LinuxTcpDefaults::Settings())
    {
        run.config[path] = value;
    }
    Simulator::Destroy();

    const std::string file = output.empty() ? test + ".flent.gz" : output;
    try
    {
        FlentWriter::Write(run, file);
        std::cout << "flent data file: " << file << "\n";
        if (db != "none")
        {
            ResultsDatabase database(db);
            std::cout << "results database: " << db << " (run " << database.Write(run) << ")\n";
        }
    }
    catch (const std::exception& error)
    {
        std::cerr << "flent-run: " << error.what() << std::endl;
        return 1;
    }
    RunSummary::Print(run, std::cout);
    return 0;
}
