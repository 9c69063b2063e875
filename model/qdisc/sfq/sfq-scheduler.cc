/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_sfq.c of Linux: the modern SFQ of Linux 3.3 and later, with the int
 * allotment of "net_sched: sch_sfq: handle bigger packets" (2024) and the 2024-2025
 * configuration checks; and, as a classic mode, the SFQ of Linux ~3.1-3.2.
 */

#include "sfq-scheduler.h"

#include <algorithm>
#include <string>

namespace ns3
{
namespace debloat
{

namespace
{

/**
 * Throws std::invalid_argument for an SFQ option.
 * @param option the tc keyword
 * @param value the value given
 * @param accepted the accepted values, in words
 */
[[noreturn]] void
Refuse(const char* option, uint32_t value, const std::string& accepted)
{
    throw std::invalid_argument(std::string("SFQ ") + option + " " + std::to_string(value) +
                                " is invalid: " + accepted);
}

} // namespace

void
SfqParameters::Validate() const
{
    if (divisor == 0 || divisor > MAX_DIVISOR || (divisor & (divisor - 1)) != 0)
    {
        Refuse("divisor", divisor, "needs a power of two from 1 to 65536");
    }
    if (quantum == 0 || quantum > static_cast<uint32_t>(INT32_MAX))
    {
        Refuse("quantum", quantum, "needs 1 to 2147483647 bytes");
    }
    // iproute2 refuses limit 1, and the kernel too since "net_sched: sch_sfq: don't allow
    // 1 packet limit" (Dec 2024): the algorithm does not work with a one-packet limit.
    if (limit < 2)
    {
        Refuse("limit", limit, "needs at least 2 packets");
    }
    if (classic)
    {
        // The classic kernels had no such options: refuse them rather than ignore them.
        if (limit > CLASSIC_LIMIT)
        {
            Refuse("limit", limit, "classic SFQ holds 2 to 127 packets");
        }
        if (flows != CLASSIC_SLOTS)
        {
            Refuse("flows", flows, "classic SFQ has a fixed 128 slots; keep flows 128");
        }
        if (depth != MAX_DEPTH)
        {
            Refuse("depth", depth, "classic SFQ caps a flow at limit; keep depth 127");
        }
        if (headdrop)
        {
            throw std::invalid_argument("SFQ headdrop is not available in classic SFQ");
        }
        if (red)
        {
            throw std::invalid_argument("SFQ RED (redflowlimit) is not available in classic SFQ");
        }
        return;
    }
    if (depth == 0 || depth > MAX_DEPTH)
    {
        Refuse("depth", depth, "needs 1 to 127 packets per flow");
    }
    if (flows == 0 || flows > MAX_FLOWS || flows > divisor)
    {
        Refuse("flows",
               flows,
               "needs 1 to 65408 slots and at most divisor (" + std::to_string(divisor) + ")");
    }
    // "net_sched: sch_sfq: move the limit validation" (2025) checks the derived limit.
    if (GetEffectiveLimit() < 2)
    {
        Refuse("limit",
               limit,
               "the effective limit min(limit, depth * flows) = " +
                   std::to_string(GetEffectiveLimit()) + " needs at least 2 packets");
    }
    if (red)
    {
        Red::CheckParameters(*red);
    }
}

uint32_t
SfqParameters::GetEffectiveLimit() const
{
    return classic ? limit : std::min(limit, depth * flows);
}

uint32_t
SfqParameters::GetEffectiveFlows() const
{
    return classic ? CLASSIC_SLOTS : std::min(flows, GetEffectiveLimit());
}

uint32_t
SfqParameters::GetEffectiveDepth() const
{
    return classic ? limit : depth;
}

} // namespace debloat
} // namespace ns3
