"""Independent IEEE-754 reference for the fp kernels: exact rational
arithmetic (fractions.Fraction) rounded to binary32/binary64 with the four
rounding modes, subnormals, overflow and signed zeros, plus the CUDA rules
for float -> int conversions and shuffles.  Nothing here looks at the
simulator's output: it only reads the workload's inputs."""
import math
import struct
from fractions import Fraction

F32 = (24, -126, 127, 32)
F64 = (53, -1022, 1023, 64)


def f32(bits):
    return struct.unpack('<f', struct.pack('<I', bits & 0xffffffff))[0]


def f64(bits):
    return struct.unpack('<d', struct.pack('<Q', bits & 0xffffffffffffffff))[0]


def bits32(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def bits64(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def is_nan_bits(b, fmt):
    if fmt == F32:
        return (b & 0x7f800000) == 0x7f800000 and (b & 0x7fffff) != 0
    return (b & 0x7ff0000000000000) == 0x7ff0000000000000 and (b & 0xfffffffffffff) != 0


def encode(v, fmt):
    return bits32(v) if fmt == F32 else bits64(v)


def _ilog2(a):
    """floor(log2(a)) of a positive Fraction."""
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    if Fraction(2) ** (e + 1) <= a:
        e += 1
    return e


def _finish(neg, n, q, rem, fmt, mode):
    """n*q truncated magnitude; rem: 0 exact, 1 below half, 2 half, 3 above."""
    p, emin, emax, _ = fmt
    up = False
    if rem:
        if mode == 'rn':
            up = rem == 3 or (rem == 2 and n % 2 == 1)
        elif mode == 'ru':
            up = not neg
        elif mode == 'rd':
            up = neg
    if up:
        n += 1
    mag = n * q
    big = Fraction(2) ** (emax + 1)
    if mag >= big:
        maxf = (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
        inf_ok = mode == 'rn' or (mode == 'ru' and not neg) or (mode == 'rd' and neg)
        val = math.inf if inf_ok else float(maxf)
        return encode(-val if neg else val, fmt)
    v = float(mag)
    return encode(-v if neg else v, fmt)


def round_frac(x, fmt, mode='rn', zero_neg=False):
    """Rounds the exact nonzero-or-zero rational x; zero_neg gives the sign of an exact 0."""
    p, emin, emax, _ = fmt
    if x == 0:
        return encode(-0.0 if zero_neg else 0.0, fmt)
    neg = x < 0
    a = -x if neg else x
    e = max(_ilog2(a), emin)
    q = Fraction(2) ** (e - p + 1)
    m = a / q
    n = m.numerator // m.denominator
    r = m - n
    rem = 0 if r == 0 else (1 if r < Fraction(1, 2) else (2 if r == Fraction(1, 2) else 3))
    return _finish(neg, n, q, rem, fmt, mode)


def round_sqrt(a, fmt, mode='rn'):
    """Correctly rounded sqrt of a nonnegative rational a."""
    p, emin, emax, _ = fmt
    if a == 0:
        return 0
    # floor(log2(sqrt(a))) = floor(log2(a) / 2)
    e = max(_ilog2(a) // 2, emin)
    q = Fraction(2) ** (e - p + 1)
    t = a / (q * q)
    n = math.isqrt(t.numerator // t.denominator)
    if n * n == t:
        rem = 0
    else:
        h = Fraction(2 * n + 1, 2) ** 2
        rem = 1 if t < h else (2 if t == h else 3)
    return _finish(False, n, q, rem, fmt, mode)


def special(v):
    return math.isnan(v) or math.isinf(v)


def op(kind, xs, fmt, mode='rn'):
    """IEEE result bits of a basic operation on floats xs."""
    enc = (lambda v: encode(v, fmt))
    if any(special(v) for v in xs) or (kind in ('div', 'rcp') and xs[-1] == 0):
        # infinities/NaN/division by zero: exact, so the host's double arithmetic is right
        with_inf = {
            'add': lambda a, b: a + b, 'sub': lambda a, b: a - b, 'mul': lambda a, b: a * b,
            'fma': lambda a, b, c: a * b + c if not (math.isinf(a * b) and math.isinf(c) and (a * b > 0) != (c > 0)) else math.nan,
            'div': lambda a, b: (math.nan if a == 0 or math.isnan(a) else math.copysign(math.inf, a) * math.copysign(1, b)) if b == 0 else a / b,
            'rcp': lambda b: math.copysign(math.inf, b) if b == 0 else 1 / b,
            'sqrt': lambda a: math.nan if a < 0 else math.sqrt(a),
        }
        try:
            v = with_inf[kind](*xs)
        except (ZeroDivisionError, ValueError, OverflowError):
            v = math.nan
        if kind == 'mul' and not math.isnan(v) and v == 0:
            v = math.copysign(0.0, xs[0]) * math.copysign(1.0, xs[1])
        return enc(v)
    F = [Fraction(v) for v in xs]
    neg0 = lambda v: math.copysign(1.0, v) < 0
    if kind in ('add', 'sub'):
        b = F[1] if kind == 'add' else -F[1]
        bn = neg0(xs[1]) != (kind == 'sub')
        r = F[0] + b
        zn = (neg0(xs[0]) and bn) if (F[0] == 0 and b == 0) else (mode == 'rd')
        return round_frac(r, fmt, mode, zn)
    if kind == 'mul':
        return round_frac(F[0] * F[1], fmt, mode, neg0(xs[0]) != neg0(xs[1]))
    if kind == 'fma':
        prod = F[0] * F[1]
        pn = neg0(xs[0]) != neg0(xs[1])
        r = prod + F[2]
        zn = (pn and neg0(xs[2])) if (prod == 0 and F[2] == 0) else (mode == 'rd')
        return round_frac(r, fmt, mode, zn)
    if kind == 'div':
        return round_frac(F[0] / F[1], fmt, mode, neg0(xs[0]) != neg0(xs[1]))
    if kind == 'rcp':
        return round_frac(1 / F[0], fmt, mode, neg0(xs[0]))
    if kind == 'sqrt':
        if xs[0] == 0:
            return enc(xs[0])
        if xs[0] < 0:
            return enc(math.nan)
        return round_sqrt(F[0], fmt, mode)
    raise ValueError(kind)


def to_int(v, bits, signed, mode, src_f64=False):
    """PTX cvt.rXi.{s,u}N.fM: round to integer, saturate; NaN -> 0 if the source is not .f64
    and the destination not 64-bit, else 1 << (bits - 1) (PTX ISA, cvt, Integer Notes)."""
    if math.isnan(v):
        return 1 << (bits - 1) if src_f64 or bits == 64 else 0
    if math.isinf(v):
        r = v
    else:
        fr = Fraction(v)
        if mode == 'rz':
            r = math.trunc(fr)
        elif mode == 'rd':
            r = math.floor(fr)
        elif mode == 'ru':
            r = math.ceil(fr)
        else:
            r = round(fr)  # Fraction: ties to even
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if r < lo:
        return lo & ((1 << bits) - 1)
    if r > hi:
        return hi & ((1 << bits) - 1)
    return int(r) & ((1 << bits) - 1)


def ulp_close(got, want, ulps, fmt=F32, abs_tol=0.0):
    """got within ulps units in the last place of want (or abs_tol)."""
    if math.isnan(want):
        return math.isnan(got)
    if math.isinf(want):
        return got == want
    if abs(got - want) <= abs_tol:
        return True
    p = fmt[0]
    e = math.frexp(want)[1] if want != 0 else fmt[1]
    u = math.ldexp(1.0, max(e, fmt[1] + 1) - p)
    return abs(got - want) <= ulps * u
