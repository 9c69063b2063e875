/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SEED_EXPERIMENT_H
#define SEED_EXPERIMENT_H

#include "ns3/command-line.h"
#include "ns3/parallel-runner.h"
#include "ns3/run-record.h"

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief The sequence every seed experiment shares: parse the command line, run the
 * configurations side by side, save them, compare them and check the seed's result.
 *
 * A seed example derives from it and holds only its scenario: its options (AddOptions()),
 * the configurations they give (Configure(), one AddRun() each, each a function that builds
 * and runs one simulation), the heading it prints (Describe()) and its check (Check()).
 * Main() adds the options every seed example takes:
 * - --jobs: configurations run at once (0, the default: one per processor; ParallelRunner);
 * - --outputDir: directory of the flent files (default ".");
 * - --db: the SQLite results database (default NAME.sqlite; "none" for none);
 * - --check: exit 1 unless Check() holds;
 * - --progress: a line on stderr as each configuration starts and ends;
 * - --pcap=PREFIX: every interface's frames to PREFIX-CONFIG-NODE-IFINDEX.pcap, for the
 *   examples that build NicTopologyHelper topologies (GetPcapPrefix()).
 *
 * Then it runs them (ParallelRunner), saves them (Save(): SaveRuns(), the flent files and the
 * database), prints them (Report(): RunSummary::PrintComparison()) and checks them. Bad
 * input (std::invalid_argument from Configure()) and failed runs or files stop it with a
 * message that starts with the example's name, and status 1.
 *
 * @code
 *   class MyExperiment : public SeedExperiment
 *   {
 *     public:
 *       MyExperiment() : SeedExperiment("my-experiment") {}
 *     protected:
 *       void AddOptions(CommandLine& cmd) override { cmd.AddValue("rate", "...", m_rate); }
 *       void Configure() override { AddRun("cake", [rate = m_rate]() { return Run(rate); }); }
 *       void Describe(std::ostream& os) const override { os << GetJobs() << " at a time\n"; }
 *       bool Check(const std::vector<RunRecord>& runs) const override { return ...; }
 *   };
 *   int main(int argc, char* argv[]) { return MyExperiment().Main(argc, argv, __FILE__); }
 * @endcode
 */
class SeedExperiment
{
  public:
    /**
     * @param name the example's name: the prefix of its messages, and NAME.sqlite the
     *        default database
     */
    explicit SeedExperiment(std::string name);

    virtual ~SeedExperiment() = default;

    /**
     * Runs the whole sequence.
     * @param argc the command line's argument count
     * @param argv its arguments
     * @param file the example's source file (__FILE__), for CommandLine's usage text
     * @return the exit status: 0, or 1 on bad input, a failed run or file, or a failed check
     */
    int Main(int argc, char* argv[], const std::string& file);

    /**
     * Splits a comma-separated list, as the seed examples' list options take them.
     * @param text the list
     * @return its items, empty ones included ("a,,b" gives three)
     */
    static std::vector<std::string> SplitList(const std::string& text);

  protected:
    /**
     * Adds the scenario's own options.
     * @param cmd the command line
     */
    virtual void AddOptions(CommandLine& cmd) = 0;

    /**
     * Checks the parsed options and adds the configurations to run (AddRun()).
     * @throws std::invalid_argument naming the parameter and the accepted values
     */
    virtual void Configure() = 0;

    /**
     * Prints what is about to run (after Configure(), before the runs).
     * @param os the stream
     */
    virtual void Describe(std::ostream& os) const = 0;

    /**
     * Saves the runs; by default SaveRuns(): a flent file each in --outputDir and every run
     * in --db.
     * @param runs the runs, in the order they were added
     * @param os where to say what was written
     * @throws std::runtime_error when a file cannot be written
     */
    virtual void Save(const std::vector<RunRecord>& runs, std::ostream& os) const;

    /**
     * Prints the runs; by default a blank line and RunSummary::PrintComparison().
     * @param runs the runs
     * @param os the stream
     */
    virtual void Report(const std::vector<RunRecord>& runs, std::ostream& os) const;

    /**
     * The seed's result, for --check.
     * @param runs the runs
     * @return whether it holds (each failure printed to std::cerr)
     */
    virtual bool Check(const std::vector<RunRecord>& runs) const = 0;

    /**
     * Adds a configuration (from Configure()). It runs in a process of its own, so it must
     * capture what it needs by value.
     * @param label its name in messages
     * @param job builds and runs one simulation and returns its RunRecord
     */
    void AddRun(const std::string& label, ParallelRunner::Job job);

    /// @return the number of configurations run at once (valid from Describe() on)
    uint32_t GetJobs() const;

    /// @return the --db value ("none": no database)
    const std::string& GetDatabase() const;

    /**
     * The pcap prefix of one configuration, for NicTopologyHelper::EnablePcapAll().
     * @param label the configuration (its characters outside A-Z, a-z, 0-9, '-', '.' become
     *        '_' in the file names)
     * @return "PCAP-LABEL", or "" without --pcap (no capture)
     */
    std::string GetPcapPrefix(const std::string& label) const;

  private:
    std::string m_name;                                              ///< the example's name
    uint32_t m_jobs{0};                                              ///< --jobs
    std::string m_outputDir{"."};                                    ///< --outputDir
    std::string m_database;                                          ///< --db
    bool m_check{false};                                             ///< --check
    bool m_progress{true};                                           ///< --progress
    std::string m_pcap;                                              ///< --pcap
    std::vector<std::pair<std::string, ParallelRunner::Job>> m_runs; ///< from Configure()
    std::unique_ptr<ParallelRunner> m_runner;                        ///< made after Configure()
};

} // namespace debloat
} // namespace ns3

#endif /* SEED_EXPERIMENT_H */
