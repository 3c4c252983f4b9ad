#!/usr/bin/env python3
"""Launch start, CTA dispatch and drain (params launch_start, launch_drain,
cta_launch_interval; docs/model.md "Launch start, dispatch and drain").

Under preset=seed memory has a fixed latency and no state, so a launch's
timing does not depend on when it runs, and every relation below is exact
(derived here, not read from warpsweep):
  - launch_start S and launch_drain D add S + D cycles to every launch of a
    sequence (tests/kernels/seq/repeat.yaml: 1 + 3 x 4 = 13 launches), and
    (S + D) x slots idle slots to idle_empty (slots = cores x schedulers x
    issue_width = 1 under the seed);
  - each launch's start is the previous one's end plus launch_overhead;
  - cta_launch_interval I, one core, G one-warp CTAs that all fit at once:
    CTA k starts at k I; with I longer than a CTA alone (T1, the same kernel
    with grid 1), each runs alone, so the launch takes (G - 1) I + T1.
"""
import json
import os
import subprocess
import sys
import tempfile

WS = os.environ["WS_BIN"]
SRC = os.environ["WS_SOURCE_DIR"]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def sim(path, **kv):
    args = [WS, "sim", path, "--json", "--set", "preset=seed"]
    for k, v in kv.items():
        args += ["--set", "%s=%s" % (k, v)]
    p = subprocess.run(args, capture_output=True, text=True, env=dict(os.environ, WS_PTXAS=""))
    return json.loads(p.stdout)


rep = os.path.join(SRC, "tests/kernels/seq/repeat.yaml")
S, D, O = 700, 300, 1000
a = sim(rep, launch_overhead=O)
b = sim(rep, launch_overhead=O, launch_start=S, launch_drain=D)
n = len(a["per_launch"])
check(n == 13, "repeat.yaml runs 13 launches (%d)" % n)
check(b["cycles"] == a["cycles"] + n * (S + D), "cycles %d = %d + 13 x (S + D)" % (b["cycles"], a["cycles"]))
check(b["idle_empty"] == a["idle_empty"] + n * (S + D), "idle_empty %d = %d + 13 x (S + D)" % (b["idle_empty"], a["idle_empty"]))
check(all(lb["cycles"] == la["cycles"] + S + D for la, lb in zip(a["per_launch"], b["per_launch"])),
      "every launch's cycles + S + D")
ends = [l["start"] + l["cycles"] for l in b["per_launch"]]
check(all(b["per_launch"][i + 1]["start"] == ends[i] + O for i in range(n - 1)), "next start = end + launch_overhead")
check(b["warp_insts"] == a["warp_insts"], "same instructions")

with tempfile.TemporaryDirectory() as t:
    G, I = 8, 20000
    for g in (1, G):
        with open(os.path.join(t, "g%d.yaml" % g), "w") as f:
            f.write("name: g%d\nkernel: %s\nentry: inc\ngrid: %d\nblock: 32\nregs_per_thread: 8\n"
                    "buffers:\n  a: {type: u32, count: 256, init: iota}\nparams: [a, 256]\n"
                    % (g, os.path.join(SRC, "tests/kernels/seq/inc.ptx"), g))
    t1 = sim(os.path.join(t, "g1.yaml"))["cycles"]
    check(t1 < I, "a lone CTA (%d cycles) is shorter than the interval" % t1)
    one = sim(os.path.join(t, "g%d.yaml" % G), cta_launch_interval=I)
    check(one["status"] == "ok" and one["resident_ctas"] == G, "all %d CTAs resident (%s)" % (G, one.get("resident_ctas")))
    check(one["cycles"] == (G - 1) * I + t1, "cycles %d = (G - 1) I + T1 = %d" % (one["cycles"], (G - 1) * I + t1))
    zero = sim(os.path.join(t, "g%d.yaml" % G))
    check(zero["cycles"] < (G - 1) * I, "interval 0: the CTAs overlap (%d cycles)" % zero["cycles"])

if failures:
    print("%d FAILED" % len(failures))
    sys.exit(1)
print("ok")
