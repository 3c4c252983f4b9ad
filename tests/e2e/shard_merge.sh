#!/usr/bin/env bash
# warpsweep run --shard K/N and warpsweep merge: for N = 1..4 every shard
# holds exactly the points with index = K mod N and the merge equals the
# single-process run; --shard auto from SLURM_ARRAY_TASK_*; merge refuses
# shards of another sweep, another shard count, a shard given twice and
# duplicated points; it reports a missing shard and --allow-partial merges
# the rest; --resume refuses another shard's file.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

cat > "$T/s.yaml" <<YAML
name: e2e-shard
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
# 4*3*3*2 = 72 raw points, minus 1*3*1*2 = 6 excluded
TOTAL=66
"$BIN" run "$T/s.yaml" -o "$T/full.h5" -j 2 --quiet || fail "single-process run"

# the points of a shard file are exactly {p < TOTAL : p mod N == K}, and its attributes say so
check_shard() { # file K N
  $PY - "$1" "$2" "$3" "$TOTAL" <<'PY' || fail "shard content $1"
import sys; sys.path.insert(0, "analysis"); import warpsweep
path, k, n, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
df, a = warpsweep.load(path), warpsweep.attrs(path)
want = [p for p in range(total) if p % n == k]
assert list(df.point) == want, (list(df.point)[:8], want[:8])
assert (a["shard_index"], a["shard_count"], a["shard_points"]) == (k, n, len(want)), a
assert a["points_total"] == total
PY
}

for N in 1 2 3 4; do
  files=()
  for ((K = 0; K < N; K++)); do
    "$BIN" run "$T/s.yaml" --shard "$K/$N" -o "$T/n$N-$K.h5" -j 1 2> "$T/err.txt" || fail "shard $K/$N: $(cat "$T/err.txt")"
    want=$(( (TOTAL - K + N - 1) / N ))
    grep -q "$want of $want points" "$T/err.txt" || fail "shard $K/$N summary: $(cat "$T/err.txt")"
    check_shard "$T/n$N-$K.h5" "$K" "$N"
    files+=("$T/n$N-$K.h5")
  done
  # shards in any order
  "$BIN" merge "$T/m$N.h5" $(printf '%s\n' "${files[@]}" | sort -r) 2> "$T/err.txt" || fail "merge N=$N: $(cat "$T/err.txt")"
  grep -q "$TOTAL of $TOTAL points from $N shard file" "$T/err.txt" || fail "merge summary N=$N: $(cat "$T/err.txt")"
  $PY "$SRC/tests/e2e/h5compare.py" "$T/m$N.h5" "$T/full.h5" --complete > /dev/null || fail "merged N=$N differs from the single run"
  $PY - "$T/m$N.h5" "$T/full.h5" <<'PY' || fail "merged attributes N=$N"
import sys; sys.path.insert(0, "analysis"); import warpsweep
m, f = warpsweep.attrs(sys.argv[1]), warpsweep.attrs(sys.argv[2])
for k in ("sweep_name", "sweep_yaml", "sweep_hash", "points_total", "format_version"):
    assert m[k] == f[k], k
assert "shard_index" not in m
PY
done

# the default output names the shard
(cd "$T" && "$BIN" run s.yaml --shard 1/4 --quiet) || fail "default shard output"
[ -f "$T/results/e2e-shard.shard-1-of-4.h5" ] || fail "default shard output name"

# --shard auto: K = (TASK_ID - TASK_MIN) / TASK_STEP, N = TASK_COUNT
SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_MIN=4 SLURM_ARRAY_TASK_COUNT=3 \
  "$BIN" run "$T/s.yaml" --shard auto -o "$T/auto.h5" -j 1 --quiet || fail "--shard auto"
check_shard "$T/auto.h5" 1 3
SLURM_ARRAY_TASK_ID=6 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_STEP=2 \
  "$BIN" run "$T/s.yaml" --shard auto -o "$T/auto2.h5" -j 1 --quiet || fail "--shard auto with a step"
check_shard "$T/auto2.h5" 3 4 # tasks 0 2 4 6: (6 - 0) / 2 = 3
# bad --shard values: usage errors before anything runs
for bad in 3/3 1/0 x 1/2/3 -1/2; do
  if "$BIN" run "$T/s.yaml" --shard "$bad" -o "$T/bad.h5" 2> "$T/err.txt"; then fail "--shard $bad accepted"; fi
  grep -q -- "--shard expects K/N" "$T/err.txt" || fail "--shard $bad message: $(cat "$T/err.txt")"
done
if env -u SLURM_ARRAY_TASK_ID "$BIN" run "$T/s.yaml" --shard auto -o "$T/bad.h5" 2> "$T/err.txt"; then fail "auto outside SLURM"; fi
grep -q "SLURM_ARRAY_TASK_ID" "$T/err.txt" || fail "auto message: $(cat "$T/err.txt")"
[ ! -e "$T/bad.h5" ] || fail "a refused run wrote a file"

# --resume refuses another shard's file
if "$BIN" run "$T/s.yaml" --shard 2/3 -o "$T/n3-1.h5" --resume 2> "$T/err.txt"; then fail "resumed shard 1/3 as 2/3"; fi
grep -q "is shard 1/3: refusing to resume it as shard 2/3" "$T/err.txt" || fail "resume message: $(cat "$T/err.txt")"
"$BIN" run "$T/s.yaml" --shard 1/3 -o "$T/n3-1.h5" --resume 2> "$T/err.txt" || fail "resume complete shard"
grep -q "is complete (22 points); nothing to do" "$T/err.txt" || fail "complete shard: $(cat "$T/err.txt")"

