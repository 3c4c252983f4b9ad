/*
 * Warp-level instructions: shfl.sync, vote(.sync), match.sync, redux.sync,
 * activemask.
 *
 * Member-mask rules (PTX ISA, "Parallel Synchronization and Communication
 * Instructions": shfl.sync, vote.sync, match.sync, redux.sync): each lane's
 * result is computed over the non-exited lanes of ITS OWN membermask. The
 * caller (the cycle-level core, the reference) makes those lanes execute
 * with it, so here "non-exited member" = member lane that executes (active &
 * guard); a member that does not execute contributes nothing (a ballot bit
 * 0, as the ISA says of a thread outside membermask). Lanes of one converged
 * split may pass different membermasks (cooperative groups'
 * tiled_partition, binary_partition, labeled_partition): each gets its own
 * group's result. An executing lane that is not in its own membermask is a
 * fault ("the behavior ... is undefined if the executing thread is not in the
 * membermask"). Legacy vote without .sync (no membermask operand) reduces
 * over the executing lanes of the warp ("across all active threads").
 *
 * A rendezvous (ws_exec_warp_rendezvous) runs several instructions of the
 * same kind at different PCs as one operation: every lane reads its operands
 * from its own instruction, the combine step spans the lanes of all of them,
 * and every lane writes its own instruction's destinations. All sources are
 * read before any destination is written (d may alias a).
 *
 * Lanes form aligned groups of 32 (one group when warp_size <= 32); each
 * group behaves as a 32-thread warp: lane fields and masks are the PTX 5-bit
 * / 32-bit ones relative to the group (exec.h).
 */
#include "exec_internal.h"

static inline uint32_t group_bits(uint64_t m, unsigned l) { return (uint32_t)(m >> (l & ~31u)); }

/* Every lane's operands, gathered from the instruction it executes. */
typedef struct wlanes {
    uint64_t exec;                        /* executing lanes, all parts */
    uint64_t a[WS_MAX_WARP_SIZE];         /* source a (vote: the predicate, negation applied) */
    uint32_t b[WS_MAX_WARP_SIZE];         /* shfl: lane / offset */
    uint32_t c[WS_MAX_WARP_SIZE];         /* shfl: clamp and segment mask */
    uint64_t members[WS_MAX_WARP_SIZE];   /* the lane's membermask, as warp lanes */
    uint8_t part[WS_MAX_WARP_SIZE];       /* the lane's instruction (index into parts) */
} wlanes;

/* The membermask of lane l as a mask of warp lanes (group-relative 32 bits
 * shifted to the lane's group). */
static inline uint64_t member_lanes(uint32_t mm, unsigned l) { return (uint64_t)mm << (l & ~31u); }

const ws_operand *ws_warp_membermask(const ws_inst *in)
{
    switch (in->op) {
    case WS_OP_SHFL: return in->nsrc >= 4 ? &in->src[3] : NULL;
    case WS_OP_VOTE: case WS_OP_MATCH: case WS_OP_REDUX: return in->nsrc >= 2 ? &in->src[1] : NULL;
    case WS_OP_BAR_WARP: case WS_OP_ELECT: return in->nsrc >= 1 ? &in->src[0] : NULL;
    default: return NULL;
    }
}

int ws_warp_aligned(const ws_inst *in)
{
    return in->op == WS_OP_MMA || in->op == WS_OP_LDMATRIX || in->op == WS_OP_WMMA_LOAD || in->op == WS_OP_WMMA_STORE ||
           in->op == WS_OP_STMATRIX || in->op == WS_OP_MOVMATRIX;
}

int ws_warp_same_kind(const ws_inst *a, const ws_inst *b)
{
    if (ws_warp_aligned(a) || ws_warp_aligned(b)) return a == b;   /* .aligned: the same instruction */
    if (a->op != b->op || !ws_warp_membermask(a) || !ws_warp_membermask(b)) return 0;
    if (a->op == WS_OP_BAR_WARP) return 1;          /* "a bar.warp.sync with the same membermask" */
    return a->subop == b->subop && a->type == b->type;   /* "the same qualifiers" */
}

