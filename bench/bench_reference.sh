#!/usr/bin/env bash
# Host instructions per warp instruction of the MIMD reference run alone
# (src/sim/reference.c), counted by valgrind's callgrind. A benchmark, not a
# test.
#
#   bash bench/bench_reference.sh [BUILD_DIR] [ITERS_LOW ITERS_HIGH]
#
# The ALU loop of bench/bench_core.c on 64 CTAs x 32 threads, run with
# `warpsweep sim --reference` (the reference only, no cycle-level core) at two
# loop counts (default 100 and 500); the difference of the two host
# instruction counts divided by the difference of the warp instructions
# (reference thread instructions / 32) is the cost per warp instruction, so
# process start, parsing, the memory image and the expect check cancel out.
# Then, at ITERS_HIGH, a whole `warpsweep sim` (timing run and the reference it
# runs for work_ipc) against the same point inside a sweep (a two-point minus
# a one-point sweep: the sweep's reference run, loading and the results file
# cancel out), the ratio issue 25 bounds by 1.5.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
LO=${2:-100}
HI=${3:-500}
case $B in /*) BIN=$B/warpsweep ;; *) BIN=$PWD/$B/warpsweep ;; esac
[ -x "$BIN" ] || { echo "build first: cmake -S . -B $B && cmake --build $B -j2" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# bench_core.c's ALU kernel, extracted so both stay the same
sed -n '/^static const char \*alu_ptx =/,/;$/p' bench/bench_core.c | sed '1d' |
  sed -e 's/^ *"//' -e 's/"[;]*$//' -e 's/\\n/\n/g' | sed '/^$/d' > "$T/bench_alu.ptx"
yaml() {   # iterations
  cat > "$T/alu$1.yaml" <<YAML
name: bench_ref_alu
kernel: $T/bench_alu.ptx
entry: alu
grid: 64
block: 32
regs_per_thread: 16
buffers:
  out: {type: u32, count: 2048, init: 0}
params: [out, $1]
YAML
}
measure() {   # iterations -> "host_insts thread_insts"
  yaml "$1"
  valgrind --tool=callgrind --callgrind-out-file="$T/cg$1" "$BIN" sim "$T/alu$1.yaml" --reference --json \
    > "$T/out$1.json" 2> "$T/err$1" || { cat "$T/err$1" "$T/out$1.json" >&2; exit 1; }
  local ir ti
  ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$T/cg$1")
  ti=$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["status"]=="ok", d; print(d["thread_insts"])' "$T/out$1.json")
  echo "$ir $ti"
}
read -r ir_lo ti_lo < <(measure "$LO")
read -r ir_hi ti_hi < <(measure "$HI")
/usr/bin/python3 - "$ir_lo" "$ti_lo" "$ir_hi" "$ti_hi" "$LO" "$HI" <<'PY'
import sys
ir_lo, ti_lo, ir_hi, ti_hi = map(int, sys.argv[1:5])
wi = (ti_hi - ti_lo) / 32
print(f"reference, ALU loop, 64 CTAs x 32 threads, iters {sys.argv[5]} -> {sys.argv[6]}:")
print(f"  whole command: {ir_lo} / {ir_hi} host insts, {ti_lo} / {ti_hi} thread insts")
print(f"  difference: {ir_hi - ir_lo} host insts / {wi:.0f} warp insts = "
      f"{(ir_hi - ir_lo) / wi:.1f} host insts / warp inst")
PY

# sim (reference included) against the point inside a sweep, at ITERS_HIGH
cg_total() { sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$1"; }
valgrind --tool=callgrind --callgrind-out-file="$T/sim.cg" "$BIN" sim "$T/alu$HI.yaml" > /dev/null 2>&1
for n in 1 2; do
  { echo "name: bench_ref_sweep"; echo "workload: $T/alu$HI.yaml"; echo "grid:"
    [ $n = 2 ] && echo "  max_cycles: [100000000, 100000001]" || echo "  max_cycles: [100000000]"; } > "$T/sw$n.yaml"
  valgrind --tool=callgrind --callgrind-out-file="$T/sw$n.cg" "$BIN" run "$T/sw$n.yaml" -o "$T/sw$n.h5" -j 1 > /dev/null 2>&1
done
/usr/bin/python3 - "$(cg_total "$T/sim.cg")" "$(cg_total "$T/sw1.cg")" "$(cg_total "$T/sw2.cg")" <<'PY'
import sys
sim, one, two = map(int, sys.argv[1:4])
point = two - one
print(f"  warpsweep sim (reference included): {sim} host insts; the same point in a sweep: {point}; "
      f"ratio {sim / point:.2f}")
PY
