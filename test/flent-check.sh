#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# One CTest check of a flent test: examples/flent-run writes the test's data file (short
# LENGTH), then test/check-flent-file.py has the real flent load, summarise and plot it.
# Usage: flent-check.sh FLENT_RUN CHECKER OUTDIR TEST [PLOT...]
# FLENT_RUN_ARGS: more flent-run options (e.g. --cpu=generic); FLENT_RUN_SUFFIX: appended to
# the data file's name, so that two checks of one test keep their files apart.
# Exit status: the checker's (77 when flent is not installed: CTest reports a skip).
set -eu
runner=$1
checker=$2
outdir=$3
test=$4
shift 4
mkdir -p "$outdir"
file="$outdir/$test${FLENT_RUN_SUFFIX:-}.flent.gz"
# shellcheck disable=SC2086 # FLENT_RUN_ARGS is a list of options
"$runner" --test="$test" --length=4 --delay=1 --output="$file" --db=none --progress=false \
    ${FLENT_RUN_ARGS:-}
exec python3 "$checker" "$file" "$test" "$@"
