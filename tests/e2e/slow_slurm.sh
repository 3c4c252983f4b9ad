#!/usr/bin/env bash
# A real one-node SLURM on this machine: munged, slurmctld and slurmd run
# from a scratch directory (their own config, key, ports, state and logs;
# nothing under /etc is touched), the scripts that `warpsweep slurm` writes
# are submitted with their own submit.sh (an array of 3 tasks, then the merge
# job with afterok), and the merged file must equal a single-process run.
# The daemons are stopped by the PIDs in their pid files whatever happens.
# If SLURM cannot run here the test says exactly why and exits 0 only for an
# environmental reason (packages missing, not root); anything else fails.
set -uo pipefail
BIN=${WS_BIN:-$PWD/build/warpsweep}
SRC=${WS_SOURCE_DIR:-$PWD}
PY=/usr/bin/python3
TIMEOUT=${WS_SLURM_TIMEOUT:-240}
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP (environment): $*" >&2; exit 0; }

for p in munged slurmctld slurmd sbatch squeue scontrol sinfo; do
  command -v "$p" > /dev/null || skip "$p is not installed (Debian packages slurm-wlm and munge; scripts/setup.sh installs them)"
done
[ "$(id -u)" -eq 0 ] || skip "needs root to run munged as the munge user and slurmd (running as uid $(id -u))"
id munge > /dev/null 2>&1 || skip "no munge user (the munge package creates it)"

T=$(mktemp -d /tmp/ws-slurm.XXXXXX)
chmod 755 "$T"
stop_daemons() {
  for pf in "$T/state/slurmd.pid" "$T/state/slurmctld.pid" "$T/munge/munged.pid"; do
    [ -s "$pf" ] || continue
    pid=$(cat "$pf")
    kill -TERM "$pid" 2> /dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2> /dev/null || true
  done
}
show_logs() {
  for l in "$T"/state/*.log "$T"/munge/munged.log "$T"/slurm/logs/*; do
    [ -f "$l" ] && { echo "--- $l"; tail -n 20 "$l"; } >&2
  done
}
cleanup() { stop_daemons; [ -n "${WS_KEEP_SLURM:-}" ] || rm -rf "$T"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- munge: a key and a socket of our own ----
mkdir -p "$T/munge" "$T/munge-run"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chown -R munge:munge "$T/munge" "$T/munge-run"
chmod 700 "$T/munge"
chmod 755 "$T/munge-run"  # the socket's directory: everyone may reach it
chmod 400 "$T/munge/munge.key"
runuser -u munge -- munged --key-file="$T/munge/munge.key" --socket="$T/munge-run/munge.sock" \
  --pid-file="$T/munge/munged.pid" --log-file="$T/munge/munged.log" --seed-file="$T/munge/munged.seed" \
  || { show_logs; fail "munged did not start"; }

# ---- slurm.conf: this host is controller and the only compute node ----
HOST=$(hostname)
CPUS=$(nproc)
free_port() { $PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
CPORT=$(free_port); DPORT=$(free_port)
mkdir -p "$T/state/spool" "$T/state/ctld"
cat > "$T/slurm.conf" <<CONF
ClusterName=wstest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CPORT
SlurmdPort=$DPORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge-run/munge.sock
StateSaveLocation=$T/state/ctld
SlurmdSpoolDir=$T/state/spool
SlurmctldPidFile=$T/state/slurmctld.pid
SlurmdPidFile=$T/state/slurmd.pid
SlurmctldLogFile=$T/state/slurmctld.log
SlurmdLogFile=$T/state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=2000 State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$T/slurm.conf"
slurmctld -f "$SLURM_CONF" || { show_logs; fail "slurmctld did not start"; }
slurmd -f "$SLURM_CONF" || { show_logs; fail "slurmd did not start"; }
up=0
for _ in $(seq 60); do
  if sinfo -h -o '%T' 2> /dev/null | grep -qE '^(idle|mixed)'; then up=1; break; fi
  sleep 1
done
[ $up = 1 ] || { sinfo >&2; show_logs; fail "the node did not become idle within 60 s"; }

# ---- the sweep, a single-process reference, and the generated scripts ----
cat > "$T/s.yaml" <<YAML
name: slurm-e2e
description: small grid over the latency kernel
workload: $SRC/sweeps/kernels/latency.yaml
base: {issue: scoreboard}
grid:
  warps: [1, 2, 4, 8]
  mem_latency: {from: 100, to: 400, step: 150}
  scheduler: [lrr, gto, two_level]
exclude:
  - {scheduler: two_level, warps: 1}
YAML
# 4*3*3 = 36 points minus the 3 of two_level with one warp: 33, 11 per task
"$BIN" run "$T/s.yaml" -o "$T/single.h5" -j 2 --quiet || fail "single-process run"
(cd "$T" && "$BIN" slurm s.yaml --tasks 3 --cpus 1 --time 00:10:00 --partition debug --dir slurm -o out/merged.h5) \
  > "$T/gen.txt" || fail "warpsweep slurm"
[ "$(wc -l < "$T/gen.txt")" = 3 ] || fail "slurm output: $(cat "$T/gen.txt")"
"$T/slurm/slurm-e2e.submit.sh" > "$T/submit.txt" 2>&1 || { cat "$T/submit.txt" >&2; show_logs; fail "submit.sh"; }
read -r ARRAY MERGE < "$T/slurm/slurm-e2e.jobs"
echo "submitted: array $ARRAY, merge $MERGE" >&2

# ---- wait (bounded) for both jobs to leave the queue ----
deadline=$((SECONDS + TIMEOUT))
while squeue -h -j "$ARRAY,$MERGE" 2> /dev/null | grep -q .; do
  if [ $SECONDS -ge $deadline ]; then
    squeue >&2; show_logs
    scancel "$ARRAY" "$MERGE" 2> /dev/null
    fail "jobs still queued or running after ${TIMEOUT} s"
  fi
  sleep 1
done
for t in 0 1 2; do
  log="$T/slurm/logs/slurm-e2e-${ARRAY}_$t.out"
  [ -f "$log" ] || { show_logs; fail "no log of task $t"; }
  grep -q "11 of 11 points" "$log" || { show_logs; fail "task $t log: $(cat "$log")"; }
done
[ -f "$T/out/merged.h5" ] || { show_logs; fail "the merge job wrote no file"; }
grep -q "33 of 33 points from 3 shard files" "$T"/slurm/logs/slurm-e2e-merge-*.out || { show_logs; fail "merge log"; }
$PY "$SRC/tests/e2e/h5compare.py" "$T/out/merged.h5" "$T/single.h5" --complete || fail "merged file differs from the single-process run"
echo "slow_slurm: ok (array $ARRAY + merge $MERGE on a one-node SLURM)"
