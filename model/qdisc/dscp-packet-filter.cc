/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dscp-packet-filter.h"

#include "ns3/abort.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/ipv6-queue-disc-item.h"
#include "ns3/string.h"

#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace debloat
{

NS_OBJECT_ENSURE_REGISTERED(DscpPacketFilter);

TypeId
DscpPacketFilter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::debloat::DscpPacketFilter")
            .SetParent<PacketFilter>()
            .SetGroupName("Debloat")
            .AddConstructor<DscpPacketFilter>()
            .AddAttribute("Map",
                          "DSCP=CLASSID pairs, e.g. \"EF=1:11,CS6=1:11,CS1=1:13\"",
                          StringValue(""),
                          MakeStringAccessor(&DscpPacketFilter::SetMap, &DscpPacketFilter::GetMap),
                          MakeStringChecker());
    return tid;
}

DscpPacketFilter::DscpPacketFilter()
{
    // A copy: fill() binds a reference, and ns-3.35 has no definition of PF_NO_MATCH.
    const int32_t noMatch = PF_NO_MATCH;
    m_classes.fill(noMatch);
}

DscpPacketFilter::~DscpPacketFilter() = default;

uint8_t
DscpPacketFilter::ParseDscp(const std::string& name)
{
    if (name == "EF")
    {
        return 46;
    }
    if (name == "VA")
    {
        return 44;
    }
    if (name == "LE")
    {
        return 1;
    }
    if (name == "TOSLD")
    {
        return 4; // TOS 0x10, Minimize-Delay
    }
    if (name.size() == 3 && name.compare(0, 2, "CS") == 0 && name[2] >= '0' && name[2] <= '7')
    {
        return static_cast<uint8_t>((name[2] - '0') << 3);
    }
    if (name.size() == 4 && name.compare(0, 2, "AF") == 0 && name[2] >= '1' && name[2] <= '4' &&
        name[3] >= '1' && name[3] <= '3')
    {
        // AFxy = 8x + 2y.
        return static_cast<uint8_t>(8 * (name[2] - '0') + 2 * (name[3] - '0'));
    }
    char* end = nullptr;
    const long value = std::strtol(name.c_str(), &end, 10);
    if (!name.empty() && *end == '\0' && value >= 0 && value <= 63)
    {
        return static_cast<uint8_t>(value);
    }
    throw std::invalid_argument("DSCP \"" + name +
                                "\": expected 0..63, EF, VA, LE, TOSLD, CS0..CS7 or AF11..AF43");
}

void
DscpPacketFilter::SetMap(const std::string& map)
{
    std::array<int32_t, 64> classes;
    const int32_t noMatch = PF_NO_MATCH;
    classes.fill(noMatch);
    std::stringstream entries(map);
    for (std::string entry; std::getline(entries, entry, ',');)
    {
        const size_t equals = entry.find('=');
        const size_t colon = entry.find(':', equals == std::string::npos ? 0 : equals);
        NS_ABORT_MSG_IF(equals == std::string::npos || colon == std::string::npos,
                        "DscpPacketFilter: map entry \"" << entry
                                                         << "\": expected DSCP=MAJOR:MINOR");
        uint8_t dscp = 0;
        try
        {
            dscp = ParseDscp(entry.substr(0, equals));
        }
        catch (const std::invalid_argument& error)
        {
            NS_ABORT_MSG("DscpPacketFilter: map entry \"" << entry << "\": " << error.what());
        }
        char* end = nullptr;
        const std::string minor = entry.substr(colon + 1);
        const unsigned long id = std::strtoul(minor.c_str(), &end, 16);
        NS_ABORT_MSG_IF(minor.empty() || *end != '\0' || id == 0 || id > 0xFFFF,
                        "DscpPacketFilter: map entry \""
                            << entry << "\": the class minor must be 1..ffff (hexadecimal)");
        classes[dscp] = static_cast<int32_t>(id);
    }
    m_classes = classes;
    m_map = map;
}

std::string
DscpPacketFilter::GetMap() const
{
    return m_map;
}

bool
DscpPacketFilter::CheckProtocol(Ptr<QueueDiscItem> item) const
{
    return DynamicCast<Ipv4QueueDiscItem>(item) || DynamicCast<Ipv6QueueDiscItem>(item);
}

int32_t
DscpPacketFilter::DoClassify(Ptr<QueueDiscItem> item) const
{
    if (auto ip = DynamicCast<Ipv4QueueDiscItem>(item))
    {
        return m_classes[ip->GetHeader().GetTos() >> 2];
    }
    auto ip6 = DynamicCast<Ipv6QueueDiscItem>(item);
    return m_classes[ip6->GetHeader().GetTrafficClass() >> 2];
}

} // namespace debloat
} // namespace ns3
