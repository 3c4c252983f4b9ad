#!/usr/bin/env python3
"""Dynamic SASS instruction counts of the bench/lowering kernels, from ptxas's own output.

    python3 bench/lowering/sass_count.py            # kernels -> bench/lowering/sass_counts.tsv
    python3 bench/lowering/sass_count.py --forms    # PTX instruction forms -> bench/lowering/forms.tsv
    python3 bench/lowering/sass_count.py --show NAME [--arch sm_80]   # the annotated SASS walk

A benchmark, never a test: it needs ptxas (CUDA 13: $PTXAS or /usr/local/cuda/bin/ptxas) and
nvdisasm ($NVDISASM or /usr/local/bin/nvdisasm; the CUDA 11.8 one from Debian's non-free
nvidia-cuda-toolkit, see README.md). CUDA 11.8's nvdisasm refuses CUDA 13 cubins, so the ELF
header is rewritten to the CUDA 11 format first (patch_cubin below).

Each kernel (kernels/NAME.ptx, one warp, all 32 threads on the same path) is assembled for
sm_75 and sm_80; the entry function's SASS is parsed and WALKED from its first instruction,
counting what one warp issues on the fast path:

  * every instruction reached counts 1, predicated ones included (the warp issues an
    instruction whatever its guard predicate: `@P0 IMAD.MOV`, `@P0 EXIT` not taken, `@!P0 BRA`);
  * a forward conditional BRA is NOT taken (a loop guard `@!P0 BRA after_loop` falls into the
    loop) unless the range it skips (the branch's successor .. its target) is a slow path:
      - it contains a CALL (the `MOV Rx, <return address>` + `CALL.REL.NOINC $__internal_...`
        call site of div.rn.f32 / div.rn.f64 / sqrt.rn.* slow paths, and of the 64-bit integer
        division subroutine that nvcc's PTX only calls when an operand is >= 2^32), or
      - it references c[0x4][...] (the address of a libdevice table: the Payne-Hanek
        reduction of sinf/cosf for |x| >= 105615),
      and that CALL or reference is not inside a loop lying wholly in the skipped range (the
      range a loop guard skips holds the whole loop, slow-path call sites included);
    then it is taken and the skipped range is never counted;
  * an unconditional forward BRA is taken;
  * a backward BRA closes a loop: taken trip-1 times, then falls through (its counter resets,
    so an inner loop runs trip times again on every outer iteration: nested loops multiply);
    when the back edge is unconditional, the loop's exit is a test inside it (a predicated
    EXIT or a conditional BRA past the back edge): taken on the last trip only.
    The loop body is the target .. the BRA inclusive, the exit test included; the code before
    the loop (and any loop guard) counts once;
  * an unpredicated EXIT ends the walk, so the subroutines ($__internal_... after the EXIT),
    the final `BRA` to itself and the NOP padding are never counted; a CALL that is reached
    (none on these kernels' fast paths) is followed into its subroutine until RET.
The walk prints every forward conditional branch it assumed not taken (`--show`), so a new
kernel's decisions can be checked by eye.

"static" is the entry function's instruction count without the subroutines, the self-BRA
and the NOPs; "static_all" adds the subroutines.

--forms: per-PTX-instruction-form costs, measured differentially. For each form the script
writes two straight-line PTX kernels with 3 slots each: every slot loads its operands with
ld.volatile.global (so the loads are identical in both kernels and never dead) and stores one
result; in kernel "1" slot 0 applies the form and slots 1, 2 store their first operand
unchanged, in kernel "3" all three slots apply it (independent instances). The cost of one
instance is (dynamic(3) - dynamic(1)) / 2 (a store is one STG whatever its width), and the
SASS opcodes of one instance are the difference of the two kernels' executed opcode
multisets, halved. setp's predicate is consumed by a predicated store (`@p st`), selp's
predicate is computed once before the slots; mov %tid/%ntid use .x, .y, .z in the three
slots (ptxas would merge three reads of one register), ld.param reads three parameters.
"""
import argparse, collections, os, re, struct, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KDIR = os.path.join(HERE, 'kernels')
PTXAS = os.environ.get('PTXAS', '/usr/local/cuda/bin/ptxas')
NVDISASM = os.environ.get('NVDISASM', '/usr/local/bin/nvdisasm')
ARCHS = ('sm_75', 'sm_80')

