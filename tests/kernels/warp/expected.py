#!/usr/bin/env python3
"""Independent models of the warp/CTA collective test kernels (tests/kernels/warp).

Each kernel NAME.cu (or the hand-written NAME.ptx) has a sequential Python model below that
follows the PTX ISA's definition of its collective operations (no simulator involved):

  bar.red.popc/.and/.or   the count / and / or of the predicates of the threads that take part
                          in the barrier (all of the CTA, or the b threads of a thread count);
  vote/redux/match.sync   each lane over the lanes of ITS OWN membermask;
  shfl.sync               lane j's operand a, as lane j passed it in its own instruction;
  legacy vote             over the active lanes of the warp.

The script writes NAME.yaml with the inputs and the model's results as explicit `expect` values:

    python3 tests/kernels/warp/expected.py            # rewrite every NAME.yaml
    python3 tests/kernels/warp/expected.py --check    # verify the committed yamls are current
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
M32 = (1 << 32) - 1


def u32(x): return x & M32
def s32(x): x &= M32; return x - (1 << 32) if x >> 31 else x


class LCG:
    def __init__(self, seed):
        self.s = seed & ((1 << 64) - 1)

    def int(self, lo, hi):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) & ((1 << 64) - 1)
        return lo + (self.s >> 33) % (hi - lo + 1)


def data(seed, n, lo, hi):
    g = LCG(seed)
    return [g.int(lo, hi) for _ in range(n)]


# ---------------------------------------------------------------- barred --
def barred_input():
    v = data(11, 256, -100, 100)
    # CTA 0 has a zero, a value > 90 and one <= -95 in its upper half; CTA 1 has none
    v[17], v[100], v[120] = 0, 95, -99
    v[128:] = [x if x != 0 else 1 for x in (max(-89, min(89, x)) for x in v[128:])]
    return v


def m_barred(v):
    out = []
    for c in range(2):
        cv = v[c * 128:(c + 1) * 128]
        cnt = lambda pred: sum(1 for x in cv if pred(x))
        lo = sum(1 for x in cv[:64] if x & 1)            # bar.red.popc on barrier 1, threads 0..63
        hi = int(all(x > -95 for x in cv[64:]))          # bar.red.and on barrier 2, threads 64..127
        acc = 0
        for k in range(4):
            acc = u32(acc * 131 + sum(1 for x in cv if ((x + k) & 3) == 0))
        for t in range(128):
            out += [40, cnt(lambda x: x > 0), int(all(x != 0 for x in cv)), int(any(x > 90 for x in cv)),
                    lo if t < 64 else hi, acc]
    return out


# ----------------------------------------------------------------- tiles --
def tiles_input():
    return data(23, 128, -100, 100)


def m_tiles(v):
    out = []
    for t in range(128):
        lane, wb = t & 31, t & ~31
        w = v[wb:wb + 32]
        par = [k for k in range(32) if (k & 1) == (lane & 1)]
        hb = lane & 16
        half = list(range(hb, hb + 16))
        ballot = lambda lanes, p: sum(1 << k for k in lanes if p(w[k]))
        o = [sum(par),                                        # __reduce_add_sync(eo, lane)
             max(u32(w[k]) for k in par),                     # __reduce_max_sync, unsigned
             ballot(par, lambda x: x > 0),
             ballot(half, lambda x: x & 1) >> hb,             # tile.ballot: relative to the tile
             int(all(w[k] > -90 for k in half)),
             int(any(w[k] > 80 for k in half)),
             u32(w[hb + 3]),                                  # tile.shfl(v, 3)
             u32(sum(w[k] for k in half)),                    # cg::reduce plus
             u32(min(w[k] for k in half)),                    # __reduce_min_sync, signed
             ballot(half, lambda x: (x & 3) == (v[t] & 3))]   # __match_any_sync
        for key in (lambda x: x < 0, lambda x: x & 3):        # binary / labeled partition
            grp = [k for k in range(32) if key(w[k]) == key(v[t])]
            o.append(len(grp) * 1000 + grp.index(lane))
        out += o
    return out


# --------------------------------------------------------------- xbranch --
def xbranch_input():
    return data(37, 128, -100, 100)


def m_xbranch(v):
    out = []
    for t in range(128):
        lane, wb = t & 31, t & ~31
        w = v[wb:wb + 32]
        k = (lane + 1) & 31
        src = w[k] * 3 if w[k] & 1 else w[k] - 7              # lane k's operand of its own shfl
        o0 = src + 1000 if v[t] & 1 else src - 1000
        pred = lambda x: x > 50 if x > 0 else x < -50         # each lane's own ballot predicate
        b = sum(1 << j for j in range(32) if pred(w[j]))
        o1 = s32(b ^ 0x10000 if v[t] > 0 else b + 1)
        o2 = -w[lane + 16] if lane < 16 else w[lane - 16]
        o3 = s32(sum(x if x % 3 == 0 else 1 for x in w))
        out += [o0, o1, o2, o3]
    return out


# ----------------------------------------------------------- legacy_vote --
def legacy_input():
    return data(41, 64, -100, 100)


def m_legacy(v):
    """legacy_vote.ptx: lanes with v >= -60 take the branch; inside it, vote.all / vote.any /
    vote.uni / vote.ballot (no .sync) over the active lanes (those that took the branch); the
    other lanes store 0xdead."""
    out = []
    for t in range(64):
        wb = t & ~31
        w = v[wb:wb + 32]
        act = [k for k in range(32) if w[k] >= -60]
        if v[t] < -60:
            out += [0xdead] * 4
            continue
        p = [w[k] > 0 for k in act]
        out += [int(all(p)), int(any(p)), int(all(p) or not any(p)),
                sum(1 << k for k in act if w[k] > 0)]
    return out


# -------------------------------------------------------------- syncexit --
def syncexit_input():
    return data(53, 128, -100, 100)


def m_syncexit(v):
    """syncexit.cu: lanes 4k+3, and 4k+1 / 4k+2 with v < -60, return before the full-mask
    .sync ops, which then run over the non-exited lanes (PTX ISA vote/shfl/redux/match.sync:
    "all non-exited threads corresponding to membermask"): the lanes that stay."""
    out = []
    for t in range(128):
        lane, wb = t & 31, t & ~31
        w = v[wb:wb + 32]
        leaves = lambda k: (k & 3) == 3 or ((k & 3) and w[k] < -60)
        if leaves(lane):
            out += [v[t], -1, -2, -3]
            continue
        stay = [k for k in range(32) if not leaves(k)]
        a = int(all(w[k] > -50 for k in stay))
        nb = w[lane & ~3] + 7                                   # written before __syncwarp
        out += [a + 2 * nb, w[lane & ~3], s32(sum(u32(w[k]) for k in stay)),
                s32(sum(1 << k for k in stay if (w[k] & 3) == (v[t] & 3)))]
    return out


# ---------------------------------------------------------- syncexit_late --
def syncexit_late_input():
    return data(71, 128, -100, 100)


def m_syncexit_late(v):
    """syncexit_late.cu (both entries): lanes 4k+3 run a loop of their own (acc = acc * 3 + i for
    i < (v & 15) + 1, in 32 bits) and store it to `late`, then leave (return, or PTX exit); the
    others run all/shfl/redux/__syncwarp with the full mask in a called function, over the
    non-exited lanes (PTX ISA: "all non-exited threads corresponding to membermask")."""
    out, late = [0] * 512, [0] * 128
    for t in range(128):
        lane, wb = t & 31, t & ~31
        w = v[wb:wb + 32]
        if (lane & 3) == 3:
            acc = 0
            for i in range((v[t] & 15) + 1):
                acc = s32(acc * 3 + i)
            late[t] = acc
            continue
        stay = [k for k in range(32) if (k & 3) != 3]
        out[4 * t:4 * t + 4] = [int(all(w[k] > -50 for k in stay)), w[lane & ~3],
                                s32(sum(u32(w[k]) for k in stay)), w[lane & ~3] + 5]
    return out, late


def fmt(vals, per=16, ind="      "):
    rows = [", ".join(str(x) for x in vals[i:i + per]) for i in range(0, len(vals), per)]
    return "[\n" + "".join(f"{ind}{r},\n" for r in rows) + "    ]"


SPECS = [
    ("barred", "bar.red (__syncthreads_count/_and/_or, thread counts, barriers 1 and 2 at once). 2 x 128.",
     [2, 1, 1], [128, 1, 1], 14, barred_input, "u32", 2 * 128 * 6, m_barred),
    ("tiles", "per-lane membermasks: even/odd, tiled_partition<16>, binary/labeled_partition. 2 x 64.",
     [2, 1, 1], [64, 1, 1], 14, tiles_input, "u32", 128 * 12, m_tiles),
    ("xbranch", ".sync warp operations from different branches (shfl, ballot, __syncwarp, redux). 2 x 64.",
     [2, 1, 1], [64, 1, 1], 13, xbranch_input, "s32", 128 * 4, m_xbranch),
    ("legacy_vote", "vote.all/.any/.uni/.ballot without .sync in divergent code (hand-written, sm_61). 1 x 64.",
     [1, 1, 1], [64, 1, 1], 0, legacy_input, "u32", 64 * 4, m_legacy),
    ("syncexit", "lanes that return before full-mask vote/shfl/redux/match/__syncwarp (nvcc's tail merge). 2 x 64.",
     [2, 1, 1], [64, 1, 1], 18, syncexit_input, "s32", 128 * 4, m_syncexit),
]


def render(name, what, grid, block, regs, inp, otype, n, model):
    v = inp()
    res = model(v)
    assert len(res) == n
    s = (f"# GENERATED by tests/kernels/warp/expected.py from the Python model m_{name.split('_')[0]}; "
         f"do not edit.\n# {what}\n")
    s += f"name: {name}\nkernel: {name}.ptx\ngrid: {grid}\nblock: {block}\n"
    if regs:
        s += f"regs_per_thread: {regs}        # ptxas -v\n"
    s += f"buffers:\n  in:\n    type: s32\n    count: {len(v)}\n    init: {fmt(v)}\n"
    s += f"  out: {{type: {otype}, count: {n}, init: 0}}\nparams: [in, out]\n"
    s += f"expect:\n  out: {fmt(res)}\n"
    return s


# syncexit_late.ptx holds two entries: lanes that return after later work (the loop), and lanes
# that leave by `exit` after it; both write `late` besides `out`
LATE = [
    ("syncexit_late", "_Z13syncexit_latePiP4int4S_",
     "lanes that return after later work of their own before full-mask .sync ops in a called function. 2 x 64."),
    ("syncexit_exit", "_Z13syncexit_exitPiP4int4S_",
     "lanes that leave by exit after later work before full-mask .sync ops in a called function. 2 x 64."),
]


def render_late(name, entry, what):
    v = syncexit_late_input()
    out, late = m_syncexit_late(v)
    s = (f"# GENERATED by tests/kernels/warp/expected.py from the Python model m_syncexit_late; do not edit.\n"
         f"# {what}\n")
    s += f"name: {name}\nkernel: syncexit_late.ptx\nentry: {entry}\ngrid: [2, 1, 1]\nblock: [64, 1, 1]\n"
    s += "regs_per_thread: 16        # ptxas -v\n"
    s += f"buffers:\n  in:\n    type: s32\n    count: {len(v)}\n    init: {fmt(v)}\n"
    s += "  out: {type: s32, count: 512, init: 0}\n  late: {type: s32, count: 128, init: 0}\n"
    s += f"params: [in, out, late]\nexpect:\n  out: {fmt(out)}\n  late: {fmt(late)}\n"
    return s


def main():
    check = "--check" in sys.argv
    bad = 0
    files = [(spec[0], render(*spec)) for spec in SPECS] + [(spec[0], render_late(*spec)) for spec in LATE]
    for name, text in files:
        path = os.path.join(HERE, name + ".yaml")
        if check:
            with open(path) as f:
                if f.read() != text:
                    print(f"{path}: differs from its model")
                    bad = 1
        else:
            with open(path, "w") as f:
                f.write(text)
    return bad


if __name__ == "__main__":
    sys.exit(main())
