"""Properties of the small BFS sweep of tests/e2e/app_bfs.sh, from its HDF5
file with h5py alone, each derived from the workload and the metrics'
definitions (README metrics table, docs/model.md "Steady state and tail"),
none copied from warpsweep's output.

usage: app_bfs_check.py sweep.h5 LAUNCHES REFERENCE_THREAD_INSTS

bfs.yaml: every launch is 16 CTAs of 512 threads (16 warps); with at most 64
warps a core neither registers (18 x 32 rounded to 768 a warp: 5 CTAs in
Volta's 64 K) nor anything else but the warps limit it, so a core holds
F = min(warps / 16, ceil(16 / cores)) CTAs of every launch.
- every point ends ok after LAUNCHES launches (1 + 2 x levels, the levels
  counted from bfs_cost.npy by app_bfs.sh);
- the same thread instructions as the reference run at every point: no
  control flow of the BFS depends on the interleaving (Kernel reads `visited`,
  which only Kernel2 writes; the cost written by several threads of one
  level is the same value);
- resident_ctas = F;
- the grid fills every core iff 16 >= cores * F: then 0 < steady_cycles <=
  cycles, else steady_cycles = steady_ipc = 0 and tail_fraction = 1
  (5 cores x 64 warps: F = 4, 20 > 16);
- tail_fraction = 1 - steady_cycles / cycles; steady_ipc * steady_cycles <=
  thread_insts.
"""
import math
import sys

import h5py

GRID, WARPS_PER_CTA = 16, 16
pts = h5py.File(sys.argv[1], "r")["points"][...]
launches, ref_insts = int(sys.argv[2]), int(sys.argv[3])
errors = []


def s(v):
    return v.decode() if isinstance(v, bytes) else v


def near(a, b, tol=1e-9):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


seen = {True: 0, False: 0}
for r in pts:
    where = "cores %d warps %d %s" % (r["cores"], r["warps"], s(r["scheduler"]))
    if s(r["status"]) != "ok":
        errors.append("%s: status %s: %s" % (where, s(r["status"]), s(r["message"])))
        continue
    if r["launches"] != launches:
        errors.append("%s: %d launches, want %d" % (where, r["launches"], launches))
    if r["thread_insts"] != ref_insts:
        errors.append("%s: thread_insts %d, reference %d" % (where, r["thread_insts"], ref_insts))
    full = min(r["warps"] // WARPS_PER_CTA, math.ceil(GRID / r["cores"]))
    if r["resident_ctas"] != full:
        errors.append("%s: resident_ctas %d, derived %d" % (where, r["resident_ctas"], full))
    cyc, sc, sipc = int(r["cycles"]), int(r["steady_cycles"]), float(r["steady_ipc"])
    fills = GRID >= r["cores"] * full
    seen[fills] += 1
    if fills and not 0 < sc <= cyc:
        errors.append("%s: steady_cycles %d not in (0, cycles %d]" % (where, sc, cyc))
    if not fills and (sc != 0 or sipc != 0 or r["tail_fraction"] != 1):
        errors.append("%s: the grid cannot fill every core, yet steady_cycles %d steady_ipc %g tail_fraction %g"
                      % (where, sc, sipc, r["tail_fraction"]))
    if not near(r["tail_fraction"], 1 - sc / cyc):
        errors.append("%s: tail_fraction %.9f, 1 - steady/cycles = %.9f" % (where, r["tail_fraction"], 1 - sc / cyc))
    if sipc * sc > r["thread_insts"] * (1 + 1e-9):
        errors.append("%s: steady window holds %.0f thread insts of %d" % (where, sipc * sc, r["thread_insts"]))
    print("%s: cycles %d steady %d tail %.3f ipc %.2f steady_ipc %.2f" %
          (where, cyc, sc, r["tail_fraction"], r["ipc"], sipc))

if not seen[True] or not seen[False]:
    errors.append("the sweep needs points with and without a steady state (%d, %d)" % (seen[True], seen[False]))
for e in errors:
    print("FAIL: " + e)
sys.exit(1 if errors else 0)
