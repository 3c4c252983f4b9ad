#!/usr/bin/env bash
# analysis/throughput_per_area.ipynb runs headless (Debian's jupyter-nbconvert,
# kernel python3 = /usr/bin/python3) on a small results file made here, writes
# its figure, and finds the same Pareto fronts as `warpsweep pareto --y ipc`
# (throughput = ipc x clock_ghz with one clock: the same order), conditioned
# the same way: WS_WHERE=scheduler=gto and one front per mem_latency (the
# notebook's default scenario axis) against `pareto --where scheduler=gto
# --by mem_latency`.
set -euo pipefail
BIN=${WS_BIN:-$PWD/build/warpsweep}
SRC=${WS_SOURCE_DIR:-$PWD}
PY=/usr/bin/python3
NBC=/usr/bin/jupyter-nbconvert
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$NBC" ] || fail "$NBC missing (scripts/setup.sh installs jupyter-nbconvert python3-nbformat python3-ipykernel python3-nbclient)"

cat > "$T/s.yaml" <<YAML
name: e2e-notebook
workload: $SRC/sweeps/kernels/latency_occ.yaml
base:
  max_ctas: 1024
  regfile_kb: "=warps * ceil(regs_per_thread * warp_size / reg_alloc_unit) * reg_alloc_unit * 4 / 1024"
grid:
  scheduler: [lrr, gto]
  mem_latency: [100, 300]
  warps: [4, 8, 16, 32, 64]
  divergence: [stack, sbi]
YAML
"$BIN" run "$T/s.yaml" -o "$T/s.h5" -j 2 --quiet || fail "run"

export PYDEVD_DISABLE_FILE_VALIDATION=1
WS_RESULTS="$T/s.h5" WS_FIGURE="$T/front.png" WS_WHERE=scheduler=gto \
    "$NBC" --to notebook --execute --ExecutePreprocessor.kernel_name=python3 --ExecutePreprocessor.timeout=300 \
    --output-dir "$T/out" "$SRC/analysis/throughput_per_area.ipynb" > "$T/nbconvert.log" 2>&1 \
    || fail "nbconvert --execute: $(tail -20 "$T/nbconvert.log")"
[ -s "$T/front.png" ] || fail "notebook did not write its figure"

"$BIN" pareto "$T/s.h5" --x area_mm2 --y ipc --where scheduler=gto --by mem_latency > "$T/pareto.txt" || fail "pareto"
$PY - "$T/out/throughput_per_area.ipynb" "$T/pareto.txt" <<'PY' || fail "notebook front differs from warpsweep pareto"
import re, sys
import nbformat
nb = nbformat.read(sys.argv[1], as_version=4)
text = ""
for c in nb.cells:
    for o in c.get("outputs", []):
        if o.get("output_type") == "error":
            sys.exit("cell error: %s: %s" % (o.get("ename"), o.get("evalue")))
        text += o.get("text", "")
lab = re.search(r"labels: (\d+) placed, (\d+) overlapping", text)
if not lab or int(lab.group(1)) == 0 or int(lab.group(2)) != 0:
    sys.exit("the front's labels must not overlap: %s" % (lab.group(0) if lab else "no 'labels:' line"))
m = dict(re.findall(r"front points of .*? (mem_latency=\d+): \[([0-9, ]*)\]", text))
if sorted(m) != ["mem_latency=100", "mem_latency=300"]:
    sys.exit("want one front per mem_latency in the notebook output, got %s:\n%s" % (sorted(m), text))
cli, cur = {}, None
for l in open(sys.argv[2]).read().splitlines():
    if l.startswith("#"):
        cur = re.search(r"(mem_latency=\d+): Pareto front", l).group(1)
        cli[cur] = []
    elif l and not l.startswith("point"):
        cli[cur].append(int(l.split()[0]))
for k, v in m.items():
    nb_points = sorted(int(x) for x in v.split(",") if x.strip())
    if nb_points != sorted(cli[k]) or not nb_points:
        sys.exit("%s: notebook %s vs pareto %s" % (k, nb_points, sorted(cli[k])))
    print("%s: notebook front = pareto front: %s" % (k, nb_points))
PY
echo "notebook: ok"
