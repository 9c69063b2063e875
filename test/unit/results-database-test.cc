/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases of the SQLite results database: runs are written to a file in a fresh
 * temporary directory and read back, and every field must come back as written, doubles bit
 * for bit (so -0.0 is not 0.0) and typed values as the same MetaValue alternative; NaN
 * equals NaN. The files are also checked with plain SQL, as a researcher would query them.
 */

#include "error-message.h"

#include "ns3/results-database.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <map>
#include <sqlite3.h>
#include <stdexcept>
#include <variant>

namespace
{

using debloattest::ErrorOf;

using namespace ns3::debloat;

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
constexpr double INF = std::numeric_limits<double>::infinity();

/**
 * @param a a double
 * @param b another
 * @return true when both are NaN or have the same bits
 */
bool
SameDouble(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof(double)) == 0;
}

/// Expects two doubles to be the same (SameDouble), printing both in hex.
#define EXPECT_SAME_DOUBLE(expected, actual)                                                       \
    EXPECT_TRUE(SameDouble(expected, actual))                                                      \
        << #actual << ": " << std::hexfloat << (actual) << ", expected " << (expected)

/**
 * Expects two typed values to hold the same alternative and value.
 * @param expected the value written
 * @param actual the value read
 */
void
ExpectSameMeta(const MetaMap& expected, const MetaMap& actual)
{
    ASSERT_EQ(expected.size(), actual.size());
    for (auto e = expected.begin(), a = actual.begin(); e != expected.end(); ++e, ++a)
    {
        SCOPED_TRACE("key " + e->first);
        EXPECT_EQ(e->first, a->first);
        ASSERT_EQ(e->second.index(), a->second.index());
        if (const auto* d = std::get_if<double>(&e->second))
        {
            EXPECT_SAME_DOUBLE(*d, std::get<double>(a->second));
        }
        else
        {
            EXPECT_EQ(e->second, a->second);
        }
    }
}

/**
 * Expects two runs to be equal field by field.
 * @param expected the run written
 * @param actual the run read
 */
void
ExpectSameRun(const RunRecord& expected, const RunRecord& actual)
{
    EXPECT_EQ(expected.test, actual.test);
    EXPECT_EQ(expected.title, actual.title);
    EXPECT_EQ(expected.localHost, actual.localHost);
    EXPECT_EQ(expected.hosts, actual.hosts);
    EXPECT_SAME_DOUBLE(expected.length, actual.length);
    EXPECT_SAME_DOUBLE(expected.totalLength, actual.totalLength);
    EXPECT_SAME_DOUBLE(expected.stepSize, actual.stepSize);
    EXPECT_SAME_DOUBLE(expected.delay, actual.delay);
    EXPECT_SAME_DOUBLE(expected.epoch, actual.epoch);
    EXPECT_EQ(expected.testParameters, actual.testParameters);
    EXPECT_EQ(expected.seed, actual.seed);
    EXPECT_EQ(expected.run, actual.run);
    EXPECT_EQ(expected.ns3Version, actual.ns3Version);
    EXPECT_EQ(expected.moduleVersion, actual.moduleVersion);
    {
        SCOPED_TRACE("config");
        ExpectSameMeta(expected.config, actual.config);
    }
    ASSERT_EQ(expected.series.size(), actual.series.size());
    for (size_t s = 0; s < expected.series.size(); ++s)
    {
        const Series& e = expected.series[s];
        const Series& a = actual.series[s];
        SCOPED_TRACE("series " + e.name);
        EXPECT_EQ(e.name, a.name);
        EXPECT_EQ(e.runner, a.runner);
        EXPECT_EQ(e.units, a.units);
        EXPECT_EQ(e.keys, a.keys);
        ExpectSameMeta(e.meta, a.meta);
        ASSERT_EQ(e.samples.size(), a.samples.size());
        for (size_t i = 0; i < e.samples.size(); ++i)
        {
            SCOPED_TRACE("sample " + std::to_string(i));
            EXPECT_SAME_DOUBLE(e.samples[i].t, a.samples[i].t);
            ASSERT_EQ(e.samples[i].values.size(), a.samples[i].values.size());
            for (size_t k = 0; k < e.samples[i].values.size(); ++k)
            {
                EXPECT_SAME_DOUBLE(e.samples[i].values[k], a.samples[i].values[k]);
            }
        }
    }
    ASSERT_EQ(expected.metrics.size(), actual.metrics.size());
    for (size_t i = 0; i < expected.metrics.size(); ++i)
    {
        SCOPED_TRACE("metric " + std::to_string(i));
        EXPECT_EQ(expected.metrics[i].scope, actual.metrics[i].scope);
        EXPECT_EQ(expected.metrics[i].name, actual.metrics[i].name);
        EXPECT_SAME_DOUBLE(expected.metrics[i].value, actual.metrics[i].value);
        EXPECT_EQ(expected.metrics[i].units, actual.metrics[i].units);
    }
}

