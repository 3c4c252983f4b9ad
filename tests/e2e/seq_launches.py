#!/usr/bin/env python3
"""Issue 16, launch sequences: the workloads of tests/kernels/seq (repeat
loops, a two-kernel ping-pong, an until loop, a two-kernel BFS level loop)
on the cycle-level core under several configurations and on the reference,
then the timing of kernel boundaries and the caches across them.

Everything expected is computed here, independently of warpsweep: the
buffers' final values by replaying the host loop and the kernels in Python
(a BFS over the edge list, halvings until zero, 2a + 1 rounds), the launch
order (names, loop iterations) from the sequence's structure, and the
timing relation that must hold exactly under preset=seed, where memory has
a fixed latency and no state: a sequence's cycles are the sum of its
launches' cycles run alone plus launch_overhead between consecutive ones.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

WS = os.environ["WS_BIN"]
SRC = os.environ["WS_SOURCE_DIR"]
K = os.path.join(SRC, "tests/kernels/seq")
failures = []
INF = 0xFFFFFFFF


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def sim(path, sets=(), extra=()):
    args = [WS, "sim", path, "--json"] + [a for s in sets for a in ("--set", s)] + list(extra)
    p = subprocess.run(args, capture_output=True, text=True)
    try:
        return json.loads(p.stdout), p.stderr
    except json.JSONDecodeError:
        return {"status": "no-json", "message": p.stdout + p.stderr}, p.stderr


def dumped(stderr):
    """--dump with --json prints the buffer's values, comma separated, on stderr."""
    for line in stderr.splitlines():
        if "," in line or line.strip().isdigit():
            return [int(v) for v in line.split(",")]
    return None


# ---- expected results, independently ----
def bfs_expected():
    edges = [(0, 1), (0, 2), (1, 3), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)]
    n = 9
    adj = {v: [] for v in range(n)}
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    dist = [INF] * n
    dist[0] = 0
    frontier, level = [0], 0
    while frontier:
        nxt = [u for v in frontier for u in adj[v] if dist[u] == INF]
        for u in nxt:
            dist[u] = level + 1
        frontier = sorted(set(nxt))
        level += 1
    # the host loop runs one iteration per level, the last one labelling nothing
    return dist, level


def halve_expected(values, max_iter):
    it = 0
    while True:
        values = [v >> 1 for v in values]
        it += 1
        if not any(values) or it == max_iter:
            return values, it


bfs_dist, bfs_levels = bfs_expected()
halve_a, halve_iters = halve_expected(list(range(0, 1001, 10)), 64)
pp_a, pp_b = list(range(64)), [0] * 64
for _ in range(4):
    pp_b = [2 * x for x in pp_a]
    pp_a = [x + 1 for x in pp_b]