# kernel -> trip count of its loop (the workload YAML's trip parameter; 0 = straight-line)
KERNELS = {k: 8 for k in (
    'fdiv', 'fsqrt', 'frcp', 'frsqrt', 'fastmath', 'precisemath', 'sinf', 'ddiv', 'dsqrt',
    'dfma', 'idivu32', 'idivs32', 'udiv64', 'mul64', 'mulhi', 'convert', 'saxpy',
    'smemreduce', 'shflreduce', 'atomichist', 'ifconv', 'selminmax', 'bitops', 'matmul8',
    'stencil', 'half')}


def patch_cubin(data, sm):
    """Rewrite a CUDA 13 cubin's ELF header to the CUDA 11 format nvdisasm 11.8 reads."""
    d = bytearray(data)
    d[7] = 51; d[8] = 7                                   # EI_OSABI, EI_ABIVERSION
    struct.pack_into('<I', d, 20, 118)                    # e_version
    struct.pack_into('<I', d, 0x30, sm | 0x0500 | (sm << 16))   # SM, TEXMODE_UNIFIED|64BIT, virtual SM
    return bytes(d)


def disassemble(ptx_text, arch, tmp):
    sm = int(arch[3:])
    src, cub = os.path.join(tmp, 'k.ptx'), os.path.join(tmp, 'k.cubin')
    with open(src, 'w') as f:
        f.write(ptx_text)
    subprocess.run([PTXAS, f'-arch={arch}', src, '-o', cub], check=True)
    with open(cub, 'rb') as f:
        data = patch_cubin(f.read(), sm)
    with open(cub, 'wb') as f:
        f.write(data)
    return subprocess.run([NVDISASM, '-c', cub], check=True, capture_output=True, text=True).stdout


INST = re.compile(r'^\s*/\*([0-9a-f]{4,})\*/\s+(?:(@!?U?P[0-9T])\s+)?([A-Z][A-Z0-9_.]*)\s*(.*?)\s*;')
LABEL = re.compile(r'^(\.L_x_\d+|\$[\w$.]+|[A-Za-z_]\w*):\s*$')
TARGET = re.compile(r'`\(([^)]*)\)')


class Inst:
    __slots__ = ('addr', 'pred', 'op', 'args', 'target', 'text')

    def __init__(self, addr, pred, op, args, text):
        self.addr, self.pred, self.op, self.args, self.text = addr, pred, op, args, text.strip()
        m = TARGET.search(args)
        self.target = m.group(1) if m else None


def parse(sass, entry):
    """The entry function's instructions (subroutines included) and its label -> index map."""
    insts, labels, inside = [], {}, False
    for line in sass.splitlines():
        if line.startswith('//----') or re.match(r'\s*\.section\s', line):
            if inside and insts:
                break
            inside = f'.text.{entry}' in line
            continue
        if not inside:
            continue
        m = LABEL.match(line)
        if m:
            labels[m.group(1)] = len(insts)
            continue
        m = INST.match(line)
        if m:
            insts.append(Inst(int(m.group(1), 16), m.group(2), m.group(3), m.group(4), line))
    if not insts:
        raise SystemExit(f'{entry}: no SASS found')
    return insts, labels


def code_end(insts, labels):
    """(end of the entry's own code, end of all code): the first subroutine, the self-BRA."""
    end_all = len(insts)
    for i, x in enumerate(insts):
        if x.op == 'BRA' and x.pred is None and x.target in labels and labels[x.target] == i:
            end_all = i
            break
    subs = [i for name, i in labels.items() if name.startswith('$') and i < end_all]
    return (min(subs) if subs else end_all), end_all


def is_slow_path(insts, labels, a, b):
    """Does the range a..b-1 a forward branch skips hold a slow path: a CALL, or a reference to
    c[0x4] (a libdevice table), outside every loop lying wholly inside the range (a loop guard
    skips a whole loop, slow-path call sites and all)?"""
    inner = [(t, e) for e, t in back_edges(insts, labels) if a <= t and e < b]
    for i in range(a, b):
        x = insts[i]
        if (x.op.startswith('CALL') or 'c[0x4]' in x.args) and not any(t <= i <= e for t, e in inner):
            return True
    return False


