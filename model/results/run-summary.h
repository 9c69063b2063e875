/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUN_SUMMARY_H
#define RUN_SUMMARY_H

#include "run-record.h"

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief The summary metrics of a run and the table printed at its end.
 *
 * Latency and device metrics cover the load phase, [DELAY, DELAY + LENGTH], the window
 * flent's CDF plots cut to; a test without TCP flows (ping) uses the whole run. Metrics per
 * series (scope = the series name):
 * - TCP (NetperfDemoRunner): `goodput` = MEAN_VALUE (netperf's throughput, Mbit/s);
 * - TCP_RR (NetperfRrRunner, not a flent runner): `transactions` = MEAN_VALUE (per s);
 * - ping and irtt: `rtt_mean`, `rtt_min`, `rtt_p50`, `rtt_p90`, `rtt_p99`, `rtt_max` (ms),
 *   `rtt_samples` (the replies these rest on), and for irtt `lost` (probes) and `loss_rate`
 *   (0..1);
 * - qdisc stats (TcRunner): `<key>_p50`, `<key>_p99`, `<key>_max` of `backlog_bytes`,
 *   `delay`, `bql_limit`, `bql_inflight`, `ring_used`, `ring_bytes`, and the sums `dropped`,
 *   `ecn_mark`, `nic_dropped`;
 * - CPU stats (CpuStatsRunner, `cpu_stats_<node>`, a node with a HostCpu): `cpu_util`, the
 *   busy share of all its cores over the window (netperf -c and -C: from the two /proc/stat
 *   readings at the window's ends), `cpu_irq`, `cpu_soft` and `cpu_task`, the shares of hard
 *   interrupts, softirqs and tasks (mpstat's %irq, %soft, %usr + %sys), and `cpu_core_max`,
 *   the busiest core's busy share (all in %).
 * Scope "total": `upload_goodput`, `download_goodput` and `total_goodput` (sums, Mbit/s),
 * `upload_fairness` and `download_fairness` (Jain's index, with two or more flows).
 */
class RunSummary
{
  public:
    /// A run's headline numbers: what the seeds compare between configurations.
    struct Headline
    {
        std::string label;             ///< the run's title (its configuration)
        double uploadMbps{NO_VALUE};   ///< total upload goodput under load, Mbit/s
        double downloadMbps{NO_VALUE}; ///< total download goodput under load, Mbit/s
        double idleRttMs{NO_VALUE};    ///< ping's median before the load starts, ms
        double rttP50Ms{NO_VALUE};     ///< ping's median under load, ms
        double rttP90Ms{NO_VALUE};     ///< its 90th percentile, ms
        double rttP99Ms{NO_VALUE};     ///< its 99th percentile, ms
        double inducedMs{NO_VALUE};    ///< median under load less the idle median, ms
        std::size_t idleSamples{0};    ///< pings the idle median rests on
        std::size_t loadSamples{0};    ///< pings the percentiles under load rest on
        /// Per node with a HostCpu (cpu_stats series), in series order: its cpu_util, the
        /// busy share of all its cores under load, percent (netperf -c)
        std::vector<std::pair<std::string, double>> cpuUtil;
    };

    /**
     * The headline of a run with its metrics. Ping is flent's "Ping (ms) ICMP" series (or
     * the first series in ms); idle means before DELAY, under load from DELAY to DELAY +
     * LENGTH.
     * @param run the run
     * @return its headline
     */
    static Headline GetHeadline(const RunRecord& run);

    /**
     * What a check comparing the headline's latency would miss: no ping before DELAY (the
     * idle RTT) or none under load.
     * @param headline a run's headline
     * @return "" when both windows have pings, else a message naming the window and the
     * option that widens it
     */
    static std::string MissingPings(const Headline& headline);

    /**
     * Prints runs side by side, one row per run: goodput each way, idle RTT, RTT under
     * load (p50, p90, p99), the latency the load induced and the number of pings under load
     * the percentiles rest on (a p99 of fewer than 100 is the largest value or close to it),
     * then, only when some run has CPU stats, a column "CPU <node>" per node with a HostCpu:
     * its cpu_util under load in percent ("-" for a run without it).
     * @param runs the runs, each titled with its configuration
     * @param os the stream
     */
    static void PrintComparison(const std::vector<RunRecord>& runs, std::ostream& os);

    /**
     * @param run a run with its series
     * @return its metrics, in series order, totals last
     */
    static std::vector<Metric> ComputeMetrics(const RunRecord& run);

    /**
     * Prints the run's metrics as aligned tables (what `flent -f summary` shows, plus the
     * devices): the scopes (series) that have the same metrics form one table after a blank
     * line, a row per scope under a header of metric names and a line of units, numbers
     * right-aligned to 4 significant digits; a table of more than 8 metrics is turned
     * around (a row per metric, a column per scope) so that it stays narrow.
     * @param run a run with its metrics
     * @param os the stream
     */
    static void Print(const RunRecord& run, std::ostream& os);
};

} // namespace debloat
} // namespace ns3

#endif /* RUN_SUMMARY_H */
