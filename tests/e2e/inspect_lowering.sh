#!/bin/bash
# warpsweep inspect notes the lowering (docs/model.md "Lowering"): an IEEE f32 division is 11 SASS
# (ptxas 13.0 sm_75: MUFU.RCP FCHK FFMA x5 BRA and the BMOV/BSSY/BSYNC around its slow-path call,
# bench/lowering/forms.tsv), a parameter load is folded (a constant-bank operand), an int -> float
# conversion runs on the XU; with lowering=none nothing is noted.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T, fail
K="$SRC/bench/lowering/kernels"
out=$("$BIN" inspect "$K/fdiv.yaml")
grep -q '^lowering: ptxas' <<<"$out" || fail "no lowering line"
grep -qE 'div\.rn\.f32 .*// 11 SASS' <<<"$out" || fail "div.rn.f32 is not 11 SASS: $(grep div.rn <<<"$out")"
grep -qE 'ld\.param\.u64 .*// folded: no SASS' <<<"$out" || fail "ld.param is not folded"
out=$("$BIN" inspect "$K/convert.yaml")
grep -qE 'cvt\.rn\.f32\.s32 .*// on the XU' <<<"$out" || fail "cvt.rn.f32.s32 not on the XU: $(grep 'cvt.rn.f32.s32' <<<"$out" | head -1)"
out=$("$BIN" inspect "$K/fdiv.yaml" --set lowering=none)
! grep -qE 'SASS|lowering:|on the XU' <<<"$out" || fail "lowering=none notes the lowering"
echo ok
