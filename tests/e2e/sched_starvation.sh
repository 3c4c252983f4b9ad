#!/bin/bash
# Issue 10, bug 8 (i): a scheduler's own starvation is not a program deadlock.
# tests/kernels/sched/flagwait: warp 0 spins on a flag warp 1 sets (warps 2, 3
# only store).  Every policy with room for warp 1 finishes ok with the values
# of the Python model; swl with swl_limit=1 keeps only warp 0 in its window:
# status "starved", the message naming the policy, its limit and warps 1..3.
# tests/kernels/sched/ccwsstarve (2 warps, l1_kb=1: 8 lines): warp 0 reads its
# 8 lines twice and spins on a flag warp 1 sets after reading 24 other lines;
# warp 1's lines evict warp 0's during warp 0's first pass, so warp 0's second
# pass hits its VTA.  With KThrottle 64 one VTA hit gives warp 0 a score above
# the cutoff (LLDS = hits x 64 x 200 / insts > 100 while insts < 128), which
# throttles warp 1; without decay (ccws_decay=0) nothing ever lowers it: warp 1
# never sets the flag, status "starved" naming ccws, its KThrottle and warp 1.
# With the decay (or without an L1: no events) the program ends ok.
# tests/kernels/sched/dawsstarve (2 warps, preset=seed, l1_kb=1: 8 lines): both
# warps' loops load 16 lines per access and re-read them; the 16-entry VTAs
# catch the reuse (16 - 8 = 8 evictions apart), so daws predicts 16 lines per
# warp: warp 0 (oldest) may always load, 16 + 16 > 8 holds warp 1, which
# never sets the flag warp 0 spins on: status "starved" naming daws, its
# bounding parameter l1_kb and warp 1.  With an L1 of 32 lines (l1_kb=4)
# both fit, without an L1 there are no events: ok.  Under ccws the same kernel
# starves warp 1 too (warp 0's spin keeps hitting its VTA, so its score never
# decays), but the scores change every cycle and no proof applies: at the
# timeout the message names ccws and warp 1, which has not issued since half
# the run and is not offered.
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
    # the seed's fixed-latency memory unless a run sets its own (the expectations
    # must not follow the registry's memory defaults)
    args = [BIN, "sim", path, "--json", "--set", "preset=seed", "--set", "max_cycles=400000"]
    for s in sets: args += ["--set", s]
    return json.loads(subprocess.run(args, capture_output=True, text=True).stdout)
def expect(c, what):
    print(("ok    " if c else "FAIL  ") + what)
    if not c: fails.append(what)
for div in ("stack", "sbi"):
    for s in ("lrr", "gto", "oldest", "two_level", "swl", "two_level --set two_level_active=1", "swl --set swl_limit=2",
              "fetch_group", "fetch_group --set fetch_group_size=1", "ccws", "daws"):
        sets = ["divergence=" + div] + ("scheduler=" + s).split(" --set ")
        j = sim(K + "/flagwait.yaml", *sets)
        expect(j["status"] == "ok", "flagwait %s: %s %s" % (sets, j["status"], j["message"][:120]))
    j = sim(K + "/flagwait.yaml", "divergence=" + div, "scheduler=swl", "swl_limit=1")
    m = j["message"]
    expect(j["status"] == "starved", "flagwait swl_limit=1 %s: status %s" % (div, j["status"]))
    expect(m.startswith("scheduler starvation: swl (swl_limit=1) never issues warps 1..3"), "message names policy and warps: " + m[:100])
    expect("[warp 0:" in m and "line 50" in m and "[warp 1:" not in m, "message shows the spinning warp 0 at line 50 only: " + m[-120:])
    expect(j["cycles"] < 100000, "proven early (cycle %d)" % j["cycles"])
C = K + "/ccwsstarve.yaml"
spin = 1 + next(i for i, l in enumerate(open(K + "/ccwsstarve.ptx")) if "ld.volatile.global" in l)
for sets in (["scheduler=lrr"], ["scheduler=gto"], ["scheduler=ccws"], ["scheduler=ccws", "ccws_kthrottle=64"],
             ["scheduler=ccws", "ccws_kthrottle=64", "ccws_decay=0", "l1_kb=0"]):
    j = sim(C, *(["l1_kb=1"] + sets))
    expect(j["status"] == "ok", "ccwsstarve %s: %s %s" % (sets, j["status"], j["message"][:120]))
j = sim(C, "l1_kb=1", "scheduler=ccws", "ccws_kthrottle=64", "ccws_decay=0")
m = j["message"]
expect(j["status"] == "starved", "ccwsstarve ccws without decay: status %s" % j["status"])
expect(m.startswith("scheduler starvation: ccws (ccws_kthrottle=64) never issues warp 1 "), "message names ccws and warp 1: " + m[:100])
expect("[warp 0:" in m and "line %d" % spin in m, "message shows warp 0 spinning at line %d: %s" % (spin, m[-120:]))
D = K + "/dawsstarve.yaml"
dspin = 1 + next(i for i, l in enumerate(open(K + "/dawsstarve.ptx")) if "ld.volatile.global" in l)
for sets in (["scheduler=lrr"], ["scheduler=gto"], ["scheduler=daws", "l1_kb=4"], ["scheduler=daws", "l1_kb=0"]):
    j = sim(D, *(["l1_kb=1"] + sets))
    expect(j["status"] == "ok", "dawsstarve %s: %s %s" % (sets, j["status"], j["message"][:120]))
for div in ("stack", "sbi"):
    j = sim(D, "l1_kb=1", "scheduler=daws", "divergence=" + div)
    m = j["message"]
    expect(j["status"] == "starved", "dawsstarve daws l1_kb=1 %s: status %s" % (div, j["status"]))
    expect(m.startswith("scheduler starvation: daws (l1_kb=1) never issues warp 1 "), "message names daws and warp 1: " + m[:100])
    expect("[warp 0:" in m and "line %d" % dspin in m, "message shows warp 0 spinning at line %d: %s" % (dspin, m[-120:]))
j = sim(D, "l1_kb=1", "scheduler=ccws")
m = j["message"]
expect(j["status"] == "timeout", "dawsstarve ccws: status %s" % j["status"])
expect("; ccws (ccws_kthrottle=8) has not issued warp 1 since cycle 199999 and does not offer it now" in m,
       "timeout message names ccws and warp 1: " + m[-160:])
j = sim(K + "/statlock.yaml", "divergence=stack", "scheduler=gto")
expect(j["status"] == "timeout" and "has not issued" not in j["message"], "a spin timeout names no policy: " + j["message"][-100:])
# a program deadlock is not starvation, whatever the window
T = os.path.join(os.environ.get("WS_SOURCE_DIR", "."), "sweeps/kernels/spinlock.yaml")
for s in ("swl", "two_level", "lrr", "fetch_group", "ccws", "daws"):
    j = sim(T, "divergence=stack", "scheduler=" + s, "swl_limit=1", "two_level_active=1")
    expect(j["status"] == "deadlock", "one-warp spin lock under stack, %s: %s" % (s, j["status"]))
sys.exit(1 if fails else 0)
PY
