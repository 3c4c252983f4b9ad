/*
 * Memory instructions: ld/ldu/st on .param .global .const .shared .local and
 * generic addresses, with .v2/.v4; atom/red (applied one lane at a time in
 * ascending lane order); cvta/cvta.to.
 *
 * Every access is checked: the address must be aligned to the full access
 * size (element size x vector length); global/const accesses must lie inside
 * one region (ws_gmem_find) and stores need a writable region; shared, local
 * and param offsets must lie inside the CTA's / thread's / launch's buffer.
 * A failed check returns WS_EXEC_FAULT naming lane, PC, PTX line and address;
 * memory outside the regions is never touched. Cache and memory-order
 * qualifiers have no functional effect.
 */
#include <math.h>
#include "exec_internal.h"

static const char *space_name(unsigned s)
{
    switch (s) {
    case WS_SP_GLOBAL: return ".global";
    case WS_SP_SHARED: return ".shared";
    case WS_SP_LOCAL: return ".local";
    case WS_SP_CONST: return ".const";
    case WS_SP_PARAM: return ".param";
    default: return "";
    }
}

static const char *op_name(unsigned op)
{
    switch (op) {
    case WS_OP_LD: return "ld";
    case WS_OP_LDU: return "ldu";
    case WS_OP_ST: return "st";
    case WS_OP_ATOM: return "atom";
    case WS_OP_RED: return "red";
    default: return "access";
    }
}

typedef struct memctx {
    ws_xctx *x;
    ws_region *last;        /* region of the previous lane (most lanes share one) */
    unsigned op;
    unsigned size;
    int write;
} memctx;

/* Resolves lane l's access at addr (in `space`) to a host pointer; records the
 * effect's per-lane address and space. */
static int resolve(memctx *mc, unsigned l, unsigned space, uint64_t addr, uint8_t **out)
{
    ws_xctx *x = mc->x;
    const unsigned size = mc->size;
    const ws_launch *L = x->env->launch;
    unsigned sp = space;
    uint64_t off = addr;

    if (addr & (uint64_t)(size - 1))
        return ws_xfault(x, l, "misaligned %u-byte %s%s at address 0x%llx", size, op_name(mc->op),
                         space_name(space), (unsigned long long)addr);
    if (sp == WS_SP_GENERIC || sp == WS_SP_NONE) {
        if (addr - WS_SHARED_WINDOW < WS_WINDOW_SIZE) { sp = WS_SP_SHARED; off = addr - WS_SHARED_WINDOW; }
        else if (addr - WS_LOCAL_WINDOW < WS_WINDOW_SIZE) { sp = WS_SP_LOCAL; off = addr - WS_LOCAL_WINDOW; }
        else sp = WS_SP_GLOBAL;
    }
    switch (sp) {
    case WS_SP_GLOBAL:
    case WS_SP_CONST: {
        ws_region *r = mc->last;
        if (!(r && off >= r->addr && off - r->addr < r->size && size <= r->size - (off - r->addr))) {
            r = ws_gmem_find(x->env->gmem, off, size);
            if (!r)
                return ws_xfault(x, l, "out-of-bounds %u-byte %s%s at address 0x%llx (not inside any buffer)",
                                 size, op_name(mc->op), space_name(space), (unsigned long long)addr);
            mc->last = r;
        }
        if (mc->write && !r->writable)
            return ws_xfault(x, l, "%u-byte %s%s writes read-only %s at address 0x%llx", size, op_name(mc->op),
                             space_name(space), r->name ? r->name : "region", (unsigned long long)addr);
        *out = r->data + (off - r->addr);
        break;
    }
    case WS_SP_SHARED:
        if (off >= L->shared_bytes || size > L->shared_bytes - off || !x->w->cta || !x->w->cta->smem)
            return ws_xfault(x, l, "out-of-bounds %u-byte %s.shared at offset 0x%llx (shared memory is %u bytes)",
                             size, op_name(mc->op), (unsigned long long)off, L->shared_bytes);
        *out = x->w->cta->smem + off;
        break;
    case WS_SP_LOCAL:
        if (off >= L->local_bytes || size > L->local_bytes - off || !x->w->local)
            return ws_xfault(x, l, "out-of-bounds %u-byte %s.local at offset 0x%llx (local memory is %u bytes)",
                             size, op_name(mc->op), (unsigned long long)off, L->local_bytes);
        *out = x->w->local + (uint64_t)l * L->local_bytes + off;
        break;
    case WS_SP_PARAM: {
        uint32_t pb = L->kernel ? L->kernel->param_bytes : 0;
        if (mc->write)
            return ws_xfault(x, l, "%s to kernel .param space at offset 0x%llx", op_name(mc->op), (unsigned long long)off);
        if (off >= pb || size > pb - off || !L->param_buf)
            return ws_xfault(x, l, "out-of-bounds %u-byte %s.param at offset 0x%llx (parameters are %u bytes)",
                             size, op_name(mc->op), (unsigned long long)off, pb);
        *out = L->param_buf + off;
        break;
    }
    default:
        return ws_xfault(x, l, "%s in unsupported state space", op_name(mc->op));
    }
    x->eff->mem_addr[l] = off;
    x->eff->mem_lane_space[l] = (uint8_t)sp;
    return WS_EXEC_OK;
}

/* The warp's accesses resolved with one check (the common case: every lane
 * aligned, in one buffer or one window): lane l's host pointer is
 * host + (a[l] - host_bias) + l * stride, its effect offset a[l] - bias. */
typedef struct warp_span {
    uint8_t *host;
    uint64_t host_bias, bias, stride;
    unsigned sp;
} warp_span;

/* Fills *ws when all lanes of x->exec at addresses a[] resolve in one step
 * (the same answer resolve gives each of them); 0: some lane needs the
 * per-lane path (a fault, several buffers or spaces). */
