/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for FlentArguments: flent 2.1.1's spellings (flent --help) become the
 * `--name=value` options ns-3's CommandLine reads.
 */

#include "ns3/flent-arguments.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{

using ns3::debloat::FlentArguments;
using Args = std::vector<std::string>;

TEST(FlentArgumentsTest, ShortAndLongSpellingsWithSeparateOrAttachedValues)
{
    // argparse accepts "-l 60", "-l60", "--length 60" and "--length=60" alike.
    EXPECT_EQ(FlentArguments::Normalise({"flent-run", "-l", "60", "-s0.5", "--delay", "2"}),
              (Args{"flent-run", "--length=60", "--step=0.5", "--delay=2"}));
    EXPECT_EQ(FlentArguments::Normalise(
                  {"p", "--step-size=0.1", "-t", "cake 50Mbit", "--note", "a b", "-D", "/tmp/d"}),
              (Args{"p", "--step=0.1", "--title=cake 50Mbit", "--note=a b", "--dataDir=/tmp/d"}));
    EXPECT_EQ(FlentArguments::Normalise({"p",
                                         "--title-extra",
                                         "x",
                                         "-o",
                                         "f.flent.gz",
                                         "-p",
                                         "all_scaled,ping_cdf",
                                         "--batch-repetitions",
                                         "3"}),
              (Args{"p",
                    "--title=x",
                    "--output=f.flent.gz",
                    "--plot=all_scaled,ping_cdf",
                    "--repetitions=3"}));
}

TEST(FlentArgumentsTest, BareWordsAreTheTestThenHosts)
{
    // flent's positional arguments: the test name, then hosts (an unknown word is a host).
    EXPECT_EQ(FlentArguments::Normalise({"p", "rtt_fair_var", "a", "-H", "b", "c"}),
              (Args{"p", "--test=rtt_fair_var", "--host=a,b,c"}));
}

TEST(FlentArgumentsTest, RepeatedOptionsAreJoinedAndOthersKept)
{
    // -H and --test-parameter may be repeated: hosts join with ',', parameters with ';' (the
    // separator flent reads inside one --test-parameter); the program's own options and
    // ns-3's stay as they are; --socket-stats is a flag.
    EXPECT_EQ(FlentArguments::Normalise({"p",
                                         "--test-parameter",
                                         "upload_streams=4",
                                         "--qdisc=cake bandwidth 50Mbit",
                                         "--test-parameter=markings=EF,CS1",
                                         "--socket-stats",
                                         "--RngRun=3"}),
              (Args{"p",
                    "--qdisc=cake bandwidth 50Mbit",
                    "--socketStats=true",
                    "--RngRun=3",
                    "--testParameter=upload_streams=4;markings=EF,CS1"}));
}

TEST(FlentArgumentsTest, AMissingValueNamesTheOption)
{
    try
    {
        FlentArguments::Normalise({"p", "rrul", "-l"});
        ADD_FAILURE() << "no exception";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_EQ(std::string(e.what()), "option -l (length) needs a value: -l VALUE");
    }
    EXPECT_THROW(FlentArguments::Normalise({"p", "--test-parameter"}), std::invalid_argument);
    // argparse does not take an option as a value, but does take a negative number.
    EXPECT_THROW(FlentArguments::Normalise({"p", "-l", "--db=none"}), std::invalid_argument);
    EXPECT_EQ(FlentArguments::Normalise({"p", "-d", "-1"}), (Args{"p", "--delay=-1"}));
}

} // namespace