/// @return a run that uses every field, with awkward strings and doubles
RunRecord
AwkwardRun()
{
    RunRecord run;
    run.test = "rrul_be";
    run.title = "It's a \"quoted\" title; -- ünïcødé ✓ 🚀 'x'";
    run.localHost = "client";
    run.hosts = {"zeta", "alpha", "сервер"}; // not in sorted order
    run.length = 60;
    run.totalLength = 70;
    run.stepSize = 0.1;
    run.delay = -0.0;
    run.epoch = 1767225600.123456789;
    run.testParameters = {{"upload_streams", "4"}, {"empty", ""}, {"quote", "a'b\"c"}};
    run.seed = std::numeric_limits<uint32_t>::max();
    run.run = (uint64_t{1} << 63) + 5; // above INT64_MAX
    run.ns3Version = "3.37";
    run.moduleVersion = "0.1.0";
    run.config = {
        {"int_max", std::numeric_limits<int64_t>::max()},
        {"int_min", std::numeric_limits<int64_t>::min()},
        {"int_2p53_plus_1", int64_t{9007199254740993}}, // not a double
        {"double_tenth", 0.1},
        {"double_tiny", 1e-300},
        {"double_denormal", std::numeric_limits<double>::denorm_min()},
        {"double_negative_zero", -0.0},
        {"double_whole", 3.0}, // must stay a double, not become the integer 3
        {"double_nan", NaN},
        {"double_infinity", -INF},
        {"text", "a 'single' and \"double\" quote, ünïcødé"},
        {"text_empty", std::string()},
        {"text_number", "42"}, // must stay a text
    };

    Series tcp;
    tcp.name = "TCP upload BE";
    tcp.runner = "NetperfDemoRunner";
    tcp.units = "Mbits/s";
    tcp.keys = {"val", "dur"};
    tcp.samples = {{0.2, {93.4, 0.2}}, {0.4, {NaN, 0.2}}, {0.6, {1e-300, NaN}}, {-0.0, {-0.0, 0}}};
    tcp.meta = {{"MEAN_VALUE", 93.4}, {"IDX", int64_t{1}}};

    Series irtt;
    irtt.name = "Ping (ms) UDP BE";
    irtt.runner = "IrttRunner";
    irtt.units = "ms";
    irtt.keys = {"val", "seq", "owd_up", "lost"};
    irtt.samples = {{0.0, {12.5, 0, 6.25, NaN}},
                    {0.2, {NaN, 1, NaN, 1}},
                    {NaN, {NaN, NaN, NaN, NaN}}, // a sample with no value at all
                    {0.6, {INF, 9007199254740992.0, 0.30000000000000004, NaN}}};
    irtt.meta = {{"PACKET_LOSS_RATE", 0.01}, {"HOST", std::string("alpha")}};

    Series qdisc; // keys, but no samples and no meta
    qdisc.name = "qdisc_stats_alpha";
    qdisc.runner = "TcRunner";
    qdisc.units = "packets";
    qdisc.keys = {"backlog_pkts", "dropped"};

    Series empty; // nothing at all
    run.series = {tcp, irtt, qdisc, empty};

    run.metrics = {{"TCP upload BE", "goodput_mean", 93.4, "Mbit/s"},
                   {"total", "rtt_p99", 0.1, "ms"},
                   {"total", "drops", NaN, "packets"},
                   {"Ping (ms) UDP BE", "rtt_p50", -0.0, "ms"}};
    return run;
}

