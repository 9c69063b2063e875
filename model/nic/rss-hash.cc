/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows the Microsoft RSS specification ("RSS Hashing Functions", "Verifying the RSS Hash
 * Calculation"), the indirection table of Intel's igb/ixgbe hardware, and Linux's
 * ethtool_rxfh_indir_default() (include/linux/ethtool.h) and ethtool_set_rxfh()
 * (net/ethtool/ioctl.c).
 */

#include "rss-hash.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace ns3
{
namespace debloat
{

namespace
{
/// IPv4 4-tuple input: two addresses and two ports.
constexpr std::size_t IPV4_TUPLE_BYTES = 12;
/// IPv6 4-tuple input: two addresses and two ports.
constexpr std::size_t IPV6_TUPLE_BYTES = 36;

/**
 * Writes a value most significant byte first.
 * @param value the value
 * @param bytes how many of its low bytes
 * @param out where to write them
 */
void
PutBigEndian(uint32_t value, std::size_t bytes, uint8_t* out)
{
    for (std::size_t i = 0; i < bytes; ++i)
    {
        out[i] = static_cast<uint8_t>(value >> (8 * (bytes - 1 - i)));
    }
}
} // namespace

uint32_t
ToeplitzHash(const uint8_t* key,
             std::size_t keyLength,
             const uint8_t* input,
             std::size_t inputLength)
{
    if (keyLength < inputLength + 4)
    {
        throw std::invalid_argument("ToeplitzHash: key length " + std::to_string(keyLength) +
                                    " bytes is too short for an input of " +
                                    std::to_string(inputLength) + " bytes; accepted: at least " +
                                    std::to_string(inputLength + 4) + " bytes");
    }
    uint32_t result = 0;
    for (std::size_t byte = 0; byte < inputLength; ++byte)
    {
        // The 40 key bits from this byte's first bit hold the 32-bit windows of all 8 of its
        // bits: bit b (0 = most significant) takes key bits b to b + 31 of them.
        uint64_t keyBits = 0;
        for (std::size_t k = 0; k < 5; ++k)
        {
            keyBits = (keyBits << 8) | key[byte + k];
        }
        for (uint32_t bit = 0; bit < 8; ++bit)
        {
            if (input[byte] & (0x80U >> bit))
            {
                result ^= static_cast<uint32_t>(keyBits >> (8 - bit));
            }
        }
    }
    return result;
}

std::vector<uint8_t>
RssHash::DefaultKey()
{
    // "Verifying the RSS Hash Calculation" (Windows driver docs); also the example key of the
    // igb/ixgbe datasheets' RSS verification suite.
    return {0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
            0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
            0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa};
}

RssHash::RssHash(uint32_t rxQueues, const std::vector<uint8_t>& key, uint32_t tableSize)
{
    Configure(rxQueues, key, tableSize);
}

void
RssHash::Configure(uint32_t rxQueues, const std::vector<uint8_t>& key, uint32_t tableSize)
{
    if (rxQueues < 1 || rxQueues > MAX_RX_QUEUES)
    {
        throw std::invalid_argument("RssHash: rxQueues " + std::to_string(rxQueues) +
                                    " is out of range; accepted: 1 to " +
                                    std::to_string(MAX_RX_QUEUES));
    }
    if (key.size() < MIN_KEY_BYTES)
    {
        throw std::invalid_argument("RssHash: key of " + std::to_string(key.size()) +
                                    " bytes is too short; accepted: at least " +
                                    std::to_string(MIN_KEY_BYTES) + " bytes");
    }
    if (tableSize < 1)
    {
        throw std::invalid_argument("RssHash: tableSize 0 is out of range; accepted: at least 1");
    }
    m_rxQueues = rxQueues;
    m_key = key;
    m_tableIsPowerOfTwo = (tableSize & (tableSize - 1)) == 0;
    m_indirection.resize(tableSize);
    for (uint32_t i = 0; i < tableSize; ++i)
    {
        m_indirection[i] = i % rxQueues; // ethtool_rxfh_indir_default()
    }
}

uint32_t
RssHash::HashIpv4(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport) const
{
    std::array<uint8_t, IPV4_TUPLE_BYTES> input{};
    PutBigEndian(src, 4, &input[0]);
    PutBigEndian(dst, 4, &input[4]);
    PutBigEndian(sport, 2, &input[8]);
    PutBigEndian(dport, 2, &input[10]);
    return Hash(input.data(), input.size());
}

uint32_t
RssHash::HashIpv4(uint32_t src, uint32_t dst) const
{
    std::array<uint8_t, 8> input{};
    PutBigEndian(src, 4, &input[0]);
    PutBigEndian(dst, 4, &input[4]);
    return Hash(input.data(), input.size());
}

uint32_t
RssHash::HashIpv6(const std::array<uint8_t, 16>& src,
                  const std::array<uint8_t, 16>& dst,
                  uint16_t sport,
                  uint16_t dport) const
{
    std::array<uint8_t, IPV6_TUPLE_BYTES> input{};
    std::copy(src.begin(), src.end(), input.begin());
    std::copy(dst.begin(), dst.end(), input.begin() + 16);
    PutBigEndian(sport, 2, &input[32]);
    PutBigEndian(dport, 2, &input[34]);
    return Hash(input.data(), input.size());
}

uint32_t
RssHash::HashIpv6(const std::array<uint8_t, 16>& src, const std::array<uint8_t, 16>& dst) const
{
    std::array<uint8_t, 32> input{};
    std::copy(src.begin(), src.end(), input.begin());
    std::copy(dst.begin(), dst.end(), input.begin() + 16);
    return Hash(input.data(), input.size());
}

uint32_t
RssHash::SelectQueue(uint32_t hash) const
{
    const auto size = static_cast<uint32_t>(m_indirection.size());
    return m_indirection[m_tableIsPowerOfTwo ? (hash & (size - 1)) : (hash % size)];
}

void
RssHash::SetIndirection(std::vector<uint32_t> table)
{
    if (table.empty())
    {
        // ethtool_set_rxfh(): indir_size 0 resets to ethtool_rxfh_indir_default().
        for (uint32_t i = 0; i < m_indirection.size(); ++i)
        {
            m_indirection[i] = i % m_rxQueues;
        }
        return;
    }
    // ethtool_set_rxfh() refuses a table of another size than the device's, and
    // ethtool_copy_validate_indir() an entry naming a queue the device lacks.
    if (table.size() != m_indirection.size())
    {
        throw std::invalid_argument("RssHash: indirection table of " +
                                    std::to_string(table.size()) +
                                    " entries; accepted: " + std::to_string(m_indirection.size()) +
                                    " entries (tableSize), or none for the default");
    }
    for (std::size_t i = 0; i < table.size(); ++i)
    {
        if (table[i] >= m_rxQueues)
        {
            throw std::invalid_argument("RssHash: indirection entry " + std::to_string(i) +
                                        " is queue " + std::to_string(table[i]) +
                                        "; accepted: 0 to " + std::to_string(m_rxQueues - 1) +
                                        " (rxQueues " + std::to_string(m_rxQueues) + ")");
        }
    }
    m_indirection = std::move(table);
}

std::vector<uint32_t>
RssHash::ParseIndirection(const std::string& words, uint32_t tableSize, uint32_t rxQueues)
{
    const std::string accepted = "accepted: default, equal N (1 to " + std::to_string(rxQueues) +
                                 "), weight W0 W1 ... (at most " + std::to_string(rxQueues) +
                                 " weights, their sum 1 to " + std::to_string(tableSize) + ")";
    std::istringstream in(words);
    std::string word;
    in >> word;
    auto number = [&](const std::string& text) {
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos ||
            text.size() > 9)
        {
            throw std::invalid_argument("RssHash: ethtool -X \"" + words + "\": \"" + text +
                                        "\" is not a number; " + accepted);
        }
        return static_cast<uint32_t>(std::stoul(text));
    };
    std::vector<uint32_t> table;
    if (word == "default")
    {
        // ethtool_set_rxfh() with no table: the driver's default.
    }
    else if (word == "equal")
    {
        std::string count;
        in >> count;
        const uint32_t n = number(count);
        if (n < 1 || n > rxQueues)
        {
            throw std::invalid_argument("RssHash: ethtool -X \"" + words + "\": equal " + count +
                                        " is out of range; " + accepted);
        }
        for (uint32_t i = 0; i < tableSize; ++i)
        {
            table.push_back(i % n);
        }
    }
    else if (word == "weight")
    {
        std::vector<uint64_t> weights;
        uint64_t sum = 0;
        for (std::string weight; in >> weight;)
        {
            weights.push_back(number(weight));
            sum += weights.back();
        }
        if (weights.empty() || weights.size() > rxQueues || sum == 0 || sum > tableSize)
        {
            throw std::invalid_argument("RssHash: ethtool -X \"" + words +
                                        "\": the weights do not fit; " + accepted);
        }
        // Entry i goes to the first queue whose cumulative weight passes i x sum / size.
        uint64_t partial = 0;
        std::size_t queue = 0;
        for (uint32_t i = 0; i < tableSize; ++i)
        {
            while (i >= tableSize * partial / sum)
            {
                partial += weights[queue++];
            }
            table.push_back(static_cast<uint32_t>(queue - 1));
        }
    }
    else
    {
        throw std::invalid_argument("RssHash: ethtool -X \"" + words + "\": \"" + word +
                                    "\" is unknown; " + accepted);
    }
    if (!word.empty() && word != "weight")
    {
        std::string extra;
        if (in >> extra)
        {
            throw std::invalid_argument("RssHash: ethtool -X \"" + words + "\": \"" + extra +
                                        "\" is unexpected; " + accepted);
        }
    }
    return table;
}

uint32_t
RssHash::GetRxQueues() const
{
    return m_rxQueues;
}

uint32_t
RssHash::GetTableSize() const
{
    return static_cast<uint32_t>(m_indirection.size());
}

const std::vector<uint8_t>&
RssHash::GetKey() const
{
    return m_key;
}

const std::vector<uint32_t>&
RssHash::GetIndirection() const
{
    return m_indirection;
}

uint32_t
RssHash::Hash(const uint8_t* input, std::size_t length) const
{
    return ToeplitzHash(m_key.data(), m_key.size(), input, length);
}

} // namespace debloat
} // namespace ns3
