#!/usr/bin/env python3
"""Independent checks of tests/kernels/call/*.yaml outputs.

usage: kernels_call_check.py WS_BIN KERNEL_DIR NAME [extra sim args...]
Runs `WS_BIN sim NAME.yaml --dump out [extra]`. dtrig: sin, cos, pow(|x| + 0.25, y) and tan of
f64 inputs against Python's math (glibc, correctly reduced for huge arguments) within MAX_ULP
(CUDA documents 2 ulp for these); noinline/debug: the dump equals the yaml's expected values
(computed by tests/kernels/call/expected.py's Python models)."""
import math
import os
import struct
import subprocess
import sys

import yaml

BIN, KDIR, NAME = sys.argv[1], sys.argv[2], sys.argv[3]
EXTRA = sys.argv[4:]
MAX_ULP = 4
Y = yaml.safe_load(open(os.path.join(KDIR, NAME + '.yaml')))


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
    return [float(v) for v in vals] if Y['buffers'][buf]['type'].startswith('f') else [int(v) for v in vals]


def ordered(v):
    i = struct.unpack('<q', struct.pack('<d', v))[0]
    return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)


def ulps(got, want):
    if math.isnan(want) or math.isnan(got):
        return 0 if math.isnan(want) and math.isnan(got) else 1 << 62
    return abs(ordered(got) - ordered(want))


def mpow(x, y):
    try:
        return math.pow(x, y)
    except OverflowError:
        return math.inf


errors = []
if NAME == 'dtrig':
    A = [float(v) for v in Y['buffers']['a']['init']]
    B = [float(v) for v in Y['buffers']['b']['init']]
    out = dump('out')
    worst = 0
    for i, (x, y) in enumerate(zip(A, B)):
        want = [math.sin(x), math.cos(x), mpow(abs(x) + 0.25, y), math.tan(x)]
        for j, w in enumerate(want):
            u = ulps(out[4 * i + j], w)
            worst = max(worst, u)
            if u > MAX_ULP:
                errors.append('%s(%r%s): got %r, want %r (%d ulp)' % (['sin', 'cos', 'pow', 'tan'][j], x,
                              ', %r' % y if j == 2 else '', out[4 * i + j], w, u))
    print('dtrig: %d values, worst %d ulp' % (4 * len(A), worst))
else:
    got, want = dump('out'), Y['expect']['out']
    if got != want:
        bad = [i for i in range(len(want)) if got[i] != want[i]]
        errors.append('out[%d]: got %d, want %d (%d differ)' % (bad[0], got[bad[0]], want[bad[0]], len(bad)))
for e in errors[:10]:
    print('FAIL %s: %s' % (NAME, e))
if not errors:
    print('ok %s %s' % (NAME, ' '.join(EXTRA)))
sys.exit(1 if errors else 0)
