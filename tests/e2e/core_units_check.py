#!/usr/bin/python3
"""Structural limits of a core (issue 11): closed forms vs the simulator.

Kernels: tests/kernels/units (hand-designed PTX, written by gen.py; each
isolates one limit).  Every other limit is switched off with --set (lanes 0,
collectors 0, ibuffer 0, lsu_bytes_per_cycle 0, the cost classes 0, issue_width
1: the seed's idealised core), and the order of the PTX is kept
(inst_order=ptx) with one issue slot per PTX instruction (lowering=none; the
lowered case is checked at the end).  Start-up and drain are removed by measuring slopes: the
difference in cycles between two trip counts (loop kernels) or two lengths
(straight-line kernels), divided by the difference in work.  The closed forms
are derived in docs/model.md; none of the expected values comes from the
simulator.  Notation: W warps, S schedulers, ws = 32 the warp size,
II(lanes) = ceil(ws / lanes) (0 lanes: no limit), K = 16 unit instructions
per loop iteration (+ add, setp, bra).
"""
import json, math, os, re, subprocess, sys, tempfile

BIN = os.environ.get("WS_BIN", "build/warpsweep")
SRC = os.environ.get("WS_SOURCE_DIR", ".")
KDIR = os.path.join(os.path.abspath(SRC), "tests/kernels/units")
WS, K = 32, 16
OFF = dict(int_lanes=0, fp32_lanes=0, fp64_lanes=0, sfu_lanes=0, fp64_latency=0, int64_cost=1,
           idiv_latency=0, idiv_interval=0, fdiv_latency=0, fdiv_interval=0, ddiv_latency=0, ddiv_interval=0,
           lsu_bytes_per_cycle=0, collectors=0, ibuffer=0, issue_width=1, inst_order="ptx", lowering="none",
           scheduler="lrr", issue="scoreboard", alu_latency=4, sfu_latency=20, mem_latency=10,
           warps=64, max_ctas=64, cores=1, schedulers=1)
fails = []
tmp = tempfile.mkdtemp()
nvariant = [0]


def II(lanes):
    return math.ceil(WS / lanes) if lanes else 0


def variant(name, **sub):
    """The committed tests/kernels/units/NAME.yaml with some keys replaced:
    grid, block, entry, params (the whole list), the `iters` / `stride` kernel
    parameters and the element count of buffer `out` (count)."""
    with open(os.path.join(KDIR, name + ".yaml")) as f:
        t = f.read()
    t = re.sub(r"(?m)^kernel: (\S+)", lambda m: "kernel: " + os.path.join(KDIR, m.group(1)), t)
    for k, v in sub.items():
        if k == "iters":     # params: [out, ITERS, ...] and the expected trip count
            t = re.sub(r"(?m)^(params: \[out, )\d+", r"\g<1>%d" % v, t)
            t = re.sub(r"(?m)^(  out: )\d+", r"\g<1>%d" % v, t)
        elif k == "count":
            t = re.sub(r"(?m)^(  out: \{type: u32, count: )\d+", r"\g<1>%d" % v, t)
        elif k == "stride":  # params: [out, iters, STRIDE]
            t = re.sub(r"(?m)^(params: \[out, \d+, )\d+", r"\g<1>%d" % v, t)
        else:
            t = re.sub(r"(?m)^%s: .*$" % k, "%s: %s" % (k, v), t)
    nvariant[0] += 1
    path = os.path.join(tmp, "%s_%d.yaml" % (name, nvariant[0]))
    with open(path, "w") as f:
        f.write(t)
    return path


def run(path, **kv):
    cfg = dict(OFF)
    cfg.update(kv)
    args = [BIN, "sim", path, "--json"]
    for k, v in cfg.items():
        args += ["--set", "%s=%s" % (k, v)]
    p = subprocess.run(args, capture_output=True, text=True)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        sys.exit("bad output from %s:\n%s\n%s" % (" ".join(args), p.stdout, p.stderr))
    if j["status"] != "ok":
        fails.append("%s: status %s: %s" % (" ".join(args), j["status"], j.get("message")))
    return j


