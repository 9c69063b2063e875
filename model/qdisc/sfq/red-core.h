/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows include/net/red.h of Linux (the red_parms/red_vars split of Linux 3.3 and later, as
 * net/sched/sch_sfq.c uses it per flow) and tc/tc_red.c plus the RED part of tc/q_sfq.c of
 * iproute2.
 */

#ifndef RED_CORE_H
#define RED_CORE_H

#include <cstdint>
#include <functional>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief RED parameters as tc hands them to the kernel (the RED fields of struct
 * tc_sfq_qopt_v1), before red_set_parms() scales them.
 *
 * Scell_log and the idle-time table are absent: SFQ's per-flow RED never idles
 * (red_calc_qavg_no_idle_time()).
 */
struct RedParameters
{
    uint32_t qthMin{0};   ///< qth_min: minimum threshold on the average backlog, bytes
    uint32_t qthMax{0};   ///< qth_max: maximum threshold on the average backlog, bytes
    uint8_t wlog{0};      ///< Wlog: the EWMA weight is 2^-Wlog
    uint8_t plog{0};      ///< Plog: used only when maxP is 0 (max_P = delta / 2^Plog)
    uint32_t maxP{0};     ///< max_P: marking probability at qth_max, scaled by 2^32; 0 = from Plog
    bool ecn{false};      ///< TC_RED_ECN: mark CE instead of dropping
    bool harddrop{false}; ///< TC_RED_HARDDROP: with ecn, still drop above qth_max
};

/// The decision of red_action() (RED_DONT_MARK, RED_PROB_MARK, RED_HARD_MARK).
enum class RedAction : uint8_t
{
    DONT_MARK, ///< below qth_min, or between the thresholds and not picked
    PROB_MARK, ///< between the thresholds and picked at random
    HARD_MARK, ///< at or above qth_max
};

/**
 * @ingroup debloat-qdisc
 * @brief The arithmetic of Linux RED (include/net/red.h), free of ns-3.
 *
 * A Red object holds the scaled parameters (struct red_parms) and the random source; each
 * queue that RED watches keeps its own Vars (struct red_vars), as every SFQ slot does. The
 * average is a fixed-point number with Wlog fraction bits. Between the thresholds, RED draws
 * a random number qR in [0, 2^32 / (max_P / delta)) once per mark and marks the packet when
 * ((qavg - qth_min) >> Wlog) * qcount reaches qR, qcount being the packets since the last
 * mark: the floating-point equivalent is max_P * (avg - min) / (max - min) >= rnd / qcount.
 *
 * Not ported, because sch_sfq does not use them: the idle-time damping (Scell_log, Stab,
 * red_calc_qavg_from_idle_time()) and Adaptive RED (target_min/max, red_adaptative_algo()).
 */
class Red
{
  public:
    /// A uniform 32-bit random number per call (the kernel's get_random_u32()).
    using RandomSource = std::function<uint32_t()>;

    /// Per-queue RED variables (struct red_vars without qidlestart).
    struct Vars
    {
        int32_t qcount{-1}; ///< packets since the last random number (-1: none drawn)
        uint32_t qR{0};     ///< the cached random number
        uint64_t qavg{0};   ///< average backlog, bytes scaled by 2^Wlog (an unsigned long)
    };

    /**
     * Mirrors red_check_params() then red_set_parms() (with no Stab).
     * @param params the parameters
     * @param random the random source; must be callable
     * @throws std::invalid_argument naming the parameter when CheckParameters() refuses
     *         them or random is empty
     */
    Red(const RedParameters& params, RandomSource random);

    /**
     * Mirrors red_check_params() of Linux 5.12 and later (Scell_log and Stab do not apply):
     * fls(qth_min) + Wlog < 32, fls(qth_max) + Wlog < 32 and qth_min <= qth_max.
     *
     * Deviation from Linux: qth_min = 0 is refused too. The kernel reads a zero qth_min as
     * "RED off" (sfq_change() allocates no red_parms), which would quietly disable RED.
     *
     * @param params the parameters
     * @throws std::invalid_argument naming the parameter and the accepted range
     */
    static void CheckParameters(const RedParameters& params);

    /**
     * Mirrors red_maxp(): 2^32 / 2^Plog - 1, the probability step of Plog.
     * @param plog Plog
     * @return the probability, scaled by 2^32
     */
    static uint32_t MaxP(uint8_t plog);

    /**
     * Mirrors red_set_vars(): no average, no random number drawn.
     * @param vars the variables to reset
     */
    static void ResetVars(Vars& vars);

    /**
     * Mirrors red_calc_qavg_no_idle_time(): qavg + backlog - qavg / 2^Wlog, i.e.
     * avg = (1 - W) avg + W backlog with W = 2^-Wlog.
     * @param vars the queue's variables
     * @param backlog the queue's backlog now, bytes
     * @return the new average, scaled by 2^Wlog
     */
    uint64_t CalcQavgNoIdleTime(const Vars& vars, uint32_t backlog) const;

