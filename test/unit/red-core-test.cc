/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for the RED arithmetic of include/net/red.h and the tc-side derivation of
 * iproute2's tc_red.c and q_sfq.c. Expected values are derived in comments from:
 *   red_set_parms:  qth_min <<= Wlog, qth_max <<= Wlog, delta = max(qth_max - qth_min, 1),
 *                   max_P = max_P ? max_P : (~0U >> Plog) * delta,
 *                   max_p_delta = max(max_P / delta, 1)
 *   red_calc_qavg_no_idle_time: qavg += backlog - (qavg >> Wlog)
 *   red_action:     qavg < qth_min: qcount = -1, DONT;  qavg >= qth_max: qcount = -1, HARD;
 *                   else if ++qcount == 0: qR = red_random(), DONT;
 *                   else if ((qavg - qth_min) >> Wlog) * qcount >= qR: qcount = 0,
 *                        qR = red_random(), PROB; else DONT
 *   red_random:     rnd / max_p_delta
 *   tc_red_eval_ewma: smallest Wlog >= 1 with burst + 1 - min/avpkt <= (1 - (1-W)^burst) / W
 *   tc_red_eval_P:  smallest Plog >= 0 with prob / (max - min) * 2^Plog > 1
 */

#include "error-message.h"

#include "ns3/red-core.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{

using debloattest::ErrorOf;

using ns3::debloat::Red;
using ns3::debloat::RedAction;
using ns3::debloat::RedParameters;
using ns3::debloat::TcRedEvalEwma;
using ns3::debloat::TcRedEvalP;
using ns3::debloat::TcSfqRedOptions;
using ns3::debloat::TcSfqRedParameters;

/// A random source that replays a script and counts its calls.
struct ScriptedRandom
{
    std::vector<uint32_t> values; ///< the numbers to return, in order
    std::size_t calls{0};         ///< numbers returned so far

    /// @return a callable returning the next scripted number
    Red::RandomSource Source()
    {
        return [this]() { return values.at(calls++); };
    }
};

/// tc's defaults for redflowlimit 120000: min 10000, max 30000, Wlog 3, Plog 20, P 0.02.
RedParameters
DefaultParameters()
{
    RedParameters params;
    params.qthMin = 10000;
    params.qthMax = 30000;
    params.wlog = 3;
    params.plog = 20;
    params.maxP = 85899345; // 0.02 * 2^32 = 85899345.92, truncated
    return params;
}

TEST(RedCoreTest, SetParmsScalesThresholds)
{
    ScriptedRandom rnd;
    Red red(DefaultParameters(), rnd.Source());
    // qth_min = 10000 << 3 = 80000, qth_max = 30000 << 3 = 240000, delta = 20000,
    // max_p_delta = 85899345 / 20000 = 4294 (4294.97 truncated).
    EXPECT_EQ(red.GetScaledQthMin(), 80000U);
    EXPECT_EQ(red.GetScaledQthMax(), 240000U);
    EXPECT_EQ(red.GetQthDelta(), 20000U);
    EXPECT_EQ(red.GetMaxP(), 85899345U);
    EXPECT_EQ(red.GetMaxPDelta(), 4294U);
}

TEST(RedCoreTest, MaxPFromPlogWhenZero)
{
    RedParameters params = DefaultParameters();
    params.maxP = 0;
    ScriptedRandom rnd;
    Red red(params, rnd.Source());
    // red_maxp(20) = 0xffffffff >> 20 = 4095; max_P = 4095 * 20000 = 81900000;
    // max_p_delta = 81900000 / 20000 = 4095.
    EXPECT_EQ(Red::MaxP(20), 4095U);
    EXPECT_EQ(Red::MaxP(32), UINT32_MAX);
    EXPECT_EQ(red.GetMaxP(), 81900000U);
    EXPECT_EQ(red.GetMaxPDelta(), 4095U);
}

