#!/usr/bin/python3
"""Divergence schemes (issue 13), each pinned by hand-derived figures.

usage: core_div_schemes.py ifelse|spinlock|varloop|tbchalf
All expected values are derived by hand in docs/model.md ("Divergence
schemes: hand-derived cases") under preset=seed timing (scoreboard issue, one
instruction per cycle, alu_latency 4, mem_latency 400, ld.param at
alu_latency, ideal front end, PTX order), never from the simulator's output.
"""
import csv, json, os, subprocess, sys, tempfile

BIN = os.environ.get("WS_BIN", "build/warpsweep")
K = os.path.join(os.environ.get("WS_SOURCE_DIR", "."), "sweeps/kernels")
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


def trace(wl, div, tmp, **kv):
    path = os.path.join(tmp, "%s_%s.csv" % (wl, div))
    j, _ = sim(wl, ["--trace", path], preset="seed", divergence=div, **kv)
    with open(path) as f:
        rows = [(int(r["cycle"]), int(r["pc"]), int(r["active_mask"], 16)) for r in csv.DictReader(f)]
    return j, rows


# ifelse under preset=seed, PTX order after the barrier pass (inspect
# --divergence barrier --set inst_order=ptx): 0-3 ld.param, 4 mov tid,
# 5 setp, 6 cvt, 7 cvta, 8 mul, 9 add, 10 ADD B0, 11 @p bra 13, 12 bra.uni 20,
# taken 13-19 (16 ld, 18 st, 19 bra.uni 25), else 20-24 (22 ld, 24 st),
# 25 WAIT B0, 26-30 (29 st, 30 ret). (cycle, pc, mask) of every issue:
IFELSE_BARRIER = [
    (0, 0, 0xff), (1, 1, 0xff), (2, 2, 0xff), (3, 3, 0xff), (4, 4, 0xff),
    (8, 5, 0xff),                      # setp waits for %r1 (mov at 4 + 4)
    (9, 6, 0xff), (10, 7, 0xff), (11, 8, 0xff),
    (15, 9, 0xff),                     # add waits for %rd8 (mul at 11 + 4)
    (16, 10, 0xff),                    # ADD B0: an issue slot
    (17, 11, 0xff),                    # the branch; the taken split owns the warp
    (18, 13, 0x0f), (19, 14, 0x0f), (23, 15, 0x0f), (27, 16, 0x0f),
    (427, 17, 0x0f),                   # the load's 400 cycles: no switch on a stall
    (431, 18, 0x0f), (432, 19, 0x0f),
    (433, 25, 0x0f),                   # WAIT: lanes 0-3 block, the else split gets the warp
    (434, 12, 0xf0), (435, 20, 0xf0), (439, 21, 0xf0), (443, 22, 0xf0),
    (843, 23, 0xf0), (847, 24, 0xf0),
    (848, 25, 0xf0),                   # WAIT: every participant blocked, B0 clears
    (849, 26, 0xff), (853, 27, 0xff), (854, 28, 0xff), (858, 29, 0xff), (859, 30, 0xff),
]


# Without the pass (stack, multipath, dualpath): 10 @p bra 12, 11 bra.uni 19,
# taken 12-18 (15 ld, 17 st, 18 bra.uni 24), else 19-23 (21 ld, 23 st), 24-28.
# The common prefix: 0-4 at 0-4, 5 at 8, 6-8 at 9-11, 9 at 15, the branch at 16.
PREFIX = [(0, 0, 0xff), (1, 1, 0xff), (2, 2, 0xff), (3, 3, 0xff), (4, 4, 0xff), (8, 5, 0xff),
          (9, 6, 0xff), (10, 7, 0xff), (11, 8, 0xff), (15, 9, 0xff), (16, 10, 0xff)]