def check(label, got, want, tol=0.0):
    ok = abs(got - want) <= tol * want + 1e-9
    print("%-66s got %10.4f want %10.4f %s" % (label, got, want, "ok" if ok else "FAIL"))
    if not ok:
        fails.append("%s: got %.4f, want %.4f (tolerance %g%%)" % (label, got, want, tol * 100))


def loop_slope(name, iters, key="cycles", sub=None, **kv):
    """d(key)/d(iters) for a loop kernel, and the two runs."""
    sub = sub or {}
    a = run(variant(name, iters=iters[0], **sub), **kv)
    b = run(variant(name, iters=iters[1], **sub), **kv)
    return (b[key] - a[key]) / (iters[1] - iters[0]), (a, b)


def line_slope(name, prefix, lengths, key="cycles", sub=None, **kv):
    """d(key)/d(n) for the straight-line entries PREFIX_n, n in lengths."""
    sub = sub or {}
    a = run(variant(name, entry="%s_%d" % (prefix, lengths[0]), **sub), **kv)
    b = run(variant(name, entry="%s_%d" % (prefix, lengths[1]), **sub), **kv)
    return (b[key] - a[key]) / (lengths[1] - lengths[0]), (a, b)


def warp_insts(label, runs, per_warp, W):
    """Hand count of the warp instructions (the kernel ran as designed)."""
    for j, n in zip(runs, per_warp):
        check("%s: warp_insts" % label, j["warp_insts"], W * n)


# ---- a-c. execution units: a unit-bound loop runs at S x lanes / ws instructions per cycle ----
# W = 32 one-warp CTAs; per iteration each warp issues K unit instructions + 3 on other units,
# so with II >= 2 the unit is the bottleneck: a scheduler's unit is busy (W/S) K II cycles
# per iteration (every warp always has the next unit instruction ready).
W = 32
for unit, name, param, lanes_list, prologue in (("SFU", "sfu", "sfu_lanes", (4, 16), 5),
                                                ("FP64", "fp64", "fp64_lanes", (8, 0.5), 7),
                                                ("FP32", "fp32", "fp32_lanes", (16, 12, 10), 7)):
    for S in (1, 4):
        for lanes in lanes_list:
            iters = (2, 4) if lanes < 1 else (10, 20)
            slope, runs = loop_slope(name, iters, schedulers=S, **{param: lanes})
            # unit instructions per cycle per core: S / II (= S x lanes / ws when lanes divide ws)
            check("%s S=%d %s=%g: %s insts/cycle = S/ceil(ws/lanes)" % (unit, S, param, lanes, unit),
                  W * K / slope, S / II(lanes))
            warp_insts("%s S=%d %s=%g" % (unit, S, param, lanes), runs, [prologue + (K + 3) * i + 8 for i in iters], W)

# ---- conversions (cvt.ptx): under lowering=ptxas an int -> f32 conversion (I2F) occupies the XU,
# booked as the SFU (docs/model.md "Lowering"; CUDA C++ Programming Guide throughput table: 16
# conversions per clock per SM on compute capability 7.x, the MUFU's rate), so a cvt-bound loop runs
# at S / II(sfu_lanes) conversions per cycle per core; under lowering=none on the unit of its widest
# type (types.c: f32 -> FP32) at S / II(fp32_lanes). Everything else as in a-c (W = 32 one-warp CTAs,
# K = 16 per iteration).
for low, param, lanes in (("ptxas", "sfu_lanes", 4), ("ptxas", "sfu_lanes", 16), ("none", "fp32_lanes", 8)):
    for S in (1, 4):
        slope, runs = loop_slope("cvt", (10, 20), schedulers=S, lowering=low, **{param: lanes})
        check("CVT lowering=%s S=%d %s=%g: conversions/cycle = S/ceil(ws/lanes)" % (low, S, param, lanes),
              W * K / slope, S / II(lanes))
        warp_insts("CVT lowering=%s S=%d" % (low, S), runs, [4 + (K + 3) * i + 8 for i in (10, 20)], W)

