/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases of the run-summary statistics. Percentiles follow numpy's default
 * ("linear") method, derived by hand in each test:
 *   sort the n values into x[0..n-1];  h = (n - 1) * p / 100;  i = floor(h);  f = h - i
 *   result = x[n-1]                          if h >= n - 1
 *          = x[i] + (x[i+1] - x[i]) * f      if f < 0.5
 *          = x[i+1] - (x[i+1] - x[i]) * (1 - f)  otherwise
 * Jain's index is (sum x)^2 / (n * sum x^2).
 */

#include "ns3/summary-stats.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <stdexcept>

namespace
{

using ns3::debloat::JainFairness;
using ns3::debloat::Mean;
using ns3::debloat::Percentile;
using ns3::debloat::Summarize;
using ns3::debloat::SummaryStats;

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

/// 1..10 out of order, so that a missing sort shows.
const std::vector<double> ONE_TO_TEN{7, 1, 10, 3, 5, 2, 9, 4, 8, 6};

TEST(SummaryStatsTest, PercentilesOfOneToTen)
{
    // n = 10, so h = 9 * p / 100 and x[i] = i + 1.
    // p = 0: h = 0 -> x[0] = 1.  p = 100: h = 9 = n - 1 -> x[9] = 10.
    EXPECT_EQ(Percentile(ONE_TO_TEN, 0), 1.0);
    EXPECT_EQ(Percentile(ONE_TO_TEN, 100), 10.0);
    // p = 50: h = 4.5, f = 0.5 -> x[5] - (6 - 5) * 0.5 = 5.5 (exact).
    EXPECT_EQ(Percentile(ONE_TO_TEN, 50), 5.5);
    // p = 25: h = 2.25, f = 0.25 -> x[2] + (4 - 3) * 0.25 = 3.25 (exact).
    EXPECT_EQ(Percentile(ONE_TO_TEN, 25), 3.25);
    // p = 90: h = 8.1, f = 0.1 -> x[8] + (10 - 9) * 0.1 = 9.1.
    EXPECT_DOUBLE_EQ(Percentile(ONE_TO_TEN, 90), 9.1);
    // p = 99: h = 8.91, f = 0.91 -> x[9] - (10 - 9) * 0.09 = 9.91.
    EXPECT_DOUBLE_EQ(Percentile(ONE_TO_TEN, 99), 9.91);
}

TEST(SummaryStatsTest, PercentileOfOneToHundred)
{
    // n = 100, p = 99: h = 99 * 0.99 = 98.01, x[98] = 99, x[99] = 100 -> 99 + 0.01 = 99.01.
    std::vector<double> values;
    for (int i = 100; i >= 1; --i)
    {
        values.push_back(i);
    }
    EXPECT_NEAR(Percentile(values, 99), 99.01, 1e-12);
}

TEST(SummaryStatsTest, PercentileInterpolatesInNumpysOrder)
{
    // x = {-1, 2^53}: x[1] - x[0] = 2^53 + 1 rounds (to even) to 2^53 = 9007199254740992.
    // p = 75: h = 0.75, f >= 0.5, so from the upper value: 2^53 - 2^53 * 0.25 = 2^53 - 2^51
    // = 6755399441055744 (from the lower value it would be -1 + 0.75 * 2^53, one less).
    const double twoTo53 = 9007199254740992.0;
    EXPECT_EQ(Percentile({twoTo53, -1}, 75), 6755399441055744.0);
    // p = 25: h = 0.25, f < 0.5, so from the lower value: -1 + 2^53 * 0.25 = 2^51 - 1
    // = 2251799813685247 (from the upper value it would be 2^51, one more).
    EXPECT_EQ(Percentile({twoTo53, -1}, 25), 2251799813685247.0);
}

TEST(SummaryStatsTest, PercentileOfOneValueIsThatValue)
{
    // n = 1: h = 0 for every p, and h >= n - 1 = 0 -> x[0].
    EXPECT_EQ(Percentile({4.2}, 0), 4.2);
    EXPECT_EQ(Percentile({4.2}, 37), 4.2);
    EXPECT_EQ(Percentile({4.2}, 100), 4.2);
}

TEST(SummaryStatsTest, PercentileIgnoresNan)
{
    // Without the NaNs the values are {1, 2, 3}: p = 50 -> h = 1 -> 2; p = 100 -> 3.
    EXPECT_EQ(Percentile({NaN, 3, NaN, 1, 2}, 50), 2.0);
    EXPECT_EQ(Percentile({NaN, 3, NaN, 1, 2}, 100), 3.0);
}

TEST(SummaryStatsTest, PercentileOfNothingIsNan)
{
    EXPECT_TRUE(std::isnan(Percentile({}, 50)));
    EXPECT_TRUE(std::isnan(Percentile({NaN, NaN}, 50)));
}

TEST(SummaryStatsTest, PercentileOutsideZeroToHundredThrows)
{
    EXPECT_THROW(Percentile({1, 2}, -0.5), std::invalid_argument);
    EXPECT_THROW(Percentile({1, 2}, 100.5), std::invalid_argument);
    EXPECT_THROW(Percentile({1, 2}, NaN), std::invalid_argument);
}

TEST(SummaryStatsTest, MeanIgnoresNan)
{
    // (1 + 2 + 6) / 3 = 3.
    EXPECT_EQ(Mean({1, NaN, 2, 6}), 3.0);
    EXPECT_TRUE(std::isnan(Mean({})));
    EXPECT_TRUE(std::isnan(Mean({NaN})));
}

TEST(SummaryStatsTest, JainFairness)
{
    // Equal shares: (4 * 5)^2 / (4 * 4 * 25) = 400 / 400 = 1.
    EXPECT_EQ(JainFairness({5, 5, 5, 5}), 1.0);
    // (1, 0): 1^2 / (2 * 1) = 0.5; one of four takes all: 1 / (4 * 1) = 0.25.
    EXPECT_EQ(JainFairness({1, 0}), 0.5);
    EXPECT_EQ(JainFairness({0, 0, 7, 0}), 0.25);
    // (3, 1): 16 / (2 * 10) = 0.8.
    EXPECT_DOUBLE_EQ(JainFairness({3, 1}), 0.8);
    // NaN ignored: (3, 1) again.
    EXPECT_DOUBLE_EQ(JainFairness({NaN, 3, 1}), 0.8);
}

TEST(SummaryStatsTest, JainFairnessWithoutSharesIsNan)
{
    // flent's FairnessRunner returns None for no values and for a zero sum of squares.
    EXPECT_TRUE(std::isnan(JainFairness({})));
    EXPECT_TRUE(std::isnan(JainFairness({NaN})));
    EXPECT_TRUE(std::isnan(JainFairness({0, 0})));
}

TEST(SummaryStatsTest, SummarizeIgnoresNan)
{
    std::vector<double> values = ONE_TO_TEN;
    values.insert(values.begin() + 3, NaN);
    values.push_back(NaN);
    const SummaryStats stats = Summarize(values);
    // The ten values 1..10: mean 55 / 10 = 5.5, and the percentiles of PercentilesOfOneToTen.
    EXPECT_EQ(stats.count, 10U);
    EXPECT_EQ(stats.mean, 5.5);
    EXPECT_EQ(stats.min, 1.0);
    EXPECT_EQ(stats.p50, 5.5);
    EXPECT_DOUBLE_EQ(stats.p90, 9.1);
    EXPECT_DOUBLE_EQ(stats.p99, 9.91);
    EXPECT_EQ(stats.max, 10.0);
}

TEST(SummaryStatsTest, SummaryOfNothingIsNan)
{
    for (const auto& values : {std::vector<double>{}, std::vector<double>{NaN, NaN}})
    {
        const SummaryStats stats = Summarize(values);
        EXPECT_EQ(stats.count, 0U);
        EXPECT_TRUE(std::isnan(stats.mean));
        EXPECT_TRUE(std::isnan(stats.min));
        EXPECT_TRUE(std::isnan(stats.p50));
        EXPECT_TRUE(std::isnan(stats.p90));
        EXPECT_TRUE(std::isnan(stats.p99));
        EXPECT_TRUE(std::isnan(stats.max));
    }
}

} // namespace
