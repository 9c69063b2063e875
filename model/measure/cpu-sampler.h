/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Follows flent 2.1.1's cpu_stats runner: flent/scripts/stat_iterate.sh (the load of the
 * "cpu" line of /proc/stat between two readings) and CpuStatsRunner in flent/runners.py.
 */

#ifndef CPU_SAMPLER_H
#define CPU_SAMPLER_H

#include "ns3/cpu-core-model.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/run-record.h"

#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

class HostCpu;

/**
 * @ingroup debloat-measurement
 * @brief Samples a node's HostCpu on flent's step grid: what flent's cpu_stats runner reads
 * from /proc/stat every STEP_SIZE, plus mpstat's per-class and per-core figures.
 *
 * At each sample it reads every core's cumulative usage (HostCpu::GetUsage()) and, from
 * the previous reading, computes over the interval behind it:
 * - `load`: the load of all cores as flent's stat_iterate.sh computes it from the "cpu"
 *   line (the sum of the cores): 1 - (idle delta) / (total delta). flent's CpuStatsRunner
 *   stores it as the raw key `load`, which its `cpu`, `cpu_box` and `cpu_bar` plots read;
 * - `irq`, `soft`, `task`: each class's share of all cores' time (mpstat's %irq, %soft and
 *   %usr + %sys over the "all" line, as fractions): CpuCoreModel::ClassFraction() of the
 *   summed usage; `load` = `irq` + `soft` + `task`;
 * - `load_cpu<i>`, `irq_cpu<i>`, `soft_cpu<i>`, `task_cpu<i>` for each core i: the same for
 *   that core alone (mpstat -P ALL).
 *
 * As in flent, the first reading (at Start()'s start) only opens the series: samples are
 * at start + k STEP_SIZE for k >= 1, each covering the step that ends at it.
 *
 * Deviation from flent: /proc/stat counts USER_HZ ticks (10 ms) and stat_iterate.sh's awk
 * prints the load with 6 significant digits, which CpuStatsRunner's regular expression
 * (digits, a point, digits) then drops when it prints without a point (a load of exactly 0
 * or 1, or below 1e-4); the simulated usage is in nanoseconds, the load is kept at full
 * precision and every sample is kept.
 *
 * Deviation from Linux: the classes are CpuCoreModel's, so ksoftirqd's NAPI polls count as
 * `task` (a task in the model), where /proc/stat counts ksoftirqd's softirq processing as
 * softirq time.
 */
class CpuSampler : public Object
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    CpuSampler();
    ~CpuSampler() override;

    /**
     * Chooses the CPU to sample.
     * @param cpu a HostCpu aggregated to a node
     */
    void SetHostCpu(Ptr<HostCpu> cpu);

    /**
     * Reads the usage at start, then samples at start + Interval, ... while at or before
     * stop.
     * @param start the first reading, also the series' time origin (flent's T0)
     * @param stop the last sample at the latest
     */
    void Start(Time start, Time stop);

    /**
     * @param name the series name, e.g. "cpu_stats_router"
     * @return the samples so far, as a flent CpuStatsRunner series (units "misc")
     */
    Series GetSeries(const std::string& name) const;

    /**
     * The keys of a series of a CPU with the given cores.
     * @param cores the number of cores
     * @return load, irq, soft, task, then load_cpu0, irq_cpu0, soft_cpu0, task_cpu0, ...
     */
    static std::vector<std::string> Keys(uint32_t cores);

    /**
     * One sample's values from two readings of every core.
     * @param from the earlier reading, one Usage per core
     * @param to the later reading, as many
     * @return the values in the order of Keys()
     */
    static std::vector<double> Values(const std::vector<CpuCoreModel::Usage>& from,
                                      const std::vector<CpuCoreModel::Usage>& to);

  private:
    void DoDispose() override;

    /// Reads every core's usage.
    /// @return one Usage per core
    std::vector<CpuCoreModel::Usage> Read() const;
    /// Takes one sample and schedules the next.
    void TakeSample();

    Time m_interval;                         ///< time between samples (flent's STEP_SIZE)
    Ptr<HostCpu> m_cpu;                      ///< the sampled CPU
    Time m_origin;                           ///< the series' time origin
    Time m_stop;                             ///< the last sample at the latest
    EventId m_event;                         ///< next sample
    std::vector<CpuCoreModel::Usage> m_last; ///< the previous reading, per core
    std::vector<std::string> m_keys;         ///< the series' keys
    std::vector<debloat::Sample> m_samples;  ///< the samples
};

} // namespace debloat
} // namespace ns3

#endif /* CPU_SAMPLER_H */
