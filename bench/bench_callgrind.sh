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
# --set preset=seed). The count includes loading the workload (a few
# hundred thousand instructions, under 1% here). Works with older builds too,
# so a change can be compared with the commit before it.
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

run() {   # name, --set args...
  local name=$1; shift
  valgrind --tool=callgrind --callgrind-out-file="$T/$name.cg" "$BIN" sim "$T/$name.yaml" "$@" --json \
    > "$T/$name.json" 2> "$T/$name.err" || { cat "$T/$name.err" >&2; exit 1; }
  local ir wi
  ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$T/$name.cg")
  wi=$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["metrics"]["warp_insts"] if "metrics" in d else d["warp_insts"])' "$T/$name.json")
  printf '%-6s %14s host insts  %10s warp insts  %8.1f host insts / warp inst\n' "$name" "$ir" "$wi" \
    "$(/usr/bin/python3 -c "print($ir / $wi)")"
}
run alu --set warps=64 --set issue=scoreboard --set divergence=stack "$@"
run mem --set issue=blocking --set mem_latency=100 "$@"
run cache --set scheduler=gto --set l1_kb=64 "$@"
