#!/usr/bin/env bash
# `pareto` and `info --best` never compare rows of different workloads: one
# front / ranking per workload by default, --by adds axes (--by
# workload,preset), an axis that changes the question (preset) varying inside
# a front is warned about (one line on stderr), --where workload=NAME matches
# the workload's name (its `name:`, as a sweep's exclude does) or its path,
# and a --where that matches nothing says so, listing the values it could
# match (one line, exit 1); the best and the fronts show the varying axes, --columns
# more. Expected fronts and rankings are computed here
# from the HDF5 rows (h5py) by brute force, not taken from warpsweep.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

# latency.yaml under another name: the file is renamed.yaml, the workload "chain"
sed -e 's/^name: latency$/name: chain/' -e "s|^kernel: latency.ptx|kernel: $SRC/sweeps/kernels/latency.ptx|" \
  "$SRC/sweeps/kernels/latency.yaml" > "$T/renamed.yaml"
grep -q "^name: chain" "$T/renamed.yaml" && grep -q "^kernel: $SRC" "$T/renamed.yaml" || fail "renamed workload"
cat > "$T/s.yaml" <<YAML
name: e2e-workloads
workload: [$SRC/sweeps/kernels/vecadd.yaml, $T/renamed.yaml]
base: {issue: scoreboard}
grid:
  warps: [2, 4, 8, 16]
  preset: [seed, volta]
exclude:
  - {workload: vecadd, warps: 16, preset: seed}   # by name, as --where
YAML
"$BIN" run "$T/s.yaml" -o "$T/r.h5" -j 2 --quiet || fail "run"

P() { local out=$1; shift; "$BIN" "$@" > "$T/$out.txt" 2> "$T/$out.err" || fail "$*: $(cat "$T/$out.err")"; }
P default pareto "$T/r.h5"
P split pareto "$T/r.h5" --by workload,preset
P bypreset pareto "$T/r.h5" --by preset
P chain pareto "$T/r.h5" --where workload=chain --by preset
P chainpath pareto "$T/r.h5" --where "workload=$T/renamed.yaml" --by preset
P info info "$T/r.h5" --best --by preset --top 2
P infodef info "$T/r.h5" --best --top 3
$PY - "$T" "$T/renamed.yaml" "$SRC/sweeps/kernels/vecadd.yaml" <<'PY' || fail "fronts and rankings"
import re, sys
import h5py
T, chain_path, vec_path = sys.argv[1:]
pts = h5py.File(T + "/r.h5", "r")["points"][...]
rows = [{n: (r[n].decode() if isinstance(r[n], bytes) else r[n].item()) for n in pts.dtype.names} for r in pts]
name = {chain_path: "chain", vec_path: "vecadd"}
for r in rows:
    r["wl"] = name[r["workload"]]
ok = [r for r in rows if r["status"] == "ok"]
assert len(rows) == 15 and len(ok) == 13, (len(rows), len(ok))   # vecadd on 2 warp slots: invalid

def front(rs):   # min area_mm2, max work_ipc: r is on it when no row is as good in both and better in one
    dom = lambda a, b: a["area_mm2"] <= b["area_mm2"] and a["work_ipc"] >= b["work_ipc"] and \
        (a["area_mm2"] < b["area_mm2"] or a["work_ipc"] > b["work_ipc"])
    return sorted(r["point"] for r in rs if not any(dom(o, r) for o in rs))

def sections(name):
    out, cur = {}, None
    for line in open("%s/%s.txt" % (T, name)):
        if line.startswith("#"):
            m = re.match(r"# \S+: (?:(.+?): )?Pareto front of (\d+) point\(s\) among (\d+) ok", line)
            assert m, line
            cur = m.group(1) or ""
            out[cur] = []
        elif line.strip() and not line.startswith("point"):
            out[cur].append(int(line.split()[0]))
    return {k: sorted(v) for k, v in out.items()}

want = {"workload=" + w: front([r for r in ok if r["wl"] == w]) for w in ("chain", "vecadd")}
got = sections("default")
assert got == want and list(got) == ["workload=chain", "workload=vecadd"], (got, want)
assert front(ok) != sorted(want["workload=chain"] + want["workload=vecadd"]), "the split should matter here"
err = open(T + "/default.err").read().splitlines()
assert len(err) == 1 and "warning: preset (seed, volta)" in err[0] and "--by workload,preset" in err[0], err

want = {"workload=%s, preset=%s" % (w, p): front([r for r in ok if r["wl"] == w and r["preset"] == p])
        for w in ("chain", "vecadd") for p in ("seed", "volta")}
for name in ("split", "bypreset"):
    got = sections(name)
    assert got == want and list(got) == list(want), (name, got, want)
    assert open("%s/%s.err" % (T, name)).read() == "", name   # nothing mixed: no warning
want = {"preset=" + p: front([r for r in ok if r["wl"] == "chain" and r["preset"] == p]) for p in ("seed", "volta")}
for name in ("chain", "chainpath"):
    assert sections(name) == want, (name, sections(name), want)

def rankings(name, top):
    groups, cur = {}, ""
    for line in open("%s/%s.txt" % (T, name)).read().split("\nbest ", 1)[1].splitlines()[1:]:
        if line.startswith(" ") and not line.startswith("  "):
            cur = line.strip().rstrip(":")
            continue
        groups.setdefault(cur, []).append(int(re.search(r"point (\d+)", line).group(1)))
    return groups

def best(rs, top):
    return [r["point"] for r in sorted(rs, key=lambda r: (-r["work_per_area"], r["point"]))[:top]]

