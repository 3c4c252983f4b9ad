#!/usr/bin/python3
"""Random structured SIMT kernels in PTX, for differential fuzzing (tests/fuzz/README.md).

A program is a tree of statements (plain tuples/lists, so the minimiser in fuzz.py can
rewrite it) that `emit()` turns into a PTX module and a workload YAML whose every buffer
is checked against the MIMD reference run (`expect: reference`). Same seed and features
-> the same tree -> the same bytes.

Statements (first element names the kind):
  ('asg', d, op, a, b)          v[d] = v[a] op (v[b] | imm b)
  ('tag', k)                    h = (h ^ k) * FNV prime  -- records the path taken
  ('mix', a)                    h = h * 31 + v[a]
  ('ld', d, a)                  v[d] = data[v[a] & 63]                     (global load)
  ('if', cond, then, else)
  ('loop', trip, body)          per-lane trip count, counter-driven, so it terminates
  ('esc', cond, kind)           if (cond) break | continue | return / exit (store, then @p ret/exit)
                                | bare (branch to an exit-only block) | work (branch to a block that
                                stores, then ret) | jump (branch to such a block after the last ret)
  ('sw', style, sel, cases)     style brx (brx.idx + .branchtargets) or chain; cases: [(fall, body)]
  ('uloop', n, body)            CTA-uniform trip count n: CTA barriers may appear at its top level
  ('bar',)                      bar.sync 0             (only where every live thread arrives)
  ('bred', kind, cond)          bar.red.popc/and/or    (same places)
  ('xchg', a, k)                shared exchange: st sx[tid]; bar; ld sx[(tid+k) % ntid]; bar
  ('atom', space, op, a, s)     order-independent atomics on acc (global) or sacc (shared)
  ('lock', a, bucket)           spin lock (atom.cas loop, membar.gl, atom.exch) around lockc[b] += v[a]
  ('loc', a, b)                 local array: la[v[a] & 7] = v[b]; v[b] = la[(v[a] >> 3) & 7]
  ('call', f, d, a, b)          v[d] = f(v[a], v[b])    (.func with .param arguments, nvcc style)
  ('a32', space, a, b, bias, w) 32-bit address arithmetic (issue 24): the .u32 address of a word
                                of the thread's shared slot (fz_a32) or local array minus bias,
                                stored (u32, or u8 into one byte: w) at [reg+bias] (nvcc's
                                unrolled loops; the register wraps below 0), then
                                another word read back into v[b] through a plain address
  ('gsh', form, a, b, c)        generic addressing of shared memory (issue 24): form cvta / cvtasym
                                (st/ld through cvta.shared of the slot), vec (generic ld.v2/st.v2),
                                sym (generic ld/st of the .shared symbol fz_gc), atom (generic
                                atom/red.add on sacc's add region), lsym / lcvta (the .local
                                array fz_la named in a generic ld/st, or through cvta.local)
  ('warp', kind, a, mode)       vote/shfl/match/redux/bar.warp with a member mask:
                                mode 'reg' (the lanes reaching here), 'tile' (those of a
                                tile of 4/8/16 lanes), 'div' (both sides of an if, one mask)
  ('xsync', cond, how, kind, a, incl, work)   lanes with cond leave, then the others run a
                                warp op (kind as 'warp') whose mask names the region's lanes
                                (incl 'all': the leavers too) or only those left ('rest');
                                how: 'ret' (store, @p ret), 'bare' (branch to an exit-only
                                block), 'tail' (nvcc's tail merge: the leavers branch past the
                                op to a join, run `work` there with the others, then store and
                                ret: they are alive at the join while the op runs)
Conditions: ('lane', k) laneid < k; ('tid', m, e) (tid & m) == e; ('var', a, m, k)
(v[a] & m) < k; ('const', b).

Member masks are never constants: a region's mask is a register computed by
vote.sync.ballot from its parent's (the lanes that reach a point are exactly the lanes of
the mask), so one program is valid at every warp size (8/16/32/64: masks are relative to
each 32-lane group, lanes a narrow warp lacks count as exited, as warpsweep does). Where
break/continue make the set of lanes unknowable the region has no mask and warp
operations there are not emitted.
"""
import argparse
import random
import sys

FNV = 16777619
NDATA = 64
NACC = 48           # acc: 6 regions of 8 slots: add or and min max inc
NSACC = 16          # sacc: 4 regions of 4 slots: add or xor max
NLOCK = 4
NVARS = 4
A32_BIASES = [4, 64, 256, 1024, 4096, 0x10000, 0x100000]   # addr32: the loop bias subtracted in .u32
NGC = 4             # gshared: fz_gc[j] = j * GC_MUL + GC_ADD, (re)stored and read generically
GC_MUL, GC_ADD = 0x9e3779b9, 0x1234

FEATURES = ['if', 'loop', 'brk', 'cont', 'ret', 'switch', 'bar', 'bred', 'xchg', 'atom',
            'satom', 'lock', 'lock_nested', 'local', 'call', 'warp', 'warp_tile', 'warp_div',
            'uloop', 'exit_kinds', 'ret_work', 'ret_nested', 'sync_exit', 'addr32', 'gshared']
# every feature is on by default; the CI share (tests/e2e/fuzz_simt.sh) switches off the ones
# that hit known, unfixed simulator bugs (issue 10), each with its reason: the goal is all on.
DEFAULT_OFF = set()