# ---- d. LD/ST pipe: a shared access occupies it ceil(wavefronts x smem_banks x 4 / lsu) cycles ----
# 4 CTAs x 8 warps; lane l reads word l*stride + j: stride 32 = 32 wavefronts, stride 1 = 1.
# The pipe is per core: per iteration W K accesses take W K occupancy cycles whatever S is,
# unless the issue slots bind: W (K + 3) / S.
W, banks = 32, 32
for stride, wf in ((32, 32), (1, 1)):
    for lsu, S in ((128, 1), (128, 4), (64, 1), (64, 4), (0, 1)):
        if stride == 1 and lsu == 128 and S == 4:
            continue    # scheduler 0's priority makes a convoy: docs/model.md, "LD/ST pipe"; smem_line below
        occ = math.ceil(wf * banks * 4 / lsu) if lsu else 0
        want = max(W * K * occ, W * (K + 3) / S)
        slope, runs = loop_slope("smem", (5, 10), sub=dict(stride=stride), schedulers=S, lsu_bytes_per_cycle=lsu)
        check("LSU stride=%d lsu=%d S=%d: cycles/iteration = max(W K occ, W (K+3)/S)" % (stride, lsu, S),
              slope, want)
        # the replays the seed counts: (degree - 1) per access
        check("LSU stride=%d lsu=%d S=%d: smem_bank_conflicts/iteration" % (stride, lsu, S),
              (runs[1]["smem_bank_conflicts"] - runs[0]["smem_bank_conflicts"]) / 5, W * K * (wf - 1))

# Without the loop (smem_line: loads only), every warp always offers an access, so the pipe
# is the bound at every S: cycles per access = occupancy, 32 (stride 32) against 1 (stride 1)
# at 128 B/cycle.
for stride, wf in ((32, 32), (1, 1)):
    for lsu, S in ((128, 1), (128, 4), (64, 4)):
        occ = math.ceil(wf * banks * 4 / lsu)
        slope, runs = line_slope("smem_line", "smem_line", (64, 128), sub=dict(params="[%d]" % stride),
                                 schedulers=S, lsu_bytes_per_cycle=lsu)
        check("LSU loads only, stride=%d lsu=%d S=%d: cycles/access = occupancy" % (stride, lsu, S), slope / W, occ)
        warp_insts("LSU loads only, stride=%d lsu=%d S=%d" % (stride, lsu, S), runs, (7 + 64 + 1, 7 + 128 + 1), W)

# ---- e. operand collector and register banks ----
# Straight-line fma.rn.f32 of one warp (or two, slots 0 and 1), 1 scheduler, rf_banks = 2.
# Register r of the warp in slot w is in bank (r + w) mod 2; registers are numbered in
# declaration order (%f0..%f23 = 0..23).  Per instruction, r_b reads go to bank b:
#   h = max_b ceil(r_b / ports)     cycles a collector is held when the banks are idle
#   B = max_b (reads of bank b per round of the W warps) / (ports W)   the banks' bound
#   cycles per instruction T = max(1, h / C, B) for C >= 1 collectors; 1 for C = 0 (seed).
# With one collector the reads of consecutive instructions never overlap (T = h); with more,
# they queue at the bank, which then serves `ports` reads every cycle.
SRCS = {"same": (16, 18, 20), "split": (16, 17, 18)}
for kind, regs in sorted(SRCS.items()):
    for C in (0, 1, 2):
        for ports in (1, 2):
            for Wb in (1, 2):
                reads = [[0, 0] for _ in range(Wb)]
                for w in range(Wb):
                    for r in regs:
                        reads[w][(r + w) % 2] += 1
                h = max(math.ceil(n / ports) for n in reads[0])
                B = max(sum(reads[w][b] for w in range(Wb)) for b in (0, 1)) / (ports * Wb)
                want = max(1, h / C, B) if C else 1
                slope, runs = line_slope("banks", "bank_" + kind, (64, 128), collectors=C, rf_banks=2,
                                         rf_bank_ports=ports, sub=dict(block=32 * Wb))
                check("banks %s C=%d ports=%d W=%d: cycles/FMA = max(1, h/C, B)" % (kind, C, ports, Wb),
                      slope / Wb, want)
