#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# CTest workflow.local: the test sweep (workflow/config/test-sweep.yaml) with Snakemake on
# this machine, checked by check-sweep.py; then what the manual promises about re-runs:
# - a second run does nothing, and a forced merge gives the same rows, none twice;
# - a point that fails once is re-run by Snakemake (the rule's retries) and the sweep
#   completes with the same results;
# - a point that keeps failing is reported by name, the other points' results are kept,
#   and the same command run again runs only that point.
# Usage: local-sweep.sh FLENT_RUN WORKDIR (WORKDIR/local is workflow.slurm's reference).
set -eu
[ $# -eq 2 ] || { echo "usage: $0 FLENT_RUN WORKDIR" >&2; exit 2; }
flent_run=$1
work=$2
. "$(dirname "$0")/common.sh"
rm -rf "$work"
mkdir -p "$work"
cd "$work"

echo "== the sweep, 2 cores"
run local.log --cores 2 --config results=local "flent_run=$flent_run"
check local

echo "== again: nothing to do; a forced merge duplicates nothing"
run again.log --cores 2 --config results=local "flent_run=$flent_run"
grep -q "Nothing to be done" again.log || fail again.log "the second run ran jobs"
merged=$(ls -i "local/$sweep_name/sweep.sqlite")
run merge.log --cores 2 --forcerun merge --config results=local "flent_run=$flent_run"
# The merge wrote a new file (and renamed it over the old one): it did run.
[ "$(ls -i "local/$sweep_name/sweep.sqlite")" != "$merged" ] || fail merge.log "no merge ran"
check local

# A flent-run that fails for one point (fq_codel, BQL, RngRun 2): once, or every time.
cat >failing-flent-run <<WRAPPER
#!/bin/sh
case "\$*" in
*--qdisc=fq_codel*--bql=true*--RngRun=2*)
    if [ "\$FAIL" = always ] || [ ! -e "$work/failed-once" ]; then
        touch "$work/failed-once"
        echo "failing-flent-run: failing on purpose" >&2
        exit 1
    fi ;;
esac
exec "$flent_run" "\$@"
WRAPPER
chmod +x failing-flent-run
failing="flent_run=$work/failing-flent-run"

echo "== a point that fails once is re-run"
FAIL=once run retry.log --cores 2 --config results=retry "$failing"
[ -e failed-once ] || fail "" "the wrapper never failed"
grep -q "Trying to restart job" retry.log || fail retry.log "no restart"
check retry --compare "local/$sweep_name"

echo "== a point that keeps failing is reported; the others are kept"
if FAIL=always snake --cores 2 --keep-going --config results=failing "$failing" >failing.log 2>&1; then
    fail failing.log "the sweep succeeded with a failing point"
fi
point=$(cd "local/$sweep_name/points" && ls -d fq-codel_true-*_2-*)
grep -q "1 of 8 points have no results" failing.log && grep -q "  $point: " failing.log ||
    fail failing.log "the failed point ($point) is not reported"
kept=$(ls failing/$sweep_name/points/*/results.sqlite | wc -l)
[ "$kept" -eq 7 ] || fail "" "$kept points kept, 7 expected"
# The same command with a working flent-run runs that point only: the others' files stay
# the same files (inodes).
ls -i failing/$sweep_name/points/*/results.sqlite >before.txt
run rerun.log --cores 2 --config results=failing "flent_run=$flent_run"
ls -i failing/$sweep_name/points/*/results.sqlite | grep -v "/$point/" >after.txt
cmp -s before.txt after.txt || fail "" "the re-run re-ran finished points: $(diff before.txt after.txt)"
check failing --compare "local/$sweep_name"
echo "workflow.local: passed"