WORKLOADS = {
    # name: (launches, names, innermost-loop iterations, buffer to dump, its values)
    "repeat": (13, ["first"] + ["inc"] * 12, [0] + [0, 1, 2, 3] * 3, "a", [i + 13 for i in range(100)]),
    "pingpong": (8, ["dbl", "inc1"] * 4, [i // 2 for i in range(8)], "a", pp_a),
    "halve": (halve_iters, ["halve"] * halve_iters, list(range(halve_iters)), "a", halve_a),
    "bfs": (2 * bfs_levels, ["expand", "advance"] * bfs_levels, [i // 2 for i in range(2 * bfs_levels)], "dist",
            bfs_dist),
}
check(halve_iters == 10 and bfs_levels == 7, "the models agree with the workloads' comments (10 halvings, 7 levels)")

CONFIGS = [[], ["preset=seed"], ["cores=2", "scheduler=gto", "warps=16"], ["divergence=barrier", "inst_order=ptxas"],
           ["preset=seed", "launch_overhead=0"]]

for w, (n, names, iters, buf, want) in WORKLOADS.items():
    path = os.path.join(K, w + ".yaml")
    for cfg in CONFIGS:
        tag = "%s [%s]" % (w, " ".join(cfg) or "defaults")
        d, err = sim(path, cfg, ("--dump", buf))
        check(d.get("status") == "ok", "%s: status ok (%s)" % (tag, d.get("message")))
        check(d.get("launches") == n, "%s: %d launches (got %s)" % (tag, n, d.get("launches")))
        check(dumped(err) == want, "%s: final %s as computed here" % (tag, buf))
        pl = d.get("per_launch", [])
        check([l["name"] for l in pl] == names, "%s: launch order %s" % (tag, names[:4]))
        check([l["iteration"] for l in pl] == iters, "%s: loop iterations" % tag)
        ov = d.get("launch_overhead")
        ok = len(pl) == n and pl[0]["start"] == 0
        for a, b in zip(pl, pl[1:]):
            ok = ok and b["start"] == a["start"] + a["cycles"] + ov
        check(ok, "%s: each launch starts launch_overhead=%s after the previous one ends" % (tag, ov))
        check(pl and d["cycles"] == pl[-1]["start"] + pl[-1]["cycles"], "%s: cycles = end of the last launch" % tag)
        check(sum(l["thread_insts"] for l in pl) == d.get("thread_insts") and
              sum(l["warp_insts"] for l in pl) == d.get("warp_insts"), "%s: per-launch instructions sum to the totals" % tag)
    r, err = sim(path, (), ("--reference", "--dump", buf))
    check(r.get("status") == "ok" and r.get("launches") == n, "%s: the reference follows the sequence (%s launches, %s)"
          % (w, r.get("launches"), r.get("message")))
    check(dumped(err) == want, "%s: the reference's final %s as computed here" % (w, buf))

tmp = tempfile.mkdtemp()


def write(name, text):
    p = os.path.join(tmp, name)
    with open(p, "w") as f:
        f.write(text)
    return p


PTX = os.path.join(K, "pingpong.ptx")
BUFS = "buffers:\n  a: {type: u32, count: 64, init: iota}\n  b: {type: u32, count: 64, init: 0}\n"
LA = "{entry: dbl, grid: 1, block: 64, params: [a, b, 64], regs_per_thread: 10}"
LB = "{entry: inc1, grid: 1, block: 64, params: [b, a, 64], regs_per_thread: 10}"
one_a = write("a.yaml", "kernel: %s\nentry: dbl\ngrid: 1\nblock: 64\nregs_per_thread: 10\nparams: [a, b, 64]\n%s"
              % (PTX, BUFS))
one_b = write("b.yaml", "kernel: %s\nentry: inc1\ngrid: 1\nblock: 64\nregs_per_thread: 10\nparams: [b, a, 64]\n%s"
              % (PTX, BUFS))
seq_ab = write("ab.yaml", "kernel: %s\n%slaunches:\n  - %s\n  - %s\n" % (PTX, BUFS, LA, LB))
seq_aab = write("aab.yaml", "kernel: %s\n%slaunches:\n  - loop: {repeat: 2, body: [%s]}\n  - %s\n" % (PTX, BUFS, LA, LB))

# ---- timing under preset=seed: no memory state, so the launches add up exactly ----
for cfg in (["preset=seed"], ["preset=seed", "cores=2", "schedulers=2"], ["preset=seed", "scheduler=gto"]):
    for ov in (0, 777):
        sets = cfg + ["launch_overhead=%d" % ov]
        tag = "%s overhead %d" % (" ".join(cfg), ov)
        a, _ = sim(one_a, sets)
        b, _ = sim(one_b, sets)
        ab, _ = sim(seq_ab, sets)
        aab, _ = sim(seq_aab, sets)
        check(all(x.get("status") == "ok" for x in (a, b, ab, aab)), "%s: every run ok" % tag)
        check(ab["cycles"] == a["cycles"] + ov + b["cycles"],
              "%s: cycles(dbl; inc1) %s = cycles(dbl) %s + overhead + cycles(inc1) %s" % (tag, ab["cycles"], a["cycles"],
                                                                                         b["cycles"]))
        check(aab["cycles"] == 2 * a["cycles"] + 2 * ov + b["cycles"], "%s: cycles(dbl; dbl; inc1) = 2 dbl + inc1 + 2 "
              "overheads" % tag)
        check([l["cycles"] for l in ab["per_launch"]] == [a["cycles"], b["cycles"]],
              "%s: each launch takes its cycles run alone" % tag)
        slots = ab["cores"] * ab["schedulers"] * ab["issue_width"]
        check(ab["idle_empty"] == a["idle_empty"] + b["idle_empty"] + ov * slots,
              "%s: the overhead's issue slots are idle_empty (%d slots per cycle)" % (tag, slots))
        check(ab["thread_insts"] == a["thread_insts"] + b["thread_insts"], "%s: thread_insts add up" % tag)

# ---- the caches across a kernel boundary: dbl twice on one core ----
# dbl reads a[0..63]: 2 warps x one 128-byte line. Launch 1 misses both lines
# in the L1 and the L2 (the write-through L1 does not allocate b's stores).
# Launch 2: without an L1 flush both lines hit the L1 (1/2 of all L1 line
# requests, none reach the L2); with it they miss the L1 and hit the L2 (1/2
# of the L2's read requests) unless the L2 is flushed too.
seq_aa = write("aa.yaml", "kernel: %s\n%slaunches:\n  - loop: {repeat: 2, body: [%s]}\n" % (PTX, BUFS, LA))
for f1, f2, l1, l2 in ((0, 0, 0.5, 0.0), (1, 0, 0.0, 0.5), (1, 1, 0.0, 0.0), (0, 1, 0.5, 0.0)):
    d, _ = sim(seq_aa, ["cores=1", "flush_l1=%d" % f1, "flush_l2=%d" % f2])
    check(d.get("status") == "ok" and d.get("l1_hit_rate") == l1 and d.get("l2_hit_rate") == l2,
          "flush_l1=%d flush_l2=%d: l1_hit_rate %s (want %s), l2_hit_rate %s (want %s)"
          % (f1, f2, d.get("l1_hit_rate"), l1, d.get("l2_hit_rate"), l2))

# ---- an until loop that reaches max ends there: not an error, the expects decide ----
a4, _ = halve_expected(list(range(0, 1001, 10)), 4)
h4 = open(os.path.join(K, "halve.yaml")).read().replace("max: 64", "max: 4").replace("kernel: halve.ptx",
                                                                                      "kernel: " + K + "/halve.ptx")
h4 = h4[:h4.index("expect:")] + "expect:\n  a: [%s]\n  any: 1\n  iters: 4\n" % ", ".join(map(str, a4))
d, _ = sim(write("h4.yaml", h4))
check(d.get("status") == "ok" and d.get("launches") == 4, "until loop ending at max: 4 launches, ok (%s)" % d.get("message"))

# ---- expect: reference over a sequence compares with the reference's final memory ----
bref = open(os.path.join(K, "bfs.yaml")).read().replace("kernel: bfs.ptx", "kernel: " + K + "/bfs.ptx")
bref = bref[:bref.index("expect:")] + "expect:\n  dist: reference\n  level: reference\n"
d, _ = sim(write("bref.yaml", bref), ["cores=2"])
check(d.get("status") == "ok" and d.get("work_ipc", 0) > 0, "bfs with expect: reference: ok, work_ipc from the "
      "reference's sequence (%s)" % d.get("message"))

# ---- trace and timeline name the launch ----
trace = os.path.join(tmp, "t.csv")
d, err = sim(os.path.join(K, "pingpong.yaml"), ["preset=seed"], ("--trace", trace, "--timeline"))
rows = open(trace).read().splitlines()
check(rows[0].split(",")[-1] == "launch", "trace header ends with launch")
per = {}
for r in rows[1:]:
    per[int(r.split(",")[-1])] = per.get(int(r.split(",")[-1]), 0) + 1
check(per == {i: l["warp_insts"] for i, l in enumerate(d["per_launch"])},
      "trace: the rows of launch i are launch i's warp instructions")
heads = [l for l in err.splitlines() if l.startswith("launch ")]
check(len(heads) == 8 and heads[1].startswith("launch 1: inc1 (iteration 0)"), "timeline: a header line per launch")

# ---- a sweep (-j 2) stores the totals and launches in its rows, as `sim` reports them ----
sw = write("sweep.yaml", "name: seqsweep\nworkload: %s\ngrid:\n  warps: [4, 16]\n  flush_l1: [0, 1]\n"
           % os.path.join(K, "bfs.yaml"))
h5 = os.path.join(tmp, "o.h5")
p = subprocess.run([WS, "run", sw, "-o", h5, "-j", "2"], capture_output=True, text=True)
check(p.returncode == 0, "sweep over a sequence workload runs (%s)" % p.stderr.strip()[-200:])
try:
    import h5py
    with h5py.File(h5) as f:
        rows = f["points"][()]
    for row in rows:
        d, _ = sim(os.path.join(K, "bfs.yaml"), ["warps=%d" % row["warps"], "flush_l1=%d" % row["flush_l1"]])
        check(row["launches"] == 2 * bfs_levels and row["cycles"] == d["cycles"] and row["status"] == b"ok",
              "sweep row warps=%d flush_l1=%d: launches %d, cycles as sim" % (row["warps"], row["flush_l1"],
                                                                             row["launches"]))
    check(len(rows) == 4, "sweep: 4 rows")
except ImportError:
    print("skip h5py not installed")

shutil.rmtree(tmp, ignore_errors=True)
print("%d failures" % len(failures))
sys.exit(1 if failures else 0)
