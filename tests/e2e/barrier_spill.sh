#!/usr/bin/env bash
# Convergence-barrier spills with BMOV (issue 24, item 9; docs/model.md "Spilling barriers").
#  (a) tests/kernels/bmov/nested: two nested ifs with different joins need 2 barrier
#      registers; at barrier_regs=1 the outer barrier is spilled. Static count by hand: 2 BMOVs
#      (a spill after the outer ADD, a fill before the outer WAIT). Dynamic count by hand,
#      64 threads: warp 0 (t < 16 take the outer if) issues the spill once and the fill once per
#      split reaching the outer WAIT (t >= 16 directly, t < 16 after the inner join): 3; warp 1
#      (every thread skips the if) spill + fill: 2; total 5 = div_insts(1) - div_insts(64) under
#      barrier and sbi (sbi issues no ADD/WAIT but does issue BMOV), warp_insts unchanged, and
#      the expect (out[t] by hand) holds. Before: invalid ("needs 2 ... only 1").
#  (b) register pressure: the spilled barrier holds one general register: regs_per_thread 8 + 1;
#      with regfile_kb=4 and reg_alloc_unit 256 a CTA of 2 warps needs 2 x 256 x 4 = 2048 bytes
#      at 8 registers (2 CTAs fit) but 2 x 512 x 4 = 4096 at 9 (1 CTA): resident_ctas 2 -> 1.
#  (c) millerrabin under barrier_yield=all needs 18 registers: at the default 16 it now runs
#      (ok: its expect from tests/kernels/div/expected.py) under sbi and barrier.
#  The pass's layouts (which barrier, where the BMOVs go, branch targets, bmov_regs) are
#  checked by hand in tests/unit/test_barrier_pass.c (test_nested_ifs_distinct,
#  test_concurrent_siblings).
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T, fail
Y="$SRC/tests/kernels/bmov/nested.yaml"
get() { $PY -c 'import json,sys; j=json.load(sys.stdin); print(j[sys.argv[1]])' "$1"; }

# (a)
n=$("$BIN" inspect "$Y" --divergence barrier --set barrier_regs=1 | grep -c 'BMOV')
[ "$n" -eq 2 ] || fail "(a) static BMOVs: $n, expected 2"
for d in barrier sbi; do
    "$BIN" sim "$Y" --json --set divergence=$d --set barrier_regs=1 > "$T/s1.json" || true
    "$BIN" sim "$Y" --json --set divergence=$d --set barrier_regs=64 > "$T/s64.json" || true
    [ "$(get status < "$T/s1.json")" = ok ] || fail "(a) $d at barrier_regs=1: $(get message < "$T/s1.json")"
    [ "$(get status < "$T/s64.json")" = ok ] || fail "(a) $d at barrier_regs=64: $(get message < "$T/s64.json")"
    d1=$(get div_insts < "$T/s1.json"); d64=$(get div_insts < "$T/s64.json")
    [ $((d1 - d64)) -eq 5 ] || fail "(a) $d: BMOVs issued $((d1 - d64)) ($d1 - $d64), hand count 5"
    [ "$(get warp_insts < "$T/s1.json")" = "$(get warp_insts < "$T/s64.json")" ] || fail "(a) $d: warp_insts changed"
done

# (b)
sed "s/^grid: 1/grid: 2/; s#^kernel: nested.ptx#kernel: $SRC/tests/kernels/bmov/nested.ptx#" "$Y" > "$T/n2.yaml"
for r in 1:1 64:2; do
    "$BIN" sim "$T/n2.yaml" --json --set divergence=barrier --set regfile_kb=4 --set barrier_regs=${r%:*} > "$T/b.json" || true
    [ "$(get resident_ctas < "$T/b.json")" = "${r#*:}" ] ||
        fail "(b) barrier_regs=${r%:*}: resident_ctas $(get resident_ctas < "$T/b.json"), expected ${r#*:}"
done

# (c)
for d in sbi barrier; do
    out=$("$BIN" sim "$SRC/tests/kernels/div/millerrabin.yaml" --set divergence=$d --set barrier_yield=all 2>/dev/null || true)
    grep -q '^status: ok' <<<"$out" || fail "(c) millerrabin [$d, all] at 16 registers: $(grep -m1 '^message' <<<"$out")"
done
echo ok
