#!/usr/bin/env bash
# Perturbed repeats and intervals (docs/noise.md) on the shipped sweep
# sweeps/noise.yaml: the attention tile over three schedulers x two divergence
# schemes, jitter 4, repeat 6. `info --best` prints mean +-95% half-width (n=6)
# and tied marks equal to numpy/scipy on the file's rows (info_best_check.py),
# for a lowest and a highest metric, with --top cutting a tie group; `pareto`
# equals the brute-force checker (pareto_check.py); the intervals are nonzero;
# -j 1 and -j 2 give the same rows; analysis/warpsweep.py summary() gives the
# same statistics; jitter 0 is the unperturbed model (the same
# JSON as without it) and its repeats of file inputs are identical (+-0).
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

cd "$T"
cp "$SRC/sweeps/noise.yaml" noise.yaml
sed -i "s|^workload: kernels/|workload: $SRC/sweeps/kernels/|" noise.yaml
"$BIN" run noise.yaml -o n2.h5 -j 2 --quiet || fail "run -j 2"
"$BIN" run noise.yaml -o n1.h5 -j 1 --quiet || fail "run -j 1"
$PY - n1.h5 n2.h5 <<'PY' || fail "-j 1 and -j 2 differ"
import sys, h5py
a, b = (h5py.File(p, "r")["points"][...] for p in sys.argv[1:3])
cols = [c for c in a.dtype.names if c != "sim_seconds"]
assert len(a) == len(b) == 36, (len(a), len(b))
for c in cols:
    assert (a[c] == b[c]).all(), c
PY

"$BIN" info n2.h5 --best cycles --min --top 6 > best.txt || fail "info --best"
$PY "$SRC/tests/e2e/info_best_check.py" n2.h5 best.txt cycles 1 6 || fail "info --best cycles: $(cat best.txt)"
grep -q "best 6 configurations by cycles" best.txt || fail "--top counts configurations: $(cat best.txt)"
grep -q " seed=" best.txt && fail "seed shown for repeats: $(cat best.txt)"
# every interval is nonzero: the jitter perturbs each configuration's runs
grep -E '^  cycles=' best.txt | grep -qE '±0 ' && fail "a zero interval with jitter 4: $(cat best.txt)"
grep -q "  tied  " best.txt || fail "no tie group printed: $(cat best.txt)"
"$BIN" info n2.h5 --best cycles --min --top 1 > top1.txt || fail "info --top 1"
$PY "$SRC/tests/e2e/info_best_check.py" n2.h5 top1.txt cycles 1 1 || fail "info --top 1: $(cat top1.txt)"
"$BIN" info n2.h5 --best work_per_area --top 4 > wpa.txt || fail "info --best work_per_area"
$PY "$SRC/tests/e2e/info_best_check.py" n2.h5 wpa.txt work_per_area 0 4 || fail "info work_per_area: $(cat wpa.txt)"

"$BIN" pareto n2.h5 --x cycles --min-x --y area_mm2 --min-y > front.txt || fail "pareto"
$PY "$SRC/tests/e2e/pareto_check.py" n2.h5 front.txt cycles area_mm2 0 0 || fail "pareto: $(cat front.txt)"
"$BIN" pareto n2.h5 > front.txt || fail "pareto defaults"
$PY "$SRC/tests/e2e/pareto_check.py" n2.h5 front.txt area_mm2 work_ipc 0 1 || fail "pareto defaults: $(cat front.txt)"

# the notebook side: analysis/warpsweep.py summary() per configuration against exact statistics and scipy
$PY - n2.h5 "$SRC/analysis" <<'PY' || fail "warpsweep.summary"
import math, statistics, sys
from scipy import stats
sys.path.insert(0, sys.argv[2])
import warpsweep
df = warpsweep.load(sys.argv[1])
assert warpsweep.repeats(df)
s = warpsweep.summary(df, ["cycles", "ipc"])
assert len(s) == 6 and set(s.n) == {6}, s[["scheduler", "divergence", "n"]]
for r in s.itertuples():
    rows = df[(df.scheduler == r.scheduler) & (df.divergence == r.divergence)]
    assert r.point == rows.point.min()
    for m in ("cycles", "ipc"):
        v = [float(x) for x in rows[m]]
        half = stats.t.ppf(0.975, 5) * statistics.stdev(v) / math.sqrt(6)
        got = getattr(r, m), getattr(r, m + "_std"), getattr(r, m + "_half")
        assert math.isclose(got[0], statistics.mean(v), rel_tol=1e-12), (m, got, v)
        assert math.isclose(got[1], statistics.stdev(v), rel_tol=1e-9), (m, got, v)
        assert math.isclose(got[2], half, rel_tol=1e-9) and half > 0, (m, got, half)
PY

# jitter 0: the unperturbed model, identical runs whatever the seed (the inputs come from files)
w=$SRC/sweeps/kernels/attn_tile.yaml
a=$("$BIN" sim "$w" --json | sed 's/, "jitter": 0//') || fail "sim"
b=$("$BIN" sim "$w" --set jitter=0 --set seed=3 --json | sed 's/, "jitter": 0//; s/"seed": 3/"seed": 0/') || fail "sim jitter=0"
[ "$a" = "$b" ] || fail "jitter 0 with another seed differs from the unperturbed run"
c=$("$BIN" sim "$w" --set jitter=4 --set seed=3 --json) || fail "sim jitter=4"
d=$("$BIN" sim "$w" --set jitter=4 --set seed=3 --json) || fail "sim jitter=4 again"
[ "$c" = "$d" ] || fail "jitter 4, seed 3 twice: different metrics"
[ "$(echo "$c" | $PY -c 'import json,sys; print(json.load(sys.stdin)["cycles"])')" != \
  "$(echo "$a" | $PY -c 'import json,sys; print(json.load(sys.stdin)["cycles"])')" ] || fail "jitter 4 changed no cycle"
echo "noise_intervals: ok"
