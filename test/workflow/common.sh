# SPDX-License-Identifier: GPL-2.0-only
# Shared by the workflow tests (sourced): the tools they need, and the sweep they run.

repo=$(cd "$(dirname "$0")/../.." && pwd)
sweep_file="$repo/workflow/config/test-sweep.yaml"
sweep_name=test-sweep

# A tool that is missing skips the test (77), or fails it where the caller requires every
# tool (scripts/debian12.sh test sets DEBLOAT_REQUIRE_TOOLS=1: CI must not skip).
need() {
    if ! command -v "$1" >/dev/null 2>&1; then
        if [ "${DEBLOAT_REQUIRE_TOOLS:-0}" = 1 ]; then
            echo "FAIL: $1 is not installed ($2)"
            exit 1
        fi
        echo "SKIP: $1 is not installed ($2)"
        exit 77
    fi
}
need snakemake "apt-get install snakemake"
# The checker runs with snakemake's Python, which has PyYAML.
python=$(sed -n '1s/^#! *//p' "$(command -v snakemake)")
case "$python" in
*python*) ;;
*) python=python3 ;;
esac

# snakemake ARGS...: the workflow on the test sweep with the given flent-run.
snake() {
    snakemake -s "$repo/workflow/Snakefile" --configfile "$sweep_file" "$@"
}

# run LOG ARGS...: snake ARGS with its output in LOG, shown when it fails.
run() {
    log=$1
    shift
    snake "$@" >"$log" 2>&1 || {
        cat "$log"
        echo "FAIL: snakemake $*"
        exit 1
    }
}

# fail LOG MESSAGE: shows LOG and fails the test with MESSAGE.
fail() {
    [ -z "$1" ] || cat "$1"
    echo "FAIL: $2"
    exit 1
}

# check RESULTS [--compare OTHER]: check-sweep.py on RESULTS/test-sweep.
check() {
    results=$1
    shift
    $python "$repo/test/workflow/check-sweep.py" "$sweep_file" "$results/$sweep_name" \
        "$flent_run" "$@"
}
