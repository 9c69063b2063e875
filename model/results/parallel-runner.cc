/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "parallel-runner.h"

#include "flent-writer.h"
#include "progress-log.h"
#include "results-database.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iomanip>
#include <iostream>
#include <map>
#include <stdexcept>
#include <sys/types.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ns3
{
namespace debloat
{

namespace
{

/**
 * @param status a waitpid() status
 * @return how the child ended, in words
 */
std::string
Ending(int status)
{
    if (WIFEXITED(status))
    {
        return "exit status " + std::to_string(WEXITSTATUS(status));
    }
    if (WIFSIGNALED(status))
    {
        return std::string("signal ") + std::to_string(WTERMSIG(status)) + " (" +
               strsignal(WTERMSIG(status)) + ")";
    }
    return "status " + std::to_string(status);
}

} // namespace

ParallelRunner::ParallelRunner(uint32_t jobs, std::string scratch)
    : m_parallel(jobs),
      m_scratch(std::move(scratch))
{
    if (m_parallel == 0)
    {
        m_parallel = std::max(1U, std::thread::hardware_concurrency());
    }
    if (m_scratch.empty())
    {
        const char* tmp = std::getenv("TMPDIR");
        m_scratch = tmp && *tmp ? tmp : "/tmp";
    }
}

void
ParallelRunner::Add(const std::string& label, Job job)
{
    m_jobs.emplace_back(label, std::move(job));
}

void
ParallelRunner::SetProgress(std::ostream* os)
{
    m_progress = os;
}

uint32_t
ParallelRunner::GetJobs() const
{
    return m_parallel;
}

std::vector<RunRecord>
ParallelRunner::Run()
{
    // Each child's file: unique to this process and job, removed once read.
    std::vector<std::string> files;
    for (size_t i = 0; i < m_jobs.size(); ++i)
    {
        files.push_back(m_scratch + "/debloat-run-" + std::to_string(getpid()) + "-" +
                        std::to_string(i) + ".sqlite");
        std::remove(files.back().c_str());
    }
    std::cout.flush();
    std::cerr.flush();
    std::map<pid_t, size_t> running;
    std::vector<std::string> failures;
    ProgressLog progress(m_progress, m_jobs.size());
    size_t next = 0;
    while (next < m_jobs.size() || !running.empty())
    {
        if (next < m_jobs.size() && running.size() < m_parallel)
        {
            const pid_t pid = fork();
            if (pid < 0)
            {
                throw std::runtime_error(std::string("ParallelRunner: fork: ") +
                                         std::strerror(errno));
            }
            if (pid == 0)
            {
                int code = 0;
                try
                {
                    ResultsDatabase(files[next]).Write(m_jobs[next].second());
                }
                catch (const std::exception& error)
                {
                    std::cerr << m_jobs[next].first << ": " << error.what() << std::endl;
                    code = 1;
                }
                std::cout.flush();
                std::cerr.flush();
                // _exit: the parent's atexit handlers and static destructors are not ours to run.
                _exit(code);
            }
            progress.Start(next, m_jobs[next].first);
            running[pid] = next++;
            continue;
        }
        int status = 0;
        const pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0)
        {
            throw std::runtime_error(std::string("ParallelRunner: waitpid: ") +
                                     std::strerror(errno));
        }
        const auto child = running.find(pid);
        if (child == running.end())
        {
            continue; // not one of ours
        }
        const bool failed = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
        if (failed)
        {
            failures.push_back(m_jobs[child->second].first + " (" + Ending(status) + ")");
        }
        progress.End(child->second, m_jobs[child->second].first, failed ? Ending(status) : "");
        running.erase(child);
    }
    std::vector<RunRecord> records;
    for (size_t i = 0; i < m_jobs.size() && failures.empty(); ++i)
    {
        const ResultsDatabase database(files[i]);
        const std::vector<int64_t> ids = database.RunIds();
        if (ids.size() != 1)
        {
            failures.push_back(m_jobs[i].first + " (stored " + std::to_string(ids.size()) +
                               " runs)");
            break;
        }
        records.push_back(database.Read(ids.front()));
    }
    for (const std::string& file : files)
    {
        std::remove(file.c_str());
    }
    if (!failures.empty())
    {
        std::string list;
        for (const std::string& failure : failures)
        {
            list += (list.empty() ? "" : ", ") + failure;
        }
        throw std::runtime_error("ParallelRunner: failed: " + list);
    }
    return records;
}

void
SaveRuns(const std::vector<RunRecord>& runs,
         const std::string& outputDir,
         const std::string& db,
         std::ostream& log)
{
    for (const RunRecord& run : runs)
    {
        if (run.title.find('/') != std::string::npos)
        {
            throw std::runtime_error("SaveRuns: title \"" + run.title +
                                     "\" holds a '/' and cannot name a file");
        }
        const std::string file = outputDir + "/" + run.test + "-" + run.title + ".flent.gz";
        FlentWriter::Write(run, file);
        log << "flent data file: " << file << "\n";
    }
    if (db != "none")
    {
        ResultsDatabase database(db);
        for (const RunRecord& run : runs)
        {
            database.Write(run);
        }
        log << "results database: " << db << " (" << runs.size() << " runs)\n";
    }
}

} // namespace debloat
} // namespace ns3
