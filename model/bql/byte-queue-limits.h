/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Byte Queue Limits as Linux 6.9 and later run them (lib/dynamic_queue_limits.c with stall
 * detection; sysfs in net/core/net-sysfs.c).
 */

#ifndef BYTE_QUEUE_LIMITS_H
#define BYTE_QUEUE_LIMITS_H

#include "dql.h"

#include "ns3/nstime.h"
#include "ns3/queue-limits.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-bql
 * @brief Byte Queue Limits for one device TX queue, as current Linux computes them.
 *
 * Install one per TX queue with
 * TrafficControlHelper::SetQueueLimits("ns3::debloat::ByteQueueLimits", ...) or
 * ByteQueueLimitsHelper. The NetDeviceQueue calls Queued() when the driver posts bytes
 * (netdev_tx_sent_queue), Completed() when TX completion reclaims them
 * (netdev_tx_completed_queue) and Available() to decide whether the queue stops.
 *
 * The arithmetic is Dql, a port of the kernel's dql_queued(), dql_completed() and
 * dql_check_stall(). This class supplies the kernel's clock: simulation time counted in
 * jiffies of CONFIG_HZ (attribute Hz), so that the hold time and the stall history have the
 * kernel's granularity. Attributes carry the sysfs names of
 * /sys/class/net/DEV/queues/tx-N/byte_queue_limits/ and their units.
 *
 * Differences from ns3::DynamicQueueLimits, an older port: stall detection (Linux 6.9),
 * traced inflight bytes, jiffy-granular hold time (ns-3's compares nanoseconds, so it can
 * shrink the limit up to one jiffy earlier), and configuration errors that stop the
 * simulation with a message instead of asserting in debug builds only.
 *
 * Deviation from Linux: sysfs accepts limit_min above limit_max (clamp() then lets the
 * maximum win); here such a pair stops the simulation, because it is always a mistake.
 * Jiffies start at 0 at simulation time 0, not at the kernel's INITIAL_JIFFIES; only the
 * absolute counter differs, no interval does.
 */
class ByteQueueLimits : public QueueLimits
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    ByteQueueLimits();
    ~ByteQueueLimits() override;

    /// Mirrors netdev_tx_reset_queue(): dql_reset().
    void Reset() override;
    /**
     * Mirrors dql_completed() via netdev_tx_completed_queue().
     * @param count bytes reclaimed by one TX completion pass
     */
    void Completed(uint32_t count) override;
    /**
     * Mirrors dql_avail().
     * @return bytes that may still be queued; negative stops the queue
     */
    int32_t Available() const override;
    /**
     * Mirrors dql_queued() via netdev_tx_sent_queue().
     * @param count bytes posted to the hardware queue
     */
    void Queued(uint32_t count) override;

    /// @return the current limit, bytes (sysfs limit)
    uint32_t GetLimit() const;
    /// @return bytes queued and not yet completed (sysfs inflight)
    uint32_t GetInflight() const;
    /// @return stalls detected (sysfs stall_cnt)
    uint64_t GetStallCount() const;
    /// @return the longest stall detected (sysfs stall_max)
    Time GetStallMax() const;
    /// Forget the longest stall (writing 0 to sysfs stall_max).
    void ResetStallMax();
    /// @return limit_min, bytes
    uint32_t GetLimitMin() const;
    /// @return limit_max, bytes
    uint32_t GetLimitMax() const;
    /// @return hold_time
    Time GetHoldTime() const;
    /// @return stall_thrs (zero when stall detection is off)
    Time GetStallThreshold() const;

    /**
     * TracedCallback signature for a detected stall.
     * @param [in] length time from the oldest queueing in the stall window to the completion
     */
    typedef void (*StallTracedCallback)(Time length);

  private:
    /// @param hz the kernel tick rate, one of 100, 250, 300, 1000
    void SetHz(uint32_t hz);
    /// @return the kernel tick rate
    uint32_t GetHz() const;
    /// @param limit limit_min, bytes
    void SetLimitMin(uint32_t limit);
    /// @param limit limit_max, bytes
    void SetLimitMax(uint32_t limit);
    /// @param holdTime hold_time
    void SetHoldTime(Time holdTime);
    /// @param threshold stall_thrs; zero disables stall detection
    void SetStallThreshold(Time threshold);
    /// Re-applies HoldTime and StallThreshold in jiffies of the current Hz.
    void ApplyTimes();
    /// @return the simulation time in jiffies
    Dql::Jiffies Now() const;
    /**
     * msecs_to_jiffies() for any duration: rounds up to whole jiffies.
     * @param duration a non-negative duration
     * @return the duration in jiffies
     */
    Dql::Jiffies ToJiffies(Time duration) const;
    /**
     * jiffies_to_msecs() for any duration.
     * @param jiffies a number of jiffies
     * @return the duration
     */
    Time FromJiffies(Dql::Jiffies jiffies) const;
    /// Copies the DQL state into the traced values.
    void UpdateTraces();

    Dql m_dql;                         ///< the kernel's arithmetic
    uint32_t m_hz;                     ///< CONFIG_HZ, ticks per second
    Time m_holdTime;                   ///< hold_time as configured
    Time m_stallThreshold;             ///< stall_thrs as configured
    bool m_used{false};                ///< whether any byte was queued yet
    TracedValue<uint32_t> m_limit;     ///< current limit, bytes
    TracedValue<uint32_t> m_inflight;  ///< queued minus completed, bytes
    TracedCallback<Time> m_stallTrace; ///< fires on each detected stall
};

} // namespace debloat
} // namespace ns3

#endif /* BYTE_QUEUE_LIMITS_H */
