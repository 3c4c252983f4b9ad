"""Assertions of study 2 (docs/studies.md) from its HDF5 file, with h5py alone.

usage: study_divergence_check.py study_divergence.h5

- The spin lock (seed, 3.1.2): the schemes with a reconvergence stack's SIMT
  deadlock (stack, multipath, dualpath, tbc: the winner waits at the IPDOM for
  the spinners; ElTantawy and Aamodt, MICRO 2016) deadlock; sbi, barrier and aware
  complete (status ok: counter 32, mutex 0 checked by the workload's
  expectations) -- for every scheduler, issue mode and latency.
- sbi, barrier and aware never deadlock; every other run is ok.
- The textbook if/else (loads on both paths): sbi, multipath, dualpath and
  aware overlap the two paths' loads, so they are faster than the stack in
  every configuration; barrier runs one path after the other and pays an issue
  slot for each ADD/WAIT, so it is never faster; every scheme issues the same
  warp instructions at the same SIMD efficiency.
- varloop (a counted loop with per-thread trip counts): stack, sbi, barrier,
  multipath and dualpath reconverge at the loop exit: same warp instructions
  and SIMD efficiency (aware's timeout may release early leavers).
- tbc (thread block compaction): on a CTA of one warp (ifelse, spinlock) it
  is the stack, cycle for cycle under scoreboard issue (blocking issue holds
  only the issuing threads, the stack the whole warp: never slower); on varloop and tbchalf (two warps) it
  compacts: fewer warp instructions than the stack (tbchalf: 61 instead of 74,
  docs/model.md), the same thread instructions, a higher SIMD efficiency.
"""
import os
import sys

import h5py

pts = h5py.File(sys.argv[1], "r")["points"][...]
KEY = ("scheduler", "issue", "mem_latency")
DEADLOCK_ON_LOCK = ("stack", "multipath", "dualpath", "tbc")
ITS = ("sbi", "barrier", "aware")
OVERLAP = ("sbi", "multipath", "dualpath", "aware")
SAME_LOOP = ("sbi", "barrier", "multipath", "dualpath")


def s(v):
    return v.decode() if isinstance(v, bytes) else v


by = {}
for r in pts:
    w = os.path.splitext(os.path.basename(s(r["workload"])))[0]
    by[(w, s(r["divergence"])) + tuple(s(r[k]) if isinstance(r[k], bytes) else int(r[k]) for k in KEY)] = r
errors = []
configs = sorted({k[2:] for k in by})
workloads = sorted({k[0] for k in by})
schemes = sorted({k[1] for k in by})
assert "spinlock" in workloads and set(DEADLOCK_ON_LOCK + ITS) <= set(schemes), (workloads, schemes)
for w in workloads:
    for c in configs:
        st = by[(w, "stack") + c]
        for d in schemes:
            r = by[(w, d) + c]
            status = s(r["status"])
            want = "deadlock" if (w == "spinlock" and d in DEADLOCK_ON_LOCK) else "ok"
            if status != want:
                errors.append("%s %s %s: %s (want %s): %s" % (w, d, c, status, want, s(r["message"])[:160]))
            if status != "ok" or s(st["status"]) != "ok" or d == "stack":
                continue
            same = r["warp_insts"] == st["warp_insts"] and abs(r["simd_efficiency"] - st["simd_efficiency"]) < 1e-12
            if w == "ifelse":
                if d in OVERLAP and not r["cycles"] < st["cycles"]:
                    errors.append("ifelse %s %s: %d cycles, stack %d" % (d, c, r["cycles"], st["cycles"]))
                if d == "barrier" and r["cycles"] < st["cycles"]:
                    errors.append("ifelse barrier %s: %d cycles < stack %d" % (c, r["cycles"], st["cycles"]))
                if not same:
                    errors.append("ifelse %s %s: warp_insts/simd_efficiency differ from the stack" % (d, c))
            if d == "tbc":
                # one warp: the stack's issue order; blocking issue holds only the
                # issuing threads (the stack: the whole warp), never later
                if w == "ifelse" and (r["cycles"] > st["cycles"] or (c[1] == "scoreboard" and r["cycles"] != st["cycles"])):
                    errors.append("ifelse tbc %s: %d cycles, stack %d (one warp: equal, blocking: <=)" % (
                        c, r["cycles"], st["cycles"]))
                if w in ("varloop", "tbchalf") and not (r["warp_insts"] < st["warp_insts"] and
                                                        r["thread_insts"] == st["thread_insts"] and
                                                        r["simd_efficiency"] > st["simd_efficiency"]):
                    errors.append("%s tbc %s: %d warp insts (stack %d), no compaction" % (
                        w, c, r["warp_insts"], st["warp_insts"]))
                if w == "tbchalf" and (r["warp_insts"], st["warp_insts"]) != (61, 74):
                    errors.append("tbchalf %s: warp insts tbc %d, stack %d (want 61, 74)" % (
                        c, r["warp_insts"], st["warp_insts"]))
            if w == "varloop" and d in SAME_LOOP and not same:
                errors.append("varloop %s %s: %d warp insts, simd %.4f; stack %d, %.4f" % (
                    d, c, r["warp_insts"], r["simd_efficiency"], st["warp_insts"], st["simd_efficiency"]))
if errors:
    sys.exit("FAIL (%d):\n  " % len(errors) + "\n  ".join(errors[:30]))
print("ok: %d workloads x %d configurations x %d schemes; spinlock: %s deadlock, %s ok in all %d"
      % (len(workloads), len(configs), len(schemes), "/".join(DEADLOCK_ON_LOCK), "/".join(ITS), len(configs)))
