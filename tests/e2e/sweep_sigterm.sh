#!/usr/bin/env bash
# SIGTERM / SIGINT: the run takes no new points, writes what is done into a
# valid file and exits 3; --resume completes it with every point exactly
# once and rows identical to an uninterrupted run.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

cat > "$T/s.yaml" <<YAML
name: e2e-sigterm
workload: $SRC/sweeps/kernels/latency.yaml
grid:
  warps: [1, 2, 4, 8, 16, 32]
  mem_latency: {from: 100, to: 1000, step: 100}
  scheduler: [lrr, gto, two_level, oldest, swl]
  divergence: [stack, sbi]
  alu_latency: [1, 8]
YAML
total=$("$BIN" expand "$T/s.yaml" --count)
[ "$total" = 1200 ] || fail "count $total"
"$BIN" run "$T/s.yaml" -j 2 -o "$T/ref.h5" --quiet || fail "reference run"

for sig in TERM INT; do
    rm -f "$T/int.h5" "$T/int.h5.journal"
    "$BIN" run "$T/s.yaml" -j 2 -o "$T/int.h5" 2> "$T/err.txt" &
    pid=$!
    sleep 1
    kill -s $sig $pid
    set +e; wait $pid; rc=$?; set -e
    [ "$rc" = 3 ] || fail "SIG$sig: exit $rc (want 3): $(cat "$T/err.txt")"
    grep -q "(interrupted: warpsweep run --resume continues)" "$T/err.txt" || fail "message: $(cat "$T/err.txt")"
    [ -f "$T/int.h5.journal" ] || fail "journal removed after an interrupted run"
    # the file is valid and holds part of the sweep
    rows=$($PY -c "import sys; sys.path.insert(0,'analysis'); import warpsweep; print(len(warpsweep.load('$T/int.h5')))")
    [ "$rows" -gt 0 ] && [ "$rows" -lt "$total" ] || fail "SIG$sig: $rows rows after the interrupt"
    # (info's output captured first: grep -q stopping early would SIGPIPE info under pipefail)
    info=$("$BIN" info "$T/int.h5") || fail "info on a partial file: exit $?"
    grep -q "points:    $rows of $total (incomplete" <<<"$info" || fail "info on a partial file: $info"
    # a partial file is refused without --resume
    if "$BIN" run "$T/s.yaml" -o "$T/int.h5" --quiet 2>/dev/null; then fail "partial file overwritten"; fi
    "$BIN" run "$T/s.yaml" -j 2 -o "$T/int.h5" --resume 2> "$T/err.txt" || fail "resume: $(cat "$T/err.txt")"
    grep -q "$total of $total points" "$T/err.txt" || fail "resume summary: $(cat "$T/err.txt")"
    $PY "$SRC/tests/e2e/h5compare.py" "$T/int.h5" "$T/ref.h5" --complete || fail "SIG$sig: rows differ"
    [ ! -e "$T/int.h5.journal" ] || fail "journal left after completion"
    echo "SIG$sig: interrupted at $rows of $total, resumed"
done

# --resume from the .h5 alone (journal lost): the rows are imported
rm -f "$T/int.h5" "$T/int.h5.journal"
"$BIN" run "$T/s.yaml" -j 2 -o "$T/int.h5" --quiet &
pid=$!
sleep 1
kill -TERM $pid
set +e; wait $pid; rc=$?; set -e
[ "$rc" = 3 ] || fail "exit $rc"
rm "$T/int.h5.journal"
"$BIN" run "$T/s.yaml" -j 2 -o "$T/int.h5" --resume --quiet || fail "resume from .h5"
$PY "$SRC/tests/e2e/h5compare.py" "$T/int.h5" "$T/ref.h5" --complete || fail "resume from .h5: rows differ"
echo "sweep_sigterm: ok"
