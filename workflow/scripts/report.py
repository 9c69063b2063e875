# SPDX-License-Identifier: GPL-2.0-only
"""The sweep's comparison tables and plots, from the merged database's sweep_summary.

- points.csv: one row per point (its axes, then every run_summary column);
- summary.csv and summary.txt: one row per combination of the axes other than the
  repetition axis (RngRun or RngSeed), each metric's mean over the repetitions, with
  their number n and, in the CSV, each metric's minimum and maximum;
- one plot per metric (PNG): the mean against the report's x axis, a line (numeric x:
  rates, delays) or a bar (named x: qdiscs) per combination of the other axes, the
  repetitions' range as error bars.
"""

import csv
import math
import re
import sqlite3

REPETITION_AXES = ("RngRun", "RngSeed")

# Units of run_summary's metrics, for the tables' headers and the plots' labels.
UNITS = {
    "upload_goodput": "Mbit/s",
    "download_goodput": "Mbit/s",
    "total_goodput": "Mbit/s",
    "upload_fairness": "Jain",
    "download_fairness": "Jain",
    "ping_mean": "ms",
    "ping_min": "ms",
    "ping_p50": "ms",
    "ping_p90": "ms",
    "ping_p99": "ms",
    "ping_max": "ms",
    "transactions": "1/s",
    "qdisc_dropped": "packets",
    "qdisc_ecn_mark": "packets",
    "nic_dropped": "packets",
}


def load(database):
    """The sweep's axes and sweep_summary's rows (dicts), in the sweep's order."""
    db = sqlite3.connect(database)
    db.row_factory = sqlite3.Row
    try:
        axes = [
            row[0]
            for row in db.execute(
                "SELECT axis FROM sweep_axes WHERE point = "
                "(SELECT point FROM sweep_points ORDER BY position LIMIT 1) ORDER BY position"
            )
        ]
        rows = [dict(row) for row in db.execute("SELECT * FROM sweep_summary")]
    finally:
        db.close()
    return axes, rows


def aggregate(axes, rows, metrics):
    """Rows grouped by the axes other than the repetition axis, in first-seen order."""
    keys = [axis for axis in axes if axis not in REPETITION_AXES]
    groups = {}
    for row in rows:
        groups.setdefault(tuple(row[axis] for axis in keys), []).append(row)
    result = []
    for key, members in groups.items():
        entry = dict(zip(keys, key))
        entry["n"] = len(members)
        for metric in metrics:
            values = [m[metric] for m in members if m[metric] is not None]
            values = [v for v in values if not math.isnan(v)]
            entry[metric] = sum(values) / len(values) if values else None
            entry[metric + "_min"] = min(values) if values else None
            entry[metric + "_max"] = max(values) if values else None
        result.append(entry)
    return keys, result


def _format(value):
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1e5 else f"{value:.0f}"
    return str(value)


def write_tables(axes, rows, metrics, points_csv, summary_csv, summary_txt):
    with open(points_csv, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    keys, groups = aggregate(axes, rows, metrics)
    fields = keys + ["n"] + [f"{m}{suffix}" for m in metrics for suffix in ("", "_min", "_max")]
    with open(summary_csv, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows(groups)
    header = keys + ["n"] + metrics
    units = [""] * (len(keys) + 1) + [UNITS[m] for m in metrics]
    body = [[_format(g[h]) for h in header] for g in groups]
    widths = [max(len(str(c)) for c in column) for column in zip(header, units, *body)]
    with open(summary_txt, "w") as f:
        for line in [header, units] + body:
            f.write("  ".join(str(c).rjust(w) for c, w in zip(line, widths)).rstrip() + "\n")


def write_plots(axes, rows, metrics, x_axis, files):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys, groups = aggregate(axes, rows, metrics)
    others = [k for k in keys if k != x_axis]
    xs = list(dict.fromkeys(g[x_axis] for g in groups))
    for metric, path in zip(metrics, files):
        fig, ax = plt.subplots(figsize=(8, 4.5))
        lines = {}
        for g in groups:
            lines.setdefault(tuple(g[o] for o in others), []).append(g)
        # Numbers with units (rates, delays) as lines; names (qdiscs) as grouped bars.
        numeric = all(re.fullmatch(r"[0-9.]+[A-Za-z]*", str(x)) for x in xs)
        width = 0.8 / len(lines)
        for index, (label, members) in enumerate(lines.items()):
            points = [(xs.index(g[x_axis]), g) for g in members if g[metric] is not None]
            if not points:
                continue
            positions = [p for p, _ in points]
            means = [g[metric] for _, g in points]
            below = [g[metric] - g[metric + "_min"] for _, g in points]
            above = [g[metric + "_max"] - g[metric] for _, g in points]
            name = ", ".join(f"{o}={v}" for o, v in zip(others, label)) or metric
            if numeric:
                ax.errorbar(
                    positions, means, yerr=[below, above], marker="o", capsize=3, label=name
                )
            else:
                shifted = [p - 0.4 + width * (index + 0.5) for p in positions]
                ax.bar(shifted, means, width, yerr=[below, above], capsize=3, label=name)
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels(xs, rotation=20, ha="right")
        ax.set_xlabel(x_axis)
        ax.set_ylabel(f"{metric} ({UNITS[metric]})")
        n = max(g["n"] for g in groups)
        ax.set_title(f"{metric}: mean of {n} runs (error bars: their range)" if n > 1 else metric)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)


if __name__ == "__main__" and "snakemake" in globals():
    # The workflow's report rule (script:).
    rule = globals()["snakemake"]
    axes, rows = load(rule.input[0])
    metrics = list(rule.params.metrics)
    write_tables(axes, rows, metrics, rule.output.points, rule.output.csv, rule.output.txt)
    write_plots(axes, rows, metrics, rule.params.x, rule.output.plots)
    with open(rule.output.txt) as table:
        print(f"\n{rule.params.name}: {len(rows)} points, {rule.output.txt}\n\n" + table.read())
