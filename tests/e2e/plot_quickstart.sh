#!/usr/bin/env bash
# analysis/plot_quickstart.py draws IPC and throughput per area, and draws
# hollow (not as a result) exactly the points whose residency max_ctas caps:
# latency.yaml launches 64 one-warp CTAs and max_ctas is 32, so with 64 warp
# slots 32 warps are resident (hand calculation); with 16 or 32 slots every
# slot is filled.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail
cat > "$T/q.yaml" <<YAML
name: e2e-plot-quickstart
workload: $SRC/sweeps/kernels/latency.yaml
base: {issue: scoreboard, preset: seed, max_ctas: 32, divergence: stack}
grid:
  warps: [16, 32, 64]
  mem_latency: [100, 200]
  scheduler: [lrr, gto]
YAML
"$BIN" run "$T/q.yaml" -o "$T/q.h5" -j 2 --quiet || fail "run"
out=$($PY "$SRC/analysis/plot_quickstart.py" "$T/q.h5" "$T/q.png") || fail "plot: $out"
# the 64-warp points: 2 latencies x 2 schedulers
[ "$out" = "wrote $T/q.png; 4 point(s) drawn hollow (residency capped below the warp slots)" ] || fail "$out"
[ "$(head -c 8 "$T/q.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "not a PNG"
$PY - "$T/q.h5" <<'PY' || fail "residency"
import sys, h5py
for p in h5py.File(sys.argv[1], "r")["points"][...]:
    want = 32 if p["warps"] == 64 else p["warps"]
    assert p["resident_warps"] == want, (p["warps"], p["resident_warps"])
    assert p["occupancy_limit"].decode() == ("max_ctas" if p["warps"] == 64 else "warps"), p["occupancy_limit"]
PY
# perturbed repeats: one point per configuration, error bars
sed -i 's/^base: {/base: {jitter: 4, /; $a repeat: 3' "$T/q.yaml"
"$BIN" run "$T/q.yaml" -o "$T/r.h5" -j 2 --quiet || fail "run with repeats"
out=$($PY "$SRC/analysis/plot_quickstart.py" "$T/r.h5" "$T/r.png") || fail "plot with repeats: $out"
want="wrote $T/r.png; 4 point(s) drawn hollow (residency capped below the warp slots)
error bars: 95% Student-t intervals of 12 configurations, 3 runs each"
[ "$out" = "$want" ] || fail "with repeats: $out"
echo "plot_quickstart: ok"
