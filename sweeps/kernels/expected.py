#!/usr/bin/env python3
"""Independent derivation of the shipped workloads' expected values.

Each kernel in this directory is re-implemented here as a plain sequential
Python model (no simulator involved).  The script reads every NAME.yaml,
builds the buffers from their `init`, runs the model with the yaml's
grid/block/params and compares the result with every non-`reference` entry of
the yaml's `expect` section.

    python3 sweeps/kernels/expected.py            # check all workloads
    python3 sweeps/kernels/expected.py NAME ...   # check some
    python3 sweeps/kernels/expected.py --emit NAME BUFFER [PER_LINE]
                                                  # print the model's final
                                                  # BUFFER as YAML flow rows

Needs PyYAML (python3-yaml).  Float workloads use data for which every
intermediate value is an integer or a short dyadic fraction far below 2**24,
so the f32 result is exact regardless of evaluation order or FMA contraction;
check_f32_exact() asserts that for the final values.
"""
import os
import struct
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))

INT_RANGES = {
    "u8": (0, 2**8 - 1), "u16": (0, 2**16 - 1), "u32": (0, 2**32 - 1), "u64": (0, 2**64 - 1),
    "s8": (-2**7, 2**7 - 1), "s16": (-2**15, 2**15 - 1), "s32": (-2**31, 2**31 - 1),
    "s64": (-2**63, 2**63 - 1),
}


def u32(x):
    return x & 0xFFFFFFFF


def s32(x):
    x &= 0xFFFFFFFF
    return x - 2**32 if x & 0x80000000 else x


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def check_f32_exact(name, values):
    for i, v in enumerate(values):
        if f32(v) != v or abs(v) >= 2**24:
            raise AssertionError(f"{name}[{i}] = {v!r} is not exact in f32")


def dims(v):
    if isinstance(v, int):
        return (v, 1, 1)
    v = list(v) + [1] * (3 - len(v))
    return tuple(v)


def expand_init(spec, count):
    init = spec.get("init", 0)
    if isinstance(init, (int, float)):
        return [init] * count
    if init == "iota":
        return list(range(count))
    if isinstance(init, list):
        if len(init) > count:
            raise ValueError(f"explicit init has {len(init)} values, count is {count}")
        return list(init) + [0] * (count - len(init))   # rest zero, as in the contract
    if isinstance(init, dict) and "iota" in init:
        start = init["iota"].get("start", 0)
        step = init["iota"].get("step", 1)
        return [start + i * step for i in range(count)]
    raise ValueError(f"unsupported init {init!r} (random inits cannot be checked here)")


def threads(grid, block):
    """Yield (ctaid, tid, ntid, nctaid) for every thread, x fastest."""
    gx, gy, gz = grid
    bx, by, bz = block
    for cz in range(gz):
        for cy in range(gy):
            for cx in range(gx):
                for tz in range(bz):
                    for ty in range(by):
                        for tx in range(bx):
                            yield (cx, cy, cz), (tx, ty, tz), block, grid


def gid_x(ctaid, tid, ntid):
    return ctaid[0] * ntid[0] + tid[0]


# ---------------------------------------------------------------- kernel models
# Each model gets (bufs: name -> list, args: list of param values with buffer
# names already resolved to the buffer name string, grid, block) and mutates bufs.

def m_vecadd(b, args, grid, block):
    a, bb, c, n = args
    for ctaid, tid, ntid, _ in threads(grid, block):
        i = gid_x(ctaid, tid, ntid)
        if i < n:
            b[c][i] = b[a][i] + b[bb][i]
    check_f32_exact(c, b[c])


def m_saxpy(b, args, grid, block):
    n, alpha, x, y = args
    for ctaid, tid, ntid, _ in threads(grid, block):
        i = gid_x(ctaid, tid, ntid)
        if i < n:
            b[y][i] = alpha * b[x][i] + b[y][i]
    check_f32_exact(y, b[y])


