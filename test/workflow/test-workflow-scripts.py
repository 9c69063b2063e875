#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of the workflow's plain Python (CTest workflow.unit): the sweep file's
points, names and error messages (workflow/scripts/sweep.py), and the merge's id shifting
on a small schema of the same shape as ResultsDatabase's (workflow/scripts/merge.py)."""

import os
import sqlite3
import sys
import tempfile
import unittest

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "workflow", "scripts")
)
import merge  # noqa: E402
import sweep  # noqa: E402

OPTIONS = {"length", "rate", "qdisc", "bql", "bqlLimitMax", "linkDelay", "output", "db"}


def make(config):
    return sweep.Sweep(config, OPTIONS)


class SweepFileTest(unittest.TestCase):
    BASE = {
        "sweep": "s",
        "test": "rrul_be",
        "options": {"length": 10},
        "axes": {
            "qdisc": ["pfifo_fast", "sfq perturb 10", "fq_codel"],
            "bqlAxis": [{"bql": False}, {"bql": True, "bqlLimitMax": 8000}],
            "RngRun": [1, 2],
        },
    }

    def test_points_are_the_product_in_axis_order(self):
        s = make(self.BASE)
        # 3 qdiscs x 2 BQL settings x 2 runs, the last axis varying fastest.
        self.assertEqual(len(s.points), 12)
        first, second = s.points[0], s.points[1]
        self.assertEqual(first.axes, {"qdisc": "pfifo_fast", "bqlAxis": "bql=false", "RngRun": "1"})
        self.assertEqual(second.axes["RngRun"], "2")
        self.assertEqual(
            s.points[3].options,
            {
                "length": "10",
                "qdisc": "pfifo_fast",
                "bql": "true",
                "bqlLimitMax": "8000",
                "RngRun": "2",
            },
        )
        self.assertEqual(
            s.points[3].arguments("rrul_be", "chain"),
            [
                "--test=rrul_be",
                "--length=10",
                "--qdisc=pfifo_fast",
                "--bql=true",
                "--bqlLimitMax=8000",
                "--RngRun=2",
            ],
        )
        # Values with spaces are one shell word; access lines become --access, the seeds'
        # rigs --rig.
        self.assertIn("'--qdisc=sfq perturb 10'", s.points[4].command_line("rrul_be", "chain"))
        self.assertIn("--access=home-50-1", s.points[0].arguments("rrul_be", "home-50-1"))
        rig = s.points[0].arguments("rrul_be", "nuc-rangeley-nuc")
        self.assertIn("--rig=nuc-rangeley-nuc", rig)
        self.assertFalse(any(a.startswith("--access") for a in rig), rig)

    def test_names_are_unique_stable_and_follow_what_the_results_depend_on(self):
        s = make(self.BASE)
        names = [p.name for p in s.points]
        self.assertEqual(len(set(names)), len(names))
        self.assertEqual(names, [p.name for p in make(self.BASE).points])
        self.assertTrue(names[4].startswith("sfq-perturb-10_false_1-"), names[4])
        for name in names:
            self.assertRegex(name, r"^[A-Za-z0-9._-]+$")
        changed = dict(self.BASE, options={"length": 20})
        self.assertTrue(set(names).isdisjoint(p.name for p in make(changed).points))
        other_test = dict(self.BASE, test="rrul")
        self.assertTrue(set(names).isdisjoint(p.name for p in make(other_test).points))
        # A new value on an axis keeps the other points' names (their results are reused).
        more = dict(self.BASE, axes=dict(self.BASE["axes"], RngRun=[1, 2, 3]))
        self.assertTrue(set(names) < {p.name for p in make(more).points})

    def assertRefused(self, config, *words):
        with self.assertRaises(sweep.SweepError) as caught:
            make(config)
        for word in words:
            self.assertIn(word, str(caught.exception))

    def test_bad_sweep_files_name_the_key_and_what_is_accepted(self):
        base = self.BASE
        self.assertRefused(dict(base, sweeps="x"), "'sweeps' is not a sweep key", "axes")
        self.assertRefused(dict(base, sweep="a b"), "sweep:", "letters")
        self.assertRefused(
            dict(base, preset="lab"), "preset: 'lab'", "chain", "adsl-20-1", "forcedeth-gige"
        )
        self.assertRefused(
            dict(base, options={"rat": 1}), "'rat' is not a flent-run option", "rate"
        )
        self.assertRefused(dict(base, options={"output": "x"}), "'output' is set by the workflow")
        self.assertRefused(dict(base, axes={}), "axes:")
        self.assertRefused(dict(base, axes={"qdisc": []}), "axes.qdisc")
        self.assertRefused(dict(base, axes={"qdisc": ["a", "a"]}), "axes.qdisc", "twice")
        self.assertRefused(dict(base, axes={"qdisc": [["a"]]}), "axes.qdisc")
        self.assertRefused(dict(base, axes={"length": [1, 2]}), "axes.length", "also in options")
        self.assertRefused(
            dict(base, axes={"rate": ["1Gbps"], "link": [{"rate": "1Gbps"}]}),
            "option 'rate' is also set by axis",
        )
        self.assertRefused(dict(base, axes={"x": [{}]}), "axes.x", "empty mapping")
        self.assertRefused(dict(base, report={"x": "rate"}), "report.x: 'rate'", "qdisc")
        self.assertRefused(
            dict(base, report={"metrics": ["rtt"]}), "report.metrics: 'rtt'", "ping_p99"
        )
        self.assertRefused(dict(base, report={"y": 1}), "report.y", "x, metrics")
        # ns-3's globals and attribute defaults are accepted as options.
        ok = dict(base, axes={"ns3::debloat::ByteQueueLimits::HoldTime": ["1s"], "RngSeed": [3]})
        self.assertEqual(len(make(ok).points), 1)


