#!/usr/bin/env bash
# Study 5 (docs/studies.md, "Tail or steady state"): runs the sweeps of the two
# shipped application examples, sweeps/app_spmv.yaml and sweeps/app_bfs.yaml,
# and asserts from their HDF5 files (tests/e2e/study_apps_check.py) that the
# best point by whole-run ipc and by steady_ipc differ for some core count (SpMV),
# agree where the study says so (the BFS everywhere), and where the study says
# the tail explains the difference the steady-state winner is the point with more tail.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

"$BIN" run "$SRC/sweeps/app_spmv.yaml" -o "$T/spmv.h5" -j 2 --quiet || fail "run app_spmv"
$PY "$SRC/tests/e2e/study_apps_check.py" "$T/spmv.h5" --same 1,2,4 --tail-explains 8
"$BIN" run "$SRC/sweeps/app_bfs.yaml" -o "$T/bfs.h5" -j 2 --quiet || fail "run app_bfs"
$PY "$SRC/tests/e2e/study_apps_check.py" "$T/bfs.h5" --same 1,2,4
echo "slow_study_apps: ok"