def m_ifelse(b, args, grid, block):
    inp, in2, out, out2 = args
    for _, tid, _, _ in threads(grid, block):
        t = tid[0]
        if t < 4:
            b[out][t] = s32(b[inp][t] * 2)
        else:
            b[out][t] = s32(b[in2][t] + 100)
        b[out2][t] = s32(t * 3)


def m_spinlock(b, args, grid, block):
    mutex, counter = args
    for _ in threads(grid, block):
        assert b[mutex][0] == 0
        b[mutex][0] = 1
        b[counter][0] = u32(b[counter][0] + 1)
        b[mutex][0] = 0


def m_reduce(b, args, grid, block):
    inp, partial = args
    nt = block[0]
    for cta in range(grid[0]):
        b[partial][cta] = sum(b[inp][cta * nt:(cta + 1) * nt])
    check_f32_exact(partial, b[partial])


def m_histogram(b, args, grid, block):
    inp, bins, n = args
    for ctaid, tid, ntid, _ in threads(grid, block):
        i = gid_x(ctaid, tid, ntid)
        if i < n:
            v = b[inp][i]
            k = (u32(v * v) >> 2) & 15
            b[bins][k] = u32(b[bins][k] + 1)


def m_matmul(b, args, grid, block):
    A, B, C, N = args
    for r in range(N):
        for c in range(N):
            b[C][r * N + c] = sum(b[A][r * N + k] * b[B][k * N + c] for k in range(N))
    check_f32_exact(C, b[C])


def m_switch(b, args, grid, block):
    inp, out = args
    ops = [
        lambda a: a * 3, lambda a: a + 7, lambda a: a ^ 0x55, lambda a: a << 2,
        lambda a: a - 9, lambda a: a * a, lambda a: ~a, lambda a: a >> 1,
    ]
    for ctaid, tid, ntid, _ in threads(grid, block):
        i = gid_x(ctaid, tid, ntid)
        b[out][i] = s32(ops[tid[0] % 8](b[inp][i]))


