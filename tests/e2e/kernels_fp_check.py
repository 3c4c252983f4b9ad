#!/usr/bin/env python3
"""Checks the outputs of tests/kernels/fp/*.yaml against values computed
independently in Python (tests/kernels/fp/fpref.py: exact rational IEEE
arithmetic, PTX shuffle/vote rules, Python math with ulp tolerances).

usage: kernels_fp_check.py WS_BIN KERNEL_DIR NAME [extra sim args...]
Runs `WS_BIN sim NAME.yaml --dump BUF [extra]` for each buffer it checks
(extra: e.g. --reference, or --set divergence=sbi)."""
import math
import os
import subprocess
import sys

import yaml

BIN, KDIR, NAME = sys.argv[1], sys.argv[2], sys.argv[3]
EXTRA = sys.argv[4:]
sys.path.insert(0, KDIR)
import fpref as F  # noqa: E402
from fpref import f32, f64, bits32, bits64, F32, F64  # noqa: E402

Y = yaml.safe_load(open(os.path.join(KDIR, NAME + '.yaml')))
errors = []


def inp(name):
    b = Y['buffers'][name]
    init, n = b['init'], b['count']
    if isinstance(init, list):
        return list(init)
    if isinstance(init, dict) and 'iota' in init:
        s, st = init['iota']['start'], init['iota']['step']
        return [s + st * i for i in range(n)]
    if init == 'iota':
        return list(range(n))
    return [init] * n


def dump(buf):
    r = subprocess.run([BIN, 'sim', os.path.join(KDIR, NAME + '.yaml'), '--dump', buf] + EXTRA,
                       capture_output=True, text=True)
    lines = r.stdout.splitlines()
    if r.returncode != 0 or 'status: ok' not in lines:
        print('FAIL %s: sim exit %d: %s %s' % (NAME, r.returncode, r.stdout[-400:], r.stderr[-400:]))
        sys.exit(1)
    vals = []
    for ln in lines:
        if ln.startswith('status:'):
            break
        vals += [v.strip() for v in ln.split(',') if v.strip()]
    t = Y['buffers'][buf]['type']
    if t.startswith('f'):
        return [float(v) for v in vals]
    return [int(v) for v in vals]


def bad(what):
    errors.append(what)


def eq_bits(got, want, fmt, what, nan_any=True):
    if nan_any and F.is_nan_bits(want, fmt):
        if not F.is_nan_bits(got, fmt):
            bad('%s: got 0x%x, want NaN' % (what, got))
        return
    if got != want:
        bad('%s: got 0x%x, want 0x%x' % (what, got, want))


def rnd32(v):
    return f32(bits32(v)) if not math.isnan(v) else v


def chk_farith():
    A, B, C = inp('a'), inp('b'), inp('c')
    n = len(A)
    out = dump('out')
    for i in range(n):
        x, y, z = f32(A[i]), f32(B[i]), f32(C[i])
        ax = abs(x)
        want = [F.op('add', [x, y], F32), F.op('sub', [x, y], F32), F.op('mul', [x, y], F32),
                F.op('fma', [x, y, z], F32), F.op('div', [x, y], F32), F.op('sqrt', [ax], F32),
                F.op('rcp', [y], F32), F.op('mul', [x, y], F32, 'rz'), F.op('add', [x, y], F32, 'rd'),
                F.op('div', [x, y], F32, 'ru'), F.op('sqrt', [ax], F32, 'rd'), F.op('fma', [x, y, z], F32, 'rz'),
                F.op('rcp', [y], F32, 'rd'), F.op('add', [x, y], F32, 'ru')]
        for k, w in enumerate(want):
            eq_bits(out[14 * i + k], w, F32, 'farith out[%d] (i=%d op %d, a=0x%08x b=0x%08x c=0x%08x)' % (14 * i + k, i, k, A[i], B[i], C[i]))


def chk_darith():
    A, B, C = inp('a'), inp('b'), inp('c')
    out = dump('out')
    for i in range(len(A)):
        x, y, z = f64(A[i]), f64(B[i]), f64(C[i])
        ax = abs(x)
        sa = A[i] - (1 << 64) if A[i] >> 63 else A[i]
        want = [F.op('add', [x, y], F64), F.op('mul', [x, y], F64), F.op('fma', [x, y, z], F64),
                F.op('div', [x, y], F64), F.op('sqrt', [ax], F64), F.op('rcp', [y], F64),
                F.op('add', [x, y], F64, 'rz'), F.op('mul', [x, y], F64, 'ru'), F.op('div', [x, y], F64, 'rd'),
                F.op('sqrt', [ax], F64, 'ru'), F.to_int(x, 64, True, 'rz', src_f64=True),
                F.round_frac(F.Fraction(sa), F64)]
        for k, w in enumerate(want):
            eq_bits(out[12 * i + k], w, F64, 'darith out[%d] (i=%d op %d)' % (12 * i + k, i, k), nan_any=k != 10)


