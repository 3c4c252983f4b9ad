#!/usr/bin/env bash
# Speed against a peer: whole-process wall time of `warpsweep sim` versus
# GPGPU-Sim 4.2 on the same PTX, one SM, for the six kernels of bench/peer/.
# A benchmark, not a test: it measures time, so run it on a quiet machine
# (nothing else busy; wall time under load says little). Nothing in the build
# or the tests needs it, nvcc or GPGPU-Sim.
#
#   GPGPUSIM_RUN=/path/to/run.sh bash bench/bench_gpgpusim.sh [BUILD_DIR]
#
# Env: GPGPUSIM_RUN  the peer's runner (below; required)
#      NVCC          nvcc for the host programs (default: PATH, else the
#                    highest /usr/local/cuda*/bin/nvcc)
#      REPS          warpsweep runs per kernel, the minimum is reported (default 5)
#      PEER_REPS     GPGPU-Sim runs per kernel, the minimum is reported (default 1:
#                    each takes seconds to minutes)
#      KERNELS       a subset, e.g. "ialu stream" (default: all six)
#
# For each kernel bench/peer/NAME has NAME.cu (the kernel), NAME_host.cu (a
# CUDA host program: allocate, copy, launch with the workload's grid, block and
# data, check the result on the CPU), NAME.ptx (`nvcc -arch=sm_75 -O3 -ptx
# NAME.cu`, CUDA 13.0) and NAME.yaml (the warpsweep workload: same PTX, launch
# and data; expectations from bench/peer/expected.py or by hand). warpsweep
# runs NAME.yaml with its defaults and cores=1; GPGPU-Sim runs the host program
# built with `nvcc -arch=sm_75 -O3 --cudart shared --no-compress`, which embeds
# the same PTX (GPGPU-Sim simulates the embedded PTX, not SASS).
#
# The peer: GPGPU-Sim 4.2 (https://github.com/gpgpu-sim/gpgpu-sim_distribution,
# branch dev, commit 6b244a5d), built by the instructions of its own README
# against a CUDA toolkit; this repository carries no recipe or patch for it, and
# nothing here builds it. Its stored results are in bench/peer/README.md,
# bench/correlate/ and bench/energy/.
#
# GPGPUSIM_RUN is a script `run.sh APP` that sets GPGPU-Sim's environment,
# copies configs/tested-cfgs/SM7_QV100 (gpgpusim.config, config_volta_islip.icnt)
# into a fresh directory, appends
#     -gpgpu_n_clusters 1  -gpgpu_n_cores_per_cluster 1
#     -gpgpu_ptx_force_max_capability 75  -gpgpu_kernel_launch_latency 0
# (one SM of the QV100, the rest of the chip's memory system unchanged), runs
# APP there with stdout and stderr to out.txt, prints GPGPU-Sim's
# `gpu_sim_cycle`, `gpgpu_n_tot_w_icount` lines and then `full log: DIR/out.txt`.
# Its whole-process wall time (start-up, PTX load, simulation, the host
# program's check) is what is compared with warpsweep's.
#
# Columns: cycles (GPGPU-Sim gpu_sim_cycle / warpsweep cycles), warp
# instructions (gpgpu_n_tot_w_icount / warp_insts), seconds (minimum wall time
# of the whole process), speed = peer seconds / warpsweep seconds, speed (CPU
# s) = the same ratio of CPU time (user + sys, the process and its children:
# steadier than wall time on a loaded machine, but the claim is wall), check =
# the host program's PASS/FAIL / warpsweep's status. The cycle counts are
# expected to differ (QV100's configuration against warpsweep's defaults: e.g.
# 4 schedulers per SM there, 1 here); their ratio is printed for the fidelity
# work, nothing is tuned to it. Warp instructions agree, or within one per warp
# where warpsweep runs a divergent exit's `ret` once per group.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
case $B in /*) WS=$B/warpsweep ;; *) WS=$PWD/$B/warpsweep ;; esac
[ -x "$WS" ] || { echo "build first: cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release && cmake --build $B -j2" >&2; exit 1; }
RUN=${GPGPUSIM_RUN:?set GPGPUSIM_RUN to the peer runner run.sh (see the comment at the top of this script)}
[ -x "$RUN" ] || { echo "GPGPUSIM_RUN=$RUN is not executable" >&2; exit 1; }
NVCC=${NVCC:-$(command -v nvcc || ls -d /usr/local/cuda*/bin/nvcc 2>/dev/null | sort -V | tail -1)}
[ -x "$NVCC" ] || { echo "needs nvcc (set NVCC=/path/to/nvcc)" >&2; exit 1; }
REPS=${REPS:-5}
PEER_REPS=${PEER_REPS:-1}
KERNELS=${KERNELS:-ialu ffma smemreduce divergent stream warpvote}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

