#!/bin/bash
# Deadlock proofs and messages (issue 3, statuses): a CTA barrier some threads
# can never reach, under both schemes; a divergent bar.sync whose other lanes
# exit (barrier scheme: they leave, the barrier completes; stack: the TOS holds
# them at the barrier); max_cycles -> timeout; invalid configurations.
set -euo pipefail
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
cat > "$T/two.ptx" <<'PTX'
.version 7.0
.target sm_75
.address_size 64
.visible .entry two(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra $OTHER;
  bar.sync 0;
  bra.uni $END;
$OTHER:
  bar.sync 1;
$END:
  ret;
}
PTX
sed -i 's/  .reg .b32 %r<4>;/  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;/' "$T/two.ptx"
cat > "$T/two.yaml" <<'YAML'
name: two
kernel: two.ptx
entry: two
grid: 1
block: 64
buffers:
  out: {type: u32, count: 1, init: 0}
params: [out]
YAML
cat > "$T/half.ptx" <<'PTX'
.version 7.0
.target sm_75
.address_size 64
.visible .entry half(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra $SKIP;
  bar.sync 0;
$SKIP:
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r1;
  ret;
}
PTX
cat > "$T/half.yaml" <<'YAML'
name: half
kernel: half.ptx
entry: half
grid: 1
block: 64
buffers:
  out: {type: u32, count: 64, init: 0}
params: [out]
expect:
  out: iota
YAML
export T
/usr/bin/python3 - <<'PY'
import json, os, subprocess, sys
BIN, T = os.environ["WS_BIN"], os.environ["T"]
K = os.path.join(os.environ.get("WS_SOURCE_DIR", "."), "sweeps/kernels")
fails = []
def sim(path, *sets):
    args = [BIN, "sim", path, "--json"]
    for s in sets: args += ["--set", s]
    return json.loads(subprocess.run(args, capture_output=True, text=True).stdout)
def expect(c, what):
    print(("ok    " if c else "FAIL  ") + what)
    if not c: fails.append(what)
for div in ("stack", "sbi"):
    for s in ("lrr", "gto", "two_level", "oldest", "swl"):
        j = sim(T + "/two.yaml", "divergence=" + div, "scheduler=" + s)
        expect(j["status"] == "deadlock", "two barriers %s %s: %s" % (div, s, j["status"]))
        m = j["message"]
        expect("CTA barrier 0" in m and "CTA barrier 1" in m and "line" in m, "message names both barriers and lines: " + m[:160])
        expect(j["cycles"] < 1000, "found at once (cycle %d)" % j["cycles"])
j = sim(T + "/half.yaml", "divergence=stack")
expect(j["status"] == "deadlock", "half bar.sync under stack: %s" % j["status"])
j = sim(T + "/half.yaml", "divergence=sbi")
expect(j["status"] == "ok", "half bar.sync under barrier (the others exit): %s %s" % (j["status"], j["message"]))
j = sim(K + "/latency.yaml", "max_cycles=5000")
expect(j["status"] == "timeout", "max_cycles=5000 on latency: %s" % j["status"])
j = sim(K + "/reduce.yaml", "warps=2")
expect(j["status"] == "invalid" and "warp" in j["message"], "block of 4 warps on 2 slots: %s %s" % (j["status"], j["message"]))
j = sim(K + "/matmul.yaml", "regfile_kb=8")
expect(j["status"] == "invalid" and "regfile_kb" in j["message"], "matmul in 8 KiB of registers: %s %s" % (j["status"], j["message"]))
# occupancy: matmul CTA = 2 warps x 40 regs x 32 x 4 B = 10 KiB; 64 KiB -> 6 CTAs; warps=8 -> 4; max_ctas=3 -> 3
for sets, want in ((("regfile_kb=64",), 6), (("warps=8",), 4), (("max_ctas=3",), 3)):
    j = sim(K + "/matmul.yaml", *sets)
    expect(j["status"] == "ok" and j["resident_ctas"] == want and j["resident_warps"] == 2 * want,
           "matmul %s: resident_ctas %s == %d" % (sets, j.get("resident_ctas"), want))
sys.exit(1 if fails else 0)
PY
