#!/usr/bin/env bash
# Every shipped workload passes its expect checks under the MIMD reference
# execution (`warpsweep sim X --reference`), plus values checked independently.
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

n=0
for y in "$WS_SOURCE_DIR"/sweeps/kernels/*.yaml; do
  n=$((n + 1))
  out=$("$WS_BIN" sim "$y" --reference 2>&1); rc=$?
  if [ "$rc" -ne 0 ] || ! grep -qx 'status: ok' <<<"$out"; then
    bad "$(basename "$y"): exit $rc"; head -5 <<<"$out"
    continue
  fi
  ti=$(sed -n 's/^thread_insts: \([0-9]*\).*/\1/p' <<<"$out")
  [ -n "$ti" ] && [ "$ti" -gt 0 ] || bad "$(basename "$y"): thread_insts '$ti'"
  echo "ok $(basename "$y") thread_insts=$ti"
done
[ "$n" -ge 13 ] || bad "only $n shipped workloads"

K="$WS_SOURCE_DIR/sweeps/kernels"
# spin lock: every one of the 32 threads enters the critical section once.
out=$("$WS_BIN" sim "$K/spinlock.yaml" --reference --dump counter 2>&1)
grep -qx '32' <<<"$out" || bad "spinlock counter: $out"
out=$("$WS_BIN" sim "$K/spinlock.yaml" --reference --dump mutex 2>&1)
grep -qx '0' <<<"$out" || bad "spinlock mutex: $out"

# latency.ptx (hand-written): 5 instructions before the loop, 5 per iteration,
# 9 after; iters = 64 and 64 CTAs x 32 threads: (5 + 64*5 + 9) * 2048 = 684032.
out=$("$WS_BIN" sim "$K/latency.yaml" --reference 2>&1)
grep -qx 'thread_insts: 684032 insts' <<<"$out" || bad "latency thread_insts: $(grep thread_insts <<<"$out")"
grep -qx 'warp_insts: 684032 insts' <<<"$out" || bad "latency warp_insts (reference: one per thread turn)"

# --json: one object with status, every metric and every parameter.
out=$("$WS_BIN" sim "$K/ifelse.yaml" --reference --json 2>/dev/null)
[ "$(wc -l <<<"$out")" -eq 1 ] || bad "json is not one line: $out"
for key in '"workload": "ifelse"' '"status": "ok"' '"thread_insts": ' '"cycles": 0' '"mem_latency": 100' '"scheduler": "gto"'; do
  grep -qF "$key" <<<"$out" || bad "json lacks $key: $out"
done

# a failed expectation: status mismatch naming buffer, index and values; exit 1.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sed -e "s|^kernel: .*|kernel: $K/ifelse.ptx|" -e 's|out: \[20, 22,|out: [20, 23,|' "$K/ifelse.yaml" > "$tmp/w.yaml"
out=$("$WS_BIN" sim "$tmp/w.yaml" --reference 2>&1); rc=$?
[ "$rc" -eq 1 ] || bad "mismatch exit code $rc"
grep -qx 'status: mismatch' <<<"$out" || bad "mismatch status: $out"
grep -qx 'message: mismatch: out\[1\] = 22, expected 23' <<<"$out" || bad "mismatch message: $out"

# a read past the end of a buffer faults (status error), it never reads the neighbour.
sed -e "s|^kernel: .*|kernel: $K/strided.ptx|" -e 's|^params: \[in, out, 128, 1\]|params: [in, out, 128, 33]|' \
  "$K/strided.yaml" > "$tmp/f.yaml"
out=$("$WS_BIN" sim "$tmp/f.yaml" --reference 2>&1); rc=$?
[ "$rc" -eq 1 ] || bad "fault exit code $rc"
grep -qx 'status: error' <<<"$out" || bad "fault status: $out"

exit $fail
