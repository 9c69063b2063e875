/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SHAPER_WATCHDOG_H
#define SHAPER_WATCHDOG_H

#include "ns3/event-id.h"

#include <cstdint>

namespace ns3
{

class QueueDisc;

namespace debloat
{

/**
 * @ingroup debloat-qdisc
 * @brief struct qdisc_watchdog: runs a shaping queue disc again when its scheduler core
 * says the next packet may leave (CAKE's shaper, HTB's tokens).
 *
 * The cores are plain C++ and only name a time; this turns it into an ns-3 event that calls
 * QueueDisc::Run() on the root of the queue disc's tree, as the kernel's hrtimer calls
 * __netif_schedule(qdisc_root()).
 */
class ShaperWatchdog
{
  public:
    /// @param qdisc the queue disc to run (not owned: the queue disc owns the watchdog)
    explicit ShaperWatchdog(QueueDisc* qdisc = nullptr);

    /// @param qdisc the queue disc to run
    void SetQueueDisc(QueueDisc* qdisc);

    /**
     * qdisc_watchdog_schedule_ns(): a new time replaces the pending one, unless it is the
     * pending one's (qdisc_watchdog_schedule_range_ns() leaves a timer queued for the same
     * expiry alone); a time already past runs the queue disc now (as a zero-delay event).
     * @param at the time, ns since the start of the simulation
     */
    void Schedule(int64_t at);

    /// qdisc_watchdog_cancel().
    void Cancel();

    /// @return true while a run is scheduled
    bool IsPending() const;

  private:
    /// The hrtimer's expiry: runs the queue disc's root.
    void Expire();

    /// @return the root of the tree the queue disc is in (itself if none), found once
    QueueDisc* Root();

    QueueDisc* m_qdisc;         ///< the queue disc
    QueueDisc* m_root{nullptr}; ///< its tree's root, once found
    EventId m_event;            ///< the pending run
};

} // namespace debloat
} // namespace ns3

#endif /* SHAPER_WATCHDOG_H */
