#!/usr/bin/env bash
# Occupancy (docs/model.md): registers allocated per warp in units of
# reg_alloc_unit, shared-memory limit, max_ctas, occupancy_limit (written
# here as codes 0 warps, 1 registers, 2 smem, 3 max_ctas, 4 grid; --json
# prints the name) and invalid
# configurations naming the resource. Expected values by hand in the comments.
set -euo pipefail
BIN=${WS_BIN:-$PWD/build/warpsweep}
SRC=${WS_SOURCE_DIR:-$PWD}
K=$SRC/sweeps/kernels
/usr/bin/python3 - "$BIN" "$K" <<'PY'
import json, subprocess, sys
BIN, K = sys.argv[1], sys.argv[2]
def sim(wl, *sets):
    args = [BIN, "sim", "%s/%s.yaml" % (K, wl), "--json"]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True)
    return json.loads(p.stdout)
bad = []
LIMITS = ["warps", "registers", "smem", "max_ctas", "grid"]
def check(j, status, ctas, limit, what, msg=None):
    limit = LIMITS[limit]
    ok = j["status"] == status and j["occupancy_limit"] == limit and (status != "ok" or j["resident_ctas"] == ctas)
    if msg is not None:
        ok = ok and msg in j["message"]
    if not ok:
        bad.append("%s: status %s resident_ctas %s occupancy_limit %s message %r (want %s, %s, %s)"
                   % (what, j["status"], j["resident_ctas"], j["occupancy_limit"], j["message"], status, ctas, limit))
# latency_occ: 1 warp/CTA, 10 regs/thread: 320 registers -> 512 (unit 256) = 2048 B per CTA
check(sim("latency_occ", "regfile_kb=7", "max_ctas=1024", "mem_latency=10"), "ok", 3, 1, "7 KiB / 2 KiB")       # floor(7168/2048)
check(sim("latency_occ", "regfile_kb=7", "reg_alloc_unit=1", "max_ctas=1024", "mem_latency=10"), "ok", 5, 1,
      "unit 1: 7168 / 1280")                                                                                # floor(7168/1280)
check(sim("latency_occ", "regfile_kb=7", "reg_alloc_unit=64", "max_ctas=1024", "mem_latency=10"), "ok", 5, 1,
      "unit 64: 320 is a multiple")
check(sim("latency_occ", "regfile_kb=7", "reg_alloc_unit=384", "max_ctas=1024", "mem_latency=10"), "ok", 4, 1,
      "unit 384: 7168 / 1536")                                                                              # floor(7168/1536)
check(sim("latency_occ", "warps=16", "max_ctas=1024", "mem_latency=10"), "ok", 16, 0, "16 warp slots")
check(sim("latency_occ", "warps=16", "regfile_kb=32", "max_ctas=1024", "mem_latency=10"), "ok", 16, 0,
      "tie warps/registers -> warps")                                                                       # 32 KiB / 2 KiB = 16
check(sim("latency_occ", "max_ctas=5", "mem_latency=10"), "ok", 5, 3, "max_ctas 5")
# matmul: 2 warps/CTA, 40 regs: 1280 registers per warp (multiple of 256) -> 10 KiB per CTA; 512 B shared per CTA
check(sim("matmul", "smem_kb=1"), "ok", 2, 2, "smem 1024 / 512")
check(sim("matmul", "regfile_kb=64"), "ok", 6, 1, "64 KiB / 10 KiB")
check(sim("matmul", "warps=8"), "ok", 4, 0, "8 slots / 2")
check(sim("ifelse"), "ok", 1, 4, "one CTA: grid")
check(sim("matmul", "smem_kb=0"), "invalid", 0, 2, "matmul smem_kb=0", "shared memory: a CTA needs 512 bytes but smem_kb=0")
check(sim("latency", "regfile_kb=1"), "invalid", 0, 1, "latency regfile_kb=1", "register file: a CTA needs 2048 bytes")
check(sim("matmul", "warps=1"), "invalid", 0, 0, "matmul warps=1", "warp slots")
if bad:
    sys.exit("FAIL:\n  " + "\n  ".join(bad))
print("core_occupancy: ok")
PY
