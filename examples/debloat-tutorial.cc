/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat
 * The module in one page: two hosts on a 100 Mbit/s Ethernet link, a real NIC model with
 * BQL, cake shaping the client's egress to 50 Mbit/s, flent's tcp_upload across it, and the
 * summary flent would print.
 *
 *     client ===================================== server
 *     e1000e, BQL,     100 Mbit/s, 1 ms           e1000e, fq_codel
 *     cake bandwidth 50Mbit
 *
 * Options: --length (seconds of load, default 5), --check (exit 1 unless the goodput is the
 * one derived here). The check: without an overhead keyword cake charges its shaper the IP
 * packet plus the 14-byte Ethernet header, so a full TCP segment (1448 bytes of payload,
 * 20 IP + 20 TCP + 12 timestamp bytes) costs 1514 bytes of the 50 Mbit/s, and the upload's
 * ACKs travel the other way, outside this shaper: the goodput is 50 x 1448 / 1514 =
 * 47.82 Mbit/s. --check allows 3% below it (slow start and the edges of the sampling
 * interval only lose time) and 1% above (nothing can pass a shaper faster).
 */

#include "ns3/command-line-options.h"
#include "ns3/core-module.h"
#include "ns3/debloat-compat.h"
#include "ns3/flent-test-helper.h"
#include "ns3/flent-test.h"
#include "ns3/internet-module.h"
#include "ns3/linux-tcp-defaults.h"
#include "ns3/network-module.h"
#include "ns3/nic-helper.h"
#include "ns3/run-summary.h"
#include "ns3/tc-qdisc-helper.h"
#include "ns3/traffic-control-module.h"

#include <iostream>

using namespace ns3;
using namespace ns3::debloat;

int
main(int argc, char* argv[])
{
    double length = 5;
    bool check = false;
    CommandLine cmd(__FILE__);
    CommandLineOptions::AddDouble(cmd,
                                  "length",
                                  "LENGTH: seconds of load",
                                  length,
                                  1,
                                  FlentTestOptions::MAX_LENGTH);
    cmd.AddValue("check", "exit 1 unless the goodput is 50 x 1448 / 1514 Mbit/s", check);
    cmd.Parse(argc, argv);

    // TCP as Linux runs it (MSS 1448 with timestamps, CUBIC, Linux's RTO and delayed-ACK
    // timers): ns-3's own defaults would answer a different question.
    LinuxTcpDefaults::Apply();
    NodeContainer hosts;
    hosts.Create(2);
    InternetStackHelper internet;
    internet.Install(hosts);

    // The NIC: a driver profile sets the ring size, interrupt moderation and stop/wake
    // thresholds of a real card (here Intel's e1000e); the link rate and delay are the
    // channel's.
    NicHelper nic;
    nic.SetProfile("e1000e");
    nic.SetDeviceAttribute("DataRate", StringValue("100Mbps"));
    nic.SetChannelAttribute("Delay", StringValue("1ms"));
    NetDeviceContainer devices = nic.Install(hosts.Get(0), hosts.Get(1));

    // The client's qdisc, written as it would be for tc(8): `tc qdisc add dev eth0 root cake
    // bandwidth 50Mbit`. The queue limits are the module's BQL (Linux's dql), which keeps
    // the NIC's ring only as full as its interrupts need, so the queue builds in cake.
    TrafficControlHelper clientTc;
    TcQdiscHelper::SetRootQueueDisc(clientTc, "cake bandwidth 50Mbit");
    clientTc.SetQueueLimits("ns3::debloat::ByteQueueLimits");
    clientTc.Install(devices.Get(0));
    TrafficControlHelper serverTc; // the server sends only ACKs: any qdisc will do
    TcQdiscHelper::SetRootQueueDisc(serverTc, "fq_codel");
    serverTc.Install(devices.Get(1));

    Ipv4AddressHelper address("10.0.0.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = address.Assign(devices);
    // As on hosts whose link has been in use: the first ping does not wait for ARP.
    compat::PopulateNeighborCache(devices.Get(0)->GetChannel());
    // Fixed random streams: the same --RngRun gives the same numbers.
    NicHelper::AssignStreams(devices, 1 + internet.AssignStreams(hosts, 1));

    // The measurement: flent's tcp_upload (one TCP upload and a ping every STEP_SIZE), with
    // DELAY seconds of idle before and after the load. FlentTestHelper installs netperf-
    // and ping-like applications and samples the client's qdisc, as flent's own test does.
    FlentTestOptions options;
    options.length = length;
    options.delay = 2;
    options.hosts = {"server"};
    options.qdiscStats = {{"client", "eth0"}};
    FlentTestHelper flent(FlentTest::Get("tcp_upload", options));
    flent.SetClient(hosts.Get(0), "client");
    flent.AddHost(hosts.Get(1), interfaces.GetAddress(1));
    flent.AddQdiscStats(devices.Get(0));
    flent.SetProgress(false);
    flent.Install(Seconds(1)); // one second for ARP to settle
    Simulator::Stop(flent.GetEnd() + Seconds(1));
    Simulator::Run();

    // The run: every series flent would record. FlentWriter::Write(run, FILE) saves it for
    // `flent -i FILE -p all_scaled`; here RunSummary prints what `flent -f summary` shows.
    RunRecord run = flent.Collect();
    Simulator::Destroy();
    RunSummary::Print(run, std::cout);

    // The check, from the derivation in the header: the shaper, not the link, sets the rate.
    const double expected = 50.0 * 1448 / 1514;
    const double goodput = RunSummary::GetHeadline(run).uploadMbps;
    std::cout << "\nupload " << goodput << " Mbit/s; cake allows 50 x 1448 / 1514 = " << expected
              << "\n";
    if (check && !(goodput >= 0.97 * expected && goodput <= 1.01 * expected))
    {
        std::cerr << "check: upload goodput " << goodput << " Mbit/s is outside " << 0.97 * expected
                  << " to " << 1.01 * expected << "\n";
        return 1;
    }
    return 0;
}
