#!/usr/bin/env python3
"""Independent Python model of the half-precision kernels (tests/kernels/half/):
writes NAME.yaml with the inputs and the expected outputs; --check verifies that
the committed yaml files are what this model produces.

The model: exact rational arithmetic (fractions.Fraction) rounded once into
binary16 (1-5-10) or bfloat16 (1-8-7) by round_fmt below, which is written from
IEEE 754 section 4.3 and shares no code with warpsweep; the f16 rounding of a
double is cross-checked against CPython's struct 'e' format (PyFloat_Pack2,
round-half-even). Operation rules from the PTX ISA (9.7.4 half-precision
instructions, 9.7.9.21 cvt): canonical NaN 0x7fff for arithmetic results,
min/max return the non-NaN operand (.NaN: NaN), -0 < +0, .sat clamps to [0, 1]
with NaN -> +0, .relu clamps negatives to +0 (NaN stays NaN), setp.f16x2 p|q and
set.f16x2 per element, cvt.rn.f16x2.f32 d, a, b puts cvt(a) in the upper half.
ex2.approx.f16 and tanh.approx.f16 are modelled as the correctly rounded value
of Python's math (2 ** x, math.tanh): the ISA bounds their error, warpsweep
picks the nearest half."""
import math
import random
import struct
import sys
from fractions import Fraction as Fr

F16 = (5, 10)
BF16 = (8, 7)
QNAN = 0x7fff


def decode(h, fmt):
    eb, mb = fmt
    e, m, s = (h >> mb) & ((1 << eb) - 1), h & ((1 << mb) - 1), -1 if h & 0x8000 else 1
    bias = (1 << (eb - 1)) - 1
    if e == (1 << eb) - 1:
        return math.nan if m else s * math.inf
    if e == 0 and m == 0:
        return -0.0 if s < 0 else Fr(0)          # -0 stays a float: a Fraction has no signed zero
    if e == 0:
        return s * Fr(m, 1 << (bias - 1 + mb))
    return s * Fr((1 << mb) + m) * Fr(2) ** (e - bias - mb)


def isnan(h, fmt):
    eb, mb = fmt
    return ((h >> mb) & ((1 << eb) - 1)) == (1 << eb) - 1 and (h & ((1 << mb) - 1)) != 0


def round_fmt(v, fmt, mode='rn'):
    """v: Fraction, +-math.inf or math.nan; the half bits (IEEE 754 4.3)."""
    eb, mb = fmt
    bias = (1 << (eb - 1)) - 1
    inf = ((1 << eb) - 1) << mb
    if isinstance(v, float) and math.isnan(v):
        return QNAN
    neg = v < 0 or (isinstance(v, float) and math.copysign(1, v) < 0)
    sign = 0x8000 if neg else 0
    if isinstance(v, float) and math.isinf(v):
        return sign | inf
    a = abs(Fr(v))
    if a == 0:
        return sign
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fr(2) ** e > a:
        e -= 1
    q = max(e, 1 - bias) - mb            # weight of the last bit
    scaled = a / Fr(2) ** q
    n = scaled.numerator // scaled.denominator
    rest = scaled - n
    if mode == 'rn':
        n += 1 if rest > Fr(1, 2) or (rest == Fr(1, 2) and n % 2) else 0
    elif mode == 'rm':
        n += 1 if neg and rest else 0
    elif mode == 'rp':
        n += 1 if not neg and rest else 0
    # n * 2^q: encode
    if n == 0:
        return sign
    if q == 1 - bias - mb and n < (1 << mb):
        bits = n                                  # subnormal
    else:
        while n >= (2 << mb):
            n //= 2
            q += 1
        bits = ((q + mb + bias) << mb) | (n - (1 << mb))
    if bits >= inf:
        to_inf = {'rn': True, 'rz': False, 'rm': neg, 'rp': not neg}[mode]
        return sign | (inf if to_inf else inf - 1)
    return sign | bits


