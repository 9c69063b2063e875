/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DSCP_PACKET_FILTER_H
#define DSCP_PACKET_FILTER_H

#include "ns3/packet-filter.h"

#include <array>
#include <cstdint>
#include <string>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief Classifies IPv4 and IPv6 packets by their DSCP into a classful queue disc's class:
 * what `tc filter ... u32 match ip tos` / `match ip6 priority`, or iptables' DSCP match
 * with an fw filter, do in sqm-scripts.
 *
 * The map is given as "DSCP=CLASSID" pairs separated by commas, DSCP as a number or a
 * name (EF, VA, CSn, AFnm, LE, or TOSLD for the old Minimize-Delay TOS 0x10, DSCP 4),
 * CLASSID as tc writes it ("1:11", minor in hexadecimal): "EF=1:11,CS1=1:13". Packets whose
 * DSCP is not in the map, and packets that are not IP, are not classified (PF_NO_MATCH: the
 * queue disc's default applies).
 */
class DscpPacketFilter : public PacketFilter
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    DscpPacketFilter();
    ~DscpPacketFilter() override;

    /**
     * Sets the map; a malformed entry stops the program with a message naming it.
     * @param map e.g. "EF=1:11,CS6=1:11,CS1=1:13"
     */
    void SetMap(const std::string& map);

    /// @return the map as given
    std::string GetMap() const;

    /**
     * @param name a DSCP name (EF, VA, CS0..CS7, AF11..AF43, LE, TOSLD) or number 0..63
     * @return its value
     * @throws std::invalid_argument for anything else
     */
    static uint8_t ParseDscp(const std::string& name);

  private:
    bool CheckProtocol(Ptr<QueueDiscItem> item) const override;
    int32_t DoClassify(Ptr<QueueDiscItem> item) const override;

    std::string m_map;                 ///< the map as given
    std::array<int32_t, 64> m_classes; ///< class minor id per DSCP, PF_NO_MATCH when none
};

} // namespace debloat
} // namespace ns3

#endif /* DSCP_PACKET_FILTER_H */
