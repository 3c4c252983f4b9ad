#!/usr/bin/env bash
# Hostile, careless and malformed input on every surface: workload YAML, PTX,
# sweep YAML and expressions, --set, the command line of every subcommand,
# damaged or foreign results files, and configurations that would exhaust
# memory. Every case must end with exit 0/1/2 (as the case says), nothing from
# a sanitizer, a signal or an HDF5 error stack, exactly one stderr line for an
# input error (starting with file:line:col where the input has a position),
# and no output file left behind by a refused run.
# Inputs: tests/robustness/ (small files) and generated ones (large or binary).
# Manually: WS_BIN=build-rob-asan/warpsweep WS_SOURCE_DIR=. bash tests/e2e/robustness.sh
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
cd "$WS_SOURCE_DIR" || exit 1
R=tests/robustness
K=sweeps/kernels
fail=0
cases=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*"; fail=1; }
root=0; [ "$(id -u)" -eq 0 ] && root=1

# run NAME "RCS" -- CMD...: CMD (2 min at most) must exit with one of RCS and
# print nothing that shows a crash. Leaves $rc, $tmp/out, $tmp/err.
run() {
  local name=$1 rcs=$2
  shift 3
  cases=$((cases + 1))
  timeout 120 "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  if grep -qaE "AddressSanitizer|LeakSanitizer|runtime error|Segmentation|Aborted|core dumped|HDF5-DIAG|stack-overflow" \
       "$tmp/out" "$tmp/err"; then
    bad "$name: crash or sanitizer report: $(head -c 800 "$tmp/err")"
    return 1
  fi
  [ "$rc" -ne 124 ] || { bad "$name: timed out"; return 1; }
  case " $rcs " in
    *" $rc "*) return 0 ;;
    *) bad "$name: exit $rc, expected one of $rcs: $(head -c 400 "$tmp/err")"; return 1 ;;
  esac
}

# refused NAME "RCS" PREFIX -- CMD...: as run, plus exactly one stderr line
# starting with PREFIX and an empty stdout.
refused() {
  local name=$1 rcs=$2 prefix=$3
  shift 4
  run "$name" "$rcs" -- "$@" || return
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || { bad "$name: stderr is not one line: $(head -c 800 "$tmp/err")"; return; }
  case "$(cat "$tmp/err")" in
    "$prefix"*) ;;
    *) bad "$name: expected '$prefix...', got '$(cat "$tmp/err")'"; return ;;
  esac
  [ ! -s "$tmp/out" ] || bad "$name: stdout not empty: $(head -c 200 "$tmp/out")"
}

# status NAME STATUS -- CMD...: `sim` ends with that status (exit 1 unless ok)
status() {
  local name=$1 want=$2
  shift 3
  run "$name" "$([ "$want" = ok ] && echo 0 || echo 1)" -- "$@" || return
  grep -q "^status: $want\$" "$tmp/out" || bad "$name: expected status $want, got: $(head -c 300 "$tmp/out")"
}

# nothing_written NAME FILE: a refused run left neither FILE nor its journal
nothing_written() {
  [ ! -e "$2" ] && [ ! -e "$2.journal" ] && [ ! -e "$2.tmp" ] || bad "$1: left $(ls -d "$2"* 2>/dev/null)"
}

rep() { local s=$1 n=$2 out=""; while [ "$n" -gt 0 ]; do out="$out$s"; n=$((n - 1)); done; printf '%s' "$out"; }
# $2 copies of $1 (fast for large counts)
many() { head -c "$2" /dev/zero | tr '\0' "$1"; }

