/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SUMMARY_STATS_H
#define SUMMARY_STATS_H

#include <cstddef>
#include <limits>
#include <vector>

/**
 * @file
 * @ingroup debloat-measurement
 * The statistics of a run summary, as flent computes them.
 *
 * Every function ignores NaN values (the NO_VALUE of absent samples, like numpy's
 * nan-functions and flent's skipping of None) and returns NaN when no value is left, so an
 * empty input never fails. Infinities count as values.
 *
 * Boost.Accumulators is not used: its percentiles (p_square_quantile, tail_quantile) are
 * estimates, and exact ones need the sorted values anyway, which a few lines do here.
 */

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief The p-th percentile by linear interpolation between the closest ranks.
 *
 * This is numpy.percentile's default method ("linear", type 7 of Hyndman and Fan), which
 * flent's pct99 and median reducers use (np.percentile(data, 99), np.median(data)): with the n
 * values sorted into x[0..n-1], h = (n - 1) * p / 100, and the result is x[floor(h)] plus (h -
 * floor(h)) of the step to the next value, computed in numpy's order of operations (from the upper
 * value when the fraction is at least 0.5), so that both give the same double.
 *
 * @param values the values (NaN ignored)
 * @param p the percentile, in [0, 100]
 * @return the percentile, or NaN when no value is left
 * @throws std::invalid_argument when p is outside [0, 100] or NaN
 */
double Percentile(std::vector<double> values, double p);

/**
 * @ingroup debloat-measurement
 * @brief The arithmetic mean.
 * @param values the values (NaN ignored)
 * @return the mean, or NaN when no value is left
 */
double Mean(const std::vector<double>& values);

/**
 * @ingroup debloat-measurement
 * @brief Jain's fairness index (sum x)^2 / (n * sum x^2), as flent's FairnessRunner.
 *
 * 1 when all shares are equal, 1/n when one of n takes everything.
 *
 * @param x the shares, e.g. the flows' mean goodputs (NaN ignored)
 * @return the index, or NaN when no value is left or all are 0 (flent gives None then)
 */
double JainFairness(const std::vector<double>& x);

/**
 * @ingroup debloat-measurement
 * @brief The summary of a vector of values, NaN ignored.
 *
 * Every field but count is NaN when count is 0.
 */
struct SummaryStats
{
    /// NaN, the value of every field of an empty summary.
    static constexpr double NONE = std::numeric_limits<double>::quiet_NaN();

    std::size_t count{0}; ///< number of values that are not NaN
    double mean{NONE};    ///< mean
    double min{NONE};     ///< smallest value
    double p50{NONE};     ///< median (numpy's linear percentile, as Percentile())
    double p90{NONE};     ///< 90th percentile
    double p99{NONE};     ///< 99th percentile
    double max{NONE};     ///< largest value
};

/**
 * @ingroup debloat-measurement
 * @brief Summarises values (sorting them once).
 * @param values the values (NaN ignored)
 * @return the summary
 */
SummaryStats Summarize(const std::vector<double>& values);

} // namespace debloat
} // namespace ns3

#endif /* SUMMARY_STATS_H */
