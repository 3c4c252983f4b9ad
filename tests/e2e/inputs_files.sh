#!/bin/bash
# Issue 16, inputs from files: .mtx / edge list / .npy / raw buffers and
# expects, and bad files (assertions in tests/e2e/inputs_files.py).
set -euo pipefail
exec /usr/bin/python3 "$WS_SOURCE_DIR/tests/e2e/inputs_files.py"
