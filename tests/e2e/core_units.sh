#!/bin/bash
# Issue 11, the structural limits (execution units, LD/ST pipe, operand collector and
# register banks, dual issue, front end): closed forms of docs/model.md vs the simulator
# (assertions in tests/e2e/core_units_check.py; kernels in tests/kernels/units).
set -euo pipefail
/usr/bin/python3 "$WS_SOURCE_DIR/tests/kernels/units/gen.py" --check
exec /usr/bin/python3 "$WS_SOURCE_DIR/tests/e2e/core_units_check.py"
