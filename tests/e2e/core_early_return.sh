#!/bin/bash
# Lanes that return early leave at once under both divergence schemes: a CTA
# barrier after `if (tid >= n) return;` must not wait for them, whichever side
# of the branch the return is on (here the fall-through; tests/kernels/int/
# exitbar has it on the taken side). Expected values: see the workload file.
set -euo pipefail
W="$WS_SOURCE_DIR/tests/kernels/misc/early_return.yaml"
for div in stack sbi; do
  for sched in lrr gto two_level; do
    for issue in scoreboard blocking; do
      out=$("$WS_BIN" sim "$W" --set divergence=$div --set scheduler=$sched --set issue=$issue | head -1)
      [ "$out" = "status: ok" ] || { echo "FAIL: $div/$sched/$issue: $out"; exit 1; }
    done
  done
done
echo "early return before a CTA barrier: ok"
