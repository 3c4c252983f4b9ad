#!/usr/bin/env python3
"""Issue 16, inputs from files that change under a sweep.

1. Data files truncated and rewritten shorter while a sweep runs (the sweep
   stopped with SIGSTOP after its first rows, the files cut, then continued):
   no run crashes (a run used to map the file itself and die of SIGBUS on
   the first read past the new end), and every point is ok with the y that
   the original files give: the sweep runs on the copy read at load.
2. The sweep hash covers the workload's files: the results file's
   inputs_hash and sweep_hash equal a model computed here (FNV-1a 64 over the
   size and XXH64 of the workload YAML, the PTX, each CSR part, x.npy's and
   y.npy's elements; XXH64 from tests/unit/xxh64_model.py), and --resume
   after a changed input, from the results file or from a journal left by
   kill -9, refuses with one line saying what changed; with the inputs
   restored (same content, new mtime) it resumes.
"""
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time
import shutil

import h5py

SRC = os.environ["WS_SOURCE_DIR"]
WS = os.environ["WS_BIN"]
sys.path.insert(0, os.path.join(SRC, "tests/e2e"))
sys.path.insert(0, os.path.join(SRC, "tests/unit"))
from inputs_files import write_npy, csr, spmv, f32   # noqa: E402
from xxh64_model import xxh64                        # noqa: E402

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def fnv(h, data):
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & ((1 << 64) - 1)
    return h


FNV0 = 0xcbf29ce484222325
N = 10000         # rows: about 0.05 s a point
POINTS = 60        # the journal gets rows every 0.5 s: the sweep must last a few of those


def run(d, *args, wait=True, sweep="sweep.yaml"):
    cmd = [WS, "run", os.path.join(d, sweep), "-j", "2", "--quiet", *args]
    if wait:
        return subprocess.run(cmd, capture_output=True, text=True)
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def records(journal):
    """rows in a journal: (size - 128) / record size (u32 at offset 12 of the header)"""
    try:
        with open(journal, "rb") as f:
            head = f.read(16)
        if len(head) < 16:
            return 0
        return (os.path.getsize(journal) - 128) // struct.unpack("<I", head[12:16])[0]
    except FileNotFoundError:
        return 0


def wait_journal(p, journal, rows):
    """until the journal exists (the run has loaded the sweep, its workloads
    and their files, and starts its points) and holds `rows` rows"""
    for _ in range(60000):
        if (os.path.exists(journal) and os.path.getsize(journal) >= 128 and records(journal) >= rows) \
                or p.poll() is not None:
            return
        time.sleep(0.002)


