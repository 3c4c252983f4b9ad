#!/usr/bin/env python3
"""Issue 16, inputs from files: a CSR SpMV (tests/kernels/files/spmv_csr.ptx)
whose buffers come from a Matrix Market file, an edge list, .npy and raw files,
and whose expect is a file; then bad files, each refused with one line.

Everything expected is computed here, independently of warpsweep: the .npy
files are written by hand from the format's specification (numpy is not
needed), the CSR arrays by sorting the expanded entries by (row, column), and
y = A x in the kernel's order with f32 rounding. WS_KEEP=DIR keeps the files.
"""
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

WS = os.environ["WS_BIN"]
SRC = os.environ["WS_SOURCE_DIR"]
KERNEL = os.path.abspath(os.path.join(SRC, "tests/kernels/files/spmv_csr.ptx"))
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def write_npy(path, descr, values, fmt, fortran=False, shape=None, version=1):
    """numpy.lib.format: magic, version, header length, dict padded to 64 bytes."""
    shape = shape if shape is not None else (len(values),)
    shape_s = "(" + "".join("%d," % d for d in shape) + ")" if len(shape) == 1 else repr(tuple(shape))
    d = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape_s)
    pre = 10 if version == 1 else 12
    pad = 64 - (pre + len(d) + 1) % 64
    header = (d + " " * pad + "\n").encode()
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY" + bytes([version, 0]))
        f.write(struct.pack("<H" if version == 1 else "<I", len(header)))
        f.write(header)
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def csr(rows, entries):
    """entries (row, col, value) 0-based -> row_ptr, col_idx, values; stable by (row, col)."""
    order = sorted(range(len(entries)), key=lambda k: (entries[k][0], entries[k][1], k))
    row_ptr = [0] * (rows + 1)
    for r, _, _ in entries:
        row_ptr[r + 1] += 1
    for r in range(rows):
        row_ptr[r + 1] += row_ptr[r]
    return row_ptr, [entries[k][1] for k in order], [entries[k][2] for k in order]


def spmv(rows, row_ptr, col_idx, values, x):
    """In the kernel's order (k ascending); f32 products are exact in double,
    so each step is the kernel's fma.rn.f32 up to a double rounding (<= 1 ulp)."""
    y = []
    for r in range(rows):
        acc = 0.0
        for k in range(row_ptr[r], row_ptr[r + 1]):
            acc = f32(values[k] * x[col_idx[k]] + acc)
        y.append(acc)
    return y


def sim(yaml_text, d, name):
    path = os.path.join(d, name + ".yaml")
    with open(path, "w") as f:
        f.write(yaml_text)
    p = subprocess.run([WS, "sim", path, "--json", "--set", "preset=seed"], capture_output=True, text=True)
    return path, p


def workload(parts, n, expect, name="spmv"):
    """parts: init specs of row_ptr, col_idx, values, x; y is written by the kernel."""
    return f"""name: {name}
kernel: {KERNEL}
grid: {(n + 63) // 64}
block: 64
regs_per_thread: 63          # ptxas -v --gpu-name sm_75
buffers:
  row_ptr: {{type: u32, init: {parts[0]}}}
  col_idx: {{type: u32, init: {parts[1]}}}
  values:  {{type: f32, init: {parts[2]}}}
  x:       {{type: f32, init: {parts[3]}}}
  y:       {{type: f32, count: {n}, init: 0}}
params: [row_ptr, col_idx, values, x, y, {n}]
expect:
  y: {expect}
"""


