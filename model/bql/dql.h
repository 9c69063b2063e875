/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows lib/dynamic_queue_limits.c and include/linux/dynamic_queue_limits.h of Linux 6.9
 * and later (dynamic queue limits with stall detection).
 */

#ifndef DQL_H
#define DQL_H

#include <array>
#include <cstdint>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-bql
 * @brief The arithmetic of Linux dynamic queue limits (DQL), free of ns-3.
 *
 * A DQL object sizes a producer/consumer queue, usually a NIC's TX ring, in bytes. The
 * producer reports what it posts (Queued()), the consumer what the hardware finished
 * (Completed()), and the producer stops while Avail() is negative. At each completion the
 * limit grows when the queue starved (it ran empty while the producer was held back) and
 * shrinks by the smallest slack seen over a hold time when it did not. Since Linux 6.9 the
 * completion path also detects stalls: a completion that comes at least stall_thrs jiffies
 * after the last one while something was queued in the first half of that gap.
 *
 * Time is the caller's jiffies counter, as in the kernel; the counters are 32-bit and wrap,
 * and every comparison uses the kernel's wrap-safe forms (POSDIFF, AFTER_EQ, time_after).
 * The class is a port of the kernel's semantics, written anew; each method names the
 * kernel function it mirrors.
 *
 * Deviation from Linux: the kernel WARNs and ignores a dql_queued() count above
 * DQL_MAX_OBJECT and BUG()s on a completion larger than what is in flight. Here Queued()
 * and Completed() refuse such counts and return false, so that the caller can stop with a
 * message instead.
 */
class Dql
{
  public:
    /// Jiffies, the kernel's unsigned long tick counter (64 bits, as on a 64-bit kernel).
    using Jiffies = uint64_t;

    /// DQL_MAX_OBJECT: the largest count one Queued() may report (UINT_MAX / 16).
    static constexpr uint32_t MAX_OBJECT = UINT32_MAX / 16;
    /// DQL_MAX_LIMIT: the largest limit ((UINT_MAX / 2) - DQL_MAX_OBJECT).
    static constexpr uint32_t MAX_LIMIT = UINT32_MAX / 2 - MAX_OBJECT;
    /// DQL_HIST_LEN: words in the stall history bitmap.
    static constexpr uint32_t HISTORY_WORDS = 4;
    /// BITS_PER_LONG on a 64-bit kernel: jiffies per history word.
    static constexpr uint32_t BITS_PER_WORD = 64;
    /// Smallest non-zero stall threshold that net-sysfs accepts, in jiffies.
    static constexpr uint32_t STALL_THRESHOLD_MIN = 4;
    /// Largest stall threshold that net-sysfs accepts, in jiffies (4 / 2 * BITS_PER_LONG).
    static constexpr uint32_t STALL_THRESHOLD_MAX = 4 / 2 * BITS_PER_WORD;

    /// What one completion found.
    struct Completion
    {
        bool stall{false};        ///< a stall was detected at this completion
        uint16_t stallJiffies{0}; ///< its length (now minus the oldest queue time), jiffies
    };

    /**
     * Mirrors dql_init(): limits 0 and MAX_LIMIT, stall detection off, then Reset().
     * @param holdTime slack hold time, jiffies (the kernel passes HZ, one second)
     * @param now current jiffies
     */
    Dql(Jiffies holdTime, Jiffies now);

    /**
     * Mirrors dql_reset(): clears every dynamic value (the limit becomes 0, not the
     * minimum) but keeps the configuration. adj_limit is not reset, as in the kernel.
     * @param now current jiffies
     */
    void Reset(Jiffies now);

    /**
     * Mirrors dql_queued(): records count bytes posted to the queue and, with stall
     * detection on, marks the current jiffy in the history bitmap (dql_queue_stall()).
     * @param count bytes posted
     * @param now current jiffies
     * @return false, and no change, when count exceeds MAX_OBJECT
     */
    bool Queued(uint32_t count, Jiffies now);

    /**
     * Mirrors dql_avail(): limit plus completed minus queued.
     * @return bytes that may still be posted; negative when the producer must stop
     */
    int32_t Avail() const;

