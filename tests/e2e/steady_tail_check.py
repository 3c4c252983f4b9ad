"""Steady state and tail (docs/model.md "Steady state and tail"), checked
against an independent model built from the --trace of the same run.

The model replays the CTA dispatcher from the trace alone: CTAs are handed out
round-robin over the cores at cycle 0 (ctas_per_core rounds), a CTA finishes in
the cycle its last warp issues `ret` (each warp of these kernels issues it once,
converged), and a freed slot is refilled at the end of that cycle while CTAs
remain. A cycle is steady when every core holds ctas_per_core CTAs at its
start. From that: steady_cycles, steady_ipc (active lanes of the issues in
steady cycles / steady_cycles), steady_cta_rate (CTAs finished in steady cycles
per 1000 of them) and tail_fraction = 1 - steady_cycles / cycles.
"""
import csv, json, os, subprocess, sys, tempfile

BIN, SRC = sys.argv[1], sys.argv[2]
PTX = os.path.join(SRC, "sweeps", "kernels", "saxpy.ptx")
SEED = subprocess.run([sys.executable, os.path.join(SRC, "tests", "e2e", "seed_memory.py")],
                      capture_output=True, text=True, check=True).stdout.split()[1::2]

def workload(d, grid, block):
    n = grid * block
    p = os.path.join(d, "sax_%d_%d.yaml" % (grid, block))
    with open(p, "w") as f:
        f.write("name: sax\nkernel: %s\nentry: _Z5saxpyifPKfPf\ngrid: %d\nblock: %d\nregs_per_thread: 10\n"
                "buffers:\n  x: {type: f32, count: %d, init: iota}\n  y: {type: f32, count: %d, init: 1}\n"
                "params: [%d, 2.5, x, y]\nexpect:\n  y: {iota: {start: 1, step: 2.5}}\n"
                % (PTX, grid, block, n, n, n))
    return p

def model(trace, ncores, cpc, wpc, grid, cycles):
    rows = list(csv.DictReader(open(trace)))
    count = [0] * ncores
    nxt = 0
    for _ in range(cpc):
        for c in range(ncores):
            if nxt < grid:
                count[c] += 1
                nxt += 1
    exits = {}   # cycle -> list of (core, warp)
    lanes = {}   # cycle -> active lanes issued
    for r in rows:
        t = int(r["cycle"])
        lanes[t] = lanes.get(t, 0) + bin(int(r["active_mask"], 16)).count("1")
        if r["opcode"] == "ret":
            exits.setdefault(t, []).append((int(r["core"]), int(r["warp"])))
    done = {}
    steady = steady_lanes = steady_ctas = 0
    for t in range(cycles):
        full = all(k == cpc for k in count)
        finished = 0
        for core, warp in exits.get(t, []):
            key = (core, warp // wpc)
            done[key] = done.get(key, 0) + 1
            if done[key] == wpc:
                done[key] = 0
                count[core] -= 1
                finished += 1
        if full:
            steady += 1
            steady_lanes += lanes.get(t, 0)
            steady_ctas += finished
        for c in range(ncores):          # refill at the end of the cycle, lowest core first
            while count[c] < cpc and nxt < grid:
                count[c] += 1
                nxt += 1
    return steady, steady_lanes, steady_ctas

bad = []
with tempfile.TemporaryDirectory() as d:
    cases = [  # grid, block, sets
        (40, 64, ["cores=3", "max_ctas=4"]),
        (40, 64, ["cores=3", "max_ctas=4"] + SEED),
        (23, 32, ["cores=2", "max_ctas=3", "scheduler=gto"] + SEED),
        (64, 128, ["cores=1", "max_ctas=2", "issue_width=2"]),
        (17, 64, ["cores=4", "max_ctas=2", "scheduler=two_level"]),
        (5, 64, ["cores=2", "max_ctas=4"]),            # never full: steady 0, tail 1
        (12, 64, ["cores=2", "max_ctas=3", "divergence=barrier"] + SEED),
    ]
    for grid, block, sets in cases:
        wl = workload(d, grid, block)
        tr = os.path.join(d, "t.csv")
        args = [BIN, "sim", wl, "--json", "--trace", tr]
        for s in sets:
            args += ["--set", s]
        p = subprocess.run(args, capture_output=True, text=True)
        what = "grid %d block %d %s" % (grid, block, " ".join(s for s in sets if s not in SEED) +
                                         (" preset=seed memory" if SEED[0] in sets else ""))
        try:
            j = json.loads(p.stdout)
        except ValueError:
            bad.append("%s: no JSON (%s)" % (what, p.stderr.strip()))
            continue
        if j["status"] != "ok":
            bad.append("%s: status %s %s" % (what, j["status"], j["message"]))
            continue
        cores = int(j["cores"])
        steady, sl, sc = model(tr, cores, j["resident_ctas"], (block + 31) // 32, grid, j["cycles"])
        want = {"steady_cycles": steady,
                "steady_ipc": sl / steady if steady else 0.0,
                "steady_cta_rate": 1000.0 * sc / steady if steady else 0.0,
                "tail_fraction": 1.0 - steady / j["cycles"]}
        for k, v in want.items():
            if abs(j[k] - v) > 1e-9 * max(1.0, abs(v)):
                bad.append("%s: %s = %r, model %r" % (what, k, j[k], v))
        if grid < cores * j["resident_ctas"] and (j["steady_cycles"] != 0 or j["tail_fraction"] != 1.0):
            bad.append("%s: a grid that cannot fill the cores has steady cycles" % what)
if bad:
    sys.exit("FAIL:\n  " + "\n  ".join(bad))
print("steady_tail: %d cases ok" % len(cases))