def main():
    rng = random.Random(16)
    d = os.environ.get("WS_KEEP") or tempfile.mkdtemp()
    n = 100

    # 1. a symmetric real .mtx (lower triangle stored, 1-based) and x from .npy
    lower = {}
    for i in range(n):
        lower[(i, i)] = f32(rng.uniform(1, 2))
        for _ in range(3):
            j = rng.randrange(0, i + 1)
            lower[(i, j)] = f32(rng.uniform(-1, 1))
    items = sorted(lower.items(), key=lambda kv: rng.random())   # file order shuffled
    with open(os.path.join(d, "a.mtx"), "w") as f:
        f.write("%%MatrixMarket matrix coordinate real symmetric\n% a comment\n\n")
        f.write(f"{n} {n} {len(items)}\n")
        for (i, j), v in items:
            f.write(f"{i + 1} {j + 1} {v!r}\n")
    entries = []
    for (i, j), v in items:
        entries.append((i, j, v))
        if i != j:
            entries.append((j, i, v))
    row_ptr, col_idx, values = csr(n, entries)
    x = [f32(rng.uniform(-1, 1)) for _ in range(n)]
    write_npy(os.path.join(d, "x.npy"), "<f4", x, "f")
    y = spmv(n, row_ptr, col_idx, values, x)
    write_npy(os.path.join(d, "y.npy"), "<f4", [f32(v) for v in y], "f", version=2)
    # the CSR arrays too, so that warpsweep's conversion is compared element by element
    write_npy(os.path.join(d, "row_ptr.npy"), "<u4", row_ptr, "I")
    with open(os.path.join(d, "col_idx.bin"), "wb") as f:
        f.write(struct.pack("<%dI" % len(col_idx), *col_idx))

    mtx = ["{mtx: a.mtx, part: row_ptr}", "{mtx: a.mtx, part: col_idx}", "{mtx: a.mtx, part: values}", "{file: x.npy}"]
    wl = workload(mtx, n, "{file: y.npy, ulp: 2}").replace(
        "expect:\n", "expect:\n  row_ptr: {file: row_ptr.npy}\n  col_idx: {file: col_idx.bin}\n")
    path, p = sim(wl, d, "spmv_mtx")
    check(p.returncode == 0 and '"status": "ok"' in p.stdout.replace('":"', '": "'),
          f"symmetric .mtx + .npy SpMV matches y.npy within 2 ulp (rc {p.returncode}) {p.stderr.strip()}")

    # the tolerance is not vacuous: y off by 1e-4 relative at row 37 fails ulp: 2 there...
    bad_y = [f32(v) for v in y]
    bad_y[37] = f32(bad_y[37] * (1 + 1e-4))
    write_npy(os.path.join(d, "y_off.npy"), "<f4", bad_y, "f")
    _, p = sim(workload(mtx, n, "{file: y_off.npy, ulp: 2}"), d, "spmv_off")
    check(p.returncode == 1 and "y[37]" in p.stdout and "within 2 ulp" in p.stdout,
          "a y off by 1e-4 at row 37 is a mismatch at y[37] under ulp: 2")
    # ...and passes a relative tolerance of 1e-3
    _, p = sim(workload(mtx, n, "{file: y_off.npy, rel: 1e-3}"), d, "spmv_rel")
    check(p.returncode == 0, f"the same y passes with rel: 1e-3 (rc {p.returncode}) {p.stderr.strip()}")

    # a sweep with -j 2: the points share the workload's mapped files; every point checks y
    with open(os.path.join(d, "sweep.yaml"), "w") as f:
        f.write("name: spmv_files\nworkload: spmv_mtx.yaml\nbase: {preset: seed}\ngrid:\n  warps: [2, 4, 8, 16]\n")
    out = os.path.join(d, "sweep.h5")
    p = subprocess.run([WS, "run", os.path.join(d, "sweep.yaml"), "-o", out, "-j", "2", "--force"],
                       capture_output=True, text=True)
    info = subprocess.run([WS, "info", out], capture_output=True, text=True).stdout
    check(p.returncode == 0 and "status:    ok 4 " in info, f"sweep -j 2 over file inputs: 4 points ok ({p.stderr.strip()[-120:]})")

    # 2. an unweighted edge list (pattern-like: values 1) with x integers: y exact
    edges = sorted({(rng.randrange(n), rng.randrange(n)) for _ in range(300)}, key=lambda e: rng.random())
    with open(os.path.join(d, "g.el"), "w") as f:
        f.write("# a SNAP-style edge list\n")
        for u, v in edges:
            f.write(f"{u}\t{v}\n")
    verts = max(max(u, v) for u, v in edges) + 1
    und = []
    for u, v in edges:
        und.append((u, v, 1.0))
        if u != v:
            und.append((v, u, 1.0))
    rp, ci, vals = csr(verts, und)
    xi = [float(rng.randrange(-8, 9)) for _ in range(verts)]
    with open(os.path.join(d, "x.bin"), "wb") as f:
        f.write(struct.pack("<%df" % verts, *xi))
    yi = spmv(verts, rp, ci, vals, xi)
    with open(os.path.join(d, "y.bin"), "wb") as f:
        f.write(struct.pack("<%df" % verts, *yi))
    g = ["{edges: g.el, part: row_ptr, undirected: true}", "{edges: g.el, part: col_idx, undirected: true}",
         "{edges: g.el, part: values, undirected: true}", "{file: x.bin}"]
    _, p = sim(workload(g, verts, "{file: y.bin}"), d, "spmv_edges")
    check(p.returncode == 0, f"undirected edge list + raw x: y equals y.bin exactly (rc {p.returncode}) {p.stderr.strip()}")

    # 3. the shipped 4 x 4 example (tests/kernels/files/spmv_csr.yaml: its expect is a hand computation),
    # also under the MIMD reference run
    for extra in ([], ["--reference"]):
        p = subprocess.run([WS, "sim", os.path.join(SRC, "tests/kernels/files/spmv_csr.yaml"), "--set", "preset=seed"]
                           + extra, capture_output=True, text=True)
        check(p.returncode == 0 and p.stdout.startswith("status: ok"),
              f"tests/kernels/files/spmv_csr.yaml {' '.join(extra)}: {p.stdout.splitlines()[:1]} {p.stderr.strip()}")

    # 4. bad files: one line on stderr naming the file and the position
    def refused(files, parts, needle, what, count=None):
        for name, data in files.items():
            with open(os.path.join(d, name), "wb" if isinstance(data, bytes) else "w") as f:
                f.write(data)
        wl = workload(parts, n, "0")
        if count is not None:
            wl = wl.replace("x:       {type: f32, init:", f"x:       {{type: f32, count: {count}, init:")
        path, p = sim(wl, d, "bad")
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 1 and len(lines) == 1 and needle in p.stderr and "Traceback" not in p.stderr,
              f"{what}: {p.stderr.strip()}")

    good = mtx[:3]
    refused({"t.bin": struct.pack("<%df" % n, *x)[:-2]}, good + ["{file: t.bin}"],
            "t.bin: offset 396: truncated f32 element", "raw file truncated mid-element")
    refused({"c.bin": struct.pack("<38f", *x[:38])}, good + ["{file: c.bin}"],
            "holds 38 f32 elements but the buffer's count is 100", "raw count differs from the buffer's", count=n)
    write_npy(os.path.join(d, "xd.npy"), "<f8", x, "d")
    refused({}, good + ["{file: xd.npy}"], "xd.npy: offset 10: dtype '<f8' does not match the buffer's type f32",
            "wrong .npy dtype")
    write_npy(os.path.join(d, "xf.npy"), "<f4", x, "f", fortran=True, shape=(10, 10))
    refused({}, good + ["{file: xf.npy}"], "fortran_order is True: expected C order", "Fortran-order .npy")
    with open(os.path.join(d, "x.npy"), "rb") as f:
        raw = f.read()
    refused({"xt.npy": raw[:-8]}, good + ["{file: xt.npy}"], "xt.npy: offset", "truncated .npy data")
    refused({"xm.npy": b"NUMPY" + raw[5:]}, good + ["{file: xm.npy}"], "xm.npy: offset 0: expected the .npy magic",
            "bad .npy magic")

    def bad_mtx(text, needle, what):
        refused({"b.mtx": text}, ["{mtx: b.mtx, part: row_ptr}", "{mtx: b.mtx, part: col_idx}",
                                  "{mtx: b.mtx, part: values}", "{file: x.npy}"], needle, what)

    bad_mtx("%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1 0\n", "b.mtx:1: field 'complex'",
            "complex .mtx")
    bad_mtx("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "b.mtx:1: format 'array'", "array .mtx")
    bad_mtx("%MatrixMarket matrix coordinate real general\n", "b.mtx:1: expected the banner", "bad banner")
    bad_mtx("%%MatrixMarket matrix coordinate real general\n% c\n2 2\n", "b.mtx:3: expected the size line",
            "malformed size line")
    bad_mtx("%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1.0\n2 x 1.0\n",
            "b.mtx:4: entry 2: expected \"ROW COLUMN VALUE\"", "malformed entry")
    bad_mtx("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.0\n3 1 1.0\n",
            "b.mtx:4: entry 2: index (3, 1) out of range", "index out of range")
    bad_mtx("%%MatrixMarket matrix coordinate real general\n2 2 2\n0 1 1.0\n1 1 1.0\n",
            "b.mtx:3: entry 1: index (0, 1) out of range", "0-based index in a 1-based file")
    bad_mtx("%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1.0\n2 2 1.0\n",
            "b.mtx:4: truncated file: 2 of the 3 entries declared at line 2", "truncated .mtx")
    bad_mtx("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1.0\n",
            "b.mtx:3: entry 1: (1, 2) is above the diagonal", "upper entry in a symmetric .mtx")
    refused({"b.el": "0 1\n1 2 3.5\n"}, ["{edges: b.el, part: row_ptr}", "{edges: b.el, part: col_idx}",
                                         "{edges: b.el, part: values}", "{file: x.npy}"],
            "b.el:2: a weight, but the edge at line 1 has none", "edge list mixing weights")
    refused({"b.el": "0 1\n1 -2\n"}, ["{edges: b.el, part: row_ptr}", "{edges: b.el, part: col_idx}",
                                      "{edges: b.el, part: values}", "{file: x.npy}"],
            "b.el:2: expected an edge", "negative vertex id")
    bad_mtx("%%MatrixMarket matrix coordinate real general\n999999999999 2 1\n1 1 1\n",
            "b.mtx:2: size 999999999999 x 2: expected at most 2^28", "absurd size line (no allocation)")
    refused({}, good + ["{file: nothere.npy}"], "nothere.npy: cannot open", "missing file")

    if not os.environ.get("WS_KEEP"):
        shutil.rmtree(d)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
