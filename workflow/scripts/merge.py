# SPDX-License-Identifier: GPL-2.0-only
"""Merges the sweep's per-point SQLite files into one results database.

Each point's job writes its own file (one run, ResultsDatabase's schema). The merged file
is built anew from all of them every time, into a temporary file renamed over the old one
at the end: a re-run never duplicates a row, and a merge that fails leaves the previous
file as it was. Rows are copied as they are, `runs.created` included; the integer ids
(`runs.id`, `series.id`) and the columns that refer to them are shifted past the ids
already merged, found from the schema's own primary and foreign keys, so nothing here
names ResultsDatabase's tables but `runs`. The merged file adds the sweep's tables:

- `sweep` (key, value): name, test, preset and the sweep file's settings as JSON;
- `sweep_points` (point, position, run_id, arguments): one row per point, in the
  sweep's order, with its run and flent-run's arguments;
- `sweep_axes` (point, axis, position, value): each point's value of each axis;
- the view `sweep_summary`: one row per point, its axes as columns, then the
  `run_summary` view's columns (those an axis does not already name).
"""

import json
import os
import sqlite3


class MergeError(RuntimeError):
    """An input that cannot be merged; the message names the file."""


SWEEP_SCHEMA = """
CREATE TABLE sweep (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE sweep_points (
    point     TEXT PRIMARY KEY,
    position  INTEGER NOT NULL UNIQUE, -- the point's place in the sweep, from 0
    run_id    INTEGER NOT NULL UNIQUE REFERENCES runs (id) ON DELETE CASCADE,
    arguments TEXT NOT NULL            -- flent-run's, shell-quoted
);
CREATE TABLE sweep_axes (
    point    TEXT NOT NULL REFERENCES sweep_points (point) ON DELETE CASCADE,
    axis     TEXT NOT NULL,
    position INTEGER NOT NULL, -- the axis's place in the sweep file
    value    TEXT NOT NULL,
    PRIMARY KEY (point, axis)
) WITHOUT ROWID;
"""


def _quote(name):
    return '"' + name.replace('"', '""') + '"'


def _schema(db, schema_name, path):
    rows = db.execute(
        f"SELECT type, name, sql FROM {schema_name}.sqlite_master "
        "WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
    ).fetchall()
    if not any(kind == "table" and name == "runs" for kind, name, _ in rows):
        raise MergeError(f"{path}: no 'runs' table; not a debloat results database")
    version = db.execute(f"PRAGMA {schema_name}.user_version").fetchone()[0]
    return rows, version


def _tables(db, schema):
    """Each table's columns, its integer id column (a rowid alias) and its references."""
    tables = {}
    for kind, name, sql in schema:
        if kind != "table":
            continue
        info = db.execute(f"PRAGMA main.table_info({_quote(name)})").fetchall()
        columns = [row[1] for row in info]
        keys = [row for row in info if row[5] > 0]
        without_rowid = "WITHOUT ROWID" in sql.upper()
        rowid = None
        if len(keys) == 1 and keys[0][2].upper() == "INTEGER" and not without_rowid:
            rowid = keys[0][1]
        references = {
            row[3]: row[2] for row in db.execute(f"PRAGMA main.foreign_key_list({_quote(name)})")
        }
        tables[name] = {"columns": columns, "rowid": rowid, "references": references}
    # Referenced tables first.
    ordered = []
    while len(ordered) < len(tables):
        progress = False
        for name, table in tables.items():
            if name not in ordered and all(
                ref in ordered or ref == name for ref in table["references"].values()
            ):
                ordered.append(name)
                progress = True
        if not progress:
            raise MergeError("the schema's foreign keys form a cycle")
    return [(name, tables[name]) for name in ordered]


