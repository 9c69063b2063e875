/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "netperf-header.h"

namespace ns3
{
namespace debloat
{

NS_OBJECT_ENSURE_REGISTERED(NetperfHeader);

/// "NPRF": marks a netperf test request.
static constexpr uint32_t NETPERF_MAGIC = 0x4e505246;

TypeId
NetperfHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::debloat::NetperfHeader")
                            .SetParent<Header>()
                            .SetGroupName("Debloat")
                            .AddConstructor<NetperfHeader>();
    return tid;
}

TypeId
NetperfHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
NetperfHeader::GetSerializedSize() const
{
    return SIZE;
}

void
NetperfHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(NETPERF_MAGIC);
    start.WriteU8(static_cast<uint8_t>(test));
    start.WriteU8(tos);
    start.WriteHtonU16(0);
    start.WriteHtonU32(requestSize);
    start.WriteHtonU32(responseSize);
}

uint32_t
NetperfHeader::Deserialize(Buffer::Iterator start)
{
    m_valid = start.ReadNtohU32() == NETPERF_MAGIC;
    const uint8_t code = start.ReadU8();
    m_valid = m_valid && code >= static_cast<uint8_t>(NetperfTest::TCP_STREAM) &&
              code <= static_cast<uint8_t>(NetperfTest::TCP_RR);
    test = static_cast<NetperfTest>(code);
    tos = start.ReadU8();
    start.ReadNtohU16();
    requestSize = start.ReadNtohU32();
    responseSize = start.ReadNtohU32();
    m_valid = m_valid && requestSize > 0 && responseSize > 0;
    return SIZE;
}

void
NetperfHeader::Print(std::ostream& os) const
{
    os << "test=" << static_cast<uint32_t>(test) << " tos=" << static_cast<uint32_t>(tos)
       << " request=" << requestSize << " response=" << responseSize;
}

bool
NetperfHeader::IsValid() const
{
    return m_valid;
}

} // namespace debloat
} // namespace ns3
