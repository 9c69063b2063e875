/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for ToeplitzHash and RssHash: the Microsoft RSS verification suite (IPv4
 * and IPv6, with and without ports), indirection-table lookups worked by hand, and the
 * refusal of short keys and bad tables.
 *
 * The hash vectors are those of "Verifying the RSS Hash Calculation" in the Windows driver
 * docs (MicrosoftDocs/windows-driver-docs,
 * windows-driver-docs-pr/network/verifying-the-rss-hash-calculation.md), which DPDK's
 * app/test/test_thash.c repeats from the 82599 datasheet's RSS verification suite. The
 * tables list destination before source; the hash input is source first.
 */

#include "error-message.h"

#include "ns3/rss-hash.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace
{

using debloattest::ErrorOf;
using ns3::debloat::RssHash;
using ns3::debloat::ToeplitzHash;

/// An IPv6 address, network byte order.
using Ipv6 = std::array<uint8_t, 16>;

/**
 * @param a first octet
 * @param b second octet
 * @param c third octet
 * @param d fourth octet
 * @return the address with its first octet most significant
 */
constexpr uint32_t
Ipv4(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    return (a << 24) | (b << 16) | (c << 8) | d;
}

/// One row of the specification's IPv4 table.
struct Ipv4Vector
{
    uint32_t src;      ///< source address
    uint16_t sport;    ///< source port
    uint32_t dst;      ///< destination address
    uint16_t dport;    ///< destination port
    uint32_t ipOnly;   ///< "IPv4 only" hash
    uint32_t withPort; ///< "IPv4 with TCP" hash
};

TEST(RssHashTest, MicrosoftIpv4VerificationSuite)
{
    const std::vector<Ipv4Vector> vectors{
        {Ipv4(66, 9, 149, 187), 2794, Ipv4(161, 142, 100, 80), 1766, 0x323e8fc2, 0x51ccc178},
        {Ipv4(199, 92, 111, 2), 14230, Ipv4(65, 69, 140, 83), 4739, 0xd718262a, 0xc626b0ea},
        {Ipv4(24, 19, 198, 95), 12898, Ipv4(12, 22, 207, 184), 38024, 0xd2d0a5de, 0x5c2b394a},
        {Ipv4(38, 27, 205, 30), 48228, Ipv4(209, 142, 163, 6), 2217, 0x82989176, 0xafc7327f},
        {Ipv4(153, 39, 163, 191), 44251, Ipv4(202, 188, 127, 2), 1303, 0x5d1809c5, 0x10e828a2},
    };
    const RssHash rss(4);
    for (const auto& v : vectors)
    {
        EXPECT_EQ(rss.HashIpv4(v.src, v.dst), v.ipOnly);
        EXPECT_EQ(rss.HashIpv4(v.src, v.dst, v.sport, v.dport), v.withPort);
    }
}

TEST(RssHashTest, MicrosoftIpv6VerificationSuite)
{
    // 3ffe:2501:200:1fff::7 (2794) -> 3ffe:2501:200:3::1 (1766)
    const Ipv6 src1{0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x1f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0x07};
    const Ipv6 dst1{0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x00, 0x03, 0, 0, 0, 0, 0, 0, 0, 0x01};
    // 3ffe:501:8::260:97ff:fe40:efab (14230) -> ff02::1 (4739)
    const Ipv6 src2{0x3f,
                    0xfe,
                    0x05,
                    0x01,
                    0x00,
                    0x08,
                    0x00,
                    0x00,
                    0x02,
                    0x60,
                    0x97,
                    0xff,
                    0xfe,
                    0x40,
                    0xef,
                    0xab};
    const Ipv6 dst2{0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01};
    // 3ffe:1900:4545:3:200:f8ff:fe21:67cf (44251) -> fe80::200:f8ff:fe21:67cf (38024)
    const Ipv6 src3{0x3f,
                    0xfe,
                    0x19,
                    0x00,
                    0x45,
                    0x45,
                    0x00,
                    0x03,
                    0x02,
                    0x00,
                    0xf8,
                    0xff,
                    0xfe,
                    0x21,
                    0x67,
                    0xcf};
    const Ipv6 dst3{0xfe,
                    0x80,
                    0x00,
                    0x00,
                    0x00,
                    0x00,
                    0x00,
                    0x00,
                    0x02,
                    0x00,
                    0xf8,
                    0xff,
                    0xfe,
                    0x21,
                    0x67,
                    0xcf};
    const RssHash rss(4);
    EXPECT_EQ(rss.HashIpv6(src1, dst1), 0x2cc18cd5U);
    EXPECT_EQ(rss.HashIpv6(src1, dst1, 2794, 1766), 0x40207d3dU);
    EXPECT_EQ(rss.HashIpv6(src2, dst2), 0x0f0c461cU);
    EXPECT_EQ(rss.HashIpv6(src2, dst2, 14230, 4739), 0xdde51bbfU);
    EXPECT_EQ(rss.HashIpv6(src3, dst3), 0x4b61e985U);
    EXPECT_EQ(rss.HashIpv6(src3, dst3, 44251, 38024), 0x02d1feefU);
}

TEST(ToeplitzHashTest, XorsTheKeyWindowOfEachSetBit)
{
    const std::vector<uint8_t> key{0x01, 0x02, 0x03, 0x04, 0x05};
    // No set bit: nothing is XORed in.
    const uint8_t zero = 0x00;
    EXPECT_EQ(ToeplitzHash(key.data(), key.size(), &zero, 1), 0U);
    // Bit 0 (the most significant) takes key bits 0 to 31: 0x01020304.
    const uint8_t first = 0x80;
    EXPECT_EQ(ToeplitzHash(key.data(), key.size(), &first, 1), 0x01020304U);
    // Bit 7 takes key bits 7 to 38, the 40-bit key 0x0102030405 shifted right by one and
    // cut to 32 bits: 0x81018202.
    const uint8_t last = 0x01;
    EXPECT_EQ(ToeplitzHash(key.data(), key.size(), &last, 1), 0x81018202U);
    // Both bits: 0x01020304 ^ 0x81018202 = 0x80038106.
    const uint8_t both = 0x81;
    EXPECT_EQ(ToeplitzHash(key.data(), key.size(), &both, 1), 0x80038106U);
}

TEST(ToeplitzHashTest, ReadsOnlyInputLengthPlusFourKeyBytes)
{
    // The 12-byte IPv4 4-tuple's last bit reads key bits up to 95 + 31 = 126, inside the
    // first 16 bytes, so the 16-byte prefix of the verification key gives the suite's first
    // "IPv4 with TCP" hash, 0x51ccc178; 15 bytes are refused.
    const std::vector<uint8_t> key = RssHash::DefaultKey();
    const std::array<uint8_t, 12>
        input{66, 9, 149, 187, 161, 142, 100, 80, 2794 >> 8, 2794 & 0xff, 1766 >> 8, 1766 & 0xff};
    EXPECT_EQ(ToeplitzHash(key.data(), 16, input.data(), input.size()), 0x51ccc178U);
    const std::string error =
        ErrorOf([&] { ToeplitzHash(key.data(), 15, input.data(), input.size()); });
    EXPECT_NE(error.find("key length 15"), std::string::npos) << error;
    EXPECT_NE(error.find("at least 16"), std::string::npos) << error;
}

TEST(RssHashTest, DefaultTableMasksTheLowSevenBits)
{
    // ethtool_rxfh_indir_default(i, 4) = i % 4 over 128 entries, indexed by hash & 127, so
    // the queue is (hash & 127) % 4.
    const RssHash rss(4);
    EXPECT_EQ(rss.GetTableSize(), 128U);
    EXPECT_EQ(rss.GetRxQueues(), 4U);
    EXPECT_EQ(rss.GetIndirection()[0], 0U);
    EXPECT_EQ(rss.GetIndirection()[5], 1U);
    EXPECT_EQ(rss.GetIndirection()[127], 3U);
    EXPECT_EQ(rss.SelectQueue(0x51ccc178), 0U); // 0x78 = 120, 120 % 4 = 0
    EXPECT_EQ(rss.SelectQueue(0x5d1809c5), 1U); // 0xc5 & 127 = 69, 69 % 4 = 1
    EXPECT_EQ(rss.SelectQueue(0xc626b0ea), 2U); // 0xea & 127 = 106, 106 % 4 = 2
    EXPECT_EQ(rss.SelectQueue(0xafc7327f), 3U); // 0x7f = 127, 127 % 4 = 3
    // Bit 7 and above do not take part: 0x80 is entry 0, 0xffffff81 entry 1.
    EXPECT_EQ(rss.SelectQueue(0x00000080), 0U);
    EXPECT_EQ(rss.SelectQueue(0xffffff81), 1U);

    // Three queues: 127 % 3 = 1; 0xc2 & 127 = 66, 66 % 3 = 0.
    const RssHash three(3);
    EXPECT_EQ(three.SelectQueue(0xafc7327f), 1U);
    EXPECT_EQ(three.SelectQueue(0x323e8fc2), 0U);
}

TEST(RssHashTest, TableOfOtherSizeUsesModulo)
{
    // Six entries for four queues: 0 1 2 3 0 1. 10 % 6 = 4 -> queue 0;
    // 0xffffffff = 4294967295 = 6 * 715827882 + 3 -> entry 3, queue 3.
    const RssHash rss(4, RssHash::DefaultKey(), 6);
    EXPECT_EQ(rss.SelectQueue(10), 0U);
    EXPECT_EQ(rss.SelectQueue(0xffffffff), 3U);
    // A power of two other than 128 masks: 16 entries, 0x5c2b394a & 15 = 10, 10 % 4 = 2.
    const RssHash sixteen(4, RssHash::DefaultKey(), 16);
    EXPECT_EQ(sixteen.SelectQueue(0x5c2b394a), 2U);
}

TEST(RssHashTest, CustomIndirectionTable)
{
    // igb_setup_mrqc()'s table for 4 queues: entry j is (j * 4) / 128 = j / 32, blocks of 32.
    RssHash rss(4);
    std::vector<uint32_t> igb(128);
    for (uint32_t j = 0; j < igb.size(); ++j)
    {
        igb[j] = j * 4 / 128;
    }
    rss.SetIndirection(igb);
    EXPECT_EQ(rss.SelectQueue(0x51ccc178), 3U); // entry 120 -> 120 / 32 = 3
    EXPECT_EQ(rss.SelectQueue(0x5d1809c5), 2U); // entry 69 -> 2
    EXPECT_EQ(rss.SelectQueue(0x10e828a2), 1U); // entry 34 -> 1
    EXPECT_EQ(rss.SelectQueue(0x00000080), 0U); // entry 0 -> 0

    // ethtool -X eth0 weight 0 1: every entry on queue 1.
    rss.SetIndirection(std::vector<uint32_t>(128, 1));
    EXPECT_EQ(rss.SelectQueue(0x51ccc178), 1U);
    EXPECT_EQ(rss.SelectQueue(0xafc7327f), 1U);

    // An empty table restores i % 4, as ethtool -X eth0 default.
    rss.SetIndirection({});
    EXPECT_EQ(rss.SelectQueue(0x5d1809c5), 1U);
    EXPECT_EQ(rss.GetIndirection()[126], 2U);
}

TEST(RssHashTest, RefusesBadConfiguration)
{
    const std::vector<uint8_t> key = RssHash::DefaultKey();
    const std::string noQueues = ErrorOf([&] { RssHash(0, key); });
    EXPECT_NE(noQueues.find("rxQueues 0"), std::string::npos) << noQueues;
    EXPECT_NE(noQueues.find("1 to 64"), std::string::npos) << noQueues;
    const std::string tooMany = ErrorOf([&] { RssHash(65, key); });
    EXPECT_NE(tooMany.find("rxQueues 65"), std::string::npos) << tooMany;

    // 36 bytes would do for IPv4, but the IPv6 4-tuple needs 40.
    const std::vector<uint8_t> shortKey(key.begin(), key.begin() + 36);
    const std::string keyError = ErrorOf([&] { RssHash(4, shortKey); });
    EXPECT_NE(keyError.find("key of 36 bytes"), std::string::npos) << keyError;
    EXPECT_NE(keyError.find("at least 40"), std::string::npos) << keyError;

    const std::string tableError = ErrorOf([&] { RssHash(4, key, 0); });
    EXPECT_NE(tableError.find("tableSize"), std::string::npos) << tableError;

    // A refused Configure leaves the old configuration.
    RssHash rss(4);
    EXPECT_THROW(rss.Configure(0, key), std::invalid_argument);
    EXPECT_EQ(rss.GetRxQueues(), 4U);
    EXPECT_EQ(rss.GetTableSize(), 128U);
}

TEST(RssHashTest, RefusesBadIndirectionTable)
{
    RssHash rss(4);
    std::vector<uint32_t> table(128, 0);
    table[7] = 4;
    const std::string entryError = ErrorOf([&] { rss.SetIndirection(table); });
    EXPECT_NE(entryError.find("indirection entry 7 is queue 4"), std::string::npos) << entryError;
    EXPECT_NE(entryError.find("0 to 3"), std::string::npos) << entryError;
    const std::string sizeError =
        ErrorOf([&] { rss.SetIndirection(std::vector<uint32_t>(64, 0)); });
    EXPECT_NE(sizeError.find("64 entries"), std::string::npos) << sizeError;
    EXPECT_NE(sizeError.find("128"), std::string::npos) << sizeError;
    // Both refusals left the default table.
    EXPECT_EQ(rss.GetIndirection()[7], 3U);
}

TEST(RssHashTest, EthtoolIndirectionWords)
{
    // ethtool -X equal 2 on 128 entries: entry i on queue i mod 2.
    const std::vector<uint32_t> equal = RssHash::ParseIndirection("equal 2", 128, 4);
    ASSERT_EQ(equal.size(), 128U);
    EXPECT_EQ(equal[0], 0U);
    EXPECT_EQ(equal[1], 1U);
    EXPECT_EQ(equal[127], 1U);
    // weight 1 3: sum 4; entry i takes the first queue whose cumulative weight passes
    // i x 4 / 128: queue 0 for i < 128 x 1 / 4 = 32, queue 1 after, 32 and 96 entries (1:3).
    const std::vector<uint32_t> weights = RssHash::ParseIndirection("weight 1 3", 128, 4);
    ASSERT_EQ(weights.size(), 128U);
    EXPECT_EQ(std::count(weights.begin(), weights.end(), 0U), 32);
    EXPECT_EQ(std::count(weights.begin(), weights.end(), 1U), 96);
    EXPECT_EQ(weights[31], 0U);
    EXPECT_EQ(weights[32], 1U);
    // weight 1 0 1: sum 2; queue 1's zero weight gets no entry: 64 on queue 0, 64 on 2.
    const std::vector<uint32_t> skip = RssHash::ParseIndirection("weight 1 0 1", 128, 4);
    EXPECT_EQ(std::count(skip.begin(), skip.end(), 0U), 64);
    EXPECT_EQ(std::count(skip.begin(), skip.end(), 1U), 0);
    EXPECT_EQ(std::count(skip.begin(), skip.end(), 2U), 64);
    // The table selects: with weight 1 3 a hash whose low 7 bits are 31 goes to queue 0,
    // 32 to queue 1.
    RssHash rss(4);
    rss.SetIndirection(weights);
    EXPECT_EQ(rss.SelectQueue(31), 0U);
    EXPECT_EQ(rss.SelectQueue(0x80 | 32), 1U);
    EXPECT_TRUE(RssHash::ParseIndirection("default", 128, 4).empty());
}

TEST(RssHashTest, EthtoolIndirectionRefusesBadWords)
{
    for (const char* words : {"equal 0",
                              "equal 5",
                              "equal x",
                              "weight",
                              "weight 0 0",
                              "weight 1 1 1 1 1",
                              "weight 100 100",
                              "spread 2",
                              "equal 2 3",
                              ""})
    {
        EXPECT_THROW(RssHash::ParseIndirection(words, 128, 4), std::invalid_argument) << words;
    }
    EXPECT_NE(ErrorOf([] {
                  RssHash::ParseIndirection("equal 5", 128, 4);
              }).find("accepted: default, equal N (1 to 4)"),
              std::string::npos);
}

} // namespace
