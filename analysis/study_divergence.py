"""Study 2: reconvergence stack vs convergence barriers across the divergent
workloads, schedulers, issue modes and memory latencies.  Three panels:
cycles (barrier / stack, one dot per scheduler x issue x latency; a workload
that deadlocks under the stack has no ratio and is labelled), SIMD efficiency
per scheme, and the number of deadlocked runs per workload and scheme.
Prints a summary table.

usage: /usr/bin/python3 analysis/study_divergence.py results/study_divergence.h5 [OUT.png]
       (default OUT: results/study_divergence.png)
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import warpsweep  # noqa: E402

KEY = ["scheduler", "issue", "mem_latency"]


def short(w):
    return os.path.splitext(os.path.basename(str(w)))[0]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    src = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else "results/study_divergence.png"
    df = warpsweep.load(src)
    df["w"] = [short(w) for w in df.workload]
    df["scheduler"] = df.scheduler.astype(str)
    df["issue"] = df.issue.astype(str)
    wls = list(dict.fromkeys(df.w))
    st = df[df.divergence == "stack"].set_index(["w"] + KEY)
    ba = df[df.divergence == "sbi"].set_index(["w"] + KEY)
    both = st.join(ba, lsuffix="_s", rsuffix="_b", how="inner")

    fig, axes = plt.subplots(1, 3, figsize=(17, 4.8), layout="constrained")
    ax = axes[0]
    for i, w in enumerate(wls):
        sub = both.loc[w]
        okk = sub[(sub.status_s == "ok") & (sub.status_b == "ok")]
        ratio = okk.cycles_b / okk.cycles_s
        if len(ratio):
            jitter = np.linspace(-0.25, 0.25, len(ratio)) if len(ratio) > 1 else np.zeros(1)
            ax.scatter(i + jitter, ratio, s=14, alpha=0.7)
        ndl = int((sub.status_s == "deadlock").sum())
        if ndl:
            ax.annotate(f"stack: deadlock\n({ndl}/{len(sub)})", (i, 1.0), ha="center", fontsize=8, color="red")
    ax.axhline(1.0, color="gray", lw=1)
    ax.set_xticks(range(len(wls)), wls, rotation=30)
    ax.set_ylabel("cycles barrier / cycles stack")
    ax.set_title("cycles (< 1: barriers faster)")
    ax.grid(True, axis="y", alpha=0.3)

    ax = axes[1]
    okd = df[df.status == "ok"]
    eff = okd.groupby(["w", "divergence"], observed=True).simd_efficiency.mean().unstack()
    x = np.arange(len(wls))
    for k, (d, off) in enumerate((("stack", -0.2), ("sbi", 0.2))):
        vals = [eff.loc[w, d] if w in eff.index and d in eff.columns and not np.isnan(eff.loc[w, d]) else 0
                for w in wls]
        ax.bar(x + off, vals, width=0.4, label=d)
    ax.set_xticks(x, wls, rotation=30)
    ax.set_ylabel("SIMD efficiency (mean over ok runs)")
    ax.set_ylim(0, 1.05)
    ax.legend()
    ax.set_title("SIMD efficiency")

    ax = axes[2]
    dl = np.array([[int(((df.w == w) & (df.divergence == d) & (df.status == "deadlock")).sum()) for d in ("stack", "sbi")]
                   for w in wls])
    tot = np.array([[int(((df.w == w) & (df.divergence == d)).sum()) for d in ("stack", "sbi")] for w in wls])
    ax.imshow(dl / np.maximum(tot, 1), cmap="Reds", vmin=0, vmax=1, aspect="auto")
    for i in range(len(wls)):
        for j in range(2):
            dark = dl[i, j] > 0.5 * max(tot[i, j], 1)
            ax.text(j, i, f"{dl[i, j]}/{tot[i, j]}", ha="center", va="center", fontsize=9,
                    color="white" if dark else "black")
    ax.set_xticks([0, 1], ["stack", "sbi"])
    ax.set_yticks(range(len(wls)), wls)
    ax.set_title("deadlocked runs")
    name = warpsweep.attrs(src).get("sweep_name", "")
    fig.suptitle(f"{name}: reconvergence stack vs convergence barriers ({len(df)} runs)")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")

    print("workload scheme ok deadlock other mean_cycles_ok simd_eff max_depth_or_splits")
    for w in wls:
        for d in ("stack", "sbi"):
            g = df[(df.w == w) & (df.divergence == d)]
            o = g[g.status == "ok"]
            extra = o.max_stack_depth.max() if d == "stack" else o.max_warp_splits.max()
            print(f"{w} {d} {len(o)} {int((g.status == 'deadlock').sum())} "
                  f"{int(((g.status != 'ok') & (g.status != 'deadlock')).sum())} "
                  f"{o.cycles.mean() if len(o) else float('nan'):.1f} "
                  f"{o.simd_efficiency.mean() if len(o) else float('nan'):.3f} "
                  f"{extra if len(o) else '-'}")


if __name__ == "__main__":
    main()