TAIL = [(434, 24, 0xff), (438, 25, 0xff), (439, 26, 0xff), (443, 27, 0xff), (444, 28, 0xff)]
# multipath: the ST holds [fall 0xf0@11, taken 0x0f@12]; each issue moves its
# split to the end and the next try starts at the split after it, so the two
# alternate, else path first; a split that stalls lets the other go.
IFELSE_MULTIPATH = PREFIX + [
    (17, 11, 0xf0), (18, 12, 0x0f), (19, 19, 0xf0), (20, 13, 0x0f),
    (23, 20, 0xf0),                    # %rd9 (cvta at 19 + 4); 14 waits for %rd13 (20 + 4)
    (24, 14, 0x0f), (27, 21, 0xf0), (28, 15, 0x0f),
    (427, 22, 0xf0), (428, 16, 0x0f),  # the two loads overlap
    (431, 23, 0xf0),                   # 0xf0 arrives at the IPDOM 24 (RT pending 0x0f)
    (432, 17, 0x0f), (433, 18, 0x0f),  # 0x0f arrives: RT entry done, one split 0xff at 24
] + TAIL
# dualpath: one entry {RPC 24, path 0 = fall 0xf0@11, path 1 = taken 0x0f@12},
# the taken path first, then alternating (the other path when one stalls).
IFELSE_DUALPATH = PREFIX + [
    (17, 12, 0x0f), (18, 11, 0xf0), (19, 13, 0x0f), (20, 19, 0xf0),
    (23, 14, 0x0f),                    # %rd13 (shl at 19 + 4); 20 waits for %rd9 (20 + 4)
    (24, 20, 0xf0), (27, 15, 0x0f), (28, 21, 0xf0),
    (427, 16, 0x0f), (428, 22, 0xf0), (431, 17, 0x0f),
    (432, 23, 0xf0),                   # 0xf0 waits at the RPC
    (433, 18, 0x0f),                   # both at the RPC: pop, 0xff at 24
] + TAIL


def first_diff(rows, want):
    return "" if rows == want else " (first difference: %s)" % (
        next(((a, b) for a, b in zip(rows, want) if a != b), (len(rows), len(want))),)


def ifelse():
    with tempfile.TemporaryDirectory() as tmp:
        # stack: the same schedule without ADD and WAIT (two slots earlier
        # before the switch, three at the end): the store at 855 completes at 1255
        st, _ = trace("ifelse", "stack", tmp)
        expect(st["status"] == "ok" and st["cycles"] == 1255, "ifelse stack: 1255 cycles (%s)" % st["cycles"])
        expect(st["div_insts"] == 0, "ifelse stack: no divergence instructions")
        # sbi: ADD/WAIT free, the paths interleave; the last store issues at
        # 443 (docs/model.md), completing at 843
        sb, srows = trace("ifelse", "sbi", tmp)
        expect(sb["cycles"] == 843, "ifelse sbi: 843 cycles (%s)" % sb["cycles"])
        expect(sb["div_insts"] == 0 and sb["warp_insts"] == 29, "ifelse sbi: 29 warp insts, no div insts")
        # barrier: 29 warp instructions + ADD + 2 WAITs, one path after the other
        ba, rows = trace("ifelse", "barrier", tmp)
        expect(ba["status"] == "ok", "ifelse barrier: ok")
        expect(rows == IFELSE_BARRIER, "ifelse barrier: the hand-derived timeline, issue by issue"
               + ("" if rows == IFELSE_BARRIER else " (first difference: %s)" %
                  next(((a, b) for a, b in zip(rows, IFELSE_BARRIER) if a != b), (len(rows), len(IFELSE_BARRIER)))))
        expect(ba["cycles"] == 1258, "ifelse barrier: 1258 cycles = the store at 858 + 400 (%s)" % ba["cycles"])
        expect(ba["warp_insts"] == 29 and ba["div_insts"] == 3,
               "ifelse barrier: warp_insts 29 (as stack), div_insts 3 (%s, %s)" % (ba["warp_insts"], ba["div_insts"]))
        # thread_insts: 11 x 8 + 7 x 4 + 6 x 4 + 5 x 8
        expect(ba["thread_insts"] == 180 and st["thread_insts"] == 180, "ifelse: 180 thread insts")
        # multipath, dualpath, aware: both loads in flight; the last store at 443
        for div, want in (("multipath", IFELSE_MULTIPATH), ("dualpath", IFELSE_DUALPATH), ("aware", IFELSE_MULTIPATH)):
            j, rows = trace("ifelse", div, tmp)
            expect(j["status"] == "ok" and j["cycles"] == 843 and j["warp_insts"] == 29 and j["thread_insts"] == 180,
                   "ifelse %s: 843 cycles, 29 warp insts, 180 thread insts (%s, %s, %s)" %
                   (div, j["cycles"], j["warp_insts"], j["thread_insts"]))
            expect(rows == want, "ifelse %s: the hand-derived timeline, issue by issue%s" % (div, first_diff(rows, want)))
        # tbc: a CTA of one warp has one dynamic warp, the warp itself (a full
        # lane mask compacts into itself), and its block-wide stack is the
        # warp's stack: the stack's schedule, issue by issue, 1255 cycles
        tb, trows = trace("ifelse", "tbc", tmp)
        _, strows = trace("ifelse", "stack", tmp)
        expect(tb["status"] == "ok" and tb["cycles"] == 1255 and tb["warp_insts"] == 29 and tb["thread_insts"] == 180
               and tb["div_insts"] == 0, "ifelse tbc: 1255 cycles, 29 warp insts, 180 thread insts (%s, %s, %s)" %
               (tb["cycles"], tb["warp_insts"], tb["thread_insts"]))
        expect(trows == strows and len(trows) == 29, "ifelse tbc: the stack's timeline%s" % first_diff(trows, strows))


