# SPDX-License-Identifier: GPL-2.0-only
"""A sweep file: flent-run's options for every point of a grid, checked and named.

A sweep file is YAML (the manual's doc/sweeps.rst)::

    sweep: gige-aqm           # results go to RESULTS/gige-aqm/
    test: rrul_be             # the flent test
    preset: chain             # chain (client -> router -> hosts), an access line or a rig
    options:                  # flent-run options that every point shares
      length: 30
    axes:                     # every combination of these values is one point
      qdisc: [pfifo_fast, fq_codel]
      RngRun: [1, 2, 3]

An axis's values are flent-run option values; a value may instead be a mapping of
several options that change together (``{rate: 1Gbps, linkDelay: 5ms}``). Everything
here is plain Python (no Snakemake), so that the tests can load the same points.
"""

import hashlib
import itertools
import json
import re
import shlex
import subprocess

# flent-run's topologies: its own chain, NicTopologyHelper's access lines (--access) or the
# seeds' rigs (--rig).
ACCESS_LINES = ("home-50-1", "docsis-100-20", "adsl-20-1")
RIGS = ("laptop-server", "wifi-ap", "nuc-rangeley-nuc", "wrt1200ac", "forcedeth-gige")
PRESETS = ("chain",) + ACCESS_LINES + RIGS

# Options the workflow sets itself for every job.
RESERVED = {
    "test": "the sweep's 'test'",
    "access": "the sweep's 'preset'",
    "rig": "the sweep's 'preset'",
    "output": "the workflow (each point's flent file)",
    "dataDir": "the workflow (each point's flent file)",
    "db": "the workflow (each point's SQLite file)",
    "repetitions": "an RngRun axis (one job per run)",
    "jobs": "Snakemake's --cores or --jobs",
    "plot": "the workflow's report rule",
    "progress": "the workflow (off in jobs)",
    "pcap": "running flent-run by hand (a sweep's jobs write no pcap)",
}

# ns-3's own command-line arguments that a sweep may set besides flent-run's options.
NS3_GLOBALS = ("RngRun", "RngSeed", "SchedulerType", "SimulatorImplementationType")

TOP_LEVEL = ("sweep", "test", "preset", "options", "axes", "report", "flent_run", "results")

# The metrics a report may show: run_summary's columns (ResultsDatabase).
METRICS = (
    "upload_goodput",
    "download_goodput",
    "total_goodput",
    "upload_fairness",
    "download_fairness",
    "ping_mean",
    "ping_min",
    "ping_p50",
    "ping_p90",
    "ping_p99",
    "ping_max",
    "transactions",
    "qdisc_dropped",
    "qdisc_ecn_mark",
    "nic_dropped",
)
DEFAULT_METRICS = ["ping_p50", "ping_p99", "total_goodput"]


class SweepError(ValueError):
    """A sweep file that cannot run; the message names the key and what is accepted."""


def flent_run_options(flent_run):
    """The option names flent-run's --PrintHelp lists (its 'Program Options')."""
    try:
        text = subprocess.run(
            [flent_run, "--PrintHelp"], capture_output=True, text=True, check=False
        ).stdout
    except OSError as error:
        raise SweepError(
            f"flent_run: cannot run {flent_run} ({error.strerror}); build the module "
            "first (cmake --build build) or set flent_run=PATH"
        ) from None
    names = re.findall(r"^\s+--([A-Za-z][A-Za-z0-9]*):", text.split("General Arguments:")[0], re.M)
    if not names:
        raise SweepError(f"flent_run: {flent_run} --PrintHelp lists no options")
    return set(names)


def _text(key, value):
    """An option value as flent-run reads it (YAML's true/false as true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return str(value)
    raise SweepError(f"{key}: {value!r} is not a number, a string or true/false")


def _check_option(where, name, known):
    if name in RESERVED:
        raise SweepError(f"{where}: option '{name}' is set by {RESERVED[name]}; remove it")
    if name in NS3_GLOBALS or name.startswith("ns3::"):
        return
    if name not in known:
        raise SweepError(
            f"{where}: '{name}' is not a flent-run option; accepted: "
            + ", ".join(sorted(known - set(RESERVED)))
            + ", ns-3's "
            + ", ".join(NS3_GLOBALS)
            + " and ns3::Type::Attribute defaults"
        )


def _slug(text, width=32):
    """A file-name-safe, short form of a value."""
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", text).strip("-")
    return slug[:width] or "x"


class Point:
    """One job: the options of one combination of the axes' values."""

    def __init__(self, axes, slugs, options, test, preset):
        self.axes = axes  # axis name -> value as text (a mapping axis: its options joined)
        self.options = options  # option name -> value as text, sweep options included
        # The name changes with anything the job's results depend on, so that a changed
        # sweep file never reuses an old point's files.
        canonical = json.dumps([test, preset, options], sort_keys=True)
        digest = hashlib.sha256(canonical.encode()).hexdigest()[:8]
        self.name = "_".join(slugs) + "-" + digest

    def arguments(self, test, preset):
        """flent-run's arguments for this point (without the output files)."""
        args = [f"--test={test}"]
        if preset in ACCESS_LINES:
            args.append(f"--access={preset}")
        elif preset in RIGS:
            args.append(f"--rig={preset}")
        args += [f"--{name}={value}" for name, value in self.options.items()]
        return args

    def command_line(self, test, preset):
        return " ".join(shlex.quote(a) for a in self.arguments(test, preset))


