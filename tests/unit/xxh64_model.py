#!/usr/bin/env python3
"""An independent XXH64 (xxHash specification, doc/xxhash_spec.md), written
from the specification's pseudo-code, for the vectors of test_digest.c:
python3 tests/unit/xxh64_model.py prints them. The empty input with seed 0 is
the specification's own example value, 0xEF46DB3751D8E999."""
M = (1 << 64) - 1
P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M


def rnd(acc, lane):
    return (rotl((acc + lane * P2) & M, 31) * P1) & M


def xxh64(data, seed=0):
    n, i = len(data), 0
    if n >= 32:
        v = [(seed + P1 + P2) & M, (seed + P2) & M, seed, (seed - P1) & M]
        while n - i >= 32:
            for k in range(4):
                v[k] = rnd(v[k], int.from_bytes(data[i + 8 * k:i + 8 * k + 8], "little"))
            i += 32
        acc = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M
        for k in range(4):
            acc = ((acc ^ rnd(0, v[k])) * P1 + P4) & M
    else:
        acc = (seed + P5) & M
    acc = (acc + n) & M
    while n - i >= 8:
        acc = (rotl(acc ^ rnd(0, int.from_bytes(data[i:i + 8], "little")), 27) * P1 + P4) & M
        i += 8
    if n - i >= 4:
        acc = (rotl(acc ^ (int.from_bytes(data[i:i + 4], "little") * P1 & M), 23) * P2 + P3) & M
        i += 4
    while i < n:
        acc = (rotl(acc ^ (data[i] * P5 & M), 11) * P1) & M
        i += 1
    acc ^= acc >> 33
    acc = acc * P2 & M
    acc ^= acc >> 29
    acc = acc * P3 & M
    acc ^= acc >> 32
    return acc


def pattern(n):
    """the test's input bytes: (i * 7 + 3) mod 256"""
    return bytes((i * 7 + 3) % 256 for i in range(n))


if __name__ == "__main__":
    assert xxh64(b"") == 0xEF46DB3751D8E999
    for n in (0, 1, 3, 4, 7, 8, 31, 32, 33, 63, 64, 100, 1000):
        print(f"    {{{n}, 0, 0x{xxh64(pattern(n)):016x}ull}},")
    for seed in (1, 0x9E3779B185EBCA87):
        print(f"    {{100, 0x{seed:x}ull, 0x{xxh64(pattern(100), seed):016x}ull}},")
