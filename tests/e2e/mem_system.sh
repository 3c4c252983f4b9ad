#!/bin/bash
# Issue 5 end-to-end: coalescing, locality (swl vs lrr vs gto), DRAM bandwidth
# saturation, shared-memory bank conflicts, correctness with the memory system on.
set -euo pipefail
for part in coalescing locality bandwidth banks correctness; do
  /usr/bin/python3 "$WS_SOURCE_DIR/tests/e2e/mem_checks.py" "$part"
done
