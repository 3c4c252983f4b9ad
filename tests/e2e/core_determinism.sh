#!/bin/bash
# Issue 3, the seed's behaviours: determinism (assertions in tests/e2e/core_seed_checks.py).
set -euo pipefail
exec /usr/bin/python3 "$WS_SOURCE_DIR/tests/e2e/core_seed_checks.py" determinism
