/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "run-summary.h"

#include "summary-stats.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

namespace ns3
{
namespace debloat
{

namespace
{

/// Name prefix of a CPU's series (flent's cpu_stats.inc).
const std::string CPU_SERIES = "cpu_stats_";

/**
 * @param series a series
 * @param key one of its keys
 * @param from start of the window (s after T0)
 * @param to end of the window
 * @return the key's values in the window, absent ones left out
 */
std::vector<double>
Values(const Series& series, const std::string& key, double from, double to)
{
    std::vector<double> values;
    const auto column = std::find(series.keys.begin(), series.keys.end(), key);
    if (column == series.keys.end())
    {
        return values;
    }
    const auto index = static_cast<std::size_t>(column - series.keys.begin());
    for (const Sample& sample : series.samples)
    {
        if (sample.t >= from && sample.t <= to && !std::isnan(sample.values[index]))
        {
            values.push_back(sample.values[index]);
        }
    }
    return values;
}

/**
 * @param meta series metadata
 * @param key a key
 * @return the key's number, or NaN
 */
double
MetaNumber(const MetaMap& meta, const std::string& key)
{
    const auto entry = meta.find(key);
    if (entry == meta.end())
    {
        return NO_VALUE;
    }
    if (const auto* number = std::get_if<double>(&entry->second))
    {
        return *number;
    }
    if (const auto* integer = std::get_if<int64_t>(&entry->second))
    {
        return static_cast<double>(*integer);
    }
    return NO_VALUE;
}

/**
 * @param name a series name
 * @param prefix a prefix
 * @return whether the name starts with it
 */
bool
StartsWith(const std::string& name, const std::string& prefix)
{
    return name.compare(0, prefix.size(), prefix) == 0;
}

/**
 * Adds a CPU's utilisation over a window, netperf -c's figure: the busy share of all cores
 * between the readings at the window's ends, in percent, and its split by class (mpstat's
 * %irq, %soft, %usr + %sys) and the busiest core's.
 * The samples each cover the step that ends at them, all of equal length (cores x step
 * of time), so the mean of the steps' fractions inside the window is the busy time over
 * the window's total, as netperf computes it from the two readings. A step is inside when
 * its middle is (the load window starts and ends on the step grid).
 * @param series a CpuStatsRunner series (keys load, irq, soft, task, load_cpu<i>, ...)
 * @param step the step, s
 * @param from start of the window, s after T0
 * @param to end of the window
 * @param add adds a metric (name, value, units)
 */
template <typename Add>
void
AddCpuMetrics(const Series& series, double step, double from, double to, Add add)
{
    auto mean = [&](const std::string& key) {
        return Summarize(Values(series, key, from + step / 2, to + step / 2)).mean;
    };
    if (Values(series, "load", from + step / 2, to + step / 2).empty())
    {
        return;
    }
    add("cpu_util", 100 * mean("load"), "%");
    add("cpu_irq", 100 * mean("irq"), "%");
    add("cpu_soft", 100 * mean("soft"), "%");
    add("cpu_task", 100 * mean("task"), "%");
    double busiest = NO_VALUE;
    for (const std::string& key : series.keys)
    {
        if (StartsWith(key, "load_cpu"))
        {
            const double util = 100 * mean(key);
            busiest = std::isnan(busiest) ? util : std::max(busiest, util);
        }
    }
    if (!std::isnan(busiest))
    {
        add("cpu_core_max", busiest, "%");
    }
}

} // namespace

std::vector<Metric>
RunSummary::ComputeMetrics(const RunRecord& run)
{
    std::vector<Metric> metrics;
    const bool loaded = std::any_of(run.series.begin(), run.series.end(), [](const Series& s) {
        return s.runner == "NetperfDemoRunner" || s.runner == "IperfCsvRunner";
    });
    const double from = loaded ? run.delay : 0;
    const double to = loaded ? run.delay + run.length : run.totalLength;
    std::vector<double> uploads;
    std::vector<double> downloads;
    for (const Series& series : run.series)
    {
        auto add = [&](const std::string& name, double value, const std::string& units) {
            metrics.push_back({series.name, name, value, units});
        };
        if (series.runner == "NetperfDemoRunner")
        {
            const double goodput = MetaNumber(series.meta, "MEAN_VALUE");
            add("goodput", goodput, "Mbit/s");
            (StartsWith(series.name, "TCP upload") ? uploads : downloads).push_back(goodput);
        }
        else if (series.runner == "IperfCsvRunner")
        {
            // iperf's UDP flood: what the server received, not part of the TCP totals.
            add("goodput", MetaNumber(series.meta, "MEAN_VALUE"), "Mbit/s");
        }
        else if (series.runner == "NetperfRrRunner")
        {
            add("transactions", MetaNumber(series.meta, "MEAN_VALUE"), "transactions/s");
        }
        else if (series.runner == "PingRunner" || series.runner == "IrttRunner")
        {
            const SummaryStats rtt = Summarize(Values(series, "val", from, to));
            add("rtt_mean", rtt.mean, "ms");
            add("rtt_min", rtt.min, "ms");
            add("rtt_p50", rtt.p50, "ms");
            add("rtt_p90", rtt.p90, "ms");
            add("rtt_p99", rtt.p99, "ms");
            add("rtt_max", rtt.max, "ms");
            add("rtt_samples", static_cast<double>(rtt.count), "samples");
            if (series.runner == "IrttRunner")
            {
                const double lost = static_cast<double>(Values(series, "lost", from, to).size());
                const double total = lost + static_cast<double>(rtt.count);
                add("lost", lost, "probes");
                add("loss_rate", total > 0 ? lost / total : NO_VALUE, "");
            }
        }
        else if (series.runner == "CpuStatsRunner")
        {
            AddCpuMetrics(series, run.stepSize, from, to, add);
        }
        else if (series.runner == "TcRunner")
        {
            const std::vector<std::pair<std::string, std::string>> levels = {
                {"backlog_bytes", "bytes"},
                {"delay", "ms"},
                {"bql_limit", "bytes"},
                {"bql_inflight", "bytes"},
                {"ring_used", "descriptors"},
                {"ring_bytes", "bytes"}};
            for (const auto& [key, units] : levels)
            {
                const SummaryStats stats = Summarize(Values(series, key, from, to));
                if (stats.count > 0)
                {
                    add(key + "_p50", stats.p50, units);
                    add(key + "_p99", stats.p99, units);
                    add(key + "_max", stats.max, units);
                }
            }
            for (const char* key : {"dropped", "ecn_mark", "nic_dropped"})
            {
                const std::vector<double> counts = Values(series, key, 0, run.totalLength);
                if (!counts.empty())
                {
                    double sum = 0;
                    for (double count : counts)
                    {
                        sum += count;
                    }
                    add(key, sum, "packets");
                }
            }
        }
    }
    auto total = [&](const std::string& name, const std::vector<double>& values) {
        double sum = 0;
        for (double value : values)
        {
            sum += value;
        }
        metrics.push_back({"total", name, sum, "Mbit/s"});
    };
    if (!uploads.empty())
    {
        total("upload_goodput", uploads);
    }
    if (!downloads.empty())
    {
        total("download_goodput", downloads);
    }
    if (!uploads.empty() || !downloads.empty())
    {
        std::vector<double> all = uploads;
        all.insert(all.end(), downloads.begin(), downloads.end());
        total("total_goodput", all);
    }
    if (uploads.size() > 1)
    {
        metrics.push_back({"total", "upload_fairness", JainFairness(uploads), ""});
    }
    if (downloads.size() > 1)
    {
        metrics.push_back({"total", "download_fairness", JainFairness(downloads), ""});
    }
    return metrics;
}

void
RunSummary::Print(const RunRecord& run, std::ostream& os)
{
    // Scopes in their order of first appearance, each with its metrics in their order.
    std::vector<std::string> scopes;
    std::map<std::string, std::vector<const Metric*>> byScope;
    for (const Metric& metric : run.metrics)
    {
        if (byScope.find(metric.scope) == byScope.end())
        {
            scopes.push_back(metric.scope);
        }
        byScope[metric.scope].push_back(&metric);
    }
    os << "Summary of " << run.test << " (" << run.title << "), LENGTH " << run.length
       << " s, seed " << run.seed << " run " << run.run << "\n";
    // Consecutive scopes with the same metric names and units share a table.
    auto signature = [&byScope](const std::string& scope) {
        std::string text;
        for (const Metric* metric : byScope[scope])
        {
            text += metric->name + "\t" + metric->units + "\n";
        }
        return text;
    };
    for (std::size_t first = 0; first < scopes.size();)
    {
        std::size_t last = first + 1;
        while (last < scopes.size() && signature(scopes[last]) == signature(scopes[first]))
        {
            ++last;
        }
        const std::vector<const Metric*>& columns = byScope[scopes[first]];
        // cells[r][c]: the header row, the units row, then a row per scope.
        std::vector<std::vector<std::string>> cells(2);
        cells[0].emplace_back("");
        cells[1].emplace_back("");
        for (const Metric* metric : columns)
        {
            cells[0].push_back(metric->name);
            cells[1].push_back(metric->units);
        }
        for (std::size_t i = first; i < last; ++i)
        {
            cells.emplace_back(1, scopes[i]);
            for (const Metric* metric : byScope[scopes[i]])
            {
                std::ostringstream value;
                value << std::setprecision(4) << metric->value;
                cells.back().push_back(value.str());
            }
        }
        if (columns.size() > 8)
        {
            // Turned around: a row per metric (name, units, a value per scope).
            std::vector<std::vector<std::string>> turned(columns.size() + 1);
            turned[0] = {"", ""};
            for (std::size_t r = 2; r < cells.size(); ++r)
            {
                turned[0].push_back(cells[r][0]);
            }
            for (std::size_t c = 1; c <= columns.size(); ++c)
            {
                turned[c] = {cells[0][c], cells[1][c]};
                for (std::size_t r = 2; r < cells.size(); ++r)
                {
                    turned[c].push_back(cells[r][c]);
                }
            }
            cells = turned;
        }
        std::vector<std::size_t> widths(cells[0].size(), 0);
        for (const auto& row : cells)
        {
            for (std::size_t c = 0; c < row.size(); ++c)
            {
                widths[c] = std::max(widths[c], row[c].size());
            }
        }
        os << "\n";
        for (const auto& row : cells)
        {
            // The first column (names) left-aligned, the rest right-aligned.
            os << "  " << std::left << std::setw(static_cast<int>(widths[0])) << row[0]
               << std::right;
            for (std::size_t c = 1; c < row.size(); ++c)
            {
                os << "  " << std::setw(static_cast<int>(widths[c])) << row[c];
            }
            os << "\n";
        }
        first = last;
    }
}

RunSummary::Headline
RunSummary::GetHeadline(const RunRecord& run)
{
    Headline headline;
    headline.label = run.title;
    for (const Metric& metric : run.metrics)
    {
        if (metric.scope == "total" && metric.name == "upload_goodput")
        {
            headline.uploadMbps = metric.value;
        }
        else if (metric.scope == "total" && metric.name == "download_goodput")
        {
            headline.downloadMbps = metric.value;
        }
        else if (metric.name == "cpu_util" && StartsWith(metric.scope, CPU_SERIES))
        {
            headline.cpuUtil.emplace_back(metric.scope.substr(CPU_SERIES.size()), metric.value);
        }
    }
    const Series* ping = nullptr;
    for (const Series& series : run.series)
    {
        if (StartsWith(series.name, "Ping (ms) ICMP"))
        {
            ping = &series;
            break;
        }
        if (!ping && series.units == "ms")
        {
            ping = &series;
        }
    }
    if (!ping)
    {
        return headline;
    }
    // The idle window ends a step before the load starts: a sample at DELAY already
    // queues behind it.
    const SummaryStats idle = Summarize(Values(*ping, "val", 0, run.delay - run.stepSize / 2));
    const SummaryStats load = Summarize(Values(*ping, "val", run.delay, run.delay + run.length));
    headline.idleRttMs = idle.p50;
    headline.rttP50Ms = load.p50;
    headline.rttP90Ms = load.p90;
    headline.rttP99Ms = load.p99;
    headline.inducedMs = load.p50 - idle.p50;
    headline.idleSamples = idle.count;
    headline.loadSamples = load.count;
    return headline;
}

std::string
RunSummary::MissingPings(const Headline& headline)
{
    if (headline.idleSamples == 0)
    {
        return headline.label + ": no ping before the load, so no idle RTT; DELAY (--delay) "
                                "must span at least one STEP_SIZE";
    }
    if (headline.loadSamples == 0)
    {
        return headline.label + ": no ping under load; LENGTH (--length) must span at least "
                                "one STEP_SIZE";
    }
    return "";
}

void
RunSummary::PrintComparison(const std::vector<RunRecord>& runs, std::ostream& os)
{
    std::size_t width = 6;
    for (const RunRecord& run : runs)
    {
        width = std::max(width, run.title.size());
    }
    const int w = static_cast<int>(width);
    auto cell = [&os](double value, int precision) {
        std::ostringstream text;
        if (std::isnan(value))
        {
            text << "-";
        }
        else
        {
            text << std::fixed << std::setprecision(precision) << value;
        }
        os << std::setw(10) << text.str();
    };
    os << std::left << std::setw(w) << "config" << std::right << std::setw(10) << "upload"
       << std::setw(10) << "download" << std::setw(10) << "idle RTT" << std::setw(10) << "RTT p50"
       << std::setw(10) << "RTT p90" << std::setw(10) << "RTT p99" << std::setw(10) << "induced"
       << std::setw(8) << "pings";
    // A CPU column per node with a HostCpu in any run (netperf -c's utilisation); none
    // without, so the table is then what it always was.
    std::vector<Headline> headlines;
    std::vector<std::string> cpuNodes;
    for (const RunRecord& run : runs)
    {
        headlines.push_back(GetHeadline(run));
        for (const auto& [node, util] : headlines.back().cpuUtil)
        {
            if (std::find(cpuNodes.begin(), cpuNodes.end(), node) == cpuNodes.end())
            {
                cpuNodes.push_back(node);
            }
        }
    }
    auto cpuWidth = [](const std::string& node) {
        return static_cast<int>(std::max<std::size_t>(10, node.size() + 6));
    };
    for (const std::string& node : cpuNodes)
    {
        os << std::setw(cpuWidth(node)) << "CPU " + node;
    }
    os << "\n";
    os << std::left << std::setw(w) << "" << std::right << std::setw(10) << "Mbit/s"
       << std::setw(10) << "Mbit/s" << std::setw(10) << "ms" << std::setw(10) << "ms"
       << std::setw(10) << "ms" << std::setw(10) << "ms" << std::setw(10) << "ms" << std::setw(8)
       << "n";
    for (const std::string& node : cpuNodes)
    {
        os << std::setw(cpuWidth(node)) << "%";
    }
    os << "\n";
    for (const Headline& h : headlines)
    {
        os << std::left << std::setw(w) << h.label << std::right;
        cell(h.uploadMbps, 1);
        cell(h.downloadMbps, 1);
        cell(h.idleRttMs, 3);
        cell(h.rttP50Ms, 3);
        cell(h.rttP90Ms, 3);
        cell(h.rttP99Ms, 3);
        cell(h.inducedMs, 3);
        os << std::setw(8) << h.loadSamples;
        for (const std::string& node : cpuNodes)
        {
            double util = NO_VALUE;
            for (const auto& entry : h.cpuUtil)
            {
                util = entry.first == node ? entry.second : util;
            }
            std::ostringstream text;
            if (std::isnan(util))
            {
                text << "-";
            }
            else
            {
                text << std::fixed << std::setprecision(1) << util;
            }
            os << std::setw(cpuWidth(node)) << text.str();
        }
        os << "\n";
    }
}

} // namespace debloat
} // namespace ns3
