/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows the tins of net/sched/sch_cake.c of Linux.
 */

#include "cake-tins.h"

#include <algorithm>
#include <initializer_list>

namespace ns3
{
namespace debloat
{

namespace
{

using DscpTable = std::array<uint8_t, CAKE_DSCP_COUNT>;

// The codepoints the kernel's tables single out (DSCP values, i.e. dsfield >> 2).
constexpr uint8_t LE = 1;    ///< Lower Effort (RFC 8622)
constexpr uint8_t TOS2 = 2;  ///< old ToS "max throughput"
constexpr uint8_t TOS4 = 4;  ///< old ToS "min delay"
constexpr uint8_t CS1 = 8;   ///< class selector 1
constexpr uint8_t AF11 = 10; ///< assured forwarding class 1, low drop precedence
constexpr uint8_t AF12 = 12; ///< assured forwarding class 1, medium drop precedence
constexpr uint8_t AF13 = 14; ///< assured forwarding class 1, high drop precedence
constexpr uint8_t CS2 = 16;  ///< class selector 2
constexpr uint8_t AF21 = 18; ///< assured forwarding class 2, low drop precedence
constexpr uint8_t AF22 = 20; ///< assured forwarding class 2, medium drop precedence
constexpr uint8_t AF23 = 22; ///< assured forwarding class 2, high drop precedence
constexpr uint8_t CS3 = 24;  ///< class selector 3
constexpr uint8_t AF31 = 26; ///< assured forwarding class 3, low drop precedence
constexpr uint8_t AF32 = 28; ///< assured forwarding class 3, medium drop precedence
constexpr uint8_t AF33 = 30; ///< assured forwarding class 3, high drop precedence
constexpr uint8_t CS4 = 32;  ///< class selector 4
constexpr uint8_t AF41 = 34; ///< assured forwarding class 4, low drop precedence
constexpr uint8_t AF42 = 36; ///< assured forwarding class 4, medium drop precedence
constexpr uint8_t AF43 = 38; ///< assured forwarding class 4, high drop precedence
constexpr uint8_t CS5 = 40;  ///< class selector 5
constexpr uint8_t VA = 44;   ///< Voice Admit
constexpr uint8_t EF = 46;   ///< Expedited Forwarding
constexpr uint8_t CS6 = 48;  ///< class selector 6
constexpr uint8_t CS7 = 56;  ///< class selector 7

/// Points every listed DSCP of a table at one tin.
void
Assign(DscpTable& table, uint8_t tin, std::initializer_list<uint8_t> dscps)
{
    for (uint8_t dscp : dscps)
    {
        table[dscp] = tin;
    }
}

/// A table sending every DSCP to one tin.
DscpTable
Uniform(uint8_t tin)
{
    DscpTable table;
    table.fill(tin);
    return table;
}

/// The kernel's besteffort[] table: everything in tin 0.
const DscpTable&
BesteffortTable()
{
    static const DscpTable table = Uniform(0);
    return table;
}

/// The kernel's precedence[] table: the IP precedence, DSCP >> 3.
const DscpTable&
PrecedenceTable()
{
    static const DscpTable table = [] {
        DscpTable t;
        for (uint32_t dscp = 0; dscp < CAKE_DSCP_COUNT; dscp++)
        {
            t[dscp] = static_cast<uint8_t>(dscp >> 3);
        }
        return t;
    }();
    return table;
}

/// The kernel's diffserv8[] table (tins by decreasing throughput, increasing priority).
const DscpTable&
Diffserv8Table()
{
    static const DscpTable table = [] {
        DscpTable t = Uniform(2);                                // bog standard
        Assign(t, 0, {LE});                                      // background
        Assign(t, 1, {TOS2, CS1, AF11, AF12, AF13});             // high throughput
        Assign(t, 3, {CS3, AF31, AF32, AF33, AF41, AF42, AF43}); // video streaming
        Assign(t, 4, {TOS4, AF21, AF22, AF23});                  // low-latency transactions
        Assign(t, 5, {CS2});                                     // interactive shell
        Assign(t, 6, {CS4, CS5, VA, EF});                        // minimum latency
        Assign(t, 7, {CS6, CS7});                                // network control
        return t;
    }();
    return table;
}

/// The kernel's diffserv4[] table: 0 Best Effort, 1 Bulk, 2 Video, 3 Voice.
const DscpTable&
Diffserv4Table()
{
    static const DscpTable table = [] {
        DscpTable t = Uniform(0);
        Assign(t, 1, {LE, CS1});
        Assign(t, 2, {TOS4, CS2, AF21, AF22, AF23, CS3, AF31, AF32, AF33, AF41, AF42, AF43});
        Assign(t, 3, {CS4, CS5, VA, EF, CS6, CS7});
        return t;
    }();
    return table;
}

/// The kernel's diffserv3[] table: 0 Best Effort, 1 Bulk, 2 Voice.
const DscpTable&
Diffserv3Table()
{
    static const DscpTable table = [] {
        DscpTable t = Uniform(0);
        Assign(t, 1, {LE, CS1});
        Assign(t, 2, {TOS4, VA, EF, CS6, CS7});
        return t;
    }();
    return table;
}

/// The per-tin part of cake_set_rate(), plus the tin quantum its caller sets.
void
SetTin(CakeTin& tin,
       uint64_t rate,
       uint16_t tinQuantum,
       uint32_t mtu,
       uint64_t targetNs,
       uint64_t intervalNs)
{
    constexpr uint64_t MAX_FLOW_QUANTUM = 1514; // a literal in the kernel, not the mtu
    constexpr uint64_t MIN_FLOW_QUANTUM = 300;  // still fair to IPv4 and IPv6 ACKs

    tin.rate = rate;
    tin.shaper = CakeSetRate(rate);
    tin.tinQuantum = tinQuantum;
    // rate >> 12 is the bytes sent in 1/4096 s (244 us): slower tins take turns in smaller
    // quanta, so a sparse flow waits less behind bulk ones.
    tin.flowQuantum = static_cast<uint32_t>(
        rate == 0 ? MAX_FLOW_QUANTUM
                  : std::max(std::min(rate >> 12, MAX_FLOW_QUANTUM), MIN_FLOW_QUANTUM));
    tin.cparams = CobaltParametersForRate(rate, mtu, targetNs, intervalNs);
}

/// The column headers of tc/q_cake.c, which chooses them by the number of tins only.
void
NameTins(CakeTinLayout& layout)
{
    static const char* const THREE[] = {"Bulk", "Best Effort", "Voice"};
    static const char* const FOUR[] = {"Bulk", "Best Effort", "Video", "Voice"};
    static const char* const NUMBERED[CAKE_MAX_TINS] =
        {"Tin 0", "Tin 1", "Tin 2", "Tin 3", "Tin 4", "Tin 5", "Tin 6", "Tin 7"};

    const char* const* columns = NUMBERED;
    if (layout.tinCount == 3)
    {
        columns = THREE;
    }
    else if (layout.tinCount == 4)
    {
        columns = FOUR;
    }
    // Column i of the printout shows tin tinOrder[i].
    for (uint32_t i = 0; i < layout.tinCount; i++)
    {
        layout.tins[layout.tinOrder[i]].name = columns[i];
    }
}

/// __ffs(): index of the lowest set bit of a non-zero word.
uint32_t
LowestSetBit(uint32_t word)
{
    uint32_t shift = 0;
    while ((word & 1U) == 0)
    {
        word >>= 1;
        shift++;
    }
    return shift;
}

} // namespace

CakeTinLayout
CakeConfigureTins(CakeDiffservMode mode,
                  uint64_t rate,
                  uint32_t mtu,
                  uint64_t targetNs,
                  uint64_t intervalNs)
{
    CakeTinLayout layout;
    layout.mode = mode;

    switch (mode)
    {
    case CakeDiffservMode::BESTEFFORT:
        // cake_config_besteffort(): one tin with the largest quantum a u16 holds.
        layout.tinCount = 1;
        layout.dscpToTin = BesteffortTable();
        layout.tinOrder[0] = 0;
        SetTin(layout.tins[0], rate, 65535, mtu, targetNs, intervalNs);
        break;

    case CakeDiffservMode::PRECEDENCE:
    case CakeDiffservMode::DIFFSERV8: {
        // cake_config_precedence() / cake_config_diffserv8(): each tin gets 7/8 of the rate
        // and quantum of the one before, rounded down at every step.
        layout.tinCount = CAKE_MAX_TINS;
        layout.dscpToTin =
            mode == CakeDiffservMode::PRECEDENCE ? PrecedenceTable() : Diffserv8Table();
        uint64_t tinRate = rate;
        uint32_t quantum = 256;
        for (uint32_t i = 0; i < layout.tinCount; i++)
        {
            layout.tinOrder[i] = static_cast<uint8_t>(i);
            const auto tinQuantum = static_cast<uint16_t>(std::max<uint32_t>(1, quantum));
            SetTin(layout.tins[i], tinRate, tinQuantum, mtu, targetNs, intervalNs);
            tinRate = (tinRate * 7) >> 3;
            quantum = (quantum * 7) >> 3;
        }
        break;
    }

    case CakeDiffservMode::DIFFSERV4: {
        // cake_config_diffserv4(): Best Effort, Bulk 1/16, Video 1/2, Voice 1/4.
        constexpr uint32_t quantum = 1024;
        layout.tinCount = 4;
        layout.dscpToTin = Diffserv4Table();
        layout.tinOrder = {1, 0, 2, 3};
        SetTin(layout.tins[0], rate, quantum, mtu, targetNs, intervalNs);
        SetTin(layout.tins[1], rate >> 4, quantum >> 4, mtu, targetNs, intervalNs);
        SetTin(layout.tins[2], rate >> 1, quantum >> 1, mtu, targetNs, intervalNs);
        SetTin(layout.tins[3], rate >> 2, quantum >> 2, mtu, targetNs, intervalNs);
        break;
    }

    case CakeDiffservMode::DIFFSERV3:
    default: {
        // cake_config_diffserv3(), also the kernel's choice for an unknown mode: Best Effort,
        // Bulk 1/16, Voice 1/4.
        constexpr uint32_t quantum = 1024;
        layout.tinCount = 3;
        layout.dscpToTin = Diffserv3Table();
        layout.tinOrder = {1, 0, 2};
        SetTin(layout.tins[0], rate, quantum, mtu, targetNs, intervalNs);
        SetTin(layout.tins[1], rate >> 4, quantum >> 4, mtu, targetNs, intervalNs);
        SetTin(layout.tins[2], rate >> 2, quantum >> 2, mtu, targetNs, intervalNs);
        break;
    }
    }

    // cake_reconfigure(): unused tins inherit the full-rate tin's mtu_time.
    for (uint32_t c = layout.tinCount; c < CAKE_MAX_TINS; c++)
    {
        layout.tins[c].cparams.mtuTime = layout.tins[0].cparams.mtuTime;
    }

    NameTins(layout);
    return layout;
}

uint32_t
CakeSelectTin(const CakeTinLayout& layout,
              uint8_t dscp,
              bool isArp,
              uint32_t mark,
              uint32_t fwmarkMask)
{
    if (layout.mode == CakeDiffservMode::BESTEFFORT)
    {
        return 0;
    }

    // A mark of 1..tinCount picks a tin by print position, as tc lists them.
    const uint32_t m = fwmarkMask == 0 ? 0 : (mark & fwmarkMask) >> LowestSetBit(fwmarkMask);
    if (m != 0 && m <= layout.tinCount)
    {
        return layout.tinOrder[m - 1];
    }

    const uint8_t codepoint = isArp ? CAKE_DSCP_ARP : static_cast<uint8_t>(dscp & 0x3F);
    const uint32_t tin = layout.dscpToTin[codepoint];
    return tin < layout.tinCount ? tin : 0;
}

uint32_t
CakeQuantumDiv(uint32_t hostLoad)
{
    // Entry 0 is ~0 truncated to the table's u16; the rest divide the u16 maximum.
    static const std::array<uint16_t, CAKE_QUEUES + 1> table = [] {
        std::array<uint16_t, CAKE_QUEUES + 1> t{};
        t[0] = static_cast<uint16_t>(~0U);
        for (uint32_t i = 1; i <= CAKE_QUEUES; i++)
        {
            t[i] = static_cast<uint16_t>(65535U / i);
        }
        return t;
    }();

    if (hostLoad <= CAKE_QUEUES)
    {
        return table[hostLoad];
    }
    return 65535U / hostLoad;
}

const char*
CakeTinName(const CakeTinLayout& layout, uint32_t tin)
{
    return tin < layout.tinCount ? layout.tins[tin].name : "";
}

uint32_t
CakeBufferLimit(uint64_t rate, uint64_t intervalUs, uint32_t memlimit, uint32_t mtu)
{
    uint64_t limit;
    if (memlimit)
    {
        limit = memlimit;
    }
    else if (rate)
    {
        // 4 x the bytes of one interval, at least 4 MiB (do_div by USEC_PER_SEC / 4).
        limit = std::max<uint64_t>(static_cast<uint32_t>(rate * intervalUs / 250000), 4U << 20);
    }
    else
    {
        limit = UINT32_MAX;
    }
    const uint64_t cap = std::max<uint64_t>(uint64_t{CAKE_PACKET_LIMIT} * mtu, memlimit);
    return static_cast<uint32_t>(std::min(limit, cap));
}

} // namespace debloat
} // namespace ns3
