#!/bin/bash
# Issue 11, instruction order as ptxas schedules it: the gather loop's iteration time drops
# from ~4L to ~2L (~2L to ~L per element) when its blocks are list-scheduled (bounds derived
# in tests/e2e/core_inst_order_check.py and docs/model.md, "Instruction order").
set -euo pipefail
exec /usr/bin/python3 "$WS_SOURCE_DIR/tests/e2e/core_inst_order_check.py"
