#!/usr/bin/python3
"""The memory system (issue 5) end to end on the shipped workloads.

usage: mem_checks.py coalescing|locality|bandwidth|banks|correctness
Expected values come from the analytical model in docs/memory.md, on the
seed's memory (tests/e2e/seed_memory.py) with the stage a check tests turned on (line
counts, sector bytes, gcd rule, Little's law), never from the simulator.
Workload variants (other params/grid) are written to a temporary directory
next to a copy of the kernel's PTX.
"""
import json, math, os, shutil, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed_memory import seed_memory_sets, v1_core_sets  # noqa: E402

BIN = os.environ.get("WS_BIN", "build/warpsweep")
K = os.path.join(os.environ.get("WS_SOURCE_DIR", "."), "sweeps/kernels")
fails = []


def sim(path, **kv):
    # the issue-5 models assume the seed's memory: each check turns on the stages it tests
    args = [BIN, "sim", path, "--json"] + v1_core_sets() + seed_memory_sets()
    for k, v in kv.items():
        args += ["--set", "%s=%s" % (k, v)]
    p = subprocess.run(args, capture_output=True, text=True, timeout=900)
    try:
        return json.loads(p.stdout)
    except ValueError:
        sys.exit("unparsable output of %s:\n%s\n%s" % (" ".join(args), p.stdout, p.stderr))


def wl(name):
    return os.path.join(K, name + ".yaml")


