/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * libFuzzer harness of TcQdiscHelper (helper/qdisc/tc-qdisc-helper.h), the layer that reads
 * the text after `tc qdisc add dev X root`: pfifo_fast, pfifo, noqueue, prio, fq_codel,
 * codel, pie (translated to ns-3 attributes), sfq and cake (checked by
 * SfqQueueDisc::ValidateOptions() and CakeQueueDisc::ValidateOptions(), which parse into a
 * queue disc's attributes) and htb trees (qdisc, class and leaf qdisc lines). This harness
 * needs ns-3: it links the module library.
 *
 * The first input byte picks the device's txqueuelen (0, 1 or 1000; txqueuelen 0 is an
 * error path of its own), the rest is the text. TcQdiscHelper::Parse() and
 * SetRootQueueDisc() throw std::invalid_argument for bad text, the documented error; the
 * queue discs' Options attributes would stop the program with NS_ABORT_MSG instead, which is
 * why the harness goes through the helper (and ValidateOptions()), the layer that throws.
 */

#include "fuzz-reader.h"

#include "ns3/tc-qdisc-helper.h"
#include "ns3/traffic-control-helper.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace
{

using debloatfuzz::FuzzReader;
using debloatfuzz::Require;
using ns3::TrafficControlHelper;
using ns3::debloat::TcQdiscHelper;

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
    FuzzReader reader(data, size);
    const uint8_t pick = reader.Byte();
    const uint32_t txqueuelen = pick == 0 ? 0 : (pick == 1 ? 1 : 1000);
    const std::string text(reinterpret_cast<const char*>(data) + (size > 0 ? 1 : 0),
                           size > 0 ? size - 1 : 0);

    bool parsed = false;
    try
    {
        const TcQdiscHelper::QdiscSpec spec = TcQdiscHelper::Parse(text, txqueuelen);
        Require(!spec.type.empty(), "Parse() names a type");
        Require(spec.type == TcQdiscHelper::GetTypeName(text) ||
                    spec.type == "ns3::debloat::NoQueueDisc",
                "Parse() gives GetTypeName()'s type (or noqueue for txqueuelen 0)");
        parsed = true;
    }
    catch (const std::invalid_argument&)
    {
    }

    // SetRootQueueDisc() also takes htb trees, lines separated by ';' or newlines, which
    // Parse() does not (it reads one line); a single line it must take as Parse() does.
    const bool oneLine = text.find_first_of(";\n") == std::string::npos;
    TrafficControlHelper helper;
    try
    {
        TcQdiscHelper::SetRootQueueDisc(helper, text, txqueuelen);
    }
    catch (const std::invalid_argument&)
    {
        Require(!parsed || !oneLine, "SetRootQueueDisc() takes the single line Parse() takes");
    }
    return 0;
}
