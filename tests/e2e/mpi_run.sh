#!/usr/bin/env bash
# warpsweep run under mpirun (2 and 3 ranks on this machine): the file equals
# the single-process one; a sweep with one very expensive point finishes
# without the other ranks idling behind it; SIGTERM to the ranks writes what
# is done (exit 3) and --resume under mpirun completes it identically; a rank
# that cannot load the workload ends the job with its own message, no hang.
set -euo pipefail
BIN=${WS_BIN:-$PWD/build/warpsweep}
SRC=${WS_SOURCE_DIR:-$PWD}
PY=/usr/bin/python3
# Under the sanitizer build, LeakSanitizer reports Open MPI's own allocations
# (libmpi and its dlopen'ed components, which it cannot even name) at exit;
# they are not ours to fix, so leak checking is off for this test only.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
"$BIN" --version | grep -q "MPI: yes" || { echo "mpi_run: skipped: this build has no MPI ($("$BIN" --version))"; exit 0; }
command -v mpirun > /dev/null || { echo "FAIL: MPI is built in but mpirun is missing (openmpi-bin)" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
MPIRUN=(timeout 600 mpirun --oversubscribe --allow-run-as-root)

# one expensive point: a copy of the latency workload with 24000 iterations instead of 64
# (about 10x the 48 light points together; sized for ASan on a loaded CI machine)
sed -e "s|kernel: latency.ptx|kernel: $SRC/sweeps/kernels/latency.ptx|" -e 's|params: \[one, out, 64\]|params: [one, out, 24000]|' \
    -e 's|  out: 64$|  out: 24000|' "$SRC/sweeps/kernels/latency.yaml" > "$T/heavy.yaml"
cat > "$T/s.yaml" <<YAML
name: e2e-mpi
workload: [heavy.yaml, $SRC/sweeps/kernels/latency.yaml]
base: {max_cycles: 1000000000}
grid:
  warps: [1, 2, 4, 8, 16, 32, 48, 64]
  mem_latency: [100, 400]
  scheduler: [lrr, gto, two_level]
exclude:                     # the heavy workload only at point 0
  - {workload: heavy.yaml, warps: [2, 4, 8, 16, 32, 48, 64]}
  - {workload: heavy.yaml, mem_latency: [400]}
  - {workload: heavy.yaml, scheduler: [gto, two_level]}
YAML
# 1 heavy point + 8*2*3 = 48 light ones
[ "$("$BIN" expand "$T/s.yaml" --count)" = 49 ] || fail "count"
"$BIN" run "$T/s.yaml" -o "$T/single.h5" -j 2 --quiet || fail "single-process run"
$PY - "$T/single.h5" <<'PY' || fail "the heavy point is not the expensive one"
import sys; sys.path.insert(0, "analysis"); import warpsweep
df = warpsweep.load(sys.argv[1])
assert (df.status == "ok").all()
heavy, light = df.sim_seconds[0], df.sim_seconds[1:].sum()
assert heavy > 3 * light, (heavy, light)   # point 0 alone costs more than 3x the 48 others together
PY

for NP in 2 3; do
  "${MPIRUN[@]}" -np $NP "$BIN" run "$T/s.yaml" -o "$T/mpi$NP.h5" -j 1 > "$T/out.txt" 2> "$T/err.txt" \
    || fail "mpirun -np $NP: $(cat "$T/err.txt")"
  $PY "$SRC/tests/e2e/h5compare.py" "$T/mpi$NP.h5" "$T/single.h5" --complete > /dev/null || fail "-np $NP differs"
  grep -q "mpi$NP.h5: 49 of 49 points" "$T/err.txt" || fail "summary -np $NP: $(cat "$T/err.txt")"
  # progress from rank 0 only: one final progress line ("elapsed"), not one per rank (a
  # periodic "ETA" line may also show 49/49 when it falls due as the run ends)
  [ "$(grep -c 'e2e-mpi: 49/49 points.*elapsed' "$T/err.txt")" = 1 ] || fail "progress lines -np $NP: $(cat "$T/err.txt")"
  # every rank ran points; the rank that ran the expensive point ran few others
  $PY - "$T/err.txt" "$NP" <<'PY' || fail "load balance -np $NP: $(grep MPI: "$T/err.txt")"
import re, sys
line = [l for l in open(sys.argv[1]) if "warpsweep run: MPI:" in l][0]
ranks = [(int(r), int(p), float(s)) for r, p, s in re.findall(r"rank (\d+) (\d+) points \(([\d.]+) s simulated\)", line)]
assert len(ranks) == int(sys.argv[2]), ranks
assert sum(p for _, p, _ in ranks) == 49
assert all(p > 0 for _, p, _ in ranks), ranks
heavy_rank = max(ranks, key=lambda r: r[2])
# it took the heavy point and at most a quarter of the light ones; the others ran the rest meanwhile
assert heavy_rank[1] <= 1 + 48 // 4, ranks
PY
done

# SIGTERM to every rank (what srun and SLURM's time limit do): rank 0 writes what is done, exit 3
cat > "$T/long.yaml" <<YAML
name: e2e-mpi-long
workload: $SRC/sweeps/kernels/matmul.yaml
grid:
  warps: [1, 2, 4, 8, 16, 32, 48, 64]
  mem_latency: {from: 100, to: 1000, step: 100}
  scheduler: [lrr, gto, two_level]
  divergence: [stack, sbi]
YAML
"$BIN" run "$T/long.yaml" -o "$T/long-single.h5" -j 2 --quiet || fail "long single"
"${MPIRUN[@]}" -np 2 "$BIN" run "$T/long.yaml" -o "$T/long.h5" -j 1 > /dev/null 2> "$T/err.txt" &
mp=$!
# until rank 0's journal holds some rows: on a loaded 2-core machine under ASan the ranks
# may take tens of seconds to start; the loop ends as soon as ~17 rows are in (of 480)
for _ in $(seq 2400); do [ -s "$T/long.h5.journal" ] && [ "$(stat -c %s "$T/long.h5.journal")" -gt 30000 ] && break; sleep 0.05; done
[ "$(stat -c %s "$T/long.h5.journal" 2>/dev/null || echo 0)" -gt 30000 ] || fail "no rows in the journal after 120 s"
pids=$(pgrep -f -- "^$BIN run $T/long.yaml" || true)
[ -n "$pids" ] || fail "no ranks to signal"
kill -TERM $pids
rc=0; wait $mp || rc=$?
[ $rc = 3 ] || fail "exit code after SIGTERM: $rc: $(tail -5 "$T/err.txt")"
grep -q "(interrupted: warpsweep run --resume continues)" "$T/err.txt" || fail "interrupted summary: $(cat "$T/err.txt")"
$PY - "$T/long.h5" <<'PY' || fail "partial file"
import sys; sys.path.insert(0, "analysis"); import warpsweep
df = warpsweep.load(sys.argv[1]); total = warpsweep.attrs(sys.argv[1])["points_total"]
assert 0 < len(df) < total, (len(df), total)
assert df.point.is_unique
PY
"${MPIRUN[@]}" -np 3 "$BIN" run "$T/long.yaml" -o "$T/long.h5" -j 1 --resume > /dev/null 2> "$T/err.txt" || fail "--resume: $(cat "$T/err.txt")"
$PY "$SRC/tests/e2e/h5compare.py" "$T/long.h5" "$T/long-single.h5" --complete > /dev/null || fail "resumed MPI run differs"
# --resume refused on a changed sweep, before any rank simulates
sed 's/step: 100/step: 150/' "$T/long.yaml" > "$T/long2.yaml"
if "${MPIRUN[@]}" -np 2 "$BIN" run "$T/long2.yaml" -o "$T/long.h5" --resume > /dev/null 2> "$T/err.txt"; then fail "resumed a changed sweep"; fi
grep -q "the sweep changed since this file was written" "$T/err.txt" || fail "changed sweep message: $(cat "$T/err.txt")"

# a rank whose node cannot read the workload: the same sweep text in another directory,
# where heavy.yaml (relative) does not exist; rank 1 gets it (MPMD), rank 0 the good one
mkdir "$T/elsewhere"
cp "$T/s.yaml" "$T/elsewhere/s.yaml"
start=$SECONDS
if "${MPIRUN[@]}" -np 1 "$BIN" run "$T/s.yaml" -o "$T/err.h5" -j 1 : -np 1 "$BIN" run "$T/elsewhere/s.yaml" -o "$T/err.h5" -j 1 \
    > /dev/null 2> "$T/err.txt"; then fail "a rank without its workload did not fail the job"; fi
# a hang would run into mpirun's 600 s timeout; a loaded machine under ASan needs far less than 300 s
[ $((SECONDS - start)) -lt 300 ] || fail "took $((SECONDS - start)) s to end (hang?)"
grep -q "elsewhere/heavy.yaml" "$T/err.txt" || fail "the failing rank's own message: $(cat "$T/err.txt")"
grep -q "warpsweep run: rank 1 of 2 on .*: cannot load the sweep (the message above); ending the job" "$T/err.txt" \
  || fail "rank message: $(cat "$T/err.txt")"
echo "mpi_run: ok"
