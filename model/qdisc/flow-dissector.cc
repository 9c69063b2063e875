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

#include "flow-dissector.h"

#include <algorithm>
#include <cstring>

namespace ns3
{
namespace debloat
{

namespace
{

constexpr uint8_t PROTOCOL_HOP_BY_HOP = 0;   ///< IPv6 hop-by-hop options header
constexpr uint8_t PROTOCOL_TCP = 6;          ///< TCP
constexpr uint8_t PROTOCOL_UDP = 17;         ///< UDP
constexpr uint8_t PROTOCOL_DCCP = 33;        ///< DCCP
constexpr uint8_t PROTOCOL_ROUTING = 43;     ///< IPv6 routing header
constexpr uint8_t PROTOCOL_FRAGMENT = 44;    ///< IPv6 fragment header
constexpr uint8_t PROTOCOL_ESP = 50;         ///< IPsec ESP
constexpr uint8_t PROTOCOL_AH = 51;          ///< IPsec AH
constexpr uint8_t PROTOCOL_DESTINATION = 60; ///< IPv6 destination options header
constexpr uint8_t PROTOCOL_SCTP = 132;       ///< SCTP
constexpr uint8_t PROTOCOL_UDP_LITE = 136;   ///< UDP-Lite
constexpr int MAX_FLOW_DISSECT_HEADERS = 15; ///< MAX_FLOW_DISSECT_HDRS
constexpr size_t IPV4_HEADER_LENGTH = 20;    ///< IPv4 header without options
constexpr size_t IPV6_HEADER_LENGTH = 40;    ///< IPv6 fixed header
constexpr size_t TCP_HEADER_LENGTH = 20;     ///< TCP header without options
constexpr size_t UDP_HEADER_LENGTH = 8;      ///< UDP and UDP-Lite header

/// @param p eight bytes @return them as a little-endian number
uint64_t
ReadLittle64(const uint8_t* p)
{
    uint64_t value = 0;
    for (int i = 7; i >= 0; --i)
    {
        value = value << 8 | p[i];
    }
    return value;
}

/// @param p two bytes to write @param value written big-endian
void
Write16(uint8_t* p, uint16_t value)
{
    p[0] = static_cast<uint8_t>(value >> 8);
    p[1] = static_cast<uint8_t>(value);
}

/// Mirrors proto_ports_offset(): where the 4 port bytes sit in the L4 header, or -1.
/// @param protocol the L4 protocol @return the offset
int
PortsOffset(uint8_t protocol)
{
    switch (protocol)
    {
    case PROTOCOL_TCP:
    case PROTOCOL_UDP:
    case PROTOCOL_DCCP:
    case PROTOCOL_ESP:
    case PROTOCOL_SCTP:
    case PROTOCOL_UDP_LITE:
        return 0;
    case PROTOCOL_AH:
        return 4;
    default:
        return -1;
    }
}

/// Sets the DSCP and ECN fields from a DS byte. @param dsfield the byte @param keys the keys
void
SetDsfield(uint8_t dsfield, FlowKeys& keys)
{
    keys.dscp = dsfield >> 2;
    keys.ecn = dsfield & 0x3;
}

/**
 * Mirrors __skb_flow_dissect_ports() and __skb_flow_dissect_tcp(), and measures the payload.
 * keys.protocol and keys.fragment are set; the L4 fields are at their defaults.
 * @param l4 the L4 header
 * @param available bytes present at l4
 * @param declared L4 bytes per the IP header
 * @param keys the keys
 * @return false when a TCP or UDP header of a non-fragment is cut short
 */
bool
DissectTransport(const uint8_t* l4, size_t available, size_t declared, FlowKeys& keys)
{
    if (keys.fragment)
    {
        keys.payloadLength = static_cast<uint32_t>(declared);
        return true;
    }
    int portsOffset = PortsOffset(keys.protocol);
    if (portsOffset >= 0 && available >= static_cast<size_t>(portsOffset) + 4)
    {
        keys.sourcePort = ReadBe16(l4 + portsOffset);
        keys.destinationPort = ReadBe16(l4 + portsOffset + 2);
    }
    size_t header = 0;
    if (keys.protocol == PROTOCOL_TCP)
    {
        if (available < TCP_HEADER_LENGTH)
        {
            return false;
        }
        header = static_cast<size_t>(l4[12] >> 4) * 4;
        if (header < TCP_HEADER_LENGTH || available < header)
        {
            return false;
        }
        keys.tcpSequence = ReadBe32(l4 + 4);
        keys.tcpAck = ReadBe32(l4 + 8);
        keys.tcpFlags = static_cast<uint16_t>((l4[12] & 0x0F) << 8 | l4[13]);
        keys.tcpHeaderLength = static_cast<uint8_t>(header);
    }
    else if (keys.protocol == PROTOCOL_UDP || keys.protocol == PROTOCOL_UDP_LITE)
    {
        if (available < UDP_HEADER_LENGTH)
        {
            return false;
        }
        header = UDP_HEADER_LENGTH;
    }
    keys.payloadLength = static_cast<uint32_t>(declared > header ? declared - header : 0);
    return true;
}

/// The SipHash state: four 64-bit words, kept in registers.
struct SipState
{
    uint64_t v0; ///< state word 0
    uint64_t v1; ///< state word 1
    uint64_t v2; ///< state word 2
    uint64_t v3; ///< state word 3