TEST(RedCoreTest, EqualThresholdsGiveDeltaOne)
{
    RedParameters params = DefaultParameters();
    params.qthMax = params.qthMin;
    ScriptedRandom rnd;
    Red red(params, rnd.Source());
    // delta = 0 becomes 1; max_p_delta = 85899345 / 1.
    EXPECT_EQ(red.GetQthDelta(), 1U);
    EXPECT_EQ(red.GetMaxPDelta(), 85899345U);
}

TEST(RedCoreTest, QavgEwmaSteps)
{
    ScriptedRandom rnd;
    Red red(DefaultParameters(), rnd.Source()); // Wlog 3: W = 1/8
    Red::Vars vars;
    // 0 + 1000 - (0 >> 3) = 1000 (125 bytes: 1/8 of the backlog).
    vars.qavg = red.CalcQavgNoIdleTime(vars, 1000);
    EXPECT_EQ(vars.qavg, 1000U);
    // 1000 + 2000 - 125 = 2875.
    vars.qavg = red.CalcQavgNoIdleTime(vars, 2000);
    EXPECT_EQ(vars.qavg, 2875U);
    // 2875 + 2000 - 359 = 4516.
    vars.qavg = red.CalcQavgNoIdleTime(vars, 2000);
    EXPECT_EQ(vars.qavg, 4516U);
    // A steady backlog of 2000 is a fixed point once qavg >> 3 = 2000; the step
    // 2000 - (qavg >> 3) never overshoots 16000 from below, so qavg ends at exactly 16000.
    for (int i = 0; i < 200; i++)
    {
        vars.qavg = red.CalcQavgNoIdleTime(vars, 2000);
    }
    EXPECT_EQ(vars.qavg, 16000U);
    // An empty queue decays it by 1/8: 16000 - 2000 = 14000.
    vars.qavg = red.CalcQavgNoIdleTime(vars, 0);
    EXPECT_EQ(vars.qavg, 14000U);
}

TEST(RedCoreTest, ThresholdsDecideTheAction)
{
    ScriptedRandom rnd{{0}};
    Red red(DefaultParameters(), rnd.Source());
    Red::Vars vars;
    // Below qth_min (80000 scaled): DONT, qcount stays -1, nothing drawn.
    EXPECT_EQ(red.Action(vars, 79999), RedAction::DONT_MARK);
    EXPECT_EQ(vars.qcount, -1);
    // At qth_max (240000) and above: HARD, qcount -1.
    EXPECT_EQ(red.Action(vars, 240000), RedAction::HARD_MARK);
    EXPECT_EQ(vars.qcount, -1);
    EXPECT_EQ(red.Action(vars, 1000000), RedAction::HARD_MARK);
    EXPECT_EQ(rnd.calls, 0U);
    // At qth_min exactly: between; the first such packet only draws qR (0 / 4294 = 0).
    EXPECT_EQ(red.Action(vars, 80000), RedAction::DONT_MARK);
    EXPECT_EQ(vars.qcount, 0);
    EXPECT_EQ(rnd.calls, 1U);
    // A HARD_MARK forgets the count.
    EXPECT_EQ(red.Action(vars, 240000), RedAction::HARD_MARK);
    EXPECT_EQ(vars.qcount, -1);
}

TEST(RedCoreTest, QcountLogicWithScriptedRandom)
{
    // r1 = 4294 * 10000 gives qR = 10000; r2 = 4294 * 3000 + 5 gives qR = 3000.
    ScriptedRandom rnd{{4294U * 10000, 4294U * 3000 + 5, 7}};
    Red red(DefaultParameters(), rnd.Source());
    Red::Vars vars;
    // qavg 120000 (15000 bytes): (120000 - 80000) >> 3 = 5000 bytes above min.
    const uint64_t qavg = 120000;
    // 1: qcount -1 -> 0: draw qR = 10000, no mark.
    EXPECT_EQ(red.Action(vars, qavg), RedAction::DONT_MARK);
    EXPECT_EQ(vars.qR, 10000U);
    // 2: qcount 1: 5000 * 1 < 10000, no mark.
    EXPECT_EQ(red.Action(vars, qavg), RedAction::DONT_MARK);
    EXPECT_EQ(vars.qcount, 1);
    EXPECT_FALSE(red.MarkProbability(vars, qavg));
    // 3: qcount 2: 5000 * 2 = 10000 is not < 10000: mark, qcount 0, qR = 3000.
    EXPECT_EQ(red.Action(vars, qavg), RedAction::PROB_MARK);
    EXPECT_EQ(vars.qcount, 0);
    EXPECT_EQ(vars.qR, 3000U);
    // 4: qcount 1: 5000 >= 3000: mark again, qR = 7 / 4294 = 0.
    EXPECT_EQ(red.Action(vars, qavg), RedAction::PROB_MARK);
    EXPECT_EQ(vars.qR, 0U);
    EXPECT_EQ(rnd.calls, 3U);
}

