#!/usr/bin/env bash
# Floating-point, math-library and warp-level kernels (tests/kernels/fp/, nvcc
# 13 PTX for sm_75/sm_80/sm_90, some --use_fast_math): every workload runs under
# the MIMD reference and the cycle-level core (stack and barrier divergence,
# lrr and gto, warp_size 64, and 16 for kernels that do not need 32 lanes), with
# status ok (the core's buffers equal the reference's: `expect: reference`),
# and the outputs are checked against values computed independently in Python
# (tests/e2e/kernels_fp_check.py: exact IEEE rounding, PTX shuffle rules,
# ulp tolerances for the .approx-based math).
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
K="$WS_SOURCE_DIR/tests/kernels/fp"
CHK="$WS_SOURCE_DIR/tests/e2e/kernels_fp_check.py"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# kernels whose results depend on a 32-lane warp (shuffles, votes, masks)
warp32=" shfl vote match redux divreduce sm90math "

n=0
for y in "$K"/*.yaml; do
  name=$(basename "$y" .yaml)
  n=$((n + 1))
  /usr/bin/python3 "$CHK" "$WS_BIN" "$K" "$name" --reference || fail=1
  sets=("divergence=stack scheduler=lrr" "divergence=sbi scheduler=lrr"
        "divergence=stack scheduler=gto" "divergence=sbi scheduler=gto")
  # warp_size 64: warp-level operations work per 32-lane group (exec.h), so
  # every kernel must still pass; 16 only for kernels that do not need 32 lanes
  sets+=("divergence=sbi warp_size=64" "divergence=stack warp_size=64")
  case "$warp32" in *" $name "*) ;; *) sets+=("divergence=sbi warp_size=16" "divergence=stack warp_size=16");; esac
  for s in "${sets[@]}"; do
    args=(); for kv in $s; do args+=(--set "$kv"); done
    out=$("$WS_BIN" sim "$y" "${args[@]}" 2>&1); rc=$?
    if [ "$rc" -ne 0 ] || ! grep -qx 'status: ok' <<<"$out"; then
      bad "$name [$s]: exit $rc: $(grep -m2 -E '^(status|message)' <<<"$out")"
    fi
  done
  # the independent check on one core configuration too (atomics: any order)
  /usr/bin/python3 "$CHK" "$WS_BIN" "$K" "$name" --set divergence=sbi --set scheduler=gto >/dev/null || {
    bad "$name: independent check under barrier/gto"; }
done
[ "$n" -ge 12 ] || bad "only $n fp workloads"

# Calls to functions defined in the module are inlined (tests/e2e/kernels_call.sh); a call to
# an .extern function is refused cleanly: printf (vprintf), one line file:line:col naming it
# (the call's callee token, line 51 col 2 of printf.ptx), exit 1.
out=$("$WS_BIN" inspect "$K/printf.ptx" 2>&1); rc=$?
[ "$rc" -eq 1 ] || bad "printf.ptx: exit $rc"
[ "$(wc -l <<<"$out")" -eq 1 ] || bad "printf.ptx: not one line: $out"
grep -qE "^.*printf\.ptx:51:2: call to 'vprintf'.*not defined in this module" <<<"$out" || bad "printf.ptx: $out"

[ "$fail" -eq 0 ] && echo "all fp kernels ok"
exit "$fail"