/**
 * Runs one SQL query on a file through a connection of its own, as the sqlite3 shell would.
 * @param path the file
 * @param sql a query with one result row
 * @return the row's first column as text
 */
std::string
QueryFile(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    std::string result = "(error)";
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
    {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
        result = text ? text : "(null)";
    }
    else
    {
        result += std::string(" ") + sqlite3_errmsg(db);
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return result;
}

/**
 * Runs SQL statements on a file through a connection of its own.
 * @param path the file
 * @param sql the statements
 * @return "" on success, else SQLite's error message
 */
std::string
ExecFile(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    std::string error;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
            SQLITE_OK ||
        sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
    {
        error = sqlite3_errmsg(db);
    }
    sqlite3_close(db);
    return error;
}

/// A cell of a query's result: NULL (monostate) or a value of its SQLite storage class.
using Cell = std::variant<std::monostate, int64_t, double, std::string>;

/// A row of a query's result, by column name.
using Row = std::map<std::string, Cell>;

/**
 * Runs a query on a file through a connection of its own, as the sqlite3 shell would.
 * @param path the file
 * @param sql the query
 * @param columns set to the result's column names, in order
 * @return the rows, each cell in its storage class (doubles bit for bit)
 */
std::vector<Row>
QueryRows(const std::string& path, const std::string& sql, std::vector<std::string>& columns)
{
    sqlite3* db = nullptr;
    sqlite3_stmt* stmt = nullptr;
    std::vector<Row> rows;
    columns.clear();
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK ||
        sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
    {
        ADD_FAILURE() << "cannot query '" << sql << "': " << sqlite3_errmsg(db);
        sqlite3_close(db);
        return rows;
    }
    for (int c = 0; c < sqlite3_column_count(stmt); ++c)
    {
        columns.emplace_back(sqlite3_column_name(stmt, c));
    }
    while (sqlite3_step(stmt) == SQLITE_ROW)
    {
        Row row;
        for (int c = 0; c < sqlite3_column_count(stmt); ++c)
        {
            Cell cell;
            switch (sqlite3_column_type(stmt, c))
            {
            case SQLITE_INTEGER:
                cell = static_cast<int64_t>(sqlite3_column_int64(stmt, c));
                break;
            case SQLITE_FLOAT:
                cell = sqlite3_column_double(stmt, c);
                break;
            case SQLITE_TEXT:
                cell = std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)));
                break;
            default:
                break;
            }
            row[columns[c]] = cell;
        }
        rows.push_back(std::move(row));
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return rows;
}

/**
 * Expects a row to hold the given cells, same storage class and value (doubles bit for bit).
 * @param expected the cells to check, by column
 * @param actual the row
 */
void
ExpectCells(const Row& expected, const Row& actual)
{
    for (const auto& [column, cell] : expected)
    {
        SCOPED_TRACE("column " + column);
        const auto found = actual.find(column);
        ASSERT_NE(found, actual.end());
        ASSERT_EQ(cell.index(), found->second.index()) << "storage class differs";
        if (const auto* d = std::get_if<double>(&cell))
        {
            EXPECT_SAME_DOUBLE(*d, std::get<double>(found->second));
        }
        else
        {
            EXPECT_EQ(cell, found->second);
        }
    }
}

/// Gives each test a fresh temporary directory, removed afterwards.
class ResultsDatabaseTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "debloat-results-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        m_dir = pattern;
        m_path = (m_dir / "results.db").string();
    }

    void TearDown() override
    {
        std::filesystem::remove_all(m_dir);
    }

    std::filesystem::path m_dir; ///< the temporary directory
    std::string m_path;          ///< a database file in it
};

