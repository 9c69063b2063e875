/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * libFuzzer harness of HTB's tc parsers (model/qdisc/htb/htb-config.h): the input is an htb
 * tree as TcQdiscHelper takes it, lines separated by newlines or ';': the qdisc's options
 * ("default 12 r2q 10"), then class lines ("class add dev eth0 parent 1: classid 1:1 htb
 * rate 92Mbit"). The classes that parse are added to an HtbScheduler, which checks the tree.
 *
 * Properties: refused text throws std::invalid_argument (the documented error of the parsers
 * and of HtbScheduler::AddClass()), nothing else; FormatHtbClassId() of a parsed id is
 * well-formed.
 */

#include "fuzz-reader.h"

#include "ns3/htb-config.h"
#include "ns3/htb-scheduler.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{

using debloatfuzz::Require;
using ns3::debloat::FormatHtbClassId;
using ns3::debloat::HtbClassConfig;
using ns3::debloat::HtbQdiscOptions;
using ns3::debloat::HtbScheduler;
using ns3::debloat::ParseHtbClass;
using ns3::debloat::ParseHtbQdiscOptions;
using ns3::debloat::SplitHtbClassLines;

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
    const std::vector<std::string> lines =
        SplitHtbClassLines(std::string(reinterpret_cast<const char*>(data), size));
    if (lines.empty())
    {
        return 0;
    }
    HtbQdiscOptions options;
    try
    {
        options = ParseHtbQdiscOptions(lines.front());
    }
    catch (const std::invalid_argument&)
    {
    }
    HtbScheduler scheduler(options.r2q);
    for (size_t i = 1; i < lines.size(); ++i)
    {
        HtbClassConfig config;
        try
        {
            config = ParseHtbClass(lines[i]);
        }
        catch (const std::invalid_argument&)
        {
            continue;
        }
        const std::string id = FormatHtbClassId(config.id);
        Require(id.rfind("1:", 0) == 0 && id.size() > 2, "FormatHtbClassId() is 1:MINOR");
        try
        {
            scheduler.AddClass(config);
        }
        catch (const std::invalid_argument&)
        {
        }
    }
    return 0;
}