def f16_of_double(d):
    """CPython's own binary16 rounding, for the cross-check"""
    try:
        return struct.unpack('<H', struct.pack('<e', d))[0] if not math.isnan(d) else QNAN
    except OverflowError:   # struct refuses what rounds to infinity
        return 0xfc00 if d < 0 else 0x7c00


def fval(bits32):
    return struct.unpack('<f', struct.pack('<I', bits32))[0]


def f32bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def exact(x):
    if x == 0 and math.copysign(1, x) < 0:
        return -0.0
    return x if isinstance(x, float) and (math.isnan(x) or math.isinf(x)) else Fr(x)


def negative(v):
    return v < 0 or (isinstance(v, float) and math.copysign(1, v) < 0)


def arith(op, a, b, c=None):
    """exact a op b (op(c)) with IEEE specials"""
    try:
        if op == 'add':
            if isinstance(a, float) or isinstance(b, float):
                return float(a) + float(b)
            return a + b
        if op == 'mul':
            if isinstance(a, float) or isinstance(b, float):
                return float(a) * float(b)       # a product of halves is a double: exact
            if a * b == 0 and negative(a) != negative(b):
                return -0.0
            return a * b
        if op == 'fma':
            p = arith('mul', a, b)
            return arith('add', p, c)
    except (OverflowError, ValueError):
        return math.nan
    raise ValueError(op)


def neg(v):
    if v == 0:
        return 0.0 if negative(v) else -0.0
    return -v


def hres(v, fmt, sat=False, relu=False):
    if isinstance(v, float) and math.isnan(v):
        return 0 if sat else QNAN
    if sat:
        if v <= 0:
            return 0
        if v > 1:
            return round_fmt(Fr(1), fmt)
    if relu and v < 0:
        return 0
    return round_fmt(v, fmt)


def hminmax(a, b, fmt, mx, nan_mode=False):
    na, nb = isnan(a, fmt), isnan(b, fmt)
    if na and nb:
        return QNAN
    if (na or nb) and nan_mode:
        return QNAN
    if na:
        return b
    if nb:
        return a
    x, y = decode(a, fmt), decode(b, fmt)
    a_first = (a & 0x8000) != 0 if x == y else x < y
    return a if a_first != mx else b


def cmp(a, b, fmt, op):
    x, y = decode(a, fmt), decode(b, fmt)
    nan = isinstance(x, float) and math.isnan(x) or isinstance(y, float) and math.isnan(y)
    if op == 'lt':
        return not nan and x < y
    if op == 'gt':
        return not nan and x > y
    if op == 'gtu':
        return nan or x > y
    raise ValueError(op)


def to_int_rn(v):
    if isinstance(v, float) and math.isnan(v):
        return 0
    if isinstance(v, float) and math.isinf(v):
        return 0x7fffffff if v > 0 else 0x80000000
    n = round(Fr(v))  # Python rounds Fractions half to even
    return n & 0xffffffff


def approx(fn, h):
    v = decode(h, F16)
    if isinstance(v, float):
        if math.isnan(v):
            return QNAN
        r = fn(v)
    else:
        try:
            r = fn(float(v))
        except OverflowError:
            r = math.inf
    return round_fmt(exact(r), F16)


