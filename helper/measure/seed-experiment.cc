/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "seed-experiment.h"

#include "command-line-options.h"

#include "ns3/run-summary.h"

#include <cctype>
#include <exception>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace debloat
{

SeedExperiment::SeedExperiment(std::string name)
    : m_name(std::move(name)),
      m_database(m_name + ".sqlite")
{
}

int
SeedExperiment::Main(int argc, char* argv[], const std::string& file)
{
    CommandLine cmd(file);
    AddOptions(cmd);
    CommandLineOptions::AddUnsigned(cmd,
                                    "jobs",
                                    "configurations run at once (0: one per processor)",
                                    m_jobs,
                                    0,
                                    256);
    cmd.AddValue("outputDir", "directory of the flent files", m_outputDir);
    cmd.AddValue("db", "SQLite results database (none: do not write one)", m_database);
    cmd.AddValue("check", "exit 1 unless the seed's qualitative result holds", m_check);
    cmd.AddValue("progress",
                 "print a line on stderr as each configuration starts and ends",
                 m_progress);
    cmd.AddValue("pcap",
                 "write every interface's frames to PCAP-CONFIG-NODE-IFINDEX.pcap (tcpdump "
                 "-w; empty: none)",
                 m_pcap);
    cmd.Parse(argc, argv);
    try
    {
        Configure();
    }
    catch (const std::invalid_argument& error)
    {
        std::cerr << m_name << ": " << error.what() << std::endl;
        return 1;
    }

    m_runner = std::make_unique<ParallelRunner>(m_jobs);
    m_runner->SetProgress(m_progress ? &std::clog : nullptr);
    Describe(std::cout);
    for (const auto& [label, job] : m_runs)
    {
        m_runner->Add(label, job);
    }
    std::vector<RunRecord> runs;
    try
    {
        runs = m_runner->Run();
        Save(runs, std::cout);
    }
    catch (const std::exception& error)
    {
        std::cerr << m_name << ": " << error.what() << std::endl;
        return 1;
    }
    Report(runs, std::cout);
    if (m_check && !Check(runs))
    {
        return 1;
    }
    return 0;
}

std::vector<std::string>
SeedExperiment::SplitList(const std::string& text)
{
    std::vector<std::string> items;
    std::stringstream stream(text);
    for (std::string item; std::getline(stream, item, ',');)
    {
        items.push_back(item);
    }
    return items;
}

void
SeedExperiment::Save(const std::vector<RunRecord>& runs, std::ostream& os) const
{
    SaveRuns(runs, m_outputDir, m_database, os);
}

void
SeedExperiment::Report(const std::vector<RunRecord>& runs, std::ostream& os) const
{
    os << "\n";
    RunSummary::PrintComparison(runs, os);
}

void
SeedExperiment::AddRun(const std::string& label, ParallelRunner::Job job)
{
    m_runs.emplace_back(label, std::move(job));
}

uint32_t
SeedExperiment::GetJobs() const
{
    return m_runner ? m_runner->GetJobs() : m_jobs;
}

const std::string&
SeedExperiment::GetDatabase() const
{
    return m_database;
}

std::string
SeedExperiment::GetPcapPrefix(const std::string& label) const
{
    if (m_pcap.empty())
    {
        return "";
    }
    std::string clean = label;
    for (char& c : clean)
    {
        c = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '_';
    }
    return m_pcap + "-" + clean;
}

} // namespace debloat
} // namespace ns3
