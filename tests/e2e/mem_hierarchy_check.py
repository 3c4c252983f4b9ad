#!/usr/bin/python3
"""The memory hierarchy of issue 12 end to end (tests/kernels/mem/).

usage: mem_hierarchy_check.py chase|rows|stream|atomics|fence|seed

Expected values are the closed forms of docs/memory.md evaluated here from
the parameters, never numbers read from a previous run:
  chase    pointer-chase plateaus at the L1, L2 and DRAM latencies (2%)
  rows     sequential vs row-conflicting chase over one DRAM bank: the
           difference is (1 - 1/R)(tRP + tRCD), R lines per row (2%)
  stream   a streaming read reaches dram_bw (5%), per-channel figures add up
  atomics  same-address atomics complete atomic_interval apart (2%)
  fence    membar.gl after a store waits for it, membar.cta does not
  seed     preset=seed: the new parameters change nothing (fixed model)
"""
import json, os, re, subprocess, sys, tempfile

BIN = os.environ.get("WS_BIN", "build/warpsweep")
K = os.path.abspath(os.path.join(os.environ.get("WS_SOURCE_DIR", "."), "tests/kernels/mem"))
fails = []

# The hierarchy the chase runs on (docs/memory.md, "Pointer chase"); a = 1.
H = dict(preset="seed", issue="blocking", alu_latency=1, sector_bytes=32,
         l1_kb=16, l1_ways=4, l1_latency=28,
         icnt_latency=10, icnt_req_bw=16, icnt_reply_bw=32, icnt_ctrl_bytes=8,
         l2_kb=64, l2_ways=16, l2_slices=1, l2_banks=1, l2_bank_bw=32, l2_latency=100,
         dram_channels=1, dram_banks=1, dram_row_bytes=2048, dram_tRCD=14, dram_tCL=12, dram_tRP=13,
         dram_bw=16, mem_latency=50)