TEST_F(ResultsDatabaseTest, RoundTripsEveryField)
{
    const RunRecord run = AwkwardRun();
    ResultsDatabase db(m_path);
    EXPECT_TRUE(db.RunIds().empty());
    const int64_t id = db.Write(run);
    EXPECT_EQ(db.RunIds(), std::vector<int64_t>{id});
    ExpectSameRun(run, db.Read(id));
}

TEST_F(ResultsDatabaseTest, TwoRunsKeepTheirIdsAndContentsApart)
{
    const RunRecord first = AwkwardRun();
    RunRecord second = AwkwardRun();
    second.test = "tcp_download";
    second.hosts = {"beta"};
    second.seed = 7;
    second.config.erase("text");
    second.series.erase(second.series.begin());
    second.series[0].samples[0].values[0] = 99.5;
    second.metrics.pop_back();

    ResultsDatabase db(m_path);
    const int64_t firstId = db.Write(first);
    const int64_t secondId = db.Write(second);
    EXPECT_NE(firstId, secondId);
    EXPECT_EQ(db.RunIds(), (std::vector<int64_t>{firstId, secondId}));
    {
        SCOPED_TRACE("first");
        ExpectSameRun(first, db.Read(firstId));
    }
    {
        SCOPED_TRACE("second");
        ExpectSameRun(second, db.Read(secondId));
    }
}

TEST_F(ResultsDatabaseTest, WritingARunTwiceGivesIdenticalContents)
{
    const RunRecord run = AwkwardRun();
    ResultsDatabase db(m_path);
    const int64_t firstId = db.Write(run);
    const int64_t secondId = db.Write(run);
    EXPECT_NE(firstId, secondId);
    const RunRecord first = db.Read(firstId);
    ExpectSameRun(run, first);
    ExpectSameRun(first, db.Read(secondId));
}

TEST_F(ResultsDatabaseTest, ReopensAnExistingFile)
{
    const RunRecord run = AwkwardRun();
    int64_t id = 0;
    {
        ResultsDatabase db(m_path);
        id = db.Write(run);
    }
    ResultsDatabase reopened(m_path);
    EXPECT_EQ(reopened.RunIds(), std::vector<int64_t>{id});
    ExpectSameRun(run, reopened.Read(id));
    const int64_t next = reopened.Write(run);
    EXPECT_EQ(reopened.RunIds(), (std::vector<int64_t>{id, next}));
}

TEST_F(ResultsDatabaseTest, MovedDatabaseKeepsTheFile)
{
    ResultsDatabase original(m_path);
    const int64_t id = original.Write(AwkwardRun());
    ResultsDatabase moved(std::move(original));
    EXPECT_EQ(moved.RunIds(), std::vector<int64_t>{id});
    ResultsDatabase assigned(m_dir.string() + "/other.db");
    assigned = std::move(moved);
    EXPECT_EQ(assigned.RunIds(), std::vector<int64_t>{id});
}

TEST_F(ResultsDatabaseTest, UnknownRunIdThrows)
{
    ResultsDatabase db(m_path);
    const int64_t id = db.Write(AwkwardRun());
    const std::string error = ErrorOf<std::runtime_error>([&] { db.Read(id + 1); });
    EXPECT_NE(error.find(m_path), std::string::npos) << error;
    EXPECT_NE(error.find(std::to_string(id + 1)), std::string::npos) << error;
}

TEST_F(ResultsDatabaseTest, SampleWithoutOneValuePerKeyStoresNothing)
{
    RunRecord run = AwkwardRun();
    run.series[1].samples[2].values.pop_back();
    ResultsDatabase db(m_path);
    const std::string error = ErrorOf<std::runtime_error>([&] { db.Write(run); });
    EXPECT_NE(error.find(m_path), std::string::npos) << error;
    EXPECT_NE(error.find("3 values for 4 keys"), std::string::npos) << error;
    // The transaction was rolled back: not even the runs row is left.
    EXPECT_TRUE(db.RunIds().empty());
    EXPECT_EQ(QueryFile(m_path, "SELECT count(*) FROM series"), "0");
}

