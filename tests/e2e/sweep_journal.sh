#!/usr/bin/env bash
# The journal under concurrent and damaged use: a second run on the same
# output (--resume with -j 2, or --force) while the first runs is refused with
# one line naming the first's pid, and the first completes every point; a
# flipped bit in a record in the middle of the journal skips that record only
# (its point runs again, the records after it are kept) and a forged record
# with a valid checksum but a point outside the sweep is skipped as well; the
# resumed file equals an uninterrupted run.
set -euo pipefail
BIN=${WS_BIN:-$PWD/build/warpsweep}
SRC=${WS_SOURCE_DIR:-$PWD}
PY=/usr/bin/python3
T=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$T/s.yaml" <<YAML
name: e2e-journal
workload: $SRC/sweeps/kernels/latency.yaml
base: {preset: seed}
grid:
  warps: [1, 2, 4, 8, 16, 32]
  mem_latency: {from: 100, to: 1000, step: 100}
  scheduler: [lrr, gto, two_level, oldest]

YAML
total=$("$BIN" expand "$T/s.yaml" --count)
[ "$total" = 240 ] || fail "count $total"
"$BIN" run "$T/s.yaml" -j 2 -o "$T/ref.h5" --quiet || fail "reference run"

# records in a journal: (size - 128) / record_size (header: u32 at offset 12)
records() { $PY -c "import struct,sys,os; b=open(sys.argv[1],'rb').read(16); r=struct.unpack('<I',b[12:16])[0]; print((os.path.getsize(sys.argv[1])-128)//r)" "$1"; }
wait_records() { # FILE N: until FILE holds N records (60 s at most)
    for _ in $(seq 600); do
        [ -s "$1" ] && [ "$(stat -c %s "$1")" -gt 128 ] && [ "$(records "$1")" -ge "$2" ] && return 0
        sleep 0.1
    done
    fail "$1: fewer than $2 records after 60 s"
}

# ---- two runs on one output: the second is refused, naming the first
"$BIN" run "$T/s.yaml" -j 1 -o "$T/a.h5" --quiet 2> "$T/a.err" &
a=$!; pids+=("$a")
wait_records "$T/a.h5.journal" 1
for opt in "--resume -j 2" "--force -j 2"; do
    set +e; "$BIN" run "$T/s.yaml" $opt -o "$T/a.h5" --quiet > "$T/b.out" 2> "$T/b.err"; rc=$?; set -e
    kill -0 "$a" 2>/dev/null || fail "the first run ended before the second was tried (machine too slow?)"
    [ "$rc" = 1 ] || fail "second run ($opt): exit $rc, want 1: $(cat "$T/b.err")"
    [ "$(wc -l < "$T/b.err")" = 1 ] || fail "second run ($opt): not one line: $(cat "$T/b.err")"
    grep -q "a.h5.journal: in use by another warpsweep (process $a)" "$T/b.err" || fail "second run ($opt): $(cat "$T/b.err")"
done
set +e; wait "$a"; rc=$?; set -e
[ "$rc" = 0 ] || fail "first run: exit $rc: $(cat "$T/a.err")"
$PY "$SRC/tests/e2e/h5compare.py" "$T/a.h5" "$T/ref.h5" --complete || fail "first run's file"
[ ! -e "$T/a.h5.journal" ] || fail "journal left after a complete run"

# ---- damaged and forged records in the middle of the journal
"$BIN" run "$T/s.yaml" -j 1 -o "$T/d.h5" 2> "$T/d.err" &
d=$!; pids+=("$d")
wait_records "$T/d.h5.journal" 12
kill -TERM "$d"
set +e; wait "$d"; rc=$?; set -e
[ "$rc" = 3 ] || fail "interrupted run: exit $rc: $(cat "$T/d.err")"
n=$(records "$T/d.h5.journal")
[ "$n" -ge 12 ] && [ "$n" -lt "$total" ] || fail "$n records after the interrupt"
# record 5 (of n): one flipped bit in its message; record 3: a copy of record 0
# with point = total and its checksum recomputed (FNV-1a 64 xor "WSROW001",
# src/store/journal.c)
$PY - "$T/d.h5.journal" "$total" <<'PY'
import struct, sys
path, total = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, "rb").read())
rs = struct.unpack("<I", data[12:16])[0]
def rec(i): return 128 + i * rs
data[rec(4) + rs - 3] ^= 0x10
row = bytearray(data[rec(0) + 8:rec(0) + rs])
row[0:8] = struct.pack("<Q", total)
h = 0xcbf29ce484222325
for b in row:
    h = ((h ^ b) * 0x100000001b3) % 2**64
data[rec(2):rec(2) + rs] = struct.pack("<Q", h ^ 0x5753524f57303031) + row
open(path, "wb").write(data)
PY
"$BIN" run "$T/s.yaml" -j 2 -o "$T/d.h5" --resume 2> "$T/r.err" || fail "resume: $(cat "$T/r.err")"
grep -q "d.h5.journal: skipped 2 damaged records (their points run again); kept the $((n - 2)) good ones" "$T/r.err" ||
    fail "resume message: $(cat "$T/r.err")"
! grep -q "torn" "$T/r.err" || fail "a damaged middle record reported as torn: $(cat "$T/r.err")"
grep -q "d.h5: $total of $total points" "$T/r.err" || fail "resume tally: $(cat "$T/r.err")"
$PY "$SRC/tests/e2e/h5compare.py" "$T/d.h5" "$T/ref.h5" --complete || fail "resumed file differs"
echo PASS
