#!/usr/bin/env bash
# Issue 24's ISA edge kernels, each against its independent Python model (the committed yaml
# files are what expected.py gives: --check): float -> integer cvt at NaN/inf/range ends
# (tests/kernels/cvt), multiword subtraction and the carry flag after it (carry), the
# scalar video shifts vshl/vshr (video) and sm_100's 256-bit ld/st.v8 (sm100), under the
# reference and the core (stack/barrier divergence, lrr/gto, warp sizes 16 and 64).
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
for d in cvt carry video sm100; do
  K="$WS_SOURCE_DIR/tests/kernels/$d"
  /usr/bin/python3 "$K/expected.py" --check || bad "$d: expected.py --check"
  for y in "$K"/*.yaml; do
    for s in "--reference" "--set divergence=stack --set scheduler=lrr" "--set divergence=barrier --set scheduler=gto" \
             "--set divergence=barrier --set warp_size=16" "--set divergence=stack --set warp_size=64"; do
      # shellcheck disable=SC2086
      out=$("$WS_BIN" sim "$y" $s 2>&1); rc=$?
      if [ "$rc" -ne 0 ] || ! grep -qx 'status: ok' <<<"$out"; then
        bad "$(basename "$y" .yaml) [$s]: exit $rc: $(grep -m2 -E '^(status|message)' <<<"$out")"
      fi
    done
  done
done
[ "$fail" -eq 0 ] && echo "all edge kernels ok"
exit "$fail"