def merge(output, points, sweep):
    """Writes `output` from the points' files.

    @param output the merged database's path
    @param points [(point name, position, axes {axis: value}, arguments, path)], in order
    @param sweep {key: value} for the `sweep` table (values JSON-encoded unless text)
    """
    if not points:
        raise MergeError("no points to merge")
    temporary = output + ".tmp"
    if os.path.exists(temporary):
        os.remove(temporary)
    db = sqlite3.connect(temporary, isolation_level=None)
    try:
        # No journal to fsync per point: the file is fsynced once, before the rename.
        db.execute("PRAGMA journal_mode = MEMORY")
        db.execute("PRAGMA synchronous = OFF")
        db.execute("BEGIN")
        first = points[0][4]
        src = sqlite3.connect(f"file:{first}?mode=ro", uri=True)
        try:
            schema, version = _schema(src, "main", first)
        finally:
            src.close()
        for _, _, sql in schema:
            db.execute(sql)
        db.execute(f"PRAGMA user_version = {int(version)}")
        tables = _tables(db, schema)  # before the sweep's own tables: those are not copied
        for statement in SWEEP_SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute("COMMIT")
        aliases = {name: t["rowid"] for name, t in tables if t["rowid"]}

        axis_names = list(points[0][2])
        for name, position, axes, arguments, path in points:
            if not os.path.exists(path):
                raise MergeError(f"{path}: point {name}'s results are missing")
            db.execute("ATTACH DATABASE ? AS src", (path,))
            db.execute("BEGIN")  # one transaction per point: ATTACH and DETACH are outside
            try:
                their_schema, their_version = _schema(db, "src", path)
                if their_schema != schema or their_version != version:
                    raise MergeError(
                        f"{path}: another schema than {first}'s (version {their_version} "
                        f"against {version}); merge files of one module version"
                    )
                runs = db.execute("SELECT id FROM src.runs").fetchall()
                if len(runs) != 1:
                    raise MergeError(f"{path}: {len(runs)} runs; a point's file holds one")
                offsets = {
                    table: db.execute(
                        f"SELECT coalesce(max({_quote(column)}), 0) FROM main.{_quote(table)}"
                    ).fetchone()[0]
                    for table, column in aliases.items()
                }
                for table, info in tables:
                    expressions = []
                    for column in info["columns"]:
                        shifted = (
                            table if column == info["rowid"] else info["references"].get(column)
                        )
                        if shifted in offsets:
                            expressions.append(f"{_quote(column)} + {offsets[shifted]}")
                        else:
                            expressions.append(_quote(column))
                    columns = ", ".join(_quote(c) for c in info["columns"])
                    db.execute(
                        f"INSERT INTO main.{_quote(table)} ({columns}) "
                        f"SELECT {', '.join(expressions)} FROM src.{_quote(table)}"
                    )
                run_id = runs[0][0] + offsets.get("runs", 0)
                if list(axes) != axis_names:
                    raise MergeError(f"point {name}: axes {list(axes)} against {axis_names}")
                db.execute(
                    "INSERT INTO sweep_points (point, position, run_id, arguments) "
                    "VALUES (?, ?, ?, ?)",
                    (name, position, run_id, arguments),
                )
                db.execute("COMMIT")
            finally:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                db.execute("DETACH DATABASE src")
        db.execute("BEGIN")
        for name, position, axes, arguments, path in points:
            for index, (axis, value) in enumerate(axes.items()):
                db.execute(
                    "INSERT INTO sweep_axes (point, axis, position, value) VALUES (?, ?, ?, ?)",
                    (name, axis, index, value),
                )
        for key, value in sweep.items():
            db.execute(
                "INSERT INTO sweep (key, value) VALUES (?, ?)",
                (key, value if isinstance(value, str) else json.dumps(value, sort_keys=True)),
            )
        summary_columns = [row[1] for row in db.execute("PRAGMA main.table_info(run_summary)")]
        taken = {axis.lower() for axis in axis_names} | {"point"}
        selected = ["p.point"]
        for axis in axis_names:
            selected.append(
                "(SELECT a.value FROM sweep_axes AS a WHERE a.point = p.point AND a.axis = "
                f"'{axis.replace(chr(39), chr(39) * 2)}') AS {_quote(axis)}"
            )
        selected += [f"s.{_quote(c)}" for c in summary_columns if c.lower() not in taken]
        db.execute(
            "CREATE VIEW sweep_summary AS SELECT "
            + ", ".join(selected)
            + " FROM sweep_points AS p JOIN run_summary AS s ON s.run_id = p.run_id"
            + " ORDER BY p.position"
        )
        db.execute("COMMIT")
    except BaseException:
        db.close()
        os.remove(temporary)
        raise
    db.close()
    with open(temporary, "rb") as written:
        os.fsync(written.fileno())
    os.replace(temporary, output)


if __name__ == "__main__" and "snakemake" in globals():
    # The workflow's merge rule (script:), its points and sweep as params.
    rule = globals()["snakemake"]
    merge(rule.output[0], rule.params.points, rule.params.sweep)
