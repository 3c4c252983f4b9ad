#!/usr/bin/env bash
# `expand`'s note column flags the points that will be invalid because one
# CTA does not fit the point's core: matmul has 2 warps of 32 threads per
# CTA, 40 registers per thread (1280 per warp, 10 KiB per CTA) and 512 B of
# shared memory, so warps=1, smem_kb=0 and regfile_kb=8 cannot hold a CTA
# (hand calculation, as in core_occupancy.sh). The run agrees point by point.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

cat > "$T/s.yaml" <<YAML
name: e2e-expand-invalid
workload: $SRC/sweeps/kernels/matmul.yaml
base: {preset: seed}
grid:
  warps: [1, 2, 8]
  smem_kb: [0, 1]
  regfile_kb: [8, 64]
YAML
"$BIN" expand "$T/s.yaml" > "$T/x.csv" || fail "expand"
"$BIN" run "$T/s.yaml" -o "$T/r.h5" -j 2 --quiet || fail "run"
$PY - "$T/x.csv" "$T/r.h5" <<'PY' || fail "notes"
import csv, sys, h5py
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 12 and "note" in rows[0], rows[0]
for r in rows:
    w, s, rf = int(r["warps"]), int(r["smem_kb"]), int(r["regfile_kb"])
    # the first check that fails names the resource: warp slots, registers, shared memory
    want = ("warp slots" if w < 2 else "register file" if rf * 1024 < 10240 else
            "shared memory" if s * 1024 < 512 else "")
    if want:
        assert r["note"].startswith("invalid: " + want), (r, want)
    else:
        assert r["note"] == "", r
pts = h5py.File(sys.argv[2], "r")["points"][...]
for p in pts:
    note = rows[int(p["point"])]["note"]
    st, msg = p["status"].decode(), p["message"].decode()
    assert (st == "invalid") == bool(note), (st, note)
    assert not note or note == "invalid: " + msg, (note, msg)
PY
echo "expand_invalid: ok"
