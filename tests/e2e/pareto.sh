#!/usr/bin/env bash
# warpsweep pareto: the printed front equals a brute-force O(n^2) dominance
# check done in Python on the same file (tests/e2e/pareto_check.py), for the
# default columns/directions (area_mm2 minimised, work_ipc maximised) and for
# other columns and directions; only ok rows
# take part (the sweep has invalid rows); rows differing only in seed are one
# configuration at its means (repeat: 2 of an unperturbed kernel: exact
# duplicates, n 2, half-width 0), and with jitter the printed intervals and
# the `noise` marks equal the checker's scipy model (docs/noise.md); usage errors.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

cat > "$T/p.yaml" <<YAML
name: e2e-pareto
workload: $SRC/sweeps/kernels/latency_occ.yaml
base: {max_ctas: 1024}
grid:
  scheduler: [lrr, gto]
  mem_latency: [100, 300]
  warps: [4, 16, 64]
  regfile_kb: [1, 16, 64, 128]     # 2 KiB per warp: 1 KiB cannot hold one CTA (invalid)
  divergence: [stack, sbi]
repeat: 2
YAML
"$BIN" run "$T/p.yaml" -o "$T/p.h5" -j 2 --quiet || fail "run"
ninvalid=$($PY -c "import h5py,sys; p=h5py.File(sys.argv[1])['points'][...]; print(sum(s==b'invalid' for s in p['status']))" "$T/p.h5")
[ "$ninvalid" -eq 0 ] && fail "the sweep should have invalid rows"

check() {  # x y maxx maxy [pareto args...]
    local x=$1 y=$2 mx=$3 my=$4; shift 4
    local h5=${H5:-$T/p.h5}
    "$BIN" pareto "$h5" "$@" > "$T/out.txt" || fail "pareto $*"
    $PY "$SRC/tests/e2e/pareto_check.py" "$h5" "$T/out.txt" "$x" "$y" "$mx" "$my" || fail "pareto $*: $(cat "$T/out.txt")"
}
check area_mm2 work_ipc 0 1
check area_mm2 work_ipc 0 1 --x area_mm2 --y work_ipc --min-x --max-y
check area_mm2 ipc 0 1 --y ipc
check area_mm2 throughput_per_area 0 1 --y throughput_per_area
check warps cycles 1 0 --x warps --max-x --y cycles --min-y
check regfile_kb work_ipc 0 1 --x regfile_kb          # y: the default
check resident_warps throughput_per_area 1 1 --x resident_warps --max-x --y throughput_per_area

# duplicates: each configuration is its two seeds, identical: n 2, +- 0, no seed column
"$BIN" pareto "$T/p.h5" > "$T/out.txt"
n=$(grep -vc '^#' "$T/out.txt"); [ "$n" -ge 3 ] || fail "front too small: $(cat "$T/out.txt")"
grep -v '^#' "$T/out.txt" | head -1 | grep -q " seed " && fail "seed column with repeats: $(cat "$T/out.txt")"
grep -v '^#' "$T/out.txt" | tail -n +2 | awk '$(NF-1) != 2 || $(NF-2) != 0 || $(NF-4) != 0 { bad = 1 } END { exit bad }' ||
  fail "unperturbed repeats should be n 2, +- 0: $(cat "$T/out.txt")"

# perturbed repeats: intervals and noise marks against the checker
cat > "$T/j.yaml" <<YAML
name: e2e-pareto-jitter
workload: $SRC/sweeps/kernels/latency_occ.yaml
base: {max_ctas: 1024, jitter: 8}
grid:
  scheduler: [lrr, gto, two_level]
  warps: [4, 8, 16]
  divergence: [stack, sbi]
repeat: 4
YAML
"$BIN" run "$T/j.yaml" -o "$T/j.h5" -j 2 --quiet || fail "run jitter"
H5=$T/j.h5 check cycles area_mm2 0 0 --x cycles --min-x --y area_mm2 --min-y
H5=$T/j.h5 check area_mm2 work_ipc 0 1
H5=$T/j.h5 check warps ipc 1 1 --x warps --max-x --y ipc

# errors
set +e
"$BIN" pareto "$T/p.h5" --x nosuch 2> "$T/err.txt"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "unknown column 'nosuch'" "$T/err.txt" || fail "unknown column: rc $rc $(cat "$T/err.txt")"
set +e
"$BIN" pareto "$T/missing.h5" 2> "$T/err.txt"; rc=$?
set -e
[ $rc -eq 1 ] || fail "missing file: rc $rc"
set +e
"$BIN" pareto 2> /dev/null; rc=$?
set -e
[ $rc -eq 2 ] || fail "no file: rc $rc"
echo "pareto: ok"
