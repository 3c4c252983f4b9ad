#!/usr/bin/env bash
# `info --best` and `pareto` conditioned on scenario axes (--where, --by),
# occupancy_limit as names (sim --json, info, the HDF5 column, and files
# that stored the code as an integer), `info` on a missing output whose
# journal survived a kill -9, and a resumed run's progress tallies.
# Expected fronts and rankings are computed here from the HDF5 rows (h5py),
# not taken from warpsweep's output.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

cat > "$T/s.yaml" <<YAML
name: e2e-select
workload: $SRC/sweeps/kernels/latency.yaml
base: {issue: scoreboard, preset: seed}
grid:
  warps: [1, 2, 4, 8]
  mem_latency: [100, 400]
  scheduler: [lrr, gto]
YAML
"$BIN" run "$T/s.yaml" -o "$T/r.h5" -j 2 --quiet || fail "run"

"$BIN" pareto "$T/r.h5" --by mem_latency > "$T/by.txt" || fail "pareto --by"
"$BIN" pareto "$T/r.h5" --where 'scheduler=gto,mem_latency=400' --x warps --min-x --y ipc > "$T/where.txt" ||
  fail "pareto --where"
"$BIN" info "$T/r.h5" --best ipc --by mem_latency --top 2 > "$T/info_by.txt" || fail "info --by"
"$BIN" info "$T/r.h5" --best cycles --min --where scheduler=lrr --top 3 > "$T/info_where.txt" || fail "info --where"
$PY - "$T/r.h5" "$T/by.txt" "$T/where.txt" "$T/info_by.txt" "$T/info_where.txt" <<'PY' || fail "conditioned results"
import re, sys
import h5py
path, by_txt, where_txt, info_by, info_where = sys.argv[1:]
pts = h5py.File(path, "r")["points"][...]
rows = [{n: (r[n].decode() if isinstance(r[n], bytes) else r[n].item()) for n in pts.dtype.names} for r in pts]
ok = [r for r in rows if r["status"] == "ok"]
assert len(ok) == 16, len(ok)

def front(rs, x, y, max_x=False):
    # r is on the front when no other row is at least as good in both and better in one
    sx = -1 if max_x else 1
    def dominates(a, b):
        return (sx * a[x] <= sx * b[x] and a[y] >= b[y]) and (sx * a[x] < sx * b[x] or a[y] > b[y])
    return sorted(r["point"] for r in rs if not any(dominates(o, r) for o in rs))

def sections(txt):
    out, cur = {}, None
    for line in open(txt):
        if line.startswith("#"):
            m = re.match(r"# \S+: (?:(\w+=\S+): )?Pareto front of (\d+) point", line)
            cur = m.group(1) or ""
            out[cur] = []
        elif line.strip() and not line.startswith("point"):
            out[cur].append(int(line.split()[0]))
    return {k: sorted(v) for k, v in out.items()}

got = sections(by_txt)
want = {"mem_latency=%d" % lat: front([r for r in ok if r["mem_latency"] == lat], "area_mm2", "work_ipc")
        for lat in (100, 400)}
assert got == want, (got, want)
assert list(got) == ["mem_latency=100", "mem_latency=400"], list(got)   # ascending
sub = [r for r in ok if r["scheduler"] == "gto" and r["mem_latency"] == 400]
got = sections(where_txt)
assert got == {"": front(sub, "warps", "ipc")}, (got, front(sub, "warps", "ipc"))
assert "where scheduler=gto, mem_latency=400" in open(where_txt).readline()

def best_lines(txt):
    groups, cur = {}, ""
    for line in open(txt).read().split("best ", 1)[1].splitlines()[1:]:
        if line.startswith(" ") and not line.startswith("  "):
            cur = line.strip().rstrip(":")
            continue
        groups.setdefault(cur, []).append(int(re.search(r"point (\d+)", line).group(1)))
    return groups

got = best_lines(info_by)
want = {}
for lat in (100, 400):
    g = sorted((r for r in ok if r["mem_latency"] == lat), key=lambda r: (-r["ipc"], r["point"]))
    want["mem_latency=%d" % lat] = [r["point"] for r in g[:2]]
