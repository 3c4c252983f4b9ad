# Sourced by the e2e scripts (not a test itself: ctest runs tests/e2e/*.sh):
#   . "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
# BIN the warpsweep under test, SRC the source tree, PY the system python (with
# h5py), T a temporary directory removed at exit, fail MESSAGE to stop with FAIL,
# kill_midway SWEEP OUT.h5: a run of SWEEP (-j 1) killed with SIGKILL once its
# journal holds some records (> 20000 bytes: the 128-byte header and a few rows).
BIN=${WS_BIN:-$PWD/build/warpsweep}
SRC=${WS_SOURCE_DIR:-$PWD}
PY=/usr/bin/python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
kill_midway() {
  "$BIN" run "$1" -o "$2" -j 1 --quiet &
  local pid=$!
  for _ in $(seq 600); do
    [ -f "$2.journal" ] && [ "$(stat -c %s "$2.journal")" -gt 20000 ] && break
    sleep 0.05
  done
  kill -KILL $pid; wait $pid 2> /dev/null || true
  killed_pid=$pid
}
