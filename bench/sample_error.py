#!/usr/bin/python3
"""Error and speed-up of sampled simulation (docs/sampling.md).

Takes the shipped kernels (sweeps/kernels/*.yaml), scales each up to a grid
of many CTA waves where the full run is still feasible (a scaled workload
YAML in a temporary directory, with `expect: reference` on every written
buffer, so the sampled run's functional fast-forward is checked too), runs it
in full (sample=off) and sampled (sample=ctas, the registry's default
sampling settings unless --set) on a few configurations, and prints per
kernel and configuration: the waves of the grid, full and sampled cycles, the
signed cycle error of the sampled run, the run's own estimate of it (est%:
the sample_error metric, 100 x), the fraction simulated in detail, and
host CPU times:
  full_s   `sim` with sample=off (it runs the MIMD reference too, for work_ipc)
  core_s   the cost of a full point in a sweep, where each thread runs the
           reference once for all its points: `run` over two points that
           differ only in max_cycles (one reference) minus `run` over one
  smp_s    `sim` with sample=ctas (detailed waves + lock-step fast-forward)
  spt_s    a sampled point in a sweep, measured as core_s is
and the speed-ups full_s / smp_s (one `sim`) and core_s / spt_s (a sweep point). The timed runs have no
expects; a further sampled run with `expect: reference` on every written
buffer checks the fast-forward's memory (status column: full/sampled/check).

    python3 bench/sample_error.py [--bin build/warpsweep] [--configs default:32,seed:32]
                                  [--only saxpy,vecadd] [--set sample_waves=4] [--check 5]
                                  [--scale 4]

--check P: exit status 1 unless every |error| <= P percent (the tests use it).
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)


def buf(t, count, init):
    return {"type": t, "count": count, "init": init}


# Per kernel: how it grows with its grid (the kernel's indexing, read from its
# .cu source): the grid, the buffers and the params of the scaled launch. The
# expects become `reference` (the MIMD reference run, independent of the core).
K = 1   # --scale: grid factor


def scale(name, wl):
    b = wl["buffers"]
    if name == "saxpy":
        g = 1024 * K; n = g * 64
        b["x"] = buf("f32", n, "iota"); b["y"] = buf("f32", n, {"iota": {"start": 1, "step": 1}})
        return g, [n, 2.5, "x", "y"]
    if name == "vecadd":
        g = 512 * K; n = g * 128
        for k in "abc":
            b[k]["count"] = n
        return g, ["a", "b", "c", n - 24]
    if name == "reduce":
        g = 512 * K
        b["in"]["count"] = g * 128; b["partial"]["count"] = g
        return g, wl["params"]
    if name == "switch":
        g = 512 * K
        b["in"]["count"] = g * 128; b["out"]["count"] = g * 128
        return g, wl["params"]
    if name == "warpreduce":
        g = 512 * K
        b["in"]["count"] = g * 128; b["out"]["count"] = g * 4
        return g, wl["params"]
    if name == "histogram":
        g = 512 * K
        b["in"]["count"] = g * 128
        return g, ["in", "bins", g * 128 - 84]
    if name == "matmul":
        n = 128
        for k in "ABC":
            b[k] = buf("f32", n * n, {"iota": {"start": 0, "step": 1}} if k != "C" else -1000)
        return [n // 8, n // 8, 1], ["A", "B", "C", n]
    if name == "latency_occ":
        g = 2048 * K
        b["out"]["count"] = g * 32
        return g, wl["params"]
    if name == "cachesens":
        g = 64 * K
        b["in"]["count"] = g * 16 * 512; b["out"]["count"] = g * 512
        return g, ["in", "out", 512, 2]
    if name == "strided":
        g = 512 * K; n = g * 128
        b["in"]["count"] = n; b["out"]["count"] = n
        return g, ["in", "out", n, 1]
    if name == "cpasync_tiles":
        g = 256 * K
        b["in"]["count"] = g * 2048; b["out"]["count"] = g * 2048
        return g, wl["params"]
    if name == "hgemv":
        g = 512 * K
        b["y"]["count"] = g * 64
        return g, ["x", "y", g * 64, 16]
    if name == "varloop":
        g = 1024 * K
        b["out"]["count"] = g * 64
        return g, wl["params"]
    if name == "tbchalf":
        return 512 * K, wl["params"]     # every CTA writes the same outputs (threadIdx only)
    if name == "mma_gemm":
        g = 64 * K                        # M = 32 g rows, K = 32, N = 64 (the kernel's constants)
        b["A"] = buf("u16", g * 32 * 32, 15360)   # 1.0 in f16
        b["B"] = buf("u16", 32 * 64, 14336)       # 0.5
        b["C"]["count"] = g * 32 * 64
        return [2, g, 1], wl["params"]
    if name == "spinlock":
        return 64, wl["params"]      # one lock for every CTA: CTAs are not independent
    return None


def scaled_yaml(path, tmp, expects=True):
    name = os.path.basename(path)[:-5]
    with open(path) as f:
        wl = yaml.safe_load(f)
    s = scale(name, wl)
    if s is None:
        return None
    grid, params = s
    wl["grid"] = grid
    wl["params"] = params
    wl["kernel"] = os.path.join(os.path.dirname(path), wl["kernel"])
    written = list(wl.get("expect", {}).keys())
    if expects:
        wl["expect"] = {k: "reference" for k in written}
    else:
        wl.pop("expect", None)
    out = os.path.join(tmp, name + ("" if expects else "_noexp") + ".yaml")
    with open(out, "w") as f:
        yaml.safe_dump(wl, f, default_flow_style=None)
    return name, out


def cpu_of(args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def core_cpu(binary, wl, sets, tmp):
    """CPU time of one more full point in a sweep that already ran the reference."""
    base = {}
    for s in sets:
        k, v = s.split("=", 1)
        base[k] = v
    times = []
    for mc in (["1000000000"], ["1000000000", "1000000001"]):
        sw = os.path.join(tmp, "core_sweep.yaml")
        with open(sw, "w") as f:
            yaml.safe_dump({"name": "core", "workload": wl, "base": base, "grid": {"max_cycles": [int(m) for m in mc]}}, f)
        out = os.path.join(tmp, "core_%d.h5" % len(mc))
        if os.path.exists(out):
            os.remove(out)
        times.append(cpu_of([binary, "run", sw, "-o", out, "-j", "1", "--quiet"]))
    return max(times[1] - times[0], 0.0)


def run(binary, wl, sets, extra=()):
    args = [binary, "sim", wl, "--json"] + list(extra)
    for s in sets:
        args += ["--set", s]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(args, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        j = {"status": "error", "message": p.stderr.strip()}
    return j, cpu, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(SRC, "build", "warpsweep"))
    ap.add_argument("--kernels", default=os.path.join(SRC, "sweeps", "kernels"))
    ap.add_argument("--configs", default="default:16,default:32,default:64,seed:32,seed:64",
                    help="comma-separated preset:warps (default = the registry defaults)")
    ap.add_argument("--only", default="")
    ap.add_argument("--set", action="append", default=[], help="extra --set for the sampled run")
    ap.add_argument("--check", type=float, default=None)
    ap.add_argument("--scale", type=int, default=1, help="multiply the grids (not matmul's, mma_gemm's x) by this")
    a = ap.parse_args()
    global K
    K = a.scale
    only = set(a.only.split(",")) if a.only else None
    worst = 0.0
    bad = []
    tot_full = tot_smp = 0.0
    print("%-14s %-11s %6s %10s %10s %7s %7s %7s %7s %7s %7s %7s %6s %6s  %s" % (
        "kernel", "config", "waves", "full_cyc", "smp_cyc", "err%", "est%", "sampled", "full_s", "smp_s", "core_s",
        "spt_s", "sim", "sweep", "status"))
    tot_core = tot_spt = 0.0
    over = 0   # sampled runs whose |error| exceeds their own sample_error
    with tempfile.TemporaryDirectory() as tmp:
        for fn in sorted(os.listdir(a.kernels)):
            if not fn.endswith(".yaml"):
                continue
            r = scaled_yaml(os.path.join(a.kernels, fn), tmp)
            if r is None or (only and r[0] not in only):
                continue
            name, wl = r
            _, plain = scaled_yaml(os.path.join(a.kernels, fn), tmp, expects=False)
            g = yaml.safe_load(open(wl))["grid"]
            n = g if isinstance(g, int) else g[0] * g[1] * g[2]
            for cfg in a.configs.split(","):
                preset, warps = cfg.split(":")
                base = ["warps=" + warps] + ([] if preset == "default" else ["preset=" + preset])
                full, fcpu, _ = run(a.bin, plain, base + ["sample=off"])
                ccpu = core_cpu(a.bin, plain, base + ["sample=off"], tmp)
                spcpu = core_cpu(a.bin, plain, base + ["sample=ctas"] + a.set, tmp)
                smp, scpu, _ = run(a.bin, plain, base + ["sample=ctas"] + a.set)
                chk, _, _ = run(a.bin, wl, base + ["sample=ctas"] + a.set)
                fc, sc = full.get("cycles", 0), smp.get("cycles", 0)
                err = 100.0 * (sc - fc) / fc if fc else float("nan")
                ctas = full.get("resident_ctas", 0)
                waves = n / ctas if ctas else 0
                st = "/".join(x.get("status", "?") for x in (full, smp, chk))
                if any(x.get("status") != "ok" for x in (full, smp, chk)):
                    st += " " + next(x.get("message", "") for x in (smp, chk, full) if x.get("status") != "ok")[:140]
                elif smp.get("sampled", 1) < 1:
                    worst = max(worst, abs(err))
                    tot_full += fcpu; tot_smp += scpu; tot_core += ccpu; tot_spt += spcpu
                    if a.check is not None and abs(err) > a.check:
                        bad.append((name, cfg, err))
                est = 100.0 * smp.get("sample_error", float("nan"))
                if smp.get("sampled", 1) < 1 and abs(err) > est:
                    over += 1
                print("%-14s %-11s %6.1f %10d %10d %+7.2f %7.2f %7.3f %7.2f %7.2f %7.2f %7.2f %5.1fx %5.1fx  %s" % (
                    name, cfg, waves, fc, sc, err, est, smp.get("sampled", 1), fcpu, scpu, ccpu, spcpu,
                    fcpu / scpu if scpu > 0 else 0, ccpu / spcpu if spcpu > 0 else 0, st), flush=True)
    print("sampled runs: worst |error| %.2f%%; host CPU time: one sim %.1f s full, %.1f s sampled (%.1fx); "
          "a sweep point %.1f s full, %.1f s sampled (%.1fx)" % (
              worst, tot_full, tot_smp, tot_full / tot_smp if tot_smp else 0, tot_core, tot_spt,
              tot_core / tot_spt if tot_spt else 0))
    print("sampled runs whose |error| exceeds their sample_error (est%%): %d" % over)
    if bad:
        for b in bad:
            print("error above %.1f%%: %s %s %+.2f%%" % (a.check, *b))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
