/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * GoogleTest cases for the tc option parser. Expected values are derived in comments from
 * iproute2's rules: get_rate64() multiplies by the unit, divides by 8 and truncates to whole
 * bytes per second; get_size64() multiplies by 1024^n (1024^n / 8 for the *bit units) and
 * truncates; get_time() counts microseconds (a bare number is us) and truncates.
 */

#include "error-message.h"

#include "ns3/sfq-scheduler.h"
#include "ns3/tc-options.h"

#include <gtest/gtest.h>
#include <stdexcept>

namespace
{

using ns3::debloat::FormatTcRate;
using ns3::debloat::FormatTcSize;
using ns3::debloat::FormatTcTime;
using ns3::debloat::ParseHexDigits;
using ns3::debloat::ParseTcRate;
using ns3::debloat::ParseTcSize;
using ns3::debloat::ParseTcTime;
using ns3::debloat::TcGrammar;
using ns3::debloat::TcKeyword;
using ns3::debloat::TcOptions;
using ns3::debloat::TcRepeat;

/// @return SFQ's grammar, as SfqQueueDisc parses its options
const TcGrammar&
SfqGrammar()
{
    return ns3::debloat::SfqParameters::Grammar();
}

/// @return a part of CAKE's keywords, grouped as q_cake.c's variables are
TcGrammar
CakeGrammar()
{
    std::vector<TcKeyword> keywords{TcKeyword::Rate("bandwidth").InGroup("shaper"),
                                    TcKeyword::Flag("unlimited").InGroup("shaper"),
                                    TcKeyword::Flag("autorate-ingress"),
                                    TcKeyword::Time("rtt")};
    for (const char* preset : {"datacentre", "lan", "metro", "regional", "internet"})
    {
        keywords.push_back(TcKeyword::Flag(preset).InGroup("preset").Repeat(TcRepeat::ONCE));
    }
    keywords.push_back(TcKeyword::Flag("besteffort").InGroup("diffserv"));
    keywords.push_back(TcKeyword::Flag("diffserv4").Alias("diffserv").InGroup("diffserv"));
    keywords.push_back(TcKeyword::Flag("diffserv3").InGroup("diffserv"));
    keywords.push_back(TcKeyword::Flag("flows").InGroup("isolation"));
    keywords.push_back(TcKeyword::Flag("dual-srchost").InGroup("isolation"));
    keywords.push_back(TcKeyword::Flag("triple-isolate").InGroup("isolation"));
    keywords.push_back(TcKeyword::Flag("ack-filter").InGroup("ack"));
    keywords.push_back(TcKeyword::Flag("no-ack-filter").InGroup("ack"));
    keywords.push_back(TcKeyword::Signed("overhead", -64, 256));
    keywords.push_back(TcKeyword::Signed("mpu", 0, 256));
    keywords.push_back(TcKeyword::Flag("ether-vlan").Repeat(TcRepeat::ACCUMULATE));
    keywords.push_back(TcKeyword::Size("memlimit"));
    keywords.push_back(TcKeyword::Unsigned("fwmark", 0, UINT32_MAX));
    return TcGrammar("cake", keywords);
}

/// @return HTB's qdisc and class keywords as q_htb.c matches them
TcGrammar
HtbGrammar()
{
    return TcGrammar("htb",
                     {TcKeyword::Unsigned("r2q", 0, UINT32_MAX, 10).Abbreviable(),
                      TcKeyword::Unsigned("default", 0, UINT32_MAX, 16).Abbreviable(),
                      TcKeyword::Unsigned("direct_qlen", 0, UINT32_MAX, 10).Abbreviable(),
                      TcKeyword::Unsigned("prio", 0, 7, 10).Abbreviable(),
                      TcKeyword::Word("linklayer", {"ethernet", "atm", "adsl"}).Abbreviable(),
                      TcKeyword::Size("burst").Alias("buffer").Alias("maxburst").Abbreviable(),
                      TcKeyword::Rate("ceil").Repeat(TcRepeat::ONCE),
                      TcKeyword::Rate("rate").Repeat(TcRepeat::ONCE)});
}

/**
 * @param grammar the grammar
 * @param text the command line
 * @return the message of the std::invalid_argument that Parse() throws, or "" if none
 */
std::string
ParseError(const TcGrammar& grammar, const std::string& text)
{
    return debloattest::ErrorOf([&] { grammar.Parse(text); });
}

TEST(TcOptionsTest, RateUnits)
{
    // SI bit units: 50 * 10^6 bit = 6250000 bytes/s exactly, so 50e6 bit/s.
    EXPECT_EQ(ParseTcRate("50Mbit"), 50000000U);
    EXPECT_EQ(ParseTcRate("50mbit"), 50000000U); // strcasecmp
    EXPECT_EQ(ParseTcRate("50MBIT"), 50000000U);
    EXPECT_EQ(ParseTcRate("8bit"), 8U);
    EXPECT_EQ(ParseTcRate("1kbit"), 1000U);
    EXPECT_EQ(ParseTcRate("1gbit"), 1000000000U);
    EXPECT_EQ(ParseTcRate("1tbit"), 1000000000000U);
    // IEC bit units: 1024^n bits.
    EXPECT_EQ(ParseTcRate("1Kibit"), 1024U);
    EXPECT_EQ(ParseTcRate("1mibit"), 1048576U);
    EXPECT_EQ(ParseTcRate("1gibit"), 1073741824U);
    EXPECT_EQ(ParseTcRate("1tibit"), 1099511627776U);
    // "bps" units count bytes: 1 MBps = 8 * 10^6 bit/s.
    EXPECT_EQ(ParseTcRate("1bps"), 8U);
    EXPECT_EQ(ParseTcRate("1kbps"), 8000U);
    EXPECT_EQ(ParseTcRate("1Mbps"), 8000000U);
    EXPECT_EQ(ParseTcRate("1mbps"), 8000000U);
    EXPECT_EQ(ParseTcRate("1gbps"), 8000000000U);
    EXPECT_EQ(ParseTcRate("1tbps"), 8000000000000U);
    EXPECT_EQ(ParseTcRate("1KiBps"), 8192U);
    EXPECT_EQ(ParseTcRate("1mibps"), 8388608U);
    EXPECT_EQ(ParseTcRate("1gibps"), 8589934592U);
    EXPECT_EQ(ParseTcRate("1tibps"), 8796093022208U);
    // A bare number is bit/s; tc truncates to whole bytes/s: 100 bit = 12.5 B -> 12 B = 96 bit.
    EXPECT_EQ(ParseTcRate("100"), 96U);
    EXPECT_EQ(ParseTcRate("7bit"), 0U);
    // 1.5 kbit = 1500 bit = 187.5 B -> 187 B = 1496 bit/s.
    EXPECT_EQ(ParseTcRate("1.5kbit"), 1496U);
    EXPECT_EQ(ParseTcRate("1e3kbit"), 1000000U);
    EXPECT_EQ(ParseTcRate(".5mbit"), 500000U);
}

TEST(TcOptionsTest, RateErrors)
{
    for (const char* bad : {"",
                            "Mbit",
                            "50Mbitx",
                            "50 Mbit",
                            "-5Mbit",
                            "+5Mbit",
                            "0x10",
                            "10%",
                            "inf",
                            "nan",
                            "1e",
                            "50Mb"})
    {
        EXPECT_FALSE(ParseTcRate(bad)) << bad;
    }
    // 3e18 bit = 3.75e17 B fits; 2e19 bit = 2.5e18 B is over 2^61 B and refused.
    EXPECT_EQ(ParseTcRate("3000000tbit"), 3000000000000000000U);
    EXPECT_FALSE(ParseTcRate("20000000tbit"));
}

TEST(TcOptionsTest, SizeUnits)
{
    EXPECT_EQ(ParseTcSize("1514"), 1514U);
    EXPECT_EQ(ParseTcSize("1514b"), 1514U);
    EXPECT_EQ(ParseTcSize("1514B"), 1514U);
    EXPECT_EQ(ParseTcSize("1k"), 1024U);
    EXPECT_EQ(ParseTcSize("1kb"), 1024U);
    EXPECT_EQ(ParseTcSize("1KB"), 1024U);
    EXPECT_EQ(ParseTcSize("1m"), 1048576U);
    EXPECT_EQ(ParseTcSize("1mb"), 1048576U);
    EXPECT_EQ(ParseTcSize("32mb"), 33554432U);
    EXPECT_EQ(ParseTcSize("1g"), 1073741824U);
    EXPECT_EQ(ParseTcSize("1gb"), 1073741824U);
    // The *bit size units are 1024^n bits: 1 kbit = 1024 / 8 = 128 bytes.
    EXPECT_EQ(ParseTcSize("1kbit"), 128U);
    EXPECT_EQ(ParseTcSize("1mbit"), 131072U);
    EXPECT_EQ(ParseTcSize("1gbit"), 134217728U);
    // Fractions: 1.5 * 1024 = 1536 exactly; 1.3 * 1024 = 1331.2 truncates to 1331.
    EXPECT_EQ(ParseTcSize("1.5kb"), 1536U);
    EXPECT_EQ(ParseTcSize("1.3kb"), 1331U);
    for (const char* bad : {"", "k", "1t", "1kib", "-1", "1 kb", "1bit"})
    {
        EXPECT_FALSE(ParseTcSize(bad)) << bad;
    }
    // 2^34 GiB = 2^64 bytes no longer fits.
    EXPECT_FALSE(ParseTcSize("17179869184g"));
}

TEST(TcOptionsTest, TimeUnits)
{
    // Results are ns; tc's resolution is 1 us.
    EXPECT_EQ(ParseTcTime("100ms"), 100000000U);
    EXPECT_EQ(ParseTcTime("1s"), 1000000000U);
    EXPECT_EQ(ParseTcTime("1sec"), 1000000000U);
    EXPECT_EQ(ParseTcTime("1secs"), 1000000000U);
    EXPECT_EQ(ParseTcTime("1msec"), 1000000U);
    EXPECT_EQ(ParseTcTime("1msecs"), 1000000U);
    EXPECT_EQ(ParseTcTime("1MS"), 1000000U);
    EXPECT_EQ(ParseTcTime("1us"), 1000U);
    EXPECT_EQ(ParseTcTime("1usec"), 1000U);
    EXPECT_EQ(ParseTcTime("1usecs"), 1000U);
    // A bare number is microseconds (TIME_UNITS_PER_SEC = 1000000): 5000 = 5 ms.
    EXPECT_EQ(ParseTcTime("5000"), 5000000U);
    // Truncation to whole us: 1.5 us -> 1 us; 0.5 ms = 500 us.
    EXPECT_EQ(ParseTcTime("1.5us"), 1000U);
    EXPECT_EQ(ParseTcTime("0.5ms"), 500000U);
    // 32-bit microseconds: 4294967295 us is the longest.
    EXPECT_EQ(ParseTcTime("4294967295us"), 4294967295000U);
    EXPECT_FALSE(ParseTcTime("4294967296us"));
    for (const char* bad : {"", "ms", "1ns", "1m", "1 ms", "-1ms"})
    {
        EXPECT_FALSE(ParseTcTime(bad)) << bad;
    }
}

TEST(TcOptionsTest, HexDigits)
{
    // Digits only, as tc's handles, ethtool's key bytes and sysfs's masks are written.
    EXPECT_EQ(ParseHexDigits("ff", 2), std::optional<uint64_t>(255));
    EXPECT_EQ(ParseHexDigits("FfFf", 4), std::optional<uint64_t>(65535));
    EXPECT_EQ(ParseHexDigits("a", 4), std::optional<uint64_t>(10));
    EXPECT_EQ(ParseHexDigits("ffffffffffffffff", 16), std::optional<uint64_t>(UINT64_MAX));
    for (const char* bad : {"", "0x1", "12345", "g", "-1", " 5", "1 "})
    {
        EXPECT_EQ(ParseHexDigits(bad, 4), std::nullopt) << bad;
    }
    EXPECT_EQ(ParseHexDigits("10000000000000000", 17), std::nullopt); // 2^64: 17 digits
}

TEST(TcOptionsTest, Printers)
{
    // print_rate(): divide while >= 1000 and (exact or >= 1000 units).
    EXPECT_EQ(FormatTcRate(50000000), "50Mbit");
    EXPECT_EQ(FormatTcRate(96), "96bit");
    EXPECT_EQ(FormatTcRate(1500), "1500bit");
    EXPECT_EQ(FormatTcRate(1500000), "1500Kbit"); // 1500 is neither exact nor >= 1000 K
    EXPECT_EQ(FormatTcRate(1000000000), "1Gbit");
    EXPECT_EQ(FormatTcRate(1000000000000000), "1000Tbit");
    EXPECT_EQ(FormatTcRate(1048576, true), "1Mibit");
    EXPECT_EQ(FormatTcRate(1000, true), "1000bit");
    // sprint_size(): a unit when within 16 B of whole Kb, 1024 B of whole Mb or Gb.
    EXPECT_EQ(FormatTcSize(1514), "1514b");
    EXPECT_EQ(FormatTcSize(1024), "1Kb");
    EXPECT_EQ(FormatTcSize(1030), "1Kb"); // 6 bytes off a whole Kb
    EXPECT_EQ(FormatTcSize(65536), "64Kb");
    EXPECT_EQ(FormatTcSize(1048576), "1Mb");
    EXPECT_EQ(FormatTcSize(1073741824), "1Gb");
    // 5000000 is 242880 B off 5 Mb and 192 B off 4883 Kb: printed in bytes (tc-cake's
    // "memory used: ... of 5000000b").
    EXPECT_EQ(FormatTcSize(5000000), "5000000b");
    // sprint_time(): %.3g s or ms, whole us below 1 ms.
    EXPECT_EQ(FormatTcTime(100000000), "100ms");
    EXPECT_EQ(FormatTcTime(5000000), "5ms");
    EXPECT_EQ(FormatTcTime(1000000), "1ms");
    EXPECT_EQ(FormatTcTime(1500000000), "1.5s");
    EXPECT_EQ(FormatTcTime(500000), "500us");
    EXPECT_EQ(FormatTcTime(1000000000000), "1e+03s");
}

TEST(TcOptionsTest, SfqLine)
{
    TcOptions options =
        SfqGrammar().Parse("limit 127 quantum 1514 perturb 10\theaddrop\n divisor 1024");
    EXPECT_EQ(options.GetUnsigned("limit"), 127U);
    EXPECT_EQ(options.GetSize("quantum"), 1514U);
    EXPECT_EQ(options.GetUnsigned("perturb"), 10U);
    EXPECT_EQ(options.GetUnsigned("divisor"), 1024U);
    EXPECT_TRUE(options.Has("headdrop"));
    EXPECT_FALSE(options.Has("ecn"));
    EXPECT_FALSE(options.GetUnsigned("depth"));
    EXPECT_FALSE(options.GetDouble("probability"));
    EXPECT_EQ(options.Format(), "limit 127 quantum 1514b perturb 10 headdrop divisor 1024");
    EXPECT_TRUE(SfqGrammar().Parse("").GetEntries().empty());
    EXPECT_TRUE(SfqGrammar().Parse(" \t\n").GetEntries().empty());
}

TEST(TcOptionsTest, SfqRedWordsTakeNoUnits)
{
    // q_sfq.c reads redflowlimit, min and max with get_u32(), which takes no size units,
    // and avpkt with get_size(), which does.
    const TcOptions options = SfqGrammar().Parse("redflowlimit 30000 min 3000 max 9000 avpkt 1k");
    EXPECT_EQ(options.GetUnsigned("redflowlimit"), 30000U);
    EXPECT_EQ(options.GetUnsigned("min"), 3000U);
    EXPECT_EQ(options.GetUnsigned("max"), 9000U);
    EXPECT_EQ(options.GetSize("avpkt"), 1024U);
    EXPECT_NE(ParseError(SfqGrammar(), "redflowlimit 30kb"), "");
    EXPECT_NE(ParseError(SfqGrammar(), "min 3kb"), "");
}

TEST(TcOptionsTest, UnsignedBases)
{
    // get_u32(x, 0): 0x prefix is hexadecimal, a leading 0 is octal.
    EXPECT_EQ(SfqGrammar().Parse("limit 0x10").GetUnsigned("limit"), 16U);
    EXPECT_EQ(SfqGrammar().Parse("limit 010").GetUnsigned("limit"), 8U);
    EXPECT_EQ(SfqGrammar().Parse("depth 0").GetUnsigned("depth"), 0U);
    EXPECT_NE(ParseError(SfqGrammar(), "limit 08"), "");
    EXPECT_NE(ParseError(SfqGrammar(), "limit 0x"), "");
    EXPECT_NE(ParseError(SfqGrammar(), "limit -5"), "");
    EXPECT_NE(ParseError(SfqGrammar(), "limit 99999999999999999999999"), "");
    // Base 16 (HTB's "default"): hexadecimal with or without 0x.
    EXPECT_EQ(HtbGrammar().Parse("default 1f").GetUnsigned("default"), 31U);
    EXPECT_EQ(HtbGrammar().Parse("default 0x1f").GetUnsigned("default"), 31U);
    // Base 10 (HTB's r2q): a leading 0 is just decimal.
    EXPECT_EQ(HtbGrammar().Parse("r2q 010").GetUnsigned("r2q"), 10U);
    EXPECT_NE(ParseError(HtbGrammar(), "r2q 0x10"), "");
}

TEST(TcOptionsTest, ErrorsNameTheWord)
{
    EXPECT_EQ(ParseError(SfqGrammar(), "limt 10"),
              "tc sfq: unknown word \"limt\"; accepted: limit, depth, flows, divisor, quantum, "
              "perturb, headdrop, redflowlimit, min, max, avpkt, burst, probability, ecn, "
              "harddrop");
    EXPECT_EQ(ParseError(SfqGrammar(), "limit 1"),
              "tc sfq: limit \"1\": expected an unsigned integer in 2..4294967295");
    EXPECT_EQ(ParseError(SfqGrammar(), "limit abc"),
              "tc sfq: limit \"abc\": expected an unsigned integer in 2..4294967295");
    EXPECT_EQ(ParseError(SfqGrammar(), "headdrop limit"),
              "tc sfq: \"limit\" needs a value: an unsigned integer in 2..4294967295");
    EXPECT_EQ(ParseError(SfqGrammar(), "quantum 1514q"),
              "tc sfq: quantum \"1514q\": expected a size in bytes (units b, k/kb, m/mb, g/gb, "
              "kbit, mbit, gbit)");
    EXPECT_EQ(ParseError(SfqGrammar(), "probability 2"),
              "tc sfq: probability \"2\": expected a number in 0..1");
    // tc's sscanf("%lg") would take the prefix of "0.02x"; the whole word must be a number here.
    EXPECT_NE(ParseError(SfqGrammar(), "probability 0.02x"), "");
    EXPECT_EQ(SfqGrammar().Parse("probability 0.02").GetDouble("probability"), 0.02);
    EXPECT_EQ(ParseError(CakeGrammar(), "rtt 5ns"),
              "tc cake: rtt \"5ns\": expected a time (units s/sec/secs, ms/msec/msecs, "
              "us/usec/usecs; a bare number is us)");
    EXPECT_EQ(ParseError(CakeGrammar(), "overhead -65"),
              "tc cake: overhead \"-65\": expected an integer in -64..256");
    EXPECT_EQ(ParseError(HtbGrammar(), "linklayer foo"),
              "tc htb: linklayer \"foo\": expected one of: ethernet, atm, adsl");
    EXPECT_EQ(ParseError(HtbGrammar(), "prio 8"),
              "tc htb: prio \"8\": expected an unsigned integer in 0..7");
}

TEST(TcOptionsTest, QdiscChecksUseTheSameWording)
{
    TcOptions options = SfqGrammar().Parse("divisor 1000 ecn");
    EXPECT_EQ(debloattest::ErrorOf(
                  [&] { options.Reject("divisor", "must be a power of two in 1..65536"); }),
              "tc sfq: divisor \"1000\": must be a power of two in 1..65536");
    EXPECT_EQ(debloattest::ErrorOf([&] { options.Reject("redflowlimit", "is required with ecn"); }),
              "tc sfq: redflowlimit: is required with ecn");
    EXPECT_EQ(debloattest::ErrorOf([&] { options.Fail("\"min\" is not smaller than \"max\""); }),
              "tc sfq: \"min\" is not smaller than \"max\"");
}

TEST(TcOptionsTest, RepeatsAndGroups)
{
    // A repeated keyword overwrites, as tc's variables do.
    TcOptions sfq = SfqGrammar().Parse("limit 10 ecn limit 20");
    EXPECT_EQ(sfq.GetUnsigned("limit"), 20U);
    EXPECT_EQ(sfq.GetEntries().size(), 2U);
    EXPECT_EQ(sfq.Format(), "ecn limit 20");

    // cake's tin presets: the last word wins; "diffserv" is diffserv4.
    const TcGrammar cake = CakeGrammar();
    EXPECT_EQ(cake.Parse("diffserv3 besteffort").GetWord("diffserv"), "besteffort");
    EXPECT_EQ(cake.Parse("diffserv").GetWord("diffserv"), "diffserv4");
    EXPECT_FALSE(cake.Parse("diffserv3 besteffort").Has("diffserv3"));
    EXPECT_FALSE(cake.Parse("").GetWord("diffserv"));

    // bandwidth and unlimited share one variable pair in q_cake.c: the later one counts.
    TcOptions shaper = cake.Parse("bandwidth 10Mbit unlimited");
    EXPECT_EQ(shaper.GetWord("shaper"), "unlimited");
    EXPECT_FALSE(shaper.GetRate("bandwidth"));
    EXPECT_EQ(cake.Parse("unlimited bandwidth 10Mbit").GetRate("bandwidth"), 10000000U);

    // Two rtt presets call duparg() in q_cake.c: an error.
    EXPECT_EQ(ParseError(cake, "lan metro"),
              "tc cake: \"metro\" conflicts with \"lan\"; give only one of: datacentre, lan, "
              "metro, regional, internet");
    EXPECT_EQ(ParseError(cake, "lan lan"), "tc cake: \"lan\" given twice");
    // ... but rtt and a preset are separate variables; their order stays visible.
    TcOptions timing = cake.Parse("lan rtt 20ms");
    EXPECT_EQ(timing.GetWord("preset"), "lan");
    EXPECT_EQ(timing.GetTime("rtt"), 20000000U);
    EXPECT_EQ(timing.GetEntries().front().keyword, "lan");

    // ether-vlan adds 4 bytes each time it is given.
    EXPECT_EQ(cake.Parse("ether-vlan ether-vlan").GetEntries().size(), 2U);

    // HTB's "Double \"rate\" spec".
    EXPECT_EQ(ParseError(HtbGrammar(), "rate 1Mbit rate 2Mbit"), "tc htb: \"rate\" given twice");
}

TEST(TcOptionsTest, CakeLine)
{
    TcOptions options = CakeGrammar().Parse(
        "bandwidth 50Mbit diffserv4 dual-srchost ack-filter overhead 38 mpu 84 rtt 100ms "
        "memlimit 32mb fwmark 0xff00");
    EXPECT_EQ(options.GetRate("bandwidth"), 50000000U);
    EXPECT_EQ(options.GetWord("diffserv"), "diffserv4");
    EXPECT_EQ(options.GetWord("isolation"), "dual-srchost");
    EXPECT_EQ(options.GetWord("ack"), "ack-filter");
    EXPECT_EQ(options.GetSigned("overhead"), 38);
    EXPECT_EQ(options.GetSigned("mpu"), 84);
    EXPECT_EQ(options.GetTime("rtt"), 100000000U);
    EXPECT_EQ(options.GetSize("memlimit"), 33554432U);
    EXPECT_EQ(options.GetUnsigned("fwmark"), 0xff00U);
    EXPECT_EQ(CakeGrammar().Parse("overhead -64").GetSigned("overhead"), -64);
    EXPECT_EQ(CakeGrammar().Parse("overhead +4").GetSigned("overhead"), 4);
    EXPECT_EQ(options.Format(),
              "bandwidth 50Mbit diffserv4 dual-srchost ack-filter overhead 38 mpu 84 rtt 100ms "
              "memlimit 32Mb fwmark 65280");
}

TEST(TcOptionsTest, HtbAbbreviationsAndAliases)
{
    const TcGrammar htb = HtbGrammar();
    // matches(): any prefix, the first row in table order wins ("d" is default, not
    // direct_qlen); the full word still matches.
    EXPECT_EQ(htb.Parse("def 10").GetUnsigned("default"), 16U);
    EXPECT_EQ(htb.Parse("d 10").GetUnsigned("default"), 16U);
    EXPECT_EQ(htb.Parse("direct 5").GetUnsigned("direct_qlen"), 5U);
    EXPECT_EQ(htb.Parse("link atm").GetChoice("linklayer"), "atm");
    EXPECT_EQ(htb.Parse("b 1600").GetSize("burst"), 1600U);
    // Aliases match exactly: "buffer" and "maxburst" are burst, "buf" is not.
    EXPECT_EQ(htb.Parse("buffer 10kb").GetSize("burst"), 10240U);
    EXPECT_EQ(htb.Parse("maxburst 1k").GetSize("burst"), 1024U);
    EXPECT_NE(ParseError(htb, "buf 10kb"), "");
    // rate and ceil are strcmp()ed in q_htb.c: no abbreviation.
    EXPECT_NE(ParseError(htb, "ra 1Mbit"), "");
    EXPECT_EQ(htb.Parse("rate 1Mbit ceil 2Mbit").GetRate("ceil"), 2000000U);
    // A hexadecimal keyword prints in hexadecimal, as q_htb.c prints default ("%#llx"), so
    // that Format() reads back alike (found by test/fuzz/fuzz-tc-options.cc: "default 18").
    EXPECT_EQ(htb.Parse("def 12 r2q 10").Format(), "default 0x12 r2q 10");
    EXPECT_EQ(htb.Parse(htb.Parse("default 12").Format()).GetUnsigned("default"), 0x12U);
}

TEST(TcOptionsTest, ProgrammingErrors)
{
    TcOptions options = SfqGrammar().Parse("limit 10");
    EXPECT_THROW(options.GetRate("limit"), std::logic_error);
    EXPECT_THROW(options.GetUnsigned("nonsense"), std::logic_error);
    EXPECT_THROW(options.Has("nonsense"), std::logic_error);
    EXPECT_THROW(options.GetWord("nonsense"), std::logic_error);
    EXPECT_THROW(TcGrammar("x", {TcKeyword::Flag("a"), TcKeyword::Flag("a")}), std::logic_error);
    EXPECT_THROW(TcGrammar("x", {TcKeyword::Flag("a"), TcKeyword::Flag("b").Alias("a")}),
                 std::logic_error);
    EXPECT_THROW(TcGrammar("x", {TcKeyword::Unsigned("a", 5, 4)}), std::logic_error);
    EXPECT_THROW(TcGrammar("x", {TcKeyword::Word("a", {})}), std::logic_error);
    EXPECT_THROW(TcGrammar("x",
                           {TcKeyword::Flag("a").InGroup("g"),
                            TcKeyword::Flag("b").InGroup("g").Repeat(TcRepeat::ONCE)}),
                 std::logic_error);
}

} // namespace
