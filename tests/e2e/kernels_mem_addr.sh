#!/usr/bin/env bash
# Address formation (issue 24; tests/kernels/mem/smem_bias, genshared, gensym): 32-bit address
# arithmetic wraps at 32 bits (nvcc's shared-init loop with a .u32 address minus a bias, PTX ISA
# "Addresses as Operands"), generic accesses reach shared memory (cvta.shared pointers through
# calls, generic ld/st/atom naming a .shared/.local symbol, ldmatrix without .shared). The
# committed yaml files equal the independent Python model (expected.py --check) and run ok under
# the MIMD reference and the core; a generic ldmatrix address outside the shared window and a
# 64-bit base that leaves shared memory are one-line faults.
set -u
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
K="$SRC/tests/kernels/mem"
bad=0
err() { echo "FAIL: $*"; bad=1; }
$PY "$K/expected.py" --check || err "expected.py --check"
for name in smem_bias genshared gensym; do
  for s in "--reference" "--set divergence=stack --set scheduler=lrr" "--set divergence=barrier --set scheduler=gto" \
           "--set issue=blocking --set warp_size=64"; do
    # shellcheck disable=SC2086
    out=$("$BIN" sim "$K/$name.yaml" $s 2>&1); rc=$?
    if [ "$rc" -ne 0 ] || ! grep -qx 'status: ok' <<<"$out"; then
      err "$name [$s]: exit $rc: $(grep -m2 -E '^(status|message)' <<<"$out")"
    fi
  done
done

# faults: one message line naming the lane, PC and address
fault() {   # fault NAME BODY PATTERN
  printf '.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %%r<8>;\n.reg .b64 %%rd<8>;\n.shared .align 16 .b8 s[256];\n%s\nret;\n}\n' "$2" > "$T/$1.ptx"
  printf 'name: %s\nkernel: %s.ptx\ngrid: 1\nblock: 32\nregs_per_thread: 8\nbuffers:\n  b: {type: u32, count: 64, init: 0}\nparams: [b]\n' "$1" "$1" > "$T/$1.yaml"
  out=$("$BIN" sim "$T/$1.yaml" 2>&1)
  grep -qx 'status: error' <<<"$out" || err "$1: $(head -3 <<<"$out")"
  grep -qE "^message: $3" <<<"$out" || err "$1: $(grep -m1 '^message' <<<"$out")"
}
fault ldmglobal 'ld.param.u64 %rd1, [p];
ldmatrix.sync.aligned.m8n8.x1.b16 {%r1}, [%rd1];' \
  "lane 0 .*ldmatrix: generic address 0x[0-9a-f]+ is not in the shared window"
fault wide64 'mov.u32 %r1, s;
add.s32 %r2, %r1, -256;
cvt.u64.u32 %rd1, %r2;
st.shared.u8 [%rd1+256], %r1;' \
  "lane 0 .*out-of-bounds 1-byte st.shared at offset 0x100000000"
# the same sum in a 32-bit register wraps: ok
fault_ok() {
  printf '.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %%r<8>;\n.shared .align 16 .b8 s[256];\nmov.u32 %%r1, s;\nadd.s32 %%r2, %%r1, -256;\nst.shared.u8 [%%r2+256], %%r1;\nret;\n}\n' > "$T/wrap32.ptx"
  printf 'name: wrap32\nkernel: wrap32.ptx\ngrid: 1\nblock: 32\nregs_per_thread: 8\nbuffers:\n  b: {type: u32, count: 64, init: 0}\nparams: [b]\n' > "$T/wrap32.yaml"
  out=$("$BIN" sim "$T/wrap32.yaml" 2>&1)
  grep -qx 'status: ok' <<<"$out" || err "wrap32: $(grep -m2 -E '^(status|message)' <<<"$out")"
}
fault_ok
[ "$bad" -eq 0 ] && echo "all address kernels ok"
exit "$bad"
