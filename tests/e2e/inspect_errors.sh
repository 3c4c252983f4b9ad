#!/usr/bin/env bash
# `warpsweep inspect` refuses bad PTX with exactly one stderr line
# "FILE:LINE:COL: ..." and exit code 1 (positions counted by hand below), and
# prints blocks, post-dominators and reconvergence points for good kernels.
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# refused FILE POS NEEDLE [ARGS...]
refused() {
  local f=$1 pos=$2 needle=$3 rc; shift 3
  "$WS_BIN" inspect "$f" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  [ "$rc" -eq 1 ] || bad "$f: exit $rc, expected 1"
  [ ! -s "$tmp/out" ] || bad "$f: stdout not empty"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "$f: stderr is not one line: $(cat "$tmp/err")"
  case "$(cat "$tmp/err")" in
    "$f:$pos: "*"$needle"*) echo "ok $(cat "$tmp/err")" ;;
    *) bad "$f: expected '$f:$pos: ...$needle...', got '$(cat "$tmp/err")'" ;;
  esac
}

hdr='.version 9.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<4>;'

# line 7: tab, "mov.u32" (cols 2-8), tab, "%r1," then space: the unknown opcode is at column 2
printf '%s\n\tmov.u32\t%%r1, 1;\n\ttexfetch.u32\t%%r2, %%r1;\n\tret;\n}\n' "$hdr" > "$tmp/unknown.ptx"
refused "$tmp/unknown.ptx" 8:2 "'texfetch'"

# syntax error: missing ',' between operands; "\tadd.s32 %r1 %r2, 3;" -> %r2 at column 14
printf '%s\n\tadd.s32 %%r1 %%r2, 3;\n\tret;\n}\n' "$hdr" > "$tmp/syntax.ptx"
refused "$tmp/syntax.ptx" 7:14 "'%r2'"

# undefined register: "\tmov.u32 %r1, %r9;" -> %r9 at column 15
printf '%s\n\tmov.u32 %%r1, %%r9;\n\tret;\n}\n' "$hdr" > "$tmp/undef.ptx"
refused "$tmp/undef.ptx" 7:15 "undefined register '%r9'"

# .tf32 register (outside the subset; .f16/.bf16 are in it): "\t.reg .tf32 %h1;" -> .tf32 at column 7
printf '%s\n\t.reg .tf32 %%h1;\n\tret;\n}\n' "$hdr" > "$tmp/half.ptx"
refused "$tmp/half.ptx" 7:7 "'.tf32'"

# --entry naming no kernel: no position, still one line, exit 1
"$WS_BIN" inspect "$tmp/undef.ptx" --entry nope >/dev/null 2>"$tmp/err"; rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "--entry nope: exit $rc, $(cat "$tmp/err")"

# a good kernel: the ifelse branch reconverges at $L__BB0_3 (README: the out2 store)
K="$WS_SOURCE_DIR/sweeps/kernels"
if [ -f "$K/ifelse.ptx" ]; then
  "$WS_BIN" inspect "$K/ifelse.ptx" --set divergence=stack >"$tmp/out" 2>"$tmp/err" || bad "inspect ifelse.ptx failed: $(cat "$tmp/err")"
  grep -q '^block B0 ' "$tmp/out" || bad "ifelse: no block B0"
  grep -E '@%p1 bra .*reconverge: [0-9]+ \(\$L__BB0_3' "$tmp/out" >/dev/null \
    || bad "ifelse: the @%p1 bra does not reconverge at \$L__BB0_3: $(grep bra "$tmp/out")"
fi
exit $fail
