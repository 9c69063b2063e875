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
#include "ns3/data-rate.h"
#include "ns3/nic-topology-helper.h"

#include <algorithm>
#include <cstdint>
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
 * The bytes cake charges its shaper for an IP packet, worked out here from tc-cake(8) and
 * the kernel's description of the accounting (linux.md 1.3), not by the module's port of
 * cake_calc_overhead(), so that the examples' expectations do not come from the code they
 * check:
 *   1. cake sees the frame without its FCS: ipSize + 14 (the kernel's qdisc_pkt_len());
 *   2. an overhead word (`overhead N` or a framing keyword, not undone by `raw`) makes it
 *      count from the network header instead: the 14 header bytes come off again;
 *   3. the overhead is added (it may be negative);
 *   4. the result is raised to the mpu;
 *   5. atm: each started 48 bytes fill a 53-byte cell; ptm: one more byte per started 64.
 * E.g. no words: 1500 -> 1514; `overhead 38`: 1500 -> 1538; `raw overhead 24`: 100 -> 138.
 * @param ipSize the IP packet's length
 * @param overhead the overhead, bytes
 * @param fromNetworkHeader step 2 applies
 * @param mpu the mpu, bytes
 * @param atm the cell framing
 * @return accounted bytes
 */
inline uint32_t
AccountedBytes(uint32_t ipSize,
               int32_t overhead,
               bool fromNetworkHeader,
               uint32_t mpu,
               CakeAtmMode atm = CakeAtmMode::NONE)
{
    int64_t len = ipSize + (fromNetworkHeader ? 0 : ETH_HEADER) + int64_t{overhead};
    len = std::max<int64_t>(len, mpu);
    if (atm == CakeAtmMode::ATM)
    {
        len = (len + 47) / 48 * 53;
    }
    else if (atm == CakeAtmMode::PTM)
    {
        len += (len + 63) / 64;
    }
    return static_cast<uint32_t>(std::max<int64_t>(len, 0));
}

/**
 * AccountedBytes() with the overhead, mpu and cell framing tc-cake's words gave.
 * @param config the cake configuration (ParseCakeOptions() of the words)
 * @param ipSize the IP packet's length
 * @return accounted bytes
 */
inline uint32_t
Accounted(const CakeConfig& config, uint32_t ipSize)
{
    const LinkLayer& ll = config.linkLayer;
    // TCA_CAKE_OVERHEAD sent and TCA_CAKE_RAW not: CAKE_FLAG_OVERHEAD.
    return AccountedBytes(ipSize, ll.overhead, ll.overheadSet && !ll.raw, ll.mpu, ll.atm);
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
