/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * libFuzzer harness of tc-cake's option parser (model/qdisc/cake/cake-config.h): the input
 * is tc-cake text, one command line per line, applied in turn to one CakeConfig as a
 * `tc qdisc add` followed by `tc qdisc change`s.
 *
 * Properties: a refused line throws std::invalid_argument (the documented error) and leaves
 * the config unchanged; FormatCakeOptionChanges() of an accepted config parses over the
 * defaults, and after one round (tc's rounding of rates and times) prints the same; the
 * printers and ParseLinkLayer() never fail.
 */

#include "fuzz-reader.h"

#include "ns3/cake-config.h"
#include "ns3/cake-overhead.h"

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

namespace
{

using debloatfuzz::Require;
using ns3::debloat::CakeConfig;
using ns3::debloat::FormatCakeOptionChanges;
using ns3::debloat::FormatCakeOptions;
using ns3::debloat::LinkLayer;
using ns3::debloat::ParseCakeOptions;
using ns3::debloat::ParseLinkLayer;

/**
 * @param text tc-cake words
 * @param[out] changes FormatCakeOptionChanges() of the words parsed over the defaults
 * @return false when the words were refused
 */
bool
ChangesOf(const std::string& text, std::string& changes)
{
    CakeConfig config;
    try
    {
        ParseCakeOptions(config, text);
    }
    catch (const std::invalid_argument&)
    {
        return false;
    }
    changes = FormatCakeOptionChanges(config);
    return true;
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
    std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
    CakeConfig config;
    for (std::string line; std::getline(lines, line);)
    {
        const std::string before = FormatCakeOptions(config);
        try
        {
            ParseCakeOptions(config, line);
        }
        catch (const std::invalid_argument&)
        {
            Require(FormatCakeOptions(config) == before, "a refused line changes nothing");
            continue;
        }
        const std::string changes = FormatCakeOptionChanges(config);
        std::string again;
        Require(ChangesOf(changes, again), "FormatCakeOptionChanges() parses");
        std::string third;
        Require(ChangesOf(again, third), "FormatCakeOptionChanges() parses after a round");
        Require(third == again, "FormatCakeOptionChanges() is stable after one round");

        LinkLayer linkLayer;
        ParseLinkLayer(linkLayer, line);
    }
    return 0;
}