def m_warpreduce(b, args, grid, block):
    inp, out = args
    total = grid[0] * block[0]
    for w in range(total // 32):
        b[out][w] = s32(sum(b[inp][32 * w:32 * w + 32]))


def m_varloop(b, args, grid, block):
    inp, out = args
    for ctaid, tid, ntid, _ in threads(grid, block):
        t = gid_x(ctaid, tid, ntid)
        b[out][t] = s32(sum(b[inp][i] for i in range(t % 7 + 1)))


def m_strided(b, args, grid, block):
    inp, out, n, stride = args
    for ctaid, tid, ntid, _ in threads(grid, block):
        i = gid_x(ctaid, tid, ntid)
        if i < n:
            j = u32(i * stride)
            b[out][i] = u32(b[inp][j] - j + i)


def m_cachesens(b, args, grid, block):
    inp, out, slice_, reps = args
    for ctaid, tid, ntid, _ in threads(grid, block):
        t = gid_x(ctaid, tid, ntid)
        w, lane = t >> 5, t & 31
        acc = 0
        for _ in range(reps):
            for j in range(0, slice_, 32):
                acc = u32(acc + b[inp][w * slice_ + lane + j])
        b[out][t] = acc


def m_latency(b, args, grid, block):
    inp, out, iters = args
    for ctaid, tid, ntid, _ in threads(grid, block):
        g = gid_x(ctaid, tid, ntid)
        cnt = 0
        while True:  # do-while, as in the PTX
            cnt = s32(cnt + b[inp][0])
            if not (cnt & 0x7FFFFFFF) < iters:
                break
        b[out][g] = cnt


def m_hgemv(b, args, grid, block):
    """f16 GEMV: x holds binary16 bits; A[r][k] = (5r + 3k) % 7 - 3; every partial sum of a
    half2 lane (even / odd k) is an integer below 2^11, so f16 arithmetic is exact"""
    x, y, rows, k2n = args
    xs = [struct.unpack("<e", struct.pack("<H", v))[0] for v in b[x]]
    for ctaid, tid, ntid, _ in threads(grid, block):
        r = gid_x(ctaid, tid, ntid)
        if r >= rows:
            continue
        sums = [0.0, 0.0]
        for k in range(2 * k2n):
            sums[k % 2] += ((r * 5 + k * 3) % 7 - 3) * xs[k]
            assert abs(sums[k % 2]) < 2048 and sums[k % 2].is_integer()
        b[y][r] = sums[0] + sums[1]
    check_f32_exact(y, b[y])


def m_mma_gemm(b, args, grid, block):
    """C = A * B, A 64x32 and B 32x64 binary16 bits (row-major), C 64x64 f32: small integers,
    every sum exact in f32 whatever the order"""
    a, bb, c = args
    M, N, K = 64, 64, 32
    h = lambda v: struct.unpack("<e", struct.pack("<H", v))[0]
    A = [h(v) for v in b[a]]
    B = [h(v) for v in b[bb]]
    for i in range(M):
        for j in range(N):
            b[c][i * N + j] = sum(A[i * K + k] * B[k * N + j] for k in range(K))
    check_f32_exact(c, b[c])


def m_cpasync_tiles(b, args, grid, block):
    """per CTA, tile k of 512 floats: out[i] = in[i] + in[(i + 4) mod 512] within the tile"""
    inp, out, tiles = args
    for c in range(grid[0]):
        for k in range(tiles):
            base = (c * tiles + k) * 512
            for i in range(512):
                b[out][base + i] = b[inp][base + i] + b[inp][base + (i + 4) % 512]
    check_f32_exact(out, b[out])


MODELS = {
    "vecadd": m_vecadd, "saxpy": m_saxpy, "ifelse": m_ifelse, "spinlock": m_spinlock,
    "reduce": m_reduce, "histogram": m_histogram, "matmul": m_matmul, "switch": m_switch,
    "warpreduce": m_warpreduce, "varloop": m_varloop, "strided": m_strided,
    "cachesens": m_cachesens, "latency": m_latency, "hgemv": m_hgemv,
    "mma_gemm": m_mma_gemm, "cpasync_tiles": m_cpasync_tiles,
}


def run_model(name):
    with open(os.path.join(HERE, name + ".yaml")) as f:
        w = yaml.safe_load(f)
    bufs = {k: expand_init(v, v["count"]) for k, v in w["buffers"].items()}
    args = w.get("params", [])
    MODELS[name](bufs, args, dims(w["grid"]), dims(w["block"]))
    return w, bufs


def check(name):
    w, bufs = run_model(name)
    errors = []
    for buf, exp in (w.get("expect") or {}).items():
        got = bufs[buf]
        if exp == "reference":
            continue
        if isinstance(exp, list):
            want, got = exp, got[:len(exp)]
        elif isinstance(exp, dict) and "iota" in exp:
            st, sp = exp["iota"].get("start", 0), exp["iota"].get("step", 1)
            want = [st + i * sp for i in range(len(got))]
        else:
            want = [exp] * len(got)
        bad = [i for i, (g, e) in enumerate(zip(got, want)) if g != e]
        if bad:
            i = bad[0]
            errors.append(f"{buf}[{i}]: model {got[i]!r}, yaml expects {want[i]!r} "
                          f"({len(bad)} differences)")
    return errors


def main(argv):
    if argv[:1] == ["--emit"]:
        name, buf = argv[1], argv[2]
        per = int(argv[3]) if len(argv) > 3 else 16
        _, bufs = run_model(name)
        vals = bufs[buf]
        fmt = lambda v: str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)
        for k in range(0, len(vals), per):
            print("      " + ", ".join(fmt(v) for v in vals[k:k + per]) + ",")
        return 0
    names = argv or sorted(n for n in MODELS if os.path.exists(os.path.join(HERE, n + ".yaml")))
    failed = 0
    for n in names:
        errs = check(n)
        print(f"{n}: {'ok' if not errs else 'MISMATCH'}")
        for e in errs:
            print("   ", e)
        failed += bool(errs)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
