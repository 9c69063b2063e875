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

#ifndef RSS_HASH_H
#define RSS_HASH_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-nic
 * The Toeplitz hash of receive-side scaling: for each set bit of the input, most significant
 * bit of input[0] first, XOR in the 32 key bits that start at that bit's position.
 *
 * This is the NIC hardware's hash (the Microsoft RSS specification's ComputeHash, the
 * Toeplitz function of the igb/ixgbe datasheets). Linux has no in-kernel software version;
 * its reference is toeplitz() in tools/testing/selftests/net/toeplitz.c, which checks the
 * hardware's rx_hash against it.
 * @param key the secret key
 * @param keyLength the key's bytes; at least inputLength + 4, since the last input bit
 *        reads 31 key bits past its own position
 * @param input the bytes to hash, in network byte order
 * @param inputLength the input's bytes
 * @return the 32-bit hash
 * @throws std::invalid_argument when the key is shorter than inputLength + 4 bytes
 */
uint32_t ToeplitzHash(const uint8_t* key,
                      std::size_t keyLength,
                      const uint8_t* input,
                      std::size_t inputLength);

/**
 * @ingroup debloat-nic
 * @brief Receive-side scaling: a Toeplitz hash of the flow picks an RX queue through an
 * indirection table (RETA), free of ns-3.
 *
 * The hash input is what the specification and the igb/ixgbe hardware concatenate, in packet
 * order: source address, destination address, then for TCP/UDP source port and destination
 * port, all in network byte order (IPv4 12 or 8 bytes, IPv6 36 or 32 bytes). The low bits of
 * the hash index the table (the hardware takes the 7 least significant bits for its 128
 * entries), and the entry names the queue.
 *
 * The default table is ethtool_rxfh_indir_default(i, rxQueues) = i % rxQueues, what
 * ixgbe_setup_reta() and ethtool -X ... default install. igb_setup_mrqc() instead fills
 * contiguous blocks, (i * rxQueues) / 128; SetIndirection() reproduces it, as ethtool -X
 * does.
 *
 * The default key is the specification's verification key, not the random key Linux drivers
 * take from netdev_rss_key_fill() (net/ethtool/ioctl.c), so that hashes are reproducible and
 * can be checked against the specification's test vectors.
 */
class RssHash
{
  public:
    /// Entries of the igb/ixgbe indirection table (IGB_RETA_SIZE).
    static constexpr uint32_t DEFAULT_TABLE_SIZE = 128;
    /// The largest number of RX queues accepted.
    static constexpr uint32_t MAX_RX_QUEUES = 64;
    /// The specification's key length; the IPv6 4-tuple (36 bytes) needs 36 + 4.
    static constexpr std::size_t MIN_KEY_BYTES = 40;

    /**
     * @return the 40-byte key of the specification's "Verifying the RSS Hash Calculation"
     */
    static std::vector<uint8_t> DefaultKey();

    /**
     * @param rxQueues RX queues, 1 to MAX_RX_QUEUES
     * @param key the secret key, at least MIN_KEY_BYTES
     * @param tableSize indirection table entries, at least 1
     * @throws std::invalid_argument as Configure()
     */
    explicit RssHash(uint32_t rxQueues = 1,
                     const std::vector<uint8_t>& key = DefaultKey(),
                     uint32_t tableSize = DEFAULT_TABLE_SIZE);

    /**
     * Sets the queues, key and table size, and refills the table with the default.
     * @param rxQueues RX queues, 1 to MAX_RX_QUEUES
     * @param key the secret key, at least MIN_KEY_BYTES
     * @param tableSize indirection table entries, at least 1
     * @throws std::invalid_argument naming the bad parameter and the accepted values; the
     *         configuration is then unchanged
     */
    void Configure(uint32_t rxQueues,
                   const std::vector<uint8_t>& key,
                   uint32_t tableSize = DEFAULT_TABLE_SIZE);

    /**
     * The TCP/UDP over IPv4 hash: input src, dst, sport, dport (12 bytes).
     * @param src source address, first octet most significant (66.9.149.187 is 0x420995bb)
     * @param dst destination address, same order
     * @param sport source port
     * @param dport destination port
     * @return the hash
     */
    uint32_t HashIpv4(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport) const;

    /**
     * The IPv4 hash for packets without TCP/UDP ports: input src, dst (8 bytes).
     * @param src source address, first octet most significant
     * @param dst destination address, same order
     * @return the hash
     */
    uint32_t HashIpv4(uint32_t src, uint32_t dst) const;

    /**
     * The TCP/UDP over IPv6 hash: input src, dst, sport, dport (36 bytes).
     * @param src source address, network byte order
     * @param dst destination address, network byte order
     * @param sport source port
     * @param dport destination port
     * @return the hash
     */
    uint32_t HashIpv6(const std::array<uint8_t, 16>& src,
                      const std::array<uint8_t, 16>& dst,
                      uint16_t sport,
                      uint16_t dport) const;

    /**
     * The IPv6 hash for packets without TCP/UDP ports: input src, dst (32 bytes).
     * @param src source address, network byte order
     * @param dst destination address, network byte order
     * @return the hash
     */
    uint32_t HashIpv6(const std::array<uint8_t, 16>& src, const std::array<uint8_t, 16>& dst) const;

    /**
     * Looks the hash up in the indirection table: entry hash & (size - 1) when the size is a
     * power of two (the hardware's low 7 bits for 128 entries), else hash % size.
     * @param hash the RSS hash
     * @return the RX queue
     */
    uint32_t SelectQueue(uint32_t hash) const;

    /**
     * Replaces the indirection table, as ethtool -X ... weight/equal does through
     * ethtool_set_rxfh(); an empty table restores the default, as ethtool -X ... default.
     * @param table one queue per entry, each below the number of RX queues; as many entries
     *        as the table has, or none
     * @throws std::invalid_argument naming the bad size or entry; the table is then unchanged
     */
    void SetIndirection(std::vector<uint32_t> table);

    /**
     * An indirection table from ethtool -X's words, as ethtool's fill_indir_table() fills it:
     * "equal N" gives entry i queue i mod N; "weight W0 W1 ..." gives queue j a run of entries
     * in proportion to Wj (entry i takes the first j whose cumulative weight exceeds
     * i x sum / size; a zero weight gets none); "default" gives none (SetIndirection()
     * restores the default table).
     * @param words the words after ethtool -X DEV
     * @param tableSize the table's entries
     * @param rxQueues the RX queues (N and the weights' count at most this)
     * @return the table, or empty for "default"
     * @throws std::invalid_argument naming the bad word and what is accepted
     */
    static std::vector<uint32_t> ParseIndirection(const std::string& words,
                                                  uint32_t tableSize,
                                                  uint32_t rxQueues);

    /// @return the number of RX queues
    uint32_t GetRxQueues() const;

    /// @return the indirection table's entries
    uint32_t GetTableSize() const;

    /// @return the secret key
    const std::vector<uint8_t>& GetKey() const;

    /// @return the indirection table, one queue per entry
    const std::vector<uint32_t>& GetIndirection() const;

  private:
    /**
     * Hashes an input with the key.
     * @param input the bytes
     * @param length how many of them
     * @return the hash
     */
    uint32_t Hash(const uint8_t* input, std::size_t length) const;

    uint32_t m_rxQueues{1};              ///< RX queues
    std::vector<uint8_t> m_key;          ///< secret key
    std::vector<uint32_t> m_indirection; ///< RETA: queue per entry
    bool m_tableIsPowerOfTwo{true};      ///< index by mask rather than modulo
};

} // namespace debloat
} // namespace ns3

#endif /* RSS_HASH_H */
