#!/usr/bin/env bash
# Texture and surface objects (tests/kernels/tex, nvcc -O3 sm_75 from tex.cu): tex.1d/2d/3d with
# point and linear filtering (9-bit weights), clamp/border/wrap/mirror, normalized coordinates
# and normalized-float reads, tld4.g, txq, suld.b/sust.b with .trap/.zero/.clamp. Their
# expectations come from expected.py, a numpy model of the CUDA Programming Guide's "Texture
# Fetching" appendix; each ends ok under the MIMD reference and the core in a few
# configurations, and tex_latency adds to a fetch's latency and nothing else.
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
K="$WS_SOURCE_DIR/tests/kernels/tex"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

/usr/bin/python3 "$K/expected.py" --check >/dev/null || bad "expected.py --check: a yaml differs from its model"

configs=(
  "--reference"
  "--set divergence=stack --set scheduler=lrr"
  "--set divergence=sbi --set warp_size=16"
  "--set divergence=stack --set warp_size=64 --set cores=2 --set tex_latency=40"
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
[ "$n" -ge 12 ] || bad "only $n workloads in $K"

# tex_latency: each warp of tex2d_point_clamp makes one fetch and stores its result, so the
# fetch is on the critical path and the kernel takes exactly 100 cycles more at tex_latency=100
cyc() { "$WS_BIN" sim "$K/tex2d_point_clamp.yaml" --set tex_latency="$1" 2>&1 | sed -n 's/^cycles: \([0-9]*\).*/\1/p'; }
c0=$(cyc 0); c1=$(cyc 100)
[ -n "$c0" ] && [ "$((c1 - c0))" -eq 100 ] || bad "tex_latency=100 adds $((c1 - c0)) cycles (want 100): $c0 -> $c1"
[ "$fail" -eq 0 ] && echo "ok: $n workloads x ${#configs[@]} configurations"
exit "$fail"
