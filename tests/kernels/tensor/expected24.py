#!/usr/bin/env python3
"""Independent Python model of the issue-24 tensor kernels (imma.cu, hmma884.cu, fp8.cu):
writes NAME.yaml with the inputs and the expected outputs; --check verifies the committed files.

FP8 (OCP 8-bit Floating Point Specification OFP8 rev. 1.0; PTX ISA 5.2.5, 9.7.9.21):
  decode by the format's definition (sign, biased exponent, fraction; E4M3 S.1111.111 NaN and
  no infinities, E5M2 S.11111.00 infinity and S.11111.xx NaN);
  encode (.rn.satfinite) by search: the finite code nearest to the exact input, a tie going
  to the code whose last bit is 0 (round to nearest even), which clamps everything beyond the
  largest finite value to it; infinities clamp too; a NaN gives E4M3 sign|0x7f and E5M2
  sign|0x7e|(the source's second fraction bit) as CUDA's cuda_fp8.hpp host path encodes it;
  .relu: a negative result +0, a NaN the canonical 0x7f; decoding to f16 gives the exact
  value, a NaN the canonical f16 NaN 0x7fff (cuda_fp8.hpp __nv_cvt_fp8_to_halfraw).
mma (PTX ISA 9.7.14.5.1 m8n8k4 .f16 quad pairs, 9.7.14.5.8-10 m8n8k16 / m8n8k32 / m16n8k32):
  the fragment words are built here from the matrices by the ISA's tables (the kernels only
  copy raw words), D = A * B + C exactly in rationals, rounded once (the data keep the sums
  exact in double, so the accumulation order the ISA leaves open does not matter)."""
import random
import struct
import sys
from fractions import Fraction as Fr
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAN = 'nan'

# ---- FP8 ---------------------------------------------------------------------------------
FMT = {'e4m3': (4, 3, 7), 'e5m2': (5, 2, 15)}


def fp8_decode(code, fmt):
    eb, mb, bias = FMT[fmt]
    s, e, m = code >> 7, (code >> mb) & ((1 << eb) - 1), code & ((1 << mb) - 1)
    if fmt == 'e4m3' and e == 15 and m == 7:
        return NAN
    if fmt == 'e5m2' and e == 31:
        return NAN if m else ('-inf' if s else 'inf')
    v = Fr(m, 1 << mb) * Fr(2) ** (1 - bias) if e == 0 else (1 + Fr(m, 1 << mb)) * Fr(2) ** (e - bias)
    return -v if s else v


def finite_codes(fmt):
    """(value, code) of the non-negative finite codes"""
    return [(fp8_decode(c, fmt), c) for c in range(128) if not isinstance(fp8_decode(c, fmt), str)]


FINITE = {f: finite_codes(f) for f in FMT}


def fp8_encode(x, neg, fmt, nan_frac2=0, relu=False):
    """x: a Fraction >= 0, 'inf' or NAN; neg: the sign bit of the source"""
    if x == NAN:
        return 0x7f if relu else (neg << 7) | (0x7f if fmt == 'e4m3' else 0x7e | (nan_frac2 & 1))
    if relu and neg:
        return 0
    if x == 'inf':
        return (neg << 7) | max(FINITE[fmt])[1]
    best = min(FINITE[fmt], key=lambda vc: (abs(vc[0] - x), vc[1] & 1))
    return (neg << 7) | best[1]


def f32_parts(bits):
    """(magnitude as Fraction / 'inf' / NAN, sign, two leading fraction bits)"""
    s, e, f = bits >> 31, (bits >> 23) & 0xff, bits & 0x7fffff
    if e == 255:
        return (NAN if f else 'inf'), s, (f >> 21) & 3
    v = Fr(f, 1 << 23) * Fr(2) ** -126 if e == 0 else (1 + Fr(f, 1 << 23)) * Fr(2) ** (e - 127)
    return v, s, (f >> 21) & 3


