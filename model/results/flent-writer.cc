/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Writes the data-file format (version 4) of flent 2.1.1: flent/resultset.py for the file,
 * flent/aggregators.py (TimeseriesAggregator) for the resampling onto the grid.
 */

#include "flent-writer.h"

#include <algorithm>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

namespace ns3
{
namespace debloat
{

namespace
{

/// The name of flent's VoIP series (voip.inc).
const std::string VOIP_SERIES = "VoIP";

/// flent's file format version (FILEFORMAT_VERSION in flent/resultset.py).
constexpr int FORMAT_VERSION = 4;
/// The flent release whose format this writes.
constexpr const char* FLENT_VERSION = "2.1.1";
/// Name prefix of a TcRunner series in flent's qdisc_stats.inc.
const std::string QDISC_PREFIX = "qdisc_stats_";
/// Name prefix of a CpuStatsRunner series in flent's cpu_stats.inc.
const std::string CPU_PREFIX = "cpu_stats_";

/// Throws std::invalid_argument with message unless ok.
void
Require(bool ok, const std::string& message)
{
    if (!ok)
    {
        throw std::invalid_argument(message);
    }
}

/**
 * @param s text
 * @param i index of a byte of s
 * @return the length of the UTF-8 sequence that starts at i (RFC 3629: no overlong forms,
 *         no surrogates, at most U+10FFFF), or 0 when the bytes there are not one
 */
size_t
Utf8SequenceLength(const std::string& s, size_t i)
{
    const auto byte = [&s](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80)
    {
        return 1;
    }
    // The lead byte gives the length and the range of the second byte (RFC 3629 table).
    size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF)
    {
        length = 2;
    }
    else if (lead >= 0xE0 && lead <= 0xEF)
    {
        length = 3;
        low = lead == 0xE0 ? 0xA0 : 0x80;  // no overlong forms
        high = lead == 0xED ? 0x9F : 0xBF; // no surrogates
    }
    else if (lead >= 0xF0 && lead <= 0xF4)
    {
        length = 4;
        low = lead == 0xF0 ? 0x90 : 0x80;  // no overlong forms
        high = lead == 0xF4 ? 0x8F : 0xBF; // at most U+10FFFF
    }
    else
    {
        return 0;
    }
    if (s.size() - i < length || byte(i + 1) < low || byte(i + 1) > high)
    {
        return 0;
    }
    for (size_t k = 2; k < length; ++k)
    {
        if ((byte(i + k) & 0xC0) != 0x80)
        {
            return 0;
        }
    }
    return length;
}

/**
 * Appends s as a JSON string: quoted, with '"', '\\' and control characters escaped. JSON
 * text is UTF-8 (RFC 8259), and flent reads the file as UTF-8: valid sequences pass through,
 * and each byte that does not start one is written as U+FFFD, the replacement character
 * that Python's bytes.decode(errors="replace") puts there too.
 */
void
AppendString(std::string& out, const std::string& s)
{
    out += '"';
    for (size_t i = 0; i < s.size(); ++i)
    {
        const char c = s[i];
        if (static_cast<unsigned char>(c) >= 0x80)
        {
            const size_t length = Utf8SequenceLength(s, i);
            if (length == 0)
            {
                out += "\\ufffd";
                continue;
            }
            out.append(s, i, length);
            i += length - 1;
            continue;
        }
        switch (c)
        {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
            {
                char escaped[8];
                std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
                out += escaped;
            }
            else
            {
                out += c;
            }
        }
    }
    out += '"';
}

/// Appends x in its shortest round-trip form ("5" for 5.0), or null when not finite.
void
AppendNumber(std::string& out, double x)
{
    if (!std::isfinite(x))
    {
        out += "null";
        return;
    }
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof(buffer), x);
    out.append(buffer, result.ptr);
}

/// Appends a metadata value: an integer, a number (null when not finite) or a string.
void
AppendMeta(std::string& out, const MetaValue& value)
{
    if (const auto* i = std::get_if<int64_t>(&value))
    {
        out += std::to_string(*i);
    }
    else if (const auto* d = std::get_if<double>(&value))
    {
        AppendNumber(out, *d);
    }
    else
    {
        AppendString(out, std::get<std::string>(value));
    }
}

/// JSON members by key, each value already serialised; written in key order, as flent does.
using Members = std::map<std::string, std::string>;

/// Appends {"key": value, ...}.
void
AppendObject(std::string& out, const Members& members)
{
    out += '{';
    for (auto it = members.begin(); it != members.end(); ++it)
    {
        out += it == members.begin() ? "" : ",";
        AppendString(out, it->first);
        out += ':';
        out += it->second;
    }
    out += '}';
}

/// @return value serialised with append
template <typename T, typename F>
std::string
Serialise(const T& value, F append)
{
    std::string out;
    append(out, value);
    return out;
}

/// @return the host of a series name after its prefix, or "" when the name lacks the prefix
std::string
HostAfter(const std::string& prefix, const std::string& series)
{
    return series.rfind(prefix, 0) == 0 ? series.substr(prefix.size()) : "";
}

/// @return the items of a flent list test parameter (split on ',' and ';'), or none
std::vector<std::string>
SplitParameter(const std::map<std::string, std::string>& parameters, const std::string& key)
{
    std::vector<std::string> items;
    const auto it = parameters.find(key);
    if (it == parameters.end())
    {
        return items;
    }
    std::string item;
    for (const char c : it->second + ",")
    {
        if (c == ',' || c == ';')
        {
            if (!item.empty())
            {
                items.push_back(item);
            }
            item.clear();
        }
        else
        {
            item += c;
        }
    }
    return items;
}

/// @return the hosts whose qdisc stats flent's qdisc_stats.inc declares (hosts zipped with
/// interfaces, so a host without an interface is not declared)
std::set<std::string>
DeclaredQdiscHosts(const std::map<std::string, std::string>& parameters)
{
    const auto hosts = SplitParameter(parameters, "qdisc_stats_hosts");
    const auto interfaces = SplitParameter(parameters, "qdisc_stats_interfaces");
    return {hosts.begin(), hosts.begin() + std::min(hosts.size(), interfaces.size())};
}

/// Checks that a series can be written; throws std::invalid_argument naming it otherwise.
void
CheckSeries(const Series& series)
{
    Require(!series.name.empty(), "RunRecord series name is empty");
    const std::string where = "series \"" + series.name + "\": ";
    const std::set<std::string> keys(series.keys.begin(), series.keys.end());
    Require(keys.size() == series.keys.size() && keys.count("t") == 0,
            where + "keys must be unique and must not include \"t\"");
    double last = -INFINITY;
    for (const auto& sample : series.samples)
    {
        Require(sample.values.size() == series.keys.size(),
                where + "a sample has " + std::to_string(sample.values.size()) + " values for " +
                    std::to_string(series.keys.size()) + " keys");
        Require(std::isfinite(sample.t) && sample.t >= last,
                where + "sample times must be finite and increasing (flent bisects on t)");
        last = sample.t;
    }
}

/// @return the (t, value) points of one key of a series, where the sample has that key
std::vector<std::pair<double, double>>
Points(const Series& series, std::size_t key)
{
    std::vector<std::pair<double, double>> points;
    for (const auto& sample : series.samples)
    {
        if (!std::isnan(sample.values[key]))
        {
            points.emplace_back(sample.t, sample.values[key]);
        }
    }
    return points;
}

/// @return the numbers as a JSON array, null for NO_VALUE
std::string
NumberArray(const std::vector<double>& numbers)
{
    std::string out = "[";
    for (std::size_t k = 0; k < numbers.size(); ++k)
    {
        out += k == 0 ? "" : ",";
        AppendNumber(out, numbers[k]);
    }
    return out + "]";
}

/// @return the raw samples of a series as a JSON array of objects with absolute times
std::string
RawJson(const Series& series, double epoch)
{
    std::string out = "[";
    for (std::size_t s = 0; s < series.samples.size(); ++s)
    {
        const auto& sample = series.samples[s];
        out += s == 0 ? "{\"t\":" : ",{\"t\":";
        AppendNumber(out, epoch + sample.t);
        for (std::size_t k = 0; k < series.keys.size(); ++k)
        {
            const double value = sample.values[k];
            if (std::isnan(value) || (series.keys[k] == "lost" && value == 0))
            {
                continue; // flent writes no key for an absent value, no "lost" when received
            }
            out += ',';
            AppendString(out, series.keys[k]);
            out += ':';
            if (series.keys[k] == "lost")
            {
                // irtt's lost probe; flent's lost_dir is "up"/"down" when irtt knows it, else null
                out += "true,\"lost_dir\":null";
            }
            else
            {
                AppendNumber(out, value);
            }
            if ((series.runner == "TcRunner" && series.keys[k] == "delay") ||
                (series.runner == "CpuStatsRunner" && series.keys[k] == "load"))
            {
                out += ",\"val\":"; // the queue delay or the load doubles as the series' value
                AppendNumber(out, value);
            }
        }
        out += '}';
    }
    return out + "]";
}

/// @return the SERIES_META entry of a series: its meta plus RUNNER, UNITS and IDX
std::string
SeriesMetaJson(const Series& series, std::size_t index)
{
    MetaMap meta = series.meta;
    if (!series.runner.empty())
    {
        meta.emplace("RUNNER", series.runner);
    }
    if (!series.units.empty())
    {
        meta.emplace("UNITS", series.units);
    }
    meta.emplace("IDX", static_cast<int64_t>(index));
    Members members;
    for (const auto& [key, value] : meta)
    {
        members[key] = Serialise(value, AppendMeta);
    }
    return Serialise(members, AppendObject);
}

/// @return the index of key in the series' keys, or the number of keys when it has none
std::size_t
KeyIndex(const Series& series, const std::string& key)
{
    return static_cast<std::size_t>(std::find(series.keys.begin(), series.keys.end(), key) -
                                    series.keys.begin());
}

/**
 * The results of flent's VoIP runner: IrttRunner with multi_results and sample_freq
 * STEP_SIZE (runners.py IrttRunner.parse()). The first reply at or after each sample time
 * gives a point of "::rtt" (val), "::delay" (owd_up), "::jitter" (|ipdv_up|, 0 without one)
 * and "::loss" (the probes lost since the previous point); the next sample time is a
 * STEP_SIZE after that reply.
 * @param series the VoIP series (irtt's keys)
 * @param step STEP_SIZE, s
 * @return the four results' points, by suffix
 */
std::map<std::string, std::vector<std::pair<double, double>>>
VoipPoints(const Series& series, double step)
{
    const std::size_t val = KeyIndex(series, "val");
    const std::size_t up = KeyIndex(series, "owd_up");
    const std::size_t ipdvUp = KeyIndex(series, "ipdv_up");
    const std::size_t lostKey = KeyIndex(series, "lost");
    std::map<std::string, std::vector<std::pair<double, double>>> points;
    double next = -std::numeric_limits<double>::infinity();
    double lost = 0;
    for (const Sample& sample : series.samples)
    {
        auto value = [&sample](std::size_t k) {
            return k < sample.values.size() ? sample.values[k] : NO_VALUE;
        };
        if (value(lostKey) == 1)
        {
            lost += 1;
            continue;
        }
        if (sample.t >= next && !std::isnan(value(val)))
        {
            const double jitter = value(ipdvUp);
            points["::rtt"].emplace_back(sample.t, value(val));
            points["::delay"].emplace_back(sample.t, value(up));
            points["::jitter"].emplace_back(sample.t, std::isnan(jitter) ? 0 : std::fabs(jitter));
            points["::loss"].emplace_back(sample.t, lost);
            lost = 0;
            next = sample.t + step;
        }
    }
    return points;
}

} // namespace

