#!/usr/bin/env bash
# Half-precision kernels (tests/kernels/half/, nvcc 13 PTX for sm_80 and sm_90): the
# committed yaml files are what the independent Python model produces (expected.py
# --check), and every workload's outputs equal the model's, bit for bit, under the
# MIMD reference and the cycle-level core (stack and barrier divergence, lrr and gto,
# warp sizes 16 and 64).
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
K="$WS_SOURCE_DIR/tests/kernels/half"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
/usr/bin/python3 "$K/expected.py" --check || bad "expected.py --check"
n=0
for y in "$K"/*.yaml; do
  name=$(basename "$y" .yaml)
  n=$((n + 1))
  for s in "--reference" "--set divergence=stack --set scheduler=lrr" "--set divergence=barrier --set scheduler=gto" \
           "--set divergence=barrier --set warp_size=16" "--set divergence=stack --set warp_size=64"; do
    # shellcheck disable=SC2086
    out=$("$WS_BIN" sim "$y" $s 2>&1); rc=$?
    if [ "$rc" -ne 0 ] || ! grep -qx 'status: ok' <<<"$out"; then
      bad "$name [$s]: exit $rc: $(grep -m2 -E '^(status|message)' <<<"$out")"
    fi
  done
done
[ "$n" -ge 3 ] || bad "only $n half workloads"

# outside the subset: refused at load with file:line:col, the token and what is supported
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
refuse() {   # refuse NAME BODY PATTERN
  printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b16 %%h<4>;\n.reg .b32 %%r<4>;\n.reg .f32 %%f<4>;\n%s\nret;\n}\n' "$2" > "$tmp/$1.ptx"
  out=$("$WS_BIN" inspect "$tmp/$1.ptx" 2>&1); rc=$?
  [ "$rc" -eq 1 ] || bad "$1: exit $rc: $out"
  [ "$(wc -l <<<"$out")" -eq 1 ] || bad "$1: not one line: $out"
  grep -qE "$3" <<<"$out" || bad "$1: $out"
}
refuse fp4 'cvt.rn.satfinite.e2m1x2.f32 %h1, %f1, %f2;' "fp4\\.ptx:9:17: type '\\.e2m1x2' is not supported \\(supported types: .*\\.f16 \\.bf16"   # the FP8 forms are supported (tests/kernels/tensor/fp8.cu)
refuse tf32 'cvt.rn.tf32.f32 %r1, %f1;' "tf32\\.ptx:9:[0-9]+: type '\\.tf32' is supported only in cvt\\.rna\\.tf32\\.f32"
refuse rcp 'rcp.approx.f16 %h1, %h2;' "rcp\.ptx:9:1: .*'rcp'.*\.f16|rcp\.ptx:9:[0-9]+: .*not supported"
refuse div 'div.rn.f16 %h1, %h2, %h3;' "div\.ptx:9:1: 'div' is not supported on \.f16 \(half precision: add sub mul"
refuse atommin 'atom.global.min.f16 %h1, [%r1], %h2;' "atommin\.ptx:9:1: 'atom' on \.f16 supports \.add\.noftz only"
refuse relu 'max.relu.s32 %r1, %r2, %r3;' "relu\.ptx:9:1: '\.relu' is for half types only"
refuse rz 'add.rz.f16 %h1, %h2, %h3;' "rz\.ptx:9:1: 'add\.f16' takes only \.rn"
[ "$fail" -eq 0 ] && echo "all half kernels ok"
exit "$fail"
