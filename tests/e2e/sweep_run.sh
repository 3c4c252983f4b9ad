#!/usr/bin/env bash
# warpsweep run: output file, default path, -j 1 vs -j 2 identical rows,
# refusal without --force, --force, --resume on a complete file, changed
# sweep refused on --resume, info, and analysis/warpsweep.py on the result.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

cat > "$T/s.yaml" <<YAML
name: e2e-run
description: small grid over the latency kernel
workload: $SRC/sweeps/kernels/latency.yaml
base: {issue: scoreboard}
grid:
  warps: [1, 2, 4, 8]
  mem_latency: {from: 100, to: 400, step: 150}
  scheduler: [lrr, gto, two_level]
  divergence: [stack, sbi]
exclude:
  - {scheduler: two_level, warps: 1}
YAML
# 4*3*3*2 = 72 raw, minus 1*3*1*2 = 6 excluded
[ "$("$BIN" expand "$T/s.yaml" --count)" = 66 ] || fail "count"

# default output: results/<name>.h5 relative to the current directory
(cd "$T" && "$BIN" run s.yaml -j 2 2> err.txt) || fail "run -j 2: $(cat "$T/err.txt")"
[ -f "$T/results/e2e-run.h5" ] || fail "default output path"
[ ! -e "$T/results/e2e-run.h5.journal" ] || fail "journal left after a complete run"
grep -q "66 of 66 points" "$T/err.txt" || fail "summary line: $(cat "$T/err.txt")"
grep -q "e2e-run: 66/66 points" "$T/err.txt" || fail "progress line (not a tty): $(cat "$T/err.txt")"

"$BIN" run "$T/s.yaml" -j 1 -o "$T/j1.h5" --quiet || fail "run -j 1"
$PY "$SRC/tests/e2e/h5compare.py" "$T/results/e2e-run.h5" "$T/j1.h5" --complete || fail "-j 1 vs -j 2 rows differ"
$PY "$SRC/tests/e2e/check_load.py" "$T/j1.h5" 66 || fail "analysis/warpsweep.py"

# rows carry the point's values: point 0 is warps=1, mem_latency=100, lrr, stack
$PY - "$T/j1.h5" <<'PY' || fail "row values"
import sys; sys.path.insert(0, "analysis"); import warpsweep
df = warpsweep.load(sys.argv[1])
r = df.iloc[0]
assert (r.warps, r.mem_latency, r.scheduler, r.divergence) == (1, 100, "lrr", "stack"), r
# no excluded combination
assert not ((df.scheduler == "two_level") & (df.warps == 1)).any()
# last axis fastest: points 0 and 1 differ only in divergence
assert (df.iloc[1].divergence, df.iloc[1].scheduler) == ("sbi", "lrr")
assert set(df.status) <= {"ok", "deadlock", "timeout", "invalid", "mismatch", "error", "starved"}
assert (df.status == "ok").all(), df.status.value_counts()
assert (df.cycles > 0).all()
PY

# existing output: refused without --resume/--force
if "$BIN" run "$T/s.yaml" -o "$T/j1.h5" --quiet 2> "$T/err.txt"; then fail "overwrote without --force"; fi
grep -q "already exists; use --resume to continue it or --force to overwrite it" "$T/err.txt" || fail "refusal message"
"$BIN" run "$T/s.yaml" -o "$T/j1.h5" --force --quiet -j 2 || fail "--force"
$PY "$SRC/tests/e2e/h5compare.py" "$T/j1.h5" "$T/results/e2e-run.h5" --complete >/dev/null || fail "--force rows"
# --resume on a complete file: nothing to do
"$BIN" run "$T/s.yaml" -o "$T/j1.h5" --resume 2> "$T/err.txt" || fail "--resume complete"
grep -q "is complete (66 points); nothing to do" "$T/err.txt" || fail "resume complete message: $(cat "$T/err.txt")"
# --resume after the sweep text changed: refused
sed -i 's/description: small/description: changed/' "$T/s.yaml"
if "$BIN" run "$T/s.yaml" -o "$T/j1.h5" --resume 2> "$T/err.txt"; then fail "resumed a changed sweep"; fi
grep -q "the sweep changed since this file was written" "$T/err.txt" || fail "hash message: $(cat "$T/err.txt")"
# --set changes the hash as well
sed -i 's/description: changed/description: small/' "$T/s.yaml"
if "$BIN" run "$T/s.yaml" -o "$T/j1.h5" --resume --set alu_latency=2 2> "$T/err.txt"; then fail "resumed with another --set"; fi

# info: counts by status, columns, best points
"$BIN" info "$T/j1.h5" --best ipc --top 3 > "$T/info.txt" || fail "info"
grep -q "points:    66 of 66 (complete)" "$T/info.txt" || fail "info points"
grep -q "status:    ok 66 deadlock 0" "$T/info.txt" || fail "info status"
"$BIN" info "$T/j1.h5" > "$T/cols.txt" || fail "info"   # to a file: grep -q on a pipe would SIGPIPE info (pipefail)
grep -q "mem_latency int64" "$T/cols.txt" || fail "info columns"   # the list: without a ranking
grep -q "^columns:   [0-9]* (" "$T/info.txt" || fail "info --best: the number of columns"
[ "$(grep -c '^  ipc=' "$T/info.txt")" = 3 ] || fail "info best"
best=$($PY -c "import sys; sys.path.insert(0,'analysis'); import warpsweep; print('%.6g' % warpsweep.load('$T/j1.h5').ipc.max())")
grep -q "^  ipc=$best " "$T/info.txt" || fail "info best value $best: $(cat "$T/info.txt")"
if "$BIN" info "$T/j1.h5" --best ipcc 2>/dev/null; then fail "info unknown metric"; fi

# several sweeps in one file: --name picks one; without it each goes to results/<name>.h5
cat > "$T/multi.yaml" <<YAML
name: first
workload: $SRC/sweeps/kernels/latency.yaml
grid: {warps: [1, 2]}
---
name: second
workload: $SRC/sweeps/kernels/latency.yaml
grid: {warps: [4, 8, 16]}
YAML
(cd "$T" && "$BIN" run multi.yaml --quiet) || fail "multi run"
[ -f "$T/results/first.h5" ] && [ -f "$T/results/second.h5" ] || fail "multi outputs"
"$BIN" run "$T/multi.yaml" --name second -o "$T/second.h5" --quiet || fail "--name"
$PY "$SRC/tests/e2e/h5compare.py" "$T/second.h5" "$T/results/second.h5" --complete >/dev/null || fail "--name rows"
if "$BIN" run "$T/multi.yaml" -o "$T/x.h5" 2>/dev/null; then fail "-o with several sweeps"; fi
echo "sweep_run: ok"
