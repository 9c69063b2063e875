/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUN_RECORD_H
#define RUN_RECORD_H

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief A value of series or run metadata: an integer, a number or a text.
 *
 * Kept typed so that the flent file writes `"IDX": 1` and `"MEAN_VALUE": 93.4` the way
 * flent does, and the results database gives back exactly what was stored.
 */
using MetaValue = std::variant<int64_t, double, std::string>;

/// Ordered metadata (ordered so that files and database rows come out in a fixed order).
using MetaMap = std::map<std::string, MetaValue>;

/// The module's version, recorded with every run.
inline constexpr char DEBLOAT_VERSION[] = "0.1.0-dev";

/// Marks a field of a sample as absent (flent: the key is not written).
inline constexpr double NO_VALUE = std::numeric_limits<double>::quiet_NaN();

/**
 * @ingroup debloat-measurement
 * @brief One raw sample of a series: flent's raw_values entry.
 *
 * `values[i]` belongs to the series' `keys[i]`; NO_VALUE (NaN) means the sample has no such
 * key. A flent file never holds NaN: the writer leaves such keys out.
 */
struct Sample
{
    double t{0};                ///< seconds since the test's T0 (flent's x axis)
    std::vector<double> values; ///< one value per key of the series
};

/**
 * @ingroup debloat-measurement
 * @brief One measured series of a run, as flent names and describes it.
 *
 * Keys by runner, in flent's raw-sample vocabulary (reference/flent.md section 4):
 * - NetperfDemoRunner (`TCP upload ...`): `val` (Mbit/s of the interval), `dur` (s);
 * - PingRunner (`Ping (ms) ICMP ...`): `val` (RTT in ms), `seq`;
 * - IrttRunner (`Ping (ms) UDP ...`): `val`, `seq`, `owd_up`, `owd_down`, `ipdv_up`,
 *   `ipdv_down`, `ipdv` (all ms) and `lost` (1 for a lost probe, whose `t` is its send time);
 * - TcRunner (`qdisc_stats_<host>`): `backlog_bytes`, `backlog_pkts`, `dropped` and
 *   `ecn_mark` (per interval), `delay` (ms), plus the NIC's `bql_limit`, `bql_inflight`,
 *   `ring_used`, `nic_dropped`;
 * - CpuStatsRunner (`cpu_stats_<node>`, a node with a HostCpu): `load` (the busy share of
 *   all cores over the step ending at the sample, 0..1, as flent's cpu_stats), `irq`,
 *   `soft`, `task` (each class's share), and `load_cpu<i>`, `irq_cpu<i>`, `soft_cpu<i>`,
 *   `task_cpu<i>` per core.
 */
struct Series
{
    std::string name;              ///< flent's series name, e.g. "TCP upload BE"
    std::string runner;            ///< flent's RUNNER class name, e.g. "NetperfDemoRunner"
    std::string units;             ///< flent's UNITS, e.g. "Mbits/s" or "ms"
    std::vector<std::string> keys; ///< the keys of every sample, "val" first when present
    std::vector<Sample> samples;   ///< raw samples in increasing t
    MetaMap meta;                  ///< SERIES_META entries (MEAN_VALUE, IDX, ...)
};

/**
 * @ingroup debloat-measurement
 * @brief One summary number of a run: a flow's goodput, a latency percentile, a drop count.
 */
struct Metric
{
    std::string scope; ///< the series it summarises, or "total"
    std::string name;  ///< e.g. "goodput_mean", "rtt_p99", "drops"
    double value{0};   ///< the number
    std::string units; ///< e.g. "Mbit/s", "ms", "packets"
};

/**
 * @ingroup debloat-measurement
 * @brief Everything one measurement run produced: what the flent file and the results
 * database hold.
 *
 * Times in samples are relative to T0, the start of the test in simulation time; `epoch`
 * places T0 on the UNIX time line for the flent file (flent plots t - T0, so any epoch
 * plots the same).
 */
struct RunRecord
{
    std::string test;                                  ///< flent test name, e.g. "rrul_be"
    std::string title;                                 ///< flent TITLE (may be empty)
    std::string note;                                  ///< flent NOTE (-n; empty: null)
    std::string localHost;                             ///< flent LOCAL_HOST, the client's name
    std::vector<std::string> hosts;                    ///< flent HOSTS (servers)
    double length{60};                                 ///< LENGTH, the load phase in seconds
    double totalLength{70};                            ///< TOTAL_LENGTH in seconds
    double stepSize{0.2};                              ///< STEP_SIZE in seconds
    double delay{5};                                   ///< DELAY in seconds (not stored by flent)
    double epoch{0};                                   ///< UNIX seconds of T0
    std::map<std::string, std::string> testParameters; ///< TEST_PARAMETERS
    uint32_t seed{1};                                  ///< ns-3 RngSeed
    uint64_t run{1};                                   ///< ns-3 RngRun
    std::string ns3Version;                            ///< e.g. "3.37"
    std::string moduleVersion;                         ///< debloat's version
    MetaMap config;                                    ///< the full configuration, key by key
    std::vector<Series> series;                        ///< measured series
    std::vector<Metric> metrics;                       ///< summary metrics
    /// Further flent metadata keys, each with its value as JSON text: BATCH_NAME, BATCH_TIME,
    /// BATCH_TITLE, BATCH_UUID of a repetition, EGRESS_INFO and SYSCTLS (flent -x). The
    /// flent file only; the results database keeps the configuration in `config`.
    std::map<std::string, std::string> extraMetadata;
};

} // namespace debloat
} // namespace ns3

#endif /* RUN_RECORD_H */
