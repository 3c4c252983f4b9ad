#!/usr/bin/env bash
# Host instructions per simulated warp instruction, counted by valgrind's
# callgrind (noise-free on a shared machine). A benchmark, not a test.
#
#   bash bench/bench_callgrind.sh [BUILD_DIR] [--set name=value]...
#
# The three kernels of bench/bench_core.c, each one `warpsweep sim` run:
#   alu    the 7-instruction independent ALU loop, 64 warps, scoreboard, stack
#   mem    sweeps/kernels/latency.ptx, 16 warps, blocking issue, mem_latency 100
#   cache  sweeps/kernels/cachesens.ptx x 16 CTAs, gto, 64 KiB L1
# Extra --set arguments apply to all three (e.g. the seed's limits:
# --set preset=seed). Each figure is one simulation: the difference of a
# two-point and a one-point sweep of the same configuration. Works with
# older builds too, so a change can be compared with the commit before it.
# The registry's default core changed in model version 2 (CHANGES.md: the volta core, 4
# schedulers); to compare with a build before it, give both the same core, e.g.
# --set schedulers=1 --set scheduler=lrr --set divergence=stack --set smem_latency=24.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
shift || true
case $B in /*) BIN=$B/warpsweep ;; *) BIN=$PWD/$B/warpsweep ;; esac
[ -x "$BIN" ] || { echo "build first: cmake -S . -B $B && cmake --build $B -j2" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
K=$PWD/sweeps/kernels

# bench_core.c's ALU kernel, extracted so both stay the same
sed -n '/^static const char \*alu_ptx =/,/;$/p' bench/bench_core.c | sed '1d' |
  sed -e 's/^ *"//' -e 's/"[;]*$//' -e 's/\\n/\n/g' | sed '/^$/d' > "$T/bench_alu.ptx"
cat > "$T/alu.yaml" <<YAML
name: bench_alu
kernel: $T/bench_alu.ptx
entry: alu
grid: 16
block: 128
regs_per_thread: 16
buffers:
  out: {type: u32, count: 2048, init: 0}
params: [out, 3000]
YAML
cat > "$T/mem.yaml" <<YAML
name: bench_mem
kernel: $K/latency.ptx
entry: latency
grid: 16
block: 32
regs_per_thread: 10
buffers:
  one: {type: u32, count: 1, init: 1}
  out: {type: u32, count: 512, init: 0}
params: [one, out, 3000]
expect:
  out: 3000
YAML
cat > "$T/cache.yaml" <<YAML
name: bench_cache
kernel: $K/cachesens.ptx
entry: _Z9cachesensPKjPjii
grid: 16
block: 512
regs_per_thread: 33
buffers:
  in:  {type: u32, count: 131072, init: iota}
  out: {type: u32, count: 8192, init: 0}
params: [in, out, 512, 32]
YAML

# One simulation's cost: a sweep of two identical points minus a sweep of
# one (same process start, workload load and reference run, cached per
# sweep), so loading, the reference run and the results file cancel out.
sweep() {   # file, name, points, --set args...
  local f=$1 name=$2 pts=$3; shift 3
  { echo "name: $name"; echo "workload: $T/$name.yaml"; echo "grid:"
    [ "$pts" = 2 ] && echo "  max_cycles: [100000000, 100000001]" || echo "  max_cycles: [100000000]"; } > "$f"
}
ir_of() {   # name, points, --set args... -> host instructions
  local name=$1 pts=$2; shift 2
  sweep "$T/s$pts.yaml" "$name" "$pts"
  rm -f "$T/o$pts.h5"
  valgrind --tool=callgrind --callgrind-out-file="$T/$name$pts.cg" "$BIN" run "$T/s$pts.yaml" -o "$T/o$pts.h5" \
    -j 1 "$@" > "$T/$name.out" 2>&1 || { cat "$T/$name.out" >&2; exit 1; }
  sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$T/$name$pts.cg"
}
run() {   # name, --set args...
  local name=$1; shift
  local one two wi
  one=$(ir_of "$name" 1 "$@")
  two=$(ir_of "$name" 2 "$@")
  local sets=()
  for a in "$@"; do [ "$a" = --set ] || sets+=(--set "$a"); done
  wi=$("$BIN" sim "$T/$name.yaml" "${sets[@]}" --json |
       /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["warp_insts"])')
  printf '%-6s %14s host insts  %10s warp insts  %8.1f host insts / warp inst\n' "$name" "$((two - one))" "$wi" \
    "$(/usr/bin/python3 -c "print(($two - $one) / $wi)")"
}
run alu --set warps=64 --set issue=scoreboard --set divergence=stack "$@"
run mem --set issue=blocking --set mem_latency=100 "$@"
run cache --set scheduler=gto --set l1_kb=64 "$@"
