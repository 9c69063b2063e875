/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * libFuzzer harness of CAKE's ACK filter (model/qdisc/cake/cake-ack-filter.h): the input is
 * one flow queue, a series of packets from their IP header, each a FuzzReader field (a
 * length byte and the bytes), the last being the trigger. Each packet is parsed with
 * CakeAckPacketFromL3() from a buffer of its exact length, and CakeAckFilter() runs over the
 * queue in both modes.
 *
 * Properties: only the given bytes are read (AddressSanitizer); an option CakeTcpGetOption()
 * finds lies inside the packet's options; the filter drops nothing when off, and otherwise at
 * most one packet before the trigger, which is TCP; CakeSackCompare() is -1, 0 or 1.
 */

#include "fuzz-reader.h"

#include "ns3/cake-ack-filter.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace
{

using debloatfuzz::FuzzReader;
using debloatfuzz::Require;
using ns3::debloat::CakeAckFilter;
using ns3::debloat::CakeAckFilterMode;
using ns3::debloat::CakeAckPacket;
using ns3::debloat::CakeAckPacketFromL3;
using ns3::debloat::CakeSackCompare;
using ns3::debloat::CakeTcpGetOption;
using ns3::debloat::CakeTcpGetTimestamp;
using ns3::debloat::CakeTcpMayDrop;

/// Most packets read from one input.
constexpr size_t MAX_PACKETS = 16;

/**
 * Checks that the options CakeTcpGetOption() finds lie inside the packet's options.
 * @param packet a parsed TCP packet
 */
void
CheckOptions(const CakeAckPacket& packet)
{
    Require(packet.optionsLength <= packet.options.size(), "at most 40 bytes of options");
    for (unsigned kind = 0; kind < 256; ++kind)
    {
        uint8_t optionSize = 0;
        const uint8_t* option = CakeTcpGetOption(packet, static_cast<uint8_t>(kind), optionSize);
        if (option)
        {
            const uint8_t* begin = packet.options.data();
            Require(option >= begin + 2 && optionSize >= 2 &&
                        option - 2 + optionSize <= begin + packet.optionsLength,
                    "a found option lies inside the options");
        }
    }
    uint32_t tsval = 0;
    uint32_t tsecr = 0;
    CakeTcpGetTimestamp(packet, tsval, tsecr);
    CakeTcpMayDrop(packet, tsval, tsecr);
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
    FuzzReader reader(data, size);
    std::vector<std::optional<CakeAckPacket>> queue;
    while (reader.HasMore() && queue.size() < MAX_PACKETS)
    {
        const std::string bytes = reader.Field();
        auto l3 = std::make_unique<uint8_t[]>(bytes.size());
        std::memcpy(l3.get(), bytes.data(), bytes.size());
        CakeAckPacket packet;
        if (CakeAckPacketFromL3(l3.get(), bytes.size(), packet))
        {
            CheckOptions(packet);
            queue.emplace_back(packet);
        }
        else
        {
            queue.emplace_back(std::nullopt);
        }
    }
    auto packetAt = [&queue](size_t index) -> const CakeAckPacket* {
        Require(index < queue.size(), "the filter asks for packets of the queue");
        return queue[index] ? &*queue[index] : nullptr;
    };
    for (size_t a = 0; a < queue.size(); ++a)
    {
        for (size_t b = 0; b < queue.size(); ++b)
        {
            if (queue[a] && queue[b])
            {
                const int compare = CakeSackCompare(*queue[a], *queue[b]);
                Require(compare >= -1 && compare <= 1, "CakeSackCompare() is -1, 0 or 1");
            }
        }
    }
    Require(!CakeAckFilter(CakeAckFilterMode::NONE, queue.size(), packetAt),
            "the filter drops nothing when off");
    for (const auto mode : {CakeAckFilterMode::FILTER, CakeAckFilterMode::AGGRESSIVE})
    {
        const std::optional<size_t> drop = CakeAckFilter(mode, queue.size(), packetAt);
        if (drop)
        {
            Require(*drop + 1 < queue.size(), "the dropped packet is before the trigger");
            Require(queue[*drop].has_value(), "the dropped packet is TCP");
        }
    }
    return 0;
}
