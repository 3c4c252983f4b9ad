#!/usr/bin/env bash
# Model versions (issue 27 item 5, CHANGES.md): results files and journals
# record the model version; info and --version print it; run --resume and
# merge refuse rows of another version (or of a file from before versions)
# with one line, and take them again once the version is this one.
set -u
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail
S=$SRC/tests/robustness/sw_ok.yaml
mv=$(sed -n 's/^#define WS_MODEL_VERSION \([0-9]*\)$/\1/p' "$SRC/include/warpsweep/store.h")
[ -n "$mv" ] || fail "no WS_MODEL_VERSION in store.h"
"$BIN" --version | grep -q "model version $mv " || fail "--version: $("$BIN" --version)"

o=$T/r.h5
"$BIN" run "$S" -o "$o" -q 2>"$T/err" || fail "run: $(cat "$T/err")"
"$PY" -c "import h5py,sys; f=h5py.File(sys.argv[1]); assert int(f.attrs['model_version']) == $mv, f.attrs['model_version']" "$o" ||
  fail "the results file does not store model_version $mv"
"$BIN" info "$o" >"$T/out" || fail "info"
grep -q "^created: .*, model version $mv\$" "$T/out" || fail "info: $(grep created "$T/out")"

set_attr() { # FILE VALUE|del
  "$PY" - "$1" "$2" <<'PY' || fail "cannot edit $1"
import h5py, sys
with h5py.File(sys.argv[1], 'r+') as f:
    if sys.argv[2] == 'del':
        del f.attrs['model_version']
    else:
        f.attrs.modify('model_version', int(sys.argv[2]))
PY
}
refused() { # NAME WHAT FILE CMD...: exit 1, one line naming the file, both versions and the action
  local name=$1 what=$2 file=$3; shift 3
  "$@" >"$T/out" 2>"$T/err"; local rc=$?
  [ $rc -eq 1 ] || fail "$name: exit $rc (expected 1): $(cat "$T/err")"
  [ "$(wc -l <"$T/err")" -eq 1 ] || fail "$name: stderr is not one line: $(cat "$T/err")"
  grep -q "$file .*this warpsweep's model is version $mv .*refusing to $what across model versions" "$T/err" ||
    fail "$name: message: $(cat "$T/err")"
}
# a results file of another version, then one from before versions
set_attr "$o" $((mv + 1))
"$BIN" info "$o" | grep -q "model version $((mv + 1)) (not this warpsweep's" || fail "info of another version"
refused "resume, results file of version $((mv + 1))" resume "$o" "$BIN" run "$S" -o "$o" -q --resume
grep -q "holds rows of model version $((mv + 1))" "$T/err" || fail "resume message names no version: $(cat "$T/err")"
set_attr "$o" del
"$BIN" info "$o" | grep -q "before model versions" || fail "info of a file without model_version"
refused "resume, results file from before versions" resume "$o" "$BIN" run "$S" -o "$o" -q --resume
grep -q "was written before model versions" "$T/err" || fail "message for an unversioned file: $(cat "$T/err")"

# a journal of another version: bytes 124..127 of its 128-byte header (store/journal.c hdr)
CC=${CC:-cc}
if command -v "$CC" >/dev/null; then
  "$CC" -shared -fPIC -o "$T/shim.so" "$SRC/tests/robustness/damage_on_rename.c" -ldl || fail "cannot build the shim"
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0"
  j=$T/j.h5
  LD_PRELOAD="$T/shim.so" "$BIN" run "$S" -o "$j" -q 2>/dev/null   # fails after the rename, keeps the journal
  [ -s "$j.journal" ] || fail "no journal kept"
  rm -f "$j"
  poke() { "$PY" -c "import struct,sys; f=open(sys.argv[1],'r+b'); f.seek(124); f.write(struct.pack('<I', int(sys.argv[2])))" "$j.journal" "$1"; }
  poke 0
  refused "resume, journal from before versions" resume "$j.journal" "$BIN" run "$S" -o "$j" -q --resume
  poke "$mv"
  "$BIN" run "$S" -o "$j" -q --resume 2>"$T/err" || fail "resume of a journal of this version: $(cat "$T/err")"
  "$BIN" info "$j" | grep -q "^points: *2 of 2 (complete)" || fail "the resumed file is not complete"
else
  echo "note: no C compiler: the journal case is skipped"
fi

# merge: two shards, one of them from another version
"$BIN" run "$S" -o "$T/s0.h5" -q --shard 0/2 2>"$T/err" || fail "shard 0: $(cat "$T/err")"
"$BIN" run "$S" -o "$T/s1.h5" -q --shard 1/2 2>"$T/err" || fail "shard 1: $(cat "$T/err")"
set_attr "$T/s1.h5" $((mv + 1))
refused "merge across versions" merge "$T/s1.h5" "$BIN" merge "$T/m.h5" "$T/s0.h5" "$T/s1.h5"
[ ! -e "$T/m.h5" ] || fail "merge wrote a file"
set_attr "$T/s1.h5" "$mv"
"$BIN" merge "$T/m.h5" "$T/s0.h5" "$T/s1.h5" >/dev/null 2>"$T/err" || fail "merge of one version: $(cat "$T/err")"
"$PY" -c "import h5py,sys; assert int(h5py.File(sys.argv[1]).attrs['model_version']) == $mv" "$T/m.h5" || fail "merged file's model_version"
echo PASS
