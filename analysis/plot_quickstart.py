"""Plot the quickstart sweep: IPC, throughput per area (the mission's metric:
giga thread-instructions per second per mm² of chip) and throughput per watt
(thread instructions per joule, docs/energy.md; files without it: two rows) against warps per core,
one line per memory latency, one column per scheduler (divergence: stack).

Points whose resident warps are fewer than the warp slots (occupancy_limit is
max_ctas or grid: the launch's one-warp CTAs, not the warps, limit them) are
drawn hollow and joined by a dashed line: they repeat the resident warps of
the point before and are not a result about warps (a kernel of few one-warp
CTAs under max_ctas; the shipped quickstart sets max_ctas 1024 for its 2048).

A file with repeats (`repeat: R`, perturbed by `jitter`: docs/noise.md) is
drawn one point per configuration at its mean, with error bars of the 95%
Student-t interval (warpsweep.summary).

usage: /usr/bin/python3 analysis/plot_quickstart.py results/quickstart.h5 results/quickstart.png
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import warpsweep  # noqa: E402

METRICS = [("ipc", "IPC (thread instructions / cycle)"),
           ("throughput_per_area", "throughput per area\n(G thread-inst/s/mm²)"),
           ("throughput_per_watt", "throughput per watt\n(G thread-inst/J)")]


def limited(g):
    """rows whose residency is not set by the warp slots"""
    return (g.occupancy_limit.astype(str) != "warps") | (g.resident_warps < g.warps)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, out = sys.argv[1], sys.argv[2]
    df = warpsweep.load(src)
    metrics = METRICS
    if "energy_j" in df:   # ipc x clock / power_w: thread instructions per joule (docs/energy.md)
        df["throughput_per_watt"] = df.thread_insts / df.energy_j / 1e9
    else:                  # a file written before the energy model
        metrics = METRICS[:2]
    conf = warpsweep.configurations(df, [m for m, _ in metrics] + ["resident_warps"])
    ok = conf[conf.divergence == "stack"].copy()
    if ok.empty:
        sys.exit(f"{src}: no point with status ok (statuses: {dict(df.status.value_counts())})")
    schedulers = [s for s in df.scheduler.cat.categories if s in set(ok.scheduler)]
    fig, axes = plt.subplots(len(metrics), len(schedulers), figsize=(4.2 * len(schedulers), 3.3 * len(metrics)), sharex=True,
                             sharey="row", squeeze=False)
    n_limited = 0
    for col, sched in enumerate(schedulers):
        sub = ok[ok.scheduler == sched]
        for row, (metric, label) in enumerate(metrics):
            ax = axes[row][col]
            for i, (lat, g) in enumerate(sub.groupby("mem_latency", observed=True)):
                g = g.sort_values("warps")
                lim = limited(g)
                color = f"C{i}"
                real = g[~lim]
                warpsweep.plot_line(ax, real, "warps", metric, marker="o", color=color, label=f"{lat} cycles")
                if lim.any():
                    # the capped points: hollow, joined to the last real point by a dashed line
                    prev = real.tail(1)
                    capped = g[lim]
                    ax.plot(list(prev.warps) + list(capped.warps), list(prev[metric]) + list(capped[metric]),
                            linestyle="--", color=color, alpha=0.6)
                    ax.plot(capped.warps, capped[metric], marker="o", linestyle="none", markerfacecolor="white",
                            markeredgecolor=color)
                    n_limited += len(capped) if row == 0 else 0
            ax.set_xscale("log", base=2)
            ax.grid(True, alpha=0.3)
            if row == 0:
                ax.set_title(f"scheduler {sched}")
            if row == len(metrics) - 1:
                ax.set_xlabel("warps per core")
            if col == 0:
                ax.set_ylabel(label)
    axes[0][-1].legend(title="memory latency", fontsize=8)
    name = warpsweep.attrs(src).get("sweep_name", "")
    title = f"{name}: latency hiding ({len(df)} points)"
    if "n" in ok:
        title += f", mean of {warpsweep.runs(ok)} perturbed runs, 95% intervals"
    if n_limited:
        caps = ok[limited(ok)]
        why = ", ".join(sorted(set(caps.occupancy_limit.astype(str))))
        title += (f"\nhollow, dashed: resident warps capped below the warp slots ({why}: "
                  f"{int(caps.resident_warps.max())} resident), not an effect of more warps")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=110)
    print(f"wrote {out}; {n_limited} point(s) drawn hollow (residency capped below the warp slots)")
    if "n" in ok:
        print(f"error bars: 95% Student-t intervals of {len(ok)} configurations, {warpsweep.runs(ok)} runs each")


main()