    /**
     * Mirrors red_action(): compares qavg with the thresholds and runs the qcount/qR logic.
     * @param vars the queue's variables (qcount and qR change)
     * @param qavg the average to judge, scaled by 2^Wlog
     * @return the decision
     */
    RedAction Action(Vars& vars, uint64_t qavg);

    /**
     * Mirrors red_mark_probability(): ((qavg - qth_min) >> Wlog) * qcount >= qR. Requires
     * qavg >= qth_min (scaled) and qcount >= 1.
     * @param vars the queue's variables
     * @param qavg the average, scaled by 2^Wlog
     * @return true to mark
     */
    bool MarkProbability(const Vars& vars, uint64_t qavg) const;

    /**
     * Mirrors red_random(): reciprocal_divide(random, max_P_reciprocal). Since Linux 3.14
     * reciprocal_divide() is exact (Granlund-Montgomery), so this is random / max_p_delta.
     * @return a random number in [0, 2^32 / max_p_delta)
     */
    uint32_t Random();

    /// @return the parameters as given
    const RedParameters& GetParameters() const;
    /// @return qth_min scaled by 2^Wlog (p->qth_min)
    uint32_t GetScaledQthMin() const;
    /// @return qth_max scaled by 2^Wlog (p->qth_max)
    uint32_t GetScaledQthMax() const;
    /// @return qth_max - qth_min in bytes, at least 1 (p->qth_delta)
    uint32_t GetQthDelta() const;
    /// @return max_P, scaled by 2^32, derived from Plog when given as 0 (p->max_P)
    uint32_t GetMaxP() const;
    /// @return max(max_P / qth_delta, 1), the divisor behind p->max_P_reciprocal
    uint32_t GetMaxPDelta() const;

  private:
    RedParameters m_params;  ///< the parameters as given
    RandomSource m_random;   ///< uniform 32-bit random numbers
    uint32_t m_qthMin{0};    ///< qth_min << Wlog
    uint32_t m_qthMax{0};    ///< qth_max << Wlog
    uint32_t m_qthDelta{1};  ///< qth_max - qth_min, at least 1
    uint32_t m_maxP{0};      ///< max_P
    uint32_t m_maxPDelta{1}; ///< max(max_P / qth_delta, 1)
};

/**
 * @ingroup debloat-qdisc
 * @brief The RED keywords of `tc qdisc ... sfq` (iproute2 tc/q_sfq.c); 0 means "not given"
 * where tc derives a default.
 */
struct TcSfqRedOptions
{
    uint32_t redflowlimit{0}; ///< redflowlimit BYTES: required; bounds max, seeds the defaults
    uint32_t min{0};          ///< min BYTES; 0: max / 3
    uint32_t max{0};          ///< max BYTES; 0: redflowlimit / 4
    uint32_t avpkt{1000};     ///< avpkt BYTES
    uint32_t burst{0};        ///< burst PACKETS; 0: (2 * min + max) / (3 * avpkt)
    double probability{0.02}; ///< probability P: marking probability at max
    bool ecn{false};          ///< ecn
    bool harddrop{false};     ///< harddrop
};

/**
 * Mirrors iproute2's tc_red_eval_ewma(): the smallest Wlog in 1..31 such that a burst of
 * `burst` packets of avpkt bytes passes, i.e. burst + 1 - qmin / avpkt <= (1 - (1 - W)^burst) / W
 * with W = 2^-Wlog.
 * @param qmin min threshold, bytes
 * @param burst burst, packets
 * @param avpkt average packet size, bytes (> 0)
 * @return Wlog, or -1 when burst + 1 - qmin / avpkt < 1 or no Wlog below 32 fits
 */
int TcRedEvalEwma(uint32_t qmin, uint32_t burst, uint32_t avpkt);

/**
 * Mirrors iproute2's tc_red_eval_P(): the smallest Plog in 0..31 with
 * prob / (qmax - qmin) * 2^Plog > 1.
 * @param qmin min threshold, bytes
 * @param qmax max threshold, bytes
 * @param prob marking probability at qmax
 * @return Plog, or -1 when qmax <= qmin or none below 32 fits
 */
int TcRedEvalP(uint32_t qmin, uint32_t qmax, double prob);

/**
 * Mirrors the RED part of iproute2's sfq_parse_opt(): fills in tc-sfq's defaults
 * (max = redflowlimit / 4, min = max / 3, burst = (2 min + max) / (3 avpkt)), checks
 * max <= redflowlimit and min < max, and computes Wlog, Plog and max_P = P * 2^32.
 *
 * Deviations from iproute2: every refusal throws instead of printing; avpkt = 0 and a
 * probability outside (0, 1] are refused (tc divides by avpkt, and converts P * 2^32 to a
 * u32 without a range check); P = 1 gives max_P = 2^32 - 1. tc's warning for Wlog >= 10
 * ("Burst seems to be too large") is not reproduced.
 *
 * @param options the tc keywords
 * @return the parameters tc would send to the kernel
 * @throws std::invalid_argument naming the keyword and the accepted range
 */
RedParameters TcSfqRedParameters(const TcSfqRedOptions& options);

} // namespace debloat
} // namespace ns3

#endif /* RED_CORE_H */
