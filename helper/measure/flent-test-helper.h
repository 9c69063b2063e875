/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLENT_TEST_HELPER_H
#define FLENT_TEST_HELPER_H

#include "ns3/cpu-sampler.h"
#include "ns3/device-sampler.h"
#include "ns3/flent-test.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/run-record.h"
#include "ns3/udp-flood.h"

#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class Application;

namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief Runs a flent test on a topology: installs its netperf, ping and irtt flows and
 * the device samplers, and collects everything into a RunRecord.
 *
 * @code
 *   FlentTestOptions options;
 *   options.length = 30;
 *   options.qdiscStats = {{"client", "eth0"}};
 *   FlentTestHelper flent(FlentTest::Get("rrul_be", options));
 *   flent.SetClient(clientNode, "client");
 *   flent.AddHost(serverNode, serverAddress);      // one per options.hosts
 *   flent.AddQdiscStats(clientEgressDevice);       // one per options.qdiscStats
 *   flent.Install(Seconds(1));                     // T0
 *   Simulator::Stop(flent.GetEnd());
 *   Simulator::Run();
 *   RunRecord run = flent.Collect();
 * @endcode
 *
 * The flows follow flent: TCP flows start at T0 + DELAY and run LENGTH, probes run from T0
 * for TOTAL_LENGTH, at STEP_SIZE intervals. Every host runs a NetperfServer (port 12865)
 * and an IrttServer (port 2112).
 *
 * CPU statistics (flent's cpu_stats.inc): each node of the test that has a HostCpu
 * aggregated when Install() runs (the client, the hosts, the nodes of the qdisc stats
 * devices, and nodes added with AddCpuStats()) gets a CpuSampler, whose series
 * "cpu_stats_<name>" Collect() adds, with the names in the test parameter cpu_stats_hosts so
 * that flent offers its cpu, cpu_box and cpu_bar plots. A node is named as the test names
 * it: LOCAL_HOST, its entry of HOSTS, or the host of its qdisc stats source. Without a
 * HostCpu nothing of this happens and the run is what it was.
 */
class FlentTestHelper
{
  public:
    /**
     * @param spec the test, from FlentTest::Get()
     */
    explicit FlentTestHelper(const FlentTestSpec& spec);

    /**
     * @param node the node that runs the clients (flent's local host)
     * @param name its name in the file (LOCAL_HOST)
     */
    void SetClient(Ptr<Node> node, const std::string& name);

    /**
     * Adds the next of the test's hosts, in the order of FlentTestSpec::hosts.
     * @param node the host
     * @param address the address the client reaches it at
     */
    void AddHost(Ptr<Node> node, Ipv4Address address);

    /**
     * Adds the egress device of the next qdisc stats source, in the order of the options'
     * qdiscStats.
     * @param device the device whose root qdisc, BQL and ring are sampled
     */
    void AddQdiscStats(Ptr<NetDevice> device);

    /**
     * Samples the CPU of one more node (a router without qdisc stats, say), in addition to
     * those Install() finds. The node must have a HostCpu aggregated by Install().
     * @param node the node
     * @param name its name in the file: the series is "cpu_stats_<name>"
     */
    void AddCpuStats(Ptr<Node> node, const std::string& name);

    /// @param progress whether Install() schedules progress lines on std::clog (default on)
    void SetProgress(bool progress);

    /**
     * Starts each flow (its netperf, ping or irtt process) a random time after its nominal
     * start, uniform in [0, jitter), and stops it as much later: flent starts every runner
     * as a process of its own, never all at the same nanosecond. Without it (the default,
     * 0) a simulated run has no randomness that TCP feels, so repetitions with different
     * seeds give the same numbers.
     * @param jitter the largest start delay (0: none)
     */
    void SetStartJitter(Time jitter);

    /**
     * flent's --socket-stats: every STEP_SIZE while an upload (TCP_STREAM) runs, its sending
     * socket's state joins the flow's raw samples as flent's ss runner reports it
     * (`tcp_cwnd` in segments, `tcp_rtt` and `tcp_rtt_var` in ms), so that flent's tcp_cwnd,
     * tcp_rtt and tcp_rtt_cdf plots work. As in flent 2.1.1, downloads get none (ss runs on
     * the client, where their sockets only receive). The RTT is smoothed from ns-3's RTT
     * samples as tcp_rtt_estimator() does (srtt += (m - srtt) / 8, rttvar += (|m - srtt| -
     * rttvar) / 4); Deviation from Linux: ss's pacing_rate and delivery_rate are not reported.
     * Default off.
     * @param on whether to sample
     */
    void SetSocketStats(bool on);

    /**
     * Assigns the random stream of the start jitter (call after SetStartJitter()).
     * @param stream the first stream index
     * @return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * Installs servers, flows and samplers. Stops with a message when the client, a host
     * or a qdisc stats device is missing.
     * @param start T0, the simulation time at which the test starts
     */
    void Install(Time start);

    /// @return the end of the test, T0 + TOTAL_LENGTH
    Time GetEnd() const;

    /**
     * Builds the run's record after Simulator::Run(): metadata, every series with its raw
     * samples and SERIES_META (MEAN_VALUE as flent computes it), the seed and versions, and
     * the summary metrics (RunSummary). The caller adds its configuration to `config`.
     * @return the record
     */
    RunRecord Collect() const;

  private:
    /// One flow's application and the samples its traces produced.
    struct Flow
    {
        FlowSpec spec;                   ///< the flent definition
        Ptr<Application> app;            ///< NetperfClient, IcmpPing or IrttClient
        std::vector<Sample> samples;     ///< raw samples
        Time lastUp;                     ///< irtt: previous reply's client-to-server delay
        Time lastDown;                   ///< irtt: previous reply's server-to-client delay
        bool haveLast{false};            ///< irtt: a reply was seen
        double late{0};                  ///< its start jitter, s
        Time interval;                   ///< probes: time between them (ping, irtt, VoIP)
        Ptr<UdpFloodServer> floodServer; ///< UDP_FLOOD: the host's iperf -s -u
        std::vector<Sample> socket;      ///< SetSocketStats(): ss samples (upload only)
        uint32_t cwnd{0};                ///< last CongestionWindow, bytes
        double srtt{0};                  ///< smoothed RTT, ms
        double rttvar{0};                ///< RTT variation, ms
    };

    /**
     * Records a netperf demo-mode interval.
     * @param flow the flow
     * @param bytes bytes in the interval
     * @param duration the interval
     */
    void Interim(Flow* flow, uint64_t bytes, Time duration);
    /**
     * Records an iperf interval report of a UDP flood.
     * @param flow the flow
     * @param bytes payload bytes sent in the interval
     * @param duration the interval
     */
    void FloodInterim(Flow* flow, uint64_t bytes, Time duration);
    /**
     * Records a ping reply.
     * @param flow the flow
     * @param sequence its sequence number
     * @param rtt its RTT
     */
    void Ping(Flow* flow, uint16_t sequence, Time rtt);
    /**
     * Records an irtt reply.
     * @param flow the flow
     * @param sequence probe number
     * @param rtt round-trip time
     * @param up client-to-server delay
     * @param down server-to-client delay
     * @param ipdv RTT change
     */
    void Irtt(Flow* flow, uint32_t sequence, Time rtt, Time up, Time down, Time ipdv);
    /**
     * Takes one ss sample of an upload's socket (none before its window first moves).
     * @param flow the flow
     */
    void SampleSocket(Flow* flow);
    /**
     * Records a congestion window change.
     * @param flow the flow
     * @param old the previous window
     * @param cwnd the window, bytes
     */
    static void Cwnd(Flow* flow, uint32_t old, uint32_t cwnd);
    /**
     * Smooths an RTT sample into the flow's srtt and rttvar (tcp_rtt_estimator()).
     * @param flow the flow
     * @param old the previous sample
     * @param rtt the sample
     */
    void RttSample(Flow* flow, Time old, Time rtt);
    /// Prints a progress line and schedules the next.
    void Progress();
    /**
     * Creates a CpuSampler for each node of the test that has a HostCpu.
     * @param start T0
     */
    void InstallCpuSamplers(Time start);
    /**
     * @param flow an irtt flow
     * @return its samples with the lost probes added in time order
     */
    std::vector<Sample> WithLosses(const Flow& flow) const;

    FlentTestSpec m_spec;                                               ///< the test
    Ptr<Node> m_client;                                                 ///< the local host
    std::string m_clientName;                                           ///< LOCAL_HOST
    std::vector<std::pair<Ptr<Node>, Ipv4Address>> m_hosts;             ///< the far ends
    std::vector<Ptr<NetDevice>> m_qdiscDevices;                         ///< sampled egresses
    std::vector<Ptr<DeviceSampler>> m_samplers;                         ///< their samplers
    std::vector<std::unique_ptr<Flow>> m_flows;                         ///< the flows
    std::vector<std::pair<Ptr<Node>, std::string>> m_cpuNodes;          ///< AddCpuStats()
    std::vector<std::pair<std::string, Ptr<CpuSampler>>> m_cpuSamplers; ///< by node name
    Time m_start;                                                       ///< T0
    Time m_startJitter;                                                 ///< SetStartJitter()
    Ptr<UniformRandomVariable> m_jitter; ///< draws each flow's start delay
    bool m_progress{true};               ///< print progress
    bool m_socketStats{false};           ///< SetSocketStats()
    int64_t m_wallStart{0};              ///< wall clock at Install(), ms
};

} // namespace debloat
} // namespace ns3

#endif /* FLENT_TEST_HELPER_H */