def f16_parts(bits):
    s, e, f = bits >> 15, (bits >> 10) & 0x1f, bits & 0x3ff
    if e == 31:
        return (NAN if f else 'inf'), s, (f >> 8) & 3
    v = Fr(f, 1 << 10) * Fr(2) ** -14 if e == 0 else (1 + Fr(f, 1 << 10)) * Fr(2) ** (e - 15)
    return v, s, (f >> 8) & 3


def f16_bits_of(v):
    """an exact f16 value (Fraction, 'inf', '-inf') or NAN to its bits (NaN: canonical 0x7fff)"""
    if v == NAN:
        return 0x7fff
    if v in ('inf', '-inf'):
        return 0x7c00 | (0x8000 if v == '-inf' else 0)
    b = struct.unpack('<H', struct.pack('<e', float(v)))[0]
    assert f16_parts(b)[0] == abs(v), v
    return b


def from_fp8_to_f16(code, fmt, relu=False):
    v = fp8_decode(code, fmt)
    if v == NAN:
        return 0x7fff
    neg = (code >> 7) == 1
    if relu and neg and v != 0:
        return 0
    b = f16_bits_of(v)
    if v == 0 and neg:   # -0
        b = 0x8000
    return b


def enc_f32(bits, fmt, relu=False):
    v, s, n2 = f32_parts(bits)
    return fp8_encode(v, s, fmt, n2, relu)


def enc_f16(bits, fmt, relu=False):
    v, s, n2 = f16_parts(bits)
    return fp8_encode(v, s, fmt, n2, relu)


