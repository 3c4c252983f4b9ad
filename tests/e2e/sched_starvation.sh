#!/bin/bash
# Issue 10, bug 8 (i): a scheduler's own starvation is not a program deadlock.
# tests/kernels/sched/flagwait: warp 0 spins on a flag warp 1 sets (warps 2, 3
# only store).  Every policy with room for warp 1 finishes ok with the values
# of the Python model; swl with swl_limit=1 keeps only warp 0 in its window:
# status "starved", the message naming the policy, its limit and warps 1..3.
# A program deadlock stays "deadlock" under every policy (a CTA barrier only
# some warps reach: no warp can progress, none is starved).
set -euo pipefail
K="${WS_SOURCE_DIR:-.}/tests/kernels/sched"
export K
/usr/bin/python3 - <<'PY'
import json, os, subprocess, sys
BIN, K = os.environ["WS_BIN"], os.environ["K"]
fails = []
def sim(path, *sets):
    args = [BIN, "sim", path, "--json", "--set", "max_cycles=400000"]
    for s in sets: args += ["--set", s]
    return json.loads(subprocess.run(args, capture_output=True, text=True).stdout)
def expect(c, what):
    print(("ok    " if c else "FAIL  ") + what)
    if not c: fails.append(what)
for div in ("stack", "sbi"):
    for s in ("lrr", "gto", "oldest", "two_level", "swl", "two_level --set two_level_active=1", "swl --set swl_limit=2"):
        sets = ["divergence=" + div] + ("scheduler=" + s).split(" --set ")
        j = sim(K + "/flagwait.yaml", *sets)
        expect(j["status"] == "ok", "flagwait %s: %s %s" % (sets, j["status"], j["message"][:120]))
    j = sim(K + "/flagwait.yaml", "divergence=" + div, "scheduler=swl", "swl_limit=1")
    m = j["message"]
    expect(j["status"] == "starved", "flagwait swl_limit=1 %s: status %s" % (div, j["status"]))
    expect(m.startswith("scheduler starvation: swl (swl_limit=1) never issues warps 1..3"), "message names policy and warps: " + m[:100])
    expect("[warp 0:" in m and "line 50" in m and "[warp 1:" not in m, "message shows the spinning warp 0 at line 50 only: " + m[-120:])
    expect(j["cycles"] < 100000, "proven early (cycle %d)" % j["cycles"])
# a program deadlock is not starvation, whatever the window
T = os.path.join(os.environ.get("WS_SOURCE_DIR", "."), "sweeps/kernels/spinlock.yaml")
for s in ("swl", "two_level", "lrr"):
    j = sim(T, "divergence=stack", "scheduler=" + s, "swl_limit=1", "two_level_active=1")
    expect(j["status"] == "deadlock", "one-warp spin lock under stack, %s: %s" % (s, j["status"]))
sys.exit(1 if fails else 0)
PY
