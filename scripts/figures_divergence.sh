#!/bin/bash
# The seed's if/else timeline (docs/model.md "The seed's if/else") under every
# divergence scheme: docs/figures/timeline_ifelse_<scheme>.png and the text
# timelines printed to stdout (pasted into docs/model.md); and tbc's two-warp
# case (sweeps/kernels/tbchalf.yaml) under stack and tbc:
# docs/figures/timeline_tbchalf_<scheme>.png.
# usage: scripts/figures_divergence.sh [BUILD_DIR]
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$SRC/build}/warpsweep
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for d in stack sbi barrier multipath dualpath aware tbc; do
  "$BIN" sim "$SRC/sweeps/kernels/ifelse.yaml" --set preset=seed --set mem_latency=40 --set divergence=$d \
    --trace "$T/$d.csv" --timeline | sed -n '1,/^status/p' | grep -v '^status'
  /usr/bin/python3 "$SRC/analysis/timeline.py" "$T/$d.csv" -o "$SRC/docs/figures/timeline_ifelse_$d.png" \
    --title "ifelse, divergence=$d (preset=seed, mem_latency=40)" >/dev/null
done
for d in stack tbc; do
  "$BIN" sim "$SRC/sweeps/kernels/tbchalf.yaml" --set preset=seed --set mem_latency=40 --set divergence=$d \
    --trace "$T/half_$d.csv" --timeline | sed -n '1,/^status/p' | grep -v '^status'
  /usr/bin/python3 "$SRC/analysis/timeline.py" "$T/half_$d.csv" -o "$SRC/docs/figures/timeline_tbchalf_$d.png" \
    --title "tbchalf (2 warps), divergence=$d (preset=seed, mem_latency=40)" >/dev/null
done
