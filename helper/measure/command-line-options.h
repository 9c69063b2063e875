/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COMMAND_LINE_OPTIONS_H
#define COMMAND_LINE_OPTIONS_H

#include "ns3/command-line.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief Checked command-line options for the examples and users' scripts.
 *
 * CommandLine::AddValue reads an unsigned option with operator>>, which turns "-1" into
 * 4294967295, and a rate through DataRate, which aborts on tc's spelling "100Mbit". These
 * adders parse the value themselves: a value that is malformed or out of range stops the
 * program (exit status 1) with a message that names the option, what was given and what is
 * accepted, before anything is simulated.
 */
class CommandLineOptions
{
  public:
    /**
     * Adds --name, an unsigned integer from min to max.
     * @param cmd the command line
     * @param name the option
     * @param help its help text (the default and the range are appended)
     * @param dest where the value goes (its value before parsing is the default)
     * @param min the smallest accepted value
     * @param max the largest accepted value
     */
    static void AddUnsigned(CommandLine& cmd,
                            const std::string& name,
                            const std::string& help,
                            uint32_t& dest,
                            uint32_t min,
                            uint32_t max);

    /**
     * Adds --name, a finite number from min to max.
     * @param cmd the command line
     * @param name the option
     * @param help its help text (the default and the range are appended)
     * @param dest where the value goes (its value before parsing is the default)
     * @param min the smallest accepted value
     * @param max the largest accepted value
     */
    static void AddDouble(CommandLine& cmd,
                          const std::string& name,
                          const std::string& help,
                          double& dest,
                          double min,
                          double max);

    /**
     * Adds --name, a comma-separated list of unsigned integers, each from min to max.
     * @param cmd the command line
     * @param name the option
     * @param help its help text (the default and the range are appended)
     * @param dest where the values go (its value before parsing is the default)
     * @param min the smallest accepted value
     * @param max the largest accepted value
     */
    static void AddUnsignedList(CommandLine& cmd,
                                const std::string& name,
                                const std::string& help,
                                std::vector<uint32_t>& dest,
                                uint32_t min,
                                uint32_t max);

    /**
     * Adds --name, a link rate in ns-3's units ("100Mbps", megabits) or tc's bit units
     * ("100Mbit", "1gbit"). A value in ns-3's units is stored as given; tc's is stored as
     * "<bits>bps". tc's byte units ("12mbps" = 12 megaBYTES/s) are refused: with ns-3's
     * "Mbps" (megabits) they would be read two ways.
     * @param cmd the command line
     * @param name the option
     * @param help its help text (the default and the units are appended)
     * @param dest where the value goes (its value before parsing is the default)
     */
    static void AddRate(CommandLine& cmd,
                        const std::string& name,
                        const std::string& help,
                        std::string& dest);

    /**
     * Adds --name, a time in ns-3's syntax ("1ms", "20us", "0.5s"; a bare number is seconds)
     * from 0 to maxSeconds, stored as given.
     * @param cmd the command line
     * @param name the option
     * @param help its help text (the default and the range are appended)
     * @param dest where the value goes (its value before parsing is the default)
     * @param maxSeconds the largest accepted time, s
     */
    static void AddTime(CommandLine& cmd,
                        const std::string& name,
                        const std::string& help,
                        std::string& dest,
                        double maxSeconds);

    /**
     * Reads a time as AddTime() accepts it.
     * @param text the value
     * @return the time in seconds (>= 0), or nullopt if malformed
     */
    static std::optional<double> ParseTime(const std::string& text);

    /**
     * Reads an unsigned integer: decimal digits only, no sign.
     * @param text the value
     * @param min the smallest accepted value
     * @param max the largest accepted value
     * @return the value, or nullopt if malformed or out of range
     */
    static std::optional<uint32_t> ParseUnsigned(const std::string& text,
                                                 uint32_t min,
                                                 uint32_t max);

    /**
     * Reads a rate as AddRate() accepts it.
     * @param text the value
     * @return the rate in bit/s (> 0), or nullopt if malformed, zero or in tc's byte units
     */
    static std::optional<uint64_t> ParseRate(const std::string& text);
};

} // namespace debloat
} // namespace ns3

#endif // COMMAND_LINE_OPTIONS_H
