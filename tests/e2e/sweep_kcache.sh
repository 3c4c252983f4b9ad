#!/usr/bin/env bash
# The sweep's shared cache (src/sim/kcache.c): the transformed kernels and
# reference runs a sweep's threads share give the rows that -j 1, -j 2 and a
# `warpsweep sim` of each point alone (a private cache, nothing shared) give.
# The grid makes the cache work: a workload that compares memory with the
# reference (matmul), a two-kernel launch loop (seq bfs) and one that needs
# neither (reduce); every pass setting (divergence with and without the
# barrier pass, inst_order, barrier_regs), seeds alternating on the fastest
# axis.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

cat > "$T/s.yaml" <<YAML
name: e2e-kcache
workload:
  - $SRC/sweeps/kernels/matmul.yaml
  - $SRC/tests/kernels/seq/bfs.yaml
  - $SRC/sweeps/kernels/reduce.yaml
grid:
  divergence: [stack, barrier, sbi]
  inst_order: [ptxas, ptx]
  barrier_regs: [1, 16]
  seed: [1, 2]
YAML
[ "$("$BIN" expand "$T/s.yaml" --count)" = 72 ] || fail "count"
"$BIN" run "$T/s.yaml" -j 1 -o "$T/j1.h5" --quiet || fail "run -j 1"
"$BIN" run "$T/s.yaml" -j 2 -o "$T/j2.h5" --quiet || fail "run -j 2"
$PY "$SRC/tests/e2e/h5compare.py" "$T/j1.h5" "$T/j2.h5" --complete || fail "-j 1 vs -j 2 rows differ"
"$BIN" expand "$T/s.yaml" > "$T/points.csv" || fail "expand"

$PY - "$BIN" "$T" <<'PY' || fail "rows differ from warpsweep sim"
import csv, json, math, os, subprocess, sys
sys.path.insert(0, os.path.join(os.environ.get("WS_SOURCE_DIR", "."), "analysis"))
import warpsweep
BIN, T = sys.argv[1:3]
df = warpsweep.load(T + "/j2.h5").set_index("point")
bad, compared = [], 0
with open(T + "/points.csv") as f:
    for p in csv.DictReader(f):
        args = [BIN, "sim", p.pop("workload"), "--json"]
        k = int(p.pop("point"))
        for name, value in p.items():
            args += ["--set", "%s=%s" % (name, value)]
        j = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
        row = df.loc[k]
        if j["status"] != row["status"] or j["message"] != row["message"]:
            bad.append("point %d: %s %r vs sim %s %r" % (k, row["status"], row["message"], j["status"], j["message"]))
        for m, v in j.items():
            if m in ("status", "message") or m not in df.columns or isinstance(v, str):
                continue
            compared += 1
            r = row[m]
            same = (math.isnan(r) and v is None) if v is None or (isinstance(r, float) and math.isnan(r)) else \
                (r == v if isinstance(v, int) else math.isclose(float(r), float(v), rel_tol=1e-15, abs_tol=0))
            if not same:
                bad.append("point %d %s: row %r, sim %r" % (k, m, r, v))
assert compared > 72 * 10, compared
assert (df.status == "ok").sum() > 36, df.status.value_counts()
if bad:
    sys.exit("\n".join(bad[:20]))
PY
echo "sweep_kcache: ok"
