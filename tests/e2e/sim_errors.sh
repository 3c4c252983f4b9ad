#!/usr/bin/env bash
# Bad input to `warpsweep sim` is refused with one line on stderr (file:line:col
# for workload files) and exit code 1; nothing crashes.
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
K="$WS_SOURCE_DIR/sweeps/kernels"

# refused PATH POS NEEDLE: exit 1, empty stdout, exactly one stderr line
# starting with "PATH:POS: " and containing NEEDLE.
refused() {
  local y=$1 pos=$2 needle=$3 rc
  "$WS_BIN" sim "$y" >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ "$rc" -eq 1 ] || bad "$y: exit $rc, expected 1"
  [ ! -s "$tmp/out" ] || bad "$y: stdout not empty: $(cat "$tmp/out")"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "$y: stderr is not one line: $(cat "$tmp/err")"
  case "$(cat "$tmp/err")" in
    "$y:$pos: "*"$needle"*) echo "ok $(cat "$tmp/err")" ;;
    *) bad "$y: expected '$y:$pos: ...$needle...', got '$(cat "$tmp/err")'" ;;
  esac
}

# missing buffer: line 8 "params: [a, b, c, 1000]", c (never declared) at column 16
cat > "$tmp/missing.yaml" <<YAML
name: missing
kernel: $K/vecadd.ptx
grid: 8
block: 128
buffers:
  a: {type: f32, count: 1024, init: iota}
  b: {type: f32, count: 1024, init: 0}
params: [a, b, c, 1000]
YAML
refused "$tmp/missing.yaml" 8:16 "missing buffer 'c'"

# bad type: line 6 "  a: {type: f33, count: 1024}", f33 at column 13
cat > "$tmp/badtype.yaml" <<YAML
name: badtype
kernel: $K/vecadd.ptx
grid: 8
block: 128
buffers:
  a: {type: f33, count: 1024}
YAML
refused "$tmp/badtype.yaml" 6:13 "bad type 'f33'"

# unknown key with a suggestion: line 4 "blok: 128"
printf 'kernel: %s/vecadd.ptx\ngrid: 8\n\nblok: 128\n' "$K" > "$tmp/key.yaml"
refused "$tmp/key.yaml" 4:1 "unknown key 'blok' in the workload (did you mean 'block'?)"

# a kernel file that does not exist: "kernel: nothere.ptx", value at 1:9
printf 'kernel: nothere.ptx\ngrid: 1\nblock: 1\n' > "$tmp/nok.yaml"
refused "$tmp/nok.yaml" 1:9 "kernel 'nothere.ptx': cannot open"

# --set: an unknown name suggests the closest; a value out of range names the range.
"$WS_BIN" sim "$K/vecadd.yaml" --set mem_latncy=5 >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 1 ] || bad "--set unknown: exit $rc"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "--set unknown: stderr: $(cat "$tmp/err")"
grep -qF "unknown parameter 'mem_latncy' (did you mean 'mem_latency'?)" "$tmp/err" || bad "--set unknown: $(cat "$tmp/err")"
"$WS_BIN" sim "$K/vecadd.yaml" --set warp_size=65 >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 1 ] || bad "--set range: exit $rc"
grep -qF "warp_size: 65 is out of range [1, 64]" "$tmp/err" || bad "--set range: $(cat "$tmp/err")"

# a workload file that does not exist
"$WS_BIN" sim "$tmp/none.yaml" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 1 ] && grep -q "none.yaml: cannot open" "$tmp/err" || bad "missing file: exit $rc: $(cat "$tmp/err")"

# bad command line: exit 2
"$WS_BIN" sim "$K/vecadd.yaml" --frobnicate >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || bad "unknown option: exit $rc"

# --dump of a buffer the workload does not have
"$WS_BIN" sim "$K/vecadd.yaml" --reference --dump zz >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" -eq 1 ] && grep -q "no buffer 'zz'" "$tmp/err" || bad "--dump zz: exit $rc: $(cat "$tmp/err")"

exit $fail
