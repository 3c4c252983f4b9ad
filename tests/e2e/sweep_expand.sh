#!/usr/bin/env bash
# warpsweep expand: CSV header and rows (order: last axis fastest, excludes
# skipped), --count instantly on 10^12 points, --name on a multi-sweep file,
# derived values and their notes; progress bar on a terminal.
set -euo pipefail
BIN=${WS_BIN:-$PWD/build/warpsweep}
SRC=${WS_SOURCE_DIR:-$PWD}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$T/s.yaml" <<'YAML'
name: ex
workload: [a.yaml, b.yaml]
base:
  mem_latency: "=100000 / (warps - 2)"
grid:
  warps: [1, 4]
  scheduler: [lrr, gto]
exclude:
  - {workload: b.yaml, scheduler: gto}
repeat: 2
YAML
# 2 workloads * 2 warps * 2 schedulers * 2 seeds = 16, minus b.yaml x gto (2*2) = 12
[ "$("$BIN" expand "$T/s.yaml" --count)" = 12 ] || fail "count"
"$BIN" expand "$T/s.yaml" > "$T/out.csv"
cat > "$T/want.csv" <<'CSV'
point,workload,seed,warps,scheduler,mem_latency,note
0,a.yaml,0,1,lrr,-100000,"derived mem_latency = -100000 is out of range [1, 100000]"
1,a.yaml,1,1,lrr,-100000,"derived mem_latency = -100000 is out of range [1, 100000]"
2,a.yaml,0,1,gto,-100000,"derived mem_latency = -100000 is out of range [1, 100000]"
3,a.yaml,1,1,gto,-100000,"derived mem_latency = -100000 is out of range [1, 100000]"
4,a.yaml,0,4,lrr,50000,
5,a.yaml,1,4,lrr,50000,
6,a.yaml,0,4,gto,50000,
7,a.yaml,1,4,gto,50000,
8,b.yaml,0,1,lrr,-100000,"derived mem_latency = -100000 is out of range [1, 100000]"
9,b.yaml,1,1,lrr,-100000,"derived mem_latency = -100000 is out of range [1, 100000]"
10,b.yaml,0,4,lrr,50000,
11,b.yaml,1,4,lrr,50000,
CSV
diff "$T/want.csv" "$T/out.csv" || fail "expand CSV"
"$BIN" expand "$T/s.yaml" --all > "$T/all.csv"
head -1 "$T/all.csv" | grep -q ",warp_size,cores," || fail "--all header"

# 10^12 points: counted at once (the run limit does not apply to --count)
{
    echo "workload: w.yaml"; echo "grid:"
    for p in warps warp_size cores two_level_active swl_limit barrier_regs alu_latency sfu_latency smem_latency \
             mem_latency max_ctas regfile_kb; do
        echo "  $p: {from: 1, to: 10, step: 1}"
    done
    echo "exclude:"; echo "  - {warps: 1, cores: [1, 2]}"
} > "$T/big.yaml"
s=$(date +%s%N)
[ "$("$BIN" expand "$T/big.yaml" --count)" = 980000000000 ] || fail "10^12 count"
e=$(date +%s%N)
[ $(( (e - s) / 1000000 )) -lt 2000 ] || fail "count took $(( (e - s) / 1000000 )) ms"
if "$BIN" expand "$T/big.yaml" > /dev/null 2> "$T/err.txt"; then fail "listing 10^12 points"; fi
grep -q "more than the limit of 1000000000" "$T/err.txt" || fail "limit message"

# several sweeps: --count lists them, listing needs --name
printf 'name: one\nworkload: w.yaml\ngrid: {warps: [1, 2]}\n---\nname: two\nworkload: w.yaml\ngrid: {warps: [1, 2, 3]}\n' > "$T/m.yaml"
[ "$("$BIN" expand "$T/m.yaml" --count | tr '\n' ' ')" = "one 2 two 3 " ] || fail "multi count"
[ "$("$BIN" expand "$T/m.yaml" --name two | tail -1)" = "2,w.yaml,0,3" ] || fail "--name"
set +e; "$BIN" expand "$T/m.yaml" > /dev/null 2>&1; rc=$?; set -e
[ "$rc" = 2 ] || fail "listing a multi-sweep file without --name: exit $rc"

# a run with invalid derived points: rows with status invalid, the others run
cat > "$T/d.yaml" <<YAML
name: derived
workload: $SRC/sweeps/kernels/latency.yaml
base:
  mem_latency: "=1000 / (warps - 2)"
grid:
  warps: [1, 2, 4, 8]
YAML
"$BIN" run "$T/d.yaml" -o "$T/d.h5" --quiet || fail "run with invalid points"
/usr/bin/python3 - "$T/d.h5" <<'PY' || fail "invalid rows"
import sys; sys.path.insert(0, "analysis"); import warpsweep
df = warpsweep.load(sys.argv[1])
assert list(df.status) == ["invalid", "invalid", "ok", "ok"], list(df.status)
assert df.message[0] == "derived mem_latency = -1000 is out of range [1, 100000]", df.message[0]
assert df.message[1] == "derived mem_latency = inf is out of range [1, 100000]", df.message[1]
assert list(df.mem_latency[2:]) == [500, 167], list(df.mem_latency)   # ceil(1000/6) = 167
PY

# progress: a bar when stderr is a terminal
if command -v script > /dev/null; then
    script -q -e -c "$BIN run $T/d.yaml -o $T/tty.h5" /dev/null > "$T/tty.txt" 2>&1 || fail "run under script"
    grep -q "derived \[##############################\] 4/4 100.0%" "$T/tty.txt" || fail "tty bar: $(cat -v "$T/tty.txt")"
    grep -q "ok 2 invalid 2" "$T/tty.txt" || fail "tty counts"
fi
echo "sweep_expand: ok"
