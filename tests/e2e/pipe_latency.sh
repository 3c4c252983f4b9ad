#!/usr/bin/env bash
# pipe_latency and the per-opcode latencies (params.def; pipe.c opcode_latency) on one thread's
# dependent chain (tests/kernels/pipe/chain.ptx) under the seed's core, where nothing but
# latencies orders the chain: the ld.param (the cvta waits for it, and in-order issue puts the
# mov after the cvta), mov, 10 adds, a mad, a min and the store are 15 results on one path
# (the ld.param is timed as a move at alu_latency), so by hand
#   pipe_latency=P        adds 15 P cycles;
#   simple_latency=1      takes the mov from alu_latency (4) to 1: 3 fewer;
#   mad_latency=9         the mad 5 more than alu_latency; minmax_latency=13 the min 9 more;
#   the adds keep alu_latency whatever simple_latency says (GPGPU-Sim's ADD class).
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
W=$SRC/tests/kernels/pipe/chain.yaml
cyc() { "$BIN" sim "$W" --set preset=seed "$@" --json | $PY -c 'import json,sys; d=json.load(sys.stdin); assert d["status"]=="ok", d["message"]; print(d["cycles"])'; }
base=$(cyc)
for p in 1 5; do
  c=$(cyc --set pipe_latency=$p)
  [ $((c - base)) = $((15 * p)) ] || fail "pipe_latency=$p: $c cycles, want $base + 15 x $p"
done
c=$(cyc --set simple_latency=1); [ $((base - c)) = 3 ] || fail "simple_latency=1: $c cycles, want $base - 3"
c=$(cyc --set mad_latency=9); [ $((c - base)) = 5 ] || fail "mad_latency=9: $c cycles, want $base + 5"
c=$(cyc --set minmax_latency=13); [ $((c - base)) = 9 ] || fail "minmax_latency=13: $c cycles, want $base + 9"
c=$(cyc --set simple_latency=1 --set mad_latency=9 --set minmax_latency=13 --set pipe_latency=5)
[ $((c - base)) = $((-3 + 5 + 9 + 75)) ] || fail "all four: $c cycles, want $base + 86"
# unit_queue (tests/kernels/pipe/queue.ptx, one thread): four independent mul.f32 on an FP32 unit
# busy 4 cycles per warp instruction (fp32_lanes 8), then an independent add.s32. An issue that
# waits for its unit puts the multiplies 4 cycles apart and the add 1 after the last (13 after
# the first); with unit_queue=3 the three after the first wait in the unit's queue: the
# multiplies 1 apart and the add 4 after the first. The results complete as the unit frees
# either way.
issues() { "$BIN" sim "$SRC/tests/kernels/pipe/queue.yaml" --set preset=seed --set fp32_lanes=8 "$@" --trace "$T/tr.csv" > /dev/null
           $PY -c 'import csv,sys; r=[x for x in csv.DictReader(open(sys.argv[1])) if x["opcode"] in ("mul","add")]; m=[int(x["cycle"]) for x in r if x["opcode"]=="mul"]; a=int(r[4]["cycle"]); print(" ".join(str(x - m[0]) for x in m[1:] + [a]))' "$T/tr.csv"; }
[ "$(issues)" = "4 8 12 13" ] || fail "unit_queue=0: issues $(issues), want 4 8 12 13 after the first mul"
[ "$(issues --set unit_queue=3)" = "1 2 3 4" ] || fail "unit_queue=3: issues $(issues --set unit_queue=3), want 1 2 3 4"
# the peer preset sets GPGPU-Sim's values (presets.def)
"$BIN" sim "$W" --set preset=gpgpusim_qv100 --json | $PY -c '
import json, sys
d = json.load(sys.stdin)
want = {"pipe_latency": 5, "simple_latency": 1, "mad_latency": 5, "minmax_latency": 13, "unit_queue": 4}
bad = {k: d[k] for k in want if d[k] != want[k]}
sys.exit("gpgpusim_qv100: %s" % bad if bad else 0)' || fail "preset values"
echo "pipe and per-opcode latencies: as derived by hand"
