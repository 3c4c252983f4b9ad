"""Assertions of study 2 (docs/studies.md) from its HDF5 file, with h5py alone.

usage: study_divergence_check.py study_divergence.h5

- The spin lock (seed, 3.1.2): under the reconvergence stack it deadlocks, under
  convergence barriers it completes (status ok: counter 32, mutex 0 checked by
  the workload's expectations) -- for every scheduler, issue mode and latency.
- Barriers never deadlock where the stack does; no barrier run deadlocks at all;
  every other run is ok.
- The textbook if/else (loads on both paths): the barrier scheme interleaves the
  two paths, so it is faster than the stack in every configuration, with the
  same warp instructions and SIMD efficiency (both schemes issue the same work).
- varloop (a counted loop with per-thread trip counts): under the default
  barrier_yield=spin its back-edge gets no YIELD, so the early leavers wait at
  the loop's WAIT and the warp reconverges at the loop exit like the stack:
  same warp instructions and SIMD efficiency (hand-derived values in
  tests/e2e/core_barrier_yield.py).
"""
import os
import sys

import h5py

pts = h5py.File(sys.argv[1], "r")["points"][...]
KEY = ("scheduler", "issue", "mem_latency")


def s(v):
    return v.decode() if isinstance(v, bytes) else v


by = {}
for r in pts:
    w = os.path.splitext(os.path.basename(s(r["workload"])))[0]
    by[(w, s(r["divergence"])) + tuple(s(r[k]) if isinstance(r[k], bytes) else int(r[k]) for k in KEY)] = r
errors = []
configs = sorted({k[2:] for k in by})
workloads = sorted({k[0] for k in by})
assert "spinlock" in workloads, workloads
for w in workloads:
    for c in configs:
        st, ba = by[(w, "stack") + c], by[(w, "sbi") + c]
        sst, sba = s(st["status"]), s(ba["status"])
        if w == "spinlock":
            if sst != "deadlock" or sba != "ok":
                errors.append("spinlock %s: stack %s, barrier %s (want deadlock, ok)" % (c, sst, sba))
        else:
            if sst != "ok" or sba != "ok":
                errors.append("%s %s: stack %s (%s), barrier %s (%s)" % (w, c, sst, s(st["message"]), sba,
                                                                        s(ba["message"])))
        if sst == "deadlock" and sba == "deadlock":
            errors.append("%s %s: barrier deadlocks where the stack does" % (w, c))
        if sba == "deadlock":
            errors.append("%s %s: barrier deadlock: %s" % (w, c, s(ba["message"])))
        if w == "ifelse" and sst == "ok" and sba == "ok":
            if not ba["cycles"] < st["cycles"]:
                errors.append("ifelse %s: barrier %d cycles, stack %d" % (c, ba["cycles"], st["cycles"]))
            if ba["warp_insts"] != st["warp_insts"] or abs(ba["simd_efficiency"] - st["simd_efficiency"]) > 1e-12:
                errors.append("ifelse %s: warp_insts/simd_efficiency differ between schemes" % (c,))
        if w == "varloop" and sst == "ok" and sba == "ok":
            if ba["warp_insts"] != st["warp_insts"] or abs(ba["simd_efficiency"] - st["simd_efficiency"]) > 1e-12:
                errors.append("varloop %s: barrier %d warp insts, simd %.4f; stack %d, %.4f (no reconvergence "
                              "at the loop exit)" % (c, ba["warp_insts"], ba["simd_efficiency"], st["warp_insts"],
                                                     st["simd_efficiency"]))
if errors:
    sys.exit("FAIL:\n  " + "\n  ".join(errors[:20]))
print("ok: %d workloads x %d configurations; spinlock: stack deadlock, barrier ok in all %d"
      % (len(workloads), len(configs), len(configs)))