class Gen:
    def __init__(self, seed, features, size):
        self.r = random.Random(seed)
        self.f = features
        self.size = size
        self.nfuncs = 0

    def on(self, feat):
        return feat in self.f

    def cond(self):
        r = self.r
        c = r.randrange(3)
        if c == 0:
            return ('lane', r.randrange(1, 32))
        if c == 1:
            m = r.choice([1, 3, 5, 6, 7, 12, 17])
            return ('tid', m, r.randrange(0, m + 1) & m)
        return ('var', r.randrange(NVARS), r.choice([1, 3, 7, 15, 255]), r.randrange(1, 8))

    def simple(self):
        r = self.r
        k = r.randrange(10)
        if k < 4:
            op = r.choice(['add', 'sub', 'xor', 'and', 'or', 'mul', 'shl', 'shr', 'min', 'max', 'addi', 'xori'])
            b = r.randrange(1, 31) if op in ('shl', 'shr', 'addi', 'xori') else r.randrange(NVARS)
            return ('asg', r.randrange(NVARS), op, r.randrange(NVARS), b)
        if k < 6:
            return ('tag', r.randrange(1, 1 << 16))
        if k < 8:
            return ('mix', r.randrange(NVARS))
        return ('ld', r.randrange(NVARS), r.randrange(NVARS))

    def block(self, depth, ctx, n=None):
        """ctx: 'top' (every live thread), 'utop' (top level of a uniform loop),
        'div' (divergent code), 'loop' (divergent code inside a divergent loop)"""
        r = self.r
        if n is None:
            n = r.randrange(1, 3 + max(0, self.size - depth))
        out = []
        for _ in range(n):
            out.append(self.stmt(depth, ctx))
        return out

    def stmt(self, depth, ctx):
        r = self.r
        choices = [('simple', 6)]
        deep = depth < 4
        inloop = ctx in ('loop',)
        conv = ctx in ('top', 'utop')
        if deep and self.on('if'): choices.append(('if', 4))
        if deep and self.on('loop'): choices.append(('loop', 2))
        if deep and self.on('switch'): choices.append(('sw', 1))
        if inloop and self.on('brk'): choices.append(('brk', 2))
        if inloop and self.on('cont'): choices.append(('cont', 2))
        if self.on('ret') and (conv or self.on('ret_nested')): choices.append(('ret', 1))
        if conv and self.on('bar'): choices.append(('bar', 2))
        if conv and self.on('bred'): choices.append(('bred', 1))
        if conv and self.on('xchg'): choices.append(('xchg', 1))
        if ctx == 'top' and deep and self.on('uloop'): choices.append(('uloop', 1))
        if self.on('atom'): choices.append(('atom', 1))
        if self.on('satom'): choices.append(('satom', 1))
        if self.on('lock') and (conv or self.on('lock_nested')): choices.append(('lock', 1))
        if self.on('local'): choices.append(('loc', 1))
        if self.on('call') and self.nfuncs: choices.append(('call', 1))
        if self.on('warp'): choices.append(('warp', 3))
        if self.on('warp_div') and deep: choices.append(('wdiv', 1))
        if self.on('sync_exit') and (conv or self.on('ret_nested')): choices.append(('xsync', 1))
        if self.on('addr32'): choices.append(('a32', 1))
        if self.on('gshared'): choices.append(('gsh', 1))
        tot = sum(w for _, w in choices)
        x = r.randrange(tot)
        for kind, w in choices:
            if x < w:
                break
            x -= w
        sub = 'loop' if ctx == 'loop' else 'div'
        if kind == 'simple':
            return self.simple()
        if kind == 'if':
            els = self.block(depth + 1, sub) if r.random() < 0.6 else []
            return ('if', self.cond(), self.block(depth + 1, sub), els)
        if kind == 'loop':
            trip = r.choice([('lane', r.choice([3, 7])), ('var', r.randrange(NVARS), r.choice([3, 7])),
                             ('tid', r.choice([1, 3]))])
            return ('loop', trip, self.block(depth + 1, 'loop'))
        if kind == 'sw':
            n = r.randrange(2, 6)
            cases = [(r.random() < 0.2, self.block(depth + 1, sub, r.randrange(1, 3))) for _ in range(n)]
            return ('sw', r.choice(['brx', 'brx', 'chain']), (r.randrange(NVARS), r.randrange(2)), cases)
        if kind in ('brk', 'cont'):
            return ('esc', self.cond(), 'break' if kind == 'brk' else 'continue')
        if kind == 'ret':
            kinds = ['return']
            if self.on('exit_kinds'):
                kinds += ['exit', 'bare']
            if self.on('ret_work'):
                kinds += ['work', 'jump']
            return ('esc', self.cond(), r.choice(kinds))
        if kind == 'bar':
            return ('bar',)
        if kind == 'bred':
            return ('bred', r.choice(['popc', 'and', 'or']), self.cond())
        if kind == 'xchg':
            return ('xchg', r.randrange(NVARS), r.randrange(1, 40))
        if kind == 'uloop':
            return ('uloop', r.randrange(1, 4), self.block(depth + 1, 'utop'))
        if kind == 'atom':
            return ('atom', 'global', r.choice(['add', 'or', 'and', 'min', 'max', 'inc', 'red']),
                    r.randrange(NVARS), r.randrange(NVARS))
        if kind == 'satom':
            return ('atom', 'shared', r.choice(['add', 'or', 'xor', 'max']), r.randrange(NVARS), r.randrange(NVARS))
        if kind == 'lock':
            return ('lock', r.randrange(NVARS), r.choice([None, r.randrange(NVARS)]) if not conv else None)
        if kind == 'loc':
            return ('loc', r.randrange(NVARS), r.randrange(NVARS))
        if kind == 'call':
            return ('call', r.randrange(self.nfuncs), r.randrange(NVARS), r.randrange(NVARS), r.randrange(NVARS))
        if kind == 'warp':
            modes = ['reg', 'reg']
            if self.on('warp_tile'):
                modes.append('tile')
            wk = r.choice(['ballot', 'any', 'all', 'uni', 'shfl_idx', 'shfl_bfly', 'shfl_down', 'shfl_up',
                           'match_any', 'match_all', 'redux_add', 'redux_min', 'redux_max', 'redux_and',
                           'redux_or', 'redux_xor', 'warpsync'])
            return ('warp', wk, r.randrange(NVARS), r.choice(modes) + (':%d' % r.choice([4, 8, 16])))
        if kind == 'xsync':
            return self.sync_exit()
        if kind == 'a32':
            return self.gen_addr32()
        if kind == 'gsh':
            return self.gen_gshared()
        if kind == 'wdiv':
            return ('warp', r.choice(['ballot', 'any', 'redux_add', 'shfl_idx']), r.randrange(NVARS),
                    'div:%d' % r.randrange(1, 32))
        raise AssertionError(kind)

    def sync_exit(self):
        """exited lanes before a warp .sync op (issue 24): ('xsync', cond, how, kind, a, incl,
        work); 'tail' + 'all' is the form a stack machine cannot run (the leavers wait at the
        join for the op's lanes, which wait for them)"""
        r = self.r
        kind = r.choice(['ballot', 'any', 'all', 'uni', 'shfl_idx', 'match_any', 'match_all', 'redux_add',
                         'redux_min', 'redux_max', 'redux_and', 'redux_or', 'redux_xor', 'warpsync'])
        how = r.choice(['ret', 'bare', 'tail'])
        work = [self.simple() for _ in range(r.randrange(3))] if how == 'tail' else []
        return ('xsync', self.cond(), how, kind, r.randrange(NVARS), r.choice(['all', 'all', 'rest']), work)
    # issue 24 forms (own functions, so other features merge cleanly)
    def gen_addr32(self):
        r = self.r
        return ('a32', r.choice(['shared', 'local']), r.randrange(NVARS), r.randrange(NVARS), r.choice(A32_BIASES),
                r.choice([32, 8]))

    def gen_gshared(self):
        r = self.r
        return ('gsh', r.choice(['cvta', 'cvtasym', 'vec', 'sym', 'atom', 'lsym', 'lcvta']), r.randrange(NVARS),
                r.randrange(NVARS), r.randrange(4))

    def func(self, fi):
        """a .func body: statements over its two arguments x0, x1 (kinds asg, if, fret)"""
        r = self.r

        def fb(depth, n):
            out = []
            for _ in range(n):
                k = r.randrange(6)
                if k < 3 or depth > 1:
                    op = r.choice(['add', 'xor', 'mul', 'shl', 'min', 'addi'])
                    b = r.randrange(1, 20) if op in ('shl', 'addi') else r.randrange(2)
                    out.append(('asg', r.randrange(2), op, r.randrange(2), b))
                elif k < 5:
                    out.append(('if', self.cond_func(), fb(depth + 1, r.randrange(1, 3)),
                                fb(depth + 1, r.randrange(0, 2))))
                else:
                    out.append(('esc', self.cond_func(), 'fret'))
            return out
        callee = r.randrange(fi) if fi and r.random() < 0.5 else None
        return {'body': fb(0, r.randrange(2, 5)), 'callee': callee}

    def cond_func(self):
        r = self.r
        if r.random() < 0.5:
            return ('lane', r.randrange(1, 32))
        return ('var', r.randrange(2), r.choice([1, 3, 7]), r.randrange(1, 5))


def generate(seed, features=None, size=3):
    if features is None:
        features = set(FEATURES) - DEFAULT_OFF
    g = Gen(seed, features, size)
    r = g.r
    prog = {'seed': seed, 'grid': r.choice([1, 1, 2, 3]), 'block': r.choice([32, 48, 64, 64, 96, 128]),
            'data': [r.randrange(1 << 32) if r.random() < 0.3 else r.randrange(64) for _ in range(NDATA)],
            'funcs': []}
    if g.on('call'):
        for fi in range(r.randrange(1, 3)):
            prog['funcs'].append(g.func(fi))
        g.nfuncs = len(prog['funcs'])
    prog['body'] = g.block(0, 'top', r.randrange(3, 5 + size))
    return prog


