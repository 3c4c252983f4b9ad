#!/usr/bin/env python3
"""Deterministic generator of the input and expected files of the
application-like workloads: spmv.yaml and bfs.yaml (issue 16), attn_tile.yaml
(docs/noise.md).

    python3 sweeps/kernels/gen_app_inputs.py           # (re)write the files here
    python3 sweeps/kernels/gen_app_inputs.py --check   # regenerate into a temporary
                                                       # directory and compare byte for byte
    python3 sweeps/kernels/gen_app_inputs.py --out DIR # write into DIR

Files (all beside this script):
  spmv_poisson.mtx  the 5-point finite-difference Laplacian of a GRID x GRID mesh
                    (Dirichlet boundary): 4 on the diagonal, -1 for each of the up
                    to four mesh neighbours; Matrix Market coordinate, integer,
                    symmetric (lower triangle only, as the format allows)
  spmv_x.npy        x: f32 integers in -4..4 from the generator below
  spmv_y.npy        y = A x, computed here in exact integer arithmetic (every
                    partial sum is an integer below 2^24, so the kernel's f32
                    result is exact whatever its order or FMA contraction)
  bfs_graph.el      a random graph as Rodinia's graphgen builds them (Che et al.,
                    "Rodinia: A Benchmark Suite for Heterogeneous Computing",
                    IISWC 2009; data/bfs/inputGen/graphgen.cpp): every vertex draws
                    2..4 neighbours uniformly (MIN_EDGES = 2, MAX_INIT_EDGES = 4)
                    and each edge is undirected; one edge `SOURCE TARGET` a line,
                    0-based (the workload adds the reverse edges: undirected: true)
  bfs_cost.npy      the BFS level of every vertex from source 0 (-1 unreached),
                    by a plain queue BFS here (s32)
  attn_q.npy, attn_k.npy, attn_v.npy
                    one attention head: ATTN_Q query rows and ATTN_KEYS key and
                    value rows of ATTN_D dims, row-major f32; Q and K multiples of
                    0.5 in -1..1, V integers in 1..4
  attn_o.npy        O = softmax(Q K^T / sqrt(D)) V, row by row in double precision
                    here (f32 at the end): every O is a weighted mean of V values in
                    1..4, so the kernel's f32 result is within a relative 1e-5

Randomness is a 64-bit linear congruential generator (Knuth's MMIX constants)
written out here, so the files do not depend on the Python version's `random`.
Nothing here runs or reads warpsweep.
"""
import math
import os
import struct
import sys
from collections import deque

HERE = os.path.dirname(os.path.abspath(__file__))

GRID = 96            # SpMV mesh: 96 x 96 = 9216 rows (72 CTAs of 128 threads)
BFS_VERTICES = 8192  # BFS graph (32 CTAs of 256 threads per launch)
MIN_EDGES, MAX_INIT_EDGES = 2, 4   # Rodinia graphgen.cpp
ATTN_Q, ATTN_KEYS, ATTN_D = 128, 128, 32   # attn_tile: 16 CTAs x 4 warps x 2 rows


class Lcg:
    """x <- a x + c mod 2^64 (Knuth, MMIX); the high 32 bits are the output."""

    def __init__(self, seed):
        self.x = seed & (2**64 - 1)

    def next32(self):
        self.x = (6364136223846793005 * self.x + 1442695040888963407) & (2**64 - 1)
        return self.x >> 32

    def below(self, n):
        return self.next32() % n


def npy_bytes(descr, fmt, values):
    """NumPy format 1.0: magic, version, header length, dict padded to 64 bytes."""
    d = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, len(values))
    pad = 64 - (10 + len(d) + 1) % 64
    header = (d + " " * pad + "\n").encode()
    return (b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header
            + struct.pack("<%d%s" % (len(values), fmt), *values))


def poisson_entries(g):
    """Lower triangle (row >= col) of the 5-point Laplacian, 0-based, row-major mesh."""
    out = []
    for r in range(g * g):
        i, j = divmod(r, g)
        if i > 0:
            out.append((r, r - g, -1))
        if j > 0:
            out.append((r, r - 1, -1))
        out.append((r, r, 4))
    return out


