/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for Prandom, the port of Linux's prandom_u32_state(): L'Ecuyer's LFSR113
 * combined Tausworthe generator. Expected values are derived in comments from the published
 * recurrences (P. L'Ecuyer, Math. Comp. 65 (1996) 203-213, and its 1999 erratum):
 *   z1' = ((z1 & 4294967294) << 18) ^ (((z1 <<  6) ^ z1) >> 13)
 *   z2' = ((z2 & 4294967288) <<  2) ^ (((z2 <<  2) ^ z2) >> 27)
 *   z3' = ((z3 & 4294967280) <<  7) ^ (((z3 << 13) ^ z3) >> 21)
 *   z4' = ((z4 & 4294967168) << 13) ^ (((z4 <<  3) ^ z4) >> 12)
 *   output z1' ^ z2' ^ z3' ^ z4'
 * and from prandom_seed_state() as prandom.h's Seed() follows it: the seed folds to
 *   i = (seed >> 32) ^ (seed << 10) ^ seed (mod 2^32),
 * every component starts at i, raised by its minimum m (2, 8, 16, 128) when below it
 * (v < m: v + m), then ten draws are discarded (prandom_seed_full_state()'s warm-up).
 *
 * The masks clear the k lowest bits of each component (k = 1, 3, 4, 7, m = 2^k), and in the
 * second term a low bit, moved up by the left shift a (6, 2, 13, 3), is still below bit
 * k + a, which the right shift b (13, 27, 21, 12, each at least k + a) drops: those low bits
 * never reach the state or the output, only the 31 + 29 + 28 + 25 = 113 upper bits matter.
 * A component whose upper bits are all zero (a value below m) stays zero forever, which is
 * why seeding raises it; and any two values that agree above bit k draw alike.
 */

#include "ns3/prandom.h"

#include <array>
#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

namespace
{

using ns3::debloat::Prandom;

/**
 * An independent LFSR113, written from L'Ecuyer's recurrences in the style of his published
 * code (a temporary b per component), to compare Prandom against.
 */
struct Lfsr113
{
    uint32_t z1; ///< component 1 (upper 31 bits significant)
    uint32_t z2; ///< component 2 (upper 29 bits significant)
    uint32_t z3; ///< component 3 (upper 28 bits significant)
    uint32_t z4; ///< component 4 (upper 25 bits significant)

    /// @return the next output
    uint32_t Next()
    {
        uint32_t b = ((z1 << 6) ^ z1) >> 13;
        z1 = ((z1 & 4294967294U) << 18) ^ b;
        b = ((z2 << 2) ^ z2) >> 27;
        z2 = ((z2 & 4294967288U) << 2) ^ b;
        b = ((z3 << 13) ^ z3) >> 21;
        z3 = ((z3 & 4294967280U) << 7) ^ b;
        b = ((z4 << 3) ^ z4) >> 12;
        z4 = ((z4 & 4294967168U) << 13) ^ b;
        return z1 ^ z2 ^ z3 ^ z4;
    }

    /// Draws ten numbers and discards them, as prandom_warmup() does.
    void WarmUp()
    {
        for (int i = 0; i < 10; ++i)
        {
            Next();
        }
    }
};

/**
 * @param generator a generator
 * @param n how many numbers to draw
 * @return its next n numbers
 */
template <typename Generator>
std::vector<uint32_t>
Draw(Generator& generator, std::size_t n)
{
    std::vector<uint32_t> out;
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        out.push_back(generator.Next());
    }
    return out;
}

/**
 * @param seed a seed
 * @param n how many numbers to draw
 * @return the first n numbers of a Prandom seeded with it
 */
std::vector<uint32_t>
Seeded(uint64_t seed, std::size_t n)
{
    Prandom generator;
    generator.Seed(seed);
    return Draw(generator, n);
}

// The reference itself, by hand from (2, 8, 16, 128), the smallest valid state.
// Step 1:
//   z1 = 2:   (2 & ~1) << 18 = 2^19 = 0x80000;  ((2 << 6) ^ 2) >> 13 = 130 >> 13 = 0
//   z2 = 8:   (8 & ~7) << 2 = 32 = 0x20;        ((8 << 2) ^ 8) >> 27 = 40 >> 27 = 0
//   z3 = 16:  16 << 7 = 2048 = 0x800;           ((16 << 13) ^ 16) >> 21 = 131088 >> 21 = 0
//   z4 = 128: 128 << 13 = 2^20 = 0x100000;      ((128 << 3) ^ 128) >> 12 = 1152 >> 12 = 0
//   output 0x80000 ^ 0x20 ^ 0x800 ^ 0x100000 = 0x180820
// Step 2:
//   z1 = 2^19: 2^37 mod 2^32 = 0;               (2^25 ^ 2^19) >> 13 = 2^12 + 2^6 = 0x1040
//   z2 = 2^5:  2^7 = 0x80;                      (2^7 ^ 2^5) >> 27 = 0
//   z3 = 2^11: 2^18 = 0x40000;                  (2^24 ^ 2^11) >> 21 = 2^3 = 0x8
//   z4 = 2^20: 2^33 mod 2^32 = 0;               (2^23 ^ 2^20) >> 12 = 2^11 + 2^8 = 0x900
//   output 0x1040 ^ 0x80 ^ 0x40008 ^ 0x900 = 0x419C8
TEST(PrandomReference, TwoStepsByHand)
{
    Lfsr113 reference{2, 8, 16, 128};
    EXPECT_EQ(reference.Next(), 0x180820U);
    EXPECT_EQ(reference.z1, 0x80000U);
    EXPECT_EQ(reference.z2, 0x20U);
    EXPECT_EQ(reference.z3, 0x800U);
    EXPECT_EQ(reference.z4, 0x100000U);
    EXPECT_EQ(reference.Next(), 0x419C8U);
}

// The reference against published values: the self-test of Linux's lib/random32.c
// (CONFIG_RANDOM32_SELFTEST, Linux 3.13 to 6.0). prandom_seed_very_weak() seeds
// s1 = __seed(LCG(seed), 2), s2 = __seed(LCG(s1), 8), s3 = __seed(LCG(s2), 16),
// s4 = __seed(LCG(s3), 128) with LCG(x) = x * 69069 mod 2^32; prandom_warmup() draws ten.
// test1: the first draw after that; test2 (checked against GSL's taus113): the
// iteration-th draw.
TEST(PrandomReference, MatchesLinuxSelfTestVectors)
{
    auto weak = [](uint32_t seed) {
        auto raise = [](uint32_t value, uint32_t minimum) {
            return value < minimum ? value + minimum : value;
        };
        Lfsr113 state{};
        state.z1 = raise(seed * 69069U, 2);
        state.z2 = raise(state.z1 * 69069U, 8);
        state.z3 = raise(state.z2 * 69069U, 16);
        state.z4 = raise(state.z3 * 69069U, 128);
        state.WarmUp();
        return state;
    };
    const std::array<std::array<uint32_t, 2>, 4> test1 = {{
        {1U, 3484351685U},
        {2U, 2623130059U},
        {3U, 3125133893U},
        {4U, 984847254U},
    }};
    for (const auto& [seed, result] : test1)
    {
        Lfsr113 state = weak(seed);
        EXPECT_EQ(state.Next(), result) << "test1 seed " << seed;
    }
    const std::array<std::array<uint32_t, 3>, 4> test2 = {{
        {931557656U, 959U, 2975593782U},
        {1339693295U, 876U, 3887776532U},
        {1967883163U, 508U, 10734624U},
        {407983964U, 921U, 728767059U},
    }};
    for (const auto& [seed, iteration, result] : test2)
    {
        Lfsr113 state = weak(seed);
        for (uint32_t j = 0; j + 1 < iteration; ++j)
        {
            state.Next();
        }
        EXPECT_EQ(state.Next(), result) << "test2 seed " << seed;
    }
}

// A Prandom that was never seeded starts from the smallest valid state (2, 8, 16, 128), the
// members' initializers, without warm-up: its first two draws are the hand-computed
// 0x180820 and 0x419C8 above.
TEST(PrandomNext, UnseededStartsFromTheMinimums)
{
    Prandom generator;
    EXPECT_EQ(generator.Next(), 0x180820U);
    EXPECT_EQ(generator.Next(), 0x419C8U);
}

// The seed's fold and the raising, by hand (i = (seed >> 32) ^ low32(seed << 10) ^ low32(seed)):
//   0:                     i = 0 -> (2, 8, 16, 128)
//   0x8:                   i = 0x8 ^ 0x2000 = 0x2008, above every minimum
//   0x80:                  i = 0x80 ^ 0x20000 = 0x20080
//   0x7_00000007:          i = 7 ^ (7 << 10) ^ 7 = 0x1C00
//   0x10_00000000:         i = 0x10 (seed << 10 and the low half are 0): s1 = s2 = 16,
//                          s3 = 16 (= its minimum: kept), s4 = 16 + 128 = 144
//   0x1_FFFFFFFF:          i = 1 ^ 0xFFFFFC00 ^ 0xFFFFFFFF = 1 ^ 0x3FF = 0x3FE
//   0xFFFFFFFF_FFFFFFFF:   i = 0xFFFFFFFF ^ 0xFFFFFC00 ^ 0xFFFFFFFF = 0xFFFFFC00
//   0x01234567_89ABCDEF:   0x89ABCDEF << 10 = 0x226AF37BC00, low 32 bits 0xAF37BC00;
//                          0x01234567 ^ 0x89ABCDEF = 0x88888888 (each byte pair is 0x88);
//                          0x88888888 ^ 0xAF37BC00 = 0x27BF3488
TEST(PrandomSeed, MapsTheSeedAndRaisesComponentsBelowTheirMinimums)
{
    struct Case
    {
        uint64_t seed;                 ///< the seed
        std::array<uint32_t, 4> state; ///< s1..s4 by hand
    };

    const std::vector<Case> cases = {
        {0x0000000000000000ULL, {2U, 8U, 16U, 128U}},
        {0x0000000000000008ULL, {0x2008U, 0x2008U, 0x2008U, 0x2008U}},
        {0x0000000000000080ULL, {0x20080U, 0x20080U, 0x20080U, 0x20080U}},
        {0x0000000700000007ULL, {0x1C00U, 0x1C00U, 0x1C00U, 0x1C00U}},
        {0x0000001000000000ULL, {16U, 16U, 16U, 144U}},
        {0x00000001FFFFFFFFULL, {0x3FEU, 0x3FEU, 0x3FEU, 0x3FEU}},
        {0xFFFFFFFFFFFFFFFFULL, {0xFFFFFC00U, 0xFFFFFC00U, 0xFFFFFC00U, 0xFFFFFC00U}},
        {0x0123456789ABCDEFULL, {0x27BF3488U, 0x27BF3488U, 0x27BF3488U, 0x27BF3488U}},
    };
    for (const Case& c : cases)
    {
        Lfsr113 reference{c.state[0], c.state[1], c.state[2], c.state[3]};
        reference.WarmUp();
        EXPECT_EQ(Seeded(c.seed, 1000), Draw(reference, 1000)) << std::hex << "seed 0x" << c.seed;
    }
}

// The raising rule's edges. Without it seed 0 would leave every component 0, and the
// reference shows a zero state stays zero (every term is a shift of zero): the output would
// be 0 forever. A value equal to its minimum is kept: were it raised too (v <= m), seed 8
// would give s2 = 16 (upper bits 0b10 instead of 0b1), s4 = 256 for i = 128, s3 = 32 for
// i = 16 and s1 = 4 for i = 2; each of those states draws another sequence. Seeds whose
// high half is i and low half 0 fold to i.
TEST(PrandomSeed, RaisesOnlyBelowTheMinimum)
{
    Lfsr113 zero{0, 0, 0, 0};
    zero.WarmUp();
    EXPECT_EQ(Draw(zero, 100), std::vector<uint32_t>(100, 0U));
    EXPECT_NE(Seeded(0, 100), std::vector<uint32_t>(100, 0U));

    struct Case
    {
        uint64_t seed;                      ///< the seed
        std::array<uint32_t, 4> kept;       ///< s1..s4 with the minimum kept (by hand)
        std::array<uint32_t, 4> overRaised; ///< the same, had "v <= m" raised it
    };

    const std::vector<Case> cases = {
        // high 2, low 0: i = 2: s1 = 2 (kept; 4 if raised), s2 = 10, s3 = 18, s4 = 130
        {0x2ULL << 32, {2U, 10U, 18U, 130U}, {4U, 10U, 18U, 130U}},
        // i = 8: s2 = 8 (kept; 16 if raised)
        {0x8ULL << 32, {8U, 8U, 24U, 136U}, {8U, 16U, 24U, 136U}},
        // i = 16: s3 = 16 (kept; 32 if raised)
        {0x10ULL << 32, {16U, 16U, 16U, 144U}, {16U, 16U, 32U, 144U}},
        // i = 128: s4 = 128 (kept; 256 if raised)
        {0x80ULL << 32, {128U, 128U, 128U, 128U}, {128U, 128U, 128U, 256U}},
    };
    for (const Case& c : cases)
    {
        Lfsr113 kept{c.kept[0], c.kept[1], c.kept[2], c.kept[3]};
        Lfsr113 overRaised{c.overRaised[0], c.overRaised[1], c.overRaised[2], c.overRaised[3]};
        kept.WarmUp();
        overRaised.WarmUp();
        const std::vector<uint32_t> actual = Seeded(c.seed, 100);
        EXPECT_EQ(actual, Draw(kept, 100)) << std::hex << "seed 0x" << c.seed;
        EXPECT_NE(actual, Draw(overRaised, 100)) << std::hex << "seed 0x" << c.seed;
    }
}

// The warm-up: after Seed() the first draw is the state's 11th, not its 1st. Seed 0 gives the
// components (2, 8, 16, 128), the unseeded state, so Seed(0) continues where an unseeded
// generator is after ten draws (no reference needed); and for seed 0x0123456789ABCDEF
// (state by hand above) the first draw is the reference's 11th.
TEST(PrandomSeed, WarmsUpWithTenDraws)
{
    Prandom unseeded;
    const std::vector<uint32_t> first = Draw(unseeded, 10);
    EXPECT_NE(Seeded(0, 10), first);
    EXPECT_EQ(Seeded(0, 1000), Draw(unseeded, 1000));

    Lfsr113 reference{0x27BF3488U, 0x27BF3488U, 0x27BF3488U, 0x27BF3488U};
    const std::vector<uint32_t> eleven = Draw(reference, 11);
    const std::vector<uint32_t> seeded = Seeded(0x0123456789ABCDEFULL, 1);
    EXPECT_EQ(seeded[0], eleven[10]);
    for (int i = 0; i < 10; ++i)
    {
        EXPECT_NE(seeded[0], eleven[i]) << "draw " << i + 1;
    }
}

// Determinism: the same seed gives the same sequence in two generators, and seeding again
// restarts a generator that has already drawn (Seed() replaces the whole state).
TEST(PrandomSeed, SameSeedSameSequence)
{
    for (uint64_t seed : std::vector<uint64_t>{0, 42, 0xDEADBEEFCAFEF00DULL, UINT64_MAX})
    {
        Prandom a;
        Prandom b;
        a.Seed(seed);
        b.Seed(seed);
        EXPECT_EQ(Draw(a, 10000), Draw(b, 10000)) << std::hex << "seed 0x" << seed;

        Prandom c;
        c.Seed(seed ^ 0x5555555555555555ULL);
        Draw(c, 123);
        c.Seed(seed);
        EXPECT_EQ(Draw(c, 1000), Seeded(seed, 1000)) << std::hex << "seed 0x" << seed;
    }
}

// Different seeds, different sequences: a few unrelated seeds, and seeds that differ in one
// bit: low bit b flips bit b of i (and bit b + 10 below 32), high bit b flips bit b - 32 of
// i; every bit of i but bit 0 is kept by s1, so every seed bit but 32 changes the sequence.
// Unrelated seeds give unrelated sequences: two independent 32-bit draws are equal with
// probability 2^-32, so over 100 positions at most a couple of equal draws are allowed.
TEST(PrandomSeed, DifferentSeedsDiffer)
{
    const std::vector<uint64_t> seeds = {
        0x0123456789ABCDEFULL,
        0xFEDCBA9876543210ULL,
        42ULL << 32,
        0xDEADBEEFCAFEF00DULL,
    };
    for (std::size_t i = 0; i < seeds.size(); ++i)
    {
        for (std::size_t j = i + 1; j < seeds.size(); ++j)
        {
            const std::vector<uint32_t> a = Seeded(seeds[i], 100);
            const std::vector<uint32_t> b = Seeded(seeds[j], 100);
            int same = 0;
            for (std::size_t k = 0; k < a.size(); ++k)
            {
                same += a[k] == b[k];
            }
            EXPECT_LE(same, 2) << std::hex << seeds[i] << " vs " << seeds[j];
        }
    }
    const uint64_t base = 0xDEADBEEFCAFEF00DULL;
    const std::vector<uint32_t> baseline = Seeded(base, 100);
    for (int bit = 1; bit < 64; ++bit)
    {
        if (bit == 32)
        {
            continue; // see SeedBit32IsFoldedAway
        }
        EXPECT_FALSE(Seeded(base ^ (1ULL << bit), 100) == baseline) << "bit " << bit;
    }
}

// As in Linux, the fold loses seed bit 32: it lands on bit 0 of i alone, which no component
// keeps (the masks drop bits 0, 0-2, 0-3 and 0-6). Seed bit 0 is not lost: it also lands on
// bit 10 of i (seed << 10). So 0x1_00000000 draws like 0, and 1 does not.
TEST(PrandomSeed, SeedBit32IsFoldedAway)
{
    const uint64_t base = 0xDEADBEEFCAFEF00DULL;
    EXPECT_EQ(Seeded(base ^ (1ULL << 32), 100), Seeded(base, 100));
    EXPECT_EQ(Seeded(1ULL << 32, 100), Seeded(0, 100));
    EXPECT_NE(Seeded(1, 100), Seeded(0, 100));
}

// Uniformity over 100000 draws from each of four seeds. The mean of a uniform integer on
// [0, 2^32 - 1] is 2^31 - 0.5, its standard deviation 2^32 / sqrt(12) = 1.24e9, so the
// mean of 100000 draws has standard deviation 1.24e9 / sqrt(100000) = 3.92e6; the 0.5% bound
// (1.07e7) is 2.7 of them. Each bit is set with probability 1/2: the count over 100000 draws
// has mean 50000 and standard deviation sqrt(100000 / 4) = 158; the bound 1% (500) is 3.2 of
// them (the four seeds were chosen once; the sequences are fixed).
TEST(PrandomNext, MeanAndBitBalance)
{
    constexpr int N = 100000;
    const double expectedMean = 2147483648.0 - 0.5;
    for (uint64_t seed : {0ULL, 42ULL, 0x0123456789ABCDEFULL, 0xDEADBEEFCAFEF00DULL})
    {
        Prandom generator;
        generator.Seed(seed);
        double sum = 0;
        std::array<int, 32> ones{};
        for (int i = 0; i < N; ++i)
        {
            const uint32_t value = generator.Next();
            sum += value;
            for (int bit = 0; bit < 32; ++bit)
            {
                ones[bit] += (value >> bit) & 1U;
            }
        }
        EXPECT_NEAR(sum / N, expectedMean, 0.005 * expectedMean) << std::hex << "seed 0x" << seed;
        for (int bit = 0; bit < 32; ++bit)
        {
            EXPECT_NEAR(ones[bit], N / 2, N / 200) << "seed " << seed << " bit " << bit;
        }
    }
}

} // namespace
