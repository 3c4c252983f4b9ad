#!/usr/bin/python3
"""Latency hiding (issue 3, seed behaviour 3): closed forms vs the simulator.

Kernel sweeps/kernels/latency.ptx: each warp loops `iters` times over n = 5
instructions: one global load (latency L), then n-1 = 4 ALU instructions each
depending on the one before (latency a).  Blocking issue, one scheduler,
issue width 1, W identical one-warp CTAs launched together.

Closed forms (derived in docs/model.md, independent of the simulator):
  W <= a, any scheduler:  U = W n / (L + (n-1) a)
  lrr (convoy):           U = min(1, W n / (L + (n-1) max(a, W)))
  two_level (active 8), L=100, a=4, n=5: U(W=32) >= 0.9, while lrr ~ 0.7.
  fetch_group (Narasiman et al. 2011), groups of G warps: the active group
  runs its G warps round-robin, G n cycles, and hands over when all of them
  wait on their loads; a group's first load of an iteration issues (n-1)
  rounds into its run, so the group can run again L + (n-1) max(a, G) cycles
  after it started, and W/G groups take W n cycles per round of groups:
                          U = min(1, W n / (L + (n-1) max(a, G)))
  (the lrr convoy is the case G = W: one group).
"""
import json, os, subprocess, sys, tempfile

BIN = os.environ.get("WS_BIN", "build/warpsweep")
SRC = os.environ.get("WS_SOURCE_DIR", ".")
PTX = os.path.join(os.path.abspath(SRC), "sweeps/kernels/latency.ptx")
N = 5
fails = []


def workload(tmp, W, iters):
    path = os.path.join(tmp, "lat_%d_%d.yaml" % (W, iters))
    with open(path, "w") as f:
        f.write("name: lat\nkernel: %s\nentry: latency\ngrid: %d\nblock: 32\nregs_per_thread: 10\n"
                "buffers:\n  one: {type: u32, count: 1, init: 1}\n  out: {type: u32, count: %d, init: 0}\n"
                "params: [one, out, %d]\nexpect:\n  out: %d\n" % (PTX, W, W * 32, iters, iters))
    return path


def run(path, **kv):
    args = [BIN, "sim", path, "--json"]
    base = dict(preset="seed", issue="blocking", schedulers=1, issue_width=1, warps=64, max_ctas=64, cores=1)
    base.update(kv)
    for k, v in base.items():
        args += ["--set", "%s=%s" % (k, v)]
    p = subprocess.run(args, capture_output=True, text=True)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        sys.exit("bad output from %s:\n%s\n%s" % (" ".join(args), p.stdout, p.stderr))
    if j["status"] != "ok":
        fails.append("%s: status %s: %s" % (" ".join(args), j["status"], j.get("message")))
    return j


def check(label, got, want, tol=0.05):
    ok = abs(got - want) <= tol * want
    print("%-48s got %.4f want %.4f %s" % (label, got, want, "ok" if ok else "FAIL"))
    if not ok:
        fails.append("%s: got %.4f, want %.4f (within %d%%)" % (label, got, want, tol * 100))


with tempfile.TemporaryDirectory() as tmp:
    iters = 200
    # W <= a: every scheduler, staggered and convoy bounds coincide
    for L, a in ((100, 4), (400, 8)):
        for sched in ("lrr", "gto", "two_level", "oldest", "swl", "fetch_group", "ccws"):
            for W in range(1, a + 1):
                j = run(workload(tmp, W, iters), scheduler=sched, mem_latency=L, alu_latency=a,
                        swl_limit=64, two_level_active=8)
                want = W * N / (L + (N - 1) * a)
                check("W<=a %s L=%d a=%d W=%d" % (sched, L, a, W), j["issue_utilization"], want)
    # lrr convoy, W = 1..64
    L, a = 100, 4
    for W in range(1, 65):
        j = run(workload(tmp, W, iters), scheduler="lrr", mem_latency=L, alu_latency=a)
        want = min(1.0, W * N / (L + (N - 1) * max(a, W)))
        check("lrr convoy L=%d a=%d W=%d" % (L, a, W), j["issue_utilization"], want)
    # fetch groups break the convoy (G < W), or are it (G = W)
    W = 32
    for G in (2, 4, 8, 16, 32):
        j = run(workload(tmp, W, iters), scheduler="fetch_group", fetch_group_size=G, mem_latency=L, alu_latency=a)
        want = min(1.0, W * N / (L + (N - 1) * max(a, G)))
        check("fetch_group L=%d a=%d W=%d G=%d" % (L, a, W, G), j["issue_utilization"], want)
    # two_level breaks the convoy
    W = 32
    tl = run(workload(tmp, W, iters), scheduler="two_level", two_level_active=8, mem_latency=L, alu_latency=a)
    lrr = run(workload(tmp, W, iters), scheduler="lrr", mem_latency=L, alu_latency=a)
    print("two_level W=32: %.4f   lrr W=32: %.4f" % (tl["issue_utilization"], lrr["issue_utilization"]))
    if tl["issue_utilization"] < 0.9:
        fails.append("two_level at W=32: %.4f < 0.9" % tl["issue_utilization"])
    if not (0.6 <= lrr["issue_utilization"] <= 0.8):
        fails.append("lrr at W=32: %.4f not near 0.7" % lrr["issue_utilization"])

if fails:
    print("\n".join(["FAIL: " + f for f in fails]))
    sys.exit(1)
print("latency hiding: all closed forms hold")
