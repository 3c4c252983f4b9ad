"""The noise study of docs/noise.md on the shipped attention tile
(sweeps/kernels/attn_tile.yaml, scheduler gto, divergence stack): runs three
sweeps with the given warpsweep and draws docs/figures/noise.png.

  (a) chaos: mem_latency 90..110 one cycle apart, no jitter: the cycles move
      non-monotonically by more than the latency change explains; and every
      second latency with jitter 4 and 8 seeds: the means with 95% intervals;
  (b) replicates: jitter 4, seeds 0..31; the 95% Student-t half-width of the
      first R seeds for R = 2..32 (warpsweep.summary's formula), against
      t(0.975, R - 1) s / sqrt(R) with s the standard deviation of all 32;
  (c) jitter 0, 1, 2, 4, 8, 16, 32 with 16 seeds each: the run-to-run standard
      deviation and the mean's shift from the unperturbed run.

Prints the tables docs/noise.md quotes.

usage: /usr/bin/python3 analysis/noise_study.py [BUILD_DIR] [OUT.png]
       (defaults: build, docs/figures/noise.png)
"""
import math
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import warpsweep  # noqa: E402

SRC = os.path.dirname(HERE)
WORKLOAD = os.path.join(SRC, "sweeps", "kernels", "attn_tile.yaml")
BASE = "  scheduler: gto\n  divergence: stack\n"


def run(binary, tmp, name, body):
    path = os.path.join(tmp, name + ".yaml")
    with open(path, "w") as f:
        f.write(f"name: {name}\nworkload: {WORKLOAD}\nbase:\n{BASE}{body}")
    out = os.path.join(tmp, name + ".h5")
    subprocess.run([binary, "run", path, "-o", out, "-j", "2", "--quiet"], check=True,
                   env=dict(os.environ, WS_PTXAS=""))
    df = warpsweep.load(out)
    bad = df[df.status.astype(str) != "ok"]
    if len(bad):
        sys.exit(f"{name}: {len(bad)} rows not ok: {bad.message.iloc[0]}")
    return df


