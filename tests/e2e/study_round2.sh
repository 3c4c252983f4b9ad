#!/usr/bin/env bash
# What a new user's stencil and attention study tripped over (issue 46), from the command line:
#  (1) expect abs: with rel: (numpy.allclose's |got - want| <= abs + rel |want|): saxpy with
#      a = 1e-20 writes y[i] = 1e-20 i; the file wants 1.001e-20 i, a relative error of 1e-3 that
#      rel: 1e-4 refuses (mismatch) and abs: 1e-18 accepts (1e-23 i <= 1e-18 for i < 256); a
#      mistyped key suggests a key valid in an expect;
#  (5) wl.* in zip moves the variables together (2 shapes, not 4) and exclude takes wl.NAME;
#      mixing wl.* and a parameter in one zip entry is one line;
#  (6) expand refuses a workload variable the workload lacks, at its key, as run does;
#  (2) sim --dump BUF=FILE.npy writes the buffer with its dtype and shape (np.load equals the
#      text dump and the hand formula: vecadd c[i] = 3i, warpreduce's s32 sums 1872 + 7168 w), other
#      extensions raw bytes; a bad --dump is one line;
#  (4) the area breakdown: the area_* parts in sim --json and in the HDF5 file (the loader's
#      AREA_PARTS) sum to area_mm2, for the default core and two presets on 1 and 4 cores;
#  (9) info --best prints configurations with identical metrics as one line (their points, the
#      values of the axis that differs: fp64_latency=8|16|32 on vecadd, which has no f64
#      instruction) and names the axes that changed no metric (fp64_latency, not warps);
#  (12) a bad value with a newline is one line (\n escaped), a 2,000-byte one keeps the reason
#      after it (the value elided in its middle); an expression may span lines in a workload as
#      in a sweep ("=32 +\n32": 64).
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

# (1)
$PY -c 'import numpy as np; np.save("'"$T"'/y.npy", (1.001e-20 * np.arange(256)).astype(np.float32))'
wl() {   # wl TOLERANCE
  cat > "$T/s.yaml" <<YAML
name: tiny
kernel: $SRC/sweeps/kernels/saxpy.ptx
entry: _Z5saxpyifPKfPf
grid: 4
block: 64
regs_per_thread: 10
buffers:
  x: {type: f32, count: 256, init: iota}
  y: {type: f32, count: 256, init: 0}
params: [256, 1e-20, x, y]
expect:
  y: {file: y.npy, $1}
YAML
}
wl "rel: 1e-4"
out=$("$BIN" sim "$T/s.yaml" 2>&1) || true
grep -q '^status: mismatch' <<<"$out" || fail "(1) rel 1e-4 on near-zero outputs should mismatch: $out"
grep -q 'within abs 0 + rel 0.0001' <<<"$out" || fail "(1) the message names the tolerance: $(grep message <<<"$out")"
wl "rel: 1e-4, abs: 1e-18"
out=$("$BIN" sim "$T/s.yaml" 2>&1) || fail "(1) abs 1e-18: $out"
grep -q '^status: ok' <<<"$out" || fail "(1) abs 1e-18 should pass: $out"
wl "abz: 1e-18"
out=$("$BIN" sim "$T/s.yaml" 2>&1) && fail "(1) unknown key accepted"
[ "$(wc -l <<<"$out")" = 1 ] && grep -q "unknown key 'abz' in expect for 'y' (did you mean 'abs'?)" <<<"$out" ||
  fail "(1) suggestion: $out"

# (5), (6): a workload with variables
cat > "$T/w.yaml" <<YAML
name: shape
kernel: $SRC/sweeps/kernels/saxpy.ptx
entry: _Z5saxpyifPKfPf
vars: {bx: 64, reps: 1}
grid: "=cdiv(256, bx)"
block: =bx
regs_per_thread: 10
buffers:
  x: {type: f32, count: 256, init: iota}
  y: {type: f32, count: 256, init: {iota: {start: 1, step: 1}}}
params: [256, 2.5, x, y]
expect:
  y: {iota: {start: 1, step: 3.5}}
YAML
cat > "$T/z.yaml" <<YAML
name: zipped
workload: $T/w.yaml
zip:
  - {wl.bx: [32, 128], wl.reps: [1, 2]}
grid:
  warps: [16, 64]
