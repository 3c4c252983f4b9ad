#!/usr/bin/env bash
# sim --trace / --timeline restricted to a cycle window and to some warps and
# cores: the restricted trace is exactly the full trace's rows with
# FROM <= cycle < TO, warp and core in the lists; the timeline marks as many
# issues; analysis/timeline.py draws the restricted trace. Bad selections:
# one line, exit 2.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail
W=$SRC/sweeps/kernels/latency.yaml
SETS=(--set preset=seed --set cores=2 --set warps=4 --set mem_latency=50)

"$BIN" sim "$W" "${SETS[@]}" --trace "$T/full.csv" > /dev/null || fail "full trace"
"$BIN" sim "$W" "${SETS[@]}" --trace "$T/part.csv" --timeline --cycles 100:400 --warps 1,3 --cores 1 > "$T/tl.txt" ||
  fail "restricted trace"
"$BIN" sim "$W" "${SETS[@]}" --trace "$T/open.csv" --cycles 2000: --warps 0-2 > /dev/null || fail "open window"
$PY - "$T/full.csv" "$T/part.csv" "$T/open.csv" "$T/tl.txt" <<'PY' || fail "restricted rows"
import csv, sys
full, part, open_, tl = sys.argv[1:]
rows = lambda p: [r for r in csv.DictReader(open(p))]
f = rows(full)
assert len({r["core"] for r in f}) == 2 and len({r["warp"] for r in f}) == 4, "the full trace spans 2 cores x 4 warps"
want = [r for r in f if 100 <= int(r["cycle"]) < 400 and r["warp"] in ("1", "3") and r["core"] == "1"]
got = rows(part)
assert want and got == want, (len(got), len(want))
want = [r for r in f if int(r["cycle"]) >= 2000 and r["warp"] in ("0", "1", "2")]
assert want and rows(open_) == want, (len(rows(open_)), len(want))
marks = sum(line.split(None, 3)[-1].count("#") for line in open(tl) if line.startswith("c1 w"))
assert marks == len(rows(part)), (marks, len(rows(part)))
assert not any(line.startswith(("c0 ", "c1 w0", "c1 w2")) for line in open(tl)), "unselected rows in the timeline"
PY
$PY "$SRC/analysis/timeline.py" "$T/part.csv" -o "$T/part.png" > /dev/null || fail "timeline.py"
[ "$(head -c 8 "$T/part.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "not a PNG"

for bad in "--cycles 5:5" "--cycles 9" "--cycles -3:4" "--warps 4" "--warps 1-" "--cores 2" "--warps x"; do
  set +e; "$BIN" sim "$W" "${SETS[@]}" --timeline $bad > /dev/null 2> "$T/err"; rc=$?; set -e
  [ $rc = 2 ] && [ "$(wc -l < "$T/err")" = 1 ] || fail "$bad: exit $rc: $(cat "$T/err")"
done
set +e; "$BIN" sim "$W" --warps 1 > /dev/null 2> "$T/err"; rc=$?; set -e
[ $rc = 2 ] && grep -q "give one of them" "$T/err" || fail "--warps without --trace/--timeline: $rc $(cat "$T/err")"
echo "timeline_window: ok"
