#!/usr/bin/env bash
# kill -9 at random moments (several times, resuming in between), then
# --resume to the end: every point exactly once, rows identical to an
# uninterrupted run (sim_seconds aside).
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

cat > "$T/s.yaml" <<YAML
name: e2e-kill9
workload: [$SRC/sweeps/kernels/latency.yaml, $SRC/sweeps/kernels/saxpy.yaml]
grid:
  warps: [1, 2, 4, 8, 16, 32]
  mem_latency: {from: 100, to: 1000, step: 100}
  scheduler: [lrr, gto, two_level, oldest]
  divergence: [stack, sbi]
  alu_latency: [1, 2, 3, 4, 5, 6, 7, 8]   # enough points (~10 s of work) that every round is cut short
repeat: 3
YAML
total=$("$BIN" expand "$T/s.yaml" --count)
"$BIN" run "$T/s.yaml" -j 2 -o "$T/ref.h5" --quiet || fail "reference run"

RANDOM=${WS_TEST_SEED:-4242}
kills=0
for round in 1 2 3 4 5 6 7 8; do
    "$BIN" run "$T/s.yaml" -j 2 -o "$T/k.h5" --resume --quiet &
    pid=$!
    # a random moment between 0.05 s and 1.3 s
    sleep "$(printf '0.%02d' $((RANDOM % 100)))"
    sleep "$(printf '0.%02d' $((RANDOM % 30 + 5)))"
    if kill -9 $pid 2>/dev/null; then kills=$((kills + 1)); fi
    wait $pid 2>/dev/null || true
    n=0
    if [ -f "$T/k.h5.journal" ]; then
        n=$(( ($(stat -c %s "$T/k.h5.journal") - 128) ))
    fi
    rows=0
    [ -f "$T/k.h5" ] && rows=$($PY -c "import h5py; print(len(h5py.File('$T/k.h5')['points']))")
    echo "round $round: killed; journal $n bytes after the header, k.h5 has $rows rows"
done
[ "$kills" -ge 4 ] || fail "only $kills runs were killed (machine too fast for this sweep?)"
"$BIN" run "$T/s.yaml" -j 2 -o "$T/k.h5" --resume 2> "$T/err.txt" || fail "final resume: $(cat "$T/err.txt")"
grep -qE "$total of $total points|is complete \($total points\)" "$T/err.txt" || fail "final summary: $(cat "$T/err.txt")"
$PY "$SRC/tests/e2e/h5compare.py" "$T/k.h5" "$T/ref.h5" --complete || fail "rows differ after kill -9"

# a torn record (a write cut in the middle) is discarded on --resume
rm -f "$T/k.h5" "$T/k.h5.journal"
"$BIN" run "$T/s.yaml" -j 1 -o "$T/k.h5" --quiet &
pid=$!
# kill it once some records are written (polled: a loaded machine may need seconds, not 0.7 s)
for _ in $(seq 300); do
  [ "$(stat -c %s "$T/k.h5.journal" 2>/dev/null || echo 0)" -gt 4000 ] && break
  sleep 0.1
done
kill -9 $pid; wait $pid 2>/dev/null || true
size=$(stat -c %s "$T/k.h5.journal")
[ "$size" -gt 4000 ] || fail "journal too small to tear ($size)"
truncate -s $((size - 1000)) "$T/k.h5.journal"
"$BIN" run "$T/s.yaml" -j 2 -o "$T/k.h5" --resume 2> "$T/err.txt" || fail "resume after tear: $(cat "$T/err.txt")"
grep -q "discarded a torn last record" "$T/err.txt" || fail "tear not reported: $(cat "$T/err.txt")"
$PY "$SRC/tests/e2e/h5compare.py" "$T/k.h5" "$T/ref.h5" --complete || fail "rows differ after a torn record"
echo "slow_sweep_kill9: ok ($kills kills)"
