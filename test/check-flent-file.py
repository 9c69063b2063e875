#!/usr/bin/env python3
#
# Copyright (c) 2026 The debloat authors
#
# SPDX-License-Identifier: GPL-2.0-only
"""Check that the real flent loads, summarises and plots a flent data file.

Usage: check-flent-file.py FILE TEST [PLOT...]

Runs `flent -i FILE -f plot -p PLOT -o PLOT.png` for each PLOT (without -p, the test's default
plot, when no PLOT is given), then `-f summary` and `-f stats`, in a temporary directory with
MPLBACKEND=Agg.
flent often exits 0 after a failure, so this judges by its logs and output files: a log with
ERROR, Traceback or Exception, a missing, empty or non-PNG image, a summary that lacks a series
of the file's results or reports "No data" fails the check.

Exit status: 0 passed, 1 failed, 2 usage error, 77 skipped (flent is not installed).
"""

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

BAD_LOG = re.compile(r"ERROR|Traceback|Exception")


def load(path):
    """The file's JSON document (gzip when the name ends in .gz, as flent decides)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fp:
        return json.load(fp)


def is_png(path):
    """True when the file starts with the PNG signature."""
    with open(path, "rb") as fp:
        return fp.read(8) == b"\x89PNG\r\n\x1a\n"


def run_flent(flent, args, log):
    """Runs flent with args, its output into log; returns the log's error lines."""
    env = dict(os.environ, MPLBACKEND="Agg")
    env.pop("DISPLAY", None)
    with open(log, "w") as fp:
        try:
            subprocess.run(
                [flent] + args, stdout=fp, stderr=subprocess.STDOUT, env=env, timeout=300
            )
        except subprocess.TimeoutExpired:
            return ["flent timed out after 300 s"]
    with open(log) as fp:
        lines = [line.rstrip() for line in fp if line.strip()]
    errors = [line for line in lines if BAD_LOG.search(line) and "Traceback" not in line]
    if any("Traceback" in line for line in lines):
        errors.append(lines[-1])  # the exception that ended the traceback
    return errors


def check_plots(flent, path, plots, out):
    """Renders each plot (None: the default plot); returns the failures."""
    failures = []
    for plot in plots:
        name = plot or "default-plot"
        png = os.path.join(out, name + ".png")
        # Without -f plot, flent would write its summary into the .png file.
        args = ["-i", path, "-f", "plot", "-o", png] + (["-p", plot] if plot else [])
        errors = run_flent(flent, args, os.path.join(out, name + ".log"))
        size = os.path.getsize(png) if os.path.exists(png) else 0
        if errors or size == 0 or not is_png(png):
            failures.append("plot %s: %d-byte file; %s" % (name, size, "; ".join(errors[:3])))
        else:
            print("ok   plot %s (%d bytes)" % (name, size))
    return failures


def check_formats(flent, path, expected, out):
    """Runs -f summary and -f stats; returns the failures."""
    failures = []
    for fmt in ("summary", "stats"):
        text = os.path.join(out, fmt + ".txt")
        args = ["-i", path, "-f", fmt, "-o", text]
        errors = run_flent(flent, args, os.path.join(out, fmt + ".log"))
        if errors or not os.path.exists(text) or os.path.getsize(text) == 0:
            failures.append("-f %s: empty or errors; %s" % (fmt, "; ".join(errors[:3])))
            continue
        if fmt == "summary":
            with open(text) as fp:
                lines = fp.read().splitlines()
            listed = {m.group(1) for m in (re.match(r"^ (.+?)\s+: ", s) for s in lines) if m}
            missing = [s for s in expected if s not in listed]
            no_data = [s.strip() for s in lines if "No data" in s]
            if missing or no_data:
                failures.append("-f summary: not listed %s; no data %s" % (missing, no_data))
                continue
        print("ok   -f %s" % fmt)
    return failures


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    path, test, plots = os.path.abspath(argv[0]), argv[1], argv[2:]
    flent = shutil.which("flent")
    if not flent:
        print("SKIP: flent is not installed (apt-get install flent); %s was not checked" % path)
        return 77
    try:
        doc = load(path)
    except (OSError, ValueError) as e:
        print("FAIL: %s is not a readable flent data file: %s" % (path, e))
        return 1
    failures = []
    name = doc.get("metadata", {}).get("NAME")
    if name != test:
        failures.append("metadata NAME is %r, not %r" % (name, test))
    expected = sorted(doc.get("results", {}))
    with tempfile.TemporaryDirectory(prefix="check-flent-") as out:
        failures += check_plots(flent, path, plots or [None], out)
        failures += check_formats(flent, path, expected, out)
    for failure in failures:
        print("FAIL " + failure)
    verdict = "FAIL" if failures else "PASS"
    print(
        "%s: %s as flent test %s (plots: %s; summary must list %d result series)"
        % (verdict, path, test, ", ".join(plots or ["default"]), len(expected))
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
