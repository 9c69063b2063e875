/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "prandom.h"

namespace ns3
{
namespace debloat
{

void
Prandom::Seed(uint64_t seed)
{
    auto raise = [](uint32_t value, uint32_t minimum) {
        return value < minimum ? value + minimum : value;
    };
    const auto i = static_cast<uint32_t>((seed >> 32) ^ (seed << 10) ^ seed);
    m_s1 = raise(i, 2);
    m_s2 = raise(i, 8);
    m_s3 = raise(i, 16);
    m_s4 = raise(i, 128);
    for (int k = 0; k < 10; ++k)
    {
        Next();
    }
}

} // namespace debloat
} // namespace ns3
