/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "results-database.h"

#include <cmath>
#include <cstdint>
#include <sqlite3.h>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace ns3
{
namespace debloat
{

namespace
{

/**
 * The schema, version ResultsDatabase::SCHEMA_VERSION. Columns that hold doubles (or typed
 * values) have no declared type: SQLite then keeps the IEEE double as bound, where a REAL
 * column would store -0.0 as the integer 0. The comments stay in `.schema`'s output.
 */
constexpr const char* SCHEMA = R"sql(
CREATE TABLE IF NOT EXISTS runs (
    id             INTEGER PRIMARY KEY,
    test           TEXT NOT NULL,
    title          TEXT NOT NULL,
    local_host     TEXT NOT NULL,
    length,         -- s (double; NULL for NaN), as all untyped number columns
    total_length,   -- s
    step_size,      -- s
    delay,          -- s
    epoch,          -- UNIX s of T0
    seed           INTEGER NOT NULL,
    run            INTEGER NOT NULL, -- uint64 RngRun as the int64 of the same bits
    ns3_version    TEXT NOT NULL,
    module_version TEXT NOT NULL,
    created        TEXT NOT NULL     -- UTC time of writing, ISO 8601
);
CREATE INDEX IF NOT EXISTS runs_by_test ON runs (test);

CREATE TABLE IF NOT EXISTS run_hosts (
    run_id   INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    host     TEXT NOT NULL,
    PRIMARY KEY (run_id, position)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS run_parameters (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    key    TEXT NOT NULL,
    value  TEXT NOT NULL,
    PRIMARY KEY (run_id, key)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS run_config (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    key    TEXT NOT NULL,
    value, -- typeof(value): 'integer', 'real', 'text', or 'null' for a NaN double
    PRIMARY KEY (run_id, key)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS series (
    id       INTEGER PRIMARY KEY,
    run_id   INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name     TEXT NOT NULL,
    runner   TEXT NOT NULL,
    units    TEXT NOT NULL,
    UNIQUE (run_id, position)
);
CREATE INDEX IF NOT EXISTS series_by_name ON series (name);

CREATE TABLE IF NOT EXISTS series_keys (
    series_id INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    position  INTEGER NOT NULL,
    key       TEXT NOT NULL,
    PRIMARY KEY (series_id, position)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS series_meta (
    series_id INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    key       TEXT NOT NULL,
    value, -- typed as run_config.value
    PRIMARY KEY (series_id, key)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS samples (
    series_id INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    position  INTEGER NOT NULL,
    t,        -- s since T0
    PRIMARY KEY (series_id, position)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS sample_values (
    series_id       INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    sample_position INTEGER NOT NULL, -- samples.position
    key_position    INTEGER NOT NULL, -- series_keys.position
    value NOT NULL, -- absent values (NaN) have no row
    PRIMARY KEY (series_id, sample_position, key_position)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS metrics (
    run_id   INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    scope    TEXT NOT NULL,
    name     TEXT NOT NULL,
    value,
    units    TEXT NOT NULL,
    PRIMARY KEY (run_id, position)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS metrics_by_name ON metrics (name, scope);

CREATE VIEW IF NOT EXISTS metrics_view AS
SELECT r.id AS run_id, r.test, r.title, r.seed, r.run, r.created,
       m.scope, m.name, m.value, m.units
FROM metrics AS m JOIN runs AS r ON r.id = m.run_id;

CREATE VIEW IF NOT EXISTS samples_view AS
SELECT s.run_id, s.position AS series_position, s.name AS series, s.units,
       v.sample_position, p.t, k.key, v.value
FROM sample_values AS v
JOIN series AS s ON s.id = v.series_id
JOIN samples AS p ON p.series_id = v.series_id AND p.position = v.sample_position
JOIN series_keys AS k ON k.series_id = v.series_id AND k.position = v.key_position;
)sql";

/**
 * One row per run: its identity, two configuration keys and the headline metrics as
 * columns (see ResultsDatabase). Created with the schema, and added on open to a file of
 * the current version written before the view existed. The ping columns come from one
 * series: the first "Ping (ms) ICMP..." that has RTT metrics, else the first series with
 * any (irtt). max() picks the one metric of its scope and name; sum() adds up the
 * TcRunner series. A metric the run does not have is NULL.
 */
constexpr const char* RUN_SUMMARY_VIEW = R"sql(
CREATE VIEW IF NOT EXISTS run_summary AS
WITH ping AS (
    SELECT r.id AS run_id,
           (SELECT m.scope FROM metrics AS m
            WHERE m.run_id = r.id AND m.name = 'rtt_p50'
            ORDER BY m.scope GLOB 'Ping (ms) ICMP*' DESC, m.position
            LIMIT 1) AS scope
    FROM runs AS r
)
SELECT r.id AS run_id, r.test, r.title, r.seed, r.run, r.length, r.delay,
       r.ns3_version, r.module_version, r.created,
       (SELECT c.value FROM run_config AS c
        WHERE c.run_id = r.id AND c.key = 'qdisc') AS qdisc,
       (SELECT c.value FROM run_config AS c
        WHERE c.run_id = r.id AND c.key = 'bql') AS bql,
       max(CASE WHEN m.scope = 'total' AND m.name = 'upload_goodput'
                THEN m.value END) AS upload_goodput,     -- Mbit/s
       max(CASE WHEN m.scope = 'total' AND m.name = 'download_goodput'
                THEN m.value END) AS download_goodput,   -- Mbit/s
       max(CASE WHEN m.scope = 'total' AND m.name = 'total_goodput'
                THEN m.value END) AS total_goodput,      -- Mbit/s
       max(CASE WHEN m.scope = 'total' AND m.name = 'upload_fairness'
                THEN m.value END) AS upload_fairness,    -- Jain's index
       max(CASE WHEN m.scope = 'total' AND m.name = 'download_fairness'
                THEN m.value END) AS download_fairness,
       p.scope AS ping_series,
       max(CASE WHEN m.scope = p.scope AND m.name = 'rtt_mean'
                THEN m.value END) AS ping_mean,          -- ms
       max(CASE WHEN m.scope = p.scope AND m.name = 'rtt_min'
                THEN m.value END) AS ping_min,
       max(CASE WHEN m.scope = p.scope AND m.name = 'rtt_p50'
                THEN m.value END) AS ping_p50,
       max(CASE WHEN m.scope = p.scope AND m.name = 'rtt_p90'
                THEN m.value END) AS ping_p90,
       max(CASE WHEN m.scope = p.scope AND m.name = 'rtt_p99'
                THEN m.value END) AS ping_p99,
       max(CASE WHEN m.scope = p.scope AND m.name = 'rtt_max'
                THEN m.value END) AS ping_max,
       max(CASE WHEN m.scope = p.scope AND m.name = 'rtt_samples'
                THEN m.value END) AS ping_samples,
       sum(CASE WHEN m.name = 'transactions'
                THEN m.value END) AS transactions,       -- per s
       sum(CASE WHEN m.scope GLOB 'qdisc_stats_*' AND m.name = 'dropped'
                THEN m.value END) AS qdisc_dropped,      -- packets
       sum(CASE WHEN m.scope GLOB 'qdisc_stats_*' AND m.name = 'ecn_mark'
                THEN m.value END) AS qdisc_ecn_mark,
       sum(CASE WHEN m.scope GLOB 'qdisc_stats_*' AND m.name = 'nic_dropped'
                THEN m.value END) AS nic_dropped
FROM runs AS r
JOIN ping AS p ON p.run_id = r.id
LEFT JOIN metrics AS m ON m.run_id = r.id
GROUP BY r.id;
)sql";

/// How long a connection waits for another connection's lock, in ms.
constexpr int BUSY_TIMEOUT_MS = 60000;

/**
 * Throws the error of a failed SQLite call.
 * @param db the connection (its last error is reported)
 * @param path the file
 * @param what what failed
 */
[[noreturn]] void
ThrowSqlite(sqlite3* db, const std::string& path, const std::string& what)
{
    throw std::runtime_error("results database '" + path + "': " + what + ": " +
                             (db ? sqlite3_errmsg(db) : "out of memory"));
}

/**
 * Throws an error that is not SQLite's.
 * @param path the file
 * @param what what is wrong
 */
[[noreturn]] void
ThrowError(const std::string& path, const std::string& what)
{
    throw std::runtime_error("results database '" + path + "': " + what);
}

/**
 * Runs SQL statements that return no rows.
 * @param db the connection
 * @param path the file
 * @param sql the statements
 */
void
Exec(sqlite3* db, const std::string& path, const char* sql)
{
    if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
    {
        ThrowSqlite(db, path, std::string("cannot execute '") + sql + "'");
    }
}

/// A prepared statement, reused by Start() (or Execute()) for each set of parameters.
class Statement
{
  public:
    /**
     * Prepares the statement.
     * @param db the connection
     * @param path the file
     * @param sql one SQL statement, with ? parameters
     */
    Statement(sqlite3* db, const std::string& path, const char* sql)
        : m_db(db),
          m_path(path)
    {
        if (sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr) != SQLITE_OK)
        {
            ThrowSqlite(db, path, std::string("cannot prepare '") + sql + "'");
        }
    }

    ~Statement()
    {
        sqlite3_finalize(m_stmt);
    }

    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    /**
     * Resets the statement and binds its parameters, the first to ?1.
     * @param args the parameter values
     */
    template <typename... Args>
    void Start(const Args&... args)
    {
        sqlite3_reset(m_stmt);
        int index = 0;
        (Bind(++index, args), ...);
    }

    /**
     * Steps the statement.
     * @return true when a row is ready, false when the statement is done
     */
    bool Next()
    {
        int rc = sqlite3_step(m_stmt);
        if (rc == SQLITE_ROW)
        {
            return true;
        }
        if (rc != SQLITE_DONE)
        {
            ThrowSqlite(m_db, m_path, std::string("cannot run '") + sqlite3_sql(m_stmt) + "'");
        }
        return false;
    }

    /**
     * Runs a statement that returns no rows.
     * @param args the parameter values
     */
    template <typename... Args>
    void Execute(const Args&... args)
    {
        Start(args...);
        Next();
    }

    /**
     * @param column the column, from 0
     * @return its integer
     */
    int64_t Int(int column) const
    {
        return sqlite3_column_int64(m_stmt, column);
    }

    /**
     * @param column the column, from 0
     * @return its number, NO_VALUE for NULL
     */
    double Real(int column) const
    {
        return sqlite3_column_type(m_stmt, column) == SQLITE_NULL
                   ? NO_VALUE
                   : sqlite3_column_double(m_stmt, column);
    }

    /**
     * @param column the column, from 0
     * @return its text, byte for byte
     */
    std::string Text(int column) const
    {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
        return text ? std::string(text, sqlite3_column_bytes(m_stmt, column)) : std::string();
    }

    /**
     * @param column the column, from 0
     * @return its value as the MetaValue alternative of its storage class
     */
    MetaValue Meta(int column) const
    {
        switch (sqlite3_column_type(m_stmt, column))
        {
        case SQLITE_INTEGER:
            return Int(column);
        case SQLITE_FLOAT:
        case SQLITE_NULL:
            return Real(column);
        case SQLITE_TEXT:
            return Text(column);
        default:
            ThrowError(m_path,
                       "a typed value is a blob in '" + std::string(sqlite3_sql(m_stmt)) + "'");
        }
    }

  private:
    /**
     * Checks the result of a bind call.
     * @param rc the result
     */
    void Check(int rc) const
    {
        if (rc != SQLITE_OK)
        {
            ThrowSqlite(m_db, m_path, std::string("cannot bind to '") + sqlite3_sql(m_stmt) + "'");
        }
    }

    /**
     * Binds an integer; an unsigned one above INT64_MAX becomes the int64_t of its bits.
     * @param index the parameter, from 1
     * @param value the value
     */
    template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
    void Bind(int index, T value)
    {
        Check(sqlite3_bind_int64(m_stmt, index, static_cast<sqlite3_int64>(value)));
    }

    /**
     * Binds a double, NaN as NULL.
     * @param index the parameter, from 1
     * @param value the value
     */
    void Bind(int index, double value)
    {
        Check(std::isnan(value) ? sqlite3_bind_null(m_stmt, index)
                                : sqlite3_bind_double(m_stmt, index, value));
    }

    /**
     * Binds a text (SQLite copies it).
     * @param index the parameter, from 1
     * @param value the value
     */
    void Bind(int index, const std::string& value)
    {
        Check(sqlite3_bind_text64(m_stmt,
                                  index,
                                  value.data(),
                                  value.size(),
                                  SQLITE_TRANSIENT,
                                  SQLITE_UTF8));
    }

    /**
     * Binds a typed value as its own storage class.
     * @param index the parameter, from 1
     * @param value the value
     */
    void Bind(int index, const MetaValue& value)
    {
        std::visit([this, index](const auto& v) { Bind(index, v); }, value);
    }

    sqlite3* m_db;                 ///< the connection
    const std::string& m_path;     ///< the file
    sqlite3_stmt* m_stmt{nullptr}; ///< the prepared statement
};

/// A transaction that rolls back unless committed.
class Transaction
{
  public:
    /**
     * Begins the transaction.
     * @param db the connection
     * @param path the file
     * @param begin "BEGIN" (reads) or "BEGIN IMMEDIATE" (writes: takes the lock now)
     */
    Transaction(sqlite3* db, const std::string& path, const char* begin)
        : m_db(db),
          m_path(path)
    {
        Exec(db, path, begin);
    }

    ~Transaction()
    {
        if (m_open)
        {
            sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
        }
    }

    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    /// Commits the transaction.
    void Commit()
    {
        Exec(m_db, m_path, "COMMIT");
        m_open = false;
    }

  private:
    sqlite3* m_db;             ///< the connection
    const std::string& m_path; ///< the file
    bool m_open{true};         ///< not yet committed
};

/**
 * Reads `PRAGMA user_version`.
 * @param db the connection
 * @param path the file
 * @return the version
 */
int64_t
UserVersion(sqlite3* db, const std::string& path)
{
    Statement version(db, path, "PRAGMA user_version");
    version.Start();
    version.Next();
    return version.Int(0);
}

/**
 * Adds the view run_summary to a file of the current version written before the view
 * existed. A read-only file is left as it is: its tables still read.
 * @param db the connection
 * @param path the file
 */
void
AddRunSummaryView(sqlite3* db, const std::string& path)
{
    {
        Statement view(db,
                       path,
                       "SELECT count(*) FROM sqlite_master WHERE type = 'view' AND "
                       "name = 'run_summary'");
        view.Start();
        view.Next();
        if (view.Int(0) != 0 || sqlite3_db_readonly(db, "main") == 1)
        {
            return;
        }
    } // the statement ends before the write lock is taken
    Transaction transaction(db, path, "BEGIN IMMEDIATE");
    if (sqlite3_exec(db, RUN_SUMMARY_VIEW, nullptr, nullptr, nullptr) != SQLITE_OK)
    {
        ThrowSqlite(db, path, "cannot add the view run_summary");
    }
    transaction.Commit();
}

} // namespace

void
ResultsDatabase::Closer::operator()(sqlite3* db) const
{
    sqlite3_close_v2(db);
}

ResultsDatabase::ResultsDatabase(const std::string& path)
    : m_path(path)
{
    sqlite3* db = nullptr;
    int rc =
        sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    m_db.reset(db); // a failed open still returns a handle (to close) with the error
    if (rc != SQLITE_OK)
    {
        ThrowSqlite(db, path, "cannot open");
    }
    sqlite3_busy_timeout(db, BUSY_TIMEOUT_MS);
    Exec(db, path, "PRAGMA foreign_keys = ON");

    // Reading first leaves a read-only file of the current version readable; a new file
    // gets its schema under the write lock, so that two processes cannot both create it.
    if (UserVersion(db, path) == SCHEMA_VERSION)
    {
        AddRunSummaryView(db, path);
        return;
    }
    Transaction transaction(db, path, "BEGIN IMMEDIATE");
    int64_t version = UserVersion(db, path);
    if (version == 0)
    {
        Statement tables(db, path, "SELECT count(*) FROM sqlite_master");
        tables.Start();
        tables.Next();
        if (tables.Int(0) != 0)
        {
            ThrowError(path,
                       "not a debloat results database (it has tables but no schema "
                       "version)");
        }
        if (sqlite3_exec(db, SCHEMA, nullptr, nullptr, nullptr) != SQLITE_OK ||
            sqlite3_exec(db, RUN_SUMMARY_VIEW, nullptr, nullptr, nullptr) != SQLITE_OK)
        {
            ThrowSqlite(db, path, "cannot create the schema");
        }
        Exec(db, path, ("PRAGMA user_version = " + std::to_string(SCHEMA_VERSION)).c_str());
    }
    else if (version != SCHEMA_VERSION)
    {
        ThrowError(path,
                   "schema version " + std::to_string(version) +
                       ", but this program reads version " + std::to_string(SCHEMA_VERSION));
    }
    transaction.Commit();
}

ResultsDatabase::~ResultsDatabase() = default;

int64_t
ResultsDatabase::Write(const RunRecord& run)
{
    sqlite3* db = m_db.get();
    Transaction transaction(db, m_path, "BEGIN IMMEDIATE");

    Statement(db,
              m_path,
              "INSERT INTO runs (test, title, local_host, length, total_length, step_size, "
              "delay, epoch, seed, run, ns3_version, module_version, created) VALUES "
              "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))")
        .Execute(run.test,
                 run.title,
                 run.localHost,
                 run.length,
                 run.totalLength,
                 run.stepSize,
                 run.delay,
                 run.epoch,
                 run.seed,
                 run.run,
                 run.ns3Version,
                 run.moduleVersion);
    const int64_t runId = sqlite3_last_insert_rowid(db);

    Statement host(db, m_path, "INSERT INTO run_hosts VALUES (?, ?, ?)");
    for (size_t i = 0; i < run.hosts.size(); ++i)
    {
        host.Execute(runId, i, run.hosts[i]);
    }
    Statement parameter(db, m_path, "INSERT INTO run_parameters VALUES (?, ?, ?)");
    for (const auto& [key, value] : run.testParameters)
    {
        parameter.Execute(runId, key, value);
    }
    Statement config(db, m_path, "INSERT INTO run_config VALUES (?, ?, ?)");
    for (const auto& [key, value] : run.config)
    {
        config.Execute(runId, key, value);
    }

    Statement series(db,
                     m_path,
                     "INSERT INTO series (run_id, position, name, runner, units) "
                     "VALUES (?, ?, ?, ?, ?)");
    Statement key(db, m_path, "INSERT INTO series_keys VALUES (?, ?, ?)");
    Statement meta(db, m_path, "INSERT INTO series_meta VALUES (?, ?, ?)");
    Statement sample(db, m_path, "INSERT INTO samples VALUES (?, ?, ?)");
    Statement value(db, m_path, "INSERT INTO sample_values VALUES (?, ?, ?, ?)");
    for (size_t s = 0; s < run.series.size(); ++s)
    {
        const Series& current = run.series[s];
        series.Execute(runId, s, current.name, current.runner, current.units);
        const int64_t seriesId = sqlite3_last_insert_rowid(db);
        for (size_t k = 0; k < current.keys.size(); ++k)
        {
            key.Execute(seriesId, k, current.keys[k]);
        }
        for (const auto& [name, metaValue] : current.meta)
        {
            meta.Execute(seriesId, name, metaValue);
        }
        for (size_t i = 0; i < current.samples.size(); ++i)
        {
            const Sample& point = current.samples[i];
            if (point.values.size() != current.keys.size())
            {
                ThrowError(m_path,
                           "sample " + std::to_string(i) + " of series '" + current.name +
                               "' has " + std::to_string(point.values.size()) + " values for " +
                               std::to_string(current.keys.size()) + " keys");
            }
            sample.Execute(seriesId, i, point.t);
            for (size_t k = 0; k < point.values.size(); ++k)
            {
                if (!std::isnan(point.values[k]))
                {
                    value.Execute(seriesId, i, k, point.values[k]);
                }
            }
        }
    }

    Statement metric(db, m_path, "INSERT INTO metrics VALUES (?, ?, ?, ?, ?, ?)");
    for (size_t i = 0; i < run.metrics.size(); ++i)
    {
        const Metric& m = run.metrics[i];
        metric.Execute(runId, i, m.scope, m.name, m.value, m.units);
    }

    transaction.Commit();
    return runId;
}

RunRecord
ResultsDatabase::Read(int64_t runId) const
{
    sqlite3* db = m_db.get();
    Transaction transaction(db, m_path, "BEGIN"); // one consistent snapshot

    Statement runs(db,
                   m_path,
                   "SELECT test, title, local_host, length, total_length, step_size, delay, "
                   "epoch, seed, run, ns3_version, module_version FROM runs WHERE id = ?");
    runs.Start(runId);
    if (!runs.Next())
    {
        ThrowError(m_path, "no run with id " + std::to_string(runId));
    }
    RunRecord run;
    run.test = runs.Text(0);
    run.title = runs.Text(1);
    run.localHost = runs.Text(2);
    run.length = runs.Real(3);
    run.totalLength = runs.Real(4);
    run.stepSize = runs.Real(5);
    run.delay = runs.Real(6);
    run.epoch = runs.Real(7);
    run.seed = static_cast<uint32_t>(runs.Int(8));
    run.run = static_cast<uint64_t>(runs.Int(9));
    run.ns3Version = runs.Text(10);
    run.moduleVersion = runs.Text(11);

    Statement hosts(db, m_path, "SELECT host FROM run_hosts WHERE run_id = ? ORDER BY position");
    for (hosts.Start(runId); hosts.Next();)
    {
        run.hosts.push_back(hosts.Text(0));
    }
    Statement parameters(db, m_path, "SELECT key, value FROM run_parameters WHERE run_id = ?");
    for (parameters.Start(runId); parameters.Next();)
    {
        run.testParameters.emplace(parameters.Text(0), parameters.Text(1));
    }
    Statement config(db, m_path, "SELECT key, value FROM run_config WHERE run_id = ?");
    for (config.Start(runId); config.Next();)
    {
        run.config.emplace(config.Text(0), config.Meta(1));
    }

    Statement series(db,
                     m_path,
                     "SELECT id, name, runner, units FROM series WHERE run_id = ? "
                     "ORDER BY position");
    Statement keys(db,
                   m_path,
                   "SELECT position, key FROM series_keys WHERE series_id = ? ORDER BY position");
    Statement meta(db, m_path, "SELECT key, value FROM series_meta WHERE series_id = ?");
    Statement samples(db,
                      m_path,
                      "SELECT position, t FROM samples WHERE series_id = ? ORDER BY position");
    Statement values(db,
                     m_path,
                     "SELECT sample_position, key_position, value FROM sample_values "
                     "WHERE series_id = ?");
    // Values are placed by position, so keys and samples must count 0, 1, 2, ...
    auto checkPosition = [this](int64_t position, size_t expected, int64_t seriesId) {
        if (position != static_cast<int64_t>(expected))
        {
            ThrowError(m_path,
                       "series " + std::to_string(seriesId) + " has a gap in its positions");
        }
    };
    for (series.Start(runId); series.Next();)
    {
        const int64_t seriesId = series.Int(0);
        Series current;
        current.name = series.Text(1);
        current.runner = series.Text(2);
        current.units = series.Text(3);
        for (keys.Start(seriesId); keys.Next();)
        {
            checkPosition(keys.Int(0), current.keys.size(), seriesId);
            current.keys.push_back(keys.Text(1));
        }
        for (meta.Start(seriesId); meta.Next();)
        {
            current.meta.emplace(meta.Text(0), meta.Meta(1));
        }
        for (samples.Start(seriesId); samples.Next();)
        {
            checkPosition(samples.Int(0), current.samples.size(), seriesId);
            current.samples.push_back(
                Sample{samples.Real(1), std::vector<double>(current.keys.size(), NO_VALUE)});
        }
        for (values.Start(seriesId); values.Next();)
        {
            const int64_t i = values.Int(0);
            const int64_t k = values.Int(1);
            if (i < 0 || i >= static_cast<int64_t>(current.samples.size()) || k < 0 ||
                k >= static_cast<int64_t>(current.keys.size()))
            {
                ThrowError(m_path,
                           "series " + std::to_string(seriesId) +
                               " has a value outside its samples or keys");
            }
            current.samples[i].values[k] = values.Real(2);
        }
        run.series.push_back(std::move(current));
    }

    Statement metrics(db,
                      m_path,
                      "SELECT scope, name, value, units FROM metrics WHERE run_id = ? "
                      "ORDER BY position");
    for (metrics.Start(runId); metrics.Next();)
    {
        run.metrics.push_back(
            Metric{metrics.Text(0), metrics.Text(1), metrics.Real(2), metrics.Text(3)});
    }

    transaction.Commit();
    return run;
}

std::vector<int64_t>
ResultsDatabase::RunIds() const
{
    Statement runs(m_db.get(), m_path, "SELECT id FROM runs ORDER BY id");
    std::vector<int64_t> ids;
    for (runs.Start(); runs.Next();)
    {
        ids.push_back(runs.Int(0));
    }
    return ids;
}

} // namespace debloat
} // namespace ns3
