/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_cake.c of Linux (cake_calc_overhead, cake_overhead, cake_set_rate and
 * the shaper's time-per-byte arithmetic) and tc/q_cake.c of iproute2 (cake_parse_opt: the
 * link-layer keywords, their overhead/mpu/atm values and additive/overriding semantics).
 */

#ifndef CAKE_OVERHEAD_H
#define CAKE_OVERHEAD_H

#include <array>
#include <cstdint>
#include <string>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat
 * @brief Link-layer framing compensation of CAKE (TCA_CAKE_ATM values).
 */
enum class CakeAtmMode : uint8_t
{
    NONE = 0, ///< CAKE_ATM_NONE ("noatm"): no cell framing
    ATM = 1,  ///< CAKE_ATM_ATM ("atm"): 48-byte payload per 53-byte cell
    PTM = 2   ///< CAKE_ATM_PTM ("ptm"): one byte per started 64 bytes (64b/65b)
};

/**
 * @ingroup debloat
 * @brief The link-layer compensation settings of one CAKE instance.
 *
 * The fields are what q_cake.c collects from the command line and what the kernel keeps:
 * overhead is rate_overhead, mpu is rate_mpu, atm is atm_mode. overheadSet records that
 * q_cake.c sends TCA_CAKE_OVERHEAD (any overhead keyword or value was given), which makes
 * the kernel set CAKE_FLAG_OVERHEAD; raw records that q_cake.c sends TCA_CAKE_RAW (the
 * `raw` keyword was given, at any position), which makes the kernel clear that flag again.
 * The kernel subtracts the network-header offset (the MAC header) from each packet before
 * adding the overhead only while CAKE_FLAG_OVERHEAD is set; see UsesNetworkOffset().
 */
struct LinkLayer
{
    int32_t overhead{0};                ///< bytes added per packet, -64..256
    uint32_t mpu{0};                    ///< minimum packet unit after the overhead, 0..256
    CakeAtmMode atm{CakeAtmMode::NONE}; ///< cell framing
    bool overheadSet{false};            ///< TCA_CAKE_OVERHEAD sent: CAKE_FLAG_OVERHEAD set
    bool raw{false};                    ///< TCA_CAKE_RAW sent: CAKE_FLAG_OVERHEAD cleared
};

/// How a keyword changes LinkLayer::overhead.
enum class CakeOverheadOp : uint8_t
{
    KEEP, ///< overhead untouched (atm, ptm, noatm, via-ethernet)
    ADD,  ///< overhead += value (the framing presets: cumulative)
    SET   ///< overhead = value (raw, conservative)
};

/**
 * @ingroup debloat
 * @brief One link-layer keyword of tc-cake(8) as q_cake.c's cake_parse_opt() applies it.
 */
struct CakeKeywordPreset
{
    const char* name;  ///< the keyword
    CakeOverheadOp op; ///< what happens to the overhead
    int32_t overhead;  ///< the value added or set (ignored for KEEP)
    bool setsMpu;      ///< the keyword sets the mpu
    uint32_t mpu;      ///< that mpu
    bool setsAtm;      ///< the keyword sets the atm mode
    CakeAtmMode atm;   ///< that mode
    bool setsRaw;      ///< the keyword is `raw` (TCA_CAKE_RAW)
};

/// Number of link-layer keywords in the table.
constexpr std::size_t CAKE_KEYWORD_COUNT = 19;

/**
 * The link-layer keyword table of q_cake.c: raw, conservative, the ADSL/ATM presets
 * (ipoa-vcmux, ipoa-llcsnap, bridged-vcmux, bridged-llcsnap, pppoa-vcmux, pppoa-llc,
 * pppoe-vcmux, pppoe-llcsnap), the VDSL2/PTM presets (pppoe-ptm, bridged-ptm), ethernet,
 * ether-vlan, docsis, atm, ptm, noatm and via-ethernet (accepted and ignored).
 * @return the table
 */
const std::array<CakeKeywordPreset, CAKE_KEYWORD_COUNT>& CakeKeywordPresets();

/**
 * Applies one link-layer keyword as q_cake.c's cake_parse_opt() does: framing presets add to
 * the overhead accumulated so far and set the atm mode (ethernet and ether-vlan leave the
 * atm mode alone; docsis sets noatm); `conservative` sets overhead 48 and atm; `raw` sets
 * overhead 0, noatm and the raw flag; ethernet sets mpu 84, docsis mpu 64.
 * @param ll the settings to change
 * @param keyword one keyword
 * @return false, leaving ll untouched, when the keyword is not a link-layer keyword
 */
bool ApplyKeyword(LinkLayer& ll, const std::string& keyword);

/**
 * `overhead N` of q_cake.c: sets (not adds) the overhead and marks it set.
 * @param ll the settings to change
 * @param overhead bytes, -64..256
 * @return false, leaving ll untouched, when out of range
 */
bool SetOverhead(LinkLayer& ll, int32_t overhead);

/**
 * `mpu N` of q_cake.c.
 * @param ll the settings to change
 * @param mpu bytes, 0..256
 * @return false, leaving ll untouched, when out of range
 */
bool SetMpu(LinkLayer& ll, int32_t mpu);

/**
 * Parses a whitespace-separated tc-cake link-layer option string such as
 * "pppoe-vcmux ether-vlan" or "overhead 38 mpu 84", left to right as cake_parse_opt() does.
 * @param ll the settings to change (changed up to the first bad word)
 * @param options the words
 * @return false on an unknown word, a missing or malformed number or a value out of range
 */
