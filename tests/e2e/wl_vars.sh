#!/usr/bin/env bash
# Workload variables (issue 27 item 4; README "Workload variables"): a workload's vars: and
# "=EXPR" values, `sim --set wl.NAME=V`, and a sweep whose grid takes wl.NAME as an axis
# (launch shape and problem size), each variant loaded with its values. Expected shapes by
# hand: n = 16384, block b -> grid cdiv(16384, b) = 512, 256, 128, 64 for b = 32 .. 256.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
cat > "$T/w.yaml" <<YAML
name: streamv
kernel: $SRC/sweeps/kernels/saxpy.ptx
entry: _Z5saxpyifPKfPf
vars: {block: 64, n: 8192}
grid: "=cdiv(n, block)"
block: =block
regs_per_thread: 10
buffers:
  x: {type: f32, count: =n, init: iota}
  y: {type: f32, count: "=n", init: {iota: {start: 1, step: 1}}}
params: [=n, 2.5, x, y]
work: {name: elements, per_launch: =n}
expect:
  y: {iota: {start: 1, step: 3.5}}
YAML
shape() { "$BIN" inspect "$T/w.yaml" "$@" 2>&1 | sed -n 's/^workload [^ ]* ([^)]*): \(grid \[[0-9, ]*\] block \[[0-9, ]*\]\).*/\1/p'; }
[ "$(shape)" = "grid [128, 1, 1] block [64, 1, 1]" ] || fail "defaults: $(shape)"
out=$("$BIN" sim "$T/w.yaml" --set wl.block=256 --set wl.n=4096)
grep -q '^status: ok' <<<"$out" || fail "sim --set wl.*: $out"
grep -q '^work_units: 4096 ' <<<"$out" || fail "work_units: $(grep work_units <<<"$out")"
# errors: one line with file:line:col
err() {   # err SED WANT [--set ...]
  sed "$1" "$T/w.yaml" > "$T/bad.yaml"; shift
  local want=$1; shift
  got=$("$BIN" sim "$T/bad.yaml" "$@" 2>&1) && fail "accepted: $want"
  [ "$(wc -l <<<"$got")" = 1 ] && grep -qF -- "$want" <<<"$got" || fail "want '$want', got: $got"
}
err 's/cdiv(n, block)/cdiv(n, blok)/' "bad.yaml:5:17: '=cdiv(n, blok)': unknown variable 'blok'"
err 's/block: =block/block: =block \/ 0/' "bad.yaml:6:15: '=block / 0': division by zero"
err 's/block: =block/block: =block)/' "'=block)': unexpected text after the expression"
err 's/vars: {block: 64, n: 8192}/vars: [64]/' "bad.yaml:4:7: vars must be a mapping"
err 's/vars: {block: 64, n: 8192}/vars: {block: big, n: 8192}/' "bad.yaml:4:15: block: 'big' is not a number"
got=$("$BIN" sim "$T/w.yaml" --set wl.blk=3 2>&1) && fail "unknown wl var accepted"
grep -q "the workload has no variable 'blk' (vars: block, n)" <<<"$got" || fail "$got"

# a sweep over the block size (and the problem size from base): 4 variants x 2 warp counts
cat > "$T/s.yaml" <<YAML
name: blocks
workload: $T/w.yaml
base:
  wl.n: 16384
grid:
  wl.block: [32, 64, 128, 256]
  warps: [16, 64]
YAML
[ "$("$BIN" expand "$T/s.yaml" --count)" = 8 ] || fail "expand --count"
"$BIN" run "$T/s.yaml" -o "$T/s.h5" -j 2 --quiet || fail "run"
$PY - "$T/s.h5" "$T/s.png" "$SRC/analysis" <<'PY' || fail "rows / plot"
import sys
sys.path.insert(0, sys.argv[3])
import warpsweep
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
df = warpsweep.load(sys.argv[1])
assert len(df) == 8 and set(df.status.astype(str)) == {"ok"}, df[["workload", "status"]]
assert sorted(set(df["wl.block"])) == [32, 64, 128, 256], set(df["wl.block"])
assert set(df.work_units) == {16384.0}, set(df.work_units)
for b, g in df.groupby("wl.block"):
    assert set(g.workload.astype(str)) == {sys.argv[1].replace("s.h5", "w.yaml") + "[block=%d]" % b} or len(set(g.workload)) == 1
fig, ax = plt.subplots()
for w, g in df.groupby("warps"):
    g = g.sort_values("wl.block")
    ax.plot(g["wl.block"], g["work_per_area"], marker="o", label="%d warps" % w)
ax.set_xscale("log", base=2); ax.set_xlabel("block size (wl.block)"); ax.set_ylabel("work_per_area"); ax.legend()
fig.savefig(sys.argv[2])
PY
[ "$(head -c 8 "$T/s.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "not a PNG"
# the grid of each variant, by hand
for b in 32 64 128 256; do
  g=$((16384 / b))
  [ "$(shape --set wl.block=$b --set wl.n=16384)" = "grid [$g, 1, 1] block [$b, 1, 1]" ] || fail "block $b: $(shape --set wl.block=$b)"
done
# sweep errors: a variable the workload lacks (at its key), wl.* and a parameter in one zip entry
# (a zip of wl.* alone: tests/e2e/study_round2.sh)
sed 's/  wl.block: \[32, 64, 128, 256\]/  wl.blok: [32, 64]/' "$T/s.yaml" > "$T/bad.yaml"
got=$("$BIN" run "$T/bad.yaml" -o "$T/bad.h5" 2>&1) && fail "wl.blok accepted"
grep -q "bad.yaml:6:3: wl.blok: .*the workload has no variable 'blok'" <<<"$got" || fail "$got"
printf 'name: z\nworkload: %s\nzip:\n  - {wl.block: [32], warps: [8]}\n' "$T/w.yaml" > "$T/zip.yaml"
got=$("$BIN" expand "$T/zip.yaml" 2>&1) && fail "wl and a parameter in one zip entry accepted"
grep -q "zip.yaml:4:22: zip entry: warps is a parameter and wl.block a workload variable" <<<"$got" || fail "$got"
echo "workload variables: vars, =EXPR, sim --set wl.*, a sweep over block size (runs and plots)"
