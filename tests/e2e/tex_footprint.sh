#!/usr/bin/env bash
# A texture fetch reads its whole filter footprint through the L1 (docs/model.md "Textures and
# surfaces", Timing): point filtering one texel, linear filtering 2 (1D), 2 x 2 (2D) or
# 2 x 2 x 2 (3D) texels, tld4 the 2 x 2 it gathers. One warp of tests/kernels/tex/tex.ptx
# fetches float4 texels (16 bytes) and stores a float4 per lane (32 x 16 B = 512 B = 16
# sectors of 32 B, 4 lines of 128 B). Expected gmem_sectors / gmem_lines by hand (the CUDA
# Programming Guide's texture fetching: linear filtering at x reads texels floor(x - 0.5) and
# the next one):
#  2D, 64 x 64 texels (rows of 1024 B), lane p at (2p + 1, 4): x - 0.5 = 2p + 0.5, texels 2p
#    and 2p + 1 of rows 3 and 4. Linear: 2 whole rows = 64 sectors, 16 lines; +16/+4 for the
#    store: 80 sectors, 20 lines. Point (texel 2p of row 4, one 16 B texel per 32 B sector):
#    32 sectors, 8 lines; 48, 12. tld4 gathers linear's 2 x 2: 80, 20.
#  3D, 16 x 16 x 4 (rows of 256 B), lane p at 1 + 2 (p % 8, p / 8 % 4, p / 32): texel pairs
#    covering x 0-15, y 0-7, z 0-1: 2 slices x 8 rows x 256 B = 128 sectors, 32 lines; 144, 36.
set -u
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
K="$SRC/tests/kernels/tex"
mk() {   # mk NAME ENTRY FILTER DIMS PARAMS
  local tex
  if [ "$4" = 2 ]; then
    tex="{buffer: texels, type: f32, channels: 4, width: 64, height: 64, address: clamp, filter: $3}"
  else
    tex="{buffer: texels, type: f32, channels: 4, width: 16, height: 16, depth: 4, address: clamp, filter: $3}"
  fi
  cat > "$T/$1.yaml" <<YAML
name: $1
kernel: $K/tex.ptx
entry: $2
grid: 1
block: 32
regs_per_thread: 18
buffers:
  texels: {type: f32, count: 16384, init: 1}
  out: {type: f32, count: 128, init: 0}
textures:
  t: $tex
params: $5
YAML
}
mk linear2d tex2d_grid linear 2 "[t, out, 32, 32, 1.0, 4.0, 2.0, 1.0]"
mk point2d tex2d_grid point 2 "[t, out, 32, 32, 1.0, 4.0, 2.0, 1.0]"
mk gather2d gather_g point 2 "[t, out, 32, 32, 1.0, 4.0, 2.0, 1.0]"
mk linear3d tex3d_grid linear 3 "[t, out, 8, 4, 32, 1.0, 2.0]"
check() {   # check NAME SECTORS LINES
  out=$("$BIN" sim "$T/$1.yaml" 2>&1)
  grep -q '^status: ok' <<<"$out" || fail "$1: $(grep -E '^(status|message)' <<<"$out" | tr '\n' ' ')"
  s=$(sed -n 's/^gmem_sectors: \([0-9]*\).*/\1/p' <<<"$out"); l=$(sed -n 's/^gmem_lines: \([0-9]*\).*/\1/p' <<<"$out")
  [ "$s" = "$2" ] && [ "$l" = "$3" ] || fail "$1: gmem_sectors $s, gmem_lines $l (want $2, $3)"
}
check linear2d 80 20
check point2d 48 12
check gather2d 80 20
check linear3d 144 36
echo "texture fetches read their whole filter footprints"