def ceil_div(a, b):
    return -(-a // b)


def l2_hit(p):
    """core -> request port -> L2 bank -> slice -> reply port -> core, unloaded"""
    return (2 * p["icnt_latency"] + ceil_div(p["icnt_ctrl_bytes"], p["icnt_req_bw"]) + ceil_div(32, p["l2_bank_bw"])
            + p["l2_latency"] + ceil_div(32, p["icnt_reply_bw"]))


def dram_access(p, row):
    """L2 miss to DRAM: row 'hit', 'conflict' (another row open) or 'idle'"""
    act = {"hit": 0, "conflict": p["dram_tRP"] + p["dram_tRCD"], "idle": p["dram_tRCD"]}[row]
    return l2_hit(p) + act + p["dram_tCL"] + ceil_div(32, p["dram_bw"] / p["dram_channels"]) + p["mem_latency"]


def sim(path, **kv):
    args = [BIN, "sim", path, "--json"]
    for k, v in kv.items():
        args += ["--set", "%s=%s" % (k, v)]
    p = subprocess.run(args, capture_output=True, text=True, timeout=900)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        sys.exit("unparsable output of %s:\n%s\n%s" % (" ".join(args), p.stdout, p.stderr))
    if j.get("status") != "ok":
        sys.exit("%s: status %s %s" % (" ".join(args), j.get("status"), j.get("message")))
    return j


def expect(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        fails.append(what)


def near(got, want, tol):
    return abs(got - want) <= tol * abs(want)


def variant(tmp, name, tag, params, expect_text=None, entry=None):
    """A copy of tests/kernels/mem/<name>.yaml with other params (and expect)."""
    with open(os.path.join(K, name + ".yaml")) as f:
        text = f.read()
    text = re.sub(r"^params: \[.*\]", "params: [%s]" % ", ".join(map(str, params)), text, flags=re.M)
    text = text.replace("kernel: %s.ptx" % name, "kernel: %s" % os.path.join(K, name + ".ptx"))
    if entry:
        text = re.sub(r"^entry: .*", "entry: " + entry, text, flags=re.M)
    if expect_text is not None:
        text = text[:text.index("expect:")] + "expect:\n" + expect_text
    path = os.path.join(tmp, "%s_%s.yaml" % (name, tag))
    with open(path, "w") as f:
        f.write(text)
    return path


def chase_cycles(tmp, footprint, stride, iters, base=H, **kv):
    mask, step = footprint // 4 - 1, stride // 4
    path = variant(tmp, "chase", "%d_%d_%d" % (footprint, stride, iters), ["a", "out", iters, mask, step],
                   "  out: %d\n" % ((iters * step) & mask))
    return sim(path, **dict(base, **kv))


def per_iter(tmp, footprint, stride, n1, n2, **kv):
    """Steady-state cycles per iteration: the difference of two runs (the
    first pass, which warms the caches, cancels)."""
    a = chase_cycles(tmp, footprint, stride, n1, **kv)
    b = chase_cycles(tmp, footprint, stride, n2, **kv)
    return (b["cycles"] - a["cycles"]) / (n2 - n1), b


def chase(tmp):
    chain = 8 * H["alu_latency"]       # the 8 other instructions of the chain (chase.ptx)
    # L1: 4 KiB = 32 lines fit the 16 KiB L1
    t, _ = per_iter(tmp, 4096, 128, 64, 256)
    want = H["l1_latency"] + chain
    expect(near(t, want, 0.02), "chase 4 KiB: %.2f cycles/iteration ~ l1_latency + 8a = %d" % (t, want))
    # L2: 32 KiB = 256 lines: LRU cycles through the 128-line L1 (all miss), fits the 512-line L2
    t, j = per_iter(tmp, 32768, 128, 512, 1024)
    want = l2_hit(H) + chain
    expect(near(t, want, 0.02), "chase 32 KiB: %.2f cycles/iteration ~ L2 hit + 8a = %d" % (t, want))
    expect(j["l2_hit_rate"] > 0.6, "chase 32 KiB: l2_hit_rate %.3f (2 of 4 passes hit)" % j["l2_hit_rate"])
    # DRAM: stride = one row (16 lines): every access opens a new row of the one bank;
    # 256 KiB = 128 lines on 2 L1 sets (4 ways) and 2 L2 sets (16 ways): all miss
    t, j = per_iter(tmp, 262144, 2048, 256, 512)
    want = dram_access(H, "conflict") + chain
    expect(near(t, want, 0.02), "chase 256 KiB stride 2 KiB: %.2f cycles/iteration ~ DRAM (row conflict) + 8a = %d"
           % (t, want))
    expect(j["dram_row_hit_rate"] == 0, "chase stride 2 KiB: dram_row_hit_rate %g == 0" % j["dram_row_hit_rate"])
    expect(near(j["load_latency_max"], dram_access(H, "conflict"), 0.02),
           "chase: load_latency_max %d ~ %d" % (j["load_latency_max"], dram_access(H, "conflict")))


def rows(tmp):
    # one bank, 16 lines per row: sequential lines hit the open row 15 times in 16
    R = H["dram_row_bytes"] // 128
    seq, js = per_iter(tmp, 262144, 128, 2048, 4096)
    rnd, jr = per_iter(tmp, 262144, 2048, 2048, 4096)
    want = (1 - 1 / R) * (H["dram_tRP"] + H["dram_tRCD"])
    expect(near(rnd - seq, want, 0.02), "rows: conflict - sequential = %.3f cycles ~ (1 - 1/%d)(tRP + tRCD) = %.3f"
           % (rnd - seq, R, want))
    expect(near(js["dram_row_hit_rate"], 1 - 1 / R, 0.02),
           "rows: sequential dram_row_hit_rate %.4f ~ 1 - 1/%d" % (js["dram_row_hit_rate"], R))
    expect(jr["dram_row_hit_rate"] == 0, "rows: conflicting dram_row_hit_rate %g == 0" % jr["dram_row_hit_rate"])


def stream(tmp):
    # 16 CTAs x 128 threads = 64 warps, one 128-byte load in flight each: 8 KiB in
    # flight against dram_bw x latency = 8 x ~190 = 1.5 KiB (Little's law); one
    # scheduler issues the loop's 6 instructions per 128 B, 21 B/cycle > dram_bw
    kv = dict(preset="seed", sector_bytes=32, warps=64, dram_channels=4, dram_banks=4, dram_row_bytes=2048,
              dram_tRCD=14, dram_tCL=12, dram_tRP=13, dram_bw=8, mem_latency=100)
    j = sim(os.path.join(K, "stream.yaml"), **kv)
    bw = j["dram_bytes"] / j["cycles"]
    want_bytes = 131072 * 4 + 2048 * 4          # every element once + the sums (no caches)
    expect(j["dram_bytes"] == want_bytes, "stream: dram_bytes %d == %d" % (j["dram_bytes"], want_bytes))
    expect(bw >= 0.95 * kv["dram_bw"] and bw <= kv["dram_bw"] * 1.0000001,
           "stream: %.3f B/cycle within 5%% of dram_bw %g" % (bw, kv["dram_bw"]))
    chan = kv["dram_bw"] / kv["dram_channels"]
    total = j["dram_util_mean"] * kv["dram_channels"] * chan * j["cycles"]
    expect(near(total, j["dram_bytes"], 1e-9), "stream: channels' utilisation x bandwidth x cycles = %.1f == dram_bytes"
           % total)
    expect(j["dram_util_mean"] <= j["dram_util_max"] <= 1.0 and j["dram_util_max"] - j["dram_util_mean"] < 0.02,
           "stream: util mean %.4f <= max %.4f <= 1, lines spread evenly" % (j["dram_util_mean"], j["dram_util_max"]))
    expect(near(j["dram_utilization"], bw / kv["dram_bw"], 1e-9), "stream: dram_utilization %.4f" % j["dram_utilization"])


def atomics(tmp):
    I = 20
    kv = dict(preset="seed", sector_bytes=32, l2_kb=64, l2_latency=100, atomic_interval=I, mem_latency=100)
    cyc = {}
    for g in (4, 8):
        path = variant(tmp, "atomsame", "g%d" % g, ["counter", "old"], "  counter: %d\n" % (32 * g))
        with open(path) as f:
            text = re.sub(r"^grid: .*", "grid: %d" % g, f.read(), flags=re.M)
        with open(path, "w") as f:
            f.write(text)
        cyc[g] = sim(path, **kv)
    slope = (cyc[8]["cycles"] - cyc[4]["cycles"]) / (32 * 4)
    expect(near(slope, I, 0.02), "atomics: %.3f cycles per same-address lane ~ atomic_interval %d" % (slope, I))
    # warp k of 8 (arriving together) ends 32 (k + 1) I after the data is at the
    # slice: it waited 32 (k + 1) I - I beyond its own first operation
    want = sum((32 * (k + 1) - 1) * I for k in range(8))
    expect(near(cyc[8]["atomic_stall_cycles"], want, 0.02),
           "atomics: atomic_stall_cycles %d ~ sum_k (32(k+1) - 1) I = %d" % (cyc[8]["atomic_stall_cycles"], want))
    # the L1 sends a warp's 32 lanes on one address as 32 transactions (lanes on one address never
    # share one: GPGPU-Sim's atomic coalescing, docs/memory.md "Atomics"), one 32-byte sector
    # each: 32 requests and 32 x 32 B below the L1 per warp, + the warp's 128-byte store of old[]
    for g in (4, 8):
        j = cyc[g]
        expect(j["atom_requests"] == 32 * g and j["atom_sectors"] == g,
               "atomics g%d: atom_requests %d == 32 x %d, atom_sectors %d == %d"
               % (g, j["atom_requests"], g, j["atom_sectors"], g))
        expect(j["l2_bytes"] == g * (32 * 32 + 128), "atomics g%d: l2_bytes %d == %d x (32 x 32 + 128)"
               % (g, j["l2_bytes"], g))
    kv0 = dict(kv, atomic_interval=0)
    z = sim(path, **kv0)
    expect(z["cycles"] < cyc[8]["cycles"] - 32 * 8 * I * 0.9, "atomics: atomic_interval=0 (seed) does not serialise")


def fence(tmp):
    L = 400
    kv = dict(preset="seed", mem_latency=L, alu_latency=1)
    res = {}
    for entry in ("fence_gl", "fence_cta"):
        for mode in ("stores", "alu"):
            c = []
            for n in (16, 48):
                path = variant(tmp, "fence", "%s_%d" % (entry, n), ["out", n], "  out: %d\n" % n, entry=entry)
                c.append(sim(path, fence=mode, **kv)["cycles"])
            res[entry, mode] = (c[1] - c[0]) / 32
    # membar.gl waits for the store (L) then the loop's setp, bra and add (3a)
    expect(near(res["fence_gl", "stores"], L + 3, 0.02),
           "fence: membar.gl, fence=stores: %.2f cycles/iteration ~ mem_latency + 3a = %d" % (res["fence_gl", "stores"], L + 3))
    for k in (("fence_cta", "stores"), ("fence_gl", "alu"), ("fence_cta", "alu")):
        expect(res[k] < 10, "fence: %s fence=%s: %.2f cycles/iteration (no wait)" % (k[0], k[1], res[k]))


def seed(tmp):
    # preset=seed and the new parameters at values that keep each stage off
    # give exactly the seed's fixed-latency cycles: the chase at L + 8a
    # (L = mem_latency) per iteration, whatever the footprint
    for fp in (4096, 262144):
        base = dict(preset="seed", issue="blocking", alu_latency=1)
        a = chase_cycles(tmp, fp, 128, 64, base)
        b = chase_cycles(tmp, fp, 128, 128, base)
        t = (b["cycles"] - a["cycles"]) / 64
        expect(t == 400 + 8, "seed: chase %d B: %.2f cycles/iteration == mem_latency + 8a = 408" % (fp, t))
        expect(b["dram_row_hit_rate"] == 0 and b["l2_hit_rate"] == 0 and b["gmem_sectors"] == 128 + 1,
               "seed: no rows, no L2; gmem_sectors %d == 129" % b["gmem_sectors"])


def main():
    parts = dict(chase=chase, rows=rows, stream=stream, atomics=atomics, fence=fence, seed=seed)
    if len(sys.argv) != 2 or sys.argv[1] not in parts:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        parts[sys.argv[1]](tmp)
    if fails:
        sys.exit("%d check(s) failed" % len(fails))


if __name__ == "__main__":
    main()
