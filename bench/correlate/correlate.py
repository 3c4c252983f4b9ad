#!/usr/bin/env python3
"""Cycles against GPGPU-Sim 4.2: warpsweep under preset=gpgpusim_qv100 beside the peer's
cycles stored in peer_cycles.tsv (one GPGPU-Sim run per kernel, its report kept in the
repository), so the comparison reruns without the peer. A benchmark, not a test.

    /usr/bin/python3 bench/correlate/correlate.py [BUILD_DIR] [--set name=value]...

Prints per kernel the peer's and warpsweep's cycles and their ratio, then the geometric mean
of |log ratio| as a percentage error, the largest ratio either way and the Pearson
correlation of log cycles. Extra --set arguments go to every warpsweep run (e.g.
--set pipe_latency=0 to see a mechanism's share)."""
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..', '..')


def main(argv):
    build = 'build'
    if argv and not argv[0].startswith('--'):
        build = argv.pop(0)
    binary = os.path.join(ROOT, build, 'warpsweep') if not os.path.isabs(build) else os.path.join(build, 'warpsweep')
    rows = []
    with open(os.path.join(HERE, 'peer_cycles.tsv')) as f:
        lines = [l.rstrip('\n').split('\t') for l in f if not l.startswith('#')]
    for kernel, workload, cores, peer, _src in lines[1:]:
        cmd = [binary, 'sim', os.path.join(ROOT, workload), '--set', 'preset=gpgpusim_qv100', '--set',
               'cores=' + cores, '--json'] + argv
        m = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
        if m['status'] != 'ok':
            sys.exit('%s: %s %s' % (kernel, m['status'], m['message']))
        rows.append((kernel, int(cores), int(peer), int(m['cycles'])))
    print('%-14s %5s %10s %10s %6s' % ('kernel', 'cores', 'peer', 'warpsweep', 'ratio'))
    for k, c, p, w in rows:
        print('%-14s %5d %10d %10d %6.2f' % (k, c, p, w, w / p))
    logs = [math.log(w / p) for _, _, p, w in rows]
    err = math.exp(sum(abs(x) for x in logs) / len(logs)) - 1
    worst = max(max(w / p, p / w) for _, _, p, w in rows)
    xs = [math.log(p) for _, _, p, _ in rows]
    ys = [math.log(w) for _, _, _, w in rows]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    r = sum((a - mx) * (b - my) for a, b in zip(xs, ys)) / math.sqrt(
        sum((a - mx) ** 2 for a in xs) * sum((b - my) ** 2 for b in ys))
    print('%d kernels: geometric-mean error %.1f%%, max %.2fx, Pearson of log cycles %.4f' %
          (len(rows), 100 * err, worst, r))


if __name__ == '__main__':
    main(sys.argv[1:])