TEST_F(ResultsDatabaseTest, RowsEditedOutOfOrderAreReported)
{
    ResultsDatabase db(m_path);
    const int64_t id = db.Write(AwkwardRun());
    // Delete the first sample of a series by hand: its values would no longer fit.
    ASSERT_EQ(ExecFile(m_path,
                       "DELETE FROM samples WHERE position = 0 AND series_id = "
                       "(SELECT id FROM series WHERE name = 'TCP upload BE')"),
              "");
    const std::string error = ErrorOf<std::runtime_error>([&] { db.Read(id); });
    EXPECT_NE(error.find(m_path), std::string::npos) << error;
    EXPECT_NE(error.find("gap in its positions"), std::string::npos) << error;
}

TEST_F(ResultsDatabaseTest, OtherSchemaVersionIsRefused)
{
    {
        ResultsDatabase db(m_path);
        db.Write(AwkwardRun());
    }
    EXPECT_EQ(QueryFile(m_path, "PRAGMA user_version"), "1");
    ASSERT_EQ(ExecFile(m_path, "PRAGMA user_version = 2"), "");
    const std::string error = ErrorOf<std::runtime_error>([&] { ResultsDatabase db(m_path); });
    EXPECT_NE(error.find(m_path), std::string::npos) << error;
    EXPECT_NE(error.find("schema version 2"), std::string::npos) << error;
}

TEST_F(ResultsDatabaseTest, ForeignDatabaseIsRefused)
{
    // A SQLite file of some other program: tables, but no user_version.
    ASSERT_EQ(ExecFile(m_path, "CREATE TABLE runs (name TEXT)"), "");
    EXPECT_EQ(QueryFile(m_path, "SELECT count(*) FROM sqlite_master"), "1");
    const std::string error = ErrorOf<std::runtime_error>([&] { ResultsDatabase db(m_path); });
    EXPECT_NE(error.find(m_path), std::string::npos) << error;
    EXPECT_NE(error.find("not a debloat results database"), std::string::npos) << error;
}

TEST_F(ResultsDatabaseTest, FileThatIsNoDatabaseIsRefused)
{
    std::ofstream(m_path) << "{\"this\": \"is a flent file, not a database\"}\n";
    const std::string error = ErrorOf<std::runtime_error>([&] { ResultsDatabase db(m_path); });
    EXPECT_NE(error.find(m_path), std::string::npos) << error;
    EXPECT_NE(error.find("file is not a database"), std::string::npos) << error; // SQLite's
}

TEST_F(ResultsDatabaseTest, UnwritableDirectoryThrowsWithThePath)
{
    // A directory that is a regular file: nobody, not even root, can create a file in it.
    const std::string notADirectory = (m_dir / "plain-file").string();
    std::ofstream(notADirectory) << "x";
    const std::string path = notADirectory + "/results.db";
    const std::string error = ErrorOf<std::runtime_error>([&] { ResultsDatabase db(path); });
    EXPECT_NE(error.find(path), std::string::npos) << error;
    EXPECT_NE(error.find("unable to open database file"), std::string::npos) << error;
}

