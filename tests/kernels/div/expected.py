#!/usr/bin/env python3
"""Independent models of the divergence regression kernels (tests/kernels/div).

Same scheme as tests/kernels/int/expected.py (whose helpers this reuses): each NAME.cu has a
sequential Python model and a launch spec; the script writes NAME.yaml with the model's
results as explicit `expect` values (`--check` verifies the committed files).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "int"))
import expected as base  # noqa: E402

LCG, u32, s32 = base.LCG, base.u32, base.s32


def m_lockloop(b, p, grid, block):
    keys, sums, hits, flags = b["keys"], b["sums"], b["hits"], b["flags"]
    n, nb = p[5], p[6]
    stride = grid[0] * block[0]
    for g in range(stride):
        mine = 0
        for i in range(g, n, stride):
            k = keys[i]
            bk = u32(k * 2654435761) % nb
            sums[bk] = u32(sums[bk] + k)
            hits[bk] += 1
            if k & 1:
                for j in range(k & 3):
                    mine = u32(mine + ((k >> j) & 7))
            else:
                mine ^= k & 12
        flags[g] = u32(mine * 3 + 1) if mine & 1 else mine // 2


def spec_lockloop():
    r = LCG(101)
    n, nb, threads = 300, 5, 64
    return dict(doc="per-bucket spin locks in a grid-stride loop (300 keys, 5 buckets, 2 CTAs of 32): lanes of a "
                    "warp hold locks in different iterations; an if after the loop.",
                grid=[2, 1, 1], block=[32, 1, 1],
                buffers=[("keys", "u32", r.list(n, 0, 10**6)), ("locks", "u32", [0] * nb),
                         ("sums", "u32", [0] * nb), ("hits", "u32", [0] * nb), ("flags", "u32", [0] * threads)],
                params=["keys", "locks", "sums", "hits", "flags", n, nb],
                expect=["locks", "sums", "hits", "flags"], model=m_lockloop, per_line=10)


def m_earlyret(b, p, grid, block):
    a, bb, x, out = b["a"], b["b"], b["x"], b["out"]
    iters = p[4]
    for t in range(grid[0] * block[0]):
        v = x[t]
        if a[t]:
            v = s32(v * 3 + 1)
            if bb[t]:
                continue
        acc = 0
        for k in range(iters):
            acc = s32(acc * 7 + (v ^ k))
        out[t] = acc


def spec_earlyret():
    r = LCG(102)
    n = 64
    # a: lanes 0..15 of each warp take the if; b: of those, the even ones return
    a = [1 if (t % 32) < 16 else 0 for t in range(n)]
    bb = [1 if (t % 32) < 16 and t % 2 == 0 else 0 for t in range(n)]
    return dict(doc="if (a) { if (b) return; } then a 40-iteration loop: lanes 0-15 of each warp take the if, the "
                    "even ones of those return.",
                grid=[2, 1, 1], block=[32, 1, 1],
                buffers=[("a", "s32", a), ("b", "s32", bb), ("x", "s32", r.list(n, -1000, 1000)),
                         ("out", "s32", [-7] * n)],
                params=["a", "b", "x", "out", 40], expect=["out"], model=m_earlyret, per_line=8)


def m_ifchain(b, p, grid, block):
    sel, out = b["sel"], b["out"]
    rounds = p[2]
    for t in range(grid[0] * block[0]):
        s, v = sel[t], t
        for r in range(rounds):
            c = base.crem(s + r, 20)
            if c == 0: v += 1
            elif c == 1: v ^= 0x55
            elif c == 2: v *= 3
            elif c == 3: v -= 7
            elif c == 4: v = (v << 1) | 1
            elif c == 5: v += r
            elif c == 6: v ^= r * 11
            elif c == 7: v = v * 5 + 2
            elif c == 8: v -= r * 3
            elif c == 9: v = (v >> 1) + 100
            elif c == 10: v += 17
            elif c == 11: v ^= 0x3c3c
            elif c == 12: v *= 7
            elif c == 13: v -= 1000
            elif c == 14: v = (v << 2) ^ r
            elif c == 15: v += s
            elif c == 16: v ^= s << 3
            elif c == 17: v = v * 9 - r
            elif c == 18: v -= s * r
            else: v = (v >> 2) + 5
            v = s32(v) & 0xFFFFFF
        out[t] = v


def spec_ifchain():
    r = LCG(103)
    return dict(doc="a 20-way else-if chain in a 12-round loop, each lane starting at its own case.",
                grid=[1, 1, 1], block=[64, 1, 1],
                buffers=[("sel", "s32", r.list(64, 0, 1000)), ("out", "s32", [0] * 64)],
                params=["sel", "out", 12], expect=["out"], model=m_ifchain, per_line=8)


def is_prime(n):
    """Miller-Rabin with bases 2, 3, 5, 7, written from the textbook definition (exact for
    n < 3215031751, the first strong pseudoprime to all four, which the spec includes)."""
    if n < 2:
        return 0
    for q in (2, 3, 5, 7):
        if n == q:
            return 1
        if n % q == 0:
            return 0
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in (2, 3, 5, 7):
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return 0
    return 1


def m_millerrabin(b, p, grid, block):
    nums, out = b["nums"], b["out"]
    for t in range(p[2]):
        out[t] = is_prime(nums[t])


def spec_millerrabin():
    r = LCG(104)
    nums = [0, 1, 2, 3, 4, 5, 7, 9, 25, 49, 561, 1105, 2047, 3215031751 % 2**32, 4294967291, 4294967295,
            65537, 999983, 1000003, 2147483647]
    nums += [r.int(2, 200000) for _ in range(60 - len(nums))]
    nums = [x & 0xFFFFFFFF for x in nums]
    return dict(doc="Miller-Rabin (bases 2,3,5,7) on 60 numbers incl. Carmichael numbers and 2^32-5; 64 threads, "
                    "the last 4 return at once (t >= n). Expected by Python's pow().",
                grid=[1, 1, 1], block=[64, 1, 1],
                buffers=[("nums", "u32", nums), ("out", "s32", [-1] * 60)],
                params=["nums", "out", 60], expect=["out"], model=m_millerrabin, per_line=10)


def m_retfirst(b, p, grid, block):
    out = b["out"]
    for t in range(block[0]):
        out[t] = 5 * t if t & 1 else 2 * (((t // 2 + 1) % 32)) + t


def spec_retfirst():
    return dict(doc="odd threads store and return (fall-through), even ones pass bar.sync: 64 threads.",
                grid=[1, 1, 1], block=[64, 1, 1], buffers=[("out", "s32", [-1] * 64)],
                params=["out"], expect=["out"], model=m_retfirst, per_line=16)


def m_tailmerge(b, p, grid, block):
    inp, out = b["in"], b["out"]
    half = block[0] // 2
    sh = [inp[2 * k] for k in range(half)]      # s[t/2] = v of each even thread t
    for t in range(block[0]):
        v = inp[t]
        out[t] = s32(v * 5) if v & 1 else sh[(t // 2 + 1) % half] + v


def spec_tailmerge():
    r = LCG(105)
    inp = [2 * r.int(-1000, 1000) + (t & 1) for t in range(64)]   # odd values exactly at odd t
    return dict(doc="odd threads store and return before __syncthreads; nvcc merges their store into the common "
                    "tail (64 threads, two warps).",
                grid=[1, 1, 1], block=[64, 1, 1], buffers=[("in", "s32", inp), ("out", "s32", [0] * 64)],
                params=["in", "out"], expect=["out"], model=m_tailmerge, per_line=16)


SPECS = {k[5:]: v for k, v in globals().items() if k.startswith("spec_")}


def main():
    check = "--check" in sys.argv
    bad = 0
    for name in sorted(SPECS):
        text = base.render(name, SPECS[name]()).replace("tests/kernels/int/expected.py",
                                                         "tests/kernels/div/expected.py")
        path = os.path.join(HERE, name + ".yaml")
        if check:
            if (open(path).read() if os.path.exists(path) else "") != text:
                print(f"{path}: differs from the model", file=sys.stderr)
                bad = 1
        else:
            open(path, "w").write(text)
    sys.exit(bad)


if __name__ == "__main__":
    main()
