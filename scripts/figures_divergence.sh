#!/bin/bash
# The seed's if/else timeline (docs/model.md "The seed's if/else") under every
# divergence scheme: docs/figures/timeline_ifelse_<scheme>.png and the text
# timelines printed to stdout (pasted into docs/model.md).
# usage: scripts/figures_divergence.sh [BUILD_DIR]
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BIN=${1:-$SRC/build}/warpsweep
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for d in stack sbi barrier multipath dualpath aware; do
  "$BIN" sim "$SRC/sweeps/kernels/ifelse.yaml" --set preset=seed --set mem_latency=40 --set divergence=$d \
    --trace "$T/$d.csv" --timeline | sed -n '1,/^status/p' | grep -v '^status'
  /usr/bin/python3 "$SRC/analysis/timeline.py" "$T/$d.csv" -o "$SRC/docs/figures/timeline_ifelse_$d.png" \
    --title "ifelse, divergence=$d (preset=seed, mem_latency=40)" >/dev/null
done