bool ParseLinkLayer(LinkLayer& ll, const std::string& options);

/**
 * Whether the kernel measures packets from the network header (CAKE_FLAG_OVERHEAD set):
 * an overhead was given and `raw` was not.
 * @param ll the settings
 * @return true when the network-header offset is subtracted
 */
bool UsesNetworkOffset(const LinkLayer& ll);

/**
 * Mirrors cake_calc_overhead(): the accounted ("adjusted") size of one packet.
 * Steps: subtract networkOffset when UsesNetworkOffset(); add the overhead; raise to the mpu;
 * ATM: ceil(len / 48) * 53; PTM: len + ceil(len / 64).
 *
 * Deviation from Linux: the kernel computes in u32 and would wrap when networkOffset
 * exceeds len or a negative overhead exceeds what is left; here both steps stop at 0. The
 * kernel's min/max network and adjusted length statistics are not kept.
 * @param ll the settings
 * @param len the packet length as the qdisc sees it (qdisc_pkt_len, MAC header included)
 * @param networkOffset skb_network_offset (14 on Ethernet)
 * @return the accounted bytes
 */
uint32_t CalcOverhead(const LinkLayer& ll, uint32_t len, uint32_t networkOffset);

/**
 * The segment count cake_overhead() uses for an SKB_GSO_DODGY skb:
 * DIV_ROUND_UP(skbLen - hdrLen, gsoSize).
 * @param skbLen the GSO skb's length
 * @param hdrLen transport offset plus transport header length
 * @param gsoSize payload bytes per segment (non-zero)
 * @return the number of segments (0 when gsoSize is 0 or skbLen <= hdrLen)
 */
uint32_t GsoSegments(uint32_t skbLen, uint32_t hdrLen, uint32_t gsoSize);

/**
 * Mirrors cake_overhead(): the accounted size of a (possibly GSO) skb that is not split.
 * A non-GSO skb (gsoSize 0) is CalcOverhead(len). A GSO skb is accounted as segs - 1 full
 * segments of gsoSize + hdrLen bytes plus a last segment of
 * skbLen - gsoSize * (segs - 1) bytes, each through CalcOverhead() with its own overhead.
 *
 * Deviation from Linux: segs 0 (which the kernel never sees for a GSO skb) is accounted as
 * the non-GSO skb, and a last-segment length that would wrap stops at 0.
 * @param ll the settings
 * @param skbLen qdisc_pkt_len / skb->len of the whole skb, MAC header included
 * @param networkOffset skb_network_offset
 * @param gsoSize shinfo->gso_size: payload bytes per segment, 0 for a non-GSO skb
 * @param hdrLen skb_transport_offset + TCP header length (or + 8 for UDP): the headers
 *        each segment carries, measured from the skb start (MAC header included)
 * @param segs shinfo->gso_segs (or GsoSegments() for SKB_GSO_DODGY)
 * @return the accounted bytes of all segments
 */
uint64_t CakeOverhead(const LinkLayer& ll,
                      uint32_t skbLen,
                      uint32_t networkOffset,
                      uint32_t gsoSize,
                      uint32_t hdrLen,
                      uint32_t segs);

/**
 * CakeOverhead() for a GSO skb of segs equal segments of segPayload bytes each
 * (skbLen = hdrLen + segs * segPayload).
 * @param ll the settings
 * @param segs number of segments
 * @param segPayload payload bytes per segment (gso_size)
 * @param hdrLen headers per segment, MAC header included
 * @param networkOffset skb_network_offset
 * @return the accounted bytes of all segments
 */
uint64_t GsoAccountedBytes(const LinkLayer& ll,
                           uint32_t segs,
                           uint32_t segPayload,
                           uint32_t hdrLen,
                           uint32_t networkOffset);

/**
 * @ingroup debloat
 * @brief The shaper's time per byte: rate_ns / 2^rate_shft nanoseconds.
 */
struct CakeRate
{
    uint64_t rateNs{0};   ///< tin_rate_ns / rate_ns (0: unlimited)
    uint8_t rateShift{0}; ///< tin_rate_shft / rate_shft
};

/// MIN_RATE of cake_set_rate(): slower rates are raised to 64 bytes/s.
constexpr uint64_t CAKE_MIN_RATE = 64;

/**
 * Mirrors the rate part of cake_set_rate(): rate_shft starts at 34,
 * rate_ns = (NSEC_PER_SEC << 34) / max(64, rate), then while rate_ns >= 2^34 it is halved
 * and rate_shft decremented. Rate 0 (unlimited) gives {0, 0}.
 * @param rateBytesPerSec the shaper rate in bytes per second (the kernel's rate_bps)
 * @return rate_ns and rate_shft
 */
CakeRate CakeSetRate(uint64_t rateBytesPerSec);

/**
 * The shaper's charge for bytes accounted bytes, as cake_advance_shaper() computes it:
 * (bytes * rate_ns) >> rate_shft nanoseconds. Rounds down; per byte the result is at most
 * 2^-rate_shft ns short of 1e9 / rate. As in the kernel the product is 64-bit: it cannot
 * overflow for bytes below 2^30.
 * @param rate from CakeSetRate()
 * @param bytes accounted bytes (from CalcOverhead())
 * @return nanoseconds
 */
uint64_t TimeForBytes(const CakeRate& rate, uint32_t bytes);

} // namespace debloat
} // namespace ns3

#endif /* CAKE_OVERHEAD_H */
