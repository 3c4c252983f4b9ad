"""Checks `warpsweep pareto` output against a brute-force O(n^2) front.

usage: pareto_check.py FILE.h5 OUTPUT.txt X Y MAXX MAXY
The expected front is computed here from the HDF5 file with h5py, Python's
statistics (exact fractions) and scipy alone. Rows with status ok (and x, y not NaN) that differ only in seed
are one configuration (the parameter columns lie between `seed` and `status`,
results/README.md), placed at its means; a configuration is on the front when
no other is at least as good in both columns and strictly better in one.

Without repeats (every configuration one row) the points printed by
warpsweep (first column of every non-comment line after the header) must be
exactly the front, in order of x (best first), with the file's x and y.

With repeats (docs/noise.md) each printed line also carries x's and y's 95%
Student-t half-widths (scipy.stats.t.ppf(0.975, n - 1) * sd / sqrt(n)), n,
and `yes` (front) or `noise`: dominated on the means by some configuration,
but by none beyond noise, where d beats c beyond noise when in both keys
(smaller better) d's interval lies at or below c's and the means differ in
one. The printed lines must be exactly the front and the noise ones, in x
order, each at its lowest point.
"""
import math
import statistics
import sys

import h5py
from scipy import stats

path, out, xcol, ycol, maxx, maxy = sys.argv[1:7]
maxx, maxy = maxx == "1", maxy == "1"
pts = h5py.File(path, "r")["points"][...]
names = list(pts.dtype.names)
params = names[names.index("seed") + 1:names.index("status")]
confs = {}
for r in pts:
    if r["status"].decode() != "ok":
        continue
    x, y = float(r[xcol]), float(r[ycol])
    if math.isnan(x) or math.isnan(y):
        continue
    key = (r["workload"],) + tuple(r[p] for p in params)
    confs.setdefault(key, []).append((int(r["point"]), x, y))


def half(v):
    if len(v) < 2:
        return 0.0
    return stats.t.ppf(0.975, len(v) - 1) * statistics.stdev(v) / math.sqrt(len(v))


# statistics.mean and stdev compute in exact fractions, then round: the mean of
# equal values (area across seeds) is that value, so "equal" stays equal


sign_x, sign_y = (-1 if maxx else 1), (-1 if maxy else 1)
C = []   # (point, kx, ky, hx, hy, n, mean x, mean y)
for rows in confs.values():
    xs = [t[1] for t in rows]
    ys = [t[2] for t in rows]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    C.append((min(t[0] for t in rows), sign_x * mx, sign_y * my, half(xs), half(ys), len(rows), mx, my))
replicated = any(c[5] > 1 for c in C)


def dominates(a, b):
    return a[1] <= b[1] and a[2] <= b[2] and (a[1] < b[1] or a[2] < b[2])


def beyond_noise(d, c):
    return (d[1] + d[3] <= c[1] - c[3] and d[2] + d[4] <= c[2] - c[4]) and (d[1] < c[1] or d[2] < c[2])


cls = {}
for c in C:
    if not any(dominates(d, c) for d in C):
        cls[c[0]] = "yes"
    elif not any(beyond_noise(d, c) for d in C):
        cls[c[0]] = "noise"
shown = [c for c in C if c[0] in cls and (replicated or cls[c[0]] == "yes")]
shown.sort(key=lambda t: (t[1], t[2], t[0]))
want = [t[0] for t in shown]

lines = [l for l in open(out).read().splitlines() if l and not l.startswith("#")]
header, body = lines[0].split(), lines[1:]
got = [int(l.split()[0]) for l in body]
if got != want:
    sys.exit("front mismatch for x=%s y=%s: got %s, want %s" % (xcol, ycol, got, want))
byp = {c[0]: c for c in C}
if not replicated:
    assert header[0] == "point" and header[-2:] == [xcol, ycol], header
    for l in body:
        f = l.split()
        c = byp[int(f[0])]
        if not (math.isclose(float(f[-2]), c[6], rel_tol=1e-8) and math.isclose(float(f[-1]), c[7], rel_tol=1e-8)):
            sys.exit("values of point %s: printed %s %s, file %r %r" % (f[0], f[-2], f[-1], c[6], c[7]))
else:
    assert header[0] == "point" and header[-6:] == [xcol, "\u00b1", ycol, "\u00b1", "n", "front"], header
    for l in body:
        f = l.split()
        c = byp[int(f[0])]
        hx = 0.0 if f[-5] == "-" else float(f[-5])
        hy = 0.0 if f[-3] == "-" else float(f[-3])
        ok = (math.isclose(float(f[-6]), c[6], rel_tol=1e-8, abs_tol=1e-12)
              and math.isclose(float(f[-4]), c[7], rel_tol=1e-8, abs_tol=1e-12)
              and math.isclose(hx, c[3], rel_tol=5e-3, abs_tol=1e-12)
              and math.isclose(hy, c[4], rel_tol=5e-3, abs_tol=1e-12)
              and int(f[-2]) == c[5] and f[-1] == cls[c[0]])
        if not ok:
            sys.exit("point %s: printed %s, want x %r +- %r, y %r +- %r, n %d, %s"
                     % (f[0], f[-6:], c[6], c[3], c[7], c[4], c[5], cls[c[0]]))
print("ok: %d of %d configurations shown (x=%s y=%s%s)"
      % (len(want), len(C), xcol, ycol, ", with repeats" if replicated else ""))
