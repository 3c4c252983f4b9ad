"""Study 1b: throughput per area over warps x regfile_kb, one heat map per
memory latency, the optimum framed.  Cells where the register file cannot hold
all warp slots (occupancy_limit = registers) are register-limited; the optimum lies on
the diagonal where both are balanced.  Prints the optimum per latency.

usage: /usr/bin/python3 analysis/study_latency_regfile.py results/study_latency_regfile.h5 [OUT.png]
       (default OUT: results/study_latency_regfile.png)
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import warpsweep  # noqa: E402


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    src = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else "results/study_latency_regfile.png"
    df = warpsweep.load(src)
    ok = warpsweep.configurations(df)   # with repeats: means, +-95% in each cell (docs/noise.md)
    if ok.empty:
        sys.exit(f"{src}: no point with status ok")
    lats = sorted(ok.mem_latency.unique())
    vmax = ok.throughput_per_area.max()
    fig, axes = plt.subplots(1, len(lats), figsize=(5.2 * len(lats) + 1, 4.8), squeeze=False, layout="constrained")
    rows = []
    for ax, lat in zip(axes[0], lats):
        g = ok[ok.mem_latency == lat]
        piv = g.pivot_table(index="warps", columns="regfile_kb", values="throughput_per_area")
        half = (g.pivot_table(index="warps", columns="regfile_kb", values="throughput_per_area_half")
                if "throughput_per_area_half" in g else None)
        lim = g.assign(reg_limited=(g.occupancy_limit == "registers").astype(int)).pivot_table(
            index="warps", columns="regfile_kb", values="reg_limited")
        im = ax.imshow(piv.values, origin="lower", cmap="viridis", vmin=0, vmax=vmax, aspect="auto")
        ax.set_xticks(range(len(piv.columns)), [str(c) for c in piv.columns])
        ax.set_yticks(range(len(piv.index)), [str(i) for i in piv.index])
        for i in range(len(piv.index)):
            for j in range(len(piv.columns)):
                v = piv.values[i, j]
                mark = "ʳ" if lim.values[i, j] > 0 else ""
                pm = f"\n±{half.values[i, j]:.2f}" if half is not None and np.isfinite(half.values[i, j]) else ""
                ax.text(j, i, f"{v:.2f}{mark}{pm}", ha="center", va="center", fontsize=7,
                        color="white" if v < 0.6 * vmax else "black")
        b = g.loc[g.throughput_per_area.idxmax()]
        bi, bj = list(piv.index).index(b.warps), list(piv.columns).index(b.regfile_kb)
        ax.add_patch(Rectangle((bj - 0.5, bi - 0.5), 1, 1, fill=False, edgecolor="red", linewidth=2.5))
        ax.set_xlabel("regfile_kb")
        ax.set_ylabel("warps (slots)")
        ax.set_title(f"mem_latency {lat}\nbest: {int(b.warps)} warps, {int(b.regfile_kb)} KiB", fontsize=10)
        rows.append(b)
    fig.colorbar(im, ax=axes[0].tolist(), shrink=0.8, label="throughput / area (G thread-inst/s/mm²)")
    name = warpsweep.attrs(src).get("sweep_name", "")
    fig.suptitle(f"{name}: throughput per area (ʳ = register-limited occupancy; red frame = optimum)")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")
    print("mem_latency best_warps best_regfile_kb resident_warps ipc area_mm2 throughput_per_area")
    for b in rows:
        print(f"{b.mem_latency} {int(b.warps)} {int(b.regfile_kb)} {int(b.resident_warps)} {b.ipc:.3f} "
              f"{b.area_mm2:.4f} {b.throughput_per_area:.4f}")


if __name__ == "__main__":
    main()
