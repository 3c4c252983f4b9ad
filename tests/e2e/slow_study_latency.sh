#!/usr/bin/env bash
# Study 1 (docs/studies.md): runs sweeps/study_latency_warps.yaml and
# sweeps/study_latency_regfile.yaml, draws their figures with the analysis
# scripts, and asserts from the HDF5 files (tests/e2e/study_latency_check.py):
# an interior throughput-per-area optimum in warps at every latency, moving to
# more warps as latency grows; with regfile_kb as an axis, the balanced
# register file wins at the same warp counts.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

for s in study_latency_warps study_latency_regfile; do
    "$BIN" run "$SRC/sweeps/$s.yaml" -o "$T/$s.h5" -j 2 --quiet || fail "run $s"
    $PY "$SRC/analysis/$s.py" "$T/$s.h5" "$T/$s.png" > "$T/$s.txt" || fail "analysis/$s.py"
    [ -s "$T/$s.png" ] || fail "$s.png not written"
    cat "$T/$s.txt"
done
$PY "$SRC/tests/e2e/study_latency_check.py" "$T/study_latency_warps.h5" "$T/study_latency_regfile.h5"
echo "slow_study_latency: ok"