static int warp_span_of(memctx *mc, unsigned space, const uint64_t *a, warp_span *ws)
{
    ws_xctx *x = mc->x;
    const ws_launch *L = x->env->launch;
    const uint64_t size = mc->size;
    uint64_t lo = ~0ull, hi = 0, any = 0;
    const uint64_t exec = x->exec;
    FOR_EXEC_LANES(uint64_t v = a[l]; lo = v < lo ? v : lo; hi = v > hi ? v : hi; any |= v);
    if (any & (size - 1)) return 0;
    unsigned sp = space;
    uint64_t bias = 0;
    if (sp == WS_SP_GENERIC || sp == WS_SP_NONE) {
        if (lo - WS_SHARED_WINDOW < WS_WINDOW_SIZE && hi - WS_SHARED_WINDOW < WS_WINDOW_SIZE) {
            sp = WS_SP_SHARED; bias = WS_SHARED_WINDOW;
        } else if (lo - WS_LOCAL_WINDOW < WS_WINDOW_SIZE && hi - WS_LOCAL_WINDOW < WS_WINDOW_SIZE) {
            sp = WS_SP_LOCAL; bias = WS_LOCAL_WINDOW;
        } else if (hi < WS_SHARED_WINDOW || lo >= WS_LOCAL_WINDOW + WS_WINDOW_SIZE) {
            sp = WS_SP_GLOBAL;
        } else {
            return 0;
        }
    }
    lo -= bias;
    hi -= bias;
    ws->sp = sp;
    ws->bias = ws->host_bias = bias;
    ws->stride = 0;
    switch (sp) {
    case WS_SP_GLOBAL:
    case WS_SP_CONST: {
        ws_region *r = mc->last;
        if (!(r && lo >= r->addr && size <= r->size && hi - r->addr <= r->size - size)) {
            r = ws_gmem_find(x->env->gmem, lo, size);
            if (!r || hi - r->addr > r->size - size) return 0;
            mc->last = r;
        }
        if (mc->write && !r->writable) return 0;
        ws->host = r->data;
        ws->host_bias = bias + r->addr;
        return 1;
    }
    case WS_SP_SHARED:
        if (size > L->shared_bytes || hi > L->shared_bytes - size || !x->w->cta || !x->w->cta->smem) return 0;
        ws->host = x->w->cta->smem;
        return 1;
    case WS_SP_LOCAL:
        if (size > L->local_bytes || hi > L->local_bytes - size || !x->w->local) return 0;
        ws->host = x->w->local;
        ws->stride = L->local_bytes;
        return 1;
    case WS_SP_PARAM: {
        uint32_t pb = L->kernel ? L->kernel->param_bytes : 0;
        if (mc->write || size > pb || hi > pb - size || !L->param_buf) return 0;
        ws->host = L->param_buf;
        return 1;
    }
    default:
        return 0;
    }
}

/* Lane l's host pointer under ws; records its effect offset and space. */
static inline uint8_t *span_lane(const warp_span *ws, ws_effect *eff, const uint64_t *a, unsigned l)
{
    eff->mem_addr[l] = a[l] - ws->bias;
    eff->mem_lane_space[l] = (uint8_t)ws->sp;
    return ws->host + (a[l] - ws->host_bias) + (uint64_t)l * ws->stride;
}

/* The effect's scalar memory fields; sp: the access's space (warp_span_of's
 * when it resolved the warp in one step). */
static void finish_effect_in(ws_xctx *x, unsigned kind, unsigned bytes, unsigned sp)
{
    ws_effect *eff = x->eff;
    eff->mem_kind = (uint8_t)kind;
    eff->mem_bytes = bytes;
    eff->mem_mask = x->exec;
    eff->mem_space = (uint8_t)sp;
}

/* The same when lanes were resolved one by one: global if any lane is, else
 * the first lane's space. */
static void finish_effect(ws_xctx *x, unsigned kind, unsigned bytes)
{
    uint8_t sp = WS_SP_NONE;
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        if (x->eff->mem_lane_space[l] == WS_SP_GLOBAL) { sp = WS_SP_GLOBAL; break; }
        if (sp == WS_SP_NONE) sp = x->eff->mem_lane_space[l];
    }
    finish_effect_in(x, kind, bytes, sp);
}

/* The width of an address formed from operand o (PTX ISA 6.4 "Addresses as Operands": the
 * address is computed at the size of its address register): a 32-bit register plus an
 * immediate offset wraps modulo 2^32 and is then zero-extended, so nvcc's shared (.shared::cta)
 * and local addresses in .u32 registers, a base minus a loop bias plus a positive offset, land
 * where they point; a 64-bit register and an immediate address sum in 64 bits. */
static inline uint64_t addr_mask(const ws_xctx *x, const ws_operand *o)
{
    return o->reg != WS_NO_REG && ws_reg_bits(x, o->reg) == 32 ? 0xffffffffull : ~0ull;
}

/* lane l's address from o, with o's addr_mask am (hoisted out of the lane loops) */
static inline uint64_t addr_with(ws_xctx *x, const ws_operand *o, uint64_t am, unsigned l)
{
    uint64_t base = o->reg != WS_NO_REG ? ws_reg_lanes(x->w, o->reg, x->ws)[l] : 0;
    return (base + (uint64_t)o->imm) & am;
}

static inline uint64_t addr_of(ws_xctx *x, const ws_operand *o, unsigned l)
{
    return addr_with(x, o, addr_mask(x, o), l);
}

/* Each lane's address from o (addr_with), for all warp_size lanes: a plain
 * loop the compiler vectorises; only x->exec's lanes are used. */
static inline void lane_addrs(ws_xctx *x, const ws_operand *o, uint64_t *a)
{
    const uint64_t am = addr_mask(x, o), imm = (uint64_t)o->imm;
    if (o->reg == WS_NO_REG) {
        for (unsigned l = 0; l < x->ws; l++) a[l] = imm & am;
        return;
    }
    const uint64_t *r = ws_reg_lanes(x->w, o->reg, x->ws);
    for (unsigned l = 0; l < x->ws; l++) a[l] = (r[l] + imm) & am;
}

