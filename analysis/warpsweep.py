"""Open warpsweep results files (HDF5) in pandas.

    import sys; sys.path.insert(0, "analysis")
    import warpsweep
    df = warpsweep.load("results/quickstart.h5")   # one row per point
    meta = warpsweep.attrs("results/quickstart.h5") # sweep_name, sweep_yaml, ...

Needs Debian's python3-h5py and python3-pandas (/usr/bin/python3).
The file format is described in results/README.md.
"""
import h5py
import numpy as np
import pandas as pd

__all__ = ["load", "attrs"]


def _decode(v):
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    if isinstance(v, np.ndarray) and v.dtype.kind == "S":
        return [x.decode("utf-8", "replace") for x in v]
    if isinstance(v, np.generic):
        return v.item()
    return v


def attrs(path):
    """Root attributes of a results file as a dict of str/int values."""
    with h5py.File(path, "r") as f:
        return {k: _decode(v) for k, v in f.attrs.items()}


def load(path):
    """/points as a DataFrame: one row per point, sorted by `point`.

    Fixed-length string columns (workload, status, message and every choice
    parameter) are decoded to str; columns with a known set of values
    (choice parameters, status, workload) are pandas Categoricals whose
    categories are all possible values in registry order."""
    with h5py.File(path, "r") as f:
        ds = f["points"]
        data = ds[...]
        choices = {}
        for k, v in ds.attrs.items():
            if k.startswith("choices:"):
                choices[k[len("choices:"):]] = _decode(v).split("|")
    cols = {}
    for name in data.dtype.names:
        col = data[name]
        if col.dtype.kind == "S":
            values = [x.decode("utf-8", "replace") for x in col]
            if name in choices:
                cats = [c for c in choices[name] if c != ""]
                extra = sorted(set(values) - set(cats))
                cols[name] = pd.Categorical(values, categories=cats + extra)
            else:
                cols[name] = pd.Series(values, dtype=object)
        else:
            cols[name] = col
    df = pd.DataFrame(cols, columns=list(data.dtype.names))
    _workload_vars(df)
    if len(df):
        df = df.sort_values("point", kind="stable").reset_index(drop=True)
    return df


def _workload_vars(df):
    """Workload variants of a sweep's wl.NAME axes are named
    'workload.yaml[block=64,n=1024]': add one numeric column wl.NAME per
    variable (NaN for rows of workloads without it)."""
    if "workload" not in df.columns or not len(df):
        return
    parsed = {}
    for w in set(df["workload"].astype(str)):
        if w.endswith("]") and "[" in w:
            kv = w[w.rindex("[") + 1:-1].split(",")
            parsed[w] = {k: float(v) for k, v in (x.split("=", 1) for x in kv if "=" in x)}
    names = sorted({k for d in parsed.values() for k in d})
    for k in names:
        df["wl." + k] = [parsed.get(w, {}).get(k, float("nan")) for w in df["workload"].astype(str)]
