"""Compare two warpsweep results files: every point exactly once in each,
and identical rows (every column but sim_seconds).

usage: /usr/bin/python3 tests/e2e/h5compare.py A.h5 B.h5 [--complete]
  --complete: also require that A holds every point 0..points_total-1
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis"))
import warpsweep  # noqa: E402


def main():
    a_path, b_path = sys.argv[1], sys.argv[2]
    complete = "--complete" in sys.argv[3:]
    a, b = warpsweep.load(a_path), warpsweep.load(b_path)
    for name, df in (("A", a), ("B", b)):
        dup = df["point"][df["point"].duplicated()]
        if len(dup):
            sys.exit(f"{name}: points written more than once: {sorted(set(dup))[:10]}")
    if complete:
        total = warpsweep.attrs(a_path)["points_total"]
        if sorted(a["point"]) != list(range(total)):
            missing = sorted(set(range(total)) - set(a["point"]))
            sys.exit(f"A: {len(a)} rows, points_total {total}; missing {missing[:10]}")
    if len(a) != len(b) or list(a["point"]) != list(b["point"]):
        sys.exit(f"different point sets: {len(a)} vs {len(b)} rows")
    if list(a.columns) != list(b.columns):
        sys.exit("different columns")
    for col in a.columns:
        if col == "sim_seconds":
            continue
        x, y = a[col], b[col]
        if str(x.dtype) == "category":
            x, y = x.astype(str), y.astype(str)
        same = (x.values == y.values)
        if x.dtype.kind == "f":
            same = same | (x.isna().values & y.isna().values)
        if not same.all():
            i = int((~same).nonzero()[0][0])
            sys.exit(f"column {col} differs at point {a['point'][i]}: {x.values[i]!r} vs {y.values[i]!r}")
    print(f"identical: {len(a)} rows")


main()
