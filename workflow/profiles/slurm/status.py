#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Snakemake's --cluster-status for Slurm: prints running, success or failed for a job.

scontrol knows a job until MinJobAge (300 s by default) after it ends; sacct knows it
after that where the cluster keeps accounting. A job that neither knows is reported
failed (Snakemake then re-runs it, or reports it), with the reason on stderr.
"""

import subprocess
import sys

RUNNING = {
    "PENDING",
    "CONFIGURING",
    "RUNNING",
    "COMPLETING",
    "SUSPENDED",
    "REQUEUED",
    "REQUEUE_FED",
    "REQUEUE_HOLD",
    "RESIZING",
    "SIGNALING",
    "STAGE_OUT",
    "RESV_DEL_HOLD",
}


def scontrol_state(job):
    result = subprocess.run(["scontrol", "show", "job", "-o", job], capture_output=True, text=True)
    for field in result.stdout.split() if result.returncode == 0 else []:
        if field.startswith("JobState="):
            return field.split("=", 1)[1]
    return None


def sacct_state(job):
    result = subprocess.run(
        ["sacct", "-n", "-X", "-P", "-o", "State", "-j", job], capture_output=True, text=True
    )
    lines = result.stdout.split() if result.returncode == 0 else []
    return lines[0].split()[0] if lines else None  # "CANCELLED by 0" -> CANCELLED


def main():
    job = sys.argv[1].split(";")[0]  # sbatch --parsable prints "id" or "id;cluster"
    state = scontrol_state(job) or sacct_state(job)
    if state is None:
        print(f"status.py: Slurm job {job} is unknown to scontrol and sacct", file=sys.stderr)
        print("failed")
    elif state == "COMPLETED":
        print("success")
    elif state in RUNNING:
        print("running")
    else:
        print(f"status.py: Slurm job {job} ended {state}", file=sys.stderr)
        print("failed")


if __name__ == "__main__":
    main()
