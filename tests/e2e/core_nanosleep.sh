#!/usr/bin/env bash
# nanosleep (issue 40; docs/model.md "nanosleep"): a warp that executes nanosleep.u32 t issues
# nothing for ceil(t x clock_ghz) cycles (t ns at the core clock; the PTX ISA allows any sleep in
# [0, 2t] and caps t at 1 ms; a warp sleeps as long as its longest lane asks). One warp reads
# %clock64 around sleeps of 0, 100, 1000 (lanes asking 0..1000) and 2,000,000 ns
# (tests/kernels/misc/nanosleep.ptx); each difference minus the one around the 0-ns sleep is the
# sleep in cycles, computed here by hand, within the few cycles of issue between the reads.
set -u
: "${WS_BIN:?}" "${WS_SOURCE_DIR:?}"
Y="$WS_SOURCE_DIR/tests/kernels/misc/nanosleep.yaml"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
for g in 1.53 1.0 2.0; do
  out=$("$WS_BIN" sim "$Y" --set clock_ghz="$g" --dump out 2>&1)
  grep -qx 'status: ok' <<<"$out" || { bad "clock_ghz=$g: $(grep -m2 -E '^(status|message)' <<<"$out")"; continue; }
  read -r -a d <<<"$(grep -E '^-?[0-9]+, ' <<<"$out" | tr -d ',')"
  # t = 0, 100, 1000, 1e6 (2e6 capped): cycles = ceil(t * g)
  want=(0 "$(/usr/bin/python3 -c "import math; print(math.ceil(100 * $g))")"
        "$(/usr/bin/python3 -c "import math; print(math.ceil(1000 * $g))")"
        "$(/usr/bin/python3 -c "import math; print(math.ceil(1000000 * $g))")")
  for i in 1 2 3; do
    got=$(( d[i] - d[0] ))
    [ "$got" -ge $(( want[i] - 8 )) ] && [ "$got" -le $(( want[i] + 8 )) ] ||
      bad "clock_ghz=$g sleep $i: clock difference ${d[i]} - ${d[0]} = $got cycles, want ${want[i]} (+-8)"
  done
  # the reads around a 0-ns sleep are a few issue cycles apart, no sleep
  [ "${d[0]}" -ge 1 ] && [ "${d[0]}" -le 12 ] || bad "clock_ghz=$g: a 0-ns sleep took ${d[0]} cycles"
done
[ "$fail" -eq 0 ] && echo "nanosleep ok"
exit "$fail"