# ---------------------------------------------------------------- workloads
W="$WS_BIN sim"
refused wl_empty 1 "$R/wl_empty.yaml:1:1: empty workload file" -- $W $R/wl_empty.yaml
refused wl_dupkey 1 "$R/wl_dupkey.yaml:4:1: duplicate key 'grid'" -- $W $R/wl_dupkey.yaml
refused wl_nonutf8 1 "$R/wl_nonutf8.yaml:4:10: YAML syntax error: incomplete UTF-8 octet sequence (byte 0xe9)" -- $W $R/wl_nonutf8.yaml
refused wl_count_huge 1 "$R/wl_count_huge.yaml:6:25: buffer 'x': count: 1000000000000 is out of range" -- $W $R/wl_count_huge.yaml
refused wl_count_total 1 "$R/wl_count_total.yaml:6:25: buffer 'x': count: the buffers hold 17179869184 bytes" -- $W $R/wl_count_total.yaml
refused wl_param_huge 1 "$R/wl_param_huge.yaml:7:10: params[0] (.param .u32" -- $W $R/wl_param_huge.yaml
grep -q "99999999999999999999999 is out of range for u32" "$tmp/err" || bad "wl_param_huge: $(cat "$tmp/err")"
refused wl_kernel_dir 1 "$R/wl_kernel_dir.yaml:1:9: kernel '.': $R/. is a directory" -- $W $R/wl_kernel_dir.yaml
# kernel: a device, a FIFO (no writer: must not block), a file over the bound
printf 'kernel: /dev/zero\ngrid: 1\nblock: 32\n' >"$tmp/devzero.yaml"
refused wl_kernel_devzero 1 "$tmp/devzero.yaml:1:9: kernel '/dev/zero': /dev/zero is not a regular file (a device, FIFO or socket), not a .ptx file" -- $W "$tmp/devzero.yaml"
mkfifo "$tmp/k.fifo"
printf 'kernel: k.fifo\ngrid: 1\nblock: 32\n' >"$tmp/fifo.yaml"
refused wl_kernel_fifo 1 "$tmp/fifo.yaml:1:9: kernel 'k.fifo': $tmp/k.fifo is not a regular file" -- $W "$tmp/fifo.yaml"
truncate -s 40M "$tmp/big.ptx"   # sparse: more than WS_PTX_MAX_BYTES (32 MiB), include/warpsweep/ptx.h
printf 'kernel: big.ptx\ngrid: 1\nblock: 32\n' >"$tmp/big.yaml"
refused wl_kernel_big 1 "$tmp/big.yaml:1:9: kernel 'big.ptx': $tmp/big.ptx has 41943040 bytes, more than the 32 MiB a PTX file may have" -- $W "$tmp/big.yaml"
refused ptx_devzero 1 "/dev/zero: not a regular file (a device, FIFO or socket): cannot be a PTX file" -- $WS_BIN inspect /dev/zero
refused ptx_fifo 1 "$tmp/k.fifo: not a regular file" -- $WS_BIN inspect "$tmp/k.fifo"
refused ptx_big 1 "$tmp/big.ptx: 41943040 bytes, more than the 32 MiB a PTX file may have" -- $WS_BIN inspect "$tmp/big.ptx"
refused wl_kernel_self 1 "$R/wl_kernel_self.yaml:1:1: " -- $W $R/wl_kernel_self.yaml
refused wl_wrong_types 1 "$R/wl_wrong_types.yaml:2:7: grid must be N or [x, y, z], not a mapping" -- $W $R/wl_wrong_types.yaml
refused wl_negative 1 "$R/wl_negative.yaml:3:8: block: -64 is out of range" -- $W $R/wl_negative.yaml
status wl_aliases ok -- $W $R/wl_aliases.yaml
# out-of-range doubles where the workload converts to integers (undefined
# behaviour in C; the clang sanitizer pass checks -fsanitize=float-cast-overflow)
wlf() { # NAME X_SPEC Y_SPEC PARAMS: a saxpy workload in $tmp/NAME.yaml
  printf 'kernel: %s/sweeps/kernels/saxpy.ptx\ngrid: 4\nblock: 64\nbuffers:\n  x: {type: %s, count: 256}\n  y: {type: %s, count: 256}\nparams: [%s]\n' \
    "$PWD" "$2" "$3" "$4" >"$tmp/$1.yaml"
}
wlf f1e23 f32 f32 "256, 1e23, x, y"
status wl_float_param_1e23 ok -- $W "$tmp/f1e23.yaml"
wlf i1e23 f32 f32 "1e23, 2.5, x, y"
refused wl_int_param_1e23 1 "$tmp/i1e23.yaml:7:10: params[0] (.param .u32 _Z5saxpyifPKfPf_param_0): 1e23 is out of range for u32" -- $W "$tmp/i1e23.yaml"
wlf i1e300 f32 f32 "-1e300, 2.5, x, y"
refused wl_int_param_m1e300 1 "$tmp/i1e300.yaml:7:10: params[0] (.param .u32 _Z5saxpyifPKfPf_param_0): -1e300 is out of range for u32" -- $W "$tmp/i1e300.yaml"
wlf init1e30 "f32, init: 1e30" "f32, init: [1e300, -1e300, 1.5e19]" "256, 2.5, x, y"
status wl_float_init_huge ok -- $W "$tmp/init1e30.yaml"
wlf u64max f32 "u64, init: {random: {min: 0, max: 18446744073709551615}}" "256, 2.5, x, y"
refused wl_random_u64_2p64 1 "$tmp/u64max.yaml:6:33: init of 'y': random range [0, 1.84467e+19] is out of range for u64" -- $W "$tmp/u64max.yaml"
wlf u64hi f32 "u64, init: {random: {min: 9223372036854775808, max: 18446744073709549568}}" "256, 2.5, x, y"
run wl_random_u64_high "0 1" -- $W "$tmp/u64hi.yaml"
wlf s64lo f32 "s64, init: {random: {min: -9223372036854775808, max: -9223372036854774784}}" "256, 2.5, x, y"
run wl_random_s64_low "0 1" -- $W "$tmp/s64lo.yaml"
mkdir "$tmp/dir.yaml"
refused wl_directory 1 "$tmp/dir.yaml: is a directory, not a workload file" -- $W "$tmp/dir.yaml"
refused wl_missing 1 "$tmp/none.yaml: cannot open: No such file or directory" -- $W "$tmp/none.yaml"
many '\377' 4096 >"$tmp/binary.yaml"
refused wl_binary 1 "$tmp/binary.yaml:1:1: YAML syntax error: invalid leading UTF-8 octet (byte 0xff)" -- $W "$tmp/binary.yaml"
{ printf 'kernel: k.ptx\ngrid: 1\nblock: 1\nname: '; many '[' 20000; many ']' 20000; echo; } >"$tmp/deep.yaml"
refused wl_deep 1 "$tmp/deep.yaml:4:7: name must be a plain string" -- $W "$tmp/deep.yaml"
if [ $root -eq 0 ]; then
  cp $R/wl_aliases.yaml "$tmp/unreadable.yaml"; chmod 000 "$tmp/unreadable.yaml"
  refused wl_unreadable 1 "$tmp/unreadable.yaml: cannot open: Permission denied" -- $W "$tmp/unreadable.yaml"