std::vector<double>
FlentWriter::Resample(const std::vector<std::pair<double, double>>& points,
                      double step,
                      std::size_t count)
{
    std::vector<double> grid;
    if (points.empty())
    {
        return std::vector<double>(count, NO_VALUE);
    }
    grid.reserve(count);
    for (std::size_t k = 0; k < count; ++k)
    {
        const double x = static_cast<double>(k) * step;
        const auto next =
            std::upper_bound(points.begin(), points.end(), x, [](double t, const auto& p) {
                return t < p.first;
            });
        double value = NO_VALUE;
        if (next == points.end())
        {
            // At or after the last point: its value, once (flent's "avoid repeating last").
            const auto& last = points.back();
            const bool repeat =
                grid.empty() || std::isnan(grid.back()) || grid.back() == last.second;
            if (x - last.first <= 5 * step && !repeat)
            {
                value = last.second;
            }
        }
        else if (next == points.begin())
        {
            // Before the first point: its value when within half a step.
            if (next->first - x <= 0.5 * step)
            {
                value = next->second;
            }
        }
        else if (next->first - x <= 5 * step)
        {
            const auto& prev = *(next - 1);
            const double slope = (next->second - prev.second) / (next->first - prev.first);
            value = prev.second + slope * (x - prev.first);
        }
        grid.push_back(value);
    }
    return grid;
}

