#!/usr/bin/env bash
# Study 3 (docs/studies.md): runs sweeps/study_sched_l1.yaml, draws its figure
# and asserts from the HDF5 file (tests/e2e/study_sched_l1_check.py), on the
# Volta SM the sweep sets: with limited DRAM bandwidth swl 2 beats lrr in IPC on
# cachesens at 16 KiB, with the hit rates derived by hand (swl 1 7/8 vs lrr 0 at
# 8 KiB, swl 2 7/8 at 16 KiB, 7/8 for all at 64 KiB), and ccws / daws run as gto
# where they can hold nothing.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

"$BIN" params > "$T/params.txt"; grep -qw l1_kb "$T/params.txt" || fail "l1_kb is not a parameter (memory system missing)"
# inst_order=ptx: the hit rates are derived for one load in flight per warp (the PTX order);
# list-scheduled, cachesens's unrolled loop has its four loads in flight at once and the
# counts differ (docs/model.md, "Instruction order").
"$BIN" run "$SRC/sweeps/study_sched_l1.yaml" -o "$T/s.h5" -j 2 --quiet --set inst_order=ptx || fail "run"
$PY "$SRC/analysis/study_sched_l1.py" "$T/s.h5" "$T/s.png" > "$T/s.txt" || fail "analysis/study_sched_l1.py"
[ -s "$T/s.png" ] || fail "figure not written"
$PY "$SRC/tests/e2e/study_sched_l1_check.py" "$T/s.h5"
echo "slow_study_sched_l1: ok"
