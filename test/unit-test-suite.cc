/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * The GoogleTest cases of the plain C++ cores (test/unit/), run by ns-3's test runner in an
 * in-tree build: `./test.py -s debloat-unit-tests`. The in-tree builds (CMake and waf) link
 * them into the module's test library when GoogleTest is installed; the standalone build runs
 * the same cases through CTest (unit.*) instead, so it does not compile this file.
 * GoogleTest's own options work through the environment, e.g. GTEST_FILTER='DqlTest.*'.
 */

#include "ns3/debloat-compat.h"
#include "ns3/test.h"

#include <gtest/gtest.h>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-tests
 * @brief Runs every linked GoogleTest case once (RUN_ALL_TESTS may run only once per
 * process) and fails with GoogleTest's count of failed tests, printed above it.
 */
class GoogleTestCase : public TestCase
{
  public:
    GoogleTestCase()
        : TestCase("The GoogleTest cases of the plain C++ cores")
    {
    }

  private:
    void DoRun() override
    {
        int argc = 1;
        char name[] = "debloat-unit-tests";
        char* argv[] = {name, nullptr};
        ::testing::InitGoogleTest(&argc, argv);
        const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
        const int status = RUN_ALL_TESTS();
        // None linked would pass vacuously: the test library must hold the cases.
        NS_TEST_EXPECT_MSG_GT(unit.test_to_run_count(), 0, "GoogleTest cases to run");
        NS_TEST_EXPECT_MSG_EQ(unit.failed_test_count(), 0, "failed GoogleTest cases");
        NS_TEST_EXPECT_MSG_EQ(status, 0, "RUN_ALL_TESTS()");
    }
};

/**
 * @ingroup debloat-tests
 * @brief The debloat-unit-tests suite.
 */
class GoogleTestSuite : public TestSuite
{
  public:
    GoogleTestSuite()
        : TestSuite("debloat-unit-tests", compat::SUITE_UNIT)
    {
        AddTestCase(new GoogleTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's instance.
static GoogleTestSuite g_googleTestSuite;

} // namespace debloat
} // namespace ns3
