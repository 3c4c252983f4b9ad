#!/usr/bin/env bash
# Sampled simulation (sample=ctas, docs/sampling.md):
#  (a) a grid with no more waves than sample_waves runs in full: every metric
#      equals sample=off, sampled = 1;
#  (b) a sampled run's expects hold (the functional fast-forward of the
#      remaining CTAs writes the right memory): saxpy over 512 CTAs with the
#      hand-derived y[i] = 1 + 3.5 i, and sampled < 1;
#      its sample_error (the extrapolation's own error bar) is finite and small;
#  (c) the extrapolation on a case with a hand-derivable answer: preset=seed
#      (fixed latencies, no caches) and saxpy (straight-line code, every CTA
#      the same), one core of 16 CTA slots: the waves are periodic, cycles(N
#      waves) = cycles(N0) + (N - N0) P with P = cycles(9) - cycles(8), which
#      is checked on the full runs; then cycles = T_detail + W_ff / R gives
#      exactly cycles(8) + 12 P for 20 waves sampled over 8, and its sample_error
#      is 0 (the window's halves run at the same rate);
#  (d) invalid sampling settings are one-line errors;
#  (f) a launch sequence samples each launch: inc over 512 CTAs twice keeps
#      its expect (a[i] = i + 2), every launch sampled < 1, and under
#      preset=seed cycles(A; A) = 2 cycles(A) + launch_overhead (the kernel
#      boundary of docs/model.md: nothing carries over without caches);
#  (h) max_cycles limits the cycles simulated, not the extrapolated ones: the
#      sampled inc sequence of (f) simulates 8 of 32 waves per launch,
#      2 T8 + launch_overhead cycles (T8 = the full run of those 8 waves),
#      while its extrapolated cycles are 2 C1 + launch_overhead (C1 = one
#      sampled launch); with max_cycles = C1 in between it finishes with the
#      unbounded run's cycles, with max_cycles = T8 + launch_overhead + T8/2
#      (the second detailed part cannot fit) and unsampled it times out;
#  (g) a sweep over sample = [off, ctas] marks its rows: the HDF5 column
#      `sampled` is 1 for off and below 1 for ctas;
#  (e) the lock-step reference (sim --reference --lockstep) finishes every
#      shipped kernel with status ok (its expects hold) and the MIMD
#      reference's thread instruction count (spin loops aside).
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

saxpy() {   # saxpy.yaml with $1 CTAs of 64 threads
    local g=$1 n=$(($1 * 64))
    cat > "$T/saxpy_$g.yaml" <<YAML
name: saxpy$g
kernel: $SRC/sweeps/kernels/saxpy.ptx
entry: _Z5saxpyifPKfPf
grid: $g
block: 64
regs_per_thread: 10
buffers:
  x: {type: f32, count: $n, init: iota}
  y: {type: f32, count: $n, init: {iota: {start: 1, step: 1}}}
params: [$n, 2.5, x, y]
expect:
  y: {iota: {start: 1, step: 3.5}}   # 2.5 i + i + 1, exact in f32 for i < 2^21
YAML
}
json() { "$BIN" sim "$1" --json "${@:2}"; }
field() { $PY -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }

# (a) 4 waves of 16 CTAs (warps=32, 2 warps per CTA) with sample_waves=8: a full run
saxpy 64
json "$T/saxpy_64.yaml" --set sample=off > "$T/off.json" || fail "(a) sample=off run"
json "$T/saxpy_64.yaml" --set sample=ctas --set sample_waves=8 > "$T/on.json" || fail "(a) sample=ctas run"
$PY - "$T/off.json" "$T/on.json" <<'PY' || fail "(a) too few waves must be the full run"
import json, sys
off, on = (json.load(open(p)) for p in sys.argv[1:])
assert on["sampled"] == 1 and off["sampled"] == 1, (on["sampled"], off["sampled"])
skip = {"sample", "sample_waves"}
diff = [k for k in off if k not in skip and off[k] != on[k]]
assert not diff, diff
PY

# (b) 32 waves sampled: expects (hand-derived) hold, a fraction in detail
saxpy 512
json "$T/saxpy_512.yaml" --set sample=ctas > "$T/b.json" || fail "(b) sampled saxpy: $(field message < "$T/b.json")"
[ "$(field status < "$T/b.json")" = ok ] || fail "(b) status"
$PY -c 'import json,sys; j=json.load(open(sys.argv[1])); assert 0 < j["sampled"] < 1, j["sampled"]' "$T/b.json" ||
  fail "(b) not sampled"
# its error bar: a finite fraction, within the stopping rule's sample_tolerance (0.02)
$PY -c 'import json,sys,math; e=json.load(open(sys.argv[1]))["sample_error"]; assert math.isfinite(e) and 0 <= e <= 0.02, e' \
  "$T/b.json" || fail "(b) sample_error"
# the default registry (Volta share, L2 and DRAM) too, and expect: reference
sed 's/  y: {iota: {start: 1, step: 3.5}}.*/  y: reference/' "$T/saxpy_512.yaml" > "$T/ref_512.yaml"
json "$T/ref_512.yaml" --set sample=ctas > "$T/b2.json" || fail "(b) expect: reference: $(field message < "$T/b2.json")"

