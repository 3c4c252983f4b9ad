#!/usr/bin/python3
"""Differential fuzzer for warpsweep's SIMT model (tests/fuzz/README.md).

For each seed, gen.py makes a random structured kernel; every program runs under the MIMD
reference and under divergence x scheduler x issue x warp_size x cores x l1_kb (one
`warpsweep run` per batch of programs, -j N), each point checking every buffer against
the reference (`expect: reference`). A point fails when its status is not the expected
one: ok everywhere, except under the stack for a program with a spin lock (deadlock when
the generator made every lane of a warp contend, ok or deadlock when it could not tell).
A failure prints the seed, the configuration and a minimised program (the generator's
tree reduced while the same failure persists), written to --fail-dir.

  tests/fuzz/fuzz.py --count 200                  # seeds 0..199, full configuration matrix
  tests/fuzz/fuzz.py --start 1000 --count 100000 --configs 16 -j 2    # the long run
"""
import argparse
import collections
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402

AXES = collections.OrderedDict([
    ('warp_size', [8, 16, 32, 64]),
    ('divergence', ['stack', 'barrier']),
    ('scheduler', ['lrr', 'gto', 'two_level', 'oldest', 'swl']),
    ('issue', ['blocking', 'scoreboard']),
    ('cores', [1, 2]),
    ('l1_kb', [0, 16]),
])


LOCK_TIMEOUT_OK = False   # --lock-timeout-ok: see its help


def expected_status(meta, cfg):
    """the set of acceptable statuses at one configuration"""
    if cfg['divergence'] == 'stack':
        ok = {'ok': {'ok'}, 'deadlock': {'deadlock'}, 'any': {'ok', 'deadlock'}}[meta['stack']]
        if LOCK_TIMEOUT_OK and meta['stack'] != 'ok':
            ok = ok | {'timeout'}
        return ok
    return {'ok'}


def write_program(d, seed, feats, size):
    prog = gen.generate(seed, feats, size)
    ptx, yaml, meta = gen.emit(prog)
    with open(os.path.join(d, 'fz%d.ptx' % seed), 'w') as f:
        f.write(ptx)
    with open(os.path.join(d, 'fz%d.yaml' % seed), 'w') as f:
        f.write(yaml)
    return prog, meta


def configs_for(meta, args):
    axes = collections.OrderedDict((k, list(v)) for k, v in AXES.items())
    axes['warp_size'] = [w for w in axes['warp_size'] if w in meta['warp_sizes']]
    if meta['its']:
        axes['divergence'] = ['barrier']     # warp ops from different branches: sm_70+ only
    for k, v in args.skip:
        if k in axes:
            axes[k] = [x for x in axes[k] if str(x) != v]
    return axes


def yaml_list(v):
    return '[' + ', '.join(str(x) for x in v) + ']'