def f2f32(d, mode):
    if math.isnan(d) or math.isinf(d):
        return bits32(d) if not math.isnan(d) else 0x7fffffff
    return F.round_frac(F.Fraction(d), F32, mode, math.copysign(1, d) < 0)


def sext(v, b):
    v &= (1 << b) - 1
    return v - (1 << b) if v >> (b - 1) else v


def chk_cvt():
    FA, DA, IA = inp('fa'), inp('da'), inp('ia')
    o32, o64 = dump('o32'), dump('o64')
    for i in range(len(FA)):
        f, d, v = f32(FA[i]), f64(DA[i]), IA[i]
        v32, u32, u64 = sext(v, 32), v & 0xffffffff, v & 0xffffffffffffffff
        M = 0xffffffff
        w32 = [F.to_int(f, 32, True, 'rn'), F.to_int(f, 32, True, 'rz'), F.to_int(f, 32, True, 'rd'), F.to_int(f, 32, True, 'ru'),
               F.to_int(f, 32, False, 'rn'), F.to_int(f, 32, False, 'rz'), F.to_int(d, 32, True, 'rn', src_f64=True), F.to_int(d, 32, False, 'ru', src_f64=True),
               f2f32(d, 'rn'), f2f32(d, 'rz'), f2f32(d, 'rd'), f2f32(d, 'ru'),
               F.round_frac(F.Fraction(v32), F32), F.round_frac(F.Fraction(v32), F32, 'rz'),
               F.round_frac(F.Fraction(u32), F32, 'rd'), F.round_frac(F.Fraction(v), F32, 'ru'),
               F.round_frac(F.Fraction(u64), F32),
               sext(F.to_int(f, 32, True, 'rz'), 16) & M, FA[i] ^ 0x80000000, sext(F.to_int(f, 32, True, 'rn'), 8) & M]
        for k, w in enumerate(w32):
            eq_bits(o32[20 * i + k], w, F32, 'cvt o32[%d] (i=%d op %d f=0x%08x d=0x%016x v=%d)' % (20 * i + k, i, k, FA[i], DA[i], v),
                    nan_any=8 <= k <= 11)
        w64 = [F.to_int(f, 64, True, 'rn'), F.to_int(f, 64, False, 'rz'), F.to_int(d, 64, True, 'rd', src_f64=True), F.to_int(d, 64, False, 'ru', src_f64=True),
               F.round_frac(F.Fraction(v), F64), F.round_frac(F.Fraction(u64), F64, 'rz'),
               bits64(f) if not math.isnan(f) else 0x7ff8000000000000, F.round_frac(F.Fraction(v32), F64)]
        for k, w in enumerate(w64):
            eq_bits(o64[8 * i + k], w, F64, 'cvt o64[%d] (i=%d op %d f=0x%08x d=0x%016x v=%d)' % (8 * i + k, i, k, FA[i], DA[i], v),
                    nan_any=k == 6)


def round_to_int(x, how):
    if math.isnan(x) or math.isinf(x) or abs(x) >= 2 ** 23:
        return x
    fr = F.Fraction(x)
    r = {'floor': math.floor, 'ceil': math.ceil, 'trunc': math.trunc,
         'round': lambda q: int(math.copysign(math.floor(abs(q) + F.Fraction(1, 2)), q)),
         'rint': round}[how](fr)
    return math.copysign(float(r), x) if r == 0 else float(r)


def nextafter32(x, y):
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == y:
        return y
    if x == 0:
        return math.copysign(f32(1), y - x)
    b = bits32(x)
    up = (y > x) == (x > 0)
    return f32(b + 1 if up else b - 1)