/* Reads the operands of x's executing lanes into L (part p). */
static int gather(ws_xctx *x, unsigned p, wlanes *L)
{
    const ws_inst *in = x->in;
    const ws_operand *mo = ws_warp_membermask(in);
    ws_src a = ws_opnd(x, &in->src[0], 0);   /* vote: negation applied by ws_opnd */
    ws_src b = {0}, c = {0}, m = {0};
    int shfl = in->op == WS_OP_SHFL;
    if (shfl) { b = ws_opnd(x, &in->src[1], 1); c = ws_opnd(x, &in->src[2], 2); }
    if (mo) m = ws_opnd(x, mo, 3);
    if (p == 0 && shfl) {
        /* a shfl may name a source lane that does not execute (undefined in
         * PTX): it reads the first instruction's register a there (0 for a
         * special register) */
        for (unsigned l = 0; l < x->ws; l++)
            L->a[l] = in->src[0].kind == WS_OK_SREG ? 0 : SV(a, l) & 0xffffffffu;
    }
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        uint32_t mm = mo ? (uint32_t)SV(m, l) : group_bits(x->exec, l);
        if (!((mm >> (l & 31)) & 1))
            return ws_xfault(x, l, "%s.sync: executing lane %u is not in membermask 0x%08x",
                             ws_opcode_name(in->op), l & 31, mm);
        L->members[l] = member_lanes(mm, l);
        L->a[l] = shfl ? SV(a, l) & 0xffffffffu : SV(a, l);
        if (shfl) { L->b[l] = (uint32_t)SV(b, l); L->c[l] = (uint32_t)SV(c, l); }
        L->part[l] = (uint8_t)p;
    }
    L->exec |= x->exec;
    return WS_EXEC_OK;
}

/* shfl: the PTX ISA's pseudo-code (lane, bval, cval, segmask, minLane,
 * maxLane), j relative to the lane's group. */
static void shfl_lane(const ws_inst *in, const wlanes *L, unsigned l, unsigned ws, uint64_t *d, uint8_t *p)
{
    unsigned g = l & ~31u, lane = l & 31;
    uint32_t bv = L->b[l] & 31, cv = L->c[l];
    uint32_t cval = cv & 31, segmask = (cv >> 8) & 31;
    int maxLane = (int)((lane & segmask) | (cval & ~segmask));
    int minLane = (int)(lane & segmask);
    int j, ok;
    switch (in->subop) {
    case WS_SHFL_UP: j = (int)lane - (int)bv; ok = j >= maxLane; break;
    case WS_SHFL_DOWN: j = (int)lane + (int)bv; ok = j <= maxLane; break;
    case WS_SHFL_BFLY: j = (int)(lane ^ bv); ok = j <= maxLane; break;
    default: j = minLane | (int)(bv & ~segmask); ok = j <= maxLane; break;   /* idx */
    }
    if (ok && (j < 0 || g + (unsigned)j >= ws)) ok = 0;   /* no such lane in a narrow warp */
    if (!ok) j = (int)lane;
    *d = L->a[g + (unsigned)j];
    *p = (uint8_t)ok;
}

static uint64_t vote_lane(const ws_inst *in, const wlanes *L, uint64_t ballot, unsigned l)
{
    uint64_t M = L->members[l] & L->exec;
    uint32_t part = group_bits(M, l), yes = group_bits(ballot & M, l);
    switch (in->subop) {
    case WS_VOTE_ALL: return yes == part;
    case WS_VOTE_ANY: return yes != 0;
    case WS_VOTE_UNI: return yes == 0 || yes == part;
    default: return yes;   /* ballot */
    }
}

