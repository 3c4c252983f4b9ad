/*
 * Warp-level instructions: shfl.sync, vote.sync, match.sync, redux.sync,
 * activemask.
 * The participating lanes are the executed ones (active & guard). Results
 * are computed from the sources of all lanes before any destination is
 * written (d may alias a).
 *
 * Lanes form aligned groups of 32 (one group when warp_size <= 32); each
 * group behaves as a 32-thread warp: lane fields and masks are the PTX 5-bit
 * / 32-bit ones relative to the group (exec.h). An executing lane that is not
 * in its own membermask is a fault (undefined behaviour in PTX).
 */
#include "exec_internal.h"

static inline uint32_t group_bits(uint64_t m, unsigned l) { return (uint32_t)(m >> (l & ~31u)); }

static int check_member(ws_xctx *x, ws_src mask)
{
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        uint32_t mm = (uint32_t)SV(mask, l);
        if (!((mm >> (l & 31)) & 1))
            return ws_xfault(x, l, "%s.sync: executing lane %u is not in membermask 0x%08x",
                             ws_opcode_name(x->in->op), l & 31, mm);
    }
    return WS_EXEC_OK;
}

static int exec_shfl(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const unsigned ws = x->ws;
    ws_src a = ws_opnd(x, &in->src[0], 0);
    ws_src b = ws_opnd(x, &in->src[1], 1);
    ws_src c = ws_opnd(x, &in->src[2], 2);
    ws_src m = ws_opnd(x, &in->src[3], 3);
    if (in->src[3].kind != WS_OK_NONE && check_member(x, m)) return WS_EXEC_FAULT;
    uint64_t *d = ws_dst(x, &in->dst[0]);
    int hasp = in->dst[1].kind == WS_OK_REG && in->dst[1].reg != WS_NO_REG;
    uint64_t *p = ws_dst(x, &in->dst[1]);
    uint64_t val[WS_MAX_WARP_SIZE];
    uint8_t pv[WS_MAX_WARP_SIZE];
    const unsigned mode = in->subop;
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        unsigned g = l & ~31u, lane = l & 31;
        uint32_t bv = (uint32_t)SV(b, l) & 31, cv = (uint32_t)SV(c, l);
        uint32_t cval = cv & 31, segmask = (cv >> 8) & 31;
        int maxLane = (int)((lane & segmask) | (cval & ~segmask));
        int minLane = (int)(lane & segmask);
        int j, ok;
        switch (mode) {
        case WS_SHFL_UP: j = (int)lane - (int)bv; ok = j >= maxLane; break;
        case WS_SHFL_DOWN: j = (int)lane + (int)bv; ok = j <= maxLane; break;
        case WS_SHFL_BFLY: j = (int)(lane ^ bv); ok = j <= maxLane; break;
        case WS_SHFL_IDX: j = minLane | (int)(bv & ~segmask); ok = j <= maxLane; break;
        default: return ws_xfault(x, l, "shfl: unknown mode %u", mode);
        }
        if (ok && (j < 0 || g + (unsigned)j >= ws)) ok = 0;   /* no such lane in a narrow warp */
        if (!ok) j = (int)lane;
        val[l] = SV(a, g + (unsigned)j) & 0xffffffffu;
        pv[l] = (uint8_t)ok;
    }
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        d[l] = val[l];
        if (hasp) p[l] = pv[l];
    }
    return WS_EXEC_OK;
}

static int exec_vote(ws_xctx *x)
{
    const ws_inst *in = x->in;
    ws_src a = ws_opnd(x, &in->src[0], 0);   /* negation applied by ws_opnd */
    ws_src m = ws_opnd(x, &in->src[1], 1);
    if (in->src[1].kind != WS_OK_NONE && check_member(x, m)) return WS_EXEC_FAULT;
    uint64_t ballot = 0;
    LANE_LOOP(x->exec) { unsigned l = LANE; if (SV(a, l)) ballot |= 1ull << l; }
    uint64_t *d = ws_dst(x, &in->dst[0]);
    const uint64_t E = x->exec;
    LANE_LOOP(E) {
        unsigned l = LANE;
        uint32_t part = group_bits(E, l), yes = group_bits(ballot, l);
        uint64_t r;
        switch (in->subop) {
        case WS_VOTE_ALL: r = yes == part; break;
        case WS_VOTE_ANY: r = yes != 0; break;
        case WS_VOTE_UNI: r = yes == 0 || yes == part; break;
        case WS_VOTE_BALLOT: r = yes; break;
        default: return ws_xfault(x, l, "vote: unknown mode %u", in->subop);
        }
        d[l] = r;
    }
    return WS_EXEC_OK;
}

