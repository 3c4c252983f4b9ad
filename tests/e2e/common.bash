# Sourced by the e2e scripts (not a test itself: ctest runs tests/e2e/*.sh):
#   . "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"
# BIN the warpsweep under test, SRC the source tree, PY the system python (with
# h5py), T a temporary directory removed at exit, fail MESSAGE to stop with FAIL.
BIN=${WS_BIN:-$PWD/build/warpsweep}
SRC=${WS_SOURCE_DIR:-$PWD}
PY=/usr/bin/python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