fi
# memory: 10^6 declared registers x 1024 warps; a 3x10^7-CTA reference run
status wl_manyregs invalid -- $W $R/wl_manyregs.yaml --set warps=1024 --set regfile_kb=65536 --set max_ctas=1024
grep -q "^message: simulator state: .* more than the limit of 4 GiB" "$tmp/out" || bad "wl_manyregs: $(head -3 "$tmp/out")"
status wl_many_cores invalid -- $W $R/wl_bigrid.yaml --set cores=1024 --set warps=1024 --set warp_size=64 --set max_ctas=1024 --set regfile_kb=65536
status wl_bigref invalid -- $W $R/wl_bigref.yaml --reference
grep -q "^message: reference: 60000000 warps" "$tmp/out" || bad "wl_bigref: $(head -3 "$tmp/out")"

# --------------------------------------------------------------------- PTX
I="$WS_BIN inspect"
refused ptx_label_twice 1 "$R/ptx_label_twice.ptx:8:1: label 'L1' defined twice" -- $I $R/ptx_label_twice.ptx
refused ptx_no_entry 1 "$R/ptx_no_entry.ptx: no .entry kernel in the file" -- $I $R/ptx_no_entry.ptx
refused ptx_huge_regs 1 "$R/ptx_huge_regs.ptx:6:12: register range '%r<2000000000>' too large" -- $I $R/ptx_huge_regs.ptx
refused ptx_huge_imm 1 "$R/ptx_huge_imm.ptx:7:20: out-of-range (more than 64 bits) integer literal" -- $I $R/ptx_huge_imm.ptx
refused ptx_truncated 1 "$R/ptx_truncated.ptx:15:10: missing '}'" -- $I $R/ptx_truncated.ptx
refused ptx_nul 1 "$R/ptx_nul.ptx: not a text file (contains NUL bytes)" -- $I $R/ptx_nul.ptx
mkdir "$tmp/dir.ptx"
refused ptx_directory 1 "$tmp/dir.ptx: " -- $I "$tmp/dir.ptx"
yes '%r<9>; {[( add.s32 $$ 0f12 @!' | head -c 10000000 >"$tmp/garbage.ptx"
refused ptx_garbage_10mb 1 "$tmp/garbage.ptx:1:" -- $I "$tmp/garbage.ptx"
{ printf '.version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n'; many '{' 100000; many '}' 100000; echo; } >"$tmp/braces.ptx"
refused ptx_deep_braces 1 "$tmp/braces.ptx:5:257: blocks nested more than 256 deep" -- $I "$tmp/braces.ptx"
{ printf '.version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n.reg .b32 %%r<3>;\n'
  yes 'add.s32 %r1, %r1, 1;' | head -n 100000; printf 'ret;\n}\n'; } >"$tmp/long.ptx"
