#!/usr/bin/env bash
# Steady-state and tail metrics (issue 16) against a model replayed from the
# trace (tests/e2e/steady_tail_check.py).
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
exec "$PY" "$SRC/tests/e2e/steady_tail_check.py" "$BIN" "$SRC"
