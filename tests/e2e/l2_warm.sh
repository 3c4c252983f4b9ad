#!/usr/bin/env bash
# l2_warm (params.def; docs/memory.md "Inputs in the L2"): with l2_warm=inputs the buffers with
# initial data start in the L2, clean; a buffer initialised to a constant zero does not. One warp
# reads a[tid] (iota: an input) and z[tid] (zero) and stores their sum: each buffer is one
# 128-byte line of four 32-byte sectors, so by hand:
#   none:   8 L2 read sectors, all misses (sector hit rate 0), DRAM reads 2 lines = 256 bytes;
#   inputs: a's 4 sectors hit, z's 4 miss (0.5), DRAM reads z's line only = 128 bytes.
# The store of `out` allocates in the write-back L2 and reaches no DRAM in either case, and the
# values are the same.
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
cat > "$T/warm.ptx" <<'PTX'
.version 7.0
.target sm_75
.address_size 64
.visible .entry warm(.param .u64 a, .param .u64 z, .param .u64 out)
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [z];
	ld.param.u64 %rd3, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd4, %r1, 4;
	add.s64 %rd5, %rd1, %rd4;
	add.s64 %rd6, %rd2, %rd4;
	add.s64 %rd7, %rd3, %rd4;
	ld.global.u32 %r2, [%rd5];
	ld.global.u32 %r3, [%rd6];
	add.s32 %r4, %r2, %r3;
	st.global.u32 [%rd7], %r4;
	ret;
}
PTX
cat > "$T/warm.yaml" <<'YAML'
name: warm
kernel: warm.ptx
grid: 1
block: 32
buffers:
  a: {type: u32, count: 32, init: iota}
  z: {type: u32, count: 32, init: 0}
  out: {type: u32, count: 32, init: 0}
params: [a, z, out]
expect:
  out: iota
YAML
metric() {   # l2_warm, key
  "$BIN" sim "$T/warm.yaml" --set l2_warm="$1" --set sector_bytes=32 --set l1_line=128 --json |
    "$PY" -c 'import json,sys; d=json.load(sys.stdin); assert d["status"] == "ok", d["status"]; print(d[sys.argv[1]])' "$2"
}
[ "$(metric none l2_sector_hit_rate)" = 0 ] || fail "none: l2_sector_hit_rate $(metric none l2_sector_hit_rate), expected 0"
[ "$(metric none dram_bytes)" = 256 ] || fail "none: dram_bytes $(metric none dram_bytes), expected 256"
[ "$(metric inputs l2_sector_hit_rate)" = 0.5 ] || fail "inputs: l2_sector_hit_rate $(metric inputs l2_sector_hit_rate), expected 0.5"
[ "$(metric inputs dram_bytes)" = 128 ] || fail "inputs: dram_bytes $(metric inputs dram_bytes), expected 128"
# without an L2 there is nothing to warm: the same run either way
drop_param() { "$PY" -c 'import json,sys; d=json.load(sys.stdin); d.pop("l2_warm"); print(json.dumps(d, sort_keys=True))'; }
a=$("$BIN" sim "$T/warm.yaml" --set l2_kb=0 --set l2_warm=none --json | drop_param)
b=$("$BIN" sim "$T/warm.yaml" --set l2_kb=0 --set l2_warm=inputs --json | drop_param)
[ -n "$a" ] && [ "$a" = "$b" ] || fail "l2_kb=0: l2_warm changed the run"
echo "ok: l2_warm"
