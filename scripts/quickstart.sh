#!/usr/bin/env bash
# Builds warpsweep, runs the quickstart sweep (sweeps/quickstart.yaml, under a
# minute on 2 cores) into results/quickstart.h5 and plots it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target warpsweep >/dev/null   # the tests: scripts/test.sh builds them
./build/warpsweep run sweeps/quickstart.yaml --force
./build/warpsweep info results/quickstart.h5 --best ipc --top 3
/usr/bin/python3 analysis/plot_quickstart.py results/quickstart.h5 results/quickstart.png