run ptx_100k_insts 0 -- $I "$tmp/long.ptx"
grep -q "100001 instructions" "$tmp/out" || bad "ptx_100k_insts: $(head -2 "$tmp/out")"

# ------------------------------------------------------------------- sweeps
E="$WS_BIN expand"
run sw_div0 0 -- $E $R/sw_div0.yaml
grep -q '^1,.*"derived warps = inf is out of range' "$tmp/out" || bad "sw_div0: $(cat "$tmp/out")"
refused sw_unknown_fn 1 "$R/sw_unknown_fn.yaml:5:12: parameter warps: unknown function 'sqrt'" -- $E $R/sw_unknown_fn.yaml
refused sw_step0 1 "$R/sw_step0.yaml:5:33: parameter warps: step 0 never gets from 1 to 8" -- $E $R/sw_step0.yaml
refused sw_neg_step 1 "$R/sw_neg_step.yaml:5:33: parameter warps: step -1 never gets from 1 to 8" -- $E $R/sw_neg_step.yaml
refused sw_mul1 1 "$R/sw_mul1.yaml:5:32: parameter warps: mul must be positive and not 1" -- $E $R/sw_mul1.yaml
refused sw_big_literal 1 "$R/sw_big_literal.yaml:5:16: parameter warps: number out of range" -- $E $R/sw_big_literal.yaml
refused sw_nan 1 "$R/sw_nan.yaml:5:15: parameter clock_ghz: '.nan' is not a number" -- $E $R/sw_nan.yaml
refused sw_repeat_huge 1 "$R/sw_repeat_huge.yaml:5:9: repeat: expected an integer in [1, 1000000]" -- $E $R/sw_repeat_huge.yaml
refused sw_exclude_empty 1 "$R/sw_exclude_empty.yaml:6:13: exclude: expected a value for warps, got an empty list" -- $E $R/sw_exclude_empty.yaml
refused sw_nonutf8 1 "$R/sw_nonutf8.yaml:4:14: YAML: invalid leading UTF-8 octet (byte 0xfe)" -- $E $R/sw_nonutf8.yaml
run sw_huge_count 0 -- $E $R/sw_huge_count.yaml --count
[ "$(cat "$tmp/out")" = 109951162777600000 ] || bad "sw_huge_count: $(cat "$tmp/out")"
refused sw_huge_run 1 "$R/sw_huge_count.yaml:4:1: sweep huge_count has 109951162777600000 points, more than the limit" -- \
  $WS_BIN run $R/sw_huge_count.yaml -o "$tmp/huge.h5"
