#!/usr/bin/env bash
# The reference execution's statuses other than ok, on hand-written kernels:
# deadlock (every live thread waits and none can proceed), timeout (max_cycles
# thread instructions without finishing), and CTA barriers that count only
# threads that have not exited.
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Threads 0-15 wait at barrier 0, threads 16-31 at barrier 1: neither barrier
# can ever collect the 32 live threads of the CTA.
cat > "$tmp/dl.ptx" <<'PTX'
.version 7.0
.target sm_75
.address_size 64
.visible .entry dl(
	.param .u64 dl_param_0
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<2>;
	mov.u32 	%r1, %tid.x;
	setp.lt.u32 	%p1, %r1, 16;
	@%p1 bra 	$L1;
	bar.sync 	1;
	ret;
$L1:
	bar.sync 	0;
	ret;
}
PTX
printf 'kernel: dl.ptx\ngrid: 1\nblock: 32\nbuffers:\n  x: {type: u32, count: 1}\nparams: [x]\n' > "$tmp/dl.yaml"
out=$("$WS_BIN" sim "$tmp/dl.yaml" --reference 2>&1); rc=$?
[ "$rc" -eq 1 ] || bad "deadlock: exit $rc"
grep -qx 'status: deadlock' <<<"$out" || bad "deadlock: $out"
grep -q '^message: deadlock: all 32 live threads wait (32 at CTA barriers' <<<"$out" || bad "deadlock message: $out"
# each thread executed mov, setp, @p bra, bar.sync: 4 * 32
grep -qx 'thread_insts: 128 insts' <<<"$out" || bad "deadlock thread_insts: $out"

# An endless loop: stopped after max_cycles thread instructions.
cat > "$tmp/spin.ptx" <<'PTX'
.version 7.0
.target sm_75
.address_size 64
.visible .entry spin()
{
$L0:
	bra.uni 	$L0;
}
PTX
printf 'kernel: spin.ptx\ngrid: 2\nblock: 8\n' > "$tmp/spin.yaml"
out=$("$WS_BIN" sim "$tmp/spin.yaml" --reference --set max_cycles=1000 2>&1); rc=$?
[ "$rc" -eq 1 ] || bad "timeout: exit $rc"
grep -qx 'status: timeout' <<<"$out" || bad "timeout: $out"
grep -qx 'thread_insts: 1000 insts' <<<"$out" || bad "timeout thread_insts: $out"

# Threads 16-31 exit before the barrier; the other 16 pass bar.sync and store
# their tid + 100 (tid < 16), then out[tid] for the exited ones keeps 7.
cat > "$tmp/ex.ptx" <<'PTX'
.version 7.0
.target sm_75
.address_size 64
.visible .entry ex(
	.param .u64 ex_param_0
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<4>;
	ld.param.u64 	%rd1, [ex_param_0];
	mov.u32 	%r1, %tid.x;
	setp.ge.u32 	%p1, %r1, 16;
	@%p1 bra 	$Ldone;
	bar.sync 	0;
	add.s32 	%r2, %r1, 100;
	mul.wide.u32 	%rd2, %r1, 4;
	add.s64 	%rd3, %rd1, %rd2;
	st.global.u32 	[%rd3], %r2;
$Ldone:
	ret;
}
PTX
cat > "$tmp/ex.yaml" <<'YAML'
kernel: ex.ptx
grid: 1
block: 32
buffers:
  out: {type: u32, count: 32, init: 7}
params: [out]
expect:
  out: [100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115,
        7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]
YAML
out=$("$WS_BIN" sim "$tmp/ex.yaml" --reference 2>&1); rc=$?
[ "$rc" -eq 0 ] && grep -qx 'status: ok' <<<"$out" || bad "exited threads at a barrier: exit $rc: $out"

exit $fail
