"""Open warpsweep results files (HDF5) in pandas.

    import sys; sys.path.insert(0, "analysis")
    import warpsweep
    df = warpsweep.load("results/quickstart.h5")   # one row per point
    meta = warpsweep.attrs("results/quickstart.h5") # sweep_name, sweep_yaml, ...
    conf = warpsweep.summary(df)                    # one row per configuration: means,
                                                    # _std, _half (95% interval), n

Needs Debian's python3-h5py and python3-pandas (/usr/bin/python3); summary
needs python3-scipy.
The file format is described in results/README.md.
"""
import h5py
import numpy as np
import pandas as pd

# area_mm2's parts (docs/area.md): they sum to area_mm2 in every row
AREA_PARTS = ["area_rf_mm2", "area_sram_mm2", "area_warp_state_mm2", "area_divergence_mm2", "area_collector_mm2",
              "area_dispatch_mm2", "area_sched_mm2", "area_core_fixed_mm2", "area_uncore_mm2"]

__all__ = ["AREA_PARTS", "load", "attrs", "parameters", "metrics", "repeats", "summary", "configurations", "plot_line", "runs"]


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


def parameters(df):
    """The parameter columns of a loaded file (those between `seed` and
    `status`, results/README.md), with the wl.NAME workload variables."""
    cols = list(df.columns)
    if "seed" not in cols or "status" not in cols:
        return []
    return cols[cols.index("seed") + 1:cols.index("status")] + [c for c in cols if c.startswith("wl.")]


def metrics(df):
    """The numeric metric columns of a loaded file (between `message` and
    `sim_seconds`; labelled ones such as occupancy_limit are not numbers)."""
    cols = list(df.columns)
    if "message" not in cols:
        return []
    end = cols.index("sim_seconds") if "sim_seconds" in cols else len(cols)
    return [c for c in cols[cols.index("message") + 1:end] if pd.api.types.is_numeric_dtype(df[c])]


def _keys(df):
    """workload and every parameter but seed that takes more than one value"""
    return ["workload"] + [c for c in parameters(df) if c != "seed" and df[c].nunique(dropna=False) > 1]


def repeats(df):
    """True when some configuration (rows differing only in seed) has more
    than one row with status ok: a file of `repeat: R` (docs/noise.md)."""
    ok = df[df.status.astype(str) == "ok"]
    if not len(ok) or "seed" not in ok or ok.seed.nunique() < 2:
        return False
    return bool((ok.groupby(_keys(ok), observed=True, dropna=False).size() > 1).any())


def summary(df, columns=None, level=0.95):
    """One row per configuration: the rows with status ok that differ only in
    seed (the R runs of `repeat: R`, perturbed by jitter: docs/noise.md),
    grouped by the workload and every parameter that varies but seed.

    Each metric in `columns` (default: every numeric metric) becomes its mean,
    with METRIC_std (sample standard deviation, n - 1) and METRIC_half, the
    half-width of the `level` Student-t interval for the mean,
    t(1 - (1 - level) / 2, n - 1) * std / sqrt(n) (NaN for n = 1); `n` counts
    the runs and `point` is the configuration's lowest point. Every other
    column holds the configuration's first value (parameters are the same in
    all its rows). The rows are in the order of the grouping axes."""
    from scipy import stats
    ok = df[df.status.astype(str) == "ok"]
    cols = metrics(df) if columns is None else list(columns)
    keys = _keys(ok)
    g = ok.groupby(keys, observed=True, dropna=False, sort=True)
    first = g.first()
    n = g.size()
    mean, std = g[cols].mean(), g[cols].std(ddof=1)
    tq = pd.Series(stats.t.ppf(1 - (1 - level) / 2, n - 1), index=n.index).where(n > 1)
    half = std.mul(tq / np.sqrt(n), axis=0)
    out = pd.concat([first.drop(columns=cols + [c for c in ("seed", "point") if c in first.columns]), mean,
                     std.add_suffix("_std"), half.add_suffix("_half"), n.rename("n"), g.point.min()], axis=1)
    out = out.reset_index()
    return out


def configurations(df, columns=None):
    """summary(df, columns) when the file has repeats, else the rows with
    status ok as they are: what a figure plots, one point per configuration."""
    ok = df[df.status.astype(str) == "ok"]
    return summary(df, columns) if repeats(df) else ok


def plot_line(ax, g, x, y, **kw):
    """ax.plot(g[x], g[y], **kw), with error bars of y's 95% interval
    (g[y + "_half"], from summary) when g has them; returns the line."""
    half = y + "_half"
    if half in g and np.isfinite(g[half]).any():
        cont = ax.errorbar(g[x], g[y], yerr=g[half], capsize=2, **kw)
        return cont.lines[0]
    line, = ax.plot(g[x], g[y], **kw)
    return line


def runs(conf):
    """'6', or '4-6' when configurations have different counts: the n of a summary"""
    lo, hi = int(conf.n.min()), int(conf.n.max())
    return str(lo) if lo == hi else f"{lo}-{hi}"
