/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HTB's rate arithmetic: psched_ratecfg_precompute() of net/sched/sch_generic.c,
 * psched_l2t_ns() of include/net/sch_generic.h, and tc_calc_xmittime() of iproute2's
 * tc/tc_core.c (declared in htb-scheduler.h).
 */

#include "htb-scheduler.h"

#include <cmath>
#include <limits>

namespace ns3
{
namespace debloat
{

namespace
{

/// NSEC_PER_SEC.
constexpr uint64_t NSEC_PER_SEC = 1000000000ULL;
/// ATM_CELL_PAYLOAD.
constexpr uint32_t ATM_CELL_PAYLOAD = 48;
/// ATM_CELL_SIZE.
constexpr uint32_t ATM_CELL_SIZE = 53;

} // namespace

HtbPschedRate
HtbPschedRate::Precompute(const HtbRate& rate)
{
    HtbPschedRate r;
    r.rateBytesPerSecond = rate.bytesPerSecond;
    r.overhead = static_cast<uint16_t>(rate.overhead);
    r.mpu = static_cast<uint16_t>(rate.mpu);
    r.atm = rate.atm;
    r.mult = 1;
    r.shift = 0;
    if (rate.bytesPerSecond == 0)
    {
        return r;
    }
    uint64_t factor = NSEC_PER_SEC;
    for (;;)
    {
        // div64_u64() into the u32 mult: it is below 2^32 whenever bit 31 is first reached.
        r.mult = static_cast<uint32_t>(factor / rate.bytesPerSecond);
        if ((r.mult & (1U << 31)) != 0 || (factor & (1ULL << 63)) != 0)
        {
            break;
        }
        factor <<= 1;
        ++r.shift;
    }
    return r;
}

uint64_t
HtbPschedRate::TimeForBytes(uint32_t len) const
{
    len += overhead;
    if (len < mpu)
    {
        len = mpu;
    }
    if (atm)
    {
        len = (len + ATM_CELL_PAYLOAD - 1) / ATM_CELL_PAYLOAD * ATM_CELL_SIZE;
    }
    return (static_cast<uint64_t>(len) * mult) >> shift;
}

uint64_t
HtbRate::TimeForBytes(uint32_t len) const
{
    return HtbPschedRate::Precompute(*this).TimeForBytes(len);
}

uint32_t
HtbScheduler::TcXmitTicks(uint64_t bytesPerSecond, uint64_t bytes)
{
    // tc_core_init(): /proc/net/psched reads 1000 64 1000000 ..., so tick_in_usec =
    // 1000 / 64 = 15.625 ticks per microsecond.
    const double tickInUsec = 1000.0 / 64.0;
    const double usec =
        1000000.0 * (static_cast<double>(bytes) / static_cast<double>(bytesPerSecond));
    const double ticks = std::ceil(usec * tickInUsec);
    const double max = std::numeric_limits<uint32_t>::max();
    return ticks > max ? std::numeric_limits<uint32_t>::max() : static_cast<uint32_t>(ticks);
}

} // namespace debloat
} // namespace ns3
