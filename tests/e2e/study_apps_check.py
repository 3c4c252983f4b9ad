"""Assertions of study 5 (docs/studies.md, "Tail or steady state") from the
HDF5 file of sweeps/app_spmv.yaml or sweeps/app_bfs.yaml, with h5py alone.

usage: study_apps_check.py FILE.h5 [--same CORES,...] [--tail-explains CORES,...]

For each core count, the best point (scheduler, warps) by whole-run ipc and the
best by steady_ipc (the ipc of the cycles in which every core holds its full
complement of CTAs) are printed. Asserted:
- every point ends ok (the workload's expect holds at every point);
- the two answers differ for at least one core count, unless --same names every
  core count of the file (issue 16: the SpMV's sweep changes its answer between
  the figures; the BFS's agrees everywhere since model version 6);
- for the core counts given with --same the two answers agree, for those given
  with --tail-explains they differ and the steady-state winner has the larger
  tail_fraction: it loses the whole-run ranking in its tail, not in its steady
  state (the study says which).
"""
import sys

import h5py

pts = h5py.File(sys.argv[1], "r")["points"][...]


def cores_list(flag):
    if flag not in sys.argv:
        return set()
    return {int(c) for c in sys.argv[sys.argv.index(flag) + 1].split(",")}


same, tail_explains = cores_list("--same"), cores_list("--tail-explains")
errors = []


def s(v):
    return v.decode() if isinstance(v, bytes) else v


by_cores = {}
for r in pts:
    if s(r["status"]) != "ok":
        errors.append("point %d: status %s: %s" % (r["point"], s(r["status"]), s(r["message"])))
    by_cores.setdefault(int(r["cores"]), []).append(r)


def name(r):
    return "%s %d warps" % (s(r["scheduler"]), r["warps"])


differ = 0
for cores, rows in sorted(by_cores.items()):
    a = max(rows, key=lambda r: r["ipc"])
    b = max(rows, key=lambda r: r["steady_ipc"])
    print("cores %d: best ipc %s (ipc %.2f steady_ipc %.2f tail %.3f); best steady_ipc %s "
          "(ipc %.2f steady_ipc %.2f tail %.3f)" % (cores, name(a), a["ipc"], a["steady_ipc"],
          a["tail_fraction"], name(b), b["ipc"], b["steady_ipc"], b["tail_fraction"]))
    differ += name(a) != name(b)
    if cores in same and name(a) != name(b):
        errors.append("cores %d: the answers differ, the study says they agree" % cores)
    if cores in tail_explains and not (name(a) != name(b) and b["tail_fraction"] > a["tail_fraction"]):
        errors.append("cores %d: the answers agree or the steady winner's tail %.3f is not above the "
                      "ipc winner's %.3f" % (cores, b["tail_fraction"], a["tail_fraction"]))
for c in same | tail_explains:
    if c not in by_cores:
        errors.append("the file has no point with %d cores" % c)
if not differ and not set(by_cores) <= same:
    errors.append("the best point by ipc and by steady_ipc agree at every core count")
for e in errors:
    print("FAIL: " + e)
sys.exit(1 if errors else 0)