assert got == want, (got, want)
g = sorted((r for r in ok if r["scheduler"] == "lrr"), key=lambda r: (r["cycles"], r["point"]))
assert best_lines(info_where) == {"": [r["point"] for r in g[:3]]}, (best_lines(info_where), g[:3])
assert "selected:  8 of 16 rows" in open(info_where).read()
PY

# the README's pandas example, as written there (path replaced), with warnings as errors:
# one row per scheduler in the file, none for the categories it does not hold
cmd=$(grep -A1 "^/usr/bin/python3 -c 'import sys; sys.path.insert(0, \"analysis\")" "$SRC/README.md" |
      sed -e 's/^  //' | tr -d '\\\n' | sed -e "s|^/usr/bin/python3 -c '||" -e "s|'\$||" -e "s|results/quickstart.h5|$T/r.h5|")
[ -n "$cmd" ] || fail "the README example is not found"
(cd "$SRC" && $PY -W error -c "$cmd") > "$T/readme.txt" || fail "README example: $cmd"
$PY - "$T/readme.txt" "$T/r.h5" <<'PY' || fail "README example output: $(cat "$T/readme.txt")"
import sys, h5py
out = open(sys.argv[1]).read().split()
pts = h5py.File(sys.argv[2], "r")["points"][...]
for s in ("lrr", "gto"):
    want = max(p["ipc"] for p in pts if p["scheduler"] == s.encode())
    i = out.index(s)
    assert abs(float(out[i + 1]) - want) < 1e-5 * want, (s, out[i + 1], want)
assert "two_level" not in out and "NaN" not in out, out
PY

# unknown axis or value: one line, exit 2
for args in "--by mem_latencyy" "--where scheduler=foo" "--where warps"; do
  set +e; "$BIN" pareto "$T/r.h5" $args > /dev/null 2> "$T/err"; rc=$?; set -e
  [ $rc = 2 ] && [ "$(wc -l < "$T/err")" = 1 ] || fail "pareto $args: exit $rc: $(cat "$T/err")"
done
grep -q "did you mean 'mem_latency'" <("$BIN" info "$T/r.h5" --by mem_latencyy 2>&1) || fail "info --by typo"

# ---- occupancy_limit as names
# latency_occ: 1 warp/CTA of 10 regs/thread = 320 registers -> 512 (unit 256) = 2 KiB per CTA;
# regfile_kb=7 holds floor(7/2) = 3 CTAs < 32 warp slots: registers; max_ctas=2 < 3: max_ctas
lim() { "$BIN" sim "$SRC/sweeps/kernels/latency_occ.yaml" --json --set preset=seed "$@" |
        $PY -c 'import json, sys; print(json.load(sys.stdin)["occupancy_limit"])'; }
[ "$(lim --set regfile_kb=7 --set max_ctas=1024)" = registers ] || fail "sim --json: $(lim --set regfile_kb=7)"
[ "$(lim --set regfile_kb=7 --set max_ctas=2)" = max_ctas ] || fail "max_ctas limit"
"$BIN" sim "$SRC/sweeps/kernels/latency_occ.yaml" --set preset=seed --set regfile_kb=7 --set max_ctas=1024 |
  grep -qx "occupancy_limit: registers" || fail "sim text output"
# latency.yaml: 32-thread CTAs, warps=4 slots, 4 warps x 2 KiB fit 64 KiB: warp slots
# (outputs captured first: grep -q stopping early would SIGPIPE a long output under pipefail)
info=$("$BIN" info "$T/r.h5")
grep -q "^limits:    occupancy of the ok points limited by warps 16 registers 0 smem 0 max_ctas 0 grid 0" <<<"$info" ||
  fail "info limits: $("$BIN" info "$T/r.h5" | grep limits)"
# an older file stored the code as an integer: rewrite the column so, and read it back
$PY - "$T/r.h5" "$T/old.h5" <<'PY' || fail "old-format file"
import sys, h5py, numpy as np
src, dst = sys.argv[1:]
with h5py.File(src, "r") as f:
    data = f["points"][...]
    attrs = dict(f.attrs)
    assert data.dtype["occupancy_limit"].kind == "S", data.dtype["occupancy_limit"]
    assert set(data["occupancy_limit"]) == {b"warps"}, set(data["occupancy_limit"])
    assert f["points"].attrs["choices:occupancy_limit"] == b"warps|registers|smem|max_ctas|grid"
