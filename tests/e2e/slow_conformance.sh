#!/bin/bash
# Conformance matrix (issue 10): every shipped and test kernel under stack/sbi x 8
# schedulers (ccws with and without a 4 KiB L1, daws with it) and barrier/multipath/dualpath/
# aware/tbc x lrr/gto (issue 13), x blocking/scoreboard x every warp size it is valid for,
# checked against its own expected values (or, without any, the MIMD reference run);
# tests/fuzz/conformance.py (its docstring lists the kernels whose expected status is not ok, and why).
# About 21,000 points, about five minutes in Release on 2 loaded cores: slow_ (Release pass only).
set -euo pipefail
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
exec /usr/bin/python3 "$WS_SOURCE_DIR/tests/fuzz/conformance.py" --bin "$WS_BIN" --src "$WS_SOURCE_DIR" -j 2
