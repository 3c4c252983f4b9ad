"""Checks `warpsweep pareto` output against a brute-force O(n^2) front.

usage: pareto_check.py FILE.h5 OUTPUT.txt X Y MAXX MAXY
The expected front is computed here from the HDF5 file with h5py alone: among
the rows with status ok (and x, y not NaN), a row is on the front when no other
row is at least as good in both columns and strictly better in one.  The
points printed by warpsweep (first column of every non-comment line after the
header) must be exactly that set, in order of x (best first).
"""
import math
import sys

import h5py

path, out, xcol, ycol, maxx, maxy = sys.argv[1:7]
maxx, maxy = maxx == "1", maxy == "1"
pts = h5py.File(path, "r")["points"][...]
rows = []
for r in pts:
    if r["status"].decode() != "ok":
        continue
    x, y = float(r[xcol]), float(r[ycol])
    if math.isnan(x) or math.isnan(y):
        continue
    # keys: smaller is better
    rows.append((int(r["point"]), -x if maxx else x, -y if maxy else y))


def dominates(a, b):
    return a[1] <= b[1] and a[2] <= b[2] and (a[1] < b[1] or a[2] < b[2])


front = [b for b in rows if not any(dominates(a, b) for a in rows)]
front.sort(key=lambda t: (t[1], t[2], t[0]))
want = [t[0] for t in front]

lines = [l for l in open(out).read().splitlines() if l and not l.startswith("#")]
header, body = lines[0].split(), lines[1:]
assert header[0] == "point" and header[-2:] == [xcol, ycol], header
got = [int(l.split()[0]) for l in body]
if got != want:
    sys.exit("front mismatch for x=%s y=%s: got %s, want %s" % (xcol, ycol, got, want))
# printed x, y are the file's values
vals = {int(r["point"]): (float(r[xcol]), float(r[ycol])) for r in pts}
for l in body:
    f = l.split()
    x, y = vals[int(f[0])]
    if not (math.isclose(float(f[-2]), x, rel_tol=1e-8) and math.isclose(float(f[-1]), y, rel_tol=1e-8)):
        sys.exit("values of point %s: printed %s %s, file %r %r" % (f[0], f[-2], f[-1], x, y))
print("ok: %d of %d ok rows on the front (x=%s y=%s)" % (len(want), len(rows), xcol, ycol))