def f32b(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def f32_inputs(rng):
    """f32 bit patterns: every FP8 value, the midpoints between neighbours (ties) and one f32
    ulp either side, the overflow region, subnormals, zeros, infinities, NaNs, random values"""
    vals = set()
    for fmt in FMT:
        fin = sorted(v for v, _ in FINITE[fmt])
        for a, b in zip(fin, fin[1:]):
            mid = f32b(float((a + b) / 2))
            vals.update({f32b(float(a)), mid, mid - 1, mid + 1})
        top = fin[-1]
        ulp = top - fin[-2]
        for t in (top, top + ulp / 2, top + ulp, top * 2):
            vals.update({f32b(float(t)), f32b(float(t)) + 1, f32b(float(t)) - 1})
        tiny = fin[1]   # the smallest subnormal
        for t in (tiny / 2, tiny / 4, tiny * 3 / 2):
            vals.update({f32b(float(t)), f32b(float(t)) + 1, f32b(float(t)) - 1})
    vals.update({0, 1, 0x007fffff, 0x00800000, 0x7f7fffff, 0x7f800000, 0x7fc00000, 0x7fffffff, 0x7fa00000,
                 0x7f800001, 0x7fe00000, 0x3f800000, 0x47800000, 0x477fe000})
    while len(vals) < 1500:
        vals.add(rng.getrandbits(31))
    vals = sorted(vals)
    out = []
    for v in vals:
        out += [v, v | 0x80000000]
    rng.shuffle(out)
    return out


def f16_inputs(rng):
    vals = set()
    for fmt in FMT:
        fin = sorted(v for v, _ in FINITE[fmt])
        for a, b in zip(fin, fin[1:]):
            for x in (a, (a + b) / 2):
                try:
                    h = struct.unpack('<H', struct.pack('<e', float(x)))[0]
                except OverflowError:
                    continue
                vals.update({h, (h + 1) & 0x7fff, max(h - 1, 0)})
    vals.update({0, 1, 0x3ff, 0x400, 0x7bff, 0x7c00, 0x7e00, 0x7fff, 0x7d00, 0x7c01, 0x5f00, 0x5f40, 0x7a00})
    while len(vals) < 1200:
        vals.add(rng.getrandbits(15))
    out = []
    for v in sorted(vals):
        out += [v, v | 0x8000]
    rng.shuffle(out)
    return out


# ---- yaml ----------------------------------------------------------------------------------
def lst(vals, per=16):
    rows = ['      ' + ', '.join(str(v) for v in vals[i:i + per]) for i in range(0, len(vals), per)]
    return '[\n' + ',\n'.join(rows) + ']'


def workload(name, kernel, entry, comment, regs, grid, block, buffers, params, expect):
    y = ['# GENERATED by tests/kernels/tensor/expected24.py; do not edit.', '# ' + comment, f'name: {name}',
         f'kernel: {kernel}', f'entry: {entry}', f'grid: {grid}', f'block: {block}',
         f'regs_per_thread: {regs}        # ptxas -v', 'buffers:']
    for b, (ty, init) in buffers.items():
        if isinstance(init, int):
            y.append(f'  {b}: {{type: {ty}, count: {init}, init: 0}}')
        else:
            y.append(f'  {b}: {{type: {ty}, count: {len(init)}, init: {lst(init)}}}')
    y.append('params: [' + ', '.join(str(p) for p in params) + ']')
    y.append('expect:')
    for b, v in expect.items():
        y.append(f'  {b}: {lst(v)}')
    return name, '\n'.join(y) + '\n'


def fp8_workloads(rng):
    out = []
    x = f32_inputs(rng)
    n = len(x) // 2   # pairs (x, y): the kernel's float2; d = {fp8(y) in 15:8, fp8(x) in 7:0}
    e4 = [enc_f32(x[2 * i + 1], 'e4m3') << 8 | enc_f32(x[2 * i], 'e4m3') for i in range(n)]
    e5 = [enc_f32(x[2 * i + 1], 'e5m2') << 8 | enc_f32(x[2 * i], 'e5m2') for i in range(n)]
    out.append(workload('fp8_from_f32', 'fp8.ptx', 'fp8_from_f32',
                        'cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 (__nv_cvt_float2_to_fp8x2, sm_89)', 14,
                        (n + 127) // 128, 128, {'x': ('u32', x), 'e4': ('u16', n), 'e5': ('u16', n)},
                        ['x', 'e4', 'e5', n], {'e4': e4, 'e5': e5}))
    h = f16_inputs(rng)
    n = len(h) // 2
    words = [h[2 * i] | h[2 * i + 1] << 16 for i in range(n)]
    e4 = [enc_f16(w >> 16, 'e4m3') << 8 | enc_f16(w & 0xffff, 'e4m3') for w in words]
    e5 = [enc_f16(w >> 16, 'e5m2') << 8 | enc_f16(w & 0xffff, 'e5m2') for w in words]
    out.append(workload('fp8_from_f16x2', 'fp8.ptx', 'fp8_from_f16x2',
                        'cvt.rn.satfinite.{e4m3x2,e5m2x2}.f16x2 (__nv_cvt_halfraw2_to_fp8x2, sm_89)', 14,
                        (n + 127) // 128, 128, {'x': ('u32', words), 'e4': ('u16', n), 'e5': ('u16', n)},
                        ['x', 'e4', 'e5', n], {'e4': e4, 'e5': e5}))
    pairs = [2 * i | (2 * i + 1) << 8 for i in range(128)]   # all 256 codes
    h4 = [from_fp8_to_f16(p >> 8, 'e4m3') << 16 | from_fp8_to_f16(p & 0xff, 'e4m3') for p in pairs]
    h5 = [from_fp8_to_f16(p >> 8, 'e5m2') << 16 | from_fp8_to_f16(p & 0xff, 'e5m2') for p in pairs]
    out.append(workload('fp8_to_f16x2', 'fp8.ptx', 'fp8_to_f16x2',
                        'cvt.rn.f16x2.{e4m3x2,e5m2x2} over all 256 codes (__nv_cvt_fp8x2_to_halfraw2, sm_89)', 14, 1,
                        128, {'x': ('u16', pairs), 'h4': ('u32', 128), 'h5': ('u32', 128)}, ['x', 'h4', 'h5', 128],
                        {'h4': h4, 'h5': h5}))
    # .relu: f32 pairs, f16x2 words (their low halves also as e4m3x2 codes)
    n = 512
    xs = x[:2 * n]
    hw = [rng.choice(words) if i % 2 else rng.getrandbits(32) for i in range(n)]
    r4 = [enc_f32(xs[2 * i + 1], 'e4m3', True) << 8 | enc_f32(xs[2 * i], 'e4m3', True) for i in range(n)]
    r5 = [enc_f16(w >> 16, 'e5m2', True) << 8 | enc_f16(w & 0xffff, 'e5m2', True) for w in hw]
    d4 = [from_fp8_to_f16((w >> 8) & 0xff, 'e4m3', True) << 16 | from_fp8_to_f16(w & 0xff, 'e4m3', True) for w in hw]
    out.append(workload('fp8_relu', 'fp8.ptx', 'fp8_relu',
                        'cvt.rn.satfinite.relu.e4m3x2.f32, cvt.rn.satfinite.relu.e5m2x2.f16x2, cvt.rn.relu.f16x2.e4m3x2',
                        20, n // 128, 128, {'x': ('u32', xs), 'h': ('u32', hw), 'e4': ('u16', n), 'e5': ('u16', n),
                                            'd4': ('u32', n)}, ['x', 'h', 'e4', 'e5', 'd4', n],
                        {'e4': r4, 'e5': r5, 'd4': d4}))
    return out


