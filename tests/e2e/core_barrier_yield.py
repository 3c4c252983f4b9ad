#!/usr/bin/python3
"""barrier_yield (passes.h, docs/model.md): where the convergence-barrier pass
puts YIELD, end to end.

- spinlock (its exit depends on an atom.cas): a YIELD under both policies, so
  the lock's winner is released: status ok, counter 32, mutex 0, for every
  scheduler and issue mode.
- varloop (per-thread trip count t % 7 + 1; the loop loads data but exits on
  its counter): no YIELD under `spin`, so the early leavers wait at the loop's
  WAIT and the warp reconverges at the loop exit, exactly like the stack.
  Expected values by hand (docs/studies.md, kernels/varloop.ptx): per warp 16
  prologue + 3 loop-entry + 5 epilogue instructions at 32 lanes, and 6 loop
  instructions x 7 iterations (the longest trip count in each warp) = 66 warp
  instructions, 132 for the 2 warps. Thread instructions: 24 x 32 x 2 = 1536
  outside the loop + 6 x sum(t % 7 + 1, t = 0..63) = 6 x (122 + 131) = 1518 in
  it = 3054 (the same under every scheme: each thread runs its own path once).
  simd_efficiency = 3054 / (132 x 32) = 0.72301...
  Under `spin` the barrier run issues the same masks as the stack, so its
  efficiency equals the stack's: the tolerance is 1e-9 (float rounding only).
  Under `all` (the issue's literal reading, the previous behaviour) the YIELD
  on the back-edge releases the early leavers, which run the epilogue in their
  own splits: more warp instructions, the same 3054 thread instructions, lower
  efficiency, the epilogue's store issued by several partial splits.
- ifelse has no loop: both policies give identical metrics.
- one sweep with barrier_yield as an axis, run on one thread (one ws_sim, one
  transformed-kernel cache): the two policies give different varloop rows
  (the cache keys on the policy).
- inspect --divergence sbi shows 0 YIELD in varloop under spin, 1 under
  --set barrier_yield=all, 1 in spinlock under both; a bad value is refused.
"""
import csv, json, os, subprocess, sys, tempfile

BIN = os.environ.get("WS_BIN", "build/warpsweep")
SRC = os.path.abspath(os.environ.get("WS_SOURCE_DIR", "."))
K = os.path.join(SRC, "sweeps/kernels")
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


def inspect_yields(wl, *sets):
    args = [BIN, "inspect", os.path.join(K, wl + ".yaml"), "--divergence", "sbi"]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0, "inspect %s %s: exit 0 (%s)" % (wl, " ".join(sets), p.stderr.strip()))
    return sum(1 for l in p.stdout.splitlines() if l.rstrip().endswith("YIELD;"))


def ptx_line(wl, text):
    with open(os.path.join(K, wl + ".ptx")) as f:
        for n, l in enumerate(f, 1):
            if text in l:
                return n
    sys.exit("%s not in %s.ptx" % (text, wl))


WARP_INSTS, THREAD_INSTS = 2 * (16 + 3 + 5 + 6 * 7), 24 * 32 * 2 + 6 * (122 + 131)
SIMD = THREAD_INSTS / (WARP_INSTS * 32.0)
assert sum(t % 7 + 1 for t in range(32)) == 122 and sum(t % 7 + 1 for t in range(32, 64)) == 131


def spinlock():
    for pol in ("spin", "all"):
        for issue in ("scoreboard", "blocking"):
            for s in SCHEDULERS:
                j, err = sim("spinlock", ["--dump", "counter"], divergence="sbi", barrier_yield=pol,
                             scheduler=s, issue=issue)
                what = "spinlock barrier %s %s %s" % (pol, s, issue)
                expect(j["status"] == "ok", "%s: status %s %s" % (what, j["status"], j.get("message", "")))
                expect(err.strip().split()[-1:] == ["32"], "%s: counter %r == 32" % (what, err.strip()[-20:]))
                j, err = sim("spinlock", ["--dump", "mutex"], divergence="sbi", barrier_yield=pol,
                             scheduler=s, issue=issue)
                expect(err.strip().split()[-1:] == ["0"], "%s: mutex %r == 0" % (what, err.strip()[-20:]))


def epilogue_issues(path, line):
    """warp -> list of active masks with which the epilogue's store issued"""
    out = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            if int(r["ptx_line"]) == line:
                out.setdefault(int(r["warp"]), []).append(int(r["active_mask"], 16))
    return out


