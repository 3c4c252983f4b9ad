#!/usr/bin/env bash
# A tiled warp-level .sync operation reached by the lanes of one tile at different times
# (docs/model.md "Warp-level operations and member masks"; the PTX ISA: the threads of a
# membermask execute the op "with the same membermask value"). Warp 0 spins lane by lane on
# flags warp 1 sets in groups (lanes 0-4, then 5-7, then 8-31, each after a delay), so lanes
# 0-4 reach the tiled match.any.sync (membermask 0xf << (lane & 28)) first and lane 4 must
# wait there for lanes 5-7 of its tile while tile 0 is complete. Every scheme with
# independent thread scheduling must give the PTX ISA's result: lane l gets the lanes of its
# tile whose value (l & 1) equals its own, (0x5 << (l & 28)) << (l & 1), computed in Python.
# (Splits of one tile at one PC with different reconvergence entries, the aware deadlock of
# fuzz seeds 435772 and 468584, are replayed by tests/e2e/fuzz_simt.sh.)
set -u
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
cat > "$T/k.ptx" <<'PTX'
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 flags, .param .u64 out, .param .u64 sink)
{
    .reg .b32 %r<16>;
    .reg .b64 %rd<8>;
    .reg .pred %p<4>;
    ld.param.u64 %rd1, [flags];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    and.b32 %r5, %r1, 31;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd1, %rd3;
    setp.ge.u32 %p1, %r1, 32;
    @%p1 bra SETTER;
SPIN:
    ld.volatile.global.u32 %r6, [%rd4];
    setp.eq.u32 %p2, %r6, 0;
    @%p2 bra SPIN;
    and.b32 %r7, %r5, 28;
    shl.b32 %r8, 15, %r7;
    and.b32 %r9, %r5, 1;
    match.any.sync.b32 %r10, %r9, %r8;
    add.s64 %rd6, %rd2, %rd3;
    st.global.u32 [%rd6], %r10;
    bra DONE;
SETTER:
    mov.u32 %r11, 0;             // group g = 0, 1, 2: lanes [lo, hi) = [0,5), [5,8), [8,32)
    mov.u32 %r12, 0;             // lo
GROUP:
    setp.eq.u32 %p3, %r11, 0;
    selp.u32 %r13, 5, 8, %p3;
    setp.eq.u32 %p3, %r11, 2;
    selp.u32 %r13, 32, %r13, %p3;   // hi
    setp.ge.u32 %p3, %r5, %r12;
    setp.lt.and.u32 %p3, %r5, %r13, %p3;
    @%p3 st.volatile.global.u32 [%rd4], 1;
    mov.u32 %r12, %r13;
    mov.u32 %r14, 0;             // delay: 2000 dependent adds
DELAY:
    add.u32 %r14, %r14, 1;
    setp.lt.u32 %p3, %r14, 2000;
    @%p3 bra DELAY;
    add.u32 %r11, %r11, 1;
    setp.lt.u32 %p3, %r11, 3;
    @%p3 bra GROUP;
DONE:
    ret;
}
PTX
cat > "$T/k.yaml" <<'YAML'
name: tile_rendezvous
kernel: k.ptx
entry: k
grid: 1
block: 64
regs_per_thread: 16
buffers:
  flags: {type: u32, count: 32, init: 0}
  out: {type: u32, count: 32, init: 0}
  sink: {type: u32, count: 1, init: 0}
params: [flags, out, sink]
expect:
  out: reference
YAML
want=$("$PY" -c 'print(",".join(str((0x5 << (l & 28)) << (l & 1)) for l in range(32)))')
failed=0
for d in sbi barrier multipath dualpath aware; do
  for s in gto lrr; do
    # --dump prints the buffer's values on the first line, then the metrics
    out=$("$BIN" sim "$T/k.yaml" --set divergence=$d --set scheduler=$s --set max_cycles=2000000 --dump out 2>&1)
    if ! grep -q '^status: ok' <<<"$out"; then
      echo "FAIL: $d/$s: $(grep -E '^(status|message)' <<<"$out" | tr '\n' ' ')"; failed=1; continue
    fi
    got=$(head -1 <<<"$out" | tr -d ' ')
    [ "$got" = "$want" ] || { echo "FAIL: $d/$s: out = $got, want $want"; failed=1; }
  done
done
[ "$failed" -eq 0 ] && echo "a tiled match.any.sync reached tile by tile gives the PTX result under every scheme"
exit "$failed"