TEST_F(ResultsDatabaseTest, SchemaAnswersPlainSql)
{
    const RunRecord run = AwkwardRun();
    int64_t id = 0;
    {
        ResultsDatabase db(m_path);
        id = db.Write(run);
    }
    const std::string where = " WHERE run_id = " + std::to_string(id);
    // Typed values keep their storage class; the NaN double is NULL.
    EXPECT_EQ(
        QueryFile(m_path,
                  "SELECT typeof(value) FROM run_config" + where + " AND key = 'double_whole'"),
        "real");
    EXPECT_EQ(
        QueryFile(m_path,
                  "SELECT typeof(value) FROM run_config" + where + " AND key = 'int_2p53_plus_1'"),
        "integer");
    EXPECT_EQ(
        QueryFile(m_path,
                  "SELECT typeof(value) FROM run_config" + where + " AND key = 'text_number'"),
        "text");
    EXPECT_EQ(QueryFile(m_path,
                        "SELECT typeof(value) FROM run_config" + where + " AND key = 'double_nan'"),
              "null");
    // metrics_view: one row per metric, joined to its run.
    EXPECT_EQ(QueryFile(m_path, "SELECT count(*) FROM metrics_view" + where), "4");
    EXPECT_EQ(QueryFile(m_path, "SELECT test FROM metrics_view" + where + " AND name = 'rtt_p99'"),
              "rrul_be");
    // samples_view: one row per value that is not NaN. TCP: 93.4, 0.2, 0.2, 1e-300, -0.0, 0
    // (6); irtt: 12.5, 0, 6.25, 1, 1, inf, 2^53, 0.30000000000000004 (8).
    EXPECT_EQ(QueryFile(m_path, "SELECT count(*) FROM samples_view" + where), "14");
    EXPECT_EQ(QueryFile(m_path,
                        "SELECT value FROM samples_view" + where +
                            " AND series = 'Ping (ms) UDP BE' AND key = 'owd_up'"
                            " AND t = 0"),
              "6.25");
    // With foreign keys on, deleting the run deletes every row that belongs to it.
    ASSERT_EQ(
        ExecFile(m_path,
                 "PRAGMA foreign_keys = ON; DELETE FROM runs WHERE id = " + std::to_string(id)),
        "");
    for (const char* table : {"runs",
                              "run_hosts",
                              "run_parameters",
                              "run_config",
                              "series",
                              "series_keys",
                              "series_meta",
                              "samples",
                              "sample_values",
                              "metrics"})
    {
        EXPECT_EQ(QueryFile(m_path, std::string("SELECT count(*) FROM ") + table), "0") << table;
    }
}

/// The columns of run_summary, in the order ResultsDatabase documents them.
const std::vector<std::string> RUN_SUMMARY_COLUMNS = {"run_id",
                                                      "test",
                                                      "title",
                                                      "seed",
                                                      "run",
                                                      "length",
                                                      "delay",
                                                      "ns3_version",
                                                      "module_version",
                                                      "created",
                                                      "qdisc",
                                                      "bql",
                                                      "upload_goodput",
                                                      "download_goodput",
                                                      "total_goodput",
                                                      "upload_fairness",
                                                      "download_fairness",
                                                      "ping_series",
                                                      "ping_mean",
                                                      "ping_min",
                                                      "ping_p50",
                                                      "ping_p90",
                                                      "ping_p99",
                                                      "ping_max",
                                                      "ping_samples",
                                                      "transactions",
                                                      "qdisc_dropped",
                                                      "qdisc_ecn_mark",
                                                      "nic_dropped"};

/**
 * A loaded run as flent-run writes one, metrics only: the values are chosen here, and
 * each is exact in binary, so that sums compare exactly.
 * @return the run
 */
