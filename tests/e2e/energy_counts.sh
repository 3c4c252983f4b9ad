#!/usr/bin/env bash
# The energy model (docs/energy.md) on tests/kernels/energy/mix.ptx: one warp of 32 lanes, every
# lane active. The event counts come from the kernel's ten instructions by hand (the comments in
# mix.ptx give each one's unit and operands):
#   warp instructions 12 (ret included); INT lanes 7 x 32 = 224, of them multiplies (mul.lo,
#   mul.wide) 2 x 32 = 64; FP32 lanes 2 x 32 = 64, of them multiplies 32; SFU lanes 32, of them
#   square roots 32; distinct registers read 0+0+1+1+1+1+1+1+1+2+2+0 = 11 -> 352; registers
#   written 10 -> 320; non-register sources (%tid.x, two immediates) 3 -> 96;
#   the store: 32 consecutive words = 128 B = 4 sectors through the L1 (store_sectors 4; no load,
#   so no hit or miss) and 4 sectors (128 bytes) written into the L2 (l2_write_sectors 4, no L2
#   read); nothing reaches DRAM during the run (write-back L2): the 4 sectors stay dirty
#   (l2_dirty_end_bytes 128), their eventual write-back is energy_writeback_j.
# Each per-event energy is set to its own power of two, so every component's energy follows in
# closed form; voltage 1.2 against energy.v_nom 1.0 scales dynamic energy by 1.44 and leakage by
# 1.2. Static and constant energy use the run's cycles and area_mm2 (their own models); static and
# idle power split the core-time by active_sm_fraction a (the core holds the CTA from cycle 0
# through its last exit: at least the 12 cycles of its 12 issues, at most the run), so for any a
# static = leak x area x 1.2 x seconds x a and idle = idle_core_w x 1.2 x cores x seconds x (1 - a).
# On two cores the one CTA leaves one core idle throughout: a <= 1/2, idle >= idle_core_w x 1.2 x s.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
W=$SRC/tests/kernels/energy/mix.yaml
sets=(--set energy.inst_pj=1 --set energy.rf_read_pj=2 --set energy.rf_write_pj=4 --set energy.opnd_pj=8
      --set energy.int_lane_pj=16 --set energy.int_mul_lane_pj=32 --set energy.fp32_lane_pj=64
      --set energy.fp32_mul_lane_pj=3 --set energy.sfu_sqrt_lane_pj=5
      --set energy.fp64_lane_pj=128 --set energy.sfu_lane_pj=256 --set energy.tensor_lane_pj=512
      --set energy.l1_hit_pj=1024 --set energy.l1_miss_pj=2048 --set energy.smem_pj=4096
      --set energy.l2_read_hit_pj=8192 --set energy.noc_sector_pj=16384 --set energy.dram_32b_pj=32768
      --set energy.l1_store_miss_pj=65536 --set energy.l1_store_hit_pj=524288 --set energy.l2_read_miss_pj=131072 --set energy.l2_write_pj=262144
      --set energy.leak_w_mm2=0.01 --set energy.const_w_core=0.1 --set energy.idle_core_w=0.5
      --set voltage=1.2 --set energy.v_nom=1.0
      --set clock_ghz=1.5)
"$BIN" sim "$W" "${sets[@]}" --json > "$T/m.json" || fail "sim: $(head -3 "$T/m.json")"
$PY - "$T/m.json" <<'PY' || fail "energy metrics differ from the hand calculation"
import json, sys
m = json.load(open(sys.argv[1]))
counts = {'warp_insts': 12, 'int_lane_ops': 224, 'int_mul_lane_ops': 64, 'fp32_lane_ops': 64, 'fp32_mul_lane_ops': 32,
          'fp64_lane_ops': 0, 'sfu_lane_ops': 32, 'sfu_sqrt_lane_ops': 32, 'tensor_lane_ops': 0,
          'rf_reads': 352, 'rf_writes': 320, 'rf_nonreg': 96,
          'gmem_sectors': 4, 'l1_hit_sectors': 0, 'l2_bytes': 128, 'dram_bytes': 0, 'smem_wavefronts': 0,
          'l2_dirty_end_bytes': 128, 'store_sectors': 4, 'store_hit_sectors': 0, 'l1_bypass_sectors': 0, 'atom_sectors': 0,
          'l2_read_hit_sectors': 0, 'l2_read_miss_sectors': 0, 'l2_write_sectors': 4}
