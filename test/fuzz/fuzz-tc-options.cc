/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * libFuzzer harness of tc's option grammar (model/qdisc/tc-options.h): the input is tc text.
 *
 * - ParseTcRate(), ParseTcSize() and ParseTcTime() read it as one value word; they return
 *   nullopt for bad text. What FormatTcRate(), FormatTcSize() and FormatTcTime() print for a
 *   value must parse again (tc reads back what tc prints).
 * - A grammar with a keyword of every kind, aliases, groups, prefixes and every repeat rule
 *   parses it as a command line; bad text throws std::invalid_argument, the documented
 *   error. What TcOptions::Format() prints must parse again, and after one round (which
 *   rounds sizes, rates and times as tc prints them) print the same.
 */

#include "fuzz-reader.h"

#include "ns3/tc-options.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace
{

using debloatfuzz::Require;
using ns3::debloat::FormatTcRate;
using ns3::debloat::FormatTcSize;
using ns3::debloat::FormatTcTime;
using ns3::debloat::ParseTcRate;
using ns3::debloat::ParseTcSize;
using ns3::debloat::ParseTcTime;
using ns3::debloat::TcGrammar;
using ns3::debloat::TcKeyword;
using ns3::debloat::TcOptions;
using ns3::debloat::TcRepeat;

/// @return a grammar that uses every feature of TcKeyword
const TcGrammar&
Grammar()
{
    static const TcGrammar grammar(
        "fuzz",
        {TcKeyword::Unsigned("limit", 2, UINT32_MAX),
         TcKeyword::Unsigned("fwmark", 0, UINT32_MAX),
         TcKeyword::Unsigned("default", 0, 0xffff, 16).Abbreviable(),
         TcKeyword::Unsigned("r2q", 0, UINT32_MAX, 10).Abbreviable(),
         TcKeyword::Signed("overhead", -64, 256),
         TcKeyword::Size("quantum"),
         TcKeyword::Size("memlimit", 1, UINT64_MAX),
         TcKeyword::Time("rtt", 1000),
         TcKeyword::Rate("bandwidth").InGroup("rate"),
         TcKeyword::Flag("unlimited").InGroup("rate"),
         TcKeyword::Rate("ceil", 8),
         TcKeyword::Double("probability", 0, 1),
         TcKeyword::Word("linklayer", {"ethernet", "atm", "adsl"}),
         TcKeyword::Flag("diffserv4").Alias("diffserv").InGroup("diffserv"),
         TcKeyword::Flag("besteffort").InGroup("diffserv"),
         TcKeyword::Flag("lan").InGroup("preset").Repeat(TcRepeat::ONCE),
         TcKeyword::Flag("internet").InGroup("preset").Repeat(TcRepeat::ONCE),
         TcKeyword::Flag("ether-vlan").Repeat(TcRepeat::ACCUMULATE),
         TcKeyword::Flag("headdrop")});
    return grammar;
}

/**
 * Parses text with the grammar.
 * @param text the command line
 * @param[out] formatted TcOptions::Format() of the result
 * @return false when the grammar refused the text
 */
bool
ParseAndFormat(const std::string& text, std::string& formatted)
{
    try
    {
        formatted = Grammar().Parse(text).Format();
        return true;
    }
    catch (const std::invalid_argument&)
    {
        return false;
    }
}

} // namespace

/**
 * The libFuzzer entry point.
 * @param data the input
 * @param size its length
 * @return 0
 */
extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);

    if (const auto rate = ParseTcRate(text))
    {
        Require(ParseTcRate(FormatTcRate(*rate)).has_value(), "FormatTcRate() parses");
        Require(ParseTcRate(FormatTcRate(*rate, true)).has_value(), "FormatTcRate(iec) parses");
    }
    if (const auto bytes = ParseTcSize(text))
    {
        Require(ParseTcSize(FormatTcSize(*bytes)).has_value(), "FormatTcSize() parses");
    }
    if (const auto ns = ParseTcTime(text))
    {
        Require(ParseTcTime(FormatTcTime(*ns)).has_value(), "FormatTcTime() parses");
    }

    std::string first;
    if (ParseAndFormat(text, first))
    {
        std::string second;
        Require(ParseAndFormat(first, second), "Format() parses");
        std::string third;
        Require(ParseAndFormat(second, third), "Format() of Format() parses");
        Require(third == second, "Format() is stable after one round");
    }
    return 0;
}