# ---------------------------------------------------------------------------------------
# analysis helpers


def escapes(stmts):
    """kinds of escapes leaving this statement list: 'ret' (kernel exit), 'brk', 'cont'
    (the enclosing divergent loop)"""
    s = set()
    for st in stmts:
        k = st[0]
        if k == 'esc':
            s.add({'break': 'brk', 'continue': 'cont'}.get(st[2], 'ret'))
        elif k == 'if':
            s |= escapes(st[2]) | escapes(st[3])
        elif k == 'sw':
            for _, b in st[3]:
                s |= escapes(b)
        elif k in ('loop', 'uloop'):
            s |= escapes(st[2]) & {'ret'}   # (a uloop's break/continue have no target: emitted as nothing)
        elif k == 'xsync':
            s.add('ret')
    return s


def loop_mask_ok(body):
    """a loop whose break/continue statements are all at the top level of its body, with no
    break after a continue: every lane reaching the latch knows the same latch mask"""
    seen_cont = False
    for st in body:
        k = st[0]
        if k == 'esc' and st[2] == 'continue':
            seen_cont = True
        elif k == 'esc' and st[2] == 'break' and seen_cont:
            return False
        elif k in ('if', 'sw') and ({'brk', 'cont'} & escapes([st])):
            return False
    return True


def uses(prog, kinds):
    found = []

    def walk(stmts):
        for st in stmts:
            if st[0] in kinds:
                found.append(st)
            if st[0] == 'if':
                walk(st[2]); walk(st[3])
            elif st[0] == 'sw':
                for _, b in st[3]:
                    walk(b)
            elif st[0] in ('loop', 'uloop'):
                walk(st[2])
    walk(prog['body'])
    return found


# ---------------------------------------------------------------------------------------
# PTX emission