def varloop(tmp):
    st_line = ptx_line("varloop", "st.global.u32")
    for issue in ("scoreboard", "blocking"):
        for s in SCHEDULERS:
            for L in (100, 400):
                cfg = dict(scheduler=s, issue=issue, mem_latency=L)
                what = "varloop %s %s L=%d" % (s, issue, L)
                stk, _ = sim("varloop", divergence="stack", **cfg)
                tr = os.path.join(tmp, "v.csv")
                spn, _ = sim("varloop", ["--trace", tr], divergence="sbi", barrier_yield="spin", **cfg)
                ep_spin = epilogue_issues(tr, st_line)
                al, _ = sim("varloop", ["--trace", tr], divergence="sbi", barrier_yield="all", **cfg)
                ep_all = epilogue_issues(tr, st_line)
                for name, j in (("stack", stk), ("barrier spin", spn), ("barrier all", al)):
                    expect(j["status"] == "ok", "%s %s: status %s" % (what, name, j["status"]))
                    expect(j["thread_insts"] == THREAD_INSTS,
                           "%s %s: thread_insts %d == %d" % (what, name, j["thread_insts"], THREAD_INSTS))
                for name, j in (("stack", stk), ("barrier spin", spn)):
                    expect(j["warp_insts"] == WARP_INSTS,
                           "%s %s: warp_insts %d == %d" % (what, name, j["warp_insts"], WARP_INSTS))
                    expect(abs(j["simd_efficiency"] - SIMD) < 1e-9,
                           "%s %s: simd_efficiency %.6f == %.6f" % (what, name, j["simd_efficiency"], SIMD))
                expect(spn["simd_efficiency"] >= stk["simd_efficiency"] - 1e-9,
                       "%s: barrier spin efficiency %.4f >= stack %.4f" % (what, spn["simd_efficiency"],
                                                                        stk["simd_efficiency"]))
                # reconvergence: the loop's early leavers wait at its WAIT, so no
                # two ready splits ever coexist and the epilogue runs once, full
                expect(spn["max_warp_splits"] == 1, "%s spin: max_warp_splits %d == 1" % (what, spn["max_warp_splits"]))
                expect(sorted(ep_spin) == [0, 1] and all(m == [0xFFFFFFFF] for m in ep_spin.values()),
                       "%s spin: the store issues once per warp with the full mask: %r" % (what, ep_spin))
                # all: early leavers released by the YIELD, no reconvergence at the loop exit
                expect(al["warp_insts"] > WARP_INSTS, "%s all: warp_insts %d > %d" % (what, al["warp_insts"], WARP_INSTS))
                expect(al["simd_efficiency"] < stk["simd_efficiency"],
                       "%s all: efficiency %.4f < stack %.4f" % (what, al["simd_efficiency"], stk["simd_efficiency"]))
                expect(al["max_warp_splits"] >= 2, "%s all: max_warp_splits %d >= 2" % (what, al["max_warp_splits"]))
                expect(all(len(m) > 1 and all(x != 0xFFFFFFFF for x in m) for m in ep_all.values()) and len(ep_all) == 2,
                       "%s all: the store issues in several partial splits per warp" % what)


def ifelse():
    for L in (100, 400):
        a, _ = sim("ifelse", divergence="sbi", barrier_yield="spin", mem_latency=L)
        b, _ = sim("ifelse", divergence="sbi", barrier_yield="all", mem_latency=L)
        keys = ("status", "cycles", "warp_insts", "thread_insts", "simd_efficiency", "max_warp_splits")
        expect(all(a[k] == b[k] for k in keys), "ifelse L=%d: spin and all identical (no loop)" % L)


def cache(tmp):
    y = os.path.join(tmp, "s.yaml")
    with open(y, "w") as f:
        f.write("name: yield-cache\nworkload: %s\nbase: {divergence: sbi}\n"
                "grid:\n  barrier_yield: [spin, all, spin]\n" % os.path.join(K, "varloop.yaml"))
    h5 = os.path.join(tmp, "s.h5")
    p = subprocess.run([BIN, "run", y, "-o", h5, "-j", "1", "--quiet"], capture_output=True, text=True, timeout=600)
    expect(p.returncode == 0, "sweep over barrier_yield runs: %s" % p.stderr.strip())
    if p.returncode:
        return
    import h5py
    pts = h5py.File(h5, "r")["points"][...]
    dec = lambda v: v.decode() if isinstance(v, bytes) else v
    got = [(dec(r["barrier_yield"]), int(r["warp_insts"])) for r in pts]
    expect([g[0] for g in got] == ["spin", "all", "spin"], "sweep rows in order: %r" % got)
    expect(got[0][1] == WARP_INSTS and got[2][1] == WARP_INSTS and got[1][1] > WARP_INSTS,
           "one ws_sim, alternating policies: spin %d, all %d, spin %d" % (got[0][1], got[1][1], got[2][1]))


def inspect():
    expect(inspect_yields("varloop") == 0, "inspect varloop: no YIELD under the default (spin)")
    expect(inspect_yields("varloop", "barrier_yield=spin") == 0, "inspect varloop spin: no YIELD")
    expect(inspect_yields("varloop", "barrier_yield=all") == 1, "inspect varloop all: one YIELD")
    expect(inspect_yields("spinlock") == 1, "inspect spinlock spin: one YIELD")
    expect(inspect_yields("spinlock", "barrier_yield=all") == 1, "inspect spinlock all: one YIELD")
    p = subprocess.run([BIN, "inspect", os.path.join(K, "varloop.yaml"), "--divergence", "sbi",
                        "--set", "barrier_yield=some"], capture_output=True, text=True, timeout=60)
    expect(p.returncode != 0 and "barrier_yield" in p.stderr, "inspect refuses barrier_yield=some: %s" % p.stderr.strip())
    p = subprocess.run([BIN, "params"], capture_output=True, text=True, timeout=60)
    expect("barrier_yield" in p.stdout and "spin" in p.stdout, "params lists barrier_yield")


with tempfile.TemporaryDirectory() as tmp:
    inspect()
    ifelse()
    varloop(tmp)
    spinlock()
    cache(tmp)
if fails:
    sys.exit("FAIL: %d checks:\n  %s" % (len(fails), "\n  ".join(fails[:20])))
print("core_barrier_yield: ok")
