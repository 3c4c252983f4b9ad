#!/usr/bin/env bash
# Expansions in the energy model (docs/energy.md "Expansions") on tests/kernels/energy/expand.ptx:
# one warp, 32 lanes. An instruction whose lowering.def row has two or more slots and a non-zero
# X column is charged as its SASS: slots warp instructions, X's lanes by class, and its own
# operands plus two register reads and one write per further lane instruction. From the rows
# (the counts ptxas 13.0 gives for sm_75, bench/lowering/forms.tsv):
#   div.u32     18 slots, X(f 2, fm 0, d 0, i 11, im 4, s 1, sq 0): 18 lane instructions, 17 further
#   div.rn.f32  11 slots, X(1, 5, 0, 0, 0, 1, 0): 7 lane instructions (+ 4 control), 6 further
#   mul.lo.u64   4 slots, X(0, 0, 0, 1, 3, 0, 0): 4 lane instructions, 3 further
# rsqrt.approx.f32 (4 slots) and add.s64 (2) have all-zero X rows: charged as themselves.
# By hand, per instruction (warp instructions; INT lanes / of them multiplies; FP32 / multiplies;
# SFU / square roots; registers read; written; non-register sources), x 32 lanes where lanes:
#   ld.param 1; 1/0; -; -; 0; 1; 0        mov %tid 1; 1/0; -; -; 0; 1; 1
#   add.u32 1; 1/0; -; -; 1; 1; 1         div.u32 18; 15/4; 2/0; 1/0; 1+34; 1+17; 1
#   cvt.f32 1; -; 1/0; -; 1; 1; 0         div.rn.f32 11; -; 6/5; 1/0; 1+12; 1+6; 0
#   rsqrt 1; -; -; 1/1; 1; 1; 0           cvt.u64 1; 1/0; -; -; 1; 1; 0
#   mul.lo.u64 4; 4/3; -; -; 1+6; 1+3; 0  mul.wide 1; 1/1; -; -; 1; 1; 1
#   add.s64 1; 1/0; -; -; 2; 1; 0         st.global 1; -; -; -; 2; 0; 0        ret 1
# warp instructions 43; INT lanes 25 x 32 = 800, multiplies 8 x 32 = 256; FP32 9 x 32 = 288,
# multiplies 5 x 32 = 160; SFU 3 x 32 = 96, square roots 32; reads 64 x 32 = 2048; writes
# 37 x 32 = 1184; non-register 4 x 32 = 128. Under lowering=none the same (energy follows the
# expansion under either lowering; the timing does not).
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
W=$SRC/tests/kernels/energy/expand.yaml
sets=(--set energy.inst_pj=1 --set energy.rf_read_pj=2 --set energy.rf_write_pj=4 --set energy.opnd_pj=8
      --set energy.int_lane_pj=16 --set energy.int_mul_lane_pj=32 --set energy.fp32_lane_pj=64
      --set energy.fp32_mul_lane_pj=3 --set energy.sfu_sqrt_lane_pj=5
      --set energy.fp64_lane_pj=128 --set energy.sfu_lane_pj=256 --set energy.tensor_lane_pj=512
      --set voltage=1.0 --set energy.v_nom=1.0)
for low in ptxas none; do
    "$BIN" sim "$W" "${sets[@]}" --set lowering=$low --json > "$T/m.json" || fail "sim lowering=$low: $(head -3 "$T/m.json")"
    $PY - "$T/m.json" <<'PY' || fail "lowering=$low: expansion energy differs from the hand calculation"
import json, sys
m = json.load(open(sys.argv[1]))
counts = {'int_lane_ops': 800, 'int_mul_lane_ops': 256, 'fp32_lane_ops': 288, 'fp32_mul_lane_ops': 160,
          'fp64_lane_ops': 0, 'sfu_lane_ops': 96, 'sfu_sqrt_lane_ops': 32, 'tensor_lane_ops': 0,
          'rf_reads': 2048, 'rf_writes': 1184, 'rf_nonreg': 128}
bad = ['%s %s, want %s' % (k, m[k], v) for k, v in counts.items() if m[k] != v]
want = {'energy_front_j': 43 * 1e-12,
        'energy_rf_j': (2048 * 2 + 1184 * 4 + 128 * 8) * 1e-12,
        'energy_exec_j': ((800 - 256) * 16 + 256 * 32 + (288 - 160) * 64 + 160 * 3 + (96 - 32) * 256 + 32 * 5) * 1e-12}
for k, v in want.items():
    if abs(m[k] - v) > 1e-9 * abs(v):
        bad.append('%s %r, want %r' % (k, m[k], v))
if m['status'] != 'ok':
    bad.append('status %s' % m['status'])
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
done
echo "energy: expansions charged as their SASS, by hand, under either lowering"
