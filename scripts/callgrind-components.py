#!/usr/bin/env python3
#
# Copyright (c) 2026 The debloat authors
#
# SPDX-License-Identifier: GPL-2.0-only
"""Splits a callgrind profile of one nic-benchmark run into the network stack's cost and the
cost of the components compared (the device, its queue disc and their events).

nic-benchmark --traffic=tcp compares a NIC with BQL and a queue disc against
PointToPoint with ns-3's own, on the same TCP traffic. ns-3's TCP endpoints and IP take most
of the instructions in both, and equally, so the whole-run ratio hides what the components
cost. Run one configuration under callgrind as nic-benchmark's header describes, then:

    scripts/callgrind-components.py callgrind.out.PID PACKETS

where PACKETS is the "packets" column nic-benchmark printed. It prints, per packet, the
instructions of the whole run, of the stack and of the components, and the events each ran.

The split, from the call graph (inclusive costs: a function's own instructions and those of
everything it called):
- The simulator runs every event through EventImpl::Invoke(); each Notify() it calls is an
  event's entry point (Invoke() also logs, and skips the events cancelled). Component events are those of the devices, channels, device queues,
  queue discs and the module's own (names with PointToPoint, Channel, NetDeviceQueue,
  QueueDisc, Watchdog or debloat::); the others are the stack's and the applications'
  (TCP timers, application start and stop).
- A device passes a received frame up through Node::ReceiveFromDevice(): everything under
  it is the stack's, so it is subtracted from the component events.
- The stack hands a packet down through TrafficControlLayer::Send(): everything under it
  (classification, enqueue, the qdisc run, the device's transmit) is the components', so it
  is added back, and so is ArpL3Protocol::Lookup() (the address resolution an Ethernet
  device needs and PointToPoint does not).
- The simulator's own work outside the events (the queue's insert and remove) is split by
  the number of events of each kind.

    components = component events - ReceiveFromDevice + TrafficControlLayer::Send
                 + ArpL3Protocol::Lookup + scheduler x (component events / all events)
    stack      = whole run - components

Only the callgrind output format is read (no callgrind_annotate needed).
"""

import re
import sys

COMPONENT_EVENT = re.compile(r"PointToPoint|Channel|NetDeviceQueue|QueueDisc|Watchdog|debloat::")
INVOKE = "ns3::EventImpl::Invoke()"
RECEIVE_FROM_DEVICE = "ns3::Node::ReceiveFromDevice("
TC_SEND = "ns3::TrafficControlLayer::Send("
ARP_LOOKUP = "ns3::ArpL3Protocol::Lookup("
RECURSION = re.compile(r"'\d+$")


class Profile:
    """The parts of a callgrind profile the split needs."""

    def __init__(self):
        self.total = 0
        self.inclusive = {}  # function -> own cost plus the cost of its calls
        self.invoked = {}  # Notify() called by EventImpl::Invoke() -> [calls, inclusive cost]


def read_profile(lines):
    """Reads callgrind's output format: name compression, positions, calls= lines."""
    profile = Profile()
    names = {}  # compressed ids of functions: "(12)" -> name
    npositions = 1  # "positions: line" by default
    function = None
    callee = None
    pending_calls = None  # the calls= count whose cost line comes next
    for line in lines:
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        if line.startswith("positions:"):
            npositions = len(line.split()[1:])
        elif line.startswith(("summary:", "totals:")):
            profile.total = max(profile.total, int(line.split()[1]))
        elif line.startswith(("fn=", "cfn=", "cfni=")):
            key, _, value = line.partition("=")
            match = re.match(r"(\(\d+\))\s*(.*)", value)
            if match:
                if match.group(2):
                    names[match.group(1)] = match.group(2)
                name = names[match.group(1)]
            else:
                name = value
            if key == "fn":
                function = name
                profile.inclusive.setdefault(function, 0)
            else:
                callee = name
        elif line.startswith("calls="):
            pending_calls = int(line[len("calls=") :].split()[0])
        elif line[0] in "0123456789+-*" and function is not None:
            fields = line.split()
            cost = int(fields[npositions]) if len(fields) > npositions else 0
            profile.inclusive[function] += cost
            if pending_calls is not None:
                if function == INVOKE and callee.endswith("Notify()"):
                    entry = profile.invoked.setdefault(callee, [0, 0])
                    entry[0] += pending_calls
                    entry[1] += cost
                pending_calls = None
    return profile


def inclusive_of(profile, prefix):
    """The inclusive cost of the functions whose names start with prefix. A recursive call's
    level ("f'2", callgrind's --separate-recs) is inside its caller's cost already."""
    return sum(
        cost
        for name, cost in profile.inclusive.items()
        if name.startswith(prefix) and not RECURSION.search(name)
    )


def split(profile):
    """Returns the whole run, the components, the stack, and the events of each."""
    events = sum(calls for calls, _ in profile.invoked.values())
    component_events = sum(
        calls for name, (calls, _) in profile.invoked.items() if COMPONENT_EVENT.search(name)
    )
    in_component_events = sum(
        cost for name, (_, cost) in profile.invoked.items() if COMPONENT_EVENT.search(name)
    )
    scheduler = profile.total - profile.inclusive.get(INVOKE, 0)
    components = (
        in_component_events
        - inclusive_of(profile, RECEIVE_FROM_DEVICE)
        + inclusive_of(profile, TC_SEND)
        + inclusive_of(profile, ARP_LOOKUP)
        + (scheduler * component_events / events if events else 0)
    )
    return {
        "total": profile.total,
        "components": components,
        "stack": profile.total - components,
        "events": events,
        "component_events": component_events,
    }


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: callgrind-components.py CALLGRIND_OUT PACKETS\n")
        return 2
    try:
        packets = int(argv[2])
    except ValueError:
        packets = 0
    if packets <= 0:
        sys.stderr.write(
            "callgrind-components.py: PACKETS is '%s'; accepted: a whole number above 0 "
            "(nic-benchmark's packets column)\n" % argv[2]
        )
        return 2
    with open(argv[1], encoding="utf-8", errors="replace") as stream:
        profile = read_profile(stream)
    if profile.total == 0 or not profile.invoked:
        sys.stderr.write(
            "callgrind-components.py: %s has no events under %s; accepted: a callgrind "
            "profile of Simulator::Run()\n" % (argv[1], INVOKE)
        )
        return 1
    result = split(profile)
    print("instructions per packet (%d packets)" % packets)
    print("  whole run   %10.0f" % (result["total"] / packets))
    print("  stack       %10.0f" % (result["stack"] / packets))
    print("  components  %10.0f" % (result["components"] / packets))
    print(
        "events per packet: %.2f, of which the components' %.2f"
        % (result["events"] / packets, result["component_events"] / packets)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
