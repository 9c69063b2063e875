/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "command-line-options.h"

#include "ns3/debloat-compat.h"
#include "ns3/tc-options.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <functional>
#include <iostream>
#include <sstream>

namespace ns3
{
namespace debloat
{

namespace
{

using Parser = std::function<bool(const std::string&)>;

/**
 * Keeps a parser alive for the rest of the program (CommandLine holds a pointer to it).
 * @param parser the parser
 * @return its lasting address
 */
const Parser*
Keep(Parser parser)
{
    static std::deque<Parser> parsers; // a deque never moves what it holds
    parsers.push_back(std::move(parser));
    return &parsers.back();
}

/**
 * Stops the program: a bad option is reported before anything runs.
 * @param name the option
 * @param value what was given
 * @param accepted what is accepted
 */
[[noreturn]] void
Refuse(const std::string& name, const std::string& value, const std::string& accepted)
{
    std::cerr << "error: --" << name << "=" << value << " is not accepted; accepted: " << accepted
              << std::endl;
    std::exit(1);
}

/// @return "min to max" for an option's range
template <typename T>
std::string
Range(T min, T max)
{
    std::ostringstream os;
    os << min << " to " << max;
    return os.str();
}

/**
 * Reads a finite decimal number: digits, an optional fraction and exponent, no sign.
 * @param text the value
 * @return the number, or nullopt if malformed
 */
std::optional<double>
ParseNumber(const std::string& text)
{
    if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.'))
    {
        return std::nullopt;
    }
    std::istringstream is(text);
    double value = 0;
    is >> value;
    if (is.fail() || !is.eof() || !std::isfinite(value))
    {
        return std::nullopt;
    }
    return value;
}

/// The characters of a rate's number, before its unit.
constexpr const char* NUMBER_CHARS = "0123456789.eE";

/**
 * @param unit a rate's unit
 * @return whether it is one of tc's bit units (get_rate64: bit, kbit, mbit, gbit, tbit,
 * kibit, ..., without regard to case), the only tc units a rate option takes
 */
bool
IsTcBitUnit(std::string unit)
{
    for (char& c : unit)
    {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return unit.size() >= 3 && unit.compare(unit.size() - 3, 3, "bit") == 0;
}

} // namespace

std::optional<uint32_t>
CommandLineOptions::ParseUnsigned(const std::string& text, uint32_t min, uint32_t max)
{
    if (text.empty() || text.size() > 10 ||
        text.find_first_not_of("0123456789") != std::string::npos)
    {
        return std::nullopt;
    }
    const uint64_t value = std::stoull(text);
    if (value < min || value > max)
    {
        return std::nullopt;
    }
    return static_cast<uint32_t>(value);
}

std::optional<uint64_t>
CommandLineOptions::ParseRate(const std::string& text)
{
    // ns-3's DataRate units (DataRate::DoParse), as bit/s multipliers.
    static const std::vector<std::pair<std::string, double>> ns3Units{{"", 1},
                                                                      {"bps", 1},
                                                                      {"b/s", 1},
                                                                      {"Bps", 8},
                                                                      {"B/s", 8},
                                                                      {"kbps", 1e3},
                                                                      {"kb/s", 1e3},
                                                                      {"Kbps", 1e3},
                                                                      {"Kb/s", 1e3},
                                                                      {"kBps", 8e3},
                                                                      {"kB/s", 8e3},
                                                                      {"KBps", 8e3},
                                                                      {"KB/s", 8e3},
                                                                      {"Kib/s", 1024.},
                                                                      {"KiB/s", 8192.},
                                                                      {"Mbps", 1e6},
                                                                      {"Mb/s", 1e6},
                                                                      {"MBps", 8e6},
                                                                      {"MB/s", 8e6},
                                                                      {"Mib/s", 1048576.},
                                                                      {"MiB/s", 8388608.},
                                                                      {"Gbps", 1e9},
                                                                      {"Gb/s", 1e9},
                                                                      {"GBps", 8e9},
                                                                      {"GB/s", 8e9},
                                                                      {"Gib/s", 1073741824.},
                                                                      {"GiB/s", 8589934592.}};
    const std::size_t split = text.find_first_not_of(NUMBER_CHARS);
    const std::string unit = split == std::string::npos ? "" : text.substr(split);
    for (const auto& [name, multiplier] : ns3Units)
    {
        if (unit == name)
        {
            const std::optional<double> number = ParseNumber(text.substr(0, split));
            if (!number || *number * multiplier < 1 || *number * multiplier > 1e15)
            {
                return std::nullopt;
            }
            return static_cast<uint64_t>(*number * multiplier);
        }
    }
    if (!IsTcBitUnit(unit))
    {
        return std::nullopt;
    }
    const std::optional<uint64_t> rate = ParseTcRate(text);
    if (!rate || *rate == 0)
    {
        return std::nullopt;
    }
    return rate;
}

std::optional<double>
CommandLineOptions::ParseTime(const std::string& text)
{
    // ns-3's Time units (Time::Time(const std::string&)), in seconds.
    static const std::vector<std::pair<std::string, double>> units{{"", 1},
                                                                   {"s", 1},
                                                                   {"ms", 1e-3},
                                                                   {"us", 1e-6},
                                                                   {"ns", 1e-9},
                                                                   {"ps", 1e-12},
                                                                   {"fs", 1e-15},
                                                                   {"min", 60},
                                                                   {"h", 3600},
                                                                   {"d", 86400},
                                                                   {"y", 365 * 86400.}};
    const std::size_t split = text.find_first_not_of(NUMBER_CHARS);
    const std::string unit = split == std::string::npos ? "" : text.substr(split);
    for (const auto& [name, seconds] : units)
    {
        if (unit == name)
        {
            const std::optional<double> number = ParseNumber(text.substr(0, split));
            if (!number)
            {
                return std::nullopt;
            }
            return *number * seconds;
        }
    }
    return std::nullopt;
}

void
CommandLineOptions::AddUnsigned(CommandLine& cmd,
                                const std::string& name,
                                const std::string& help,
                                uint32_t& dest,
                                uint32_t min,
                                uint32_t max)
{
    uint32_t* target = &dest;
    compat::AddParsedValue(cmd,
                           name,
                           help + " (" + Range(min, max) + ") [" + std::to_string(dest) + "]",
                           Keep([name, target, min, max](const std::string& text) {
                               const std::optional<uint32_t> value = ParseUnsigned(text, min, max);
                               if (!value)
                               {
                                   Refuse(name, text, "a whole number from " + Range(min, max));
                               }
                               *target = *value;
                               return true;
                           }));
}

void
CommandLineOptions::AddDouble(CommandLine& cmd,
                              const std::string& name,
                              const std::string& help,
                              double& dest,
                              double min,
                              double max)
{
    double* target = &dest;
    std::ostringstream current;
    current << dest;
    compat::AddParsedValue(cmd,
                           name,
                           help + " (" + Range(min, max) + ") [" + current.str() + "]",
                           Keep([name, target, min, max](const std::string& text) {
                               const std::optional<double> value = ParseNumber(text);
                               if (!value || *value < min || *value > max)
                               {
                                   Refuse(name, text, "a number from " + Range(min, max));
                               }
                               *target = *value;
                               return true;
                           }));
}

void
CommandLineOptions::AddUnsignedList(CommandLine& cmd,
                                    const std::string& name,
                                    const std::string& help,
                                    std::vector<uint32_t>& dest,
                                    uint32_t min,
                                    uint32_t max)
{
    std::vector<uint32_t>* target = &dest;
    std::string current;
    for (uint32_t value : dest)
    {
        current += (current.empty() ? "" : ",") + std::to_string(value);
    }
    compat::AddParsedValue(
        cmd,
        name,
        help + " (each " + Range(min, max) + ") [" + current + "]",
        Keep([name, target, min, max](const std::string& text) {
            std::vector<uint32_t> values;
            std::istringstream is(text);
            std::string item;
            while (std::getline(is, item, ','))
            {
                const std::optional<uint32_t> value = ParseUnsigned(item, min, max);
                if (!value)
                {
                    Refuse(name,
                           text,
                           "comma-separated whole numbers, each from " + Range(min, max));
                }
                values.push_back(*value);
            }
            if (values.empty() || text.back() == ',')
            {
                Refuse(name, text, "comma-separated whole numbers, each from " + Range(min, max));
            }
            *target = values;
            return true;
        }));
}

void
CommandLineOptions::AddTime(CommandLine& cmd,
                            const std::string& name,
                            const std::string& help,
                            std::string& dest,
                            double maxSeconds)
{
    std::string* target = &dest;
    compat::AddParsedValue(
        cmd,
        name,
        help + " (" + Range(0.0, maxSeconds) + " s) [" + dest + "]",
        Keep([name, target, maxSeconds](const std::string& text) {
            const std::optional<double> seconds = ParseTime(text);
            if (!seconds || *seconds > maxSeconds)
            {
                std::ostringstream accepted;
                accepted << "a time from 0 to " << maxSeconds
                         << " s in ns-3's units (s, ms, us, ns; a bare number is seconds)";
                Refuse(name, text, accepted.str());
            }
            *target = text;
            return true;
        }));
}

void
CommandLineOptions::AddRate(CommandLine& cmd,
                            const std::string& name,
                            const std::string& help,
                            std::string& dest)
{
    std::string* target = &dest;
    compat::AddParsedValue(
        cmd,
        name,
        help + ", in ns-3's units (100Mbps) or tc's (100Mbit) [" + dest + "]",
        Keep([name, target](const std::string& text) {
            const std::optional<uint64_t> bits = ParseRate(text);
            if (!bits)
            {
                Refuse(name,
                       text,
                       "a rate above 0 in ns-3's units (bps, kbps, Mbps, Gbps, KiB/s, ...: "
                       "100Mbps is 100 megabits/s) or tc's bit units (bit, kbit, mbit, gbit, "
                       "kibit, ...: 100Mbit); tc's byte units (mbps) are refused as ambiguous");
            }
            const std::size_t split = text.find_first_not_of(NUMBER_CHARS);
            // ns-3's own spelling is kept as given; tc's becomes bit/s.
            const bool tc = split != std::string::npos && IsTcBitUnit(text.substr(split));
            *target = tc ? std::to_string(*bits) + "bps" : text;
            return true;
        }));
}

} // namespace debloat
} // namespace ns3