RunRecord
LoadedRun()
{
    RunRecord run;
    run.test = "rrul_be";
    run.title = "fq_codel BQL";
    run.seed = 1;
    run.run = 4;
    run.length = 60;
    run.delay = 5;
    run.ns3Version = "3.37";
    run.moduleVersion = "0.1.0";
    run.config = {{"qdisc", std::string("fq_codel")},
                  {"bql", int64_t{1}},
                  {"rate", std::string("100Mbps")}};
    run.metrics = {
        {"TCP upload BE", "goodput", 45.5, "Mbit/s"},
        // An irtt series before the ICMP ping: the view must still take ICMP's.
        {"Ping (ms) UDP BE1", "rtt_p50", 9.5, "ms"},
        {"Ping (ms) UDP BE1", "rtt_p99", 19.5, "ms"},
        {"Ping (ms) ICMP", "rtt_mean", 5.5, "ms"},
        {"Ping (ms) ICMP", "rtt_min", 4.25, "ms"},
        {"Ping (ms) ICMP", "rtt_p50", 5.375, "ms"},
        {"Ping (ms) ICMP", "rtt_p90", 6.5, "ms"},
        {"Ping (ms) ICMP", "rtt_p99", 7.75, "ms"},
        {"Ping (ms) ICMP", "rtt_max", 8, "ms"},
        {"Ping (ms) ICMP", "rtt_samples", 250, "samples"},
        {"qdisc_stats_client", "dropped", 3, "packets"},
        {"qdisc_stats_client", "ecn_mark", 0, "packets"},
        {"qdisc_stats_client", "nic_dropped", 1, "packets"},
        {"qdisc_stats_router", "dropped", 4, "packets"},
        {"qdisc_stats_router", "ecn_mark", 2, "packets"},
        // Not a qdisc's: must not count among its drops.
        {"flood", "dropped", 100, "packets"},
        {"total", "upload_goodput", 91.25, "Mbit/s"},
        {"total", "download_goodput", 90.5, "Mbit/s"},
        {"total", "total_goodput", 181.75, "Mbit/s"},
        {"total", "upload_fairness", 0.75, ""},
        {"total", "download_fairness", 0.5, ""},
    };
    return run;
}

/**
 * A TCP_RR run as netperf-rr writes one: no goodput, no qdisc key, no ICMP ping; two irtt
 * series stand in for the ping, and the first of them counts.
 * @return the run
 */
RunRecord
RequestResponseRun()
{
    RunRecord run;
    run.test = "tcp_rr";
    run.title = "size 1 no BQL";
    run.seed = 3;
    run.run = 2;
    run.length = 10;
    run.delay = 0;
    run.ns3Version = "3.48";
    run.moduleVersion = "0.1.0";
    run.config = {{"bql", int64_t{0}}, {"size", int64_t{1}}};
    run.metrics = {
        {"TCP_RR", "transactions", 12345.5, "transactions/s"},
        {"Ping (ms) UDP EF", "rtt_mean", 1.5, "ms"},
        {"Ping (ms) UDP EF", "rtt_min", 1, "ms"},
        {"Ping (ms) UDP EF", "rtt_p50", 1.25, "ms"},
        {"Ping (ms) UDP EF", "rtt_p90", NaN, "ms"}, // stored as NULL
        {"Ping (ms) UDP EF", "rtt_p99", 2.5, "ms"},
        {"Ping (ms) UDP EF", "rtt_max", 3, "ms"},
        {"Ping (ms) UDP EF", "rtt_samples", 40, "samples"},
        {"Ping (ms) UDP BK", "rtt_p50", 30, "ms"},
        {"qdisc_stats_host", "dropped", 0, "packets"},
    };
    return run;
}