def back_edges(insts, labels):
    """[(back-edge index, loop-top index)] of the BRAs that jump backwards (self-BRA excluded)."""
    out = []
    for i, x in enumerate(insts):
        if x.op.startswith('BRA') and x.target in labels and labels[x.target] < i:
            out.append((i, labels[x.target]))
    return out


def walk(insts, labels, trip, log=None):
    """Dynamic instructions one warp issues; returns (count, Counter of opcodes, notes)."""
    count, ops, notes = 0, collections.Counter(), []
    edges = back_edges(insts, labels)

    def loop_of(pc):                         # the innermost loop holding pc: its back edge
        inner = [(b - t, b) for b, t in edges if t <= pc < b]
        return min(inner)[1] if inner else None

    def exit_test(pc, target):               # leaves the innermost loop: taken on the last trip
        b = loop_of(pc)
        if b is None or (target is not None and target <= b):
            return None
        if loops[b] >= trip - 1:
            loops[b] = 0
            return True
        return False

    loops, stack, pc, steps = collections.Counter(), [], 0, 0
    while True:
        steps += 1
        if steps > 10_000_000 or pc >= len(insts):
            raise SystemExit('walk ran away (pc %d)' % pc)
        x = insts[pc]
        count += 1
        ops[x.op] += 1
        if log is not None:
            log[pc] += 1
        nxt = pc + 1
        if x.op == 'EXIT':
            if x.pred is None or exit_test(pc, None):
                break
        elif x.op.startswith('RET'):
            nxt = stack.pop()
        elif x.op.startswith('CALL'):
            stack.append(pc + 1)
            nxt = labels[x.target]
        elif x.op.startswith('BRA') and x.target is not None:
            t = labels[x.target]
            if t <= pc:                                        # loop back edge
                loops[pc] += 1
                if x.pred is None or loops[pc] < trip:
                    nxt = t
                else:
                    loops[pc] = 0
            elif x.pred is None:
                nxt = t
            elif is_slow_path(insts, labels, pc + 1, t):
                nxt = t
            else:
                e = exit_test(pc, t)
                if e is not None:
                    if e:
                        nxt = t
                else:
                    note = f'{x.addr:#06x} {x.pred} BRA {x.target} not taken'
                    if note not in notes:
                        notes.append(note)
        pc = nxt
    return count, ops, notes


def count_kernel(name, arch, tmp, show=False):
    ptx = open(os.path.join(KDIR, name + '.ptx')).read()
    entry = re.search(r'\.entry\s+(\w+)', ptx).group(1)
    sass = disassemble(ptx, arch, tmp)
    insts, labels = parse(sass, entry)
    own, end_all = code_end(insts, labels)
    log = collections.Counter() if show else None
    dyn, ops, notes = walk(insts, labels, max(KERNELS[name], 1), log)
    if show:                                   # times each instruction was issued, then the SASS
        for i, x in enumerate(insts[:end_all]):
            lab = ' '.join(n for n, j in labels.items() if j == i)
            print(f'{log[i] or "":>4}  {x.text}' + (f'    <- {lab}' if lab else ''))
        print('\n'.join(notes))
    return dict(kernel=name, arch=arch, static=own, static_all=end_all, dynamic=dyn,
                trip=KERNELS[name], notes='; '.join(notes), ops=ops)


def ptxas_version():
    out = subprocess.run([PTXAS, '--version'], capture_output=True, text=True).stdout
    rel = [l for l in out.splitlines() if 'release' in l]
    return rel[0].strip() if rel else 'unknown'


def run_kernels(args):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in KERNELS:
            for arch in ARCHS:
                rows.append(count_kernel(name, arch, tmp))
    print(f"{'kernel':12} {'arch':6} {'static':>6} {'st_all':>6} {'dynamic':>8} {'trip':>4}")
    for r in rows:
        print(f"{r['kernel']:12} {r['arch']:6} {r['static']:6} {r['static_all']:6} {r['dynamic']:8} {r['trip']:4}")
    out = os.path.join(HERE, 'sass_counts.tsv')
    with open(out, 'w') as f:
        f.write(f'# python3 bench/lowering/sass_count.py; ptxas: {ptxas_version()}; '
                'dynamic = SASS instructions one warp issues (fast path); '
                'not_taken = forward conditional branches assumed not taken\n')
        f.write('kernel\tarch\tstatic_sass\tstatic_all\tdynamic_sass_per_warp\ttrip\tnot_taken\n')
        for r in rows:
            f.write(f"{r['kernel']}\t{r['arch']}\t{r['static']}\t{r['static_all']}\t{r['dynamic']}\t"
                    f"{r['trip']}\t{r['notes'] or '-'}\n")
    print('wrote', os.path.relpath(out))
    return rows


