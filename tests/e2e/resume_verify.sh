#!/usr/bin/env bash
# run and run --resume re-read the results file they just built (issue 27
# item 11): when it is damaged between its rename into place and that re-read
# (tests/robustness/damage_on_rename.c cuts it, LD_PRELOAD), the run fails
# with one line (exit 1) and keeps its journal, so a later --resume rebuilds
# the file; before, the run exited 0 and left the broken file.
set -u
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail
CC=${CC:-cc}
command -v "$CC" >/dev/null || { echo "SKIP: no C compiler for the shim"; exit 0; }
"$CC" -shared -fPIC -o "$T/shim.so" "$SRC/tests/robustness/damage_on_rename.c" -ldl || fail "cannot build the shim"
# an ASan binary wants its runtime first; the shim only wraps rename
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0"
S=$SRC/tests/robustness/sw_ok.yaml
o=$T/r.h5
damaged_run() { # NAME ARGS...: exit 1, one line naming the file and the kept journal
  local name=$1; shift
  LD_PRELOAD="$T/shim.so" "$BIN" run "$S" -o "$o" -q "$@" >"$T/out" 2>"$T/err"; local rc=$?
  [ $rc -eq 1 ] || fail "$name: exit $rc (expected 1): $(cat "$T/err")"
  [ "$(wc -l <"$T/err")" -eq 1 ] || fail "$name: stderr is not one line: $(cat "$T/err")"
  grep -q "^warpsweep run: $o: .*(the journal $o.journal is kept: run --resume rebuilds the file)\$" "$T/err" ||
    fail "$name: message: $(cat "$T/err")"
  [ -s "$o.journal" ] || fail "$name: the journal is gone"
}
damaged_run "run"
damaged_run "run --resume" --resume
"$BIN" run "$S" -o "$o" -q --resume 2>"$T/err" || fail "resume without damage: $(cat "$T/err")"
"$BIN" info "$o" >"$T/out" || fail "info after the resume"
grep -q "^points: *2 of 2 (complete)" "$T/out" || fail "info after the resume: $(head -5 "$T/out")"
[ ! -e "$o.journal" ] || fail "the journal stayed after a complete resume"
echo PASS
