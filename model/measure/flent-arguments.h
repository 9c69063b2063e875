/*
 * Copyright (c) 2026 The debloat authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLENT_ARGUMENTS_H
#define FLENT_ARGUMENTS_H

#include <string>
#include <vector>

/**
 * @file
 * @ingroup debloat-measurement
 * flent's command-line spellings (flent/settings.py, flent 2.1.1) turned into the
 * `--name=value` options that ns-3's CommandLine reads.
 */

namespace ns3
{
namespace debloat
{

/**
 * @ingroup debloat-measurement
 * @brief Rewrites a flent command line (`flent-run rrul_be -l 60 -H server -t "cake 50"
 * --test-parameter upload_streams=4`) into ns-3's `--name=value` options, so that a user can
 * type what they type for flent.
 *
 * - flent's options with a value, short or long, as "-l 60", "-l60", "--length 60" or
 *   "--length=60": -l/--length (length), -s/--step-size (step), -d/--delay (delay),
 *   -t/--title-extra (title), -n/--note (note), -H/--host (host), -D/--data-dir (dataDir),
 *   -o/--output (output), -p/--plot (plot), --test-parameter (testParameter),
 *   --batch-repetitions and --repetitions (repetitions);
 * - the flag --socket-stats (socketStats=true);
 * - repeated -H and --test-parameter are joined, as flent collects them: hosts with ',',
 *   parameters with ';' (flent's own separator inside one --test-parameter);
 * - the first bare word is the test (test), later bare words are hosts (flent's
 *   auto-detection reads an unknown word as a host name);
 * - everything else (the program's own `--qdisc=...`, ns-3's `--RngRun=3`) is kept as it is.
 */
class FlentArguments
{
  public:
    /**
     * @param args the command line, args[0] the program
     * @return the same command line in ns-3's spelling, args[0] first
     * @throws std::invalid_argument naming the option when a flent option lacks its value (it
     * ends the line, or an option follows it, as argparse reads "-l --db=none")
     */
    static std::vector<std::string> Normalise(const std::vector<std::string>& args);
};

} // namespace debloat
} // namespace ns3

#endif /* FLENT_ARGUMENTS_H */