/* eb bytes (1, 2, 4 or 8) at p, zero-extended; fixed-size copies */
static inline uint64_t load_bytes(const uint8_t *p, unsigned eb)
{
    switch (eb) {
    case 1: return *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* Stores the low eb bytes of v at p; returns 1 if memory changed. */
static inline int store_bytes(uint8_t *p, uint64_t v, unsigned eb)
{
    switch (eb) {
    case 1: { uint8_t o = *p; *p = (uint8_t)v; return o != (uint8_t)v; }
    case 2: { uint16_t o, n = (uint16_t)v; memcpy(&o, p, 2); memcpy(p, &n, 2); return o != n; }
    case 4: { uint32_t o, n = (uint32_t)v; memcpy(&o, p, 4); memcpy(p, &n, 4); return o != n; }
    default: { uint64_t o; memcpy(&o, p, 8); memcpy(p, &v, 8); return o != v; }
    }
}

static inline uint64_t load_value(const uint8_t *p, unsigned eb, int sg, uint64_t rmask)
{
    uint64_t v = load_bytes(p, eb);
    return sg ? (uint64_t)ws_sext(v, eb * 8) & rmask : v;
}

static int exec_ld(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const unsigned t = in->type;
    const unsigned eb = ws_ty_bits[t] < 8 ? 1 : ws_ty_bits[t] / 8;
    const unsigned nv = in->dst[0].kind == WS_OK_VEC ? (in->dst[0].nvec ? in->dst[0].nvec : 1) : 1;
    const ws_operand *ao = &in->src[0];
    if (ao->kind != WS_OK_ADDR)
        return ws_xfault(x, (unsigned)__builtin_ctzll(x->exec), "%s without an address operand", op_name(in->op));
    memctx mc = { x, NULL, in->op, eb * nv, 0 };
    uint64_t *col[8];
    uint64_t rmask[8];
    int sg = ws_ty_signed[t];
    for (unsigned i = 0; i < nv; i++) {
        uint32_t r = in->dst[0].kind == WS_OK_VEC ? in->dst[0].vec[i] : in->dst[0].reg;
        col[i] = r == WS_NO_REG ? NULL : ws_reg_lanes(x->w, r, x->ws);
        unsigned rbits = r == WS_NO_REG ? 0 : ws_reg_bits(x, r);
        rmask[i] = ws_mask_bits(rbits < eb * 8 ? eb * 8 : rbits);
    }
    uint64_t a[WS_MAX_WARP_SIZE];
    lane_addrs(x, ao, a);
    warp_span span;
    if (warp_span_of(&mc, in->space, a, &span)) {
        const uint64_t exec = x->exec;
        if (nv == 1 && col[0] && eb == 4) {            /* a 32-bit load: fixed-size copies */
            uint64_t *c0 = col[0], m0 = rmask[0];
            FOR_EXEC_LANES(uint32_t v; memcpy(&v, span_lane(&span, x->eff, a, l), 4);
                           c0[l] = sg ? (uint64_t)ws_sext(v, 32) & m0 : v);
        } else if (nv == 1 && col[0]) {                /* the common scalar load */
            uint64_t *c0 = col[0], m0 = rmask[0];
            LANE_LOOP(x->exec) {
                unsigned l = LANE;
                c0[l] = load_value(span_lane(&span, x->eff, a, l), eb, sg, m0);
            }
        } else {
            LANE_LOOP(x->exec) {
                unsigned l = LANE;
                const uint8_t *p = span_lane(&span, x->eff, a, l);
                for (unsigned i = 0; i < nv; i++)
                    if (col[i]) col[i][l] = load_value(p + i * eb, eb, sg, rmask[i]);
            }
        }
        finish_effect_in(x, 1, eb * nv, span.sp);
        return WS_EXEC_OK;
    }
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        uint8_t *p;
        if (resolve(&mc, l, in->space, a[l], &p)) return WS_EXEC_FAULT;
        for (unsigned i = 0; i < nv; i++)
            if (col[i]) col[i][l] = load_value(p + i * eb, eb, sg, rmask[i]);
    }
    finish_effect(x, 1, eb * nv);
    return WS_EXEC_OK;
}

static int exec_st(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const unsigned t = in->type;
    const unsigned eb = ws_ty_bits[t] < 8 ? 1 : ws_ty_bits[t] / 8;
    const ws_operand *ao, *vo;
    if (in->src[0].kind == WS_OK_ADDR) { ao = &in->src[0]; vo = &in->src[1]; }
    else { ao = &in->dst[0]; vo = &in->src[0]; }
    if (ao->kind != WS_OK_ADDR)
        return ws_xfault(x, (unsigned)__builtin_ctzll(x->exec), "st without an address operand");
    const unsigned nv = vo->kind == WS_OK_VEC ? (vo->nvec ? vo->nvec : 1) : 1;
    memctx mc = { x, NULL, in->op, eb * nv, 1 };
    ws_src val[8];
    int have[8];
    for (unsigned i = 0; i < nv; i++) {
        if (vo->kind == WS_OK_VEC) {
            uint32_t r = vo->vec[i];
            have[i] = r != WS_NO_REG;
            val[i].p = have[i] ? ws_reg_lanes(x->w, r, x->ws) : NULL;
            val[i].step = 1;
        } else {
            have[i] = 1;
            val[i] = ws_opnd(x, vo, 0);
        }
    }
    uint64_t a[WS_MAX_WARP_SIZE], changes = 0;
    lane_addrs(x, ao, a);
    warp_span span;
    if (warp_span_of(&mc, in->space, a, &span)) {
        LANE_LOOP(x->exec) {
            unsigned l = LANE;
            uint8_t *p = span_lane(&span, x->eff, a, l);
            for (unsigned i = 0; i < nv; i++)
                if (have[i]) changes += (uint64_t)store_bytes(p + i * eb, SV(val[i], l), eb);
        }
        x->env->mem_changes += changes;
        finish_effect_in(x, 2, eb * nv, span.sp);
        return WS_EXEC_OK;
    }
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        uint8_t *p;
        if (resolve(&mc, l, in->space, a[l], &p)) { x->env->mem_changes += changes; return WS_EXEC_FAULT; }
        for (unsigned i = 0; i < nv; i++)
            if (have[i]) changes += (uint64_t)store_bytes(p + i * eb, SV(val[i], l), eb);
    }
    x->env->mem_changes += changes;
    finish_effect(x, 2, eb * nv);
    return WS_EXEC_OK;
}

static inline float ftz32f(float f)
{
    uint32_t u; memcpy(&u, &f, 4);
    if ((u & 0x7f800000u) == 0) { u &= 0x80000000u; memcpy(&f, &u, 4); }
    return f;
}