class Emit:
    def __init__(self, prog):
        self.p = prog
        self.lines = []
        self.nr = 0
        self.np = 0
        self.nrd = 0
        self.nl = 0
        self.loops = []          # (head, latch, exit, mloop_reg or None, kind) innermost last
        self.its = False         # the program needs independent thread scheduling (sm_70+)
        self.lock_expect = None  # stack outcome with a lock: None, 'deadlock' or 'any'
        self.ret_seen = False    # a top-level statement containing a return has been emitted
        self.used = set()
        self.jexit = False
        self.xsync_wait = False  # an 'xsync' whose op waits for lanes parked at its join

    def r(self):
        self.nr += 1
        return '%%r%d' % self.nr

    def pr(self):
        self.np += 1
        return '%%p%d' % self.np

    def rd(self):
        self.nrd += 1
        return '%%rd%d' % self.nrd

    def lab(self, what):
        self.nl += 1
        return '$L_%s%d' % (what, self.nl)

    def o(self, s):
        self.lines.append('\t' + s)

    def label(self, l):
        self.lines.append(l + ':')

    # --- conditions
    def cond(self, c):
        p = self.pr()
        k = c[0]
        if k == 'lane':
            self.o('setp.lt.u32 %s, %s, %d;' % (p, self.lane, c[1]))
        elif k == 'tid':
            t = self.r()
            self.o('and.b32 %s, %s, %d;' % (t, self.tid, c[1]))
            self.o('setp.eq.u32 %s, %s, %d;' % (p, t, c[2]))
        elif k == 'var':
            t = self.r()
            self.o('and.b32 %s, %s, %d;' % (t, self.v[c[1]], c[2]))
            self.o('setp.lt.u32 %s, %s, %d;' % (p, t, c[3]))
        elif k == 'const':
            self.o('setp.%s.u32 %s, %s, %s;' % ('eq' if c[1] else 'ne', p, self.tid, self.tid))
        else:
            raise AssertionError(c)
        return p

    def ballot(self, p, m, neg=False):
        d = self.r()
        self.o('vote.sync.ballot.b32 %s, %s%s, %s;' % (d, '!' if neg else '', p, m))
        return d

    def hash_in(self, x):
        self.o('mad.lo.u32 %s, %s, 31, %s;' % (self.h, self.h, x))

    # --- the kernel's observable end: out[2*gtid] = h, out[2*gtid+1] = mix of the variables
    def store_out(self):
        t = self.r()
        self.o('mad.lo.u32 %s, %s, 3, %s;' % (t, self.v[0], self.v[1]))
        self.o('mad.lo.u32 %s, %s, 5, %s;' % (t, t, self.v[2]))
        self.o('mad.lo.u32 %s, %s, 7, %s;' % (t, t, self.v[3]))
        self.o('st.global.v2.u32 [%s], {%s, %s};' % (self.outp, self.h, t))

    # --- statements
    def block(self, stmts, m, top=False, lb=None):
        """m: the mask register of the lanes that run this block (None: unknown); top: every
        live thread runs it; lb: it is the body of a divergent loop whose latch mask is lb.
        Returns the mask after the block."""
        for st in stmts:
            m = self.stmt(st, m, top, lb)
            if top and 'ret' in escapes([st]):
                self.ret_seen = True
        return m

    def stmt(self, st, m, top, lb=None):
        k = st[0]
        self.used.add(k)
        v = self.v
        if k == 'asg':
            _, d, op, a, b = st
            bb = v[b] if op not in ('shl', 'shr', 'addi', 'xori') else str(b)
            ins = {'add': 'add.u32', 'sub': 'sub.u32', 'xor': 'xor.b32', 'and': 'and.b32', 'or': 'or.b32',
                   'mul': 'mul.lo.u32', 'shl': 'shl.b32', 'shr': 'shr.u32', 'min': 'min.u32',
                   'max': 'max.u32', 'addi': 'add.u32', 'xori': 'xor.b32'}[op]
            if op == 'and':   # keep values from collapsing to 0
                self.o('or.b32 %s, %s, 0x%x;' % (v[d], v[d], 0x10101))
            self.o('%s %s, %s, %s;' % (ins, v[d], v[a], bb))
            if op == 'and':
                self.o('add.u32 %s, %s, %s;' % (v[d], v[d], self.tid))
        elif k == 'tag':
            self.o('xor.b32 %s, %s, %d;' % (self.h, self.h, st[1]))
            self.o('mul.lo.u32 %s, %s, %d;' % (self.h, self.h, FNV))
        elif k == 'mix':
            self.hash_in(v[st[1]])
        elif k == 'ld':
            t, a = self.r(), self.rd()
            self.o('and.b32 %s, %s, %d;' % (t, v[st[2]], NDATA - 1))
            self.o('mul.wide.u32 %s, %s, 4;' % (a, t))
            self.o('add.s64 %s, %s, %s;' % (a, a, self.datap))
            self.o('ld.global.u32 %s, [%s];' % (v[st[1]], a))
        elif k == 'if':
            return self.emit_if(st, m)
        elif k == 'loop':
            return self.emit_loop(st, m)
        elif k == 'uloop':
            return self.emit_uloop(st, m)
        elif k == 'sw':
            return self.emit_switch(st, m)
        elif k == 'esc':
            return self.emit_esc(st, m, lb)
        elif k == 'bar':
            self.o('bar.sync 0;')
        elif k == 'bred':
            p = self.cond(st[2])
            d = self.r()
            if st[1] == 'popc':
                self.o('bar.red.popc.u32 %s, 0, %s;' % (d, p))
            else:
                q = self.pr()
                self.o('bar.red.%s.pred %s, 0, %s;' % (st[1], q, p))
                self.o('selp.u32 %s, 1, 0, %s;' % (d, q))
            self.hash_in(d)
        elif k == 'xchg':
            a = self.rd()
            t = self.r()
            self.o('st.shared.u32 [%s], %s;' % (self.sxp, v[st[1]]))
            self.o('bar.sync 0;')
            self.o('add.u32 %s, %s, %d;' % (t, self.tid, st[2]))
            self.o('rem.u32 %s, %s, %s;' % (t, t, self.ntid))
            self.o('mul.wide.u32 %s, %s, 4;' % (a, t))
            self.o('add.s64 %s, %s, %s;' % (a, a, self.sxbase))
            self.o('ld.shared.u32 %s, [%s];' % (v[st[1]], a))
            self.o('bar.sync 0;')
        elif k == 'atom':
            self.emit_atom(st)
        elif k == 'lock':
            self.emit_lock(st, top)
        elif k == 'loc':
            a, b = st[1], st[2]
            t, x = self.r(), self.rd()
            self.o('and.b32 %s, %s, 7;' % (t, v[a]))
            self.o('mul.wide.u32 %s, %s, 4;' % (x, t))
            self.o('add.s64 %s, %s, %s;' % (x, x, self.lap))
            self.o('st.local.u32 [%s], %s;' % (x, v[b]))
            self.o('shr.u32 %s, %s, 3;' % (t, v[a]))
            self.o('and.b32 %s, %s, 7;' % (t, t))
            self.o('mul.wide.u32 %s, %s, 4;' % (x, t))
            self.o('add.s64 %s, %s, %s;' % (x, x, self.lap))
            self.o('ld.local.u32 %s, [%s];' % (v[b], x))
        elif k == 'call':
            _, f, d, a, b = st
            if f < len(self.p['funcs']):
                self.emit_call(f, v[d], v[a], v[b])
        elif k == 'warp':
            self.emit_warp(st, m)
        elif k == 'xsync':
            return self.emit_sync_exit(st, m)
        elif k == 'a32':
            self.emit_addr32(st)
        elif k == 'gsh':
            self.emit_gshared(st)
        else:
            raise AssertionError(st)
        return m

    def emit_call(self, f, d, a, b):
        self.o('{')
        self.o('.param .b32 param0;')
        self.o('st.param.b32 [param0+0], %s;' % a)
        self.o('.param .b32 param1;')
        self.o('st.param.b32 [param1+0], %s;' % b)
        self.o('.param .b32 retval0;')
        self.o('call (retval0), fz_f%d, (param0, param1);' % f)
        self.o('ld.param.b32 %s, [retval0+0];' % d)
        self.o('}')

    def emit_if(self, st, m):
        _, c, th, el = st
        p = self.cond(c)
        mt = me = None
        if m is not None:
            mt = self.ballot(p, m)
            me = self.r()
            self.o('not.b32 %s, %s;' % (me, mt))
            self.o('and.b32 %s, %s, %s;' % (me, me, m))
        lelse, lend = self.lab('else'), self.lab('endif')
        self.o('@!%s bra %s;' % (p, lelse if el else lend))
        self.block(th, mt)
        if el:
            self.o('bra.uni %s;' % lend)
            self.label(lelse)
            self.block(el, me)
        self.label(lend)
        return self.after(st, m)

    def after(self, st, m):
        """the parent's mask after a compound statement"""
        e = escapes([st])
        if m is None:
            return None
        if e & {'brk', 'cont'}:
            return None
        if 'ret' in e:
            self.o('vote.sync.ballot.b32 %s, %s, %s;' % (m, self.pt, m))   # exited lanes drop out
        return m

    def emit_loop(self, st, m):
        _, trip, body = st
        cnt, i = self.r(), self.r()
        if trip[0] == 'lane':
            self.o('and.b32 %s, %s, %d;' % (cnt, self.lane, trip[1]))
        elif trip[0] == 'var':
            self.o('and.b32 %s, %s, %d;' % (cnt, self.v[trip[1]], trip[2]))
        else:
            self.o('and.b32 %s, %s, %d;' % (cnt, self.tid, trip[1]))
        self.o('mov.u32 %s, 0;' % i)
        ok = m is not None and loop_mask_ok(body)
        ml = None
        if ok:
            ml = self.r()
            self.o('mov.b32 %s, %s;' % (ml, m))
        head, latch, ex = self.lab('head'), self.lab('latch'), self.lab('lexit')
        self.label(head)
        p = self.pr()
        self.o('setp.lt.u32 %s, %s, %s;' % (p, i, cnt))
        mb = None
        if ok:
            self.o('vote.sync.ballot.b32 %s, %s, %s;' % (ml, p, ml))
            mb = self.r()
            self.o('mov.b32 %s, %s;' % (mb, ml))
        self.o('@!%s bra %s;' % (p, ex))
        self.loops.append((head, latch, ex, ml, 'div'))
        self.block(body, mb, lb=ml)
        self.loops.pop()
        self.label(latch)
        if ok and 'ret' in escapes(body):
            self.o('vote.sync.ballot.b32 %s, %s, %s;' % (ml, self.pt, ml))
        self.o('add.u32 %s, %s, 1;' % (i, i))
        self.hash_in(i)
        self.o('bra.uni %s;' % head)
        self.label(ex)
        return self.after(st, m)

    def emit_uloop(self, st, m):
        _, n, body = st
        i = self.r()
        self.o('mov.u32 %s, 0;' % i)
        head = self.lab('uhead')
        self.label(head)
        self.loops.append((None, None, None, None, 'uniform'))
        m = self.block(body, m, top=True)
        self.loops.pop()
        if m is not None and 'ret' in escapes(body):
            self.o('vote.sync.ballot.b32 %s, %s, %s;' % (m, self.pt, m))
        self.o('add.u32 %s, %s, 1;' % (i, i))
        p = self.pr()
        self.o('setp.lt.u32 %s, %s, %d;' % (p, i, n))
        self.o('@%s bra %s;' % (p, head))
        return m

    def emit_switch(self, st, m):
        _, style, (a, kind), cases = st
        n = len(cases)
        sel = self.r()
        if kind == 0:
            self.o('rem.u32 %s, %s, %d;' % (sel, self.v[a], n))
        else:
            self.o('add.u32 %s, %s, %s;' % (sel, self.v[a], self.lane))
            self.o('rem.u32 %s, %s, %d;' % (sel, sel, n))
        labs = [self.lab('case') for _ in range(n)]
        end = self.lab('swend')
        masks = [None] * n
        if m is not None:
            for ci in range(n):
                if ci > 0 and cases[ci - 1][0]:
                    continue          # reached by fall-through too: mask unknown
                p = self.pr()
                self.o('setp.eq.u32 %s, %s, %d;' % (p, sel, ci))
                masks[ci] = self.ballot(p, m)
        if style == 'brx':
            bt = self.lab('bt')
            self.lines.append('%s: .branchtargets %s;' % (bt, ', '.join(labs)))
            self.o('brx.idx %s, %s;' % (sel, bt))
        else:
            for ci in range(n - 1):
                p = self.pr()
                self.o('setp.eq.u32 %s, %s, %d;' % (p, sel, ci))
                self.o('@%s bra %s;' % (p, labs[ci]))
            self.o('bra.uni %s;' % labs[n - 1])
        for ci, (fall, body) in enumerate(cases):
            self.label(labs[ci])
            self.o('xor.b32 %s, %s, %d;' % (self.h, self.h, 0x100 + ci))
            self.block(body, masks[ci])
            if not fall or ci == n - 1:
                self.o('bra.uni %s;' % end)
        self.label(end)
        return self.after(st, m)

    def emit_esc(self, st, m, lb):
        _, c, kind = st
        if kind in ('break', 'continue'):
            if not self.loops or self.loops[-1][4] != 'div':
                return m            # no target (a reduced program): nothing
            head, latch, ex, ml, _ = self.loops[-1]
        p = self.cond(c)
        b = self.ballot(p, m) if m is not None else None
        skip = self.lab('noesc')
        if kind in ('break', 'continue'):
            if b is not None and kind == 'break' and lb is not None:
                t = self.r()                 # breakers never reach the latch
                self.o('not.b32 %s, %s;' % (t, b))
                self.o('and.b32 %s, %s, %s;' % (lb, lb, t))
            self.o('@%s bra %s;' % (p, ex if kind == 'break' else latch))
        elif kind == 'jump':                 # to the exit block after the kernel's last ret
            self.o('@%s bra $L_jexit;' % p)
            self.jexit = True
            # the jumpers stay in later member masks and exit only at $L_jexit's ret: a
            # stack machine may run a later .sync op before they get there (SIMT deadlock)
            self.its = True
        elif kind in ('return', 'exit'):
            # every thread stores what it has so far, the leavers leave (a later store by
            # the others overwrites theirs): a guarded ret/exit, as nvcc writes them
            # (returners leave the latch mask at the latch's resync: exited lanes may stay
            # in a member mask, PTX ISA vote.sync)
            self.store_out()
            self.o('@%s %s;' % (p, 'ret' if kind == 'return' else 'exit'))
        else:
            # 'bare': an exit-only block; 'work': the leavers store, then ret
            self.o('@!%s bra %s;' % (p, skip))
            if kind == 'work':
                self.store_out()
            self.o('ret;')
            self.label(skip)
        if b is not None:
            t = self.r()
            self.o('not.b32 %s, %s;' % (t, b))
            self.o('and.b32 %s, %s, %s;' % (m, m, t))
        return m

    def emit_atom(self, st):
        _, space, op, a, s = st
        v = self.v
        t, x, d = self.r(), self.rd(), self.r()
        if space == 'global':
            region = ['add', 'or', 'and', 'min', 'max', 'inc', 'red'].index(op)
            region = 0 if op == 'red' else region
            self.o('and.b32 %s, %s, 7;' % (t, v[s]))
            self.o('add.u32 %s, %s, %d;' % (t, t, 8 * region))
            self.o('mul.wide.u32 %s, %s, 4;' % (x, t))
            self.o('add.s64 %s, %s, %s;' % (x, x, self.accp))
            if op == 'red':
                self.o('red.global.add.u32 [%s], %s;' % (x, v[a]))
            elif op == 'inc':
                self.o('atom.global.inc.u32 %s, [%s], 13;' % (d, x))
            elif op == 'and':
                self.o('or.b32 %s, %s, 0xfff0ff0f;' % (t, v[a]))
                self.o('atom.global.and.b32 %s, [%s], %s;' % (d, x, t))
            else:
                ty = 'b32' if op == 'or' else 'u32'
                self.o('atom.global.%s.%s %s, [%s], %s;' % (op, ty, d, x, v[a]))
        else:
            region = ['add', 'or', 'xor', 'max'].index(op)
            self.o('and.b32 %s, %s, 3;' % (t, v[s]))
            self.o('add.u32 %s, %s, %d;' % (t, t, 4 * region))
            self.o('mul.wide.u32 %s, %s, 4;' % (x, t))
            self.o('add.s64 %s, %s, %s;' % (x, x, self.saccbase))
            ty = 'b32' if op in ('or', 'xor') else 'u32'
            self.o('atom.shared.%s.%s %s, [%s], %s;' % (op, ty, d, x, v[a]))

    # --- issue 24: 32-bit address arithmetic and generic shared addressing
    def emit_addr32(self, st):
        """v[b] -> word v[a] & 1 of the thread's fz_a32 slot (shared) or word v[a] & 7 of fz_la
        (local), or with width 8 one byte of it, through a .u32 register holding the address minus
        bias and the offset [+bias]; then v[b] = the other word of the slot (shared; the same word
        after a byte store) or word (v[a] >> 3) & 7 (local), read through a plain address"""
        _, space, a, b, bias, width = st
        v = self.v
        t, u, w, x = self.r(), self.r(), self.r(), self.rd()
        sym = 'fz_a32' if space == 'shared' else 'fz_la'
        if space == 'shared':
            self.o('and.b32 %s, %s, 1;' % (t, v[a]))
            self.o('shl.b32 %s, %s, 2;' % (t, t))
            self.o('mad.lo.u32 %s, %s, 8, %s;' % (t, self.tid, t))
        else:
            self.o('and.b32 %s, %s, 7;' % (t, v[a]))
            self.o('shl.b32 %s, %s, 2;' % (t, t))
        if width == 8:   # a byte of the word
            self.o('bfe.u32 %s, %s, %d, 2;' % (u, v[a], 1 if space == 'shared' else 3))
            self.o('add.u32 %s, %s, %s;' % (t, t, u))
        self.o('add.s32 %s, %s, %d;' % (t, t, -bias))
        self.o('mov.u32 %s, %s;' % (u, sym))
        self.o('add.s32 %s, %s, %s;' % (w, u, t))
        self.o('st.%s.u%d [%s+%d], %s;' % (space, width, w, bias, v[b]))
        if space == 'shared':
            self.o('add.s32 %s, %s, %d;' % (w, w, bias))
            self.o('and.b32 %s, %s, -4;' % (w, w) if width == 8 else 'xor.b32 %s, %s, 4;' % (w, w))
            self.o('cvt.u64.u32 %s, %s;' % (x, w))
            self.o('ld.shared.u32 %s, [%s];' % (v[b], x))
        else:
            self.o('shr.u32 %s, %s, 3;' % (t, v[a]))
            self.o('and.b32 %s, %s, 7;' % (t, t))
            self.o('mul.wide.u32 %s, %s, 4;' % (x, t))
            self.o('add.s64 %s, %s, %s;' % (x, x, self.lap))
            self.o('ld.local.u32 %s, [%s];' % (v[b], x))

    def emit_gshared(self, st):
        _, form, a, b, c = st
        v = self.v
        x, y = self.rd(), self.rd()
        if form in ('cvta', 'cvtasym', 'vec'):   # the generic address of the thread's fz_a32 slot
            if form == 'cvtasym':
                self.o('cvta.shared.u64 %s, fz_a32;' % x)
            else:
                self.o('mov.u64 %s, fz_a32;' % x)
                self.o('cvta.shared.u64 %s, %s;' % (x, x))
            self.o('mul.wide.u32 %s, %s, 8;' % (y, self.tid))
            self.o('add.s64 %s, %s, %s;' % (x, x, y))
            if form == 'vec':
                t = self.r()
                self.o('ld.v2.u32 {%s, %s}, [%s];' % (v[a], t, x))
                self.o('st.v2.u32 [%s], {%s, %s};' % (x, v[b], v[a]))
                self.hash_in(t)
            else:
                w = 4 * (c & 1)
                self.o('st.u32 [%s+%d], %s;' % (x, w, v[b]))
                self.o('ld.u32 %s, [%s+%d];' % (v[b], x, 4 - w))
        elif form == 'lsym':  # generic st/ld naming the .local symbol fz_la
            self.o('st.u32 [fz_la+%d], %s;' % (4 * (c + 4), v[b]))
            self.o('ld.u32 %s, [fz_la+%d];' % (v[b], 4 * ((c + 1) % 8)))
        elif form == 'lcvta':  # cvta.local of the symbol, then generic ld/st
            self.o('cvta.local.u64 %s, fz_la;' % x)
            self.o('ld.u32 %s, [%s+%d];' % (v[a], x, 4 * c))
            self.o('st.u32 [%s+%d], %s;' % (x, 4 * (7 - c), v[b]))
        elif form == 'sym':   # generic ld/st naming the .shared symbol (its generic address)
            t = self.r()
            self.o('ld.u32 %s, [fz_gc+%d];' % (t, 4 * c))
            self.hash_in(t)
            self.o('st.b32 [fz_gc+%d], %d;' % (4 * ((c + 1) % NGC), (((c + 1) % NGC) * GC_MUL + GC_ADD) & 0xffffffff))
        else:                 # generic atomics on sacc's add region (order-independent)
            t = self.r()
            self.o('cvta.shared.u64 %s, fz_sacc;' % x)
            self.o('and.b32 %s, %s, 3;' % (t, v[c % NVARS]))
            self.o('mul.wide.u32 %s, %s, 4;' % (y, t))
            self.o('add.s64 %s, %s, %s;' % (x, x, y))
            if c & 1:
                self.o('red.add.u32 [%s], %s;' % (x, v[a]))
            else:
                self.o('atom.add.u32 %s, [%s], %s;' % (t, x, v[a]))

    def init_issue24(self):
        """fz_a32 slots and fz_gc, before the first barrier (only when used)"""
        if not uses(self.p, ('a32', 'gsh')):
            return
        o = self.o
        o('mov.u64 %rt, fz_a32;')
        o('mul.wide.u32 %rt2, %ttid, 8;')
        o('add.s64 %rt, %rt, %rt2;')
        o('mad.lo.u32 %rt32, %gtid, 3, 1;')
        o('st.shared.u32 [%rt], %rt32;')
        o('xor.b32 %rt32, %gtid, 0x1234;')
        o('st.shared.u32 [%rt+4], %rt32;')
        o('setp.lt.u32 %%pinit, %%ttid, %d;' % NGC)
        o('mad.lo.u32 %%rt32, %%ttid, %d, %d;' % (GC_MUL, GC_ADD))
        o('mov.u64 %rt, fz_gc;')
        o('mul.wide.u32 %rt2, %ttid, 4;')
        o('add.s64 %rt, %rt, %rt2;')
        o('@%pinit st.shared.u32 [%rt], %rt32;')

    def decls_issue24(self):
        if not uses(self.p, ('a32', 'gsh')):
            return []
        return ['.shared .align 8 .b32 fz_a32[%d];' % (2 * self.p['block']), '.shared .align 4 .b32 fz_gc[%d];' % NGC]

    def emit_lock(self, st, top):
        _, a, bucket = st
        t, m, c = self.r(), self.rd(), self.rd()
        if bucket is None:
            self.o('mov.u32 %s, 0;' % t)
        else:
            self.o('and.b32 %s, %s, %d;' % (t, self.v[bucket], NLOCK - 1))
        self.o('mul.wide.u32 %s, %s, 4;' % (m, t))
        self.o('add.s64 %s, %s, %s;' % (c, m, self.lockcp))
        self.o('add.s64 %s, %s, %s;' % (m, m, self.mutexp))
        spin = self.lab('spin')
        old, p, x = self.r(), self.pr(), self.r()
        self.label(spin)
        self.o('atom.global.cas.b32 %s, [%s], 0, 1;' % (old, m))
        self.o('setp.ne.u32 %s, %s, 0;' % (p, old))
        self.o('@%s bra %s;' % (p, spin))
        self.o('ld.volatile.global.u32 %s, [%s];' % (x, c))
        self.o('add.u32 %s, %s, %s;' % (x, x, self.v[a]))
        self.o('st.volatile.global.u32 [%s], %s;' % (c, x))
        self.o('membar.gl;')
        self.o('atom.global.exch.b32 %s, [%s], 0;' % (old, m))
        # under the stack, lanes of a warp contending for one lock never finish (SIMT
        # deadlock); certain when every lane of every warp arrives together
        if top and bucket is None and not self.ret_seen and not self.loops:
            self.lock_expect = 'deadlock'
        elif self.lock_expect is None:
            self.lock_expect = 'any'

    def emit_warp(self, st, m):
        _, kind, a, mode = st
        mode, arg = mode.split(':')
        arg = int(arg)
        if mode == 'div':
            if m is None:
                return
            self.its = True
            p = self.cond(('lane', arg))
            l2, l3 = self.lab('wdelse'), self.lab('wdend')
            self.o('@!%s bra %s;' % (p, l2))
            self.o('xor.b32 %s, %s, 1;' % (self.h, self.h))
            self.warp_op(kind, a, m, arg)
            self.o('bra.uni %s;' % l3)
            self.label(l2)
            self.o('xor.b32 %s, %s, 2;' % (self.h, self.h))
            self.warp_op(kind, a, m, arg)
            self.label(l3)
            return
        if m is None:
            return
        mm = m
        if mode == 'tile':
            t, s = self.r(), self.r()
            self.o('and.b32 %s, %s, %d;' % (s, self.lane, 32 - arg))      # first lane of my tile
            self.o('shl.b32 %s, %d, %s;' % (t, (1 << arg) - 1, s))
            self.o('and.b32 %s, %s, %s;' % (t, t, m))
            mm = t
        self.warp_op(kind, a, mm, arg)

    def warp_op(self, kind, a, mm, arg):
        v = self.v
        d = self.r()
        if kind in ('ballot', 'any', 'all', 'uni'):
            p = self.pr()
            t = self.r()
            self.o('and.b32 %s, %s, 1;' % (t, v[a]))
            self.o('setp.eq.u32 %s, %s, 1;' % (p, t))
            if kind == 'ballot':
                self.o('vote.sync.ballot.b32 %s, %s, %s;' % (d, p, mm))
            else:
                q = self.pr()
                self.o('vote.sync.%s.pred %s, %s, %s;' % (kind, q, p, mm))
                self.o('selp.u32 %s, 1, 0, %s;' % (d, q))
        elif kind.startswith('shfl'):
            mode = kind[5:]
            q, src = self.pr(), self.r()
            if mode == 'idx':
                self.o('bfind.u32 %s, %s;' % (src, mm))            # the highest lane of the mask
                self.o('shfl.sync.idx.b32 %s|%s, %s, %s, 31, %s;' % (d, q, v[a], src, mm))
            else:
                k = arg % 5 + 1
                c = {'bfly': 31, 'down': 31, 'up': 0}[mode]
                self.o('shfl.sync.%s.b32 %s|%s, %s, %d, %d, %s;' % (mode, d, q, v[a], k, c, mm))
                op = {'bfly': 'xor.b32', 'down': 'add.u32', 'up': 'sub.u32'}[mode]
                self.o('%s %s, %s, %d;' % (op, src, self.lane, k))
                # a source lane outside the mask gives an undefined value (PTX ISA shfl.sync):
                # keep the own value there, so only defined values are observed
                t, p2 = self.r(), self.pr()
                self.o('shr.b32 %s, %s, %s;' % (t, mm, src))
                self.o('and.b32 %s, %s, 1;' % (t, t))
                self.o('setp.eq.and.u32 %s, %s, 1, %s;' % (p2, t, q))
                self.o('selp.b32 %s, %s, %s, %s;' % (d, d, v[a], p2))
        elif kind.startswith('match'):
            t = self.r()
            self.o('and.b32 %s, %s, 3;' % (t, v[a]))
            if kind == 'match_any':
                self.o('match.any.sync.b32 %s, %s, %s;' % (d, t, mm))
            else:
                q = self.pr()
                self.o('match.all.sync.b32 %s|%s, %s, %s;' % (d, q, t, mm))
                t2 = self.r()
                self.o('selp.u32 %s, 7, 3, %s;' % (t2, q))
                self.o('add.u32 %s, %s, %s;' % (d, d, t2))
        elif kind.startswith('redux'):
            op = kind[6:]
            ty = 'b32' if op in ('and', 'or', 'xor') else 'u32'
            self.o('redux.sync.%s.%s %s, %s, %s;' % (op, ty, d, v[a], mm))
        elif kind == 'warpsync':
            self.o('bar.warp.sync %s;' % mm)
            self.o('mov.u32 %s, 5;' % d)
        self.hash_in(d)

    def emit_sync_exit(self, st, m):
        """('xsync', ...): the leavers' lanes stay in the op's membermask with incl 'all' (the PTX
        ISA's .sync ops wait for the non-exited lanes of the mask only); afterwards the region's
        mask is the lanes left"""
        _, c, how, kind, a, incl, work = st
        if m is None:
            return m
        p = self.cond(c)
        b = self.ballot(p, m)
        stay = self.r()
        self.o('not.b32 %s, %s;' % (stay, b))
        self.o('and.b32 %s, %s, %s;' % (stay, stay, m))
        mm = m if incl == 'all' else stay
        if how == 'ret':
            self.store_out()
            self.o('@%s ret;' % p)
            self.sync_exit_op(kind, a, mm, stay)
        elif how == 'bare':
            skip = self.lab('xskip')
            self.store_out()
            self.o('@!%s bra %s;' % (p, skip))
            self.o('ret;')
            self.label(skip)
            self.sync_exit_op(kind, a, mm, stay)
        else:
            tail, cont = self.lab('xtail'), self.lab('xcont')
            self.o('@%s bra %s;' % (p, tail))
            self.sync_exit_op(kind, a, mm, stay)
            self.label(tail)
            for w in work:
                self.stmt(w, m, False)
            self.o('@!%s bra %s;' % (p, cont))
            self.store_out()
            self.o('ret;')
            self.label(cont)
            self.xsync_wait |= incl == 'all'
        self.o('mov.b32 %s, %s;' % (m, stay))
        return m

    def sync_exit_op(self, kind, a, mm, stay):
        if kind != 'shfl_idx':
            self.warp_op(kind, a, mm, 0)
            return
        # the source lane must be one that stays (a leaver's register is undefined there)
        d, q, src = self.r(), self.pr(), self.r()
        self.o('bfind.u32 %s, %s;' % (src, stay))
        self.o('shfl.sync.idx.b32 %s|%s, %s, %s, 31, %s;' % (d, q, self.v[a], src, mm))
        self.hash_in(d)

    # --- functions
    def func(self, fi, f):
        body = []
        save = self.lines, self.nr, self.np
        self.lines, self.nr, self.np = body, 0, 0
        x = ['%x0', '%x1']
        self.o('ld.param.u32 %s, [fz_f%d_p0];' % (x[0], fi))
        self.o('ld.param.u32 %s, [fz_f%d_p1];' % (x[1], fi))
        lane = '%xl'
        self.o('mov.u32 %s, %%laneid;' % lane)

        def fcond(c):
            p = self.pr()
            if c[0] == 'lane':
                self.o('setp.lt.u32 %s, %s, %d;' % (p, lane, c[1]))
            else:
                t = self.r()
                self.o('and.b32 %s, %s, %d;' % (t, x[c[1]], c[2]))
                self.o('setp.lt.u32 %s, %s, %d;' % (p, t, c[3]))
            return p

        def result():
            t = self.r()
            self.o('mad.lo.u32 %s, %s, 33, %s;' % (t, x[0], x[1]))
            self.o('st.param.b32 [func_retval0+0], %s;' % t)

        def fb(stmts):
            for st in stmts:
                if st[0] == 'asg':
                    _, d, op, a, b = st
                    bb = str(b) if op in ('shl', 'addi') else x[b]
                    ins = {'add': 'add.u32', 'xor': 'xor.b32', 'mul': 'mul.lo.u32', 'shl': 'shl.b32',
                           'min': 'min.u32', 'addi': 'add.u32'}[op]
                    self.o('%s %s, %s, %s;' % (ins, x[d], x[a], bb))
                elif st[0] == 'if':
                    p = fcond(st[1])
                    le, ln = self.lab('felse'), self.lab('fend')
                    self.o('@!%s bra %s;' % (p, le))
                    fb(st[2])
                    self.o('bra.uni %s;' % ln)
                    self.label(le)
                    fb(st[3])
                    self.label(ln)
                elif st[0] == 'esc':
                    p = fcond(st[1])
                    ln = self.lab('fnoret')
                    self.o('@!%s bra %s;' % (p, ln))
                    result()
                    self.o('ret;')
                    self.label(ln)
        fb(f['body'])
        if f['callee'] is not None:
            self.emit_call(f['callee'], x[0], x[0], x[1])
        result()
        self.o('ret;')
        head = ['.func (.param .b32 func_retval0) fz_f%d(.param .b32 fz_f%d_p0, .param .b32 fz_f%d_p1)' % (fi, fi, fi),
                '{', '\t.reg .pred %%p<%d>;' % (self.np + 1), '\t.reg .b32 %%r<%d>;' % (self.nr + 1),
                '\t.reg .b32 %x<2>;', '\t.reg .b32 %xl;']
        text = head + body + ['}', '']
        self.lines, self.nr, self.np = save
        return text

    def kernel(self):
        p = self.p
        self.v = ['%%v%d' % i for i in range(NVARS)]
        self.h, self.tid, self.lane, self.ntid, self.pt = '%h', '%ttid', '%tlane', '%tntid', '%pt'
        self.outp, self.datap, self.accp, self.mutexp, self.lockcp = '%rout', '%rdata', '%racc', '%rmutex', '%rlockc'
        self.sxp, self.sxbase, self.saccbase, self.lap = '%rsx', '%rsxb', '%rsacc', '%rla'
        o = self.o
        params = ['out', 'data', 'acc', 'mutex', 'lockc', 'shout']
        for i, name in enumerate(params):
            o('ld.param.u64 %%rp%d, [fz_%s];' % (i, name))
        o('cvta.to.global.u64 %s, %%rp0;' % self.outp)
        o('cvta.to.global.u64 %s, %%rp1;' % self.datap)
        o('cvta.to.global.u64 %s, %%rp2;' % self.accp)
        o('cvta.to.global.u64 %s, %%rp3;' % self.mutexp)
        o('cvta.to.global.u64 %s, %%rp4;' % self.lockcp)
        o('cvta.to.global.u64 %rshout, %rp5;')
        o('mov.u32 %s, %%tid.x;' % self.tid)
        o('mov.u32 %s, %%ntid.x;' % self.ntid)
        o('mov.u32 %tcta, %ctaid.x;')
        o('mov.u32 %s, %%laneid;' % self.lane)
        o('mad.lo.u32 %%gtid, %%tcta, %s, %s;' % (self.ntid, self.tid))
        o('setp.eq.u32 %s, %s, %s;' % (self.pt, self.tid, self.tid))
        o('mul.wide.u32 %rt, %gtid, 8;')
        o('add.s64 %s, %s, %%rt;' % (self.outp, self.outp))
        o('mul.lo.u32 %s, %%gtid, -1640531535;' % self.h)
        o('xor.b32 %s, %s, %d;' % (self.h, self.h, p['seed'] & 0x7fffffff))
        o('and.b32 %v0, %gtid, 63;')
        o('mul.wide.u32 %rt, %v0, 4;')
        o('add.s64 %rt, %rt, %rdata;')
        o('ld.global.u32 %v0, [%rt];')
        o('mov.u32 %v1, %ttid;')
        o('mad.lo.u32 %v2, %tlane, 7, %tcta;')
        o('xor.b32 %v3, %gtid, 0x5a5a;')
        # shared memory: exchange slots and shared atomics, zeroed/initialised by every CTA
        o('mov.u64 %rsxb, fz_sx;')
        o('mul.wide.u32 %rt, %ttid, 4;')
        o('add.s64 %rsx, %rsxb, %rt;')
        o('mov.u64 %rsacc, fz_sacc;')
        o('st.shared.u32 [%rsx], %ttid;')
        o('setp.lt.u32 %pinit, %ttid, 16;')
        o('add.s64 %rt, %rsacc, %rt;')
        o('@%pinit st.shared.u32 [%rt], 0;')
        o('mov.u64 %rla, fz_la;')
        for j in range(8):
            o('add.u32 %%rt32, %%gtid, %d;' % (j * 11))
            o('st.local.u32 [%%rla+%d], %%rt32;' % (4 * j))
        self.init_issue24()
        o('bar.sync 0;')
        m = '%mtop'
        o('vote.sync.ballot.b32 %s, %s, 0xffffffff;' % (m, self.pt))
        self.block(p['body'], m, top=True)
        # shared atomics become visible: copy them out (threads that returned early skip it)
        o('bar.sync 0;')
        o('setp.lt.u32 %pinit, %ttid, 16;')
        o('@!%pinit bra $L_exit;')
        o('mul.wide.u32 %rt, %ttid, 4;')
        o('add.s64 %rt, %rsacc, %rt;')
        o('ld.shared.u32 %rt32, [%rt];')
        o('mad.lo.u32 %rt33, %tcta, 16, %ttid;')
        o('mul.wide.u32 %rt, %rt33, 4;')
        o('add.s64 %rt, %rshout, %rt;')
        o('st.global.u32 [%rt], %rt32;')
        self.label('$L_exit')
        self.store_out()
        o('ret;')
        if self.jexit:
            self.label('$L_jexit')
            self.store_out()
            o('ret;')

    def module(self):
        p = self.p
        funcs = []
        for fi, f in enumerate(p['funcs']):
            funcs += self.func(fi, f)
        self.kernel()
        params = ',\n'.join('\t.param .u64 fz_%s' % n for n in ['out', 'data', 'acc', 'mutex', 'lockc', 'shout'])
        head = ['// warpsweep differential fuzzer, seed %d (tests/fuzz/gen.py)' % p['seed'],
                '.version 8.0', '.target sm_80', '.address_size 64', '',
                '.shared .align 4 .b32 fz_sx[%d];' % p['block'],
                '.shared .align 4 .b32 fz_sacc[%d];' % NSACC] + self.decls_issue24() + [''] + funcs + [
                '.visible .entry fz(', params, ')', '{',
                '\t.local .align 8 .b32 fz_la[8];',
                '\t.reg .pred %%p<%d>;' % (self.np + 1), '\t.reg .pred %pt, %pinit;',
                '\t.reg .b32 %%r<%d>;' % (self.nr + 1),
                '\t.reg .b32 %v<4>;', '\t.reg .b32 %h, %ttid, %tlane, %tntid, %tcta, %gtid, %mtop, %rt32, %rt33;',
                '\t.reg .b64 %%rd<%d>;' % (self.nrd + 1), '\t.reg .b64 %rp<6>;',
                '\t.reg .b64 %rout, %rdata, %racc, %rmutex, %rlockc, %rshout, %rsx, %rsxb, %rsacc, %rla, %rt, %rt2;']
        return '\n'.join(head + self.lines + ['}', ''])


