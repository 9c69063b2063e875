/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "queue-disc-item-keys.h"

#include "ns3/buffer.h"
#include "ns3/hash.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-queue-disc-item.h"

#include <algorithm>

namespace ns3
{
namespace debloat
{

bool
QueueDiscItemFlowKeys(const QueueDiscItem* item, FlowKeys& keys)
{
    keys = FlowKeys{};
    keys.etherType = item->GetProtocol();
    uint8_t l4[8];
    // Raw pointers: this runs for every packet, and Ptr copies cost reference counting.
    if (const auto* ip = dynamic_cast<const Ipv4QueueDiscItem*>(item))
    {
        const Ipv4Header& header = ip->GetHeader();
        keys.family = FlowKeys::Family::IPV4;
        header.GetSource().Serialize(keys.source.data());
        header.GetDestination().Serialize(keys.destination.data());
        const uint8_t tos = header.GetTos();
        keys.dscp = tos >> 2;
        keys.ecn = tos & 3;
        keys.fragment = !header.IsLastFragment() || header.GetFragmentOffset() != 0;
        const uint32_t length = ip->GetPacket()->CopyData(l4, sizeof(l4));
        DissectL4(header.GetProtocol(), l4, length, keys);
        return true;
    }
    if (const auto* ip6 = dynamic_cast<const Ipv6QueueDiscItem*>(item))
    {
        const Ipv6Header& header = ip6->GetHeader();
        keys.family = FlowKeys::Family::IPV6;
        header.GetSource().Serialize(keys.source.data());
        header.GetDestination().Serialize(keys.destination.data());
        keys.dscp = header.GetTrafficClass() >> 2;
        keys.ecn = header.GetTrafficClass() & 3;
        const uint32_t length = ip6->GetPacket()->CopyData(l4, sizeof(l4));
        DissectL4(header.GetNextHeader(), l4, length, keys);
        return true;
    }
    return false;
}

size_t
QueueDiscItemNetworkBytes(const QueueDiscItem* item, uint8_t* buffer, size_t capacity)
{
    const Header* header = nullptr;
    if (const auto* ip = dynamic_cast<const Ipv4QueueDiscItem*>(item))
    {
        header = &ip->GetHeader();
    }
    else if (const auto* ip6 = dynamic_cast<const Ipv6QueueDiscItem*>(item))
    {
        header = &ip6->GetHeader();
    }
    const uint32_t headerSize = header ? header->GetSerializedSize() : 0;
    if (headerSize == 0 || headerSize > capacity)
    {
        return 0;
    }
    Buffer serialized;
    serialized.AddAtStart(headerSize);
    header->Serialize(serialized.Begin());
    serialized.CopyData(buffer, headerSize);
    const uint32_t payload = item->GetPacket()->CopyData(
        buffer + headerSize,
        static_cast<uint32_t>(std::min<size_t>(capacity - headerSize, UINT32_MAX)));
    return headerSize + payload;
}

namespace
{

/**
 * Reads the ports of a TCP or UDP header at the start of a packet.
 * @param packet the packet
 * @param[out] bytes the tuple's four port bytes, network order (zero when too short)
 */
void
ReadPorts(const Packet& packet, uint8_t* bytes)
{
    if (packet.CopyData(bytes, 4) < 4)
    {
        std::fill(bytes, bytes + 4, 0);
    }
}

/**
 * Writes the perturbation after the ports, most significant byte first.
 * @param perturbation the perturbation
 * @param bytes four bytes
 */
void
WritePerturbation(uint32_t perturbation, uint8_t* bytes)
{
    for (int i = 0; i < 4; ++i)
    {
        bytes[i] = static_cast<uint8_t>(perturbation >> (24 - 8 * i));
    }
}

} // namespace

uint32_t
QueueDiscItemTupleHash(const QueueDiscItem* item, uint32_t perturbation)
{
    constexpr uint8_t TCP = 6;
    constexpr uint8_t UDP = 17;
    if (const auto* ip = dynamic_cast<const Ipv4QueueDiscItem*>(item))
    {
        // Ipv4QueueDiscItem::Hash(): source, destination, protocol, ports, perturbation.
        const Ipv4Header& header = ip->GetHeader();
        uint8_t buf[17] = {};
        header.GetSource().Serialize(buf);
        header.GetDestination().Serialize(buf + 4);
        buf[8] = header.GetProtocol();
        if ((buf[8] == TCP || buf[8] == UDP) && header.GetFragmentOffset() == 0)
        {
            ReadPorts(*ip->GetPacket(), buf + 9);
        }
        WritePerturbation(perturbation, buf + 13);
        return Hash32(reinterpret_cast<const char*>(buf), sizeof(buf));
    }
    if (const auto* ip6 = dynamic_cast<const Ipv6QueueDiscItem*>(item))
    {
        const Ipv6Header& header = ip6->GetHeader();
        uint8_t buf[41] = {};
        header.GetSource().Serialize(buf);
        header.GetDestination().Serialize(buf + 16);
        buf[32] = header.GetNextHeader();
        if (buf[32] == TCP || buf[32] == UDP)
        {
            ReadPorts(*ip6->GetPacket(), buf + 33);
        }
        WritePerturbation(perturbation, buf + 37);
        return Hash32(reinterpret_cast<const char*>(buf), sizeof(buf));
    }
    return item->Hash(perturbation);
}

} // namespace debloat
} // namespace ns3
