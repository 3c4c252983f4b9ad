#!/usr/bin/env bash
# tbc_wait (issue 46 item 10, docs/model.md "tbc"): under thread block compaction the CTA's
# dynamic warps wait for each other at a potentially divergent branch. tests/kernels/tbc:
#   uloop: the loop's back-edge reads only CTA-uniform registers (a trip count from .param):
#     inspect marks it "uniform (CTA)"; with tbc_wait=divergent it makes nobody wait, so the
#     run takes fewer cycles than with tbc_wait=guarded (the default: every guarded branch);
#   vloop: the trip count adds tid % 4, the back-edge is varying: both settings wait there and
#     every metric is the same.
# Both write out[tid] = 3^m tid + (3^m - 1) / 2 mod 2^32 after m iterations (m = 50, or
# 50 + tid % 4), checked by hand formula under stack, tbc/guarded and tbc/divergent.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail
K=$SRC/tests/kernels/tbc
"$BIN" inspect "$K/uloop.yaml" | grep -q 'bra L[0-9]*;.*back edge, uniform (CTA)' || fail "uloop: $("$BIN" inspect "$K/uloop.yaml" | grep bra)"
"$BIN" inspect "$K/vloop.yaml" | grep 'bra L' | grep -q 'uniform' && fail "vloop's back-edge is varying"
run() {   # run KERNEL TAG --set ...: json to $T/KERNEL.TAG.json, out to $T/KERNEL.TAG.npy
  local k=$1 tag=$2; shift 2
  "$BIN" sim "$K/$k.yaml" "$@" --json --dump "out=$T/$k.$tag.npy" > "$T/$k.$tag.json" || fail "$k $tag: $(head -c 300 "$T/$k.$tag.json")"
}
for k in uloop vloop; do
  run $k stack --set divergence=stack
  run $k guarded --set divergence=tbc --set tbc_wait=guarded
  run $k divergent --set divergence=tbc --set tbc_wait=divergent
  run $k default --set divergence=tbc
done
$PY - "$T" <<'PY' || fail "tbc_wait"
import json, sys
import numpy as np
t = sys.argv[1]
M = 1 << 32
def want(k):
    return [(pow(3, m, M) * i + (pow(3, m) - 1) // 2) % M for i in range(128) for m in [50 + (i % 4 if k == "vloop" else 0)]]
j = {}
for k in ("uloop", "vloop"):
    for tag in ("stack", "guarded", "divergent", "default"):
        r = json.load(open("%s/%s.%s.json" % (t, k, tag)))
        assert r["status"] == "ok", (k, tag, r["status"], r["message"])
        out = [int(x) for x in np.load("%s/%s.%s.npy" % (t, k, tag))]
        assert out == want(k), (k, tag, out[:4], want(k)[:4])
        j[k, tag] = r
strip = lambda r: {a: b for a, b in r.items() if a not in ("tbc_wait",)}
# the default is guarded
assert strip(j["uloop", "default"]) == strip(j["uloop", "guarded"])
# uloop: no wait at its CTA-uniform back-edge
assert j["uloop", "divergent"]["cycles"] < j["uloop", "guarded"]["cycles"], \
    (j["uloop", "divergent"]["cycles"], j["uloop", "guarded"]["cycles"])
# vloop: the same waits either way
assert strip(j["vloop", "divergent"]) == strip(j["vloop", "guarded"]), "vloop differs between the settings"
print("uloop cycles: stack %d, tbc guarded %d, tbc divergent %d; vloop: tbc %d either way" % (
    j["uloop", "stack"]["cycles"], j["uloop", "guarded"]["cycles"], j["uloop", "divergent"]["cycles"],
    j["vloop", "guarded"]["cycles"]))
PY
echo "tbc_wait: ok"
