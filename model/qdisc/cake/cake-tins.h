/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows the tins of net/sched/sch_cake.c of Linux: the DSCP lookup tables (precedence,
 * diffserv8, diffserv4, diffserv3, besteffort), the tin orders (normal_order, bulk_order),
 * cake_config_besteffort(), cake_config_precedence(), cake_config_diffserv8(),
 * cake_config_diffserv4(), cake_config_diffserv3(), the per-tin part of cake_set_rate(),
 * cake_handle_diffserv()'s ARP rule, cake_select_tin() and the quantum_div[] table of
 * cake_init(). The tin names are the column headers of tc/q_cake.c (iproute2).
 */

#ifndef CAKE_TINS_H
#define CAKE_TINS_H

#include "cake-config.h"
#include "cake-overhead.h"
#include "cobalt.h"

#include <array>
#include <cstdint>

namespace ns3
{
namespace debloat
{

/// CAKE_MAX_TINS: the most tins a preset configures (precedence and diffserv8).
constexpr uint32_t CAKE_MAX_TINS = 8;

/// CAKE_QUEUES: flow queues per tin (and the size of quantum_div[] minus one).
constexpr uint32_t CAKE_QUEUES = 1024;

/// Number of DSCP values (6 bits) the lookup tables cover.
constexpr uint32_t CAKE_DSCP_COUNT = 64;

/// The DSCP cake_handle_diffserv() reports for an ARP packet: 0x38, CS7 (network control).
constexpr uint8_t CAKE_DSCP_ARP = 0x38;

/**
 * @ingroup debloat-qdisc
 * @brief One configured tin (the settings cake_config_*() and cake_set_rate() store in
 *        struct cake_tin_data).
 */
struct CakeTin
{
    uint64_t rate{0};         ///< tin_rate_bps: threshold rate, bytes/s; 0 when unlimited
    CakeRate shaper;          ///< tin_rate_ns / tin_rate_shft (CakeSetRate(rate))
    uint16_t tinQuantum{0};   ///< tin_quantum: DRR weight between tins when unlimited, bytes
    uint32_t flowQuantum{0};  ///< flow_quantum: DRR++ quantum of the tin's flows, bytes
    CobaltParameters cparams; ///< cparams: COBALT parameters (CobaltParametersForRate())
    const char* name{""};     ///< the column header tc prints for this tin ("Best Effort")
};

/**
 * @ingroup debloat-qdisc
 * @brief The tins of one CAKE instance as a preset configures them.
 *
 * tins[0..tinCount) are in the kernel's index order (tins[0] is the full-rate tin; the
 * global shaper uses its rate, as cake_reconfigure() does). The DSCP table gives indices
 * into tins[] directly: the kernel's tin_index tables already hold tin indices, and
 * cake_select_tin() does not pass a table entry through tin_order. tinOrder is used only
 * for the fwmark (and skb->priority) selection and as tc's print order.
 */
struct CakeTinLayout
{
    CakeDiffservMode mode{CakeDiffservMode::DIFFSERV3}; ///< tin_mode, as configured
    uint32_t tinCount{0};                               ///< tin_cnt: tins in use
    std::array<CakeTin, CAKE_MAX_TINS> tins{};          ///< the tins, kernel index order
    /// tin_order: tinOrder[i] is the tin printed in column i and selected by mark i + 1;
    /// entries from tinCount on are 0 and unused.
    std::array<uint8_t, CAKE_MAX_TINS> tinOrder{};
    std::array<uint8_t, CAKE_DSCP_COUNT> dscpToTin{}; ///< tin_index: DSCP -> index into tins
};

/**
 * Mirrors cake_reconfigure()'s choice of cake_config_besteffort(), cake_config_precedence(),
 * cake_config_diffserv8(), cake_config_diffserv4() or cake_config_diffserv3() (the default,
 * also for an unknown mode), each calling cake_set_rate() per tin:
 * - besteffort: one tin at rate, tin quantum 65535, order {0};
 * - precedence, diffserv8: eight tins; tin i gets rate and tin quantum of the step before
 *   times 7 >> 3 (starting from rate and 256), order identity;
 * - diffserv4: rates rate, rate >> 4, rate >> 1, rate >> 2 and tin quanta 1024, 64, 512, 256
 *   (Best Effort, Bulk, Video, Voice), order {1, 0, 2, 3};
 * - diffserv3: rates rate, rate >> 4, rate >> 2 and tin quanta 1024, 64, 256 (Best Effort,
 *   Bulk, Voice), order {1, 0, 2}.
 * Per tin (cake_set_rate()): flow quantum 1514 when the tin rate is 0, else
 * clamp(rate >> 12, 300, 1514) (the kernel uses the constant 1514 here, not the mtu); the
 * shaper from CakeSetRate(); COBALT parameters from CobaltParametersForRate().
 *
 * Deviation from Linux: tins from tinCount on are left default-constructed except that,
 * as cake_reconfigure() does, their cparams.mtuTime is tins[0]'s (the kernel keeps stale
 * settings there from an earlier preset; they are never selected).
 * @param mode the preset
 * @param rate the configured bandwidth, bytes/s; 0 = unlimited
 * @param mtu psched_mtu() of the device (mtu + hard header, 1514 on Ethernet), bytes
 * @param targetNs the configured target, ns
 * @param intervalNs the configured interval (rtt), ns
 * @return the layout
 */
CakeTinLayout CakeConfigureTins(CakeDiffservMode mode,
                                uint64_t rate,
                                uint32_t mtu,
                                uint64_t targetNs,
                                uint64_t intervalNs);

/**
 * Mirrors cake_select_tin(): the index into layout.tins for a packet.
 * 1. besteffort: tin 0.
 * 2. fwmark (fwmarkMask non-zero): m = (mark & fwmarkMask) >> (index of the mask's lowest
 *    set bit); if 1 <= m <= tinCount the tin is tinOrder[m - 1].
 * 3. Otherwise the DSCP table (an ARP packet counts as CAKE_DSCP_ARP, as
 *    cake_handle_diffserv() returns it); an entry at or above tinCount gives tin 0.
 *
 * With wash the caller clears the DSCP in the packet (ECN bits kept); the selection still
 * uses the DSCP read before washing, as the kernel reads it first. A packet that is neither
 * IP nor ARP should be passed with DSCP 0 (cake_handle_diffserv()'s default).
 *
 * Deviation from Linux: the skb->priority step (major number equal to the qdisc handle,
 * minor 1..tinCount selects tinOrder[minor - 1]) is not modelled, as ns-3 queue discs have
 * no handle. Only the low 6 bits of dscp are used (the kernel's DSCP cannot exceed 63), and
 * the kernel's fallback to DSCP 0 when washing cannot make the header writable is not
 * modelled.
 * @param layout the tins from CakeConfigureTins()
 * @param dscp the packet's DSCP (dsfield >> 2) before any washing
 * @param isArp the packet is ARP (dscp is then ignored)
 * @param mark the packet's firewall mark (skb->mark)
 * @param fwmarkMask the fwmark MASK option; 0 = off
 * @return the tin index, below layout.tinCount
 */
uint32_t CakeSelectTin(const CakeTinLayout& layout,
                       uint8_t dscp,
                       bool isArp,
                       uint32_t mark,
                       uint32_t fwmarkMask);

/**
 * The quantum_div[] table cake_init() fills: entry 0 is ~0 stored in a u16 (65535), entry
 * i (1..1024, CAKE_QUEUES) is 65535 / i. A flow's quantum share is
 * (flowQuantum * CakeQuantumDiv(hostLoad)) >> 16.
 *
 * Deviation from Linux: hostLoad above 1024 (the kernel WARNs and reads past its table;
 * its bulk flow counts cannot get there) gives 65535 / hostLoad.
 * @param hostLoad the host's bulk flow count (at least 1 as the kernel uses it)
 * @return 65535 / hostLoad, or 65535 for 0
 */
uint32_t CakeQuantumDiv(uint32_t hostLoad);

/**
 * The arithmetic of cake_get_flow_quantum(): the deficit a flow gets, new or refilled,
 * (flowQuantum * quantum_div[host_load] + get_random_u16()) >> 16. The 16 random bits round
 * the fraction up with its own probability, so over uniform dithers the mean is exactly
 * flowQuantum * quantumDiv / 65536 (about flowQuantum / host_load) and no rounding error
 * accumulates.
 * @param flowQuantum the tin's flow quantum, bytes (at most 1514, so the sum fits 32 bits)
 * @param quantumDiv quantum_div[host_load] (CakeQuantumDiv())
 * @param dither the 16 random bits
 * @return bytes of deficit
 */
inline uint32_t
CakeFlowQuantum(uint32_t flowQuantum, uint32_t quantumDiv, uint16_t dither)
{
    return (flowQuantum * quantumDiv + dither) >> 16;
}

/**
 * The column header tc prints for a tin (tc/q_cake.c): "Bulk", "Best Effort", "Voice" for
 * three tins; "Bulk", "Best Effort", "Video", "Voice" for four; "Tin N" otherwise (N is the
 * print column, which equals the tin index for the identity order).
 * @param layout the tins
 * @param tin an index into layout.tins
 * @return the name, "" for a tin at or above tinCount
 */
const char* CakeTinName(const CakeTinLayout& layout, uint32_t tin);

/// sch->limit of cake_init(): packets, used only in the buffer limit's upper bound.
constexpr uint32_t CAKE_PACKET_LIMIT = 10240;

/**
 * cake_reconfigure()'s buffer limit.
 * @param rate bytes/s (0: unlimited)
 * @param intervalUs the rtt setting, us (q->interval)
 * @param memlimit the memlimit setting (0: none)
 * @param mtu psched_mtu()
 * @return buffer_limit, bytes
 */
uint32_t CakeBufferLimit(uint64_t rate, uint64_t intervalUs, uint32_t memlimit, uint32_t mtu);

} // namespace debloat
} // namespace ns3

#endif /* CAKE_TINS_H */