TEST(RedCoreTest, RandomDividesByMaxPDelta)
{
    ScriptedRandom rnd{{UINT32_MAX, 4293}};
    Red red(DefaultParameters(), rnd.Source());
    // 4294967295 / 4294 = 1000225 (4294 * 1000225 = 4294966150, remainder 1145).
    EXPECT_EQ(red.Random(), 1000225U);
    EXPECT_EQ(red.Random(), 0U);
}

TEST(RedCoreTest, ResetVars)
{
    Red::Vars vars{5, 77, 123456};
    Red::ResetVars(vars);
    EXPECT_EQ(vars.qcount, -1);
    EXPECT_EQ(vars.qavg, 0U);
}

TEST(RedCoreTest, CheckParametersNamesTheField)
{
    RedParameters params = DefaultParameters();
    params.qthMin = 0;
    EXPECT_NE(ErrorOf([&] { Red::CheckParameters(params); }).find("qth_min"), std::string::npos);
    // fls(1 << 20) = 21; 21 + Wlog 11 = 32 is refused, 21 + 10 = 31 is accepted.
    params.qthMin = 1U << 20;
    params.qthMax = 1U << 20;
    params.wlog = 11;
    EXPECT_NE(ErrorOf([&] { Red::CheckParameters(params); }).find("qth_min"), std::string::npos);
    params.wlog = 10;
    EXPECT_NO_THROW(Red::CheckParameters(params));
    params.qthMax = (1U << 21) + 1; // fls = 22, 22 + 10 = 32
    EXPECT_NE(ErrorOf([&] { Red::CheckParameters(params); }).find("qth_max"), std::string::npos);
    params = DefaultParameters();
    params.qthMax = params.qthMin - 1;
    EXPECT_NE(ErrorOf([&] { Red::CheckParameters(params); }).find("qth_max"), std::string::npos);
    EXPECT_NE(ErrorOf([&] { Red red(DefaultParameters(), Red::RandomSource()); }).find("random"),
              std::string::npos);
}

TEST(RedCoreTest, TcEvalEwma)
{
    // min 10000, burst 16, avpkt 1000: a = 16 + 1 - 10 = 7.
    //   Wlog 2: (1 - 0.75^16) / 0.25 = 4 * (1 - 0.0100) = 3.96 < 7
    //   Wlog 3: (1 - 0.875^16) / 0.125 = 8 * (1 - 0.1181) = 7.06 >= 7  -> 3
    EXPECT_EQ(TcRedEvalEwma(10000, 16, 1000), 3);
    // min 8000, burst 25, avpkt 1000: a = 25 + 1 - 8 = 18.
    //   Wlog 5: 32 * (1 - 0.96875^25) = 32 * (1 - 0.4522) = 17.53 < 18
    //   Wlog 6: 64 * (1 - 0.984375^25) = 64 * (1 - 0.6746) = 20.83 >= 18  -> 6
    EXPECT_EQ(TcRedEvalEwma(8000, 25, 1000), 6);
    // burst 5: a = 5 + 1 - 10 = -4 < 1: refused.
    EXPECT_EQ(TcRedEvalEwma(10000, 5, 1000), -1);
}

