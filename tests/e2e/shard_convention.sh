#!/usr/bin/env bash
# --shard K/N is 0-based (issue 27 item 8), as SLURM array task ids and the
# scripts of `warpsweep slurm` (--array=0-(N-1)) are: 0/2 and 1/2 are the two
# halves and merge to the whole sweep; 2/2 is a usage error (exit 2) whose one
# line says K must be 0..N-1, and nothing is written.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

cat > "$T/s.yaml" <<YAML
name: conv
workload: $SRC/sweeps/kernels/saxpy.yaml
grid:
  warps: [2, 4, 8, 16]
YAML
# points 0..3; shard K of N holds the points p with p mod N == K
points() { $PY -c 'import sys, h5py; print(" ".join(str(p) for p in h5py.File(sys.argv[1], "r")["points"]["point"]))' "$1"; }
"$BIN" run "$T/s.yaml" --shard 0/2 -o "$T/a.h5" -q || fail "--shard 0/2"
"$BIN" run "$T/s.yaml" --shard 1/2 -o "$T/b.h5" -q || fail "--shard 1/2"
[ "$(points "$T/a.h5")" = "0 2" ] || fail "--shard 0/2 holds points $(points "$T/a.h5"), expected 0 2"
[ "$(points "$T/b.h5")" = "1 3" ] || fail "--shard 1/2 holds points $(points "$T/b.h5"), expected 1 3"
"$BIN" merge "$T/m.h5" "$T/a.h5" "$T/b.h5" -q || fail "merge of 0/2 and 1/2"
[ "$(points "$T/m.h5")" = "0 1 2 3" ] || fail "merge holds points $(points "$T/m.h5")"

for bad in "2/2:0..1" "5/4:0..3" "1/1:0..0"; do
  s=${bad%%:*} range=${bad#*:}
  rc=0
  "$BIN" run "$T/s.yaml" --shard "$s" -o "$T/bad.h5" -q >"$T/out" 2>"$T/err" || rc=$?
  [ $rc -eq 2 ] || fail "--shard $s: exit $rc, expected 2"
  [ "$(wc -l <"$T/err")" -eq 1 ] || fail "--shard $s: stderr is not one line: $(cat "$T/err")"
  grep -q "K must be 0..N-1 (shards are numbered from 0): got '$s', so K must be $range\$" "$T/err" ||
    fail "--shard $s: message: $(cat "$T/err")"
  [ ! -e "$T/bad.h5" ] && [ ! -e "$T/bad.h5.journal" ] || fail "--shard $s wrote a file"
done
# the scripts `warpsweep slurm` writes number the array from 0 as well
"$BIN" slurm "$T/s.yaml" --tasks 3 --dir "$T/slurm" -o "$T/r.h5" >/dev/null 2>&1 || fail "warpsweep slurm"
grep -q -- "--array=0-2" "$T/slurm/conv.array.sbatch" || fail "array script: $(grep -- --array "$T/slurm/conv.array.sbatch")"
echo PASS