want = {"workload=%s, preset=%s" % (w, p): best([r for r in ok if r["wl"] == w and r["preset"] == p], 2)
        for w in ("chain", "vecadd") for p in ("seed", "volta")}
assert rankings("info", 2) == want, (rankings("info", 2), want)
want = {"workload=" + w: best([r for r in ok if r["wl"] == w], 3) for w in ("chain", "vecadd")}
assert rankings("infodef", 3) == want, (rankings("infodef", 3), want)
err = open(T + "/infodef.err").read().splitlines()
assert len(err) == 1 and "warning: preset (seed, volta) varies inside a ranking" in err[0], err
PY

# the node scales every area: a front over two nodes is warned about, not one split by node
cat > "$T/n.yaml" <<YAML
name: e2e-nodes
workload: $SRC/sweeps/kernels/vecadd.yaml
base: {preset: seed}
grid: {warps: [4, 8], area.node_nm: [7, 16]}
YAML
"$BIN" run "$T/n.yaml" -o "$T/n.h5" -j 2 --quiet || fail "run nodes"
"$BIN" pareto "$T/n.h5" > /dev/null 2> "$T/err" || fail "pareto nodes"
[ "$(wc -l < "$T/err")" = 1 ] && grep -q "warning: area.node_nm (7, 16) varies inside a front" "$T/err" ||
  fail "node warning: $(cat "$T/err")"
"$BIN" info "$T/n.h5" --best --by area.node_nm > /dev/null 2> "$T/err" || fail "info nodes"
[ ! -s "$T/err" ] || fail "split by node, still warned: $(cat "$T/err")"

# readable output: the best and the fronts show the sweep's axes that vary (warps, preset: not
# the ~20 parameters preset=volta sets), --columns adds parameters and metrics with the file's
# values; with --best the column list is one line
P cols info "$T/r.h5" --best --top 2 --columns l1_kb,cycles
P pcols pareto "$T/r.h5" --columns l1_kb,cycles
P plain info "$T/r.h5"
$PY - "$T" <<'PY' || fail "shown columns"
import re, sys
import h5py
T = sys.argv[1]
pts = h5py.File(T + "/r.h5", "r")["points"][...]
byp = {int(r["point"]): r for r in pts}
val = lambda r, c: r[c].decode() if isinstance(r[c], bytes) else r[c].item()
txt = open(T + "/cols.txt").read()
lines = [l for l in txt.split("\nbest ", 1)[1].splitlines()[1:] if l.startswith("  ")]
assert len(lines) == 4, lines
for l in lines:
    f = l.split()
    assert f[0].startswith("work_per_area=") and f[1:2] == ["point"], l
    r = byp[int(f[2])]
    kv = [x.split("=", 1) for x in f[3:]]
    assert [k for k, _ in kv] == ["warps", "preset", "occupancy_limit", "l1_kb", "cycles"], l
    for k, v in kv:
        assert v == str(val(r, k)), (l, k, val(r, k))
assert re.search(r"^columns:   \d+ \(", txt, re.M) and "\n  point uint64" not in txt, txt[:600]
assert "\n  point uint64" in open(T + "/plain.txt").read()   # without a ranking: the whole list
body = [l.split() for l in open(T + "/pcols.txt") if l.strip() and not l.startswith("#")]
assert body[0] == ["point", "workload", "warps", "preset", "l1_kb", "cycles", "area_mm2", "work_ipc"], body[0]
names = {"chain", "vecadd"}
for f in body[1:]:
    if f[0] == "point":
        continue
    r = byp[int(f[0])]
    assert f[1] in names and [f[2], f[3], f[4], f[5]] == [str(val(r, c)) for c in ("warps", "preset", "l1_kb", "cycles")], f
PY
for cmd in info pareto; do
  set +e; "$BIN" $cmd "$T/r.h5" --columns l1_kbb > /dev/null 2> "$T/err"; rc=$?; set -e
  [ $rc = 2 ] && [ "$(wc -l < "$T/err")" = 1 ] && grep -q "did you mean 'l1_kb'" "$T/err" || fail "$cmd --columns typo: $rc $(cat "$T/err")"
done

# a --where that matches nothing: one line naming the values it could match, exit 1
nomatch() {  # expected-line command...
  local want=$1; shift
  set +e; "$BIN" "$@" > "$T/out" 2> "$T/err"; rc=$?; set -e
  [ $rc = 1 ] && [ "$(cat "$T/err")" = "$want" ] && [ ! -s "$T/out" ] ||
    fail "$*: exit $rc: $(cat "$T/err") (want: $want)"
}
nomatch "warpsweep pareto: $T/r.h5: --where workload=nosuch matches no row (workload in the file: chain, vecadd)" \
  pareto "$T/r.h5" --where workload=nosuch
nomatch "warpsweep info: $T/r.h5: --where warps=32 matches no row (warps in the file: 2, 4, 8, 16)" \
  info "$T/r.h5" --where warps=32
nomatch "warpsweep pareto: $T/r.h5: --where preset=ampere matches no row (preset in the file: seed, volta)" \
  pareto "$T/r.h5" --where preset=ampere,warps=2
nomatch "warpsweep info: $T/r.h5: --where workload=vecadd, warps=16, preset=seed matches no row (each condition matches some rows, no row all of them)" \
  info "$T/r.h5" --best --where workload=vecadd,warps=16,preset=seed
# the stem of a renamed workload's file is not its name (exclude would refuse it too)
nomatch "warpsweep pareto: $T/r.h5: --where workload=renamed matches no row (workload in the file: chain, vecadd)" \
  pareto "$T/r.h5" --where workload=renamed
echo "analysis_workloads: ok"
