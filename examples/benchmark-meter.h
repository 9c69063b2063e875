/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat
 * What the benchmarks measure a stretch of work with: the process's CPU time (getrusage,
 * user + system: unlike wall-clock time it does not count what other processes take from a
 * loaded machine) and, where the kernel allows perf_event_open, the instructions it retired
 * in user space (exact and repeatable; many virtual machines refuse the counter, and then
 * valgrind --tool=callgrind counts them, as the benchmarks' headers describe).
 */

#ifndef DEBLOAT_BENCHMARK_METER_H
#define DEBLOAT_BENCHMARK_METER_H

#include <cstdint>
#include <cstring>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace debloat_benchmark
{

/// A stretch of work's cost.
struct Cost
{
    double cpuSeconds{0};     ///< CPU time, user + system, s
    uint64_t instructions{0}; ///< user-space instructions retired (0: not counted here)
};

/// Measures CPU time and, where allowed, instructions between Start() and Stop().
class BenchmarkMeter
{
  public:
    BenchmarkMeter()
    {
        perf_event_attr attr;
        std::memset(&attr, 0, sizeof(attr));
        attr.type = PERF_TYPE_HARDWARE;
        attr.size = sizeof(attr);
        attr.config = PERF_COUNT_HW_INSTRUCTIONS;
        attr.disabled = 1;
        attr.exclude_kernel = 1;
        attr.exclude_hv = 1;
        m_fd = static_cast<int>(syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
    }

    ~BenchmarkMeter()
    {
        if (m_fd >= 0)
        {
            close(m_fd);
        }
    }

    BenchmarkMeter(const BenchmarkMeter&) = delete;
    BenchmarkMeter& operator=(const BenchmarkMeter&) = delete;

    /// @return whether instructions are counted here
    bool CountsInstructions() const
    {
        return m_fd >= 0;
    }

    /// Starts a measurement.
    void Start()
    {
        if (m_fd >= 0)
        {
            ioctl(m_fd, PERF_EVENT_IOC_RESET, 0);
            ioctl(m_fd, PERF_EVENT_IOC_ENABLE, 0);
        }
        m_cpuStart = CpuSeconds();
    }

    /// @return the cost since Start()
    Cost Stop()
    {
        Cost cost;
        if (m_fd >= 0)
        {
            ioctl(m_fd, PERF_EVENT_IOC_DISABLE, 0);
            if (read(m_fd, &cost.instructions, sizeof(cost.instructions)) !=
                sizeof(cost.instructions))
            {
                cost.instructions = 0;
            }
        }
        cost.cpuSeconds = CpuSeconds() - m_cpuStart;
        return cost;
    }

    /// @return CPU time this process has used, user + system, s
    static double CpuSeconds()
    {
        rusage usage;
        getrusage(RUSAGE_SELF, &usage);
        return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
               static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    }

  private:
    int m_fd{-1};         ///< perf event file descriptor
    double m_cpuStart{0}; ///< CPU seconds at Start()
};

} // namespace debloat_benchmark

#endif /* DEBLOAT_BENCHMARK_METER_H */