std::string
FlentWriter::FormatTime(double epoch)
{
    // Python's datetime.utcfromtimestamp(): round to the microsecond, half to even.
    double seconds = std::floor(epoch);
    double micros = std::nearbyint((epoch - seconds) * 1e6);
    if (micros >= 1e6)
    {
        seconds += 1;
        micros -= 1e6;
    }
    const auto whole = static_cast<std::time_t>(seconds);
    std::tm utc{};
    gmtime_r(&whole, &utc);
    char text[40];
    const std::size_t length = std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%S", &utc);
    std::snprintf(text + length, sizeof(text) - length, ".%06dZ", static_cast<int>(micros));
    return text;
}

std::string
FlentWriter::ToJson(const RunRecord& run, const std::string& dataFilename)
{
    Require(!run.test.empty(), "RunRecord test (flent NAME) is empty");
    Require(!run.hosts.empty() && !run.hosts.front().empty(),
            "RunRecord hosts (flent HOSTS) must name at least one host");
    Require(std::isfinite(run.length) && run.length >= 1 && run.length == std::floor(run.length),
            "RunRecord length (flent LENGTH, an integer) must be a whole number >= 1");
    Require(std::isfinite(run.stepSize) && run.stepSize > 0,
            "RunRecord stepSize (flent STEP_SIZE) must be > 0");
    Require(std::isfinite(run.totalLength) && run.totalLength >= run.stepSize,
            "RunRecord totalLength (flent TOTAL_LENGTH) must be at least one step");
    Require(std::isfinite(run.delay) && std::isfinite(run.epoch),
            "RunRecord delay and epoch must be finite");
    Require(!run.series.empty(),
            "RunRecord has no series: flent draws nothing from a file without raw values");

    const auto count = static_cast<std::size_t>(std::llround(run.totalLength / run.stepSize));
    const auto declaredQdiscHosts = DeclaredQdiscHosts(run.testParameters);
    const auto cpuHosts = SplitParameter(run.testParameters, "cpu_stats_hosts");
    const std::set<std::string> declaredCpuHosts(cpuHosts.begin(), cpuHosts.end());
    Members results;
    Members raw;
    Members seriesMeta;
    for (std::size_t i = 0; i < run.series.size(); ++i)
    {
        const Series& series = run.series[i];
        CheckSeries(series);
        Require(raw.count(series.name) == 0,
                "series \"" + series.name + "\" appears twice in the RunRecord");
        raw[series.name] = RawJson(series, run.epoch);
        seriesMeta[series.name] = SeriesMetaJson(series, i);
        if (series.runner == "TcRunner")
        {
            if (declaredQdiscHosts.count(HostAfter(QDISC_PREFIX, series.name)) != 0)
            {
                // flent's TcRunner has a result only for a key some sample carries.
                for (std::size_t k = 0; k < series.keys.size(); ++k)
                {
                    const auto points = Points(series, k);
                    if (!points.empty())
                    {
                        results[series.name + "::" + series.keys[k]] =
                            NumberArray(Resample(points, run.stepSize, count));
                    }
                    // Deviation from flent, which stores only the "::key" results: the series
                    // itself also gets one, the queue delay in ms (qdisc-stats.conf's unit),
                    // so that readers expecting every declared series in results find it.
                    if (series.keys[k] == "delay")
                    {
                        results[series.name] = NumberArray(Resample(points, run.stepSize, count));
                    }
                }
            }
            continue;
        }
        if (series.runner == "IrttRunner" && series.name == VOIP_SERIES)
        {
            // voip.inc: "VoIP" (runner voip, an IrttRunner with multi_results) has results
            // only under "VoIP::rtt", "::delay", "::jitter" and "::loss", and NullRunner
            // series "VoIP::bitrate", "::delay", "::jitter", "::loss" with no raw values.
            for (const auto& [suffix, points] : VoipPoints(series, run.stepSize))
            {
                results[series.name + suffix] = NumberArray(Resample(points, run.stepSize, count));
            }
            for (const char* suffix : {"::bitrate", "::delay", "::jitter", "::loss"})
            {
                Series null;
                null.name = series.name + suffix;
                null.runner = "NullRunner";
                raw[null.name] = "[]";
                seriesMeta[null.name] = SeriesMetaJson(null, run.series.size() + raw.size());
            }
            continue;
        }
        if (series.runner == "CpuStatsRunner")
        {
            // flent's CpuStatsRunner parses one number, the load, so its only result is
            // "::load"; the other keys stay in the raw samples.
            const auto load = std::find(series.keys.begin(), series.keys.end(), "load");
            if (declaredCpuHosts.count(HostAfter(CPU_PREFIX, series.name)) != 0 &&
                load != series.keys.end())
            {
                const auto points =
                    Points(series, static_cast<std::size_t>(load - series.keys.begin()));
                if (!points.empty())
                {
                    // Deviation from flent, as for the qdisc stats' delay: the series itself
                    // also gets the load, for readers expecting every declared series there.
                    const std::string grid = NumberArray(Resample(points, run.stepSize, count));
                    results[series.name + "::load"] = grid;
                    results[series.name] = grid;
                }
            }
            continue;
        }
        const auto val = std::find(series.keys.begin(), series.keys.end(), "val");
        const auto points =
            val == series.keys.end()
                ? std::vector<std::pair<double, double>>{}
                : Points(series, static_cast<std::size_t>(val - series.keys.begin()));
        results[series.name] = NumberArray(Resample(points, run.stepSize, count));
    }

    std::string hostsJson = "[";
    for (std::size_t i = 0; i < run.hosts.size(); ++i)
    {
        hostsJson += i == 0 ? "" : ",";
        AppendString(hostsJson, run.hosts[i]);
    }
    hostsJson += "]";
    Members testParameters;
    for (const auto& [key, value] : run.testParameters)
    {
        testParameters[key] = Serialise(value, AppendString);
    }
    Members config;
    for (const auto& [key, value] : run.config)
    {
        config[key] = Serialise(value, AppendMeta);
    }
    const std::string time = Serialise(FormatTime(run.epoch), AppendString);

    Members metadata;
    metadata["DATA_FILENAME"] =
        dataFilename.empty() ? "null" : Serialise(dataFilename, AppendString);
    metadata["DEBLOAT_VERSION"] = Serialise(run.moduleVersion, AppendString);
    metadata["DELAY"] = Serialise(run.delay, AppendNumber);
    metadata["FAILED_RUNNERS"] = "0";
    metadata["FLENT_VERSION"] = Serialise(std::string(FLENT_VERSION), AppendString);
    metadata["HOST"] = Serialise(run.hosts.front(), AppendString);
    metadata["HOSTS"] = hostsJson;
    metadata["IP_VERSION"] = "4";
    metadata["LENGTH"] = std::to_string(std::llround(run.length));
    metadata["LOCAL_HOST"] = Serialise(run.localHost, AppendString);
    metadata["NAME"] = Serialise(run.test, AppendString);
    metadata["NOTE"] = run.note.empty() ? "null" : Serialise(run.note, AppendString);
    metadata["NS3_CONFIG"] = Serialise(config, AppendObject);
    metadata["NS3_RUN"] = std::to_string(run.run);
    metadata["NS3_SEED"] = std::to_string(run.seed);
    metadata["NS3_VERSION"] = Serialise(run.ns3Version, AppendString);
    metadata["SERIES_META"] = Serialise(seriesMeta, AppendObject);
    metadata["STEP_SIZE"] = Serialise(run.stepSize, AppendNumber);
    metadata["T0"] = time; // T0: x = 0, the first sample; TIME: the start (the same here)
    metadata["TEST_PARAMETERS"] = Serialise(testParameters, AppendObject);
    metadata["TIME"] = time;
    metadata["TITLE"] = Serialise(run.title, AppendString);
    metadata["TOTAL_LENGTH"] = Serialise(run.totalLength, AppendNumber);

    std::vector<double> xValues(count);
    for (std::size_t k = 0; k < count; ++k)
    {
        xValues[k] = static_cast<double>(k) * run.stepSize; // as flent: step * s, not a sum
    }

    for (const auto& [key, json] : run.extraMetadata)
    {
        Require(!key.empty() && !json.empty() && metadata.count(key) == 0,
                "RunRecord extraMetadata key \"" + key +
                    "\" must be non-empty, hold JSON text and not replace a key the writer "
                    "sets (NAME, TIME, NOTE, ...)");
        metadata[key] = json;
    }

    Members document;
    document["version"] = std::to_string(FORMAT_VERSION);
    document["metadata"] = Serialise(metadata, AppendObject);
    document["x_values"] = NumberArray(xValues);
    document["results"] = Serialise(results, AppendObject);
    document["raw_values"] = Serialise(raw, AppendObject);
    return Serialise(document, AppendObject) + "\n";
}

