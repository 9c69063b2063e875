/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flent-test-helper.h"

#include "ns3/abort.h"
#include "ns3/debloat-compat.h"
#include "ns3/enum.h"
#include "ns3/host-cpu.h"
#include "ns3/icmp-ping.h"
#include "ns3/irtt-probe.h"
#include "ns3/netperf-client.h"
#include "ns3/netperf-server.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/run-summary.h"
#include "ns3/simulator.h"
#include "ns3/summary-stats.h"
#include "ns3/udp-flood.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>

namespace ns3
{
namespace debloat
{

namespace
{

/// @return the wall clock in milliseconds
int64_t
WallMilliseconds()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

FlentTestHelper::FlentTestHelper(const FlentTestSpec& spec)
    : m_spec(spec)
{
}

void
FlentTestHelper::SetStartJitter(Time jitter)
{
    NS_ABORT_MSG_IF(jitter.IsStrictlyNegative() || jitter > Seconds(m_spec.stepSize),
                    "FlentTestHelper: the start jitter must be from 0 to STEP_SIZE ("
                        << m_spec.stepSize << " s); got " << jitter.As(Time::MS));
    m_startJitter = jitter;
    if (jitter.IsStrictlyPositive() && !m_jitter)
    {
        // Made only when needed: a random variable takes the next automatic stream, which
        // would move those of every variable made after it in runs without jitter.
        m_jitter = CreateObject<UniformRandomVariable>();
    }
}

void
FlentTestHelper::SetSocketStats(bool on)
{
    m_socketStats = on;
}

int64_t
FlentTestHelper::AssignStreams(int64_t stream)
{
    if (m_jitter)
    {
        m_jitter->SetStream(stream);
    }
    return 1;
}

void
FlentTestHelper::SetClient(Ptr<Node> node, const std::string& name)
{
    m_client = node;
    m_clientName = name;
}

void
FlentTestHelper::AddHost(Ptr<Node> node, Ipv4Address address)
{
    NS_ABORT_MSG_IF(m_hosts.size() >= m_spec.hosts.size(),
                    "FlentTestHelper: test " << m_spec.name << " has " << m_spec.hosts.size()
                                             << " host(s); AddHost() was called once more");
    m_hosts.emplace_back(node, address);
}

void
FlentTestHelper::AddQdiscStats(Ptr<NetDevice> device)
{
    NS_ABORT_MSG_IF(m_qdiscDevices.size() >= m_spec.qdiscSeries.size(),
                    "FlentTestHelper: " << m_spec.qdiscSeries.size()
                                        << " qdisc stats source(s) were declared in the "
                                           "options; AddQdiscStats() was called once more");
    m_qdiscDevices.push_back(device);
}

void
FlentTestHelper::AddCpuStats(Ptr<Node> node, const std::string& name)
{
    NS_ABORT_MSG_IF(!node, "FlentTestHelper: AddCpuStats() was given no node");
    m_cpuNodes.emplace_back(node, name);
}

void
FlentTestHelper::SetProgress(bool progress)
{
    m_progress = progress;
}

Time
FlentTestHelper::GetEnd() const
{
    return m_start + Seconds(m_spec.totalLength);
}

void
FlentTestHelper::Install(Time start)
{
    NS_ABORT_MSG_IF(!m_client, "FlentTestHelper: SetClient() was not called");
    NS_ABORT_MSG_IF(m_hosts.size() != m_spec.hosts.size(),
                    "FlentTestHelper: test " << m_spec.name << " needs " << m_spec.hosts.size()
                                             << " host(s); AddHost() was called " << m_hosts.size()
                                             << " time(s)");
    NS_ABORT_MSG_IF(m_qdiscDevices.size() != m_spec.qdiscSeries.size(),
                    "FlentTestHelper: " << m_spec.qdiscSeries.size()
                                        << " qdisc stats source(s) declared; AddQdiscStats() "
                                           "was called "
                                        << m_qdiscDevices.size() << " time(s)");
    m_start = start;
    const Time step = Seconds(m_spec.stepSize);
    for (const auto& host : m_hosts)
    {
        host.first->AddApplication(CreateObject<NetperfServer>());
        host.first->AddApplication(CreateObject<IrttServer>());
    }
    for (const FlowSpec& spec : m_spec.flows)
    {
        auto flow = std::make_unique<Flow>();
        flow->spec = spec;
        flow->interval = spec.kind == FlowKind::VOIP ? MilliSeconds(20) : step;
        const Ipv4Address remote = m_hosts.at(spec.host).second;
        Ptr<Application> app;
        bool connected = false;
        switch (spec.kind)
        {
        case FlowKind::TCP_STREAM:
        case FlowKind::TCP_MAERTS:
            app = CreateObjectWithAttributes<NetperfClient>(
                "Remote",
                Ipv4AddressValue(remote),
                "Test",
                EnumValue(spec.kind == FlowKind::TCP_STREAM ? NetperfTest::TCP_STREAM
                                                            : NetperfTest::TCP_MAERTS),
                "Tos",
                UintegerValue(spec.tos),
                "InterimInterval",
                TimeValue(step));
            connected = app->TraceConnectWithoutContext(
                "Interim",
                MakeCallback(&FlentTestHelper::Interim, this).Bind(flow.get()));
            break;
        case FlowKind::ICMP_PING:
        case FlowKind::UDP_RTT:
        case FlowKind::VOIP:
            // ping -i STEP_SIZE and irtt -i STEP_SIZE share their attribute names.
            if (spec.kind == FlowKind::ICMP_PING)
            {
                app = CreateObject<IcmpPing>();
                connected = app->TraceConnectWithoutContext(
                    "Rtt",
                    MakeCallback(&FlentTestHelper::Ping, this).Bind(flow.get()));
            }
            else
            {
                app = CreateObject<IrttClient>();
                connected = app->TraceConnectWithoutContext(
                    "Reply",
                    MakeCallback(&FlentTestHelper::Irtt, this).Bind(flow.get()));
            }
            app->SetAttribute("Remote", Ipv4AddressValue(remote));
            app->SetAttribute("Interval", TimeValue(flow->interval));
            app->SetAttribute("Tos", UintegerValue(spec.tos));
            if (spec.kind == FlowKind::VOIP)
            {
                // runners.py VoipRunner: irtt -i 0.02 -l 172, G.711 in RTP every 20 ms.
                app->SetAttribute("Size", UintegerValue(172));
            }
            break;
        case FlowKind::UDP_FLOOD: {
            // iperf -s -u on the host, on a port of this flow's own; iperf -u -c on the client.
            const uint16_t port = static_cast<uint16_t>(5001 + m_flows.size());
            Ptr<UdpFloodServer> server =
                CreateObjectWithAttributes<UdpFloodServer>("Port", UintegerValue(port));
            m_hosts.at(spec.host).first->AddApplication(server);
            flow->floodServer = server;
            app = CreateObjectWithAttributes<UdpFloodClient>(
                "Remote",
                Ipv4AddressValue(remote),
                "Port",
                UintegerValue(port),
                "Rate",
                DataRateValue(DataRate(static_cast<uint64_t>(spec.udpRate))),
                "Size",
                UintegerValue(spec.udpSize),
                "Tos",
                UintegerValue(spec.tos),
                "InterimInterval",
                TimeValue(step));
            connected = app->TraceConnectWithoutContext(
                "Interim",
                MakeCallback(&FlentTestHelper::FloodInterim, this).Bind(flow.get()));
            break;
        }
        }
        NS_ABORT_MSG_IF(!connected, "FlentTestHelper: cannot trace " << spec.series);
        m_client->AddApplication(app);
        // Drawn only when set, so that runs without jitter use no random numbers.
        const Time late = m_startJitter.IsStrictlyPositive()
                              ? NanoSeconds(static_cast<int64_t>(
                                    m_jitter->GetValue(0, m_startJitter.GetNanoSeconds())))
                              : Time(0);
        flow->late = late.GetSeconds();
        app->SetStartTime(start + Seconds(spec.start) + late - Simulator::Now());
        app->SetStopTime(start + Seconds(spec.start + spec.length) + late - Simulator::Now());
        flow->app = app;
        if (m_socketStats && spec.kind == FlowKind::TCP_STREAM)
        {
            // The socket's window and RTT from its creation; ss_iterate.sh's sample every
            // STEP_SIZE while the flow runs.
            NS_ABORT_MSG_IF(
                !app->TraceConnectWithoutContext(
                    "CongestionWindow",
                    MakeBoundCallback(&FlentTestHelper::Cwnd, flow.get())) ||
                    !app->TraceConnectWithoutContext(
                        "Rtt",
                        MakeCallback(&FlentTestHelper::RttSample, this).Bind(flow.get())),
                "FlentTestHelper: cannot trace the socket of " << spec.series);
            const Time first = start + Seconds(spec.start) + late - Simulator::Now();
            for (Time at = step; at <= Seconds(spec.length); at += step)
            {
                Simulator::Schedule(first + at, &FlentTestHelper::SampleSocket, this, flow.get());
            }
        }
        m_flows.push_back(std::move(flow));
    }
    for (const Ptr<NetDevice>& device : m_qdiscDevices)
    {
        Ptr<DeviceSampler> sampler = CreateObject<DeviceSampler>();
        sampler->SetAttribute("Interval", TimeValue(step));
        sampler->SetDevice(device);
        sampler->Start(start, GetEnd());
        m_samplers.push_back(sampler);
    }
    InstallCpuSamplers(start);
    m_wallStart = WallMilliseconds();
    if (m_progress)
    {
        Simulator::Schedule(start - Simulator::Now(), &FlentTestHelper::Progress, this);
    }
}

void
FlentTestHelper::InstallCpuSamplers(Time start)
{
    // The nodes of the test, each with the name the test gives it: LOCAL_HOST, HOSTS, the
    // hosts of the qdisc stats sources, then the nodes added by AddCpuStats().
    std::vector<std::pair<Ptr<Node>, std::string>> nodes = {{m_client, m_clientName}};
    for (std::size_t i = 0; i < m_hosts.size(); ++i)
    {
        nodes.emplace_back(m_hosts[i].first, m_spec.hosts.at(i));
    }
    const std::string qdiscPrefix = "qdisc_stats_";
    for (std::size_t i = 0; i < m_qdiscDevices.size(); ++i)
    {
        nodes.emplace_back(m_qdiscDevices[i]->GetNode(),
                           m_spec.qdiscSeries.at(i).substr(qdiscPrefix.size()));
    }
    nodes.insert(nodes.end(), m_cpuNodes.begin(), m_cpuNodes.end());

    std::vector<Ptr<Node>> sampled;
    for (const auto& [node, name] : nodes)
    {
        Ptr<HostCpu> cpu = node ? node->GetObject<HostCpu>() : nullptr;
        if (!cpu || std::find(sampled.begin(), sampled.end(), node) != sampled.end())
        {
            continue; // no CPU model, or sampled under its first name
        }
        // flent splits cpu_stats_hosts with shlex on ',' and ';', which also strips quotes.
        NS_ABORT_MSG_IF(name.empty() || name.find_first_of(",;'\"\\") != std::string::npos,
                        "FlentTestHelper: the name of a node with a HostCpu must be non-empty "
                        "and free of , ; ' \" \\; got \""
                            << name << "\"");
        for (const auto& other : m_cpuSamplers)
        {
            NS_ABORT_MSG_IF(other.first == name,
                            "FlentTestHelper: two nodes with a HostCpu are both named \""
                                << name << "\"; each cpu_stats series needs its own name");
        }
        Ptr<CpuSampler> sampler = CreateObject<CpuSampler>();
        sampler->SetAttribute("Interval", TimeValue(Seconds(m_spec.stepSize)));
        sampler->SetHostCpu(cpu);
        sampler->Start(start, GetEnd());
        m_cpuSamplers.emplace_back(name, sampler);
        sampled.push_back(node);
    }
}

void
FlentTestHelper::Interim(Flow* flow, uint64_t bytes, Time duration)
{
    // netperf_demo's raw sample: the interval's goodput in Mbit/s and its length.
    const double seconds = duration.GetSeconds();
    Sample sample;
    sample.t = (Simulator::Now() - m_start).GetSeconds();
    sample.values = {8.0 * static_cast<double>(bytes) / seconds / 1e6, seconds};
    flow->samples.push_back(std::move(sample));
}

void
FlentTestHelper::FloodInterim(Flow* flow, uint64_t bytes, Time duration)
{
    // iperf -i: the payload rate sent in the interval, in Mbit/s, stamped at its end.
    Sample sample;
    sample.t = (Simulator::Now() - m_start).GetSeconds();
    sample.values = {8.0 * static_cast<double>(bytes) / duration.GetSeconds() / 1e6};
    flow->samples.push_back(std::move(sample));
}

void
FlentTestHelper::Ping(Flow* flow, uint16_t sequence, Time rtt)
{
    Sample sample;
    sample.t = (Simulator::Now() - m_start).GetSeconds();
    sample.values = {rtt.GetSeconds() * 1e3, static_cast<double>(sequence)};
    flow->samples.push_back(std::move(sample));
}

void
FlentTestHelper::Irtt(Flow* flow, uint32_t sequence, Time rtt, Time up, Time down, Time ipdv)
{
    // irtt's IPDV per direction: the change of that direction's delay since the previous
    // reply (none for the first).
    const double ipdvUp = flow->haveLast ? (up - flow->lastUp).GetSeconds() * 1e3 : NO_VALUE;
    const double ipdvDown = flow->haveLast ? (down - flow->lastDown).GetSeconds() * 1e3 : NO_VALUE;
    Sample sample;
    sample.t = (Simulator::Now() - m_start).GetSeconds();
    sample.values = {rtt.GetSeconds() * 1e3,
                     static_cast<double>(sequence),
                     up.GetSeconds() * 1e3,
                     down.GetSeconds() * 1e3,
                     ipdvUp,
                     ipdvDown,
                     flow->haveLast ? ipdv.GetSeconds() * 1e3 : NO_VALUE,
                     NO_VALUE};
    flow->samples.push_back(std::move(sample));
    flow->lastUp = up;
    flow->lastDown = down;
    flow->haveLast = true;
}

void
FlentTestHelper::SampleSocket(Flow* flow)
{
    Ptr<Socket> socket = DynamicCast<NetperfClient>(flow->app)->GetSocket();
    if (!socket || flow->cwnd == 0 || flow->srtt == 0)
    {
        return; // no window or RTT measured yet
    }
    UintegerValue mss;
    socket->GetAttribute("SegmentSize", mss);
    Sample sample;
    sample.t = (Simulator::Now() - m_start).GetSeconds();
    // Keys after netperf's val and dur: tcp_cwnd (segments, as ss's cwnd:), tcp_rtt and
    // tcp_rtt_var (ms, as ss's rtt:srtt/rttvar).
    sample.values = {NO_VALUE,
                     NO_VALUE,
                     static_cast<double>(flow->cwnd / mss.Get()),
                     flow->srtt,
                     flow->rttvar};
    flow->socket.push_back(std::move(sample));
}

void
FlentTestHelper::Cwnd(Flow* flow, uint32_t, uint32_t cwnd)
{
    flow->cwnd = cwnd;
}

void
FlentTestHelper::RttSample(Flow* flow, Time, Time rtt)
{
    // tcp_rtt_estimator(): the first sample sets srtt = m and rttvar = m / 2.
    const double m = rtt.GetSeconds() * 1e3;
    if (m <= 0)
    {
        return;
    }
    if (flow->srtt == 0)
    {
        flow->srtt = m;
        flow->rttvar = m / 2;
        return;
    }
    flow->rttvar += (std::fabs(m - flow->srtt) - flow->rttvar) / 4;
    flow->srtt += (m - flow->srtt) / 8;
}

void
FlentTestHelper::Progress()
{
    const double elapsed = (Simulator::Now() - m_start).GetSeconds();
    std::clog << "flent " << m_spec.name << ": " << std::fixed << std::setprecision(1) << elapsed
              << " of " << m_spec.totalLength << " s simulated, "
              << (WallMilliseconds() - m_wallStart) / 1000.0 << " s wall clock" << std::endl;
    std::clog.unsetf(std::ios::floatfield);
    // About ten lines per run, at least one simulated second apart.
    const Time every = Max(Seconds(1), Seconds(m_spec.totalLength / 10));
    if (Simulator::Now() + every <= GetEnd())
    {
        Simulator::Schedule(every, &FlentTestHelper::Progress, this);
    }
}

std::vector<Sample>
FlentTestHelper::WithLosses(const Flow& flow) const
{
    // The client sends probe k at start + k * STEP_SIZE; a probe without a reply is lost,
    // and irtt reports it at its send time.
    Ptr<IrttClient> client = DynamicCast<IrttClient>(flow.app);
    std::vector<bool> answered(client->GetSent(), false);
    for (const Sample& sample : flow.samples)
    {
        answered.at(static_cast<std::size_t>(sample.values[1])) = true;
    }
    std::vector<Sample> samples = flow.samples;
    for (std::size_t k = 0; k < answered.size(); ++k)
    {
        if (!answered[k])
        {
            Sample lost;
            lost.t =
                flow.spec.start + flow.late + static_cast<double>(k) * flow.interval.GetSeconds();
            lost.values.assign(8, NO_VALUE);
            lost.values[1] = static_cast<double>(k);
            lost.values[7] = 1;
            samples.push_back(std::move(lost));
        }
    }
    std::stable_sort(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) {
        return a.t < b.t;
    });
    return samples;
}

RunRecord
FlentTestHelper::Collect() const
{
    RunRecord run;
    run.test = m_spec.name;
    run.localHost = m_clientName;
    run.hosts = m_spec.hosts;
    run.length = m_spec.length;
    run.totalLength = m_spec.totalLength;
    run.stepSize = m_spec.stepSize;
    run.delay = m_spec.delay;
    run.testParameters = m_spec.testParameters;
    run.seed = RngSeedManager::GetSeed();
    run.run = RngSeedManager::GetRun();
    run.ns3Version = compat::Ns3Version();
    run.moduleVersion = DEBLOAT_VERSION;
    for (const auto& flow : m_flows)
    {
        Series series;
        series.name = flow->spec.series;
        series.runner = flow->spec.runner;
        series.units = flow->spec.units;
        series.meta["DATA_TOS"] = static_cast<int64_t>(flow->spec.tos);
        switch (flow->spec.kind)
        {
        case FlowKind::TCP_STREAM:
        case FlowKind::TCP_MAERTS: {
            Ptr<NetperfClient> client = DynamicCast<NetperfClient>(flow->app);
            series.keys = {"val", "dur"};
            series.samples = flow->samples;
            if (m_socketStats && flow->spec.kind == FlowKind::TCP_STREAM)
            {
                // flent merges the ss runner's samples into its parent's, in time order.
                series.keys.insert(series.keys.end(), {"tcp_cwnd", "tcp_rtt", "tcp_rtt_var"});
                for (Sample& sample : series.samples)
                {
                    sample.values.resize(series.keys.size(), NO_VALUE);
                }
                series.samples.insert(series.samples.end(),
                                      flow->socket.begin(),
                                      flow->socket.end());
                std::stable_sort(series.samples.begin(),
                                 series.samples.end(),
                                 [](const Sample& a, const Sample& b) { return a.t < b.t; });
            }
            // netperf's THROUGHPUT over the whole test is flent's MEAN_VALUE.
            series.meta["MEAN_VALUE"] = client->GetThroughput() / 1e6;
            series.meta["ELAPSED_TIME"] = client->GetElapsed().GetSeconds();
            series.meta["BYTES"] = static_cast<int64_t>(client->GetBytes());
            break;
        }
        case FlowKind::ICMP_PING:
            series.keys = {"val", "seq"};
            series.samples = flow->samples;
            break;
        case FlowKind::UDP_FLOOD:
            series.keys = {"val"};
            series.samples = flow->samples;
            // IperfCsvRunner's MEAN_VALUE: the server's report, the rate at which it received.
            series.meta["MEAN_VALUE"] = flow->floodServer->GetReceiveRate() / 1e6;
            series.meta["BYTES_SENT"] =
                static_cast<int64_t>(DynamicCast<UdpFloodClient>(flow->app)->GetSent());
            break;
        case FlowKind::UDP_RTT:
        case FlowKind::VOIP: {
            series.keys =
                {"val", "seq", "owd_up", "owd_down", "ipdv_up", "ipdv_down", "ipdv", "lost"};
            series.samples = WithLosses(*flow);
            // IrttRunner's packet counts.
            const auto sent = DynamicCast<IrttClient>(flow->app)->GetSent();
            series.meta["PACKETS_SENT"] = static_cast<int64_t>(sent);
            series.meta["PACKETS_RECEIVED"] = static_cast<int64_t>(flow->samples.size());
            series.meta["PACKET_LOSS_RATE"] =
                sent == 0
                    ? 0.0
                    : 1.0 - static_cast<double>(flow->samples.size()) / static_cast<double>(sent);
            break;
        }
        }
        if (flow->spec.kind == FlowKind::ICMP_PING || flow->spec.kind == FlowKind::UDP_RTT ||
            flow->spec.kind == FlowKind::VOIP)
        {
            std::vector<double> rtts;
            for (const Sample& sample : flow->samples)
            {
                rtts.push_back(sample.values[0]);
            }
            const SummaryStats stats = Summarize(rtts);
            if (stats.count > 0)
            {
                series.meta["MEAN_VALUE"] = stats.mean;
                series.meta["MIN_VALUE"] = stats.min;
                series.meta["MAX_VALUE"] = stats.max;
            }
        }
        run.series.push_back(std::move(series));
    }
    for (std::size_t i = 0; i < m_samplers.size(); ++i)
    {
        run.series.push_back(m_samplers[i]->GetSeries(m_spec.qdiscSeries[i]));
    }
    // flent's cpu_stats.inc: a series per host of the test parameter cpu_stats_hosts.
    std::string cpuHosts;
    for (const auto& [name, sampler] : m_cpuSamplers)
    {
        run.series.push_back(sampler->GetSeries("cpu_stats_" + name));
        cpuHosts += (cpuHosts.empty() ? "" : ",") + name;
    }
    if (!cpuHosts.empty())
    {
        run.testParameters["cpu_stats_hosts"] = cpuHosts;
    }
    run.metrics = RunSummary::ComputeMetrics(run);
    return run;
}

} // namespace debloat
} // namespace ns3
