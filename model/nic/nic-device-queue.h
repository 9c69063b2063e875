/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NIC_DEVICE_QUEUE_H
#define NIC_DEVICE_QUEUE_H

#include "ns3/net-device-queue-interface.h"

#include <functional>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-nic
 * @brief A NetDeviceQueue whose wake reaches the queue disc the same way on every ns-3
 * release.
 *
 * ns-3.37 and older defer the queue disc's wake callback with Simulator::ScheduleNow; from
 * ns-3.38 NetDeviceQueue calls it synchronously, so a wake from a TX completion would re-enter
 * QueueDisc::Run() inside the driver's poll. This queue defers the callback itself whenever
 * the driver is running (SetDriverActive()), so that on every release the queue disc runs in
 * an event of its own right after the poll, at the same simulated time.
 * NicHelper installs it through NetDeviceQueueInterface's TxQueuesType attribute.
 */
class NicDeviceQueue : public NetDeviceQueue
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NicDeviceQueue();
    ~NicDeviceQueue() override;

    /**
     * Keeps the queue disc's callback and installs a deferring wrapper.
     * @param cb the queue disc's wake callback
     */
    void SetWakeCallback(WakeCallback cb) override;

    /**
     * @param active whether the driver (transmit or NAPI poll) is running now
     */
    void SetDriverActive(bool active);

    /**
     * With a host CPU model: every wake calls the hook in place of the queue disc (the device
     * places net_tx_action() on a core and calls RunWake() when it has run).
     * @param hook the hook (empty: wakes run the queue disc as before)
     */
    void SetNetTxHook(std::function<void()> hook);

    /// Runs the queue disc's callback.
    void RunWake();

    /**
     * Holds the queue as stopped for the queue disc while set: __qdisc_run() used its quota
     * (HostCpu's DevTxWeight), so the run in progress ends as if the driver had stopped the
     * queue, and net_tx_action() carries on later.
     * @param exhausted whether the quota of the run in progress is used up
     */
    void SetQuotaExhausted(bool exhausted);

    /** @return whether the driver or BQL stopped the queue, or the run's quota is used up */
    bool IsStopped() const override;

  private:
    /// Called by NetDeviceQueue in place of the queue disc's callback.
    void WakeRequested();

    WakeCallback m_qdiscWake;          ///< the queue disc's wake callback
    bool m_driverActive{false};        ///< the driver is running
    std::function<void()> m_netTxHook; ///< SetNetTxHook()
    bool m_quotaExhausted{false};      ///< SetQuotaExhausted()
};

/**
 * @ingroup debloat-nic
 * @brief Marks a device's driver as running for its NicDeviceQueues while in scope, so that
 * queue-disc wakes raised inside it are deferred to an event of their own. Scopes nest (a
 * transmit inside a poll); the outermost one sets and clears the flag.
 */
class NicDriverScope
{
  public:
    /**
     * @param queues the device's TX queues as NicDeviceQueues (null for another type)
     * @param depth the device's nesting counter
     */
    NicDriverScope(const std::vector<NicDeviceQueue*>& queues, uint32_t& depth);
    ~NicDriverScope();

    NicDriverScope(const NicDriverScope&) = delete;
    NicDriverScope& operator=(const NicDriverScope&) = delete;

  private:
    /// @param active the driver flag for every NicDeviceQueue of the device
    void SetActive(bool active);

    const std::vector<NicDeviceQueue*>& m_queues; ///< the device's TX queues (null: not ours)
    uint32_t& m_depth;                            ///< the device's nesting counter
};

} // namespace debloat
} // namespace ns3

#endif /* NIC_DEVICE_QUEUE_H */
