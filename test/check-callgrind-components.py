#!/usr/bin/env python3
#
# Copyright (c) 2026 The debloat authors
#
# SPDX-License-Identifier: GPL-2.0-only
"""Checks scripts/callgrind-components.py on a hand-written callgrind profile.

Usage: check-callgrind-components.py

The profile (callgrind's format, with name compression and relative positions) is one
simulation of three events: two of a PointToPoint device (Notify() 100 instructions of its
own, then Node::ReceiveFromDevice(): 270 of the stack's own, ArpL3Protocol::Lookup() 30 and
TrafficControlLayer::Send() 200) and one TCP timer (222 of its own, then
TrafficControlLayer::Send() 50). The device's Send() recurses: 10 of its 200 run in a
second level, "Send()'2", which callgrind names apart and which is inside the 200 already.
EventImpl::Invoke() adds 20 of its own and 8 of logging; ProcessOneEvent() 100 of its own;
the run's total is 1000.

    components = 600 (the device's events) - 500 (ReceiveFromDevice) + 250 (TC::Send, both
                 calls) + 30 (ARP) + 100 x 2/3 (the scheduler's share, 2 of 3 events)
               = 446.67
    stack      = 1000 - 446.67 = 553.33 (= 20 + 8 + 270 + 222 + 100 x 1/3)

Per packet, with 2 packets: whole run 500, components 223 (223.3), stack 277 (276.7);
events per packet 1.50, the components' 1.00.

Exit status: 0 passed, 1 failed.
"""

import os
import subprocess
import sys
import tempfile

PROFILE = """# callgrind format
version: 1
creator: hand-written
positions: line
events: Ir
summary: 1000

fl=(1) simulator.cc
fn=(1) ns3::DefaultSimulatorImpl::ProcessOneEvent()
10 100
cfn=(2) ns3::EventImpl::Invoke()
calls=3 20
+2 900

fn=(2)
20 20
cfn=(3) ns3::LogComponent::IsEnabled(ns3::LogLevel) const
calls=3 5
+1 8
cfn=(4) ns3::MakeEvent<void (ns3::PointToPointNetDevice::*)(ns3::Ptr<ns3::Packet>)>::EventMemberImpl1::Notify()
calls=2 5
+1 600
cfn=(5) ns3::MakeEvent<void (ns3::TcpSocketBase::*)()>::EventMemberImpl0::Notify()
calls=1 5
* 272

fn=(3)
5 8

fl=(2) device.cc
fn=(4)
30 100
cfn=(6) ns3::Node::ReceiveFromDevice(ns3::Ptr<ns3::NetDevice>, bool)
calls=2 40
+1 500

fn=(6)
40 270
cfn=(7) ns3::ArpL3Protocol::Lookup(ns3::Ptr<ns3::Packet>)
calls=2 50
+1 30
cfn=(8) ns3::TrafficControlLayer::Send(ns3::Ptr<ns3::NetDevice>)
calls=2 60
+1 200

fn=(7)
50 30

fn=(8)
60 190
cfn=(9) ns3::TrafficControlLayer::Send(ns3::Ptr<ns3::NetDevice>)'2
calls=1 60
+1 10

fn=(9)
60 10

fn=(5)
70 222
cfn=(8)
calls=1 60
+1 50

fn=(8)
60 50
"""

EXPECTED = [
    "instructions per packet (2 packets)",
    "  whole run          500",
    "  stack              277",
    "  components         223",
    "events per packet: 1.50, of which the components' 1.00",
]


def main():
    script = os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "callgrind-components.py"
    )
    failures = []
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "callgrind.out")
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(PROFILE)
        result = subprocess.run(
            [sys.executable, script, path, "2"], capture_output=True, text=True, check=False
        )
        if result.returncode != 0 or result.stdout.splitlines() != EXPECTED:
            failures.append(
                "split: status %d, printed\n%s\nexpected\n%s"
                % (result.returncode, result.stdout + result.stderr, "\n".join(EXPECTED))
            )
        # Bad input names the parameter and what it accepts.
        result = subprocess.run(
            [sys.executable, script, path, "0"], capture_output=True, text=True, check=False
        )
        if result.returncode != 2 or "PACKETS is '0'; accepted" not in result.stderr:
            failures.append("PACKETS 0: status %d, %s" % (result.returncode, result.stderr))
        empty = os.path.join(directory, "empty.out")
        with open(empty, "w", encoding="utf-8") as stream:
            stream.write("events: Ir\nsummary: 5\nfn=(1) main\n1 5\n")
        result = subprocess.run(
            [sys.executable, script, empty, "2"], capture_output=True, text=True, check=False
        )
        if result.returncode != 1 or "no events under" not in result.stderr:
            failures.append("no events: status %d, %s" % (result.returncode, result.stderr))
    for failure in failures:
        print("FAIL " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
