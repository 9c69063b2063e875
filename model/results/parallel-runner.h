/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PARALLEL_RUNNER_H
#define PARALLEL_RUNNER_H

#include "run-record.h"

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief Runs an experiment's configurations side by side, one simulation per process, as
 * flent's batch runs do one test after another on real machines.
 *
 * ns-3's simulator is a process-wide singleton, so configurations run in parallel only as
 * separate processes: each job runs in a child made by fork() (before the parent has built
 * any simulation), stores its RunRecord in a SQLite file of its own (ResultsDatabase) and
 * exits; the parent reads the records back in the order the jobs were added. At most
 * `jobs` children run at once.
 *
 * A job that throws, aborts or crashes makes Run() throw, naming the job and how its child
 * ended; the other jobs still run to the end first.
 */
class ParallelRunner
{
  public:
    /// One configuration: builds and runs a simulation, returns what it measured.
    using Job = std::function<RunRecord()>;

    /**
     * @param jobs most children at once; 0: one per processor (std::thread::hardware_concurrency)
     * @param scratch directory for the children's files (default: the system's temporary one)
     */
    explicit ParallelRunner(uint32_t jobs = 0, std::string scratch = "");

    /**
     * Adds a configuration.
     * @param label its name in messages
     * @param job the work
     */
    void Add(const std::string& label, Job job);

    /// @return the number of children run at once
    uint32_t GetJobs() const;

    /**
     * Prints a line when each job starts and when it ends, with its wall-clock time:
     * "[started/total] label: running", "[ended/total] label: done in 41.2 s" (or "failed:
     * how"), so a long sweep is not silent.
     * @param os where to print (nullptr: nothing, the default)
     */
    void SetProgress(std::ostream* os);

    /**
     * Runs every job and collects the records.
     * @return one record per job, in the order they were added
     * @throws std::runtime_error naming each job that failed and how
     */
    std::vector<RunRecord> Run();

  private:
    std::vector<std::pair<std::string, Job>> m_jobs; ///< label and work
    uint32_t m_parallel;                             ///< children at once
    std::string m_scratch;                           ///< directory of the children's files
    std::ostream* m_progress{nullptr};               ///< SetProgress()
};

/**
 * @ingroup debloat-measurement
 * Saves an experiment's runs as flent does a batch: one data file per run,
 * `<outputDir>/<test>-<title>.flent.gz`, and every run in a SQLite results database.
 * @param runs the runs, each titled with its configuration (no '/' in the title)
 * @param outputDir the directory of the flent files
 * @param db the database file, or "none" for none
 * @param log where to say what was written
 * @throws std::runtime_error when a file cannot be written
 */
void SaveRuns(const std::vector<RunRecord>& runs,
              const std::string& outputDir,
              const std::string& db,
              std::ostream& log);

} // namespace debloat
} // namespace ns3

#endif /* PARALLEL_RUNNER_H */
