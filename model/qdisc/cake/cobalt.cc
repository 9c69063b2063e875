/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows the COBALT AQM of net/sched/sch_cake.c of Linux.
 */

#include "cobalt.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

namespace
{

/// ktime_sub(): two's-complement difference without signed-overflow undefined behaviour.
int64_t
KtimeSub(int64_t a, int64_t b)
{
    return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}

/// ktime_add_ns(): two's-complement sum.
int64_t
KtimeAddNs(int64_t t, uint64_t ns)
{
    return static_cast<int64_t>(static_cast<uint64_t>(t) + ns);
}

/// The BLUE timer test of cobalt_queue_full()/cobalt_queue_empty(): the s64 difference is
/// compared with the u64 target, so it is converted to u64 (a negative difference is huge).
bool
BlueTimerExpired(const CobaltVars& vars, const CobaltParameters& params, int64_t now)
{
    return static_cast<uint64_t>(KtimeSub(now, vars.blueTimer)) > params.target;
}

} // namespace

void
CobaltNewtonStep(CobaltVars& vars)
{
    const uint64_t invsqrt = vars.recInvSqrt;
    const uint64_t invsqrt2 = (invsqrt * invsqrt) >> 32;
    uint64_t val = (3ULL << 32) - static_cast<uint64_t>(vars.count) * invsqrt2;

    val >>= 2; // avoid overflow in the following multiply
    val = (val * invsqrt) >> (32 - 2 + 1);

    vars.recInvSqrt = static_cast<uint32_t>(val);
}

const std::array<uint32_t, COBALT_REC_INV_SQRT_CACHE>&
CobaltRecInvSqrtCache()
{
    static const std::array<uint32_t, COBALT_REC_INV_SQRT_CACHE> cache = {~0U,
                                                                          ~0U,
                                                                          3037000500U,
                                                                          2479700525U,
                                                                          2147483647U,
                                                                          1920767767U,
                                                                          1753413056U,
                                                                          1623345051U,
                                                                          1518500250U,
                                                                          1431655765U,
                                                                          1358187914U,
                                                                          1294981364U,
                                                                          1239850263U,
                                                                          1191209601U,
                                                                          1147878294U,
                                                                          1108955788U};
    return cache;
}

std::array<uint32_t, COBALT_REC_INV_SQRT_CACHE>
CobaltCacheInit()
{
    std::array<uint32_t, COBALT_REC_INV_SQRT_CACHE> cache{};
    CobaltVars v;
    v.recInvSqrt = ~0U;
    cache[0] = v.recInvSqrt;
    for (v.count = 1; v.count < COBALT_REC_INV_SQRT_CACHE; v.count++)
    {
        CobaltNewtonStep(v);
        CobaltNewtonStep(v);
        CobaltNewtonStep(v);
        CobaltNewtonStep(v);
        cache[v.count] = v.recInvSqrt;
    }
    return cache;
}

void
CobaltInvSqrt(CobaltVars& vars)
{
    if (vars.count < COBALT_REC_INV_SQRT_CACHE)
    {
        vars.recInvSqrt = CobaltRecInvSqrtCache()[vars.count];
    }
    else
    {
        CobaltNewtonStep(vars);
    }
}

void
CobaltVarsInit(CobaltVars& vars)
{
    vars = CobaltVars{};
}

int64_t
CobaltControl(int64_t t, uint64_t interval, uint32_t recInvSqrt)
{
    // reciprocal_scale(u32 val, u32 ep_ro): (u32)(((u64)val * ep_ro) >> 32)
    const auto val = static_cast<uint32_t>(interval);
    const auto scaled = static_cast<uint32_t>((static_cast<uint64_t>(val) * recInvSqrt) >> 32);
    return KtimeAddNs(t, scaled);
}

bool
CobaltQueueFull(CobaltVars& vars, const CobaltParameters& params, int64_t now)
{
    bool up = false;

    if (BlueTimerExpired(vars, params, now))
    {
        up = vars.pDrop == 0;
        vars.pDrop += params.pInc;
        if (vars.pDrop < params.pInc)
        {
            vars.pDrop = ~0U;
        }
        vars.blueTimer = now;
    }
    vars.dropping = true;
    vars.dropNext = now;
    if (vars.count == 0)
    {
        vars.count = 1;
    }
    return up;
}

