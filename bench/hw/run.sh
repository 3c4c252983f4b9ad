#!/bin/bash
# Builds bench/hw/microbench.cu for the GPU present and runs it once; writes
#   ${OUT:-.}/microbench.tsv   the figures (name, value, unit, detail), headed by the device, the
#                              driver, the CUDA version, the clocks before and after, and this command
# Runs in under two minutes on an H100. Nothing here changes the GPU's settings (no clock locking:
# the clocks the figures were taken at are recorded instead).
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
out=${OUT:-.}
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d '.')
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$NVCC" -O3 -diag-suppress 550 -arch=sm_"$cap" -o "$tmp/microbench" microbench.cu
clocks() { nvidia-smi --query-gpu=clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader | head -1; }
{
    echo "# bench/hw/run.sh on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1), sm_$cap, $("$NVCC" --version | tail -1)"
    echo "# clocks before (sm MHz, mem MHz, max sm MHz, C, W): $(clocks)"
    "$tmp/microbench"
    echo "# clocks after: $(clocks)"
} > "$out/microbench.tsv"
cat "$out/microbench.tsv"
