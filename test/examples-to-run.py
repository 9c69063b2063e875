#! /usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# Examples that ns-3's test.py runs: (command, run condition, valgrind condition). Reduced
# durations keep them within seconds. An entry with --check=1 asserts the example's result
# (its header derives the check); the ones marked "smoke test" check the exit status only.

cpp_examples = [
    # The tutorial: --check asserts the upload goodput cake's accounting allows (its header).
    ("debloat-tutorial --length=3 --check=1", "True", "False"),
    # Smoke test: one configuration, exit status only.
    ("bql-latency-under-load --duration=3 --config=fq_codel+bql", "True", "False"),
    ("bql-latency-under-load --duration=8 --check=1", "True", "False"),
    # Smoke tests: HTB in front of SFQ, and ns-3's PointToPointNetDevice; exit status only.
    ("bql-latency-under-load --duration=3 --config=sfq+bql+htb92", "True", "False"),
    ("bql-latency-under-load --duration=3 --device=p2p --ring=256 --config=fq_codel", "True", "False"),
    # Smoke test: the benchmark's figures depend on the machine; exit status only.
    ("nic-benchmark --duration=1 --rate=100Mbps", "True", "False"),
    # Smoke test: offloads on and off at 1 Gbit/s; the figures depend on the machine.
    ("offload-benchmark --length=1 --rate=1Gbps", "True", "False"),
    # Smoke tests: flent-run with BQL, and with cake's ack-filter; exit status only (the flent.*
    # tests load its files in the real flent).
    ("flent-run --test=rrul_be --length=2 --delay=1 --qdisc=fq_codel --bql=1 --db=none --progress=0", "True", "False"),
    ("flent-run --test=rrul_be --length=2 --delay=1 --rate=1Gbps --qdisc='cake bandwidth 50Mbit ack-filter' --db=none --progress=0", "True", "False"),
    ("gige-aqm-comparison --length=2 --delay=1 --db=none --check=1", "True", "False"),
    # The seed's hosts with TSO, GSO, GRO and TSQ: the same check.
    ("gige-aqm-comparison --length=2 --delay=1 --db=none --check=1 --offloads=1", "True", "False"),
    # Smoke test: the NUCs' and the rangeley's CPUs (--check does not cover them).
    ("gige-aqm-comparison --length=2 --delay=1 --db=none --cpu=1 --configs=fq_codel+bql", "True", "False"),
    # Smoke test: issue 18's variant, the rangeley's egress the bottleneck, RSS steering and a
    # qdisc per TX queue (the per-flow table; exit status only).
    ("gige-aqm-comparison --length=2 --delay=1 --db=none --egressRate=500Mbps --rss=1 --configs=fq_codel+bql,mq-fq_codel+bql", "True", "False"),
    ("wrt1200ac-cake-shaping --length=2 --delay=1 --db=none --check=1", "True", "False"),
    ("wrt1200ac-cake-shaping --length=2 --delay=1 --db=none --check=1 --offloads=1", "True", "False"),
    ("wrt1200ac-cake-shaping --length=2 --delay=1 --db=none --check=1 --cpu=1", "True", "False"),
    ("wrt1200ac-cake-shaping --length=2 --delay=1 --db=none --check=1 --cpu=1 --shaper=htb+cake", "True", "False"),
    ("wrt1200ac-cake-overhead --floodLength=0.15 --db=none --check=1", "True", "False"),
    ("wifi-ring-latency --length=30 --delay=2 --db=none --check=1", "True", "False"),
    # Smoke test: the benchmark's figures depend on the machine; exit status only.
    ("qdisc-benchmark --packets=1000 --backlog=10", "True", "False"),
    ("netperf-rr --sizes=1400,14000 --streams=50 --length=1 --db=none --check=1", "True", "False"),
    # Smoke test: both hosts on a CPU profile (netperf -c/-C columns); exit status only.
    ("netperf-rr --sizes=1 --streams=10 --length=1 --db=none --cpu=generic", "True", "False"),
]

python_examples = []
