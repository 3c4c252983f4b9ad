#!/usr/bin/env bash
# Shared-memory atomics serialise lanes on one word (docs/memory.md "Shared memory banks",
# smem_atomic_serial). A histogram kernel: 64 threads (2 warps) zero 256 bins, each lane adds
# 1 to bin (lane % MOD) * MUL ITERS = 10 times with atom.shared.add, then the bins are stored.
# Replays counted by hand (the zeroing and the final read are conflict-free: consecutive words;
# 2 warps x 10 atomics = 20 warp atomics):
#   1 bin (MOD 1):            degree 32 -> 20 x 31 = 620
#   2 bins (MOD 2):           degree 16 -> 20 x 15 = 300
#   32 bins (MOD 32):         degree 1  -> 0
#   32 bins 8 words apart:    4 banks x 8 lane-words, degree 8 -> 20 x 7 = 140 (also without
#                             serialisation: 8 distinct words per bank)
# With smem_atomic_serial=0 (the seed's broadcast) the first two give 0. The bins hold
# 2 x 10 x (lanes on the bin) (computed in Python), and the cycles fall as the bins spread.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
cat > "$T/h.ptx" <<'PTX'
.version 8.0
.target sm_70
.address_size 64
.visible .entry hist(.param .u64 out, .param .u32 mod, .param .u32 mul, .param .u32 iters)
{
    .shared .align 4 .b32 h[256];
    .reg .b32 %r<16>;
    .reg .b64 %rd<8>;
    .reg .pred %p<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [mod];
    ld.param.u32 %r2, [mul];
    ld.param.u32 %r3, [iters];
    mov.u32 %r4, %tid.x;
    mov.u32 %r5, h;
    mov.u32 %r6, %r4;
ZERO:
    shl.b32 %r7, %r6, 2;
    add.u32 %r7, %r5, %r7;
    st.shared.u32 [%r7], 0;
    add.u32 %r6, %r6, 64;
    setp.lt.u32 %p1, %r6, 256;
    @%p1 bra ZERO;
    bar.sync 0;
    and.b32 %r8, %r4, 31;
    rem.u32 %r8, %r8, %r1;
    mul.lo.u32 %r8, %r8, %r2;
    shl.b32 %r8, %r8, 2;
    add.u32 %r8, %r5, %r8;
    mov.u32 %r9, 0;
LOOP:
    atom.shared.add.u32 %r10, [%r8], 1;
    add.u32 %r9, %r9, 1;
    setp.lt.u32 %p2, %r9, %r3;
    @%p2 bra LOOP;
    bar.sync 0;
    mov.u32 %r6, %r4;
OUT:
    shl.b32 %r7, %r6, 2;
    add.u32 %r11, %r5, %r7;
    ld.shared.u32 %r12, [%r11];
    cvt.u64.u32 %rd2, %r7;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r12;
    add.u32 %r6, %r6, 64;
    setp.lt.u32 %p1, %r6, 256;
    @%p1 bra OUT;
    ret;
}
PTX
mk() {   # mk NAME MOD MUL
  bins=$("$PY" -c "
m, k = $2, $3
h = [0] * 256
for t in range(64):
    h[(t % 32 % m) * k] += 10
print('[' + ', '.join(map(str, h)) + ']')")
  cat > "$T/$1.yaml" <<YAML
name: $1
kernel: h.ptx
entry: hist
grid: 1
block: 64
regs_per_thread: 16
buffers:
  out: {type: u32, count: 256, init: 0}
params: [out, $2, $3, 10]
expect:
  out: $bins
YAML
}
check() {   # check NAME MOD MUL REPLAYS [--set ...] -> cycles in $cyc
  local name=$1 want=$4; mk "$name" "$2" "$3"; shift 4
  out=$("$BIN" sim "$T/$name.yaml" "$@" 2>&1)
  grep -q '^status: ok' <<<"$out" || fail "$name $*: $(grep -E '^(status|message)' <<<"$out" | tr '\n' ' ')"
  got=$(sed -n 's/^smem_bank_conflicts: \([0-9]*\).*/\1/p' <<<"$out")
  [ "$got" = "$want" ] || fail "$name $*: smem_bank_conflicts $got, want $want"
  cyc=$(sed -n 's/^cycles: \([0-9]*\).*/\1/p' <<<"$out")
}
check one 1 1 620; c1=$cyc
check two 2 1 300; c2=$cyc
check spread 32 1 0; c32=$cyc
check banks4 32 8 140
[ "$c1" -gt "$c2" ] && [ "$c2" -gt "$c32" ] || fail "cycles do not fall as the bins spread: $c1, $c2, $c32"
check one_seed 1 1 0 --set smem_atomic_serial=0
check two_seed 2 1 0 --set smem_atomic_serial=0
check banks4_seed 32 8 140 --set smem_atomic_serial=0
echo "shared atomics: same-word lanes serialised ($c1 / $c2 / $c32 cycles at 1 / 2 / 32 bins)"
