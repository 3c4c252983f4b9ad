#!/bin/bash
# Issue 40 item 5: the lane-serialised hash lock under tbc (tests/kernels/sched/hashlock, -G).
# Its 32 lanes take turns, so no two lanes of a warp spin on one lock: under a per-warp stack
# and under sbi it completes, and every bucket's run of 16 slots holds exactly the keys hashed
# to it (a multiset: the slot order follows the order of the inserts) and the locks are free;
# the Python model here hashes the keys itself. Under tbc the block-wide stack puts lane l of
# every warp of the CTA in one entry: a winner waits at the reconvergence point for threads of
# other warps spinning on its lock, the block-wide SIMT deadlock. That livelock has a period of
# 151 back-edges at the registry's defaults (the volta core) and none of its back-edge windows
# was distinguished once the search had reached 8 bits, so since the defaults became the volta
# core it ended `timeout` at max_cycles; deadlock.c dp_backedge now changes the selection after
# 8 x 2^bits back-edges without a distinguished one (a new salt), and the proof must come within 2M cycles
# (it comes at ~0.6M) under lrr and gto at warp sizes 16 and 32, naming the block-wide deadlock.
set -euo pipefail
K="${WS_SOURCE_DIR:-.}/tests/kernels/sched"
export K
/usr/bin/python3 - <<'PY'
import json, os, re, subprocess, sys
BIN, K = os.environ["WS_BIN"], os.environ["K"]
fails = []
def sim(*sets, dump=None):
    args = [BIN, "sim", K + "/hashlock.yaml", "--set", "max_cycles=2000000"]
    for s in sets: args += ["--set", s]
    if dump: args += ["--dump", dump]
    out = subprocess.run(args, capture_output=True, text=True).stdout
    kv = dict(re.findall(r"^(\w+): (.*)$", out, re.M))
    vals = [int(x) for line in out.splitlines() if re.match(r"^-?\d+(, |$)", line) for x in line.split(", ")]
    return kv, vals
def expect(c, what):
    print(("ok    " if c else "FAIL  ") + what)
    if not c: fails.append(what)
y = open(K + "/hashlock.yaml").read()
keys = [int(x) for x in re.findall(r"\d+", re.search(r"keys: \{type: u32, count: \d+, init: \[([^\]]*)\]", y, re.S).group(1))]
NB, SLOTS = 32, 16
want = [sorted(k for k in keys if (k * 2654435761 & 0xffffffff) % NB == b) for b in range(NB)]
for d, sched in (("stack", "lrr"), ("stack", "gto"), ("sbi", "gto"), ("sbi", "lrr")):
    kv, table = sim("divergence=" + d, "scheduler=" + sched, dump="table")
    expect(kv.get("status") == "ok", "%s %s: status %s" % (d, sched, kv.get("status")))
    if len(table) == NB * SLOTS:
        got = [sorted(v for v in table[b * SLOTS:(b + 1) * SLOTS] if v) for b in range(NB)]
        expect(got == want, "%s %s: every bucket holds its keys" % (d, sched))
for sched in ("lrr", "gto"):
    for ws in ("32", "16"):
        kv, _ = sim("divergence=tbc", "scheduler=" + sched, "warp_size=" + ws)
        msg = kv.get("message", "")
        expect(kv.get("status") == "deadlock" and "recurs exactly" in msg and "block-wide stack" in msg,
               "tbc %s warp_size %s: the block-wide SIMT deadlock proven (%s at cycle %s)"
               % (sched, ws, kv.get("status"), kv.get("cycles", "?").split()[0]))
sys.exit(1 if fails else 0)
PY