measure() {   # REPS OUT ERR CMD... -> "wall cpu": minimum over REPS runs of the whole
  # process's wall time and of its CPU time (user + sys of it and its children)
  /usr/bin/python3 - "$@" <<'PY'
import resource, subprocess, sys, time
reps, out, err, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
walls, cpus = [], []
for _ in range(reps):
    r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    with open(out, "w") as o, open(err, "w") as e:
        subprocess.run(cmd, stdout=o, stderr=e)
    t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    walls.append(t1 - t0)
    cpus.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
print("%.4f %.4f" % (min(walls), min(cpus)))
PY
}

ws_run() {   # name -> "cycles warp_insts status wall cpu"
  local k=$1 t
  t=$(measure "$REPS" "$T/$k.json" "$T/$k.ws.err" "$WS" sim "bench/peer/$k.yaml" --set cores=1 --json)
  /usr/bin/python3 - "$T/$k.json" "$T/$k.ws.err" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    print(d["cycles"], d["warp_insts"], d["status"], end=" ")
except Exception:
    sys.stderr.write(open(sys.argv[2]).read())
    print("- - error", end=" ")
PY
  echo "$t"
}

peer_run() {   # name -> "cycles warp_insts PASS|FAIL wall cpu"
  local k=$1 t log cyc wi chk
  "$NVCC" -arch=sm_75 -O3 --cudart shared --no-compress -o "$T/$k" "bench/peer/${k}_host.cu"
  t=$(measure "$PEER_REPS" "$T/$k.peer" "$T/$k.peer.err" "$RUN" "$T/$k")
  cyc=$(sed -n 's/^gpu_sim_cycle = *\([0-9]*\).*/\1/p' "$T/$k.peer" | tail -1)
  wi=$(sed -n 's/^gpgpu_n_tot_w_icount = *\([0-9]*\).*/\1/p' "$T/$k.peer" | tail -1)
  log=$(sed -n 's/^full log: //p' "$T/$k.peer" | tail -1)
  chk=FAIL
  [ -n "$log" ] && grep -q "^$k: PASS" "$log" && chk=PASS
  [ -n "$log" ] && rm -rf "$(dirname "$log")"
  echo "${cyc:--} ${wi:--} $chk $t"
}

echo "$("$WS" --version 2>/dev/null | head -1) ($WS), defaults + cores=1, min of $REPS runs;" \
  "GPGPU-Sim SM7_QV100 one SM via $RUN, min of $PEER_REPS run(s); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
: > "$T/rows"
for k in $KERNELS; do
  read -r wc ww ws wt wu < <(ws_run "$k")
  read -r pc pw pchk pt pu < <(peer_run "$k")
  echo "$k $pc $wc $pw $ww $pt $wt $pchk $ws $pu $wu" >> "$T/rows"
done
/usr/bin/python3 - "$T/rows" <<'PY'
import math, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
print("| kernel | peer cycles | warpsweep cycles | peer warp insts | warpsweep warp insts "
      "| peer s | warpsweep s | speed | speed (CPU s) | check |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
ratios, notes = [], []
for k, pc, wc, pw, ww, pt, wt, pchk, ws, pu, wu in rows:
    speed = float(pt) / float(wt) if float(wt) > 0 else float("nan")
    cpu_speed = float(pu) / float(wu) if float(wu) > 0 else float("nan")
    ratios.append(speed)
    print(f"| {k} | {pc} | {wc} | {pw} | {ww} | {float(pt):.2f} | {float(wt):.3f} "
          f"| {speed:.0f}x | {cpu_speed:.0f}x | {pchk} / {ws} |")
    if pc.isdigit() and wc.isdigit():
        notes.append(f"{k} {int(wc) / int(pc):.2f}"
                     + ("" if min(int(pc), int(wc)) >= 25000 else " (under 25000 cycles)"))
good = [r for r in ratios if r == r]
if good:
    print(f"speed: min {min(good):.0f}x, geometric mean "
          f"{math.exp(sum(map(math.log, good)) / len(good)):.0f}x over {len(good)} kernels")
print("cycles warpsweep / peer: " + ", ".join(notes))
PY
