#!/bin/bash
# Issue 3, the seed's behaviours: latency (assertions in tests/e2e/core_latency_check.py).
set -euo pipefail
exec /usr/bin/python3 "$WS_SOURCE_DIR/tests/e2e/core_latency_check.py" 