# ---------------------------------------------------------------- --forms
REG = {'f32': 'f32', 'f64': 'f64', 'u32': 'b32', 's32': 'b32', 'b32': 'b32',
       'u64': 'b64', 's64': 'b64', 'b64': 'b64', 'f16': 'b16'}
# name: (input types, output type ('pred' = a predicate), body; {d} result, {a} {b} {c} inputs,
#        {t} a temporary of the output type, {i} the slot)
FORMS = [
    ('div.rn.f32', ['f32', 'f32'], 'f32', 'div.rn.f32 {d}, {a}, {b};'),
    ('div.approx.f32', ['f32', 'f32'], 'f32', 'div.approx.f32 {d}, {a}, {b};'),
    ('div.full.f32', ['f32', 'f32'], 'f32', 'div.full.f32 {d}, {a}, {b};'),
    ('rcp.rn.f32', ['f32'], 'f32', 'rcp.rn.f32 {d}, {a};'),
    ('rcp.approx.f32', ['f32'], 'f32', 'rcp.approx.f32 {d}, {a};'),
    ('sqrt.rn.f32', ['f32'], 'f32', 'sqrt.rn.f32 {d}, {a};'),
    ('sqrt.approx.f32', ['f32'], 'f32', 'sqrt.approx.f32 {d}, {a};'),
    ('sqrt.approx.ftz.f32', ['f32'], 'f32', 'sqrt.approx.ftz.f32 {d}, {a};'),
    ('rcp.approx.ftz.f32', ['f32'], 'f32', 'rcp.approx.ftz.f32 {d}, {a};'),
    ('rsqrt.approx.ftz.f32', ['f32'], 'f32', 'rsqrt.approx.ftz.f32 {d}, {a};'),
    ('ex2.approx.ftz.f32', ['f32'], 'f32', 'ex2.approx.ftz.f32 {d}, {a};'),
    ('lg2.approx.ftz.f32', ['f32'], 'f32', 'lg2.approx.ftz.f32 {d}, {a};'),
    ('sin.approx.ftz.f32', ['f32'], 'f32', 'sin.approx.ftz.f32 {d}, {a};'),
    ('div.full.ftz.f32', ['f32', 'f32'], 'f32', 'div.full.ftz.f32 {d}, {a}, {b};'),
    ('div.approx.ftz.f32', ['f32', 'f32'], 'f32', 'div.approx.ftz.f32 {d}, {a}, {b};'),
    ('rsqrt.approx.f32', ['f32'], 'f32', 'rsqrt.approx.f32 {d}, {a};'),
    ('ex2.approx.f32', ['f32'], 'f32', 'ex2.approx.f32 {d}, {a};'),
    ('lg2.approx.f32', ['f32'], 'f32', 'lg2.approx.f32 {d}, {a};'),
    ('sin.approx.f32', ['f32'], 'f32', 'sin.approx.f32 {d}, {a};'),
    ('cos.approx.f32', ['f32'], 'f32', 'cos.approx.f32 {d}, {a};'),
    ('tanh.approx.f32', ['f32'], 'f32', 'tanh.approx.f32 {d}, {a};'),
    ('div.rn.f64', ['f64', 'f64'], 'f64', 'div.rn.f64 {d}, {a}, {b};'),
    ('rcp.rn.f64', ['f64'], 'f64', 'rcp.rn.f64 {d}, {a};'),
    ('sqrt.rn.f64', ['f64'], 'f64', 'sqrt.rn.f64 {d}, {a};'),
    ('rsqrt.approx.f64', ['f64'], 'f64', 'rsqrt.approx.f64 {d}, {a};'),
    ('div.u32', ['u32', 'u32'], 'u32', 'div.u32 {d}, {a}, {b};'),
    ('div.s32', ['s32', 's32'], 's32', 'div.s32 {d}, {a}, {b};'),
    ('rem.u32', ['u32', 'u32'], 'u32', 'rem.u32 {d}, {a}, {b};'),
    ('rem.s32', ['s32', 's32'], 's32', 'rem.s32 {d}, {a}, {b};'),
    ('div.u64', ['u64', 'u64'], 'u64', 'div.u64 {d}, {a}, {b};'),
    ('div.s64', ['s64', 's64'], 's64', 'div.s64 {d}, {a}, {b};'),
    ('rem.u64', ['u64', 'u64'], 'u64', 'rem.u64 {d}, {a}, {b};'),
    ('mul.lo.u64', ['u64', 'u64'], 'u64', 'mul.lo.u64 {d}, {a}, {b};'),
    ('mul.hi.u64', ['u64', 'u64'], 'u64', 'mul.hi.u64 {d}, {a}, {b};'),
    ('mul.hi.u32', ['u32', 'u32'], 'u32', 'mul.hi.u32 {d}, {a}, {b};'),
    ('mul.wide.u32', ['u32', 'u32'], 'u64', 'mul.wide.u32 {d}, {a}, {b};'),
    ('mul.wide.s32', ['s32', 's32'], 's64', 'mul.wide.s32 {d}, {a}, {b};'),
    ('mad.lo.u64', ['u64', 'u64', 'u64'], 'u64', 'mad.lo.u64 {d}, {a}, {b}, {c};'),
    ('add.u64', ['u64', 'u64'], 'u64', 'add.u64 {d}, {a}, {b};'),
    ('shl.b64', ['u64', 'u32'], 'u64', 'shl.b64 {d}, {a}, {b};'),
    ('shr.u64', ['u64', 'u32'], 'u64', 'shr.u64 {d}, {a}, {b};'),
    ('setp.lt.u64', ['u64', 'u64'], 'pred', 'setp.lt.u64 {d}, {a}, {b};'),
    ('cvt.rn.f32.s32', ['s32'], 'f32', 'cvt.rn.f32.s32 {d}, {a};'),
    ('cvt.rzi.s32.f32', ['f32'], 's32', 'cvt.rzi.s32.f32 {d}, {a};'),
    ('cvt.f64.f32', ['f32'], 'f64', 'cvt.f64.f32 {d}, {a};'),
    ('cvt.rn.f32.f64', ['f64'], 'f32', 'cvt.rn.f32.f64 {d}, {a};'),
    ('cvt.rn.f32.u64', ['u64'], 'f32', 'cvt.rn.f32.u64 {d}, {a};'),
    ('cvt.rzi.u64.f32', ['f32'], 'u64', 'cvt.rzi.u64.f32 {d}, {a};'),
    ('cvt.rn.f64.s64', ['s64'], 'f64', 'cvt.rn.f64.s64 {d}, {a};'),
    ('cvt.u64.u32', ['u32'], 'u64', 'cvt.u64.u32 {d}, {a};'),
    ('cvt.u32.u64', ['u64'], 'u32', 'cvt.u32.u64 {d}, {a};'),
    ('cvt.rn.f16.f32', ['f32'], 'f16', 'cvt.rn.f16.f32 {d}, {a};'),
    ('mul.f32+add.f32', ['f32', 'f32', 'f32'], 'f32', 'mul.f32 {t}, {a}, {b}; add.f32 {d}, {t}, {c};'),
    ('mul.rn.f32+add.rn.f32', ['f32', 'f32', 'f32'], 'f32', 'mul.rn.f32 {t}, {a}, {b}; add.rn.f32 {d}, {t}, {c};'),
    ('fma.rn.f32', ['f32', 'f32', 'f32'], 'f32', 'fma.rn.f32 {d}, {a}, {b}, {c};'),
    ('fma.rn.f64', ['f64', 'f64', 'f64'], 'f64', 'fma.rn.f64 {d}, {a}, {b}, {c};'),
    ('min.u64', ['u64', 'u64'], 'u64', 'min.u64 {d}, {a}, {b};'),
    ('popc.b64', ['u64'], 'u32', 'popc.b64 {d}, {a};'),
    ('clz.b64', ['u64'], 'u32', 'clz.b64 {d}, {a};'),
    ('brev.b64', ['u64'], 'u64', 'brev.b64 {d}, {a};'),
    ('bfe.u32', ['u32'], 'u32', 'bfe.u32 {d}, {a}, 7, 10;'),
    ('selp.b32', ['u32', 'u32'], 'u32', 'selp.b32 {d}, {a}, {b}, %psel;'),
    ('abs.s32', ['s32'], 's32', 'abs.s32 {d}, {a};'),
    ('ld.param', ['u32'], 'u32', 'ld.param.u32 {d}, [pv{i}];'),
    ('cvta.to.global.u64', ['u64'], 'u64', 'cvta.to.global.u64 {d}, {a};'),
    ('mov.u32 %tid.x', ['u32'], 'u32', 'mov.u32 {d}, %tid.{xyz};'),
    ('mov.u32 %ntid.x', ['u32'], 'u32', 'mov.u32 {d}, %ntid.{xyz};'),
]
PTX_HEAD = '.version 7.8\n.target sm_75\n.address_size 64\n\n'