static int exec_atom(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const unsigned t = in->type;
    const unsigned bits = ws_ty_bits[t];
    const unsigned size = bits / 8;
    const uint64_t M = ws_mask_bits(bits);
    const int is_atom = in->op == WS_OP_ATOM;
    const ws_operand *ao;
    ws_src b, c;
    uint64_t *d = NULL;
    if (is_atom) {
        ao = &in->src[0];
        b = ws_opnd(x, &in->src[1], 1);
        c = ws_opnd(x, &in->src[2], 2);
        d = ws_dst(x, &in->dst[0]);
    } else if (in->src[0].kind == WS_OK_ADDR) {
        ao = &in->src[0];
        b = ws_opnd(x, &in->src[1], 1);
        c = b;
    } else {
        ao = &in->dst[0];
        b = ws_opnd(x, &in->src[0], 1);
        c = b;
    }
    unsigned E0 = (unsigned)__builtin_ctzll(x->exec);
    if (ao->kind != WS_OK_ADDR)
        return ws_xfault(x, E0, "%s without an address operand", op_name(in->op));
    if (size != 4 && size != 8 && !(size == 2 && (in->subop == WS_ATOM_CAS || ws_ty_half(t))))   /* atom.cas.b16: sm_70+ */
        return ws_xfault(x, E0, "%s.%u-bit not supported (32 or 64 bit; 16 bit: cas and the half types only)",
                         op_name(in->op), bits);
    if (in->space == WS_SP_PARAM || in->space == WS_SP_CONST)
        return ws_xfault(x, E0, "%s on %s space", op_name(in->op), space_name(in->space));
    const unsigned sub = in->subop;
    const int fl = ws_ty_float[t], sg = ws_ty_signed[t];
    const int ftz = t == WS_TY_F32 && !(in->mods & WS_MOD_NOFTZ);
    memctx mc = { x, NULL, in->op, size, 1 };

    const uint64_t am = addr_mask(x, ao);
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        uint8_t *p;
        if (resolve(&mc, l, in->space, addr_with(x, ao, am, l), &p)) return WS_EXEC_FAULT;
        uint64_t old = 0, nw, vb = SV(b, l) & M;
        memcpy(&old, p, size);
        switch (sub) {
        case WS_ATOM_ADD:
            if (ws_ty_half(t)) {
                nw = ws_half_atom_add(old, vb, t);   /* .noftz, element-wise for the packed types */
            } else if (t == WS_TY_F32) {
                float r = ftz32f(ws_f32(old)) + ftz32f(ws_f32(vb));
                nw = ws_out32(r, ftz, 0);
            } else if (t == WS_TY_F64) {
                nw = ws_out64(ws_f64(old) + ws_f64(vb), 0, 0);
            } else nw = (old + vb) & M;
            break;
        case WS_ATOM_INC: nw = old >= vb ? 0 : (old + 1) & M; break;
        case WS_ATOM_DEC: nw = (old == 0 || old > vb) ? vb : old - 1; break;
        case WS_ATOM_MIN:
        case WS_ATOM_MAX: {
            int mx = sub == WS_ATOM_MAX, lt;
            if (fl) {
                double fo = t == WS_TY_F32 ? ws_f32(old) : ws_f64(old), fb = t == WS_TY_F32 ? ws_f32(vb) : ws_f64(vb);
                if (isnan(fo)) { nw = vb; break; }
                if (isnan(fb)) { nw = old; break; }
                lt = fo < fb || (fo == fb && signbit(fo) && !signbit(fb));
            } else {
                lt = sg ? ws_sext(old, bits) < ws_sext(vb, bits) : old < vb;
            }
            nw = mx ? (lt ? vb : old) : (lt ? old : vb);
            break;
        }
        case WS_ATOM_AND: nw = old & vb; break;
        case WS_ATOM_OR: nw = old | vb; break;
        case WS_ATOM_XOR: nw = old ^ vb; break;
        case WS_ATOM_EXCH: nw = vb; break;
        case WS_ATOM_CAS: nw = old == vb ? (SV(c, l) & M) : old; break;
        default:
            return ws_xfault(x, l, "%s: unknown operation %u", op_name(in->op), sub);
        }
        if (memcmp(p, &nw, size)) {
            x->env->mem_changes++;
            memcpy(p, &nw, size);
        }
        if (d) d[l] = old;
    }
    finish_effect(x, 3, size);
    return WS_EXEC_OK;
}

/* ldmatrix/stmatrix without .shared address generically; an address outside the shared
 * window is undefined in the PTX ISA and faults here. */
static int resolve_matrix_row(memctx *mc, unsigned l, unsigned space, uint64_t addr, uint8_t **out)
{
    if (resolve(mc, l, space, addr, out)) return WS_EXEC_FAULT;
    if (mc->x->eff->mem_lane_space[l] != WS_SP_SHARED)
        return ws_xfault(mc->x, l, "%s: generic address 0x%llx is not in the shared window",
                         mc->op == WS_OP_ST ? "stmatrix" : "ldmatrix", (unsigned long long)addr);
    return WS_EXEC_OK;
}

/* ldmatrix.sync.aligned.m8n8.xN{.trans}.shared.b16 (PTX ISA 9.7.9.26): per 32-lane group,
 * lanes 8m .. 8m + 7 give the addresses of the eight 16-byte rows of matrix m (m < N);
 * lane l receives in register m the two b16 elements (row l / 4, columns 2 (l % 4) and
 * 2 (l % 4) + 1) of matrix m, or with .trans those of (rows 2 (l % 4), 2 (l % 4) + 1,
 * column l / 4), the lower column (row) in the lower half. .aligned: every lane of the
 * group executes it. The effect: a shared load of 16 bytes by each address lane. */
static int exec_ldmatrix(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const unsigned nm = in->subop & 7, trans = (in->subop & WS_LDM_TRANS) != 0;
    if (ws_xaligned_width(x, "ldmatrix")) return WS_EXEC_FAULT;
    memctx mc = { x, NULL, WS_OP_LD, 16, 0 };
    uint64_t provided = 0;
    for (unsigned base = 0; base < x->ws; base += 32) {
        const int group = ws_xaligned_group(x, base, "ldmatrix");
        if (group < 0) return WS_EXEC_FAULT;
        if (!group) continue;
        uint16_t M[4][8][8];
        for (unsigned m = 0; m < nm; m++)
            for (unsigned r = 0; r < 8; r++) {
                unsigned l = base + 8 * m + r;
                uint8_t *p;
                if (resolve_matrix_row(&mc, l, in->space, addr_of(x, &in->src[0], l), &p)) return WS_EXEC_FAULT;
                memcpy(M[m][r], p, 16);   /* little-endian b16 elements, as the host stores them */
                provided |= 1ull << l;
            }
        for (unsigned m = 0; m < nm; m++) {
            uint64_t *d = ws_reg_lanes(x->w, in->dst[0].vec[m], x->ws) + base;
            for (unsigned l = 0; l < 32; l++) {
                unsigned g4 = l >> 2, c2 = 2 * (l & 3);
                uint16_t lo = trans ? M[m][c2][g4] : M[m][g4][c2], hi = trans ? M[m][c2 + 1][g4] : M[m][g4][c2 + 1];
                d[l] = (uint64_t)lo | (uint64_t)hi << 16;
            }
        }
    }
    ws_effect *eff = x->eff;
    eff->mem_kind = 1;
    eff->mem_bytes = 16;
    eff->mem_mask = provided;
    eff->mem_space = WS_SP_SHARED;
    return WS_EXEC_OK;
}

