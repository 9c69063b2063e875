/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-tso-autosize.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

uint64_t
TcpTsoAutosize::PacingRate(const Config& config,
                           uint32_t mss,
                           uint32_t cwnd,
                           uint32_t packetsOut,
                           uint32_t ssthresh,
                           uint64_t srttUs)
{
    if (srttUs == 0)
    {
        return config.maxPacingRate;
    }
    // The kernel keeps srtt_us in units of 1/8 us and folds the 8 and USEC_PER_SEC / 100
    // into one constant; in plain units: mss * ratio / 100 * segments * 1e6 / srtt_us.
    const uint32_t ratio = cwnd < ssthresh / 2 ? config.pacingSsRatio : config.pacingCaRatio;
    const uint64_t segments = std::max(cwnd, packetsOut);
    // 128 bits: the product overflows 64 only for absurd windows, but must not wrap.
    // (__extension__: GCC and clang's 128-bit type, without -Wpedantic's warning.)
    __extension__ using Uint128 = unsigned __int128;
    const Uint128 rate = static_cast<Uint128>(mss) * ratio * 10000 * segments / srttUs;
    return rate >= config.maxPacingRate ? config.maxPacingRate : static_cast<uint64_t>(rate);
}

uint32_t
TcpTsoAutosize::Segments(const Config& config, uint64_t pacingRate, uint32_t mss, uint64_t minRttUs)
{
    uint64_t bytes = config.pacingShift >= 64 ? 0 : pacingRate >> config.pacingShift;
    if (config.rttAllowance)
    {
        const uint64_t r = config.tsoRttLog >= 64 ? 0 : minRttUs >> config.tsoRttLog;
        // BITS_PER_TYPE(sk_gso_max_size): a 32-bit field.
        if (r < 32)
        {
            bytes += config.gsoMaxSize >> r;
        }
    }
    bytes = std::min<uint64_t>(bytes, config.gsoMaxSize);
    const auto segments = std::max<uint64_t>(bytes / std::max(mss, 1U), config.minTsoSegs);
    return static_cast<uint32_t>(
        std::max<uint64_t>(std::min<uint64_t>(segments, config.gsoMaxSegs), 1));
}

} // namespace debloat
} // namespace ns3