def form_ptx(form, m):
    """PTX of the form's kernel with m of its 3 slots applying the form."""
    name, ins, out, body = form
    L = ['.visible .entry form(.param .u64 pin, .param .u64 pout, .param .u32 pv0, '
         '.param .u32 pv1, .param .u32 pv2)', '{', '.reg .b64 %base<4>;', '.reg .pred %psel;']
    for i in range(3):
        for j, t in enumerate(ins):
            L.append(f'.reg .{REG[t]} %in{i}_{j};')
        L.append(f'.reg .pred %p{i};' if out == 'pred' else f'.reg .{REG[out]} %r{i}, %t{i};')
    L += ['ld.param.u64 %base0, [pin];', 'ld.param.u64 %base1, [pout];',
          'cvta.to.global.u64 %base2, %base0;', 'cvta.to.global.u64 %base3, %base1;']
    for i in range(3):
        for j, t in enumerate(ins):
            L.append(f'ld.volatile.global.{t} %in{i}_{j}, [%base2+{(i * 4 + j) * 8}];')
    if 'psel' in body:
        L.append('setp.ne.u32 %psel, %in0_0, 0;')
    for i in range(3):
        a = [f'%in{i}_{j}' for j in range(len(ins))] + ['', '', '']
        if i < m:
            d = f'%p{i}' if out == 'pred' else f'%r{i}'
            L.append(body.format(d=d, a=a[0], b=a[1], c=a[2], t=f'%t{i}', i=i, xyz='xyz'[i]))
            if out == 'pred':
                L.append(f'@%p{i} st.global.{ins[0]} [%base3+{i * 8}], {a[0]};')
            else:
                L.append(f'st.global.{"b16" if out == "f16" else out} [%base3+{i * 8}], %r{i};')
        else:
            L.append(f'st.global.{ins[0]} [%base3+{i * 8}], {a[0]};')
    # a last unconditional store, so that a predicated store is never the kernel's last
    # instruction (ptxas would turn it into `@!P EXIT` + STG)
    L += [f'st.global.{ins[0]} [%base3+24], %in0_0;', 'ret;', '}', '']
    return PTX_HEAD + '\n'.join(L)


