#!/usr/bin/env bash
# Issue 16's shipped BFS (sweeps/kernels/bfs.yaml, Rodinia's Kernel + Kernel2
# in a host loop over bfs_graph.el): the workload ends ok (cost equal to
# bfs_cost.npy, a queue BFS in gen_app_inputs.py; masks cleared, every vertex
# visited) on the default core, under the Volta preset on 2 cores and in the
# reference run; it runs 1 + 2 x (levels) launches, the levels counted here from
# bfs_cost.npy; a cost.npy with one level changed is a mismatch; then a small
# sweep like sweeps/app_bfs.yaml whose steady-state columns are checked against
# their definitions (app_bfs_check.py).
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail
K="$SRC/sweeps/kernels"

# The BFS needs launch sequences (`launches:`, issue 16). A binary without them
# refuses the key: then this test says so and checks nothing else.
if out=$("$BIN" sim "$K/bfs.yaml" 2>&1); then :; else
    if grep -q "unknown key 'launches'" <<<"$out"; then
        echo "app_bfs: SKIPPED: this warpsweep has no launch sequences ($out)"
        exit 0
    fi
    fail "sim bfs.yaml: $(head -3 <<<"$out")"
fi
grep -qx 'status: ok' <<<"$out" || fail "sim bfs.yaml: $(head -3 <<<"$out")"

# levels from the expectation file (an independent BFS): the loop runs once per
# level and once more to find no new vertex -> 1 (bfs_init) + 2 x (levels) launches
levels=$($PY -c 'import numpy, sys; print(int(numpy.load(sys.argv[1]).max()) + 1)' "$K/bfs_cost.npy")
want=$((1 + 2 * levels))
for args in "" "--set preset=volta --set cores=2" "--reference"; do
    # shellcheck disable=SC2086  # args are intentionally word-split
    out=$("$BIN" sim "$K/bfs.yaml" $args 2>&1) || fail "sim bfs.yaml $args: $(head -3 <<<"$out")"
    grep -qx 'status: ok' <<<"$out" || fail "sim bfs.yaml $args: $(head -3 <<<"$out")"
    n=$(sed -nE 's/^launches: ([0-9]+).*/\1/p' <<<"$out")
    [ "$n" = "$want" ] || fail "sim bfs.yaml $args: launches '$n', want $want (levels $levels)"
done

# one vertex's level changed in the expectation -> status mismatch
cp "$K"/bfs.ptx "$K"/bfs_graph.el "$K/bfs.yaml" "$T/"
$PY "$SRC/tests/e2e/npy_bump.py" "$K/bfs_cost.npy" "$T/bfs_cost.npy" 77 i
out=$("$BIN" sim "$T/bfs.yaml" 2>&1) && fail "a wrong expectation passed"
grep -qx 'status: mismatch' <<<"$out" || fail "changed cost.npy: $(head -3 <<<"$out")"
grep -q 'cost\[77\]' <<<"$out" || fail "the mismatch does not name cost[77]: $(grep message <<<"$out")"

# a small sweep (sweeps/app_bfs.yaml's axes, fewer values)
sed -e "s|^workload: .*|workload: $K/bfs.yaml|" \
    -e 's|^  cores: .*|  cores: [1, 5]|' -e 's|^  scheduler: .*|  scheduler: [gto]|' \
    -e 's|^  warps: .*|  warps: [16, 64]|' "$SRC/sweeps/app_bfs.yaml" > "$T/sweep.yaml"
"$BIN" run "$T/sweep.yaml" -o "$T/s.h5" -j 2 --quiet || fail "run the small sweep"
ref=$("$BIN" sim "$K/bfs.yaml" --reference | sed -nE 's/^thread_insts: ([0-9]+).*/\1/p')
$PY "$SRC/tests/e2e/app_bfs_check.py" "$T/s.h5" "$want" "$ref"
echo "app_bfs: ok"
