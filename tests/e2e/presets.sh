#!/usr/bin/env bash
# Presets (issue 11, include/warpsweep/presets.def, docs/presets.md):
#  - sim --set preset=seed gives the seed's values (the issue's list and the
#    pre-issue registry values, written here by hand) and the same run as
#    setting those values one by one; explicit --set beats the preset in
#    either order; a seed closed form (one warp of latency.ptx, blocking issue:
#    T = L + 4a per iteration, docs/model.md) holds under preset=seed;
#  - every preset runs a shipped workload to ok with its published figures;
#  - a sweep with preset in base and an axis overriding one of its values:
#    expand --all and the results file carry the expanded values and the
#    preset column; a preset axis; unknown names are one-line errors;
#  - warpsweep params [--presets] lists every presets.def line.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail
SAXPY=$SRC/sweeps/kernels/saxpy.yaml

# ---- sim --set preset=seed: the seed's values --------------------------------
"$BIN" sim "$SAXPY" --set preset=seed --json > "$T/seed.json" || fail "sim preset=seed"
$PY - "$T/seed.json" <<'PY' || fail "seed values"
import json, sys
d = json.load(open(sys.argv[1]))
want = dict(int_lanes=0, fp32_lanes=0, fp64_lanes=0, sfu_lanes=0, fp64_latency=0, int64_cost=1,
            idiv_latency=0, idiv_interval=0, fdiv_latency=0, fdiv_interval=0, ddiv_latency=0,
            ddiv_interval=0, lsu_bytes_per_cycle=0, collectors=0, ibuffer=0, inst_order="ptx",
            issue_width=1, lowering="none",
            # the registry's values before issue 11 (docs/model.md, docs/memory.md)
            alu_latency=4, sfu_latency=20, smem_latency=24, mem_latency=400, l1_kb=0, dram_bw=0,
            warps=32, schedulers=1, scheduler="lrr", issue="scoreboard", divergence="stack",
            preset="seed", status="ok")
bad = {k: (d.get(k), v) for k, v in want.items() if d.get(k) != v}
assert not bad, bad
PY

# the same run as the seed's values given one by one (the issue's list)
SEED_SETS=(--set int_lanes=0 --set fp32_lanes=0 --set fp64_lanes=0 --set sfu_lanes=0 --set fp64_latency=0
           --set int64_cost=1 --set idiv_latency=0 --set idiv_interval=0 --set fdiv_latency=0
           --set fdiv_interval=0 --set ddiv_latency=0 --set ddiv_interval=0 --set lsu_bytes_per_cycle=0
           --set collectors=0 --set ibuffer=0 --set inst_order=ptx --set issue_width=1 --set lowering=none
           # the memory: the registry's values before the hierarchy became the default (docs/memory.md)
           --set mem_latency=400 --set l1_kb=0 --set l1_ways=4 --set l1_mshrs=32 --set dram_bw=0
           --set sector_bytes=0 --set l1_mshr_merge=0 --set icnt_latency=0 --set icnt_req_bw=0
           --set icnt_reply_bw=0 --set l2_kb=0 --set l2_ways=16 --set l2_latency=200 --set l2_mshrs=64
           --set l2_mshr_merge=0 --set atomic_interval=0 --set dram_banks=0 --set dram_tRCD=0
           --set dram_tRP=0 --set dram_tCL=0 --set dram_sched=fcfs --set mem_per_core=0 --set fence=alu
           --set smem_atomic_serial=0 --set l1_smem_kb=0
           # the core: the registry's values before model version 2 (CHANGES.md)
           --set warps=32 --set schedulers=1 --set scheduler=lrr --set divergence=stack --set smem_latency=24
           --set clock_ghz=1.5 --set tensor_f16_macs=256
           # memory timings in core cycles at any clock (model version 3's mem_timing_ghz)
           --set mem_timing_ghz=0)
"$BIN" sim "$SAXPY" "${SEED_SETS[@]}" --json > "$T/byhand.json" || fail "sim with the seed's values"
$PY - "$T/seed.json" "$T/byhand.json" <<'PY' || fail "preset=seed differs from the seed's values set by hand"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
a.pop("preset"); b.pop("preset")
assert a == b, {k: (a[k], b.get(k)) for k in a if a[k] != b.get(k)}
PY

# ---- explicit beats the preset, in either order ------------------------------
"$BIN" sim "$SAXPY" --set alu_latency=10 --set preset=seed --json > "$T/a.json" || fail "sim a"
"$BIN" sim "$SAXPY" --set preset=seed --set alu_latency=10 --json > "$T/b.json" || fail "sim b"
"$BIN" sim "$SAXPY" --set warps=8 --set preset=volta --json > "$T/c.json" || fail "sim c"
$PY - "$T/a.json" "$T/b.json" "$T/c.json" <<'PY' || fail "precedence"
import json, sys
a, b, c = (json.load(open(f)) for f in sys.argv[1:])
assert a == b, "order of --set changes the run"
assert a["alu_latency"] == 10 and a["int_lanes"] == 0 and a["inst_order"] == "ptx", a
# V100 whitepaper: 4 schedulers, 96 KB shared; warps given
assert (c["warps"], c["schedulers"], c["smem_kb"], c["divergence"]) == (8, 4, 96, "sbi"), c
PY

