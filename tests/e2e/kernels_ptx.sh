#!/usr/bin/env bash
# PTX forms warpsweep once refused (tests/kernels/ptx): intrin.yaml (nvcc -O3 sm_75: dp4a, dp2a,
# fns, vabsdiff4, lop3, WARP_SZ; bmsk/szext/cvt.pack.sat by inline asm) and forms.yaml
# (hand-written: .reg calls, a parameter's address, vector registers, predicate constants) end
# ok -- their expectations come from the independent Python models in expected.py -- under the
# MIMD reference and the cycle-level core with both divergence schemes, and at warp sizes
# 8/16/32/64 (warpSize is min(warp_size, 32), the lane group of %laneid: intrin's last row
# checks it agrees with %laneid and a shfl butterfly over warpSize lanes).
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
K="$WS_SOURCE_DIR/tests/kernels/ptx"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

/usr/bin/python3 "$K/expected.py" --check >/dev/null || bad "expected.py --check: a yaml differs from its model"

configs=(
  "--reference"
  "--set divergence=stack --set scheduler=lrr"
  "--set divergence=sbi --set scheduler=gto"
  "--set divergence=stack --set warp_size=8"
  "--set divergence=sbi --set warp_size=16"
  "--set divergence=sbi --set warp_size=64 --set issue=blocking"
  "--set divergence=stack --set warp_size=64 --set cores=2"
)
n=0
for y in "$K"/*.yaml; do
  n=$((n + 1))
  for c in "${configs[@]}"; do
    # shellcheck disable=SC2086
    out=$("$WS_BIN" sim "$y" $c 2>&1); rc=$?
    status=$(sed -n 's/^status: //p' <<<"$out")
    if [ "$rc" -ne 0 ] || [ "$status" != ok ]; then
      bad "$(basename "$y") [$c]: exit $rc status '$status'"; head -3 <<<"$out"
    fi
  done
done
[ "$n" -ge 2 ] || bad "only $n workloads in $K"
[ "$fail" -eq 0 ] && echo "ok: $n workloads x ${#configs[@]} configurations"
exit "$fail"
