/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows the test definitions of flent 2.1.1: flent/tests/<test>.conf of each test of
 * FlentTest::Names(), rtt_fair.inc, netperf_definitions.inc, qdisc_stats.inc and testenv.py's
 * for_stream_config().
 */

#ifndef FLENT_TEST_H
#define FLENT_TEST_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup debloat-measurement
 * The flent tests the simulator can run, named and structured exactly as flent 2.1.1 defines
 * them, so that a run's data file loads and plots in the real flent.
 */

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief What a flow of a flent test does.
 */
enum class FlowKind
{
    TCP_STREAM, ///< netperf TCP_STREAM: bulk upload from the client to the host
    TCP_MAERTS, ///< netperf TCP_MAERTS: bulk download from the host to the client
    ICMP_PING,  ///< ping -D -i STEP_SIZE (flent's ping runner)
    UDP_RTT,    ///< irtt client at STEP_SIZE intervals (flent's udp_rtt runner)
    VOIP,       ///< irtt client, 172 bytes every 20 ms, G.711-like (flent's voip runner)
    UDP_FLOOD,  ///< iperf -u: a UDP flood from the client to the host (flent's iperf_csv)
};

/**
 * @ingroup debloat-measurement
 * @brief One measured series of a flent test: the flow that produces it.
 */
struct FlowSpec
{
    std::string series;                  ///< flent's exact series name, e.g. "TCP upload BE"
    FlowKind kind{FlowKind::TCP_STREAM}; ///< what the flow does
    uint8_t tos{0};      ///< IP TOS byte of the flow's packets (flent's marking), e.g. EF 0xb8
    uint32_t host{0};    ///< index into FlentTestSpec::hosts of the far end
    double start{0};     ///< start in seconds after T0: DELAY for TCP flows, 0 for probes
    double length{0};    ///< duration in seconds: LENGTH for TCP, TOTAL_LENGTH for probes
    std::string runner;  ///< SERIES_META RUNNER: NetperfDemoRunner, PingRunner or IrttRunner
                         ///< (udp_rtt and voip)
    std::string units;   ///< SERIES_META UNITS: "Mbits/s" for TCP, "ms" for probes
    double udpRate{0};   ///< UDP_FLOOD: payload bit/s (iperf -b, udp_bandwidth)
    uint32_t udpSize{0}; ///< UDP_FLOOD: payload bytes (iperf -l, udp_pktsize)
};

/**
 * @ingroup debloat-measurement
 * @brief A device whose qdisc statistics a run samples (flent's qdisc_stats.inc mixin).
 *
 * flent declares it with the test parameters qdisc_stats_hosts and qdisc_stats_interfaces;
 * the run then carries a TcRunner series named "qdisc_stats_<host>", which flent plots as
 * backlog, drops and delay, labelled "<host> (<interface>)".
 */
struct QdiscStatsSource
{
    std::string host;      ///< the node, e.g. "router"
    std::string interface; ///< its device, e.g. "eth0"
};

/**
 * @ingroup debloat-measurement
 * @brief Everything a run of one flent test needs, as flent's test definition gives it.
 */
struct FlentTestSpec
{
    std::string name;               ///< flent test name (metadata NAME), e.g. "rrul"
    double length{0};               ///< LENGTH in seconds: the load phase
    double totalLength{0};          ///< TOTAL_LENGTH: LENGTH + 2 * DELAY (ping: LENGTH)
    double stepSize{0};             ///< STEP_SIZE in seconds: the sampling grid
    double delay{0};                ///< DELAY in seconds: when the TCP flows start
    std::vector<std::string> hosts; ///< HOSTS; HOST is hosts[0]
    std::map<std::string, std::string> testParameters; ///< TEST_PARAMETERS for the file
    std::vector<FlowSpec> flows;             ///< the measured series, in flent's DATA_SETS order
    std::vector<std::string> computedSeries; ///< avg/sum/totals/fairness, computed by flent
    std::vector<std::string> qdiscSeries;    ///< "qdisc_stats_<host>" TcRunner series names
    std::string defaultPlot;                 ///< the test's default plot (DEFAULTS PLOT)
    /// The plots a checker should render: the default plot, whichever of all_scaled, totals
    /// and ping_cdf the test has, and backlog, drops and delay when qdisc stats are declared.
    std::vector<std::string> plots;
};