names = ["warps", "registers", "smem", "max_ctas", "grid"]
dt = [(n, np.int64 if n == "occupancy_limit" else data.dtype[n]) for n in data.dtype.names]
old = np.zeros(len(data), dtype=dt)
for n in data.dtype.names:
    old[n] = [names.index(v.decode()) for v in data[n]] if n == "occupancy_limit" else data[n]
old["occupancy_limit"][3] = 1     # point 3: registers, as code 1
with h5py.File(dst, "w") as f:
    f.create_dataset("points", data=old)
    for k, v in attrs.items():
        f.attrs[k] = v
PY
info=$("$BIN" info "$T/old.h5")
grep -q "limited by warps 15 registers 1 smem 0" <<<"$info" || fail "info on an integer column: $("$BIN" info "$T/old.h5" | grep limits)"

# ---- kill -9: the output is missing, its journal is there
cat > "$T/big.yaml" <<YAML
name: e2e-select-kill
workload: $SRC/sweeps/kernels/latency.yaml
base: {issue: scoreboard, preset: seed}
grid:
  warps: [1, 2, 4, 8]
  mem_latency: {from: 100, to: 1000, step: 100}
  scheduler: [lrr, gto, two_level, oldest, swl]
  divergence: [stack, sbi]
YAML
TOTAL=400   # 4 x 10 x 5 x 2; light points, so that the sanitizer pass stays short
kill_midway "$T/big.yaml" "$T/k.h5"
[ ! -e "$T/k.h5" ] && [ -f "$T/k.h5.journal" ] || fail "after kill -9: $(ls "$T")"
set +e; "$BIN" info "$T/k.h5" > /dev/null 2> "$T/err"; rc=$?; set -e
[ $rc = 1 ] && [ "$(wc -l < "$T/err")" = 1 ] || fail "info on the missing file: exit $rc: $(cat "$T/err")"
grep -Eq "^$T/k.h5: no such file, but its journal $T/k.h5.journal holds [0-9]+ of $TOTAL points of an interrupted run .*--resume. continues it$" "$T/err" ||
  fail "info message: $(cat "$T/err")"
before=$(sed -E 's/.* holds ([0-9]+) of.*/\1/' "$T/err")
[ "$before" -gt 0 ] && [ "$before" -lt $TOTAL ] || fail "journal holds $before"
# resume: the progress lines count the points done before, and the status tallies include them
WS_PROGRESS_INTERVAL=0 "$BIN" run "$T/big.yaml" -o "$T/k.h5" -j 2 --resume 2> "$T/prog.txt" || fail "resume: $(tail -3 "$T/prog.txt")"
$PY - "$T/prog.txt" "$before" $TOTAL <<'PY' || fail "progress after --resume: $(head -3 "$T/prog.txt"; tail -2 "$T/prog.txt")"
import re, sys
lines = [l for l in open(sys.argv[1]) if "points/s" in l]
before, total = int(sys.argv[2]), int(sys.argv[3])
assert lines, "no progress lines"
for l in lines:
    m = re.match(r"e2e-select-kill: (\d+)/(\d+) points \((\d+\.\d)%\).*,((?: \w+ \d+)*)$", l.strip())
    assert m, l
    done, tot, pct = int(m.group(1)), int(m.group(2)), float(m.group(3))
    counts = [int(x) for x in re.findall(r"\d+", m.group(4))]
    assert tot == total and done > before, l
    assert sum(counts) == done, ("tallies", l)          # the earlier points are in the tallies
    assert pct == int(done * 1000 / total) / 10, l      # rounded down: 100.0 only when done
    assert pct < 100 or done == total, l
assert lines[-1].startswith("e2e-select-kill: %d/%d points (100.0%%)" % (total, total)), lines[-1]
PY
"$BIN" run "$T/big.yaml" -o "$T/ref.h5" -j 2 --quiet || fail "reference run"
$PY "$SRC/tests/e2e/h5compare.py" "$T/k.h5" "$T/ref.h5" --complete || fail "resumed file differs"
echo "analysis_select: ok"
