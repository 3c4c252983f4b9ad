#!/bin/bash
# The livelock proof on several cores (docs/model.md, Statuses: per-core
# search).  tests/kernels/sched/gridlock{3,5}: 3 or 5 one-warp CTAs take one
# global spin lock.  Under the stack every warp's lock winner waits at the reconvergence
# point below its spinning lanes, so no thread ever exits and memory never
# changes (pre-Volta hardware hangs).  Where the CTAs split unevenly over the
# cores (3 on 2 cores: 2+1; 5 on 2 or 3 cores: 3+2, 2+2+1) the cores loop with
# different periods and the chip's state recurs only after their least common
# multiple, which the chip-wide search alone did not reach in 5,000,000
# cycles.  Asserted: status deadlock with the livelock message for cores 1, 2,
# 3 (gridlock3) and 2, 3 (gridlock5) under four schedulers (swl starves warps
# beyond its window: tests/e2e/sched_starvation.sh) within max_cycles
# 400000; with a DRAM queue shared by the cores (dram_bw > 0) no per-core
# proof and never a false ok; under barrier: ok, counter = CTAs * 32
# (expected.py).
set -euo pipefail
K="${WS_SOURCE_DIR:-.}/tests/kernels/sched"
export K
/usr/bin/python3 "$K/expected.py" --check || { echo "FAIL  expected.py --check: a yaml differs from its model"; exit 1; }
/usr/bin/python3 - <<'PY'
import json, os, subprocess, sys
sys.path.insert(0, os.path.join(os.environ["WS_SOURCE_DIR"], "tests", "e2e"))
from seed_memory import seed_memory_sets
BIN, K = os.environ["WS_BIN"], os.environ["K"]
fails = []
def sim(name, *sets, extra=()):
    # per-core proofs need cores that share nothing: the seed's fixed-latency memory
    args = [BIN, "sim", K + "/" + name + ".yaml", "--json", "--set", "max_cycles=400000", *extra, *seed_memory_sets()]
    for s in sets: args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True)
    return json.loads(p.stdout), p.stderr
def expect(c, what):
    print(("ok    " if c else "FAIL  ") + what)
    if not c: fails.append(what)
for name, ctas, cores_list in (("gridlock3", 3, (1, 2, 3)), ("gridlock5", 5, (2, 3))):
    for cores in cores_list:
        for sched in ("lrr", "gto", "two_level", "oldest"):
            what = "%s stack cores=%d %s" % (name, cores, sched)
            j, _ = sim(name, "divergence=stack", "scheduler=" + sched, "cores=%d" % cores)
            m = j["message"]
            expect(j["status"] == "deadlock", "%s: %s %s" % (what, j["status"], m[:120]))
            expect(m.startswith("livelock:") and "recurs exactly" in m and
                   "with no thread exiting and memory unchanged; looping/waiting:" in m, "livelock message: " + m[:200])
            expect("pc " in m and "line " in m, "message names PCs and lines")
            if cores > 1:
                expect("every core's state recurs exactly (core 0: cycle" in m and ("core %d: cycle" % (cores - 1)) in m,
                       "per-core proof names every core: " + m[:200])
            want = ctas * 32
            what = "%s barrier cores=%d %s" % (name, cores, sched)
            j, err = sim(name, "divergence=sbi", "scheduler=" + sched, "cores=%d" % cores, extra=("--dump", "counter"))
            expect(j["status"] == "ok", "%s: %s %s" % (what, j["status"], j["message"][:100]))
            expect(err.split()[-1:] == [str(want)], "%s: counter %r == %d" % (what, err.strip()[-12:], want))
# a DRAM channel shared by the cores couples their timing: no per-core proof
# (the chip-wide search, or a timeout; never ok, never the per-core message)
j, _ = sim("gridlock3", "divergence=stack", "cores=2", "dram_bw=4")
expect(j["status"] in ("deadlock", "timeout"), "gridlock3 stack cores=2 dram_bw=4: %s" % j["status"])
expect("every core's state" not in j["message"], "dram_bw=4: no per-core proof: " + j["message"][:120])
sys.exit(1 if fails else 0)
PY