static void match_lane(const ws_inst *in, const wlanes *L, unsigned l, uint64_t *d, uint8_t *p)
{
    const uint64_t T = ws_ty_mask(in->type);
    uint64_t M = L->members[l] & L->exec, v = L->a[l] & T, same = 0;
    for (uint64_t mm = M; mm; mm &= mm - 1) {
        unsigned k = (unsigned)__builtin_ctzll(mm);
        if ((L->a[k] & T) == v) same |= 1ull << k;
    }
    if (in->subop == WS_MATCH_ALL) {
        int all = same == M;
        *d = all ? group_bits(M, l) : 0;
        *p = (uint8_t)all;
    } else {
        *d = group_bits(same, l);
        *p = 0;
    }
}

/* elect.sync d|p, membermask (PTX ISA 9.7.13.11): the leader is the lowest-numbered member lane
 * that executes; d = its %laneid in every member, p true in the leader only */
static void elect_lane(const wlanes *L, unsigned l, uint64_t *d, uint8_t *p)
{
    unsigned leader = (unsigned)__builtin_ctzll(L->members[l] & L->exec);
    *d = leader & 31;
    *p = (uint8_t)(leader == l);
}

/* redux.sync.op.type: the reduction over the member lanes in ascending
 * order (.add wraps modulo 2^32; .min/.max signed for .s32, unsigned for .u32). */
static uint64_t redux_lane(const ws_inst *in, const wlanes *L, unsigned l)
{
    const int sgn = in->type == WS_TY_S32;
    uint64_t M = L->members[l] & L->exec;
    uint32_t r = (uint32_t)L->a[__builtin_ctzll(M)];
    for (uint64_t mm = M & (M - 1); mm; mm &= mm - 1) {
        uint32_t v = (uint32_t)L->a[__builtin_ctzll(mm)];
        switch (in->subop) {
        case WS_ATOM_ADD: r += v; break;
        case WS_ATOM_MIN: r = sgn ? ((int32_t)v < (int32_t)r ? v : r) : (v < r ? v : r); break;
        case WS_ATOM_MAX: r = sgn ? ((int32_t)v > (int32_t)r ? v : r) : (v > r ? v : r); break;
        case WS_ATOM_AND: r &= v; break;
        case WS_ATOM_OR: r |= v; break;
        default: r ^= v; break;   /* xor */
        }
    }
    return r;
}

static int check_modes(ws_xctx *x)
{
    const ws_inst *in = x->in;
    unsigned l = (unsigned)__builtin_ctzll(x->exec);
    switch (in->op) {
    case WS_OP_SHFL:
        if (in->subop < WS_SHFL_UP || in->subop > WS_SHFL_IDX) return ws_xfault(x, l, "shfl: unknown mode %u", in->subop);
        break;
    case WS_OP_VOTE:
        if (in->subop < WS_VOTE_ALL || in->subop > WS_VOTE_BALLOT) return ws_xfault(x, l, "vote: unknown mode %u", in->subop);
        break;
    case WS_OP_REDUX:
        switch (in->subop) {
        case WS_ATOM_ADD: case WS_ATOM_MIN: case WS_ATOM_MAX: case WS_ATOM_AND: case WS_ATOM_OR: case WS_ATOM_XOR: break;
        default: return ws_xfault(x, l, "redux.sync: unsupported operation %u", in->subop);
        }
        break;
    default: break;
    }
    return WS_EXEC_OK;
}

/* Computes every executing lane's results (all sources were gathered) and
 * writes them to the destinations of its own instruction. */