/**
 * @ingroup debloat-measurement
 * @brief The knobs of a flent run (flent's command-line options), with flent's defaults.
 */
struct FlentTestOptions
{
    static constexpr double MAX_LENGTH = 86400;   ///< LENGTH at most, s (a day)
    static constexpr double MAX_DELAY = 3600;     ///< DELAY at most, s
    static constexpr double MIN_STEP = 0.001;     ///< STEP_SIZE at least, s
    static constexpr double MAX_SAMPLES = 1e6;    ///< samples per series at most
    static constexpr uint32_t MAX_STREAMS = 1024; ///< tcp_nup / tcp_ndown streams at most

    double length = 60;    ///< -l: LENGTH in whole seconds
    double stepSize = 0.2; ///< -s: STEP_SIZE in seconds; must divide LENGTH and DELAY
    double delay = 5;      ///< -d: DELAY in whole seconds (flent's default 5)
    std::vector<std::string> hosts = {"server"}; ///< -H: the far ends (rtt_fair*: exactly 4)
    uint32_t streams = 4; ///< tcp_nup / tcp_ndown: upload_streams / download_streams
    std::vector<QdiscStatsSource> qdiscStats; ///< devices whose qdisc stats are sampled
    /// --test-parameter key=value pairs (keys lower case, as flent folds them). Stored in the
    /// file's TEST_PARAMETERS; those the tests read change the flows: upload_streams and
    /// download_streams (tcp_nup, tcp_ndown; they win over `streams`), marking / markings
    /// (tcp_1up, and per stream in tcp_nup, tcp_ndown, rtt_fair_var*), labels and
    /// ping_labels (rtt_fair_var*), stream_delays (per stream, whole seconds).
    std::map<std::string, std::string> testParameters;
};

/**
 * @ingroup debloat-measurement
 * @brief The definitions of flent's tests that the model runs (Names()): the rrul family (rrul,
 * rrul_be, rrul_cs8, rrul_noclassification, rrul_up, rrul_50_down, rrul_50_up,
 * rrul_100_up), voip, udp_flood, the TCP tests (tcp_upload,
 * tcp_download, tcp_bidirectional, tcp_1up, tcp_1down, tcp_nup, tcp_ndown and their fixed
 * variants tcp_2up .. tcp_12up, tcp_2down .. tcp_12down), ping, and the RTT fairness tests
 * (rtt_fair, rtt_fair4be, rtt_fair_up, rtt_fair6be, rtt_fair_var, rtt_fair_var_up,
 * rtt_fair_var_down).
 *
 * Series names, markings and timings are those of flent 2.1.1's .conf files. Computed series
 * are listed by name only: flent computes every missing avg/sum/fairness series from the
 * measured ones when it loads a file, and fills in their SERIES_META as it does so.
 */
class FlentTest
{
  public:
    /**
     * @brief The definition of one flent test for the given options.
     * @param name the flent test name, one of Names()
     * @param options LENGTH, STEP_SIZE, DELAY, HOSTS, streams and qdisc stats sources
     * @return the test's flows, computed series, test parameters and plots
     * @throws std::invalid_argument naming the parameter and its accepted values when the
     * name is unknown, LENGTH is not a whole number from 1 to 86400, DELAY not a whole
     * number from 0 to 3600, STEP_SIZE below 1 ms, not dividing LENGTH and DELAY or giving
     * more than a million samples per series, hosts are empty (rtt_fair, rtt_fair4be,
     * rtt_fair_up: not exactly 4; rtt_fair6be: not 6), streams is not 1 to 1024 (tcp_nup,
     * tcp_ndown), a test parameter the test reads is malformed (a marking not in flent's
     * MARKING_MAP nor a number 0-255, a stream delay not a whole number of seconds below
     * LENGTH), a test parameter names a feature the model lacks (cc_algos,
     * tcp_cong_control, send_sizes, ...) or a qdisc stats source is malformed
     */
    static FlentTestSpec Get(const std::string& name, const FlentTestOptions& options);

    /// @return the names of the supported tests
    static std::vector<std::string> Names();
};

} // namespace debloat
} // namespace ns3

#endif /* FLENT_TEST_H */
