/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows the ACK filter of net/sched/sch_cake.c of Linux.
 */

#include "cake-ack-filter.h"

#include <algorithm>
#include <cstring>

namespace ns3
{
namespace debloat
{

namespace
{

constexpr uint8_t PROTOCOL_TCP = 6;           ///< IPPROTO_TCP
constexpr uint8_t PROTOCOL_IPV6 = 41;         ///< IPPROTO_IPV6: 6in4
constexpr size_t IPV4_HEADER_LENGTH = 20;     ///< IPv4 header without options
constexpr size_t IPV6_HEADER_LENGTH = 40;     ///< fixed IPv6 header
constexpr size_t TCP_HEADER_LENGTH = 20;      ///< TCP header without options
constexpr size_t SACK_BLOCK_LENGTH = 8;       ///< one SACK block: start and end, 4 bytes each
constexpr uint16_t TCP_PURE_ACK_MASK = 0xF3F; ///< 0x0F3F0000 of the flag word, as tcpFlags
constexpr uint16_t TCP_ECN_FLAGS = FlowKeys::TCP_ECE | FlowKeys::TCP_CWR; ///< 0x00C00000

/**
 * The option walk shared by cake_get_tcpopt() and cake_tcph_may_drop() (both copied from
 * tcp_parse_options()): visit(kind, data, size) is called for each option other than NOP
 * and EOL, in order, until it returns false.
 * @param packet the packet
 * @param visit the visitor; data points after the length byte, size includes kind and length
 * @return false if visit stopped the walk, true if the walk ran out (end, EOL, bad length)
 */
template <typename Visitor>
bool
WalkTcpOptions(const CakeAckPacket& packet, Visitor&& visit)
{
    const uint8_t* option = packet.options.data();
    // Never trust optionsLength beyond the array: a hand-filled packet could overstate it.
    int remaining = std::min<int>(packet.optionsLength, static_cast<int>(packet.options.size()));
    while (remaining > 0)
    {
        const uint8_t kind = *option++;
        if (kind == TCP_OPTION_EOL)
        {
            break;
        }
        if (kind == TCP_OPTION_NOP)
        {
            --remaining;
            continue;
        }
        if (remaining < 2)
        {
            break;
        }
        const uint8_t size = *option++;
        if (size < 2 || size > remaining)
        {
            break;
        }
        if (!visit(kind, option, size))
        {
            return false;
        }
        option += size - 2;
        remaining -= size;
    }
    return true;
}

/// @param packet a packet or nullptr @return true if it is a TCP packet over IPv4 or IPv6
bool
IsTcp(const CakeAckPacket* packet)
{
    return packet != nullptr && packet->keys.protocol == PROTOCOL_TCP &&
           packet->keys.tcpHeaderLength >= TCP_HEADER_LENGTH &&
           packet->keys.family != FlowKeys::Family::NONE;
}

/// The 5-tuple test of cake_ack_filter(): IP version, ports, then addresses.
/// @param a one packet @param b another @return true if they belong to the same TCP flow
bool
SameConnection(const FlowKeys& a, const FlowKeys& b)
{
    if (a.family != b.family || a.sourcePort != b.sourcePort ||
        a.destinationPort != b.destinationPort)
    {
        return false;
    }
    const size_t length = a.AddressLength();
    return std::memcmp(a.source.data(), b.source.data(), length) == 0 &&
           std::memcmp(a.destination.data(), b.destination.data(), length) == 0;
}

} // namespace

bool
CakeAckPacketFromL3(const uint8_t* l3, size_t length, CakeAckPacket& packet)
{
    packet = CakeAckPacket{};
    if (l3 == nullptr || length < 1)
    {
        return false;
    }
    // 6in4 is special-cased by cake_get_tcphdr()/cake_get_iphdr(): the inner header counts.
    if (l3[0] >> 4 == 4 && length >= IPV4_HEADER_LENGTH && l3[9] == PROTOCOL_IPV6)
    {
        const size_t outer = size_t{l3[0] & 0x0Fu} * 4;
        if (outer < IPV4_HEADER_LENGTH || outer >= length || l3[outer] >> 4 != 6)
        {
            return false;
        }
        l3 += outer;
        length -= outer;
    }
    FlowKeys& keys = packet.keys;
    if (!Dissect(l3, length, keys) || keys.fragment || keys.protocol != PROTOCOL_TCP ||
        keys.tcpHeaderLength < TCP_HEADER_LENGTH)
    {
        return false;
    }
    size_t declared = 0; // the kernel's seglen: L4 bytes per the IP header
    if (keys.family == FlowKeys::Family::IPV4)
    {
        const size_t ihl = keys.l4Offset;
        const size_t total = ReadBe16(l3 + 2);
        declared = total > ihl ? total - ihl : 0;
    }
    else
    {
        // cake_get_tcphdr() wants TCP right after the fixed header: no extension headers.
        if (keys.l4Offset != IPV6_HEADER_LENGTH)
        {
            return false;
        }
        declared = ReadBe16(l3 + 4);
    }
    if (declared < keys.tcpHeaderLength)
    {
        return false; // see the deviation in the header
    }
    packet.optionsLength = static_cast<uint8_t>(keys.TcpOptionsLength());
    std::memcpy(packet.options.data(), l3 + keys.TcpOptionsOffset(), packet.optionsLength);
    return true;
}

bool
CakeSeqAfter(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(b - a) < 0;
}

bool
CakeSeqBefore(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(a - b) < 0;
}

const uint8_t*
CakeTcpGetOption(const CakeAckPacket& packet, uint8_t kind, uint8_t& size)
{
    const uint8_t* found = nullptr;
    WalkTcpOptions(packet, [&](uint8_t optionKind, const uint8_t* data, uint8_t optionSize) {
        if (optionKind != kind)
        {
            return true;
        }
        found = data;
        size = optionSize;
        return false;
    });
    return found;
}

bool
CakeTcpGetTimestamp(const CakeAckPacket& packet, uint32_t& tsval, uint32_t& tsecr)
{
    uint8_t size = 0;
    const uint8_t* data = CakeTcpGetOption(packet, TCP_OPTION_TIMESTAMP, size);
    if (data == nullptr || size != TCP_OPTION_TIMESTAMP_SIZE)
    {
        return false;
    }
    tsval = ReadBe32(data);
    tsecr = ReadBe32(data + 4);
    return true;
}

bool
CakeTcpMayDrop(const CakeAckPacket& packet, uint32_t tsvalNew, uint32_t tsecrNew)
{
    // ECE/CWR are compared between ACKs by the caller; every other flag bit must be clear.
    if ((packet.keys.tcpFlags & TCP_PURE_ACK_MASK) != FlowKeys::TCP_ACK)
    {
        return false;
    }
    return WalkTcpOptions(packet, [&](uint8_t kind, const uint8_t* data, uint8_t size) {
        switch (kind)
        {
        case TCP_OPTION_MD5SIG:
            return true; // carries no TCP state
        case TCP_OPTION_SACK:
            return size % SACK_BLOCK_LENGTH == 2; // blocks are compared later
        case TCP_OPTION_TIMESTAMP:
            // Dropping an ACK whose timestamps are newer would hide them from RTT/PAWS.
            return size == TCP_OPTION_TIMESTAMP_SIZE && !CakeSeqAfter(ReadBe32(data), tsvalNew) &&
                   !CakeSeqAfter(ReadBe32(data + 4), tsecrNew);
        default:
            // MSS, window scale, SACK-permitted, fast open, experimental and unknown kinds.
            return false;
        }
    });
}

int
CakeSackCompare(const CakeAckPacket& a, const CakeAckPacket& b)
{
    uint8_t sizeA = 0;
    uint8_t sizeB = 0;
    const uint8_t* sackA = CakeTcpGetOption(a, TCP_OPTION_SACK, sizeA);
    const uint8_t* sackB = CakeTcpGetOption(b, TCP_OPTION_SACK, sizeB);
    const size_t lengthA = sackA != nullptr ? sizeA - 2u : 0; // block bytes
    const size_t lengthB = sackB != nullptr ? sizeB - 2u : 0;
    const bool blocksA = lengthA >= SACK_BLOCK_LENGTH;
    const bool blocksB = lengthB >= SACK_BLOCK_LENGTH;
    if (blocksA != blocksB)
    {
        return blocksA ? -1 : 1;
    }
    if (!blocksA)
    {
        return 0;
    }

    // The kernel sums b's blocks on its first pass over them; each pass that does not
    // return -1 covers all of them, so the total is the same.
    uint32_t bytesB = 0;
    for (size_t j = 0; j + SACK_BLOCK_LENGTH <= lengthB; j += SACK_BLOCK_LENGTH)
    {
        bytesB += ReadBe32(sackB + j + 4) - ReadBe32(sackB + j);
    }

    uint32_t bytesA = 0;
    for (size_t i = 0; i + SACK_BLOCK_LENGTH <= lengthA; i += SACK_BLOCK_LENGTH)
    {
        const uint32_t startA = ReadBe32(sackA + i);
        const uint32_t endA = ReadBe32(sackA + i + 4);
        if (CakeSeqBefore(startA, a.keys.tcpAck))
        {
            return -1; // D-SACK: reports a duplicate, keep it
        }
        bytesA += endA - startA;
        bool covered = false;
        for (size_t j = 0; j + SACK_BLOCK_LENGTH <= lengthB && !covered; j += SACK_BLOCK_LENGTH)
        {
            covered = !CakeSeqAfter(ReadBe32(sackB + j), startA) &&
                      !CakeSeqBefore(ReadBe32(sackB + j + 4), endA);
        }
        if (!covered)
        {
            return -1;
        }
    }
    return bytesB > bytesA ? 1 : 0;
}

std::optional<size_t>
CakeAckFilter(CakeAckFilterMode mode,
              size_t count,
              const std::function<const CakeAckPacket*(size_t)>& packetAt)
{
    if (mode == CakeAckFilterMode::NONE || count < 2)
    {
        return std::nullopt;
    }
    const size_t triggerIndex = count - 1;
    const CakeAckPacket* trigger = packetAt(triggerIndex);
    if (!IsTcp(trigger))
    {
        return std::nullopt;
    }
    // Without a valid timestamp option the trigger's TSval and TSecr count as 0.
    uint32_t tsval = 0;
    uint32_t tsecr = 0;
    CakeTcpGetTimestamp(*trigger, tsval, tsecr);
    // A SYN has no earlier ACKs to make redundant.
    const uint16_t triggerFlags = trigger->keys.tcpFlags;
    if ((triggerFlags & (FlowKeys::TCP_ACK | FlowKeys::TCP_SYN)) != FlowKeys::TCP_ACK)
    {
        return std::nullopt;
    }
    const uint32_t triggerAck = trigger->keys.tcpAck;

    // The kernel's num_found is 1 exactly while elig_ack is set (it drops on reaching 2 and
    // decrements when it forgets elig_ack), so the optional alone carries it.
    std::optional<size_t> eligible;
    uint16_t eligibleFlags = 0;
    for (size_t i = 0; i < triggerIndex; ++i)
    {
        const CakeAckPacket* candidate = packetAt(i);
        if (!IsTcp(candidate) || !SameConnection(candidate->keys, trigger->keys))
        {
            continue;
        }
        const FlowKeys& keys = candidate->keys;
        const uint16_t ecnFlags = keys.tcpFlags & TCP_ECN_FLAGS;
        // Dropping the earlier ACK would lose the ECN signal change this packet carries.
        if (eligible && ecnFlags != eligibleFlags)
        {
            eligible.reset();
        }
        if (!CakeTcpMayDrop(*candidate, tsval, tsecr) || keys.payloadLength != 0 ||
            CakeSeqAfter(keys.tcpAck, triggerAck))
        {
            continue;
        }
        // The trigger must SACK more, or SACK the same with a larger ack_seq: duplicate
        // ACKs are kept, they signal loss to the sender.
        const int sack = CakeSackCompare(*candidate, *trigger);
        if (sack < 0 || (sack == 0 && keys.tcpAck == triggerAck))
        {
            continue;
        }
        if (eligible)
        {
            return eligible; // second eligible ACK: drop the one nearest the head
        }
        eligible = i;
        eligibleFlags = ecnFlags;
    }

    // A lone eligible ACK is dropped only when nothing, ECN information included, sits
    // between it and the trigger that supersedes it.
    if (eligible && mode == CakeAckFilterMode::AGGRESSIVE && *eligible + 1 == triggerIndex &&
        eligibleFlags == (triggerFlags & TCP_ECN_FLAGS))
    {
        return eligible;
    }
    return std::nullopt;
}

} // namespace debloat
} // namespace ns3
