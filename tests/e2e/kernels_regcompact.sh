#!/usr/bin/env bash
# Register compaction (src/ptx/regcompact.c; docs/model.md, "Register compaction"):
#  - wmma_unrolled (nvcc 13 PTX of a WMMA GEMM with its K loop unrolled): the PTX declares
#    thousands of registers (counted here from its .reg lines), inspect reports them and a
#    register file of at most twice ptxas's 102 rows and at least the 64 accumulator
#    registers live across the whole loop plus one A and one B fragment (8 each) and the
#    address at an mma (81); D equals the NumPy model's product under the reference and the
#    core (expected.py --check: the committed inputs and D are the model's);
#  - wmma_deep (the same GEMM with K = 5120, at cudaTensorCoreGemm's scale): more than 30,000
#    registers declared, at most twice ptxas's 255 rows after compaction, D = 10 * A * B;
#  - uninit (hand-written): registers read before written still read the initial zero;
#  - a kernel declaring 10^6 registers: the state-limit message names the kernel and both
#    counts (rows after compaction, declared).
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
export WS_PTXAS=
K="$WS_SOURCE_DIR/tests/kernels/regcompact"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
/usr/bin/python3 "$K/expected.py" --check || bad "expected.py --check"

declared=$(awk '/^\t\.reg /{ n = $3; sub(/.*</, "", n); sub(/>.*/, "", n); s += n } END { print s }' "$K/wmma_unrolled.ptx")
[ "$declared" -gt 1000 ] || bad "wmma_unrolled.ptx declares only $declared registers"
ins=$("$WS_BIN" inspect "$K/wmma_unrolled.ptx" 2>&1)
line=$(grep -E '^  register file: [0-9]+ rows per lane after compaction \([0-9]+ registers declared\)$' <<<"$ins")
rows=$(sed -E 's/^  register file: ([0-9]+) rows.*/\1/' <<<"$line")
decl=$(sed -E 's/.*\(([0-9]+) registers declared\)$/\1/' <<<"$line")
[ -n "$line" ] || bad "inspect: no register file line: $(head -3 <<<"$ins")"
[ "${decl:-0}" -eq "$declared" ] || bad "inspect: $decl registers declared, the PTX declares $declared"
[ "${rows:-0}" -ge 81 ] && [ "${rows:-0}" -le 204 ] || bad "inspect: $rows rows, expected 81..204"

deep=$(awk '/^\t\.reg /{ n = $3; sub(/.*</, "", n); sub(/>.*/, "", n); s += n } END { print s }' "$K/wmma_deep.ptx")
[ "$deep" -gt 30000 ] || bad "wmma_deep.ptx declares only $deep registers"
line=$("$WS_BIN" inspect "$K/wmma_deep.ptx" 2>&1 | grep -E '^  register file: [0-9]+ rows per lane after compaction')
rows=$(sed -E 's/^  register file: ([0-9]+) rows.*/\1/' <<<"$line")
grep -q "($deep registers declared)" <<<"$line" || bad "inspect wmma_deep: $line (the PTX declares $deep)"
[ "${rows:-0}" -ge 81 ] && [ "${rows:-0}" -le 510 ] || bad "inspect wmma_deep: $rows rows, expected 81..510"

for name in wmma_unrolled wmma_deep uninit; do
  for s in "--reference" "--set divergence=stack --set scheduler=lrr" "--set divergence=sbi --set scheduler=gto" \
           "--set divergence=barrier --set inst_order=ptx" "--set warp_size=64"; do
    # shellcheck disable=SC2086
    out=$("$WS_BIN" sim "$K/$name.yaml" $s 2>&1); rc=$?
    if [ "$rc" -ne 0 ] || ! grep -qx 'status: ok' <<<"$out"; then
      bad "$name [$s]: exit $rc: $(grep -m2 -E '^(status|message)' <<<"$out")"
    fi
  done
done

out=$("$WS_BIN" sim "$WS_SOURCE_DIR/tests/robustness/wl_manyregs.yaml" --set warps=1024 --set regfile_kb=65536 \
      --set max_ctas=1024 2>&1)
grep -qE '^message: simulator state: kernel _Z5saxpyifPKfPf needs [0-9]+ register rows per thread after compaction \(declared 1000021,' <<<"$out" ||
  bad "manyregs message: $(grep -m1 '^message' <<<"$out")"
exit $fail
