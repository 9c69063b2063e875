/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "summary-stats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{
namespace debloat
{

namespace
{

/**
 * Removes the NaN values and sorts the rest in increasing order.
 * @param values the values
 */
void
SortWithoutNan(std::vector<double>& values)
{
    values.erase(
        std::remove_if(values.begin(), values.end(), [](double v) { return std::isnan(v); }),
        values.end());
    std::sort(values.begin(), values.end());
}

/**
 * Checks a percentile argument.
 * @param p the percentile
 */
void
CheckPercentile(double p)
{
    if (!(p >= 0 && p <= 100))
    {
        throw std::invalid_argument("percentile " + std::to_string(p) + " is not in [0, 100]");
    }
}

/**
 * numpy's linear percentile of sorted values (numpy/lib/function_base.py: _quantile with
 * virtual index (n - 1) * q, _get_indexes and _lerp).
 * @param sorted values in increasing order, no NaN, at least one
 * @param p the percentile, in [0, 100]
 * @return the percentile
 */
double
SortedPercentile(const std::vector<double>& sorted, double p)
{
    const std::size_t last = sorted.size() - 1;
    const double index = static_cast<double>(last) * (p / 100);
    if (index >= static_cast<double>(last))
    {
        return sorted[last];
    }
    const double below = std::floor(index);
    const double fraction = index - below;
    const double a = sorted[static_cast<std::size_t>(below)];
    const double b = sorted[static_cast<std::size_t>(below) + 1];
    const double step = b - a;
    return fraction >= 0.5 ? b - step * (1 - fraction) : a + step * fraction;
}

} // namespace

double
Percentile(std::vector<double> values, double p)
{
    CheckPercentile(p);
    SortWithoutNan(values);
    return values.empty() ? SummaryStats::NONE : SortedPercentile(values, p);
}

double
Mean(const std::vector<double>& values)
{
    double sum = 0;
    std::size_t count = 0;
    for (double v : values)
    {
        if (!std::isnan(v))
        {
            sum += v;
            ++count;
        }
    }
    return count == 0 ? SummaryStats::NONE : sum / static_cast<double>(count);
}

double
JainFairness(const std::vector<double>& x)
{
    double sum = 0;
    double sumOfSquares = 0;
    std::size_t count = 0;
    for (double v : x)
    {
        if (!std::isnan(v))
        {
            sum += v;
            sumOfSquares += v * v;
            ++count;
        }
    }
    if (count == 0 || sumOfSquares == 0)
    {
        return SummaryStats::NONE;
    }
    return sum * sum / (static_cast<double>(count) * sumOfSquares);
}

SummaryStats
Summarize(const std::vector<double>& values)
{
    std::vector<double> sorted = values;
    SortWithoutNan(sorted);
    SummaryStats stats;
    stats.count = sorted.size();
    if (sorted.empty())
    {
        return stats;
    }
    stats.mean = Mean(values); // summed in the given order, as Mean() alone
    stats.min = sorted.front();
    stats.p50 = SortedPercentile(sorted, 50);
    stats.p90 = SortedPercentile(sorted, 90);
    stats.p99 = SortedPercentile(sorted, 99);
    stats.max = sorted.back();
    return stats;
}

} // namespace debloat
} // namespace ns3