def opname(op):
    """The opcode as the forms table reports it: the mnemonic, with the function of MUFU and
    the kind of IMAD (WIDE, HI, IADD, SHL) and the types of conversions kept; IMAD.MOV is
    reported as MOV (ptxas picks either for a register move, to balance its pipes)."""
    p = op.split('.')
    if op.startswith('IMAD.MOV'):
        return 'MOV'                           # ptxas alternates MOV and IMAD.MOV for moves
    if p[0] == 'MUFU' or (p[0] == 'IMAD' and len(p) > 1 and p[1] in ('MOV', 'WIDE', 'HI', 'IADD', 'SHL', 'X')):
        return '.'.join(p[:2])
    if p[0] in ('I2F', 'F2I', 'F2F', 'I2I', 'F2FP'):
        return op
    return p[0]


def form_cost(form, arch, tmp):
    res = {}
    for m in (1, 3):
        sass = disassemble(form_ptx(form, m), arch, tmp)
        insts, labels = parse(sass, 'form')
        dyn, ops, notes = walk(insts, labels, 1)
        if m == 3:
            called = any(k.startswith('CALL') for k in ops)
            fnotes = (['CALL: the subroutine is counted (its forward branches not taken)']
                      if called else []) + ([f'{len(notes)} forward branches not taken'] if notes else [])
        c = collections.Counter()
        for k, v in ops.items():
            c[opname(k)] += v
        res[m] = (dyn, c)
    cost = (res[3][0] - res[1][0]) / 2
    diff = {k: (res[3][1][k] - res[1][1][k]) / 2 for k in set(res[3][1]) | set(res[1][1])}
    parts = []
    for k in sorted(diff, key=lambda k: (-abs(diff[k]), k)):
        v = diff[k]
        if v:
            n = f'{v:g}'
            parts.append(k if v == 1 else f'{k} x{n}')
    return cost, ' '.join(parts) or '-', '; '.join(fnotes)


