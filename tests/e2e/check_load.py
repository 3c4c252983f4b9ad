"""analysis/warpsweep.py on a produced file: strings decoded, choices
categorical, attributes, one row per point sorted by point.

usage: /usr/bin/python3 tests/e2e/check_load.py FILE.h5 EXPECTED_ROWS
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis"))
import warpsweep  # noqa: E402

path, rows = sys.argv[1], int(sys.argv[2])
df = warpsweep.load(path)
at = warpsweep.attrs(path)
assert len(df) == rows, (len(df), rows)
assert list(df["point"]) == list(range(rows)), "rows sorted by point, 0..n-1"
for key in ("warpsweep_version", "format_version", "sweep_name", "sweep_yaml", "sweep_hash", "created_utc",
            "points_total"):
    assert key in at, key
assert isinstance(at["sweep_yaml"], str) and "grid" in at["sweep_yaml"]
assert at["points_total"] == rows and at["format_version"] == 1
assert len(at["sweep_hash"]) == 16
for col in ("scheduler", "divergence", "issue", "status"):
    assert str(df[col].dtype) == "category", (col, df[col].dtype)
assert list(df["scheduler"].cat.categories[:3]) == ["lrr", "gto", "two_level"]
assert isinstance(df["message"][0], str) and isinstance(df["workload"][0], str)
for col in ("point", "workload", "seed", "status", "message", "sim_seconds", "cycles", "ipc", "warps"):
    assert col in df.columns, col
assert df.columns[0] == "point" and df.columns[1] == "workload" and df.columns[2] == "seed"
assert df["cycles"].dtype.kind == "i" and df["ipc"].dtype.kind == "f"
print("load ok:", len(df), "rows,", len(df.columns), "columns; statuses:", dict(df["status"].value_counts()))
