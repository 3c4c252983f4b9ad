"""Properties of the small SpMV sweep of tests/e2e/app_spmv.sh, from its HDF5
file with h5py alone, each derived from the definitions (README metrics table,
docs/model.md "Steady state and tail"), none copied from warpsweep's output.

usage: app_spmv_check.py sweep.h5

spmv.yaml: 72 CTAs of 128 threads (4 warps); the sweep sizes the register file
to the warps, so a core holds F = min(warps / 4, ceil(72 / cores)) CTAs (the
second term: the dispatcher's share of a grid smaller than the cores hold).
- resident_ctas = F.
- The grid fills every core at once iff 72 >= cores * F; then the steady state
  exists: 0 < steady_cycles <= cycles; else steady_cycles = steady_ipc =
  steady_cta_rate = 0 and tail_fraction = 1 (e.g. 7 cores x 48 warps: F = 11,
  77 > 72).
- tail_fraction = 1 - steady_cycles / cycles.
- steady_ipc * steady_cycles (the thread instructions of the steady window)
  <= thread_insts.
- steady_cta_rate * steady_cycles / 1000 is a whole number of CTAs, <= 72.
"""
import math
import sys

import h5py

GRID, WARPS_PER_CTA = 72, 4
pts = h5py.File(sys.argv[1], "r")["points"][...]
errors = []


def s(v):
    return v.decode() if isinstance(v, bytes) else v


def near(a, b, tol=1e-9):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


seen_no_steady = seen_steady = 0
for r in pts:
    where = "cores %d warps %d %s" % (r["cores"], r["warps"], s(r["scheduler"]))
    if s(r["status"]) != "ok":
        errors.append("%s: status %s: %s" % (where, s(r["status"]), s(r["message"])))
        continue
    full = min(r["warps"] // WARPS_PER_CTA, math.ceil(GRID / r["cores"]))
    if r["resident_ctas"] != full:
        errors.append("%s: resident_ctas %d, derived %d" % (where, r["resident_ctas"], full))
    cyc, sc, sipc = int(r["cycles"]), int(r["steady_cycles"]), float(r["steady_ipc"])
    if GRID >= r["cores"] * full:
        seen_steady += 1
        if not 0 < sc <= cyc:
            errors.append("%s: steady_cycles %d not in (0, cycles %d]" % (where, sc, cyc))
    else:
        seen_no_steady += 1
        if sc != 0 or sipc != 0 or r["steady_cta_rate"] != 0 or r["tail_fraction"] != 1:
            errors.append("%s: the grid cannot fill every core, yet steady_cycles %d steady_ipc %g "
                          "tail_fraction %g" % (where, sc, sipc, r["tail_fraction"]))
    if not near(r["tail_fraction"], 1 - sc / cyc):
        errors.append("%s: tail_fraction %.9f, 1 - steady/cycles = %.9f" % (where, r["tail_fraction"], 1 - sc / cyc))
    if sipc * sc > r["thread_insts"] * (1 + 1e-9):
        errors.append("%s: steady window holds %.0f thread insts of %d" % (where, sipc * sc, r["thread_insts"]))
    ctas = r["steady_cta_rate"] * sc / 1000
    if not (near(ctas, round(ctas), 1e-6) and round(ctas) <= GRID):
        errors.append("%s: %.6f CTAs finished in the steady window" % (where, ctas))
    print("%s: cycles %d steady %d tail %.3f ipc %.2f steady_ipc %.2f" %
          (where, cyc, sc, r["tail_fraction"], r["ipc"], sipc))

if not seen_steady or not seen_no_steady:
    errors.append("the sweep needs points with and without a steady state (%d, %d)" % (seen_steady, seen_no_steady))
for e in errors:
    print("FAIL: " + e)
sys.exit(1 if errors else 0)