# The reads delay execution: a dependent chain costs alu_latency + (h - 1) per FMA.
for C, ports in ((0, 2), (1, 2), (1, 1), (2, 2)):
    h = math.ceil(3 / ports) if C else 1
    slope, runs = line_slope("banks", "bank_chain", (64, 128), collectors=C, rf_banks=2, rf_bank_ports=ports)
    check("banks chain C=%d ports=%d: cycles/FMA = alu_latency + h - 1" % (C, ports), slope, 4 + h - 1)
    warp_insts("banks chain C=%d ports=%d" % (C, ports), runs, (8 + 64 + 1, 8 + 128 + 1), 1)

# ---- f. dual issue: one warp per scheduler per cycle, up to issue_width consecutive ones ----
# Straight-line code of W warps.  Cycles per instruction T = max(issue, unit, dependence):
#   issue: 1 / issue_width for independent consecutive instructions on different units
#          (indep), else 1 (same unit: same; dependent: dep);
#   unit: the busier unit's II per instruction (indep: max(II_int, II_fp32) / 2; same: II_fp32);
#   dependence (dep, a chain per warp): alu_latency / W.
for kind in ("indep", "same", "dep"):
    for iw in (1, 2):
        for lanes in (32, 0, 16):
            for Wd in (1, 8):
                issue = 1 / iw if kind == "indep" else 1
                ii_int = ii_fp32 = II(lanes)
                unit = max(ii_int, ii_fp32) / 2 if kind != "same" else ii_fp32
                dep = 4 / Wd if kind == "dep" else 0
                want = max(issue, unit, dep)
                slope, runs = line_slope("dual", "dual_" + kind, (64, 128), issue_width=iw, int_lanes=lanes,
                                         fp32_lanes=lanes, sub=dict(block=32 * Wd))
                check("dual %s issue_width=%d lanes=%d W=%d: cycles/inst = max(issue, unit, dep)"
                      % (kind, iw, lanes, Wd), slope / Wd, want)

# ---- g. front end: the taken-branch bubble of a one-warp loop ----
# n = 9 instructions per iteration, each reading results >= 4 instructions old.  A refill
# books a fetch port at cycle t and its instructions issue from t + F: after the branch
# issues at t the target is fetched at t + 1 (F cycles lost); a buffer emptied by the
# issue at t is refilled at t (F - 1 lost).  A loop iteration refills ceil(n/B) times, once
# after the branch: cycles/iteration = n + F + (F - 1)(ceil(n/B) - 1); ibuffer 0: n.
n = 9
for B in (0, 1, 2, 4, 9, 16):
    for F in ((1,) if B == 0 else (1, 2, 3)):
        lost = F + (F - 1) * (math.ceil(n / B) - 1) if B else 0
        slope, runs = loop_slope("frontend", (25, 50), ibuffer=B, fetch_latency=F)
        check("front end ibuffer=%d fetch_latency=%d: cycles/iteration" % (B, F), slope, n + lost)
        fslope = (runs[1]["idle_fetch"] - runs[0]["idle_fetch"]) / 25
        check("front end ibuffer=%d fetch_latency=%d: idle_fetch/iteration" % (B, F), fslope, lost)
        warp_insts("front end ibuffer=%d fetch_latency=%d" % (B, F), runs, [6 + n * i + 8 for i in (25, 50)], 1)
# fetch_width ports per core: 4 warps on 4 schedulers need 4 ceil(n/B) refills per iteration.
for B in (1, 2, 4):
    for fw in (1, 2):
        want = max(n + 1, 4 * math.ceil(n / B) / fw)
        slope, runs = loop_slope("frontend", (25, 50), sub=dict(grid=4, count=128), ibuffer=B, fetch_latency=1,
                                 fetch_width=fw, schedulers=4)
        check("front end 4 warps ibuffer=%d fetch_width=%d: cycles/iteration" % (B, fw), slope, want)

