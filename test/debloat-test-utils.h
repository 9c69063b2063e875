/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DEBLOAT_TEST_UTILS_H
#define DEBLOAT_TEST_UTILS_H

#include <functional>
#include <string>

/**
 * @defgroup debloat-tests debloat module tests
 * @ingroup debloat
 * @ingroup tests
 */

namespace debloattest
{

/**
 * @ingroup debloat-tests
 * @brief What a body run in a child process did.
 */
struct ChildOutcome
{
    bool stopped{false}; ///< the child died of a signal or exited non-zero
    std::string output;  ///< what it wrote to stdout and stderr
};

/**
 * @ingroup debloat-tests
 * Runs body in a forked child process, so that a test can check that a bad configuration
 * stops the simulation with a message (NS_ABORT_MSG) without stopping the test runner.
 * @param body the code expected to stop
 * @return whether it stopped and what it printed
 */
ChildOutcome RunInChild(const std::function<void()>& body);

} // namespace debloattest

#endif /* DEBLOAT_TEST_UTILS_H */
