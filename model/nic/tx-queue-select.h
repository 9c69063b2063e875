/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TX_QUEUE_SELECT_H
#define TX_QUEUE_SELECT_H

#include <cstdint>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-nic
 * Mirrors reciprocal_scale() as skb_tx_hash() uses it: maps a 32-bit flow hash onto
 * [0, n) by multiplication instead of a modulo, (hash * n) >> 32.
 * @param hash the flow hash
 * @param n the number of TX queues
 * @return the TX queue index
 */
constexpr uint32_t
ReciprocalScale(uint32_t hash, uint32_t n)
{
    return static_cast<uint32_t>((static_cast<uint64_t>(hash) * n) >> 32);
}

} // namespace debloat
} // namespace ns3

#endif /* TX_QUEUE_SELECT_H */
