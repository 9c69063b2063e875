/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows include/net/red.h of Linux (the red_parms/red_vars split of Linux 3.3 and later, as
 * net/sched/sch_sfq.c uses it per flow) and tc/tc_red.c plus the RED part of tc/q_sfq.c of
 * iproute2.
 */

#include "red-core.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace ns3
{
namespace debloat
{

namespace
{

/// fls(x): the 1-based index of the highest set bit, 0 for 0.
int
Fls(uint32_t x)
{
    int bits = 0;
    while (x != 0)
    {
        bits++;
        x >>= 1;
    }
    return bits;
}

} // namespace

Red::Red(const RedParameters& params, RandomSource random)
    : m_params(params),
      m_random(std::move(random))
{
    CheckParameters(params);
    if (!m_random)
    {
        throw std::invalid_argument("RED needs a random source");
    }
    // red_set_parms(): the thresholds carry Wlog fraction bits, like qavg.
    m_qthMin = params.qthMin << params.wlog;
    m_qthMax = params.qthMax << params.wlog;
    m_qthDelta = params.qthMax > params.qthMin ? params.qthMax - params.qthMin : 1;
    // max_P = 0 asks for the Plog form: max_P = (qth_max - qth_min) / 2^Plog. The product
    // wraps in the kernel's u32 and wraps here alike.
    m_maxP = params.maxP != 0 ? params.maxP : MaxP(params.plog) * m_qthDelta;
    m_maxPDelta = m_maxP / m_qthDelta;
    if (m_maxPDelta == 0)
    {
        m_maxPDelta = 1;
    }
}

void
Red::CheckParameters(const RedParameters& params)
{
    const std::string range =
        "; needs fls(x) + Wlog < 32, here Wlog = " + std::to_string(params.wlog);
    if (params.qthMin == 0)
    {
        throw std::invalid_argument("RED min (qth_min) must be > 0 bytes (0 turns RED off)");
    }
    if (Fls(params.qthMin) + params.wlog >= 32)
    {
        throw std::invalid_argument("RED min (qth_min) " + std::to_string(params.qthMin) +
                                    " overflows once scaled by 2^Wlog" + range);
    }
    if (Fls(params.qthMax) + params.wlog >= 32)
    {
        throw std::invalid_argument("RED max (qth_max) " + std::to_string(params.qthMax) +
                                    " overflows once scaled by 2^Wlog" + range);
    }
    if (params.qthMax < params.qthMin)
    {
        throw std::invalid_argument("RED max (qth_max) " + std::to_string(params.qthMax) +
                                    " must be >= min (qth_min) " + std::to_string(params.qthMin));
    }
}

uint32_t
Red::MaxP(uint8_t plog)
{
    return plog < 32 ? UINT32_MAX >> plog : UINT32_MAX;
}

void
Red::ResetVars(Vars& vars)
{
    vars.qavg = 0;
    vars.qcount = -1;
}

uint64_t
Red::CalcQavgNoIdleTime(const Vars& vars, uint32_t backlog) const
{
    // Unsigned long arithmetic, as in the kernel: the sum never goes below zero.
    return vars.qavg + (backlog - (vars.qavg >> m_params.wlog));
}

RedAction
Red::Action(Vars& vars, uint64_t qavg)
{
    // red_cmp_thresh()
    if (qavg < m_qthMin)
    {
        vars.qcount = -1;
        return RedAction::DONT_MARK;
    }
    if (qavg >= m_qthMax)
    {
        vars.qcount = -1;
        return RedAction::HARD_MARK;
    }
    // Between the thresholds: the first packet only draws qR; each later one marks once
    // ((qavg - qth_min) >> Wlog) * qcount reaches qR, and a mark draws a new qR.
    if (++vars.qcount != 0)
    {
        if (MarkProbability(vars, qavg))
        {
            vars.qcount = 0;
            vars.qR = Random();
            return RedAction::PROB_MARK;
        }
    }
    else
    {
        vars.qR = Random();
    }
    return RedAction::DONT_MARK;
}

bool
Red::MarkProbability(const Vars& vars, uint64_t qavg) const
{
    const uint64_t excess = (qavg - m_qthMin) >> m_params.wlog;
    return !(excess * static_cast<uint64_t>(vars.qcount) < vars.qR);
}

uint32_t
Red::Random()
{
    return m_random() / m_maxPDelta;
}

const RedParameters&
Red::GetParameters() const
{
    return m_params;
}

uint32_t
Red::GetScaledQthMin() const
{
    return m_qthMin;
}

uint32_t
Red::GetScaledQthMax() const
{
    return m_qthMax;
}

uint32_t
Red::GetQthDelta() const
{
    return m_qthDelta;
}

uint32_t
Red::GetMaxP() const
{
    return m_maxP;
}

uint32_t
Red::GetMaxPDelta() const
{
    return m_maxPDelta;
}

int
TcRedEvalEwma(uint32_t qmin, uint32_t burst, uint32_t avpkt)
{
    double w = 0.5;
    const double a = static_cast<double>(burst) + 1 - static_cast<double>(qmin) / avpkt;
    if (a < 1.0)
    {
        return -1;
    }
    for (int wlog = 1; wlog < 32; wlog++, w /= 2)
    {
        if (a <= (1 - std::pow(1 - w, burst)) / w)
        {
            return wlog;
        }
    }
    return -1;
}

int
TcRedEvalP(uint32_t qmin, uint32_t qmax, double prob)
{
    if (qmax <= qmin)
    {
        return -1;
    }
    prob /= qmax - qmin;
    for (int plog = 0; plog < 32; plog++)
    {
        if (prob > 1.0)
        {
            return plog;
        }
        prob *= 2;
    }
    return -1;
}

RedParameters
TcSfqRedParameters(const TcSfqRedOptions& options)
{
    if (options.redflowlimit == 0)
    {
        throw std::invalid_argument("RED: redflowlimit is required (> 0 bytes) when any RED "
                                    "option is given");
    }
    if (options.avpkt == 0)
    {
        throw std::invalid_argument("RED: avpkt must be > 0 bytes");
    }
    if (!(options.probability > 0 && options.probability <= 1))
    {
        throw std::invalid_argument("RED: probability " + std::to_string(options.probability) +
                                    " is outside (0, 1]");
    }
    // Sally Floyd's recommendations, as tc applies them.
    RedParameters params;
    params.qthMax = options.max != 0 ? options.max : options.redflowlimit / 4;
    params.qthMin = options.min != 0 ? options.min : params.qthMax / 3;
    const uint32_t burst = options.burst != 0
                               ? options.burst
                               : (2 * params.qthMin + params.qthMax) / (3 * options.avpkt);
    if (params.qthMax > options.redflowlimit)
    {
        throw std::invalid_argument("RED: max " + std::to_string(params.qthMax) +
                                    " must be <= redflowlimit " +
                                    std::to_string(options.redflowlimit));
    }
    if (params.qthMin >= params.qthMax)
    {
        throw std::invalid_argument("RED: min " + std::to_string(params.qthMin) +
                                    " must be < max " + std::to_string(params.qthMax));
    }
    const int wlog = TcRedEvalEwma(params.qthMin, burst, options.avpkt);
    if (wlog < 0)
    {
        throw std::invalid_argument(
            "RED: burst " + std::to_string(burst) +
            " gives no EWMA constant; needs burst + 1 - min / avpkt >= 1 (try burst " +
            std::to_string(1 + params.qthMin / options.avpkt) + ")");
    }
    const int plog = TcRedEvalP(params.qthMin, params.qthMax, options.probability);
    if (plog < 0)
    {
        throw std::invalid_argument(
            "RED: probability " + std::to_string(options.probability) +
            " is too small for max - min = " + std::to_string(params.qthMax - params.qthMin) +
            " bytes (needs P * 2^31 / (max - min) > 1)");
    }
    params.wlog = static_cast<uint8_t>(wlog);
    params.plog = static_cast<uint8_t>(plog);
    const double maxP = options.probability * 4294967296.0;
    params.maxP = maxP >= 4294967295.0 ? UINT32_MAX : static_cast<uint32_t>(maxP);
    params.ecn = options.ecn;
    params.harddrop = options.harddrop;
    return params;
}

} // namespace debloat
} // namespace ns3