TEST(RedCoreTest, TcEvalP)
{
    // 0.02 / 20000 = 1e-6; 1e-6 * 2^19 = 0.52, 1e-6 * 2^20 = 1.05 > 1  -> 20
    EXPECT_EQ(TcRedEvalP(10000, 30000, 0.02), 20);
    // 0.2 / 52000 = 3.85e-6; * 2^17 = 0.50, * 2^18 = 1.008 > 1  -> 18
    EXPECT_EQ(TcRedEvalP(8000, 60000, 0.2), 18);
    EXPECT_EQ(TcRedEvalP(5000, 5000, 0.02), -1);
    // 1e-12 / 20000 * 2^31 = 1.1e-7: no Plog below 32 fits.
    EXPECT_EQ(TcRedEvalP(10000, 30000, 1e-12), -1);
}

TEST(RedCoreTest, TcSfqDefaultsFromRedflowlimit)
{
    TcSfqRedOptions options;
    options.redflowlimit = 120000;
    options.ecn = true;
    const RedParameters params = TcSfqRedParameters(options);
    // max = 120000 / 4 = 30000, min = 30000 / 3 = 10000,
    // burst = (2 * 10000 + 30000) / (3 * 1000) = 16: Wlog 3 and Plog 20 as above,
    // max_P = 0.02 * 2^32 = 85899345.92 -> 85899345.
    EXPECT_EQ(params.qthMax, 30000U);
    EXPECT_EQ(params.qthMin, 10000U);
    EXPECT_EQ(params.wlog, 3);
    EXPECT_EQ(params.plog, 20);
    EXPECT_EQ(params.maxP, 85899345U);
    EXPECT_TRUE(params.ecn);
    EXPECT_FALSE(params.harddrop);
}

TEST(RedCoreTest, TcSfqExplicitOptions)
{
    // tc-sfq(8)'s example: redflowlimit 100000 min 8000 max 60000 probability 0.20.
    TcSfqRedOptions options;
    options.redflowlimit = 100000;
    options.min = 8000;
    options.max = 60000;
    options.probability = 0.2;
    options.harddrop = true;
    const RedParameters params = TcSfqRedParameters(options);
    // burst = (16000 + 60000) / 3000 = 25: Wlog 6; Plog 18;
    // max_P = 0.2 * 2^32 = 858993459.2 -> 858993459.
    EXPECT_EQ(params.wlog, 6);
    EXPECT_EQ(params.plog, 18);
    EXPECT_EQ(params.maxP, 858993459U);
    EXPECT_TRUE(params.harddrop);
    // Probability 1 saturates instead of wrapping to 0.
    options.probability = 1.0;
    EXPECT_EQ(TcSfqRedParameters(options).maxP, UINT32_MAX);
}

TEST(RedCoreTest, TcSfqRefusals)
{
    TcSfqRedOptions options;
    EXPECT_NE(ErrorOf([&] { TcSfqRedParameters(options); }).find("redflowlimit"),
              std::string::npos);
    options.redflowlimit = 120000;
    options.max = 130000;
    EXPECT_NE(ErrorOf([&] { TcSfqRedParameters(options); }).find("max 130000 must be <="),
              std::string::npos);
    options.max = 30000;
    options.min = 30000;
    EXPECT_NE(ErrorOf([&] { TcSfqRedParameters(options); }).find("min 30000 must be <"),
              std::string::npos);
    options.min = 10000;
    options.burst = 5; // a = 5 + 1 - 10 < 1
    EXPECT_NE(ErrorOf([&] { TcSfqRedParameters(options); }).find("try burst 11"),
              std::string::npos);
    options.burst = 0;
    options.avpkt = 0;
    EXPECT_NE(ErrorOf([&] { TcSfqRedParameters(options); }).find("avpkt"), std::string::npos);
    options.avpkt = 1000;
    options.probability = 0;
    EXPECT_NE(ErrorOf([&] { TcSfqRedParameters(options); }).find("probability"), std::string::npos);
    options.probability = 1.5;
    EXPECT_NE(ErrorOf([&] { TcSfqRedParameters(options); }).find("probability"), std::string::npos);
    options.probability = 1e-12;
    EXPECT_NE(ErrorOf([&] { TcSfqRedParameters(options); }).find("too small"), std::string::npos);
}

} // namespace