def spmv_files():
    n = GRID * GRID
    lower = poisson_entries(GRID)
    mtx = ["%%MatrixMarket matrix coordinate integer symmetric",
           "%% 5-point Laplacian of a %d x %d mesh (sweeps/kernels/gen_app_inputs.py)" % (GRID, GRID),
           "%d %d %d" % (n, n, len(lower))]
    mtx += ["%d %d %d" % (r + 1, c + 1, v) for r, c, v in lower]
    rng = Lcg(16)
    x = [rng.below(9) - 4 for _ in range(n)]
    y = [0] * n
    for r, c, v in lower:       # symmetric: each off-diagonal entry also stands at (c, r)
        y[r] += v * x[c]
        if r != c:
            y[c] += v * x[r]
    assert max(abs(v) for v in y) < 2**24
    return {"spmv_poisson.mtx": ("\n".join(mtx) + "\n").encode(),
            "spmv_x.npy": npy_bytes("<f4", "f", [float(v) for v in x]),
            "spmv_y.npy": npy_bytes("<f4", "f", [float(v) for v in y])}


def bfs_files():
    n = BFS_VERTICES
    rng = Lcg(2009)
    edges = []
    for i in range(n):
        for _ in range(MIN_EDGES + rng.below(MAX_INIT_EDGES - MIN_EDGES + 1)):
            edges.append((i, rng.below(n)))
    adj = [[] for _ in range(n)]
    for a, b in edges:
        adj[a].append(b)
        if a != b:
            adj[b].append(a)
    cost = [-1] * n
    cost[0] = 0
    queue = deque([0])
    while queue:
        v = queue.popleft()
        for w in adj[v]:
            if cost[w] < 0:
                cost[w] = cost[v] + 1
                queue.append(w)
    el = ["# Rodinia-style random graph, %d vertices, %d undirected edges "
          "(sweeps/kernels/gen_app_inputs.py)" % (n, len(edges))]
    el += ["%d %d" % e for e in edges]
    return {"bfs_graph.el": ("\n".join(el) + "\n").encode(),
            "bfs_cost.npy": npy_bytes("<i4", "i", cost)}


def attn_files():
    rng = Lcg(2022)
    q = [(rng.below(5) - 2) * 0.5 for _ in range(ATTN_Q * ATTN_D)]
    k = [(rng.below(5) - 2) * 0.5 for _ in range(ATTN_KEYS * ATTN_D)]
    v = [float(1 + rng.below(4)) for _ in range(ATTN_KEYS * ATTN_D)]
    o = []
    for i in range(ATTN_Q):
        s = [sum(q[i * ATTN_D + d] * k[j * ATTN_D + d] for d in range(ATTN_D)) / math.sqrt(ATTN_D)
             for j in range(ATTN_KEYS)]
        mx = max(s)
        p = [math.exp(x - mx) for x in s]
        tot = sum(p)
        o += [sum(p[j] * v[j * ATTN_D + d] for j in range(ATTN_KEYS)) / tot for d in range(ATTN_D)]
    return {"attn_q.npy": npy_bytes("<f4", "f", q), "attn_k.npy": npy_bytes("<f4", "f", k),
            "attn_v.npy": npy_bytes("<f4", "f", v), "attn_o.npy": npy_bytes("<f4", "f", o)}


def main(argv):
    files = {**spmv_files(), **bfs_files(), **attn_files()}
    if argv[:1] == ["--check"]:
        bad = [name for name, data in files.items()
               if not os.path.exists(os.path.join(HERE, name))
               or open(os.path.join(HERE, name), "rb").read() != data]
        for name in bad:
            print("gen_app_inputs: %s differs from what the generator writes" % name, file=sys.stderr)
        if not bad:
            print("gen_app_inputs: %d files match the generator" % len(files))
        return 1 if bad else 0
    out = argv[1] if argv[:1] == ["--out"] else HERE
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
