/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flent-arguments.h"

#include <cctype>
#include <map>
#include <stdexcept>

namespace ns3
{
namespace debloat
{

namespace
{

/// flent's options that take a value: spelling -> the program's option.
const std::map<std::string, std::string> VALUED = {{"-l", "length"},
                                                   {"--length", "length"},
                                                   {"-s", "step"},
                                                   {"--step-size", "step"},
                                                   {"-d", "delay"},
                                                   {"--delay", "delay"},
                                                   {"-t", "title"},
                                                   {"--title-extra", "title"},
                                                   {"-n", "note"},
                                                   {"--note", "note"},
                                                   {"-H", "host"},
                                                   {"--host", "host"},
                                                   {"-D", "dataDir"},
                                                   {"--data-dir", "dataDir"},
                                                   {"-o", "output"},
                                                   {"--output", "output"},
                                                   {"-p", "plot"},
                                                   {"--plot", "plot"},
                                                   {"--test-parameter", "testParameter"},
                                                   {"--batch-repetitions", "repetitions"},
                                                   {"--repetitions", "repetitions"}};

/// flent's flags: spelling -> the program's boolean option.
const std::map<std::string, std::string> FLAGS = {{"--socket-stats", "socketStats"}};

/// Options that flent lets the user repeat, and the separator that joins their values.
const std::map<std::string, std::string> REPEATED = {{"host", ","}, {"testParameter", ";"}};

/// @return whether argparse takes arg as an option's value: not an option, or a negative number
bool
IsValue(const std::string& arg)
{
    return arg.empty() || arg[0] != '-' ||
           (arg.size() > 1 && (std::isdigit(static_cast<unsigned char>(arg[1])) || arg[1] == '.'));
}

} // namespace

std::vector<std::string>
FlentArguments::Normalise(const std::vector<std::string>& args)
{
    std::vector<std::string> out;
    if (args.empty())
    {
        return out;
    }
    out.push_back(args[0]);
    std::map<std::string, std::string> joined; // repeated options, in REPEATED
    std::vector<std::string> order;            // the order they first appeared
    bool haveTest = false;
    auto add = [&](const std::string& name, const std::string& value) {
        const auto repeated = REPEATED.find(name);
        if (repeated == REPEATED.end())
        {
            out.push_back("--" + name + "=" + value);
            return;
        }
        auto [it, fresh] = joined.emplace(name, value);
        if (fresh)
        {
            order.push_back(name);
        }
        else
        {
            it->second += repeated->second + value;
        }
    };
    for (std::size_t i = 1; i < args.size(); ++i)
    {
        const std::string& arg = args[i];
        if (arg.empty() || arg[0] != '-')
        {
            add(haveTest ? "host" : "test", arg);
            haveTest = true;
            continue;
        }
        const auto flag = FLAGS.find(arg);
        if (flag != FLAGS.end())
        {
            out.push_back("--" + flag->second + "=true");
            continue;
        }
        // "--length=60" and "-l60" carry their value; "--length 60" and "-l 60" take the next.
        const bool isLong = arg.compare(0, 2, "--") == 0;
        const std::size_t equals = arg.find('=');
        const std::string spelling =
            isLong ? arg.substr(0, equals) : arg.substr(0, std::min<std::size_t>(2, arg.size()));
        const auto valued = VALUED.find(spelling);
        if (valued == VALUED.end())
        {
            out.push_back(arg); // the program's own or ns-3's option
            continue;
        }
        std::string value;
        if (isLong && equals != std::string::npos)
        {
            value = arg.substr(equals + 1);
        }
        else if (!isLong && arg.size() > 2)
        {
            value = arg.substr(2);
        }
        else if (i + 1 < args.size() && IsValue(args[i + 1]))
        {
            value = args[++i];
        }
        else
        {
            throw std::invalid_argument("option " + spelling + " (" + valued->second +
                                        ") needs a value: " + spelling + " VALUE");
        }
        add(valued->second, value);
    }
    for (const std::string& name : order)
    {
        out.push_back("--" + name + "=" + joined[name]);
    }
    return out;
}

} // namespace debloat
} // namespace ns3