def harith_inputs():
    rnd = random.Random(15)
    # pairs (a, b, c): f16 edge values with hand-picked rounding ties
    a = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x03ff, 0x0400, 0x7bff, 0x3c00,
         0x3c01, 0x3800, 0x3555, 0x4000, 0x7bff, 0x0001, 0x8001, 0x3c00, 0x5640, 0xd640, 0x0200, 0x3bff]
    b = [0x8000, 0x0000, 0x1000, 0x1000, 0xfc00, 0x3c00, 0x3c00, 0x0001, 0x0001, 0x8001, 0x7bff, 0x9000,
         0x1000, 0x3800, 0x4200, 0x7e00, 0x3c00, 0x3800, 0x3800, 0x1400, 0x5640, 0xbc00, 0x3800, 0x3c00]
    c = [0x8000, 0x3c00, 0x0000, 0x3c00, 0x3c00, 0x7c00, 0x0000, 0x8001, 0x0001, 0x0000, 0xfbff, 0x1000,
         0x0000, 0xb800, 0xbc00, 0x3c00, 0x7bff, 0x0001, 0x0000, 0x0800, 0xc000, 0x3c00, 0x0000, 0x8400]
    # f32 inputs for cvt: ties into f16 and bf16, overflow, subnormal ties, NaN
    f = [0x3f801000, 0x3f803000, 0x477ff000, 0x477fefff, 0x33000000, 0x33c00000, 0x3f808000, 0x3f818000,
         0x7fc00001, 0xbf801000, 0x7f800000, 0x00000001, 0x387fc000, 0xc77ff000, 0x3f800fff, 0x3f801001,
         0x47800000, 0x3e2aaaab, 0xb3000001, 0x7f7fffff, 0x80000000, 0x3f7fffff, 0x42f6e979, 0xc2f6e979]
    n = [0, 1, -1, 2049, 2051, 65504, 65519, 65520, 100000, -70000, 4097, -4099, 12345, 7, -8, 1 << 30,
         2047, 3, 65535, -65520, 33, 1023, 4095, -2]
    while len(a) < 64:
        a.append(rnd.randrange(0x10000))
        b.append(rnd.randrange(0x10000))
        c.append(rnd.randrange(0x10000))
    while len(f) < 64:
        f.append(f32bits(rnd.uniform(-70000, 70000)) if rnd.random() < 0.5 else rnd.randrange(1 << 32))
    while len(n) < 64:
        n.append(rnd.randrange(-100000, 100000))
    return a, b, c, f, n


def m_harith():
    a, b, c, f, n = harith_inputs()
    out = []
    for i in range(64):
        x, y, z = a[i], b[i], c[i]
        X, Y, Z = decode(x, F16), decode(y, F16), decode(z, F16)
        BX, BY, BZ = decode(x, BF16), decode(y, BF16), decode(z, BF16)
        g = fval(f[i])
        G = exact(g)
        o = [0] * 32
        o[0] = hres(arith('add', X, Y), F16)
        o[1] = hres(arith('add', X, neg(Y)), F16)
        o[2] = hres(arith('mul', X, Y), F16)
        o[3] = hres(arith('fma', X, Y, Z), F16)
        o[4] = hres(arith('fma', X, Y, Z), F16, sat=True)
        o[5] = hres(arith('fma', X, Y, Z), F16, relu=True)
        o[6] = hminmax(x, y, F16, False)
        o[7] = hminmax(x, y, F16, True)
        o[8] = hminmax(x, y, F16, False, True)
        o[9] = x ^ 0x8000
        o[10] = x & 0x7fff
        o[11] = int(cmp(x, y, F16, 'lt'))
        o[12] = int(cmp(x, y, F16, 'gtu'))
        for j, mode in enumerate(('rn', 'rz', 'rm', 'rp')):
            o[13 + j] = round_fmt(G, F16, mode)
        if not math.isnan(g):
            assert o[13] == f16_of_double(g), (hex(f[i]), hex(o[13]), hex(f16_of_double(g)))
        o[17] = round_fmt(G, BF16)
        o[18] = hres(arith('fma', BX, BY, BZ), BF16)
        # bf16 mul on sm_80 is fma.rn.bf16 a, b, -0.0 (nvcc): -0 + the product, exact until rounding
        # bf16 mul on sm_80 is fma.rn.bf16 a, b, -0.0 (nvcc): a zero product gives +0 + -0 = +0
        # but -0 + -0 = -0 (IEEE 754 6.3)
        o[19] = hres(arith('fma', BX, BY, -0.0), BF16)        # __hfma2(p, q, p): p = (x, y), q = (z, x): lo = x*z + x, hi = y*x + y
        lo = hres(arith('fma', X, Z, X), F16)
        hi = hres(arith('fma', Y, X, Y), F16)
        o[20] = lo | hi << 16
        o[21] = to_int_rn(X)
        o[22] = round_fmt(Fr(n[i]), F16)
        o[23] = f32bits(float(X)) if not (isinstance(X, float) and math.isnan(X)) else 0x7fffffff
        blo = hres(arith('fma', BX, BZ, -0.0), BF16)
        bhi = hres(arith('fma', BY, BX, -0.0), BF16)
        o[24] = blo | bhi << 16
        o[25] = approx(lambda v: 2.0 ** v, x)
        o[26] = approx(math.tanh, x)
        # __hlt2(p, q): set.lt.f16x2.f16x2: 1.0 (0x3c00) or 0 per element
        o[27] = (0x3c00 if cmp(x, z, F16, 'lt') else 0) | (0x3c00 if cmp(y, x, F16, 'lt') else 0) << 16
        o[28] = int(cmp(x, z, F16, 'gt') and cmp(y, x, F16, 'gt'))
        # __floats2half2_rn(g, z): g in the low half (CUDA math API)
        o[29] = round_fmt(G, F16) | round_fmt(Z, F16) << 16
        o[30] = f32bits(float(BX)) if not (isinstance(BX, float) and math.isnan(BX)) else 0x7fffffff
        o[31] = hminmax(x, y, F16, True, True)
        out += o
    return dict(a=a, b=b, c=c, f=f, n=n, out=out)


