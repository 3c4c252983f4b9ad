#!/usr/bin/env bash
# regs_per_thread from ptxas (src/workload/ptxas.c), with a fake ptxas: a
# shell script that prints what CUDA 13.0's ptxas printed for
# sweeps/kernels/saxpy.ptx (`ptxas -v --gpu-name sm_75 -e _Z5saxpyifPKfPf
# saxpy.ptx -o /dev/null`, `ptxas --version`), with the register count
# taken from $FAKE_REGS, and logs every invocation. Checks:
#   - the count is used for occupancy, found through WS_PTXAS and through PATH;
#   - the disk cache: a second run, and every point of a sweep, start no ptxas;
#     a changed PTX text does; a corrupt or unwritable cache only re-runs it;
#   - a .target that ptxas refuses falls back to sm_75 and says so;
#   - no ptxas (WS_PTXAS="") or a failing one: one warning line per process, the
#     PTX MaxLive estimate used;
#   - a workload with regs_per_thread never starts ptxas.
# Occupancy by hand (docs/model.md "Occupancy"): warps=64, warp_size=32,
# regfile_kb=32 (32768 B), reg_alloc_unit=256, a CTA of 64 threads = 2 warps:
#   R regs/thread -> ceil(32 R / 256) * 256 registers per warp, * 4 B * 2 warps per CTA
#   40: 1280 regs = 5120 B/warp, 10240 B/CTA -> floor(32768 / 10240) = 3 CTAs, 6 warps
#   24:  768 regs = 3072 B/warp,  6144 B/CTA -> floor(32768 / 6144)  = 5 CTAs, 10 warps
#   the estimate E (inspect prints it): same formula with E.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

D="$T/dir with space"
mkdir -p "$D" "$T/bin"
cp "$SRC/sweeps/kernels/saxpy.ptx" "$D/sax py.ptx"
workload() {  # NAME PTX [extra line]
    cat > "$D/$1.yaml" <<YAML
name: $1
kernel: $2
grid: 64
block: 64
${3:-}
buffers:
  x: {type: f32, count: 4096, init: iota}
  y: {type: f32, count: 4096, init: {iota: {start: 1, step: 1}}}
params: [4096, 2.5, x, y]
expect:
  y: {iota: {start: 1, step: 3.5}}   # y[i] = 2.5 i + (i + 1), exact in f32 below 2^12
YAML
}
workload wl "sax py.ptx"
workload wl_regs "sax py.ptx" "regs_per_thread: 40"

FAKE="$T/bin/ptxas"
cat > "$FAKE" <<'SH'
#!/bin/sh
# fake ptxas: logs its arguments, prints CUDA 13.0 ptxas's format
printf '%s\n' "$*" >> "$FAKE_LOG"
if [ "$1" = "--version" ]; then
  echo "ptxas: NVIDIA (R) Ptx optimizing assembler"
  echo "Copyright (c) 2005-2025 NVIDIA Corporation"
  echo "Built on Wed_Aug_20_01:55:12_PM_PDT_2025"
  echo "Cuda compilation tools, release 13.0, V13.0.88"
  echo "Build cuda_13.0.r13.0/compiler.36424714_0"
  exit 0
fi
[ "$1 $2" = "-v --gpu-name" ] && [ "$4" = "-e" ] && [ "$7 $8" = "-o /dev/null" ] || { echo "fake ptxas: bad arguments: $*"; exit 2; }
[ -f "$6" ] || { echo "ptxas fatal   : Could not open input file '$6'"; exit 255; }
case "$3" in
  sm_70) echo "ptxas fatal   : Value 'sm_70' is not defined for option 'gpu-name'"; exit 255 ;;
esac
if [ -n "${FAKE_FAIL:-}" ]; then
  echo "ptxas $6, line 12; error   : Unknown symbol 'nosuch'"
  echo "ptxas fatal   : Ptx assembly aborted due to errors"
  exit 255
fi
# another function before ours: its count must not be taken
echo "ptxas info    : 0 bytes gmem"
echo "ptxas info    : Compiling entry function '_Z5otherv' for '$3'"
echo "ptxas info    : Function properties for _Z5otherv"
echo "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
echo "ptxas info    : Used 99 registers, used 0 barriers, 352 bytes cmem[0]"
echo "ptxas info    : Compiling entry function '$5' for '$3'"
echo "ptxas info    : Function properties for $5"
echo "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
echo "ptxas info    : Used $FAKE_REGS registers, used 0 barriers, 376 bytes cmem[0]"
echo "ptxas info    : Compile time = 1.964 ms"
SH
chmod +x "$FAKE"
export FAKE_LOG="$T/log" FAKE_REGS=40 XDG_CACHE_HOME="$T/cache"
: > "$FAKE_LOG"
SETS=(--set warps=64 --set warp_size=32 --set regfile_kb=32 --set reg_alloc_unit=256 --set max_ctas=1024)
compiles() { grep -c -- '^-v ' "$FAKE_LOG" || true; }
calls() { wc -l < "$FAKE_LOG"; }

