/*
 * Comparison and selection: setp (with .and/.or/.xor and the q output), set,
 * selp, slct. Integer comparisons are signed for .sN types and unsigned for
 * .uN/.bN (lo/ls/hi/hs always unsigned); float comparisons are ordered
 * (false when either operand is NaN) or unordered (*u: true when either is
 * NaN); num/nan test for NaN.
 * Half types compare their exact values; the packed .f16x2/.bf16x2 compare
 * element-wise (PTX ISA 9.7.4.6-7): setp writes the low elements' result to p
 * and the high elements' to q, set writes each element's 1.0 (or all ones for
 * an integer destination) or 0 into the same half of d.
 */
#include <math.h>
#include "exec_internal.h"

static inline int cmp_int(uint64_t a, uint64_t b, unsigned cmp, unsigned t)
{
    unsigned bits = ws_ty_bits[t];
    uint64_t M = ws_mask_bits(bits);
    uint64_t ua = a & M, ub = b & M;
    if (ws_ty_signed[t]) {
        int64_t sa = ws_sext(a, bits), sb = ws_sext(b, bits);
        switch (cmp) {
        case WS_CMP_LT: return sa < sb;
        case WS_CMP_LE: return sa <= sb;
        case WS_CMP_GT: return sa > sb;
        case WS_CMP_GE: return sa >= sb;
        default: break;
        }
    }
    switch (cmp) {
    case WS_CMP_EQ: return ua == ub;
    case WS_CMP_NE: return ua != ub;
    case WS_CMP_LT: case WS_CMP_LO: return ua < ub;
    case WS_CMP_LE: case WS_CMP_LS: return ua <= ub;
    case WS_CMP_GT: case WS_CMP_HI: return ua > ub;
    case WS_CMP_GE: case WS_CMP_HS: return ua >= ub;
    default: return 0;
    }
}

static inline int cmp_flt(double a, double b, unsigned cmp)
{
    int nan = isnan(a) || isnan(b);
    switch (cmp) {
    case WS_CMP_EQ: return !nan && a == b;
    case WS_CMP_NE: return !nan && a != b;
    case WS_CMP_LT: return !nan && a < b;
    case WS_CMP_LE: return !nan && a <= b;
    case WS_CMP_GT: return !nan && a > b;
    case WS_CMP_GE: return !nan && a >= b;
    case WS_CMP_EQU: return nan || a == b;
    case WS_CMP_NEU: return nan || a != b;
    case WS_CMP_LTU: return nan || a < b;
    case WS_CMP_LEU: return nan || a <= b;
    case WS_CMP_GTU: return nan || a > b;
    case WS_CMP_GEU: return nan || a >= b;
    case WS_CMP_NUM: return !nan;
    case WS_CMP_NAN: return nan;
    default: return 0;
    }
}

static inline int boolop(unsigned op, int t, int c)
{
    switch (op) {
    case WS_BOOL_AND: return t & c;
    case WS_BOOL_OR: return t | c;
    case WS_BOOL_XOR: return t ^ c;
    default: return t;
    }
}

/* Compares a and b of lane l as type t into 0/1 for every executed lane
 * (a packed half type: element e). */
static void compare(ws_xctx *x, ws_src a, ws_src b, unsigned t, uint8_t *out, unsigned e)
{
    const unsigned cmp = x->in->cmp;
    const int ftz = (x->in->mods & WS_MOD_FTZ) != 0;
    if (ws_ty_half(t)) {
        LANE_LOOP(x->exec) {
            unsigned l = LANE;
            out[l] = (uint8_t)cmp_flt(ws_half_value(SV(a, l), t, e, ftz), ws_half_value(SV(b, l), t, e, ftz), cmp);
        }
    } else if (t == WS_TY_F32) {
        LANE_LOOP(x->exec) { unsigned l = LANE; out[l] = (uint8_t)cmp_flt(ws_in32(SV(a, l), ftz), ws_in32(SV(b, l), ftz), cmp); }
    } else if (t == WS_TY_F64) {
        LANE_LOOP(x->exec) { unsigned l = LANE; out[l] = (uint8_t)cmp_flt(ws_in64(SV(a, l), ftz), ws_in64(SV(b, l), ftz), cmp); }
    } else {
        LANE_LOOP(x->exec) { unsigned l = LANE; out[l] = (uint8_t)cmp_int(SV(a, l), SV(b, l), cmp, t); }
    }
}

