#!/usr/bin/env bash
# wmma kernels (tests/kernels/wmma/, nvcc 13 PTX for sm_80 from the CUDA nvcuda::wmma API;
# wmma.cu: .f16, wmma2.cu: .bf16, .tf32, .s8/.u8, .f64):
# the committed yaml files are what the independent Python model produces (expected.py
# --check), and each D equals the model's product under the MIMD reference and the
# cycle-level core (stack and barrier divergence, lrr and gto, warp size 64); wmma on warps
# narrower than 32 faults clearly; the loader lowers wmma.mma to two mma.sync m16n8k16 on the
# tensor unit and each 8-register fragment load/store to two parts (docs/model.md, "wmma").
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
K="$WS_SOURCE_DIR/tests/kernels/wmma"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
/usr/bin/python3 "$K/expected.py" --check || bad "expected.py --check"
for name in wmma_f32 wmma_f16 wmma_m32n8 wmma_m8n32 wmma_bf16 wmma_bf16_m32n8 wmma_bf16_m8n32 wmma_tf32 wmma_s8 \
            wmma_u8_m32n8 wmma_s8_m8n32 wmma_f64; do
  for s in "--reference" "--set divergence=stack --set scheduler=lrr" "--set divergence=barrier --set scheduler=gto" \
           "--set divergence=barrier --set warp_size=64"; do
    # shellcheck disable=SC2086
    out=$("$WS_BIN" sim "$K/$name.yaml" $s 2>&1); rc=$?
    if [ "$rc" -ne 0 ] || ! grep -qx 'status: ok' <<<"$out"; then
      bad "$name [$s]: exit $rc: $(grep -m2 -E '^(status|message)' <<<"$out")"
    fi
  done
done
out=$("$WS_BIN" sim "$K/wmma_f16.yaml" --set warp_size=16 2>&1)
grep -qx 'status: error' <<<"$out" && grep -q 'wmma.load.sync.aligned needs 32-lane warps' <<<"$out" || bad "warp_size 16: $out"
# the lowering: one wmma.mma -> two m16n8k16 on TENSOR; 3 loads + 1 store of 8 registers -> 8 parts
ins=$("$WS_BIN" inspect "$K/wmma.ptx" --entry wmma_f32 2>&1)
[ "$(grep -c 'TENSOR  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32' <<<"$ins")" -eq 2 ] || bad "wmma.mma lowering: $ins"
[ "$(grep -cE 'MEM +wmma\.(load|store)' <<<"$ins")" -eq 8 ] || bad "wmma load/store parts: $ins"
# m8n32k16 as the transposed m32n8k16: the mma.sync A operand is the wmma B fragment
ins=$("$WS_BIN" inspect "$K/wmma.ptx" --entry wmma_m8n32 2>&1)
[ "$(grep -c 'TENSOR  mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%r23, %r24}, {%r11, %r12, %r13, %r14}, {%r2, %r3}, {%r19, %r20}' <<<"$ins")" -eq 1 ] ||
  bad "m8n32k16 lowering: $ins"
# the other types: tf32 -> two m16n8k8 .tf32 (and cvt.rna.tf32.f32 for __float_to_tf32); s8 with satf ->
# two m16n8k16 .satfinite; f64 m8n8k4 -> one mma.sync m8n8k4 and one-part loads
ins=$("$WS_BIN" inspect "$K/wmma2.ptx" --entry wmma_tf32 2>&1)
[ "$(grep -c 'TENSOR  mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32' <<<"$ins")" -eq 2 ] || bad "tf32 lowering: $ins"
grep -q 'cvt.rna.tf32.f32' <<<"$ins" || bad "tf32: no cvt.rna.tf32.f32: $ins"
ins=$("$WS_BIN" inspect "$K/wmma2.ptx" --entry wmma_s8 2>&1)
[ "$(grep -c 'TENSOR  mma.sync.aligned.m16n8k16.row.col.satfinite.s32.s8.s8.s32' <<<"$ins")" -eq 2 ] || bad "s8 lowering: $ins"
ins=$("$WS_BIN" inspect "$K/wmma2.ptx" --entry wmma_f64 2>&1)
[ "$(grep -c 'TENSOR  mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64' <<<"$ins")" -eq 1 ] || bad "f64 lowering: $ins"
[ "$(grep -cE 'MEM +wmma\.(load|store)' <<<"$ins")" -eq 4 ] || bad "f64 load/store parts: $ins"
[ "$fail" -eq 0 ] && echo "all wmma kernels ok"
exit "$fail"
