/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for FlentWriter: the JSON of a flent data file, the resampling onto the
 * grid and the gzip file. Grid values are worked by hand from the rules of flent 2.1.1's
 * TimeseriesAggregator (flent/aggregators.py), with step 1 s or 0.5 s so that the numbers
 * are exact: for grid point x, `next` is the first sample after x and `prev` the one before;
 *   prev and next, next within 5 steps:  prev.v + (next.v - prev.v) * (x - prev.t) / (next.t -
 * prev.t) no prev (x before the first sample): next.v if next.t - x <= step / 2 no next (x at or
 * after the last):    last.v if within 5 steps, unless the grid value before x is null or already
 * last.v otherwise null. The JSON is parsed back with Boost.PropertyTree, which keeps every value
 * as text.
 */

#include "ns3/flent-writer.h"

// Boost 1.74's property_tree includes the deprecated <boost/bind.hpp>, which asks for this.
#define BOOST_BIND_GLOBAL_PLACEHOLDERS

#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <stdexcept>

namespace
{

using namespace ns3::debloat;
using boost::property_tree::ptree;

/// UNIX time of T0 in the runs below: 2023-11-14T22:13:20.5Z (see FormatTime test).
constexpr double EPOCH = 1700000000.5;

/// @return the child at a '/'-separated path (series names contain spaces and dots)
const ptree&
At(const ptree& tree, const std::string& path)
{
    return tree.get_child(ptree::path_type(path, '/'));
}

/// @return the values of a JSON array, as text
std::vector<std::string>
Array(const ptree& tree, const std::string& path)
{
    std::vector<std::string> values;
    for (const auto& item : At(tree, path))
    {
        values.push_back(item.second.data());
    }
    return values;
}

/// @return the JSON document parsed
ptree
Parse(const std::string& json)
{
    std::istringstream in(json);
    ptree tree;
    boost::property_tree::read_json(in, tree);
    return tree;
}

/// A ping run: LENGTH 2 s = TOTAL_LENGTH, STEP_SIZE 0.5 s, one ICMP and one irtt series.
RunRecord
PingRun()
{
    RunRecord run;
    run.test = "ping";
    run.title = "t";
    run.localHost = "client";
    run.hosts = {"server"};
    run.length = 2;
    run.totalLength = 2;
    run.stepSize = 0.5;
    run.delay = 5;
    run.epoch = EPOCH;
    run.ns3Version = "3.37";
    run.moduleVersion = "0.1";
    run.seed = 3;
    run.run = 7;
    run.config = {{"RingSize", int64_t{256}}, {"Qdisc", std::string("cake")}};

    Series icmp{"Ping (ms) ICMP", "PingRunner", "ms", {"val", "seq"}, {}, {}};
    icmp.samples = {{0.25, {10, 1}}, {0.75, {20, 2}}, {1.25, {30, 3}}};
    icmp.meta["MEAN_VALUE"] = 20.0;
    Series udp{"Ping (ms) UDP",
               "IrttRunner",
               "ms",
               {"val", "seq", "owd_up", "owd_down", "ipdv", "lost"},
               {},
               {}};
    udp.samples = {{0.25, {12, 0, 5, 7, NO_VALUE, 0}},
                   {0.5, {NO_VALUE, 1, NO_VALUE, NO_VALUE, NO_VALUE, 1}},
                   {0.75, {14, 2, 6, 8, 2, 0}}};
    udp.meta["PACKET_LOSS_RATE"] = 1.0 / 3;
    udp.meta["IDX"] = int64_t{9};
    run.series = {icmp, udp};
    return run;
}

/// @return the text of a file, through the gzip decompressor when gzip is true
std::string
ReadBack(const std::string& path, bool gzip)
{
    std::ifstream file(path, std::ios::binary);
    boost::iostreams::filtering_istream in;
    if (gzip)
    {
        in.push(boost::iostreams::gzip_decompressor());
    }
    in.push(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(FlentWriterTest, FormatTimeIsUtcWithMicroseconds)
{
    // 1700000000 s = 19675 days + 80000 s. 19675 days after 1970-01-01: 2023-01-01 is day
    // 53 * 365 + 13 leap days = 19358, and 317 days later is 2023-11-14 (day 318 of 2023:
    // 304 days to the end of October, + 14). 80000 s = 22 h 13 min 20 s.
    EXPECT_EQ(FlentWriter::FormatTime(1700000000.5), "2023-11-14T22:13:20.500000Z");
    EXPECT_EQ(FlentWriter::FormatTime(0), "1970-01-01T00:00:00.000000Z");
    EXPECT_EQ(FlentWriter::FormatTime(86400.25), "1970-01-02T00:00:00.250000Z");
    // 1.9999996 s rounds up to the next whole second, carrying into the seconds field.
    EXPECT_EQ(FlentWriter::FormatTime(1.9999996), "1970-01-01T00:00:02.000000Z");
}

TEST(FlentWriterTest, ResampleInterpolatesLikeFlent)
{
    // step 1 s, points (0.25, 10), (1.5, 20), (2.5, 40):
    // x=0: no prev; 0.25 - 0 <= 0.5               -> 10
    // x=1: prev (0.25, 10), next (1.5, 20)         -> 10 + 10 * 0.75 / 1.25 = 16
    // x=2: prev (1.5, 20), next (2.5, 40)          -> 20 + 20 * 0.5 / 1 = 30
    // x=3: no next; 0.5 after the last, before: 30 -> 40
    // x=4: no next; the value before is already 40 -> null
    // x=5: no next; the value before is null      -> null
    const auto grid = FlentWriter::Resample({{0.25, 10}, {1.5, 20}, {2.5, 40}}, 1, 6);
    ASSERT_EQ(grid.size(), 6U);
    EXPECT_DOUBLE_EQ(grid[0], 10);
    EXPECT_DOUBLE_EQ(grid[1], 16);
    EXPECT_DOUBLE_EQ(grid[2], 30);
    EXPECT_DOUBLE_EQ(grid[3], 40);
    EXPECT_TRUE(std::isnan(grid[4]));
    EXPECT_TRUE(std::isnan(grid[5]));
}

TEST(FlentWriterTest, ResampleLeavesGapsNull)
{
    // Points (0, 1) and (10, 2), step 1: for x = 0..4 the next point (10) is more than 5
    // steps away -> null, even at x = 0 where a sample lies exactly (it is prev, not next).
    // x=5: 10 - 5 = 5 steps -> 1 + 1 * 5 / 10 = 1.5; x=6: 1 + 6 / 10 = 1.6.
    const auto grid = FlentWriter::Resample({{0, 1}, {10, 2}}, 1, 7);
    ASSERT_EQ(grid.size(), 7U);
    for (size_t k = 0; k < 5; ++k)
    {
        EXPECT_TRUE(std::isnan(grid[k])) << "x=" << k;
    }
    EXPECT_DOUBLE_EQ(grid[5], 1.5);
    EXPECT_DOUBLE_EQ(grid[6], 1.6);
}

TEST(FlentWriterTest, ResampleDropsALoneOrDistantFirstSample)
{
    // One point (2.75, 7), step 1: x = 0, 1, 2 are before it and more than half a step
    // away -> null; x = 3 is after it, but the value before is null -> null.
    for (double value : FlentWriter::Resample({{2.75, 7}}, 1, 4))
    {
        EXPECT_TRUE(std::isnan(value));
    }
    for (double value : FlentWriter::Resample({}, 1, 3))
    {
        EXPECT_TRUE(std::isnan(value));
    }
}

TEST(FlentWriterTest, JsonHasFlentsStructure)
{
    const RunRecord run = PingRun();
    const std::string json = FlentWriter::ToJson(run, "ping.flent.gz");
    const ptree doc = Parse(json);

    EXPECT_EQ(doc.get<int>("version"), 4);
    const ptree& meta = At(doc, "metadata");
    EXPECT_EQ(meta.get<std::string>("NAME"), "ping");
    EXPECT_EQ(meta.get<std::string>("TITLE"), "t");
    EXPECT_EQ(meta.get<std::string>("TIME"), "2023-11-14T22:13:20.500000Z");
    EXPECT_EQ(meta.get<std::string>("T0"), "2023-11-14T22:13:20.500000Z");
    EXPECT_EQ(meta.get<std::string>("HOST"), "server");
    EXPECT_EQ(Array(meta, "HOSTS"), std::vector<std::string>{"server"});
    EXPECT_EQ(meta.get<std::string>("LOCAL_HOST"), "client");
    EXPECT_EQ(meta.get<double>("STEP_SIZE"), 0.5);
    EXPECT_EQ(meta.get<double>("TOTAL_LENGTH"), 2);
    EXPECT_EQ(meta.get<std::string>("FLENT_VERSION"), "2.1.1");
    EXPECT_EQ(meta.get<std::string>("DATA_FILENAME"), "ping.flent.gz");
    EXPECT_EQ(meta.get<std::string>("NS3_VERSION"), "3.37");
    EXPECT_EQ(meta.get<std::string>("DEBLOAT_VERSION"), "0.1");
    EXPECT_EQ(meta.get<std::string>("NS3_CONFIG.Qdisc"), "cake");
    EXPECT_TRUE(At(meta, "TEST_PARAMETERS").empty());
    // Integers stay integers: flent prints LENGTH with %d.
    for (const char* member : {"\"LENGTH\":2,",
                               "\"IP_VERSION\":4,",
                               "\"FAILED_RUNNERS\":0,",
                               "\"NOTE\":null,",
                               "\"DELAY\":5,",
                               "\"NS3_SEED\":3,",
                               "\"NS3_RUN\":7,",
                               "\"RingSize\":256",
                               "\"TEST_PARAMETERS\":{}"})
    {
        EXPECT_NE(json.find(member), std::string::npos) << member;
    }

    // TOTAL_LENGTH / STEP_SIZE = 4 grid points at k * 0.5.
    EXPECT_EQ(Array(doc, "x_values"), (std::vector<std::string>{"0", "0.5", "1", "1.5"}));
    // ICMP at (0.25, 10), (0.75, 20), (1.25, 30): x=0 -> 10 (first point half a step away),
    // x=0.5 -> 10 + 10 * 0.25 / 0.5 = 15, x=1 -> 25, x=1.5 -> last value 30.
    EXPECT_EQ(Array(doc, "results/Ping (ms) ICMP"),
              (std::vector<std::string>{"10", "15", "25", "30"}));
    // irtt: the lost probe has no val, so the grid uses (0.25, 12) and (0.75, 14):
    // x=0 -> 12, x=0.5 -> 13, x=1 -> last 14, x=1.5 -> repeat of 14 -> null.
    EXPECT_EQ(Array(doc, "results/Ping (ms) UDP"),
              (std::vector<std::string>{"12", "13", "14", "null"}));

    // Raw samples carry absolute times; NO_VALUE keys and "lost": 0 are left out.
    EXPECT_NE(json.find("{\"t\":1700000000.75,\"val\":10,\"seq\":1}"), std::string::npos);
    EXPECT_NE(json.find("{\"t\":1700000000.75,\"val\":12,\"seq\":0,\"owd_up\":5,"
                        "\"owd_down\":7}"),
              std::string::npos);
    EXPECT_NE(json.find("{\"t\":1700000001,\"seq\":1,\"lost\":true,\"lost_dir\":null}"),
              std::string::npos);
    EXPECT_EQ(At(doc, "raw_values/Ping (ms) UDP").size(), 3U);
}

TEST(FlentWriterTest, NoteAndExtraMetadataAreWrittenAsGiven)
{
    // -n sets NOTE; BATCH_* and EGRESS_INFO arrive as JSON text and land under their keys.
    RunRecord run = PingRun();
    run.note = "rig \"A\"";
    run.extraMetadata = {{"BATCH_UUID", "\"u-1\""}, {"EGRESS_INFO", "{\"iface\":\"eth0\"}"}};
    const ptree meta = At(Parse(FlentWriter::ToJson(run)), "metadata");
    EXPECT_EQ(meta.get<std::string>("NOTE"), "rig \"A\"");
    EXPECT_EQ(meta.get<std::string>("BATCH_UUID"), "u-1");
    EXPECT_EQ(meta.get<std::string>("EGRESS_INFO.iface"), "eth0");
    // A key the writer sets itself cannot be replaced.
    run.extraMetadata = {{"NAME", "\"x\""}};
    EXPECT_THROW(FlentWriter::ToJson(run), std::invalid_argument);
    EXPECT_EQ(FlentWriter::Quote("a\"b"), "\"a\\\"b\"");
}

TEST(FlentWriterTest, VoipResultsAreIrttsMultiResults)
{
    // voip: LENGTH = TOTAL_LENGTH 2 s, STEP_SIZE 0.5 s; probes every 0.2 s here. IrttRunner
    // with multi_results takes the first reply at or after each sample time, the next a
    // STEP_SIZE after it: replies at 0.1 (first), 0.7 (0.1 + 0.5 = 0.6 passed by 0.7), 1.3
    // (0.7 + 0.5 = 1.2); those at 0.3, 0.5, 0.9 and 1.1 are skipped. The probe lost at 0.5
    // (sent time) counts in the point at 0.7: loss 1, then 0. Jitter is |ipdv_up|, 0 for the
    // first reply, which has none.
    RunRecord run = PingRun();
    run.test = "voip";
    Series voip{"VoIP",
                "IrttRunner",
                "ms",
                {"val", "seq", "owd_up", "owd_down", "ipdv_up", "ipdv_down", "ipdv", "lost"},
                {},
                {}};
    const double n = NO_VALUE;
    voip.samples = {{0.1, {10, 0, 4, 6, n, n, n, n}},
                    {0.3, {11, 1, 5, 6, 1, 0, 1, n}},
                    {0.5, {n, 2, n, n, n, n, n, 1}},
                    {0.7, {12, 3, 6, 6, -2, 0, -2, n}},
                    {0.9, {13, 4, 7, 6, 1, 0, 1, n}},
                    {1.1, {14, 5, 8, 6, 1, 0, 1, n}},
                    {1.3, {15, 6, 9, 6, 3, 0, 3, n}}};
    run.series = {voip};
    const ptree doc = Parse(FlentWriter::ToJson(run));
    const ptree& results = At(doc, "results");
    EXPECT_EQ(results.count("VoIP"), 0U) << "flent's file has only the ::results";
    // Resampled onto x = 0, 0.5, 1, 1.5 from the points (0.1, 0.7, 1.3): x = 0 lies within
    // half a step of 0.1; 0.5 and 1 interpolate; 1.5 takes the last point.
    auto grid = [&results](const std::string& name) {
        std::vector<double> values;
        for (const auto& item : At(results, name))
        {
            values.push_back(item.second.get_value<double>());
        }
        return values;
    };
    const std::vector<double> delay = grid("VoIP::delay");
    ASSERT_EQ(delay.size(), 4U);
    EXPECT_DOUBLE_EQ(delay[0], 4);
    EXPECT_DOUBLE_EQ(delay[1], 4 + (6 - 4) * (0.5 - 0.1) / 0.6);
    EXPECT_DOUBLE_EQ(delay[2], 6 + (9 - 6) * (1.0 - 0.7) / 0.6);
    const std::vector<double> jitter = grid("VoIP::jitter");
    EXPECT_DOUBLE_EQ(jitter[0], 0);
    EXPECT_DOUBLE_EQ(jitter[2], 2 + (3 - 2) * (1.0 - 0.7) / 0.6);
    const std::vector<double> loss = grid("VoIP::loss");
    EXPECT_DOUBLE_EQ(loss[1], 0 + (1 - 0) * (0.5 - 0.1) / 0.6);
    EXPECT_DOUBLE_EQ(grid("VoIP::rtt")[0], 10);
    // The NullRunner series voip.inc declares, with no raw values.
    const ptree& meta = At(doc, "metadata/SERIES_META");
    for (const char* name : {"VoIP::bitrate", "VoIP::delay", "VoIP::jitter", "VoIP::loss"})
    {
        EXPECT_EQ(At(meta, std::string(name) + "/RUNNER").data(), "NullRunner") << name;
        EXPECT_TRUE(At(At(doc, "raw_values"), name).empty()) << name;
    }
}

TEST(FlentWriterTest, DataFilenameIsFlents)
{
    // resultset.py _gen_filename(): NAME-TIME.TITLE.flent.gz, TIME without ':', the title's
    // characters outside [A-Za-z0-9-] made '_'. 1767225600 is 2026-01-01T00:00:00Z.
    EXPECT_EQ(FlentWriter::DataFilename("rrul_be", 1767225600, "cake 50Mbit/s"),
              "rrul_be-2026-01-01T000000.000000.cake_50Mbit_s.flent.gz");
    EXPECT_EQ(FlentWriter::DataFilename("ping", 1767225600.25, ""),
              "ping-2026-01-01T000000.250000.flent.gz");
    // MAX_FILENAME_LEN 250: "ping-2026-01-01T000000.000000." + ".flent.gz" is 39 characters,
    // so 211 of a 300-character title remain.
    const std::string name = FlentWriter::DataFilename("ping", 1767225600, std::string(300, 'a'));
    EXPECT_EQ(name.size(), 250U);
    // A batch's repetition: batch-NAME-TIME-REP-TITLE, the repetition two digits wide.
    EXPECT_EQ(FlentWriter::BatchFilename("rrul_be", 1767225600, 2, "bql 8000"),
              "batch-rrul_be-2026-01-01T000000.000000-02-bql_8000.flent.gz");
    EXPECT_EQ(FlentWriter::BatchFilename("ping", 1767225600, 11, ""),
              "batch-ping-2026-01-01T000000.000000-11-ping.flent.gz");
}

TEST(FlentWriterTest, SeriesMetaAddsRunnerUnitsIdxButNoMean)
{
    const ptree doc = Parse(FlentWriter::ToJson(PingRun()));
    const ptree& icmp = At(doc, "metadata/SERIES_META/Ping (ms) ICMP");
    EXPECT_EQ(icmp.get<std::string>("RUNNER"), "PingRunner");
    EXPECT_EQ(icmp.get<std::string>("UNITS"), "ms");
    EXPECT_EQ(icmp.get<int>("IDX"), 0); // its position in run.series
    EXPECT_EQ(icmp.get<double>("MEAN_VALUE"), 20);
    const ptree& udp = At(doc, "metadata/SERIES_META/Ping (ms) UDP");
    EXPECT_EQ(udp.get<int>("IDX"), 9);      // given in the meta, so kept
    EXPECT_EQ(udp.count("MEAN_VALUE"), 0U); // none given, none invented
    // 1/3 in shortest round-trip form: 17 significant digits are needed.
    EXPECT_EQ(udp.get<std::string>("PACKET_LOSS_RATE"), "0.3333333333333333");
    // Without a file name DATA_FILENAME is null, and flent makes one up.
    EXPECT_EQ(At(doc, "metadata").get<std::string>("DATA_FILENAME"), "null");
}

TEST(FlentWriterTest, StringsAreEscapedAndNumbersNeverNan)
{
    RunRecord run = PingRun();
    run.title = "a \"b\" c\\d\ne\tf\x01g";
    run.testParameters["note"] = "x\"y";
    run.series[0].meta["MIN_VALUE"] = NO_VALUE;
    run.series[0].meta["MAX_VALUE"] = INFINITY;
    run.series[0].samples[1].values[0] = 0.1;
    const std::string json = FlentWriter::ToJson(run);
    EXPECT_NE(json.find("\"TITLE\":\"a \\\"b\\\" c\\\\d\\ne\\tf\\u0001g\""), std::string::npos);
    EXPECT_NE(json.find("\"note\":\"x\\\"y\""), std::string::npos);
    EXPECT_NE(json.find("\"MIN_VALUE\":null"), std::string::npos);
    EXPECT_NE(json.find("\"MAX_VALUE\":null"), std::string::npos);
    EXPECT_NE(json.find("\"val\":0.1,"), std::string::npos);
    for (const char* bad : {"nan", "NaN", "inf", "Infinity"})
    {
        EXPECT_EQ(json.find(bad), std::string::npos) << bad;
    }
    const ptree doc = Parse(json);
    EXPECT_EQ(At(doc, "metadata").get<std::string>("TITLE"), run.title);
}

TEST(FlentWriterTest, InvalidUtf8BecomesReplacementCharacters)
{
    // JSON text is UTF-8 and flent reads the file as UTF-8: valid sequences (2, 3 and 4
    // bytes) pass through, and each byte that starts no valid sequence (a lone continuation
    // byte, a Latin-1 0xE9, an overlong 0xC0 0xAF, a surrogate 0xED 0xA0 0x80, a cut-off
    // 0xE2 0x82) becomes \ufffd (found by test/fuzz/fuzz-flent-writer.cc).
    RunRecord run = PingRun();
    run.title = "\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";
    run.localHost = "a\x80"
                    "b\xe9"
                    "c\xc0\xaf"
                    "d\xed\xa0\x80"
                    "e\xe2\x82";
    const std::string json = FlentWriter::ToJson(run);
    EXPECT_NE(json.find("\"TITLE\":\"\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\""), std::string::npos);
    EXPECT_NE(json.find("\"LOCAL_HOST\":\"a\\ufffdb\\ufffdc\\ufffd\\ufffdd\\ufffd\\ufffd\\ufffde"
                        "\\ufffd\\ufffd\""),
              std::string::npos);
}

TEST(FlentWriterTest, GridIsKTimesStep)
{
    // STEP_SIZE 0.2 and TOTAL_LENGTH 1: round(1 / 0.2) = 5 points. 3 * 0.2 is the double
    // 0.60000000000000008882 (not the double nearest 0.6), whose shortest round-trip form is
    // 0.6000000000000001, as in flent's own files.
    RunRecord run = PingRun();
    run.stepSize = 0.2;
    run.totalLength = 1;
    EXPECT_NE(FlentWriter::ToJson(run).find("\"x_values\":[0,0.2,0.4,0.6000000000000001,0.8]"),
              std::string::npos);
}

TEST(FlentWriterTest, TcRunnerGridsOnlyWhenDeclared)
{
    RunRecord run = PingRun();
    // A device without BQL: bql_limit is NO_VALUE in every sample.
    Series tc{"qdisc_stats_router",
              "TcRunner",
              "misc",
              {"backlog_bytes", "dropped", "bql_limit", "delay"},
              {},
              {}};
    // delay is absent at t=1 (the qdisc dequeued nothing in that interval).
    tc.samples = {{0, {100, 0, NO_VALUE, 1.5}},
                  {0.5, {300, 1, NO_VALUE, 2.5}},
                  {1, {200, 0, NO_VALUE, NO_VALUE}},
                  {1.5, {0, 0, NO_VALUE, 0.5}}};
    run.series.push_back(tc);

    // Undeclared: flent's test has no qdisc_stats_router, so only the raw samples go in.
    ptree doc = Parse(FlentWriter::ToJson(run));
    EXPECT_EQ(At(doc, "raw_values/qdisc_stats_router").size(), 4U);
    EXPECT_EQ(At(doc, "results").count("qdisc_stats_router"), 0U);
    EXPECT_EQ(At(doc, "results").count("qdisc_stats_router::backlog_bytes"), 0U);

    // Declared as qdisc_stats.inc reads it: one grid per key, as flent's aggregator stores
    // the tc runner's results. Samples sit on the grid points, so
    // x=0..1 take their values; x=1.5 is the last sample: 0 differs from the 200 before it.
    run.testParameters = {{"qdisc_stats_hosts", "router"}, {"qdisc_stats_interfaces", "eth0"}};
    doc = Parse(FlentWriter::ToJson(run));
    // The bare name carries the queue delay (our addition to flent's layout), also as the
    // raw samples' val: x=1 interpolates between 2.5 at 0.5 and 0.5 at 1.5, giving 1.5;
    // x=1.5 is the last sample, 0.5, which differs from the 1.5 before it.
    EXPECT_EQ(Array(doc, "results/qdisc_stats_router"),
              (std::vector<std::string>{"1.5", "2.5", "1.5", "0.5"}));
    EXPECT_EQ(At(doc, "raw_values/qdisc_stats_router").front().second.get<std::string>("val"),
              "1.5");
    EXPECT_EQ(Array(doc, "results/qdisc_stats_router::backlog_bytes"),
              (std::vector<std::string>{"100", "300", "200", "0"}));
    // dropped: x=1.5 is the last sample, 0, and the value before it is already 0 -> null.
    EXPECT_EQ(Array(doc, "results/qdisc_stats_router::dropped"),
              (std::vector<std::string>{"0", "1", "0", "null"}));
    // flent's tc runner has a result only for keys it saw: no all-null bql_limit grid.
    EXPECT_EQ(At(doc, "results").count("qdisc_stats_router::bql_limit"), 0U);

    // A host without a matching interface is not declared (flent zips the two lists).
    run.testParameters = {{"qdisc_stats_hosts", "wan,router"}, {"qdisc_stats_interfaces", "eth1"}};
    doc = Parse(FlentWriter::ToJson(run));
    EXPECT_EQ(At(doc, "results").count("qdisc_stats_router::dropped"), 0U);
}

TEST(FlentWriterTest, InvalidRunsThrow)
{
    const RunRecord good = PingRun();
    auto expectInvalid = [](const RunRecord& run, const std::string& word) {
        try
        {
            FlentWriter::ToJson(run);
            ADD_FAILURE() << "no exception; expected one naming " << word;
        }
        catch (const std::invalid_argument& e)
        {
            EXPECT_NE(std::string(e.what()).find(word), std::string::npos) << e.what();
        }
    };
    RunRecord run = good;
    run.series.clear();
    expectInvalid(run, "no series");
    run = good;
    run.length = 2.5;
    expectInvalid(run, "LENGTH");
    run = good;
    run.stepSize = 0;
    expectInvalid(run, "STEP_SIZE");
    run = good;
    run.hosts.clear();
    expectInvalid(run, "HOSTS");
    run = good;
    run.test.clear();
    expectInvalid(run, "NAME");
    run = good;
    run.series[0].samples[1].values.pop_back();
    expectInvalid(run, "Ping (ms) ICMP");
    run = good;
    std::swap(run.series[0].samples[0], run.series[0].samples[2]);
    expectInvalid(run, "increasing");
    run = good;
    run.series[1].name = run.series[0].name;
    expectInvalid(run, "twice");
}

TEST(FlentWriterTest, WriteGzipAndPlainFiles)
{
    const RunRecord run = PingRun();
    const std::string gz = ::testing::TempDir() + "flent-writer-test.flent.gz";
    FlentWriter::Write(run, gz);
    // The file decompresses to the JSON, with DATA_FILENAME the file's base name.
    EXPECT_EQ(ReadBack(gz, true), FlentWriter::ToJson(run, "flent-writer-test.flent.gz"));

    const std::string plain = ::testing::TempDir() + "flent-writer-test.json";
    FlentWriter::Write(run, plain);
    EXPECT_EQ(ReadBack(plain, false), FlentWriter::ToJson(run, "flent-writer-test.json"));

    EXPECT_THROW(FlentWriter::Write(run, "/nonexistent-dir/x.flent.gz"), std::runtime_error);
}

} // namespace
