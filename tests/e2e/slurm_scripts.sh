#!/usr/bin/env bash
# The scripts `warpsweep slurm` writes, run without SLURM (the SLURM_*
# variables set by hand as sbatch would): a resubmission of some tasks only
# (sbatch --array=3,5: SLURM_ARRAY_TASK_MIN=3, COUNT=2) still writes shard K
# of N, the points p with p mod N = K; the merge job carries
# --kill-on-invalid-dep=yes (a failed task must cancel it, not leave it
# pending); both jobs run a copy of the binary (same bytes) that a rebuild of
# the original cannot change.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

cat > "$T/s.yaml" <<YAML
name: e2e-slurm-scripts
workload: $SRC/sweeps/kernels/latency.yaml
base: {issue: scoreboard, preset: seed}
grid:
  warps: [1, 2, 4]
  mem_latency: [100, 200, 400, 800]
YAML
N=6; TOTAL=12
(cd "$T" && "$BIN" slurm s.yaml --tasks $N --dir job -o out/m.h5) > "$T/gen.txt" 2> /dev/null || fail "warpsweep slurm"
A=$T/job/e2e-slurm-scripts.array.sbatch M=$T/job/e2e-slurm-scripts.merge.sbatch S=$T/job/e2e-slurm-scripts.submit.sh

grep -q -- "--shard \"\$K/$N\"" "$A" || fail "the array script does not pass the shard count: $(grep run "$A")"
grep -q -- "--shard auto" "$A" && fail "the array script still uses --shard auto"
grep -qx '#SBATCH --kill-on-invalid-dep=yes' "$M" || fail "merge job without --kill-on-invalid-dep=yes"
grep -q -- '--kill-on-invalid-dep=yes --dependency=afterok' "$S" || fail "submit.sh: $(grep merge= "$S")"

# the binary both scripts run: one copy under job/bin, byte-identical to $BIN
copy=$(sed -n "s/^'\([^']*\)' run .*/\1/p" "$A")
[ -n "$copy" ] && [ "$copy" != "$BIN" ] && [ "$(dirname "$copy")" = "$T/job/bin" ] || fail "binary in the array script: '$copy'"
cmp -s "$copy" "$BIN" || fail "$copy differs from $BIN"
grep -qF "exec '$copy' merge" "$M" || fail "merge job does not run the copy $copy"
# generating again with the same binary reuses the copy
(cd "$T" && "$BIN" slurm s.yaml --tasks $N --dir job -o out/m.h5) > /dev/null 2>&1 || fail "second warpsweep slurm"
[ "$(ls "$T/job/bin" | wc -l)" = 1 ] || fail "job/bin: $(ls "$T/job/bin")"

# resubmission of tasks 3 and 5 only: an array of 2 tasks with ids 3 and 5
for K in 3 5; do
  SLURM_ARRAY_JOB_ID=7 SLURM_ARRAY_TASK_ID=$K SLURM_ARRAY_TASK_MIN=3 SLURM_ARRAY_TASK_MAX=5 SLURM_ARRAY_TASK_COUNT=2 \
    SLURM_CPUS_PER_TASK=1 bash "$A" > "$T/task$K.log" 2>&1 || fail "task $K: $(cat "$T/task$K.log")"
done
for K in 3 5; do
  $PY - "$T/out/m.shards/e2e-slurm-scripts.shard-$K-of-$N.h5" $K $N $TOTAL <<'PY' || fail "shard $K content"
import sys; sys.path.insert(0, "analysis"); import warpsweep
path, k, n, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
df, a = warpsweep.load(path), warpsweep.attrs(path)
want = [p for p in range(total) if p % n == k]
assert list(df.point) == want, (list(df.point), want)
assert (a["shard_index"], a["shard_count"]) == (k, n), a
PY
done
echo "slurm_scripts: ok"