bool
CobaltQueueEmpty(CobaltVars& vars, const CobaltParameters& params, int64_t now)
{
    bool down = false;

    if (vars.pDrop != 0 && BlueTimerExpired(vars, params, now))
    {
        if (vars.pDrop < params.pDec)
        {
            vars.pDrop = 0;
        }
        else
        {
            vars.pDrop -= params.pDec;
        }
        vars.blueTimer = now;
        down = vars.pDrop == 0;
    }
    vars.dropping = false;

    if (vars.count != 0 && KtimeSub(now, vars.dropNext) >= 0)
    {
        vars.count--;
        CobaltInvSqrt(vars);
        vars.dropNext = CobaltControl(vars.dropNext, params.interval, vars.recInvSqrt);
    }
    return down;
}

CobaltVerdict
CobaltShouldDrop(CobaltVars& vars,
                 const CobaltParameters& params,
                 int64_t now,
                 int64_t enqueueTime,
                 uint32_t bulkFlows,
                 const CobaltTrySetCe& trySetCe,
                 const CobaltRandomSource& random)
{
    CobaltVerdict verdict = CobaltVerdict::PASS;

    // 'schedule' keeps, in its sign, whether now is before or after drop_next; 'next_due'
    // keeps the first such decision.
    const auto sojourn = static_cast<uint64_t>(KtimeSub(now, enqueueTime));
    int64_t schedule = KtimeSub(now, vars.dropNext);
    const bool overTarget = sojourn > params.target && sojourn > params.mtuTime * bulkFlows * 2 &&
                            sojourn > params.mtuTime * 4;
    bool nextDue = vars.count != 0 && schedule >= 0;

    vars.ecnMarked = false;

    if (overTarget)
    {
        if (!vars.dropping)
        {
            vars.dropping = true;
            vars.dropNext = CobaltControl(now, params.interval, vars.recInvSqrt);
        }
        if (vars.count == 0)
        {
            vars.count = 1;
        }
    }
    else if (vars.dropping)
    {
        vars.dropping = false;
    }

    if (nextDue && vars.dropping)
    {
        // Use an ECN mark if possible, otherwise drop.
        vars.ecnMarked = params.ecn && trySetCe && trySetCe();
        verdict = vars.ecnMarked ? CobaltVerdict::MARK_CE : CobaltVerdict::DROP_CONGESTED;

        vars.count++;
        if (vars.count == 0)
        {
            vars.count--;
        }
        CobaltInvSqrt(vars);
        vars.dropNext = CobaltControl(vars.dropNext, params.interval, vars.recInvSqrt);
        schedule = KtimeSub(now, vars.dropNext);
    }
    else
    {
        while (nextDue)
        {
            vars.count--;
            CobaltInvSqrt(vars);
            vars.dropNext = CobaltControl(vars.dropNext, params.interval, vars.recInvSqrt);
            schedule = KtimeSub(now, vars.dropNext);
            nextDue = vars.count != 0 && schedule >= 0;
        }
    }

    // Simple BLUE: never ECN, and (Linux 6.x) only for packets not already dropped.
    const bool dropped = CobaltIsDrop(verdict);
    if (vars.pDrop != 0 && !dropped && random() < vars.pDrop)
    {
        verdict = CobaltVerdict::DROP_FLOOD;
    }

    // drop_next doubles as an activity timeout.
    if (vars.count == 0)
    {
        vars.dropNext = KtimeAddNs(now, params.interval);
    }
    else if (schedule > 0 && !CobaltIsDrop(verdict))
    {
        vars.dropNext = now;
    }

    return verdict;
}

CobaltParameters
CobaltParametersForRate(uint64_t rate, uint32_t mtu, uint64_t targetNs, uint64_t rttEstNs)
{
    constexpr uint64_t MIN_RATE = 64;
    constexpr uint64_t NSEC_PER_SEC = 1000000000;
    uint8_t rateShft = 0;
    uint64_t rateNs = 0;

    if (rate != 0)
    {
        rateShft = 34;
        rateNs = (NSEC_PER_SEC << rateShft) / std::max(MIN_RATE, rate);
        while (rateNs >> 34)
        {
            rateNs >>= 1;
            rateShft--;
        }
    }

    const uint64_t byteTargetNs = (static_cast<uint64_t>(mtu) * rateNs) >> rateShft;

    CobaltParameters p;
    p.target = std::max((byteTargetNs * 3) / 2, targetNs);
    p.interval = std::max(rttEstNs + p.target - targetNs, p.target * 2);
    p.mtuTime = byteTargetNs;
    p.pInc = 1U << 24;
    p.pDec = 1U << 20;
    p.ecn = true;
    return p;
}

} // namespace debloat
} // namespace ns3
