"""Study 1a: throughput per area against warps per core, one line per memory
latency, one column of panels per scheduler; the optimum of each line is marked.
Bottom row: IPC (latency hiding) for the same points.  Prints the optimum per
scheduler and latency. A file with repeats (`repeat: R`, perturbed by `jitter`,
docs/noise.md) is drawn at the configurations' means with 95% error bars.

usage: /usr/bin/python3 analysis/study_latency_warps.py results/study_latency_warps.h5 [OUT.png]
       (default OUT: results/study_latency_warps.png)
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import warpsweep  # noqa: E402


def optima(ok):
    """{(scheduler, mem_latency): row of the best throughput_per_area}."""
    out = {}
    for (sched, lat), g in ok.groupby(["scheduler", "mem_latency"], observed=True):
        out[(sched, lat)] = g.loc[g.throughput_per_area.idxmax()]
    return out


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    src = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else "results/study_latency_warps.png"
    df = warpsweep.load(src)
    ok = warpsweep.configurations(df)
    if ok.empty:
        sys.exit(f"{src}: no point with status ok")
    best = optima(ok)
    scheds = [s for s in df.scheduler.cat.categories if s in set(ok.scheduler)]
    fig, axes = plt.subplots(2, len(scheds), figsize=(5 * len(scheds), 7), sharex=True, squeeze=False)
    for col, sched in enumerate(scheds):
        sub = ok[ok.scheduler == sched]
        for lat, g in sub.groupby("mem_latency"):
            g = g.sort_values("warps")
            line = warpsweep.plot_line(axes[0][col], g, "warps", "throughput_per_area", marker="o", label=f"L = {lat}")
            b = best[(sched, lat)]
            axes[0][col].plot([b.warps], [b.throughput_per_area], marker="*", markersize=18, color=line.get_color(),
                              markeredgecolor="black")
            axes[0][col].annotate(f"{int(b.warps)}", (b.warps, b.throughput_per_area), textcoords="offset points",
                                  xytext=(0, 9), ha="center", fontsize=8)
            warpsweep.plot_line(axes[1][col], g, "warps", "ipc", marker="o", color=line.get_color(), label=f"L = {lat}")
        axes[0][col].set_title(f"scheduler {sched}")
        axes[0][col].grid(True, alpha=0.3)
        axes[1][col].grid(True, alpha=0.3)
        axes[1][col].set_xscale("log", base=2)
        axes[1][col].set_xlabel("warps per core (register file sized to them)")
    axes[0][0].set_ylabel("throughput / area (G thread-inst/s/mm²)")
    axes[1][0].set_ylabel("IPC (thread instructions / cycle)")
    axes[0][-1].legend(title="mem_latency (cycles)", fontsize=8)
    name = warpsweep.attrs(src).get("sweep_name", "")
    fig.suptitle(f"{name}: throughput per area vs warps (★ = optimum)")
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")
    print("scheduler mem_latency best_warps regfile_kb ipc area_mm2 throughput_per_area")
    for (sched, lat), b in sorted(best.items(), key=lambda kv: (str(kv[0][0]), kv[0][1])):
        print(f"{sched} {lat} {int(b.warps)} {int(b.regfile_kb)} {b.ipc:.3f} {b.area_mm2:.4f} {b.throughput_per_area:.4f}")


if __name__ == "__main__":
    main()
