#!/bin/bash
# barrier_yield spin|all: spin lock ok under both, varloop reconverges under spin
# (assertions and hand-derived values in tests/e2e/core_barrier_yield.py).
set -euo pipefail
exec /usr/bin/python3 "$WS_SOURCE_DIR/tests/e2e/core_barrier_yield.py"
