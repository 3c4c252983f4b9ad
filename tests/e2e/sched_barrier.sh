#!/bin/bash
# Issue 10, bug 4: CTAs wider than two_level's active set with __syncthreads.
# tests/kernels/sched/bar512 (512-thread CTAs = 16 warps, expectations from the
# Python model in expected.py) must end ok under every scheduler, with the
# default two_level_active=8 and with the smallest active set / window, under
# both divergence schemes, well within the cycle budget (the run is about
# 3,000-20,000 cycles; before the fix two_level timed out).
set -euo pipefail
W="${WS_SOURCE_DIR:-.}/tests/kernels/sched/bar512.yaml"
fail=0
run() {
    out=$("$WS_BIN" sim "$W" --json --set max_cycles=200000 "$@")
    st=$(printf '%s' "$out" | /usr/bin/python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["status"], j["cycles"])')
    set -- "$@"
    case "$st" in
        "ok "*) echo "ok    bar512 $* -> $st" ;;
        *) echo "FAIL  bar512 $* -> $st"; fail=1 ;;
    esac
}
for div in stack sbi; do
    for s in lrr gto oldest swl two_level fetch_group ccws; do
        run --set divergence=$div --set scheduler=$s
    done
    run --set divergence=$div --set scheduler=two_level --set two_level_active=1
    run --set divergence=$div --set scheduler=two_level --set issue=blocking
    run --set divergence=$div --set scheduler=swl --set swl_limit=1
    run --set divergence=$div --set scheduler=two_level --set schedulers=4
    run --set divergence=$div --set scheduler=fetch_group --set fetch_group_size=1
    run --set divergence=$div --set scheduler=fetch_group --set schedulers=4 --set fetch_group_size=2
    run --set divergence=$div --set scheduler=ccws --set l1_kb=1 --set ccws_kthrottle=64
done
exit $fail