def expect(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        fails.append(what)


def variant(tmp, name, fname, edit):
    """A copy of workload `name` with its yaml text passed through edit()."""
    shutil.copy(os.path.join(K, name + ".ptx"), tmp)
    with open(wl(name)) as f:
        text = edit(f.read())
    path = os.path.join(tmp, fname)
    with open(path, "w") as f:
        f.write(text)
    return path


def coalescing(tmp):
    # strided: 1 CTA x 128 threads = 4 warps; one ld.global.u32 at in + 4*i*s,
    # one coalesced st.global.u32 to out.  Load lines per warp instruction:
    # min(32, ceil(32*4*s/128)); the store: 1 line, 128 B = 4 sectors.
    for s in (1, 2, 4, 8, 32):
        path = variant(tmp, "strided", "strided_%d.yaml" % s,
                       lambda t: t.replace("params: [in, out, 128, 1]", "params: [in, out, 128, %d]" % s))
        j = sim(path)
        lines = min(32, math.ceil(32 * 4 * s / 128))
        expect(j["status"] == "ok", "strided s=%d: status %s %s" % (s, j["status"], j["message"]))
        expect(j["gmem_lines"] == 4 * (lines + 1),
               "strided s=%d: gmem_lines %d == 4 warps x (%d load lines + 1 store line)" % (s, j["gmem_lines"], lines))
        expect(j["dram_bytes"] == 4 * (lines * 128 + 128),
               "strided s=%d: dram_bytes %d == 4 x (%d x 128 + 128)" % (s, j["dram_bytes"], lines))


def locality(tmp):
    # cachesens: 16 warps x 2 KB slices re-read 8 times.  l1_kb=8 holds 4
    # slices (16 sets x 4 ways, one line of each slice per set).  lrr streams
    # all 32 KB through it: no reuse survives; swl with 4 warps keeps its
    # slices: every repetition after the first hits, 7/8.  The 7/8 assumes
    # one load in flight per warp, as in the PTX order (inst_order=ptx); the
    # ptxas-like order overlaps four loads of a warp, so its slices interleave.
    small = dict(l1_kb=8, l1_ways=4, inst_order="ptx")
    r = {}
    for bw in (0, 2):
        for s, extra in (("lrr", {}), ("gto", {}), ("swl2", dict(swl_limit=2)), ("swl4", dict(swl_limit=4))):
            kv = dict(small, dram_bw=bw, scheduler=s[:3] if s.startswith("swl") else s, **extra)
            r[s, bw] = sim(wl("cachesens"), **kv)
            expect(r[s, bw]["status"] == "ok", "cachesens %s bw=%s: status %s" % (s, bw, r[s, bw]["status"]))
    best = max(("swl2", "swl4"), key=lambda s: r[s, 2]["ipc"])
    print("      best static swl limit: %s; l1_hit_rate lrr %.3f gto %.3f swl %.3f" %
          (best, r["lrr", 0]["l1_hit_rate"], r["gto", 0]["l1_hit_rate"], r[best, 0]["l1_hit_rate"]))
    expect(r[best, 0]["l1_hit_rate"] >= r["lrr", 0]["l1_hit_rate"] + 0.5,
           "cachesens: swl hit rate %.3f >> lrr %.3f" % (r[best, 0]["l1_hit_rate"], r["lrr", 0]["l1_hit_rate"]))
    expect(abs(r[best, 0]["l1_hit_rate"] - 7 / 8) < 0.02, "cachesens: swl hit rate ~ 7/8 (reps 8)")
    expect(r[best, 2]["ipc"] > 1.5 * r["lrr", 2]["ipc"],
           "cachesens dram_bw=2: ipc swl %.3f > 1.5 x lrr %.3f" % (r[best, 2]["ipc"], r["lrr", 2]["ipc"]))
    expect(r["gto", 0]["l1_hit_rate"] >= r["lrr", 0]["l1_hit_rate"],
           "cachesens: gto hit rate %.3f >= lrr %.3f (reported, not forced higher)" %
           (r["gto", 0]["l1_hit_rate"], r["lrr", 0]["l1_hit_rate"]))
    # an L1 that holds every slice: hit rates all 7/8
    for s in ("lrr", "gto", "swl"):
        j = sim(wl("cachesens"), l1_kb=64, scheduler=s)
        expect(abs(j["l1_hit_rate"] - 7 / 8) < 0.02, "cachesens l1_kb=64 %s: hit rate %.3f ~ 7/8" % (s, j["l1_hit_rate"]))


def bandwidth(tmp):
    # vecadd on 256 CTAs x 128 threads (32768 elements: the start-up and the
    # tail are small against the steady state).  dram_bw=4: Little's law needs
    # 4 x (400 + 32) / 128 = 13.5 lines in flight; each warp has 2 loads in
    # flight, so ~7 warps saturate DRAM.
    def edit(t):
        head = t[:t.index("expect:")]
        head = head.replace("grid: 8", "grid: 256").replace("count: 1024", "count: 32768")
        head = head.replace("[a, b, c, 1000]", "[a, b, c, 32768]")
        return head + "expect:\n  c: {iota: {start: 0, step: 3}}\n"
    path = variant(tmp, "vecadd", "vecadd_big.yaml", edit)
    ipc = {}
    for w in (4, 8, 16, 32, 64):
        j = sim(path, warps=w, dram_bw=4)
        expect(j["status"] == "ok", "vecadd warps=%d: status %s %s" % (w, j["status"], j["message"]))
        expect(j["dram_bytes"] == 1024 * (2 * 128 + 128), "vecadd warps=%d: dram_bytes %d == 1024 warps x 384" % (w, j["dram_bytes"]))
        ipc[w] = j["ipc"]
        if w >= 16:
            expect(j["dram_utilization"] >= 0.9, "vecadd warps=%d: dram_utilization %.3f >= 0.9" % (w, j["dram_utilization"]))
    expect(ipc[64] <= ipc[16] * 1.02, "vecadd: ipc stops rising (16 warps %.3f, 64 warps %.3f)" % (ipc[16], ipc[64]))
    expect(ipc[8] > ipc[4] * 1.3, "vecadd: below saturation more warps help (4: %.3f, 8: %.3f)" % (ipc[4], ipc[8]))


SMEM_PTX = """// hand-written
.version 7.0
.target sm_75
.address_size 64

.visible .entry smemstride(.param .u64 out, .param .u32 stride)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<6>;
    .shared .align 4 .b8 sm[4096];
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [stride];
    mov.u32 %r2, %tid.x;
    mul.lo.u32 %r3, %r2, %r1;
    shl.b32 %r3, %r3, 2;
    mov.u32 %r4, sm;
    add.u32 %r4, %r4, %r3;
    st.shared.u32 [%r4], %r2;
    ld.shared.u32 %r5, [%r4];
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r2, 4;
    add.u64 %rd4, %rd2, %rd3;
    st.global.u32 [%rd4], %r5;
    ret;
}
"""


def banks(tmp):
    # one warp: st.shared + ld.shared at word tid*s: each costs gcd(s,32)-1 replays
    with open(os.path.join(tmp, "smemstride.ptx"), "w") as f:
        f.write(SMEM_PTX)
    for s in (1, 2, 4, 32):
        path = os.path.join(tmp, "smem_%d.yaml" % s)
        with open(path, "w") as f:
            f.write("name: smemstride\nkernel: smemstride.ptx\nentry: smemstride\ngrid: 1\nblock: 32\n"
                    "buffers:\n  out: {type: u32, count: 32, init: 0}\nparams: [out, %d]\n"
                    "expect:\n  out: {iota: {start: 0, step: 1}}\n" % s)
        j = sim(path)
        want = 2 * (math.gcd(s, 32) - 1)
        expect(j["status"] == "ok", "smem stride %d: status %s %s" % (s, j["status"], j["message"]))
        expect(j["smem_bank_conflicts"] == want, "smem stride %d: smem_bank_conflicts %d == 2 x (gcd(%d,32) - 1)" %
               (s, j["smem_bank_conflicts"], s))
    for name in ("reduce", "matmul"):
        j = sim(wl(name))
        expect(j["smem_bank_conflicts"] == 0, "%s: stride-1 shared accesses are conflict-free" % name)


def correctness(tmp):
    # timing only: every workload's expectations hold with the memory system on
    for f in sorted(os.listdir(K)):
        if not f.endswith(".yaml") or f.startswith("spinlock"):
            continue
        for kv in (dict(l1_kb=16, dram_bw=8, l1_mshrs=4), dict(cores=4, l1_kb=8, dram_bw=3.5, scheduler="gto")):
            j = sim(os.path.join(K, f), **kv)
            expect(j["status"] == "ok", "%s %s: status %s %s" % (f, kv, j["status"], j["message"][:80]))
    # the defaults are the fixed-latency model: no L1 traffic, no MSHR stall
    j = sim(wl("vecadd"))
    expect(j["l1_hit_rate"] == 0 and j["idle_mshr"] == 0 and j["dram_utilization"] == 0,
           "vecadd defaults: no L1, no MSHR stalls, unlimited DRAM")


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else ""
    fn = {"coalescing": coalescing, "locality": locality, "bandwidth": bandwidth,
          "banks": banks, "correctness": correctness}.get(which)
    if not fn:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        fn(tmp)
    if fails:
        sys.exit("%d check(s) failed" % len(fails))
