/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows lib/random32.c of Linux (prandom_u32_state(), prandom_seed_state() and the
 * warm-up): L'Ecuyer's maximally equidistributed combined Tausworthe generator LFSR113,
 * which the kernel's prandom_u32() ran on until Linux 6.1.
 */

#ifndef PRANDOM_H
#define PRANDOM_H

#include <cstdint>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief A fast 32-bit pseudo-random generator for per-packet decisions (prandom_u32_state()).
 *
 * Queue discs draw random numbers per packet and more (CAKE's DRR dithering draws one per
 * deficit refill, dozens per packet when many flows share a host). ns-3's
 * RandomVariableStream costs tens of ns per draw through virtual calls and MRG32k3a; this
 * generator costs a few. Seed it from an ns-3 stream so that runs stay reproducible and
 * AssignStreams() still controls them.
 */
class Prandom
{
  public:
    /**
     * prandom_seed_state() and the warm-up of prandom_seed_full_state(): the 64-bit seed is
     * folded to i = (seed >> 32) ^ (seed << 10) ^ seed (32 bits), each component gets i,
     * raised by its minimum (2, 8, 16, 128) when below it, and ten draws are discarded. As in
     * Linux, seed bit 32 reaches only bit 0 of i, which no component keeps.
     * @param seed the seed (e.g. 64 bits drawn from an ns-3 stream)
     */
    void Seed(uint64_t seed);

    /// @return the next number (prandom_u32_state()); inline: queue discs draw it per packet
    uint32_t Next()
    {
        // Each component: ((s & c) << d) ^ (((s << a) ^ s) >> b).
        m_s1 = ((m_s1 & 4294967294U) << 18) ^ (((m_s1 << 6) ^ m_s1) >> 13);
        m_s2 = ((m_s2 & 4294967288U) << 2) ^ (((m_s2 << 2) ^ m_s2) >> 27);
        m_s3 = ((m_s3 & 4294967280U) << 7) ^ (((m_s3 << 13) ^ m_s3) >> 21);
        m_s4 = ((m_s4 & 4294967168U) << 13) ^ (((m_s4 << 3) ^ m_s4) >> 12);
        return m_s1 ^ m_s2 ^ m_s3 ^ m_s4;
    }

  private:
    uint32_t m_s1{2};   ///< s1, at least 2
    uint32_t m_s2{8};   ///< s2, at least 8
    uint32_t m_s3{16};  ///< s3, at least 16
    uint32_t m_s4{128}; ///< s4, at least 128
};

} // namespace debloat
} // namespace ns3

#endif /* PRANDOM_H */