static int exec_match(ws_xctx *x)
{
    const ws_inst *in = x->in;
    ws_src a = ws_opnd(x, &in->src[0], 0);
    ws_src m = ws_opnd(x, &in->src[1], 1);
    if (in->src[1].kind != WS_OK_NONE && check_member(x, m)) return WS_EXEC_FAULT;
    const uint64_t M = ws_ty_mask(in->type);
    const uint64_t E = x->exec;
    uint64_t res[WS_MAX_WARP_SIZE];
    uint8_t pv[WS_MAX_WARP_SIZE];
    LANE_LOOP(E) {
        unsigned l = LANE;
        unsigned g = l & ~31u;
        uint64_t grp = E & (0xffffffffull << g);
        uint64_t v = SV(a, l) & M, same = 0;
        for (uint64_t mm = grp; mm; mm &= mm - 1) {
            unsigned k = (unsigned)__builtin_ctzll(mm);
            if ((SV(a, k) & M) == v) same |= 1ull << k;
        }
        if (in->subop == WS_MATCH_ALL) {
            int all = same == grp;
            res[l] = all ? (uint32_t)(grp >> g) : 0;
            pv[l] = (uint8_t)all;
        } else {
            res[l] = (uint32_t)(same >> g);
            pv[l] = 0;
        }
    }
    uint64_t *d = ws_dst(x, &in->dst[0]);
    int hasp = in->dst[1].kind == WS_OK_REG && in->dst[1].reg != WS_NO_REG;
    uint64_t *p = ws_dst(x, &in->dst[1]);
    LANE_LOOP(E) {
        unsigned l = LANE;
        d[l] = res[l];
        if (hasp) p[l] = pv[l];
    }
    return WS_EXEC_OK;
}

/* redux.sync.op.type d, a, membermask: every participating lane of a group
 * gets the reduction of a over the group's participating lanes (.add wraps
 * modulo 2^32; .min/.max signed for .s32, unsigned for .u32). */
static int exec_redux(ws_xctx *x)
{
    const ws_inst *in = x->in;
    ws_src a = ws_opnd(x, &in->src[0], 0);
    ws_src m = ws_opnd(x, &in->src[1], 1);
    if (in->src[1].kind != WS_OK_NONE && check_member(x, m)) return WS_EXEC_FAULT;
    const uint64_t E = x->exec;
    const int sgn = in->type == WS_TY_S32;
    uint32_t acc[WS_MAX_WARP_SIZE / 32];
    int have[WS_MAX_WARP_SIZE / 32] = {0};
    LANE_LOOP(E) {
        unsigned l = LANE, g = l >> 5;
        uint32_t v = (uint32_t)SV(a, l);
        if (!have[g]) { acc[g] = v; have[g] = 1; continue; }
        uint32_t r = acc[g];
        switch (in->subop) {
        case WS_ATOM_ADD: r += v; break;
        case WS_ATOM_MIN: r = sgn ? ((int32_t)v < (int32_t)r ? v : r) : (v < r ? v : r); break;
        case WS_ATOM_MAX: r = sgn ? ((int32_t)v > (int32_t)r ? v : r) : (v > r ? v : r); break;
        case WS_ATOM_AND: r &= v; break;
        case WS_ATOM_OR: r |= v; break;
        case WS_ATOM_XOR: r ^= v; break;
        default: return ws_xfault(x, l, "redux.sync: unsupported operation %u", in->subop);
        }
        acc[g] = r;
    }
    uint64_t *d = ws_dst(x, &in->dst[0]);
    LANE_LOOP(E) { unsigned l = LANE; d[l] = acc[l >> 5]; }
    return WS_EXEC_OK;
}

int ws_exec_warp(ws_xctx *x)
{
    switch (x->in->op) {
    case WS_OP_SHFL: return exec_shfl(x);
    case WS_OP_VOTE: return exec_vote(x);
    case WS_OP_MATCH: return exec_match(x);
    case WS_OP_REDUX: return exec_redux(x);
    case WS_OP_ACTIVEMASK: {
        uint64_t *d = ws_dst(x, &x->in->dst[0]);
        LANE_LOOP(x->exec) { unsigned l = LANE; d[l] = group_bits(x->active, l); }
        return WS_EXEC_OK;
    }
    default:
        return ws_xfault(x, (unsigned)__builtin_ctzll(x->exec), "%s: not a warp-level instruction",
                         ws_opcode_name(x->in->op));
    }
}
