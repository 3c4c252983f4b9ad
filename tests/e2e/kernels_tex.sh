#!/usr/bin/env bash
# Texture and surface objects (tests/kernels/tex, nvcc -O3 sm_75 from tex.cu): tex.1d/2d/3d (and
# tex.level/tex.grad: one mipmap level) with
# point and linear filtering (9-bit weights), clamp/border/wrap/mirror, normalized coordinates
# and normalized-float reads, tld4.g, txq, suld.b/sust.b with .trap/.zero/.clamp. Their
# expectations come from expected.py, a numpy model of the CUDA Programming Guide's "Texture
# Fetching" appendix; each ends ok under the MIMD reference and the core in a few
# configurations, and tex_latency adds to a fetch's latency and nothing else.
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
K="$(cd "$WS_SOURCE_DIR/tests/kernels/tex" && pwd)"
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

# run-time faults name the lane and the reason: a buffer's address where a texture object is
# expected, a surface handle given to tex, and suld.trap out of range
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mk() {   # mk NAME: a copy of a test workload with its kernel path made absolute, then sed $2
  sed -e "s#^kernel: tex.ptx#kernel: $K/tex.ptx#" -e "$3" "$K/$2" >"$T/$1.yaml"
}
runerr() {   # runerr NAME NEEDLE
  out=$("$WS_BIN" sim "$T/$1.yaml" 2>&1)
  status=$(sed -n 's/^status: //p' <<<"$out")
  [ "$status" = error ] && grep -q -- "$2" <<<"$out" || { bad "$1: want status error with '$2'"; head -4 <<<"$out"; }
}
mk buf_as_tex tex2d_point_clamp.yaml 's/^params: \[t, /params: [texels, /'
runerr buf_as_tex "tex: handle 0x10000000 is not a texture object"
mk surf_as_tex tex2d_point_clamp.yaml 's/^textures:/surfaces:/; s/, address: clamp, filter: point}/}/'
runerr surf_as_tex "names a surface, not a texture"
mk trap surf2d_rmw.yaml 's/^params: \[s, 8, 5\]/params: [s, 9, 5]/; s/^block: \[8, 5\]/block: [9, 5]/'
runerr trap "suld.trap: (x = 32 bytes, y = 0, z = 0) is outside the 8x5x1 surface"
[ "$fail" -eq 0 ] && echo "ok: $n workloads x ${#configs[@]} configurations"
exit "$fail"
