#!/usr/bin/env bash
# Builds warpsweep and passes every test: unit tests (cmocka) and end-to-end
# tests (the built binary on the shipped workloads), then the whole suite
# again under AddressSanitizer + UndefinedBehaviorSanitizer (and, with clang
# installed, the input readers' tests under clang's sanitizers too).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc)

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs"
(cd build && ctest --output-on-failure -j "$jobs")

if [ "${WS_SKIP_SANITIZERS:-0}" != 1 ]; then
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DWS_SANITIZE=ON >/dev/null
  cmake --build build-asan -j "$jobs"
  # Tests that time many long simulations are labelled "slow" and run only in the Release pass.
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
     ctest --output-on-failure -j "$jobs" -LE slow)
  # clang's UBSan has -fsanitize=float-cast-overflow (GCC's lacks it; CMakeLists.txt
  # adds it where the compiler takes it): the input readers' tests once more under it
  if command -v clang >/dev/null; then
    CC=clang cmake -S . -B build-clang-asan -DCMAKE_BUILD_TYPE=Debug -DWS_SANITIZE=ON >/dev/null
    cmake --build build-clang-asan -j "$jobs"
    (cd build-clang-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
       ctest --output-on-failure -j "$jobs" -R 'robustness|test_workload|test_store|test_sweep')
  fi
fi