def run_batch(args, d, seeds, metas):
    """one sweep: every program x its configurations. Returns the rows (dicts)."""
    lines = ['name: fuzz', 'workload:']
    lines += ['  - fz%d.yaml' % s for s in seeds]
    lines.append('base: {max_cycles: %d, barrier_regs: %d}' % (args.max_cycles, args.barrier_regs))
    lines.append('grid:')

    def vals(k):
        return [x for x in AXES[k] if not any(k == sk and str(x) == sv for sk, sv in args.skip)]
    rng = random.Random(seeds[0] * 7919 + 1)
    sampled = ('warp_size', 'scheduler', 'issue')
    for k in AXES:
        if not (args.configs and k in sampled):
            lines.append('  %s: %s' % (k, yaml_list(vals(k))))
    if args.configs:
        # a random sample of the (warp_size, scheduler, issue) cells for this batch, each
        # still x divergence x cores x l1_kb
        cells = [(w, sc, i) for w in vals('warp_size') for sc in vals('scheduler') for i in vals('issue')]
        keep = sorted(rng.sample(cells, min(args.configs, len(cells))), key=cells.index)
        lines.append('zip:')
        lines.append('  - {%s}' % ', '.join('%s: %s' % (k, yaml_list([c[j] for c in keep]))
                                            for j, k in enumerate(sampled)))
    excl = []
    for s in seeds:
        meta = metas[s]
        for w in vals('warp_size'):
            if w not in meta['warp_sizes'] and (not args.configs or w in [c[0] for c in keep]):
                excl.append('  - {workload: fz%d.yaml, warp_size: %d}' % (s, w))
        if meta['its']:
            excl.append('  - {workload: fz%d.yaml, divergence: stack}' % s)
        if meta['lock']:
            scheds = vals('scheduler') if not args.configs else [c[1] for c in keep]
            for sc in [x for x in args.lock_skip_sched if x in scheds]:
                excl.append('  - {workload: fz%d.yaml, scheduler: %s}' % (s, sc))
    if excl:
        lines.append('exclude:')
        lines += excl
    sweep = os.path.join(d, 'sweep.yaml')
    with open(sweep, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    h5 = os.path.join(d, 'fuzz.h5')
    cmd = [args.bin, 'run', sweep, '-o', h5, '-j', str(args.jobs), '--force']
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        return None, 'warpsweep run exit %d: %s' % (p.returncode, (p.stderr or p.stdout).strip()[-2000:])
    import h5py
    rows = []
    with h5py.File(h5, 'r') as f:
        pts = f['points'][:]
    names = ['workload', 'status', 'message'] + list(AXES)
    for r in pts:
        row = {}
        for n in names:
            x = r[n]
            row[n] = x.decode() if isinstance(x, bytes) else int(x)
        rows.append(row)
    return rows, None


def sim_one(args, yaml_path, cfg):
    cmd = [args.bin, 'sim', yaml_path, '--json', '--set', 'max_cycles=%d' % args.max_cycles,
           '--set', 'barrier_regs=%d' % args.barrier_regs]
    for k, v in cfg.items():
        cmd += ['--set', '%s=%s' % (k, v)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    try:
        j = json.loads(p.stdout)
        return j['status'], j.get('message', '')
    except ValueError:
        return 'loaderror', (p.stderr or p.stdout).strip()[:300]


def failure_class(status, msg):
    """a short key of what went wrong, for minimisation and de-duplication"""
    m = re.sub(r'\S+\.(ptx|yaml):', '', msg)
    m = re.sub(r'\d+', 'N', m)
    m = re.sub(r'0xN', 'N', m)
    if status == 'mismatch':
        if msg.startswith('reference run'):
            return 'mismatch-reference ' + m[:60]
        b = re.match(r'mismatch: (\w+)\[', msg)
        return 'mismatch ' + (b.group(1) if b else '')
    if status == 'invalid':
        return 'invalid ' + m[:50]
    if status == 'deadlock':
        return 'deadlock ' + ('livelock' if 'livelock' in msg else 'blocked')
    return status


# ---------------------------------------------------------------------------------------
# minimisation: greedy reduction of the program tree while the failure persists


def candidates(prog):
    """programs one step simpler than prog (each a deep copy)"""
    import copy

    def lists(stmts, path):
        yield path, stmts
        for i, st in enumerate(stmts):
            if st[0] == 'if':
                yield from lists(st[2], path + [(i, 2)])
                yield from lists(st[3], path + [(i, 3)])
            elif st[0] in ('loop', 'uloop'):
                yield from lists(st[2], path + [(i, 2)])
            elif st[0] == 'sw':
                for ci, (_, b) in enumerate(st[3]):
                    yield from lists(b, path + [(i, ('case', ci))])

    def get(p, path):
        cur = p['body']
        for i, k in path:
            st = cur[i]
            cur = st[3][k[1]][1] if isinstance(k, tuple) else st[k]
        return cur

    paths = [path for path, _ in lists(prog['body'], [])]
    # 1. drop chunks of statements, largest first
    for path in paths:
        n = len(get(prog, path))
        chunk = n
        while chunk >= 1:
            for start in range(0, n, chunk):
                q = copy.deepcopy(prog)
                lst = get(q, path)
                del lst[start:start + chunk]
                yield q
            chunk //= 2
    # 2. replace a compound statement by one of its bodies, simplify conditions
    for path in paths:
        lst = get(prog, path)
        for i, st in enumerate(lst):
            subs = []
            if st[0] == 'if':
                subs = [st[2], st[3]]
            elif st[0] in ('loop', 'uloop'):
                subs = [st[2]]
            elif st[0] == 'sw':
                subs = [b for _, b in st[3]]
            for sb in subs:
                q = copy.deepcopy(prog)
                l2 = get(q, path)
                l2[i:i + 1] = copy.deepcopy(sb)
                yield q
            if st[0] in ('if', 'esc') and st[1][0] != 'const':
                for b in (True, False):
                    q = copy.deepcopy(prog)
                    l2 = get(q, path)
                    l2[i] = (st[0], ('const', b)) + tuple(st[2:])
                    yield q
            if st[0] == 'sw' and len(st[3]) > 2:
                q = copy.deepcopy(prog)
                l2 = get(q, path)
                l2[i] = (st[0], st[1], st[2], st[3][:-1])
                yield q
            if st[0] == 'loop' and st[1][-1] > 1:
                q = copy.deepcopy(prog)
                l2 = get(q, path)
                l2[i] = ('loop', st[1][:-1] + (1,), st[2])
                yield q
    # 3. fewer threads, simpler functions
    for key, smaller in (('grid', 1), ('block', 32)):
        if prog[key] > smaller:
            q = copy.deepcopy(prog)
            q[key] = smaller
            yield q
    if prog['funcs']:
        for fi, f in enumerate(prog['funcs']):
            if f['body']:
                q = copy.deepcopy(prog)
                q['funcs'][fi]['body'] = []
                yield q


def minimise(args, prog, cfg, want_class, outdir, budget):
    """greedy: take the first simpler program that still fails with want_class"""
    d = tempfile.mkdtemp(prefix='fzmin', dir=args.tmp)
    path = os.path.join(d, 'fz%d.yaml' % prog['seed'])
    tries = 0

    def fails(p):
        nonlocal tries
        tries += 1
        ptx, yaml, meta = gen.emit(p)
        with open(os.path.join(d, 'fz%d.ptx' % p['seed']), 'w') as f:
            f.write(ptx)
        with open(path, 'w') as f:
            f.write(yaml)
        st, msg = sim_one(args, path, cfg)
        if st in expected_status(meta, cfg):
            return False
        return cfg['divergence'] + ' ' + failure_class(st, msg) == want_class

    t0 = time.time()
    progress = True
    while progress and tries < budget and time.time() - t0 < args.min_seconds:
        progress = False
        for q in candidates(prog):
            if tries >= budget or time.time() - t0 >= args.min_seconds:
                break
            if fails(q):
                prog = q
                progress = True
                break
    fails(prog)                       # (re)writes the final program
    st, msg = sim_one(args, path, cfg)
    ptx, yaml, meta = gen.emit(prog)
    shutil.rmtree(d, ignore_errors=True)
    base = os.path.join(outdir, 'fz%d_min' % prog['seed'])
    with open(base + '.ptx', 'w') as f:
        f.write(ptx)
    with open(base + '.yaml', 'w') as f:
        f.write(yaml.replace('kernel: fz%d.ptx' % prog['seed'], 'kernel: fz%d_min.ptx' % prog['seed'])
                .replace('name: fz%d' % prog['seed'], 'name: fz%d_min' % prog['seed']))
    with open(base + '.json', 'w') as f:
        json.dump(prog, f)
    return base + '.yaml', st, msg, tries


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument('--bin', default=os.environ.get('WS_BIN', 'build/warpsweep'))
    ap.add_argument('--start', type=int, default=0, help='first seed')
    ap.add_argument('--count', type=int, default=20, help='number of programs (seeds start..start+count-1)')
    ap.add_argument('--seeds', default='', help='explicit comma-separated seeds (overrides --start/--count)')
    ap.add_argument('--features', default='default', help='gen.py features: "all", "-lock,-warp_div", ...')
    ap.add_argument('--size', type=int, default=3, help='program size knob (statements per block)')
    ap.add_argument('--batch', type=int, default=10, help='programs per warpsweep run')
    ap.add_argument('-j', '--jobs', type=int, default=2)
    ap.add_argument('--configs', type=int, default=0,
                    help='per batch, a random sample of this many (warp_size, scheduler, issue) cells '
                         '(each still x divergence x cores x l1_kb); 0 = the full matrix')
    ap.add_argument('--skip', action='append', default=[], metavar='PARAM=VALUE',
                    help='drop one value of an axis (e.g. scheduler=two_level while a bug is open)')
    ap.add_argument('--max-cycles', type=int, default=5000000)
    ap.add_argument('--barrier-regs', type=int, default=16)
    ap.add_argument('--fail-dir', default='fuzz-failures')
    ap.add_argument('--min-budget', type=int, default=300, help='max simulations per minimisation')
    ap.add_argument('--min-seconds', type=float, default=60)
    ap.add_argument('--minimise', type=int, default=3, help='minimise at most this many failures per class')
    ap.add_argument('--max-fail', type=int, default=0, help='stop after this many failing programs (0: never)')
    ap.add_argument('--lock-timeout-ok', action='store_true',
                    help='accept timeout where the stack must deadlock on a spin lock (the livelock proof '
                         'fails with cores=2, /work/notes/fuzz-findings.md)')
    ap.add_argument('--lock-skip-sched', action='append', default=[], metavar='SCHED',
                    help='do not run programs with a spin lock under this scheduler (swl: its window may '
                         'starve the lock holder, issue 10 bug 8)')
    ap.add_argument('--tmp', default=None)
    ap.add_argument('-q', '--quiet', action='store_true')
    args = ap.parse_args()
    args.skip = [tuple(s.split('=', 1)) for s in args.skip]
    global LOCK_TIMEOUT_OK
    LOCK_TIMEOUT_OK = args.lock_timeout_ok
    feats = gen.parse_features(args.features)
    seeds = [int(x) for x in args.seeds.split(',') if x] if args.seeds else \
        list(range(args.start, args.start + args.count))
    os.makedirs(args.fail_dir, exist_ok=True)
    t0 = time.time()
    npoints = nfailprog = 0
    classes = collections.Counter()
    minimised = collections.Counter()
    for b in range(0, len(seeds), args.batch):
        batch = seeds[b:b + args.batch]
        d = tempfile.mkdtemp(prefix='fuzz', dir=args.tmp)
        progs, metas = {}, {}
        for s in batch:
            progs[s], metas[s] = write_program(d, s, feats, args.size)
        rows, err = run_batch(args, d, batch, metas)
        if rows is None:
            print('FAIL batch %s: %s' % (batch, err))
            nfailprog += 1
            classes['run-error'] += 1
            shutil.rmtree(d, ignore_errors=True)
            if args.max_fail and nfailprog >= args.max_fail:
                break
            continue
        npoints += len(rows)
        fails = collections.OrderedDict()
        for r in rows:
            s = int(r['workload'][2:].split('.')[0])
            cfg = {k: r[k] for k in AXES}
            if r['status'] in expected_status(metas[s], cfg):
                continue
            fc = cfg['divergence'] + ' ' + failure_class(r['status'], r['message'])
            fails.setdefault(s, collections.OrderedDict()).setdefault(fc, []).append((cfg, r))
        for s, byclass in fails.items():
            nfailprog += 1
            for fc, lst in byclass.items():
                classes[fc] += 1
                cfg, r = lst[0]
                cfgs = ' '.join('%s=%s' % kv for kv in cfg.items())
                print('FAIL seed %d [%s] in %d configs, e.g. %s: status %s (expected %s): %s' %
                      (s, fc, len(lst), cfgs, r['status'], '/'.join(sorted(expected_status(metas[s], cfg))),
                       r['message'][:300]))
                if minimised[fc] < args.minimise:
                    minimised[fc] += 1
                    path, st, msg, tries = minimise(args, progs[s], cfg, fc, args.fail_dir, args.min_budget)
                    print('  minimised (%d runs): %s  -> %s: %s' % (tries, path, st, (msg or '')[:200]))
                    print('  reproduce: %s sim %s %s --set max_cycles=%d --set barrier_regs=%d' %
                          (args.bin, path, ' '.join('--set %s=%s' % kv for kv in cfg.items()),
                           args.max_cycles, args.barrier_regs))
        shutil.rmtree(d, ignore_errors=True)
        if not args.quiet:
            el = time.time() - t0
            print('... %d programs, %d points, %.1f s, %.2f programs/s, failing programs %d' %
                  (b + len(batch), npoints, el, (b + len(batch)) / el, nfailprog), flush=True)
        if args.max_fail and nfailprog >= args.max_fail:
            break
    el = time.time() - t0
    print('fuzz: %d programs, %d points in %.1f s (%.2f programs/s, %.0f points/s); %d failing programs%s' %
          (len(seeds), npoints, el, len(seeds) / el, npoints / el, nfailprog,
           ''.join('; %s: %d' % kv for kv in classes.most_common())))
    return 1 if nfailprog else 0


if __name__ == '__main__':
    sys.exit(main())
