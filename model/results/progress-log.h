/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PROGRESS_LOG_H
#define PROGRESS_LOG_H

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief The progress lines of a sequence of runs, so that a long one is not silent:
 * "[started/total] label: running" as a run starts, "[ended/total] label: done in 41.2 s"
 * (or "failed: how") as it ends, each flushed at once. ParallelRunner prints them for its
 * children; examples that run their configurations one after another print them too.
 */
class ProgressLog
{
  public:
    /**
     * @param os where to print (nullptr: nothing)
     * @param total the number of runs
     */
    ProgressLog(std::ostream* os, std::size_t total);

    /**
     * A run starts.
     * @param index its index, from 0
     * @param label its name
     */
    void Start(std::size_t index, const std::string& label);

    /**
     * A run ends.
     * @param index its index, as given to Start()
     * @param label its name
     * @param failure how it failed ("": it did not)
     */
    void End(std::size_t index, const std::string& label, const std::string& failure = "");

  private:
    std::ostream* m_os;                                         ///< where to print
    std::size_t m_total;                                        ///< runs in all
    std::size_t m_ended{0};                                     ///< runs ended so far
    std::vector<std::chrono::steady_clock::time_point> m_start; ///< each run's start
};

} // namespace debloat
} // namespace ns3

#endif /* PROGRESS_LOG_H */
