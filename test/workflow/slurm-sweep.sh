#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# CTest workflow.slurm: the test sweep through the repository's Slurm profile
# (workflow/profiles/slurm) on a real single-node Slurm cluster that this script starts
# (single-node-slurm.sh, as root or through sudo) and stops, checked by check-sweep.py
# and compared with workflow.local's run: the same points, rows and flent files.
# Usage: slurm-sweep.sh FLENT_RUN WORKDIR (workflow.local's WORKDIR).
set -eu
[ $# -eq 2 ] || { echo "usage: $0 FLENT_RUN WORKDIR" >&2; exit 2; }
flent_run=$1
work=$2
. "$(dirname "$0")/common.sh"
need slurmctld "apt-get install slurm-wlm munge"
need munged "apt-get install munge"
[ -f "$work/local/$sweep_name/sweep.sqlite" ] || fail "" "run workflow.local first"
as_root=""
if [ "$(id -u)" -ne 0 ]; then
    sudo -n true 2>/dev/null || fail "" "starting Slurm needs root or sudo"
    as_root="sudo -n"
fi
cluster="$work/slurm-cluster"
export SLURM_CONF="$cluster/slurm.conf"
trap '$as_root "$repo/test/workflow/single-node-slurm.sh" stop "$cluster"' EXIT INT TERM
$as_root "$repo/test/workflow/single-node-slurm.sh" start "$cluster"

cd "$work"
rm -rf slurm slurm-logs
echo "== the sweep through the Slurm profile"
if ! snake --profile "$repo/workflow/profiles/slurm" --config results=slurm "flent_run=$flent_run" \
    >slurm.log 2>&1; then
    tail -n 20 slurm-logs/* "$cluster"/*.log || true
    fail slurm.log "the sweep failed on Slurm"
fi
# Every point ran as a Slurm job: one sbatch output per point.
jobs=$(ls slurm-logs/point-*.out | wc -l)
[ "$jobs" -eq 8 ] || fail slurm.log "$jobs Slurm jobs, 8 points"
check slurm --compare "local/$sweep_name"
echo "workflow.slurm: passed"
