#!/bin/bash
# Issue 16: data files cut while a sweep runs (no crash, the points use the
# copy read at load) and --resume after a changed workload, PTX or data file
# (refused, one line saying what changed); assertions in tests/e2e/inputs_change.py.
set -euo pipefail
exec /usr/bin/python3 "$WS_SOURCE_DIR/tests/e2e/inputs_change.py"
