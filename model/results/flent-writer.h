/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Writes the data-file format (version 4) of flent 2.1.1: flent/resultset.py for the file,
 * flent/aggregators.py (TimeseriesAggregator) for the resampling onto the grid.
 */

#ifndef FLENT_WRITER_H
#define FLENT_WRITER_H

#include "run-record.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup debloat-measurement
 * The flent data-file writer.
 */

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief Writes a RunRecord as a flent data file that flent 2.1.1 loads and plots.
 *
 * The file holds what a real flent run stores (flent/resultset.py, flent/runners.py):
 * - `version` 4;
 * - `metadata`: NAME, TITLE, TIME and T0 (both run.epoch), LENGTH (an integer),
 *   TOTAL_LENGTH, STEP_SIZE, HOST, HOSTS, LOCAL_HOST, TEST_PARAMETERS, SERIES_META, and
 *   FLENT_VERSION "2.1.1", IP_VERSION 4, DATA_FILENAME, NOTE null, FAILED_RUNNERS 0. Added
 *   for the simulator: DELAY (flent does not store it, but loading copies every metadata key
 *   into its settings, so flent's TOTAL_LENGTH and plot cutoffs then use the simulated
 *   delay), NS3_VERSION, DEBLOAT_VERSION, NS3_SEED, NS3_RUN and NS3_CONFIG (run.config);
 * - `x_values`: k * STEP_SIZE for k < round(TOTAL_LENGTH / STEP_SIZE);
 * - `results`: each series' `val` resampled onto that grid by Resample(), null where flent
 *   would have no value;
 * - `raw_values`: every sample as `{"t": epoch + t, key: value, ...}`; NO_VALUE keys are
 *   left out, and a nonzero irtt `lost` is written as `"lost": true, "lost_dir": null`.
 *
 * SERIES_META of a series is its meta map plus RUNNER, UNITS and IDX (its position in
 * run.series) unless the map already has them. MEAN_VALUE is never invented: `flent -f
 * summary` and `-f stats` print it as the series' mean, so the caller must put the right one
 * into the meta (for a TCP flow, its average while it was active, as netperf's THROUGHPUT).
 *
 * Computed series (avg, sum, totals, fairness) are not written: flent computes every missing
 * one when it loads the file, with their SERIES_META and a MEAN_VALUE computed from the
 * members' MEAN_VALUEs.
 *
 * Strings are written as JSON strings of UTF-8 text (RFC 8259), as flent reads the file: a
 * byte that does not start a valid UTF-8 sequence becomes U+FFFD (a string that is valid
 * UTF-8 is written unchanged, with '"', '\\' and control characters escaped).
 *
 * A TcRunner series ("qdisc_stats_<host>") goes into raw_values. Like flent's aggregator,
 * which stores one result per numeric key of the tc runner, it also gets one results grid per
 * key that some sample carries, "qdisc_stats_<host>::<key>", but only when TEST_PARAMETERS
 * declares the host (qdisc_stats_hosts with a matching qdisc_stats_interfaces entry, as
 * flent's qdisc_stats.inc reads them): otherwise flent's test definition has no such series
 * and the grids would be orphans, while the raw samples stay in the file for other readers.
 *
 * A CpuStatsRunner series ("cpu_stats_<host>", flent's cpu_stats.inc) goes into raw_values
 * with all its keys (`load` and the CpuSampler's per-class and per-core fractions). flent's
 * CpuStatsRunner parses the load alone, so the series gets one results grid,
 * "cpu_stats_<host>::load", when TEST_PARAMETERS' cpu_stats_hosts declares the host (for the
 * same reason as above). flent's cpu, cpu_box and cpu_bar plots read the raw `load`.
 * Deviation from flent, as for the qdisc stats' delay: the series itself also gets that grid,
 * "cpu_stats_<host>", and each raw sample's load is also written as its `val`, so that
 * readers expecting every declared series in results, with a `val` in its raw samples, find
 * them.
 */
class FlentWriter
{
  public:
    /**
     * @brief Writes the run as a flent data file.
     * @param run the run
     * @param path the file; gzip-compressed when it ends in ".gz" (use ".flent.gz", flent
     * picks the decompressor from the suffix), plain JSON otherwise
     * @throws std::invalid_argument when the run cannot make a valid file (see ToJson())
     * @throws std::runtime_error when the file cannot be written
     */
    static void Write(const RunRecord& run, const std::string& path);

    /**
     * @brief The flent data file of a run, as JSON text.
     * @param run the run
     * @param dataFilename metadata DATA_FILENAME; empty writes null, and flent then makes up
     * a name
     * @return the JSON document
     * @throws std::invalid_argument naming the field when the test name, HOSTS or a series
     * name is empty, LENGTH is not a whole number >= 1, STEP_SIZE or TOTAL_LENGTH is not a
     * positive number, there is no series (flent shows nothing for an empty raw_values),
     * two series share a name, a sample's value count differs from its series' key count,
     * or a series' sample times are not finite and increasing
     */
    static std::string ToJson(const RunRecord& run, const std::string& dataFilename = "");

    /**
     * @brief Resamples a series onto the grid x_k = k * step, k < count, as flent's
     * TimeseriesAggregator::aggregate() does for a real run.
     *
     * For each x, with `next` the first point after x and `prev` the one before it:
     * - when `next` exists and lies within 5 * step of x, and `prev` exists: the linear
     *   interpolation between them, prev.v + (next.v - prev.v) * (x - prev.t) /
     *   (next.t - prev.t);
     * - when there is no `prev` (x is before the first point): the first point's value if it
     *   lies within step / 2 of x;
     * - when there is no `next` (x is at or after the last point): the last point's value if
     *   it lies within 5 * step of x, unless the previous grid value is missing or already
     *   equals it (flent's guard against repeating the last value);
     * - otherwise NO_VALUE.
     *
     * @param points the (t, value) points in increasing t, t in seconds since T0
     * @param step the grid step in seconds
     * @param count the number of grid points
     * @return count values, NO_VALUE where flent writes null
     */
    static std::vector<double> Resample(const std::vector<std::pair<double, double>>& points,
                                        double step,
                                        std::size_t count);

    /**
     * @brief A UNIX time the way flent stores TIME and T0: UTC,
     * `%Y-%m-%dT%H:%M:%S.%fZ` with six fraction digits (rounded to the microsecond).
     * @param epoch UNIX seconds
     * @return e.g. "2023-11-14T22:13:20.500000Z" for 1700000000.5
     */
    static std::string FormatTime(double epoch);

    /**
     * @brief The name flent gives a data file (ResultSet._gen_filename() in resultset.py):
     * `NAME-TIME.TITLE.flent.gz`, TIME as FormatTime() without its colons and Z (flent formats
     * it in local time; this in UTC), TITLE with every character but A-Z, a-z, 0-9 and '-'
     * made '_' and cut to keep the name within 250 characters; `NAME-TIME.flent.gz` without a
     * title.
     * @param test the flent test (NAME)
     * @param epoch UNIX seconds of TIME
     * @param title TITLE (may be empty)
     * @return e.g. "rrul_be-2026-01-01T000000.000000.cake_50Mbit.flent.gz"
     */
    static std::string DataFilename(const std::string& test,
                                    double epoch,
                                    const std::string& title);

    /**
     * @brief The name of one repetition's data file in a batch, as flent's batch.py
     * gen_filename() makes them: `batch-NAME-TIME-EXTRA.flent.gz`, TIME as in DataFilename(),
     * EXTRA the repetition (two digits) then the title (or the test) cleaned as there. The
     * repetition comes first because flent's combine plots group files by their names with
     * the first standalone number removed: that must be the repetition, not a number in a
     * title such as "bql 8000".
     * @param test the flent test (BATCH_NAME)
     * @param epoch UNIX seconds of BATCH_TIME
     * @param repetition the repetition, from 1
     * @param title TITLE (may be empty)
     * @return e.g. "batch-rrul_be-2026-01-01T000000.000000-02-cake.flent.gz"
     */
    static std::string BatchFilename(const std::string& test,
                                     double epoch,
                                     uint32_t repetition,
                                     const std::string& title);

    /**
     * @brief Text as a JSON string, quoted and escaped as the file's own strings are.
     * @param text the text
     * @return the JSON string, e.g. "\"a\\\"b\"" for a"b
     */
    static std::string Quote(const std::string& text);
};

} // namespace debloat
} // namespace ns3

#endif /* FLENT_WRITER_H */
