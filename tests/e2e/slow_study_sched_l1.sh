#!/usr/bin/env bash
# Study 3 (docs/studies.md): runs sweeps/study_sched_l1.yaml, draws its figure
# and asserts from the HDF5 file (tests/e2e/study_sched_l1_check.py): with
# limited DRAM bandwidth a small swl limit beats lrr in IPC on cachesens, with
# the hit rates derived by hand (7/8 vs 0 at 8 KiB, 7/8 for all at 64 KiB).
set -euo pipefail
BIN=${WS_BIN:-$PWD/build/warpsweep}
SRC=${WS_SOURCE_DIR:-$PWD}
PY=/usr/bin/python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$BIN" params > "$T/params.txt"; grep -qw l1_kb "$T/params.txt" || fail "l1_kb is not a parameter (memory system missing)"
# inst_order=ptx: the hit rates are derived for one load in flight per warp (the PTX order);
# list-scheduled, cachesens's unrolled loop has its four loads in flight at once and the
# counts differ (docs/model.md, "Instruction order").
"$BIN" run "$SRC/sweeps/study_sched_l1.yaml" -o "$T/s.h5" -j 2 --quiet --set inst_order=ptx || fail "run"
$PY "$SRC/analysis/study_sched_l1.py" "$T/s.h5" "$T/s.png" > "$T/s.txt" || fail "analysis/study_sched_l1.py"
[ -s "$T/s.png" ] || fail "figure not written"
$PY "$SRC/tests/e2e/study_sched_l1_check.py" "$T/s.h5"
echo "slow_study_sched_l1: ok"
