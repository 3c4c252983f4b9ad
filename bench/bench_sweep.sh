#!/usr/bin/env bash
# Speed figures of the sweep driver (docs/sweeps.md). A benchmark, not a test.
#
#   bash bench/bench_sweep.sh [BUILD_DIR]      (default: build)
#
# 1. -j 2 vs -j 1 on 200 mid-sized points (latency kernel with 1024 loop
#    iterations per thread: tens of ms each), wall time and speedup.
# 2. Per-point overhead: 20,000 tiny points (saxpy, one CTA resident at a
#    time, ~1-2 thousand simulated cycles), points/s/core, HDF5 included.
# 3. Peak RSS (/usr/bin/time -v) for 1,000 vs 100,000 tiny points.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
case $B in /*) BIN=$B/warpsweep ;; *) BIN=$PWD/$B/warpsweep ;; esac
[ -x "$BIN" ] || { echo "build first: cmake -S . -B $B && cmake --build $B -j2" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
K=$PWD/sweeps/kernels

# a longer-running copy of the latency workload: 1024 iterations per thread
cp "$K/latency.ptx" "$T/"
sed -e 's/^params: \[one, out, 64\]/params: [one, out, 1024]/' -e 's/^  out: 64$/  out: 1024/' \
    "$K/latency.yaml" > "$T/latency_long.yaml"
grep -q 'out, 1024' "$T/latency_long.yaml" || { echo "bench: cannot make latency_long.yaml" >&2; exit 1; }

cat > "$T/mid.yaml" <<YAML
name: bench-mid
workload: latency_long.yaml
grid:
  warps: [1, 2, 4, 8, 16, 32, 48, 64]
  mem_latency: {from: 100, to: 500, step: 100}
  scheduler: [lrr, gto, two_level, oldest, swl]
YAML
cat > "$T/tiny.yaml" <<YAML
name: bench-tiny
workload: $K/saxpy.yaml
base: {max_ctas: 1}
grid:
  alu_latency: {from: 1, to: 100, step: 1}
  mem_latency: {from: 1, to: 200, step: 1}
YAML
cat > "$T/rss1k.yaml" <<YAML
name: bench-rss-1k
workload: $K/saxpy.yaml
base: {max_ctas: 1}
grid:
  alu_latency: {from: 1, to: 10, step: 1}
  mem_latency: {from: 1, to: 100, step: 1}
YAML
cat > "$T/rss100k.yaml" <<YAML
name: bench-rss-100k
workload: $K/saxpy.yaml
base: {max_ctas: 1}
grid:
  alu_latency: {from: 1, to: 100, step: 1}
  mem_latency: {from: 1, to: 1000, step: 1}
YAML

wall() { # wall seconds of a run
    local s e
    s=$(date +%s.%N)
    "$BIN" run "$@" --force --quiet
    e=$(date +%s.%N)
    echo "$e - $s" | bc -l
}
best_of() { # best of 3 wall times
    local best=999999 t
    for _ in 1 2 3; do
        t=$(wall "$@")
        best=$(echo "if ($t < $best) $t else $best" | bc -l)
    done
    printf '%.3f' "$best"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
n=$("$BIN" expand "$T/mid.yaml" --count)
t1=$(best_of "$T/mid.yaml" -j 1 -o "$T/mid1.h5")
t2=$(best_of "$T/mid.yaml" -j 2 -o "$T/mid2.h5")
printf '1. %s mid-sized points: -j 1 %.3f s, -j 2 %.3f s, speedup %.2fx (%.1f ms/point)\n' "$n" "$t1" "$t2" \
    "$(echo "$t1 / $t2" | bc -l)" "$(echo "1000 * $t1 / $n" | bc -l)"

n=$("$BIN" expand "$T/tiny.yaml" --count)
t1=$(best_of "$T/tiny.yaml" -j 1 -o "$T/tiny1.h5")
t2=$(best_of "$T/tiny.yaml" -j 2 -o "$T/tiny2.h5")
printf '2. %s tiny points: -j 1 %.3f s = %.0f points/s/core; -j 2 %.3f s = %.0f points/s (%.0f /core)\n' "$n" \
    "$t1" "$(echo "$n / $t1" | bc -l)" "$t2" "$(echo "$n / $t2" | bc -l)" "$(echo "$n / $t2 / 2" | bc -l)"

for f in rss1k rss100k; do
    n=$("$BIN" expand "$T/$f.yaml" --count)
    /usr/bin/time -v "$BIN" run "$T/$f.yaml" -j 2 -o "$T/$f.h5" --force --quiet 2> "$T/time.txt"
    rss=$(grep 'Maximum resident set size' "$T/time.txt" | awk '{print $NF}')
    el=$(grep 'Elapsed (wall clock)' "$T/time.txt" | awk '{print $NF}')
    printf '3. %6s points: peak RSS %s KB, wall %s, file %s KB\n' "$n" "$rss" "$el" "$(( $(stat -c %s "$T/$f.h5") / 1024 ))"
done
