#!/usr/bin/env bash
# Strict .npy headers (issue 27 item 11): every malformed header that
# tests/robustness/gen_npy.py writes (negative or huge dimensions, '|f4',
# '<f4junk', '<f04', Falsehood, a key's text inside a string value, a duplicate
# key, trailing junk, control bytes) is refused with exactly one stderr line,
# "PATH: offset 10: " and the message gen_npy.py gives, exit 1, no crash; the
# well-formed header is read. The buffer is saxpy's x (256 f32, x[i] = i).
set -u
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail
errors=0
bad() { echo "FAIL: $*"; errors=1; }
$PY "$SRC/tests/robustness/gen_npy.py" "$T" >"$T/cases" || fail "gen_npy.py"
n=0
while IFS=$'\t' read -r name want; do
  n=$((n + 1))
  sed -e "s|kernel: saxpy.ptx|kernel: $SRC/sweeps/kernels/saxpy.ptx|" \
      -e "s|x: {type: f32, count: 256, init: iota}.*|x: {type: f32, init: {file: $name.npy}}|" \
      "$SRC/sweeps/kernels/saxpy.yaml" >"$T/$name.yaml"
  timeout 120 "$BIN" sim "$T/$name.yaml" >"$T/out" 2>"$T/err"; rc=$?
  if grep -qaE "AddressSanitizer|runtime error|Segmentation|Aborted|core dumped" "$T/out" "$T/err"; then
    bad "$name: crash or sanitizer report: $(head -c 400 "$T/err")"; continue
  fi
  if [ -z "$want" ]; then
    [ $rc -eq 0 ] && grep -q "^status: ok" "$T/out" || bad "$name: exit $rc: $(head -c 300 "$T/out" "$T/err")"
    continue
  fi
  [ $rc -eq 1 ] || { bad "$name: exit $rc (expected 1): $(head -c 300 "$T/err")"; continue; }
  [ "$(wc -l <"$T/err")" -eq 1 ] || { bad "$name: stderr is not one line: $(cat "$T/err")"; continue; }
  expect="$T/$name.npy: offset 10: $want"
  grep -qF -- "$expect" "$T/err" || bad "$name: expected '$expect', got '$(cat "$T/err")'"
done <"$T/cases"
[ $n -ge 15 ] || bad "only $n cases"
# a file name with a newline is quoted and escaped: the message stays one line
printf '\223NUMPY\001\000' >"$T/a
b.npy"
sed -e "s|kernel: saxpy.ptx|kernel: $SRC/sweeps/kernels/saxpy.ptx|" \
    -e 's|x: {type: f32, count: 256, init: iota}.*|x: {type: f32, init: {file: "a\\nb.npy"}}|' \
    "$SRC/sweeps/kernels/saxpy.yaml" >"$T/nl.yaml"
"$BIN" sim "$T/nl.yaml" >/dev/null 2>"$T/err"; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
  grep -qF "'$T/a\nb.npy': offset 0: expected the .npy magic" "$T/err" || bad "newline in the name: exit $rc: $(cat "$T/err")"
[ $errors -eq 0 ] && echo "PASS ($n cases)" || exit 1
