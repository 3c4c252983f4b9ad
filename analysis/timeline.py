#!/usr/bin/python3
"""Draw a `warpsweep sim --trace FILE.csv` as a PNG Gantt chart.

usage: /usr/bin/python3 analysis/timeline.py TRACE.csv [-o OUT.png] [--from C] [--to C]

One row per warp split (core, warp, active mask), one bar per issued
instruction (width one cycle), coloured by opcode class: memory, control,
synchronisation, other.  Uses Debian's python3-matplotlib (Agg backend).
"""
import argparse, csv, sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import Patch

MEM = {"ld", "ldu", "st", "atom", "red"}
CTRL = {"bra", "brx", "ret", "exit", "trap"}
SYNC = {"bar", "barrier", "bar.warp", "shfl", "vote", "match", "membar", "fence"}
DIV = {"ADD", "WAIT", "YIELD"}          # convergence-barrier instructions (divergence=barrier issues them)
COLORS = {"memory": "#d62728", "control": "#1f77b4", "sync": "#9467bd", "convergence barrier": "#ff7f0e",
          "alu": "#2ca02c"}


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
    with open(a.trace) as f:
        rows = [r for r in csv.DictReader(f)]
    if not rows:
        sys.exit("timeline.py: %s has no issued instruction" % a.trace)
    rows = [r for r in rows if (a.c0 is None or int(r["cycle"]) >= a.c0) and (a.c1 is None or int(r["cycle"]) <= a.c1)]
    multi_core = len({r["core"] for r in rows}) > 1
    keys, first = [], {}
    for i, r in enumerate(rows):
        k = (int(r["core"]), int(r["warp"]), int(r["active_mask"], 16))
        if k not in first:
            first[k] = i
            keys.append(k)
    keys.sort(key=lambda k: (k[0], k[1], first[k]))
    y = {k: i for i, k in enumerate(keys)}
    bars = {c: [] for c in COLORS}
    for r in rows:
        k = (int(r["core"]), int(r["warp"]), int(r["active_mask"], 16))
        bars[kind(r["opcode"])].append((int(r["cycle"]), y[k]))
    fig, ax = plt.subplots(figsize=(12, 1 + 0.35 * len(keys)))
    for c, pts in bars.items():
        for cyc, yy in pts:
            ax.broken_barh([(cyc, 1)], (yy - 0.4, 0.8), facecolors=COLORS[c])
    ax.set_yticks(range(len(keys)))
    ax.set_yticklabels([("c%d " % k[0] if multi_core else "") + "w%d 0x%x" % (k[1], k[2]) for k in keys])
    ax.invert_yaxis()
    ax.set_xlabel("cycle")
    ax.set_title(a.title or "issued instructions per warp split: %s" % a.trace)
    ax.legend(handles=[Patch(color=v, label=k) for k, v in COLORS.items()], loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
    fig.tight_layout()
    out = a.output or (a.trace.rsplit(".", 1)[0] + ".png")
    fig.savefig(out, dpi=100)
    print(out)


if __name__ == "__main__":
    main()
