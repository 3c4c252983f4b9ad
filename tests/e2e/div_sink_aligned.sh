#!/usr/bin/env bash
# ws_barrier_sink_release (divergence=barrier) moves a spin loop's WAIT after the lock's
# release, but never past an .aligned warp instruction (ldmatrix, stmatrix, mma, the wmma
# parts): the PTX ISA's .aligned needs every thread of the warp to execute it together, which
# only the WAIT before it provides. Warp 0 below spins lane by lane on flags warp 1 sets;
# after the loop comes BODY, then a global store. With an ordinary ld.shared as BODY the
# WAIT must sink below the store (the sink still happens); with ldmatrix / stmatrix / mma it
# must stay above them (inspect shows the code the core runs, both instruction orders).
set -u
: "${WS_BIN:?}"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
kernel() {   # kernel BODY -> $tmp/k.ptx
  cat > "$tmp/k.ptx" <<PTX
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 flags, .param .u64 out)
{
    .reg .b32 %r<16>;
    .reg .f32 %f<16>;
    .reg .b64 %rd<8>;
    .reg .pred %p<4>;
    .shared .align 16 .b8 tile[128];
    ld.param.u64 %rd1, [flags];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    shl.b32 %r2, %r1, 1;
    mov.u32 %r3, tile;
    add.u32 %r4, %r3, %r2;
    st.shared.u16 [%r4], %r1;
    bar.sync 0;
    and.b32 %r5, %r1, 31;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd1, %rd3;
    setp.ge.u32 %p1, %r1, 32;
    @%p1 bra SETTER;
SPIN:
    ld.volatile.global.u32 %r6, [%rd4];
    setp.eq.u32 %p2, %r6, 0;
    @%p2 bra SPIN;
    shl.b32 %r7, %r5, 4;
    and.b32 %r7, %r7, 127;
    add.u32 %r8, %r3, %r7;
    $1
    add.s64 %rd6, %rd2, %rd3;
    st.global.u32 [%rd6], %r9;
    bra DONE;
SETTER:
    mov.u32 %r10, 0;
SLOOP:
    setp.ne.u32 %p3, %r5, %r10;
    @%p3 bra SKIP;
    st.volatile.global.u32 [%rd4], 1;
SKIP:
    add.u32 %r10, %r10, 1;
    setp.lt.u32 %p3, %r10, 32;
    @%p3 bra SLOOP;
DONE:
    ret;
}
PTX
}
# line of the first instruction matching $1 within the block holding the WAIT of the spin loop's exit
pos() { grep -n -E "$1" <<<"$2" | head -1 | cut -d: -f1; }
check() {   # check NAME BODY PATTERN want(above|below)
  kernel "$2"
  for order in ptxas ptx; do
    out=$("$WS_BIN" inspect "$tmp/k.ptx" --divergence barrier --set inst_order=$order 2>&1) || { bad "$1 [$order]: $out"; continue; }
    blk=$(awk '/^block /{b=$0} /WAIT B/{print b; exit}' <<<"$out")
    body=$(awk -v b="$blk" '$0==b{f=1;next} f&&/^block /{exit} f' <<<"$out")
    w=$(pos 'WAIT B' "$body"); a=$(pos "$3" "$body"); s=$(pos 'st\.global\.u32' "$body")
    if [ -z "$w" ] || [ -z "$a" ] || [ -z "$s" ]; then bad "$1 [$order]: WAIT, '$3' or the store not in one block: $body"; continue; fi
    if [ "$4" = above ]; then
      [ "$w" -lt "$a" ] || bad "$1 [$order]: the WAIT sank past '$3':"$'\n'"$body"
    else
      [ "$w" -gt "$s" ] || bad "$1 [$order]: the WAIT did not sink below the store:"$'\n'"$body"
    fi
  done
}
check ldshared 'ld.shared.u32 %r9, [%r8];' 'ld\.shared\.u32' below
check ldmatrix 'ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r9}, [%r8];' 'ldmatrix' above
check stmatrix 'stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r8], {%r5};' 'stmatrix' above
check mma 'mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f0,%f1,%f2,%f3}, {%r5,%r6,%r7,%r8}, {%r5,%r6}, {%f4,%f5,%f6,%f7};' 'mma\.sync' above
# Run: the spinning lanes leave the loop one by one, so under sbi/barrier the WAIT before the
# .aligned instruction can release a partial warp (spinners count as yielded); the core then
# gathers the splits waiting at the .aligned instruction into one issue over the whole group.
# Every scheme must finish with the MIMD reference's results (expect: reference), and the
# .aligned instruction must be issued once per warp (trace: one row at its PTX line).
run() {   # run NAME BODY PATTERN
  kernel "$2"
  cat > "$tmp/k.yaml" <<YAML
name: aligned_after_spin
kernel: k.ptx
entry: k
grid: 1
block: 64
regs_per_thread: 16
buffers:
  flags: {type: u32, count: 32, init: 0}
  out: {type: u32, count: 32, init: 0}
params: [flags, out]
expect:
  out: reference
YAML
  line=$(grep -n -E "$3" "$tmp/k.ptx" | head -1 | cut -d: -f1)
  for d in stack sbi barrier multipath dualpath aware tbc; do
    out=$("$WS_BIN" sim "$tmp/k.yaml" --set divergence=$d --trace "$tmp/t.csv" 2>&1)
    grep -q '^status: ok' <<<"$out" || { bad "$1 under $d: $(grep -E '^(status|message)' <<<"$out" | tr '\n' ' ')"; continue; }
    n=$(awk -F, -v l="$line" -v op="$1" '$6 == l && $7 == op' "$tmp/t.csv" | wc -l)
    [ "$n" -eq 1 ] || bad "$1 under $d: the .aligned instruction issued $n times (want 1: one warp reaches it)"
  done
}
run ldmatrix 'ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r9}, [%r8];' 'ldmatrix'
run stmatrix 'stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r8], {%r5}; ld.shared.u32 %r9, [%r8];' 'stmatrix'
run mma 'mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f0,%f1,%f2,%f3}, {%r5,%r6,%r7,%r8}, {%r5,%r6}, {%f4,%f5,%f6,%f7}; mov.b32 %r9, %f0;' 'mma\.sync'
[ "$fail" -eq 0 ] && echo "the sink stops at .aligned instructions; a partial warp at one is gathered"
exit "$fail"
