"""Assertions of study 3 (docs/studies.md) from its HDF5 file, with h5py alone.

usage: study_sched_l1_check.py study_sched_l1.h5

cachesens: 16 warps, each re-reading its own 2 KiB slice (16 lines of 128 B)
8 times.  Derived by hand (l1_ways 4, LRU):
- l1_kb = 8 holds 4 slices.  swl with swl_limit = 4 keeps 4 warps active, so
  each slice is fetched once and re-read 7 times: hit rate 7/8.  lrr issues
  from all 16 warps in turn: 32 KiB of cyclic traffic through an 8 KiB LRU
  cache evicts every line before its reuse: hit rate 0.
- l1_kb = 64 holds all 16 slices: every scheduler hits 7/8.
- With limited DRAM bandwidth (dram_bw > 0), swl 4 at l1_kb 8 and 16 moves 1/8
  of lrr's DRAM bytes, so it must reach a higher IPC than lrr (the study's claim:
  a small swl limit ahead of lrr on the cache-sensitive kernel).
- ccws (docs/model.md): without an L1 (l1_kb 0) there are no L1 events, and at
  l1_kb 32 and 64 nothing is evicted (32 KiB, 4 ways, 128 B lines = 64 sets of
  4; slice w holds lines 16w..16w+15, so each set receives exactly 4 of the 256
  lines): no VTA ever holds a tag, no warp is throttled and ccws runs exactly
  as gto (same cycles).  At l1_kb 8 and 16 all 16 warps start unthrottled and
  stream their first pass together (32 KiB through a smaller LRU cache: no line
  survives to its reuse, as lrr's hit rate 0 shows); lost locality is detected
  only from then on, so every line misses at least twice: hit rate <= 6/8.
  The ratio ccws / best swl IPC is printed (docs/studies.md states it).
"""
import sys

import h5py

pts = h5py.File(sys.argv[1], "r")["points"][...]


def s(v):
    return v.decode() if isinstance(v, bytes) else v


tab = {}
for r in pts:
    if s(r["status"]) != "ok":
        sys.exit("FAIL: point %d status %s: %s" % (r["point"], s(r["status"]), s(r["message"])))
    sched = s(r["scheduler"])
    name = "swl%d" % r["swl_limit"] if sched == "swl" else sched
    tab[(name, float(r["dram_bw"]), int(r["l1_kb"]))] = r

errors = []
bws = sorted({k[1] for k in tab})
for bw in bws:
    lrr8, swl8 = tab[("lrr", bw, 8)], tab[("swl4", bw, 8)]
    if abs(swl8["l1_hit_rate"] - 7 / 8) > 0.01 or abs(lrr8["l1_hit_rate"]) > 0.01:
        errors.append("dram_bw %g l1_kb 8: hit rates swl4 %.3f (want 0.875), lrr %.3f (want 0)"
                      % (bw, swl8["l1_hit_rate"], lrr8["l1_hit_rate"]))
    for name in ("lrr", "gto", "swl2", "swl4", "swl8"):
        h = tab[(name, bw, 64)]["l1_hit_rate"]
        if abs(h - 7 / 8) > 0.01:
            errors.append("dram_bw %g l1_kb 64 %s: hit rate %.3f, want 0.875" % (bw, name, h))
    if bw > 0:
        for l1 in (8, 16):
            a, b = tab[("swl4", bw, l1)]["ipc"], tab[("lrr", bw, l1)]["ipc"]
            print("dram_bw %g l1_kb %d: ipc swl4 %.3f lrr %.3f (x%.2f)" % (bw, l1, a, b, a / b))
            if not a > b:
                errors.append("dram_bw %g l1_kb %d: swl4 ipc %.3f not above lrr %.3f" % (bw, l1, a, b))
    if any(k[0] == "ccws" for k in tab):
        for l1 in (0, 32, 64):
            c, g = tab[("ccws", bw, l1)], tab[("gto", bw, l1)]
            if c["cycles"] != g["cycles"]:
                errors.append("dram_bw %g l1_kb %d: ccws %d cycles, gto %d (nothing can be throttled)"
                              % (bw, l1, c["cycles"], g["cycles"]))
        for l1 in (8, 16):
            h = tab[("ccws", bw, l1)]["l1_hit_rate"]
            if h > 6 / 8 + 0.01:
                errors.append("dram_bw %g l1_kb %d: ccws hit rate %.3f above the reactive bound 6/8" % (bw, l1, h))
        for l1 in (4, 8, 16, 32):
            best = max(tab[("swl%d" % n, bw, l1)]["ipc"] for n in (2, 4, 8))
            c = tab[("ccws", bw, l1)]["ipc"]
            print("dram_bw %g l1_kb %d: ipc ccws %.3f, best swl %.3f (%.0f%%)" % (bw, l1, c, best, 100 * c / best))
    else:
        errors.append("the sweep has no ccws point")
if not any(bw > 0 for bw in bws):
    errors.append("the sweep has no limited dram_bw")
if errors:
    sys.exit("FAIL:\n  " + "\n  ".join(errors))
print("ok: swl 4 ahead of lrr with limited DRAM bandwidth; hit rates 7/8 vs 0 at 8 KiB")
