#!/usr/bin/env python3
#
# Copyright (c) 2026 The debloat authors
#
# SPDX-License-Identifier: GPL-2.0-only
"""Check that every flent test flent-run knows has a CTest flent.<test> check.

Usage: check-flent-coverage.py FLENT_RUN CHECKED_TEST...

flent-run names the tests it accepts when given an unknown one ("flent test "?" is unknown;
accepted: rrul, rrul_be, ..."); each must be among CHECKED_TEST (the CMake list of flent
checks), so that the README's claim (the file of every flent test is checked by the real
flent) stays true when a test is added.

Exit status: 0 passed, 1 failed, 2 usage error.
"""

import re
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    result = subprocess.run(
        [sys.argv[1], "--test=?", "--db=none", "--progress=false"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = re.search(r"accepted: ([a-z0-9_, ]+)", result.stdout + result.stderr)
    if not match:
        print("FAIL: flent-run did not list its tests:", result.stderr.strip())
        return 1
    known = [name.strip() for name in match.group(1).split(",")]
    checked = set(sys.argv[2:])
    missing = [name for name in known if name not in checked]
    extra = sorted(checked - set(known))
    if missing or extra:
        print("FAIL: without a flent check: %s; checks of unknown tests: %s" % (missing, extra))
        return 1
    print("PASS: all %d flent tests of flent-run have a flent check" % len(known))
    return 0


if __name__ == "__main__":
    sys.exit(main())
