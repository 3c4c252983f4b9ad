#!/usr/bin/env bash
# Damaged results files in the HDF5 format before 1.8 (no object-header
# checksums, issue 27 item 10): `info FILE`, `pareto FILE`, `merge OUT FILE`
# and `run --resume` on FILE must end with exit 1 and exactly one stderr line
# naming the file, never a signal or a sanitizer report, and merge writes
# nothing. The files are made at test time from a fresh run by
# tests/robustness/damage_h5.py (one kind of damage each, see there); before
# the reader vetted files in a child, attr_dtsize ended in SIGSEGV inside
# H5Aexists and dtype_size / huge_chunk were read as if whole.
set -u
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail
R=$SRC/tests/robustness
# HDF5 itself leaks on some damaged files (as tests/e2e/robustness.sh)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:allocator_may_return_null=1"
"$BIN" run "$R/sw_ok.yaml" -o "$T/good.h5" -q || fail "run (good)"
errors=0
bad() { echo "FAIL: $*"; errors=1; }

# one_line NAME FILE CMD...: exit 1, one stderr line "FILE: ...", nothing that shows a crash
one_line() {
  local name=$1 file=$2
  shift 2
  timeout 120 "$@" >"$T/out" 2>"$T/err"; local rc=$?
  if grep -qaE "AddressSanitizer|LeakSanitizer|runtime error|Segmentation|Aborted|core dumped|HDF5-DIAG" "$T/out" "$T/err"; then
    bad "$name: crash or sanitizer report: $(head -c 600 "$T/err")"; return
  fi
  [ $rc -eq 1 ] || { bad "$name: exit $rc (expected 1): $(head -c 300 "$T/err")"; return; }
  [ "$(wc -l <"$T/err")" -eq 1 ] || { bad "$name: stderr is not one line: $(head -c 600 "$T/err")"; return; }
  case "$(cat "$T/err")" in "$file: "*) ;; *) bad "$name: the line does not start with '$file: ': $(cat "$T/err")" ;; esac
}

for kind in attr_dtsize attr_msgsize dtype_offset dtype_size hash_newline huge_dim huge_chunk; do
  f=$T/$kind.h5
  $PY "$R/damage_h5.py" "$kind" "$T/good.h5" "$f" || { bad "$kind: damage_h5.py failed"; continue; }
  cp "$f" "$T/orig.h5"
  one_line "info $kind" "$f" "$BIN" info "$f"
  one_line "pareto $kind" "$f" "$BIN" pareto "$f" --x area_mm2 --y cycles
  one_line "merge $kind" "$f" "$BIN" merge "$T/m.h5" "$f"
  [ ! -e "$T/m.h5" ] && [ ! -e "$T/m.h5.merge-journal" ] || bad "merge $kind: left $(ls "$T"/m.h5*)"
  one_line "run --resume $kind" "$f" "$BIN" run "$R/sw_ok.yaml" -o "$f" --resume -q
  cmp -s "$f" "$T/orig.h5" || bad "run --resume $kind: the file changed"
  rm -f "$f.journal"
done
# the damaged hash is quoted and escaped in the one line (bytes 4 and 5 of the 16 digits)
h=$("$BIN" info "$T/good.h5" | sed -n 's/^sweep: .*(hash \([0-9a-f]*\))$/\1/p')
[ ${#h} -eq 16 ] || bad "no hash in info's output"
"$BIN" info "$T/hash_newline.h5" 2>"$T/err" >/dev/null
grep -qF "attribute sweep_hash '${h:0:4}\\n\\x1b${h:6}' is not 16 hex digits: damaged" "$T/err" ||
  bad "hash_newline: $(cat "$T/err")"
# the undamaged file in the same older layout is still read (the vetting refuses damage, not the format)
$PY "$R/to_v1.py" "$T/good.h5" "$T/v1.h5"
"$BIN" info "$T/v1.h5" >"$T/out" 2>"$T/err" || bad "info on the undamaged v1 file: $(cat "$T/err")"
grep -q "^points: *2 of 2" "$T/out" || bad "info on the undamaged v1 file: $(head -5 "$T/out")"
[ $errors -eq 0 ] && echo PASS || exit 1
