#!/usr/bin/env bash
# Builds warpsweep and runs the main job on the shipped default.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" >/dev/null
./build/warpsweep sim sweeps/kernels/vecadd.yaml
