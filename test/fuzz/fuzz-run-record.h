/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DEBLOAT_FUZZ_RUN_RECORD_H
#define DEBLOAT_FUZZ_RUN_RECORD_H

/**
 * @file
 * @ingroup debloat-tests
 * A RunRecord made from a fuzz input, for the harnesses of the flent writer and the results
 * database: every string of the record (names, hosts, parameters, keys, metadata, units) is
 * a field of the input, so any bytes reach the string handling; numbers come from 8-byte
 * fields (any double: NaN, infinities, -0) where the record allows them.
 */

#include "fuzz-reader.h"

#include "ns3/run-record.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace debloatfuzz
{

/**
 * @param reader the input
 * @return the bits of the next field as a double (missing bytes are 0)
 */
inline double
ReadDouble(FuzzReader& reader)
{
    const std::string field = reader.Field();
    uint64_t bits = 0;
    std::memcpy(&bits, field.data(), field.size() < sizeof(bits) ? field.size() : sizeof(bits));
    double value = 0;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
}

/**
 * @param reader the input
 * @return a run of one series with two samples, its strings taken from the input
 */
inline ns3::debloat::RunRecord
MakeRunRecord(FuzzReader& reader)
{
    using ns3::debloat::MetaValue;

    ns3::debloat::RunRecord run;
    run.test = reader.Field();
    run.title = reader.Field();
    run.localHost = reader.Field();
    run.hosts = {reader.Field(), reader.Field()};
    run.length = 1;
    run.totalLength = 2;
    run.stepSize = 0.5;
    run.delay = 0;
    run.epoch = 1700000000;
    run.seed = reader.Byte();
    run.run = uint64_t{reader.Byte()} << 56;
    const std::string parameter = reader.Field();
    run.testParameters[parameter] = reader.Field();
    run.ns3Version = reader.Field();
    run.moduleVersion = reader.Field();
    const std::string textKey = reader.Field();
    run.config[textKey] = MetaValue(reader.Field());
    const std::string numberKey = reader.Field();
    run.config[numberKey] = MetaValue(ReadDouble(reader));

    ns3::debloat::Series series;
    series.name = reader.Field();
    series.runner = reader.Field();
    series.units = reader.Field();
    series.keys = {"val", reader.Field()};
    const std::string metaKey = reader.Field();
    series.meta[metaKey] = MetaValue(reader.Field());
    series.meta["MEAN_VALUE"] = MetaValue(ReadDouble(reader));
    series.samples.push_back({0, {ReadDouble(reader), ReadDouble(reader)}});
    series.samples.push_back({0.5, {ReadDouble(reader), ReadDouble(reader)}});
    run.series.push_back(series);

    ns3::debloat::Metric metric;
    metric.scope = reader.Field();
    metric.name = reader.Field();
    metric.value = ReadDouble(reader);
    metric.units = reader.Field();
    run.metrics.push_back(metric);
    return run;
}

} // namespace debloatfuzz

#endif /* DEBLOAT_FUZZ_RUN_RECORD_H */