# ---- mma -----------------------------------------------------------------------------------
def matmul(A, B, C, m, n, k):
    return [[C[r][c] + sum(A[r][j] * B[j][c] for j in range(k)) for c in range(n)] for r in range(m)]


def f32_of(v):
    """exact-in-double Fraction to f32 bits, rounding once"""
    d = float(v)
    assert Fr(d) == v, v
    return f32b(d)


def f16_round_bits(v):
    d = float(v)
    assert Fr(d) == v, v
    return struct.unpack('<H', struct.pack('<e', d))[0]   # IEEE round to nearest even


def imma_workloads(rng):
    out = []
    forms = [('imma_s8s8', 's8', 's8', 16, False), ('imma_u8s8_sat', 'u8', 's8', 16, True),
             ('imma_s4u4', 's4', 'u4', 32, False), ('imma_u4u4_sat', 'u4', 'u4', 32, True)]
    rngs = {'s8': (-128, 127), 'u8': (0, 255), 's4': (-8, 7), 'u4': (0, 15)}
    for name, at, bt, k, sat in forms:
        bits = 8 if k == 16 else 4
        A = [[rng.randint(*rngs[at]) for _ in range(k)] for _ in range(8)]
        B = [[rng.randint(*rngs[bt]) for _ in range(8)] for _ in range(k)]
        A[0] = [rngs[at][1]] * k
        B = [[rngs[bt][1] if c == 0 else B[j][c] for c in range(8)] for j in range(k)]
        C = [[rng.randint(-100000, 100000) for _ in range(8)] for _ in range(8)]
        C[0] = [2 ** 31 - 1000 - c for c in range(8)]          # row 0 overflows: wraps or saturates
        C[1] = [-2 ** 31 + 5 + c for c in range(8)]
        if rngs[at][0] < 0:
            A[1] = [rngs[at][0]] * k
        D = matmul(A, B, C, 8, 8, k)
        D = [[max(-2 ** 31, min(2 ** 31 - 1, v)) if sat else (v + 2 ** 31) % 2 ** 32 - 2 ** 31 for v in row] for row in D]
        per = 32 // bits
        Aw, Bw, Cw, Dw = [], [], [], []
        for lane in range(32):
            g, t = lane >> 2, lane & 3
            # PTX ISA m8n8k16 / m8n8k32: A row g, column per*t + i; B row per*t + i, column g; C/D (g, 2t + i)
            Aw.append(sum((A[g][per * t + i] & ((1 << bits) - 1)) << (bits * i) for i in range(per)))
            Bw.append(sum((B[per * t + i][g] & ((1 << bits) - 1)) << (bits * i) for i in range(per)))
            Cw += [C[g][2 * t + i] for i in range(2)]
            Dw += [D[g][2 * t + i] for i in range(2)]
        instr = f'mma.sync.aligned.m8n8k{k}.row.col{".satfinite" if sat else ""}.s32.{at}.{bt}.s32'
        out.append(workload(name, 'imma.ptx', name, instr + ' (Turing IMMA, sm_75)', 14, 1, 32,
                            {'A': ('u32', Aw), 'B': ('u32', Bw), 'C': ('s32', Cw), 'D': ('s32', 64)},
                            ['A', 'B', 'C', 'D'], {'D': Dw}))
    return out


