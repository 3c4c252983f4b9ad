#!/usr/bin/env bash
# Tensor-core kernels (tests/kernels/tensor/, nvcc 13 PTX for sm_80 from inline-asm
# mma.sync and ldmatrix, for sm_90 from inline-asm stmatrix, for sm_75 from inline-asm movmatrix): the committed yaml files are
# what the independent Python model produces (expected.py --check), and each D (stmatrix: each
# shared tile) equals the model's A * B + C under the MIMD reference
# and the cycle-level core (stack and barrier divergence, lrr and gto, warp size 64);
# mma on warps narrower than 32 and the forms outside the subset are refused clearly.
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
K="$WS_SOURCE_DIR/tests/kernels/tensor"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
/usr/bin/python3 "$K/expected.py" --check || bad "expected.py --check"
/usr/bin/python3 "$K/expected24.py" --check || bad "expected24.py --check"
n=0
for y in "$K"/*.yaml; do
  name=$(basename "$y" .yaml)
  n=$((n + 1))
  for s in "--reference" "--set divergence=stack --set scheduler=lrr" "--set divergence=barrier --set scheduler=gto" \
           "--set divergence=barrier --set warp_size=64"; do
    # shellcheck disable=SC2086
    out=$("$WS_BIN" sim "$y" $s 2>&1); rc=$?
    if [ "$rc" -ne 0 ] || ! grep -qx 'status: ok' <<<"$out"; then
      bad "$name [$s]: exit $rc: $(grep -m2 -E '^(status|message)' <<<"$out")"
    fi
  done
done
[ "$n" -ge 10 ] || bad "only $n tensor workloads"
/usr/bin/python3 "$K/gen_rate.py" --check || bad "rate.ptx differs from gen_rate.py"
/usr/bin/python3 "$K/gen_rate24.py" --check || bad "rate24.ptx or rate24_*.yaml differ from gen_rate24.py"

# Timing (docs/model.md, "Tensor cores"): the slope in cycles per loop iteration (iters 10 -> 20;
# collectors 0, ibuffer 0: only the tensor unit binds). independent: 4 warps x 8 mmas x
# ceil(16*8*16 / tensor_f16_macs) per iteration on one scheduler (schedulers=1, warps=32, lrr, the stack: the
# registry's core before model version 2, pinned); chain: 8 x tensor_latency.
tmpy=$(mktemp -d)
slope() {   # slope NAME SETS... -> cycles per iteration
  local y=$1; shift
  local c=()
  for it in 10 20; do
    sed "s/^params: \[out, 10\]/params: [out, $it]/" "$K/$y.yaml" > "$tmpy/$y.yaml"
    cp "$K/rate.ptx" "$tmpy/"
    c+=("$("$WS_BIN" sim "$tmpy/$y.yaml" --set collectors=0 --set ibuffer=0 --set schedulers=1 --set warps=32 --set scheduler=lrr --set divergence=stack "$@" | sed -n 's/^cycles: \([0-9]*\) cycles$/\1/p')")
  done
  echo $(( (c[1] - c[0]) / 10 ))
}
slope24() {   # slope24 FORM SETS... -> cycles per iteration of rate24_FORM
  local y=$1; shift
  local c=()
  for it in 10 20; do
    sed "s/^params: \[out, 10\]/params: [out, $it]/" "$K/rate24_$y.yaml" > "$tmpy/rate24_$y.yaml"
    c+=("$("$WS_BIN" sim "$tmpy/rate24_$y.yaml" --set collectors=0 --set ibuffer=0 --set schedulers=1 --set warps=32 --set scheduler=lrr --set divergence=stack "$@" | sed -n 's/^cycles: \([0-9]*\) cycles$/\1/p')")
  done
  echo $(( (c[1] - c[0]) / 10 ))
}
for m in 256:8 128:16 64:32 100:21; do
  got=$(slope rate_independent --set tensor_f16_macs="${m%%:*}")
  [ "$got" -eq $((4 * 8 * ${m##*:})) ] || bad "independent mmas, tensor_f16_macs=${m%%:*}: $got cycles/iteration, want $((4 * 8 * ${m##*:}))"
done
# the issue-24 forms (gen_rate24.py): 4 warps x 8 mmas x ceil(MACs / rate) per iteration
cp "$K/rate24.ptx" "$tmpy/"
for m in imma8:tensor_int8_macs:256:4 imma8:tensor_int8_macs:100:11 imma4:tensor_int4_macs:512:4 \
         imma4:tensor_int4_macs:300:7 hmma884:tensor_f16_macs:256:4 hmma884:tensor_f16_macs:100:11 \
         qmma:tensor_fp8_macs:512:8 qmma:tensor_fp8_macs:1000:5; do
  IFS=: read -r form param rate ii <<<"$m"
  got=$(slope24 "$form" --set "$param=$rate")
  [ "$got" -eq $((4 * 8 * ii)) ] || bad "$form, $param=$rate: $got cycles/iteration, want $((4 * 8 * ii))"
done
for lat in 64 33; do
  got=$(slope rate_chain --set tensor_latency=$lat)
  [ "$got" -eq $((8 * lat)) ] || bad "dependent mmas, tensor_latency=$lat: $got cycles/iteration, want $((8 * lat))"
done
rm -rf "$tmpy"

out=$("$WS_BIN" sim "$K/mma_f16.yaml" --set warp_size=16 2>&1)
grep -qx 'status: error' <<<"$out" && grep -q 'mma.sync.aligned needs 32-lane warps' <<<"$out" || bad "warp_size 16: $out"

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
refuse() {   # refuse NAME BODY PATTERN
  printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %%r<16>;\n.reg .f32 %%f<16>;\n.reg .b64 %%rd<4>;\n%s\nret;\n}\n' "$2" > "$tmp/$1.ptx"
  out=$("$WS_BIN" inspect "$tmp/$1.ptx" 2>&1); rc=$?
  [ "$rc" -eq 1 ] || bad "$1: exit $rc: $out"
  [ "$(wc -l <<<"$out")" -eq 1 ] || bad "$1: not one line: $out"
  grep -qE "$3" <<<"$out" || bad "$1: $out"
}
refuse movnotrans 'movmatrix.sync.aligned.m8n8.b16 %r1, %r2;' \
  "movnotrans\.ptx:9:1: 'movmatrix' is supported as movmatrix\.sync\.aligned\.m8n8\.trans\.b16"
refuse volta 'mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32 {%r0,%r1,%r2,%r3}, {%r4,%r5}, {%r6,%r7}, {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7};' \
  "volta\.ptx:9:[0-9]+: 'mma\.m8n8k4' with \.f16\.f16\.f16\.f32 is not supported \(supported: "
refuse voltacount 'mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f32 {%f0,%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r3,%r4}, {%f5,%f6};' \
  "voltacount\.ptx:9:[0-9]+: vector operand must have 2 or 4 elements, not 5"
refuse immalayout 'mma.sync.aligned.m8n8k16.col.col.s32.s8.s8.s32 {%r0,%r1}, {%r2}, {%r3}, {%r4,%r5};' \
  "immalayout\.ptx:9:1: 'mma' takes \.row\.col \(any \.alayout\.blayout only in \.m8n8k4 \.f16\)"
refuse immamix 'mma.sync.aligned.m8n8k32.row.col.s32.s4.s8.s32 {%r0,%r1}, {%r2}, {%r3}, {%r4,%r5};' \
  "immamix\.ptx:9:[0-9]+: 'mma\.m8n8k32' with \.s32\.s4\.s8\.s32 is not supported"
refuse layout 'mma.sync.aligned.m16n8k16.row.row.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f5,%f6,%f7,%f8};' \
  "layout\.ptx:9:1: 'mma' takes \.row\.col \(any \.alayout\.blayout only in \.m8n8k4 \.f16\)"
refuse count 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2}, {%r5,%r6}, {%f5,%f6,%f7,%f8};' \
  "count\.ptx:9:[0-9]+: the A fragment of this 'mma' form is \{4 registers\}"
refuse sparse 'mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2}, {%r5,%r6}, {%f5,%f6,%f7,%f8}, %r9, 0x0;' \
  "sparse\.ptx:9:4: modifier '\.sp' is not supported on 'mma'"
refuse wmmashape 'wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32 {%r0,%r1}, {%r2}, {%r3}, {%r4,%r5};' \
  "wmmashape\.ptx:9:30: wmma shape '\.m8n8k32' is not supported \(supported: \.m16n16k16 \.m32n8k16 \.m8n32k16 with \.f16"
refuse wmmab1 'wmma.load.a.sync.aligned.row.m8n8k128.global.b1 {%r0}, [%rd0];' \
  "wmmab1\.ptx:9:29: wmma shape '\.m8n8k128' is not supported \(supported: "
refuse wmmatype 'wmma.load.a.sync.aligned.row.m16n16k16.global.s4 {%r0}, [%rd0];' \
  "wmmatype\.ptx:9:46: '\.s4' is not supported on 'wmma' \(supported: "
refuse wmmafp8 'wmma.mma.sync.aligned.row.col.m16n16k16.f32.e4m3.e4m3.f32 {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7}, {%r0,%r1,%r2,%r3}, {%r8,%r9,%r10,%r11}, {%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15};' \
  "wmmafp8\.ptx:9:44: '\.e4m3' is not supported on 'wmma' \(supported: .*\.bf16 \(\.f32\) or \.s8/\.u8"
refuse wmmashapetype 'wmma.load.a.sync.aligned.row.m16n16k8.global.bf16 {%r0,%r1,%r2,%r3}, [%rd0];' \
  "wmmashapetype\.ptx:9:1: 'wmma\.load\.a' with this shape and type is not supported \(supported: .*\.m16n16k8 \.tf32"
refuse wmmasatf 'wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7}, {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7}, {%r8,%r9,%r10,%r11,%r12,%r13,%r14,%r15}, {%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15};' \
  "wmmasatf\.ptx:9:1: '\.satfinite' on 'wmma\.mma' is supported for \.s8/\.u8 only"
refuse wmmarz 'wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rz {%rd0,%rd1}, {%rd2}, {%rd3}, {%rd0,%rd1};' \
  "wmmarz\.ptx:9:53: '\.rz' is not supported on 'wmma' \(supported: .*\.m8n8k4 \.f64 \(\.rn\)"
refuse wmmamix 'wmma.mma.sync.aligned.row.col.m16n16k16.s32.bf16.bf16.s32 {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7}, {%r8,%r9,%r10,%r11}, {%r12,%r13,%r14,%r15}, {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7};' \
  "wmmamix\.ptx:9:1: this 'wmma\.mma' type combination is not supported \(supported: "
refuse mmafp6 'mma.sync.aligned.m16n8k32.row.col.f32.e3m2.e3m2.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f5,%f6,%f7,%f8};' \
  "mmafp6\.ptx:9:38: modifier '\.e3m2' is not supported on 'mma'"
refuse mmafp8x2 'mma.sync.aligned.m16n8k32.row.col.f32.e4m3x2.e4m3.f32 {%f0,%f1,%f2,%f3}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f5,%f6,%f7,%f8};' \
  "mmafp8x2\.ptx:9:38: type '\.e4m3x2' is not supported"
refuse wgmma 'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0,%f1,%f2,%f3}, %rd1, %rd2, 1, 1, 1, 0, 0;' \
  "wgmma\.ptx:9:1: instruction 'wgmma' is not supported: sm_90a warpgroup mma is outside the subset \(mma\.sync is supported\)"
refuse wmmacount 'wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7}, {%r0}, {%r1}, {%f8};' \
  "wmmacount\.ptx:9:[0-9]+: the A fragment of this 'wmma' form is \{8 registers\}"
refuse wmmaalias 'wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7}, {%r0,%r1,%r2,%r3,%r4,%r5,%r6,%r7}, {%r8,%r9,%r10,%r11,%r12,%r13,%r14,%r15}, {%f4,%f5,%f6,%f7,%f0,%f1,%f2,%f3};' \
  "wmmaalias\.ptx:9:[0-9]+: 'wmma\.mma' whose D fragment shares registers with A, B or the second half of C"
refuse ldmnoalign 'ldmatrix.sync.m8n8.x1.shared.b16 {%r1}, [%r2];' \
  "ldmnoalign\\.ptx:9:1: 'ldmatrix' is supported as ldmatrix\\.sync\\.aligned\\.m8n8"
refuse ldmcount 'ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2}, [%r3];' \
  "ldmcount\\.ptx:9:[0-9]+: 'ldmatrix\\.x4' writes \\{4 registers\\}"
refuse stmshape 'stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 [%r2], {%r1};' \
  "stmshape\\.ptx:9:22: shape '\\.m16n8' is not supported on 'stmatrix' \\(supported: stmatrix\\.sync\\.aligned\\.m8n8"
refuse stmcount 'stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r3], {%r1, %r2};' \
  "stmcount\\.ptx:9:[0-9]+: 'stmatrix\\.x4' stores \\{4 registers\\}"
[ "$fail" -eq 0 ] && echo "all tensor kernels ok"
exit "$fail"
