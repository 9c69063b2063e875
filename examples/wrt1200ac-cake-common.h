/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat
 * What the two WRT1200AC cake experiments (wrt1200ac-cake-shaping.cc and
 * wrt1200ac-cake-overhead.cc) share: Ethernet's framing on the wire, the bytes cake charges
 * its shaper for an IP packet and the rig's line rate.
 */

#ifndef WRT1200AC_CAKE_COMMON_H
#define WRT1200AC_CAKE_COMMON_H

#include "ns3/cake-config.h"
#include "ns3/cake-overhead.h"
#include "ns3/data-rate.h"
#include "ns3/nic-topology-helper.h"

#include <algorithm>
#include <sstream>
#include <string>

/// The WRT1200AC experiments' shared arithmetic.
namespace wrt1200ac
{

using namespace ns3;
using namespace ns3::debloat;

// Ethernet framing (IEEE 802.3), bytes.
constexpr uint32_t ETH_HEADER = 14;  ///< destination, source, EtherType
constexpr uint32_t ETH_FCS = 4;      ///< frame check sequence
constexpr uint32_t ETH_PREAMBLE = 8; ///< preamble 7 + start-of-frame delimiter 1
constexpr uint32_t ETH_IFG = 12;     ///< inter-frame gap
constexpr uint32_t ETH_ZLEN = 60;    ///< shortest frame without FCS; shorter ones are padded

/**
 * @param ipSize an IP packet's length
 * @return the bytes it holds an Ethernet wire: the frame (padded to ETH_ZLEN) with FCS,
 *         preamble and inter-frame gap
 */
inline uint32_t
WireBytes(uint32_t ipSize)
{
    return std::max(ipSize + ETH_HEADER, ETH_ZLEN) + ETH_FCS + ETH_PREAMBLE + ETH_IFG;
}

/**
 * @param options tc-cake words
 * @return the configuration they give (tc's defaults for the rest)
 */
inline CakeConfig
CakeOptions(const std::string& options)
{
    CakeConfig config;
    ParseCakeOptions(config, options);
    return config;
}

/**
 * The bytes cake charges its shaper for an IP packet (cake_calc_overhead(), with the
 * 14-byte Ethernet header the kernel's qdisc_pkt_len() includes).
 * @param config the cake configuration
 * @param ipSize the IP packet's length
 * @return accounted bytes
 */
inline uint32_t
Accounted(const CakeConfig& config, uint32_t ipSize)
{
    return CalcOverhead(config.linkLayer, ipSize + ETH_HEADER, ETH_HEADER);
}

/// @return the rate of the rig's links (the WAN's, as the LAN's), Mbit/s
inline double
LineMbps()
{
    return DataRate(NicTopologyHelper::Preset("wrt1200ac").RightLink(0).rate).GetBitRate() / 1e6;
}

/**
 * @param x a number
 * @return it as text for a message ("0.3", not "0.300000")
 */
inline std::string
Text(double x)
{
    std::ostringstream os;
    os << x;
    return os.str();
}

} // namespace wrt1200ac

#endif /* WRT1200AC_CAKE_COMMON_H */