/* stmatrix.sync.aligned.m8n8.xN{.trans}.shared.b16 (PTX ISA "stmatrix", PTX 7.8, sm_90): the inverse of
 * ldmatrix. Per 32-lane group, lanes 8m .. 8m + 7 give the addresses of the eight 16-byte
 * rows of matrix m (m < N); lane l stores from register m the two b16 elements of row l / 4,
 * columns 2 (l % 4) and 2 (l % 4) + 1, the lower column in the lower half ("a group of four
 * threads stores an entire row", the ISA's stmatrix fragment figure); with .trans the
 * matrix is stored column-major, i.e. element (r, c) of the fragment goes to row c, column
 * r. .aligned: every lane of the group executes it. The effect: a shared store of 16 bytes
 * by each address lane. All registers are read before memory is written. */
static int exec_stmatrix(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const unsigned nm = in->subop & 7, trans = (in->subop & WS_LDM_TRANS) != 0;
    if (ws_xaligned_width(x, "stmatrix")) return WS_EXEC_FAULT;
    memctx mc = { x, NULL, WS_OP_ST, 16, 1 };
    uint64_t provided = 0;
    for (unsigned base = 0; base < x->ws; base += 32) {
        const int group = ws_xaligned_group(x, base, "stmatrix");
        if (group < 0) return WS_EXEC_FAULT;
        if (!group) continue;
        uint16_t M[4][8][8];
        for (unsigned m = 0; m < nm; m++) {
            const uint64_t *r = ws_reg_lanes(x->w, in->src[1].vec[m], x->ws) + base;
            for (unsigned l = 0; l < 32; l++) {
                unsigned g4 = l >> 2, c2 = 2 * (l & 3);
                uint16_t lo = (uint16_t)r[l], hi = (uint16_t)(r[l] >> 16);
                if (trans) { M[m][c2][g4] = lo; M[m][c2 + 1][g4] = hi; }
                else { M[m][g4][c2] = lo; M[m][g4][c2 + 1] = hi; }
            }
        }
        for (unsigned m = 0; m < nm; m++)
            for (unsigned r = 0; r < 8; r++) {
                unsigned l = base + 8 * m + r;
                uint8_t *p;
                if (resolve_matrix_row(&mc, l, in->space, addr_of(x, &in->src[0], l), &p)) return WS_EXEC_FAULT;
                if (memcmp(p, M[m][r], 16)) { x->env->mem_changes++; memcpy(p, M[m][r], 16); }
                provided |= 1ull << l;
            }
    }
    ws_effect *eff = x->eff;
    eff->mem_kind = 2;
    eff->mem_bytes = 16;
    eff->mem_mask = provided;
    eff->mem_space = WS_SP_SHARED;
    return WS_EXEC_OK;
}

/* The model's wmma fragment layout (exec_tensor.c, ws_wmma_pos). */
void ws_wmma_pos(unsigned shape, unsigned matrix, unsigned ty, unsigned reg, unsigned e, unsigned lane, unsigned *r,
                 unsigned *c);

/* The memory footprint of one part of a wmma fragment, for the timing model: the
 * rows x cols submatrix at (r0, c0), cut in memory order into 32 equal pieces, one
 * per lane (the hardware, too, moves the tile with wide per-lane accesses); mem 0 for
 * a part that only repeats elements of part 0 (no traffic of its own). */
typedef struct wmma_part { unsigned r0, c0, rows, cols, mem; } wmma_part;

static wmma_part wmma_footprint(unsigned shape, unsigned matrix, unsigned esize, unsigned part)
{
    static const uint8_t dims[WS_NWMMA_SHAPES][3][2] = {   /* rows, cols of A, B, C by shape */
        [WS_WMMA_M16N16K16] = {{16, 16}, {16, 16}, {16, 16}},
        [WS_WMMA_M32N8K16] = {{32, 16}, {16, 8}, {32, 8}},
        [WS_WMMA_M8N32K16] = {{8, 16}, {16, 32}, {8, 32}},
        [WS_WMMA_M16N16K8] = {{16, 8}, {8, 16}, {16, 16}},
        [WS_WMMA_M8N8K4] = {{8, 4}, {4, 8}, {8, 8}},
    };
    const unsigned rows = dims[shape][matrix][0], cols = dims[shape][matrix][1];
    const int whole = rows * cols * esize <= 512;   /* one part (four registers x 32 lanes) covers the matrix */
    if (whole) return (wmma_part){0, 0, rows, cols, part == 0};
    /* two parts: the halves along the dimension the two mma.sync split */
    if (shape == WS_WMMA_M16N16K16 || shape == WS_WMMA_M16N16K8) return (wmma_part){0, 8 * part, 16, 8, 1};   /* C/D */
    if (shape == WS_WMMA_M32N8K16) return (wmma_part){16 * part, 0, 16, cols, 1};       /* A, C/D */
    return (wmma_part){0, 16 * part, rows, 16, 1};                                      /* m8n32k16 B, C/D */
}

/* wmma.load.{a,b,c} / wmma.store.d .sync.aligned.{row,col}.shape{.ss}.type (PTX ISA
 * 9.7.14.4.x): one part (registers 4*part ..) of a fragment; element (r, c)
 * of the matrix is at p + (row ? r * stride + c : c * stride + r) * element size, the
 * stride in elements. .aligned: every lane of each 32-lane group executes it. */