static void combine_and_write(ws_xctx *x, ws_warp_part *parts, unsigned n, const wlanes *L)
{
    uint64_t ballot = 0;
    LANE_LOOP(L->exec) { unsigned l = LANE; if (L->a[l]) ballot |= 1ull << l; }
    uint64_t res[WS_MAX_WARP_SIZE];
    uint8_t pv[WS_MAX_WARP_SIZE];
    LANE_LOOP(L->exec) {
        unsigned l = LANE;
        const ws_inst *in = parts[L->part[l]].in;
        pv[l] = 0;
        switch (in->op) {
        case WS_OP_SHFL: shfl_lane(in, L, l, x->ws, &res[l], &pv[l]); break;
        case WS_OP_VOTE: res[l] = vote_lane(in, L, ballot, l); break;
        case WS_OP_MATCH: match_lane(in, L, l, &res[l], &pv[l]); break;
        case WS_OP_REDUX: res[l] = redux_lane(in, L, l); break;
        case WS_OP_ELECT: elect_lane(L, l, &res[l], &pv[l]); break;
        default: res[l] = 0; break;   /* bar.warp.sync: no value */
        }
    }
    for (unsigned p = 0; p < n; p++) {
        const ws_inst *in = parts[p].in;
        if (in->op == WS_OP_BAR_WARP) continue;
        uint64_t *d = ws_dst(x, &in->dst[0]);
        int hasp = in->ndst >= 2 && in->dst[1].kind == WS_OK_REG && in->dst[1].reg != WS_NO_REG;
        uint64_t *q = ws_dst(x, &in->dst[1]);
        LANE_LOOP(parts[p].executed) {
            unsigned l = LANE;
            d[l] = res[l];
            if (hasp) q[l] = pv[l];
        }
    }
}

/* Gathers every part, then combines. x is reused for each part in turn. */
static int run_parts(ws_xctx *x, ws_exec_env *env, ws_warp *w, ws_warp_part *parts, unsigned n, ws_effect *eff)
{
    wlanes L;
    L.exec = 0;
    for (unsigned p = 0; p < n; p++) {
        ws_xctx_init(x, env, w, parts[p].in, parts[p].pc, parts[p].active, eff);
        parts[p].executed = x->exec;
        if (!x->exec || parts[p].in->op == WS_OP_BAR_WARP) continue;   /* bar.warp.sync: no values */
        if (check_modes(x) || gather(x, p, &L)) return WS_EXEC_FAULT;
    }
    combine_and_write(x, parts, n, &L);
    return WS_EXEC_OK;
}

int ws_exec_warp_rendezvous(ws_exec_env *env, ws_warp *w, ws_warp_part *parts, unsigned n)
{
    ws_xctx x;
    ws_effect eff;
    if (n == 0 || n > WS_MAX_WARP_SIZE) return WS_EXEC_OK;
    if (ws_warp_aligned(parts[0].in) && n == 1)   /* mma: one instruction over the whole group */
        return ws_exec_inst(env, w, parts[0].in, parts[0].pc, parts[0].active, &eff);
    for (unsigned p = 1; p < n; p++)
        if (!ws_warp_same_kind(parts[0].in, parts[p].in)) {
            ws_xctx_init(&x, env, w, parts[p].in, parts[p].pc, parts[p].active, &eff);
            return ws_xfault(&x, (unsigned)__builtin_ctzll(parts[p].active | 1), "%s cannot meet %s in one rendezvous",
                             ws_opcode_name(parts[p].in->op), ws_opcode_name(parts[0].in->op));
        }
    return run_parts(&x, env, w, parts, n, &eff);
}

int ws_exec_warp(ws_xctx *x)
{
    const ws_inst *in = x->in;
    switch (in->op) {
    case WS_OP_SHFL: case WS_OP_VOTE: case WS_OP_MATCH: case WS_OP_REDUX: case WS_OP_ELECT: {
        ws_warp_part part = {.in = in, .pc = x->pc, .active = x->active};
        ws_effect *eff = x->eff;
        int rc = run_parts(x, x->env, x->w, &part, 1, eff);
        eff->executed = part.executed;
        return rc;
    }
    case WS_OP_ACTIVEMASK: {
        uint64_t *d = ws_dst(x, &in->dst[0]);
        LANE_LOOP(x->exec) { unsigned l = LANE; d[l] = group_bits(x->active, l); }
        return WS_EXEC_OK;
    }
    default:
        return ws_xfault(x, (unsigned)__builtin_ctzll(x->exec), "%s: not a warp-level instruction",
                         ws_opcode_name(in->op));
    }
}