int ws_exec_cmp(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const uint64_t E = x->exec;
    ws_src a = ws_opnd(x, &in->src[0], 0);
    ws_src b = ws_opnd(x, &in->src[1], 1);
    ws_src c = ws_opnd(x, &in->src[2], 2);
    uint64_t *d = ws_dst(x, &in->dst[0]);
    uint8_t t[WS_MAX_WARP_SIZE];

    switch (in->op) {
    case WS_OP_SETP: {
        compare(x, a, b, in->type, t, 0);
        unsigned op = in->boolop;
        int hasq = in->dst[1].kind == WS_OK_REG && in->dst[1].reg != WS_NO_REG;
        uint64_t *q = ws_dst(x, &in->dst[1]);
        if (ws_ty_pair(in->type)) {   /* p: the low elements, q: the high elements */
            uint8_t th[WS_MAX_WARP_SIZE];
            compare(x, a, b, in->type, th, 1);
            LANE_LOOP(E) {
                unsigned l = LANE;
                int cv = op ? (SV(c, l) != 0) : 0;
                d[l] = (uint64_t)boolop(op, t[l], cv);
                if (hasq) q[l] = (uint64_t)boolop(op, th[l], cv);
            }
            break;
        }
        LANE_LOOP(E) {
            unsigned l = LANE;
            int cv = op ? (SV(c, l) != 0) : 0;
            int tv = t[l];
            d[l] = (uint64_t)boolop(op, tv, cv);
            if (hasq) q[l] = (uint64_t)boolop(op, !tv, cv);
        }
        break;
    }
    case WS_OP_SET: {
        unsigned st = in->type2 ? in->type2 : in->type;
        compare(x, a, b, st, t, 0);
        unsigned op = in->boolop;
        unsigned dt = in->type;
        uint64_t one = dt == WS_TY_F32 ? 0x3f800000u : dt == WS_TY_F16 || dt == WS_TY_F16X2 ? 0x3c00u
                     : dt == WS_TY_BF16 || dt == WS_TY_BF16X2 ? 0x3f80u : ws_ty_mask(dt);
        if (ws_ty_pair(st)) {   /* each element's result in its half of d */
            uint8_t th[WS_MAX_WARP_SIZE];
            compare(x, a, b, st, th, 1);
            if (!ws_ty_pair(dt)) one = 0xffffu;   /* .u32/.s32: all ones per half */
            LANE_LOOP(E) {
                unsigned l = LANE;
                int cv = op ? (SV(c, l) != 0) : 0;
                d[l] = (boolop(op, t[l], cv) ? one : 0) | (boolop(op, th[l], cv) ? one << 16 : 0);
            }
            break;
        }
        LANE_LOOP(E) {
            unsigned l = LANE;
            int cv = op ? (SV(c, l) != 0) : 0;
            d[l] = boolop(op, t[l], cv) ? one : 0;
        }
        break;
    }
    case WS_OP_SELP: {
        uint64_t M = ws_ty_mask(in->type);
        LANE_LOOP(E) { unsigned l = LANE; d[l] = (SV(c, l) ? SV(a, l) : SV(b, l)) & M; }
        break;
    }
    case WS_OP_SLCT: {
        uint64_t M = ws_ty_mask(in->type);
        int ftz = (in->mods & WS_MOD_FTZ) != 0;
        if (in->type2 == WS_TY_F32) {
            LANE_LOOP(E) { unsigned l = LANE; d[l] = (ws_in32(SV(c, l), ftz) >= 0.0f ? SV(a, l) : SV(b, l)) & M; }
        } else {
            LANE_LOOP(E) { unsigned l = LANE; d[l] = (ws_sext(SV(c, l), 32) >= 0 ? SV(a, l) : SV(b, l)) & M; }
        }
        break;
    }
    default:
        return ws_xfault(x, (unsigned)__builtin_ctzll(E), "%s: not a comparison", ws_opcode_name(in->op));
    }
    return WS_EXEC_OK;
}
