#!/bin/bash
# --timeline (ASCII) and analysis/timeline.py (PNG Gantt chart from --trace).
set -euo pipefail
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
W="$WS_SOURCE_DIR/sweeps/kernels/ifelse.yaml"
for d in stack sbi; do
  # lowering=none: one mark per PTX instruction (under ptxas a folded one shares its consumer's cycle)
  "$WS_BIN" sim "$W" --set divergence=$d --set mem_latency=40 --set lowering=none --timeline --trace "$T/$d.csv" > "$T/$d.txt"
  # one row per warp split: the full warp and the two paths
  for row in "w0 0xff " "w0 0xf " "w0 0xf0 "; do
    grep -q "^$row" "$T/$d.txt" || { echo "no timeline row '$row' under $d"; cat "$T/$d.txt"; exit 1; }
  done
  # 29 issued instructions: as many '#' in the timeline and rows in the trace
  n=$(grep '^w0 ' "$T/$d.txt" | tr -cd '#' | wc -c)
  [ "$n" -eq 29 ] || { echo "$d: $n marks, want 29"; exit 1; }
  [ "$(tail -n +2 "$T/$d.csv" | wc -l)" -eq 29 ] || { echo "$d: trace rows"; exit 1; }
  head -1 "$T/$d.csv" | grep -qx 'cycle,core,warp,split,pc,ptx_line,opcode,active_mask,launch'
  /usr/bin/python3 "$WS_SOURCE_DIR/analysis/timeline.py" "$T/$d.csv" -o "$T/$d.png" >/dev/null
  [ "$(head -c 8 "$T/$d.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || { echo "$d: not a PNG"; exit 1; }
done
echo ok
