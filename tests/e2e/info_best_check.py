"""Checks `warpsweep info --best` on a file with repeats against Python's
statistics (exact fractions) and scipy's Student-t quantile.

usage: info_best_check.py FILE.h5 OUTPUT.txt METRIC MIN(0|1) TOP
Rows with status ok that differ only in seed are one configuration (the
parameter columns lie between `seed` and `status`, results/README.md; and the
workload). Each is ranked by the mean of METRIC over its rows (lowest first
when MIN, ties by lowest point) and must be printed as
  METRIC=MEAN +-HALF (n=N)[  tied]  point P ...
where HALF = scipy.stats.t.ppf(0.975, N - 1) * sd(ddof=1) / sqrt(N), P the
configuration's lowest point, and `tied` marks every configuration whose
interval overlaps the best's (|mean - best| <= half + best half), the best
included when any other is tied (docs/noise.md). The first TOP configurations
must be printed in that order; when more are tied than shown, a line says how
many are tied in all. One workload.
"""
import math
import statistics
import re
import sys

import h5py
from scipy import stats

path, out, metric, lowest, top = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1", int(sys.argv[5])
pts = h5py.File(path, "r")["points"][...]
names = list(pts.dtype.names)
params = names[names.index("seed") + 1:names.index("status")]
confs = {}
for r in pts:
    if r["status"].decode() != "ok" or math.isnan(float(r[metric])):
        continue
    key = (r["workload"],) + tuple(r[p] for p in params)
    confs.setdefault(key, []).append((int(r["point"]), float(r[metric])))
C = []
for rows in confs.values():
    v = [x for _, x in rows]
    n = len(v)
    half = stats.t.ppf(0.975, n - 1) * statistics.stdev(v) / math.sqrt(n) if n > 1 else 0.0
    C.append({"point": min(p for p, _ in rows), "mean": statistics.mean(v), "half": half, "n": n})
C.sort(key=lambda c: ((c["mean"] if lowest else -c["mean"]), c["point"]))
best = C[0]
for c in C[1:]:
    c["tied"] = abs(c["mean"] - best["mean"]) <= c["half"] + best["half"]
best["tied"] = any(c["tied"] for c in C[1:])
ntied = sum(c["tied"] for c in C)

pat = re.compile(r"^  %s=(\S+) \u00b1(\S+) \(n=(\d+)\)(  tied)?  point (\d+)" % re.escape(metric))
got = [pat.match(l) for l in open(out).read().splitlines()]
got = [m for m in got if m]
want = C[:top]
if len(got) != len(want):
    sys.exit("printed %d configurations, want %d" % (len(got), len(want)))
for m, c in zip(got, want):
    mean, half, n, tied, point = float(m.group(1)), float(m.group(2)), int(m.group(3)), bool(m.group(4)), int(m.group(5))
    if not (point == c["point"] and n == c["n"] and tied == c["tied"]
            and math.isclose(mean, c["mean"], rel_tol=1e-5)
            and math.isclose(half, c["half"], rel_tol=5e-3, abs_tol=1e-9)):
        sys.exit("printed %s, want point %d mean %r half %r n %d tied %s"
                 % (m.group(0), c["point"], c["mean"], c["half"], c["n"], c["tied"]))
shown_tied = sum(c["tied"] for c in want)
text = open(out).read()
if ntied > shown_tied and ("%d configurations tied with the best in all" % ntied) not in text:
    sys.exit("want a line: %d configurations tied in all" % ntied)
print("ok: %d of %d configurations, %d tied" % (len(want), len(C), ntied))
