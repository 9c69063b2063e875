/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DEVICE_SAMPLER_H
#define DEVICE_SAMPLER_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/run-record.h"

namespace ns3
{

class NetDevice;
class QueueDisc;

namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief Samples one egress, qdisc to wire, on flent's step grid: what `tc -s qdisc`,
 * BQL's sysfs and `ethtool -S` would show every STEP_SIZE.
 *
 * The samples form a flent TcRunner series (`qdisc_stats_<host>`), whose raw keys flent's
 * backlog, drops and delay plots read:
 * - `backlog_bytes`, `backlog_pkts`: the root qdisc's backlog at the sample;
 * - `dropped`, `ecn_mark`: qdisc drops and ECN marks since the previous sample (flent turns
 *   tc's cumulative counters into per-interval ones the same way); drops as tc counts them,
 *   without the GSO super-packets CAKE split (CakeQueueDisc::GetTcDroppedPackets());
 * - `sent_bytes`, `sent_pkts`: cumulative, as tc prints them;
 * - `delay`: mean sojourn time in ms of the packets the qdisc dequeued in the interval
 *   (absent when it dequeued none). Deviation from flent: flent reads codel's or pie's own
 *   delay estimate from tc, which only those qdiscs print; the sojourn time is defined for
 *   every ns-3 queue disc;
 * - `bql_limit`, `bql_inflight`: summed over the device's TX queues (bytes; absent without
 *   ByteQueueLimits);
 * - `ring_used`, `ring_bytes`: TX descriptors in use and the bytes they hold, summed over
 *   the TX rings (absent unless the device is a NicNetDevice);
 * - `nic_dropped`: packets the device dropped in the interval (NicNetDevice).
 *
 * The first sample, at Start()'s start, opens the series: its per-interval counts are 0 and
 * it has no delay, as flent's first reading of tc's cumulative counters.
 */
class DeviceSampler : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    DeviceSampler();
    ~DeviceSampler() override;

    /**
     * Chooses the egress to sample: the device and the root qdisc installed on it.
     * @param device the egress device
     */
    void SetDevice(Ptr<NetDevice> device);

    /**
     * Samples at start, start + Interval, ... while before stop.
     * @param start the first sample, also the series' time origin (flent's T0)
     * @param stop the end of sampling
     */
    void Start(Time start, Time stop);

    /**
     * @param name the series name, e.g. "qdisc_stats_router"
     * @return the samples so far, as a flent TcRunner series
     */
    Series GetSeries(const std::string& name) const;

  private:
    void DoDispose() override;

    /// Takes one sample and schedules the next.
    void TakeSample();
    /**
     * Accumulates the sojourn time of a dequeued packet.
     * @param sojourn its time in the qdisc
     */
    void Sojourn(Time sojourn);

    Time m_interval;                        ///< time between samples (flent's STEP_SIZE)
    Ptr<NetDevice> m_device;                ///< the egress device
    Ptr<QueueDisc> m_qdisc;                 ///< its root queue disc, if any
    Time m_origin;                          ///< the series' time origin
    Time m_stop;                            ///< end of sampling
    EventId m_event;                        ///< next sample
    uint64_t m_lastDropped{0};              ///< qdisc drops at the previous sample
    uint64_t m_lastMarked{0};               ///< qdisc marks at the previous sample
    uint64_t m_lastNicDropped{0};           ///< device drops at the previous sample
    double m_sojournSum{0};                 ///< sojourn times (s) of this interval's dequeues
    uint64_t m_sojournCount{0};             ///< this interval's dequeues
    std::vector<std::string> m_keys;        ///< the series' keys
    std::vector<debloat::Sample> m_samples; ///< the samples
};

} // namespace debloat
} // namespace ns3

#endif /* DEVICE_SAMPLER_H */
