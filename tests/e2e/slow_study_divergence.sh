#!/usr/bin/env bash
# Study 2 (docs/studies.md): runs sweeps/study_divergence.yaml, draws its figure
# and asserts from the HDF5 file (tests/e2e/study_divergence_check.py): the spin
# lock deadlocks under stack, multipath, dualpath and tbc and completes under sbi,
# barrier and aware for every scheduler/issue/latency, nothing else fails, the
# if/else is faster than the stack under sbi/multipath/dualpath/aware, tbc
# compacts varloop and tbchalf.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

"$BIN" run "$SRC/sweeps/study_divergence.yaml" -o "$T/d.h5" -j 2 --quiet || fail "run"
$PY "$SRC/analysis/study_divergence.py" "$T/d.h5" "$T/d.png" || fail "analysis/study_divergence.py"
[ -s "$T/d.png" ] || fail "figure not written"
$PY "$SRC/tests/e2e/study_divergence_check.py" "$T/d.h5"
echo "slow_study_divergence: ok"
