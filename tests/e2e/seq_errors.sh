#!/bin/bash
# Issue 16, launch sequences: bad workload files get one line with
# file:line:col, and a sequence that cannot run ends with a status (which
# launch, why), never a crash. Positions counted by hand from the texts below.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
cp "$SRC"/tests/kernels/seq/pingpong.ptx "$T"/
HEAD='kernel: pingpong.ptx
buffers:
  a: {type: u32, count: 64, init: iota}
  b: {type: u32, count: 64, init: 0}'
L='{entry: dbl, grid: 1, block: 64, params: [a, b, 64], regs_per_thread: 10}'

# bad NAME EXPECTED-PREFIX TEXT-AFTER-HEAD: exit 1, exactly one line, starting with the prefix
bad() {
  printf '%s\n%s\n' "$HEAD" "$3" > "$T/$1.yaml"
  if "$BIN" sim "$T/$1.yaml" > "$T/out" 2> "$T/err"; then fail "$1: accepted"; fi
  [ "$(wc -l < "$T/err")" = 1 ] || fail "$1: not one line: $(cat "$T/err")"
  grep -q "^$T/$1.yaml:$2" "$T/err" || fail "$1: want $2, got $(cat "$T/err")"
}
bad set_buffer "6:19: set on unknown buffer 'c'" "launches:
  - set: {buffer: c, value: 0}
  - $L"
bad until_buffer "6:28: until on unknown buffer 'bb' (did you mean 'b'?)" "launches:
  - loop: {until: {buffer: bb, equals: 0}, max: 3, body: [$L]}"
bad no_max "6:12: loop: until needs max" "launches:
  - loop: {until: {buffer: b, equals: 0}, body: [$L]}"
bad both_loops "6:23: loop: give either repeat" "launches:
  - loop: {repeat: 2, until: {buffer: b, equals: 0}, max: 3, body: [$L]}"
bad both_forms "5:1: 'entry' at the top level and 'launches'" "entry: dbl
launches:
  - $L"
bad entry "6:13: $T/pingpong.ptx: no .entry named 'dbx' (the file has: dbl, inc1)" "launches:
  - {entry: dbx, grid: 1, block: 64, params: [a, b, 64]}"
bad which_entry "6:5: $T/pingpong.ptx: 2 .entry kernels in the file" "launches:
  - {grid: 1, block: 64, params: [a, b, 64]}"
bad grid "6:24: grid: 0 is out of range" "launches:
  - {entry: dbl, grid: 0, block: 64, params: [a, b, 64]}"
bad params "6:46: params has 2 values but kernel dbl declares 3 .param" "launches:
  - {entry: dbl, grid: 1, block: 64, params: [a, b]}"
bad kernel_file "6:14: kernel 'nope.ptx': cannot open" "launches:
  - {kernel: nope.ptx, entry: dbl, grid: 1, block: 64, params: [a, b, 64]}"
bad set_type "6:29: set value (buffer 'a', u32): '1.5' is not an integer" "launches:
  - set: {buffer: a, value: 1.5}
  - $L"

# runs that cannot complete: a status and which launch, exit 1, no crash
printf '%s\nlaunches:\n  - %s\n  - {entry: inc1, name: wide, grid: 1, block: 1024, params: [b, a, 64]}\n' "$HEAD" "$L" \
  > "$T/wide.yaml"
out=$("$BIN" sim "$T/wide.yaml" --set warps=16 2>&1) && fail "wide: ok with warps=16"
grep -q '^status: invalid' <<< "$out" || fail "wide: $out"
grep -q '^message: launch wide: warp slots: a CTA of 1024 threads needs 32 warps' <<< "$out" || fail "wide: $out"
grep -q '^cycles: 0 ' <<< "$out" || fail "wide: the first launch must not run when a later one cannot ($out)"
# max_cycles reached in the overhead between two launches (dbl takes far fewer than 3000 cycles)
printf '%s\nlaunches:\n  - %s\n  - %s\n' "$HEAD" "$L" "$L" > "$T/two.yaml"
out=$("$BIN" sim "$T/two.yaml" --set max_cycles=3000 --set launch_overhead=5000 2>&1) && fail "two: ok"
grep -q '^status: timeout' <<< "$out" || fail "two: $out"
grep -q 'reached between launches (1 launches finished)' <<< "$out" || fail "two: $out"
grep -q '^cycles: 3000 ' <<< "$out" || fail "two: cycles must stop at max_cycles ($out)"
# a timeout inside the second launch names it (its start: the first launch's cycles, overhead 0)
c1=$("$BIN" sim "$T/two.yaml" --set launch_overhead=0 --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["per_launch"][0]["cycles"])')
out=$("$BIN" sim "$T/two.yaml" --set launch_overhead=0 --set max_cycles=$((c1 + 3)) 2>&1) && fail "two inside: ok"
grep -q "^message: launch 1 (dbl, iteration 0): max_cycles=$((c1 + 3)) reached with 0 of 1 CTAs finished" <<< "$out" ||
  fail "two inside: $out"
echo ok