def chk_classify():
    A, B = inp('a'), inp('b')
    out = dump('out')
    for i in range(len(A)):
        x, y = f32(A[i]), f32(B[i])
        o = out[20 * i:20 * i + 20]
        tag = 'classify i=%d a=0x%08x b=0x%08x' % (i, A[i], B[i])
        def e(k, w, nan_any=True):
            eq_bits(o[k], w, F32, '%s op %d' % (tag, k), nan_any)
        e(0, int(math.isnan(x)) | int(math.isinf(x)) << 1 | int(math.isfinite(x)) << 2 | (A[i] >> 31) << 3, False)
        e(1, (A[i] & 0x7fffffff) | (B[i] & 0x80000000), False)
        for k, mx in ((2, False), (3, True)):
            if math.isnan(x) and math.isnan(y):
                e(k, 0x7fffffff)
            elif math.isnan(x) or math.isnan(y):
                e(k, B[i] if math.isnan(x) else A[i], False)
            elif x == y == 0 and A[i] != B[i]:
                if o[k] not in (0, 0x80000000):
                    bad('%s op %d: %x not a zero' % (tag, k, o[k]))
            else:
                e(k, bits32(max(x, y) if mx else min(x, y)), False)
        e(4, A[i] & 0x7fffffff)
        e(5, A[i] ^ 0x80000000)
        if A[i] == 0x80000000:
            if o[6] not in (0, 0x80000000):
                bad('%s op 6: %x' % (tag, o[6]))
        else:
            e(6, bits32(0.0 if math.isnan(x) or x <= 0 else min(x, 1.0)), False)
        for k, how in zip(range(7, 12), ('floor', 'ceil', 'trunc', 'round', 'rint')):
            e(k, bits32(round_to_int(x, how)))
        if math.isfinite(x) and x != 0:
            m, ex = math.frexp(x)
            e(12, bits32(m), False)
            e(13, ex & 0xffffffff, False)
        else:
            e(12, A[i])
            if x == 0:
                e(13, 0, False)
        k = A[i] % 7 - 3
        e(14, F.round_frac(F.Fraction(x) * F.Fraction(2) ** k, F32, 'rn', x < 0 or A[i] == 0x80000000) if math.isfinite(x) else A[i])
        try:
            fm = math.fmod(x, y)
        except ValueError:
            fm = math.nan
        e(15, bits32(fm))
        cm = [x < y, x <= y, x == y, x != y, not (x >= y), x > y]
        e(16, sum(int(c) << j for j, c in enumerate(cm)), False)
        e(17, bits32(0.0 if math.isnan(x) and math.isnan(y) else 1.0), False)
        e(18, bits32(nextafter32(x, y)))
        if math.isnan(x) or math.isnan(y):
            e(19, 0x7fffffff)
        else:
            e(19, F.op('sub', [x, y], F32) if x > y else 0)


def tol_check(out, want, per, i, k, ulps, what, fmt=F32, abs_tol=0.0):
    got = out[per * i + k]
    if fmt == F32:   # the dump prints f32 with %.9g: compare as f32 values
        want, got = rnd32(want), rnd32(got)
    if not F.ulp_close(got, want, ulps, fmt, abs_tol):
        bad('%s i=%d op %d: got %r want %r' % (what, i, k, got, want))


def chk_mathlib():
    A, B = [float(v) for v in inp('a')], [float(v) for v in inp('b')]
    out = dump('out')
    add32 = lambda a, b: f32(F.op('add', [a, b], F32))
    for i in range(len(A)):
        x, y = A[i], B[i]
        t1, t2, t3 = add32(abs(x), 0.5), add32(abs(x), 0.25), add32(abs(x), 1.0)
        want = [(math.exp(x), 4), (math.log(t1), 4), (math.sin(x), 4), (math.cos(x), 4), (t2 ** y, 8),
                (math.tanh(x), 4), (2.0 ** x, 4), (math.log2(t3), 4), (math.atan2(y, x), 4),
                (math.erf(x * 0.25), 4), (math.cbrt(x), 4), (math.hypot(x, y), 4), (1 / math.sqrt(t3), 4),
                (math.sinh(x * 0.5), 4)]
        for k, (w, u) in enumerate(want):
            tol_check(out, w, 14, i, k, u, 'mathlib')