TEST_F(ResultsDatabaseTest, RunSummaryViewHasOneRowPerRunWithItsHeadlineMetrics)
{
    {
        ResultsDatabase db(m_path);
        ASSERT_EQ(db.Write(LoadedRun()), 1);
        ASSERT_EQ(db.Write(RequestResponseRun()), 2);
    }
    std::vector<std::string> columns;
    const std::vector<Row> rows =
        QueryRows(m_path, "SELECT * FROM run_summary ORDER BY run_id", columns);
    EXPECT_EQ(columns, RUN_SUMMARY_COLUMNS);
    ASSERT_EQ(rows.size(), 2U);
    const Cell null;
    {
        SCOPED_TRACE("loaded run");
        // Drops add up over the two qdisc_stats series: 3 + 4 and 0 + 2; nic_dropped has
        // one series only; the flood's 100 is no qdisc's.
        ExpectCells({{"run_id", int64_t{1}},
                     {"test", std::string("rrul_be")},
                     {"title", std::string("fq_codel BQL")},
                     {"seed", int64_t{1}},
                     {"run", int64_t{4}},
                     {"length", 60.0},
                     {"delay", 5.0},
                     {"ns3_version", std::string("3.37")},
                     {"module_version", std::string("0.1.0")},
                     {"qdisc", std::string("fq_codel")},
                     {"bql", int64_t{1}},
                     {"upload_goodput", 91.25},
                     {"download_goodput", 90.5},
                     {"total_goodput", 181.75},
                     {"upload_fairness", 0.75},
                     {"download_fairness", 0.5},
                     {"ping_series", std::string("Ping (ms) ICMP")},
                     {"ping_mean", 5.5},
                     {"ping_min", 4.25},
                     {"ping_p50", 5.375},
                     {"ping_p90", 6.5},
                     {"ping_p99", 7.75},
                     {"ping_max", 8.0},
                     {"ping_samples", 250.0},
                     {"transactions", null},
                     {"qdisc_dropped", 7.0},
                     {"qdisc_ecn_mark", 2.0},
                     {"nic_dropped", 1.0}},
                    rows[0]);
    }
    {
        SCOPED_TRACE("TCP_RR run");
        ExpectCells({{"run_id", int64_t{2}},
                     {"test", std::string("tcp_rr")},
                     {"title", std::string("size 1 no BQL")},
                     {"seed", int64_t{3}},
                     {"run", int64_t{2}},
                     {"length", 10.0},
                     {"delay", 0.0},
                     {"ns3_version", std::string("3.48")},
                     {"qdisc", null},
                     {"bql", int64_t{0}},
                     {"upload_goodput", null},
                     {"download_goodput", null},
                     {"total_goodput", null},
                     {"upload_fairness", null},
                     {"download_fairness", null},
                     {"ping_series", std::string("Ping (ms) UDP EF")},
                     {"ping_mean", 1.5},
                     {"ping_min", 1.0},
                     {"ping_p50", 1.25},
                     {"ping_p90", null},
                     {"ping_p99", 2.5},
                     {"ping_max", 3.0},
                     {"ping_samples", 40.0},
                     {"transactions", 12345.5},
                     {"qdisc_dropped", 0.0},
                     {"qdisc_ecn_mark", null},
                     {"nic_dropped", null}},
                    rows[1]);
    }
    // A run without metrics still has its row, every metric NULL.
    RunRecord bare;
    bare.test = "ping";
    {
        ResultsDatabase db(m_path);
        ASSERT_EQ(db.Write(bare), 3);
    }
    const std::vector<Row> all =
        QueryRows(m_path, "SELECT * FROM run_summary ORDER BY run_id", columns);
    ASSERT_EQ(all.size(), 3U);
    ExpectCells({{"run_id", int64_t{3}},
                 {"test", std::string("ping")},
                 {"qdisc", null},
                 {"bql", null},
                 {"total_goodput", null},
                 {"ping_series", null},
                 {"ping_p99", null},
                 {"qdisc_dropped", null}},
                all[2]);
}

TEST_F(ResultsDatabaseTest, FileWithoutRunSummaryGetsItWhenOpened)
{
    // A file written before the view existed: the same schema version, no run_summary.
    {
        ResultsDatabase db(m_path);
        db.Write(LoadedRun());
    }
    ASSERT_EQ(ExecFile(m_path, "DROP VIEW run_summary"), "");
    EXPECT_EQ(QueryFile(m_path, "SELECT count(*) FROM sqlite_master WHERE name = 'run_summary'"),
              "0");
    {
        ResultsDatabase db(m_path);
    }
    EXPECT_EQ(QueryFile(m_path, "SELECT total_goodput FROM run_summary"), "181.75");
    // Opening it again leaves the one view as it is.
    {
        ResultsDatabase db(m_path);
    }
    EXPECT_EQ(QueryFile(m_path, "SELECT count(*) FROM sqlite_master WHERE name = 'run_summary'"),
              "1");
}

} // namespace