def main():
    import random
    rng = random.Random(7)
    d = tempfile.mkdtemp()
    shutil.copy(os.path.join(SRC, "tests/kernels/files/spmv_csr.ptx"), os.path.join(d, "spmv.ptx"))
    entries = [(i, rng.randrange(N), f32(rng.uniform(-1, 1))) for i in range(N) for _ in range(4)]
    with open(os.path.join(d, "a.mtx"), "w") as f:
        f.write("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n" % (N, N, len(entries)))
        for i, j, v in entries:
            f.write(f"{i + 1} {j + 1} {v!r}\n")
    row_ptr, col_idx, values = csr(N, entries)
    x = [f32(rng.uniform(-1, 1)) for _ in range(N)]
    y = [f32(v) for v in spmv(N, row_ptr, col_idx, values, x)]
    write_npy(os.path.join(d, "x.npy"), "<f4", x, "f")
    write_npy(os.path.join(d, "y.npy"), "<f4", y, "f")
    wl = f"""name: spmv_change
kernel: spmv.ptx
grid: {(N + 63) // 64}
block: 64
regs_per_thread: 63
buffers:
  row_ptr: {{type: u32, init: {{mtx: a.mtx, part: row_ptr}}}}
  col_idx: {{type: u32, init: {{mtx: a.mtx, part: col_idx}}}}
  values:  {{type: f32, init: {{mtx: a.mtx, part: values}}}}
  x:       {{type: f32, init: {{file: x.npy}}}}
  y:       {{type: f32, count: {N}, init: 0}}
params: [row_ptr, col_idx, values, x, y, {N}]
expect:
  y: {{file: y.npy, ulp: 2}}
"""
    with open(os.path.join(d, "spmv.yaml"), "w") as f:
        f.write(wl)
    sweep = ("name: change\nworkload: spmv.yaml\nbase: {preset: seed}\n"
             "grid:\n  warps: [2, 4, 8, 16]\n  scheduler: [lrr, gto, two_level]\n  mem_latency: [100, 200, 300, 400, 500]\n")
    with open(os.path.join(d, "sweep.yaml"), "w") as f:
        f.write(sweep)
    originals = {name: open(os.path.join(d, name), "rb").read() for name in ("a.mtx", "x.npy", "y.npy", "spmv.ptx")}

    def restore():
        for name, data in originals.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)

    # 1. cut the files once the sweep has loaded them, while it is stopped: the
    # points run after the cut (rows reach the journal every 0.5 s)
    out = os.path.join(d, "a.h5")
    p = run(d, "-o", out, wait=False)
    wait_journal(p, out + ".journal", 0)
    p.send_signal(signal.SIGSTOP)
    done_before = records(out + ".journal")
    running = p.poll() is None
    os.truncate(os.path.join(d, "x.npy"), 0)
    with open(os.path.join(d, "y.npy"), "wb") as f:
        f.write(b"\x93NUMPY short")
    os.truncate(os.path.join(d, "a.mtx"), 100)
    p.send_signal(signal.SIGCONT)
    _, err = p.communicate()
    check(running and done_before < POINTS, f"the files were cut mid-sweep, {done_before} of {POINTS} rows written")
    check(p.returncode == 0, f"the sweep over the cut files ends normally (rc {p.returncode}, -7 is SIGBUS) {err.strip()}")
    info = subprocess.run([WS, "info", out], capture_output=True, text=True).stdout
    check(f"status:    ok {POINTS} " in info, f"every point ok with the y of the original files: {info.splitlines()[1:2]}")
    restore()

    # 2. the hash, computed independently
    with h5py.File(out, "r") as f:
        at = {k: (v.decode() if isinstance(v, bytes) else str(v)) for k, v in f.attrs.items()}
    parts = [(0, xxh64(wl.encode())),
             (len(originals["spmv.ptx"]), xxh64(originals["spmv.ptx"]))]
    for arr, fmt in ((row_ptr, "I"), (col_idx, "I"), (values, "f"), (x, "f"), (y, "f")):
        b = struct.pack("<%d%s" % (len(arr), fmt), *arr)
        parts.append((len(b), xxh64(b)))
    h = FNV0
    for size, dig in parts:
        h = fnv(h, struct.pack("<QQ", size, dig))
    want_inputs = "%016x" % h
    own = fnv(fnv(FNV0, sweep.encode() + b"\0"), b"change\0")
    want_hash = "%016x" % fnv(own, want_inputs.encode() + b"\0")
    check(at.get("inputs_hash") == want_inputs, f"inputs_hash {at.get('inputs_hash')} = the model's {want_inputs}")
    check(at.get("sweep_own_hash") == "%016x" % own, f"sweep_own_hash {at.get('sweep_own_hash')} = {own:016x}")
    check(at.get("sweep_hash") == want_hash, f"sweep_hash {at.get('sweep_hash')} = the model's {want_hash}")

    # the restored files (same bytes, new mtime), and the sweep reached from its own directory: same hash
    p = subprocess.run([WS, "run", "sweep.yaml", "-o", "a.h5", "--resume"], cwd=d, capture_output=True, text=True)
    check(p.returncode == 0 and "complete" in p.stderr, f"same content, other path: resume finds it complete: {p.stderr.strip()}")

    def refused(p, needle, what):
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 1 and len(lines) == 1 and needle in p.stderr, f"{what}: {p.stderr.strip()}")

    x2 = list(x)
    x2[1234] = f32(x2[1234] + 0.5)
    write_npy(os.path.join(d, "x.npy"), "<f4", x2, "f")
    refused(run(d, "-o", out, "--resume"), "an input file of the sweep changed (a workload, its PTX or a data file) "
            "since this file was written", "one element of x.npy changed: resume refused")
    with open(os.path.join(d, "sweep.yaml"), "a") as f:
        f.write("# a comment\n")
    refused(run(d, "-o", out, "--resume"), "the sweep and its input files changed since this file was written",
            "x.npy and the sweep changed")
    restore()
    refused(run(d, "-o", out, "--resume"), "the sweep changed since this file was written", "only the sweep changed")
    with open(os.path.join(d, "sweep.yaml"), "w") as f:
        f.write(sweep)

    # 3. a journal left by kill -9, then a changed PTX (a comment only: the text is the input).
    # Rows reach the journal every 0.5 s, so the run must outlast the first batch: on an idle
    # machine the 60 points take less, hence a sweep of its own, ten times as many points
    lat = ", ".join(str(100 * i) for i in range(1, 26))
    with open(os.path.join(d, "sweep3.yaml"), "w") as f:
        f.write("name: change3\nworkload: spmv.yaml\nbase: {preset: seed}\ngrid:\n  warps: [2, 4, 8, 16]\n"
                f"  scheduler: [lrr, gto, two_level]\n  issue: [blocking, scoreboard]\n  mem_latency: [{lat}]\n")
    points3 = 4 * 3 * 2 * 25
    out = os.path.join(d, "b.h5")
    p = run(d, "-o", out, wait=False, sweep="sweep3.yaml")
    wait_journal(p, out + ".journal", 1)
    p.kill()
    p.communicate()
    kept = records(out + ".journal")
    check(0 < kept < points3 and not os.path.exists(out), f"kill -9 left a journal of {kept} rows and no b.h5")
    with open(os.path.join(d, "spmv.ptx"), "ab") as f:
        f.write(b"// edited\n")
    refused(run(d, "-o", out, "--resume", sweep="sweep3.yaml"), "b.h5.journal: an input file of the sweep changed (a workload, its PTX or "
            "a data file) since this run started", "the PTX changed: resume from the journal refused")
    with open(os.path.join(d, "spmv.yaml"), "a") as f:
        f.write("# edited\n")
    restore()
    refused(run(d, "-o", out, "--resume", sweep="sweep3.yaml"), "an input file of the sweep changed",
            "the workload YAML changed")
    with open(os.path.join(d, "spmv.yaml"), "w") as f:
        f.write(wl)
    p = run(d, "-o", out, "--resume", sweep="sweep3.yaml")
    info = subprocess.run([WS, "info", out], capture_output=True, text=True).stdout
    check(p.returncode == 0 and f"status:    ok {points3} " in info,
          f"inputs restored: the resume completes the journal ({p.stderr.strip()}) {info.splitlines()[1:2]}")

    shutil.rmtree(d)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
