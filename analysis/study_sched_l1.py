"""Study 3: warp schedulers x L1 size on the cache-sensitive kernel.  One column
of panels per DRAM bandwidth (0 = unlimited): IPC (top), L1 hit rate (middle)
and throughput per area (bottom) against l1_kb, one line per scheduler
(swl with its limit).  Prints IPC per scheduler, l1_kb and dram_bw, and the
IPC of ccws and daws as a share of the best static swl limit's at each point
(the issue-14 criterion, ccws >= 90%, is not met on this kernel: docs/studies.md).

usage: /usr/bin/python3 analysis/study_sched_l1.py results/study_sched_l1.h5 [OUT.png]
       (default OUT: results/study_sched_l1.png)
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import warpsweep  # noqa: E402


def label(r):
    return f"swl {int(r.swl_limit)}" if r.scheduler == "swl" else str(r.scheduler)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    src = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else "results/study_sched_l1.png"
    df = warpsweep.load(src)
    ok = warpsweep.configurations(df).copy()   # with repeats: means, 95% error bars (docs/noise.md)
    if ok.empty:
        sys.exit(f"{src}: no point with status ok")
    ok["sched"] = [label(r) for r in ok.itertuples()]
    order = list(dict.fromkeys(ok.sched))
    bws = sorted(ok.dram_bw.unique(), key=lambda b: (b != 0, -b))  # unlimited first, then tighter
    fig, axes = plt.subplots(3, len(bws), figsize=(4.8 * len(bws), 9.5), sharex=True, squeeze=False,
                             layout="constrained")
    rows = (("ipc", "IPC"), ("l1_hit_rate", "L1 hit rate"), ("throughput_per_area", "throughput / area"))
    for col, bw in enumerate(bws):
        sub = ok[ok.dram_bw == bw]
        for s in order:
            g = sub[sub.sched == s].sort_values("l1_kb")
            g = g.assign(x=[max(v, 1) for v in g.l1_kb])  # l1_kb 0 drawn at 1 on the log axis
            for r, (m, _) in enumerate(rows):
                warpsweep.plot_line(axes[r][col], g, "x", m, marker="o", label=s)
        axes[0][col].set_title("dram_bw unlimited" if bw == 0 else f"dram_bw {bw:g} B/cycle")
        for r in range(3):
            axes[r][col].grid(True, alpha=0.3)
        axes[2][col].set_xscale("log", base=2)
        axes[2][col].set_xlabel("l1_kb (0 drawn at 1: no L1)")
    for r, (_, name) in enumerate(rows):
        axes[r][0].set_ylabel(name)
    axes[0][-1].legend(fontsize=8, title="scheduler")
    name = warpsweep.attrs(src).get("sweep_name", "")
    fig.suptitle(f"{name}: schedulers x L1 size on cachesens (16 warps x 2 KiB slices, 8 reps)")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")
    for bw in bws:
        sub = ok[ok.dram_bw == bw]
        t = sub.pivot_table(index="l1_kb", columns="sched", values="ipc")[order]
        print(f"IPC, dram_bw {'unlimited' if bw == 0 else bw}:")
        print(t.round(2).to_string())
    swl = [s for s in order if s.startswith("swl")]
    for bw in bws:
        sub = ok[ok.dram_bw == bw]
        t = sub.pivot_table(index="l1_kb", columns="sched", values="ipc")
        best = t[swl].max(axis=1)
        share = {p: (100 * t[p] / best).round(0) for p in ("ccws", "daws") if p in t}
        if share:
            print(f"% of the best swl IPC, dram_bw {'unlimited' if bw == 0 else bw}:")
            print(pd.DataFrame({"best swl": best.round(2), **{f"{p} %": v for p, v in share.items()}}).to_string())


if __name__ == "__main__":
    main()
