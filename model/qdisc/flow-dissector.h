/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/core/flow_dissector.c of Linux 6.x (__skb_flow_dissect() as called by
 * skb_flow_dissect_flow_keys() with FLOW_DISSECTOR_F_STOP_AT_FLOW_LABEL,
 * __flow_hash_consistentify(), __flow_hash_from_keys(), skb_get_hash_perturb()), the host
 * hashes of cake_hash() in net/sched/sch_cake.c, and lib/siphash.c.
 */

#ifndef FLOW_DISSECTOR_H
#define FLOW_DISSECTOR_H

#include <array>
#include <cstddef>
#include <cstdint>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief What the flow dissector found in one packet (the kernel's struct flow_keys plus the
 * TCP and DSCP facts that SFQ and CAKE read from the same headers).
 *
 * Offsets count from the start of the buffer given to Dissect() (the IP header) or to
 * DissectL4() (the L4 header). Fields the dissector could not reach stay at their defaults.
 */
struct FlowKeys
{
    /// Network-layer family.
    enum class Family : uint8_t
    {
        NONE, ///< not IP: only etherType is meaningful
        IPV4, ///< IPv4: the first 4 bytes of the addresses are used
        IPV6, ///< IPv6: all 16 bytes of the addresses are used
    };

    static constexpr uint16_t ETHER_TYPE_IPV4 = 0x0800; ///< ETH_P_IP
    static constexpr uint16_t ETHER_TYPE_IPV6 = 0x86DD; ///< ETH_P_IPV6

    static constexpr uint16_t TCP_FIN = 0x001; ///< TCP flag FIN
    static constexpr uint16_t TCP_SYN = 0x002; ///< TCP flag SYN
    static constexpr uint16_t TCP_RST = 0x004; ///< TCP flag RST
    static constexpr uint16_t TCP_PSH = 0x008; ///< TCP flag PSH
    static constexpr uint16_t TCP_ACK = 0x010; ///< TCP flag ACK
    static constexpr uint16_t TCP_URG = 0x020; ///< TCP flag URG
    static constexpr uint16_t TCP_ECE = 0x040; ///< TCP flag ECE
    static constexpr uint16_t TCP_CWR = 0x080; ///< TCP flag CWR
    static constexpr uint16_t TCP_NS = 0x100;  ///< TCP flag NS (AE); 0xE00 are the reserved bits

    /// @return 4 for IPv4, 16 for IPv6, 0 otherwise
    size_t AddressLength() const;
    /// @return offset of the TCP options (valid when tcpHeaderLength > 0)
    size_t TcpOptionsOffset() const;
    /// @return length of the TCP options, bytes (0 when there is no TCP header)
    size_t TcpOptionsLength() const;

    uint16_t etherType{0};            ///< n_proto: the EtherType (set by the caller for non-IP)
    Family family{Family::NONE};      ///< address family
    std::array<uint8_t, 16> source{}; ///< source address, network byte order
    std::array<uint8_t, 16> destination{}; ///< destination address, network byte order
    uint8_t protocol{0};                   ///< L4 protocol after IPv6 extension headers (ip_proto)
    uint16_t sourcePort{0};                ///< source port, host order; 0 when none or fragment
    uint16_t destinationPort{0}; ///< destination port, host order; 0 when none or fragment
    uint8_t dscp{0};             ///< DSCP: IPv4 TOS or IPv6 traffic class >> 2
    uint8_t ecn{0};              ///< ECN codepoint: the low two bits of the same byte
    uint32_t flowLabel{0};       ///< IPv6 flow label (20 bits)
    bool fragment{false};        ///< any IPv4 or IPv6 fragment, first or not (no ports then)
    uint16_t l4Offset{0};        ///< offset of the L4 header (thoff)
    uint16_t tcpFlags{0};        ///< TCP flags, the low 12 bits of the flag word (TCP_*)
    uint32_t tcpSequence{0};     ///< TCP sequence number, host order
    uint32_t tcpAck{0};          ///< TCP acknowledgement number, host order
    uint8_t tcpHeaderLength{0};  ///< doff * 4; 0 unless a whole TCP header was present
    uint32_t payloadLength{0};   ///< bytes after the TCP or UDP header (after the IP headers
                                 ///< for other protocols and for fragments), per the lengths
                                 ///< the headers declare
};

/// @param p two bytes @return them as a big-endian number
inline uint16_t
ReadBe16(const uint8_t* p)
{
    return static_cast<uint16_t>(p[0] << 8 | p[1]);
}

/// @param p four bytes @return them as a big-endian number
inline uint32_t
ReadBe32(const uint8_t* p)
{
    return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3];
}

