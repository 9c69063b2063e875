/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for ParallelRunner: records come back whole and in order, and a failing
 * job is named.
 */

#include "ns3/parallel-runner.h"
#include "ns3/progress-log.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace
{

using namespace ns3::debloat;

/**
 * @param i an index
 * @return a run that says which job made it and in which process
 */
RunRecord
Made(int i)
{
    RunRecord run;
    run.test = "rrul_be";
    run.title = "job " + std::to_string(i);
    run.run = static_cast<uint64_t>(getpid());
    Series series{"TCP upload BE", "NetperfDemoRunner", "Mbits/s", {"val"}, {}, {}};
    series.samples.push_back({0.2, {static_cast<double>(i)}});
    run.series.push_back(series);
    run.metrics.push_back({"total", "upload_goodput", 10.0 * i, "Mbit/s"});
    return run;
}

TEST(ParallelRunnerTest, RecordsComeBackInOrderFromChildren)
{
    // Five jobs on two workers: three rounds of children, and the order of addition kept
    // whatever order they finish in (job 0 sleeps longest).
    ParallelRunner runner(2);
    for (int i = 0; i < 5; ++i)
    {
        runner.Add("job " + std::to_string(i), [i]() {
            usleep(static_cast<useconds_t>((5 - i) * 20000));
            return Made(i);
        });
    }
    const std::vector<RunRecord> runs = runner.Run();
    ASSERT_EQ(runs.size(), 5U);
    for (int i = 0; i < 5; ++i)
    {
        EXPECT_EQ(runs[i].title, "job " + std::to_string(i));
        ASSERT_EQ(runs[i].series.size(), 1U);
        EXPECT_DOUBLE_EQ(runs[i].series[0].samples[0].values[0], i);
        EXPECT_DOUBLE_EQ(runs[i].metrics[0].value, 10.0 * i);
        // Each ran in a child, not here.
        EXPECT_NE(runs[i].run, static_cast<uint64_t>(getpid()));
    }
}

TEST(ParallelRunnerTest, ProgressLinesCountStartsAndEnds)
{
    // Two jobs on one worker: job a starts and ends, then job b; a line each time, counted
    // out of 2, with the wall-clock time of each run.
    ParallelRunner runner(1);
    std::ostringstream progress;
    runner.SetProgress(&progress);
    runner.Add("a", []() { return Made(0); });
    runner.Add("b", []() { return Made(1); });
    runner.Run();
    std::istringstream lines(progress.str());
    std::vector<std::string> got;
    for (std::string line; std::getline(lines, line);)
    {
        got.push_back(line);
    }
    ASSERT_EQ(got.size(), 4U) << progress.str();
    EXPECT_EQ(got[0], "[1/2] a: running");
    EXPECT_EQ(got[1].rfind("[1/2] a: done in ", 0), 0U) << got[1];
    EXPECT_EQ(got[1].substr(got[1].size() - 2), " s");
    EXPECT_EQ(got[2], "[2/2] b: running");
    EXPECT_EQ(got[3].rfind("[2/2] b: done in ", 0), 0U) << got[3];
}

TEST(ProgressLogTest, EndsAreCountedInTheOrderTheyCome)
{
    // Runs 0 and 1 start; 1 ends first and is the first to end ([1/2]); a failure says how.
    std::ostringstream os;
    ProgressLog log(&os, 2);
    log.Start(0, "a");
    log.Start(1, "b");
    log.End(1, "b");
    log.End(0, "a", "exit status 1");
    std::istringstream lines(os.str());
    std::vector<std::string> got;
    for (std::string line; std::getline(lines, line);)
    {
        got.push_back(line);
    }
    ASSERT_EQ(got.size(), 4U) << os.str();
    EXPECT_EQ(got[0], "[1/2] a: running");
    EXPECT_EQ(got[1], "[2/2] b: running");
    EXPECT_EQ(got[2].rfind("[1/2] b: done in ", 0), 0U) << got[2];
    EXPECT_EQ(got[3].rfind("[2/2] a: failed: exit status 1 in ", 0), 0U) << got[3];
    // Without a stream nothing is printed, and nothing breaks.
    ProgressLog quiet(nullptr, 1);
    quiet.Start(0, "x");
    quiet.End(0, "x");
}

TEST(ParallelRunnerTest, FailingJobsAreNamed)
{
    ParallelRunner runner(2);
    runner.Add("good", []() { return Made(1); });
    runner.Add("throws", []() -> RunRecord { throw std::runtime_error("bad option"); });
    runner.Add("aborts", []() -> RunRecord { std::abort(); });
    try
    {
        runner.Run();
        FAIL() << "Run() returned";
    }
    catch (const std::runtime_error& error)
    {
        const std::string message = error.what();
        EXPECT_NE(message.find("throws (exit status 1)"), std::string::npos) << message;
        EXPECT_NE(message.find("aborts (signal 6"), std::string::npos) << message;
        EXPECT_EQ(message.find("good"), std::string::npos) << message;
    }
}

TEST(ParallelRunnerTest, ZeroJobsMeansOnePerProcessor)
{
    EXPECT_GE(ParallelRunner(0).GetJobs(), 1U);
    EXPECT_EQ(ParallelRunner(3).GetJobs(), 3U);
    EXPECT_TRUE(ParallelRunner(2).Run().empty());
}

} // namespace
