#!/bin/bash
# Issue 10, bug 8 (ii): livelocks whose loop changes memory every iteration
# (tests/kernels/sched, one warp of 32 threads taking a spin lock).
#  - retrylock (atomicAdd retry counter) and volcount (volatile load/add/store
#    counter): the counter never steers a branch or an address, and its memory
#    is read only into such registers: under the stack (pre-Volta hardware
#    hangs here) a livelock proof, status deadlock, message naming the
#    changing memory and the spinning PCs; under barrier: ok, counter 32.
#  - statlock: the counter decides a branch, so no proof is sound: timeout,
#    the message saying why (the changing memory, the PC and line that write
#    it); under barrier: ok.
#  - bucketlock (issue 24 item 10): per-bucket spin locks in a grid-stride
#    loop, 2 CTAs of 64, the registry's defaults: under the stack a livelock
#    with memory unchanged, proven (status deadlock, an exact recurrence)
#    within 1M cycles under lrr, gto, two_level and oldest at warp sizes 32,
#    16 and 8 (oldest at 16 has a period of thousands of back-edges that the
#    strided search alone never met: timeout at 20M before); under barrier ok
#    (its expect: the Python model's counts and sums).
#  - bucketlock under sbi, daws, 4 KiB L1 (32 lines of 128 bytes), warp size 8: each of the 16
#    warps predicts 3 lines (keys[i] and the two volatile loads of the critical section: loads
#    with locality, converged or of one lane, one line each), so warps 0..9 (30 lines) may load
#    and 10..15 are held; the old warps spin at the CAS, which is no load, and keep their
#    prediction.  A lock holder in a held warp waits at its volatile load while its warp's
#    spinners keep issuing: the policy starves that split, status starved (it was reported as
#    the program's livelock, status deadlock), naming only held warps (>= 10), the lanes and
#    the load; with an 8 KiB L1 (64 lines >= 16 x 3) nothing is held: ok.
set -euo pipefail
K="${WS_SOURCE_DIR:-.}/tests/kernels/sched"
export K
/usr/bin/python3 - <<'PY'
import json, os, re, subprocess, sys
BIN, K = os.environ["WS_BIN"], os.environ["K"]
fails = []
def sim(name, *sets):
    # the seed's memory, not the registry's defaults (ccws and daws watch the L1)
    args = [BIN, "sim", K + "/" + name + ".yaml", "--json", "--set", "preset=seed", "--set", "max_cycles=300000"]
    for s in sets: args += ["--set", s]
    return json.loads(subprocess.run(args, capture_output=True, text=True).stdout)
def expect(c, what):
    print(("ok    " if c else "FAIL  ") + what)
    if not c: fails.append(what)
# PTX line of the first instruction matching pat (the loop's counter store)
def line_of(name, pat):
    for i, l in enumerate(open(K + "/" + name + ".ptx"), 1):
        if re.search(pat, l): return i
for name in ("retrylock", "volcount"):
    for sched in ("lrr", "gto", "two_level", "oldest", "swl", "fetch_group", "ccws", "daws"):
        for issue in ("scoreboard", "blocking"):
            j = sim(name, "divergence=stack", "scheduler=" + sched, "issue=" + issue)
            m = j["message"]
            expect(j["status"] == "deadlock", "%s stack %s %s: %s" % (name, sched, issue, j["status"]))
            expect(m.startswith("livelock:") and "memory changing only where" in m and "global written by pc" in m,
                   "message names the changing memory: " + m[:160])
            expect("lanes 0xfffffffe" in m, "message names the 31 spinning lanes")
            expect(j["cycles"] < 200000, "proven early (cycle %d)" % j["cycles"])
        j = sim(name, "divergence=sbi", "scheduler=" + sched)
        expect(j["status"] == "ok", "%s barrier %s: %s %s" % (name, sched, j["status"], j["message"][:100]))
for sched in ("lrr", "gto"):
    j = sim("statlock", "divergence=stack", "scheduler=" + sched)
    m = j["message"]
    expect(j["status"] == "timeout", "statlock stack %s: %s (must never be a proof)" % (sched, j["status"]))
    st = line_of("statlock", r"st\.volatile\.global\.u32")
    # either why: the changing memory with the state that steers control flow never recurring,
    # or (register compaction: the rows of dead registers are reused) that memory read into
    # a register that steers control flow
    expect(("no livelock proof: memory changes" in m or
            re.search(r"no livelock proof: memory at 0x[0-9a-f]+ \(global\) changes in the loop \(pc \d+ line %d\) "
                      r"and is read by pc \d+ \(line \d+\) into a register that steers control flow" % st, m))
           and ("line %d" % st) in m,
           "timeout says why, naming the store at line %d: %s" % (st, m[:300]))
    j = sim("statlock", "divergence=sbi", "scheduler=" + sched)
    expect(j["status"] == "ok", "statlock barrier %s: %s" % (sched, j["status"]))
for sched in ("lrr", "gto", "two_level", "oldest"):
    for ws in ("32", "16", "8"):
        args = [BIN, "sim", K + "/bucketlock.yaml", "--json", "--set", "divergence=stack", "--set", "scheduler=" + sched,
                "--set", "warp_size=" + ws, "--set", "max_cycles=2000000"]
        j = json.loads(subprocess.run(args, capture_output=True, text=True).stdout)
        expect(j["status"] == "deadlock" and "recurs exactly" in j["message"] and j["cycles"] < 1000000,
               "bucketlock stack %s warp_size %s: %s at cycle %d" % (sched, ws, j["status"], j["cycles"]))
    j = sim("bucketlock", "divergence=sbi", "scheduler=" + sched)
    expect(j["status"] == "ok", "bucketlock barrier %s: %s" % (sched, j["status"]))
def sim_defaults(name, *sets):
    args = [BIN, "sim", K + "/" + name + ".yaml", "--json", "--set", "max_cycles=2000000"]
    for s in sets: args += ["--set", s]
    return json.loads(subprocess.run(args, capture_output=True, text=True).stdout)
vol = line_of("bucketlock", r"ld\.volatile\.global\.u32")
j = sim_defaults("bucketlock", "divergence=sbi", "scheduler=daws", "l1_kb=4", "warp_size=8")
m = j["message"]
expect(j["status"] == "starved" and m.startswith("scheduler starvation: daws (l1_kb=4)"),
       "bucketlock sbi daws 4 KiB warp_size 8: %s: %s" % (j["status"], m[:200]))
named = re.findall(r"(?:warps? |, )(\d+) \(lanes 0x([0-9a-f]+) at the load at pc \d+, line (\d+)", m.split(" while ")[0])
expect(named and all(int(w) >= 10 for w, _, _ in named), "only held warps (>= 10) named: %s" % named)
expect(any(int(l) == vol for _, _, l in named) and all(int(x, 16) != 0xff for _, x, _ in named),
       "a split (not the whole warp) at the volatile load of line %d: %s" % (vol, named))
expect("recurs exactly" in m, "proven by an exact recurrence")
j = sim_defaults("bucketlock", "divergence=sbi", "scheduler=daws", "l1_kb=8", "warp_size=8")
expect(j["status"] == "ok", "bucketlock sbi daws 8 KiB warp_size 8: %s" % j["status"])
sys.exit(1 if fails else 0)
PY
