#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Bad input stops with a message, never a crash or a hang (issue 16).

Each row runs an example with one bad option, tc text or attribute default, and expects:
the program stops within TIMEOUT seconds with a non-zero exit status; no crash signal
(SIGSEGV, SIGFPE, SIGBUS), no uncaught exception, no std::bad_alloc; and its output holds
every expected fragment, which names the parameter and what it accepts. A NS_ABORT (ns-3's
fatal error, SIGABRT after the message) counts as a stop with a message.

usage: bad-input.py EXAMPLES_DIR
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile

TIMEOUT = 60

# Where runs that get as far as writing their flent files write them.
SCRATCH = tempfile.mkdtemp(prefix="debloat-bad-input-")

# A rate's accepted values, as CommandLineOptions::AddRate() states them.
RATE = "accepted: a rate above 0 in ns-3's units"
CAKE_WORDS = 'unknown word "{}"; accepted: bandwidth, unlimited'

# (program, arguments, expected fragments of the output)
CASES = [
    # Example options: numbers read as unsigned (-1 is not 4294967295), ranges, units.
    ("bql-latency-under-load", ["--ring=-1"], ["--ring=-1 is not accepted", "1 to 65536"]),
    ("bql-latency-under-load", ["--ring=0"], ["--ring=0 is not accepted", "1 to 65536"]),
    ("bql-latency-under-load", ["--ring=abc"], ["--ring=abc is not accepted", "whole number"]),
    ("bql-latency-under-load", ["--ring=70000"], ["--ring=70000", "1 to 65536"]),
    ("bql-latency-under-load", ["--duration=2"], ["--duration=2", "3 to 86400"]),
    ("bql-latency-under-load", ["--duration=-5"], ["--duration=-5", "3 to 86400"]),
    ("bql-latency-under-load", ["--bqlLimitMax=0"], ["--bqlLimitMax=0", "1 to 1879048192"]),
    ("bql-latency-under-load", ["--rate=100Mbyte"], ["--rate=100Mbyte", RATE]),
    ("bql-latency-under-load", ["--rate=0Mbps"], ["--rate=0Mbps", RATE]),
    ("bql-latency-under-load", ["--rate=12mbps"], ["--rate=12mbps", "refused as ambiguous"]),
    ("bql-latency-under-load", ["--config=bogus"], ["--config=bogus is unknown", "fq_codel+bql"]),
    ("bql-latency-under-load", ["--device=bogus"], ['"bogus" is unknown', "e1000e, igb"]),
    ("qdisc-benchmark", ["--flows=0"], ["--flows=0", "each from 1 to 65536"]),
    ("qdisc-benchmark", ["--flows=1,,2"], ["--flows=1,,2", "comma-separated whole numbers"]),
    ("qdisc-benchmark", ["--flows=-3"], ["--flows=-3", "each from 1 to 65536"]),
    ("qdisc-benchmark", ["--flows=64,"], ["--flows=64,", "comma-separated"]),
    ("qdisc-benchmark", ["--packets=0"], ["--packets=0", "1 to 1000000000"]),
    ("qdisc-benchmark", ["--backlog=0"], ["--backlog=0", "1 to 100000"]),
    ("qdisc-benchmark", ["--qdisc=bogus"], ["--qdisc=bogus is unknown", "pfifo_fast, fq_codel"]),
    ("flent-run", ["--step=1e-9"], ["--step=1e-9", "0.001 to 86400"]),
    ("flent-run", ["--length=1e12"], ["--length=1e12", "1 to 86400"]),
    ("flent-run", ["--length=0"], ["--length=0", "1 to 86400"]),
    ("flent-run", ["--length=nan"], ["--length=nan", "1 to 86400"]),
    ("flent-run", ["--streams=-1", "--test=tcp_nup"], ["--streams=-1", "1 to 1024"]),
    ("flent-run", ["--streams=0", "--test=tcp_nup"], ["--streams=0", "1 to 1024"]),
    ("flent-run", ["--delay=-1"], ["--delay=-1", "0 to 3600"]),
    ("flent-run", ["--delay=5000"], ["--delay=5000", "0 to 3600"]),
    ("flent-run", ["--test=bogus"], ['flent test "bogus" is unknown', "rrul, rrul_be"]),
    ("flent-run", ["--step=0.3"], ["STEP_SIZE", "divide LENGTH 20 s and DELAY 5 s"]),
    ("flent-run", ["--step=0.001", "--length=2000"], ["STEP_SIZE", "at most 1e+06"]),
    ("flent-run", ["--rate=fast"], ["--rate=fast", RATE]),
    ("flent-run", ["--profile=bogus"], ["unknown profile 'bogus'", "e1000e, igb"]),
    ("flent-run", ["--cpu=bogus"], ["unknown profile 'bogus'", "generic, laptop-2011"]),
    ("flent-run", ["--linkDelay=bogus"], ["--linkDelay=bogus", "a time from 0 to 10 s"]),
    ("flent-run", ["--hostDelay=-1ms"], ["--hostDelay=-1ms", "a time from 0 to 10 s"]),
    ("flent-run", ["-l"], ["option -l (length) needs a value"]),
    ("flent-run", ["--testParameter=upload_streams"], ['"upload_streams" must be key=value']),
    ("flent-run", ["--test-parameter", "cc_algos=bbr"], ["cc_algos is not modelled", "upload_streams"]),
    ("flent-run", ["tcp_1up", "--test-parameter", "marking=CS9"], ['marking "CS9"', "0-255"]),
    ("flent-run", ["rtt_fair", "-H", "a", "-H", "b"], ["exactly 4 hosts", "got 2"]),
    ("flent-run", ["--repetitions=0"], ["--repetitions=0", "1 to 1000"]),
    ("flent-run", ["--repetitions=2", "--output=x.flent.gz"], ["--output names one file", "--dataDir"]),
    ("flent-run", ["--startJitter=2s"], ["--startJitter=2s", "a time from 0 to 1 s"]),
    ("flent-run", ["--access=vdsl"], ["--access=vdsl", "home-50-1, docsis-100-20, adsl-20-1"]),
    ("flent-run", ["--access=adsl-20-1", "--test=rtt_fair"], ["--access has one server", "4 hosts"]),
    ("flent-run", ["--rig=home-50-1"], ["--rig=home-50-1 is not a seed's rig", "laptop-server, wifi-ap, nuc-rangeley-nuc, wrt1200ac, forcedeth-gige"]),
    ("flent-run", ["--rig=wrt1200ac", "--access=home-50-1"], ["are two topologies", "one of them"]),
    ("flent-run", ["--rig=wifi-ap", "--test=rtt_fair"], ["--rig has one server", "4 hosts"]),
    ("flent-run", ["--seedHosts=true"], ["--seedHosts=true needs --rig"]),
    ("flent-run", ["--rig=laptop-server", "--qdisc=sfq perturb"], ['"perturb" needs a value']),
    ("flent-run", ["--bqlLimitMax=8000"], ["--bqlLimitMax=8000 needs --bql=true"]),
    ("flent-run", ["--bql=true", "--bqlLimitMax=1879048193"], ["bqlLimitMax", "1879048192"]),
    ("flent-run", ["--upRate=fast"], ["--upRate=fast", RATE]),
    ("flent-run", ["--downQdisc=cake bandwidth"], ['"bandwidth" needs a value']),
    ("flent-run", ["--access=adsl-20-1", "--upQdisc=cake bandwidth"], ['"bandwidth" needs a value']),
    ("nic-benchmark", ["--duration=-1"], ["--duration=-1", "1 to 3600"]),
    ("nic-benchmark", ["--duration=0"], ["--duration=0", "1 to 3600"]),
    ("nic-benchmark", ["--rate=1Gbyte"], ["--rate=1Gbyte", RATE]),
    ("nic-benchmark", ["--device=bogus"], ["unknown profile 'bogus'", "e1000e, igb"]),
    ("netperf-rr", ["--sizes=0"], ["--sizes=0", "each from 1 to 16777216"]),
    ("netperf-rr", ["--sizes=abc"], ["--sizes=abc", "comma-separated whole numbers"]),
    ("netperf-rr", ["--streams=0"], ["--streams=0", "1 to 10000"]),
    ("netperf-rr", ["--length=0"], ["--length=0", "1 to 86400"]),
    ("netperf-rr", ["--rate=-1Mbps"], ["--rate=-1Mbps", RATE]),
    ("netperf-rr", ["--profile=bogus"], ['"bogus" is unknown', "forcedeth"]),
    ("netperf-rr", ["--cpu=bogus"], ["unknown profile 'bogus'", "generic, laptop-2011"]),
    ("gige-aqm-comparison", ["--routerQueues=9"], ["--routerQueues=9", "1 to 8"]),
    ("gige-aqm-comparison", ["--routerQueues=0"], ["--routerQueues=0", "1 to 8"]),
    ("gige-aqm-comparison", ["--limit=0"], ["--limit=0", "1 to 1000000"]),
    ("gige-aqm-comparison", ["--bqlLimitMax=-1"], ["--bqlLimitMax=-1", "0 to 1879048192"]),
    ("gige-aqm-comparison", ["--test=tcp_upload"], ["--test=tcp_upload", "rrul_be, rrul"]),
    ("gige-aqm-comparison", ["--configs=bogus"], ['"bogus" is unknown', "[mq-]QDISC[+bql]"]),
    ("gige-aqm-comparison", ["--configs=cake+bqlx"], ["\"cake+bqlx\" is unknown", "[mq-]QDISC[+bql]"]),
    ("gige-aqm-comparison", ["--step=0.3"], ["STEP_SIZE", "divide LENGTH"]),
    ("gige-aqm-comparison", ["--jobs=-1"], ["--jobs=-1", "0 to 256"]),
    ("wifi-ring-latency", ["--configs=bogus"], ['"bogus" is unknown', "ring224"]),
    ("wifi-ring-latency", ["--length=0"], ["LENGTH", "1 to 86400"]),
    ("wrt1200ac-cake-shaping", ["--rates=bogus"], ['"bogus" is not a rate', "50Mbit"]),
    ("wrt1200ac-cake-shaping", ["--cakeOptions=bogus"], [CAKE_WORDS.format("bogus")]),
    ("wrt1200ac-cake-shaping", ["--shaper=tbf"], ['--shaper: "tbf"', "cake, htb+cake, htb+fq_codel"]),
    ("wrt1200ac-cake-shaping",
     ["--cpu=1", "--rates=50Mbit", "--length=1", "--delay=1", "--ns3::debloat::HostCpu::QdiscCosts=tbf:1us"],
     ['QdiscCosts entry "tbf:1us"', "pfifo_fast, pfifo"]),
    ("wrt1200ac-cake-shaping",
     ["--cpu=1", "--rates=50Mbit", "--length=1", "--delay=1", "--ns3::debloat::HostCpu::QdiscCosts=cake:fast"],
     ["QdiscCosts cost of cake", "s, ms, us or ns"]),
    ("wrt1200ac-cake-shaping",
     ["--cpu=1", "--rates=50Mbit", "--length=1", "--delay=1", "--ns3::debloat::HostCpu::QdiscCost=-1ns"],
     ["QdiscCost is", "accepted: 0 or more"]),
    ("wrt1200ac-cake-overhead", ["--size=10"], ['--size: "10"', "from 40"]),
    ("wrt1200ac-cake-overhead", ["--floodLength=100"], ["--floodLength=100", "up to 60 s"]),
    ("wrt1200ac-cake-overhead", ["--floodRate=fast"], ["--floodRate=fast", "a tc rate"]),
    ("offload-benchmark", ["--rate=5Gbps"], ["--rate=5Gbps", "all, 1Gbps, 10Gbps"]),
    ("offload-benchmark", ["--offloads=maybe"], ["--offloads=maybe", "all, on, off"]),
    ("offload-benchmark", ["--length=0"], ["--length=0", "1 or more"]),
    ("debloat-tutorial", ["--length=0"], ["--length=0", "1 to 86400"]),
    # A --check that has nothing to compare fails rather than passing vacuously: no idle
    # pings (DELAY 0), a configuration the check does not cover.
    ("wifi-ring-latency",
     ["--configs=ring224", "--check=1", "--length=1", "--delay=0", "--db=none", "--outputDir=" + SCRATCH],
     ["ring224: no ping before the load", "--delay"]),
    ("gige-aqm-comparison",
     ["--configs=pfifo_fast", "--check=1", "--length=1", "--delay=0", "--db=none", "--outputDir=" + SCRATCH],
     ["pfifo_fast: no ping before the load", "--delay"]),
    ("gige-aqm-comparison",
     ["--configs=codel+bql", "--check=1", "--length=1", "--delay=1", "--step=0.5", "--db=none", "--outputDir=" + SCRATCH],
     ["--check covers pfifo_fast and sfq, fq_codel or cake with BQL", "no configuration --check covers ran"]),
    # tc text (TcQdiscHelper and the qdiscs' own parsers).
    ("flent-run", ["--qdisc=cake bandwidth"], ['"bandwidth" needs a value', "a rate"]),
    ("flent-run", ["--qdisc=mq"], ["tc mq: the device has 1 TX queue", "nTxQueues 2 or more"]),
    ("gige-aqm-comparison", ["--routerQueues=1", "--configs=mq-fq_codel"], ['"mq-fq_codel" puts mq on the rangeley', "--routerQueues 2 or more"]),
    ("gige-aqm-comparison", ["--egressRate=500Mbyte"], ["--egressRate=500Mbyte", RATE]),
    ("flent-run", ["--profile=igb", "--qdisc=mq; parent :9 fq_codel"], ['parent ":9" is not a TX queue', ":1 to :8"]),
    ("flent-run", ["--qdisc=cake bandwidth -5Mbit"], ['bandwidth "-5Mbit"', "a rate"]),
    ("flent-run", ["--qdisc=cake overhead 300"], ['overhead "300"', "-64..256"]),
    ("flent-run", ["--qdisc=cake diffserv5"], [CAKE_WORDS.format("diffserv5")]),
    ("flent-run", ["--qdisc=cake mpu 300"], ['mpu "300"', "0..256"]),
    ("flent-run", ["--qdisc=sfq perturb -1"], ['perturb "-1"', "0..2147483647"]),
    ("flent-run", ["--qdisc=sfq flows 0"], ["SFQ flows 0", "1 to 65408"]),
    ("flent-run", ["--qdisc=sfq bogus"], ['unknown word "bogus"', "limit, depth, flows"]),
    ("flent-run", ["--qdisc=htb default x"], ['default "x"', "0..65535"]),
    ("flent-run", ["--qdisc=fq_codel target bogus"], ['target "bogus"', "a time in"]),
    ("flent-run", ["--qdisc=fq_codel flows 0"], ['flows "0"', "1..65536"]),
    ("flent-run", ["--qdisc=pfifo limit 0"], ['limit "0"', "1..4294967295"]),
    ("flent-run", ["--qdisc=bogusqdisc"], ['qdisc "bogusqdisc" is unknown', "pfifo_fast"]),
    ("flent-run", ["--qdisc=netem bogus"], ['tc netem: unknown word "bogus"', "limit, latency, delay"]),
    ("flent-run", ["--qdisc=netem delay"], ['"delay" needs a value', "a bare number is ns"]),
    ("flent-run", ["--qdisc=netem delay 10ms 3s"], ["jitter 3s is too large", "0 to 2147483647ns"]),
    ("flent-run", ["--qdisc=netem loss 2x"], ['loss "2x"', "a percentage from 0 to 100"]),
    ("flent-run", ["--qdisc=netem loss random 1% 101%"], ['loss correlation "101%"', "0 to 100"]),
    ("flent-run", ["--qdisc=netem loss sometimes"], ['loss "sometimes" is unknown', "state P13", "gemodel P"]),
    ("flent-run", ["--qdisc=netem reorder 10%"], ["reorder needs a delay", "delay TIME above 0"]),
    ("flent-run", ["--qdisc=netem delay 1ms gap 5"], ["gap 5 specified without reorder", "reorder PERCENT"]),
    ("flent-run", ["--qdisc=netem ecn"], ["ecn requested without loss model", "loss random PERCENT"]),
    ("flent-run", ["--qdisc=netem delay 1ms 1ms distribution bogus"], ['distribution "bogus" is unknown', "uniform, normal, pareto, paretonormal"]),
    ("flent-run", ["--qdisc=netem rate fast"], ['rate "fast"', "a rate in 8.."]),
    ("flent-run", ["--qdisc=netem slot 2ms 1ms"], ["max_delay 1ms is below min_delay 2ms", "MAX_DELAY >= MIN_DELAY"]),
    ("flent-run", ["--qdisc=netem slot 1ms packets -1"], ['packets "-1"', "0..2147483647"]),
    ("flent-run", ["--qdisc=netem limit -1"], ['limit "-1"', "0..4294967295"]),
    ("flent-run", ["--hostQdisc=codel interval 0"], ['interval "0"', "a time in"]),
    # ns-3 attribute defaults a user sets on the command line win over the profiles and the
    # tc text's base, so bad ones stop instead of being silently replaced.
    ("flent-run", ["--ns3::debloat::NicNetDevice::TxRingSize=0"], ["TxRingSize=0", "33 or more"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::TxRingSize=100000"], ["TxRingSize=100000", "up to 65536"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::TxQueues=0"], ["TxQueues=0", "1 to 64"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::RxRingSize=0"], ["RxRingSize=0", "1 to 65536"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::RxQueues=0"], ["RxQueues=0", "1 to 64"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::RssIndirection=equal 9"], ["RssIndirection", "equal 9 is out of range", "equal N (1 to 1)"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::XpsCpus=zz"], ['XpsCpus=zz: "zz" is not a CPU mask', "one hex CPU mask per TX queue"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::XpsCpus=1,2"], ["XpsCpus=1,2 has more masks than TX queues", "at most TxQueues=1"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::RssKey=6d:5a:zz"], ["RssKey=6d:5a:zz", '"zz" is not a byte', "40 hex pairs"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::RssKey=6d:5a"], ["RssKey=6d:5a has 2 bytes", "40 hex pairs"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::NapiWeight=0"], ["NapiWeight=0", "1 or more"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::TxWakeThreshold=0"], ["TxWakeThreshold=0", "TxStopThreshold to TxRingSize"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::TxStopThreshold=0"], ["TxStopThreshold=0", "descriptors of a worst-case packet"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::TxWorkLimit=0"], ["TxWorkLimit=0", "1 or more"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::DynamicItr=bogus"], ["DynamicItr=bogus is unknown", "none, e1000e"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::GroMaxSize=0"], ["GroMaxSize=0", "1 to 65536"]),
    ("flent-run", ["--ns3::debloat::NicNetDevice::Mtu=10"], ["Mtu=10", "below 68"]),
    ("flent-run", ["--ns3::debloat::CakeQueueDisc::Options=bogus", "--qdisc=cake"], [CAKE_WORDS.format("bogus")]),
    ("flent-run", ["--ns3::debloat::SfqQueueDisc::Options=bogus", "--qdisc=sfq"], ['unknown word "bogus"', "perturb"]),
    ("flent-run", ["--ns3::debloat::HtbQueueDisc::Options=bogus", "--qdisc=htb default 1"], ['unknown word "bogus"', "r2q, default"]),
    ("flent-run", ["--ns3::debloat::NetemQueueDisc::Options=bogus", "--qdisc=netem"], ['tc netem: unknown word "bogus"', "delay, loss"]),
    ("flent-run", ["--ns3::debloat::NetemQueueDisc::Jitter=3s", "--qdisc=netem loss 1%"], ["jitter 3s is too large", "0 to 2147483647ns"]),
]

CRASH_SIGNALS = {signal.SIGSEGV, signal.SIGFPE, signal.SIGBUS, signal.SIGILL}
CRASH_TEXT = ["std::bad_alloc", "terminate called after throwing", "Segmentation fault"]


def run(examples, program, arguments, expected):
    """Returns a failure description, or None."""
    command = [os.path.join(examples, program)] + arguments
    if program == "flent-run":
        command += ["--db=none", "--output=" + os.devnull, "--progress=0"]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return "still running after %d s (a hang)" % TIMEOUT
    output = result.stdout + result.stderr
    if result.returncode == 0:
        return "exit status 0: the bad input was accepted"
    if result.returncode < 0 and -result.returncode in CRASH_SIGNALS:
        return "crashed with signal %d" % -result.returncode
    for text in CRASH_TEXT:
        if text in output:
            return "crashed: %s" % text
    missing = [fragment for fragment in expected if fragment not in output]
    if missing:
        return "message lacks %s; output:\n%s" % (missing, output[-1500:])
    return None


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    examples = sys.argv[1]
    failures = 0
    for program, arguments, expected in CASES:
        failure = run(examples, program, arguments, expected)
        label = "%s %s" % (program, " ".join(arguments))
        if failure:
            failures += 1
            print("FAIL %s: %s" % (label, failure))
        else:
            print("ok   %s" % label)
    shutil.rmtree(SCRATCH, ignore_errors=True)
    print("%d bad inputs, %d failed" % (len(CASES), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