YAML
"$BIN" expand "$T/z.yaml" > "$T/z.csv" || fail "(5) expand zip"
want="point,workload,seed,warps
0,\"$T/w.yaml[bx=32,reps=1]\",0,16
1,\"$T/w.yaml[bx=32,reps=1]\",0,64
2,\"$T/w.yaml[bx=128,reps=2]\",0,16
3,\"$T/w.yaml[bx=128,reps=2]\",0,64"
[ "$(cat "$T/z.csv")" = "$want" ] || fail "(5) zip of wl.*: $(cat "$T/z.csv")"
"$BIN" run "$T/z.yaml" -o "$T/z.h5" -j 2 --quiet || fail "(5) run zip"
$PY - "$T/z.h5" <<'PY' || fail "(5) rows"
import sys, h5py
p = h5py.File(sys.argv[1], "r")["points"][...]
assert len(p) == 4 and all(s == b"ok" for s in p["status"]), p["status"]
assert sorted(set(w.decode().split("[")[1] for w in p["workload"])) == ["bx=128,reps=2]", "bx=32,reps=1]"]
PY
cat > "$T/x.yaml" <<YAML
name: excluded
workload: $T/w.yaml
grid:
  wl.bx: [32, 64]
  wl.reps: [1, 2]
  warps: [16, 64]
exclude:
  - {wl.bx: 32, wl.reps: 2}
  - {wl.reps: 1, warps: 64}
YAML
# by hand: 8 points; the first entry drops (32, 2) x 2 warps, the second (32|64, 1, 64): 4 left
want="0,\"$T/w.yaml[bx=32,reps=1]\",0,16
1,\"$T/w.yaml[bx=64,reps=1]\",0,16
2,\"$T/w.yaml[bx=64,reps=2]\",0,16
3,\"$T/w.yaml[bx=64,reps=2]\",0,64"
[ "$("$BIN" expand "$T/x.yaml" | tail -n +2)" = "$want" ] || fail "(5) exclude wl.*: $("$BIN" expand "$T/x.yaml")"
err1() {   # err1 FILE WANT: expand fails with one line containing WANT
  local got
  got=$("$BIN" expand "$1" 2>&1) && fail "accepted: $2"
  [ "$(wc -l <<<"$got")" = 1 ] && grep -qF -- "$2" <<<"$got" || fail "want '$2', got: $got"
}
sed 's/wl.reps: \[1, 2\]}/warps: [16, 64]}/; /^grid:/,$d' "$T/z.yaml" > "$T/m.yaml"
err1 "$T/m.yaml" "m.yaml:4:24: zip entry: warps is a parameter and wl.bx a workload variable"
sed 's/wl.reps: 2}/wl.reps: 3}/' "$T/x.yaml" > "$T/x3.yaml"
err1 "$T/x3.yaml" "exclude: wl.reps=3 is not one of the sweep's values for wl.reps"
# (6) an unknown variable: expand refuses it at its key, naming the workload's variables
sed 's/wl.reps: \[1, 2\]/wl.rep: [1, 2]/' "$T/x.yaml" | sed '/^exclude:/,$d' > "$T/u.yaml"
err1 "$T/u.yaml" "u.yaml:5:3: wl.rep: $T/w.yaml: the workload has no variable 'rep' (vars: bx, reps)"
# (2)
K=$SRC/sweeps/kernels
"$BIN" sim "$K/vecadd.yaml" --dump c="$T/c.npy" > "$T/sim.txt" || fail "(2) --dump c=c.npy"
grep -q '^status: ok' "$T/sim.txt" || fail "(2) status"
text=$("$BIN" sim "$K/vecadd.yaml" --dump c | sed -n '1p')
"$BIN" sim "$K/warpreduce.yaml" --dump out="$T/w.npy" --reference > /dev/null || fail "(2) --reference --dump"
"$BIN" sim "$K/warpreduce.yaml" --dump out="$T/w.bin" > /dev/null || fail "(2) raw"
$PY - "$T" "$text" <<'PY' || fail "(2) np.load"
import sys, numpy as np
t = sys.argv[1]
c = np.load(t + "/c.npy")
assert c.dtype == np.float32 and c.shape == (1024,), (c.dtype, c.shape)
assert list(c) == [float(x) for x in sys.argv[2].split(", ")], "npy differs from the text dump"
assert all(c[i] == 3 * i for i in range(1000)) and all(c[1000:] == -1), c[995:1005]
w = np.load(t + "/w.npy")
assert w.dtype == np.int32 and list(w) == [1872 + 7168 * k for k in range(8)], (w.dtype, w)
assert list(np.fromfile(t + "/w.bin", dtype="<i4")) == list(w)
PY
got=$("$BIN" sim "$K/vecadd.yaml" --dump "c=$T/no/such/dir/c.npy" 2>&1 >/dev/null) || true
[ "$(wc -l <<<"$got")" = 1 ] && grep -q "cannot write the dump of 'c'" <<<"$got" || fail "(2) unwritable: $got"
got=$("$BIN" sim "$K/vecadd.yaml" --dump "c=" 2>&1) && fail "(2) empty file name accepted"
grep -q "expected BUFFER or BUFFER=FILE" <<<"$got" || fail "(2) usage: $got"
# (4)
for set in "cores=1" "preset=ampere" "preset=turing --set cores=4 --set divergence=stack"; do
  # shellcheck disable=SC2086
  "$BIN" sim "$K/vecadd.yaml" --set $set --json > "$T/a.json" || fail "(4) sim $set"
  $PY - "$T/a.json" "$SRC/analysis" <<'PY' || fail "(4) parts of $set"
