/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for netem's tc words (ParseNetemOptions(), ValidateNetemConfig(),
 * FormatNetemOptions()), with the values tc sends derived from q_netem.c: a percentage p
 * becomes set_percent(p / 100) = rint(p / 100 * 4294967295), a time word is get_time64()'s
 * nanoseconds (a bare number is ns), a rate is tc's bytes per second (bit/s / 8).
 */

#include "error-message.h"

#include "ns3/netem-config.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace
{

using debloattest::ErrorOf;
using namespace ns3::debloat;

/// @param text the words @return the configuration they give over netem's defaults
NetemConfig
Parse(const std::string& text)
{
    NetemConfig config;
    ParseNetemOptions(config, text);
    return config;
}

TEST(NetemConfigTest, DefaultsAreTcs)
{
    // netem_parse_opt(): opt.limit = 1000, everything else zero.
    const NetemConfig config = Parse("");
    EXPECT_EQ(config.limit, 1000U);
    EXPECT_EQ(config.latencyNs, 0U);
    EXPECT_EQ(config.loss, 0U);
    EXPECT_FALSE(config.SlotsOn());
    EXPECT_EQ(FormatNetemOptions(config), "limit 1000");
}

TEST(NetemConfigTest, ParsesTheFullExample)
{
    const NetemConfig c = Parse("delay 40ms 4ms 25% distribution normal loss random 1% 25% "
                                "duplicate 0.5% reorder 25% 50% gap 5 rate 100Mbit 20 limit 1000");
    EXPECT_EQ(c.latencyNs, 40000000U); // 40 ms
    EXPECT_EQ(c.jitterNs, 4000000U);   // 4 ms
    // 25%: 0.25 x 4294967295 = 1073741823.75, rint -> 1073741824.
    EXPECT_EQ(c.delayCorr, 1073741824U);
    EXPECT_EQ(c.distribution, NetemDistribution::NORMAL);
    EXPECT_EQ(c.lossModel, NetemLossModel::RANDOM);
    // 1%: 42949672.95 -> 42949673.
    EXPECT_EQ(c.loss, 42949673U);
    EXPECT_EQ(c.lossCorr, 1073741824U);
    // 0.5%: 21474836.475 -> 21474836.
    EXPECT_EQ(c.duplicate, 21474836U);
    EXPECT_EQ(c.reorder, 1073741824U);
    // 50%: 2147483647.5 -> 2147483648 (rint rounds the half to even).
    EXPECT_EQ(c.reorderCorr, 2147483648U);
    EXPECT_EQ(c.gap, 5U);
    // 100 Mbit/s = 12500000 bytes/s; the number after the rate is PACKETOVERHEAD.
    EXPECT_EQ(c.rate, 12500000U);
    EXPECT_EQ(c.packetOverhead, 20);
    EXPECT_EQ(c.cellSize, 0U);
    EXPECT_EQ(c.limit, 1000U);
    // netem_print_opt()'s order: delay (two spaces before the jitter), loss, duplicate,
    // reorder, rate, gap last.
    EXPECT_EQ(FormatNetemOptions(c),
              "limit 1000 delay 40ms  4ms 25% loss 1% 25% duplicate 0.5% reorder 25% 50% "
              "rate 100Mbit packetoverhead 20 gap 5");
}

TEST(NetemConfigTest, ParsesSlots)
{
    const NetemConfig c = Parse("slot 800us 1ms packets 32");
    EXPECT_EQ(c.slotMinNs, 800000U);
    EXPECT_EQ(c.slotMaxNs, 1000000U);
    EXPECT_EQ(c.slotPackets, 32U);
    EXPECT_EQ(c.slotBytes, 0U); // unlimited
    EXPECT_TRUE(c.SlotsOn());
    EXPECT_EQ(FormatNetemOptions(c), "limit 1000 slot 800us 1ms packets 32");
    // MIN alone: MAX = MIN; "bytes" takes a size (64kb = 65536).
    const NetemConfig d = Parse("slot 2ms bytes 64kb");
    EXPECT_EQ(d.slotMinNs, 2000000U);
    EXPECT_EQ(d.slotMaxNs, 2000000U);
    EXPECT_EQ(d.slotBytes, 65536U);
    const NetemConfig e = Parse("slot distribution pareto 1ms 200us packets 4");
    EXPECT_EQ(e.slotDistribution, NetemDistribution::PARETO);
    EXPECT_EQ(e.slotDelayNs, 1000000U);
    EXPECT_EQ(e.slotJitterNs, 200000U);
    EXPECT_EQ(e.slotPackets, 4U);
    EXPECT_TRUE(e.SlotsOn()); // get_slot(): the jitter alone turns slots on
}

TEST(NetemConfigTest, TimesAreNanosecondsWhenBare)
{
    // get_time64(): a bare number is ns; fractions stay to the ns.
    EXPECT_EQ(Parse("delay 100").latencyNs, 100U);
    EXPECT_EQ(Parse("delay 1.5us").latencyNs, 1500U);
    EXPECT_EQ(Parse("delay 2S").latencyNs, 2000000000U); // units without regard to case
    EXPECT_EQ(Parse("delay 250nsec").latencyNs, 250U);
    EXPECT_EQ(ParseNetemTime("1e3us"), 1000000U);
    EXPECT_FALSE(ParseNetemTime("-1ms"));
    EXPECT_FALSE(ParseNetemTime("1ps"));
    EXPECT_FALSE(ParseNetemTime("ms"));
}

TEST(NetemConfigTest, KeywordsMatchByPrefixInTcsOrder)
{
    // matches(): "d" is delay (latency comes first but "d" is not its prefix), "du"
    // duplicate, "di" distribution, "l" limit, "lo" loss, "r" reorder (before rate), "s" seed.
    const NetemConfig c = Parse("d 10ms 1ms du 1% di pareto l 7 lo 2% r 5% s 42");
    EXPECT_EQ(c.latencyNs, 10000000U);
    EXPECT_EQ(c.duplicate, 42949673U);
    EXPECT_EQ(c.distribution, NetemDistribution::PARETO);
    EXPECT_EQ(c.limit, 7U);
    EXPECT_EQ(c.loss, NetemPercentToU32(2));
    EXPECT_EQ(c.reorder, NetemPercentToU32(5));
    EXPECT_EQ(c.gap, 1U); // reorder without gap: tc sends gap 1
    ASSERT_TRUE(c.seed.has_value());
    EXPECT_EQ(*c.seed, 42U);
    // "drop" is loss, "latency" is delay, and the old "loss PERCENT" is random loss.
    EXPECT_EQ(Parse("latency 5ms drop 3").loss, NetemPercentToU32(3));
}

TEST(NetemConfigTest, LossModelsTakeTcsDefaults)
{
    // loss state P13: p31 = 1 - p13, p32 = 0, p23 = 1, p14 = 0.
    const NetemConfig s = Parse("loss state 5%");
    EXPECT_EQ(s.lossModel, NetemLossModel::STATE);
    EXPECT_EQ(s.p13, NetemPercentToU32(5));
    EXPECT_EQ(s.p31, NetemPercentToU32(95));
    EXPECT_EQ(s.p32, 0U);
    EXPECT_EQ(s.p23, 4294967295U);
    EXPECT_EQ(s.p14, 0U);
    const NetemConfig s5 = Parse("loss state 5% 30% 10% 20% 2%");
    EXPECT_EQ(s5.p31, NetemPercentToU32(30));
    EXPECT_EQ(s5.p32, NetemPercentToU32(10));
    EXPECT_EQ(s5.p23, NetemPercentToU32(20));
    EXPECT_EQ(s5.p14, NetemPercentToU32(2));
    // loss gemodel P: r = 1 - p, h = 0 (1-H = 100%), 1-K = 0.
    const NetemConfig g = Parse("loss gemodel 1%");
    EXPECT_EQ(g.lossModel, NetemLossModel::GEMODEL);
    EXPECT_EQ(g.geP, NetemPercentToU32(1));
    EXPECT_EQ(g.geR, NetemPercentToU32(99));
    EXPECT_EQ(g.geH, 0U);
    EXPECT_EQ(g.geK1, 0U);
    // The third number is 1-H; the kernel keeps h = UINT32_MAX - (1-H).
    const NetemConfig g4 = Parse("loss gemodel 1% 10% 70% 0.1%");
    EXPECT_EQ(g4.geR, NetemPercentToU32(10));
    EXPECT_EQ(g4.geH, 4294967295U - NetemPercentToU32(70));
    EXPECT_EQ(g4.geK1, NetemPercentToU32(0.1));
    EXPECT_EQ(FormatNetemOptions(g4), "limit 1000 loss gemodel p 1% r 10% 1-h 70% 1-k 0.1%");
}

TEST(NetemConfigTest, RateTakesOverheadsAndCells)
{
    const NetemConfig c = Parse("rate 1Mbit -4 48 5");
    EXPECT_EQ(c.rate, 125000U);
    EXPECT_EQ(c.packetOverhead, -4);
    EXPECT_EQ(c.cellSize, 48U);
    EXPECT_EQ(c.cellOverhead, 5);
    EXPECT_EQ(FormatNetemOptions(c),
              "limit 1000 rate 1Mbit packetoverhead -4 cellsize 48 celloverhead 5");
    // get_s32(x, 0): C prefixes after the sign ("0x10" is 16).
    EXPECT_EQ(Parse("rate 1Mbit 0x10").packetOverhead, 16);
}

TEST(NetemConfigTest, GroupsKeepWhatTheyDoNotName)
{
    NetemConfig config = Parse("delay 10ms 2ms 10% loss 1%");
    ParseNetemOptions(config, "delay 20ms");
    // The delay group is replaced whole (no jitter given: jitter 0, no correlation); the
    // loss group was not named and stays.
    EXPECT_EQ(config.latencyNs, 20000000U);
    EXPECT_EQ(config.jitterNs, 0U);
    EXPECT_EQ(config.delayCorr, 0U);
    EXPECT_EQ(config.loss, 42949673U);
}

TEST(NetemConfigTest, FormatReadsBack)
{
    // netem_print_opt() prints the loss models and the rate's overheads with labels tc
    // cannot read back ("loss state p13 5%", "packetoverhead 4"); the rest reads back.
    const NetemConfig a = Parse("limit 50 delay 5ms 1ms 10% loss 3% 20% ecn duplicate 2% 5% "
                                "reorder 10% 20% gap 3 corrupt 0.1% 1% slot 1ms 2ms packets 3 "
                                "bytes 3000 seed 7");
    NetemConfig b;
    ParseNetemOptions(b, FormatNetemOptions(a));
    EXPECT_EQ(FormatNetemOptions(b), FormatNetemOptions(a));
    EXPECT_EQ(b.delayCorr, a.delayCorr);
    EXPECT_EQ(b.lossCorr, a.lossCorr);
    EXPECT_EQ(b.corruptCorr, a.corruptCorr);
    EXPECT_EQ(b.slotBytes, 3000U);
    EXPECT_EQ(b.seed, a.seed);
    EXPECT_TRUE(b.ecn);
}

TEST(NetemConfigTest, RejectsBadWordsNamingThem)
{
    struct Case
    {
        const char* text;                   ///< the words
        std::vector<const char*> fragments; ///< what the message must say
    };

    const std::vector<Case> cases{
        {"bogus", {"unknown word \"bogus\"", "limit, latency, delay"}},
        {"delay", {"\"delay\" needs a value", "a bare number is ns"}},
        {"delay x", {"delay \"x\"", "a time from 0"}},
        {"delay 10ms -1ms", {"unknown word \"-1ms\""}}, // not a number: not the jitter
        {"delay 10ms 1ms 101%", {"delay correlation \"101%\"", "0 to 100"}},
        {"loss 2x", {"loss \"2x\"", "percentage"}},
        {"loss random", {"\"loss random\" needs a value"}},
        {"loss sometimes", {"loss \"sometimes\" is unknown", "random PERCENT", "gemodel"}},
        {"loss 1% loss 2%", {"given twice"}},
        {"loss state 5% 101%", {"loss state p31 \"101%\""}},
        {"loss state 60% 50% 60%", {"p31 + p32", "at most 100%"}},
        {"loss gemodel 1% 1x", {"loss gemodel r \"1x\""}},
        {"reorder 10%", {"reorder needs a delay"}},
        {"delay 1ms gap 5", {"gap 5 specified without reorder", "reorder PERCENT"}},
        {"ecn", {"ecn requested without loss model"}},
        {"delay 10ms distribution normal", {"distribution normal", "latency and jitter"}},
        {"delay 10ms 1ms distribution experimental",
         {"distribution \"experimental\"", "uniform, normal, pareto"}},
        {"delay 10ms 3s", {"jitter 3s is too large", "2147483647ns"}},
        {"rate", {"\"rate\" needs a value"}},
        {"rate fast", {"rate \"fast\"", "a rate"}},
        {"rate 7bit", {"rate \"7bit\"", "8.."}},
        {"rate 10%", {"rate \"10%\""}},
        {"rate 1Mbit 99999999999", {"packetoverhead \"99999999999\""}},
        {"slot", {"\"slot\" needs a value", "MIN_DELAY"}},
        {"slot 2ms 1ms", {"max_delay 1ms is below min_delay 2ms"}},
        {"slot often", {"slot \"often\" is unknown"}},
        {"slot distribution uniform 1ms 1ms", {"slot distribution \"uniform\"", "MIN_DELAY"}},
        {"slot distribution normal 1ms 0", {"Non-positive jitter"}},
        {"slot 1ms packets -1", {"packets \"-1\"", "0..2147483647"}},
        {"slot 1ms bytes 3gb", {"bytes \"3gb\""}},
        {"limit -1", {"limit \"-1\"", "0..4294967295"}},
        {"limit 1000p", {"limit \"1000p\""}},
        {"gap x", {"gap \"x\""}},
        {"seed 0", {"seed \"0\"", "1..18446744073709551615"}},
        {"duplicate", {"\"duplicate\" needs a value"}},
        {"corrupt 1% x", {"unknown word \"x\""}},
    };
    for (const Case& c : cases)
    {
        NetemConfig config = Parse("limit 77");
        const std::string message = ErrorOf([&config, &c] { ParseNetemOptions(config, c.text); });
        ASSERT_FALSE(message.empty()) << c.text << " was accepted";
        EXPECT_EQ(message.rfind("tc netem: ", 0), 0U) << message;
        for (const char* fragment : c.fragments)
        {
            EXPECT_NE(message.find(fragment), std::string::npos)
                << c.text << ": \"" << message << "\" lacks \"" << fragment << "\"";
        }
        EXPECT_EQ(config.limit, 77U) << c.text << ": a refused line changes nothing";
    }
}

TEST(NetemConfigTest, PercentagesAreTcsU32)
{
    EXPECT_EQ(NetemPercentToU32(0), 0U);
    EXPECT_EQ(NetemPercentToU32(100), 4294967295U);
    EXPECT_NEAR(NetemU32ToPercent(42949673), 1.0, 1e-7);
    // tc prints "%g%%": 100 x 42949673 / 4294967295 = 1.0000000007 prints "1%".
    EXPECT_EQ(FormatNetemOptions(Parse("loss 1%")), "limit 1000 loss 1%");
    EXPECT_EQ(FormatNetemTime(1500000000), "1.5s");
    EXPECT_EQ(FormatNetemTime(800000), "800us");
    EXPECT_EQ(FormatNetemTime(999), "999ns");
}

} // namespace
