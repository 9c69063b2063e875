/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tcp-small-queues.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

uint64_t
TcpSmallQueues::Truesize(uint32_t payload)
{
    constexpr uint64_t SKB_END_OFFSET = 704; // kmalloc 1024 - SKB_DATA_ALIGN(shared info)
    constexpr uint64_t SK_BUFF = 256;        // SKB_DATA_ALIGN(sizeof(struct sk_buff))
    constexpr uint64_t SHARED_INFO = 320;    // SKB_DATA_ALIGN(sizeof(skb_shared_info))
    return SKB_END_OFFSET + SK_BUFF + SHARED_INFO + payload;
}

uint64_t
TcpSmallQueues::Limit(const Config& config, uint64_t truesize, uint64_t pacingRate)
{
    const uint64_t paced = config.pacingShift >= 64 ? 0 : pacingRate >> config.pacingShift;
    return std::min(std::max(2 * truesize, paced), config.limitOutputBytes);
}

bool
TcpSmallQueues::Throttled(uint64_t wmemAlloc, uint64_t limit, bool rtxQueueEmptyOrSingle)
{
    return wmemAlloc > limit && !rtxQueueEmptyOrSingle;
}

} // namespace debloat
} // namespace ns3
