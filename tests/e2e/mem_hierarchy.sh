#!/bin/bash
# Issue 12 end to end (tests/kernels/mem/, docs/memory.md): pointer-chase
# plateaus, row hits vs conflicts, streaming bandwidth and per-channel
# figures, same-address atomics, membar waiting for stores, and preset=seed
# keeping the fixed-latency model.
set -euo pipefail
for part in chase rows stream atomics fence seed; do
  /usr/bin/python3 "$WS_SOURCE_DIR/tests/e2e/mem_hierarchy_check.py" "$part"
done
