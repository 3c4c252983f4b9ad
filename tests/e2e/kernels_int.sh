#!/usr/bin/env bash
# Integer / memory / control-flow kernels (tests/kernels/int, nvcc output for sm_75/80/90 with
# -O3, -G and -lineinfo): every workload ends ok — its explicit expectations come from the
# Python models in tests/kernels/int/expected.py — under the MIMD reference and under the
# cycle-level core with {stack, barrier} x {lrr, gto}, plus warp_size 16, 2 cores and a 16 KB
# L1. oob.yaml reads past its buffer: status error naming a faulting thread (i >= 16) and the access, every time.
# exitbar.yaml: threads past n `return` before __syncthreads (the last CTA's warp 1 partially
# exited): the returning lanes must leave at once, not wait at a reconvergence point while the
# CTA barrier, which counts threads, waits for them (the CFG treats an exit-only block as the
# virtual exit, as ptxas turns such branches into predicated EXITs).
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
K="$WS_SOURCE_DIR/tests/kernels/int"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# the committed yamls are what the models produce (needs no simulator)
/usr/bin/python3 "$K/expected.py" --check || bad "expected.py --check: a yaml differs from its model"

configs=(
  "--reference"
  "--set divergence=stack --set scheduler=lrr"
  "--set divergence=stack --set scheduler=gto"
  "--set divergence=sbi --set scheduler=lrr"
  "--set divergence=sbi --set scheduler=gto"
  "--set divergence=stack --set warp_size=16"
  "--set divergence=sbi --set warp_size=16 --set scheduler=gto"
  "--set divergence=sbi --set cores=2"
  "--set divergence=stack --set cores=2 --set l1_kb=16"
  "--set divergence=sbi --set l1_kb=16 --set issue=blocking"
)
n=0
for y in "$K"/*.yaml; do
  name=$(basename "$y" .yaml)
  n=$((n + 1))
  for c in "${configs[@]}"; do
    # shellcheck disable=SC2086
    out=$("$WS_BIN" sim "$y" $c 2>&1); rc=$?
    status=$(sed -n 's/^status: //p' <<<"$out")
    if [ "$name" = oob ]; then
      # the first faulting access in simulated time: any thread i >= 16 (it
      # reads in[4i+3] past in[63]); which one depends on the timing model
      lane=$(sed -n 's/.*lane \([0-9]*\) (thread tid=(\([0-9]*\),0,0).*/\1 \2/p' <<<"$out" | head -1)
      if [ "$rc" -ne 1 ] || [ "$status" != error ] || [ -z "$lane" ] ||
         [ "${lane#* }" -lt 16 ] ||
         ! grep -q 'out-of-bounds 4-byte ld.global at address' <<<"$out"; then
        bad "$name [$c]: exit $rc, expected status error naming an out-of-bounds thread's ld.global"; head -3 <<<"$out"
      fi
    elif [ "$rc" -ne 0 ] || [ "$status" != ok ]; then
      bad "$name [$c]: exit $rc status '$status'"; head -3 <<<"$out"
    fi
  done
done
[ "$n" -ge 18 ] || bad "only $n workloads in $K"
[ "$fail" -eq 0 ] && echo "ok: $n workloads x ${#configs[@]} configurations"
exit "$fail"
