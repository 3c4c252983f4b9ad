#!/usr/bin/env bash
# The MIMD reference's grouped turns (docs/model.md, "The MIMD reference's
# thread groups") keep the one-thread-per-turn order exactly:
#  (a) a racy kernel whose result is the order of the turns: every thread
#      takes a ticket with atom.add after a branch that puts even and odd
#      lanes at two different atom instructions in the same pass, then a
#      second ticket where the even lanes arrive one pass earlier. Expected
#      values by hand from the round-robin order (CTA by CTA, lane by lane,
#      one instruction per pass): ticket 1 = the linear thread id; ticket 2 =
#      the even threads of CTA 0, of CTA 1, then the odd ones; thread
#      instructions 8 x 22 + 8 x 23 = 360 (17 before the branch, then even:
#      atom, atom, st, st, ret; odd: atom, bra, atom, st, st, ret). The same at
#      warp size 4 (two warps per CTA: the order is still linear).
#  (a') a fault in a grouped turn: the same steps, memory and message as one
#      thread per turn (the lanes in between take their turns first).
#  (b) against --single-turns (one ws_exec_inst per thread turn): identical
#      status, message, metrics and buffers on the spin locks and a few
#      divergent and warp-level kernels, at warp sizes 32 and 16 and with a
#      step limit that stops them midway (a timeout after the same turns).
set -u
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"

cat > "$T/order.ptx" <<'PTX'
.version 7.0
.target sm_70
.address_size 64
.visible .entry order(.param .u64 p_out, .param .u64 p_out2, .param .u64 p_cnt)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<8>;
	ld.param.u64 	%rd1, [p_out];
	ld.param.u64 	%rd2, [p_out2];
	ld.param.u64 	%rd3, [p_cnt];
	cvta.to.global.u64 	%rd1, %rd1;
	cvta.to.global.u64 	%rd2, %rd2;
	cvta.to.global.u64 	%rd3, %rd3;
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mad.lo.s32 	%r4, %r2, %r3, %r1;
	mul.wide.u32 	%rd4, %r4, 4;
	add.s64 	%rd5, %rd1, %rd4;
	add.s64 	%rd6, %rd2, %rd4;
	add.s64 	%rd7, %rd3, 4;
	and.b32 	%r5, %r1, 1;
	setp.eq.u32 	%p1, %r5, 0;
	@%p1 bra 	$EVEN;
	atom.global.add.u32 	%r6, [%rd3], 1;
	bra.uni 	$DONE;
$EVEN:
	atom.global.add.u32 	%r6, [%rd3], 1;
$DONE:
	atom.global.add.u32 	%r7, [%rd7], 1;
	st.global.u32 	[%rd5], %r6;
	st.global.u32 	[%rd6], %r7;
	ret;
}
PTX
cat > "$T/order.yaml" <<YAML
name: ref_order
kernel: $T/order.ptx
entry: order
grid: 2
block: 8
regs_per_thread: 16
buffers:
  out: {type: u32, count: 16, init: 0}
  out2: {type: u32, count: 16, init: 0}
  cnt: {type: u32, count: 2, init: 0}
params: [out, out2, cnt]
YAML

# (a)
for ws in 32 4; do
  "$BIN" sim "$T/order.yaml" --reference --json --set warp_size=$ws --dump out > "$T/a.json" 2> "$T/out.txt" ||
    fail "(a) warp_size $ws: $(cat "$T/a.json" "$T/out.txt")"
  "$BIN" sim "$T/order.yaml" --reference --json --set warp_size=$ws --dump out2 > /dev/null 2> "$T/out2.txt" ||
    fail "(a) warp_size $ws: out2"
  $PY - "$T/a.json" "$T/out.txt" "$T/out2.txt" "$ws" <<'PY' || fail "(a) warp_size $ws: not the round-robin order"
import json, sys
d = json.load(open(sys.argv[1]))
vals = lambda f: [int(x) for x in open(f).read().replace(',', ' ').split()]
out, out2 = vals(sys.argv[2]), vals(sys.argv[3])
want2 = [0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15]
ok = d['status'] == 'ok' and d['thread_insts'] == 360 and out == list(range(16)) and out2 == want2
if not ok:
    print('warp_size', sys.argv[4], d['status'], d['thread_insts'], out, out2)
sys.exit(0 if ok else 1)
PY
done

