#!/usr/bin/env bash
# The reference execution and the cycle-level core run the same per-thread
# instruction streams on every shipped workload without a data race on its
# control flow, so they must agree on thread_insts under both divergence
# schemes (the spin lock is the exception: how often a thread retries the
# lock depends on the interleaving). Both must end ok.
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ti() { sed -n 's/^thread_insts: \([0-9]*\).*/\1/p'; }
for y in "$WS_SOURCE_DIR"/sweeps/kernels/*.yaml; do
  n=$(basename "$y" .yaml)
  [ "$n" = spinlock ] && continue
  ref=$("$WS_BIN" sim "$y" --reference | ti)
  [ -n "$ref" ] || { bad "$n: no reference thread_insts"; continue; }
  for scheme in stack sbi; do
    out=$("$WS_BIN" sim "$y" --set divergence=$scheme 2>&1)
    grep -qx 'status: ok' <<<"$out" || bad "$n $scheme: $(head -2 <<<"$out" | tr '\n' ' ')"
    core=$(ti <<<"$out")
    [ "$core" = "$ref" ] || bad "$n $scheme: thread_insts $core, reference $ref"
  done
  echo "ok $n thread_insts=$ref"
done
exit $fail