def chk_fastmath():
    A, B = [float(v) for v in inp('a')], [float(v) for v in inp('b')]
    out = dump('out')
    add32 = lambda a, b: f32(F.op('add', [a, b], F32))
    for i in range(len(A)):
        x, y = A[i], B[i]
        t1, t2, t3 = add32(abs(x), 0.5), add32(abs(x), 0.25), add32(abs(x), 1.0)
        # PTX ISA error bounds of the .approx instructions (ex2: 2 ulp + input scaling,
        # lg2: 2^-22 abs near 1, sin/cos: 2^-20.9 abs in [-pi, pi], tanh: 2^-11 rel)
        checks = [(math.exp(x), 4 + 2 * abs(x), 0), (math.log(t1), 4, 2 ** -20), (math.sin(x), 0, 2 ** -18),
                  (math.cos(x), 0, 2 ** -18), (t2 ** y, 16 + 4 * abs(y * math.log2(t2)), 0),
                  (math.tanh(x), 2 ** 13, 2 ** -11), (1 / math.sqrt(t3), 4, 0), (math.sqrt(abs(x)), 4, 0),
                  (x / y if y else math.copysign(math.inf, x), 4, 0), (x / y if y else math.copysign(math.inf, x), 4, 0),
                  (min(max(x * 0.25, 0.0), 1.0), 0, 0),
                  (10 ** (x * 0.25) + math.log10(add32(abs(y), 1.0)), 64, 1e-6)]
        for k, (w, u, a) in enumerate(checks):
            tol_check(out, w, 12, i, k, u, 'fastmath', abs_tol=a)


def chk_dmath():
    A, B = [float(v) for v in inp('a')], [float(v) for v in inp('b')]
    out = dump('out')
    for i in range(len(A)):
        x, y = A[i], B[i]
        want = [math.exp(x), math.log(abs(x) + 0.5), math.tanh(x), 1 / math.sqrt(abs(x) + 1.0), math.cbrt(x)]
        for k, w in enumerate(want):
            tol_check(out, w, 5, i, k, 4, 'dmath', F64)


def shfl_ptx(vals, lane, mode, b, c):
    """PTX shfl.sync semantics for one lane of a 32-lane warp: (value, pred)."""
    bval, cval, seg = b & 31, c & 31, (c >> 8) & 31
    maxl = (lane & seg) | (cval & ~seg)
    minl = lane & seg
    if mode == 'up':
        j = lane - bval; ok = j >= maxl
    elif mode == 'down':
        j = lane + bval; ok = j <= maxl
    elif mode == 'bfly':
        j = lane ^ bval; ok = j <= maxl
    else:
        j = minl | (bval & ~seg); ok = j <= maxl
    return (vals[j] if ok else vals[lane]), ok


def cw(width):
    return ((32 - width) << 8) | 0x1f


def chk_shfl():
    vin = inp('in')
    out = dump('out')
    for w0 in range(0, len(vin), 32):
        V = vin[w0:w0 + 32]
        half = [v * 0.5 for v in V]
        s = V[:]
        for k in (1, 2, 4):
            s = [s[l] + shfl_ptx(s, l, 'bfly', k, cw(8))[0] for l in range(32)]
        for l in range(32):
            want = [shfl_ptx(V, l, 'idx', (l * 7 + 3) & 31, cw(32))[0],
                    shfl_ptx(V, l, 'up', 3, (32 - 8) << 8)[0],
                    shfl_ptx(V, l, 'down', 5, cw(16))[0],
                    shfl_ptx(V, l, 'bfly', 6, cw(4))[0],
                    shfl_ptx(V, l, 'idx', l + 2, cw(8))[0],
                    sext(bits32(shfl_ptx(half, l, 'bfly', 1, cw(32))[0]), 32),
                    shfl_ptx(V, l, 'down', 1, cw(32))[0],
                    shfl_ptx(V, l, 'up', 1, (32 - 2) << 8)[0],
                    s[l],
                    shfl_ptx(V, l, 'idx', 31 - l, cw(16))[0]]
            t = w0 + l
            for k, wv in enumerate(want):
                if out[10 * t + k] != wv:
                    bad('shfl t=%d op %d: got %d want %d' % (t, k, out[10 * t + k], wv))


def ballot(pred, lanes):
    return sum(1 << l for l in lanes if pred(l))


def cmod(a, b):
    return int(math.fmod(a, b))


def chk_vote():
    vin = inp('in')
    out = dump('out')
    for w0 in range(0, len(vin), 32):
        V = vin[w0:w0 + 32]
        allL = range(32)
        for l in range(32):
            grp = [k for k in allL if k % 2 == l % 2]
            gm = 0xaaaaaaaa if l & 1 else 0x55555555
            if l & 1:
                o3 = int(any(V[k] == 13 for k in grp)) | int(all(V[k] > 0 for k in grp)) << 1
            else:
                o3 = int(any(V[k] == 13 for k in grp)) | int(all(V[k] >= 0 for k in grp)) << 1
            want = [ballot(lambda k: V[k] > 10, allL), gm, ballot(lambda k: cmod(V[k], 3) == 0, grp), o3,
                    bin(ballot(lambda k: V[k] & 4, allL)).count('1'),
                    int(all(v >= 0 for v in V)) + 2 * int(any(v < 0 for v in V))]
            t = w0 + l
            for k, wv in enumerate(want):
                if out[6 * t + k] != wv:
                    bad('vote t=%d op %d: got 0x%x want 0x%x' % (t, k, out[6 * t + k], wv))


