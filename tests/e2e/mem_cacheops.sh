#!/usr/bin/env bash
# Cache operators and the L1/L2 events by access kind (docs/memory.md "Cache operators",
# docs/energy.md) on tests/kernels/mem/cacheops.ptx: one warp, each load's address depending on
# the one before. By hand, with the L2 cold (l2_warm=none), 4 sectors per access (32 x 4 B):
#   ld.global.cg #1: past the L1 (l1_bypass 4), an L2 miss (l2_read_miss 4)
#   ld.global.cg #2: past the L1 again (bypass 4; .cg allocated nothing there), an L2 hit (4)
#   ld.global    #3: an L1 miss (the L1 never saw the line), an L2 hit (4)
#   ld.global    #4: an L1 hit (l1_hit 4)
#   st.global out  : 4 store sectors onto lines the L1 does not hold (a store miss), into the L2
#   st.global in   : 4 store sectors onto the line loads #3/#4 brought in (store_hit 4), into the L2
# gmem_sectors 24, l1_bypass 8, l1_hit 4, store 8 of them 4 hits (so one L1 load miss of 4), L2
# read hits 8, misses 4, writes 8, l2_bytes (12 read + 8 written sectors) x 32 = 640. The
# energies: L1 = 4 l1_hit_pj + 4 l1_miss_pj + 4 l1_store_miss_pj + 4 l1_store_hit_pj (the
# bypassing sectors cost the L1 nothing), L2 = 8 l2_read_hit_pj + 4 l2_read_miss_pj +
# 8 l2_write_pj, each set to its own power of two.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
W=$SRC/tests/kernels/mem/cacheops.yaml
"$BIN" sim "$W" --set preset=volta --set l2_warm=none --set energy.l1_hit_pj=1 --set energy.l1_miss_pj=2 \
    --set energy.l1_store_miss_pj=4 --set energy.l1_store_hit_pj=64 --set energy.smem_pj=0 --set energy.l2_read_hit_pj=8 --set energy.l2_read_miss_pj=16 \
    --set energy.l2_write_pj=32 --set voltage=1 --set energy.v_nom=1 --json > "$T/m.json" || fail "sim: $(head -3 "$T/m.json")"
$PY - "$T/m.json" <<'PY' || fail "cache operators: counts differ from the hand calculation"
import json, sys
m = json.load(open(sys.argv[1]))
want = {'status': 'ok', 'gmem_sectors': 24, 'l1_bypass_sectors': 8, 'l1_hit_sectors': 4, 'store_sectors': 8,
        'store_hit_sectors': 4, 'atom_sectors': 0, 'l2_read_hit_sectors': 8, 'l2_read_miss_sectors': 4,
        'l2_write_sectors': 8, 'l2_bytes': 640}
bad = ['%s %s, want %s' % (k, m[k], v) for k, v in want.items() if m[k] != v]
for k, v in (('energy_l1_j', (4 * 1 + 4 * 2 + 4 * 4 + 4 * 64) * 1e-12), ('energy_l2_j', (8 * 8 + 4 * 16 + 8 * 32) * 1e-12)):
    if abs(m[k] - v) > 1e-9 * v:
        bad.append('%s %r, want %r' % (k, m[k], v))
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
echo "cache operators: .cg loads skip the L1; L1/L2 events by kind as derived by hand"
