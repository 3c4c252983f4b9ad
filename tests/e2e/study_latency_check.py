"""Assertions of the throughput-per-area studies (docs/studies.md, study 1),
computed from the HDF5 files with h5py alone.

usage: study_latency_check.py study_latency_warps.h5 study_latency_regfile.h5

Expected values, derived independently of the simulator:
- registers: latency_occ uses 10 registers/thread; 10 x 32 = 320 registers per
  warp, rounded up to the allocation unit 256 -> 512 registers = 2 KiB per warp,
  so the derived regfile_kb is 2 x warps and every warp slot can be filled
  (512 CTAs of one warp > any slot count): resident_warps = warps.
- the staggered bound of docs/model.md: W warps saturate the issue slot once
  W >= (L + (n - 1) a) / n with n = 5, a = alu_latency = 4.  Beyond it IPC
  cannot grow while area keeps growing, so the optimum must lie at the first
  grid value at or above the bound or the next one (gto reaches ~99% of peak
  at the bound itself).
- the study's claims: for gto, throughput_per_area has an interior optimum in
  warps at every latency, non-decreasing with latency and strictly larger at the
  largest latency than at the smallest; with regfile_kb as its own axis the
  optimum is the balanced point regfile_kb = 2 KiB x warps, with the same warps.
"""
import sys

import h5py


def rows(path):
    pts = h5py.File(path, "r")["points"][...]
    out = []
    for r in pts:
        d = {n: r[n] for n in pts.dtype.names}
        for k, v in d.items():
            if isinstance(v, bytes):
                d[k] = v.decode()
        out.append(d)
    return out


def fail(msg):
    sys.exit("FAIL: " + msg)


warps_rows, rf_rows = rows(sys.argv[1]), rows(sys.argv[2])
for r in warps_rows + rf_rows:
    if r["status"] != "ok":
        fail("point %d: status %s %s" % (r["point"], r["status"], r["message"]))

# --- 1a: register file sized to the warps
grid_w = sorted({int(r["warps"]) for r in warps_rows})
lats = sorted({int(r["mem_latency"]) for r in warps_rows})
for r in warps_rows:
    if int(r["regfile_kb"]) != 2 * int(r["warps"]):
        fail("derived regfile_kb %d for %d warps, want %d" % (r["regfile_kb"], r["warps"], 2 * r["warps"]))
    if int(r["resident_warps"]) != int(r["warps"]) or r["occupancy_limit"] != "warps":
        fail("warps %d: resident_warps %d occupancy_limit %s, want %d and warps (warp slots)"
             % (r["warps"], r["resident_warps"], r["occupancy_limit"], r["warps"]))

best = {}
for lat in lats:
    g = [r for r in warps_rows if r["scheduler"] == "gto" and int(r["mem_latency"]) == lat]
    b = max(g, key=lambda r: r["throughput_per_area"])
    w = int(b["warps"])
    best[lat] = w
    curve = ", ".join("%d:%.4f" % (int(r["warps"]), r["throughput_per_area"]) for r in sorted(g, key=lambda r: r["warps"]))
    print("gto mem_latency %d: optimum %d warps (throughput_per_area %s)" % (lat, w, curve))
    if w in (grid_w[0], grid_w[-1]):
        fail("mem_latency %d: optimum at the edge of the warps grid (%d)" % (lat, w))
    bound = (lat + 4 * 4) / 5.0
    above = [x for x in grid_w if x >= bound]
    if w not in above[:2]:
        fail("mem_latency %d: optimum %d warps, want one of %s (first grid values >= the staggered bound %.1f)"
             % (lat, w, above[:2], bound))
seq = [best[lat] for lat in lats]
if any(a > b for a, b in zip(seq, seq[1:])):
    fail("optimum warps decreases with latency: %s" % seq)
if not seq[-1] > seq[0]:
    fail("optimum does not move to more warps from L=%d to L=%d: %s" % (lats[0], lats[-1], seq))

# --- 1b: regfile_kb as its own axis
seq_rf = []
for lat in sorted({int(r["mem_latency"]) for r in rf_rows}):
    g = [r for r in rf_rows if int(r["mem_latency"]) == lat]
    ws = sorted({int(r["warps"]) for r in g})
    b = max(g, key=lambda r: r["throughput_per_area"])
    print("regfile axis, mem_latency %d: optimum %d warps, %d KiB, resident %d"
          % (lat, b["warps"], b["regfile_kb"], b["resident_warps"]))
    if int(b["regfile_kb"]) != 2 * int(b["warps"]):
        fail("mem_latency %d: optimum %d warps with %d KiB, want the balanced 2 KiB/warp"
             % (lat, b["warps"], b["regfile_kb"]))
    if int(b["warps"]) in (ws[0], ws[-1]):
        fail("mem_latency %d: optimum at the edge of the warps grid" % lat)
    if lat in best and int(b["warps"]) != best[lat]:
        fail("mem_latency %d: regfile study optimum %d warps != warps study %d" % (lat, b["warps"], best[lat]))
    seq_rf.append(int(b["resident_warps"]))
    # a register file smaller than 2 KiB x warps limits occupancy to regfile_kb / 2 warps
    for r in g:
        want = min(int(r["warps"]), int(r["regfile_kb"]) // 2)
        if int(r["resident_warps"]) != want:
            fail("warps %d regfile_kb %d: resident_warps %d, want %d" % (r["warps"], r["regfile_kb"],
                                                                     r["resident_warps"], want))
        if int(r["regfile_kb"]) // 2 < int(r["warps"]) and r["occupancy_limit"] != "registers":
            fail("warps %d regfile_kb %d: occupancy_limit %s, want registers"
                 % (r["warps"], r["regfile_kb"], r["occupancy_limit"]))
if any(a > b for a, b in zip(seq_rf, seq_rf[1:])) or not seq_rf[-1] > seq_rf[0]:
    fail("regfile study: optimum resident warps do not grow with latency: %s" % seq_rf)
print("ok: optimum warps by latency %s = %s" % (lats, seq))