def spinlock():
    # barrier: one split owns the warp until YIELD / WAIT / exit. 32 lanes:
    # round 1 all CAS, lane 0 wins, all YIELD, lane 0 leaves the loop; the 31
    # spin once more (lock held) and YIELD, lane 0 runs the critical section,
    # releases and blocks at WAIT (after the release): the spinners are
    # yielded, so B0 clears and lane 0 exits; from then on B0 is empty and
    # every WAIT passes. Each lane i < 31 costs the group two iterations, lane
    # 31 one: 63 iterations x (mov, mov, atom, setp, bra) + 4 prologue
    # + 32 x (ld, add, st, membar, exch, ret) = 511 warp insts;
    # div: ADD 1 + YIELD 63 + WAIT 32 = 96. Independent of timing.
    for s in ("lrr", "gto"):
        for issue in ("scoreboard", "blocking"):
            j, err = sim("spinlock", ["--dump", "counter"], preset="seed", divergence="barrier", scheduler=s, issue=issue)
            expect(j["status"] == "ok", "spinlock barrier %s %s: ok (%s)" % (s, issue, j.get("message", "")[:100]))
            expect(err.strip().split()[-1:] == ["32"], "spinlock barrier %s %s: counter 32" % (s, issue))
            expect(j["warp_insts"] == 511 and j["div_insts"] == 96,
                   "spinlock barrier %s %s: 511 warp insts, 96 div insts (%s, %s)" % (s, issue, j["warp_insts"], j["div_insts"]))
    # stack: the winner waits at the reconvergence point below the spinners
    # (tbc, one warp: the block-wide stack is the warp's stack, the same deadlock)
    j, _ = sim("spinlock", preset="seed", divergence="stack")
    expect(j["status"] == "deadlock" and "SIMT deadlock" in j["message"],
           "spinlock stack: deadlock, the proof names the SIMT deadlock: %s" % j["message"][:160])
    # multipath, dualpath: the winner waits at the IPDOM (the loop exit) for the
    # spinners, as under the stack (ElTantawy and Aamodt, MICRO 2016)
    for div in ("multipath", "dualpath", "tbc"):
        j, _ = sim("spinlock", preset="seed", divergence=div)
        expect(j["status"] == "deadlock" and "SIMT deadlock: lanes 0x1 wait at reconvergence point" in j["message"],
               "spinlock %s: deadlock, SIMT deadlock of lane 0 named: %s" % (div, j["message"][:160]))
    # aware: each winner waits at the loop exit until the timeout T releases
    # it; the next winner can only win after that release, so 32 winners take
    # at least 32 x T cycles
    for T in (1000, 3000):
        j, err = sim("spinlock", ["--dump", "counter"], preset="seed", divergence="aware", aware_timeout=T)
        expect(j["status"] == "ok" and err.strip().split()[-1:] == ["32"],
               "spinlock aware T=%d: ok, counter 32 (%s)" % (T, j["status"]))
        expect(j["cycles"] >= 32 * T, "spinlock aware T=%d: %d cycles >= 32 x T" % (T, j["cycles"]))
    # the inserted instructions: the spin loop's WAIT after the release (atom.exch)
    p = subprocess.run([BIN, "inspect", os.path.join(K, "spinlock.yaml"), "--divergence", "barrier",
                        "--set", "inst_order=ptx"], capture_output=True, text=True)
    ops = [l.split()[4].rstrip(";") for l in p.stdout.splitlines() if len(l.split()) > 4 and l.split()[1] == "line"]
    expect(p.returncode == 0 and "atom.global.exch.b32" in ops and ops.index("WAIT") == ops.index("atom.global.exch.b32") + 1,
           "inspect --divergence barrier: spinlock's WAIT right after the release")
    expect(ops.count("ADD") == 1 and ops.count("YIELD") == 1, "inspect: one ADD, one YIELD")
    # every scheme: inspect names it and says what it does at a branch; only sbi
    # and barrier insert instructions
    for div in ("stack", "sbi", "barrier", "multipath", "dualpath", "aware", "tbc"):
        p = subprocess.run([BIN, "inspect", os.path.join(K, "spinlock.yaml"), "--divergence", div],
                           capture_output=True, text=True)
        head = [l for l in p.stdout.splitlines() if l.startswith("divergence: ")]
        ops = [l.split()[4].rstrip(";") for l in p.stdout.splitlines() if len(l.split()) > 4 and l.split()[1] == "line"]
        inserted = div in ("sbi", "barrier")
        expect(p.returncode == 0 and len(head) == 1 and head[0].startswith("divergence: %s (" % div)
               and "at a divergent branch: " in head[0] and ("WAIT" in ops) == inserted,
               "inspect --divergence %s: %s" % (div, head[0] if head else p.stderr.strip()))


