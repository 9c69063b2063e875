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

/// flent's MARKING_MAP (flent/runners.py): TOS bytes by name.
const std::vector<std::pair<std::string, uint8_t>> MARKINGS = {
    {"AF11", 0x28}, {"AF12", 0x30}, {"AF13", 0x38}, {"AF21", 0x48}, {"AF22", 0x50}, {"AF23", 0x58},
    {"AF31", 0x68}, {"AF32", 0x70}, {"AF33", 0x78}, {"AF41", 0x88}, {"AF42", 0x90}, {"AF43", 0x98},
    {"CS0", 0x00},  {"CS1", 0x20},  {"CS2", 0x40},  {"CS3", 0x60},  {"CS4", 0x80},  {"CS5", 0xa0},
    {"CS6", 0xc0},  {"CS7", 0xe0},  {"EF", 0xb8}};
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

/// Per-stream test parameters flent's tests read (testenv.py STREAM_CONFIG_PARAM_NAMES) that
/// the model does not run: refused rather than silently ignored.
const std::vector<std::string> UNMODELLED_PARAMETERS = {"cc_algo",
                                                        "cc_algos",
                                                        "tcp_cong_control",
                                                        "control_hosts",
                                                        "local_binds",
                                                        "send_sizes",
                                                        "test_payloads",
                                                        "udp_bandwidths",
                                                        "udp_pktsizes"};

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