# ---- a seed closed form under preset=seed ------------------------------------
# latency.ptx, 1 warp, blocking issue, L = 100, a = 4: each iteration is
# T = L + (n-1)a = 116 cycles (docs/model.md, "Latency hiding, derived" step 1).
sed -e "s|^kernel: latency.ptx|kernel: $SRC/sweeps/kernels/latency.ptx|" -e 's|^grid: 64 .*|grid: 1|' \
    -e 's|^params: \[one, out, 64\].*|params: [one, out, 50]|' -e 's|^  out: 64$|  out: 50|' \
    -e 's|count: 2048|count: 32|' \
    "$SRC/sweeps/kernels/latency.yaml" > "$T/lat1.yaml"
"$BIN" sim "$T/lat1.yaml" --set preset=seed --set issue=blocking --set mem_latency=100 --json > "$T/lat.json" \
    || fail "latency kernel under preset=seed"
$PY - "$T/lat.json" <<'PY' || fail "seed closed form"
import json, sys
d = json.load(open(sys.argv[1]))
want = 50 * (100 + 4 * 4)
assert d["status"] == "ok" and abs(d["cycles"] - want) <= 0.05 * want, (d["cycles"], want)
PY

# ---- every preset runs to ok, with its published structure --------------------
for p in none seed fermi volta turing ampere; do
    "$BIN" sim "$SAXPY" --set preset=$p --json > "$T/$p.json" || fail "saxpy under preset=$p: $(cat "$T/$p.json")"
done
$PY - "$T" <<'PY' || fail "preset figures"
import json, os, sys
d = {p: json.load(open(os.path.join(sys.argv[1], p + ".json"))) for p in
     ("none", "seed", "fermi", "volta", "turing", "ampere")}
# (warps, schedulers, smem_kb, max_ctas, divergence): Fermi WP / CUDA guide 4.2 cc 2.0, V100 WP,
# Turing WP / CUDA guide cc 7.5, A100 WP / CUDA guide cc 8.0
want = {"fermi": (48, 2, 48, 8, "stack"), "volta": (64, 4, 96, 32, "sbi"),
        "turing": (32, 4, 64, 16, "sbi"), "ampere": (64, 4, 164, 32, "sbi")}
for p, w in want.items():
    got = tuple(d[p][k] for k in ("warps", "schedulers", "smem_kb", "max_ctas", "divergence"))
    assert got == w and d[p]["status"] == "ok" and d[p]["preset"] == p, (p, got, w, d[p]["status"])
assert d["none"]["preset"] == "none" and d["seed"]["status"] == "ok"
PY

# ---- sweeps: preset in base, an axis overriding one of its values -------------
cat > "$T/s.yaml" <<YAML
name: preset-base
workload: $SAXPY
base:
  preset: volta
  alu_latency: 6
grid:
  warps: [8, 16]
YAML
"$BIN" expand "$T/s.yaml" --all > "$T/s.csv" || fail "expand"
$PY - "$T/s.csv" <<'PY' || fail "expand --all values"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["warps"] for r in rows] == ["8", "16"], rows
for r in rows:
    # the axis and base win; the rest is the V100 preset
    assert (r["preset"], r["alu_latency"], r["schedulers"], r["smem_kb"], r["l1_kb"], r["sfu_lanes"]) == \
        ("volta", "6", "4", "96", "32", "4"), r
PY
"$BIN" run "$T/s.yaml" -o "$T/s.h5" --quiet || fail "run"
$PY - "$T/s.h5" <<'PY' || fail "results file"
import sys; sys.path.insert(0, "analysis"); import warpsweep
df = warpsweep.load(sys.argv[1])
assert list(df.warps) == [8, 16] and set(df.preset) == {"volta"}, df
assert set(df.alu_latency) == {6} and set(df.schedulers) == {4} and set(df.status) == {"ok"}, df
PY

# a preset axis: each point expands its own; columns for what the presets change
cat > "$T/axis.yaml" <<YAML
name: preset-axis
workload: $SAXPY
base: {int_lanes: 8}
grid:
  preset: [seed, fermi]
YAML
"$BIN" expand "$T/axis.yaml" > "$T/axis.csv" || fail "expand axis"
$PY - "$T/axis.csv" <<'PY' || fail "preset axis"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["preset"] for r in rows] == ["seed", "fermi"], rows
assert [r["warps"] for r in rows] == ["32", "48"] and [r["schedulers"] for r in rows] == ["1", "2"], rows
assert "int_lanes" not in rows[0]                    # given in base: not varying
assert "barrier_regs" not in rows[0]                 # no preset sets it (mem_latency: issue 12 sets it)
PY

