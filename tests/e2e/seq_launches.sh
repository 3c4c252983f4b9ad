#!/bin/bash
# Issue 16, launch sequences: loops, two-kernel sequences, kernel-boundary
# timing and caches (assertions in tests/e2e/seq_launches.py).
set -euo pipefail
exec /usr/bin/python3 "$WS_SOURCE_DIR/tests/e2e/seq_launches.py"
