/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * The test runner of the standalone build: ns-3's TestRunner over the suites that the
 * debloat test library registers when it loads (it is linked with --no-as-needed).
 */

#include "ns3/test.h"

int
main(int argc, char* argv[])
{
    return ns3::TestRunner::Run(argc, argv);
}
