#!/usr/bin/env bash
# Issue 16's shipped SpMV (sweeps/kernels/spmv.yaml over spmv_poisson.mtx):
# the committed inputs and expectation are what gen_app_inputs.py writes; the
# workload ends ok (y bit-exact against spmv_y.npy, computed in integers by the
# generator) on the default core, under the Volta preset and in the reference
# run; a y.npy with one element changed is a mismatch (the expect can fail);
# then a small sweep like sweeps/app_spmv.yaml whose steady-state columns are
# checked against properties derived from their definitions (app_spmv_check.py).
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail
K="$SRC/sweeps/kernels"

$PY "$K/gen_app_inputs.py" --check || fail "committed inputs differ from gen_app_inputs.py"

for args in "" "--set preset=volta --set cores=4" "--reference"; do
    # shellcheck disable=SC2086  # args are intentionally word-split
    out=$("$BIN" sim "$K/spmv.yaml" $args 2>&1) || fail "sim spmv.yaml $args: $(head -3 <<<"$out")"
    grep -qx 'status: ok' <<<"$out" || fail "sim spmv.yaml $args: $(head -3 <<<"$out")"
done

# one element of the expectation changed: row 100's y + 1 -> status mismatch naming it
cp "$K"/spmv.ptx "$K"/spmv_poisson.mtx "$K"/spmv_x.npy "$T/"
$PY "$SRC/tests/e2e/npy_bump.py" "$K/spmv_y.npy" "$T/spmv_y.npy" 100 f
cp "$K/spmv.yaml" "$T/spmv.yaml"
out=$("$BIN" sim "$T/spmv.yaml" 2>&1) && fail "a wrong expectation passed"
grep -qx 'status: mismatch' <<<"$out" || fail "changed y.npy: $(head -3 <<<"$out")"
grep -q 'y\[100\]' <<<"$out" || fail "the mismatch does not name y[100]: $(grep message <<<"$out")"

# a small sweep: 1, 7 and 8 cores x 8, 24, 48 warps, gto (sweeps/app_spmv.yaml's axes)
sed -e "s|^workload: .*|workload: $K/spmv.yaml|" \
    -e 's|^  cores: .*|  cores: [1, 7, 8]|' -e 's|^  scheduler: .*|  scheduler: [gto]|' \
    -e 's|^  warps: .*|  warps: [8, 24, 48]|' "$SRC/sweeps/app_spmv.yaml" > "$T/sweep.yaml"
"$BIN" run "$T/sweep.yaml" -o "$T/s.h5" -j 2 --quiet || fail "run the small sweep"
$PY "$SRC/tests/e2e/app_spmv_check.py" "$T/s.h5"
echo "app_spmv: ok"