def varloop():
    # 2 warps x 32 lanes, trips t % 7 + 1. Per warp: 16 insts to the branch,
    # 3 before the loop, 7 iterations x 6, 5 after: 66; thread insts
    # 64 x 24 + 6 x sum(trips) = 1536 + 6 x 253 = 3054. barrier: per warp
    # ADD 1 + one WAIT per exit group (7 trip counts) = 8.
    for div, want_div, kv in (("stack", 0, {}), ("sbi", 0, {}), ("barrier", 16, {}), ("multipath", 0, {}),
                              ("dualpath", 0, {}), ("aware", 0, {"aware_timeout": 100000000})):
        j, _ = sim("varloop", preset="seed", divergence=div, **kv)
        expect(j["status"] == "ok" and j["warp_insts"] == 132 and j["thread_insts"] == 3054,
               "varloop %s: 132 warp insts, 3054 thread insts (%s, %s)" % (div, j["warp_insts"], j["thread_insts"]))
        expect(j["div_insts"] == want_div, "varloop %s: %d div insts (%s)" % (div, want_div, j["div_insts"]))
    # aware with the default timeout (1000 cycles < the 7 x 400-cycle loads of
    # the longest lanes): early leavers are released and run the tail in
    # their own splits: more warp instructions, the same thread instructions
    j, _ = sim("varloop", preset="seed", divergence="aware")
    expect(j["status"] == "ok" and j["thread_insts"] == 3054 and j["warp_insts"] > 132,
           "varloop aware T=1000: 3054 thread insts, > 132 warp insts (%s)" % j["warp_insts"])
    # tbc: the loop's guarded back-edge is a CTA-wide wait; each iteration's
    # continuing threads are compacted, one dynamic warp per thread of the
    # busiest lane (docs/model.md). Thread t runs t % 7 + 1 iterations; lane l
    # holds threads l and 32 + l.
    dws = 0
    for it in range(1, 8):
        per_lane = [sum(1 for t in (l, 32 + l) if t % 7 + 1 >= it) for l in range(32)]
        dws += max(per_lane)
    # 2 x 19 before the loop, 6 per dynamic warp and iteration, 2 x 5 after
    want = 2 * 19 + 6 * dws + 2 * 5
    j, _ = sim("varloop", preset="seed", divergence="tbc")
    expect(dws == 11 and want == 114, "varloop tbc model: 11 dynamic-warp iterations, 114 warp insts")
    expect(j["status"] == "ok" and j["warp_insts"] == want and j["thread_insts"] == 3054,
           "varloop tbc: %d warp insts, 3054 thread insts (%s, %s)" % (want, j["warp_insts"], j["thread_insts"]))


