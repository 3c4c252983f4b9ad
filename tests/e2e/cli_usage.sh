#!/usr/bin/env bash
# The command line itself: `--help` on every subcommand prints its usage on
# stdout and exits 0; a sweep file given to `sim` and a workload file given
# to `run` get one line naming the command that takes them; `params` prints
# an aligned table, CSV and JSON with the same parameters.
set -euo pipefail
. "${WS_SOURCE_DIR:-$PWD}/tests/e2e/common.bash"   # BIN, SRC, PY, T (removed at exit), fail

for c in run expand info pareto merge slurm sim inspect params; do
  for h in --help -h; do
    set +e
    "$BIN" $c $h > "$T/out" 2> "$T/err"
    rc=$?
    set -e
    [ $rc = 0 ] || fail "$c $h: exit $rc: $(cat "$T/err")"
    grep -q "^usage: warpsweep $c " "$T/out" || fail "$c $h: no usage on stdout: $(cat "$T/out")"
    [ ! -s "$T/err" ] || fail "$c $h: stderr: $(cat "$T/err")"
  done
done
# --help after other arguments too
"$BIN" info results.h5 --best ipc --help | grep -q "^usage: warpsweep info" || fail "info FILE --help"

# one line, the file's position, and the command that takes the file
expect_line() { # WANT_REGEX CMD...
  local want=$1; shift
  set +e
  "$@" > "$T/out" 2> "$T/err"
  local rc=$?
  set -e
  [ $rc = 1 ] || fail "$*: exit $rc (want 1)"
  [ "$(wc -l < "$T/err")" = 1 ] || fail "$*: not one line: $(cat "$T/err")"
  grep -Eq "$want" "$T/err" || fail "$*: got '$(cat "$T/err")', want /$want/"
}
Q=$SRC/sweeps/quickstart.yaml
WL=$SRC/sweeps/kernels/latency.yaml
# quickstart.yaml: `description:` is the first key a workload does not have
dline=$(grep -n '^description:' "$Q" | cut -d: -f1)
expect_line "^$Q:$dline:1: this is a sweep file \(key 'description'\), not a workload: \`warpsweep run\` runs a sweep" \
  "$BIN" sim "$Q"
expect_line "^$Q:$dline:1: this is a sweep file" "$BIN" inspect "$Q"
kline=$(grep -n '^kernel:' "$WL" | cut -d: -f1)
expect_line "^$WL:$kline:1: this is a workload file \(key 'kernel'\), not a sweep: \`warpsweep sim\` runs a workload" \
  "$BIN" run "$WL" -o "$T/x.h5"
expect_line "^$WL:$kline:1: this is a workload file" "$BIN" expand "$WL"
[ ! -e "$T/x.h5" ] || fail "run wrote an output for a workload file"

# params: table, CSV and JSON list the registry's parameters in the same order
"$BIN" params > "$T/table.txt"
"$BIN" params --format csv > "$T/p.csv"
"$BIN" params --format json > "$T/p.json"
"$BIN" params --format table | cmp -s - "$T/table.txt" || fail "--format table differs from the default"
$PY - "$T/table.txt" "$T/p.csv" "$T/p.json" "$SRC/include/warpsweep/params.def" <<'PY' || fail "params formats"
import csv, json, re, sys
table, csvp, jsonp, defp = sys.argv[1:]
# every parameter of params.def (PI/PF/PC(name, ...) and PFN(id, "name", ...) lines) is listed
rows = list(csv.DictReader(open(csvp)))
js = json.load(open(jsonp))
names = [r["name"] for r in rows]
plain = re.findall(r'^\s*P[ICF]\(\s*([A-Za-z_0-9]+)\s*,', open(defp).read(), re.M) + \
    re.findall(r'^\s*PFN\(\s*[a-z_0-9]+\s*,\s*"([^"]+)"', open(defp).read(), re.M)
assert len(plain) > 50 and sorted(plain) == sorted(names), set(plain) ^ set(names)
assert len(set(names)) == len(names)
assert [o["name"] for o in js] == names
for r, o in zip(rows, js):
    assert r["type"] == o["type"] and r["description"] == o["description"], (r, o)
    if o["type"] == "choice":
        assert r["choices"].split("|") == o["choices"] and o["default"] in o["choices"], o
    else:
        assert float(r["min"]) == o["min"] and float(r["max"]) == o["max"] and o["min"] <= o["default"] <= o["max"], o
# the table: every row's fields start where the header's do
lines = [l for l in open(table).read().split("\n\n")[0].splitlines() if not l.startswith("# ")]
assert open(table).read().startswith("# The defaults are one coherent SM"), "params: no note on the defaults"
head = lines[0]
starts = [head.index(h) for h in ("name", "type", "default", "unit", "range", "description")]
assert len(lines) == 1 + len(names), len(lines)
for line, r in zip(lines[1:], rows):
    for s, key in zip(starts, ("name", "type", "default", "unit", None, "description")):
        assert s == 0 or line[s - 2:s] == "  " and line[s] != " ", (line, s)
        if key:
            want = r[key] or "-"
            assert line[s:].startswith(want), (line[s:s + 20], want)
PY
echo "cli_usage: ok"