def chk_match():
    vin = inp('in')
    out = dump('out')
    for w0 in range(0, len(vin), 32):
        V = vin[w0:w0 + 32]
        for l in range(32):
            t = w0 + l
            same = len({v // 32 + (v == 127) for v in V}) == 1
            want = [ballot(lambda k: V[k] % 5 == V[l] % 5, range(32)), 0xffffffff if same else 0, int(same)]
            for k, wv in enumerate(want):
                if out[3 * t + k] != wv:
                    bad('match t=%d op %d: got 0x%x want 0x%x' % (t, k, out[3 * t + k], wv))
    slots = dump('slots')
    part = sorted(t for t, v in enumerate(vin) if v % 3 != 0)
    if sorted(slots[:len(part)]) != part or any(s != 0xffffffff for s in slots[len(part):]):
        bad('match slots: %s' % slots)


def chk_redux():
    vin = inp('in')
    out = dump('out')
    u = lambda v: v & 0xffffffff
    for w0 in range(0, len(vin), 32):
        V = vin[w0:w0 + 32]
        lo, hi = V[:12], V[12:]
        def andall(L):
            r = 0xffffffff
            for v in L: r &= u(v)
            return r
        def orall(L):
            r = 0
            for v in L: r |= u(v)
            return r
        x = 0
        for v in V: x ^= u(v)
        for l in range(32):
            t = w0 + l
            want = [sext(sum(V), 32), min(V), sext(max(u(v) for v in V), 32),
                    sext(sum(lo), 32) if l < 12 else sext(andall(hi), 32),
                    max(lo) if l < 12 else sext(orall(hi), 32),
                    sext(x, 32), sext(min(u(v) for v in V), 32)]
            for k, wv in enumerate(want):
                if out[7 * t + k] != wv:
                    bad('redux t=%d op %d: got %d want %d' % (t, k, out[7 * t + k], wv))


def chk_divreduce():
    vin = [float(v) for v in inp('in')]
    out = dump('out')
    for w0 in range(0, len(vin), 32):
        V = vin[w0:w0 + 32]
        r = V[:16]
        for k in (8, 4, 2, 1):
            r = [rnd32(r[l] + shfl_ptx(r + [0] * 16, l, 'down', k, cw(16))[0]) for l in range(16)]
        want = r + [0.0] * 16
        odd = list(range(17, 32, 2))
        even = list(range(16, 32, 2))
        for l in odd:
            want[l] = sum(V[k] for k in odd)
        for l in even:
            want[l] = max(V[k] for k in even)
        for l in range(32):
            if out[w0 + l] != want[l]:
                bad('divreduce t=%d: got %r want %r' % (w0 + l, out[w0 + l], want[l]))


def chk_sm90math():
    A, B = [float(v) for v in inp('a')], [float(v) for v in inp('b')]
    out, dout = dump('out'), dump('dout')
    for i in range(len(A)):
        x, y = A[i], B[i]
        fm = f32(F.op('fma', [x, x, -1.0], F32))
        w0 = F.op('div', [fm, f32(F.op('add', [x, 2.0], F32))], F32)
        w1 = F.op('add', [f32(F.op('sqrt', [x], F32)), min(x, 3.0)], F32)
        eq_bits(bits32(out[2 * i]), w0, F32, 'sm90math out[%d]' % (2 * i))
        eq_bits(bits32(out[2 * i + 1]), w1, F32, 'sm90math out[%d]' % (2 * i + 1))
        dfm = f64(F.op('fma', [y, y, 0.5], F64))
        eq_bits(bits64(dout[i]), F.op('div', [dfm, f64(F.op('add', [y, 1.0], F64))], F64), F64, 'sm90math dout[%d]' % i)


def chk_atomicf():
    pass   # fully checked by the yaml's exact expectations


globals()['chk_' + NAME]()
if errors:
    print('FAIL %s (%s): %d errors' % (NAME, ' '.join(EXTRA), len(errors)))
    for e in errors[:25]:
        print('  ' + e)
    sys.exit(1)
print('ok %s %s' % (NAME, ' '.join(EXTRA)))