def hval(rng):
    """a small f16 value with a short fraction: the products and sums stay exact"""
    return Fr(rng.randint(-64, 64), 8)


def hmma_pos_a(lay, q, h, i):   # PTX ISA 9.7.14.5.1, A 8x4
    return (q + 4 * h, i) if lay == 'row' else (i + 4 * h, q)


def hmma_pos_b(lay, q, h, i):   # B 4x8
    return (q, i + 4 * h) if lay == 'row' else (i, q + 4 * h)


def hmma_pos_c(ty, q, h, i):    # C/D 8x8
    if ty == 'f16':
        return q + 4 * h, i
    return (q & 1) + (i & 2) + 4 * h, (i & 4) + (q & 2) + (i & 1)


def hmma_workloads(rng):
    out = []
    forms = [('hmma_rc_f32', 'row', 'col', 'f32', 'f32'), ('hmma_cr_f32', 'col', 'row', 'f32', 'f32'),
             ('hmma_rr_f32', 'row', 'row', 'f32', 'f32'), ('hmma_cc_f32', 'col', 'col', 'f32', 'f32'),
             ('hmma_rc_f16', 'row', 'col', 'f16', 'f16'), ('hmma_cc_f16', 'col', 'col', 'f16', 'f16'),
             ('hmma_f32_f16c', 'row', 'col', 'f32', 'f16')]
    for name, al, bl, dt, ct in forms:
        # four independent products, one per quad pair p (lanes 4p..4p+3 and 4p+16..4p+19)
        mats = []
        for p in range(4):
            A = [[hval(rng) for _ in range(4)] for _ in range(8)]
            B = [[hval(rng) for _ in range(8)] for _ in range(4)]
            C = [[Fr(rng.randint(-2000, 2000), 4) for _ in range(8)] for _ in range(8)]
            if dt == 'f16':   # a row beyond 2048 (f16 ulp 2): sums that round, ties among them
                C[0] = [Fr(2048 + 4 * c) for c in range(8)]
            mats.append((A, B, C, matmul(A, B, C, 8, 8, 4)))
        Aw, Bw, Cw, Dw = [], [], [], []
        nreg_c = 4 if ct == 'f16' else 8
        nreg_d = 4 if dt == 'f16' else 8
        for lane in range(32):
            p, q, h = (lane >> 2) & 3, lane & 3, lane >> 4
            A, B, C, D = mats[p]
            a = [f16_round_bits(A[r][c]) for r, c in (hmma_pos_a(al, q, h, i) for i in range(4))]
            b = [f16_round_bits(B[r][c]) for r, c in (hmma_pos_b(bl, q, h, i) for i in range(4))]
            Aw += [a[0] | a[1] << 16, a[2] | a[3] << 16]
            Bw += [b[0] | b[1] << 16, b[2] | b[3] << 16]
            cpos = [hmma_pos_c(ct, q, h, i) for i in range(8)]
            dpos = [hmma_pos_c(dt, q, h, i) for i in range(8)]
            if ct == 'f16':
                cb = [f16_round_bits(C[r][c]) for r, c in cpos]
                Cw += [cb[2 * j] | cb[2 * j + 1] << 16 for j in range(4)]
            else:
                Cw += [f32_of(C[r][c]) for r, c in cpos]
            if dt == 'f16':
                db = [f16_round_bits(D[r][c]) for r, c in dpos]
                Dw += [db[2 * j] | db[2 * j + 1] << 16 for j in range(4)]
            else:
                Dw += [f32_of(D[r][c]) for r, c in dpos]
        assert len(Cw) == 32 * nreg_c and len(Dw) == 32 * nreg_d
        regs = {'hmma_f32_f16c': 26}.get(name, 24 if dt == 'f32' else 22)
        out.append(workload(name, 'hmma884.ptx', name,
                            f'mma.sync.aligned.m8n8k4.{al}.{bl}.{dt}.f16.f16.{ct} (Volta HMMA, four quad-pair products)',
                            regs, 1, 32, {'A': ('u32', Aw), 'B': ('u32', Bw), 'C': ('u32', Cw),
                                          'D': ('u32', 32 * nreg_d)}, ['A', 'B', 'C', 'D'], {'D': Dw}))
    return out


