/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows the test definitions of flent 2.1.1: flent/tests/{rrul,rrul_be,tcp_upload,
 * tcp_download,tcp_nup,tcp_ndown,ping,rtt_fair,rtt_fair4be,rtt_fair_up}.conf, rtt_fair.inc,
 * netperf_definitions.inc and qdisc_stats.inc.
 */

#include "flent-test.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace debloat
{

namespace
{

/// TOS bytes of flent's marking names (MARKING_MAP in flent/runners.py).
constexpr uint8_t CS0 = 0x00;
constexpr uint8_t CS1 = 0x20;
constexpr uint8_t CS5 = 0xa0;
constexpr uint8_t EF = 0xb8;

/// The computed series of rrul and rrul_be, in DATA_SETS order.
const std::vector<std::string> RRUL_COMPUTED = {"TCP upload avg",
                                                "TCP upload sum",
                                                "TCP download avg",
                                                "TCP download sum",
                                                "TCP totals",
                                                "Ping (ms) avg"};

/// Throws std::invalid_argument with message unless ok.
void
Require(bool ok, const std::string& message)
{
    if (!ok)
    {
        throw std::invalid_argument(message);
    }
}

/// @return x as text for a message
std::string
Text(double x)
{
    std::ostringstream os;
    os << x;
    return os.str();
}

/// @return the items joined by separator
std::string
Join(const std::vector<std::string>& items, const std::string& separator)
{
    std::string joined;
    for (const auto& item : items)
    {
        joined += (joined.empty() ? "" : separator) + item;
    }
    return joined;
}

/// @return true when x is a whole number of steps (within rounding of x / step)
bool
IsWholeSteps(double x, double step)
{
    const double steps = x / step;
    return std::fabs(steps - std::round(steps)) <= 1e-6;
}

/// Appends a netperf flow that runs LENGTH from DELAY, as every TCP flow of these tests.
void
AddTcp(FlentTestSpec& spec, const std::string& series, FlowKind kind, uint8_t tos, uint32_t host)
{
    spec.flows.push_back(
        {series, kind, tos, host, spec.delay, spec.length, "NetperfDemoRunner", "Mbits/s"});
}

/// Appends a latency probe that runs the whole test from T0.
void
AddProbe(FlentTestSpec& spec, const std::string& series, FlowKind kind, uint8_t tos, uint32_t host)
{
    const std::string runner = kind == FlowKind::ICMP_PING ? "PingRunner" : "IrttRunner";
    spec.flows.push_back({series, kind, tos, host, 0, spec.totalLength, runner, "ms"});
}

/// rrul.conf (four classes each way, marked) and rrul_be.conf (four best-effort flows).
void
AddRrul(FlentTestSpec& spec)
{
    const bool be = spec.name == "rrul_be";
    const std::vector<std::pair<std::string, uint8_t>> classes =
        be ? std::vector<std::pair<std::string, uint8_t>>{{"BE", CS0},
                                                          {"BE2", CS0},
                                                          {"BE3", CS0},
                                                          {"BE4", CS0}}
           : std::vector<std::pair<std::string, uint8_t>>{{"BE", CS0},
                                                          {"BK", CS1},
                                                          {"CS5", CS5},
                                                          {"EF", EF}};
    for (const auto& [label, tos] : classes)
    {
        AddTcp(spec, "TCP upload " + label, FlowKind::TCP_STREAM, tos, 0);
    }
    for (const auto& [label, tos] : classes)
    {
        AddTcp(spec, "TCP download " + label, FlowKind::TCP_MAERTS, tos, 0);
    }
    if (be)
    {
        for (const char* label : {"BE1", "BE2", "BE3"})
        {
            AddProbe(spec, std::string("Ping (ms) UDP ") + label, FlowKind::UDP_RTT, CS0, 0);
        }
    }
    else
    {
        AddProbe(spec, "Ping (ms) UDP EF", FlowKind::UDP_RTT, EF, 0);
        AddProbe(spec, "Ping (ms) UDP BK", FlowKind::UDP_RTT, CS1, 0);
        AddProbe(spec, "Ping (ms) UDP BE", FlowKind::UDP_RTT, CS0, 0); // unmarked
    }
    AddProbe(spec, "Ping (ms) ICMP", FlowKind::ICMP_PING, CS0, 0);
    spec.computedSeries = RRUL_COMPUTED;
}

/// tcp_upload.conf / tcp_download.conf: tcp_bidirectional.conf without the other direction.
void
AddTcpOne(FlentTestSpec& spec)
{
    if (spec.name == "tcp_upload")
    {
        AddTcp(spec, "TCP upload", FlowKind::TCP_STREAM, CS0, 0);
    }
    else
    {
        AddTcp(spec, "TCP download", FlowKind::TCP_MAERTS, CS0, 0);
    }
    AddProbe(spec, "Ping (ms) ICMP", FlowKind::ICMP_PING, CS0, 0);
}

/// tcp_nup.conf / tcp_ndown.conf: N unmarked streams "TCP upload::1" .. "TCP upload::N".
void
AddTcpN(FlentTestSpec& spec, uint32_t streams)
{
    const bool up = spec.name == "tcp_nup";
    const std::string prefix = up ? "TCP upload" : "TCP download";
    spec.testParameters[up ? "upload_streams" : "download_streams"] = std::to_string(streams);
    spec.computedSeries = {prefix + " avg", prefix + " sum"};
    AddProbe(spec, "Ping (ms) ICMP", FlowKind::ICMP_PING, CS0, 0);
    for (uint32_t i = 1; i <= streams; ++i)
    {
        AddTcp(spec,
               prefix + "::" + std::to_string(i),
               up ? FlowKind::TCP_STREAM : FlowKind::TCP_MAERTS,
               CS0,
               0);
    }
}

/// ping.conf: ICMP and UDP pings for LENGTH, no load.
void
AddPing(FlentTestSpec& spec)
{
    AddProbe(spec, "Ping (ms) ICMP", FlowKind::ICMP_PING, CS0, 0);
    AddProbe(spec, "Ping (ms) UDP", FlowKind::UDP_RTT, CS0, 0);
}

/// rtt_fair.conf, rtt_fair4be.conf and rtt_fair_up.conf through rtt_fair.inc: per host an
/// upload, a download (not in rtt_fair_up) and an ICMP ping, named after label and host.
void
AddRttFair(FlentTestSpec& spec)
{
    const bool fair = spec.name == "rtt_fair";
    const bool down = spec.name != "rtt_fair_up";
    const std::vector<std::string> labels =
        fair ? std::vector<std::string>{"BE1", "BE2", "BK1", "BK2"}
             : std::vector<std::string>{"BE1", "BE2", "BE3", "BE4"};
    const std::vector<uint8_t> markings =
        fair ? std::vector<uint8_t>{CS0, CS0, CS1, CS1} : std::vector<uint8_t>{CS0, CS0, CS0, CS0};
    // The .conf files set these test parameters, so flent's own files carry them.
    spec.testParameters["markings"] = fair ? "CS0,CS0,CS1,CS1" : "CS0,CS0,CS0,CS0";
    spec.testParameters["labels"] = Join(labels, ",");
    spec.testParameters["ping_labels"] = "ICMP1,ICMP2,ICMP3,ICMP4";

    spec.computedSeries = {"TCP upload avg", "TCP upload sum", "TCP upload fairness"};
    if (down)
    {
        for (const char* name : {"TCP download avg", "TCP download sum", "TCP download fairness"})
        {
            spec.computedSeries.emplace_back(name);
        }
    }
    spec.computedSeries.emplace_back("Ping (ms) avg");

    for (uint32_t i = 0; i < 4; ++i)
    {
        const std::string suffix = labels[i] + " " + spec.hosts[i];
        AddTcp(spec, "TCP upload " + suffix, FlowKind::TCP_STREAM, markings[i], i);
        if (down)
        {
            AddTcp(spec, "TCP download " + suffix, FlowKind::TCP_MAERTS, markings[i], i);
        }
        AddProbe(spec,
                 "Ping (ms) ICMP" + std::to_string(i + 1) + " " + spec.hosts[i],
                 FlowKind::ICMP_PING,
                 CS0,
                 i);
    }
}

/// qdisc_stats.inc: declares each source in TEST_PARAMETERS (flent zips the two lists).
void
AddQdiscStats(FlentTestSpec& spec, const std::vector<QdiscStatsSource>& sources)
{
    if (sources.empty())
    {
        return;
    }
    std::set<std::string> seen;
    std::vector<std::string> hosts;
    std::vector<std::string> interfaces;
    for (const auto& source : sources)
    {
        for (const auto& word : {source.host, source.interface})
        {
            // flent splits the lists with shlex on ',' and ';', which also strips quotes.
            Require(!word.empty() && word.find_first_of(",;'\"\\") == std::string::npos,
                    "qdiscStats host and interface must be non-empty and free of , ; ' \" \\; "
                    "got \"" +
                        word + "\"");
        }
        Require(seen.insert(source.host).second,
                "qdiscStats host \"" + source.host + "\" is listed twice; each host once");
        hosts.push_back(source.host);
        interfaces.push_back(source.interface);
        spec.qdiscSeries.push_back("qdisc_stats_" + source.host);
    }
    spec.testParameters["qdisc_stats_hosts"] = Join(hosts, ",");
    spec.testParameters["qdisc_stats_interfaces"] = Join(interfaces, ",");
    for (const char* plot : {"backlog", "drops", "delay"})
    {
        spec.plots.emplace_back(plot);
    }
}

} // namespace

std::vector<std::string>
FlentTest::Names()
{
    return {"rrul",
            "rrul_be",
            "tcp_upload",
            "tcp_download",
            "tcp_nup",
            "tcp_ndown",
            "ping",
            "rtt_fair",
            "rtt_fair4be",
            "rtt_fair_up"};
}

FlentTestSpec
FlentTest::Get(const std::string& name, const FlentTestOptions& options)
{
    const auto names = Names();
    Require(std::find(names.begin(), names.end(), name) != names.end(),
            "flent test \"" + name + "\" is unknown; accepted: " + Join(names, ", "));
    // flent's -l and -d are integers; the grid must hit the flow starts and the end.
    // The upper bounds keep a mistyped value from running for days or filling memory: a day
    // of load, an hour of idle, steps of 1 ms at least and a million samples per series.
    Require(std::isfinite(options.length) && options.length >= 1 &&
                options.length <= FlentTestOptions::MAX_LENGTH &&
                options.length == std::floor(options.length),
            "flent length (LENGTH) must be a whole number of seconds from 1 to " +
                Text(FlentTestOptions::MAX_LENGTH) + "; got " + Text(options.length));
    Require(std::isfinite(options.delay) && options.delay >= 0 &&
                options.delay <= FlentTestOptions::MAX_DELAY &&
                options.delay == std::floor(options.delay),
            "flent delay (DELAY) must be a whole number of seconds from 0 to " +
                Text(FlentTestOptions::MAX_DELAY) + "; got " + Text(options.delay));
    Require(std::isfinite(options.stepSize) && options.stepSize >= FlentTestOptions::MIN_STEP &&
                IsWholeSteps(options.length, options.stepSize) &&
                IsWholeSteps(options.delay, options.stepSize),
            "flent step size (STEP_SIZE) must be >= " + Text(FlentTestOptions::MIN_STEP) +
                " s and divide LENGTH " + Text(options.length) + " s and DELAY " +
                Text(options.delay) + " s into whole steps; got " + Text(options.stepSize));
    const double samples = (options.length + 2 * options.delay) / options.stepSize;
    Require(samples <= FlentTestOptions::MAX_SAMPLES,
            "flent step size (STEP_SIZE) " + Text(options.stepSize) + " s gives " + Text(samples) +
                " samples per series over LENGTH + 2 x DELAY; accepted at most " +
                Text(FlentTestOptions::MAX_SAMPLES) + " (a larger STEP_SIZE or a shorter run)");
    Require(!options.hosts.empty() &&
                std::none_of(options.hosts.begin(),
                             options.hosts.end(),
                             [](const std::string& host) { return host.empty(); }),
            "flent hosts (HOSTS) must list at least one non-empty host name");
    const bool rttFair = name.rfind("rtt_fair", 0) == 0;
    Require(!rttFair || options.hosts.size() == 4,
            "flent test \"" + name + "\" needs exactly 4 hosts (HOSTS); got " +
                std::to_string(options.hosts.size()));
    const bool streamed = name == "tcp_nup" || name == "tcp_ndown";
    Require(!streamed || (options.streams >= 1 && options.streams <= FlentTestOptions::MAX_STREAMS),
            "flent test \"" + name + "\" needs streams (" +
                (name == "tcp_nup" ? "upload_streams" : "download_streams") + ") from 1 to " +
                std::to_string(FlentTestOptions::MAX_STREAMS) + "; got " +
                std::to_string(options.streams));

    FlentTestSpec spec;
    spec.name = name;
    spec.length = options.length;
    spec.stepSize = options.stepSize;
    spec.delay = options.delay;
    // netperf_definitions.inc: TOTAL_LENGTH = LENGTH + 2 * DELAY; ping.conf: LENGTH.
    spec.totalLength = name == "ping" ? options.length : options.length + 2 * options.delay;
    spec.hosts = options.hosts;

    if (name == "rrul" || name == "rrul_be")
    {
        AddRrul(spec);
        spec.defaultPlot = "all_scaled";
        spec.plots = {"all_scaled", "totals", "ping_cdf"};
    }
    else if (name == "tcp_upload" || name == "tcp_download")
    {
        AddTcpOne(spec);
        spec.defaultPlot = "totals";
        spec.plots = {"totals", "ping_cdf"};
    }
    else if (streamed)
    {
        AddTcpN(spec, options.streams);
        spec.defaultPlot = "totals";
        spec.plots = {"totals", "ping_cdf"};
    }
    else if (name == "ping")
    {
        AddPing(spec);
        spec.defaultPlot = "ping";
        spec.plots = {"ping", "ping_cdf"};
    }
    else
    {
        AddRttFair(spec);
        spec.defaultPlot = "all_scaled";
        spec.plots = {"all_scaled", "totals", "ping_cdf"};
    }
    AddQdiscStats(spec, options.qdiscStats);
    return spec;
}

} // namespace debloat
} // namespace ns3
