#!/usr/bin/env bash
# cp.async.bulk timing (src/sim/bulk.c, docs/model.md) on tests/kernels/sm90/bulkcopy.ptx under
# preset=seed (a fixed memory latency L, no caches, unlimited bandwidth), derived by hand:
#   - thread 0's 1024-byte global -> shared copy completes its bytes on the mbarrier when its last
#     chunk is back (L after issue); the 64 threads wait in try_wait for that phase, then store;
#     thread 0's shared -> global copy is waited for by its wait_group 0 (L after issue). Both are
#     on the critical path once each, so cycles(L = 1200) - cycles(L = 200) = 2 x 1000 = 2000.
#   - the waiting warps are suspended (no polling): warp_insts is the same at both latencies.
#   - bulk_bytes_per_cycle = 8: a 1024-byte copy's eight 128-byte chunks leave the copy engine 16
#     cycles apart, so each copy's last chunk goes 7 x 16 = 112 cycles later: +2 x 112 = +224 (the
#     prefetch's chunks go between them, while the warps copy the data out: off the path).
#   - traffic: 1024 B copied in, 1024 B prefetched, 1024 B copied out, 256 x 4 B stored: 4 x 32
#     sectors, gmem_sectors 128 and l2_bytes 128 x 32 = 4096.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
W=$SRC/tests/kernels/sm90/bulkcopy.yaml
run() { "$BIN" sim "$W" --set preset=seed "$@" --json; }
a=$(run --set mem_latency=200) || fail "L=200: $a"
b=$(run --set mem_latency=1200) || fail "L=1200: $b"
c=$(run --set mem_latency=200 --set bulk_bytes_per_cycle=8) || fail "bw=8: $c"
$PY - "$a" "$b" "$c" <<'PY' || fail "bulk copy timing differs from the hand derivation"
import json, sys
a, b, c = (json.loads(x) for x in sys.argv[1:4])
bad = []
for name, m in (('L=200', a), ('L=1200', b), ('bw=8', c)):
    if m['status'] != 'ok': bad.append('%s: status %s' % (name, m['status']))
    if m['gmem_sectors'] != 128 or m['l2_bytes'] != 4096:
        bad.append('%s: gmem_sectors %d (want 128), l2_bytes %d (want 4096)' % (name, m['gmem_sectors'], m['l2_bytes']))
if b['cycles'] - a['cycles'] != 2000: bad.append('L 200 -> 1200: %+d cycles, want +2000' % (b['cycles'] - a['cycles']))
if b['warp_insts'] != a['warp_insts']: bad.append('warp_insts %d -> %d: the waiting warps polled' % (a['warp_insts'], b['warp_insts']))
if c['cycles'] - a['cycles'] != 224: bad.append('bulk_bytes_per_cycle=8: %+d cycles, want +224' % (c['cycles'] - a['cycles']))
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY
echo "bulk copies: latency, copy-engine rate and traffic as derived by hand"
