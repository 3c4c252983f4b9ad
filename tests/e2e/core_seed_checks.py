#!/usr/bin/python3
"""The seed's behaviours (issue 3) on the shipped workloads, end to end.

usage: core_seed_checks.py spinlock|ifelse|workloads|determinism
Expected values come from the seed text and the hand analysis in
docs/model.md, never from the simulator's own output.
"""
import csv, json, os, subprocess, sys, tempfile

BIN = os.environ.get("WS_BIN", "build/warpsweep")
K = os.path.join(os.environ.get("WS_SOURCE_DIR", "."), "sweeps/kernels")
SCHEDULERS = ["lrr", "gto", "two_level", "oldest", "swl"]
fails = []


def sim(wl, extra=(), **kv):
    args = [BIN, "sim", os.path.join(K, wl + ".yaml"), "--json"] + list(extra)
    for k, v in kv.items():
        args += ["--set", "%s=%s" % (k, v)]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    try:
        return json.loads(p.stdout), p.stderr
    except ValueError:
        sys.exit("unparsable output of %s:\n%s\n%s" % (" ".join(args), p.stdout, p.stderr))


def expect(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        fails.append(what)


def spinlock():
    # stack: the winner waits at the reconvergence point below the spinning
    # losers: SIMT deadlock (a livelock), proven within 100,000 cycles.
    for issue in ("scoreboard", "blocking"):
        for s in SCHEDULERS:
            j, _ = sim("spinlock", preset="seed", divergence="stack", scheduler=s, issue=issue)
            expect(j["status"] == "deadlock", "spinlock stack %s %s: status %s" % (s, issue, j["status"]))
            expect(j["cycles"] <= 100000, "spinlock stack %s %s: found at cycle %d <= 100000" % (s, issue, j["cycles"]))
            expect("pc" in j["message"] and "line" in j["message"], "spinlock stack message names PCs and lines: %s" % j["message"][:100])
    # barrier: completes, counter = 32 (each thread once), mutex = 0 (released)
    for issue in ("scoreboard", "blocking"):
        for s in SCHEDULERS:
            j, err = sim("spinlock", ["--dump", "counter"], preset="seed", divergence="sbi", scheduler=s, issue=issue)
            expect(j["status"] == "ok", "spinlock barrier %s %s: status %s %s" % (s, issue, j["status"], j.get("message", "")))
            expect(err.strip().split()[-1:] == ["32"], "spinlock barrier %s %s: counter dump %r == 32" % (s, issue, err.strip()[-20:]))
            j, err = sim("spinlock", ["--dump", "mutex"], preset="seed", divergence="sbi", scheduler=s, issue=issue)
            expect(err.strip().split()[-1:] == ["0"], "spinlock barrier %s %s: mutex dump %r == 0" % (s, issue, err.strip()[-20:]))


def trace(div, L, tmp):
    path = os.path.join(tmp, "ifelse_%s.csv" % div)
    j, _ = sim("ifelse", ["--trace", path], preset="seed", divergence=div, mem_latency=L)
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return j, rows


def ifelse():
    # one warp of 8 threads: lanes 0-3 take A;B (load then use), lanes 4-7 X;Y.
    with tempfile.TemporaryDirectory() as tmp:
        for L in (400, 1000):
            st, srows = trace("stack", L, tmp)
            ba, brows = trace("sbi", L, tmp)
            expect(st["status"] == "ok" and ba["status"] == "ok", "ifelse L=%d both ok" % L)
            expect(st["warp_insts"] == ba["warp_insts"], "ifelse L=%d equal warp_insts %d %d" % (L, st["warp_insts"], ba["warp_insts"]))
            expect(st["simd_efficiency"] == ba["simd_efficiency"], "ifelse L=%d equal simd_efficiency" % L)
            expect(len(srows) == st["warp_insts"] and len(brows) == ba["warp_insts"], "ifelse trace has one row per warp instruction")
            # stack: one path completely before the other, then Z with the full mask
            A = [i for i, r in enumerate(srows) if int(r["active_mask"], 16) == 0x0f]
            X = [i for i, r in enumerate(srows) if int(r["active_mask"], 16) == 0xf0]
            full = [i for i, r in enumerate(srows) if int(r["active_mask"], 16) == 0xff]
            expect(A and X and (max(A) < min(X) or max(X) < min(A)), "ifelse stack: paths run one after the other")
            after = srows[max(A + X) + 1:]
            expect(len(after) == 5 and all(int(r["active_mask"], 16) == 0xff for r in after),
                   "ifelse stack: reconverges at Z (5 instructions) with the full mask 0xff")
            expect(int(srows[-1]["active_mask"], 16) == 0xff, "ifelse stack: last instruction issued with the full mask")
            # taken path (lanes 0-3, the branch target) runs first: GPGPU-Sim 4.x order
            expect(max(A) < min(X), "ifelse stack: the taken path (lanes 0-3) runs first")
            # barrier: the paths interleave
            A = [i for i, r in enumerate(brows) if int(r["active_mask"], 16) == 0x0f]
            X = [i for i, r in enumerate(brows) if int(r["active_mask"], 16) == 0xf0]
            expect(A and X and min(X) < max(A) and min(A) < max(X), "ifelse barrier: the paths interleave")
            expect(int(brows[-1]["active_mask"], 16) == 0xff, "ifelse barrier: reconverges with the full mask")
            # barrier saves about one memory latency: one path's load is
            # outstanding while the other path issues
            d = st["cycles"] - ba["cycles"]
            expect(0.8 * L <= d <= 1.2 * L, "ifelse L=%d: stack %d - barrier %d = %d ~ L" % (L, st["cycles"], ba["cycles"], d))


# Every divergence scheme (issue 13): stack and sbi under every scheduler, the
# others under lrr and gto. The spin lock keeps the SIMT deadlock of a
# reconvergence stack under stack, multipath, dualpath and tbc (docs/model.md);
# barrier (BSYNC after the release) and aware (the timeout) complete it.
SCHEMES = ["stack", "sbi", "barrier", "multipath", "dualpath", "aware", "tbc"]
STACK_DEADLOCK = ("stack", "multipath", "dualpath", "tbc")


def run_all(jobs):
    """runs sim(wl, **kv) for each (label, wl, kv, want) two at a time (2-core CI)"""
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=2) as ex:
        outs = list(ex.map(lambda t: sim(t[1], **t[2])[0], jobs))
    for (label, _, _, want), j in zip(jobs, outs):
        expect(j["status"] == want, "%s: %s (want %s) %s" % (label, j["status"], want, j.get("message", "")[:120]))


