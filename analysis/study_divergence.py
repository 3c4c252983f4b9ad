"""Study 2: the divergence schemes across the divergent workloads,
schedulers, issue modes and memory latencies.  Three panels: cycles (scheme /
stack, one dot per scheduler x issue x latency; a workload that deadlocks
under the stack has no ratio and is labelled), SIMD efficiency per scheme, and
the number of deadlocked runs per workload and scheme. Prints a summary table
with each scheme's core area and throughput per area. A file with repeats
(`repeat: R`, perturbed by `jitter`, docs/noise.md) pairs each run with the
stack's run of the same seed (one dot each: the spread is the noise) and gives
the SIMD efficiency bars 95% error bars over the runs of each configuration.

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
SCHEMES = ["stack", "sbi", "barrier", "multipath", "dualpath", "aware", "tbc"]


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
    schemes = [d for d in SCHEMES if d in set(df.divergence.astype(str))]
    df["divergence"] = df.divergence.astype(str)
    key = KEY + (["seed"] if df.seed.nunique() > 1 else [])   # repeats: a run pairs with its seed's
    st = df[df.divergence == "stack"].set_index(["w"] + key)

    fig, axes = plt.subplots(1, 3, figsize=(19, 5.2), layout="constrained")
    ax = axes[0]
    others = [d for d in schemes if d != "stack"]
    for k, d in enumerate(others):
        both = st.join(df[df.divergence == d].set_index(["w"] + key), lsuffix="_s", rsuffix="_b", how="inner")
        for i, w in enumerate(wls):
            sub = both.loc[w]
            okk = sub[(sub.status_s == "ok") & (sub.status_b == "ok")]
            ratio = okk.cycles_b / okk.cycles_s
            if len(ratio):
                xs = i + (k - (len(others) - 1) / 2) * 0.12 + np.zeros(len(ratio))
                ax.scatter(xs, ratio, s=10, alpha=0.7, color=f"C{k}", label=d if i == 0 else None)
    for i, w in enumerate(wls):
        ndl = int((st.loc[w].status == "deadlock").sum())
        if ndl:
            ax.annotate(f"stack: deadlock\n({ndl}/{len(st.loc[w])})", (i, 1.0), ha="center", fontsize=8, color="red")
    ax.axhline(1.0, color="gray", lw=1)
    ax.set_xticks(range(len(wls)), wls, rotation=30)
    ax.set_ylabel("cycles scheme / cycles stack")
    ax.set_title("cycles (< 1: faster than the stack)")
    ax.legend(fontsize="small")
    ax.grid(True, axis="y", alpha=0.3)

    ax = axes[1]
    okd = df[df.status == "ok"]
    eff = okd.groupby(["w", "divergence"], observed=True).simd_efficiency.mean().unstack()
    err = None
    if warpsweep.repeats(df):   # the mean over configurations of each one's 95% half-width
        conf = warpsweep.summary(df, ["simd_efficiency"])
        conf["w"] = [short(w) for w in conf.workload]
        conf["divergence"] = conf.divergence.astype(str)
        err = conf.groupby(["w", "divergence"]).simd_efficiency_half.mean().unstack()
    x = np.arange(len(wls))
    width = 0.8 / len(schemes)
    for k, d in enumerate(schemes):
        vals = [eff.loc[w, d] if w in eff.index and d in eff.columns and not np.isnan(eff.loc[w, d]) else 0
                for w in wls]
        yerr = None
        if err is not None:
            yerr = [err.loc[w, d] if w in err.index and d in err.columns and np.isfinite(err.loc[w, d]) else 0
                    for w in wls]
        ax.bar(x + (k - (len(schemes) - 1) / 2) * width, vals, width=width, label=d, yerr=yerr, capsize=2)
    ax.set_xticks(x, wls, rotation=30)
    ax.set_ylabel("SIMD efficiency (mean over ok runs)")
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize="small")
    ax.set_title("SIMD efficiency")

    ax = axes[2]
    dl = np.array([[int(((df.w == w) & (df.divergence == d) & (df.status == "deadlock")).sum()) for d in schemes]
                   for w in wls])
    tot = np.array([[int(((df.w == w) & (df.divergence == d)).sum()) for d in schemes] for w in wls])
    ax.imshow(dl / np.maximum(tot, 1), cmap="Reds", vmin=0, vmax=1, aspect="auto")
    for i in range(len(wls)):
        for j in range(len(schemes)):
            dark = dl[i, j] > 0.5 * max(tot[i, j], 1)
            ax.text(j, i, f"{dl[i, j]}/{tot[i, j]}", ha="center", va="center", fontsize=8,
                    color="white" if dark else "black")
    ax.set_xticks(range(len(schemes)), schemes, rotation=30)
    ax.set_yticks(range(len(wls)), wls)
    ax.set_title("deadlocked runs")
    name = warpsweep.attrs(src).get("sweep_name", "")
    fig.suptitle(f"{name}: divergence schemes ({len(df)} runs)")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")

    print("workload scheme ok deadlock other mean_cycles_ok simd_eff core_area_mm2 mean_throughput_per_area")
    for w in wls:
        for d in schemes:
            g = df[(df.w == w) & (df.divergence == d)]
            o = g[g.status == "ok"]
            print(f"{w} {d} {len(o)} {int((g.status == 'deadlock').sum())} "
                  f"{int(((g.status != 'ok') & (g.status != 'deadlock')).sum())} "
                  f"{o.cycles.mean() if len(o) else float('nan'):.1f} "
                  f"{o.simd_efficiency.mean() if len(o) else float('nan'):.3f} "
                  f"{g.core_area_mm2.iloc[0]:.4f} "
                  f"{o.throughput_per_area.mean() if len(o) else float('nan'):.5f}")

if __name__ == "__main__":
    main()
