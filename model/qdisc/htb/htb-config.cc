/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "htb-config.h"

#include "ns3/tc-options.h"

#include <cstdlib>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{
namespace debloat
{

namespace
{

/**
 * get_tc_classid(): "MAJOR:MINOR" in hexadecimal; "MAJOR:" is minor 0; "root" is 0:0.
 * @param text the classid
 * @param[out] major its major number
 * @param[out] minor its minor number
 * @return false when malformed
 */
bool
ParseClassId(const std::string& text, uint32_t& major, uint32_t& minor)
{
    if (text == "root")
    {
        major = 0;
        minor = 0;
        return true;
    }
    const size_t colon = text.find(':');
    if (colon == std::string::npos || colon == 0)
    {
        return false;
    }
    auto hex = [](const std::string& digits, uint32_t& value) {
        if (digits.empty())
        {
            value = 0;
            return true;
        }
        char* end = nullptr;
        const unsigned long parsed = std::strtoul(digits.c_str(), &end, 16);
        if (*end != '\0' || parsed > 0xFFFF)
        {
            return false;
        }
        value = static_cast<uint32_t>(parsed);
        return true;
    };
    return hex(text.substr(0, colon), major) && hex(text.substr(colon + 1), minor);
}

/**
 * @param text words
 * @return them split at white space
 */
std::vector<std::string>
Words(const std::string& text)
{
    std::istringstream stream(text);
    std::vector<std::string> words;
    for (std::string word; stream >> word;)
    {
        words.push_back(word);
    }
    return words;
}

} // namespace

HtbQdiscOptions
ParseHtbQdiscOptions(const std::string& text)
{
    std::vector<std::string> words = Words(text);
    if (!words.empty() && words.front() == "htb")
    {
        words.erase(words.begin());
    }
    std::string rest;
    for (const std::string& word : words)
    {
        rest += (rest.empty() ? "" : " ") + word;
    }
    static const TcGrammar grammar(
        "htb",
        {TcKeyword::Unsigned("r2q", 1, UINT32_MAX, 10).Abbreviable(),
         TcKeyword::Unsigned("default", 0, 0xFFFF, 16).Abbreviable(),
         TcKeyword::Unsigned("direct_qlen", 1, UINT32_MAX, 10).Abbreviable()});
    const TcOptions options = grammar.Parse(rest);
    HtbQdiscOptions result;
    result.r2q = static_cast<uint32_t>(options.GetUnsigned("r2q").value_or(10));
    result.defaultClass = static_cast<uint32_t>(options.GetUnsigned("default").value_or(0));
    result.directQlen = static_cast<uint32_t>(options.GetUnsigned("direct_qlen").value_or(0));
    return result;
}

HtbClassConfig
ParseHtbClass(const std::string& line)
{
    std::vector<std::string> words = Words(line);
    // Optional "[tc] class [add|change|replace] [dev DEV]" in front.
    size_t first = 0;
    if (first < words.size() && words[first] == "tc")
    {
        ++first;
    }
    if (first < words.size() && words[first] == "class")
    {
        ++first;
        if (first < words.size() &&
            (words[first] == "add" || words[first] == "change" || words[first] == "replace"))
        {
            ++first;
        }
        if (first + 1 < words.size() && words[first] == "dev")
        {
            first += 2;
        }
    }
    uint32_t parentMajor = 0;
    uint32_t parentMinor = 0;
    uint32_t major = 0;
    uint32_t minor = 0;
    bool parentGiven = false;
    bool classidGiven = false;
    std::string options;
    for (size_t i = first; i < words.size(); ++i)
    {
        const std::string& word = words[i];
        if ((word == "parent" || word == "classid") && i + 1 < words.size())
        {
            const bool parent = word == "parent";
            uint32_t& maj = parent ? parentMajor : major;
            uint32_t& min = parent ? parentMinor : minor;
            if (!ParseClassId(words[++i], maj, min))
            {
                throw std::invalid_argument("tc class: " + word + " \"" + words[i] +
                                            "\": expected MAJOR:MINOR in hexadecimal");
            }
            (parent ? parentGiven : classidGiven) = true;
        }
        else if (word == "htb" && options.empty())
        {
            continue;
        }
        else
        {
            options += (options.empty() ? "" : " ") + word;
        }
    }
    if (!classidGiven || minor == 0)
    {
        throw std::invalid_argument("tc class \"" + line +
                                    "\": classid MAJOR:MINOR (MINOR not 0) is required");
    }
    if (!parentGiven)
    {
        throw std::invalid_argument("tc class " + FormatHtbClassId(minor) +
                                    ": parent is required (\"parent 1:\" for the root)");
    }
    if (parentMajor != 0 && parentMajor != major)
    {
        throw std::invalid_argument(
            "tc class " + FormatHtbClassId(minor) + ": parent " + std::to_string(parentMajor) +
            ": belongs to another qdisc than major " + std::to_string(major));
    }

    // htb_parse_class_opt(): rate and ceil exactly (strcmp, given once), the rest by prefix.
    static const TcGrammar grammar(
        "htb",
        {TcKeyword::Unsigned("prio", 0, UINT32_MAX, 10).Abbreviable(),
         TcKeyword::Unsigned("mtu", 1, UINT32_MAX, 10).Abbreviable(),
         TcKeyword::Unsigned("mpu", 0, 0xFFFF, 10).Abbreviable(),
         TcKeyword::Unsigned("overhead", 0, 0xFFFF, 10).Abbreviable(),
         TcKeyword::Word("linklayer", {"ethernet", "atm", "adsl"}).Abbreviable(),
         TcKeyword::Unsigned("quantum", 1, UINT32_MAX, 10).Abbreviable(),
         TcKeyword::Size("burst").Alias("buffer").Alias("maxburst").Abbreviable(),
         TcKeyword::Size("cburst").Alias("cbuffer").Alias("cmaxburst").Abbreviable(),
         TcKeyword::Rate("ceil", 8).Repeat(TcRepeat::ONCE),
         TcKeyword::Rate("rate", 8).Repeat(TcRepeat::ONCE)});
    TcOptions parsed = grammar.Parse(options);
    const std::string name = "class " + FormatHtbClassId(minor);
    if (!parsed.Has("rate"))
    {
        parsed.Reject("rate", "is required (" + name + ")");
    }
    HtbClassConfig config;
    config.id = minor;
    config.parent = parentMinor;
    const bool atm = parsed.GetChoice("linklayer").value_or("ethernet") != "ethernet";
    auto rate = [&](uint64_t bitsPerSecond) {
        HtbRate r;
        r.bytesPerSecond = bitsPerSecond / 8;
        r.overhead = static_cast<int32_t>(parsed.GetUnsigned("overhead").value_or(0));
        r.mpu = static_cast<uint32_t>(parsed.GetUnsigned("mpu").value_or(0));
        r.atm = atm;
        return r;
    };
    config.rate = rate(*parsed.GetRate("rate"));
    // tc: ceil defaults to rate.
    config.ceil = rate(parsed.GetRate("ceil").value_or(*parsed.GetRate("rate")));
    config.burst = static_cast<uint32_t>(parsed.GetSize("burst").value_or(0));
    config.cburst = static_cast<uint32_t>(parsed.GetSize("cburst").value_or(0));
    config.prio = static_cast<uint32_t>(parsed.GetUnsigned("prio").value_or(0));
    config.quantum = static_cast<uint32_t>(parsed.GetUnsigned("quantum").value_or(0));
    config.mtu = static_cast<uint32_t>(parsed.GetUnsigned("mtu").value_or(1600));
    return config;
}

std::vector<std::string>
SplitHtbClassLines(const std::string& text)
{
    std::vector<std::string> lines;
    std::string line;
    for (char c : text + ";")
    {
        if (c == ';' || c == '\n')
        {
            if (line.find_first_not_of(" \t\r") != std::string::npos)
            {
                lines.push_back(line);
            }
            line.clear();
        }
        else
        {
            line += c;
        }
    }
    return lines;
}

std::string
HtbModeName(HtbMode mode)
{
    switch (mode)
    {
    case HtbMode::CANT_SEND:
        return "HTB_CANT_SEND";
    case HtbMode::MAY_BORROW:
        return "HTB_MAY_BORROW";
    case HtbMode::CAN_SEND:
        return "HTB_CAN_SEND";
    }
    return "HTB_MODE_" + std::to_string(static_cast<int>(mode));
}

std::string
FormatHtbClassId(uint32_t id)
{
    std::ostringstream os;
    os << "1:" << std::hex << id;
    return os.str();
}

} // namespace debloat
} // namespace ns3