static int exec_wmma(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const int store = in->op == WS_OP_WMMA_STORE;
    const unsigned matrix = in->subop & 3, part = WS_WMMA_PART(in->subop), col = (in->subop & WS_WMMA_COL) != 0;
    const unsigned shape = WS_WMMA_SHAPE(in->subop);
    const unsigned esize = ws_ty_bits[in->type] / 8, per_reg = esize < 4 ? 4 / esize : 1, ebits = 8 * esize;
    const ws_operand *frag = store ? &in->src[1] : &in->dst[0];
    const ws_operand *ao = &in->src[0];
    const char *what = store ? "wmma.store" : "wmma.load";
    if (ws_xaligned_width(x, what)) return WS_EXEC_FAULT;
    ws_src stride = ws_opnd(x, &in->src[in->nsrc - 1], in->nsrc - 1);
    memctx mc = { x, NULL, store ? WS_OP_ST : WS_OP_LD, esize, store };
    const wmma_part fp = wmma_footprint(shape, matrix, esize, part);
    const uint64_t am = addr_mask(x, ao);   /* element addresses wrap as the base's */
    const unsigned piece = fp.rows * fp.cols * esize / 32, lines = col ? fp.cols : fp.rows;
    const unsigned per_line = 32 / lines;
    uint64_t out[4][WS_MAX_WARP_SIZE];
    for (unsigned base = 0; base < x->ws; base += 32) {
        const int group = ws_xaligned_group(x, base, what);
        if (group < 0) return WS_EXEC_FAULT;
        if (!group) continue;
        for (unsigned lane = 0; lane < 32; lane++) {
            const unsigned l = base + lane;
            const uint64_t a0 = addr_of(x, ao, l), ld = SV(stride, l) & 0xffffffffu;
            for (unsigned j = 0; j < frag->nvec; j++) {
                uint64_t *reg = ws_reg_lanes(x->w, frag->vec[j], x->ws) + l;
                uint64_t v = 0;
                for (unsigned e = 0; e < per_reg; e++) {
                    unsigned r, c;
                    ws_wmma_pos(shape, matrix, in->type, 4 * part + j, e, lane, &r, &c);
                    uint8_t *p;
                    if (resolve(&mc, l, in->space, (a0 + (col ? c * ld + r : r * ld + c) * esize) & am, &p)) return WS_EXEC_FAULT;
                    if (store) {
                        uint64_t bits = *reg >> (ebits * e);
                        if (memcmp(p, &bits, esize)) { x->env->mem_changes++; memcpy(p, &bits, esize); }
                    } else {
                        uint64_t bits = 0;
                        memcpy(&bits, p, esize);   /* little-endian host, as ld */
                        v |= bits << (ebits * e);
                    }
                }
                out[j][l] = v;
            }
            /* the lane's piece of the footprint, for the timing model */
            const unsigned line = lane / per_line, at = (lane % per_line) * piece / esize;
            const unsigned r = col ? fp.r0 + at : fp.r0 + line, c = col ? fp.c0 + line : fp.c0 + at;
            memctx mp = { x, NULL, mc.op, 1, store };
            uint8_t *p;
            if (resolve(&mp, l, in->space, (a0 + (col ? c * ld + r : r * ld + c) * esize) & am, &p)) return WS_EXEC_FAULT;
        }
    }
    if (!store)
        for (unsigned j = 0; j < frag->nvec; j++)
            LANE_LOOP(x->exec) { unsigned l = LANE; ws_reg_lanes(x->w, frag->vec[j], x->ws)[l] = out[j][l]; }
    if (fp.mem) finish_effect(x, store ? 2 : 1, piece);
    return WS_EXEC_OK;
}

/* cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size | ignore-src} (PTX ISA
 * 9.7.9.25): copies src-size bytes (default cp-size) of global memory to shared memory and fills
 * the rest of the cp-size bytes with zeros; src-size 0 reads nothing. An ignore-src predicate
 * (WS_MOD_IGNORE_SRC) that is true reads nothing and writes cp-size zeros, false copies all. Functionally the copy is done at issue,
 * which is one of the executions the ISA allows (the data may land any time before the
 * cp.async.wait_group that covers it; reading it earlier is undefined). The effect is the
 * global read (the timing model sends it through the memory hierarchy, src/sim/core.c);
 * commit_group / wait_group / wait_all have no functional effect. */
/* [a, a + n) of space sp for lane l as one region: its first byte's pointer in *out. */
static int resolve_range(ws_xctx *x, unsigned l, int sp, uint64_t a, uint64_t n, int write, uint8_t **out)
{
    uint8_t *q0, *q1;
    memctx m = { x, NULL, write ? WS_OP_ST : WS_OP_LD, 1, write };
    if (resolve(&m, l, sp, a, &q0) || resolve(&m, l, sp, a + n - 1, &q1)) return -1;
    if (q1 != q0 + n - 1)
        return ws_xfault(x, l, "cp.async.bulk: 0x%llx + %llu bytes of .%s cross a buffer end", (unsigned long long)a,
                         (unsigned long long)n, space_name(sp));
    *out = q0;
    return 0;
}

/* cp.async.bulk (PTX ISA 9.7.9.25.4): each executing lane copies its `size` bytes (a multiple of
 * 16, both addresses 16-byte aligned) global -> shared, shared -> shared (its own CTA: every
 * launch is of one-CTA clusters) or shared -> global, at once; a copy into shared memory then
 * completes `size` transaction bytes on its mbarrier, at once or (env->defer_bulk) when the
 * timing run says the copy is done. prefetch.L2 has no value effect; commit_group and
 * wait_group only timing ones. */
