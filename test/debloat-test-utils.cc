/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "debloat-test-utils.h"

#include <array>
#include <cstdio>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

namespace debloattest
{

ChildOutcome
RunInChild(const std::function<void()>& body)
{
    ChildOutcome outcome;
    std::array<int, 2> fds{};
    if (pipe(fds.data()) != 0)
    {
        outcome.output = "pipe() failed";
        return outcome;
    }
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0)
    {
        outcome.output = "fork() failed";
        return outcome;
    }
    if (pid == 0)
    {
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        body();
        std::cout.flush();
        std::cerr.flush();
        _exit(0);
    }
    close(fds[1]);
    std::array<char, 4096> buffer{};
    ssize_t n;
    while ((n = read(fds[0], buffer.data(), buffer.size())) > 0)
    {
        outcome.output.append(buffer.data(), static_cast<std::size_t>(n));
    }
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    outcome.stopped = WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
    return outcome;
}

} // namespace debloattest