    /**
     * Mirrors dql_completed() and dql_check_stall(): records count bytes completed,
     * recomputes the limit and checks for a stall.
     * @param count bytes completed, at most GetInflight()
     * @param now current jiffies
     * @param[out] result what this completion found; left untouched when refused
     * @return false, and no change, when count exceeds the bytes in flight
     */
    bool Completed(uint32_t count, Jiffies now, Completion& result);

    /// @param limit the limit_min sysfs value, bytes
    void SetMinLimit(uint32_t limit);
    /// @param limit the limit_max sysfs value, bytes
    void SetMaxLimit(uint32_t limit);
    /// @param holdTime the hold_time sysfs value converted to jiffies
    void SetHoldTime(Jiffies holdTime);
    /**
     * Mirrors bql_set_stall_thrs(): switching detection on restarts the reap clock.
     * @param threshold jiffies; 0 disables, else STALL_THRESHOLD_MIN..STALL_THRESHOLD_MAX
     * @param now current jiffies
     * @return false, and no change, for a threshold out of range
     */
    bool SetStallThreshold(uint32_t threshold, Jiffies now);
    /// Mirrors bql_set_stall_max() writing 0: forget the longest stall.
    void ResetStallMax();

    /// @return the current limit, bytes (sysfs limit)
    uint32_t GetLimit() const;
    /// @return queued minus completed, bytes (sysfs inflight)
    uint32_t GetInflight() const;
    /// @return the total ever queued, bytes (a wrapping 32-bit counter)
    uint32_t GetNumQueued() const;
    /// @return the total ever completed, bytes (a wrapping 32-bit counter)
    uint32_t GetNumCompleted() const;
    /// @return limit_min, bytes
    uint32_t GetMinLimit() const;
    /// @return limit_max, bytes
    uint32_t GetMaxLimit() const;
    /// @return the slack hold time, jiffies
    Jiffies GetHoldTime() const;
    /// @return the stall threshold, jiffies (0 when detection is off)
    uint32_t GetStallThreshold() const;
    /// @return stalls detected since the queue was created (sysfs stall_cnt)
    uint64_t GetStallCount() const;
    /// @return the longest stall seen, jiffies (sysfs stall_max)
    uint16_t GetStallMax() const;
    /// @return the smallest slack seen since the last limit change (UINT32_MAX when none)
    uint32_t GetLowestSlack() const;

  private:
    /// Mirrors dql_queue_stall(): marks jiffy now in the history ring.
    void RecordQueueTime(Jiffies now);
    /**
     * Mirrors dql_check_stall().
     * @param now current jiffies
     * @return the stall found, if any
     */
    Completion CheckStall(Jiffies now);

    // Fields of the enqueue path (dql_queued)
    uint32_t m_numQueued{0};  ///< total ever queued, bytes
    uint32_t m_adjLimit{0};   ///< limit + num_completed, bytes
    uint32_t m_lastObjCnt{0}; ///< count of the last Queued(), bytes
    uint32_t m_stallThrs{0};  ///< stall threshold, jiffies; 0 = off
    Jiffies m_historyHead{0}; ///< jiffies / BITS_PER_WORD of the newest history word
    std::array<uint64_t, HISTORY_WORDS> m_history{}; ///< one bit per jiffy with a Queued()

    // Fields of the completion path (dql_completed)
    uint32_t m_limit{0};                ///< current limit, bytes
    uint32_t m_numCompleted{0};         ///< total ever completed, bytes
    uint32_t m_prevOvlimit{0};          ///< over-limit bytes at the previous completion
    uint32_t m_prevNumQueued{0};        ///< num_queued at the previous completion
    uint32_t m_prevLastObjCnt{0};       ///< last_obj_cnt at the previous completion
    uint32_t m_lowestSlack{UINT32_MAX}; ///< smallest slack since slack_start_time, bytes
    Jiffies m_slackStartTime{0};        ///< when the slack search started, jiffies

    // Configuration
    uint32_t m_maxLimit{MAX_LIMIT}; ///< limit_max, bytes
    uint32_t m_minLimit{0};         ///< limit_min, bytes
    Jiffies m_slackHoldTime{0};     ///< hold_time, jiffies

    // Stall statistics
    uint16_t m_stallMax{0}; ///< longest stall, jiffies (an unsigned short, as in the kernel)
    Jiffies m_lastReap{0};  ///< jiffies of the last completion
    uint64_t m_stallCnt{0}; ///< stalls detected
};

} // namespace debloat
} // namespace ns3

#endif /* DQL_H */
