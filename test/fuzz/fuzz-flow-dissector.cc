/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * libFuzzer harness of the flow dissector (model/qdisc/flow-dissector.h): the input is a
 * packet from its IP header, as Dissect() reads it, and, from the same bytes, an L4 header
 * for DissectL4() with the protocol of the input's last byte.
 *
 * Properties: the dissector reads only the bytes it is given (AddressSanitizer), and what it
 * reports lies inside them: a TCP header with its options; the family
 * matches the address length; the hashes are never 0 for IP (FlowHash() never).
 */

#include "fuzz-reader.h"

#include "ns3/flow-dissector.h"

#include <cstdint>
#include <cstring>
#include <memory>

namespace
{

using debloatfuzz::Require;
using ns3::debloat::Dissect;
using ns3::debloat::DissectL4;
using ns3::debloat::FlowHash;
using ns3::debloat::FlowKeys;
using ns3::debloat::SourceHostHash;

/**
 * Checks what a dissection reported against the bytes it had.
 * @param keys the keys
 * @param length the bytes the dissector was given
 */
void
CheckKeys(const FlowKeys& keys, size_t length)
{
    // The transport offset stays inside the packet, as the kernel clamps its thoff to the
    // length, even after an IPv6 extension header longer than the packet.
    Require(keys.l4Offset <= length, "the transport offset lies inside the packet");
    if (keys.tcpHeaderLength > 0)
    {
        Require(keys.tcpHeaderLength >= 20 && keys.tcpHeaderLength % 4 == 0,
                "a TCP header is doff * 4 >= 20 bytes");
        Require(keys.TcpOptionsOffset() + keys.TcpOptionsLength() <= length,
                "the TCP options lie inside the packet");
        Require(!keys.fragment, "a fragment has no TCP header");
    }
    if (keys.fragment)
    {
        Require(keys.sourcePort == 0 && keys.destinationPort == 0, "a fragment has no ports");
    }
    Require(keys.AddressLength() == (keys.family == FlowKeys::Family::IPV4
                                         ? 4
                                         : (keys.family == FlowKeys::Family::IPV6 ? 16 : 0)),
            "the address length follows the family");
    Require(keys.flowLabel < (1U << 20), "the flow label has 20 bits");
    Require(keys.dscp < 64 && keys.ecn < 4, "DSCP has 6 bits, ECN 2");
}

} // namespace

/**
 * The libFuzzer entry point.
 * @param data the input
 * @param size its length
 * @return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FlowKeys keys;
    Dissect(data, size, keys);
    CheckKeys(keys, size);
    Require(FlowHash(keys, 1, 2) != 0, "FlowHash() is never 0");
    const uint32_t hostHash = SourceHostHash(keys, 3, 4);
    Require(keys.family != FlowKeys::Family::NONE || hostHash == 0,
            "a non-IP packet has host hash 0");

    // DissectL4() on a copy of exact length, so that ASan sees any read past it.
    if (size > 0)
    {
        const size_t length = size - 1;
        auto l4 = std::make_unique<uint8_t[]>(length);
        std::memcpy(l4.get(), data, length);
        FlowKeys l4Keys;
        l4Keys.family = FlowKeys::Family::IPV4;
        l4Keys.etherType = FlowKeys::ETHER_TYPE_IPV4;
        l4Keys.fragment = (data[size - 1] & 1) != 0 && data[size - 1] > 0x80;
        DissectL4(data[size - 1], l4.get(), length, l4Keys);
        CheckKeys(l4Keys, length);
    }
    return 0;
}