# a missing shard: reported with its point indices, nothing written
if "$BIN" merge "$T/p.h5" "$T/n3-0.h5" "$T/n3-2.h5" 2> "$T/err.txt"; then fail "merged with a shard missing"; fi
grep -q "shard 1/3: no file given: 22 points missing: 1 4 7 10 13 16 19 22 25 28 \.\.\." "$T/err.txt" || fail "missing report: $(cat "$T/err.txt")"
grep -q "22 of 66 points missing (1 shard without a file): nothing written; --allow-partial" "$T/err.txt" || fail "missing refusal: $(cat "$T/err.txt")"
[ ! -e "$T/p.h5" ] || fail "wrote a partial file without --allow-partial"
# --allow-partial: the rest, each row equal to the single run's
"$BIN" merge "$T/p.h5" "$T/n3-0.h5" "$T/n3-2.h5" --allow-partial 2> "$T/err.txt" || fail "--allow-partial"
grep -q "44 of 66 points from 2 shard files (partial: 22 missing" "$T/err.txt" || fail "partial summary: $(cat "$T/err.txt")"
$PY - "$T/p.h5" "$T/full.h5" <<'PY' || fail "partial rows"
import sys; sys.path.insert(0, "analysis"); import warpsweep
p, f = warpsweep.load(sys.argv[1]), warpsweep.load(sys.argv[2])
assert list(p.point) == [i for i in range(66) if i % 3 != 1], list(p.point)
f = f[f.point % 3 != 1].reset_index(drop=True)
for c in p.columns:
    if c != "sim_seconds":
        assert (p[c].astype(str).values == f[c].astype(str).values).all(), c
PY
# the output is not overwritten without --force
if "$BIN" merge "$T/p.h5" "$T/n3-0.h5" "$T/n3-1.h5" "$T/n3-2.h5" 2> "$T/err.txt"; then fail "overwrote"; fi
grep -q "already exists; use --force" "$T/err.txt" || fail "overwrite message"
"$BIN" merge "$T/p.h5" "$T/n3-0.h5" "$T/n3-1.h5" "$T/n3-2.h5" --force --quiet || fail "--force"
$PY "$SRC/tests/e2e/h5compare.py" "$T/p.h5" "$T/full.h5" --complete > /dev/null || fail "--force merge rows"

# another sweep's shard: refused, naming both hashes
sed 's/description: small/description: another/' "$T/s.yaml" > "$T/other.yaml"
"$BIN" run "$T/other.yaml" --shard 1/3 -o "$T/other-1.h5" -j 1 --quiet || fail "other sweep shard"
if "$BIN" merge "$T/x.h5" "$T/n3-0.h5" "$T/other-1.h5" "$T/n3-2.h5" 2> "$T/err.txt"; then fail "merged another sweep's shard"; fi
grep -q "other-1.h5 comes from another sweep" "$T/err.txt" || fail "other sweep message: $(cat "$T/err.txt")"
# another shard count
if "$BIN" merge "$T/x.h5" "$T/n3-0.h5" "$T/n2-1.h5" 2> "$T/err.txt"; then fail "merged 0/3 with 1/2"; fi
grep -q "the shard counts differ" "$T/err.txt" || fail "count message: $(cat "$T/err.txt")"
# the same shard twice
if "$BIN" merge "$T/x.h5" "$T/n3-0.h5" "$T/n3-0.h5" "$T/n3-1.h5" "$T/n3-2.h5" 2> "$T/err.txt"; then fail "shard twice"; fi
grep -q "shard 0/3 is given twice" "$T/err.txt" || fail "twice message: $(cat "$T/err.txt")"
# not a shard file
if "$BIN" merge "$T/x.h5" "$T/full.h5" 2> "$T/err.txt"; then fail "merged a non-shard"; fi
grep -q "not a shard file" "$T/err.txt" || fail "non-shard message: $(cat "$T/err.txt")"
# duplicated points: a file that claims shard 1/3 but holds shard 0's points
cp "$T/n3-0.h5" "$T/fake.h5"
$PY -c "import h5py; f = h5py.File('$T/fake.h5', 'r+'); f.attrs['shard_index'] = 1; f.close()"
if "$BIN" merge "$T/x.h5" "$T/n3-0.h5" "$T/fake.h5" "$T/n3-2.h5" 2> "$T/err.txt"; then fail "merged duplicated points"; fi
grep -q "point 0 is duplicated: in $T/n3-0.h5 and in $T/fake.h5" "$T/err.txt" || fail "duplicate report: $(cat "$T/err.txt")"
grep -q "point 3 is duplicated" "$T/err.txt" || fail "duplicate report (3)"
grep -q "refusing to merge: 22 duplicated points" "$T/err.txt" || fail "duplicate refusal: $(cat "$T/err.txt")"
grep -q "shard 1/3 (.*fake.h5.*): 22 points missing: 1 4 7" "$T/err.txt" || fail "missing with a bad file: $(cat "$T/err.txt")"
[ ! -e "$T/x.h5" ] || fail "refused merge wrote a file"
if "$BIN" merge "$T/x.h5" 2>/dev/null; then fail "merge without inputs"; fi
echo "shard_merge: ok"