def tbchalf():
    # sweeps/kernels/tbchalf.yaml, PTX order: 0-17 straight line, 18 @%p6 bra 20
    # (p6: even lanes of warp 0, odd lanes of warp 1), 19 bra.uni 27;
    # taken path 20-26 (7), fall-through path 19 + 27-31 (6), join 32-36 (5).
    # Per-warp schemes: each warp runs both paths half full: 2 x 13 = 26 warp
    # instructions in the region 19..31, 2 x (19 + 13 + 5) = 74 in all.
    # tbc: at 18 both warps wait; each path's 32 threads fill the 32 lanes once:
    # one full dynamic warp per path, 13 in the region (half), 2 x 19 + 13 +
    # 2 x 5 = 61 in all; the join restores the two warps.
    # thread insts (every scheme): 64 x 19 + 32 x 7 + 32 x 6 + 64 x 5 = 1952.
    with tempfile.TemporaryDirectory() as tmp:
        region = {}
        for div in ("stack", "sbi", "barrier", "multipath", "dualpath", "aware", "tbc"):
            j, rows = trace("tbchalf", div, tmp)
            want = 61 if div == "tbc" else 74
            expect(j["status"] == "ok" and j["warp_insts"] == want and j["thread_insts"] == 1952,
                   "tbchalf %s: %d warp insts, 1952 thread insts (%s, %s)" % (div, want, j["warp_insts"], j["thread_insts"]))
            if div in ("stack", "tbc"):              # untransformed kernel: PTX pcs
                region[div] = [r for r in rows if 19 <= r[1] <= 31]
        expect(len(region["stack"]) == 26 and len(region["tbc"]) == 13,
               "tbchalf: region 19..31 has 26 warp insts under stack, 13 under tbc (%d, %d)" %
               (len(region["stack"]), len(region["tbc"])))
        expect(all(m == 0xffffffff for _, _, m in region["tbc"]), "tbchalf tbc: every region instruction full")
        expect(sorted({m for _, _, m in region["stack"]}) == [0x55555555, 0xaaaaaaaa],
               "tbchalf stack: region instructions half full (even / odd lanes)")
        j, _ = sim("tbchalf", preset="seed", divergence="tbc")
        expect(j["simd_efficiency"] == 1952 / (61 * 32), "tbchalf tbc: SIMD efficiency 1952 / (61 x 32)")


{"ifelse": ifelse, "spinlock": spinlock, "varloop": varloop, "tbchalf": tbchalf}[sys.argv[1]]()
if fails:
    sys.exit("%d failure(s)" % len(fails))