# sim WORKLOAD -> $T/j.json, $T/err; expect FIELD=VALUE...
sim() {
    local wl=$1; shift
    "$BIN" sim "$D/$wl.yaml" --json "${SETS[@]}" > "$T/j.json" 2> "$T/err" || fail "sim $wl: $(cat "$T/err") $(cat "$T/j.json")"
    $PY - "$T/j.json" "$@" <<'PY' || fail "sim $wl: $(cat "$T/err")"
import json, sys
j = json.load(open(sys.argv[1]))
for kv in sys.argv[2:]:
    k, v = kv.split("=")
    if str(j[k]) != v:
        sys.exit("%s = %s, want %s" % (k, j[k], v))
PY
}
no_warning() { ! grep -q "warning" "$T/err" || fail "unexpected warning: $(cat "$T/err")"; }

# ---- through WS_PTXAS: the count is used, then cached
export WS_PTXAS="$FAKE"
sim wl regs_per_thread=40 regs_source=1 resident_ctas=3 resident_warps=6 occupancy_limit=registers status=ok
no_warning
[ "$(compiles)" = 1 ] || fail "first run: $(compiles) compilations: $(cat "$FAKE_LOG")"
grep -qxF -- "-v --gpu-name sm_75 -e _Z5saxpyifPKfPf $D/sax py.ptx -o /dev/null" "$FAKE_LOG" ||
    fail "arguments: $(cat "$FAKE_LOG")"
n=$(calls)
sim wl regs_per_thread=40 regs_source=1 resident_ctas=3
[ "$(calls)" = "$n" ] || fail "second run invoked ptxas: $(cat "$FAKE_LOG")"
"$BIN" inspect "$D/wl.yaml" > "$T/inspect.txt" 2> "$T/err"
grep -qx "regs_per_thread: 40 (ptxas --gpu-name sm_75)" "$T/inspect.txt" || fail "inspect: $(head -3 "$T/inspect.txt")"
[ "$(calls)" = "$n" ] || fail "inspect invoked ptxas"

# a sweep over 6 points on 2 threads, fresh cache: one compilation, the count in every row
cat > "$T/s.yaml" <<YAML
name: e2e-ptxas
workload: "$D/wl.yaml"
base: {warps: 64, warp_size: 32, reg_alloc_unit: 256, max_ctas: 1024}
grid:
  regfile_kb: [32, 64]
  scheduler: [lrr, gto, oldest]
YAML
export XDG_CACHE_HOME="$T/cache2"
: > "$FAKE_LOG"
"$BIN" run "$T/s.yaml" -o "$T/s.h5" -j 2 --quiet 2> "$T/err" || fail "run: $(cat "$T/err")"
no_warning
[ "$(compiles)" = 1 ] || fail "sweep: $(compiles) compilations"
if $PY -c 'import h5py' 2>/dev/null; then
    # 64 KiB: floor(65536 / 10240) = 6 CTAs
    $PY - "$T/s.h5" <<'PY' || fail "sweep rows"
import sys, h5py
p = h5py.File(sys.argv[1], "r")["points"][...]
for r in p:
    want = {32: 3, 64: 6}[int(r["regfile_kb"])]
    assert r["status"] == b"ok" and r["regs_per_thread"] == 40 and r["regs_source"] == 1, r
    assert r["resident_ctas"] == want, (int(r["regfile_kb"]), int(r["resident_ctas"]))
PY
fi

# ---- through PATH (WS_PTXAS unset), another count
unset WS_PTXAS
export XDG_CACHE_HOME="$T/cache3" FAKE_REGS=24
PATH="$T/bin:$PATH" sim wl regs_per_thread=24 regs_source=1 resident_ctas=5 resident_warps=10 occupancy_limit=registers
no_warning
export WS_PTXAS="$FAKE"

