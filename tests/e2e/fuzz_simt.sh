#!/bin/bash
# Differential fuzzing of the SIMT model (issue 10): a bounded share of tests/fuzz/fuzz.py.
# Random structured kernels (tests/fuzz/gen.py, fixed seeds) run under the MIMD reference and
# a covering array of 35 configuration cells per program (every pair of values of divergence
# (7 schemes) x scheduler x issue x warp_size x cores x l1_kb, greedily, tests/fuzz/README.md;
# 35 = 7 schemes x 5 schedulers); every buffer must equal the reference's, every status must be the
# expected one (tests/fuzz/README.md). A failure prints the seed, the configuration and a
# minimised program.
#
# Every feature of the generator is on (all of issue 10's bugs and the fuzzer's own findings
# are fixed; tests/fuzz/README.md lists the expected statuses). --lock-timeout-ok: a stack
# spin-lock livelock whose recurrence is not found within max_cycles ends `timeout` (rare).
set -euo pipefail
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
count=${WS_FUZZ_COUNT:-700}       # x 35 cells: about the points of 800 x 30
batch=${WS_FUZZ_BATCH:-50}
# under ASan/UBSan everything is ~10x slower: a smaller share there
if [ -n "${WS_BUILD_DIR:-}" ] && grep -q '^WS_SANITIZE:BOOL=ON' "$WS_BUILD_DIR/CMakeCache.txt" 2>/dev/null; then
  count=${WS_FUZZ_COUNT:-16}; batch=${WS_FUZZ_BATCH:-1}
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Seeds that once failed, replayed under all 35 cells: 435772 and 468584 deadlocked under aware
# (warp_size 64) when the lanes of one match.any tile sat in two splits at one PC with
# different reconvergence entries (rendezvous.c same_membermask). 424401 and 476974 (issue 40): a
# spin lock all 384 threads take in nested loops, thousands of acquisitions of one mutex, ok after
# 3.8-13.3M cycles (aware, barrier): timeouts at --recheck-cycles, ok at --lock-cycles (64M).
/usr/bin/python3 "$WS_SOURCE_DIR/tests/fuzz/fuzz.py" --bin "$WS_BIN" --seeds 435772,468584,424401,476974 \
  --batch 2 -j 2 --size 2 --tmp "$tmp" --fail-dir "$tmp/fail" --minimise 0 -q \
  --features=all --lock-timeout-ok --configs 35 --recheck-cycles 30000000
exec /usr/bin/python3 "$WS_SOURCE_DIR/tests/fuzz/fuzz.py" --bin "$WS_BIN" --start 7000 --count "$count" \
  --batch "$batch" -j 2 --size 2 --tmp "$tmp" --fail-dir "$tmp/fail" --min-seconds 30 --minimise 1 -q \
  --features=all --lock-timeout-ok --configs 35
