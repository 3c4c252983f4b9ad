#!/usr/bin/python3
"""Independent model of PTX float -> integer cvt, written from NVIDIA's documents only:

  * PTX ISA, cvt: float -> integer needs an integer rounding (.rni nearest-even, .rzi toward
    zero, .rmi down, .rpi up); "For float-to-integer conversions, the result is clamped to
    the destination range by default" (.sat is redundant); .ftz flushes an f32 subnormal
    source to zero.
  * PTX ISA, cvt, Integer Notes: "In float-to-integer conversions, depending upon conversion
    types, NaN input results in following value: 1. Zero if source is not .f64 and
    destination is not .s64, .u64. 2. Otherwise 1 << (BitWidth(dst) - 1)".
  * CUDA Math API (cuda_fp16.h / cuda_bf16.h), which agrees: NaN inputs are converted to 0
    for the char/short/int destinations; "NaN inputs return 0x8000000000000000" for the
    64-bit ones, signed (__half2ll_rz) and unsigned (__half2ull_rz, __bfloat162ull_rz)
    alike; +inf -> the destination's maximum, -inf -> its minimum (0 for unsigned).

Writes tests/unit/cvt_f2i_table.h: {source type, destination type, rounding, mods, input
bits, expected destination bits} over edge inputs of every source type (NaN, +-inf, +-0,
subnormals, ties, just inside and just outside each destination range) for every pair
and rounding, with and without .sat (and .ftz for f32).
Run: /usr/bin/python3 tests/unit/cvt_f2i_model.py > tests/unit/cvt_f2i_table.h
"""
import math
import struct
from fractions import Fraction as Fr

SRC = ['F16', 'BF16', 'F32', 'F64']
DST = [('S8', 8, True), ('U8', 8, False), ('S16', 16, True), ('U16', 16, False),
       ('S32', 32, True), ('U32', 32, False), ('S64', 64, True), ('U64', 64, False)]
RND = ['RNI', 'RZI', 'RMI', 'RPI']


def decode(st, b):
    """bits -> ('nan',) | ('inf', sign) | ('val', Fraction, is_subnormal)"""
    ebits, fbits = {'F16': (5, 10), 'BF16': (8, 7), 'F32': (8, 23), 'F64': (11, 52)}[st]
    sign = -1 if b >> (ebits + fbits) & 1 else 1
    e = b >> fbits & ((1 << ebits) - 1)
    f = b & ((1 << fbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if e == (1 << ebits) - 1:
        return ('nan',) if f else ('inf', sign)
    if e == 0:
        return ('val', sign * Fr(f, 1 << fbits) * Fr(2) ** (1 - bias), f != 0)
    return ('val', sign * (1 + Fr(f, 1 << fbits)) * Fr(2) ** (e - bias), False)


def encode(st, v):
    """an exactly representable value -> bits, else None"""
    if st == 'F64':
        b = struct.unpack('<Q', struct.pack('<d', float(v)))[0]
    elif st == 'F16':
        try:
            b = struct.unpack('<H', struct.pack('<e', float(v)))[0]
        except OverflowError:
            return None
    else:
        b = struct.unpack('<I', struct.pack('<f', float(v)))[0] if abs(v) < 2 ** 128 else None
        if b is None:
            return None
        if st == 'BF16':
            if b & 0xffff:
                return None
            b >>= 16
    d = decode(st, b)
    return b if d[0] == 'val' and d[1] == v else None


def specials(st):
    n = {'F16': 16, 'BF16': 16, 'F32': 32, 'F64': 64}[st]
    ebits, fbits = {'F16': (5, 10), 'BF16': (8, 7), 'F32': (8, 23), 'F64': (11, 52)}[st]
    s = 1 << (n - 1)
    inf = ((1 << ebits) - 1) << fbits
    maxf = inf - 1
    return [inf | 1 << (fbits - 1), s | inf | 1 << (fbits - 1), inf | 1,  # qNaN, -qNaN, sNaN
            inf, s | inf, 0, s, 1, s | 1, maxf, s | maxf]


def neighbours(st, v):
    """v and the source type's values just below and above it (where v is representable),
    v - 1/2, v + 1/2 and v - 1 (where they are)"""
    out = [encode(st, v + d) for d in (Fr(-1), Fr(-1, 2), Fr(1, 2))]
    b = encode(st, v)
    if b is not None:
        out += [b, b + 1, b - 1] if v > 0 else [b, b - 1, b + 1] if v < 0 else [b]
    return [x for x in out if x is not None and decode(st, x)[0] == 'val']


def inputs(st, bits, signed):
    """edge inputs for one source/destination pair: specials, ties near zero, the
    destination's range ends and their neighbours"""
    small = [Fr(n, 4) for n in (1, 2, 3, 6, 10, 14)]
    vals = small + [-v for v in small]
    ends = [Fr(2) ** (bits - 1), -Fr(2) ** (bits - 1)] if signed else [Fr(2) ** bits, Fr(0)]
    out = specials(st) + [b for b in (encode(st, v) for v in vals) if b is not None]
    for v in ends:
        out += neighbours(st, v)
    seen = set()
    return [b for b in out if not (b in seen or seen.add(b))]


def rnd_int(v, mode):
    if mode == 'RZI':
        return math.trunc(v)
    if mode == 'RMI':
        return math.floor(v)
    if mode == 'RPI':
        return math.ceil(v)
    return round(v)                        # Fraction.__round__: ties to even


def expect(st, b, bits, signed, mode, ftz):
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    d = decode(st, b)
    if d[0] == 'nan':
        return 1 << (bits - 1) if st == 'F64' or bits == 64 else 0
    if d[0] == 'inf':
        r = hi if d[1] > 0 else lo
    else:
        v = Fr(0) if ftz and d[2] else d[1]
        r = min(max(rnd_int(v, mode), lo), hi)
    return r & ((1 << bits) - 1)


def main():
    rows = []
    for st in SRC:
        for dname, bits, signed in DST:
            ins = inputs(st, bits, signed)
            subn = [b for b in ins if decode(st, b)[0] == 'val' and decode(st, b)[2]]
            for mode in RND:
                cases = [(0, ins)] + ([('SAT', ins)] if mode == 'RZI' else []) + \
                        ([('FTZ', subn)] if st == 'F32' else [])
                for m, bs in cases:
                    for b in bs:
                        e = expect(st, b, bits, signed, mode, m == 'FTZ')
                        rows.append('{%s,%s,%s,%s,0x%x,0x%x},' % (st, dname, mode, m, b, e))
    print('/* Generated by tests/unit/cvt_f2i_model.py (an independent model of the PTX ISA')
    print(' * cvt rules, NaN results included); do not edit. %d cases. */' % len(rows))
    print('#define F16 WS_TY_F16\n#define BF16 WS_TY_BF16\n#define F32 WS_TY_F32\n#define F64 WS_TY_F64')
    for d, _, _ in DST:
        print('#define %s WS_TY_%s' % (d, d))
    for r in RND:
        print('#define %s WS_RND_%s' % (r, r))
    print('#define SAT WS_MOD_SAT\n#define FTZ WS_MOD_FTZ')
    print('static const struct f2i_case { unsigned char st, dt, rnd; unsigned mods; '
          'unsigned long long in, out; } f2i_cases[] = {')
    print('\n'.join(rows))
    print('};')
    for n in ['F16', 'BF16', 'F32', 'F64', 'SAT', 'FTZ'] + [d for d, _, _ in DST] + RND:
        print('#undef %s' % n)


if __name__ == '__main__':
    main()
