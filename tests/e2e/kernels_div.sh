#!/usr/bin/env bash
# Divergence regressions (tests/kernels/div, nvcc -O3 sm_75; expected values from the Python
# models in tests/kernels/div/expected.py). Every workload ends ok under the reference and the
# core with {stack, barrier} x {lrr, gto, two_level, oldest} x barrier_yield {spin, all} x
# warp_size {32, 16, 8} x issue {scoreboard, blocking}, except lockloop under the stack (a spin
# lock: the pre-Volta SIMT deadlock, status deadlock).
#  - lockloop: per-bucket spin locks in a grid-stride loop with an if after the critical section.
#    Lanes block at different WAITs of one barrier register; before each lane resumed after its
#    own WAIT, a lane skipped its critical section and the run livelocked or went wrong.
#  - ifchain / millerrabin: needed 18 / 39 barrier registers (invalid at barrier_regs=16); an
#    else-if chain joining at one point now takes one register (ok at barrier_regs=1).
#    millerrabin under barrier_yield=all needs 18: the matrix runs it at 16, spilling with BMOV
#    (issue 24 item 9; it ran at barrier_regs=32 before).
#  - retfirst: odd threads store and return, even ones pass bar.sync; the stack deadlocked when
#    it ran the barrier path first with the leaving lanes parked below it.
#  - tailmerge: threads with odd values return before __syncthreads, but nvcc merges their store
#    into the common tail: parked at the reconvergence point behind the lanes held at bar.sync,
#    they count as arrived (a warp's arrival); deadlock before under both schemes.
#  - earlyret: `if (a) { v = 3v+1; if (b) return; } loop(40); out = acc`, lanes 0-15 of each warp
#    take the if, the even ones of them return. Counted by hand from earlyret.ptx: entry block 19
#    instructions (32 lanes), the a-side 7 (16 lanes), the returners' ret 1 (8 lanes), then the
#    24 survivors together: 3 + 6 + 2 + 10 iterations x 15 + 2 + 4 + 1 = 168. One warp: 195
#    warp instructions; two warps: 390 (the loop run once per side would be 2 x 363 = 726).
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
K="$WS_SOURCE_DIR/tests/kernels/div"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
field() { sed -n "s/^$1: //p" <<<"$2" | sed 's/ .*//'; }

/usr/bin/python3 "$K/expected.py" --check || bad "expected.py --check: a yaml differs from its model"

runs=0
for y in "$K"/*.yaml; do
  name=$(basename "$y" .yaml)
  regs=16
  out=$("$WS_BIN" sim "$y" --reference 2>&1) || bad "$name --reference: $(head -2 <<<"$out")"
  for div in stack sbi; do
    for sched in lrr gto two_level oldest; do
      for yl in spin all; do
        [ "$div" = stack ] && [ "$yl" = all ] && continue
        for ws in 32 16 8; do
          for issue in scoreboard blocking; do
            [ "$issue" = blocking ] && [ "$ws" != 32 ] && continue
            c="--set divergence=$div --set scheduler=$sched --set barrier_yield=$yl --set warp_size=$ws --set issue=$issue --set barrier_regs=$regs"
            # shellcheck disable=SC2086
            out=$("$WS_BIN" sim "$y" $c 2>&1)
            st=$(field status "$out")
            runs=$((runs + 1))
            want=ok
            [ "$name" = lockloop ] && [ "$div" = stack ] && want=deadlock
            [ "$st" = "$want" ] || { bad "$name [$c]: status '$st', expected $want"; head -3 <<<"$out"; }
          done
        done
      done
    done
  done
done

for div in stack sbi; do
  out=$("$WS_BIN" sim "$K/earlyret.yaml" --set divergence=$div 2>&1)
  wi=$(field warp_insts "$out")
  [ "$wi" = 390 ] || bad "earlyret [$div]: warp_insts $wi, expected 390 (reconvergence before the loop)"
done
out=$("$WS_BIN" sim "$K/ifchain.yaml" --set divergence=sbi --set barrier_regs=1 2>&1)
[ "$(field status "$out")" = ok ] || bad "ifchain with barrier_regs=1: $(head -2 <<<"$out")"
# Under barrier_yield=all every loop's barrier may clear early, so barriers inside a loop and
# after it cannot share registers (docs/model.md, "Barrier registers"): 18, above the 16.
out=$("$WS_BIN" sim "$K/millerrabin.yaml" --set divergence=sbi 2>&1)
[ "$(field status "$out")" = ok ] || bad "millerrabin at barrier_regs=16: $(head -2 <<<"$out")"
out=$("$WS_BIN" sim "$K/millerrabin.yaml" --set divergence=sbi --set barrier_yield=all 2>&1)
[ "$(field status "$out")" = ok ] || bad "millerrabin [all] at barrier_regs=16 (BMOV spills): $(head -2 <<<"$out")"
[ "$fail" -eq 0 ] && echo "ok: $runs configurations"
exit "$fail"
