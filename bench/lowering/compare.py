#!/usr/bin/env python3
"""Compare the simulator's lowered instruction count with ptxas's dynamic SASS count.

    python3 bench/lowering/compare.py BUILD_DIR [--arch sm_75|sm_80]

For every kernel in bench/lowering/sass_counts.tsv (written by sass_count.py), runs
    WS_PTXAS= BUILD_DIR/warpsweep sim bench/lowering/kernels/NAME.yaml --json --set lowering=ptxas
and reads the metrics `warp_insts` (PTX warp instructions issued) and `lowered_insts` (the
warp instructions after the simulator's lowering of each PTX instruction to SASS-like
instructions; the launches are one warp, so the total is the per-warp count), then prints
them beside the SASS count and the ratio lowered / SASS. A benchmark: it always exits 0.
"""
import argparse, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def read_counts(arch):
    rows = {}
    with open(os.path.join(HERE, 'sass_counts.tsv')) as f:
        lines = [l.rstrip('\n').split('\t') for l in f if not l.startswith('#')]
    head = lines[0]
    for l in lines[1:]:
        r = dict(zip(head, l))
        if r['arch'] == arch:
            rows[r['kernel']] = int(r['dynamic_sass_per_warp'])
    return rows


def simulate(exe, yaml):
    env = dict(os.environ, WS_PTXAS='')
    p = subprocess.run([exe, 'sim', yaml, '--json', '--set', 'lowering=ptxas'], cwd=ROOT, env=env,
                       capture_output=True, text=True)
    try:
        return json.loads(p.stdout), None
    except ValueError:
        msg = (p.stderr.strip() or p.stdout.strip() or f'exit {p.returncode}').splitlines()
        return None, msg[0] if msg else f'exit {p.returncode}'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('build', help='the build directory holding warpsweep')
    ap.add_argument('--arch', default='sm_75', choices=('sm_75', 'sm_80'),
                    help='which column of sass_counts.tsv to compare with (default sm_75)')
    args = ap.parse_args()
    exe = os.path.join(os.path.abspath(args.build), 'warpsweep')
    if not os.access(exe, os.X_OK):
        print(f'compare.py: no warpsweep in {args.build}')
        return 0
    sass = read_counts(args.arch)
    print(f"{'kernel':12} {'ptx':>6} {'lowered':>8} {'sass':>6} {'ratio':>6}  (SASS: {args.arch}, ptxas)")
    ratios, within, missing = [], 0, False
    for name, want in sass.items():
        d, err = simulate(exe, os.path.join(HERE, 'kernels', name + '.yaml'))
        if d is None:
            if 'lowering' in err and ('unknown' in err or 'parameter' in err):
                print(f'compare.py: this warpsweep has no `lowering` parameter ({err}); '
                      'build one with the lowering model to compare')
                return 0
            print(f'{name:12} error: {err}')
            continue
        m = d.get('metrics', d)
        ptx = m.get('warp_insts')
        low = m.get('lowered_insts')
        if low is None:
            missing = True
            print(f'{name:12} {ptx!s:>6} {"-":>8} {want:6}  (no lowered_insts metric)')
            continue
        ratio = low / want if want else float('nan')
        ratios.append(ratio)
        within += abs(ratio - 1) <= 0.10
        print(f'{name:12} {ptx!s:>6} {low:8} {want:6} {ratio:6.3f}' + ('' if abs(ratio - 1) <= 0.10 else '  *'))
    if missing and not ratios:
        print('compare.py: the simulator reports no `lowered_insts` metric yet: nothing to compare')
        return 0
    if ratios:
        import math
        gm = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f'{within} of {len(ratios)} kernels within 10% of the SASS count (* = outside); '
              f'geometric mean ratio {gm:.3f}, min {min(ratios):.3f}, max {max(ratios):.3f}')
    return 0


if __name__ == '__main__':
    try:
        main()
    except Exception as e:                     # a benchmark: report, never fail
        print(f'compare.py: {type(e).__name__}: {e}')
    sys.exit(0)