# ---- errors --------------------------------------------------------------------
if "$BIN" sim "$SAXPY" --set preset=voltaa > "$T/out.txt" 2> "$T/err.txt"; then fail "unknown preset accepted"; fi
grep -qx "parameter preset: 'voltaa' is not one of none|seed|fermi|volta|turing|ampere|gpgpusim_qv100 (did you mean 'volta'?)" \
    "$T/err.txt" || fail "sim message: $(cat "$T/err.txt")"
printf 'workload: w.yaml\nbase:\n  preset: amperee\n' > "$T/bad.yaml"
if "$BIN" expand "$T/bad.yaml" 2> "$T/err.txt"; then fail "unknown preset accepted in a sweep"; fi
grep -qx "$T/bad.yaml:3:11: parameter preset: 'amperee' is not one of none|seed|fermi|volta|turing|ampere|gpgpusim_qv100 (did you mean 'ampere'?)" \
    "$T/err.txt" || fail "sweep message: $(cat "$T/err.txt")"

# ---- warpsweep params lists the presets ------------------------------------------
"$BIN" params --presets > "$T/sources.txt" || fail "params --presets"
n_lines=$(grep -c '^PRESET(' "$SRC/include/warpsweep/presets.def")
n_listed=$(tail -n +2 "$T/sources.txt" | wc -l)
[ "$n_lines" = "$n_listed" ] || fail "params --presets lists $n_listed values, presets.def has $n_lines"
grep -q '^volta    sfu_lanes  *4  *CUDA guide' "$T/sources.txt" || fail "params --presets source column"
# docs/presets.md's table says what presets.def says
$PY - "$T/sources.txt" "$SRC/docs/presets.md" <<'PY' || fail "docs/presets.md table differs from presets.def"
import sys
listed = {}
for line in open(sys.argv[1]).read().splitlines()[1:]:
    preset, param, value = line.split(None, 3)[:3]
    listed[(preset, param)] = value
table = [l for l in open(sys.argv[2]) if l.startswith("| `")]
head = next(l for l in open(sys.argv[2]) if l.startswith("| parameter |"))
presets = [c.strip() for c in head.strip().strip("|").split("|")][1:]
doc = {}
for row in table:
    cells = [c.strip() for c in row.strip().strip("|").split("|")]
    for p, v in zip(presets, cells[1:]):
        if v != "·":
            doc[(p, cells[0].strip("`"))] = v
assert doc == listed, (sorted(set(doc.items()) ^ set(listed.items())))
PY
# ---- parts: preset_core / preset_mem / preset_area ------------------------------
# preset=ampere with its memory part at none is the same run as ampere's core and area parts
# on the default memory; the note names the core and the node only when preset sets them
cyc() { "$BIN" sim "$SAXPY" "$@" 2>"$T/note.txt" | sed -n 's/^cycles: //p'; }
a=$(cyc --set preset=ampere --set preset_mem=none)
b=$(cyc --set preset_core=ampere --set preset_area=ampere)
[ -n "$a" ] && [ "$a" = "$b" ] || fail "parts: preset=ampere preset_mem=none ($a) != preset_core=ampere preset_area=ampere ($b)"
[ ! -s "$T/note.txt" ] || fail "parts: a note without preset=: $(cat "$T/note.txt")"
c=$(cyc --set preset=ampere)
grep -q '^note: preset ampere sets the core: .*schedulers=4' "$T/note.txt" || fail "no core note: $(cat "$T/note.txt")"
grep -q '^note: preset ampere sets the area: .*area.node_nm=7' "$T/note.txt" || fail "no area note: $(cat "$T/note.txt")"
m=$(cyc --set preset_mem=ampere)
[ "$m" != "$c" ] && [ "$m" != "$a" ] || fail "parts: preset_mem=ampere ($m) should differ from preset=ampere ($c) and its core alone ($a)"
"$BIN" sim "$SAXPY" --set preset_mem=ampere --json > "$T/pm.json"
$PY - "$T/pm.json" <<'PY' || fail "preset_mem=ampere: core values not the defaults"
import json, sys
j = json.load(open(sys.argv[1]))
p = j   # parameters are top-level keys beside the metrics
assert p["schedulers"] == 4 and p["warps"] == 64, (p["schedulers"], p["warps"])   # registry defaults (a V100 SM)
assert p["l1_kb"] != 32 or p["l2_kb"] != 75, (p["l1_kb"], p["l2_kb"])              # not the default memory
PY
"$BIN" params | sed -n '/^presets/,$p' > "$T/p.txt"
for p in seed fermi volta turing ampere; do grep -q "^$p " "$T/p.txt" || fail "params: no $p line"; done
echo ok