ACC_INIT = [0] * 8 + [0] * 8 + [0xffffffff] * 8 + [0xffffffff] * 8 + [0] * 8 + [0] * 8


def emit(prog):
    """-> (ptx text, yaml text, meta) where meta = {'its': bool, 'stack': 'ok'|'deadlock'|'any'}"""
    e = Emit(prog)
    ptx = e.module()
    n = prog['grid'] * prog['block']
    yaml = '\n'.join([
        '# generated by tests/fuzz/gen.py, seed %d; every buffer must equal the MIMD reference run' % prog['seed'],
        'name: fz%d' % prog['seed'],
        'kernel: fz%d.ptx' % prog['seed'],
        'entry: fz',
        'grid: %d' % prog['grid'],
        'block: %d' % prog['block'],
        'buffers:',
        '  out:   {type: u32, count: %d, init: 0}' % (2 * n),
        '  data:  {type: u32, count: %d, init: [%s]}' % (NDATA, ', '.join(str(x) for x in prog['data'])),
        '  acc:   {type: u32, count: %d, init: [%s]}' % (NACC, ', '.join(str(x) for x in ACC_INIT)),
        '  mutex: {type: u32, count: %d, init: 0}' % NLOCK,
        '  lockc: {type: u32, count: %d, init: 0}' % NLOCK,
        '  shout: {type: u32, count: %d, init: 0}' % (NSACC * prog['grid']),
        'params: [out, data, acc, mutex, lockc, shout]',
        'expect: {out: reference, acc: reference, mutex: reference, lockc: reference, shout: reference}',
        ''])
    stack = 'ok' if e.lock_expect is None else e.lock_expect
    if e.xsync_wait and stack == 'ok':
        stack = 'any'   # a SIMT deadlock when some lanes leave and some stay (docs/model.md)
    meta = {'its': e.its, 'stack': stack, 'lock': e.lock_expect is not None, 'warp_sizes': [8, 16, 32, 64],
            'xsync_wait': e.xsync_wait}
    return ptx, yaml, meta