namespace
{

/// @return TIME as flent puts it in file names: FormatTime() without ':' and 'Z'
std::string
FileTime(double epoch)
{
    std::string time = FlentWriter::FormatTime(epoch);
    time.pop_back(); // the Z
    time.erase(std::remove(time.begin(), time.end(), ':'), time.end());
    return time;
}

/// @return text with every character but A-Z, a-z, 0-9 and '-' made '_', at most max long
std::string
FileTitle(const std::string& text, std::size_t max)
{
    std::string clean = text.substr(0, max);
    for (char& c : clean)
    {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-')
        {
            c = '_';
        }
    }
    return clean;
}

/// flent's MAX_FILENAME_LEN
constexpr std::size_t MAX_FILENAME = 250;
/// flent's SUFFIX
const std::string SUFFIX = ".flent.gz";

} // namespace

std::string
FlentWriter::DataFilename(const std::string& test, double epoch, const std::string& title)
{
    const std::string stem = test + "-" + FileTime(epoch);
    if (title.empty())
    {
        return stem + SUFFIX;
    }
    // The title gets what NAME-TIME..flent.gz leaves of MAX_FILENAME_LEN.
    const std::size_t used = stem.size() + 1 + SUFFIX.size();
    return stem + "." + FileTitle(title, used < MAX_FILENAME ? MAX_FILENAME - used : 0) + SUFFIX;
}