def fp8_code_for(rng, fmt):
    """a random finite code of moderate exponent (the products and their sum stay exact in double)"""
    while True:
        c = rng.getrandbits(8)
        v = fp8_decode(c, fmt)
        if not isinstance(v, str) and (v == 0 or Fr(1, 64) <= abs(v) <= 64):
            return c, v


def qmma_workloads(rng):
    out = []
    for name, at, bt in (('qmma_e4m3', 'e4m3', 'e4m3'), ('qmma_e5m2', 'e5m2', 'e5m2'),
                         ('qmma_e4m3_e5m2', 'e4m3', 'e5m2')):
        Ac = [[fp8_code_for(rng, at) for _ in range(32)] for _ in range(16)]
        Bc = [[fp8_code_for(rng, bt) for _ in range(8)] for _ in range(32)]
        A = [[v for _, v in row] for row in Ac]
        B = [[v for _, v in row] for row in Bc]
        C = [[Fr(rng.randint(-4000, 4000), 16) for _ in range(8)] for _ in range(16)]
        D = matmul(A, B, C, 16, 8, 32)
        Aw, Bw, Cw, Dw = [], [], [], []
        for lane in range(32):
            g, t = lane >> 2, lane & 3
            # PTX ISA m16n8k32 8-bit A: (g + 8*((i>>2)&1), 4t + (i&3) + 16*(i>=8)); B: (4t + (i&3) + 16*(i>=4), g)
            a = [Ac[g + 8 * ((i >> 2) & 1)][4 * t + (i & 3) + 16 * (i >= 8)][0] for i in range(16)]
            b = [Bc[4 * t + (i & 3) + 16 * (i >= 4)][g][0] for i in range(8)]
            Aw += [a[4 * j] | a[4 * j + 1] << 8 | a[4 * j + 2] << 16 | a[4 * j + 3] << 24 for j in range(4)]
            Bw += [b[4 * j] | b[4 * j + 1] << 8 | b[4 * j + 2] << 16 | b[4 * j + 3] << 24 for j in range(2)]
            cpos = [(g + 8 * (i >= 2), 2 * t + (i & 1)) for i in range(4)]
            Cw += [f32_of(C[r][c]) for r, c in cpos]
            Dw += [f32_of(D[r][c]) for r, c in cpos]
        out.append(workload(name, 'fp8.ptx', name, f'mma.sync.aligned.m16n8k32.row.col.f32.{at}.{bt}.f32 (sm_89)', 22,
                            1, 32, {'A': ('u32', Aw), 'B': ('u32', Bw), 'C': ('u32', Cw), 'D': ('u32', 128)},
                            ['A', 'B', 'C', 'D'], {'D': Dw}))
    return out


def f16_exact(v):
    b = f16_round_bits(v)
    assert f16_parts(b)[0] == abs(v), v
    return b


