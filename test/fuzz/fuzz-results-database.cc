/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup debloat-tests
 * libFuzzer harness of the SQLite results store's text handling
 * (model/results/results-database.h): a RunRecord whose strings are any bytes (NUL, quotes,
 * SQL, invalid UTF-8; see fuzz-run-record.h) is written to an in-memory database and read
 * back.
 *
 * Properties: Write() stores it (every text is a bound parameter, so no text is SQL) and
 * Read() gives back an equal record, byte for byte and bit for bit (NaN for NaN).
 */

#include "fuzz-reader.h"
#include "fuzz-run-record.h"

#include "ns3/results-database.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <variant>

namespace
{

using debloatfuzz::FuzzReader;
using debloatfuzz::MakeRunRecord;
using debloatfuzz::Require;
using ns3::debloat::MetaMap;
using ns3::debloat::MetaValue;
using ns3::debloat::ResultsDatabase;
using ns3::debloat::RunRecord;

/**
 * @param a a number
 * @param b another
 * @return true if both are NaN or have the same bits
 */
bool
Same(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
    {
        return std::isnan(a) && std::isnan(b);
    }
    return std::memcmp(&a, &b, sizeof(a)) == 0;
}

/**
 * @param a a value
 * @param b another
 * @return true if they hold the same alternative and the same value (Same() for doubles)
 */
bool
Same(const MetaValue& a, const MetaValue& b)
{
    if (a.index() != b.index())
    {
        return false;
    }
    if (const auto* d = std::get_if<double>(&a))
    {
        return Same(*d, std::get<double>(b));
    }
    return a == b;
}

/**
 * @param a metadata
 * @param b other metadata
 * @return true if they have the same keys and Same() values
 */
bool
Same(const MetaMap& a, const MetaMap& b)
{
    if (a.size() != b.size())
    {
        return false;
    }
    for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
    {
        if (i->first != j->first || !Same(i->second, j->second))
        {
            return false;
        }
    }
    return true;
}

/**
 * @param a the run written
 * @param b the run read back
 * @return true if they are equal, Same() for numbers
 */
bool
Same(const RunRecord& a, const RunRecord& b)
{
    bool same = a.test == b.test && a.title == b.title && a.localHost == b.localHost &&
                a.hosts == b.hosts && Same(a.length, b.length) &&
                Same(a.totalLength, b.totalLength) && Same(a.stepSize, b.stepSize) &&
                Same(a.delay, b.delay) && Same(a.epoch, b.epoch) &&
                a.testParameters == b.testParameters && a.seed == b.seed && a.run == b.run &&
                a.ns3Version == b.ns3Version && a.moduleVersion == b.moduleVersion &&
                Same(a.config, b.config) && a.series.size() == b.series.size() &&
                a.metrics.size() == b.metrics.size();
    for (size_t i = 0; same && i < a.series.size(); ++i)
    {
        const auto& s = a.series[i];
        const auto& t = b.series[i];
        same = s.name == t.name && s.runner == t.runner && s.units == t.units && s.keys == t.keys &&
               Same(s.meta, t.meta) && s.samples.size() == t.samples.size();
        for (size_t k = 0; same && k < s.samples.size(); ++k)
        {
            same = Same(s.samples[k].t, t.samples[k].t) &&
                   s.samples[k].values.size() == t.samples[k].values.size();
            for (size_t v = 0; same && v < s.samples[k].values.size(); ++v)
            {
                same = Same(s.samples[k].values[v], t.samples[k].values[v]);
            }
        }
    }
    for (size_t i = 0; same && i < a.metrics.size(); ++i)
    {
        const auto& m = a.metrics[i];
        const auto& n = b.metrics[i];
        same =
            m.scope == n.scope && m.name == n.name && Same(m.value, n.value) && m.units == n.units;
    }
    return same;
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
    FuzzReader reader(data, size);
    const RunRecord run = MakeRunRecord(reader);
    ResultsDatabase database(":memory:");
    const int64_t id = database.Write(run);
    Require(id == 1, "the first run of a new database is run 1");
    Require(Same(run, database.Read(id)), "Read() gives back what Write() stored");
    return 0;
}