def parse_features(spec):
    """'default', 'all', or a comma list of +feat / -feat applied to the default set"""
    feats = set(FEATURES) - DEFAULT_OFF
    for item in (spec or 'default').split(','):
        item = item.strip()
        if not item or item == 'default':
            continue
        if item == 'all':
            feats = set(FEATURES)
        elif item == 'none':
            feats = set()
        elif item[0] in '+-' and item[1:] in FEATURES:
            (feats.add if item[0] == '+' else feats.discard)(item[1:])
        else:
            raise SystemExit('gen.py: unknown feature %r (known: %s)' % (item, ', '.join(FEATURES)))
    return feats


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('seed', type=int)
    ap.add_argument('-o', '--outdir', default='.')
    ap.add_argument('--features', default='default', help='e.g. "all" or "-lock,+warp_div" (known: %s)' % ', '.join(FEATURES))
    ap.add_argument('--size', type=int, default=3)
    a = ap.parse_args()
    prog = generate(a.seed, parse_features(a.features), a.size)
    ptx, yaml, meta = emit(prog)
    import os
    with open(os.path.join(a.outdir, 'fz%d.ptx' % a.seed), 'w') as f:
        f.write(ptx)
    with open(os.path.join(a.outdir, 'fz%d.yaml' % a.seed), 'w') as f:
        f.write(yaml)
    print(meta)


if __name__ == '__main__':
    main()
