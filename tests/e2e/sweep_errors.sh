#!/usr/bin/env bash
# Every kind of bad input stops `warpsweep run` before any simulation with
# one line file:line:col: message (exit 1) and writes no output file.
set -euo pipefail
BIN=${WS_BIN:-$PWD/build/warpsweep}
SRC=${WS_SOURCE_DIR:-$PWD}
T=$(mktemp -d)
trap 'chmod -R u+w "$T"; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
WL=$SRC/sweeps/kernels/latency.yaml

# expect_error YAML_BODY EXPECTED_STDERR_LINE [extra args]
expect_error() {
    local body=$1 want=$2
    shift 2
    printf '%s\n' "$body" > "$T/bad.yaml"
    rm -rf "$T/out"
    set +e
    "$BIN" run "$T/bad.yaml" -o "$T/out/x.h5" "$@" > "$T/stdout" 2> "$T/stderr"
    local rc=$?
    set -e
    [ "$rc" = 1 ] || fail "exit $rc (want 1) for: $want"
    [ "$(wc -l < "$T/stderr")" = 1 ] || fail "not one line: $(cat "$T/stderr")"
    [ "$(cat "$T/stderr")" = "$want" ] || fail "got  '$(cat "$T/stderr")'
want '$want'"
    [ ! -e "$T/out/x.h5" ] && [ ! -e "$T/out/x.h5.journal" ] || fail "output written for: $want"
}
F=$T/bad.yaml
expect_error "workload: $WL
grid:
  warpz: [1, 2]" "$F:3:3: unknown parameter 'warpz' (did you mean 'warps'?)"
expect_error "workload: $WL
grid:
  warps: [1, 2000]" "$F:3:14: parameter warps: 2000 is out of range [1, 1024] warps"
expect_error "workload: $WL
grid:
  divergence: [stack, ipdom]" "$F:3:23: parameter divergence: 'ipdom' is not one of stack|sbi|barrier|multipath|dualpath|aware|tbc"
expect_error "workload: $WL
base: {warp_size: 32.5}" "$F:2:19: parameter warp_size: '32.5' is not an integer"
expect_error "workload: $WL
zip:
  - {mem_latncy: [1]}" "$F:3:6: unknown parameter 'mem_latncy' (did you mean 'mem_latency'?)"
expect_error "workload: $WL
zip:
  - {alu_latency: [1, 2, 3], sfu_latency: [10, 20]}" "$F:3:43: zip lists of unequal length: sfu_latency has 2 values, alu_latency (line 3) has 3"
expect_error "workload: $WL
grid:" "$F:2:1: the grid is empty: give at least one parameter with its values"
expect_error "workload: $WL
grid:
  warps: {from: 1, to: 1000, step: 1}
  mem_latency: {from: 1, to: 100000, step: 1}
  alu_latency: {from: 1, to: 1000, step: 1}" "$F:2:1: sweep bad has 100000000000 points, more than the limit of 1000000000 (raise it with --max-points N)"
expect_error "workload: $WL
grid:
  warps: {from: 1, to: 100, step: 1}
  mem_latency: {from: 1, to: 100, step: 1}" "$F:2:1: sweep bad has 10000 points, more than the limit of 5000 (raise it with --max-points N)" --max-points 5000
expect_error "workload: $WL
base:
  warps: \"=max_ctas + 1\"
  max_ctas: \"=warps\"" "$F:4:15: derived values form a cycle: warps -> max_ctas -> warps"
expect_error "workload: $WL
base:
  regfile_kb: \"=warps * regs_per_thrd\"" "$F:3:25: parameter regfile_kb: unknown name 'regs_per_thrd' in expression (did you mean 'regs_per_thread'?)"
expect_error "workload: $WL
nmae: x" "$F:2:1: unknown key 'nmae' (did you mean 'name'?)"
expect_error "workload: $WL
grid: {warps: [1, 2]}
exclude:
  - {warps: 3}" "$F:4:13: exclude: warps=3 is not one of the sweep's values for warps"
expect_error "workload: $WL
grid: {warps: [1, 2]}
repeat: -1" "$F:3:9: repeat: expected an integer in [1, 1000000]"
expect_error "workload: $WL
grid: {warps: [1, 2]
" "$F:4:1: YAML: did not find expected ',' or '}' while parsing a flow mapping"
# --set
expect_error "workload: $WL
grid: {warps: [1, 2]}" "--set max_cycle=3: unknown parameter 'max_cycle' (did you mean 'max_cycles'?)" --set max_cycle=3
expect_error "workload: $WL
grid: {warps: [1, 2]}" "--set mem_latency=0: parameter mem_latency: 0 is out of range [1, 100000] cycles" --set mem_latency=0
# a broken workload: its own error passes through
printf 'name: broken\nkernel: latency.ptx\nentry: latency\ngrid: 1\nblock: 32\nbogus_key: 1\n' > "$T/broken.yaml"
cp "$SRC/sweeps/kernels/latency.ptx" "$T/"
printf 'workload: broken.yaml\ngrid: {warps: [1]}\n' > "$T/bad.yaml"
set +e; "$BIN" run "$T/bad.yaml" -o "$T/out/x.h5" 2> "$T/stderr"; rc=$?; set -e
[ "$rc" = 1 ] || fail "broken workload exit $rc"
grep -q "^$T/broken.yaml:6:1: " "$T/stderr" || fail "broken workload message: $(cat "$T/stderr")"
[ ! -e "$T/out/x.h5.journal" ] || fail "journal written for a broken workload"
printf 'workload: missing.yaml\ngrid: {warps: [1]}\n' > "$T/bad.yaml"
if "$BIN" run "$T/bad.yaml" -o "$T/out/x.h5" 2> "$T/stderr"; then fail "missing workload"; fi
grep -q "missing.yaml" "$T/stderr" || fail "missing workload message: $(cat "$T/stderr")"
# an unwritable output directory: refused before any simulation
printf 'workload: %s\ngrid: {warps: [1]}\n' "$WL" > "$T/ok.yaml"
mkdir -p "$T/ro" && chmod a-w "$T/ro"
if [ "$(id -u)" != 0 ]; then
    if "$BIN" run "$T/ok.yaml" -o "$T/ro/x.h5" 2> "$T/stderr"; then fail "unwritable output"; fi
    grep -q "cannot create" "$T/stderr" || fail "unwritable message: $(cat "$T/stderr")"
fi
if "$BIN" run "$T/ok.yaml" -o /proc/warpsweep-cannot/x.h5 2> "$T/stderr"; then fail "unwritable output"; fi
grep -q "cannot create" "$T/stderr" || fail "unwritable message: $(cat "$T/stderr")"
# a missing sweep file, bad command lines
if "$BIN" run "$T/nope.yaml" 2> "$T/stderr"; then fail "missing sweep"; fi
grep -q "nope.yaml: cannot open" "$T/stderr" || fail "missing sweep message"
set +e
"$BIN" run "$T/ok.yaml" --resume --force 2>/dev/null; [ $? = 2 ] || fail "--resume --force"
"$BIN" run "$T/ok.yaml" -j 0 2>/dev/null; [ $? = 2 ] || fail "-j 0"
"$BIN" run 2>/dev/null; [ $? = 2 ] || fail "no sweep"
set -e
echo "sweep_errors: ok"
