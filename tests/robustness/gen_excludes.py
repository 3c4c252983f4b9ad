#!/usr/bin/env python3
"""Writes a sweep with many axes and many overlapping exclude entries, and
(with --brute) prints its point count and points computed by enumerating
every raw grid point, an independent model of warpsweep's exclude counting.

usage: gen_excludes.py AXES ENTRIES AXES_PER_ENTRY VALUES SEED WORKLOAD [--brute]
Entry e constrains AXES_PER_ENTRY distinct axes, each to a nonempty proper
subset of the VALUES values 1..VALUES (a small LCG picks them, so the file
is the same on every Python)."""
import itertools
import sys

NAMES = ("warps schedulers issue_width two_level_active swl_limit fetch_group_size ccws_base_score "
         "ccws_kthrottle ccws_decay ccws_vta_entries ccws_vta_ways aware_timeout barrier_regs alu_latency "
         "sfu_latency fp64_latency int64_cost idiv_latency idiv_interval fdiv_latency fdiv_interval").split()


def main():
    naxes, nent, per, nval, seed = (int(x) for x in sys.argv[1:6])
    workload, brute = sys.argv[6], "--brute" in sys.argv[7:]
    state = seed

    def rnd(n):
        nonlocal state
        state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
        return (state >> 33) % n

    names = NAMES[:naxes]
    values = list(range(1, nval + 1))
    entries = []
    for _ in range(nent):
        axes = []
        while len(axes) < per:
            a = rnd(naxes)
            if a not in axes:
                axes.append(a)
        entry = {}
        for a in axes:
            pick = [v for v in values if rnd(2)] or [values[0]]
            if len(pick) == nval:
                pick = pick[1:]
            entry[a] = pick
        entries.append(entry)
    if brute:
        points = [p for p in itertools.product(values, repeat=naxes)
                  if not any(all(p[a] in vs for a, vs in e.items()) for e in entries)]
        print(len(points))
        for p in points:
            print(",".join(str(v) for v in p))
        return
    print(f"name: many_excludes\nworkload: {workload}\ngrid:")
    for n in names:
        print(f"  {n}: {values}")
    print("exclude:")
    for e in entries:
        print("  - {" + ", ".join(f"{names[a]}: {vs}" for a, vs in sorted(e.items())) + "}")


main()
