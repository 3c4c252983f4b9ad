#!/bin/bash
# swl must not deadlock a correct program: a window of swl_limit warps that all
# wait at a CTA barrier would wait forever for CTA-mates outside the window, so
# warps parked at a barrier do not count against the limit. reduce.yaml has
# 4 warps per CTA and a __syncthreads() in its loop.
set -euo pipefail
for limit in 1 2 3; do
  for div in stack sbi; do
    out=$("$WS_BIN" sim sweeps/kernels/reduce.yaml --set scheduler=swl --set swl_limit=$limit \
          --set divergence=$div | head -1)
    if [ "$out" != "status: ok" ]; then
      echo "FAIL: reduce with swl_limit=$limit divergence=$div: $out"; exit 1
    fi
  done
done
echo "swl with CTA barriers: ok"
