#!/usr/bin/env python3
#
# Copyright (c) 2026 The debloat authors
#
# SPDX-License-Identifier: GPL-2.0-only
"""Checks flent-run --rig on seed 000's rig against numbers derived from the rig.

Usage: check-flent-rig.py FLENT_RUN OUTDIR

Runs a 10 s tcp_upload over --rig=laptop-server (the laptop's e1000e with "ethtool -G eth0
tx 64", 100 Mbit/s, 1 ms each way, NicTopologyHelper::Preset()) through pfifo_fast without
BQL, and reads the flent file it writes. Derivation:
- A full frame on the wire: the 1500-byte IP packet, 14 bytes of Ethernet header, 4 of FCS,
  8 of preamble and 12 of gap: 1538 bytes, 123.04 us at 100 Mbit/s. A TCP segment carries
  1448 bytes of it (20 IP, 20 TCP and 12 of timestamp option): the goodput is at most
  100 x 1448 / 1538 = 94.15 Mbit/s.
- The FIFO (txqueuelen 1000) is fifty times the path's BDP (2.3 ms x 100 Mbit/s, 19
  frames), so once slow start has filled it the link never idles, losses or not: over 10 s
  the upload keeps at least 95% of 94.15 Mbit/s (slow start to a full FIFO takes well under
  the other 5%, 0.5 s).
- TCP grows its window until it loses a segment, and the only place it can lose one is the
  full FIFO: the laptop's qdisc drops (dropped > 0).
- A ping waits at most behind a full FIFO and a full ring: 1000 + 64 frames, 130.9 ms over
  the idle RTT (the smallest ping).
- The file names the rig's hosts (qdisc_stats_laptop, the laptop's egress; qdisc_stats_server,
  the server's) and its egress metadata the rig's ring (tx 64) and speed.

Exit status: 0 passed, 1 failed, 2 usage error.
"""

import gzip
import json
import os
import shutil
import subprocess
import sys

FRAME_US = 1538 * 8 / 100.0  # 123.04 us at 100 Mbit/s
GOODPUT_MAX = 100.0 * 1448 / 1538  # Mbit/s


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    runner, outdir = sys.argv[1], sys.argv[2]
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    path = os.path.join(outdir, "rig.flent.gz")
    subprocess.run(
        [runner, "--rig=laptop-server", "--test=tcp_upload", "--length=10", "--delay=2",
         "--qdisc=pfifo_fast", "--db=none", "--progress=false", "--output=" + path],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    with gzip.open(path, "rt") as stream:
        data = json.load(stream)
    results, metadata = data["results"], data["metadata"]
    failures = []
    x = data["x_values"]
    load = [i for i, t in enumerate(x) if 2 <= t < 12]  # the 10 s of load
    goodput = [results["TCP upload"][i] for i in load if results["TCP upload"][i] is not None]
    mean = sum(goodput) / len(goodput) if goodput else 0
    if not 0.95 * GOODPUT_MAX <= mean <= GOODPUT_MAX * 1.001:
        failures.append("upload %.2f Mbit/s; expected 95-100%% of %.2f" % (mean, GOODPUT_MAX))
    pings = [v for v in results["Ping (ms) ICMP"] if v is not None]
    bound = min(pings) + (1000 + 64) * FRAME_US / 1000
    if max(pings) > bound:
        failures.append("ping %.2f ms above a full FIFO and ring, %.2f" % (max(pings), bound))
    drops = [v for v in results.get("qdisc_stats_laptop::dropped", []) if v is not None]
    if not drops or max(drops) <= 0:
        failures.append("the laptop's FIFO never dropped: %s" % drops[-3:])
    if "qdisc_stats_server::backlog_bytes" not in results:
        failures.append("no qdisc_stats_server series: %s" % sorted(results)[:6])
    egress = metadata.get("EGRESS_INFO", {})
    if egress.get("ring", {}).get("tx") != 64 or egress.get("driver") != "e1000e":
        failures.append("EGRESS_INFO is not the laptop's e1000e with tx 64: %s" % egress)
    if egress.get("link_params", {}).get("speed") != "100Mb/s":
        failures.append("EGRESS_INFO speed %s, expected 100Mb/s" % egress.get("link_params"))
    for failure in failures:
        print("FAIL " + failure)
    if not failures:
        print("PASS upload %.2f Mbit/s, ping %.1f-%.1f ms (bound %.1f)" % (
            mean, min(pings), max(pings), bound))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