SCHEMA = """
CREATE TABLE runs (id INTEGER PRIMARY KEY, test TEXT NOT NULL, created TEXT);
CREATE TABLE series (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs (id),
                     position INTEGER NOT NULL, name TEXT NOT NULL);
CREATE TABLE samples (series_id INTEGER NOT NULL REFERENCES series (id),
                      position INTEGER NOT NULL, t, PRIMARY KEY (series_id, position))
                      WITHOUT ROWID;
CREATE TABLE metrics (run_id INTEGER NOT NULL REFERENCES runs (id), name TEXT, value,
                      PRIMARY KEY (run_id, name)) WITHOUT ROWID;
CREATE VIEW run_summary AS SELECT r.id AS run_id, r.test,
    (SELECT value FROM metrics AS m WHERE m.run_id = r.id AND m.name = 'p99') AS ping_p99
    FROM runs AS r;
PRAGMA user_version = 1;
"""


def point_file(folder, name, run_id, series_ids, p99, schema=SCHEMA, runs=1):
    """A point's file whose ids start where a real file's would not (to show the shift)."""
    path = os.path.join(folder, name + ".sqlite")
    db = sqlite3.connect(path)
    db.executescript(schema)
    for r in range(runs):
        db.execute("INSERT INTO runs VALUES (?, 'rrul_be', ?)", (run_id + r, "2026-12-03T" + name))
    db.execute("INSERT INTO metrics VALUES (?, 'p99', ?)", (run_id, p99))
    for position, series_id in enumerate(series_ids):
        db.execute(
            "INSERT INTO series VALUES (?, ?, ?, ?)", (series_id, run_id, position, f"s{position}")
        )
        for sample in range(3):
            db.execute(
                "INSERT INTO samples VALUES (?, ?, ?)", (series_id, sample, sample * 0.5 + position)
            )
    db.commit()
    db.close()
    return path


class MergeTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        d = self.folder.name
        self.points = [
            (
                "a",
                0,
                {"qdisc": "fq_codel", "RngRun": "1"},
                "--qdisc=fq_codel",
                point_file(d, "a", 1, [1, 2], 5.0),
            ),
            (
                "b",
                1,
                {"qdisc": "cake", "RngRun": "1"},
                "--qdisc=cake",
                point_file(d, "b", 7, [3], 4.0),
            ),
        ]
        self.output = os.path.join(d, "sweep.sqlite")

    def test_ids_are_shifted_and_references_follow(self):
        merge.merge(
            self.output, self.points, {"name": "s", "axes": {"qdisc": ["fq_codel", "cake"]}}
        )
        db = sqlite3.connect(self.output)
        # Point a keeps run 1 and series 1, 2; point b's run 7 becomes 1 + 7 = 8 and its series
        # 3 becomes 2 + 3 = 5: each id plus the largest id merged before it.
        self.assertEqual(
            db.execute("SELECT id, created FROM runs ORDER BY id").fetchall(),
            [(1, "2026-12-03Ta"), (8, "2026-12-03Tb")],
        )
        self.assertEqual(
            db.execute("SELECT id, run_id, name FROM series ORDER BY id").fetchall(),
            [(1, 1, "s0"), (2, 1, "s1"), (5, 8, "s0")],
        )
        self.assertEqual(
            db.execute("SELECT count(*), sum(t) FROM samples WHERE series_id = 5").fetchone(),
            (3, 1.5),
        )
        self.assertEqual(
            db.execute("SELECT run_id, value FROM metrics ORDER BY run_id").fetchall(),
            [(1, 5.0), (8, 4.0)],
        )
        self.assertEqual(db.execute("PRAGMA user_version").fetchone(), (1,))
        self.assertEqual(
            db.execute("SELECT point, position, run_id FROM sweep_points").fetchall(),
            [("a", 0, 1), ("b", 1, 8)],
        )
        # The axes as columns, then run_summary's (its run_id and test; ping_p99).
        cursor = db.execute("SELECT * FROM sweep_summary")
        self.assertEqual(
            [c[0] for c in cursor.description],
            ["point", "qdisc", "RngRun", "run_id", "test", "ping_p99"],
        )
        self.assertEqual(
            cursor.fetchall(),
            [("a", "fq_codel", "1", 1, "rrul_be", 5.0), ("b", "cake", "1", 8, "rrul_be", 4.0)],
        )
        self.assertEqual(
            db.execute("SELECT value FROM sweep WHERE key = 'axes'").fetchone(),
            ('{"qdisc": ["fq_codel", "cake"]}',),
        )
        db.close()

    def test_a_second_merge_rebuilds_the_same_rows(self):
        merge.merge(self.output, self.points, {"name": "s"})
        first = list(sqlite3.connect(self.output).iterdump())
        merge.merge(self.output, self.points, {"name": "s"})
        self.assertEqual(list(sqlite3.connect(self.output).iterdump()), first)

    def test_bad_inputs_leave_the_previous_file(self):
        merge.merge(self.output, self.points, {"name": "s"})
        before = list(sqlite3.connect(self.output).iterdump())
        d = self.folder.name
        two = point_file(d, "two", 1, [1], 1.0, runs=2)
        other = point_file(
            d, "other", 1, [1], 1.0, schema=SCHEMA.replace("user_version = 1", "user_version = 2")
        )
        cases = [
            (two, "2 runs; a point's file holds one"),
            (other, "another schema"),
            (os.path.join(d, "missing.sqlite"), "results are missing"),
        ]
        for path, message in cases:
            bad = self.points + [("c", 2, {"qdisc": "sfq", "RngRun": "1"}, "", path)]
            with self.assertRaises(merge.MergeError) as caught:
                merge.merge(self.output, bad, {"name": "s"})
            self.assertIn(message, str(caught.exception))
            self.assertIn(path, str(caught.exception))
            self.assertEqual(list(sqlite3.connect(self.output).iterdump()), before)
            self.assertFalse(os.path.exists(self.output + ".tmp"))


if __name__ == "__main__":
    unittest.main()
