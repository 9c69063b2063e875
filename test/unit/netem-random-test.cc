/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for netem's randomness: get_crandom()'s correlation, the distribution
 * tables and tabledist(), and the loss models' long-run loss rates, each against values
 * derived in comments from the kernel's formulas, the iproute2 generators and the Markov
 * chains' stationary distributions. Every statistical tolerance is five standard errors of
 * the estimate (a false failure about once in 1.7 million runs; the seeds are fixed, so a
 * run either passes or fails for good), plus any bias the comment derives.
 */

#include "ns3/netem-core.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

namespace
{

using namespace ns3::debloat;

/// Mean and standard deviation of a sample.
struct Moments
{
    double mean{0}; ///< sample mean
    double sd{0};   ///< sample standard deviation
};

/// @param values a sample @return its mean and standard deviation
Moments
MomentsOf(const std::vector<double>& values)
{
    Moments m;
    for (double v : values)
    {
        m.mean += v;
    }
    m.mean /= static_cast<double>(values.size());
    double squares = 0;
    for (double v : values)
    {
        squares += (v - m.mean) * (v - m.mean);
    }
    m.sd = std::sqrt(squares / static_cast<double>(values.size() - 1));
    return m;
}

/// @param seed a seed @return a generator seeded with it
Prandom
Seeded(uint64_t seed)
{
    Prandom prng;
    prng.Seed(seed);
    return prng;
}

TEST(NetemRandomTest, UncorrelatedIsPrandom)
{
    // get_crandom() with rho 0 (or no state) is prandom_u32_state() itself.
    Prandom a = Seeded(11);
    Prandom b = Seeded(11);
    NetemCorrelation none{12345, 0};
    for (int i = 0; i < 100; ++i)
    {
        ASSERT_EQ(NetemGetCrandom(&none, a), b.Next());
        ASSERT_EQ(NetemGetCrandom(nullptr, a), b.Next());
    }
    EXPECT_EQ(none.last, 12345U); // untouched
}

TEST(NetemRandomTest, FullCorrelationRepeatsTheLastValue)
{
    // rho = UINT32_MAX: rho + 1 = 2^32, so answer = (value x 0 + last x 2^32) >> 32 = last.
    Prandom prng = Seeded(3);
    NetemCorrelation state{777, UINT32_MAX};
    for (int i = 0; i < 10; ++i)
    {
        EXPECT_EQ(NetemGetCrandom(&state, prng), 777U);
    }
}

TEST(NetemRandomTest, CorrelationIsLagOneWeight)
{
    // With c = (rho + 1) / 2^32, X_n = (1 - c) U_n + c X_(n-1) (floored): an AR(1) sequence
    // with lag-1 autocorrelation c, the mean of U (2^31 - 0.5, less at most 1 for the
    // floor) and the variance Var(U) (1 - c)^2 / (1 - c^2) = Var(U) (1 - c) / (1 + c):
    // for 25%, c = 0.25 and the variance ratio is 0.6 (the narrowed distribution).
    // Standard errors over N = 200000: the mean's sd(X) sqrt((1 + c) / ((1 - c) N)) =
    // 2^32 / sqrt(12) x sqrt(0.6) x sqrt(1.667 / 200000) = 2.8e6; the autocorrelation's
    // sqrt((1 - c^2) / N) = 0.0022; the variance ratio's below 0.004 (uniform innovations
    // have kurtosis 1.8, below the normal's 3).
    const int n = 200000;
    Prandom prng = Seeded(2026);
    NetemCorrelation state{0, NetemPercentToU32(25)};
    std::vector<double> x;
    x.reserve(n);
    for (int i = 0; i < n; ++i)
    {
        x.push_back(NetemGetCrandom(&state, prng));
    }
    const Moments m = MomentsOf(x);
    double lag = 0;
    for (int i = 1; i < n; ++i)
    {
        lag += (x[i] - m.mean) * (x[i - 1] - m.mean);
    }
    const double autocorrelation = lag / ((n - 1) * m.sd * m.sd);
    const double uniformSd = 4294967296.0 / std::sqrt(12.0);
    EXPECT_NEAR(m.mean, 2147483647.5, 5 * 2.8e6 + 1);
    EXPECT_NEAR(autocorrelation, 0.25, 5 * 0.0022);
    EXPECT_NEAR(m.sd * m.sd / (uniformSd * uniformSd), 0.6, 5 * 0.004);
}

TEST(NetemRandomTest, TablesAreIproute2s)
{
    // 4096 entries each: every fourth of TABLESIZE 16384 points.
    const std::vector<int16_t>& normal = NetemDistTable(NetemDistribution::NORMAL);
    const std::vector<int16_t>& pareto = NetemDistTable(NetemDistribution::PARETO);
    const std::vector<int16_t>& both = NetemDistTable(NetemDistribution::PARETONORMAL);
    ASSERT_EQ(normal.size(), 4096U);
    ASSERT_EQ(pareto.size(), 4096U);
    ASSERT_EQ(both.size(), 4096U);
    EXPECT_TRUE(NetemDistTable(NetemDistribution::UNIFORM).empty());
    // normal.c: entry k is the largest x (on a 0.00005 grid) with rint(16384 Phi(x)) = 4k,
    // so Phi(x) is just below (4k + 0.5) / 16384, times 8192, clipped to s16.
    // k = 0: Phi^-1(0.5 / 16384) = -4.00877, x 8192 = -32840: clipped to -32768.
    EXPECT_EQ(normal.front(), -32768);
    // k = 2048: Phi^-1(0.5 + 0.5 / 16384) = 7.65e-5, the largest grid point below it is
    // 0.00005, x 8192 = 0.41: rint 0.
    EXPECT_EQ(normal[2048], 0);
    // k = 4095: Phi^-1(1 - 3.5 / 16384) = 3.52266 (Q(3.52) = 2.158e-4 and Q(3.53) =
    // 2.078e-4 bracket 2.136e-4), x 8192 = 28857.6; the grid point is within 0.41 of it.
    EXPECT_NEAR(normal.back(), 28857.6, 1);
    // pareto.c: (4/3)(u^(-1/3) - 1.5) x 8192 for u = 1 - k / 4096.
    // k = 0: u = 1: (4/3)(1 - 1.5) x 8192 = -5461.33: rint -5461.
    EXPECT_EQ(pareto.front(), -5461);
    // k = 2048: u = 0.5, 0.5^(-1/3) = 1.259921: (4/3)(-0.240079) x 8192 = -2622.3: -2622.
    EXPECT_EQ(pareto[2048], -2622);
    // k = 4095: u = 1/4096, u^(-1/3) = 16: 158378.7, clipped to 32767.
    EXPECT_EQ(pareto.back(), 32767);
    // paretonormal.c: (normal + 3 pareto) / 4 in int arithmetic, with the normal value
    // before its clipping: at k = 0, (-32840 + 3 x (-5461)) / 4 = -12305.75, truncated
    // toward zero: -12305 (the normal value may be one off, by the grid).
    EXPECT_NEAR(both.front(), -12305, 1);
    EXPECT_EQ(both[2048], (0 + 3 * -2622) / 4); // -1966
}

TEST(NetemRandomTest, TableMomentsMatchTheirDistributions)
{
    auto moments = [](const std::vector<int16_t>& table) {
        std::vector<double> values(table.begin(), table.end());
        Moments m = MomentsOf(values);
        m.sd *= std::sqrt((values.size() - 1.0) / values.size()); // the table's own sd
        return m;
    };
    // Normal: the quantiles at (k + 1/8) / 4096 rather than the symmetric (k + 1/2) / 4096
    // shift the mean by about -(3/8) / 4096 x (x_max - x_min) = -9.2e-5 x 7.5 = -7e-4 sd,
    // -5.6 in table units; the tails beyond the extreme entries take under 0.3% of the
    // variance. Bounds: |mean| <= 0.002 x 8192 = 16.4, |sd - 8192| <= 0.003 x 8192 = 24.6.
    const Moments normal = moments(NetemDistTable(NetemDistribution::NORMAL));
    EXPECT_NEAR(normal.mean, 0, 16.4);
    EXPECT_NEAR(normal.sd, 8192, 24.6);
    // Pareto of shape 3 (X >= 1, mean 1.5) clipped where (4/3)(X - 1.5) x 8192 = 32767,
    // X = c = 4.5: E[min(X, c)] = 1.5 - 0.5 / c^2 = 1.475309 and E[min(X, c)^2] = 3 - 2 / c =
    // 2.555556, so the variance is 0.379019 and sd 0.615645. Table units (x (4/3) 8192):
    // mean (1.475309 - 1.5) x 10922.67 = -269.7, sd 6724.5. The right-endpoint grid of
    // 4096 u values moves each by at most (c - 1) / 4096 x 10922.67 = 9.3.
    const Moments pareto = moments(NetemDistTable(NetemDistribution::PARETO));
    EXPECT_NEAR(pareto.mean, -269.7, 9.3);
    EXPECT_NEAR(pareto.sd, 6724.5, 2 * 9.3);
}

TEST(NetemRandomTest, TabledistWithoutTableIsUniform)
{
    // sigma 0: mu, and no draw (the generator's next value is unchanged).
    Prandom a = Seeded(5);
    Prandom b = Seeded(5);
    EXPECT_EQ(NetemTabledist(123, 0, nullptr, a, nullptr), 123);
    EXPECT_EQ(a.Next(), b.Next());
    // ((rnd % 2 sigma) + mu) - sigma: the integers mu - sigma .. mu + sigma - 1, mean
    // mu - 0.5, sd sqrt(((2 sigma)^2 - 1) / 12) = 577350 for sigma = 1 ms. The modulo's bias
    // (2^32 is not a multiple of 2 sigma) moves the mean by at most sigma x 2 sigma / 2^32 =
    // 466 ns. Standard error over N = 200000: 577350 / 447.2 = 1291 ns.
    const int64_t mu = 10000000;
    const int32_t sigma = 1000000;
    Prandom prng = Seeded(77);
    std::vector<double> values;
    for (int i = 0; i < 200000; ++i)
    {
        const int64_t v = NetemTabledist(mu, sigma, nullptr, prng, nullptr);
        ASSERT_GE(v, mu - sigma);
        ASSERT_LE(v, mu + sigma - 1);
        values.push_back(static_cast<double>(v));
    }
    const Moments m = MomentsOf(values);
    EXPECT_NEAR(m.mean, mu - 0.5, 5 * 1291 + 466);
    // The sample sd of a uniform: standard error sd x sqrt((kurtosis - 1) / 4N) with
    // kurtosis 1.8: 577350 x 0.001 = 577 ns.
    EXPECT_NEAR(m.sd, 577350, 5 * 577);
}

TEST(NetemRandomTest, TabledistFollowsTheTables)
{
    // With a table: mu + round(t sigma / 8192), t a uniformly chosen entry, so the sample
    // has mean mu + sigma m_t and sd sigma s_t with the table's moments (previous test).
    // Tolerances over N = 200000: five standard errors of the mean (sigma s_t / 447) and of
    // the sd (sigma s_t sqrt((kappa - 1) / 4N): kappa 3 for the normal; for the clipped
    // Pareto every value is within 3.025 of the mean, so kappa <= 3.025^2 / 0.379 = 24.1),
    // plus the table bounds derived above and 0.5 ns of rounding.
    const int64_t mu = 40000000;
    const int32_t sigma = 4000000;

    struct Case
    {
        NetemDistribution table; ///< the table
        double meanT;            ///< its mean, in sd units (8192)
        double meanBound;        ///< the bound on that mean
        double sdT;              ///< its sd, in sd units
        double sdBound;          ///< the bound on that sd
        double kurtosis;         ///< a bound on its kurtosis
    };

    const std::array<Case, 2> cases{{
        {NetemDistribution::NORMAL, 0, 0.002, 1, 0.003, 3},
        {NetemDistribution::PARETO, -269.7 / 8192, 9.3 / 8192, 6724.5 / 8192, 18.6 / 8192, 24.1},
    }};
    for (const Case& c : cases)
    {
        Prandom prng = Seeded(9);
        std::vector<double> values;
        const std::vector<int16_t>& table = NetemDistTable(c.table);
        for (int i = 0; i < 200000; ++i)
        {
            values.push_back(static_cast<double>(NetemTabledist(mu, sigma, nullptr, prng, &table)));
        }
        const Moments m = MomentsOf(values);
        const double sd = sigma * c.sdT;
        EXPECT_NEAR(m.mean,
                    mu + sigma * c.meanT,
                    5 * sd / std::sqrt(200000.) + sigma * c.meanBound + 0.5)
            << NetemDistributionName(c.table);
        EXPECT_NEAR(m.sd, sd, 5 * sd * std::sqrt((c.kurtosis - 1) / 800000.) + sigma * c.sdBound)
            << NetemDistributionName(c.table);
    }
}

/**
 * The stationary distribution of a Markov chain and the asymptotic variance of the mean of
 * f over it: pi P = pi, and N Var(mean of f(s_1..s_N)) -> 2 pi(fbar g) - pi(fbar^2), where g
 * solves (I - P + 1 pi) g = fbar, fbar = f - pi f (the Poisson equation), by Gaussian
 * elimination.
 */
struct ChainMoments
{
    std::vector<double> pi; ///< stationary distribution
    double mean{0};         ///< pi f
    double variance{0};     ///< asymptotic variance of the mean, times N
};

/// @param p transition matrix (rows sum to 1) @param f a function of the state
/// @return the chain's moments of f
ChainMoments
SolveChain(const std::vector<std::vector<double>>& p, const std::vector<double>& f)
{
    const size_t n = p.size();
    auto solve = [n](std::vector<std::vector<double>> a, std::vector<double> b) {
        for (size_t c = 0; c < n; ++c)
        {
            size_t pivot = c;
            for (size_t r = c + 1; r < n; ++r)
            {
                pivot = std::fabs(a[r][c]) > std::fabs(a[pivot][c]) ? r : pivot;
            }
            std::swap(a[c], a[pivot]);
            std::swap(b[c], b[pivot]);
            for (size_t r = 0; r < n; ++r)
            {
                if (r != c)
                {
                    const double k = a[r][c] / a[c][c];
                    for (size_t j = 0; j < n; ++j)
                    {
                        a[r][j] -= k * a[c][j];
                    }
                    b[r] -= k * b[c];
                }
            }
        }
        for (size_t r = 0; r < n; ++r)
        {
            b[r] /= a[r][r];
        }
        return b;
    };
    // pi (P - I) = 0 with sum pi = 1: the transposed system, its last row replaced by ones.
    std::vector<std::vector<double>> a(n, std::vector<double>(n));
    std::vector<double> b(n, 0);
    for (size_t i = 0; i < n; ++i)
    {
        for (size_t j = 0; j < n; ++j)
        {
            a[i][j] = p[j][i] - (i == j ? 1 : 0);
        }
    }
    a[n - 1].assign(n, 1);
    b[n - 1] = 1;
    ChainMoments m;
    m.pi = solve(a, b);
    for (size_t i = 0; i < n; ++i)
    {
        m.mean += m.pi[i] * f[i];
    }
    std::vector<double> fbar(n);
    std::vector<std::vector<double>> z(n, std::vector<double>(n));
    for (size_t i = 0; i < n; ++i)
    {
        fbar[i] = f[i] - m.mean;
        for (size_t j = 0; j < n; ++j)
        {
            z[i][j] = (i == j ? 1 : 0) - p[i][j] + m.pi[j];
        }
    }
    const std::vector<double> g = solve(z, fbar);
    for (size_t i = 0; i < n; ++i)
    {
        m.variance += m.pi[i] * (2 * fbar[i] * g[i] - fbar[i] * fbar[i]);
    }
    return m;
}

TEST(NetemRandomTest, RandomLossRate)
{
    // loss >= rnd: probability (loss + 1) / 2^32 = 0.01 for 1%; binomial standard error
    // over N = 400000: sqrt(0.01 x 0.99 / N) = 1.57e-4.
    NetemConfig config;
    ParseNetemOptions(config, "loss 1%");
    NetemScheduler netem(config, 1, 2, 0);
    const int n = 400000;
    int lost = 0;
    for (int i = 0; i < n; ++i)
    {
        lost += netem.DrawLoss() ? 1 : 0;
    }
    const double p = (config.loss + 1.0) / 4294967296.0;
    EXPECT_NEAR(static_cast<double>(lost) / n, p, 5 * std::sqrt(p * (1 - p) / n));
}

TEST(NetemRandomTest, FourStateLossRate)
{
    // "loss state 5% 30% 10% 20% 2%": p13 = 0.05, p31 = 0.3, p32 = 0.1, p23 = 0.2,
    // p14 = 0.02. loss_4state() moves by one draw and loses the packet when the new state
    // is LOST_IN_GAP (4, kernel's 3) or LOST_IN_BURST; with states 1 TX_IN_GAP,
    // 2 TX_IN_BURST, 3 LOST_IN_BURST, 4 LOST_IN_GAP:
    //   1 -> 4: p14, 1 -> 3: p13, 1 -> 1: 1 - p13 - p14; 2 -> 3: p23, 2 -> 2: 1 - p23;
    //   3 -> 2: p32, 3 -> 1: p31, 3 -> 3: 1 - p31 - p32; 4 -> 1: 1.
    // Stationary: pi4 = p14 pi1, pi3 = p13 pi1 / p31, pi2 = p32 pi3 / p23, so
    // pi1 (1 + 0.02 + 0.1667 + 0.0833) = 1: pi1 = 0.7874, pi3 = 0.1312, pi4 = 0.0157,
    // loss rate pi3 + pi4 = 0.1470. SolveChain() gives the same and the asymptotic variance
    // (the chain's correlation widens the binomial's), whose sqrt(. / N) is the standard
    // error.
    NetemConfig config;
    ParseNetemOptions(config, "loss state 5% 30% 10% 20% 2%");
    const std::vector<std::vector<double>> p{{0.93, 0, 0.05, 0.02},
                                             {0, 0.8, 0.2, 0},
                                             {0.3, 0.1, 0.6, 0},
                                             {1, 0, 0, 0}};
    const ChainMoments chain = SolveChain(p, {0, 0, 1, 1});
    EXPECT_NEAR(chain.pi[0], 1 / 1.27, 1e-4);
    EXPECT_NEAR(chain.mean, 0.05 / 0.3 / 1.27 + 0.02 / 1.27, 1e-9);
    NetemScheduler netem(config, 3, 4, 0);
    const int n = 1000000;
    int lost = 0;
    for (int i = 0; i < n; ++i)
    {
        lost += netem.DrawLoss() ? 1 : 0;
    }
    EXPECT_NEAR(static_cast<double>(lost) / n, chain.mean, 5 * std::sqrt(chain.variance / n));
}

TEST(NetemRandomTest, GilbertElliottLossRate)
{
    // "loss gemodel 5% 30% 60% 1%": p = 0.05 (good -> bad), r = 0.3 (bad -> good), 1-h = 0.6
    // (loss when bad), 1-k = 0.01 (loss when good). loss_gilb_ell() loses with the
    // probability of the state the packet finds, so the rate is
    // pi_G (1-k) + pi_B (1-h) with pi_B = p / (p + r) = 0.142857: 0.008571 + 0.085714 =
    // 0.094286. Variance: the state's part (SolveChain() on q(s) = loss probability of s)
    // plus the independent Bernoulli draw's, sum over s of pi_s q_s (1 - q_s).
    NetemConfig config;
    ParseNetemOptions(config, "loss gemodel 5% 30% 60% 1%");
    const ChainMoments chain = SolveChain({{0.95, 0.05}, {0.3, 0.7}}, {0.01, 0.6});
    EXPECT_NEAR(chain.mean, 0.094286, 1e-6);
    const double bernoulli = chain.pi[0] * 0.01 * 0.99 + chain.pi[1] * 0.6 * 0.4;
    NetemScheduler netem(config, 5, 6, 0);
    const int n = 1000000;
    int lost = 0;
    for (int i = 0; i < n; ++i)
    {
        lost += netem.DrawLoss() ? 1 : 0;
    }
    EXPECT_NEAR(static_cast<double>(lost) / n,
                chain.mean,
                5 * std::sqrt((chain.variance + bernoulli) / n));
}

TEST(NetemRandomTest, RandomBelowStaysBelow)
{
    // get_random_u32_below(8): the byte's bit to flip; each of 0..7 with probability 1/8,
    // so over 80000 draws each count is 10000 with sd sqrt(80000 x 1/8 x 7/8) = 93.5.
    Prandom prng = Seeded(8);
    std::array<int, 8> counts{};
    for (int i = 0; i < 80000; ++i)
    {
        const uint32_t v = NetemRandomBelow(8, prng);
        ASSERT_LT(v, 8U);
        counts[v]++;
    }
    for (int count : counts)
    {
        EXPECT_NEAR(count, 10000, 5 * 93.5);
    }
    EXPECT_EQ(NetemRandomBelow(1, prng), 0U);
}

} // namespace