# (c) the wave formula
cyc() { json "$T/saxpy_$1.yaml" --set preset=seed --set warps=32 "${@:2}" | field cycles; }
saxpy 128; saxpy 144; saxpy 320
c8=$(cyc 128); c9=$(cyc 144); c20=$(cyc 320)
p=$((c9 - c8))
[ $((c8 + 12 * p)) -eq "$c20" ] || fail "(c) full runs not periodic: c8=$c8 c9=$c9 c20=$c20"
s20=$(cyc 320 --set sample=ctas --set sample_waves=8)
[ "$s20" -eq $((c8 + 12 * p)) ] || fail "(c) sampled cycles $s20, hand formula c8 + 12 P = $((c8 + 12 * p))"
# periodic waves: the window's two halves have the same rate, so the extrapolation's own
# error bar (sample_error: |W/r1 - W/r2| / 2 / cycles, docs/sampling.md) is exactly 0
e20=$(json "$T/saxpy_320.yaml" --set preset=seed --set warps=32 --set sample=ctas --set sample_waves=8 | field sample_error)
[ "$e20" = "0" ] || fail "(c) sample_error of periodic waves: $e20"

# (d) settings
out=$("$BIN" sim "$T/saxpy_512.yaml" --set sample=ctas --set sample_waves=3 --set sample_warmup=1 2>&1) &&
  fail "(d) sample_waves < sample_warmup + 3 accepted"
echo "$out" | grep -q "sample_waves=3 must be at least" || fail "(d) message: $out"

# (f) sequences
n=$((512 * 64))
for k in 1 2; do
    { echo "name: inc$k"; echo "kernel: $SRC/tests/kernels/seq/inc.ptx"
      echo "buffers: {a: {type: u32, count: $n, init: iota}}"; echo "launches:"
      for i in $(seq $k); do echo "  - {entry: inc, grid: 512, block: 64, params: [a, $n], regs_per_thread: 8}"; done
      echo "expect: {a: {iota: {start: $k, step: 1}}}"; } > "$T/inc$k.yaml"
    json "$T/inc$k.yaml" --set sample=ctas --set preset=seed > "$T/inc$k.json" ||
      fail "(f) sampled sequence of $k: $(field message < "$T/inc$k.json")"
done
$PY - "$T/inc1.json" "$T/inc2.json" <<'PY' || fail "(f) sampled sequence"
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:])
assert two["launches"] == 2
per = two["per_launch"]
assert all(0 < l["sampled"] < 1 for l in per), [l["sampled"] for l in per]
assert two["cycles"] == 2 * one["cycles"] + two["launch_overhead"], (one["cycles"], two["cycles"], two["launch_overhead"])
PY

# (h) the watchdog counts simulated cycles
sed 's/grid: 512/grid: 128/; s/^expect:.*//' "$T/inc1.yaml" > "$T/inc1_8w.yaml"   # the 8 detailed waves alone
seedj() { json "$@" --set preset=seed; }
t8=$(seedj "$T/inc1_8w.yaml" | field cycles)
c1=$(seedj "$T/inc1.yaml" --set sample=ctas | field cycles)
ov=$(seedj "$T/inc1.yaml" | field launch_overhead)
[ $((2 * t8 + ov)) -lt "$c1" ] || fail "(h) premise: simulated 2*$t8+$ov not below C1=$c1"
seedj "$T/inc2.yaml" --set sample=ctas --set max_cycles="$c1" > "$T/h1.json" || true
[ "$(field status < "$T/h1.json")" = ok ] || fail "(h) max_cycles=C1 sampled: $(field message < "$T/h1.json")"
[ "$(field cycles < "$T/h1.json")" -eq $((2 * c1 + ov)) ] || fail "(h) cycles $(field cycles < "$T/h1.json") != 2 C1 + overhead"
for run in "--set sample=ctas --set max_cycles=$((t8 + ov + t8 / 2))" "--set sample=off --set max_cycles=$c1"; do
    # shellcheck disable=SC2086
    seedj "$T/inc2.yaml" $run > "$T/h2.json" || true
    [ "$(field status < "$T/h2.json")" = timeout ] || fail "(h) $run: $(field status < "$T/h2.json"), expected timeout"
done

# (g) HDF5 rows
cat > "$T/sweep.yaml" <<YAML
name: e2e-sample
workload: $T/saxpy_512.yaml
base: {preset: seed}
grid:
  sample: [off, ctas]
YAML
"$BIN" run "$T/sweep.yaml" -o "$T/s.h5" -j 2 --quiet || fail "(g) sweep"
$PY - "$T/s.h5" <<'PY' || fail "(g) sampled column"
import sys
import h5py
with h5py.File(sys.argv[1], "r") as f:
    names = [k for k in f.keys()]
    d = f[names[0]] if len(names) == 1 and hasattr(f[names[0]], "dtype") else None
    def col(name):
        def find(g):
            for k, v in g.items():
                if k == name:
                    return v[()]
                if isinstance(v, h5py.Group):
                    r = find(v)
                    if r is not None:
                        return r
            return None
        if d is not None:
            return d[name]
        return find(f)
    sampled, sample = col("sampled"), col("sample")
    rows = sorted(zip([s.decode() if isinstance(s, bytes) else str(s) for s in sample], sampled))
    assert len(rows) == 2, rows
    by = dict(rows)
    assert by["off"] == 1 and 0 < by["ctas"] < 1, rows
PY

# (e) lock-step reference = MIMD reference on every shipped kernel (status and dumped memory)
for f in "$SRC"/sweeps/kernels/*.yaml; do
    for mode in "" --lockstep; do
        "$BIN" sim "$f" --reference $mode --json > "$T/r$mode.json" 2>/dev/null || true
    done
    $PY - "$T/r.json" "$T/r--lockstep.json" "$f" <<'PY' || fail "(e) lock-step differs on $f"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["status"] == b["status"] == "ok", (a["status"], b["status"], sys.argv[3])
assert a["thread_insts"] == b["thread_insts"] or "spinlock" in sys.argv[3], (a["thread_insts"], b["thread_insts"])
PY
done
echo ok
