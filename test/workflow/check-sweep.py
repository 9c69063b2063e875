#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Checks a finished sweep (CTest workflow.*): every point of the sweep file has its flent
file, its own SQLite file and exactly one run in the merged database, equal row for row
to its own file's; the sweep's tables list every point; the report's files are there.
With --compare, the merged database and the flent files must equal another run's of the
same sweep (a local run against a Slurm run: only runs.created, the time each job wrote
its file, may differ).

    check-sweep.py SWEEP_FILE RESULTS_DIR FLENT_RUN [--compare OTHER_RESULTS_DIR]

RESULTS_DIR is the sweep's own folder (RESULTS/SWEEP). The comparison reads the files
with its own queries, not with the workflow's merge code.
"""

import argparse
import gzip
import json
import os
import sqlite3
import sys

import yaml

sys.path.insert(
    0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "workflow", "scripts")
)
import sweep as sweep_module  # noqa: E402

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def typed(value):
    """A value as its type and exact text (-0.0 and 0.0, 1 and 1.0 differ)."""
    return (type(value).__name__, repr(value))


def rows(db, sql, args=(), drop=("id", "run_id", "series_id")):
    cursor = db.execute(sql, args)
    names = [d[0] for d in cursor.description]
    keep = [i for i, n in enumerate(names) if n not in drop]
    return [tuple((names[i], typed(row[i])) for i in keep) for row in cursor]


def run_dump(db, run_id, created=True):
    """Everything of one run, without its ids: the runs row, its rows in every table that
    refers to it, and each series (by position) with its keys, metadata and samples."""
    drop = ("id", "run_id", "series_id") + (() if created else ("created",))
    dump = {"runs": rows(db, "SELECT * FROM runs WHERE id = ?", (run_id,), drop)}
    for table in ("run_hosts", "run_parameters", "run_config", "metrics"):
        dump[table] = sorted(rows(db, f"SELECT * FROM {table} WHERE run_id = ?", (run_id,)))
    series = db.execute("SELECT id FROM series WHERE run_id = ? ORDER BY position", (run_id,))
    dump["series"] = []
    for (series_id,) in series.fetchall():
        entry = rows(db, "SELECT * FROM series WHERE id = ?", (series_id,))
        for table in ("series_keys", "series_meta", "samples", "sample_values"):
            entry.append(
                sorted(rows(db, f"SELECT * FROM {table} WHERE series_id = ?", (series_id,)))
            )
        dump["series"].append(entry)
    return dump


def count(db, table):
    return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sweep_file")
    parser.add_argument("results")
    parser.add_argument("flent_run")
    parser.add_argument("--compare")
    args = parser.parse_args()

    with open(args.sweep_file) as f:
        sweep = sweep_module.Sweep(
            yaml.safe_load(f), sweep_module.flent_run_options(args.flent_run)
        )
    merged_path = os.path.join(args.results, "sweep.sqlite")
    if not check(os.path.exists(merged_path), f"{merged_path} is missing"):
        return
    merged = sqlite3.connect(merged_path)
    points = merged.execute(
        "SELECT point, position, run_id FROM sweep_points ORDER BY position"
    ).fetchall()
    check(
        [p[0] for p in points] == [p.name for p in sweep.points],
        f"sweep_points lists {[p[0] for p in points]}, "
        f"the sweep file {[p.name for p in sweep.points]}",
    )
    check([p[1] for p in points] == list(range(len(sweep.points))), "sweep_points positions")
    # One run per point and nothing else: no duplicate from a re-run.
    check(
        count(merged, "runs") == len(sweep.points),
        f"{count(merged, 'runs')} runs for {len(sweep.points)} points",
    )
    check(len({p[2] for p in points}) == len(points), "two points share a run")
    check(count(merged, "sweep_summary") == len(sweep.points), "sweep_summary's rows")

    for point, _, run_id in points:
        expected = sweep.point(point)
        axes = dict(
            merged.execute(
                "SELECT axis, value FROM sweep_axes WHERE point = ? ORDER BY position", (point,)
            ).fetchall()
        )
        check(axes == expected.axes, f"{point}: sweep_axes {axes}, the sweep file {expected.axes}")
        folder = os.path.join(args.results, "points", point)
        own_path = os.path.join(folder, "results.sqlite")
        if not check(os.path.exists(own_path), f"{own_path} is missing"):
            continue
        own = sqlite3.connect(own_path)
        own_runs = own.execute("SELECT id FROM runs").fetchall()
        if check(len(own_runs) == 1, f"{own_path}: {len(own_runs)} runs"):
            check(
                run_dump(own, own_runs[0][0]) == run_dump(merged, run_id),
                f"{point}: its run in the merged database differs from {own_path}",
            )
        # The run is the point's: flent-run recorded the point's RngRun and options.
        run_number = merged.execute("SELECT run FROM runs WHERE id = ?", (run_id,)).fetchone()[0]
        check(
            str(run_number) == expected.options.get("RngRun", "1"), f"{point}: RngRun {run_number}"
        )
        config = dict(
            merged.execute(
                "SELECT key, value FROM run_config WHERE run_id = ?", (run_id,)
            ).fetchall()
        )
        for option, key in (("qdisc", "qdisc"), ("rate", "rate"), ("bqlLimitMax", "bql_limit_max")):
            if option in expected.options:
                check(
                    str(config.get(key)) == expected.options[option],
                    f"{point}: run_config {key} {config.get(key)!r}, "
                    f"the point's {option} {expected.options[option]!r}",
                )
        own.close()
        flent = os.path.join(folder, f"{sweep.test}.flent.gz")
        if check(os.path.exists(flent), f"{flent} is missing"):
            with gzip.open(flent, "rt") as f:
                metadata = json.load(f)["metadata"]
            check(metadata["NAME"] == sweep.test, f"{flent}: a {metadata['NAME']} file")
            # The options reached the model: the client egress's BQL limit_max as its
            # ByteQueueLimits reports it (DQL_MAX_LIMIT unless set), no BQL without --bql.
            bql = metadata["EGRESS_INFO"].get("bql")
            if expected.options.get("bql") == "true":
                limit = expected.options.get("bqlLimitMax", "1879048192")
                check(bql and set(bql.values()) == {limit}, f"{flent}: BQL {bql}, limit {limit}")
            else:
                check(bql is None, f"{flent}: BQL {bql} without --bql")

    for name in ("tables/points.csv", "tables/summary.csv", "tables/summary.txt") + tuple(
        f"plots/{m}.png" for m in sweep.metrics
    ):
        path = os.path.join(args.results, name)
        check(os.path.exists(path) and os.path.getsize(path) > 0, f"{path} is missing or empty")
    with open(os.path.join(args.results, "tables", "points.csv")) as f:
        check(
            len(f.read().strip().split("\n")) == 1 + len(sweep.points),
            "points.csv: a row per point",
        )

    if args.compare:
        other = sqlite3.connect(os.path.join(args.compare, "sweep.sqlite"))
        theirs = other.execute(
            "SELECT point, position, run_id FROM sweep_points ORDER BY position"
        ).fetchall()
        check([p[:2] for p in theirs] == [p[:2] for p in points], f"{args.compare}: other points")
        for table in ("sweep", "sweep_axes"):
            check(
                rows(other, f"SELECT * FROM {table} ORDER BY 1, 2")
                == rows(merged, f"SELECT * FROM {table} ORDER BY 1, 2"),
                f"{table} differs from {args.compare}'s",
            )
        for (point, _, run_id), (_, _, their_id) in zip(points, theirs):
            check(
                run_dump(merged, run_id, created=False) == run_dump(other, their_id, created=False),
                f"{point}: the run differs from {args.compare}'s",
            )
            mine = os.path.join(args.results, "points", point, f"{sweep.test}.flent.gz")
            other_file = os.path.join(args.compare, "points", point, f"{sweep.test}.flent.gz")
            if os.path.exists(mine) and check(
                os.path.exists(other_file), f"{other_file} is missing"
            ):
                with gzip.open(mine) as a, gzip.open(other_file) as b:
                    check(
                        a.read() == b.read(), f"{point}: the flent file differs from {other_file}"
                    )
        other.close()
    merged.close()


if __name__ == "__main__":
    main()
    for failure in failures:
        print("FAIL:", failure)
    print(f"check-sweep: {'FAILED' if failures else 'passed'} ({len(failures)} failures)")
    sys.exit(1 if failures else 0)
