#!/usr/bin/env python3
#
# Copyright (c) 2026 The debloat authors
#
# SPDX-License-Identifier: GPL-2.0-only
"""Check that the real flent reads a flent-run batch (--repetitions N) as one group of N.

Usage: check-flent-batch.py FLENT_RUN OUTDIR N [FLENT_RUN_OPTION...]

Runs FLENT_RUN with --repetitions=N into OUTDIR, then loads every data file with flent 2.1.1's
own resultset.load() and groups them with its GroupsCombiner, as box_combine and the other
combine plots do: the files must form one group titled "... (n=N)", carry one BATCH_UUID and
BATCH_NAME, and differ (the start jitter makes the repetitions differ). Then flent renders
box_combine from all of them.

Exit status: 0 passed, 1 failed, 2 usage error, 77 skipped (flent is not installed).
"""

import glob
import os
import shutil
import subprocess
import sys

FLENT_HOME = "/usr/share/flent"


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    runner, outdir, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    flent = shutil.which("flent")
    if not flent or not os.path.isdir(FLENT_HOME):
        print("SKIP: flent is not installed (apt-get install flent)")
        return 77
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    subprocess.run(
        [runner, "--repetitions=%d" % count, "--dataDir=" + outdir, "--db=none",
         "--progress=false", "--plot=box_combine"] + sys.argv[4:],
        check=True,
        env=dict(os.environ, MPLBACKEND="Agg"),
    )
    files = sorted(glob.glob(os.path.join(outdir, "batch-*.flent.gz")))
    failures = []
    if len(files) != count:
        failures.append("%d data files, expected %d" % (len(files), count))
    sys.path.insert(0, FLENT_HOME)
    from flent import combiners, resultset  # noqa: E402  (flent's own code)

    results = [resultset.load(f) for f in files]
    for key in ("BATCH_UUID", "BATCH_NAME", "BATCH_TIME"):
        values = {str(r.meta(key)) for r in results}
        if len(values) != 1 or "None" in values:
            failures.append("%s differs or is missing: %s" % (key, sorted(values)))
    combiner = combiners.get_combiner("groups")(print_n=True)
    config = {"series": [{"data": "Ping (ms) avg", "combine_mode": "mean"}], "cutoff": None}
    titles = [r.meta("TITLE") for r in combiner(results, config)]
    if len(titles) != 1 or not titles[0].endswith("(n=%d)" % count):
        failures.append("flent groups the files as %s, expected one group (n=%d)" % (titles, count))
    pings = {round(r.meta("SERIES_META")["Ping (ms) ICMP"]["MEAN_VALUE"], 9) for r in results}
    if len(pings) < 2:
        failures.append("every repetition has the same mean ping %s: no variation" % pings)
    pngs = glob.glob(os.path.join(outdir, "*-box_combine.png"))
    if len(pngs) != 1 or os.path.getsize(pngs[0]) == 0:
        failures.append("box_combine was not rendered: %s" % pngs)
    for failure in failures:
        print("FAIL: " + failure)
    if not failures:
        print("PASS: %d files, one batch, flent's group %s" % (count, titles[0]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
