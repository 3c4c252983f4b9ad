#!/usr/bin/env bash
# A try_wait suspends its warp (docs/model.md "sm_80/sm_90 instructions of ordinary code"):
# tests/kernels/sm90/mbarwait.ptx, warp 1 runs an n-iteration loop of 4 instructions and then
# arrives; warp 0 polls try_wait.parity. A suspended warp issues nothing until the phase
# completes, so from n = 100 to n = 1000 warp_insts grows by warp 1's 900 x 4 = 3600 alone
# (a polling warp 0 would add its own loop's iterations). The other schemes: only the results are checked (tbc is left out: its
# block-wide stack cannot run an inter-warp wait and reports the SIMT deadlock, suspended or not).
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
K=$SRC/tests/kernels/sm90
sed -e 's/params: \[out, 100\]/params: [out, 1000]/' -e 's/4950/499500/g' -e "s|kernel: mbarwait.ptx|kernel: $K/mbarwait.ptx|" \
    "$K/mbarwait.yaml" > "$T/n1000.yaml"
for s in "" "--set divergence=stack --set scheduler=lrr" "--set divergence=barrier --set scheduler=gto" \
         "--set divergence=sbi" "--set issue=blocking" "--set lowering=none"; do
    # shellcheck disable=SC2086
    a=$("$BIN" sim "$K/mbarwait.yaml" $s --json) || fail "n=100 [$s]: $a"
    # shellcheck disable=SC2086
    b=$("$BIN" sim "$T/n1000.yaml" $s --json) || fail "n=1000 [$s]: $b"
    $PY - "$a" "$b" "$s" <<'PY' || fail "a suspended try_wait issued instructions"
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
bad = [k for k in (a, b) if k['status'] != 'ok']
d = b['warp_insts'] - a['warp_insts']
if bad or d != 3600:
    print('[%s] status %s/%s, warp_insts %d -> %d: +%d, want +3600' % (sys.argv[3], a['status'], b['status'],
          a['warp_insts'], b['warp_insts'], d))
    sys.exit(1)
PY
done
for s in "--reference" "--set divergence=multipath" "--set divergence=dualpath" "--set divergence=aware"; do
    # shellcheck disable=SC2086
    out=$("$BIN" sim "$T/n1000.yaml" $s 2>&1) || fail "n=1000 [$s]: $out"
    grep -qx 'status: ok' <<<"$out" || fail "n=1000 [$s]: $(grep -m2 -E '^(status|message)' <<<"$out")"
done
# without warp 1's arrival the phase never completes: a deadlock, reported at once (not max_cycles)
sed 's/^    mbarrier.arrive.shared::cta.b64 %rd3, \[bar\];/    \/\/ no arrival/' "$K/mbarwait.ptx" > "$T/noarr.ptx"
grep -q 'no arrival' "$T/noarr.ptx" || fail "could not remove the arrival"
sed -e "s|kernel: mbarwait.ptx|kernel: $T/noarr.ptx|" -e '/^expect:/,$d' "$K/mbarwait.yaml" > "$T/noarr.yaml"
out=$("$BIN" sim "$T/noarr.yaml" 2>&1) || true
grep -qx 'status: deadlock' <<<"$out" || fail "no arrival: $(grep -m2 -E '^(status|message)' <<<"$out")"
grep -q 'suspended in mbarrier.try_wait' <<<"$out" || fail "no arrival: $(grep -m1 '^message' <<<"$out")"
echo "mbarrier: a waiting try_wait issues nothing until its phase completes"