static int exec_bulk(ws_xctx *x)
{
    const ws_inst *in = x->in;
    ws_effect *eff = x->eff;
    const unsigned op = in->subop;
    eff->bulk_mask = 0;
    if (op == WS_CPA_BULK_COMMIT || op == WS_CPA_BULK_WAIT) return WS_EXEC_OK;
    const int pre = op == WS_CPA_BULK_PREFETCH;
    ws_src sz = ws_opnd(x, &in->src[pre ? 1 : 2], pre ? 1 : 2);
    const int dsp = op == WS_CPA_BULK_S2G ? WS_SP_GLOBAL : WS_SP_SHARED;
    const int ssp = op == WS_CPA_BULK_G2S || pre ? WS_SP_GLOBAL : WS_SP_SHARED;
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        uint64_t n = SV(sz, l) & 0xffffffffu;
        uint64_t src = addr_of(x, &in->src[pre ? 0 : 1], l), dst = pre ? 0 : addr_of(x, &in->src[0], l);
        if (n % 16 || (src | dst) & 15)
            return ws_xfault(x, l, "cp.async.bulk of %llu bytes from 0x%llx to 0x%llx: the size must be a multiple of 16 "
                             "and both addresses 16-byte aligned", (unsigned long long)n, (unsigned long long)src,
                             (unsigned long long)dst);
        eff->bulk_gaddr[l] = op == WS_CPA_BULK_S2G ? dst : src;
        eff->bulk_size[l] = (uint32_t)n;
        eff->bulk_mbar[l] = NULL;
        eff->bulk_mask |= 1ull << l;
        if (pre || !n) continue;
        uint8_t *d, *s;
        if (resolve_range(x, l, ssp, src, n, 0, &s) || resolve_range(x, l, dsp, dst, n, 1, &d)) return WS_EXEC_FAULT;
        if (memcmp(d, s, n)) {
            x->env->mem_changes++;
            memmove(d, s, n);
        }
        if (op == WS_CPA_BULK_S2G) continue;
        uint8_t *b;
        memctx mb = { x, NULL, WS_OP_ATOM, 8, 1 };
        if (resolve(&mb, l, WS_SP_SHARED, addr_of(x, &in->src[3], l), &b)) return WS_EXEC_FAULT;
        if (x->env->defer_bulk) { eff->bulk_mbar[l] = b; continue; }
        if (ws_mbar_complete_tx(b, (uint32_t)n) < 0)
            return ws_xfault(x, l, "cp.async.bulk: the mbarrier's tx-count leaves +-(2^20 - 1) (undefined in PTX)");
        x->env->mem_changes++;
    }
    return WS_EXEC_OK;
}

static int exec_cp_async(ws_xctx *x)
{
    const ws_inst *in = x->in;
    if (ws_cpa_is_bulk(in->subop)) {
        x->eff->mem_kind = 0;
        x->eff->mem_mask = 0;
        x->eff->mem_space = WS_SP_NONE;
        return exec_bulk(x);
    }
    if (in->subop != WS_CPA_COPY) return WS_EXEC_OK;
    const unsigned cp = (unsigned)in->src[2].imm;
    ws_src ss = in->nsrc >= 4 ? ws_opnd(x, &in->src[3], 3) : (ws_src){ (const uint64_t *)&in->src[2].imm, 0 };
    const int ignore = (in->mods & WS_MOD_IGNORE_SRC) != 0;   /* src[3] the ignore-src predicate */
    ws_effect *eff = x->eff;
    uint64_t reads = 0;
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        uint64_t n = ignore ? (SV(ss, l) ? 0 : cp) : SV(ss, l) & 0xffffffffu;
        if (n > cp) return ws_xfault(x, l, "cp.async src-size %llu exceeds the cp-size %u", (unsigned long long)n, cp);
        uint64_t src = addr_of(x, &in->src[1], l);
        if (src & (cp - 1))
            return ws_xfault(x, l, "misaligned %u-byte cp.async source at address 0x%llx", cp, (unsigned long long)src);
        uint8_t buf[16] = {0}, *d, *s0, *s1;
        memctx md = { x, NULL, WS_OP_ST, cp, 1 };
        if (resolve(&md, l, WS_SP_SHARED, addr_of(x, &in->src[0], l), &d)) return WS_EXEC_FAULT;
        if (n) {   /* the first and the last source byte, in one region */
            memctx ms = { x, NULL, WS_OP_LD, 1, 0 };
            if (resolve(&ms, l, WS_SP_GLOBAL, src + n - 1, &s1) || resolve(&ms, l, WS_SP_GLOBAL, src, &s0))
                return WS_EXEC_FAULT;
            if (s1 != s0 + n - 1)
                return ws_xfault(x, l, "cp.async source 0x%llx + %llu bytes crosses a buffer end", (unsigned long long)src,
                                 (unsigned long long)n);
            memcpy(buf, s0, n);
            reads |= 1ull << l;
        }
        if (memcmp(d, buf, cp)) {
            x->env->mem_changes++;
            memcpy(d, buf, cp);
        }
        eff->mem_addr[l] = src;   /* the access the timing model charges: the global read */
        eff->mem_lane_space[l] = WS_SP_GLOBAL;
    }
    eff->mem_kind = reads ? 1 : 0;
    eff->mem_bytes = cp;
    eff->mem_mask = reads;
    eff->mem_space = reads ? WS_SP_GLOBAL : WS_SP_NONE;
    return WS_EXEC_OK;
}

/* mbarrier (PTX ISA 9.7.13.15) on its 8-byte shared object, whose layout the ISA leaves opaque;
 * here bits 0-19 hold the pending arrivals of the current phase, bits 20-39 the expected count,
 * bits 40-61 the phase's transaction count (two's complement: a complete-tx may come before
 * its expect-tx), bit 63 the phase's parity. init sets both counts (tx-count 0); arrive
 * (count, default 1) lowers the pending count, expect_tx (txCount) raises the tx-count and
 * complete_tx lowers it; the phase completes when both are zero: the parity flips, the pending
 * count is reset to the expected one (arrive_drop also lowers the expected count) and the
 * tx-count stays 0. arrive{_drop}.expect_tx does the expect-tx first (count 1). The state an
 * arrive returns is the object's parity before the arrival with the pending count after it.
 * test_wait/try_wait (state) are true once the phase of that state has completed (the
 * object's parity differs), .parity (p) once the phase of parity p has; try_wait does not
 * suspend (a time limit of zero, which the ISA allows). Lanes act one at a time in
 * ascending order, as atomics do; the effect is a shared atomic (a load for the waits). */
#define MBAR_COUNT 0xfffffull
#define MBAR_TX_BITS 22
#define MBAR_TX_MAX ((1ll << 20) - 1)   /* the ISA's tx-count range: +-(2^20 - 1) */
static int64_t mbar_tx(uint64_t o)
{
    int64_t v = (int64_t)(o >> 40 & ((1ull << MBAR_TX_BITS) - 1));
    return v >= 1ll << (MBAR_TX_BITS - 1) ? v - (1ll << MBAR_TX_BITS) : v;
}

static uint64_t mbar_pack(uint64_t phase, uint64_t expc, int64_t tx, uint64_t pend)
{
    return phase << 63 | ((uint64_t)tx & ((1ull << MBAR_TX_BITS) - 1)) << 40 | expc << 20 | pend;
}