nothing_written sw_huge_run "$tmp/huge.h5"
refused sw_directory 1 "$tmp/dir.yaml: is a directory, not a sweep file" -- $E "$tmp/dir.yaml"
refused sw_empty 1 "$R/wl_empty.yaml:1:1: the file holds no sweep" -- $E $R/wl_empty.yaml
refused sw_binary 1 "$tmp/binary.yaml:1:1: YAML: invalid leading UTF-8 octet (byte 0xff)" -- $E "$tmp/binary.yaml"
hdr="name: s
workload: ../$K/saxpy.yaml
grid:
  warps: "
mkdir -p "$tmp/s"
{ printf '%s"=' "$hdr"; many '(' 100000; printf 2; many ')' 100000; printf '"\n'; } >"$tmp/s/parens.yaml"
refused sw_deep_parens 1 "$tmp/s/parens.yaml:4:268: parameter warps: expression nested more than 256 levels deep" -- $E "$tmp/s/parens.yaml"
{ printf '%s"=' "$hdr"; many '-' 100000; printf '2"\n'; } >"$tmp/s/minus.yaml"
refused sw_deep_minus 1 "$tmp/s/minus.yaml:4:268: parameter warps: expression nested more than 256 levels deep" -- $E "$tmp/s/minus.yaml"
{ printf '%s"=1' "$hdr"; yes '+1' | head -n 50000 | tr -d '\n'; printf '"\n'; } >"$tmp/s/long.yaml"
run sw_long_expr 0 -- $E "$tmp/s/long.yaml"
grep -q 'derived warps = 50001 is out of range' "$tmp/out" || bad "sw_long_expr: $(head -c 300 "$tmp/out")"
{ printf '%s[1, 2]\nexclude:\n' "$hdr"; for i in $(seq 65); do echo "  - {warps: 1}"; done; } >"$tmp/s/ex65.yaml"
refused sw_65_excludes 1 "$tmp/s/ex65.yaml:70:5: more than 64 exclude entries" -- $E "$tmp/s/ex65.yaml"
for i in $(seq 1000); do printf -- '---\nname: s%d\nworkload: ../%s/saxpy.yaml\ngrid:\n  warps: [1, 2]\n' "$i" "$K"; done >"$tmp/s/docs.yaml"
run sw_1000_docs 0 -- $E "$tmp/s/docs.yaml" --count
[ "$(wc -l <"$tmp/out")" -eq 1000 ] || bad "sw_1000_docs: $(wc -l <"$tmp/out") lines"
{ printf 'name: s\nworkload: ['; for i in $(seq 0 4999); do printf 'w%04d.yaml, ' "$i"; done; printf 'w.yaml]\ngrid:\n  warps: [1]\n'; } >"$tmp/s/wl5000.yaml"
refused sw_5000_workloads 1 "$tmp/s/wl5000.yaml:2:49164: workload: more than 4096 workloads" -- $E "$tmp/s/wl5000.yaml"
{ printf '%s' "${hdr/warps: /mem_latency: }"; printf '{from: 1, to: 2000, step: 1}\nexclude:\n  - {mem_latency: ['
  seq -s ', ' 1 1500 | tr -d '\n'; printf ']}\n'; } >"$tmp/s/exlong.yaml"