def half(v):
    return stats.t.ppf(0.975, len(v) - 1) * np.std(v, ddof=1) / math.sqrt(len(v))


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(SRC, "build")
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(SRC, "docs", "figures", "noise.png")
    binary = os.path.join(build, "warpsweep")
    with tempfile.TemporaryDirectory() as tmp:
        chaos = run(binary, tmp, "noise_chaos", "grid:\n  mem_latency: {from: 90, to: 110, step: 1}\n")
        smooth = run(binary, tmp, "noise_smooth", "  jitter: 4\ngrid:\n  mem_latency: {from: 90, to: 110, step: 2}\n"
                                                  "repeat: 8\n")
        reps = run(binary, tmp, "noise_repeats", "  jitter: 4\nrepeat: 32\n")
        jit = run(binary, tmp, "noise_jitter", "grid:\n  jitter: [0, 1, 2, 4, 8, 16, 32]\nrepeat: 16\n")
    chaos = chaos.sort_values("mem_latency")
    c = chaos.cycles.to_numpy(dtype=float)
    step = np.diff(c)
    print("(a) cycles at mem_latency 90..110, jitter 0:")
    print("    " + " ".join(f"{int(l)}:{int(x)}" for l, x in zip(chaos.mem_latency, c)))
    print(f"    range {c.min():.0f}..{c.max():.0f} ({100 * (c.max() - c.min()) / c.mean():.2f}% of the mean); "
          f"{int((step < 0).sum())} of {len(step)} one-cycle steps make it faster; "
          f"largest step {np.abs(step).max():.0f} cycles")
    sm = warpsweep.summary(smooth, ["cycles"]).sort_values("mem_latency")
    print("    jitter 4, 8 seeds: " + " ".join(f"{int(r.mem_latency)}:{r.cycles:.0f}+-{r.cycles_half:.0f}"
                                                 for r in sm.itertuples()))
    fit = np.polyfit(sm.mem_latency, sm.cycles, 1)
    print(f"    least-squares slope of the means: {fit[0]:.0f} cycles per cycle of mem_latency")
    v = reps.sort_values("seed").cycles.to_numpy(dtype=float)
    s_all = np.std(v, ddof=1)
    print(f"(b) jitter 4, 32 seeds: mean {v.mean():.0f}, sd {s_all:.0f} ({100 * s_all / v.mean():.2f}%)")
    rs = list(range(2, len(v) + 1))
    hw = [half(v[:r]) for r in rs]
    model = [stats.t.ppf(0.975, r - 1) * s_all / math.sqrt(r) for r in rs]
    print("    R  half-width(first R)  t s/sqrt(R)  (% of the mean)")
    for r in (2, 3, 4, 6, 8, 12, 16, 24, 32):
        print(f"    {r:2d} {hw[r - 2]:10.0f} ({100 * hw[r - 2] / v.mean():.2f}%) {model[r - 2]:10.0f} "
              f"({100 * model[r - 2] / v.mean():.2f}%)")
    base = float(jit[jit.jitter == 0].cycles.iloc[0])
    print(f"(c) jitter  sd  sd%  mean-shift%   (unperturbed: {base:.0f} cycles)")
    rows = []
    for j, g in jit.groupby("jitter"):
        x = g.cycles.to_numpy(dtype=float)
        rows.append((j, np.std(x, ddof=1), x.mean()))
        print(f"    {int(j):3d} {rows[-1][1]:7.0f} {100 * rows[-1][1] / base:5.2f} {100 * (x.mean() - base) / base:+7.2f}")

    fig, ax = plt.subplots(1, 3, figsize=(16, 4.6), layout="constrained")
    ax[0].plot(chaos.mem_latency, c, marker="o", label="jitter 0 (one run each)")
    warpsweep.plot_line(ax[0], sm, "mem_latency", "cycles", marker="s", color="C1",
                        label="jitter 4: mean of 8 seeds, 95% interval")
    ax[0].set_xlabel("mem_latency (cycles)")
    ax[0].set_ylabel("cycles")
    ax[0].set_title("(a) chaos: one cycle of latency moves the\nkernel by up to %.0f cycles, either way"
                    % np.abs(step).max(), fontsize=10)
    ax[0].legend(fontsize=8)
    ax[1].plot(rs, 100 * np.array(hw) / v.mean(), marker="o", label="95% half-width of the first R seeds")
    ax[1].plot(rs, 100 * np.array(model) / v.mean(), color="gray", label="t(0.975, R-1) s / sqrt(R), s of all 32")
    ax[1].set_xlabel("R (perturbed runs)")
    ax[1].set_ylabel("95% half-width (% of the mean cycles)")
    ax[1].set_title("(b) the interval shrinks as t/sqrt(R)", fontsize=10)
    ax[1].set_yscale("log")
    ax[1].legend(fontsize=8)
    js = [r[0] for r in rows if r[0] > 0]
    ax[2].plot(js, [100 * r[1] / base for r in rows if r[0] > 0], marker="o", label="sd of 16 seeds")
    ax[2].plot(js, [100 * (r[2] - base) / base for r in rows if r[0] > 0], marker="s",
               label="mean shift from jitter 0")
    ax[2].axhline(0, color="gray", lw=0.8)
    ax[2].set_xscale("log", base=2)
    ax[2].set_xlabel("jitter (cycles)")
    ax[2].set_ylabel("% of the unperturbed cycles")
    ax[2].set_title("(c) the spread is the chaos's, not the jitter's:\nflat in jitter; the mean shifts with it", fontsize=10)
    ax[2].legend(fontsize=8)
    fig.suptitle("attn_tile (gto, stack): the model's chaos and perturbed repeats (docs/noise.md)")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
