#!/usr/bin/env bash
# DRAM in its own clock domain (params.def mem_timing_ghz, docs/memory.md "Clock domains"): at
# clock_ghz = 2 x mem_timing_ghz the DRAM-side latencies (mem_latency, dram_tRCD/tRP/tCL) are
# twice as many core cycles and dram_bw half as many bytes per cycle, so a run must be the very
# run with those values given by hand in core cycles (mem_timing_ghz=0). Ratios of exact binary
# fractions (3.0 / 1.5), so the scaled bandwidth is exactly half. The L1, crossbar and L2 keep
# their cycles (they run at the core clock).
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
K=$SRC/sweeps/kernels
run() { "$BIN" sim "$1" "${@:2}" --json | $PY -c 'import json,sys; d=json.load(sys.stdin); [d.pop(k) for k in ("mem_latency","dram_tRCD","dram_tRP","dram_tCL","dram_bw","mem_timing_ghz")]; print(json.dumps(d, sort_keys=True))'; }
for w in stream latency cachesens; do
  a=$(run "$K/$w.yaml" --set clock_ghz=3.0 --set mem_timing_ghz=1.5)
  b=$(run "$K/$w.yaml" --set clock_ghz=3.0 --set mem_timing_ghz=0 --set mem_latency=200 --set dram_tRCD=44 \
          --set dram_tRP=44 --set dram_tCL=44 --set dram_bw=3.675)
  [ "$a" = "$b" ] || fail "$w: clock 2x the memory's is not the run with its timings doubled by hand"
  # and the memory is slower in core cycles than at the memory's own clock
  c=$(run "$K/$w.yaml" --set clock_ghz=1.5 --set mem_timing_ghz=1.5)
  $PY - "$a" "$c" "$w" <<'PY' || fail "$w: a 2x core clock does not see more cycles of memory"
import json, sys
fast, base, w = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
assert fast["status"] == base["status"] == "ok", (fast["status"], base["status"])
assert fast["cycles"] > base["cycles"], (w, fast["cycles"], base["cycles"])
PY
done
# the fixed-latency memory: mem_latency alone, in core cycles of a 2x clock
a=$(run "$K/latency.yaml" --set preset_mem=seed --set mem_timing_ghz=1.5 --set clock_ghz=3.0)
b=$(run "$K/latency.yaml" --set preset_mem=seed --set mem_timing_ghz=0 --set clock_ghz=3.0 --set mem_latency=800)
[ "$a" = "$b" ] || fail "fixed-latency memory: mem_latency 400 at a 2x clock is not 800 cycles"
# equal clocks (every preset): nothing scales
a=$(run "$K/stream.yaml" --set preset=turing)
b=$(run "$K/stream.yaml" --set preset=turing --set mem_timing_ghz=0)
[ "$a" = "$b" ] || fail "preset=turing: mem_timing_ghz at its own clock changed the run"
echo "memory clock domain: DRAM timings scale with clock_ghz / mem_timing_ghz as derived"
