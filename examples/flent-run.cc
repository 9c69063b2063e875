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
 * that the hosts have different RTTs):
 *
 *     client ==== router ==== host 0 ("server", or server-1 .. server-N for rtt_fair*)
 *      --rate, --delay   \=== host 1 ...
 *      --profile NIC          1 Gbit/s, same NIC profile
 *
 * The bottleneck is the client-router link: the client's egress for uploads, the router's
 * egress towards the client for downloads. Both run --qdisc, the host links --hostQdisc
 * (tc text, see TcQdiscHelper), all with ByteQueueLimits when --bql, and are sampled as flent's
 * qdisc stats (qdisc_stats_client and qdisc_stats_router: backlog, drops, delay, BQL, ring).
 *
 * Options, in ns-3's spelling (--name=value) or flent's (FlentArguments: "flent-run rrul_be -l
 * 30 -H server -t title --test-parameter k=v" works as it does for flent): --test (or the
 * first bare word; FlentTest::Names()), --length (-l, LENGTH), --step (-s, --step-size,
 * STEP_SIZE), --delay (-d, DELAY), --host (-H, repeatable: the far ends' names, HOSTS; their
 * number sets rtt_fair_var's hosts; default "server", or server-1 .. server-N for the
 * rtt_fair tests), --testParameter (--test-parameter key=value, repeatable: TEST_PARAMETERS,
 * e.g. upload_streams=8 or markings=EF,CS1), --title (-t, --title-extra: TITLE), --note (-n:
 * NOTE), --streams (tcp_nup/tcp_ndown), --rate (default 100Mbps; tc's 100Mbit too),
 * --upRate and --downRate (each end of the bottleneck its own rate; default --rate),
 * --upQdisc and --downQdisc (default --qdisc), --access (an access-line preset instead:
 * home-50-1, docsis-100-20, adsl-20-1, see NicTopologyHelper::Preset()),
 * --rig (a seed's rig instead: laptop-server, wifi-ap, nuc-rangeley-nuc, wrt1200ac,
 * forcedeth-gige, the client its left host, the server its right one; --qdisc, --upQdisc,
 * --downQdisc, --upRate and --downRate on the client's link, --hostQdisc on the far one,
 * --bql and --bqlLimitMax on every end override it; --seedHosts: the seed's hosts),
 * --linkDelay (default 1ms), --hostDelay (default 1ms), --profile (default e1000e), --qdisc
 * (default pfifo_fast; e.g. "cake bandwidth 50Mbit"), --hostQdisc (default fq_codel), --bql,
 * --bqlLimitMax (BQL's limit_max in bytes on every TX queue; default 0, the kernel's),
 * --cpu (a CpuProfile on every node: the file then has flent's cpu_stats series, `flent -p
 * cpu`), --dataDir (-D: where data files go, named as flent names them,
 * TEST-TIME.TITLE.flent.gz), --output (-o: one file's exact name instead), --repetitions (N
 * runs with --RngRun R, R + 1, ..., R + N - 1, side by side (--jobs), each file carrying
 * flent's BATCH_* metadata so that flent's combine plots show n = N), --plot (-p: plots to
 * render with flent when it is installed, e.g. all_scaled,ping_cdf; a *_combine plot takes
 * every repetition's file at once), --db (SQLite file, default debloat-results.sqlite; none
 * for none), --epoch (UNIX time of T0 in the file; default 2026-01-01, so that the same seed
 * writes the same file), --startJitter (each flow starts up to this much late, at random),
 * --socketStats (--socket-stats: the uploads' cwnd and RTT, for flent's tcp_cwnd and tcp_rtt
 * plots), --pcap=PREFIX (every interface's frames), --progress, and ns-3's --RngRun. Every file
 * carries flent's extended metadata: EGRESS_INFO of the client's egress (qdisc, tc -s, BQL,
 * offloads, ring, link) and SYSCTLS (the TCP settings the simulated hosts use).
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
#include "ns3/dql.h"
#include "ns3/flent-arguments.h"
#include "ns3/flent-metadata.h"
#include "ns3/flent-test-helper.h"
#include "ns3/flent-test.h"
#include "ns3/flent-writer.h"
#include "ns3/host-cpu-helper.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/nic-profile.h"
#include "ns3/nic-topology-helper.h"
#include "ns3/parallel-runner.h"
#include "ns3/results-database.h"
#include "ns3/run-summary.h"
#include "ns3/tc-qdisc-helper.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/// NicTopologyHelper's access-line presets (--access); its other presets are the seeds' rigs.
const std::vector<std::string> ACCESS_LINES{"home-50-1", "docsis-100-20", "adsl-20-1"};

/// @return whether a preset is an access line
bool
IsAccessLine(const std::string& name)
{
    return std::find(ACCESS_LINES.begin(), ACCESS_LINES.end(), name) != ACCESS_LINES.end();
}

/// Everything one run needs, from the command line.
struct RunConfig
{
    std::string test = "rrul_be";       ///< flent test
    std::string rate = "100Mbps";       ///< bottleneck rate
    std::string linkDelay = "1ms";      ///< client-router propagation delay
    std::string hostDelay = "1ms";      ///< router-host propagation delay
    std::string profile = "e1000e";     ///< NicNetDevice profile
    std::string qdisc = "pfifo_fast";   ///< bottleneck qdisc, tc text
    std::string upRate;                 ///< client's egress rate ("": rate)
    std::string downRate;               ///< router's egress rate ("": rate)
    std::string upQdisc;                ///< client's egress qdisc ("": qdisc)
    std::string downQdisc;              ///< router's egress qdisc ("": qdisc)
    std::string access;                 ///< an access-line preset, or ""
    std::string rig;                    ///< a seed's rig (NicTopologyHelper preset), or ""
    bool seedHosts = false;             ///< with rig: the seed's hosts (offloads, TSQ)
    std::string pcap;                   ///< pcap files' prefix ("": none)
    std::string hostQdisc = "fq_codel"; ///< host links' qdisc, tc text
    std::string cpu;                    ///< CpuProfile of every node, or none
    bool bql = false;                   ///< ByteQueueLimits on every TX queue
    uint32_t bqlLimitMax = 0;           ///< BQL limit_max, bytes; 0: the kernel's
    bool progress = true;               ///< progress lines
    std::string startJitter = "0ms";    ///< each flow's start delay, at most
    bool socketStats = false;           ///< flent --socket-stats

    uint32_t streams = 4;                        ///< tcp_nup / tcp_ndown streams
    static constexpr uint32_t TXQUEUELEN = 1000; ///< the qdiscs' limit, as Linux's default
};

/// The qdiscs of a config on the profile's TX queues (the client's egress, the router's
/// towards it, the host links'); throws std::invalid_argument.
std::tuple<TrafficControlHelper, TrafficControlHelper, TrafficControlHelper>
QdiscHelpers(const RunConfig& c)
{
    TrafficControlHelper up;
    TrafficControlHelper down;
    TrafficControlHelper hostTch;
    // Every link has the profile's TX queues ("mq" needs their number).
    const uint32_t txQueues = NicProfile::Get(c.profile).GetTxQueues();
    TcQdiscHelper::SetRootQueueDisc(up, c.upQdisc, RunConfig::TXQUEUELEN, txQueues);
    TcQdiscHelper::SetRootQueueDisc(down, c.downQdisc, RunConfig::TXQUEUELEN, txQueues);
    TcQdiscHelper::SetRootQueueDisc(hostTch, c.hostQdisc, RunConfig::TXQUEUELEN, txQueues);
    if (c.bql)
    {
        for (TrafficControlHelper* tch : {&up, &down, &hostTch})
        {
            if (c.bqlLimitMax == 0)
            {
                tch->SetQueueLimits("ns3::debloat::ByteQueueLimits");
            }
            else
            {
                tch->SetQueueLimits("ns3::debloat::ByteQueueLimits",
                                    "LimitMax",
                                    UintegerValue(c.bqlLimitMax));
            }
        }
    }
    return {up, down, hostTch};
}

/**
 * Runs a test that has its client, hosts and qdisc stats set, with the command line's
 * start jitter, socket statistics and progress, then collects it.
 * @param c the configuration
 * @param flent the test
 * @param stream the first random stream it may use
 * @return the run
 */
RunRecord
RunTest(const RunConfig& c, FlentTestHelper& flent, int64_t stream)
{
    flent.SetProgress(c.progress);
    flent.SetStartJitter(Time(c.startJitter));
    flent.SetSocketStats(c.socketStats);
    flent.AssignStreams(stream);
    flent.Install(Seconds(1)); // one second for ARP and routing to settle
    Simulator::Stop(flent.GetEnd() + Seconds(1));
    Simulator::Run();
    return flent.Collect();
}

/**
 * Adds what every run records besides its topology's settings: the CPU profile, the TCP
 * settings, and flent -x's EGRESS_INFO of the client's egress and SYSCTLS.
 * @param c the configuration
 * @param record the run
 * @param egress the client's egress device
 * @param iface its name
 * @param profile its NIC profile
 * @param qdisc its root qdisc as tc text
 * @param txqueuelen its txqueuelen
 */
void
AddRunMetadata(const RunConfig& c,
               RunRecord& record,
               Ptr<NetDevice> egress,
               const std::string& iface,
               const std::string& profile,
               const std::string& qdisc,
               uint32_t txqueuelen)
{
    if (!c.cpu.empty())
    {
        record.config["cpu"] = c.cpu;
    }
    if (c.bqlLimitMax != 0) // only when set: a default run's record stays as before
    {
        record.config["bql_limit_max"] = static_cast<int64_t>(c.bqlLimitMax);
    }
    for (const auto& [path, value] : LinuxTcpDefaults::Settings())
    {
        record.config[path] = value;
    }
    record.extraMetadata["EGRESS_INFO"] =
        FlentMetadata::EgressInfo(egress, iface, profile, qdisc, txqueuelen);
    record.extraMetadata["SYSCTLS"] = FlentMetadata::Sysctls();
}

/**
 * Installs a NicTopologyHelper preset with the command line's --bql and --bqlLimitMax on
 * every end, --pcap on every interface and --cpu on every node, and fixes its random streams.
 * @param c the configuration
 * @param topology the preset, its overrides set
 * @param ends every interface of the topology
 * @return the next random stream free for the test
 */
int64_t
InstallPreset(const RunConfig& c,
              NicTopologyHelper& topology,
              const std::vector<NicInterfaceConfig*>& ends)
{
    for (NicInterfaceConfig* end : ends)
    {
        end->bql = c.bql;
        if (c.bqlLimitMax != 0)
        {
            end->bqlLimitMax = c.bqlLimitMax;
        }
    }
    if (!c.pcap.empty())
    {
        topology.EnablePcapAll(c.pcap);
    }
    topology.Install();
    int64_t stream = 1;
    stream += topology.AssignStreams(stream);
    if (!c.cpu.empty())
    {
        HostCpuHelper cpus;
        cpus.SetProfile(c.cpu);
        cpus.Install(topology.GetNodes());
        stream += HostCpuHelper::AssignStreams(topology.GetNodes(), stream);
    }
    return stream;
}

/**
 * Runs the test once over an access-line preset (NicTopologyHelper: client -- home router
 * == line == ISP -- server), with the command line's overrides: --upRate and --downRate
 * the line's two ends, --upQdisc the home router's WAN egress, --downQdisc its LAN
 * egress (the download shaper), --hostQdisc the client's and the server's egress.
 * @param c the configuration
 * @param spec the test (one host)
 * @return the run
 */
RunRecord
RunAccess(const RunConfig& c, const FlentTestSpec& spec)
{
    LinuxTcpDefaults::Apply();
    NicTopologyHelper topology = NicTopologyHelper::Preset(c.access);
    NicLinkConfig& line = topology.RouterLink(0);
    NicLinkConfig& lan = topology.LeftLink(0);
    NicLinkConfig& wan = topology.RightLink(0);
    line.left.rate = c.upRate.empty() ? line.left.rate : c.upRate;
    line.right.rate = c.downRate.empty() ? line.right.rate : c.downRate;
    line.left.qdisc = c.upQdisc.empty() ? line.left.qdisc : c.upQdisc;
    lan.right.qdisc = c.downQdisc.empty() ? lan.right.qdisc : c.downQdisc;
    lan.left.qdisc = c.hostQdisc;
    wan.right.qdisc = c.hostQdisc;
    const int64_t stream =
        InstallPreset(c,
                      topology,
                      {&lan.left, &lan.right, &line.left, &line.right, &wan.left, &wan.right});
    FlentTestHelper flent(spec);
    flent.SetClient(topology.GetLeft(0), "client");
    flent.AddHost(topology.GetRight(0), topology.GetRightAddress(0));
    flent.AddQdiscStats(topology.GetRouterDevices(0).Get(0)); // the upstream's shaper
    flent.AddQdiscStats(topology.GetLeftDevices(0).Get(1));   // the downstream's
    RunRecord record = RunTest(c, flent, stream);
    record.config = {{"access", c.access},
                     {"up_rate", line.left.rate},
                     {"down_rate", line.right.rate},
                     {"up_qdisc", line.left.qdisc},
                     {"down_qdisc", lan.right.qdisc},
                     {"host_qdisc", c.hostQdisc},
                     {"bql", static_cast<int64_t>(c.bql)}};
    AddRunMetadata(c,
                   record,
                   topology.GetRouterDevices(0).Get(0),
                   "wan",
                   line.left.profile,
                   line.left.qdisc,
                   line.left.txqueuelen);
    Simulator::Destroy();
    return record;
}

/**
 * Runs the test once over a seed's rig (NicTopologyHelper::Preset(): laptop-server, wifi-ap,
 * nuc-rangeley-nuc, wrt1200ac, forcedeth-gige), the client its left host and the server its
 * right one, with the command line's overrides as on flent-run's own chain: --upRate and
 * --downRate the first link's two ends (the client's and the one towards it), --upQdisc
 * and --downQdisc their qdiscs, --hostQdisc the far link's (a rig with a router), --bql and
 * --bqlLimitMax every end. The rig keeps its profiles, rings, rates and delays.
 * @param c the configuration
 * @param spec the test (one host)
 * @return the run
 */
RunRecord
RunRig(const RunConfig& c, const FlentTestSpec& spec)
{
    LinuxTcpDefaults::Apply();
    NicTopologyHelper topology = NicTopologyHelper::Preset(c.rig, c.seedHosts);
    // The client's link: to the router, or to the server on a rig without one.
    NicLinkConfig& first = topology.LeftLink(0);
    first.left.rate = c.upRate.empty() ? first.left.rate : c.upRate;
    first.right.rate = c.downRate.empty() ? first.right.rate : c.downRate;
    first.left.qdisc = c.upQdisc;
    first.right.qdisc = c.downQdisc;
    const bool routed = topology.GetNRouters() > 0;
    std::vector<NicInterfaceConfig*> ends{&first.left, &first.right};
    if (routed)
    {
        NicLinkConfig& far = topology.RightLink(0);
        far.left.qdisc = c.hostQdisc;
        far.right.qdisc = c.hostQdisc;
        ends.push_back(&far.left);
        ends.push_back(&far.right);
    }
    const int64_t stream = InstallPreset(c, topology, ends);
    FlentTestHelper flent(spec);
    flent.SetClient(topology.GetLeft(0), topology.GetLeftName(0));
    flent.AddHost(topology.GetRight(0), topology.GetRightAddress(0));
    const NetDeviceContainer devices = topology.GetLeftDevices(0);
    flent.AddQdiscStats(devices.Get(0)); // the uploads' egress
    flent.AddQdiscStats(devices.Get(1)); // the downloads'
    RunRecord record = RunTest(c, flent, stream);
    record.config = {{"rig", c.rig},
                     {"seed_hosts", static_cast<int64_t>(c.seedHosts)},
                     {"up_rate", first.left.rate.empty() ? first.rate : first.left.rate},
                     {"down_rate", first.right.rate.empty() ? first.rate : first.right.rate},
                     {"up_qdisc", c.upQdisc},
                     {"down_qdisc", c.downQdisc},
                     {"host_qdisc", routed ? c.hostQdisc : std::string()},
                     {"bql", static_cast<int64_t>(c.bql)}};
    AddRunMetadata(c,
                   record,
                   devices.Get(0),
                   "eth0",
                   first.left.profile,
                   c.upQdisc,
                   first.left.txqueuelen);
    Simulator::Destroy();
    return record;
}

/**
 * Builds the topology, runs the test once and collects it.
 * @param c the configuration
 * @param spec the test
 * @param run ns-3's RngRun of this run
 * @return the run, with EGRESS_INFO and SYSCTLS
 */
RunRecord
RunOnce(const RunConfig& c, const FlentTestSpec& spec, uint64_t run)
{
    RngSeedManager::SetRun(run);
    if (!c.access.empty())
    {
        return RunAccess(c, spec);
    }
    if (!c.rig.empty())
    {
        return RunRig(c, spec);
    }
    auto [up, down, hostTch] = QdiscHelpers(c);
    LinuxTcpDefaults::Apply();
    Ptr<Node> client = CreateObject<Node>();
    Ptr<Node> router = CreateObject<Node>();
    NodeContainer hosts;
    hosts.Create(spec.hosts.size());
    InternetStackHelper internet;
    internet.Install(NodeContainer(client, router, hosts));

    NicHelper nic;
    nic.SetProfile(c.profile);
    Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");

    // Each end at its own rate: the client's egress carries the uploads, the router's the
    // downloads.
    nic.SetChannelAttribute("Delay", StringValue(c.linkDelay));
    NicHelper routerEnd = nic;
    nic.SetDeviceAttribute("DataRate", StringValue(c.upRate));
    routerEnd.SetDeviceAttribute("DataRate", StringValue(c.downRate));
    NetDeviceContainer bottleneck = nic.Install(client, router, routerEnd);
    up.Install(bottleneck.Get(0));
    down.Install(bottleneck.Get(1));
    address.Assign(bottleneck);

    nic.SetDeviceAttribute("DataRate", StringValue("1Gbps"));
    std::vector<Ipv4Address> hostAddresses;
    const bool rttFair = c.test.rfind("rtt_fair", 0) == 0;
    for (uint32_t i = 0; i < hosts.GetN(); ++i)
    {
        const Time propagation = Time(c.hostDelay) * (rttFair ? static_cast<int64_t>(i + 1) : 1);
        nic.SetChannelAttribute("Delay", TimeValue(propagation));
        NetDeviceContainer link = nic.Install(router, hosts.Get(i));
        hostTch.Install(link);
        address.NewNetwork();
        hostAddresses.push_back(address.Assign(link).GetAddress(1));
    }
    if (!c.pcap.empty())
    {
        nic.EnablePcapAll(c.pcap); // PREFIX-NODE-DEVICE.pcap, as ns-3's helpers name them
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
    if (!c.cpu.empty())
    {
        // Before FlentTestHelper::Install(), which samples the nodes that have one.
        HostCpuHelper cpus;
        cpus.SetProfile(c.cpu);
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
    RunRecord record = RunTest(c, flent, stream);
    record.config = {{"rate", c.rate},
                     {"up_rate", c.upRate},
                     {"down_rate", c.downRate},
                     {"up_qdisc", c.upQdisc},
                     {"down_qdisc", c.downQdisc},
                     {"link_delay", c.linkDelay},
                     {"host_delay", c.hostDelay},
                     {"profile", c.profile},
                     {"qdisc", c.qdisc},
                     {"host_qdisc", c.hostQdisc},
                     {"bql", static_cast<int64_t>(c.bql)},
                     {"streams", static_cast<int64_t>(c.streams)}};
    // The client's egress carries the uploads: its qdisc is --upQdisc.
    AddRunMetadata(c,
                   record,
                   bottleneck.Get(0),
                   "eth0",
                   c.profile,
                   c.upQdisc,
                   RunConfig::TXQUEUELEN);
    Simulator::Destroy();
    return record;
}

/// @return the items of text between separators (empty ones dropped)
std::vector<std::string>
Split(const std::string& text, char separator)
{
    std::vector<std::string> items;
    std::string item;
    for (const char c : text + separator)
    {
        if (c != separator)
        {
            item += c;
        }
        else if (!item.empty())
        {
            items.push_back(item);
            item.clear();
        }
    }
    return items;
}

/// @return the full path of flent when it is on PATH, else ""
std::string
FindFlent()
{
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "";
    for (std::size_t start = 0; start <= dirs.size();)
    {
        const std::size_t end = std::min(dirs.find(':', start), dirs.size());
        const std::string candidate = dirs.substr(start, end - start) + "/flent";
        if (end > start && access(candidate.c_str(), X_OK) == 0)
        {
            return candidate;
        }
        start = end + 1;
    }
    return "";
}

/**
 * Has flent render a plot (flent -f plot -p PLOT -o PNG FILE...), without a shell.
 * @param flent the program
 * @param plot the plot
 * @param files the data files
 * @param png the image
 * @return true when flent wrote a non-empty image (flent exits 0 after most failures)
 */
bool
Plot(const std::string& flent,
     const std::string& plot,
     const std::vector<std::string>& files,
     const std::string& png)
{
    std::vector<std::string> args = {flent, "-f", "plot", "-p", plot, "-o", png};
    args.insert(args.end(), files.begin(), files.end());
    std::vector<char*> argv;
    for (std::string& arg : args)
    {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    std::remove(png.c_str());
    const pid_t pid = fork();
    if (pid == 0)
    {
        setenv("MPLBACKEND", "Agg", 1);
        execv(flent.c_str(), argv.data());
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
    {
        return false;
    }
    std::ifstream image(png, std::ios::binary | std::ios::ate);
    return image && image.tellg() > 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    RunConfig c;
    double length = 20;
    double step = 0.2;
    double delay = 5;
    std::string hostList;
    std::string testParameters;
    std::string output;
    std::string dataDir = ".";
    std::string db = "debloat-results.sqlite";
    std::string title;
    std::string note;
    std::string plots;
    uint32_t repetitions = 1;
    uint32_t jobs = 0;
    double epoch = 1767225600; // 2026-01-01T00:00:00Z

    std::vector<std::string> args(argv, argv + argc);
    try
    {
        args = FlentArguments::Normalise(args);
    }
    catch (const std::invalid_argument& error)
    {
        std::cerr << "flent-run: " << error.what() << std::endl;
        return 1;
    }
    std::vector<char*> normalised;
    for (std::string& arg : args)
    {
        normalised.push_back(arg.data());
    }

    CommandLine cmd(__FILE__);
    cmd.AddValue("test", "flent test name", c.test);
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
    compat::AddStringValue(cmd,
                           "host",
                           "HOSTS: the far ends' names, comma-separated (-H, repeatable)",
                           hostList);
    compat::AddStringValue(cmd,
                           "testParameter",
                           "TEST_PARAMETERS as key=value;key=value (--test-parameter, "
                           "repeatable)",
                           testParameters);
    CommandLineOptions::AddUnsigned(cmd,
                                    "streams",
                                    "tcp_nup/tcp_ndown: number of streams",
                                    c.streams,
                                    1,
                                    FlentTestOptions::MAX_STREAMS);
    CommandLineOptions::AddRate(cmd, "rate", "bottleneck rate (client-router)", c.rate);
    CommandLineOptions::AddRate(cmd,
                                "upRate",
                                "the client's egress (upload) rate; default --rate",
                                c.upRate);
    CommandLineOptions::AddRate(cmd,
                                "downRate",
                                "the router's egress towards the client (download); default "
                                "--rate",
                                c.downRate);
    compat::AddStringValue(cmd,
                           "upQdisc",
                           "the upload egress's qdisc as tc text; default --qdisc",
                           c.upQdisc);
    compat::AddStringValue(cmd,
                           "downQdisc",
                           "the download egress's qdisc as tc text; default --qdisc",
                           c.downQdisc);
    cmd.AddValue("access",
                 "an access line instead (home-50-1, docsis-100-20, adsl-20-1: client -- "
                 "home router == line == ISP -- server, SQM on the home router; --upRate, "
                 "--downRate, --upQdisc (WAN egress), --downQdisc (LAN egress) override it)",
                 c.access);
    cmd.AddValue("rig",
                 "a seed's rig instead (laptop-server, wifi-ap, nuc-rangeley-nuc, wrt1200ac, "
                 "forcedeth-gige: NicTopologyHelper's presets; the client its left host, the "
                 "server its right one; --upRate, --downRate, --upQdisc, --downQdisc, "
                 "--hostQdisc, --bql and --bqlLimitMax override it, its NICs, rings and delays "
                 "stay)",
                 c.rig);
    cmd.AddValue("seedHosts",
                 "with --rig: the seed's hosts (their offloads, and TSQ where the seed's "
                 "kernel had it)",
                 c.seedHosts);
    CommandLineOptions::AddTime(cmd,
                                "linkDelay",
                                "client-router propagation delay",
                                c.linkDelay,
                                10);
    CommandLineOptions::AddTime(cmd, "hostDelay", "router-host propagation delay", c.hostDelay, 10);
    CommandLineOptions::AddTime(cmd,
                                "startJitter",
                                "each flow starts up to this much after its time, at random "
                                "(0 to STEP_SIZE; 0: none, and different seeds give the same "
                                "numbers; e.g. 10ms for --repetitions)",
                                c.startJitter,
                                1);
    cmd.AddValue("socketStats",
                 "flent's --socket-stats: uploads' cwnd and RTT every STEP_SIZE (flent -p "
                 "tcp_cwnd, tcp_rtt)",
                 c.socketStats);
    cmd.AddValue("pcap",
                 "write every interface's frames to PREFIX-NODE-DEVICE.pcap (empty: none)",
                 c.pcap);
    cmd.AddValue("profile", "NicNetDevice profile of every link", c.profile);
    compat::AddStringValue(cmd,
                           "qdisc",
                           "root qdisc of the bottleneck's two egresses, as tc text (\"cake "
                           "bandwidth 50Mbit\", \"sfq perturb 10\", \"fq_codel\", ...)",
                           c.qdisc);
    compat::AddStringValue(cmd,
                           "hostQdisc",
                           "root qdisc of the 1 Gbit/s host links, as tc text",
                           c.hostQdisc);
    cmd.AddValue("bql", "install ByteQueueLimits on every TX queue", c.bql);
    CommandLineOptions::AddUnsigned(cmd,
                                    "bqlLimitMax",
                                    "with --bql, BQL's limit_max in bytes (0: the kernel's)",
                                    c.bqlLimitMax,
                                    0,
                                    Dql::MAX_LIMIT);
    cmd.AddValue("cpu",
                 "CPU profile of every node (generic, laptop-2011, nuc, atom-c2758, "
                 "xeon-e5-1650v4, armada385); "
                 "the data file then has flent's cpu_stats series; default none",
                 c.cpu);
    cmd.AddValue("dataDir", "directory of the data files, named as flent names them (-D)", dataDir);
    cmd.AddValue("output", "one data file's exact name instead (-o)", output);
    cmd.AddValue("db", "SQLite results database (none: do not write one)", db);
    compat::AddStringValue(cmd, "title", "flent TITLE (-t, --title-extra)", title);
    compat::AddStringValue(cmd, "note", "flent NOTE (-n)", note);
    CommandLineOptions::AddUnsigned(cmd,
                                    "repetitions",
                                    "runs with RngRun R, R + 1, ... as one flent batch",
                                    repetitions,
                                    1,
                                    1000);
    cmd.AddValue("jobs", "repetitions run at once (0: one per processor)", jobs);
    cmd.AddValue("plot",
                 "plots flent renders from the file(s) when installed, comma-separated (-p)",
                 plots);
    cmd.AddValue("epoch", "UNIX time of T0 in the flent file", epoch);
    cmd.AddValue("progress", "print progress lines", c.progress);
    cmd.Parse(static_cast<int>(normalised.size()), normalised.data());

    if (c.access.empty())
    {
        // A rig keeps its own rates unless --upRate or --downRate says otherwise.
        if (c.rig.empty())
        {
            c.upRate = c.upRate.empty() ? c.rate : c.upRate;
            c.downRate = c.downRate.empty() ? c.rate : c.downRate;
        }
        c.upQdisc = c.upQdisc.empty() ? c.qdisc : c.upQdisc;
        c.downQdisc = c.downQdisc.empty() ? c.qdisc : c.downQdisc;
    }
    FlentTestOptions options;
    options.length = length;
    options.stepSize = step;
    options.delay = delay;
    options.streams = c.streams;
    options.qdiscStats = {{"client", "eth0"}, {"router", "eth0"}};
    FlentTestSpec spec;
    try
    {
        if (!hostList.empty())
        {
            options.hosts = Split(hostList, ',');
        }
        else if (c.test.rfind("rtt_fair", 0) == 0)
        {
            options.hosts.clear();
            for (int i = 1; i <= (c.test == "rtt_fair6be" ? 6 : 4); ++i)
            {
                options.hosts.push_back("server-" + std::to_string(i));
            }
        }
        for (const std::string& pair : Split(testParameters, ';'))
        {
            const std::size_t equals = pair.find('=');
            if (pair.empty())
            {
                continue;
            }
            if (equals == std::string::npos)
            {
                throw std::invalid_argument("--testParameter \"" + pair +
                                            "\" must be key=value (e.g. upload_streams=8)");
            }
            std::string key = pair.substr(0, equals);
            for (char& ch : key)
            {
                ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            }
            options.testParameters[key] = pair.substr(equals + 1);
        }
        if (!c.access.empty())
        {
            if (!IsAccessLine(c.access))
            {
                throw std::invalid_argument("--access=" + c.access +
                                            " is not an access line; accepted: home-50-1, "
                                            "docsis-100-20, adsl-20-1");
            }
            if (options.hosts.size() != 1)
            {
                throw std::invalid_argument("--access has one server; test " + c.test + " needs " +
                                            std::to_string(options.hosts.size()) + " hosts");
            }
            options.qdiscStats = {{"router-wan", "eth1"}, {"router-lan", "eth0"}};
        }
        if (!c.rig.empty())
        {
            std::string rigs;
            bool known = false;
            for (const std::string& name : NicTopologyHelper::GetPresetNames())
            {
                if (!IsAccessLine(name))
                {
                    rigs += (rigs.empty() ? "" : ", ") + name;
                    known = known || name == c.rig;
                }
            }
            if (!c.access.empty())
            {
                throw std::invalid_argument("--rig=" + c.rig + " and --access=" + c.access +
                                            " are two topologies; accepted: one of them");
            }
            if (!known)
            {
                throw std::invalid_argument("--rig=" + c.rig +
                                            " is not a seed's rig; accepted: " + rigs);
            }
            if (options.hosts.size() != 1)
            {
                throw std::invalid_argument("--rig has one server; test " + c.test + " needs " +
                                            std::to_string(options.hosts.size()) + " hosts");
            }
            const NicTopologyHelper rig = NicTopologyHelper::Preset(c.rig);
            options.qdiscStats = {
                {rig.GetLeftName(0), "eth0"},
                {rig.GetNRouters() > 0 ? rig.GetRouterName(0) : rig.GetRightName(0), "eth0"}};
        }
        else if (c.seedHosts)
        {
            throw std::invalid_argument("--seedHosts=true needs --rig (the seed's hosts of a "
                                        "rig); accepted: --seedHosts with --rig, or neither");
        }
        spec = FlentTest::Get(c.test, options);
        if (c.bqlLimitMax != 0 && !c.bql)
        {
            throw std::invalid_argument("--bqlLimitMax=" + std::to_string(c.bqlLimitMax) +
                                        " needs --bql=true (BQL's limit_max on no BQL)");
        }
        if (c.access.empty() && c.rig.empty())
        {
            QdiscHelpers(c); // stops on bad tc text before anything runs
        }
        else
        {
            // The overrides' tc text, as on a single-queue end (Install() checks each
            // against its end's queues).
            for (const std::string* text : {&c.upQdisc, &c.downQdisc, &c.hostQdisc})
            {
                TrafficControlHelper check;
                if (!text->empty())
                {
                    TcQdiscHelper::SetRootQueueDisc(check, *text, RunConfig::TXQUEUELEN, 1);
                }
            }
        }
        if (repetitions > 1 && !output.empty())
        {
            throw std::invalid_argument("--output names one file; with --repetitions " +
                                        std::to_string(repetitions) +
                                        " use --dataDir (files named as flent's batches)");
        }
    }
    catch (const std::invalid_argument& error)
    {
        std::cerr << "flent-run: " << error.what() << std::endl;
        return 1;
    }
    if (!c.cpu.empty())
    {
        CpuProfile::Get(c.cpu); // stops with the list of names for an unknown one
    }

    const uint64_t firstRun = RngSeedManager::GetRun();
    std::vector<RunRecord> runs;
    try
    {
        if (repetitions == 1)
        {
            runs.push_back(RunOnce(c, spec, firstRun));
        }
        else
        {
            ParallelRunner runner(jobs);
            runner.SetProgress(c.progress ? &std::clog : nullptr);
            for (uint32_t i = 0; i < repetitions; ++i)
            {
                RunConfig repetition = c;
                if (!c.pcap.empty())
                {
                    repetition.pcap = c.pcap + "-" + std::to_string(i + 1);
                }
                runner.Add("repetition " + std::to_string(i + 1),
                           [repetition, &spec, run = firstRun + i]() {
                               return RunOnce(repetition, spec, run);
                           });
            }
            runs = runner.Run();
        }
    }
    catch (const std::exception& error)
    {
        std::cerr << "flent-run: " << error.what() << std::endl;
        return 1;
    }

    // flent's batch: one BATCH_* identity; repetition i's TIME follows the previous run's end.
    const std::string batchTime = FlentWriter::FormatTime(epoch);
    const std::string uuid = FlentMetadata::BatchUuid(
        c.test + "\n" + title + "\n" + batchTime + "\n" + std::to_string(firstRun) + "\n" +
        c.qdisc + "\n" + c.hostQdisc + "\n" + c.rate + "\n" + c.profile);
    std::vector<std::string> files;
    try
    {
        std::unique_ptr<ResultsDatabase> database;
        if (db != "none")
        {
            database = std::make_unique<ResultsDatabase>(db);
        }
        for (std::size_t i = 0; i < runs.size(); ++i)
        {
            RunRecord& run = runs[i];
            run.title = title;
            run.note = note;
            run.epoch = epoch + static_cast<double>(i) * std::ceil(spec.totalLength + 2);
            std::string file = output;
            if (repetitions > 1)
            {
                file = dataDir + "/" + FlentWriter::BatchFilename(c.test, epoch, i + 1, title);
                run.extraMetadata["BATCH_NAME"] = FlentWriter::Quote(c.test);
                run.extraMetadata["BATCH_TIME"] = FlentWriter::Quote(batchTime);
                run.extraMetadata["BATCH_TITLE"] = FlentWriter::Quote(title);
                run.extraMetadata["BATCH_UUID"] = FlentWriter::Quote(uuid);
                run.config["repetition"] = static_cast<int64_t>(i + 1);
                run.config["batch_uuid"] = uuid;
            }
            else if (file.empty())
            {
                file = dataDir + "/" + FlentWriter::DataFilename(c.test, run.epoch, title);
            }
            FlentWriter::Write(run, file);
            files.push_back(file);
            std::cout << "flent data file: " << file << "\n";
            if (database)
            {
                std::cout << "results database: " << db << " (run " << database->Write(run)
                          << ")\n";
            }
        }
    }
    catch (const std::exception& error)
    {
        std::cerr << "flent-run: " << error.what() << std::endl;
        return 1;
    }
    if (runs.size() == 1)
    {
        RunSummary::Print(runs.front(), std::cout);
    }
    else
    {
        RunSummary::PrintComparison(runs, std::cout);
    }

    if (!plots.empty())
    {
        const std::string flent = FindFlent();
        if (flent.empty())
        {
            std::cerr << "flent-run: --plot needs flent (apt-get install flent); the data "
                         "files are written, plot them later with flent -i FILE -p PLOT\n";
            return 0;
        }
        for (const std::string& plot : Split(plots, ','))
        {
            // A combine plot takes every file at once; others one image per file.
            const bool combine = plot.find("combine") != std::string::npos;
            for (std::size_t i = 0; i < (combine ? 1 : files.size()); ++i)
            {
                const std::string stem = files[i].substr(0, files[i].rfind(".flent.gz"));
                const std::string png = stem + "-" + plot + ".png";
                const bool ok =
                    Plot(flent, plot, combine ? files : std::vector<std::string>{files[i]}, png);
                std::cout << (ok ? "plot: " : "plot failed (see flent's messages): ") << png
                          << "\n";
            }
        }
    }
    return 0;
}
