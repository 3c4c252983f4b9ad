#!/usr/bin/env bash
# Asynchronous copies (tests/kernels/async/): cp.async 4/8/16-byte copies with src-size
# zero-fill (constant or in a register), ignore-src and .L2::cache_hint, commit_group and wait_group (nvcc 13, sm_80) equal the independent Python model
# (expected.py) under the MIMD reference and the core (both divergence schemes, blocking issue,
# warp sizes 16 and 64); timing (docs/model.md, "Asynchronous copies"): a copy overlaps the
# computation placed before its wait_group, and the forms outside the subset are refused.
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
K="$WS_SOURCE_DIR/tests/kernels/async"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
/usr/bin/python3 "$K/expected.py" --check || bad "expected.py --check"
/usr/bin/python3 "$K/gen_overlap.py" --check || bad "overlap.ptx differs from gen_overlap.py"
for y in "$K"/*.yaml; do
  name=$(basename "$y" .yaml)
  for s in "--reference" "--set divergence=stack --set scheduler=lrr" "--set divergence=barrier --set scheduler=gto" \
           "--set issue=blocking" "--set divergence=barrier --set warp_size=16" "--set divergence=stack --set warp_size=64"; do
    # shellcheck disable=SC2086
    out=$("$WS_BIN" sim "$y" $s 2>&1); rc=$?
    if [ "$rc" -ne 0 ] || ! grep -qx 'status: ok' <<<"$out"; then
      bad "$name [$s]: exit $rc: $(grep -m2 -E '^(status|message)' <<<"$out")"
    fi
  done
done

# Timing: one warp, a 16-byte cp.async and a chain of 64 dependent FMAs (64 x alu_latency 4 =
# 256 cycles), then the final store (mem_latency again). serial waits before the chain,
# overlap after it: serial - overlap = min(mem_latency, 256) up to a few issue cycles, and
# both grow by 2 cycles per cycle of mem_latency beyond the chain (the copy and the store).
# The closed forms assume the seed's fixed-latency memory (tests/e2e/seed_memory.py).
read -r -a SEEDMEM <<<"$(/usr/bin/python3 "$WS_SOURCE_DIR/tests/e2e/seed_memory.py")"
cyc() { "$WS_BIN" sim "$K/overlap_$1.yaml" "${SEEDMEM[@]}" --set mem_latency="$2" | sed -n 's/^cycles: \([0-9]*\) cycles$/\1/p'; }
for m in 100 400 800; do
  s=$(cyc serial "$m"); o=$(cyc overlap "$m")
  hidden=$((s - o)); want=$(( m < 256 ? m : 256 ))
  [ "$hidden" -ge $((want - 40)) ] && [ "$hidden" -le "$want" ] || bad "mem_latency=$m: serial $s, overlap $o: $hidden cycles hidden, want about $want"
done
d=$(( $(cyc overlap 800) - $(cyc overlap 400) ))
[ "$d" -eq 800 ] || bad "overlap: 400 more cycles of mem_latency cost $d cycles, want 800 (copy + store)"

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
refuse() {   # refuse NAME BODY PATTERN
  printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %%r<16>;\n.reg .b64 %%rd<4>;\n%s\nret;\n}\n' "$2" > "$tmp/$1.ptx"
  out=$("$WS_BIN" inspect "$tmp/$1.ptx" 2>&1); rc=$?
  [ "$rc" -eq 1 ] || bad "$1: exit $rc: $out"
  [ "$(wc -l <<<"$out")" -eq 1 ] || bad "$1: not one line: $out"
  grep -qE "$3" <<<"$out" || bad "$1: $out"
}
refuse tensor 'cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2}], [%r3];' \
  "tensor\.ptx:8:14: 'cp\.async\.bulk\.tensor' is not supported \(TMA tensor copies"
refuse bulkform 'cp.async.bulk.global.shared::cta.mbarrier::complete_tx::bytes [%rd1], [%r1], 64, [%r2];' \
  "bulkform\.ptx:8:1: 'cp\.async\.bulk' is supported as"
refuse multicast 'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd1], 64, [%r2], %rs1;' \
  "multicast\.ptx:8:[0-9]+: 'cp\.async\.bulk\.multicast::cluster' is not supported"
refuse cgsize 'cp.async.cg.shared.global [%r1], [%rd1], 8;' "cgsize\.ptx:8:[0-9]+: the cp-size of 'cp\.async\.cg' is 16"
refuse casize 'cp.async.ca.shared.global [%r1], [%rd1], 12;' "casize\.ptx:8:[0-9]+: the cp-size of 'cp\.async\.ca' is 4, 8 or 16"
refuse srcsize 'cp.async.ca.shared.global [%r1], [%rd1], 8, 9;' "srcsize\.ptx:8:[0-9]+: the src-size of 'cp\.async' must be 0 \.\. cp-size \(8\)"
refuse hintpolicy 'cp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16;' \
  "hintpolicy\.ptx:8:[0-9]+: 'cp\.async\.\.\.L2::cache_hint' takes a 64-bit cache-policy register as its last operand"
refuse negsize 'cp.async.cg.shared.global [%r1], [%rd1], 16, !%r2;' "negsize\.ptx:8:[0-9]+: '!' negates a predicate"
refuse waitreg 'cp.async.wait_group %r1;' "waitreg\.ptx:8:[0-9]+: 'cp\.async\.wait_group' takes an integer constant"
[ "$fail" -eq 0 ] && echo "all async kernels ok"
exit "$fail"