std::string
FlentWriter::BatchFilename(const std::string& test,
                           double epoch,
                           uint32_t repetition,
                           const std::string& title)
{
    char rep[16];
    std::snprintf(rep, sizeof(rep), "%02u", repetition);
    const std::string stem = "batch-" + test + "-" + FileTime(epoch) + "-" + rep + "-";
    const std::size_t used = stem.size() + SUFFIX.size();
    return stem +
           FileTitle(title.empty() ? test : title, used < MAX_FILENAME ? MAX_FILENAME - used : 0) +
           SUFFIX;
}

std::string
FlentWriter::Quote(const std::string& text)
{
    std::string out;
    AppendString(out, text);
    return out;
}

void
FlentWriter::Write(const RunRecord& run, const std::string& path)
{
    const std::string filename = path.substr(path.find_last_of('/') + 1);
    const std::string json = ToJson(run, filename);
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file)
    {
        throw std::runtime_error("cannot open flent data file " + path + " for writing");
    }
    const std::string suffix = ".gz";
    if (path.size() >= suffix.size() &&
        path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0)
    {
        boost::iostreams::filtering_ostream out;
        out.push(boost::iostreams::gzip_compressor());
        out.push(file);
        out << json;
        out.reset(); // flushes the compressor and writes the gzip trailer
    }
    else
    {
        file << json;
    }
    file.close();
    if (!file)
    {
        throw std::runtime_error("cannot write flent data file " + path);
    }
}

} // namespace debloat
} // namespace ns3
