/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RESULTS_DATABASE_H
#define RESULTS_DATABASE_H

#include "run-record.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct sqlite3;

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief A SQLite file that stores many RunRecords and gives each back exactly.
 *
 * The file is an ordinary SQLite 3 database; open it with the `sqlite3` shell to query it.
 * Schema (version 1, kept in `PRAGMA user_version`):
 *
 * | table            | columns (primary key first)                                  |
 * |------------------|--------------------------------------------------------------|
 * | `runs`           | `id`, test, title, local_host, length, total_length,         |
 * |                  | step_size, delay, epoch, seed, run, ns3_version,             |
 * |                  | module_version, created                                      |
 * | `run_hosts`      | `run_id, position`, host                                     |
 * | `run_parameters` | `run_id, key`, value (text)                                  |
 * | `run_config`     | `run_id, key`, value (typed, see below)                      |
 * | `series`         | `id`, run_id, position, name, runner, units                  |
 * | `series_keys`    | `series_id, position`, key                                   |
 * | `series_meta`    | `series_id, key`, value (typed)                              |
 * | `samples`        | `series_id, position`, t                                     |
 * | `sample_values`  | `series_id, sample_position, key_position`, value            |
 * | `metrics`        | `run_id, position`, scope, name, value, units                |
 *
 * - `position` columns keep the order of RunRecord's vectors, counted from 0: hosts,
 *   series in a run, keys in a series, samples in a series, metrics in a run.
 *   `sample_values.key_position` is the index of the key in `series_keys`.
 * - Doubles are stored as IEEE doubles in columns without a declared type, so that they
 *   come back bit for bit (a REAL column would turn -0.0 into 0). NaN (any NaN) is stored
 *   as NULL and read back as NO_VALUE; a sample's absent keys (NaN values) have no
 *   `sample_values` row.
 * - Typed values (`run_config`, `series_meta`) keep MetaValue's alternative in their SQLite
 *   storage class: `typeof(value)` is 'integer' (int64_t), 'real' (double), 'text'
 *   (std::string) or 'null' (a NaN double).
 * - `runs.run` holds RngRun's uint64_t as the int64_t of the same bits; `runs.created` is
 *   the UTC wall-clock time of writing, e.g. '2026-01-31T12:00:00.123Z' (not in RunRecord).
 * - Views: `metrics_view` (run_id, test, title, seed, run, created, scope, name, value,
 *   units), `samples_view` (run_id, series_position, series, units, sample_position, t,
 *   key, value) and `run_summary` (below). Indexes: runs(test), series(name),
 *   metrics(name, scope).
 * - Foreign keys cascade on delete: with `PRAGMA foreign_keys = ON`,
 *   `DELETE FROM runs WHERE id = 3` removes everything of run 3.
 *
 * `run_summary` has one row per run, any test, with RunSummary::ComputeMetrics()'s headline
 * metrics as columns, NULL where the run has no such metric (or its value is NaN):
 * - from `runs`: run_id, test, title, seed, run, length, delay, ns3_version,
 *   module_version, created;
 * - from `run_config`: qdisc and bql, as typed there, NULL for a run without the key
 *   (flent-run and gige-aqm-comparison write both, wifi-ring-latency only qdisc, netperf-rr
 *   only bql, the wrt1200ac examples neither: they write router_qdisc);
 * - scope "total": upload_goodput, download_goodput, total_goodput (Mbit/s),
 *   upload_fairness, download_fairness;
 * - ping_series, the series the ping columns come from: the first "Ping (ms) ICMP..." series
 *   with RTT metrics, else the first series that has them (irtt); ping_mean, ping_min, ping_p50,
 *   ping_p90, ping_p99, ping_max (ms; its rtt_* metrics) and ping_samples;
 * - transactions (per s, the sum of the run's `transactions` metrics: netperf-rr);
 * - qdisc_dropped, qdisc_ecn_mark, nic_dropped (packets): the sums over all the run's
 *   `qdisc_stats_*` series of `dropped`, `ecn_mark` and `nic_dropped`.
 * A new file gets the view with the schema; a writable file of version 1 written before the
 * view existed gets it when opened (a read-only one is left without it).
 *
 * Example: `SELECT test, seed, value FROM metrics_view WHERE name = 'rtt_p99';`, or a
 * router's CPU utilisation under load (RunSummary's cpu_util, netperf -c):
 * `SELECT title, value FROM metrics_view WHERE scope = 'cpu_stats_router' AND
 * name = 'cpu_util';`
 *
 * Several processes may write to one file at a time: each Write() is one transaction, and
 * a writer waits up to a minute for another's lock. One object is not thread-safe.
 */
class ResultsDatabase
{
  public:
    /// The schema version this class reads and writes (`PRAGMA user_version`).
    static constexpr int SCHEMA_VERSION = 1;

    /**
     * Opens the database file, creating it and its schema when the file is new or empty.
     * @param path the file
     * @throws std::runtime_error when the file cannot be opened or created, is no SQLite
     * database, holds another schema version, or holds other tables and no version
     */
    explicit ResultsDatabase(const std::string& path);

    /// Closes the file.
    ~ResultsDatabase();

    ResultsDatabase(const ResultsDatabase&) = delete;
    ResultsDatabase& operator=(const ResultsDatabase&) = delete;
    /// Takes over the open file; the moved-from object may only be destroyed or assigned.
    ResultsDatabase(ResultsDatabase&&) noexcept = default;
    /// Closes this object's file and takes over the other's.
    /// @return this object
    ResultsDatabase& operator=(ResultsDatabase&&) noexcept = default;

    /**
     * Stores a run, all or nothing, in one transaction.
     * @param run the run; every sample must hold one value per key of its series
     * @return the new run's id (`runs.id`), increasing from 1 in a new file
     * @throws std::runtime_error on a SQLite failure or a sample with too few or too many
     * values (nothing of the run is stored then)
     */
    int64_t Write(const RunRecord& run);

    /**
     * Reads a run back: a RunRecord equal to the one written, NaN for NaN.
     * @param runId an id that Write() returned or RunIds() lists
     * @return the run
     * @throws std::runtime_error for an unknown id, a SQLite failure or inconsistent rows
     */
    RunRecord Read(int64_t runId) const;

    /**
     * @return the ids of all stored runs, in increasing order
     * @throws std::runtime_error on a SQLite failure
     */
    std::vector<int64_t> RunIds() const;

  private:
    /// Closes a connection (sqlite3_close_v2) for the unique_ptr.
    struct Closer
    {
        /// @param db the connection to close
        void operator()(sqlite3* db) const;
    };

    std::string m_path;                    ///< the file, as given, for error messages
    std::unique_ptr<sqlite3, Closer> m_db; ///< the open connection
};

} // namespace debloat
} // namespace ns3

#endif /* RESULTS_DATABASE_H */
