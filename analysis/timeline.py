#!/usr/bin/python3
"""Draw a `warpsweep sim --trace FILE.csv` as a PNG Gantt chart.

usage: /usr/bin/python3 analysis/timeline.py TRACE.csv [-o OUT.png] [--from C] [--to C] [--title T]

One row per warp split (core, warp, active mask), one cell per cycle in
which the split issued, coloured by opcode class: memory, control,
synchronisation, convergence barrier, other.  The chart is one raster image
(not one artist per instruction), so a trace of 10^6 issues draws in
seconds: when the cycles are more than the image's columns, a column covers
several cycles and shows the most significant class issued in them (memory,
sync, convergence barrier, control, alu, in that order), and the title says
how many cycles a column holds.  A trace of a few hundred cycles gets one
column per cycle, so one-cycle bars stay visible.  `sim --cycles FROM:TO
--warps LIST --cores LIST` writes only part of a long run.
Uses Debian's python3-matplotlib, numpy and pandas (Agg backend).
"""
import argparse
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

MEM = {"ld", "ldu", "st", "atom", "red"}
CTRL = {"bra", "brx", "ret", "exit", "trap"}
SYNC = {"bar", "barrier", "bar.warp", "shfl", "vote", "match", "membar", "fence"}
DIV = {"ADD", "WAIT", "YIELD"}          # convergence-barrier instructions (divergence=barrier issues them)
# classes in drawing priority (a column of many cycles shows the highest)
KINDS = ["alu", "control", "convergence barrier", "sync", "memory"]
COLORS = {"memory": "#d62728", "control": "#1f77b4", "sync": "#9467bd", "convergence barrier": "#ff7f0e",
          "alu": "#2ca02c"}
MAX_COLUMNS = 2400   # image columns at most: ~2 pixels each at the default size


def kind(op):
    if op in MEM:
        return "memory"
    if op in CTRL:
        return "control"
    if op in SYNC:
        return "sync"
    if op in DIV:
        return "convergence barrier"
    return "alu"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("-o", "--output", default=None)
    ap.add_argument("--from", dest="c0", type=int, default=None)
    ap.add_argument("--to", dest="c1", type=int, default=None)
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    df = pd.read_csv(a.trace, usecols=["cycle", "core", "warp", "active_mask", "opcode"],
                     dtype={"cycle": np.int64, "core": np.int64, "warp": np.int64, "active_mask": str,
                            "opcode": str})
    if a.c0 is not None:
        df = df[df.cycle >= a.c0]
    if a.c1 is not None:
        df = df[df.cycle <= a.c1]
    if not len(df):
        sys.exit("timeline.py: %s has no issued instruction%s" % (a.trace, " in that window" if a.c0 or a.c1 else ""))
    df = df.reset_index(drop=True)
    # rows: distinct (core, warp, mask), ordered by core, warp, then first issue
    gid = df.groupby(["core", "warp", "active_mask"], sort=False).ngroup().to_numpy()
    _, first = np.unique(gid, return_index=True)          # first issue of each group, by group id
    order = pd.DataFrame({"core": df.core.to_numpy()[first], "warp": df.warp.to_numpy()[first],
                          "mask": [int(m, 16) for m in df.active_mask.to_numpy()[first]], "first": first})
    order = order.sort_values(["core", "warp", "first"])
    rank = np.empty(len(order), dtype=np.int64)
    rank[order.index.to_numpy()] = np.arange(len(order))
    rows = rank[gid]
    order = order.reset_index(drop=True)
    prio = {k: i + 1 for i, k in enumerate(KINDS)}
    codes = df.opcode.map({op: prio[kind(op)] for op in df.opcode.unique()}).to_numpy(np.int8)

    c0, c1 = int(df.cycle.min()), int(df.cycle.max()) + 1
    per_col = max(1, -(-(c1 - c0) // MAX_COLUMNS))       # cycles per image column
    ncols = -(-(c1 - c0) // per_col)
    img = np.zeros((len(order), ncols), dtype=np.int8)
    np.maximum.at(img, (rows, (df.cycle.to_numpy() - c0) // per_col), codes)

    multi_core = order.core.nunique() > 1
    fig, ax = plt.subplots(figsize=(12, 1.2 + 0.3 * min(len(order), 60)))
    cmap = ListedColormap(["white"] + [COLORS[k] for k in KINDS])
    ax.imshow(img, cmap=cmap, vmin=0, vmax=len(KINDS), interpolation="nearest", aspect="auto",
              extent=(c0, c0 + ncols * per_col, len(order) - 0.5, -0.5))
    if len(order) <= 60:
        ax.set_yticks(range(len(order)))
        ax.set_yticklabels([("c%d " % c if multi_core else "") + "w%d 0x%x" % (w, m)
                            for c, w, m in zip(order.core, order.warp, order["mask"])], fontsize="small")
    else:   # hundreds of splits: label the first row of each warp only
        starts = [i for i in range(len(order)) if i == 0 or (order.core[i], order.warp[i]) != (order.core[i - 1], order.warp[i - 1])]
        step = max(1, len(starts) // 40)
        ax.set_yticks(starts[::step])
        ax.set_yticklabels([("c%d " % order.core[i] if multi_core else "") + "w%d" % order.warp[i] for i in starts[::step]],
                           fontsize="small")
        ax.set_ylabel("warp splits (%d rows)" % len(order))
    ax.set_xlabel("cycle")
    title = a.title or "issued instructions per warp split: %s" % a.trace
    if per_col > 1:
        title += "\n(one column = %d cycles: the most significant class issued in them)" % per_col
    ax.set_title(title, fontsize="medium")
    ax.legend(handles=[Patch(color=COLORS[k], label=k) for k in reversed(KINDS)], loc="upper left",
              bbox_to_anchor=(1.0, 1.0), fontsize="small")
    fig.tight_layout()
    out = a.output or (a.trace.rsplit(".", 1)[0] + ".png")
    fig.savefig(out, dpi=100)
    print(out)


if __name__ == "__main__":
    main()
