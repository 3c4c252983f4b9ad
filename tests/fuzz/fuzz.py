#!/usr/bin/python3
"""Differential fuzzer for warpsweep's SIMT model (tests/fuzz/README.md).

For each seed, gen.py makes a random structured kernel; every program runs under the MIMD
reference and under a covering array of configuration cells over divergence x scheduler x
issue x warp_size x cores x l1_kb (one `warpsweep run` per batch of programs, -j N; every pair
of axis values per program; tests/fuzz/README.md), each
point checking every buffer against the reference (`expect: reference`). A point fails when
its status is not an expected one (expected_status). A failure prints the seed, the
configuration and a minimised program (the generator's tree reduced while the same failure
persists), written to --fail-dir.

  tests/fuzz/fuzz.py --count 200                  # seeds 0..199
  tests/fuzz/fuzz.py --start 100000 --count 100000 --features all --lock-timeout-ok -q   # the long run
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
    ('divergence', ['stack', 'sbi', 'barrier', 'multipath', 'dualpath', 'aware', 'tbc']),
    ('scheduler', ['lrr', 'gto', 'two_level', 'oldest', 'swl']),
    ('issue', ['blocking', 'scoreboard']),
    ('cores', [1, 2]),
    ('l1_kb', [0, 16]),
])


# schemes with the SIMT deadlock of a reconvergence stack (a spin lock deadlocks:
# ElTantawy and Aamodt, MICRO 2016) and schemes with independent thread scheduling
# tbc's block-wide stack keeps the stack's deadlock (every thread of the CTA in one stack)
STACK_SCHEMES = {'stack', 'multipath', 'dualpath', 'tbc'}
ITS_SCHEMES = {'sbi', 'barrier'}
WARP_OPS = re.compile(r'\b(shfl|vote|match|redux|bar\.warp)\b')
LOCK_TIMEOUT_OK = False   # --lock-timeout-ok: see its help
SWL_LIMIT = 4             # the registry default of swl_limit (warpsweep params)


def expected_status(meta, cfg):
    """the set of acceptable statuses at one configuration"""
    if cfg['divergence'] in STACK_SCHEMES:
        ok = {'ok': {'ok'}, 'deadlock': {'deadlock'}, 'any': {'ok', 'deadlock'}}[meta['stack']]
        if LOCK_TIMEOUT_OK and meta['stack'] != 'ok':
            ok = ok | {'timeout'}
    else:
        ok = {'ok'}
    # tbc: a .sync warp operation runs per home warp on the lanes of it in one dynamic warp;
    # members that compaction put into another dynamic warp are a SIMT deadlock (the stack's
    # rule for members on another path; TBC predates warp-level operations, docs/model.md)
    if cfg['divergence'] == 'tbc' and meta.get('warp'):
        ok = ok | {'deadlock'}
    # lanes that left a region before a .sync op whose mask names them, parked at the join
    # they branched to (gen.py 'xsync', how 'tail'): a SIMT deadlock of the warps that diverge
    # there; a windowed scheduler (swl, two_level) whose window holds only deadlocked warps
    # proves the others starved (also true: they never issue)
    if (meta.get('xsync_wait') and cfg['divergence'] in STACK_SCHEMES
            and cfg['scheduler'] in ('swl', 'two_level')):
        ok = ok | {'starved'}
    # swl issues only from its window of the swl_limit oldest warps: a spinner inside it may
    # wait forever for a lock holder outside it, which the simulator proves as `starved` (a
    # correct answer: the policy's starvation, docs/model.md). Only a spin lock makes one warp
    # wait for another outside a CTA barrier, and only with more warps than the window.
    if meta['lock'] and cfg['scheduler'] == 'swl' and meta['threads'] > SWL_LIMIT * cfg['warp_size']:
        ok = ok | {'starved'}
        if LOCK_TIMEOUT_OK:             # the starvation proof not found within max_cycles
            ok = ok | {'timeout'}
    return ok


def emit(prog):
    """gen.emit plus the thread count the expectations need"""
    ptx, yaml, meta = gen.emit(prog)
    meta['threads'] = prog['grid'] * prog['block']
    meta['warp'] = bool(WARP_OPS.search(ptx))
    return ptx, yaml, meta


def write_program(d, seed, feats, size):
    prog = gen.generate(seed, feats, size)
    ptx, yaml, meta = emit(prog)
    with open(os.path.join(d, 'fz%d.ptx' % seed), 'w') as f:
        f.write(ptx)
    with open(os.path.join(d, 'fz%d.yaml' % seed), 'w') as f:
        f.write(yaml)
    return prog, meta


def axis_values(args, k, meta_its=False):
    if k == 'divergence' and meta_its:
        vals = [x for x in AXES[k] if x in ITS_SCHEMES]   # warp ops from different branches: sm_70+ only
    else:
        vals = list(AXES[k])
    return [x for x in vals if not any(k == sk and str(x) == sv for sk, sv in args.skip)]


def covering_rows(rng, axes, n, k=None):
    """n configuration cells (dicts) over axes (name -> values): every value of every axis
    appears, and with n >= the product of the two largest axes (4 warp sizes x 5 schedulers =
    20) every pair of values of any two axes appears (a strength-2 covering array, built
    greedily). With k (the batch number) and n = 20 and the other axes all two-valued, the
    array is a fixed one whose two-valued columns are flipped by the bits of k: flipping a
    column keeps the pairs covered, and batches k .. k+2^m-1 (m two-valued axes: 16 with
    divergence, 8 without) run every row with every combination of the others, i.e. together
    the full matrix. Otherwise random, so successive batches cover different cells."""
    binary = [x for x in axes if len(axes[x]) == 2]
    big = sorted(axes, key=lambda x: -len(axes[x]))[:2]
    if k is not None and len(big) == 2 and n == len(axes[big[0]]) * len(axes[big[1]]) and \
            all(len(axes[x]) <= 2 for x in axes if x not in big):
        rows = covering_rows(random.Random(20240610), axes, n)
        flip = k % (1 << len(binary))
        for r in rows:
            for bit, x in enumerate(binary):
                if flip >> bit & 1:
                    r[x] = axes[x][1 - axes[x].index(r[x])]
        rows.sort(key=lambda r: [axes[x].index(r[x]) for x in AXES if x in r])
        return rows
    names = list(axes)
    big = sorted(names, key=lambda k: -len(axes[k]))[:2]
    a, b = big[0], big[1] if len(big) > 1 else None
    combos = [(x, y) for x in axes[a] for y in (axes[b] if b else [None])]
    rng.shuffle(combos)
    if n < len(combos):
        # a diagonal walk covers every value of both big axes in max(|A|, |B|) rows
        la, lb = len(axes[a]), len(axes[b]) if b else 1
        off = rng.randrange(la)
        picked = [(axes[a][(i + off) % la], axes[b][i % lb] if b else None) for i in range(n)]
    else:
        picked = combos + [rng.choice(combos) for _ in range(n - len(combos))]
    rest = [k for k in names if k not in big]
    all_rest = [{}]
    for k in rest:
        all_rest = [dict(r, **{k: v}) for r in all_rest for v in axes[k]]

    def pairs(row):
        return {((k1, row[k1]), (k2, row[k2])) for i, k1 in enumerate(names) for k2 in names[i + 1:]}
    best = None
    for _ in range(20):
        rows, seen = [], set()
        for x, y in picked:
            base = {a: x}
            if b:
                base[b] = y
            cand = [dict(base, **r) for r in all_rest]
            rng.shuffle(cand)
            row = max(cand, key=lambda c: len(pairs(c) - seen))
            seen |= pairs(row)
            rows.append(row)
        want = sum(len(axes[k1]) * len(axes[k2]) for i, k1 in enumerate(names) for k2 in names[i + 1:])
        if best is None or len(seen) > best[0]:
            best = (len(seen), rows)
        if len(seen) == want or n < len(combos):
            break
    rows = best[1]
    # the reference run is cached per (workload, warp size): keep a warp size's cells together
    rows.sort(key=lambda r: [axes[k].index(r[k]) for k in AXES if k in r])
    return rows


def yaml_list(v):
    return '[' + ', '.join(str(x) for x in v) + ']'


def sweep_text(args, seeds, its, rng, k):
    """one sweep: the programs (workload axis, slowest) x their configuration cells"""
    lines = ['name: fuzz', 'workload:']
    lines += ['  - fz%d.yaml' % s for s in seeds]
    lines.append('base: {max_cycles: %d, barrier_regs: %d}' % (args.max_cycles, args.barrier_regs))
    axes = collections.OrderedDict((k, axis_values(args, k, its)) for k in AXES)
    if args.configs:
        rows = covering_rows(rng, axes, args.configs, k)
        lines.append('zip:')
        lines.append('  - {%s}' % ', '.join('%s: %s' % (k, yaml_list([r[k] for r in rows])) for k in AXES))
    else:
        # warp_size first: the reference run is cached per (workload, warp size)
        lines.append('grid:')
        lines += ['  %s: %s' % (k, yaml_list(v)) for k, v in axes.items()]
    return '\n'.join(lines) + '\n'


def batch_sweeps(args, d, seeds, metas, rng, k):
    """starts the sweeps of one batch (programs needing independent thread scheduling run
    under ITS_SCHEMES only, in a sweep of their own); -> list of (Popen, h5 path)"""
    groups = [[s for s in seeds if not metas[s]['its']], [s for s in seeds if metas[s]['its']]]
    procs = []
    for gi, group in enumerate(groups):
        if not group or not axis_values(args, 'divergence', gi == 1):
            continue                     # (no scheme left to run it under: --skip)
        sweep = os.path.join(d, 'sweep%d.yaml' % gi)
        with open(sweep, 'w') as f:
            f.write(sweep_text(args, group, gi == 1, rng, k))
        h5 = os.path.join(d, 'fuzz%d.h5' % gi)
        cmd = [args.bin, 'run', sweep, '-o', h5, '-j', str(args.jobs), '--force']
        procs.append((cmd, h5))
    return procs


def run_batch(procs):
    """runs the sweeps one after the other; -> (rows, None) or (None, error)"""
    import h5py
    rows = []
    names = ['workload', 'status', 'message', 'cycles'] + list(AXES)
    for cmd, h5 in procs:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        if p.returncode != 0:
            return None, 'warpsweep run exit %d: %s' % (p.returncode, (p.stderr or p.stdout).strip()[-2000:])
        with h5py.File(h5, 'r') as f:
            pts = f['points'][:]
        cols = {n: pts[n] for n in names}
        for i in range(len(pts)):
            row = {}
            for n in names:
                x = cols[n][i]
                row[n] = x.decode() if isinstance(x, bytes) else int(x)
            rows.append(row)
    return rows, None


def sim_one(args, yaml_path, cfg, max_cycles=None, barrier_regs=None):
    cmd = [args.bin, 'sim', yaml_path, '--json', '--set', 'max_cycles=%d' % (max_cycles or args.max_cycles),
           '--set', 'barrier_regs=%d' % (barrier_regs or args.barrier_regs)]
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


def minimise(args, prog, cfg, want_class, outdir, budget, max_cycles, regs=None):
    """greedy: take the first simpler program that still fails with want_class"""
    d = tempfile.mkdtemp(prefix='fzmin', dir=args.tmp)
    path = os.path.join(d, 'fz%d.yaml' % prog['seed'])
    tries = 0

    def fails(p):
        nonlocal tries
        tries += 1
        ptx, yaml, meta = emit(p)
        with open(os.path.join(d, 'fz%d.ptx' % p['seed']), 'w') as f:
            f.write(ptx)
        with open(path, 'w') as f:
            f.write(yaml)
        st, msg = sim_one(args, path, cfg, max_cycles, regs)
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
    st, msg = sim_one(args, path, cfg, max_cycles, regs)
    ptx, yaml, meta = emit(prog)
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


def check_rows(args, rows, progs, metas, d, classes, minimised):
    """-> the seeds of the failing programs; prints each failure class of each program once"""
    fails = collections.OrderedDict()
    rechecked = 0
    nregs = [0]
    for r in rows:
        s = int(r['workload'][2:].split('.')[0])
        cfg = {k: r[k] for k in AXES}
        if r['status'] in expected_status(metas[s], cfg):
            continue
        mc, regs = args.max_cycles, args.barrier_regs
        need = re.search(r'needs (\d+) convergence-barrier registers', r['message'])
        if r['status'] == 'invalid' and need and int(need.group(1)) > args.barrier_regs:
            # more barriers needing a register at one point than the hardware has, even with
            # every barrier spilled to a general register with BMOV (the pass spills the
            # outermost first, docs/model.md "Spilling barriers"; issue 24 item 9: seeds 1..60,
            # 26 of 1200 points before, 0 after; seeds 1000..1299: 0 of 6000): a model limit, counted; the program must
            # still run right with enough registers
            nregs[0] += 1
            if int(need.group(1)) <= 64:
                # (with the large limit at once: a rerun point is rare, and one that ends is fast)
                mc, regs = max(args.max_cycles, args.recheck_cycles), 64
                st, msg = sim_one(args, os.path.join(d, 'fz%d.yaml' % s), cfg, mc, regs)
                if st in expected_status(metas[s], cfg):
                    continue
                r = dict(r, status=st, message=msg)
            else:
                continue
        elif r['status'] == 'timeout' and args.recheck_cycles > args.max_cycles:
            # the first pass's limit is small (most programs end in < 10^5 cycles): a
            # timeout counts only if it persists with the large limit
            rechecked += 1
            st, msg = sim_one(args, os.path.join(d, 'fz%d.yaml' % s), cfg, args.recheck_cycles)
            mc = args.recheck_cycles
            if st == 'timeout' and metas[s]['lock'] and args.lock_cycles > mc:
                # a spin lock that every thread of the grid takes in nested loops is thousands of
                # acquisitions handed over one by one through the L2 (fz424401: ~4,700 of one
                # mutex by 384 threads: sbi 3.9M cycles, aware 8.0M, barrier 13.3M, whose split
                # keeps the warp until it yields): a timeout counts only if it persists here too
                st, msg = sim_one(args, os.path.join(d, 'fz%d.yaml' % s), cfg, args.lock_cycles)
                mc = args.lock_cycles
            if st in expected_status(metas[s], cfg):
                continue
            r = dict(r, status=st, message=msg)
        fc = cfg['divergence'] + ' ' + failure_class(r['status'], r['message'])
        fails.setdefault(s, collections.OrderedDict()).setdefault(fc, []).append((cfg, r, mc, regs))
    for s, byclass in fails.items():
        for fc, lst in byclass.items():
            classes[fc] += 1
            cfg, r, mc, regs = lst[0]
            cfgs = ' '.join('%s=%s' % kv for kv in cfg.items())
            print('FAIL seed %d [%s] in %d configs, e.g. %s: status %s (expected %s): %s' %
                  (s, fc, len(lst), cfgs, r['status'], '/'.join(sorted(expected_status(metas[s], cfg))),
                   r['message'][:300]), flush=True)
            if minimised[fc] < args.minimise:
                minimised[fc] += 1
                path, st, msg, tries = minimise(args, progs[s], cfg, fc, args.fail_dir, args.min_budget, mc, regs)
                print('  minimised (%d runs): %s  -> %s: %s' % (tries, path, st, (msg or '')[:200]))
                print('  reproduce: %s sim %s %s --set max_cycles=%d --set barrier_regs=%d' %
                      (args.bin, path, ' '.join('--set %s=%s' % kv for kv in cfg.items()),
                       mc, regs), flush=True)
    return list(fails), rechecked, nregs[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument('--bin', default=os.environ.get('WS_BIN', 'build/warpsweep'))
    ap.add_argument('--start', type=int, default=0, help='first seed')
    ap.add_argument('--count', type=int, default=20, help='number of programs (seeds start..start+count-1)')
    ap.add_argument('--seeds', default='', help='explicit comma-separated seeds (overrides --start/--count)')
    ap.add_argument('--features', default='default', help='gen.py features: "all", "-lock,-warp_div", ...')
    ap.add_argument('--size', type=int, default=2, help='program size knob (statements per block)')
    ap.add_argument('--batch', type=int, default=200, help='programs per warpsweep run')
    ap.add_argument('-j', '--jobs', type=int, default=2)
    ap.add_argument('--configs', type=int, default=20,
                    help='configuration cells per batch, every program of the batch runs all of them: a '
                         'random covering array over the six axes (every value of every axis; at >= 20 '
                         'every pair of values of any two axes); 0 = the full matrix (960 cells)')
    ap.add_argument('--skip', action='append', default=[], metavar='PARAM=VALUE',
                    help='drop one value of an axis (e.g. scheduler=two_level while a bug is open)')
    ap.add_argument('--max-cycles', type=int, default=1000000,
                    help='first-pass limit (the generated programs end in < 4*10^5 cycles)')
    ap.add_argument('--recheck-cycles', type=int, default=8000000,
                    help='a first-pass timeout is rerun with this limit before it counts as a failure')
    ap.add_argument('--lock-cycles', type=int, default=64000000,
                    help='a program with a spin lock still timing out at --recheck-cycles: rerun with this limit')
    ap.add_argument('--barrier-regs', type=int, default=16)
    ap.add_argument('--fail-dir', default='fuzz-failures')
    ap.add_argument('--min-budget', type=int, default=300, help='max simulations per minimisation')
    ap.add_argument('--min-seconds', type=float, default=60)
    ap.add_argument('--minimise', type=int, default=3, help='minimise at most this many failures per class')
    ap.add_argument('--max-fail', type=int, default=0, help='stop after this many failing programs (0: never)')
    ap.add_argument('--lock-timeout-ok', action='store_true',
                    help='accept timeout where the stack must deadlock on a spin lock: the livelock proof '
                         'finds the recurrence in almost every run, but not always within max_cycles '
                         '(a timeout is an honest "not proven", never a wrong answer)')
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
    npoints = nfailprog = nrecheck = nregpts = 0
    classes = collections.Counter()
    minimised = collections.Counter()
    for b in range(0, len(seeds), args.batch):
        batch = seeds[b:b + args.batch]
        d = tempfile.mkdtemp(prefix='fuzz', dir=args.tmp)
        progs, metas = {}, {}
        for s in batch:
            progs[s], metas[s] = write_program(d, s, feats, args.size)
        rng = random.Random(batch[0] * 7919 + 1)
        rows, err = run_batch(batch_sweeps(args, d, batch, metas, rng, batch[0] // args.batch))
        if rows is None:
            print('FAIL batch %s: %s' % (batch, err))
            nfailprog += 1
            classes['run-error'] += 1
            shutil.rmtree(d, ignore_errors=True)
            if args.max_fail and nfailprog >= args.max_fail:
                break
            continue
        npoints += len(rows)
        failed, rechecked, nr = check_rows(args, rows, progs, metas, d, classes, minimised)
        nfailprog += len(failed)
        nrecheck += rechecked
        nregpts += nr
        shutil.rmtree(d, ignore_errors=True)
        if not args.quiet:
            el = time.time() - t0
            print('... %d programs, %d points, %.1f s, %.2f programs/s, failing programs %d' %
                  (b + len(batch), npoints, el, (b + len(batch)) / el, nfailprog), flush=True)
        if args.max_fail and nfailprog >= args.max_fail:
            break
    el = time.time() - t0
    print('fuzz: %d programs, %d points in %.1f s (%.2f programs/s, %.0f points/s; %d timeouts rechecked; '
          '%d points needing > %d barrier registers, rerun with 64); %d failing programs%s' %
          (len(seeds), npoints, el, len(seeds) / el, npoints / el, nrecheck, nregpts, args.barrier_regs, nfailprog,
           ''.join('; %s: %d' % kv for kv in classes.most_common())))
    return 1 if nfailprog else 0


if __name__ == '__main__':
    sys.exit(main())