/// @return text without leading and trailing blanks
std::string
Trim(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t");
    return first == std::string::npos
               ? ""
               : text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

/**
 * The TOS byte of a flent marking, as RunnerBase.parse_marking() reads it: a name of
 * MARKING_MAP, or an integer (decimal, or hexadecimal with 0x).
 * @param marking the marking; of "X,Y" (netperf's up,down) the first
 * @param parameter the test parameter it came from, for the message
 * @return the TOS byte
 */
uint8_t
ParseMarking(const std::string& marking, const std::string& parameter)
{
    const std::string up = Trim(marking.substr(0, marking.find(',')));
    for (const auto& [name, tos] : MARKINGS)
    {
        if (up == name)
        {
            return tos;
        }
    }
    const bool hex = up.size() > 2 && (up.compare(0, 2, "0x") == 0 || up.compare(0, 2, "0X") == 0);
    const std::string digits = hex ? up.substr(2) : up;
    const bool ok = !digits.empty() && digits.size() <= 3 &&
                    digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") ==
                        std::string::npos;
    const unsigned long value = ok ? std::stoul(digits, nullptr, hex ? 16 : 10) : 256;
    std::vector<std::string> names;
    for (const auto& [name, tos] : MARKINGS)
    {
        names.push_back(name);
    }
    Require(value <= 255,
            "flent test parameter " + parameter + ": marking \"" + marking +
                "\" is neither a name (" + Join(names, ", ") +
                ") nor a TOS byte 0-255 (decimal or 0x hexadecimal)");
    return static_cast<uint8_t>(value);
}

/**
 * A list-valued test parameter, as testenv.py's get_test_parameter(split=True) reads it:
 * items separated by ',' or ';', trimmed.
 * @param spec the test, whose TEST_PARAMETERS hold it
 * @param key the parameter
 * @return its items; none when the parameter is absent
 */
std::vector<std::string>
ListParameter(const FlentTestSpec& spec, const std::string& key)
{
    std::vector<std::string> items;
    const auto it = spec.testParameters.find(key);
    if (it == spec.testParameters.end())
    {
        return items;
    }
    std::string item;
    for (const char c : it->second + ",")
    {
        if (c == ',' || c == ';')
        {
            items.push_back(Trim(item));
            item.clear();
        }
        else
        {
            item += c;
        }
    }
    return items;
}

/// @return item i of a list parameter, or fallback when the list is shorter (or empty)
std::string
StreamItem(const std::vector<std::string>& items, std::size_t i, const std::string& fallback)
{
    return i < items.size() && !items[i].empty() ? items[i] : fallback;
}

/**
 * The per-stream settings of testenv.py's for_stream_config(): stream i's marking, label,
 * ping label and start delay come from item i of the test parameters markings, labels,
 * ping_labels and stream_delays.
 */
struct StreamConfig
{
    uint8_t tos{CS0};      ///< from markings (default CS0)
    std::string label;     ///< from labels (default as the test says)
    std::string pingLabel; ///< from ping_labels (default as the test says)
    double delay{0};       ///< extra start delay from stream_delays, whole seconds
};

/// @return stream i's configuration, with the test's defaults for missing items
StreamConfig
GetStreamConfig(const FlentTestSpec& spec,
                std::size_t i,
                const std::string& defaultLabel,
                const std::string& defaultPingLabel)
{
    StreamConfig config;
    config.tos = ParseMarking(StreamItem(ListParameter(spec, "markings"), i, "CS0"), "markings");
    config.label = StreamItem(ListParameter(spec, "labels"), i, defaultLabel);
    config.pingLabel = StreamItem(ListParameter(spec, "ping_labels"), i, defaultPingLabel);
    const std::string delay = StreamItem(ListParameter(spec, "stream_delays"), i, "0");
    // for_stream_config() takes int(); the grid needs whole seconds inside LENGTH.
    const bool digits =
        delay.find_first_not_of("0123456789") == std::string::npos && delay.size() <= 5;
    config.delay = digits ? std::stod(delay) : -1;
    Require(config.delay >= 0 && config.delay < spec.length,
            "flent test parameter stream_delays: item \"" + delay +
                "\" must be a whole number of seconds from 0 to LENGTH - 1 (" +
                Text(spec.length - 1) + ")");
    return config;
}

/// Appends a netperf flow that runs LENGTH from DELAY, as every TCP flow of these tests
/// (a stream delay d starts it at DELAY + d and shortens it to LENGTH - d).
void
AddTcp(FlentTestSpec& spec,
       const std::string& series,
       FlowKind kind,
       uint8_t tos,
       uint32_t host,
       double streamDelay = 0)
{
    spec.flows.push_back({series,
                          kind,
                          tos,
                          host,
                          spec.delay + streamDelay,
                          spec.length - streamDelay,
                          "NetperfDemoRunner",
                          "Mbits/s"});
}

/// Appends a latency probe that runs the whole test from T0.
void
AddProbe(FlentTestSpec& spec, const std::string& series, FlowKind kind, uint8_t tos, uint32_t host)
{
    const std::string runner = kind == FlowKind::ICMP_PING ? "PingRunner" : "IrttRunner";
    spec.flows.push_back({series, kind, tos, host, 0, spec.totalLength, runner, "ms"});
}

/// rrul.conf (four classes each way, marked), rrul_be.conf (four best-effort flows),
/// rrul_noclassification.conf (rrul_be's flows, rrul's pings), rrul_up.conf (rrul without
/// the downloads) and rrul_cs8.conf (a flow and a UDP ping per class selector).
void
AddRrul(FlentTestSpec& spec)
{
    using Classes = std::vector<std::pair<std::string, uint8_t>>;
    const bool cs8 = spec.name == "rrul_cs8";
    const bool be = spec.name == "rrul_be" || spec.name == "rrul_noclassification";
    const Classes classes = cs8  ? Classes{{"CS0_BE", 0x00},
                                           {"CS1_BK", 0x20},
                                           {"CS2", 0x40},
                                           {"CS3", 0x60},
                                           {"CS4", 0x80},
                                           {"CS5", 0xa0},
                                           {"CS6", 0xc0},
                                           {"CS7", 0xe0}}
                            : be ? Classes{{"BE", CS0}, {"BE2", CS0}, {"BE3", CS0}, {"BE4", CS0}}
                                 : Classes{{"BE", CS0}, {"BK", CS1}, {"CS5", CS5}, {"EF", EF}};
    for (const auto& [label, tos] : classes)
    {
        AddTcp(spec, "TCP upload " + label, FlowKind::TCP_STREAM, tos, 0);
    }
    if (spec.name != "rrul_up")
    {
        for (const auto& [label, tos] : classes)
        {
            AddTcp(spec, "TCP download " + label, FlowKind::TCP_MAERTS, tos, 0);
        }
    }
    if (cs8)
    {
        // CS7 first, down to CS0_BE, which (as rrul's 'UDP BE') has no marking.
        for (auto it = classes.rbegin(); it != classes.rend(); ++it)
        {
            AddProbe(spec, "Ping (ms) UDP " + it->first, FlowKind::UDP_RTT, it->second, 0);
        }
    }
    else if (spec.name == "rrul_be")
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
    if (spec.name == "rrul_up")
    {
        // rrul_up.conf deletes every series whose name holds "download".
        spec.computedSeries = {"TCP upload avg", "TCP upload sum", "TCP totals", "Ping (ms) avg"};
    }
    else if (spec.name == "rrul_noclassification")
    {
        // Its DATA_SETS has no "TCP totals".
        spec.computedSeries = {"TCP upload avg",
                               "TCP upload sum",
                               "TCP download avg",
                               "TCP download sum",
                               "Ping (ms) avg"};
    }
    else
    {
        spec.computedSeries = RRUL_COMPUTED;
    }
}

/// rrul_50_down.conf, rrul_50_up.conf and rrul_100_up.conf: one best-effort flow one way
/// and N the other (flent's 'duplicates': N, named "TCP download BE::1" .. "::N"), with
/// rrul_be's pings; no "TCP totals".
void
AddRrulMany(FlentTestSpec& spec)
{
    const bool down = spec.name == "rrul_50_down";
    const uint32_t many = spec.name == "rrul_100_up" ? 100 : 50;
    for (const bool upload : {true, false})
    {
        const std::string prefix = upload ? "TCP upload BE" : "TCP download BE";
        const FlowKind kind = upload ? FlowKind::TCP_STREAM : FlowKind::TCP_MAERTS;
        if (upload == down)
        {
            AddTcp(spec, prefix, kind, CS0, 0);
            continue;
        }
        for (uint32_t i = 1; i <= many; ++i)
        {
            AddTcp(spec, prefix + "::" + std::to_string(i), kind, CS0, 0);
        }
    }
    for (const char* label : {"BE1", "BE2", "BE3"})
    {
        AddProbe(spec, std::string("Ping (ms) UDP ") + label, FlowKind::UDP_RTT, CS0, 0);
    }
    AddProbe(spec, "Ping (ms) ICMP", FlowKind::ICMP_PING, CS0, 0);
    spec.computedSeries = {"TCP upload avg",
                           "TCP upload sum",
                           "TCP download avg",
                           "TCP download sum",
                           "Ping (ms) avg"};
}

/// tcp_upload.conf / tcp_download.conf (tcp_bidirectional.conf without the other direction),
/// tcp_bidirectional.conf itself, tcp_1up.conf (with its marking parameter) and
/// tcp_1down.conf.
void
AddTcpOne(FlentTestSpec& spec)
{
    const bool up = spec.name != "tcp_download" && spec.name != "tcp_1down";
    const bool down = spec.name != "tcp_upload" && spec.name != "tcp_1up";
    if (down)
    {
        AddTcp(spec, "TCP download", FlowKind::TCP_MAERTS, CS0, 0);
    }
    if (up)
    {
        // tcp_1up: MARKING = try_test_parameters(('marking', 'markings'), split=True)[0].
        uint8_t tos = CS0;
        if (spec.name == "tcp_1up")
        {
            const std::string key = spec.testParameters.count("marking") ? "marking" : "markings";
            tos = ParseMarking(StreamItem(ListParameter(spec, key), 0, "CS0"), key);
        }
        AddTcp(spec, "TCP upload", FlowKind::TCP_STREAM, tos, 0);
    }
    AddProbe(spec, "Ping (ms) ICMP", FlowKind::ICMP_PING, CS0, 0);
}

/// tcp_nup.conf / tcp_ndown.conf (and tcp_2up .. tcp_12down, which fix N): N streams
/// "TCP upload::1" .. "TCP upload::N", each as for_stream_config() configures it.
void
AddTcpN(FlentTestSpec& spec, uint32_t streams)
{
    const bool up = spec.name.find("up") != std::string::npos;
    const std::string prefix = up ? "TCP upload" : "TCP download";
    spec.testParameters[up ? "upload_streams" : "download_streams"] = std::to_string(streams);
    spec.computedSeries = {prefix + " avg", prefix + " sum"};
    AddProbe(spec, "Ping (ms) ICMP", FlowKind::ICMP_PING, CS0, 0);
    for (uint32_t i = 1; i <= streams; ++i)
    {
        const StreamConfig config = GetStreamConfig(spec, i - 1, "", "");
        AddTcp(spec,
               prefix + "::" + std::to_string(i),
               up ? FlowKind::TCP_STREAM : FlowKind::TCP_MAERTS,
               config.tos,
               0,
               config.delay);
    }
}

/// voip.conf through voip.inc: one irtt VoIP stream for LENGTH (TOTAL_LENGTH = LENGTH),
/// marked with the test parameter voip_marking; flent computes VoIP::induced_delay.
void
AddVoip(FlentTestSpec& spec)
{
    const auto marking = spec.testParameters.find("voip_marking");
    const uint8_t tos =
        marking == spec.testParameters.end() ? CS0 : ParseMarking(marking->second, "voip_marking");
    spec.flows.push_back({"VoIP", FlowKind::VOIP, tos, 0, 0, spec.length, "IrttRunner", "ms"});
    spec.computedSeries = {"VoIP::induced_delay"};
}

/**
 * A bandwidth as iperf2's byte_atof() reads -b: a number with an optional suffix, k, m, g
 * for powers of 1000 and K, M, G for powers of 1024.
 * @param text the value
 * @return bit/s, or 0 when malformed
 */
double
IperfRate(const std::string& text)
{
    const std::size_t end = text.find_first_not_of("0123456789.");
    if (text.empty() || end == 0 || (end != std::string::npos && end + 1 != text.size()) ||
        std::count(text.begin(), text.end(), '.') > 1)
    {
        return 0;
    }
    double value = std::stod(text.substr(0, end));
    if (end != std::string::npos)
    {
        const char unit = text[end];
        const std::string units = "kmgKMG";
        const auto at = units.find(unit);
        if (at == std::string::npos)
        {
            return 0;
        }
        value *= std::pow(at < 3 ? 1000.0 : 1024.0, static_cast<double>(at % 3 + 1));
    }
    return value;
}

/// udp_flood.conf: an iperf UDP flood from DELAY for LENGTH, udp_bandwidth (iperf's default
/// 1 Mbit/s) of udp_pktsize-byte datagrams (default 1470), and an ICMP ping.
void
AddUdpFlood(FlentTestSpec& spec)
{
    const std::string rateText = StreamItem(ListParameter(spec, "udp_bandwidth"), 0, "1m");
    const double rate = IperfRate(rateText);
    Require(rate >= 1 && rate <= 1e12,
            "flent test parameter udp_bandwidth: \"" + rateText +
                "\" is not iperf's -b; accepted: bit/s from 1 to 1e12, a number with k, m, g "
                "(powers of 1000) or K, M, G (of 1024), e.g. 50m");
    const std::string sizeText = StreamItem(ListParameter(spec, "udp_pktsize"), 0, "1470");
    const bool digits =
        sizeText.size() <= 5 && sizeText.find_first_not_of("0123456789") == std::string::npos;
    const unsigned long size = digits ? std::stoul(sizeText) : 0;
    Require(size >= 1 && size <= 65507,
            "flent test parameter udp_pktsize: \"" + sizeText +
                "\" must be UDP payload bytes from 1 to 65507");
    FlowSpec flood{"UDP upload",
                   FlowKind::UDP_FLOOD,
                   CS0,
                   0,
                   spec.delay,
                   spec.length,
                   "IperfCsvRunner",
                   "Mbits/s"};
    flood.udpRate = rate;
    flood.udpSize = static_cast<uint32_t>(size);
    spec.flows.push_back(flood);
    AddProbe(spec, "Ping (ms) ICMP", FlowKind::ICMP_PING, CS0, 0);
}

/// ping.conf: ICMP and UDP pings for LENGTH, no load.
void
AddPing(FlentTestSpec& spec)
{
    AddProbe(spec, "Ping (ms) ICMP", FlowKind::ICMP_PING, CS0, 0);
    AddProbe(spec, "Ping (ms) UDP", FlowKind::UDP_RTT, CS0, 0);
}

/// The RTT fairness tests through rtt_fair.inc: per host an upload, a download and an ICMP
/// ping, named "TCP upload <label> <host>" and "Ping (ms) <ping label> <host>", as
/// for_stream_config() configures each. rtt_fair, rtt_fair4be, rtt_fair_up and rtt_fair6be
/// set their labels and markings (set_test_parameter, over the user's); rtt_fair_var* take
/// them from the test parameters (defaults BE, ICMP, CS0). The _up variants delete the
/// downloads, rtt_fair_var_down the uploads.
void
AddRttFair(FlentTestSpec& spec)
{
    const std::string& name = spec.name;
    const std::size_t n = spec.hosts.size();
    if (name.rfind("rtt_fair_var", 0) != 0)
    {
        const bool fair = name == "rtt_fair";
        std::vector<std::string> markings;
        std::vector<std::string> labels;
        std::vector<std::string> pingLabels;
        for (std::size_t i = 0; i < n; ++i)
        {
            markings.emplace_back(fair && i >= 2 ? "CS1" : "CS0");
            labels.push_back(fair ? (i < 2 ? "BE" : "BK") + std::to_string(i % 2 + 1)
                                  : "BE" + std::to_string(i + 1));
            pingLabels.push_back("ICMP" + std::to_string(i + 1));
        }
        spec.testParameters["markings"] = Join(markings, ",");
        spec.testParameters["labels"] = Join(labels, ",");
        spec.testParameters["ping_labels"] = Join(pingLabels, ",");
    }
    const bool up = name != "rtt_fair_var_down";
    const bool down = name != "rtt_fair_up" && name != "rtt_fair_var_up";
    for (const char* direction : {"upload", "download"})
    {
        if (std::string(direction) == "upload" ? up : down)
        {
            for (const char* what : {" avg", " sum", " fairness"})
            {
                spec.computedSeries.push_back(std::string("TCP ") + direction + what);
            }
        }
    }
    spec.computedSeries.emplace_back("Ping (ms) avg");

    for (uint32_t i = 0; i < n; ++i)
    {
        const StreamConfig config = GetStreamConfig(spec, i, "BE", "ICMP");
        const std::string suffix = config.label + " " + spec.hosts[i];
        if (up)
        {
            AddTcp(spec, "TCP upload " + suffix, FlowKind::TCP_STREAM, config.tos, i, config.delay);
        }
        if (down)
        {
            AddTcp(spec,
                   "TCP download " + suffix,
                   FlowKind::TCP_MAERTS,
                   config.tos,
                   i,
                   config.delay);
        }
        AddProbe(spec,
                 "Ping (ms) " + config.pingLabel + " " + spec.hosts[i],
                 FlowKind::ICMP_PING,
                 CS0,
                 i);
    }
}

/// @return N of tcp_Nup / tcp_Ndown (2, 4, 6, 8, 12), 0 for other names
uint32_t
FixedStreams(const std::string& name)
{
    for (uint32_t n : {2U, 4U, 6U, 8U, 12U})
    {
        if (name == "tcp_" + std::to_string(n) + "up" ||
            name == "tcp_" + std::to_string(n) + "down")
        {
            return n;
        }
    }
    return 0;
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
            "rrul_cs8",
            "rrul_noclassification",
            "rrul_up",
            "rrul_50_down",
            "rrul_50_up",
            "rrul_100_up",
            "tcp_upload",
            "tcp_download",
            "tcp_bidirectional",
            "tcp_1up",
            "tcp_1down",
            "tcp_nup",
            "tcp_ndown",
            "tcp_2up",
            "tcp_4up",
            "tcp_6up",
            "tcp_8up",
            "tcp_12up",
            "tcp_2down",
            "tcp_4down",
            "tcp_6down",
            "tcp_8down",
            "tcp_12down",
            "ping",
            "voip",
            "udp_flood",
            "rtt_fair",
            "rtt_fair4be",
            "rtt_fair_up",
            "rtt_fair6be",
            "rtt_fair_var",
            "rtt_fair_var_up",
            "rtt_fair_var_down"};
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
    // rtt_fair.conf and its fixed variants take exactly 4 hosts (rtt_fair6be 6); with fewer
    // flent invents dummy ones, and none of the file's series would match.
    const bool rttFair = name.rfind("rtt_fair", 0) == 0 && name.rfind("rtt_fair_var", 0) != 0;
    const std::size_t fairHosts = name == "rtt_fair6be" ? 6 : 4;
    Require(!rttFair || options.hosts.size() == fairHosts,
            "flent test \"" + name + "\" needs exactly " + std::to_string(fairHosts) +
                " hosts (HOSTS); got " + std::to_string(options.hosts.size()));
    for (const auto& [key, value] : options.testParameters)
    {
        Require(!key.empty() && key.find_first_of("=;") == std::string::npos,
                "flent test parameter name \"" + key + "\" must be non-empty, without = or ;");
        Require(std::find(UNMODELLED_PARAMETERS.begin(), UNMODELLED_PARAMETERS.end(), key) ==
                    UNMODELLED_PARAMETERS.end(),
                "flent test parameter " + key +
                    " is not modelled (the simulated hosts run ns-3's TCP with the module's "
                    "Linux defaults and one netperf send size); accepted parameters that change "
                    "the flows: upload_streams, download_streams, marking, markings, labels, "
                    "ping_labels, stream_delays (others are stored in TEST_PARAMETERS only)");
    }
    const bool streamed = name == "tcp_nup" || name == "tcp_ndown";
    uint32_t streams = FixedStreams(name) != 0 ? FixedStreams(name) : options.streams;
    const std::string streamKey =
        name.find("up") != std::string::npos ? "upload_streams" : "download_streams";
    const auto given = options.testParameters.find(streamKey);
    if (streamed && given != options.testParameters.end())
    {
        // tcp_nup.conf: get_test_parameter('upload_streams', cast=int).
        const std::string& text = given->second;
        const bool digits = !text.empty() && text.size() <= 5 &&
                            text.find_first_not_of("0123456789") == std::string::npos;
        streams = digits ? static_cast<uint32_t>(std::stoul(text)) : 0;
    }
    Require(!streamed || (streams >= 1 && streams <= FlentTestOptions::MAX_STREAMS),
            "flent test \"" + name + "\" needs streams (" + streamKey + ") from 1 to " +
                std::to_string(FlentTestOptions::MAX_STREAMS) + "; got " +
                (streamed && given != options.testParameters.end() ? "\"" + given->second + "\""
                                                                   : std::to_string(streams)));

    FlentTestSpec spec;
    spec.name = name;
    spec.length = options.length;
    spec.stepSize = options.stepSize;
    spec.delay = options.delay;
    // netperf_definitions.inc: TOTAL_LENGTH = LENGTH + 2 * DELAY; ping.conf and voip.conf:
    // LENGTH.
    spec.totalLength =
        name == "ping" || name == "voip" ? options.length : options.length + 2 * options.delay;
    spec.hosts = options.hosts;
    // flent stores every --test-parameter; the tests' own set_test_parameter() calls win.
    spec.testParameters = options.testParameters;

    if (name == "rrul_50_down" || name == "rrul_50_up" || name == "rrul_100_up")
    {
        AddRrulMany(spec);
        spec.defaultPlot = "all_scaled";
        spec.plots = {"all_scaled", "totals", "ping_cdf"};
    }
    else if (name.rfind("rrul", 0) == 0)
    {
        AddRrul(spec);
        spec.defaultPlot = "all_scaled";
        spec.plots = {"all_scaled", "totals", "ping_cdf"};
    }
    else if (streamed || FixedStreams(name) != 0)
    {
        AddTcpN(spec, streams);
        spec.defaultPlot = "totals";
        spec.plots = {"totals", "ping_cdf"};
    }
    else if (name.rfind("tcp_", 0) == 0)
    {
        AddTcpOne(spec);
        spec.defaultPlot = "totals";
        spec.plots = {"totals", "ping_cdf"};
    }
    else if (name == "ping")
    {
        AddPing(spec);
        spec.defaultPlot = "ping";
        spec.plots = {"ping", "ping_cdf"};
    }
    else if (name == "udp_flood")
    {
        AddUdpFlood(spec);
        spec.defaultPlot = "totals";
        spec.plots = {"totals", "ping", "ping_cdf"};
    }
    else if (name == "voip")
    {
        AddVoip(spec);
        spec.defaultPlot = "voip_delay";
        spec.plots = {"voip_delay", "voip_delay_cdf", "voip_loss"};
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