def fmt_list(vals, per=12, hexa=True):
    rows = []
    for k in range(0, len(vals), per):
        rows.append('      ' + ', '.join(('0x%x' % v) if hexa else str(v) for v in vals[k:k + per]))
    return '[\n' + ',\n'.join(rows) + ']'


def yaml_harith(name='harith', arch='sm_80'):
    m = m_harith()
    return '\n'.join([
        '# GENERATED by tests/kernels/half/expected.py from the Python model m_harith; do not edit.',
        '# f16/bf16 arithmetic, comparisons, conversions, packed pairs, approximations, atomics (%s).' % arch,
        'name: %s' % name,
        'kernel: %s.ptx' % name,
        'grid: 2',
        'block: 32',
        'regs_per_thread: 30        # ptxas -v (%s)' % arch,
        'buffers:',
        '  a: {type: u16, count: 64, init: %s}' % fmt_list(m['a']),
        '  b: {type: u16, count: 64, init: %s}' % fmt_list(m['b']),
        '  c: {type: u16, count: 64, init: %s}' % fmt_list(m['c']),
        '  f: {type: u32, count: 64, init: %s}' % fmt_list(m['f']),
        '  n: {type: s32, count: 64, init: %s}' % fmt_list(m['n'], hexa=False),
        '  out: {type: u32, count: %d, init: 0}' % len(m['out']),
        '  hacc: {type: u16, count: 1, init: 0}',
        '  h2acc: {type: u32, count: 1, init: 0}',
        '  bacc: {type: u16, count: 1, init: 0}',
        'params: [a, b, c, f, n, out, hacc, h2acc, bacc, 64]',
        'expect:',
        '  out: %s' % fmt_list(m['out'], hexa=False),
        # 64 atomic adds of 1.0 / (1.0, 0.5) / 2.0, exact in every order: 64 = 0x5400, 32 = 0x5000,
        # bf16 128 = 0x4300
        '  hacc: [%d]' % round_fmt(Fr(64), F16),
        '  h2acc: [%d]' % (round_fmt(Fr(64), F16) | round_fmt(Fr(32), F16) << 16),
        '  bacc: [%d]' % round_fmt(Fr(128), BF16),
        ''])


MODELS = {'harith': yaml_harith, 'harith_sm86': lambda: yaml_harith('harith_sm86', 'sm_86'),
          'harith_sm90': lambda: yaml_harith('harith_sm90', 'sm_90')}

if __name__ == '__main__':
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    check = '--check' in sys.argv
    bad = 0
    for name, gen in MODELS.items():
        text = gen()
        path = os.path.join(here, name + '.yaml')
        if check:
            if open(path).read() != text:
                print('MISMATCH: %s differs from the model' % path)
                bad = 1
        else:
            open(path, 'w').write(text)
    sys.exit(bad)
