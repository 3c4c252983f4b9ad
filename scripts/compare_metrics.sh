#!/bin/bash
# Compares `warpsweep sim --json` of every shipped and test workload between two
# binaries under a few configurations (divergence stack/sbi/barrier x scheduler
# lrr/gto, multipath with PTX order, tbc with blocking issue, aware with two_level, dualpath with daws
# on two cores, and the MIMD reference run: 9 configurations). Prints one line per difference and a summary.
# usage: scripts/compare_metrics.sh OLD_BIN NEW_BIN [SRC_DIR]
set -u
old=$1 new=$2 src=${3:-.}
export WS_PTXAS=
configs=("divergence=stack scheduler=lrr" "divergence=sbi scheduler=gto" "divergence=barrier scheduler=lrr"
         "divergence=stack scheduler=gto" "divergence=multipath inst_order=ptx" "divergence=tbc issue=blocking"
         "divergence=aware scheduler=two_level" "divergence=dualpath scheduler=daws cores=2")
n=0 diff=0
cd "$src"
for y in sweeps/kernels/*.yaml tests/kernels/*/*.yaml; do
    for c in "${configs[@]}"; do
        args=()
        for kv in $c; do args+=(--set "$kv"); done
        a=$(timeout 300 "$old" sim "$y" "${args[@]}" --json 2>&1)
        b=$(timeout 300 "$new" sim "$y" "${args[@]}" --json 2>&1)
        n=$((n + 1))
        if [ "$a" != "$b" ]; then diff=$((diff + 1)); echo "DIFF $y [$c]"; fi
    done
    a=$(timeout 300 "$old" sim "$y" --reference --json 2>&1)
    b=$(timeout 300 "$new" sim "$y" --reference --json 2>&1)
    n=$((n + 1))
    if [ "$a" != "$b" ]; then diff=$((diff + 1)); echo "DIFF $y [--reference]"; fi
done
echo "compared $n runs: $diff differ"