run sw_long_exclude 0 -- $E "$tmp/s/exlong.yaml" --count
[ "$(cat "$tmp/out")" = 500 ] || bad "sw_long_exclude: $(cat "$tmp/out") points, expected 2000 - 1500 = 500"
# exclude counting: exact against enumeration (tests/robustness/gen_excludes.py
# --brute), and bounded: an exclude list that took minutes is refused at once
G="/usr/bin/python3 $R/gen_excludes.py"
for args in "9 24 3 3 7" "8 30 3 4 3" "10 12 4 2 5"; do
  $G $args "$PWD/$K/saxpy.yaml" >"$tmp/s/ex_brute.yaml"
  $G $args w --brute >"$tmp/ex_want"
  run "sw_excludes_exact ($args)" 0 -- $E "$tmp/s/ex_brute.yaml"
  n=${args%% *}   # the axes: expand's columns are point, workload, seed, the axes, note
  { head -1 "$tmp/ex_want"; tail -n +2 "$tmp/out" | cut -d, -f4-$((3 + n)); } >"$tmp/ex_got"
  [ "$(wc -l <"$tmp/out")" -eq "$(($(head -1 "$tmp/ex_want") + 1))" ] && cmp -s "$tmp/ex_want" "$tmp/ex_got" ||
    bad "sw_excludes_exact ($args): the points differ from the enumeration: $(diff "$tmp/ex_want" "$tmp/ex_got" | head -3)"
done
$G 19 57 3 3 2 "$PWD/$K/saxpy.yaml" >"$tmp/s/ex19.yaml"
SECONDS=0
run sw_19_axes_57_excludes 0 -- $E "$tmp/s/ex19.yaml" --count
[ "$(cat "$tmp/out")" -gt 0 ] || bad "sw_19_axes_57_excludes: $(head -c 200 "$tmp/out")"
[ $SECONDS -lt 30 ] || bad "sw_19_axes_57_excludes: $SECONDS s to count (the memo should make it instant)"
$G 21 64 6 4 1 "$PWD/$K/saxpy.yaml" >"$tmp/s/ex21.yaml"
SECONDS=0
refused sw_21_axes_64_excludes 1 "$tmp/s/ex21.yaml:26:5: exclude: the 64 entries overlap in more than 524288 ways" -- \
  $E "$tmp/s/ex21.yaml" --count
[ $SECONDS -lt 30 ] || bad "sw_21_axes_64_excludes: $SECONDS s to refuse"

# --------------------------------------------------------------------- --set
for s in "" "=" "warps==3" " warps = 3 " "mem_latency=99999999999999999999999" "mem_latency=" "seed=-1" "clock_ghz=nan"; do
  refused "sim --set '$s'" "1 2" "" -- $W $K/saxpy.yaml --set "$s"
  refused "run --set '$s'" "1 2" "" -- $WS_BIN run $R/sw_ok.yaml -o "$tmp/set.h5" --set "$s"
  nothing_written "run --set '$s'" "$tmp/set.h5"
done

# ------------------------------------------------------------- command line
for c in run expand info pareto merge slurm sim inspect; do
  run "$c (no arguments)" 2 -- $WS_BIN $c
  run "$c --bogus" "1 2" -- $WS_BIN $c --bogus
done
run "no subcommand" 2 -- $WS_BIN
run "unknown subcommand" 2 -- $WS_BIN frobnicate
o="$tmp/o.h5"
for j in 0 -1 100000 abc 2x; do
  refused "run -j $j" 2 "warpsweep run: -j expects a positive number of threads" -- $WS_BIN run $R/sw_ok.yaml -o "$o" -j "$j"
  nothing_written "run -j $j" "$o"
done
refused "run -j5abc" 2 "warpsweep run: -j expects" -- $WS_BIN run $R/sw_ok.yaml -o "$o" -j5abc
refused "run --max-points -1" 2 "warpsweep run: --max-points" -- $WS_BIN run $R/sw_ok.yaml -o "$o" --max-points -1
for s in 5/4 0/0 -1/4 abc 1/; do
  refused "run --shard $s" 2 "warpsweep run: --shard expects" -- $WS_BIN run $R/sw_ok.yaml -o "$o" --shard "$s"
