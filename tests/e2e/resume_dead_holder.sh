#!/usr/bin/env bash
# --resume right after a kill -9 (issue 46 item 13). A run killed while a forked child of it
# (the file check of ws_h5_vet) still had the journal open left that child holding the
# journal's flock for about a second, and an immediate --resume was refused naming the dead
# run. Now the child closes every descriptor but its pipe, and a lock whose recorded holder
# is dead is waited for (up to 10 s) and taken. Here a process of our own (flock(1)) stands
# in for the lingering child: it holds the lock for 1.5 s while the journal names the killed
# run; --resume waits and completes every point exactly once. When the recorded holder is
# alive, --resume is refused at once, naming it.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail
command -v flock > /dev/null || { echo "resume_dead_holder: skipped (no flock(1))"; exit 0; }
cat > "$T/s.yaml" <<YAML
name: e2e-dead-holder
workload: $SRC/sweeps/kernels/latency.yaml
base: {issue: scoreboard, preset: seed}
grid:
  warps: [1, 2, 4, 8]
  mem_latency: {from: 100, to: 1000, step: 100}
  scheduler: [lrr, gto, two_level, oldest, swl]
YAML
TOTAL=200
J=$T/k.h5.journal
kill_midway "$T/s.yaml" "$T/k.h5"
pid=$killed_pid
[ -f "$J" ] && [ ! -e "$T/k.h5" ] || fail "after kill -9: $(ls "$T")"
# the header names the killed run (holder_pid at byte 88)
holder=$($PY -c 'import struct,sys; print(struct.unpack_from("<i", open(sys.argv[1], "rb").read(128), 88)[0])' "$J")
[ "$holder" = "$pid" ] || fail "journal holder $holder, killed run $pid"

# a live process holds the lock, the recorded holder is dead: --resume waits for it
flock "$J" -c "touch '$T/held'; sleep 1.5" &
locker=$!
for _ in $(seq 200); do [ -f "$T/held" ] && break; sleep 0.01; done
"$BIN" run "$T/s.yaml" -o "$T/k.h5" -j 2 --resume --quiet 2> "$T/err" || fail "--resume refused: $(cat "$T/err")"
wait $locker
$PY - "$T/k.h5" $TOTAL <<'PY' || fail "rows after the resume"
import sys, h5py
p = h5py.File(sys.argv[1], "r")["points"][...]
pts = sorted(int(x) for x in p["point"])
assert pts == list(range(int(sys.argv[2]))), (len(pts), pts[:5])
PY

# a live recorded holder: refused at once, naming it
kill_midway "$T/s.yaml" "$T/l.h5"
sleep 30 &
alive=$!
$PY -c 'import struct,sys; f=open(sys.argv[1], "r+b"); f.seek(88); f.write(struct.pack("<i", int(sys.argv[2])))' \
  "$T/l.h5.journal" "$alive"
flock "$T/l.h5.journal" -c "touch '$T/held2'; sleep 3" &
locker=$!
for _ in $(seq 200); do [ -f "$T/held2" ] && break; sleep 0.01; done
start=$(date +%s%N)
set +e; "$BIN" run "$T/s.yaml" -o "$T/l.h5" -j 1 --resume --quiet 2> "$T/err2"; rc=$?; set -e
took=$(( ($(date +%s%N) - start) / 1000000 ))
kill $alive 2> /dev/null || true
wait $locker 2> /dev/null || true
[ $rc = 1 ] && grep -q "in use by another warpsweep (process $alive)" "$T/err2" || fail "live holder: exit $rc: $(cat "$T/err2")"
[ "$took" -lt 2500 ] || fail "a live holder was waited for (${took} ms)"
echo "resume_dead_holder: ok"
