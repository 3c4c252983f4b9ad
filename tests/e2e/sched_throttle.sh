#!/usr/bin/env bash
# throttled_loads (issue 27 item 9): ccws and daws count the load issues their throttle held,
# so a row in which they never throttled is recognisable, and then it is gto's row (the
# policies order warps as gto does and differ only by holding loads; docs/model.md).
#  - cachesens with a 1 KiB L1 (its working set overflows it): ccws (ccws_kthrottle=64) and daws
#    hold loads (throttled_loads > 0) and take more cycles than gto, which holds none;
#  - saxpy under the defaults (streaming, no intra-warp reuse to protect): ccws and daws hold
#    nothing and every metric equals gto's.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
CS=$SRC/sweeps/kernels/cachesens.yaml
SX=$SRC/sweeps/kernels/saxpy.yaml
metric() { sed -n "s/^$1: \([0-9]*\).*/\1/p"; }
run() { "$BIN" sim "$@" 2>&1; }
g=$(run "$CS" --set scheduler=gto --set l1_kb=1)
[ "$(metric throttled_loads <<<"$g")" = 0 ] || fail "gto holds loads: $(metric throttled_loads <<<"$g")"
for s in lrr two_level swl; do
  [ "$(run "$CS" --set scheduler=$s --set l1_kb=1 | metric throttled_loads)" = 0 ] || fail "$s holds loads"
done
for s in ccws daws; do
  o=$(run "$CS" --set scheduler=$s --set l1_kb=1 --set ccws_kthrottle=64)
  grep -q '^status: ok' <<<"$o" || fail "$s: $(grep -E '^(status|message)' <<<"$o")"
  t=$(metric throttled_loads <<<"$o")
  [ "$t" -gt 0 ] || fail "$s on cachesens with a 1 KiB L1 never throttled"
  [ "$(metric cycles <<<"$o")" != "$(metric cycles <<<"$g")" ] || fail "$s throttled ($t) but ran gto's cycles"
done
"$BIN" sim "$SX" --set scheduler=gto --json > "$T/gto.json"
for s in ccws daws; do
  "$BIN" sim "$SX" --set scheduler=$s --json > "$T/$s.json"
  $PY - "$T/gto.json" "$T/$s.json" <<'PY' || fail "$s without throttling differs from gto"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert b["throttled_loads"] == 0, b["throttled_loads"]
skip = {"scheduler"}
diff = [k for k in a if k not in skip and a[k] != b.get(k)]
assert not diff, [(k, a[k], b.get(k)) for k in diff[:5]]
PY
done
echo "throttled_loads: ccws/daws throttling counted; without it their rows are gto's"
