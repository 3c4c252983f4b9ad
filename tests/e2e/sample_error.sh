#!/usr/bin/env bash
# The error bound of docs/sampling.md with the default sampling settings: on
# three shipped kernels scaled to 64 CTA waves (bench/sample_error.py: saxpy,
# reduce with CTA barriers, varloop with divergent loops), under the default
# registry (Volta share: L1, L2, DRAM) and preset=seed, the sampled run's
# cycles are within 5% of the full run's, its fast-forwarded memory matches
# the reference (`expect: reference` on every written buffer) and both runs
# end ok. The full run is the expectation: it does not depend on sampling.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

$PY "$SRC/bench/sample_error.py" --bin "$BIN" --only saxpy,reduce,varloop --configs default:32,seed:32 --check 5 \
  > "$T/table.txt" || { cat "$T/table.txt"; fail "sampled cycles off by more than 5%"; }
cat "$T/table.txt"
n=$(grep -c " ok/ok/ok" "$T/table.txt" || true)
[ "$n" -eq 6 ] || fail "expected 6 rows ending ok/ok/ok, got $n"
$PY - "$T/table.txt" <<'PY' || fail "a run was not sampled"
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip().endswith("ok/ok/ok")]
assert all(float(r[6]) < 1 for r in rows), [r[6] for r in rows]
PY