def qmma_f16_workloads(rng):
    """.f16 accumulators: m16n8k32 .e4m3.e4m3 and m16n8k16 .e5m2.e4m3; FP8 values of magnitude
    <= 4 keep every sum within f16 range; D is the exact sum rounded once to f16"""
    out = []
    for name, k, at, bt in (('qmma_f16acc', 32, 'e4m3', 'e4m3'), ('qmma_k16_f16acc', 16, 'e5m2', 'e4m3')):
        def code(fmt):
            while True:
                c, v = fp8_code_for(rng, fmt)
                if abs(v) <= 4:
                    return c, v
        Ac = [[code(at) for _ in range(k)] for _ in range(16)]
        Bc = [[code(bt) for _ in range(8)] for _ in range(k)]
        A = [[v for _, v in row] for row in Ac]
        B = [[v for _, v in row] for row in Bc]
        C = [[Fr(rng.randint(-2000, 2000), 8) for _ in range(8)] for _ in range(16)]
        C[0] = [Fr(1024 + c) for c in range(8)]   # sums near 1024: f16 ulp 1, so they round
        D = matmul(A, B, C, 16, 8, k)
        Aw, Bw, Cw, Dw = [], [], [], []
        for lane in range(32):
            g, t = lane >> 2, lane & 3
            if k == 32:   # PTX ISA m16n8k32 8-bit layouts (as qmma_workloads)
                a = [Ac[g + 8 * ((i >> 2) & 1)][4 * t + (i & 3) + 16 * (i >= 8)][0] for i in range(16)]
                b = [Bc[4 * t + (i & 3) + 16 * (i >= 4)][g][0] for i in range(8)]
            else:         # m16n8k16 8-bit: A (g + 8*(i>=4), 4t + (i&3)), B (4t + i, g)
                a = [Ac[g + 8 * (i >= 4)][4 * t + (i & 3)][0] for i in range(8)]
                b = [Bc[4 * t + i][g][0] for i in range(4)]
            Aw += [a[4 * j] | a[4 * j + 1] << 8 | a[4 * j + 2] << 16 | a[4 * j + 3] << 24 for j in range(len(a) // 4)]
            Bw += [b[4 * j] | b[4 * j + 1] << 8 | b[4 * j + 2] << 16 | b[4 * j + 3] << 24 for j in range(len(b) // 4)]
            cpos = [(g + 8 * (i >= 2), 2 * t + (i & 1)) for i in range(4)]
            cb = [f16_exact(C[r][c]) for r, c in cpos]
            db = [f16_round_bits(D[r][c]) for r, c in cpos]
            Cw += [cb[0] | cb[1] << 16, cb[2] | cb[3] << 16]
            Dw += [db[0] | db[1] << 16, db[2] | db[3] << 16]
        out.append(workload(name, 'fp8.ptx', name, f'mma.sync.aligned.m16n8k{k}.row.col.f16.{at}.{bt}.f16 (sm_89)',
                            20 if k == 32 else 16, 1, 32, {'A': ('u32', Aw), 'B': ('u32', Bw), 'C': ('u32', Cw),
                                                           'D': ('u32', 64)}, ['A', 'B', 'C', 'D'], {'D': Dw}))
    return out


def all_workloads():
    rng = random.Random(24)
    return (imma_workloads(rng) + hmma_workloads(rng) + qmma_workloads(rng) + fp8_workloads(rng) +
            qmma_f16_workloads(rng))


def self_test():
    """the model's decoder against the formats' landmark values (OFP8 table 1)"""
    assert fp8_decode(0x7e, 'e4m3') == 448 and fp8_decode(0x01, 'e4m3') == Fr(1, 512)
    assert fp8_decode(0x7b, 'e5m2') == 57344 and fp8_decode(0x01, 'e5m2') == Fr(1, 65536)
    assert fp8_decode(0x7f, 'e4m3') == NAN and fp8_decode(0x7c, 'e5m2') == 'inf'
    assert fp8_encode(Fr(464), 0, 'e4m3') == 0x7e and fp8_encode(Fr(1, 1024), 0, 'e4m3') == 0
    assert fp8_encode(Fr(3, 1024), 0, "e4m3") == 0x02 and fp8_encode(Fr(10 ** 9), 1, 'e5m2') == 0xfb


def main():
    self_test()
    check = '--check' in sys.argv
    bad = 0
    for name, text in all_workloads():
        p = HERE / f'{name}.yaml'
        if check:
            if not p.exists() or p.read_text() != text:
                print(f'{p.name}: differs from expected24.py')
                bad = 1
        else:
            p.write_text(text)
    return bad


if __name__ == '__main__':
    sys.exit(main())
