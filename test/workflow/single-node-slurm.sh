#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A private single-node Slurm cluster on this machine, for the workflow's tests:
#   single-node-slurm.sh start DIR   starts munged, slurmctld and slurmd with their
#                                    configuration, sockets, state and logs in DIR; clients
#                                    then need SLURM_CONF=DIR/slurm.conf
#   single-node-slurm.sh stop DIR    stops them
# Needs root (slurmd starts jobs as their user), Debian's slurm-wlm and munge. Nothing
# outside DIR is changed: a system Slurm or munged keeps running beside it, on other ports
# (DEBLOAT_SLURM_PORT, default 16817, and the next one) and another socket.
set -eu

usage() {
    echo "usage: $0 start|stop DIR" >&2
    exit 2
}
[ $# -eq 2 ] || usage
action=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)
port=${DEBLOAT_SLURM_PORT:-16817}
export SLURM_CONF="$dir/slurm.conf"

stop() {
    if [ -f "$dir/slurmctld.pid" ]; then
        scontrol shutdown >/dev/null 2>&1 || true
    fi
    for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munge/munged.pid"; do
        [ -f "$pidfile" ] || continue
        pid=$(cat "$pidfile")
        # Give each daemon 10 s to stop by itself, then end it.
        n=0
        while kill -0 "$pid" 2>/dev/null && [ $n -lt 20 ]; do
            [ "$pidfile" = "$dir/munge/munged.pid" ] && kill "$pid" 2>/dev/null
            sleep 0.5
            n=$((n + 1))
        done
        kill -9 "$pid" 2>/dev/null || true
        rm -f "$pidfile"
    done
}

case "$action" in
stop)
    stop
    exit 0
    ;;
start) ;;
*) usage ;;
esac

if [ "$(id -u)" -ne 0 ]; then
    echo "$0: needs root (slurmd runs jobs as their user)" >&2
    exit 1
fi
for program in munged slurmctld slurmd sbatch scontrol sinfo; do
    if ! command -v "$program" >/dev/null 2>&1; then
        echo "$0: $program is missing; apt-get install slurm-wlm munge" >&2
        exit 1
    fi
done

stop # a previous run's daemons, if any
rm -rf "$dir/state" "$dir/spool" "$dir/munge"
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"
# A key of our own: munged refuses keys that others can read.
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$dir/munge/munge.key"
munged --force --socket="$dir/munge/socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed"

cpus=$(nproc)
memory=$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
cat >"$SLURM_CONF" <<CONF
# Written by $0: one node, this machine, everything under $dir.
ClusterName=debloat-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
# No cgroups (containers often have none to give) and no accounting database.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
# Jobs share the node core by core, as on a cluster.
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debloat Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF" -N localhost

# Up when the node is idle.
n=0
until [ "$(sinfo -h -o %t 2>/dev/null)" = idle ]; do
    n=$((n + 1))
    if [ $n -gt 60 ]; then
        echo "$0: the node did not come up in 30 s (ports $port and $((port + 1)) in use? set" \
            "DEBLOAT_SLURM_PORT); the logs end:" >&2
        tail -n 3 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
        stop
        exit 1
    fi
    sleep 0.5
done
echo "Slurm is up: SLURM_CONF=$SLURM_CONF ($cpus CPUs, $memory MB)"
