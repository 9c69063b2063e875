/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows net/sched/sch_cake.c of Linux (cake_calc_overhead, cake_overhead, cake_set_rate and
 * the shaper's time-per-byte arithmetic) and tc/q_cake.c of iproute2 (cake_parse_opt: the
 * link-layer keywords, their overhead/mpu/atm values and additive/overriding semantics).
 */

#include "cake-overhead.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace ns3
{
namespace debloat
{

namespace
{

/// NSEC_PER_SEC.
constexpr uint64_t NSEC_PER_SEC = 1000000000ULL;
/// The starting rate_shft of cake_set_rate(); rate_ns is kept below 2^RATE_SHIFT_START.
constexpr uint8_t RATE_SHIFT_START = 34;
/// Overhead range accepted by q_cake.c.
constexpr int32_t OVERHEAD_MIN = -64;
/// Overhead range accepted by q_cake.c.
constexpr int32_t OVERHEAD_MAX = 256;
/// Largest mpu accepted by q_cake.c.
constexpr int32_t MPU_MAX = 256;

/// Shorthand for a table row.
constexpr CakeKeywordPreset
Row(const char* name,
    CakeOverheadOp op,
    int32_t overhead,
    bool setsMpu,
    uint32_t mpu,
    bool setsAtm,
    CakeAtmMode atm,
    bool setsRaw = false)
{
    return CakeKeywordPreset{name, op, overhead, setsMpu, mpu, setsAtm, atm, setsRaw};
}

// The values of q_cake.c's cake_parse_opt(), in its order.
const std::array<CakeKeywordPreset, CAKE_KEYWORD_COUNT> g_presets{{
    Row("ptm", CakeOverheadOp::KEEP, 0, false, 0, true, CakeAtmMode::PTM),
    Row("atm", CakeOverheadOp::KEEP, 0, false, 0, true, CakeAtmMode::ATM),
    Row("noatm", CakeOverheadOp::KEEP, 0, false, 0, true, CakeAtmMode::NONE),
    Row("raw", CakeOverheadOp::SET, 0, false, 0, true, CakeAtmMode::NONE, true),
    // one whole ATM cell plus ATM framing: a deliberate over-estimate
    Row("conservative", CakeOverheadOp::SET, 48, false, 0, true, CakeAtmMode::ATM),
    // ADSL framings, all over ATM cells
    Row("ipoa-vcmux", CakeOverheadOp::ADD, 8, false, 0, true, CakeAtmMode::ATM),
    Row("ipoa-llcsnap", CakeOverheadOp::ADD, 16, false, 0, true, CakeAtmMode::ATM),
    Row("bridged-vcmux", CakeOverheadOp::ADD, 24, false, 0, true, CakeAtmMode::ATM),
    Row("bridged-llcsnap", CakeOverheadOp::ADD, 32, false, 0, true, CakeAtmMode::ATM),
    Row("pppoa-vcmux", CakeOverheadOp::ADD, 10, false, 0, true, CakeAtmMode::ATM),
    Row("pppoa-llc", CakeOverheadOp::ADD, 14, false, 0, true, CakeAtmMode::ATM),
    Row("pppoe-vcmux", CakeOverheadOp::ADD, 32, false, 0, true, CakeAtmMode::ATM),
    Row("pppoe-llcsnap", CakeOverheadOp::ADD, 40, false, 0, true, CakeAtmMode::ATM),
    // VDSL2 over PTM: PPP 2 + PPPoE 6 + MACs 12 + ethertype 2 + FCS 4 + S 1 + Ck 1 + TC-CRC 2
    Row("pppoe-ptm", CakeOverheadOp::ADD, 30, false, 0, true, CakeAtmMode::PTM),
    // VDSL2 over PTM: MACs 12 + ethertype 2 + FCS 4 + S 1 + Ck 1 + TC-CRC 2
    Row("bridged-ptm", CakeOverheadOp::ADD, 22, false, 0, true, CakeAtmMode::PTM),
    Row("via-ethernet", CakeOverheadOp::KEEP, 0, false, 0, false, CakeAtmMode::NONE),
    // preamble/SFD 8 + IFG 12 + FCS 4 + MAC header 14; atm mode untouched (as in q_cake.c)
    Row("ethernet", CakeOverheadOp::ADD, 38, true, 84, false, CakeAtmMode::NONE),
    // 802.1Q tag, may be repeated
    Row("ether-vlan", CakeOverheadOp::ADD, 4, false, 0, false, CakeAtmMode::NONE),
    // DOCSIS shapers count the Ethernet frame with FCS, no preamble or gap
    Row("docsis", CakeOverheadOp::ADD, 18, true, 64, true, CakeAtmMode::NONE),
}};

/// Parses a whole decimal integer as strtol(.., 10) with q_cake.c's "no trailing junk".
bool
ParseInt(const std::string& word, int32_t& value)
{
    if (word.empty())
    {
        return false;
    }
    char* end = nullptr;
    errno = 0;
    const long v = std::strtol(word.c_str(), &end, 10);
    if (errno != 0 || end == nullptr || *end != '\0' || v < INT32_MIN || v > INT32_MAX)
    {
        return false;
    }
    value = static_cast<int32_t>(v);
    return true;
}

} // namespace

const std::array<CakeKeywordPreset, CAKE_KEYWORD_COUNT>&
CakeKeywordPresets()
{
    return g_presets;
}

bool
ApplyKeyword(LinkLayer& ll, const std::string& keyword)
{
    for (const auto& p : g_presets)
    {
        if (keyword != p.name)
        {
            continue;
        }
        if (p.setsAtm)
        {
            ll.atm = p.atm;
        }
        switch (p.op)
        {
        case CakeOverheadOp::KEEP:
            break;
        case CakeOverheadOp::ADD:
            ll.overhead += p.overhead;
            ll.overheadSet = true;
            break;
        case CakeOverheadOp::SET:
            ll.overhead = p.overhead;
            ll.overheadSet = true;
            break;
        }
        if (p.setsMpu)
        {
            ll.mpu = p.mpu;
        }
        if (p.setsRaw)
        {
            ll.raw = true;
        }
        return true;
    }
    return false;
}

bool
SetOverhead(LinkLayer& ll, int32_t overhead)
{
    if (overhead < OVERHEAD_MIN || overhead > OVERHEAD_MAX)
    {
        return false;
    }
    ll.overhead = overhead;
    ll.overheadSet = true;
    return true;
}

bool
SetMpu(LinkLayer& ll, int32_t mpu)
{
    if (mpu < 0 || mpu > MPU_MAX)
    {
        return false;
    }
    ll.mpu = static_cast<uint32_t>(mpu);
    return true;
}

bool
ParseLinkLayer(LinkLayer& ll, const std::string& options)
{
    std::istringstream in(options);
    std::string word;
    while (in >> word)
    {
        if (word == "overhead" || word == "mpu")
        {
            std::string number;
            int32_t value = 0;
            if (!(in >> number) || !ParseInt(number, value))
            {
                return false;
            }
            const bool ok = word == "overhead" ? SetOverhead(ll, value) : SetMpu(ll, value);
            if (!ok)
            {
                return false;
            }
        }
        else if (!ApplyKeyword(ll, word))
        {
            return false;
        }
    }
    return true;
}

bool
UsesNetworkOffset(const LinkLayer& ll)
{
    return ll.overheadSet && !ll.raw;
}

uint32_t
CalcOverhead(const LinkLayer& ll, uint32_t len, uint32_t networkOffset)
{
    int64_t l = len;
    if (UsesNetworkOffset(ll))
    {
        l -= networkOffset;
    }
    if (l < 0)
    {
        l = 0; // Deviation from Linux: the kernel's u32 would wrap.
    }
    l += ll.overhead;
    if (l < 0)
    {
        l = 0; // Deviation from Linux: the kernel's u32 would wrap.
    }
    if (l < static_cast<int64_t>(ll.mpu))
    {
        l = ll.mpu;
    }
    if (ll.atm == CakeAtmMode::ATM)
    {
        l = (l + 47) / 48 * 53;
    }
    else if (ll.atm == CakeAtmMode::PTM)
    {
        l += (l + 63) / 64;
    }
    return static_cast<uint32_t>(l);
}

uint32_t
GsoSegments(uint32_t skbLen, uint32_t hdrLen, uint32_t gsoSize)
{
    if (gsoSize == 0 || skbLen <= hdrLen)
    {
        return 0;
    }
    return (skbLen - hdrLen + gsoSize - 1) / gsoSize;
}

uint64_t
CakeOverhead(const LinkLayer& ll,
             uint32_t skbLen,
             uint32_t networkOffset,
             uint32_t gsoSize,
             uint32_t hdrLen,
             uint32_t segs)
{
    if (gsoSize == 0 || segs == 0)
    {
        return CalcOverhead(ll, skbLen, networkOffset);
    }
    const uint64_t full = static_cast<uint64_t>(gsoSize) + hdrLen;
    const uint64_t before = static_cast<uint64_t>(gsoSize) * (segs - 1);
    const uint32_t last = skbLen > before ? static_cast<uint32_t>(skbLen - before) : 0;
    return static_cast<uint64_t>(CalcOverhead(ll, static_cast<uint32_t>(full), networkOffset)) *
               (segs - 1) +
           CalcOverhead(ll, last, networkOffset);
}

uint64_t
GsoAccountedBytes(const LinkLayer& ll,
                  uint32_t segs,
                  uint32_t segPayload,
                  uint32_t hdrLen,
                  uint32_t networkOffset)
{
    const uint64_t skbLen = hdrLen + static_cast<uint64_t>(segs) * segPayload;
    return CakeOverhead(ll, static_cast<uint32_t>(skbLen), networkOffset, segPayload, hdrLen, segs);
}

CakeRate
CakeSetRate(uint64_t rateBytesPerSec)
{
    CakeRate r;
    if (rateBytesPerSec == 0)
    {
        return r; // unlimited: zero delay
    }
    const uint64_t rate = rateBytesPerSec < CAKE_MIN_RATE ? CAKE_MIN_RATE : rateBytesPerSec;
    r.rateShift = RATE_SHIFT_START;
    r.rateNs = (NSEC_PER_SEC << RATE_SHIFT_START) / rate;
    while (r.rateNs >> RATE_SHIFT_START)
    {
        r.rateNs >>= 1;
        r.rateShift--;
    }
    return r;
}

uint64_t
TimeForBytes(const CakeRate& rate, uint32_t bytes)
{
    return (static_cast<uint64_t>(bytes) * rate.rateNs) >> rate.rateShift;
}

} // namespace debloat
} // namespace ns3