done
nothing_written "run --shard" "$o"
mkdir "$tmp/outdir"
for f in "" --force; do
  refused "run -o DIR $f" 1 "warpsweep run: $tmp/outdir is a directory" -- $WS_BIN run $R/sw_ok.yaml -o "$tmp/outdir" $f -q
  [ -z "$(ls -A "$tmp/outdir")" ] && [ ! -e "$tmp/outdir.journal" ] || bad "run -o DIR $f: wrote $(ls "$tmp"/outdir*)"
done
mkfifo "$tmp/fifo.h5"
refused "run -o FIFO --force" 1 "warpsweep run: $tmp/fifo.h5 is not a regular file" -- $WS_BIN run $R/sw_ok.yaml -o "$tmp/fifo.h5" --force -q
[ -p "$tmp/fifo.h5" ] || bad "run -o FIFO --force: the FIFO was replaced"
refused "run -o ''" 2 "warpsweep run: -o '' is not a file name" -- $WS_BIN run $R/sw_ok.yaml -o ""
refused "run -o dir/" 2 "warpsweep run: -o '$tmp/x/' is not a file name" -- $WS_BIN run $R/sw_ok.yaml -o "$tmp/x/"
run "run -o new/dirs/x.h5" 0 -- $WS_BIN run $R/sw_ok.yaml -o "$tmp/new/dirs/x.h5" -q
[ -f "$tmp/new/dirs/x.h5" ] || bad "run -o new/dirs/x.h5: no file"
touch "$tmp/afile"
refused "run -o FILE/x.h5" 1 "warpsweep run: $tmp/afile/x.h5.journal: cannot create: Not a directory" -- $WS_BIN run $R/sw_ok.yaml -o "$tmp/afile/x.h5" -q
if [ $root -eq 0 ]; then
  mkdir "$tmp/ro"; chmod 555 "$tmp/ro"
  refused "run -o read-only" 1 "warpsweep run: $tmp/ro/x.h5.journal: cannot create" -- $WS_BIN run $R/sw_ok.yaml -o "$tmp/ro/x.h5" -q
fi
# a full disk during the final HDF5 write: RLIMIT_FSIZE (ulimit -f, KiB) makes
# every write past 40 KiB fail (EFBIG, SIGXFSZ ignored); the journal (4 rows,
# ~7 KiB) fits, the HDF5 file with its ~60 KiB sweep_yaml does not. One line,
# exit 1, no crash at exit (HDF5's half-closed file), the journal kept, and
# --resume completes the file once there is room.
{ printf 'name: full\nworkload: %s/%s/saxpy.yaml\ngrid:\n  warps: [1, 2, 4, 8]\n' "$PWD" "$K"
  for i in $(seq 700); do printf '# padding line %04d: the sweep text is stored in the file, which makes it large\n' "$i"; done
} >"$tmp/full.yaml"
refused "run on a full disk" 1 "warpsweep run: $tmp/full.h5.tmp: cannot" -- \
  bash -c 'trap "" XFSZ; ulimit -f 40; exec "$@"' full $WS_BIN run "$tmp/full.yaml" -o "$tmp/full.h5" -q
[ -s "$tmp/full.h5.journal" ] && [ ! -e "$tmp/full.h5" ] && [ ! -e "$tmp/full.h5.tmp" ] ||
  bad "run on a full disk: left $(ls "$tmp"/full.h5* 2>/dev/null)"
run "resume after the full disk" 0 -- $WS_BIN run "$tmp/full.yaml" -o "$tmp/full.h5" --resume -q
run "info after the full disk" 0 -- $WS_BIN info "$tmp/full.h5"
grep -q "^points: *4 of 4 (complete)" "$tmp/out" && [ ! -e "$tmp/full.h5.journal" ] ||
  bad "resume after the full disk: $(head -5 "$tmp/out")"