class Sweep:
    """A checked sweep file and its points, in the order of the axes' values."""

    def __init__(self, config, known_options):
        unknown = sorted(set(config) - set(TOP_LEVEL))
        if unknown:
            raise SweepError(
                f"'{unknown[0]}' is not a sweep key; accepted: " + ", ".join(TOP_LEVEL)
            )
        self.name = config.get("sweep")
        if not isinstance(self.name, str) or not re.fullmatch(
            r"[A-Za-z0-9][A-Za-z0-9._-]*", self.name
        ):
            raise SweepError(
                f"sweep: {self.name!r} must be a name of letters, digits, '.', '_' and '-' "
                "(the results' folder)"
            )
        self.test = config.get("test", "rrul_be")
        if not isinstance(self.test, str) or not self.test:
            raise SweepError(f"test: {self.test!r} must be a flent test name (flent-run --test)")
        self.preset = config.get("preset", "chain")
        if self.preset not in PRESETS:
            raise SweepError(f"preset: {self.preset!r}; accepted: " + ", ".join(PRESETS))

        options = config.get("options") or {}
        if not isinstance(options, dict):
            raise SweepError("options: must be a mapping of flent-run option: value")
        for name, value in options.items():
            _check_option("options", name, known_options)
        self.options = {name: _text(f"options.{name}", value) for name, value in options.items()}

        axes = config.get("axes") or {}
        if not isinstance(axes, dict) or not axes:
            raise SweepError("axes: must map each axis to a non-empty list of values")
        self.axes = {}  # axis -> [(label, slug, {option: value})]
        for axis, values in axes.items():
            if not isinstance(values, list) or not values:
                raise SweepError(f"axes.{axis}: must be a non-empty list of values")
            choices = []
            for value in values:
                if isinstance(value, dict):
                    if not value:
                        raise SweepError(f"axes.{axis}: an empty mapping sets no option")
                    settings = {}
                    for name, v in value.items():
                        _check_option(f"axes.{axis}", name, known_options)
                        settings[name] = _text(f"axes.{axis}.{name}", v)
                    label = ",".join(f"{k}={v}" for k, v in settings.items())
                    slug = _slug("-".join(settings.values()))
                else:
                    _check_option("axes", axis, known_options)
                    settings = {axis: _text(f"axes.{axis}", value)}
                    label = settings[axis]
                    slug = _slug(label)
                for name in settings:
                    if name in self.options:
                        raise SweepError(
                            f"axes.{axis}: '{name}' is also in options; set it in one place"
                        )
                choices.append((label, slug, settings))
            labels = [label for label, _, _ in choices]
            if len(set(labels)) != len(labels):
                raise SweepError(f"axes.{axis}: a value is listed twice")
            self.axes[axis] = choices
        setters = {}
        for axis, choices in self.axes.items():
            for name in {n for _, _, s in choices for n in s}:
                if name in setters:
                    raise SweepError(
                        f"axes.{axis}: option '{name}' is also set by axis '{setters[name]}'"
                    )
                setters[name] = axis

        self.points = []
        for combination in itertools.product(*self.axes.values()):
            labels = {}
            slugs = []
            point_options = dict(self.options)
            for axis, (label, slug, settings) in zip(self.axes, combination):
                labels[axis] = label
                slugs.append(slug)
                point_options.update(settings)
            self.points.append(Point(labels, slugs, point_options, self.test, self.preset))

        report = config.get("report") or {}
        if not isinstance(report, dict):
            raise SweepError("report: must be a mapping (x, metrics)")
        for key in report:
            if key not in ("x", "metrics"):
                raise SweepError(f"report.{key}: not a report key; accepted: x, metrics")
        self.report_x = report.get("x", next(iter(self.axes)))
        if self.report_x not in self.axes:
            raise SweepError(
                f"report.x: {self.report_x!r}; accepted: the axes " + ", ".join(self.axes)
            )
        self.metrics = report.get("metrics", DEFAULT_METRICS)
        for metric in self.metrics:
            if metric not in METRICS:
                raise SweepError(f"report.metrics: {metric!r}; accepted: " + ", ".join(METRICS))

    def point(self, name):
        for p in self.points:
            if p.name == name:
                return p
        raise KeyError(name)
