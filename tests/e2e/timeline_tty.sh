#!/usr/bin/env bash
# sim --timeline to a terminal (a pty here) stops after 2000 lines or 256 KiB
# (src/cli/cmd_sim.c TTY_TIMELINE_*) and says how to window it, then prints
# the result as usual; redirected to a file, the same run writes the whole
# timeline. The expected terminal text is cut here, in Python, from the
# redirected output (the timeline is what precedes its "status:" line).
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

# on a pty: stdout and stderr of the command, as the terminal received them
on_tty() {
  $PY - "$@" <<'PY'
import os, pty, subprocess, sys
master, slave = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdout=slave, stderr=slave, stdin=subprocess.DEVNULL)
os.close(slave)
out = b""
while True:
    try:
        chunk = os.read(master, 1 << 16)
    except OSError:   # EIO: the child closed the pty
        break
    if not chunk:
        break
    out += chunk
sys.stdout.buffer.write(out.replace(b"\r\n", b"\n"))
sys.exit(p.wait())
PY
}

# latency.yaml under the seed core: 34 timeline rows of ~21 KB (712 KB): cut by bytes
W=$SRC/sweeps/kernels/latency.yaml
"$BIN" sim "$W" --set preset=seed --timeline > "$T/file.txt" || fail "redirected"
on_tty "$BIN" sim "$W" --set preset=seed --timeline > "$T/tty.txt" || fail "on a terminal"
$PY - "$T/file.txt" "$T/tty.txt" <<'PY' || fail "terminal timeline: $(grep -a '^\.\.\.' "$T/tty.txt")"
import sys
full, tty = (open(p, "rb").read() for p in sys.argv[1:])
cut = full.index(b"\nstatus: ") + 1
timeline, result = full[:cut], full[cut:]
assert len(timeline) > 256 * 1024, len(timeline)
shown = timeline[:256 * 1024]                     # 256 KiB reached before 2000 lines
assert shown.count(b"\n") < 2000
left = timeline[len(shown):]
want = shown + (b"" if shown.endswith(b"\n") else b"\n")
want += (b"... timeline cut at %d lines for the terminal (%d more lines, %d bytes): window it with "
         b"--cycles FROM:TO, --warps LIST or --cores LIST, or redirect it to a file (> FILE)\n"
         % (shown.count(b"\n"), left.count(b"\n"), len(left)))
want += result
if tty != want:
    i = next(i for i in range(min(len(tty), len(want))) if tty[i] != want[i])
    sys.exit("differs at byte %d: got %r, want %r" % (i, tty[i - 40:i + 80], want[i - 40:i + 80]))
PY

# a window of it fits: the terminal gets it whole, as a file does
"$BIN" sim "$W" --set preset=seed --timeline --cycles 0:2000 > "$T/file.txt" || fail "window, redirected"
on_tty "$BIN" sim "$W" --set preset=seed --timeline --cycles 0:2000 > "$T/tty.txt" || fail "window on a terminal"
cmp -s "$T/file.txt" "$T/tty.txt" || fail "a short timeline differs on a terminal: $(diff "$T/file.txt" "$T/tty.txt" | head -5)"
grep -q "^\.\.\. timeline cut" "$T/tty.txt" && fail "a short timeline was cut"
# --json: the timeline goes to stderr, the cap with it; stdout still holds one JSON object
on_tty "$BIN" sim "$W" --set preset=seed --timeline --json > "$T/tty.txt" 2>&1 || fail "--json on a terminal"
[ "$(grep -ac '^\.\.\. timeline cut at' "$T/tty.txt")" = 1 ] || fail "--json: no cut line"
"$BIN" sim "$W" --set preset=seed --timeline --json 2> "$T/err.txt" > /dev/null || fail "--json redirected"
grep -q "timeline cut" "$T/err.txt" && fail "a redirected stderr was cut"
echo "timeline_tty: ok"
