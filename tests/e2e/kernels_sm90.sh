#!/usr/bin/env bash
# The sm_80/sm_90 PTX nvcc emits for ordinary code (tests/kernels/sm90/): cuda::barrier's
# mbarrier, elect.sync, redux.sync, griddepcontrol, cache hints, and mbartx.ptx's mbarrier
# transaction counts (expect_tx, complete_tx, arrive.expect_tx), bulkcopy.ptx's cp.async.bulk and
# tma1d.cu's (nvcc: cuda::barrier with cp_async_bulk_global_to_shared, fence.proxy.async),
# bulklanes.ptx's per-lane divergent copies (every scheme);
# the outputs equal the
# independent model (expected.py) under the reference and the core (both divergence
# schemes, lrr and gto, warp size 64: the kernel's warp-level operations need 32-lane
# groups); what stays outside the subset is refused at load with file:line:col.
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
K="$WS_SOURCE_DIR/tests/kernels/sm90"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
/usr/bin/python3 "$K/expected.py" --check || bad "expected.py --check"
for k in tma1d bulklanes; do   # the bulk copies under the schemes the loop below leaves out
  for d in tbc sbi multipath dualpath aware; do
    out=$("$WS_BIN" sim "$K/$k.yaml" --set divergence=$d 2>&1); rc=$?
    if [ "$rc" -ne 0 ] || ! grep -qx 'status: ok' <<<"$out"; then
      bad "$k [divergence=$d]: exit $rc: $(grep -m2 -E '^(status|message)' <<<"$out")"
    fi
  done
done
for k in modern mbartx bulkcopy tma1d bulklanes; do
for s in "--reference" "--set divergence=stack --set scheduler=lrr" "--set divergence=barrier --set scheduler=gto" \
         "--set issue=blocking" "--set divergence=barrier --set warp_size=64"; do
  # shellcheck disable=SC2086
  out=$("$WS_BIN" sim "$K/$k.yaml" $s 2>&1); rc=$?
  if [ "$rc" -ne 0 ] || ! grep -qx 'status: ok' <<<"$out"; then
    bad "$k [$s]: exit $rc: $(grep -m2 -E '^(status|message)' <<<"$out")"
  fi
done
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
refuse() {   # refuse NAME BODY PATTERN
  printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %%r<16>;\n.reg .b64 %%rd<4>;\n.reg .pred %%p<4>;\n%s\nret;\n}\n' "$2" > "$tmp/$1.ptx"
  out=$("$WS_BIN" inspect "$tmp/$1.ptx" 2>&1); rc=$?
  [ "$rc" -eq 1 ] || bad "$1: exit $rc: $out"
  [ "$(wc -l <<<"$out")" -eq 1 ] || bad "$1: not one line: $out"
  grep -qE "$3" <<<"$out" || bad "$1: $out"
}
refuse stasync 'st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];' \
  "stasync\.ptx:9:3: modifier '\.async' is not supported on 'st'"
refuse mapa 'mapa.shared::cluster.u32 %r1, %r2, %r3;' "mapa\.ptx:9:1: instruction 'mapa' is not supported: thread-block cluster"
refuse clusterbar 'barrier.cluster.arrive;' "clusterbar\.ptx:9:8: modifier '\.cluster' is not supported on 'barrier'|clusterbar\.ptx:9:[0-9]+: "
refuse bulksize 'cp.async.bulk.prefetch.L2.global [%rd1];' "bulksize\.ptx:9:[0-9]+: "
refuse mbarnoop 'mbarrier.shared.b64 %rd1, [%r1];' "mbarnoop\.ptx:9:1: 'mbarrier' needs an operation and \.b64"
refuse hintatom 'atom.global.L2::cache_hint.add.u32 %r1, [%rd1], %r2, %rd2;' \
  "hintatom\.ptx:9:12: modifier '\.L2::cache_hint' is not supported on 'atom'"
refuse elect 'elect %r1|%p1, 0xffffffff;' "elect\.ptx:9:1: 'elect' needs \.sync"
[ "$fail" -eq 0 ] && echo "all sm90 kernels ok"
exit "$fail"
