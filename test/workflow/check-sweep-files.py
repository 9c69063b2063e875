#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every sweep file shipped in workflow/config loads as the workflow loads it (CTest
workflow.configs): its keys, axes, preset and option names checked against flent-run's
--PrintHelp (workflow/scripts/sweep.py), so that an example sweep never fails at its start.

usage: check-sweep-files.py FLENT_RUN
Exit status: 0 passed, 1 failed, 2 usage error.
"""

import glob
import os
import sys

import yaml

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "workflow", "scripts"))
import sweep  # noqa: E402


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    known = sweep.flent_run_options(sys.argv[1])
    files = sorted(glob.glob(os.path.join(ROOT, "workflow", "config", "*.yaml")))
    failures = 0
    for path in files:
        with open(path, encoding="utf-8") as stream:
            config = yaml.safe_load(stream)
        try:
            loaded = sweep.Sweep(config, known)
            print("%s: %d points, preset %s" % (os.path.basename(path), len(loaded.points),
                                                loaded.preset))
        except sweep.SweepError as error:
            print("FAIL %s: %s" % (os.path.basename(path), error))
            failures += 1
    if not files:
        print("FAIL no sweep files in workflow/config")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