def run_forms(args):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for form in FORMS:
            costs, opss, notes = [], [], []
            for arch in ARCHS:
                c, o, n = form_cost(form, arch, tmp)
                costs.append(c)
                opss.append(o)
                notes.append(n)
            note = '; '.join(sorted(set(n for n in notes if n)))
            rows.append((form[0], costs, opss, note))
            print(f'{form[0]:24} ' + ' '.join(f'{c:5g}' for c in costs) + f'  {opss[0]}'
                  + (f'   | sm_80: {opss[1]}' if opss[1] != opss[0] else '') + (f'   [{note}]' if note else ''))
    out = os.path.join(HERE, 'forms.tsv')
    with open(out, 'w') as f:
        f.write(f'# python3 bench/lowering/sass_count.py --forms; ptxas: {ptxas_version()}; '
                'cost = SASS instructions one instance adds on the fast path = (dyn(3) - dyn(1)) / 2\n')
        f.write('form\tsm_75\tsm_80\tsass_sm_75\tsass_sm_80\tnotes\n')
        for name, costs, opss, note in rows:
            f.write(f'{name}\t{costs[0]:g}\t{costs[1]:g}\t{opss[0]}\t{opss[1]}\t{note or "-"}\n')
    print('wrote', os.path.relpath(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--forms', action='store_true', help='measure the PTX instruction forms')
    ap.add_argument('--show', metavar='KERNEL', help='print the walked SASS of one kernel')
    ap.add_argument('--arch', default='sm_75', choices=ARCHS)
    args = ap.parse_args()
    if args.show:
        with tempfile.TemporaryDirectory() as tmp:
            r = count_kernel(args.show, args.arch, tmp, show=True)
        print(f"dynamic {r['dynamic']} static {r['static']} static_all {r['static_all']}")
        return
    if args.forms:
        run_forms(args)
        return
    rows = run_kernels(args)
    check_hand_counts(rows)


# Hand counts, from reading the SASS that --show prints (ptxas 13.0, sm_75):
#  frcp: 11 instructions before the loop (0x0000..0x00a0, the @!P0 BRA loop guard included),
#    a loop body of 16 (0x00b0..0x0120: IADD3, BMOV, IADD3, BSSY, LOP3, ISETP x2, @P0 BRA over
#    the slow-path call site MOV+CALL+IMAD.MOV+BRA at 0x0130..0x0160; then 0x0170..0x01e0:
#    MUFU.RCP FFMA FADD FFMA BSYNC FADD FFMA @!P3 BRA) and 4 after it (LEA LEA.HI.X STG EXIT):
#    11 + 8 * 16 + 4 = 143; the subroutine (0x0230..0x0590, 44 instructions) never runs.
#  ifconv: 19 before the loop (0x0000..0x0120, six LDGs of the direction numbers), a loop body
#    of 23 (0x0130..0x0290; ptxas turned the six if-bodies into sign-extended bit masks ANDed
#    into LOP3s: no branch, no predicate) and 3 after it (NOP STG EXIT): 19 + 8 * 23 + 3 = 206.
HAND = {('frcp', 'sm_75'): 11 + 8 * 16 + 4, ('ifconv', 'sm_75'): 19 + 8 * 23 + 3}


def check_hand_counts(rows):
    got = {(r['kernel'], r['arch']): r['dynamic'] for r in rows}
    for key, want in HAND.items():
        assert got[key] == want, f'{key}: walk {got[key]} != hand count {want}'
    if HAND:
        print('hand counts agree:', ', '.join(f'{k}/{a}={v}' for (k, a), v in HAND.items()))


if __name__ == '__main__':
    main()