int ws_mbar_complete_tx(uint8_t *p, uint32_t n)
{
    uint64_t o;
    memcpy(&o, p, 8);
    uint64_t pend = o & MBAR_COUNT, expc = (o >> 20) & MBAR_COUNT, phase = o >> 63;
    int64_t tx = mbar_tx(o) - (int64_t)n;
    if (tx > MBAR_TX_MAX || tx < -MBAR_TX_MAX) return -1;
    int flip = pend == 0 && tx == 0;
    if (flip) { phase ^= 1; pend = expc; }
    uint64_t nw = mbar_pack(phase, expc, tx, pend);
    memcpy(p, &nw, 8);
    return flip;
}

static int exec_mbarrier(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const unsigned op = in->subop;
    uint64_t *d = in->ndst ? ws_dst(x, &in->dst[0]) : NULL;
    uint8_t fx = op == WS_MBAR_TRY_WAIT && x->exec ? WS_MBAR_FX_WAITING : 0;
    x->eff->mbar = 0;
    if (op == WS_MBAR_PENDING_COUNT) {
        ws_src st = ws_opnd(x, &in->src[0], 0);
        LANE_LOOP(x->exec) { unsigned l = LANE; d[l] = SV(st, l) & MBAR_COUNT; }
        return WS_EXEC_OK;
    }
    ws_src b = ws_opnd(x, &in->src[1], 1);
    const int has_b = in->nsrc >= 2;
    memctx mc = { x, NULL, WS_OP_ATOM, 8, op != WS_MBAR_TEST_WAIT && op != WS_MBAR_TRY_WAIT };
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        uint8_t *p;
        if (resolve(&mc, l, in->space ? in->space : WS_SP_GENERIC, addr_of(x, &in->src[0], l), &p)) return WS_EXEC_FAULT;
        uint64_t o, nw;
        memcpy(&o, p, 8);
        uint64_t pend = o & MBAR_COUNT, expc = (o >> 20) & MBAR_COUNT, phase = o >> 63;
        int64_t tx = mbar_tx(o);
        switch (op) {
        case WS_MBAR_INIT: {
            uint64_t c = SV(b, l) & 0xffffffffu;
            if (c < 1 || c > MBAR_COUNT) return ws_xfault(x, l, "mbarrier.init count %llu outside 1 .. 2^20 - 1", (unsigned long long)c);
            nw = c | c << 20;
            break;
        }
        case WS_MBAR_ARRIVE: case WS_MBAR_ARRIVE_DROP: case WS_MBAR_EXPECT_TX: case WS_MBAR_COMPLETE_TX: {
            const int expect = op == WS_MBAR_EXPECT_TX || in->boolop == WS_MBAR_EXPECT;
            const int64_t v = has_b ? (int64_t)(SV(b, l) & 0xffffffffu) : 1;
            if (expect || op == WS_MBAR_COMPLETE_TX) {
                tx += op == WS_MBAR_COMPLETE_TX ? -v : v;
                if (tx > MBAR_TX_MAX || tx < -MBAR_TX_MAX)
                    return ws_xfault(x, l, "mbarrier tx-count %lld outside +-(2^20 - 1) (undefined in PTX)", (long long)tx);
            }
            if (op == WS_MBAR_ARRIVE || op == WS_MBAR_ARRIVE_DROP) {
                uint64_t n = in->boolop == WS_MBAR_EXPECT ? 1 : (uint64_t)v;
                if (n > pend)
                    return ws_xfault(x, l, "mbarrier.%s count %llu exceeds the %llu pending arrivals (undefined in PTX)",
                                     op == WS_MBAR_ARRIVE ? "arrive" : "arrive_drop", (unsigned long long)n, (unsigned long long)pend);
                pend -= n;
                if (op == WS_MBAR_ARRIVE_DROP) expc -= n < expc ? n : expc;
                if (d) d[l] = phase << 63 | pend;
            }
            if (pend == 0 && tx == 0) { phase ^= 1; pend = expc; fx |= WS_MBAR_FX_FLIP; }
            nw = mbar_pack(phase, expc, tx, pend);
            break;
        }
        case WS_MBAR_TEST_WAIT: case WS_MBAR_TRY_WAIT: {
            uint64_t want = in->boolop == WS_MBAR_PARITY ? SV(b, l) & 1 : SV(b, l) >> 63;
            d[l] = phase != want;
            if (d[l]) fx &= (uint8_t)~WS_MBAR_FX_WAITING;
            nw = o;
            break;
        }
        default: nw = 0; break;   /* inval */
        }
        if (nw != o) {
            x->env->mem_changes++;
            memcpy(p, &nw, 8);
        }
    }
    finish_effect(x, mc.write ? 3 : 1, 8);
    x->eff->mbar = fx;
    return WS_EXEC_OK;
}

static int exec_cvta(ws_xctx *x)
{
    const ws_inst *in = x->in;
    ws_src a = ws_opnd(x, &in->src[0], 0);
    uint64_t *d = ws_dst(x, &in->dst[0]);
    const uint64_t M = ws_ty_mask(in->type);
    uint64_t delta = 0;
    if (in->space == WS_SP_SHARED) delta = WS_SHARED_WINDOW;
    else if (in->space == WS_SP_LOCAL) delta = WS_LOCAL_WINDOW;
    if (in->mods & WS_MOD_TO) delta = 0 - delta;
    LANE_LOOP(x->exec) { unsigned l = LANE; d[l] = (SV(a, l) + delta) & M; }
    return WS_EXEC_OK;
}

int ws_exec_mem(ws_xctx *x)
{
    switch (x->in->op) {
    case WS_OP_LD: case WS_OP_LDU: return exec_ld(x);
    case WS_OP_ST: return exec_st(x);
    case WS_OP_ATOM: case WS_OP_RED: return exec_atom(x);
    case WS_OP_CVTA: return exec_cvta(x);
    case WS_OP_LDMATRIX: return exec_ldmatrix(x);
    case WS_OP_STMATRIX: return exec_stmatrix(x);
    case WS_OP_WMMA_LOAD: case WS_OP_WMMA_STORE: return exec_wmma(x);
    case WS_OP_CP_ASYNC: return exec_cp_async(x);
    case WS_OP_MBARRIER: return exec_mbarrier(x);
    default:
        return ws_xfault(x, (unsigned)__builtin_ctzll(x->exec), "%s: not a memory instruction", ws_opcode_name(x->in->op));
    }
}
