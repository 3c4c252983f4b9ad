#!/usr/bin/env bash
# Kernels with calls to .func functions (tests/kernels/call/, nvcc 13 PTX), inlined at load:
# a __noinline__ helper in a loop and in divergent branches with a nested call and a void
# function, f64 sin/cos/pow/tan through libdevice's .func slow paths, a -G build where every
# helper is a .func with a local depot. Each runs under the MIMD reference and the
# cycle-level core (stack and barrier divergence, lrr and gto) with status ok: noinline and
# debug against explicit values from Python models (tests/kernels/call/expected.py), dtrig
# core == reference and checked against Python math within a few ulp
# (tests/e2e/kernels_call_check.py).
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
K="$WS_SOURCE_DIR/tests/kernels/call"
CHK="$WS_SOURCE_DIR/tests/e2e/kernels_call_check.py"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

/usr/bin/python3 "$K/expected.py" --check || bad "tests/kernels/call/*.yaml not current with expected.py"

n=0
for y in "$K"/*.yaml; do
  name=$(basename "$y" .yaml)
  n=$((n + 1))
  # the calls really are there in the PTX (nothing left to inline would test nothing)
  grep -qE '^\s*call(\.uni)?\b' "$K/$name.ptx" || bad "$name.ptx has no call"
  for s in "--reference" "--set divergence=stack --set scheduler=lrr" "--set divergence=sbi --set scheduler=lrr" \
           "--set divergence=stack --set scheduler=gto" "--set divergence=sbi --set scheduler=gto"; do
    # shellcheck disable=SC2086
    out=$("$WS_BIN" sim "$y" $s 2>&1); rc=$?
    if [ "$rc" -ne 0 ] || ! grep -qx 'status: ok' <<<"$out"; then
      bad "$name [$s]: exit $rc: $(grep -m2 -E '^(status|message)' <<<"$out")"
    fi
  done
  /usr/bin/python3 "$CHK" "$WS_BIN" "$K" "$name" --reference || bad "$name: independent check (reference)"
  /usr/bin/python3 "$CHK" "$WS_BIN" "$K" "$name" --set divergence=sbi --set scheduler=gto \
    || bad "$name: independent check (barrier/gto)"
done
[ "$n" -ge 3 ] || bad "only $n call workloads"

# The inlined kernel: no call left, the callee's registers renamed per copy, traces point
# into the callee's own lines (dtrig's __internal_accurate_pow starts at line 633).
out=$("$WS_BIN" inspect "$K/noinline.ptx" 2>&1) || bad "inspect noinline: $out"
grep -q '%r1@_Z3mixii#1' <<<"$out" || bad "noinline: no renamed callee register"
grep -q '%r1@_Z3mixii#4' <<<"$out" || bad "noinline: mix() has not 4 copies (1 loop, 1 branch, 2 in twice())"
grep -q '%r1@_Z3mixii#5' <<<"$out" && bad "noinline: more than 4 copies of mix()"
grep -qE '^\s+[0-9]+\s+line [0-9]+\s+\S+\s+call' <<<"$out" && bad "noinline: a call left after inlining"

# Refused cleanly, one line file:line:col: recursion (a hand-written mutual recursion).
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/rec.ptx" <<'PTX'
.version 9.0
.target sm_75
.address_size 64
.func f(.param .b32 a)
{
	{
	.param .b32 b;
	st.param.b32 [b], 1;
	call.uni g, (b);
	}
	ret;
}
.func g(.param .b32 a)
{
	{
	.param .b32 b;
	st.param.b32 [b], 1;
	call.uni f, (b);
	}
	ret;
}
.entry k()
{
	{
	.param .b32 c;
	st.param.b32 [c], 0;
	call.uni f, (c);
	}
	ret;
}
PTX
out=$("$WS_BIN" inspect "$tmp/rec.ptx" 2>&1); rc=$?
[ "$rc" -eq 1 ] || bad "rec.ptx: exit $rc"
[ "$(wc -l <<<"$out")" -eq 1 ] || bad "rec.ptx: not one line: $out"
grep -qE "rec\.ptx:18:2: recursive call to 'f' \(f -> g -> f\)" <<<"$out" || bad "rec.ptx: $out"

[ "$fail" -eq 0 ] && echo "all call kernels ok"
exit "$fail"