bad = ['%s %s, want %s' % (k, m[k], v) for k, v in counts.items() if m[k] != v]
dyn = 1.2 ** 2 * 1e-12
want = {'energy_front_j': 12 * 1 * dyn,
        'energy_rf_j': (352 * 2 + 320 * 4 + 96 * 8) * dyn,
        'energy_exec_j': (160 * 16 + 64 * 32 + 32 * 64 + 32 * 3 + 32 * 5) * dyn,
        'energy_l1_j': (4 * 65536) * dyn,
        'energy_l2_j': (4 * 262144) * dyn,
        'energy_noc_j': (4 * 16384) * dyn,
        'energy_dram_j': 0.0,
        'energy_writeback_j': (4 * 32768) * dyn}
s = m['cycles'] / 1.5e9
a = m['active_sm_fraction']
if not 12 / m['cycles'] <= a <= 1:
    bad.append('active_sm_fraction %r outside [12 / %d, 1]' % (a, m['cycles']))
want['energy_static_j'] = 0.01 * m['area_mm2'] * 1.2 * s * a
want['energy_idle_j'] = 0.5 * 1.2 * 1 * s * (1 - a)
want['energy_const_j'] = 0.1 * 1 * s
total = sum(want.values())
want.update({'energy_j': total, 'power_w': total / s, 'edp': total * s,
             'dynamic_power_w': sum(want[k] for k in ('energy_front_j', 'energy_rf_j', 'energy_exec_j', 'energy_l1_j',
                                                       'energy_l2_j', 'energy_noc_j', 'energy_dram_j',
                                                       'energy_writeback_j')) / s,
             'work_per_joule': m['work_units'] / total / 1e9})
for k, v in want.items():
    if abs(m[k] - v) > 1e-9 * abs(v) + 1e-300:
        bad.append('%s %r, want %r' % (k, m[k], v))
if m['status'] != 'ok' or m['work_units'] <= 0:
    bad.append('status %s, work_units %s' % (m['status'], m['work_units']))
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
# two cores, one CTA: one core idle for the whole run
"$BIN" sim "$W" "${sets[@]}" --set cores=2 --json > "$T/c2.json" || fail "sim cores=2: $(head -3 "$T/c2.json")"
$PY - "$T/c2.json" <<'PY' || fail "idle-SM energy on two cores"
import json, sys
m = json.load(open(sys.argv[1]))
s = m['cycles'] / 1.5e9
a = m['active_sm_fraction']
bad = []
if not 0 < a <= 0.5: bad.append('active_sm_fraction %r, want (0, 1/2]' % a)
if not m['energy_idle_j'] >= 0.5 * 1.2 * s * (1 - 1e-12): bad.append('energy_idle_j %r < one idle core %r' % (m['energy_idle_j'], 0.5 * 1.2 * s))
st = 0.01 * m['area_mm2'] * 1.2 * s * a
if abs(m['energy_static_j'] - st) > 1e-9 * st: bad.append('energy_static_j %r, want %r' % (m['energy_static_j'], st))
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
# the same counts at the registry's energies: every component positive where it has events
"$BIN" sim "$W" --json > "$T/d.json"
$PY - "$T/d.json" <<'PY' || fail "default energies"
import json, sys
m = json.load(open(sys.argv[1]))
zero = [k for k in ('energy_front_j', 'energy_rf_j', 'energy_exec_j', 'energy_l1_j', 'energy_l2_j', 'energy_noc_j',
                    'energy_static_j', 'energy_const_j') if not m[k] > 0]
zero += [] if m['energy_idle_j'] >= 0 else ['energy_idle_j < 0']
sys.exit('components without energy: %s' % zero if zero else 0)
PY
echo "energy: counts and every component as derived by hand"