# (a') a fault in a register-only group taken early: even lanes at brx.idx (index tid / 4,
# two targets), odd lanes at a store, in the same pass. One thread per turn: lanes 0-7
# alternate (branch, store out[lane] = lane), lane 8's index 2 faults; thread instructions
# 32 x 9 before the branch point + 9 = 297; out = lane for the odd lanes below 8, else 0.
cat > "$T/fault.ptx" <<'PTX'
.version 7.0
.target sm_70
.address_size 64
.visible .entry fault(.param .u64 p_out)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<8>;
	ld.param.u64 	%rd1, [p_out];
	cvta.to.global.u64 	%rd1, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd4, %r1, 4;
	add.s64 	%rd5, %rd1, %rd4;
	shr.u32 	%r6, %r1, 2;
	and.b32 	%r5, %r1, 1;
	setp.eq.u32 	%p1, %r5, 0;
	@%p1 bra 	$EVEN;
	st.global.u32 	[%rd5], %r1;
	bra.uni 	$END;
$EVEN:
	$T: .branchtargets $END, $END;
	brx.idx 	%r6, $T;
$END:
	st.global.u32 	[%rd5], 7;
	ret;
}
PTX
cat > "$T/fault.yaml" <<YAML
name: ref_fault
kernel: $T/fault.ptx
entry: fault
grid: 1
block: 32
regs_per_thread: 16
buffers:
  out: {type: u32, count: 32, init: 0}
params: [out]
YAML
"$BIN" sim "$T/fault.yaml" --reference --json --dump out > "$T/f.json" 2> "$T/f.txt"
$PY - "$T/f.json" "$T/f.txt" <<'PY' || fail "(a') the fault in a group"
import json, sys
d = json.load(open(sys.argv[1]))
out = [int(x) for x in open(sys.argv[2]).read().replace(',', ' ').split()]
want = [l if l % 2 and l < 8 else 0 for l in range(32)]
ok = (d['status'] == 'error' and d['thread_insts'] == 297 and d['message'].startswith('lane 8 ')
      and 'brx.idx index 2 out of range' in d['message'] and out == want)
if not ok:
    print(d['status'], d['thread_insts'], d['message'], out)
sys.exit(0 if ok else 1)
PY

# (b)
bufs() {   # the buffer names of a workload
  $PY - "$1" <<'PY'
import re, sys
inb = False
for line in open(sys.argv[1]):
    if line.startswith('buffers:'): inb = True; continue
    if inb:
        m = re.match(r'^  ([A-Za-z_]\w*)\s*:', line)
        if m: print(m.group(1))
        elif re.match(r'^\S', line): inb = False
PY
}
same() {   # workload, --set args...
  local y=$1; shift
  local b
  for b in "" $(bufs "$y"); do
    local d=()
    [ -n "$b" ] && d=(--dump "$b")
    "$BIN" sim "$y" --reference --json "$@" "${d[@]}" > "$T/g.out" 2> "$T/g.err"
    "$BIN" sim "$y" --reference --single-turns --json "$@" "${d[@]}" > "$T/s.out" 2> "$T/s.err"
    cmp -s "$T/g.out" "$T/s.out" && cmp -s "$T/g.err" "$T/s.err" ||
      fail "(b) $y $* ${b:-(result)}: grouped and single turns differ: $(diff "$T/g.out" "$T/s.out" | head -5)"
  done
}
K=$SRC/tests/kernels
n=0
for y in "$T/order.yaml" "$T/fault.yaml" "$SRC/sweeps/kernels/spinlock.yaml" "$K/div/lockloop.yaml" "$K/sched/retrylock.yaml" \
         "$K/sched/volcount.yaml" "$K/sched/statlock.yaml" "$K/sched/gridlock3.yaml" "$K/sched/gridlock5.yaml" \
         "$K/warp/legacy_vote.yaml" "$K/warp/barred.yaml"; do
  [ -f "$y" ] || fail "(b) missing $y"
  same "$y"
  same "$y" --set warp_size=16
  same "$y" --set max_cycles=700
  n=$((n + 1))
done
"$BIN" sim "$SRC/sweeps/kernels/spinlock.yaml" --reference --json --set max_cycles=700 | grep -q '"status": *"timeout"' ||
  fail "(b) the step limit does not stop the spin lock midway"
echo "reference_groups: ok ($n workloads)"