# ---- a changed PTX text is another key; a corrupt cache re-runs ptxas; an unwritable one too
n=$(compiles)
echo "// edited" >> "$D/sax py.ptx"
sim wl regs_per_thread=24
[ "$(compiles)" = $((n + 1)) ] || fail "changed PTX did not recompile"
for f in "$XDG_CACHE_HOME"/warpsweep/*; do printf 'garbage\377' > "$f"; done
sim wl regs_per_thread=24 resident_ctas=5
[ "$(compiles)" = $((n + 2)) ] || fail "corrupt cache: not recompiled"
sim wl regs_per_thread=24
[ "$(compiles)" = $((n + 2)) ] || fail "cache not rewritten after corruption"
: > "$T/notadir"
export XDG_CACHE_HOME="$T/notadir"
sim wl regs_per_thread=24 resident_ctas=5
sim wl regs_per_thread=24
[ "$(compiles)" = $((n + 4)) ] || fail "unwritable cache: $(compiles) compilations, want $((n + 4))"
no_warning
export XDG_CACHE_HOME="$T/cache3"

# ---- a .target the ptxas refuses: sm_75, said so
sed 's/^\.target sm_75/.target sm_70/' "$SRC/sweeps/kernels/saxpy.ptx" > "$D/old.ptx"
workload wl_old old.ptx
sim wl_old regs_per_thread=24 regs_source=1
grep -q -- "--gpu-name sm_70 " "$FAKE_LOG" && grep -q -- "--gpu-name sm_75 -e _Z5saxpyifPKfPf .*old.ptx" "$FAKE_LOG" ||
    fail "fallback: $(cat "$FAKE_LOG")"
"$BIN" inspect "$D/wl_old.yaml" > "$T/inspect.txt"
grep -qx "regs_per_thread: 24 (ptxas --gpu-name sm_75: .target sm_70 is not accepted by this ptxas; counted for sm_75)" \
    "$T/inspect.txt" || fail "fallback inspect: $(sed -n 2p "$T/inspect.txt")"

# ---- regs_per_thread given: ptxas never started (fresh cache: nothing to hit)
export XDG_CACHE_HOME="$T/cache4"
: > "$FAKE_LOG"
sim wl_regs regs_per_thread=40 regs_source=0 resident_ctas=3
"$BIN" inspect "$D/wl_regs.yaml" | grep -qx "regs_per_thread: 40 (workload)" || fail "inspect workload source"
[ "$(calls)" = 0 ] || fail "workload with regs_per_thread invoked ptxas: $(cat "$FAKE_LOG")"

# ---- no ptxas: one warning, the estimate
E=$("$BIN" inspect "$D/sax py.ptx" | sed -n 's/.*(estimate \([0-9]*\) regs\/thread).*/\1/p')
[ -n "$E" ] || fail "no estimate in inspect"
ctas=$($PY -c "import math,sys; e=int(sys.argv[1]); w=math.ceil(32*e/256)*256*4; print(min(32, 32768 // (2*w)))" "$E")
export WS_PTXAS=""
sim wl regs_per_thread="$E" regs_source=2 resident_ctas="$ctas"
[ "$(wc -l < "$T/err")" = 1 ] || fail "warning lines: $(cat "$T/err")"
want="warpsweep: warning: $D/wl.yaml: no regs_per_thread and WS_PTXAS is empty (never use ptxas); using the PTX MaxLive estimate of $E registers per thread (ptxas allocates up to 4x more on real kernels: give regs_per_thread for exact occupancy)"
[ "$(cat "$T/err")" = "$want" ] || fail "warning: $(cat "$T/err")"
"$BIN" inspect "$D/wl.yaml" 2>/dev/null | grep -qx "regs_per_thread: $E (estimate: WS_PTXAS is empty (never use ptxas))" ||
    fail "inspect estimate"
unset WS_PTXAS
PATH=/usr/bin:/bin CUDA_HOME="$T/none" "$BIN" sim "$D/wl.yaml" > /dev/null 2> "$T/err" || true
if [ ! -e /usr/local/cuda/bin/ptxas ] && ! ls /usr/local/cuda-*/bin/ptxas /opt/cuda/bin/ptxas > /dev/null 2>&1; then
    grep -q "^warpsweep: warning: .*wl.yaml: no regs_per_thread and no ptxas found; using the PTX MaxLive estimate of $E " \
        "$T/err" || fail "not found: $(cat "$T/err")"
fi
export WS_PTXAS="$T/nosuch"
"$BIN" sim "$D/wl.yaml" > /dev/null 2> "$T/err"
grep -q "and WS_PTXAS=$T/nosuch is not an executable file; using the PTX MaxLive estimate" "$T/err" || fail "bad WS_PTXAS"
# a sweep on 2 threads: still one warning for the process
export WS_PTXAS="" XDG_CACHE_HOME="$T/cache5"
"$BIN" run "$T/s.yaml" -o "$T/s2.h5" -j 2 --quiet 2> "$T/err" || fail "run without ptxas"
[ "$(grep -c warning "$T/err")" = 1 ] || fail "sweep warnings: $(cat "$T/err")"
# a failing ptxas: its error line in the warning
export WS_PTXAS="$FAKE" FAKE_FAIL=1
sim wl regs_per_thread="$E" regs_source=2
grep -q "no regs_per_thread and ptxas failed (exit 255) for sm_75: ptxas .*error   : Unknown symbol 'nosuch'; using the PTX MaxLive estimate of $E" \
    "$T/err" || fail "failing ptxas: $(cat "$T/err")"
echo "workload_ptxas: ok"
