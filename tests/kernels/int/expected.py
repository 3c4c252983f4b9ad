#!/usr/bin/env python3
"""Independent models of the integer/memory/control-flow test kernels (tests/kernels/int).

Every kernel NAME.cu here has a sequential Python model below (no simulator involved) and a
launch spec (grid, block, buffers with their explicit initial data, params).  The script
writes NAME.yaml with the inputs and the model's results as explicit `expect` values:

    python3 tests/kernels/int/expected.py            # rewrite every NAME.yaml
    python3 tests/kernels/int/expected.py --check    # verify the committed yamls are current

Input data come from a fixed LCG, so the yamls are reproducible.  Integer semantics are
C/PTX's: wrap-around at the declared width, truncating division, arithmetic right shift on
signed values.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
M32, M64 = (1 << 32) - 1, (1 << 64) - 1


def u8(x): return x & 0xFF
def s8(x): x &= 0xFF; return x - 256 if x & 0x80 else x
def u16(x): return x & 0xFFFF
def s16(x): x &= 0xFFFF; return x - 65536 if x & 0x8000 else x
def u32(x): return x & M32
def s32(x): x &= M32; return x - (1 << 32) if x >> 31 else x
def u64(x): return x & M64
def s64(x): x &= M64; return x - (1 << 64) if x >> 63 else x


def cdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def crem(a, b):
    return a - b * cdiv(a, b)


class LCG:
    def __init__(self, seed):
        self.s = seed & M64

    def next64(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def int(self, lo, hi):
        return lo + self.next64() % (hi - lo + 1)

    def list(self, n, lo, hi):
        return [self.int(lo, hi) for _ in range(n)]


def threads(grid, block):
    """(global linear id, (tx,ty,tz), (bx,by,bz)) in launch order."""
    g = 0
    for bz in range(grid[2]):
        for by in range(grid[1]):
            for bx in range(grid[0]):
                for tz in range(block[2]):
                    for ty in range(block[1]):
                        for tx in range(block[0]):
                            yield g, (tx, ty, tz), (bx, by, bz)
                            g += 1


def clz32(x): return 32 - u32(x).bit_length()
def clz64(x): return 64 - u64(x).bit_length()
def popc(x): return bin(x).count("1")
def brev(x, bits): return int(format(x, f"0{bits}b")[::-1], 2)
def ffs(x, bits): x &= (1 << bits) - 1; return (x & -x).bit_length()


def prmt(a, b, c):
    src = (u32(b) << 32) | u32(a)
    d = 0
    for i in range(4):
        q = (c >> (4 * i)) & 0xF
        byte = (src >> (8 * (q & 7))) & 0xFF
        if q & 8:
            byte = 0xFF if byte & 0x80 else 0
        d |= byte << (8 * i)
    return d


def bfe(a, pos, ln, signed):
    a = u32(a); pos &= 0xFF; ln &= 0xFF
    msb = 31
    sbit = 0 if (not signed or ln == 0) else (a >> min(pos + ln - 1, msb)) & 1
    d = 0
    for i in range(32):
        bit = ((a >> (pos + i)) & 1) if (i < ln and pos + i <= msb) else sbit
        d |= bit << i
    return d


def bfi(a, b, pos, ln):
    pos &= 0xFF; ln &= 0xFF
    f = u32(b)
    for i in range(ln):
        if pos + i > 31:
            break
        f = (f & ~(1 << (pos + i))) | (((a >> i) & 1) << (pos + i))
    return u32(f)


# --------------------------------------------------------------------------- models

def m_int64math(b, p, grid, block):
    a, bb, s, out = b["a"], b["b"], b["s"], b["out"]
    n = p[4]
    for i, _, _ in threads(grid, block):
        if i >= n:
            continue
        x, y, sx = a[i], bb[i], s[i]
        d = y | 1
        sd = (y % 97) - 48
        if sd == 0:
            sd = 7
        uu = x & M32
        ss = s32(sx)
        sd32 = s32(sd)
        o = [0] * 12
        o[0] = (x * y) >> 64
        o[1] = u64((s64(x) * sx) >> 64)
        o[2] = x // d
        o[3] = x % d
        o[4] = u64(cdiv(sx, sd))
        o[5] = u64(crem(sx, sd))
        o[6] = u64(ss * uu)
        o[7] = u64((sx >> (i & 63)) + s64(x >> (63 - (i & 63))))
        assert not (ss == -2**31 and sd32 == -1)
        o[8] = u64(s32(cdiv(ss, sd32))) ^ ((uu % ((sd32 & 0xFF) | 1)) << 40)
        o[9] = u64(x // 1000003 + u64(cdiv(sx, -12345)))
        o[10] = u64(ss * sd32 + uu * (y & M32))
        o[11] = int(sx < s64(y)) + 2 * int(x < u64(sx)) + 4 * int(ss < s32(uu)) + 8 * int(uu < u32(ss))
        out[12 * i:12 * i + 12] = o


def m_bittricks(b, p, grid, block):
    inp, out = b["in"], b["out"]
    n = p[2]
    for i, _, _ in threads(grid, block):
        if i >= n:
            continue
        x, y = inp[i], inp[(i + 1) % n]
        xy = (x << 32) | y
        o = [0] * 16
        o[0] = popc(x)
        o[1] = clz32(x)
        o[2] = brev(x, 32)
        o[3] = prmt(x, y, (0x5140 + (i & 3) * 0x1111) & 0x7777)   # __byte_perm: 3-bit selectors
        o[4] = u32((((y << 32) | x) << (i & 31)) >> 32)
        o[5] = u32(((y << 32) | x) >> min(i, 32))
        o[6] = ffs(x, 32) + 64 * ffs(xy, 64)
        o[7] = (x >> 5) & 0x7F
        o[8] = (x & ~0xFF00 & M32) | ((y & 0xFF) << 8)
        o[9] = u32(popc(xy) + 256 * clz64(xy >> (i & 63)))
        o[10] = u32(brev(xy, 64) >> 16)
        o[11] = u32(s32(x << 7) >> 20)
        o[12] = bfe(x, i & 63, (i * 7) & 63, False)
        o[13] = bfe(y, (i * 3) & 31, (i & 15) + 1, True)
        o[14] = bfi(x, y, i & 31, (i * 5) & 31)
        hl = (x << 32) | y          # funnel shifts with lo = y, hi = x
        o[15] = prmt(x, y, y & 0x7777) ^ u32(hl >> (x & 31)) ^ u32((hl << min(x & 63, 32)) >> 32)
        out[16 * i:16 * i + 16] = o


def m_localarr(b, p, grid, block):
    inp, out = b["in"], b["out"]
    n = p[2]
    for i, _, _ in threads(grid, block):
        arr = [inp[(i * 7 + k) % n] * (k + 1) for k in range(24)]
        ps = [(inp[(i + k) % n], k - 3, 200 + k) for k in range(6)]
        acc = 0
        for k in range(8):
            j = (inp[(i + k) % n] & 0x7FFFFFFF) % 24
            acc = s32(acc + arr[j])
            arr[(j * 5 + k) % 24] ^= acc
        m = (acc & 0x7FFFFFFF) % 6
        out[2 * i] = s32(acc + arr[i % 24])
        out[2 * i + 1] = s32(ps[m][0] + ps[m][1] * 1000 + ps[m][2])


def m_dynsmem(b, p, grid, block):
    inp, out, hist, sums = b["in"], b["out"], b["hist"], b["sums"]
    nb = block[0]
    for cta in range(grid[0]):
        vals = inp[cta * nb:(cta + 1) * nb]
        for t in range(nb):
            out[cta * nb + t] = u32(2 * vals[nb - 1 - t])
        h = [0] * 16
        for v in vals:
            h[v & 15] += 1
        hist[cta * 18:cta * 18 + 18] = h + [min(vals), max(vals)]
        sums[cta] = u64(sum(v * v for v in vals))


def m_atomics(b, p, grid, block):
    inp, c, c64, w64, seen = b["in"], b["c"], b["c64"], b["u64"], b["seen"]
    n = p[5]
    for i in range(n):
        v = inp[i]
        c[0] = 0 if c[0] >= 17 else c[0] + 1
        c[1] = 9 if (c[1] == 0 or c[1] > 9) else c[1] - 1
        c[2] = u32(min(s32(c[2]), v))
        c[3] = u32(max(s32(c[3]), v))
        c[4] = min(c[4], u32(v))
        c[5] = max(c[5], u32(v))
        c[6] &= u32(~(1 << (i & 31))) | ((i & 1) << 31)
        c[7] |= 1 << (v & 31)
        c[8] ^= u32(u32(v) * 2654435761)
        c[9] = u32(c[9] - (i & 7))
        seen[c[10]] += 1
        c[10] += 1
        c64[0] = min(c64[0], v * 1000003)
        c64[1] = max(c64[1], v * 1000003)
        w64[0] = u64(w64[0] + (u32(v) << 20))
        for k, add in ((1, (v & 0xFFFF) * 0x100000001), (2, 0x1000000000000000)):
            nv = u64(w64[k] + add)
            w64[k] = nv if nv > w64[k] else w64[k]


CTAB = [3, -1, 4, -1, 5, -9, 2, -6, 5, 3, -5, 8, 9, -7, 9, 3]
CBIG = [0x123456789ABCDEF, 0xFEDCBA9876543210, 1 << 63, 42]
CCHAR = [-128, -1, 0, 1, 127, -50, 50, 7]
DSHORT = [-32768, -2, 300, 32767, -300, 5, -5, 1000]
DTAB = [10, 20, 30, 40, 50, 60, 70, 80]


def m_globals(b, p, grid, block):
    inp, out, res = b["in"], b["out"], b["result"]
    total = 0
    for i, _, _ in threads(grid, block):
        v = inp[i]
        x = CTAB[v & 15] + DTAB[i & 7] + CCHAR[(v >> 4) & 7] * DSHORT[i & 7] + s64(CBIG[i & 3] >> (v & 63)) \
            + DTAB[2 + (i & 3)]
        out[i] = s64(x)
        total = s64(total + x)
    res[0] = total
    res[1] = 0


def m_grid3d(b, p, grid, block):
    ids, acc = b["ids"], b["acc"]
    n = p[2]
    nthr = block[0] * block[1] * block[2]
    total = nthr * grid[0] * grid[1] * grid[2]
    for g, (tx, ty, tz), (bx, by, bz) in threads(grid, block):
        ids[g] = u32((tx | ty << 4 | tz << 8 | bx << 12 | by << 16 | bz << 20) ^
                     (grid[0] << 24 | grid[1] << 26 | grid[2] << 28 | block[2] << 30))
        for k in range(g, n, total):
            acc[k] = k * 3 + (g & 7)


def classify(v):
    if v & 1:
        if v & 2:
            return 7 if v & 4 else 6
        return 5
    elif v & 8:
        return 4 if v & 16 else 3
    return 1 if v < 0 else 2


def m_control(b, p, grid, block):
    inp, out, steps = b["in"], b["out"], b["steps"]
    n = p[3]
    for i, _, _ in threads(grid, block):
        if i >= n:
            continue
        v = inp[i]
        s = 0
        returned = False
        for k in range(40):
            w = inp[(i + k) % n]
            if w % 3 == 0:
                continue
            if w < -900:
                out[i] = -s
                steps[i] = -k
                returned = True
                break
            s += classify(w) * (k + 1)
            if s > 500:
                break
        if returned:
            continue
        c = u32(abs(v) + 1)
        st = 0
        while c != 1 and st < 200:
            c = u32(3 * c + 1) if c & 1 else c >> 1
            st += 1
        out[i] = s
        steps[i] = st


def m_switch12(b, p, grid, block):
    inp, out = b["in"], b["out"]
    n = p[2]
    for i, _, _ in threads(grid, block):
        if i >= n:
            continue
        a, r = inp[i], 0
        for k in range(3):
            c = crem(a + k * 5, 13)
            if c == 0: r += a
            elif c == 1: r -= 3 * a + k
            elif c == 2: r ^= s32(a << 3)
            elif c == 3: r = r * 7 + 1
            elif c == 4: r += cdiv(a, 3)
            elif c == 5: r |= 0x100 << k
            elif c == 6: r &= ~a
            elif c == 7: r += (a >> 2) - k
            elif c == 8: r -= 1000
            elif c == 9: r = (r << 1) | (a & 1)
            elif c == 10: r += k * k * 11
            elif c == 11: r = -r
            else: r += 77
            r = s32(r)
        out[i] = r


def m_bsearch(b, p, grid, block):
    import bisect
    a, q, lo, cnt = b["sorted"], b["queries"], b["lo"], b["cnt"]
    for i in range(p[5]):
        l = bisect.bisect_left(a, q[i])
        u = bisect.bisect_right(a, q[i])
        lo[i] = l
        cnt[i] = u - l


def m_scan(b, p, grid, block):
    inp, incl, excl = b["in"], b["incl"], b["excl"]
    B = block[0]
    for cta in range(grid[0]):
        run = 0
        for t in range(B):
            g = cta * B + t
            excl[g] = run
            run += inp[g]
            incl[g] = run


def m_bitonic(b, p, grid, block):
    inp, out = b["in"], b["out"]
    N = 2 * block[0]
    for cta in range(grid[0]):
        out[cta * N:(cta + 1) * N] = sorted(inp[cta * N:(cta + 1) * N])


def m_bytes(b, p, grid, block):
    uc, sc, ss, v4 = b["uc"], b["sc"], b["ss"], b["v4"]
    o16, o8, o32, ou16 = b["o16"], b["o8"], b["o32"], b["ou16"]
    n = p[8]
    for i, _, _ in threads(grid, block):
        if i >= n:
            continue
        a, bb, c = uc[i], sc[i], ss[i]
        qx, qy, qz, qw = v4[4 * i:4 * i + 4]
        o16[i] = s16(bb * 3 + a - c)
        o8[i] = u8(u8(a ^ bb) + u8(c >> 8))
        o32[2 * i] = bb + c + a
        o32[2 * i + 1] = s32(s8(qx) * qy + (qz << 8) - s8(qw))
        ou16[i] = u16((u16(c) >> 3) + (1 if bb < 0 else 0))


def m_hash64(b, p, grid, block):
    seeds, out = b["seeds"], b["out"]
    m, n = p[2], p[3]

    def rotl(x, r):
        return u64((x << r) | (x >> (64 - r)))

    for i, _, _ in threads(grid, block):
        if i >= n:
            continue
        s = seeds[i]
        h = 0
        for _ in range((s & 7) + 1):
            s = u64(s + 0x9E3779B97F4A7C15)
            z = s
            z = u64((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9)
            z = u64((z ^ (z >> 27)) * 0x94D049BB133111EB)
            z ^= z >> 31
            h = u64(rotl(h ^ z, 27) * 5 + 0x52DCE729)
            h = u64(h ^ (h << 13))
            h ^= h >> 7
            h = u64(h ^ (h << 17))
        k = h
        k ^= k >> 33
        k = u64(k * 0xFF51AFD7ED558CCD)
        k ^= k >> 33
        k = u64(k * 0xC4CEB9FE1A85EC53)
        k ^= k >> 33
        out[3 * i] = k
        out[3 * i + 1] = h % m
        out[3 * i + 2] = rotl(h, (i & 63) or 1) // ((m >> 3) | 1)


def m_generic(b, p, grid, block):
    inp, out, gcount = b["in"], b["out"], b["gcount"]
    sc, ss, uc = p[3], p[4], p[5]
    cvals = [100, -200, 300, -400, 500, -600, 700, -800]
    counter = 0
    for t in range(block[0]):
        sel, idx = t % 5, (t >> 2) & 7
        v = [2 * inp[idx], inp[idx] + 1000, inp[(t + idx) & 63] ^ idx, cvals[idx], 3 * inp[idx]][sel]
        out[t] = v + sc * ss + uc
        if t & 1:
            counter += t
        else:
            gcount[0] += t
    out[64] = counter


def m_exitbar(b, p, grid, block):
    inp, out, sums = b["in"], b["out"], b["sums"]
    n, nb = p[3], block[0]
    for cta in range(grid[0]):
        base = cta * nb
        active = min(nb, n - base)
        if active <= 0:
            continue
        s = inp[base:base + active]
        tot = sum(s)
        for t in range(active):
            r = s[(t + 1) % active] - s[t]
            out[base + t] = r * 1000 + (crem(tot, 1000) if t == active - 1 else 0)
        sums[cta] = tot


def m_vec(b, p, grid, block):
    a, bb, c, d = b["a"], b["b"], b["c"], b["d"]
    oa, ob, oc, h16, x64 = b["oa"], b["ob"], b["oc"], b["h16"], b["x64"]
    n = p[9]
    for i in range(n):
        x, y, z, w = a[4 * i:4 * i + 4]
        bx, by = bb[2 * i:2 * i + 2]
        cx, cy, cz, cw = c[4 * i:4 * i + 4]
        dx, dy = d[2 * i:2 * i + 2]
        oa[4 * i:4 * i + 4] = [s32(w + dx), s32(z - dy), s32(y ^ cx), s32(x + s32(by))]
        ob[2 * i:2 * i + 2] = [s64(bx * x + dx), s64(by - cw * dy)]
        oc[4 * i:4 * i + 4] = [cw, u16(cz + 1), cy ^ 0xFFFF, u16(cx + dx)]
        h16[i & 3] = u16(h16[i & 3] + (cx & 0xFF))
        x64[i] = u64(bx) ^ 0xDEADBEEFCAFEF00D


# --------------------------------------------------------------------------- launch specs

def spec_int64math():
    r = LCG(1)
    n = 40
    a = [0, M64, 1 << 63, 12345] + [r.next64() for _ in range(n - 4)]
    bb = [0, M64, 3, 1 << 40] + [r.next64() >> r.int(0, 60) for _ in range(n - 4)]
    s = [-1, (1 << 63) - 1, -(1 << 62), 0] + [s64(r.next64()) >> r.int(0, 40) for _ in range(n - 4)]
    return dict(doc="64-bit integer math: mul.hi (signed/unsigned), division/modulo by runtime and constant "
                    "values, signed/unsigned mixes. 40 threads of 2 x 32.",
                grid=[2, 1, 1], block=[32, 1, 1],
                buffers=[("a", "u64", a), ("b", "u64", bb), ("s", "s64", s), ("out", "u64", [0] * (12 * n))],
                params=["a", "b", "s", "out", n], expect=["out"], model=m_int64math, per_line=4)


def spec_bittricks():
    r = LCG(2)
    n = 48
    vals = [0, M32, 0x80000000, 1, 0x12345678, 0xF0F0F0F0] + [u32(r.next64() >> r.int(0, 32)) for _ in range(n - 6)]
    return dict(doc="popc clz brev prmt (byte_perm) funnel shifts ffs (bfind) bfe/bfi (compiler-generated "
                    "and inline asm with runtime pos/len). 48 threads of 64.",
                grid=[1, 1, 1], block=[64, 1, 1],
                buffers=[("in", "u32", vals), ("out", "u32", [0] * (16 * n))],
                params=["in", "out", n], expect=["out"], model=m_bittricks, per_line=8)


def spec_localarr():
    r = LCG(3)
    n = 100
    return dict(doc="per-thread int[24] and struct array indexed by data: .local memory. 2 x 64 threads "
                    "(no bound check: indices are taken % n).",
                grid=[2, 1, 1], block=[64, 1, 1],
                buffers=[("in", "s32", r.list(n, -1000, 1000)), ("out", "s32", [0] * 256)],
                params=["in", "out", n], expect=["out"], model=m_localarr, per_line=8)


def spec_dynsmem():
    r = LCG(4)
    nb, g = 128, 3
    return dict(doc="extern __shared__ (shared_bytes = (128 + 16 + 2) * 4 + 8 = 592): reversal, shared "
                    "atomics add/min/max/exch/cas, a 64-bit shared atomicAdd. 3 x 128.",
                grid=[g, 1, 1], block=[nb, 1, 1], shared_bytes=592,
                buffers=[("in", "u32", [u32(r.next64() >> r.int(0, 32)) for _ in range(nb * g)]),
                         ("out", "u32", [0] * (nb * g)), ("hist", "u32", [0] * (18 * g)),
                         ("sums", "u64", [0] * g)],
                params=["in", "out", "hist", "sums"], expect=["out", "hist", "sums"], model=m_dynsmem,
                per_line=8)


def spec_atomics():
    r = LCG(5)
    n = 200
    return dict(doc="global atomics inc/dec (wrap), min/max signed/unsigned/64-bit, and/or/xor/sub, "
                    "add-return tickets, 64-bit atomicCAS loops. 200 threads of 4 x 64.",
                grid=[4, 1, 1], block=[64, 1, 1],
                buffers=[("in", "s32", r.list(n, -5000, 5000)),
                         ("c", "u32", [0, 5, 0x7FFFFFFF, 0x80000000, M32, 0, M32, 0, 0x12345678, 1000, 0]),
                         ("c64", "s64", [(1 << 63) - 1, -(1 << 63)]),
                         ("u64", "u64", [7, 0, 0]),
                         ("seen", "u32", [0] * 256)],
                params=["in", "c", "c64", "u64", "seen", n], expect=["c", "c64", "u64", "seen"],
                model=m_atomics, per_line=8)


def spec_globals():
    r = LCG(6)
    return dict(doc="__constant__ / __device__ variables with 8/16/32/64-bit initialisers, a pointer "
                    "initialised with generic(dtab)+8, last-block-done with atomicInc. sm_90. 4 x 64.",
                grid=[4, 1, 1], block=[64, 1, 1],
                buffers=[("in", "s32", r.list(256, -100000, 100000)), ("out", "s64", [0] * 256),
                         ("result", "s64", [0, 99])],
                params=["in", "out", "result"], expect=["out", "result"], model=m_globals, per_line=8)


def spec_grid3d():
    return dict(doc="3D grid [3,2,2] of 3D blocks [8,4,2]: every %tid/%ctaid/%ntid/%nctaid, a grid-stride loop "
                    "over n = 2000.",
                grid=[3, 2, 2], block=[8, 4, 2],
                buffers=[("ids", "u32", [0] * 768), ("acc", "s32", [-1] * 2000)],
                params=["ids", "acc", 2000], expect=["ids", "acc"], model=m_grid3d, per_line=8)


def spec_control():
    r = LCG(7)
    n = 150
    return dict(doc="compiled with -G: continue, early return inside a loop, break, nested divergent ifs "
                    "(inlined classify), a Collatz while loop. 150 threads of 3 x 64.",
                grid=[3, 1, 1], block=[64, 1, 1],
                buffers=[("in", "s32", r.list(n, -1000, 1000)), ("out", "s32", [0] * 192),
                         ("steps", "s32", [0] * 192)],
                params=["in", "out", "steps", n], expect=["out", "steps"], model=m_control, per_line=10)


def spec_switch12():
    r = LCG(8)
    n = 300
    return dict(doc="13-way switch (12 cases + default) as a jump table (brx.idx) inside a loop; negative "
                    "remainders take the default. sm_90. 300 threads of 5 x 64.",
                grid=[5, 1, 1], block=[64, 1, 1],
                buffers=[("in", "s32", r.list(n, -50000, 50000)), ("out", "s32", [0] * 320)],
                params=["in", "out", n], expect=["out"], model=m_switch12, per_line=10)


def spec_bsearch():
    r = LCG(9)
    srt = sorted(r.list(100, -500, 500) + [7] * 5)
    q = [-1000, 1000, srt[0], srt[-1], 7] + r.list(295, -600, 600)
    return dict(doc="lower/upper bound binary searches (inlined device functions) over 105 sorted ints with "
                    "duplicates, 300 queries in a grid-stride loop of 2 x 64 threads.",
                grid=[2, 1, 1], block=[64, 1, 1],
                buffers=[("sorted", "s32", srt), ("queries", "s32", q), ("lo", "s32", [-1] * 300),
                         ("cnt", "s32", [-1] * 300)],
                params=["sorted", len(srt), "queries", "lo", "cnt", 300], expect=["lo", "cnt"],
                model=m_bsearch, per_line=15)


def spec_scan():
    r = LCG(10)
    return dict(doc="Hillis-Steele inclusive and Blelloch exclusive scans in shared memory, __syncthreads "
                    "in loops. 2 x 256.",
                grid=[2, 1, 1], block=[256, 1, 1],
                buffers=[("in", "s32", r.list(512, -100, 100)), ("incl", "s32", [0] * 512),
                         ("excl", "s32", [0] * 512)],
                params=["in", "incl", "excl"], expect=["incl", "excl"], model=m_scan, per_line=16)


def spec_bitonic():
    r = LCG(11)
    return dict(doc="bitonic sort of 512 keys per CTA in shared memory (256 threads, 2 keys each), "
                    "fully unrolled by nvcc (sm_80). 2 CTAs.",
                grid=[2, 1, 1], block=[256, 1, 1],
                buffers=[("in", "s32", r.list(1024, -300, 300)), ("out", "s32", [0] * 1024)],
                params=["in", "out"], expect=["out"], model=m_bitonic, per_line=16)


def spec_bytes():
    r = LCG(12)
    n = 100
    return dict(doc="8/16-bit loads and stores with sign/zero extension, uchar4 vector loads. 100 threads of "
                    "2 x 64.",
                grid=[2, 1, 1], block=[64, 1, 1],
                buffers=[("uc", "u8", [0, 255, 128, 127] + r.list(n - 4, 0, 255)),
                         ("sc", "s8", [-128, 127, -1, 0] + r.list(n - 4, -128, 127)),
                         ("ss", "s16", [-32768, 32767, -1, 256] + r.list(n - 4, -32768, 32767)),
                         ("v4", "u8", r.list(4 * n, 0, 255)),
                         ("o16", "s16", [0] * n), ("o8", "u8", [0] * n), ("o32", "s32", [0] * (2 * n)),
                         ("ou16", "u16", [0] * n)],
                params=["uc", "sc", "ss", "v4", "o16", "o8", "o32", "ou16", n],
                expect=["o16", "o8", "o32", "ou16"], model=m_bytes, per_line=16)


def spec_hash64():
    r = LCG(13)
    m = 0x1234567890ABD
    return dict(doc="splitmix64 / murmur fmix64 / xorshift with 64-bit rotates, runtime trip counts, 64-bit "
                    "modulo and division by runtime values. 64 threads.",
                grid=[1, 1, 1], block=[64, 1, 1],
                buffers=[("seeds", "u64", [r.next64() for _ in range(64)]), ("out", "u64", [0] * 192)],
                params=["seeds", "out", m, 64], expect=["out"], model=m_hash64, per_line=4)


def spec_generic():
    r = LCG(14)
    return dict(doc="generic loads chosen per thread among static shared, extern shared (shared_bytes 256), "
                    "local, const and a __device__ array; generic atomics on shared and global; s8/s16/u8 "
                    "scalar params. 1 x 64.",
                grid=[1, 1, 1], block=[64, 1, 1], shared_bytes=256,
                buffers=[("in", "s32", r.list(64, -1000, 1000)), ("out", "s32", [0] * 65), ("gcount", "u32", [0])],
                params=["in", "out", "gcount", -7, -1234, 250], expect=["out", "gcount"], model=m_generic,
                per_line=10)


def spec_exitbar():
    r = LCG(15)
    return dict(doc="threads past n = 250 return before the __syncthreads (3 CTAs of 100 threads: the last has "
                    "50 live); rotation through shared memory and a shared atomic sum.",
                grid=[3, 1, 1], block=[100, 1, 1],
                buffers=[("in", "s32", r.list(300, -500, 500)), ("out", "s32", [-1] * 300), ("sums", "s32", [0] * 3)],
                params=["in", "out", "sums", 250], expect=["out", "sums"], model=m_exitbar, per_line=10)


def spec_vec():
    r = LCG(16)
    n = 40
    return dict(doc="int4 (ld.global.nc.v4), longlong2, ushort4, char2 vector loads/stores, a 16-bit atomicCAS "
                    "loop, 64-bit atomicExch. sm_80. 40 threads of 64.",
                grid=[1, 1, 1], block=[64, 1, 1],
                buffers=[("a", "s32", r.list(4 * n, -2**30, 2**30)), ("b", "s64", r.list(2 * n, -2**40, 2**40)),
                         ("c", "u16", r.list(4 * n, 0, 65535)), ("d", "s8", r.list(2 * n, -128, 127)),
                         ("oa", "s32", [0] * (4 * n)), ("ob", "s64", [0] * (2 * n)), ("oc", "u16", [0] * (4 * n)),
                         ("h16", "u16", [1, 2, 3, 65535]), ("x64", "u64", [0] * n)],
                params=["a", "b", "c", "d", "oa", "ob", "oc", "h16", "x64", n],
                expect=["oa", "ob", "oc", "h16", "x64"], model=m_vec, per_line=8)


SPECS = {k[5:]: v for k, v in globals().items() if k.startswith("spec_")}


def fmt_rows(vals, per_line, indent="      "):
    rows = [", ".join(str(v) for v in vals[i:i + per_line]) for i in range(0, len(vals), per_line)]
    return "[\n" + ",\n".join(indent + r for r in rows) + ",\n    ]"


def render(name, sp):
    bufs = {nm: list(data) for nm, _, data in sp["buffers"]}
    sp["model"](bufs, sp["params"], sp["grid"], sp["block"])
    per = sp.get("per_line", 8)
    L = [f"# GENERATED by tests/kernels/int/expected.py from the Python model m_{name}; do not edit.",
         f"# {sp['doc']}",
         f"name: {name}", f"kernel: {name}.ptx",
         f"grid: {sp['grid']}", f"block: {sp['block']}"]
    if "shared_bytes" in sp:
        L.append(f"shared_bytes: {sp['shared_bytes']}")
    L.append("buffers:")
    for nm, ty, data in sp["buffers"]:
        if all(v == data[0] for v in data):
            L.append(f"  {nm}: {{type: {ty}, count: {len(data)}, init: {data[0]}}}")
        else:
            L.append(f"  {nm}:\n    type: {ty}\n    count: {len(data)}\n    init: " + fmt_rows(data, per))
    L.append("params: [" + ", ".join(str(x) for x in sp["params"]) + "]")
    L.append("expect:")
    for nm in sp["expect"]:
        L.append(f"  {nm}: " + fmt_rows(bufs[nm], per, "      "))
    return "\n".join(L) + "\n"


def main():
    check = "--check" in sys.argv
    names = [a for a in sys.argv[1:] if not a.startswith("--")] or sorted(SPECS)
    bad = 0
    for name in names:
        text = render(name, SPECS[name]())
        path = os.path.join(HERE, name + ".yaml")
        if check:
            old = open(path).read() if os.path.exists(path) else ""
            if old != text:
                print(f"{path}: differs from the model", file=sys.stderr)
                bad = 1
        else:
            open(path, "w").write(text)
            print(f"wrote {path}")
    sys.exit(bad)


if __name__ == "__main__":
    main()
