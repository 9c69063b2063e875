/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * CommandLineOptions: the values its checked options read, in ns-3's and tc's units, and the
 * values they refuse (the refusals' messages are checked by test/bad-input.py).
 */

#include "ns3/command-line-options.h"
#include "ns3/core-module.h"
#include "ns3/data-rate.h"
#include "ns3/debloat-compat.h"

using namespace ns3;
using namespace ns3::debloat;

namespace
{

/**
 * @ingroup debloat-tests
 * Rates, times and whole numbers as the options read them.
 */
class CommandLineOptionsParseTestCase : public TestCase
{
  public:
    CommandLineOptionsParseTestCase()
        : TestCase("rates in ns-3's and tc's units, times, whole numbers and their refusals")
    {
    }

  private:
    void DoRun() override
    {
        using O = CommandLineOptions;
        // ns-3's DataRate units: Mbps is megabits, MBps megabytes (x 8), KiB/s 1024 bytes.
        NS_TEST_EXPECT_MSG_EQ(O::ParseRate("100Mbps").value_or(0), 100000000, "ns-3 Mbps");
        NS_TEST_EXPECT_MSG_EQ(O::ParseRate("1.5Gbps").value_or(0), 1500000000, "fraction");
        NS_TEST_EXPECT_MSG_EQ(O::ParseRate("12MBps").value_or(0), 96000000, "12 x 8 Mbit/s");
        NS_TEST_EXPECT_MSG_EQ(O::ParseRate("1KiB/s").value_or(0), 8192, "1024 x 8");
        NS_TEST_EXPECT_MSG_EQ(O::ParseRate("64000").value_or(0), 64000, "bare number: bit/s");
        // tc's bit units, without regard to case: 100Mbit = 10^8; 512kibit = 512 x 1024.
        NS_TEST_EXPECT_MSG_EQ(O::ParseRate("100Mbit").value_or(0), 100000000, "tc Mbit");
        NS_TEST_EXPECT_MSG_EQ(O::ParseRate("1gbit").value_or(0), 1000000000, "tc gbit");
        NS_TEST_EXPECT_MSG_EQ(O::ParseRate("512kibit").value_or(0), 524288, "tc kibit");
        // tc hands whole bytes/s to the kernel: 1001 bit/s is 125 bytes/s = 1000 bit/s.
        NS_TEST_EXPECT_MSG_EQ(O::ParseRate("1001bit").value_or(0), 1000, "tc truncation");
        // Refused: tc's byte units (12mbps is 96 Mbit/s in tc, 12 Mbit/s in ns-3), zero,
        // a sign, unknown units.
        NS_TEST_EXPECT_MSG_EQ(O::ParseRate("12mbps").has_value(), false, "tc bytes");
        NS_TEST_EXPECT_MSG_EQ(O::ParseRate("0Mbps").has_value(), false, "zero");
        NS_TEST_EXPECT_MSG_EQ(O::ParseRate("-1Mbps").has_value(), false, "sign");
        NS_TEST_EXPECT_MSG_EQ(O::ParseRate("100Mbyte").has_value(), false, "unit");
        NS_TEST_EXPECT_MSG_EQ(O::ParseRate("").has_value(), false, "empty");

        NS_TEST_EXPECT_MSG_EQ_TOL(O::ParseTime("1ms").value_or(-1), 0.001, 1e-15, "1 ms");
        NS_TEST_EXPECT_MSG_EQ_TOL(O::ParseTime("2min").value_or(-1), 120, 1e-12, "2 min");
        NS_TEST_EXPECT_MSG_EQ_TOL(O::ParseTime("0.5").value_or(-1), 0.5, 1e-15, "bare: s");
        NS_TEST_EXPECT_MSG_EQ(O::ParseTime("-1ms").has_value(), false, "negative");
        NS_TEST_EXPECT_MSG_EQ(O::ParseTime("1 parsec").has_value(), false, "unit");

        // Whole numbers: digits only, so -1 is refused rather than read as 4294967295.
        NS_TEST_EXPECT_MSG_EQ(O::ParseUnsigned("4294967295", 0, UINT32_MAX).value_or(0),
                              UINT32_MAX,
                              "largest");
        NS_TEST_EXPECT_MSG_EQ(O::ParseUnsigned("4294967296", 0, UINT32_MAX).has_value(),
                              false,
                              "2^32");
        NS_TEST_EXPECT_MSG_EQ(O::ParseUnsigned("-1", 0, UINT32_MAX).has_value(), false, "-1");
        NS_TEST_EXPECT_MSG_EQ(O::ParseUnsigned("8", 1, 8).value_or(0), 8, "max");
        NS_TEST_EXPECT_MSG_EQ(O::ParseUnsigned("9", 1, 8).has_value(), false, "max + 1");
        NS_TEST_EXPECT_MSG_EQ(O::ParseUnsigned("0", 1, 8).has_value(), false, "min - 1");
        NS_TEST_EXPECT_MSG_EQ(O::ParseUnsigned("1e3", 1, 8000).has_value(), false, "not digits");
    }
};

/**
 * @ingroup debloat-tests
 * The options store what they read: tc's rate spelling becomes ns-3's bit/s.
 */
class CommandLineOptionsStoreTestCase : public TestCase
{
  public:
    CommandLineOptionsStoreTestCase()
        : TestCase("options store the parsed values")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t ring = 64;
        double length = 20;
        std::vector<uint32_t> flows{1};
        std::string rate = "100Mbps";
        std::string delay = "1ms";
        CommandLine cmd;
        CommandLineOptions::AddUnsigned(cmd, "ring", "", ring, 1, 4096);
        CommandLineOptions::AddDouble(cmd, "length", "", length, 1, 60);
        CommandLineOptions::AddUnsignedList(cmd, "flows", "", flows, 1, 1024);
        CommandLineOptions::AddRate(cmd, "rate", "", rate);
        CommandLineOptions::AddTime(cmd, "delay", "", delay, 10);
        const char* argv[] =
            {"test", "--ring=256", "--length=7.5", "--flows=4,64", "--rate=50Mbit", "--delay=20us"};
        cmd.Parse(6, const_cast<char**>(argv));
        NS_TEST_EXPECT_MSG_EQ(ring, 256, "ring");
        NS_TEST_EXPECT_MSG_EQ(length, 7.5, "length");
        NS_TEST_EXPECT_MSG_EQ(flows.size(), 2, "two flow counts");
        NS_TEST_EXPECT_MSG_EQ(flows.back(), 64, "second flow count");
        // 50Mbit in tc is 5 x 10^7 bit/s, which ns-3 reads back from "50000000bps".
        NS_TEST_EXPECT_MSG_EQ(rate, "50000000bps", "tc rate as bit/s");
        NS_TEST_EXPECT_MSG_EQ(DataRate(rate).GetBitRate(), 50000000, "ns-3 reads it");
        NS_TEST_EXPECT_MSG_EQ(delay, "20us", "time as given");
    }
};

/// The suite.
class CommandLineOptionsTestSuite : public TestSuite
{
  public:
    CommandLineOptionsTestSuite()
        : TestSuite("debloat-command-line-options", compat::SUITE_UNIT)
    {
        AddTestCase(new CommandLineOptionsParseTestCase(), compat::TEST_QUICK);
        AddTestCase(new CommandLineOptionsStoreTestCase(), compat::TEST_QUICK);
    }
};

/// The suite's single instance.
CommandLineOptionsTestSuite g_commandLineOptionsTestSuite;

} // namespace
