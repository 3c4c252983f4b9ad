#!/usr/bin/python3
"""Instruction order (issue 11): the gather loop in PTX order vs list-scheduled.

Kernel tests/kernels/order/gather.cu: per iteration `s += val[idx[2p*32+t]];
s += val[idx[(2p+1)*32+t]]`, one 19-instruction loop block with four global
loads (two index loads, each feeding the address of a value load). One warp,
scoreboard issue, fixed memory latency L, ALU latency a, the seed's idealised
core (no instruction buffer, operand collectors, unit lanes or LSU bandwidth;
64-bit integer ops cost one ALU op).

Bounds, derived by hand (docs/model.md, "Instruction order"): t_i, the issue
cycle of body position i, is the latest of t_{i-1} + 1 and its operands' ready
cycles. Split the loads into groups, each closed by the first instruction that
consumes a result of a load not yet in a closed group; lambda(i) = groups
closed at or before position i. By induction t_i <= t_0 + i*a + lambda(i)*L
(an ALU producer p < i gives t_p + a <= t_0 + i*a + lambda(i)*L; a load p
consumed at i belongs to a group closed after p, so lambda(p) <= lambda(i) - 1
and t_p + L <= t_0 + p*a + lambda(i)*L). With lambda groups in a body of n
instructions the iteration time T <= lambda*L + n*a.
  PTX order: every load is consumed before the next one issues: lambda = 4;
    and the chain idx -> val -> s -> (in order) idx -> val -> s passes four
    full latencies: 4L <= T <= 4L + 19a.
  ptxas order: both index loads before the first use of either, both value
    loads before the first use of either: lambda = 2; the chain idx -> val -> s
    within an iteration, the next iteration's loads after this one's branch:
    2L <= T <= 2L + 19a.
Per element (two per iteration): ~2L in PTX order, ~L scheduled.

lambda and n are read from `warpsweep inspect` (the order the core runs), so
the test also checks the schedule's shape, not only its time. T is measured as
(cycles(P2) - cycles(P1)) / (P2 - P1), which cancels the prologue/epilogue.
"""
import json, os, re, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed_memory import SEED_MEMORY  # noqa: E402  (the closed forms assume fixed-latency memory)

BIN = os.environ.get("WS_BIN", "build/warpsweep")
SRC = os.path.abspath(os.environ.get("WS_SOURCE_DIR", "."))
PTX = os.path.join(SRC, "tests/kernels/order/gather.ptx")
IDEAL = dict(warps=1, cores=1, issue="scoreboard", ibuffer=0, collectors=0, int_lanes=0, fp32_lanes=0,
             fp64_lanes=0, sfu_lanes=0, lsu_bytes_per_cycle=0, int64_cost=1, **SEED_MEMORY)
fails = []


def workload(tmp, pairs):
    """idx[k] = N-1-k, val[j] = j+1 (N = 64 * pairs): val[idx[k]] = N - k, and
    out[t] = sum over m < 2 pairs of (N - t - 32 m) = 2 pairs (N - t) - 32 pairs (2 pairs - 1)."""
    n = 64 * pairs
    start = 2 * pairs * n - 32 * pairs * (2 * pairs - 1)
    path = os.path.join(tmp, "gather_%d.yaml" % pairs)
    with open(path, "w") as f:
        f.write("name: gather\nkernel: %s\nentry: gather\ngrid: 1\nblock: 32\nregs_per_thread: 16\n"
                "buffers:\n  idx: {type: u32, count: %d, init: {iota: {start: %d, step: -1}}}\n"
                "  val: {type: u32, count: %d, init: {iota: {start: 1, step: 1}}}\n"
                "  out: {type: u32, count: 32, init: 0}\n"
                "params: [idx, val, out, %d]\nexpect:\n  out: {iota: {start: %d, step: %d}}\n"
                % (PTX, n, n - 1, n, pairs, start, -2 * pairs))
    return path


def sets(kv):
    args = []
    for k, v in kv.items():
        args += ["--set", "%s=%s" % (k, v)]
    return args


def cycles(path, **kv):
    base = dict(IDEAL)
    base.update(kv)
    args = [BIN, "sim", path, "--json"] + sets(base)
    p = subprocess.run(args, capture_output=True, text=True)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        sys.exit("bad output from %s:\n%s\n%s" % (" ".join(args), p.stdout, p.stderr))
    if j["status"] != "ok":
        fails.append("%s: status %s: %s" % (" ".join(args), j["status"], j.get("message")))
    return j["cycles"]


INST = re.compile(r"^\s+\d+\s+line \d+\s+\S+\s+(.*?);")


def loop_body(path, order):
    """The instructions of the loop block (the one ending in the back edge) in the
    order `inspect` prints for inst_order=order."""
    p = subprocess.run([BIN, "inspect", path] + sets({"inst_order": order}), capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("inspect failed: %s" % p.stderr)
    block, body = [], None
    for line in p.stdout.splitlines():
        if line.startswith("block "):
            block = []
            continue
        m = INST.match(line)
        if m:
            block.append(m.group(1))
            if "back edge" in line:
                body = block
    if not body:
        sys.exit("no loop block in inspect's output for inst_order=%s" % order)
    return body


def regs(text):
    return re.findall(r"%[a-z]+\d+", text)


def load_groups(body):
    """lambda: how many times an instruction consumes a pending load result
    (each time, every load issued so far joins the closed group)."""
    pending, groups = set(), 0
    for text in body:
        guard = ""
        if text.startswith("@"):
            guard, text = text.split(None, 1)
        op, _, rest = text.partition(" ")
        ops = [o.strip() for o in rest.split(",")] if rest else []
        if op.startswith("st") or op.startswith("bra"):
            dst, srcs = [], regs(guard + " " + rest)
        else:
            dst, srcs = regs(ops[0]) if ops else [], regs(guard + " " + ",".join(ops[1:]))
        if pending & set(srcs):
            groups += 1
            pending = set()
        if op.startswith("ld.global"):
            pending |= set(dst)
    return groups


def check(label, got, lo, hi):
    ok = lo <= got <= hi
    print("%-46s T = %7.1f  in [%d, %d] %s" % (label, got, lo, hi, "ok" if ok else "FAIL"))
    if not ok:
        fails.append("%s: T = %.1f not in [%d, %d]" % (label, got, lo, hi))


with tempfile.TemporaryDirectory() as tmp:
    P1, P2 = 4, 8
    w1, w2 = workload(tmp, P1), workload(tmp, P2)
    shape = {}
    for order, want in (("ptx", 4), ("ptxas", 2)):
        body = loop_body(w1, order)
        lam = load_groups(body)
        print("inst_order=%-5s loop body %d instructions, %d load groups" % (order, len(body), lam))
        if len(body) != 19 or lam != want:
            fails.append("inst_order=%s: %d instructions, %d load groups (want 19, %d)"
                         % (order, len(body), lam, want))
        shape[order] = (len(body), lam)
    for L, a in ((400, 4), (1000, 4), (200, 8)):
        for order in ("ptx", "ptxas"):
            n, lam = shape[order]
            for div in ("stack", "sbi") if L == 400 else ("stack",):
                kv = dict(mem_latency=L, alu_latency=a, inst_order=order, divergence=div)
                T = (cycles(w2, **kv) - cycles(w1, **kv)) / (P2 - P1)
                check("%s L=%d a=%d %s" % (order, L, a, div), T, lam * L, lam * L + n * a)
                print("%46s per element %.1f = %.2f L" % ("", T / 2, T / 2 / L))

if fails:
    print("\n".join(["FAILURES:"] + fails))
    sys.exit(1)
print("all instruction-order checks passed")