# ---- cost classes: 64-bit integer, division sequences (8 warps; chains: 1 warp) ----
V = dict(int_lanes=16, fp32_lanes=16, fp64_lanes=8, sfu_lanes=4, int64_cost=2, idiv_interval=8, idiv_latency=145,
         fdiv_interval=4, fdiv_latency=39, ddiv_interval=130, ddiv_latency=330, fp64_latency=8)
for cfg in (V, dict(V, idiv_interval=0, fdiv_interval=0, ddiv_interval=0, idiv_latency=0, ddiv_latency=0,
                    fp64_latency=0)):
    # occupancy per warp instruction: the class's interval, else the unit's II (x int64_cost: wide)
    occ = {"wide": II(cfg["int_lanes"]) * cfg["int64_cost"], "mulwide": II(cfg["int_lanes"]) * cfg["int64_cost"],
           "idiv": cfg["idiv_interval"] or II(cfg["int_lanes"]), "fdiv": cfg["fdiv_interval"] or II(cfg["fp32_lanes"]),
           "ddiv": cfg["ddiv_interval"] or II(cfg["fp64_lanes"]), "approx": II(cfg["sfu_lanes"])}
    # latency of a dependence chain: the class's latency, else sfu_latency (the seed's); f64 FMA:
    # fp64_latency, else alu_latency
    lat = {"idivc": cfg["idiv_latency"] or 20, "ddivc": cfg["ddiv_latency"] or 20, "dfmac": cfg["fp64_latency"] or 4}
    tag = "intervals set" if cfg["idiv_interval"] else "intervals 0"
    for kind, want in sorted(occ.items()):
        slope, runs = line_slope("cost", "cost_" + kind, (16, 32), **cfg)
        check("cost %s (%s): cycles/inst = occupancy" % (kind, tag), slope / 8, max(1, want))
    for kind, want in sorted(lat.items()):
        slope, runs = line_slope("cost", "cost_" + kind, (16, 32), sub=dict(block=32), **cfg)
        check("cost %s (%s): cycles/inst = latency" % (kind, tag), slope, want)

# ---- lowering=ptxas: an expansion holds the scheduler's issue port one cycle per SASS instruction ----
# The same 8-warp straight-line kernels: an instruction occupies max(its unit's occupancy, its SASS
# count) cycles of the one scheduler, and its unit's occupancy is the count of its SASS instructions
# on that unit x the unit's interval II(lanes), not the cost class's interval. SASS counts are
# ptxas's (CUDA 13.0, sm_75; bench/lowering/forms.tsv): div.rn.f32 8 + 3 (BMOV, BSSY, BSYNC around the
# slow-path call, bench/lowering/kernels/fdiv) = 11, of which FFMA x5 + FCHK on FP32: 6 x II(16) = 12;
# div.u32 18 (its divisor is not in a loop), all but I2F, MUFU.RCP, F2I on INT: 15 x 2 = 30;
# div.rn.f64 14 + 3 = 17, DFMA x7 + DMUL on FP64: 8 x II(8) = 32; add.s64 2 (IADD3 + IMAD.X) on INT:
# 2 x 2 = 4.
sass = {"fdiv": 11, "idiv": 18, "ddiv": 17, "wide": 2}
occ = {"fdiv": 6 * II(V["fp32_lanes"]), "idiv": 15 * II(V["int_lanes"]), "ddiv": 8 * II(V["fp64_lanes"]),
       "wide": 2 * II(V["int_lanes"])}
for kind in sorted(sass):
    slope, runs = line_slope("cost", "cost_" + kind, (16, 32), lowering="ptxas", **V)
    check("cost %s (lowering=ptxas): cycles/inst = max(own-unit SASS x II, SASS count)" % kind, slope / 8,
          max(occ[kind], sass[kind]))

if fails:
    print("\n%d FAILED:" % len(fails))
    for f in fails:
        print("  " + f)
    sys.exit(1)
print("all closed forms hold")