good="$tmp/good.h5"
run "run (good)" 0 -- $WS_BIN run $R/sw_ok.yaml -o "$good" -q -j 2
echo "not hdf5" >"$tmp/text.h5"
refused "run --resume on text" 1 "$tmp/text.h5: not an HDF5 file" -- $WS_BIN run $R/sw_ok.yaml -o "$tmp/text.h5" --resume -q
[ "$(cat "$tmp/text.h5")" = "not hdf5" ] || bad "run --resume on text: the file changed"
head -c 3000 "$good" >"$tmp/trunc.h5"
refused "run --resume on truncated" 1 "$tmp/trunc.h5: not an HDF5 file" -- $WS_BIN run $R/sw_ok.yaml -o "$tmp/trunc.h5" --resume -q
run "pareto (no ok rows)" 0 -- env WS_UNUSED=1 $WS_BIN pareto "$good" --x area_mm2 --y cycles

# ------------------------------------------- damaged and foreign results files
: >"$tmp/empty.h5"
cp "$good" "$tmp/corrupt.h5"
size=$(wc -c <"$good")
for off in $(seq 600 97 "$size"); do   # damage spread over everything after the superblock
  printf '\377\252' | dd of="$tmp/corrupt.h5" bs=1 seek="$off" conv=notrunc status=none
done
# one damaged byte: the high byte of the compound member offset of column
# sim_seconds in /points' datatype message (version 1: NUL-terminated name
# padded to 8 bytes, then a 4-byte little-endian offset)
# (in the pre-1.8 file format warpsweep wrote before: the 1.8 format's header checksums
# refuse the damage before warpsweep's own check, tested on corrupt.h5 above)
/usr/bin/python3 "$R/to_v1.py" "$good" "$tmp/offset.h5"
/usr/bin/python3 - "$tmp/offset.h5" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.find(b"\0sim_seconds\0") + 1
assert at > 0
data[at + (len(b"sim_seconds") + 1 + 7) // 8 * 8 + 3] = 0x10
open(sys.argv[1], "wb").write(data)
PY
refused "run --resume on a damaged datatype" 1 "$tmp/offset.h5: /points column 'sim_seconds' (offset" -- \
  $WS_BIN run $R/sw_ok.yaml -o "$tmp/offset.h5" --resume -q
foreign="offset"
if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
  cp "$good" "$tmp/v99.h5"
  /usr/bin/python3 -c 'import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r+") as f: f.attrs["format_version"] = np.int64(99)' "$tmp/v99.h5"
  foreign="$foreign v99"
fi
# HDF5 itself leaks on some damaged files and may ask for absurd allocations: not ours to fix
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:allocator_may_return_null=1"
for f in empty trunc text corrupt $foreign; do
  for c in info pareto; do
    run "$c $f.h5" 1 -- $WS_BIN $c "$tmp/$f.h5"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^$tmp/$f.h5: " "$tmp/err" || bad "$c $f.h5: $(head -c 400 "$tmp/err")"
  done
  run "merge $f.h5" 1 -- $WS_BIN merge "$tmp/m.h5" "$good" "$tmp/$f.h5"
  nothing_written "merge $f.h5" "$tmp/m.h5"
done
case $foreign in *v99*) v99=v99 ;; *) v99="" ;; esac
run "info v99 message" "1 2" -- $WS_BIN info "$tmp/${v99:-text}.h5"
[ -z "$v99" ] || grep -q "format version 99 (written by warpsweep .*); this warpsweep reads format version 1" "$tmp/err" ||
  bad "info v99: $(cat "$tmp/err")"
run "info DIR" 1 -- $WS_BIN info "$tmp/outdir"
run "info missing" 1 -- $WS_BIN info "$tmp/none.h5"

echo "$cases cases"
[ $fail -eq 0 ] && echo PASS || echo FAIL
exit $fail
