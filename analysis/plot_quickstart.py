"""Plot the quickstart sweep: IPC against resident warps, one line per memory
latency, one panel per scheduler (divergence scheme: stack).

usage: /usr/bin/python3 analysis/plot_quickstart.py results/quickstart.h5 results/quickstart.png
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import warpsweep  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    df = warpsweep.load(src)
    ok = df[(df.status == "ok") & (df.divergence == "stack")]
    if ok.empty:
        sys.exit(f"{src}: no point with status ok (statuses: {dict(df.status.value_counts())})")
    schedulers = [s for s in df.scheduler.cat.categories if s in set(ok.scheduler)]
    fig, axes = plt.subplots(1, len(schedulers), figsize=(4.2 * len(schedulers), 3.6), sharey=True, squeeze=False)
    for ax, sched in zip(axes[0], schedulers):
        sub = ok[ok.scheduler == sched]
        for lat, g in sub.groupby("mem_latency"):
            g = g.sort_values("warps")
            ax.plot(g.warps, g.ipc, marker="o", label=f"{lat} cycles")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("warps per core")
        ax.set_title(f"scheduler {sched}")
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("IPC (thread instructions / cycle)")
    axes[0][-1].legend(title="memory latency", fontsize=8)
    name = warpsweep.attrs(src).get("sweep_name", "")
    fig.suptitle(f"{name}: latency hiding ({len(df)} points)")
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


main()