    /// Runs SipRound, section 2.1 of the SipHash paper. @param rounds how many times
    void Rounds(int rounds)
    {
        auto rotl = [](uint64_t x, int b) { return (x << b) | (x >> (64 - b)); };
        for (int i = 0; i < rounds; ++i)
        {
            v0 += v1;
            v1 = rotl(v1, 13);
            v1 ^= v0;
            v0 = rotl(v0, 32);
            v2 += v3;
            v3 = rotl(v3, 16);
            v3 ^= v2;
            v0 += v3;
            v3 = rotl(v3, 21);
            v3 ^= v0;
            v2 += v1;
            v1 = rotl(v1, 17);
            v1 ^= v2;
            v2 = rotl(v2, 32);
        }
    }

    /// Absorbs one message word with c = 2 compression rounds. @param m the word
    void Compress(uint64_t m)
    {
        v3 ^= m;
        Rounds(2);
        v0 ^= m;
    }
};

/**
 * The part shared by FlowHash() and the host hashes.
 * @param keys the keys
 * @param withPorts false to hash the ports as 0
 * @param key0 the first key word
 * @param key1 the second key word
 * @return the non-zero 32-bit hash
 */
uint32_t
HashKeys(const FlowKeys& keys, bool withPorts, uint64_t key0, uint64_t key1)
{
    std::array<uint8_t, 12 + 2 * 16> message{};
    Write16(message.data(), keys.etherType);
    message[2] = keys.protocol;
    message[4] = static_cast<uint8_t>(keys.flowLabel >> 24);
    message[5] = static_cast<uint8_t>(keys.flowLabel >> 16);
    message[6] = static_cast<uint8_t>(keys.flowLabel >> 8);
    message[7] = static_cast<uint8_t>(keys.flowLabel);
    if (withPorts)
    {
        // __flow_hash_consistentify(): the ports are ordered on their own.
        Write16(&message[8], std::min(keys.sourcePort, keys.destinationPort));
        Write16(&message[10], std::max(keys.sourcePort, keys.destinationPort));
    }
    // ... and so are the addresses.
    const size_t addressLength = keys.AddressLength();
    const bool ascending =
        std::memcmp(keys.source.data(), keys.destination.data(), addressLength) <= 0;
    const auto& low = ascending ? keys.source : keys.destination;
    const auto& high = ascending ? keys.destination : keys.source;
    std::memcpy(&message[12], low.data(), addressLength);
    std::memcpy(&message[12 + addressLength], high.data(), addressLength);
    auto hash =
        static_cast<uint32_t>(SipHash24(message.data(), 12 + 2 * addressLength, key0, key1));
    return hash == 0 ? 1 : hash;
}

} // namespace

size_t
FlowKeys::AddressLength() const
{
    switch (family)
    {
    case Family::IPV4:
        return 4;
    case Family::IPV6:
        return 16;
    case Family::NONE:
        break;
    }
    return 0;
}

size_t
FlowKeys::TcpOptionsOffset() const
{
    return size_t{l4Offset} + TCP_HEADER_LENGTH;
}

size_t
FlowKeys::TcpOptionsLength() const
{
    return tcpHeaderLength > TCP_HEADER_LENGTH ? tcpHeaderLength - TCP_HEADER_LENGTH : 0;
}

bool
Dissect(const uint8_t* l3, size_t length, FlowKeys& keys)
{
    keys = FlowKeys{};
    if (length == 0)
    {
        return false;
    }
    size_t offset = 0;
    size_t declaredEnd = 0;
    const int version = l3[0] >> 4;
    if (version == 4)
    {
        offset = size_t{l3[0] & 0x0Fu} * 4;
        if (length < IPV4_HEADER_LENGTH || offset < IPV4_HEADER_LENGTH || length < offset)
        {
            return false;
        }
        keys.etherType = FlowKeys::ETHER_TYPE_IPV4;
        keys.family = FlowKeys::Family::IPV4;
        SetDsfield(l3[1], keys);
        declaredEnd = ReadBe16(l3 + 2);
        keys.fragment = (ReadBe16(l3 + 6) & 0x3FFF) != 0; // ip_is_fragment(): MF or offset
        keys.protocol = l3[9];
        std::memcpy(keys.source.data(), l3 + 12, 4);
        std::memcpy(keys.destination.data(), l3 + 16, 4);
    }
    else if (version == 6)
    {
        if (length < IPV6_HEADER_LENGTH)
        {
            return false;
        }
        keys.etherType = FlowKeys::ETHER_TYPE_IPV6;
        keys.family = FlowKeys::Family::IPV6;
        SetDsfield(static_cast<uint8_t>((l3[0] & 0x0F) << 4 | l3[1] >> 4), keys);
        keys.flowLabel = ReadBe32(l3) & 0xFFFFF;
        declaredEnd = IPV6_HEADER_LENGTH + ReadBe16(l3 + 4);
        keys.protocol = l3[6];
        std::memcpy(keys.source.data(), l3 + 8, 16);
        std::memcpy(keys.destination.data(), l3 + 24, 16);
        offset = IPV6_HEADER_LENGTH;
        for (int headers = 0; headers < MAX_FLOW_DISSECT_HEADERS && !keys.fragment; ++headers)
        {
            const uint8_t nextHeader = keys.protocol;
            if (nextHeader != PROTOCOL_HOP_BY_HOP && nextHeader != PROTOCOL_ROUTING &&
                nextHeader != PROTOCOL_DESTINATION && nextHeader != PROTOCOL_FRAGMENT)
            {
                break;
            }
            const size_t needed = nextHeader == PROTOCOL_FRAGMENT ? 8 : 2;
            if (offset > length || length - offset < needed)
            {
                keys.l4Offset = static_cast<uint16_t>(std::min(offset, length));
                return false;
            }
            keys.protocol = l3[offset];
            if (nextHeader == PROTOCOL_FRAGMENT)
            {
                keys.fragment = true;
                offset += 8;
            }
            else
            {
                offset += (size_t{l3[offset + 1]} + 1) * 8;
            }
        }
    }
    else
    {
        return false;
    }
    // __skb_flow_dissect() clamps thoff to the packet (min_t(u16, nhoff, hlen)): an
    // extension header that claims more than the packet holds leaves it at the end.
    const size_t start = std::min(offset, length);
    keys.l4Offset = static_cast<uint16_t>(start);
    return DissectTransport(l3 + start,
                            length - start,
                            declaredEnd > offset ? declaredEnd - offset : 0,
                            keys);
}

bool
DissectL4(uint8_t protocol, const uint8_t* l4, size_t length, FlowKeys& keys)
{
    keys.protocol = protocol;
    keys.sourcePort = 0;
    keys.destinationPort = 0;
    keys.l4Offset = 0;
    keys.tcpFlags = 0;
    keys.tcpSequence = 0;
    keys.tcpAck = 0;
    keys.tcpHeaderLength = 0;
    keys.payloadLength = 0;
    return DissectTransport(l4, length, length, keys);
}

uint64_t
SipHash24(const uint8_t* data, size_t length, uint64_t key0, uint64_t key1)
{
    // Initialisation constants: "somepseudorandomlygeneratedbytes" in ASCII.
    SipState state{key0 ^ 0x736f6d6570736575ULL,
                   key1 ^ 0x646f72616e646f6dULL,
                   key0 ^ 0x6c7967656e657261ULL,
                   key1 ^ 0x7465646279746573ULL};
    const size_t whole = length - length % 8;
    for (size_t i = 0; i < whole; i += 8)
    {
        state.Compress(ReadLittle64(data + i));
    }
    // Last block: the remaining bytes, little-endian, with length mod 256 in the top byte.
    uint64_t last = uint64_t{length & 0xFF} << 56;
    for (size_t i = 0; i < length % 8; ++i)
    {
        last |= uint64_t{data[whole + i]} << (8 * i);
    }
    state.Compress(last);
    state.v2 ^= 0xFF;
    state.Rounds(4); // d = 4 finalization rounds
    return state.v0 ^ state.v1 ^ state.v2 ^ state.v3;
}

uint32_t
FlowHash(const FlowKeys& keys, uint64_t key0, uint64_t key1)
{
    const bool stopAtFlowLabel = keys.family == FlowKeys::Family::IPV6 && keys.flowLabel != 0;
    return HashKeys(keys, !stopAtFlowLabel, key0, key1);
}

namespace
{

/**
 * cake_hash()'s host hash: one address kept, everything else of the flow zeroed.
 * @param keys the flow
 * @param keepSource keep the source address (else the destination)
 * @param key0 first half of the key
 * @param key1 second half of the key
 * @return the hash, 0 for packets that are not IP
 */
uint32_t
HostHash(const FlowKeys& keys, bool keepSource, uint64_t key0, uint64_t key1)
{
    if (keys.family == FlowKeys::Family::NONE)
    {
        return 0;
    }
    FlowKeys host = keys;
    host.protocol = 0;
    host.flowLabel = 0;
    (keepSource ? host.destination : host.source).fill(0);
    return HashKeys(host, false, key0, key1);
}

} // namespace

uint32_t
SourceHostHash(const FlowKeys& keys, uint64_t key0, uint64_t key1)
{
    return HostHash(keys, true, key0, key1);
}

uint32_t
DestinationHostHash(const FlowKeys& keys, uint64_t key0, uint64_t key1)
{
    return HostHash(keys, false, key0, key1);
}

} // namespace debloat
} // namespace ns3
