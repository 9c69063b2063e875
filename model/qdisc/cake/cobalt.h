/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows the COBALT AQM (CoDel + BLUE) of net/sched/sch_cake.c of Linux (struct cobalt_params,
 * struct cobalt_vars, cobalt_newton_step(), cobalt_invsqrt(), cobalt_cache_init(),
 * cobalt_control(), cobalt_queue_full(), cobalt_queue_empty(), cobalt_should_drop() and the
 * COBALT part of cake_set_rate()), in the form of Linux 6.x that returns a drop reason.
 */

#ifndef DEBLOAT_COBALT_H
#define DEBLOAT_COBALT_H

#include <array>
#include <cstdint>
#include <functional>

namespace ns3
{
namespace debloat
{

/// REC_INV_SQRT_CACHE: counts below this use the cached 1/sqrt(count).
constexpr uint32_t COBALT_REC_INV_SQRT_CACHE = 16;

/**
 * @ingroup debloat-qdisc
 * @brief COBALT parameters (struct cobalt_params), times in nanoseconds.
 *
 * The defaults are those cake_set_rate() sets for an unlimited tin (rate 0) with tc-cake's
 * default target 5 ms and rtt 100 ms: mtu_time 0, target max(0, 5 ms), interval
 * max(100 ms + target - 5 ms, 2 * target), p_inc 1/256, p_dec 1/4096.
 */
struct CobaltParameters
{
    uint64_t interval{100000000}; ///< interval: CoDel interval, ns
    uint64_t target{5000000};     ///< target: CoDel target sojourn, also the BLUE timer, ns
    uint64_t mtuTime{0};          ///< mtu_time: time to send one MTU at the tin rate, ns
    uint32_t pInc{1U << 24};      ///< p_inc: BLUE increment of p_drop (Q0.32)
    uint32_t pDec{1U << 20};      ///< p_dec: BLUE decrement of p_drop (Q0.32)
    /// Try ECN marking before dropping on a CoDel signal. Deviation from Linux: cake always
    /// tries (INET_ECN_set_ce()); false here makes every CoDel signal a drop.
    bool ecn{true};
};

/**
 * @ingroup debloat-qdisc
 * @brief Per-flow COBALT state (struct cobalt_vars); all zero as cobalt_vars_init() leaves it.
 */
struct CobaltVars
{
    uint32_t count{0};      ///< count: CoDel signals in the current dropping episode
    uint32_t recInvSqrt{0}; ///< rec_inv_sqrt: 1/sqrt(count) in Q0.32
    int64_t dropNext{0};    ///< drop_next: next CoDel signal time / activity timer, ns
    int64_t blueTimer{0};   ///< blue_timer: last change of p_drop, ns
    uint32_t pDrop{0};      ///< p_drop: BLUE drop probability (Q0.32)
    bool dropping{false};   ///< dropping: CoDel is in the dropping state
    bool ecnMarked{false};  ///< ecn_marked: the last packet was CE-marked
};

/// The verdict of cobalt_should_drop() (the skb_drop_reason it returns, plus the CE mark).
enum class CobaltVerdict : uint8_t
{
    PASS,           ///< SKB_NOT_DROPPED_YET, packet not marked
    MARK_CE,        ///< SKB_NOT_DROPPED_YET, packet CE-marked by CoDel (ecn_marked)
    DROP_CONGESTED, ///< SKB_DROP_REASON_QDISC_CONGESTED: CoDel signal on a non-ECT packet
    DROP_FLOOD,     ///< SKB_DROP_REASON_CAKE_FLOOD: BLUE drop (may follow a CE mark)
};

/**
 * @param verdict a verdict
 * @return true if the verdict drops the packet
 */
inline bool
CobaltIsDrop(CobaltVerdict verdict)
{
    return verdict == CobaltVerdict::DROP_CONGESTED || verdict == CobaltVerdict::DROP_FLOOD;
}

/// A uniform 32-bit random number per call (the kernel's get_random_u32()).
using CobaltRandomSource = std::function<uint32_t()>;

/// Tries to set CE on the packet (INET_ECN_set_ce()): true if it was ECN-capable and is now
/// marked, false if it is not ECN-capable.
using CobaltTrySetCe = std::function<bool()>;

/**
 * Mirrors cobalt_newton_step(): one Newton iteration of rec_inv_sqrt towards 1/sqrt(count),
 * in Q0.32 with the kernel's truncations.
 * @param vars the variables; recInvSqrt is updated from count and recInvSqrt
 */
void CobaltNewtonStep(CobaltVars& vars);

/**
 * The cobalt_rec_inv_sqrt_cache table of newer kernels (a static const array): entries 0 and
 * 1 are 0xFFFFFFFF (as close to 1.0 as Q0.32 allows), entry n (2..15) is 2^32/sqrt(n)
 * rounded to nearest. cobalt_invsqrt() uses this table.
 * @return the cache of 1/sqrt(count) for count 0..15, Q0.32
 */
const std::array<uint32_t, COBALT_REC_INV_SQRT_CACHE>& CobaltRecInvSqrtCache();

/**
 * Mirrors cobalt_cache_init() of older kernels, which filled the cache at first
 * cobalt_vars_init(): entry 0 is 0xFFFFFFFF, entry n (1..15) is four Newton steps at count n
 * starting from entry n-1. Its entries for small counts are not converged (count 2 gives
 * 3035289760, not 3037000500), so they differ from the static table of newer kernels, which
 * this module follows; the function is kept for comparison only.
 * @return the cache as older kernels computed it
 */
std::array<uint32_t, COBALT_REC_INV_SQRT_CACHE> CobaltCacheInit();

/**
 * Mirrors cobalt_invsqrt(): the cached value for count < 16, else one Newton step.
 * @param vars the variables; recInvSqrt is updated
 */
void CobaltInvSqrt(CobaltVars& vars);

/**
 * Mirrors cobalt_vars_init(): all zero (recInvSqrt 0, not the cache's ~1.0).
 * @param vars the variables to reset
 */
void CobaltVarsInit(CobaltVars& vars);

/**
 * Mirrors cobalt_control(): t + interval / sqrt(count) as
 * t + reciprocal_scale(interval, rec_inv_sqrt).
 *
 * As in Linux, reciprocal_scale() takes a u32, so interval is truncated to its low 32 bits
 * (intervals of 2^32 ns, about 4.29 s, and above wrap).
 * @param t the base time, ns
 * @param interval the interval, ns
 * @param recInvSqrt 1/sqrt(count), Q0.32
 * @return the next signal time, ns
 */
int64_t CobaltControl(int64_t t, uint64_t interval, uint32_t recInvSqrt);

/**
 * Mirrors cobalt_queue_full(), called when a packet of this flow is dropped on overflow:
 * raises p_drop by p_inc (saturating) if more than target has passed since blue_timer,
 * then enters the dropping state with drop_next = now and count at least 1.
 * @param vars the variables
 * @param params the parameters
 * @param now the current time, ns
 * @return true if p_drop was 0 before and is not now (BLUE became active)
 */
bool CobaltQueueFull(CobaltVars& vars, const CobaltParameters& params, int64_t now);

/**
 * Mirrors cobalt_queue_empty(), called when the flow is found empty at dequeue: lowers a
 * non-zero p_drop by p_dec (floor 0) if more than target has passed since blue_timer, leaves
 * the dropping state and decays count once if drop_next has passed.
 * @param vars the variables
 * @param params the parameters
 * @param now the current time, ns
 * @return true if p_drop became 0 by this call (BLUE became quiescent)
 */
bool CobaltQueueEmpty(CobaltVars& vars, const CobaltParameters& params, int64_t now);

/**
 * Mirrors cobalt_should_drop() of Linux 6.x on a freshly dequeued packet.
 *
 * The CoDel part signals when the dropping state's drop_next is due; the signal is a CE mark
 * if params.ecn and trySetCe() returns true, else a drop. trySetCe is called only then,
 * at most once. BLUE then draws random() once, only if p_drop is non-zero and the packet is
 * not already dropped, and drops when the number is below p_drop (BLUE never marks).
 * @param vars the flow's variables
 * @param params the parameters
 * @param now the current time, ns
 * @param enqueueTime the packet's enqueue time (cobalt_get_enqueue_time()), ns
 * @param bulkFlows the tin's bulk flow count in ingress mode, else 0
 * @param trySetCe marks the packet CE if it is ECN-capable; may be empty (not ECN-capable)
 * @param random the uniform random source; must be callable when p_drop is non-zero
 * @return the verdict
 */
CobaltVerdict CobaltShouldDrop(CobaltVars& vars,
                               const CobaltParameters& params,
                               int64_t now,
                               int64_t enqueueTime,
                               uint32_t bulkFlows,
                               const CobaltTrySetCe& trySetCe,
                               const CobaltRandomSource& random);

/**
 * Mirrors the COBALT part of cake_set_rate(): rate_ns/rate_shft from the byte rate, then
 * mtu_time = (mtu * rate_ns) >> rate_shft, target = max(1.5 * mtu_time, targetNs),
 * interval = max(rttEstNs + target - targetNs, 2 * target), p_inc 1 << 24, p_dec 1 << 20.
 * Deviation from Linux: the mtu == 0 early return (rate-only update) is not modelled.
 * @param rate the tin rate, bytes per second; 0 = unlimited
 * @param mtu psched_mtu() of the device, bytes
 * @param targetNs the configured target, ns
 * @param rttEstNs the configured interval (rtt), ns
 * @return the parameters (ecn true)
 */
CobaltParameters CobaltParametersForRate(uint64_t rate,
                                         uint32_t mtu,
                                         uint64_t targetNs,
                                         uint64_t rttEstNs);

} // namespace debloat
} // namespace ns3

#endif // DEBLOAT_COBALT_H