import json, math, sys
sys.path.insert(0, sys.argv[2])
import warpsweep
j = json.load(open(sys.argv[1]))
parts = [j[k] for k in warpsweep.AREA_PARTS]
assert math.isclose(sum(parts), j["area_mm2"], rel_tol=1e-12), (parts, j["area_mm2"])
assert j["area_rf_mm2"] > 0 and j["area_uncore_mm2"] > 0
PY
done
"$BIN" run "$T/z.yaml" -o "$T/z2.h5" --force --quiet || fail "(4) run"
$PY - "$T/z2.h5" "$SRC/analysis" <<'PY' || fail "(4) parts in the file"
import sys
sys.path.insert(0, sys.argv[2])
import warpsweep
df = warpsweep.load(sys.argv[1])
assert ((df[warpsweep.AREA_PARTS].sum(axis=1) - df.area_mm2).abs() <= 1e-12 * df.area_mm2).all()
PY
# (9)
cat > "$T/i.yaml" <<YAML
name: ident
workload: $K/vecadd.yaml
grid:
  fp64_latency: [8, 16, 32]
  warps: [8, 16]
YAML
"$BIN" run "$T/i.yaml" -o "$T/i.h5" --quiet || fail "(9) run"
"$BIN" info "$T/i.h5" --best cycles --min > "$T/i.txt" || fail "(9) info"
# points: fp64_latency slowest, then warps: 0 (8, 8), 1 (8, 16), 2 (16, 8), 3 (16, 16), 4 (32, 8), 5 (32, 16)
grep -q '^best 2 by cycles' "$T/i.txt" || fail "(9) two lines: $(cat "$T/i.txt")"
grep -qE '^  cycles=[0-9]+  points 1,3,5 \(identical metrics\)  warps=16  fp64_latency=8\|16\|32' "$T/i.txt" ||
  fail "(9) merged line: $(cat "$T/i.txt")"
grep -qE '^  cycles=[0-9]+  points 0,2,4 \(identical metrics\)  warps=8  fp64_latency=8\|16\|32' "$T/i.txt" ||
  fail "(9) merged line (8 warps): $(cat "$T/i.txt")"
grep -q '^no effect: every metric of every row is the same along fp64_latency (' "$T/i.txt" ||
  fail "(9) no-effect line: $(cat "$T/i.txt")"
grep '^no effect' "$T/i.txt" | grep -q warps && fail "(9) warps changes the cycles: $(cat "$T/i.txt")"
# (12)
sed 's/^block: =bx/block: "=bx +\\n0"/; s/^grid: "=cdiv(256, bx)"/grid: "=cdiv(256,\\n bx)"/' "$T/w.yaml" > "$T/nl.yaml"
grep -q 'block: "=bx +\\n0"' "$T/nl.yaml" || fail "(12) sed"
"$BIN" inspect "$T/nl.yaml" --set wl.bx=32 2>&1 | grep -q 'grid \[8, 1, 1\] block \[32, 1, 1\]' ||
  fail "(12) a workload expression over two lines: $("$BIN" inspect "$T/nl.yaml" 2>&1 | head -2)"
printf 'name: nl\nworkload: %s\nbase:\n  regfile_kb: "=64 +\\n64"\ngrid:\n  warps: [8]\n' "$T/w.yaml" > "$T/nls.yaml"
[ "$("$BIN" expand "$T/nls.yaml" --all | sed -n 2p | grep -c ',128,')" = 1 ] || fail "(12) a sweep expression over two lines"
sed 's/^block: =bx/block: "=bxx +\\n1"/' "$T/w.yaml" > "$T/nl2.yaml"
got=$("$BIN" inspect "$T/nl2.yaml" 2>&1) && fail "(12) unknown variable accepted"
[ "$(wc -l <<<"$got")" = 1 ] && grep -qF "'=bxx +\n1': unknown variable 'bxx'" <<<"$got" || fail "(12) newline: $got"
long=$(head -c 2000 /dev/zero | tr '\0' 7)
printf 'name: long\nworkload: %s\ngrid:\n  warps: [%s]\n' "$T/w.yaml" "1${long}x" > "$T/long.yaml"
got=$("$BIN" expand "$T/long.yaml" 2>&1) && fail "(12) long value accepted"
[ "$(wc -l <<<"$got")" = 1 ] && [ "${#got}" -le 511 ] && grep -q "\.\.\..*' is not an integer$" <<<"$got" ||
  fail "(12) long value: ${#got} bytes: $got"
echo "study_round2: ok"
