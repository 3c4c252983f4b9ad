#!/usr/bin/env python3
"""Sequential Python models of the peer kernels (bench/peer/*.cu) that have no
closed form: each writes the kernel's output as raw little-endian elements to
NAME.expect.bin, which NAME.yaml's `expect` names. Independent of both
simulators (and of the host programs, which check the same values in C++).

  python3 bench/peer/expected.py [--check]   (--check: compare, write nothing)

The launch sizes below must match the yamls and the *_host.cu programs.
"""
import struct
import sys
from pathlib import Path

M = 0xFFFFFFFF


def xorshift32(h):
    h ^= (h << 13) & M
    h ^= h >> 17
    h ^= (h << 5) & M
    return h


def ialu(threads=128, iters=1500):
    out = []
    for t in range(threads):
        x = (t * 2654435761) & M
        for i in range(iters):
            x = (x * 1664525 + 1013904223) & M
            x ^= x >> 15
            x = (x + i) & M
        out.append(x)
    return "I", out


def ffma(threads=128, iters=1000):
    out = []
    for t in range(threads):
        a, b, s = t & 7, (t >> 3) & 7, 0
        for _ in range(iters):
            s += a * b + (a + 1) * b + a * (b + 1) + (a + 1) * (b + 1)
            a = 0 if a + 1 > 8 else a + 1
        assert s < 1 << 24   # every partial sum exact in f32
        out.append(float(s))
    return "f", out


def divergent(threads=128, rounds=300):
    out = []
    for t in range(threads):
        h, acc = (t * 0x9E3779B9 + 1) & M, 0
        for _ in range(rounds):
            h = xorshift32(h)
            path = h & 3
            if path == 0:
                acc = (acc + (h >> 3)) & M
            elif path == 1:
                for j in range(2):
                    acc = (acc * 3 + j) & M
            elif path == 2:
                for _ in range(3):
                    acc ^= ((acc << 1) + h) & M
            else:
                for j in range(4):
                    acc = (acc + ((h >> j) & 0xFF)) & M
        out.append(acc)
    return "I", out


def warpvote(threads=128, rounds=800):
    out = []
    for w in range(threads // 32):
        v = [((32 * w + l) * 0x9E3779B9 + 7) & M for l in range(32)]
        acc = 0   # warp-uniform: every increment is a warp-wide vote
        for _ in range(rounds):
            v = [xorshift32(x) for x in v]
            acc += sum(x & 1 for x in v)
            acc += 1 if any(x < 0x1000000 for x in v) else 0
            acc += 2 if all(x > 0x100000 for x in v) else 0
            v = v[1:] + v[:1]   # lane l takes lane l+1's value
        out.append((32 * acc) & M)   # the butterfly sum over 32 equal lanes
    return "I", out


def main():
    check = "--check" in sys.argv[1:]
    here = Path(__file__).resolve().parent
    bad = 0
    for model in (ialu, ffma, divergent, warpvote):
        fmt, values = model()
        data = struct.pack("<%d%s" % (len(values), fmt), *values)
        path = here / (model.__name__ + ".expect.bin")
        if check:
            if not path.exists() or path.read_bytes() != data:
                print("differs: " + path.name)
                bad += 1
        else:
            path.write_bytes(data)
    print("%d differ" % bad if check else "written")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