def workloads():
    names = sorted(f[:-5] for f in os.listdir(K) if f.endswith(".yaml"))
    expect(len(names) >= 13, "%d shipped workloads" % len(names))
    jobs = []
    for wl in names:
        for div in SCHEMES:
            for s in SCHEDULERS if div in ("stack", "sbi") else ["lrr", "gto"]:
                for issue in ("scoreboard", "blocking"):
                    want = "deadlock" if (wl == "spinlock" and div in STACK_DEADLOCK) else "ok"
                    jobs.append(("%s %s %s %s" % (wl, div, s, issue), wl,
                                 dict(divergence=div, scheduler=s, issue=issue), want))
    # more cores / schedulers / issue width, still correct
    for wl in names:
        if wl == "spinlock":
            continue
        for div in SCHEMES:
            jobs.append(("%s %s cores=3 schedulers=2 issue_width=2" % (wl, div), wl,
                         dict(divergence=div, cores=3, schedulers=2, issue_width=2, warps=24), "ok"))
    run_all(jobs)


def determinism():
    for wl in ("matmul", "reduce", "switch", "spinlock", "varloop"):
        for div in ("stack", "sbi"):
            for s in ("lrr", "two_level"):
                a, _ = sim(wl, divergence=div, scheduler=s, cores=2)
                b, _ = sim(wl, divergence=div, scheduler=s, cores=2)
                expect(a == b, "determinism %s %s %s: identical JSON" % (wl, div, s))


{"spinlock": spinlock, "ifelse": ifelse, "workloads": workloads, "determinism": determinism}[sys.argv[1]]()
if fails:
    print("%d failure(s)" % len(fails))
    sys.exit(1)