/**
 * @ingroup debloat-qdisc
 * Mirrors __skb_flow_dissect() for an IPv4 or IPv6 packet, as skb_flow_dissect_flow_keys()
 * runs it for skb_get_hash_perturb() and cake_hash(), plus the DSCP/ECN byte and the TCP
 * fields that CAKE's ACK filter and DSCP classifier read.
 *
 * The IP version comes from the first nibble. IPv4: IHL must be at least 5 and the header
 * present; options are skipped by IHL; a fragment (MF set or offset non-zero) sets fragment
 * and yields no ports, first fragments included, as without FLOW_DISSECTOR_F_PARSE_1ST_FRAG.
 * IPv6: hop-by-hop (0), routing (43) and destination-options (60) headers are skipped by their
 * length byte, a fragment header (44) sets fragment and stops there; at most 15 headers are
 * walked (MAX_FLOW_DISSECT_HDRS), after which the current next-header value is the protocol.
 * Ports are read for TCP, UDP, UDP-Lite, DCCP, SCTP, ESP (the SPI) and AH (its SPI, at offset
 * 4), as proto_ports_offset() says. payloadLength uses the lengths the IP header declares, so
 * Ethernet padding after the packet is ignored.
 *
 * Deviation from Linux: tunnels (IPIP, IPv6-in-IP, GRE, MPLS) are not entered, so the
 * outer header is the flow; extension headers and ports are read even when the IPv6 flow label
 * is non-zero (FlowHash() then leaves the ports out, as the kernel's STOP_AT_FLOW_LABEL does).
 *
 * @param l3 the packet, starting at its IP header
 * @param length bytes available at l3
 * @param[out] keys reset, then filled as far as the packet allows
 * @return false when the IP header or an IPv6 extension header is truncated or malformed, or
 *         the TCP (doff * 4 bytes, doff >= 5) or UDP (8 bytes) header of a non-fragment is cut
 *         short; keys then hold what was read before the fault (ports if 4 bytes were there),
 *         which is what the kernel hashes too: skb_get_hash_perturb() ignores the failure
 */
bool Dissect(const uint8_t* l3, size_t length, FlowKeys& keys);

/**
 * @ingroup debloat-qdisc
 * The L4 half of Dissect(), for callers that hold the IP header as fields (ns-3's
 * Ipv4QueueDiscItem/Ipv6QueueDiscItem) and only the L4 bytes raw.
 *
 * The caller first sets etherType, family, the addresses, dscp, ecn, flowLabel and fragment
 * from the IP header. For a fragment only protocol is recorded (no ports), as in Dissect().
 * Otherwise ports and, for TCP, the TCP fields are read, and payloadLength = length minus the
 * TCP or UDP header length: pass the whole segment, or correct payloadLength afterwards from
 * the segment size.
 *
 * @param protocol the IP protocol / last next-header value
 * @param l4 the L4 header
 * @param length bytes available at l4
 * @param[in,out] keys the caller's L3 fields; the L4 fields are reset and filled
 * @return false when the TCP or UDP header of a non-fragment is cut short (see Dissect())
 */
bool DissectL4(uint8_t protocol, const uint8_t* l4, size_t length, FlowKeys& keys);

/**
 * @ingroup debloat-qdisc
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012), written from
 * the paper: the variant that lib/siphash.c's siphash() computes and the flow hash uses.
 * @param data the message
 * @param length its length, bytes
 * @param key0 key bytes 0..7 read little-endian (siphash_key_t.key[0])
 * @param key1 key bytes 8..15 read little-endian (siphash_key_t.key[1])
 * @return the 64-bit tag
 */
uint64_t SipHash24(const uint8_t* data, size_t length, uint64_t key0, uint64_t key1);

/**
 * @ingroup debloat-qdisc
 * Mirrors __flow_hash_from_keys() as skb_get_hash_perturb() (SFQ, with its perturbation key)
 * and flow_hash_from_keys() (CAKE, with the boot-time hashrnd) use it.
 *
 * As __flow_hash_consistentify() does, the two addresses are put in ascending order and,
 * independently, the two ports, so both directions of a connection hash alike (and so do
 * A:p -> B:q and A:q -> B:p). The SipHash-2-4 message is etherType, protocol, flow label,
 * the ordered ports and the ordered addresses (4 or 16 bytes each; none for non-IP), and the
 * result is its low 32 bits, with 0 replaced by 1.
 *
 * Mirrored consequences: an IPv6 packet with a non-zero flow label is hashed without ports
 * (FLOW_DISSECTOR_F_STOP_AT_FLOW_LABEL); fragments have no ports; a non-IP packet (family
 * NONE, the caller sets only etherType) hashes on etherType alone, so in SFQ all ARP frames share
 * one bucket per perturbation key.
 *
 * Deviation from Linux: the kernel siphashes the raw struct flow_keys (including VLAN, GRE key
 * and ICMP fields, zero here) and, with STOP_AT_FLOW_LABEL, the first next-header value
 * rather than the transport protocol; values therefore differ from a kernel's, but which
 * packets share a hash is the same for the traffic modelled here.
 *
 * @param keys the dissected keys
 * @param key0 the first 64 bits of the siphash key
 * @param key1 the second 64 bits of the siphash key
 * @return a non-zero 32-bit hash
 */
uint32_t FlowHash(const FlowKeys& keys, uint64_t key0, uint64_t key1);

/**
 * @ingroup debloat-qdisc
 * Mirrors cake_hash()'s srchost_hash: flow_hash_from_keys() of the keys with ports,
 * protocol and flow label zeroed and the destination address zeroed. Because the hash then
 * sorts the two addresses, SourceHostHash() of a packet from A equals DestinationHostHash()
 * of a packet to A, as in the kernel.
 * @param keys the dissected keys
 * @param key0 the first 64 bits of the siphash key
 * @param key1 the second 64 bits of the siphash key
 * @return the host hash; 0 for a non-IP packet
 */
uint32_t SourceHostHash(const FlowKeys& keys, uint64_t key0, uint64_t key1);

/**
 * @ingroup debloat-qdisc
 * Mirrors cake_hash()'s dsthost_hash: as SourceHostHash() with the source address zeroed.
 * @param keys the dissected keys
 * @param key0 the first 64 bits of the siphash key
 * @param key1 the second 64 bits of the siphash key
 * @return the host hash; 0 for a non-IP packet
 */
uint32_t DestinationHostHash(const FlowKeys& keys, uint64_t key0, uint64_t key1);

} // namespace debloat
} // namespace ns3

#endif /* FLOW_DISSECTOR_H */
