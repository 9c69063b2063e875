/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for the flow dissector and the flow hashes. Packets are written out byte by
 * byte (RFC 791, 8200, 9293, 768 layouts); every truncation of them is dissected from a buffer
 * of exactly that size, so that a build with -fsanitize=address catches any read past the end.
 */

#include "ns3/flow-dissector.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <gtest/gtest.h>
#include <set>
#include <vector>

namespace
{

using ns3::debloat::DestinationHostHash;
using ns3::debloat::Dissect;
using ns3::debloat::DissectL4;
using ns3::debloat::FlowHash;
using ns3::debloat::FlowKeys;
using ns3::debloat::SipHash24;
using ns3::debloat::SourceHostHash;

using Bytes = std::vector<uint8_t>;

/// Hash key used by the hash tests (any value will do).
constexpr uint64_t KEY0 = 0x0123456789abcdefULL;
/// Second half of the hash key.
constexpr uint64_t KEY1 = 0xfedcba9876543210ULL;

/**
 * A TCP header, RFC 9293 layout.
 * @param sport source port
 * @param dport destination port
 * @param flags the low 12 bits of the flag word
 * @param options option bytes, a multiple of 4
 * @return the header
 */
Bytes
Tcp(uint16_t sport, uint16_t dport, uint16_t flags, const Bytes& options)
{
    const auto doff = static_cast<uint8_t>((20 + options.size()) / 4);
    Bytes h{// source and destination ports
            static_cast<uint8_t>(sport >> 8),
            static_cast<uint8_t>(sport),
            static_cast<uint8_t>(dport >> 8),
            static_cast<uint8_t>(dport),
            // sequence number 0x01020304
            0x01,
            0x02,
            0x03,
            0x04,
            // acknowledgement number 0x0a0b0c0d
            0x0a,
            0x0b,
            0x0c,
            0x0d,
            // data offset, reserved bits and flags
            static_cast<uint8_t>(doff << 4 | flags >> 8),
            static_cast<uint8_t>(flags),
            // window, checksum, urgent pointer
            0xff,
            0xff,
            0x00,
            0x00,
            0x00,
            0x00};
    h.insert(h.end(), options.begin(), options.end());
    return h;
}

/**
 * A UDP header with its length field covering payload bytes.
 * @param sport source port
 * @param dport destination port
 * @param payload payload length
 * @return the header
 */
Bytes
Udp(uint16_t sport, uint16_t dport, uint16_t payload)
{
    const auto length = static_cast<uint16_t>(8 + payload);
    return {static_cast<uint8_t>(sport >> 8),
            static_cast<uint8_t>(sport),
            static_cast<uint8_t>(dport >> 8),
            static_cast<uint8_t>(dport),
            static_cast<uint8_t>(length >> 8),
            static_cast<uint8_t>(length),
            0x00,
            0x00};
}

/**
 * An IPv4 packet 10.0.0.1 -> 10.0.0.2 around l4 and payload bytes.
 * @param tos the DS byte
 * @param fragment the flags and fragment-offset field
 * @param protocol the protocol field
 * @param options option bytes, a multiple of 4
 * @param l4 the L4 header
 * @param payload payload bytes to append (zeros)
 * @return the packet
 */
Bytes
Ipv4(uint8_t tos,
     uint16_t fragment,
     uint8_t protocol,
     const Bytes& options,
     const Bytes& l4,
     size_t payload)
{
    const size_t total = 20 + options.size() + l4.size() + payload;
    Bytes p{// version 4, IHL, DS byte, total length
            static_cast<uint8_t>(0x40 | (20 + options.size()) / 4),
            tos,
            static_cast<uint8_t>(total >> 8),
            static_cast<uint8_t>(total),
            // identification, flags and fragment offset
            0x12,
            0x34,
            static_cast<uint8_t>(fragment >> 8),
            static_cast<uint8_t>(fragment),
            // TTL, protocol, checksum
            64,
            protocol,
            0x00,
            0x00,
            // source 10.0.0.1, destination 10.0.0.2
            10,
            0,
            0,
            1,
            10,
            0,
            0,
            2};
    p.insert(p.end(), options.begin(), options.end());
    p.insert(p.end(), l4.begin(), l4.end());
    p.resize(total);
    return p;
}

/**
 * An IPv6 packet 2001:db8::1 -> 2001:db8::2 around extension headers, L4 header and payload.
 * @param trafficClass the traffic class byte
 * @param flowLabel the 20-bit flow label
 * @param nextHeader the first next-header value
 * @param rest extension headers and the L4 header
 * @param payload payload bytes to append (zeros)
 * @return the packet
 */
Bytes
Ipv6(uint8_t trafficClass,
     uint32_t flowLabel,
     uint8_t nextHeader,
     const Bytes& rest,
     size_t payload)
{
    const size_t payloadLength = rest.size() + payload;
    Bytes p{static_cast<uint8_t>(0x60 | trafficClass >> 4),
            static_cast<uint8_t>((trafficClass & 0x0f) << 4 | (flowLabel >> 16 & 0x0f)),
            static_cast<uint8_t>(flowLabel >> 8),
            static_cast<uint8_t>(flowLabel),
            static_cast<uint8_t>(payloadLength >> 8),
            static_cast<uint8_t>(payloadLength),
            nextHeader,
            64}; // hop limit
    const Bytes source{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    const Bytes destination{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
    p.insert(p.end(), source.begin(), source.end());
    p.insert(p.end(), destination.begin(), destination.end());
    p.insert(p.end(), rest.begin(), rest.end());
    p.resize(40 + payloadLength);
    return p;
}

/// @param a first bytes @param b more bytes @return a followed by b
Bytes
Concat(Bytes a, const Bytes& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

/// TCP options NOP, NOP, timestamp (kind 8, length 10, TSval 1, TSecr 2): 12 bytes.
const Bytes TIMESTAMP_OPTION{1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2};

/**
 * Dissects every prefix of packet from a heap buffer of exactly that size.
 * @param packet the whole packet
 * @param complete the shortest prefix that must dissect to true
 */
void
CheckTruncations(const Bytes& packet, size_t complete)
{
    for (size_t length = 0; length < packet.size(); ++length)
    {
        Bytes prefix(packet.begin(), packet.begin() + static_cast<std::ptrdiff_t>(length));
        prefix.shrink_to_fit();
        FlowKeys keys;
        EXPECT_EQ(Dissect(prefix.data(), prefix.size(), keys), length >= complete)
            << "length " << length;
    }
}

TEST(FlowDissectorTest, Ipv4Tcp)
{
    // DS byte 0xb9 = DSCP 46 (EF) << 2 | ECN 01 (ECT(1)). TCP 5001 -> 80 with ACK|PSH and a
    // 12-byte timestamp option (doff 8 = 32 bytes), then 100 payload bytes:
    // total length = 20 + 32 + 100 = 152.
    const Bytes packet =
        Ipv4(0xb9,
             0x4000, // DF only: not a fragment
             6,
             {},
             Tcp(5001, 80, FlowKeys::TCP_ACK | FlowKeys::TCP_PSH, TIMESTAMP_OPTION),
             100);
    ASSERT_EQ(packet.size(), 152U);
    FlowKeys keys;
    ASSERT_TRUE(Dissect(packet.data(), packet.size(), keys));
    EXPECT_EQ(keys.etherType, FlowKeys::ETHER_TYPE_IPV4);
    EXPECT_EQ(keys.family, FlowKeys::Family::IPV4);
    EXPECT_EQ(keys.AddressLength(), 4U);
    EXPECT_EQ(0, std::memcmp(keys.source.data(), &packet[12], 4));
    EXPECT_EQ(0, std::memcmp(keys.destination.data(), &packet[16], 4));
    EXPECT_EQ(keys.protocol, 6);
    EXPECT_EQ(keys.sourcePort, 5001);
    EXPECT_EQ(keys.destinationPort, 80);
    EXPECT_EQ(keys.dscp, 46);
    EXPECT_EQ(keys.ecn, 1);
    EXPECT_FALSE(keys.fragment);
    EXPECT_EQ(keys.l4Offset, 20);
    EXPECT_EQ(keys.tcpFlags, FlowKeys::TCP_ACK | FlowKeys::TCP_PSH);
    EXPECT_EQ(keys.tcpSequence, 0x01020304U);
    EXPECT_EQ(keys.tcpAck, 0x0a0b0c0dU);
    EXPECT_EQ(keys.tcpHeaderLength, 32);
    // Options sit at 20 (IP) + 20 (fixed TCP header) = 40 and fill the other 12 bytes.
    EXPECT_EQ(keys.TcpOptionsOffset(), 40U);
    EXPECT_EQ(keys.TcpOptionsLength(), 12U);
    EXPECT_EQ(0, std::memcmp(&packet[keys.TcpOptionsOffset()], TIMESTAMP_OPTION.data(), 12));
    EXPECT_EQ(keys.payloadLength, 100U);
    // The whole TCP header (52 bytes) is needed; ports come with the first 24.
    CheckTruncations(packet, 52);
    FlowKeys partial;
    EXPECT_FALSE(Dissect(packet.data(), 24, partial));
    EXPECT_EQ(partial.sourcePort, 5001);
    EXPECT_EQ(partial.destinationPort, 80);
    EXPECT_EQ(partial.tcpHeaderLength, 0);
}

TEST(FlowDissectorTest, NsAndReservedFlags)
{
    // The flag word's low 12 bits: reserved 0xe00, NS 0x100, then CWR ... FIN.
    const Bytes packet = Ipv4(0, 0, 6, {}, Tcp(1, 2, 0xfff, {}), 0);
    FlowKeys keys;
    ASSERT_TRUE(Dissect(packet.data(), packet.size(), keys));
    EXPECT_EQ(keys.tcpFlags, 0xfff);
    EXPECT_EQ(keys.TcpOptionsLength(), 0U);
    EXPECT_EQ(keys.payloadLength, 0U);
}

TEST(FlowDissectorTest, Ipv4OptionsAndUdp)
{
    // IHL 6: a 4-byte router-alert option (148, 4, 0, 0) moves UDP to offset 24.
    const Bytes packet = Ipv4(0x00, 0, 17, {148, 4, 0, 0}, Udp(53, 40000, 30), 30);
    FlowKeys keys;
    ASSERT_TRUE(Dissect(packet.data(), packet.size(), keys));
    EXPECT_EQ(keys.l4Offset, 24);
    EXPECT_EQ(keys.protocol, 17);
    EXPECT_EQ(keys.sourcePort, 53);
    EXPECT_EQ(keys.destinationPort, 40000);
    EXPECT_EQ(keys.tcpHeaderLength, 0);
    EXPECT_EQ(keys.payloadLength, 30U);
    CheckTruncations(packet, 24 + 8);
}

TEST(FlowDissectorTest, Ipv4PaddingIsNotPayload)
{
    // A pure ACK declares 40 bytes; Ethernet pads it to 46. The payload stays 0.
    Bytes packet = Ipv4(0, 0, 6, {}, Tcp(80, 5001, FlowKeys::TCP_ACK, {}), 0);
    packet.resize(46);
    FlowKeys keys;
    ASSERT_TRUE(Dissect(packet.data(), packet.size(), keys));
    EXPECT_EQ(keys.payloadLength, 0U);
}

TEST(FlowDissectorTest, Ipv4Fragments)
{
    const Bytes tcp = Tcp(5001, 80, FlowKeys::TCP_ACK, {});
    // First fragment: MF (0x2000), offset 0. The kernel does not parse it without
    // FLOW_DISSECTOR_F_PARSE_1ST_FRAG: no ports.
    const Bytes first = Ipv4(0, 0x2000, 6, {}, tcp, 1000);
    // Later fragment: offset 185 (x 8 = 1480 bytes).
    const Bytes later = Ipv4(0, 185, 6, {}, tcp, 1000);
    for (const Bytes* packet : {&first, &later})
    {
        FlowKeys keys;
        ASSERT_TRUE(Dissect(packet->data(), packet->size(), keys));
        EXPECT_TRUE(keys.fragment);
        EXPECT_EQ(keys.protocol, 6);
        EXPECT_EQ(keys.sourcePort, 0);
        EXPECT_EQ(keys.destinationPort, 0);
        EXPECT_EQ(keys.tcpHeaderLength, 0);
        EXPECT_EQ(keys.l4Offset, 20);
        EXPECT_EQ(keys.payloadLength, 20U + 1000U); // everything after the IP header
        CheckTruncations(*packet, 20);
    }
}

TEST(FlowDissectorTest, Ipv6TcpDscpEcnAndFlowLabel)
{
    // Traffic class 0x2a = DSCP 10 (AF11) << 2 | ECN 10 (ECT(0)); flow label 0x12345.
    const Bytes packet =
        Ipv6(0x2a, 0x12345, 6, Tcp(443, 50000, FlowKeys::TCP_SYN, TIMESTAMP_OPTION), 0);
    FlowKeys keys;
    ASSERT_TRUE(Dissect(packet.data(), packet.size(), keys));
    EXPECT_EQ(keys.etherType, FlowKeys::ETHER_TYPE_IPV6);
    EXPECT_EQ(keys.family, FlowKeys::Family::IPV6);
    EXPECT_EQ(keys.AddressLength(), 16U);
    EXPECT_EQ(0, std::memcmp(keys.source.data(), &packet[8], 16));
    EXPECT_EQ(0, std::memcmp(keys.destination.data(), &packet[24], 16));
    EXPECT_EQ(keys.dscp, 10);
    EXPECT_EQ(keys.ecn, 2);
    EXPECT_EQ(keys.flowLabel, 0x12345U);
    EXPECT_EQ(keys.protocol, 6);
    EXPECT_EQ(keys.sourcePort, 443);
    EXPECT_EQ(keys.destinationPort, 50000);
    EXPECT_EQ(keys.tcpFlags, FlowKeys::TCP_SYN);
    EXPECT_EQ(keys.l4Offset, 40);
    EXPECT_EQ(keys.TcpOptionsOffset(), 60U);
    EXPECT_EQ(keys.TcpOptionsLength(), 12U);
    CheckTruncations(packet, 40 + 32);
}

TEST(FlowDissectorTest, Ipv6ExtensionHeaders)
{
    // Hop-by-hop (next 43, length 0 -> 8 bytes), routing (next 60, length 2 -> 24 bytes),
    // destination options (next 17, length 0 -> 8 bytes), then UDP at 40 + 8 + 24 + 8 = 80.
    Bytes rest{43, 0, 1, 4, 0, 0, 0, 0};
    rest = Concat(rest, {60, 2, 0, 0, 0, 0, 0, 0});
    rest.resize(rest.size() + 16); // the routing header's other 16 bytes
    rest = Concat(rest, {17, 0, 1, 4, 0, 0, 0, 0});
    rest = Concat(rest, Udp(5353, 5353, 10));
    const Bytes packet = Ipv6(0, 0, 0, rest, 10);
    FlowKeys keys;
    ASSERT_TRUE(Dissect(packet.data(), packet.size(), keys));
    EXPECT_EQ(keys.protocol, 17);
    EXPECT_EQ(keys.l4Offset, 80);
    EXPECT_EQ(keys.sourcePort, 5353);
    EXPECT_EQ(keys.payloadLength, 10U);
    EXPECT_FALSE(keys.fragment);
    CheckTruncations(packet, 80 + 8);
}

TEST(FlowDissectorTest, Ipv6Fragment)
{
    // Fragment header (next 6, reserved, offset 0 with M set, identification): a first
    // fragment. Dissection stops there: protocol 6, no ports.
    const Bytes rest =
        Concat({6, 0, 0x00, 0x01, 0xde, 0xad, 0xbe, 0xef}, Tcp(5001, 80, FlowKeys::TCP_ACK, {}));
    const Bytes packet = Ipv6(0, 0, 44, rest, 500);
    FlowKeys keys;
    ASSERT_TRUE(Dissect(packet.data(), packet.size(), keys));
    EXPECT_TRUE(keys.fragment);
    EXPECT_EQ(keys.protocol, 6);
    EXPECT_EQ(keys.sourcePort, 0);
    EXPECT_EQ(keys.l4Offset, 48);
    EXPECT_EQ(keys.payloadLength, 20U + 500U);
    CheckTruncations(packet, 48);
}

TEST(FlowDissectorTest, Ipv6HeaderChainLimit)
{
    // 16 hop-by-hop headers: after MAX_FLOW_DISSECT_HDRS (15) the walk stops with the
    // pending next-header value (0) as the protocol, as the kernel's out_good path does.
    Bytes rest;
    for (int i = 0; i < 16; ++i)
    {
        rest = Concat(rest, {0, 0, 1, 4, 0, 0, 0, 0});
    }
    rest = Concat(rest, Udp(1, 2, 0));
    const Bytes packet = Ipv6(0, 0, 0, rest, 0);
    FlowKeys keys;
    ASSERT_TRUE(Dissect(packet.data(), packet.size(), keys));
    EXPECT_EQ(keys.protocol, 0);
    EXPECT_EQ(keys.l4Offset, 40 + 15 * 8);
    EXPECT_EQ(keys.sourcePort, 0);
}

TEST(FlowDissectorTest, Malformed)
{
    FlowKeys keys;
    EXPECT_FALSE(Dissect(nullptr, 0, keys));
    // Version 5.
    Bytes packet = Ipv4(0, 0, 6, {}, Tcp(1, 2, 0, {}), 0);
    packet[0] = 0x55;
    EXPECT_FALSE(Dissect(packet.data(), packet.size(), keys));
    EXPECT_EQ(keys.family, FlowKeys::Family::NONE);
    // IHL 4 (below the minimum of 5), and IHL 15 (60 bytes) in a 40-byte packet.
    packet[0] = 0x44;
    EXPECT_FALSE(Dissect(packet.data(), packet.size(), keys));
    packet[0] = 0x4f;
    EXPECT_FALSE(Dissect(packet.data(), packet.size(), keys));
    // TCP data offset 4 (16 bytes) is below the fixed header.
    packet[0] = 0x45;
    packet[20 + 12] = 0x40;
    EXPECT_FALSE(Dissect(packet.data(), packet.size(), keys));
    EXPECT_EQ(keys.sourcePort, 1); // ports were read all the same
    // An extension header claiming more than the packet holds ((255 + 1) x 8 = 2048 bytes
    // in a 56-byte packet): the L4 read is refused, and the transport offset stays inside
    // the packet, at its end, as __skb_flow_dissect() clamps thoff to the length.
    const Bytes longHop = Ipv6(0, 0, 0, {17, 255, 0, 0, 0, 0, 0, 0}, 8);
    EXPECT_FALSE(Dissect(longHop.data(), longHop.size(), keys));
    EXPECT_EQ(keys.l4Offset, 40 + 8 + 8);
}

TEST(FlowDissectorTest, RandomBytesStayInBounds)
{
    // A linear congruential generator feeds garbage, half of it with a 4 or 6 version nibble;
    // under AddressSanitizer any out-of-bounds read fails the run.
    uint64_t state = 12345;
    auto next = [&state]() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<uint8_t>(state >> 56);
    };
    for (int i = 0; i < 20000; ++i)
    {
        Bytes buffer(next() % 120);
        for (auto& byte : buffer)
        {
            byte = next();
        }
        if (!buffer.empty() && i % 2 == 0)
        {
            buffer[0] = static_cast<uint8_t>((i % 4 == 0 ? 0x40 : 0x60) | (buffer[0] & 0x0f));
        }
        FlowKeys keys;
        Dissect(buffer.data(), buffer.size(), keys);
        EXPECT_LE(keys.l4Offset, buffer.size()) << "the transport offset stays in the packet";
        DissectL4(buffer.empty() ? 6 : buffer[0], buffer.data(), buffer.size(), keys);
        FlowHash(keys, KEY0, KEY1);
    }
}

TEST(FlowDissectorTest, DissectL4MatchesDissect)
{
    const Bytes tcp = Tcp(5001, 80, FlowKeys::TCP_ACK, TIMESTAMP_OPTION);
    const Bytes packet = Ipv4(0xb9, 0, 6, {}, tcp, 200);
    FlowKeys whole;
    ASSERT_TRUE(Dissect(packet.data(), packet.size(), whole));

    // An ns-3 caller copies the IP header fields, then hands over the segment bytes.
    FlowKeys keys;
    keys.etherType = FlowKeys::ETHER_TYPE_IPV4;
    keys.family = FlowKeys::Family::IPV4;
    std::memcpy(keys.source.data(), &packet[12], 4);
    std::memcpy(keys.destination.data(), &packet[16], 4);
    keys.dscp = 46;
    keys.ecn = 1;
    ASSERT_TRUE(DissectL4(6, &packet[20], packet.size() - 20, keys));
    EXPECT_EQ(keys.sourcePort, whole.sourcePort);
    EXPECT_EQ(keys.destinationPort, whole.destinationPort);
    EXPECT_EQ(keys.tcpFlags, whole.tcpFlags);
    EXPECT_EQ(keys.tcpSequence, whole.tcpSequence);
    EXPECT_EQ(keys.tcpAck, whole.tcpAck);
    EXPECT_EQ(keys.tcpHeaderLength, whole.tcpHeaderLength);
    EXPECT_EQ(keys.l4Offset, 0);
    EXPECT_EQ(keys.TcpOptionsOffset(), 20U);
    EXPECT_EQ(keys.payloadLength, 200U);
    EXPECT_EQ(FlowHash(keys, KEY0, KEY1), FlowHash(whole, KEY0, KEY1));

    // Only the header at hand: payloadLength counts what was given (0 here).
    ASSERT_TRUE(DissectL4(6, tcp.data(), tcp.size(), keys));
    EXPECT_EQ(keys.payloadLength, 0U);
    // A short header fails; a fragment records the protocol only.
    EXPECT_FALSE(DissectL4(17, tcp.data(), 7, keys));
    keys.fragment = true;
    ASSERT_TRUE(DissectL4(6, tcp.data(), tcp.size(), keys));
    EXPECT_EQ(keys.sourcePort, 0);
    EXPECT_EQ(keys.tcpHeaderLength, 0);
    EXPECT_EQ(keys.payloadLength, tcp.size());
}

TEST(FlowDissectorTest, SipHashReferenceVectors)
{
    // The 64 SipHash-2-4 outputs of the reference implementation's test table (the paper's
    // Appendix A gives entry 15): key 00 01 .. 0f, message 00 01 .. (n - 1) for n = 0 .. 63.
    const std::array<uint64_t, 64> expected{
        0x726fdb47dd0e0e31, 0x74f839c593dc67fd, 0x0d6c8009d9a94f5a, 0x85676696d7fb7e2d,
        0xcf2794e0277187b7, 0x18765564cd99a68d, 0xcbc9466e58fee3ce, 0xab0200f58b01d137,
        0x93f5f5799a932462, 0x9e0082df0ba9e4b0, 0x7a5dbbc594ddb9f3, 0xf4b32f46226bada7,
        0x751e8fbc860ee5fb, 0x14ea5627c0843d90, 0xf723ca908e7af2ee, 0xa129ca6149be45e5,
        0x3f2acc7f57c29bdb, 0x699ae9f52cbe4794, 0x4bc1b3f0968dd39c, 0xbb6dc91da77961bd,
        0xbed65cf21aa2ee98, 0xd0f2cbb02e3b67c7, 0x93536795e3a33e88, 0xa80c038ccd5ccec8,
        0xb8ad50c6f649af94, 0xbce192de8a85b8ea, 0x17d835b85bbb15f3, 0x2f2e6163076bcfad,
        0xde4daaaca71dc9a5, 0xa6a2506687956571, 0xad87a3535c49ef28, 0x32d892fad841c342,
        0x7127512f72f27cce, 0xa7f32346f95978e3, 0x12e0b01abb051238, 0x15e034d40fa197ae,
        0x314dffbe0815a3b4, 0x027990f029623981, 0xcadcd4e59ef40c4d, 0x9abfd8766a33735c,
        0x0e3ea96b5304a7d0, 0xad0c42d6fc585992, 0x187306c89bc215a9, 0xd4a60abcf3792b95,
        0xf935451de4f21df2, 0xa9538f0419755787, 0xdb9acddff56ca510, 0xd06c98cd5c0975eb,
        0xe612a3cb9ecba951, 0xc766e62cfcadaf96, 0xee64435a9752fe72, 0xa192d576b245165a,
        0x0a8787bf8ecb74b2, 0x81b3e73d20b49b6f, 0x7fa8220ba3b2ecea, 0x245731c13ca42499,
        0xb78dbfaf3a8d83bd, 0xea1ad565322a1a0b, 0x60e61c23a3795013, 0x6606d7e446282b93,
        0x6ca4ecb15c5f91e1, 0x9f626da15c9625f3, 0xe51b38608ef25f57, 0x958a324ceb064572,
    };
    Bytes message(64);
    for (size_t i = 0; i < message.size(); ++i)
    {
        message[i] = static_cast<uint8_t>(i);
    }
    // k0 = bytes 00..07 little-endian, k1 = bytes 08..0f little-endian.
    const uint64_t k0 = 0x0706050403020100ULL;
    const uint64_t k1 = 0x0f0e0d0c0b0a0908ULL;
    for (size_t n = 0; n < 64; ++n)
    {
        EXPECT_EQ(SipHash24(message.data(), n, k0, k1), expected[n]) << "length " << n;
    }
}

/**
 * @param sport source port
 * @param dport destination port
 * @param reverse swap the addresses
 * @return the keys of an IPv4 TCP packet between 10.0.0.1 and 10.0.0.2
 */
FlowKeys
Ipv4Keys(uint16_t sport, uint16_t dport, bool reverse)
{
    Bytes packet = Ipv4(0, 0, 6, {}, Tcp(sport, dport, FlowKeys::TCP_ACK, {}), 0);
    if (reverse)
    {
        std::swap_ranges(&packet[12], &packet[16], &packet[16]);
    }
    FlowKeys keys;
    EXPECT_TRUE(Dissect(packet.data(), packet.size(), keys));
    return keys;
}

TEST(FlowDissectorTest, FlowHashProperties)
{
    const FlowKeys forward = Ipv4Keys(5001, 80, false);
    const uint32_t hash = FlowHash(forward, KEY0, KEY1);
    EXPECT_NE(hash, 0U);
    EXPECT_EQ(FlowHash(forward, KEY0, KEY1), hash);
    // Another key (SFQ's perturbation, another RngRun) gives another hash.
    EXPECT_NE(FlowHash(forward, KEY0 + 1, KEY1), hash);
    EXPECT_NE(FlowHash(forward, KEY0, KEY1 + 1), hash);
    // __flow_hash_consistentify(): the reverse direction hashes alike ...
    EXPECT_EQ(FlowHash(Ipv4Keys(80, 5001, true), KEY0, KEY1), hash);
    // ... and, since addresses and ports are sorted independently, so does A:80 -> B:5001.
    EXPECT_EQ(FlowHash(Ipv4Keys(80, 5001, false), KEY0, KEY1), hash);
    // Another port or protocol is another flow.
    EXPECT_NE(FlowHash(Ipv4Keys(5002, 80, false), KEY0, KEY1), hash);
    FlowKeys udp = forward;
    udp.protocol = 17;
    EXPECT_NE(FlowHash(udp, KEY0, KEY1), hash);

    // 1000 flows over 1024 buckets: about 1024 * (1 - exp(-1000 / 1024)) = 637 buckets in use.
    std::set<uint32_t> buckets;
    for (uint16_t port = 1000; port < 2000; ++port)
    {
        buckets.insert(FlowHash(Ipv4Keys(port, 80, false), KEY0, KEY1) & 1023);
    }
    EXPECT_GT(buckets.size(), 580U);
}

TEST(FlowDissectorTest, Ipv6FlowHash)
{
    Bytes packet = Ipv6(0, 0, 6, Tcp(5001, 80, FlowKeys::TCP_ACK, {}), 0);
    FlowKeys forward;
    ASSERT_TRUE(Dissect(packet.data(), packet.size(), forward));
    std::swap_ranges(&packet[8], &packet[24], &packet[24]);
    FlowKeys reverse;
    ASSERT_TRUE(Dissect(packet.data(), packet.size(), reverse));
    EXPECT_EQ(FlowHash(forward, KEY0, KEY1), FlowHash(reverse, KEY0, KEY1));
    FlowKeys otherPort = forward;
    otherPort.sourcePort = 5002;
    EXPECT_NE(FlowHash(otherPort, KEY0, KEY1), FlowHash(forward, KEY0, KEY1));

    // With a flow label, FLOW_DISSECTOR_F_STOP_AT_FLOW_LABEL leaves the ports out: only the
    // label tells flows apart.
    FlowKeys labelled = forward;
    labelled.flowLabel = 0xbeef;
    FlowKeys labelledOtherPort = labelled;
    labelledOtherPort.sourcePort = 5002;
    EXPECT_EQ(FlowHash(labelled, KEY0, KEY1), FlowHash(labelledOtherPort, KEY0, KEY1));
    FlowKeys otherLabel = labelled;
    otherLabel.flowLabel = 0xbeee;
    EXPECT_NE(FlowHash(labelled, KEY0, KEY1), FlowHash(otherLabel, KEY0, KEY1));
}

TEST(FlowDissectorTest, NonIpAndFragmentHashes)
{
    // Non-IP: the caller sets only the EtherType; every ARP frame hashes alike.
    FlowKeys arp;
    arp.etherType = 0x0806;
    FlowKeys otherArp;
    otherArp.etherType = 0x0806;
    FlowKeys lldp;
    lldp.etherType = 0x88cc;
    EXPECT_EQ(FlowHash(arp, KEY0, KEY1), FlowHash(otherArp, KEY0, KEY1));
    EXPECT_NE(FlowHash(arp, KEY0, KEY1), FlowHash(lldp, KEY0, KEY1));
    EXPECT_EQ(SourceHostHash(arp, KEY0, KEY1), 0U);
    EXPECT_EQ(DestinationHostHash(arp, KEY0, KEY1), 0U);

    // All fragments of a datagram share the hash of "protocol, no ports".
    const Bytes tcp = Tcp(5001, 80, FlowKeys::TCP_ACK, {});
    const Bytes first = Ipv4(0, 0x2000, 6, {}, tcp, 1000);
    const Bytes later = Ipv4(0, 185, 6, {}, tcp, 1000);
    FlowKeys a;
    FlowKeys b;
    ASSERT_TRUE(Dissect(first.data(), first.size(), a));
    ASSERT_TRUE(Dissect(later.data(), later.size(), b));
    EXPECT_EQ(FlowHash(a, KEY0, KEY1), FlowHash(b, KEY0, KEY1));
    EXPECT_NE(FlowHash(a, KEY0, KEY1), FlowHash(Ipv4Keys(5001, 80, false), KEY0, KEY1));
}

TEST(FlowDissectorTest, HostHashes)
{
    // cake_hash(): srchost hashes (src, 0), dsthost hashes (0, dst), both sorted, so the source
    // host hash of A equals the destination host hash of A.
    const FlowKeys aToB = Ipv4Keys(5001, 80, false);
    const FlowKeys bToA = Ipv4Keys(80, 5001, true);
    EXPECT_EQ(SourceHostHash(aToB, KEY0, KEY1), DestinationHostHash(bToA, KEY0, KEY1));
    EXPECT_EQ(DestinationHostHash(aToB, KEY0, KEY1), SourceHostHash(bToA, KEY0, KEY1));
    EXPECT_NE(SourceHostHash(aToB, KEY0, KEY1), DestinationHostHash(aToB, KEY0, KEY1));
    // Ports, protocol and flow label do not matter to a host.
    FlowKeys other = Ipv4Keys(6000, 443, false);
    other.protocol = 17;
    EXPECT_EQ(SourceHostHash(other, KEY0, KEY1), SourceHostHash(aToB, KEY0, KEY1));
    EXPECT_EQ(DestinationHostHash(other, KEY0, KEY1), DestinationHostHash(aToB, KEY0, KEY1));
    EXPECT_NE(SourceHostHash(aToB, KEY0, KEY1), 0U);

    Bytes packet = Ipv6(0, 0x12345, 17, Udp(1, 2, 0), 0);
    FlowKeys v6;
    ASSERT_TRUE(Dissect(packet.data(), packet.size(), v6));
    FlowKeys v6Other = v6;
    v6Other.flowLabel = 7;
    v6Other.sourcePort = 9;
    EXPECT_EQ(SourceHostHash(v6, KEY0, KEY1), SourceHostHash(v6Other, KEY0, KEY1));
    std::swap(v6Other.source, v6Other.destination);
    EXPECT_EQ(SourceHostHash(v6, KEY0, KEY1), DestinationHostHash(v6Other, KEY0, KEY1));
}

} // namespace
