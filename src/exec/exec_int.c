/*
 * Integer and logic instructions: mov add sub addc subc mul mad madc mul24
 * mad24 sad div rem abs neg min max and or xor not cnot shl shr shf prmt popc
 * clz brev bfe bfi bfind (.shiftamt), with wrap-around at the declared width, .hi/.lo/.wide,
 * .sat (s32) and the carry chain (.cc, addc/subc/madc) in ws_warp.cc.
 * CC.CF is the carry-out of the adder in every instruction: add.cc/addc/madc of a + b (+ CF),
 * sub.cc of a + ~b + 1 and subc of a + ~b + CF, so after a subtraction CF = 1 means no
 * borrow and subc's borrow-in is !CF. Chains of sub.cc/subc give the PTX ISA's
 * d = a - (b + borrow); mixed chains (addc after sub.cc) give what the hardware gives
 * (docs/model.md, "The carry flag").
 * Semantics follow NVIDIA's PTX ISA.
 */
#include "exec_internal.h"

static inline int64_t sat_signed(__int128 v, unsigned bits)
{
    int64_t hi = (int64_t)(ws_mask_bits(bits - 1));
    int64_t lo = -hi - 1;
    if (v > hi) return hi;
    if (v < lo) return lo;
    return (int64_t)v;
}

static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, unsigned mode)
{
    uint64_t src = ((uint64_t)b << 32) | a;
    unsigned sel[4];
    int sign_ok = 0;
    unsigned s = c & 3;
    switch (mode) {
    case WS_PRMT_F4E: sel[0] = s; sel[1] = s + 1; sel[2] = s + 2; sel[3] = s + 3; break;
    case WS_PRMT_B4E: /* s=0: d.b3..d.b0 = 5 6 7 0 */
        for (unsigned i = 0; i < 4; i++) sel[i] = (s - i) & 7;
        break;
    case WS_PRMT_RC8: sel[0] = sel[1] = sel[2] = sel[3] = s; break;
    case WS_PRMT_ECL: sel[0] = s; sel[1] = s > 1 ? s : 1; sel[2] = s > 2 ? s : 2; sel[3] = 3; break;
    case WS_PRMT_ECR: sel[0] = 0; sel[1] = s < 1 ? s : 1; sel[2] = s < 2 ? s : 2; sel[3] = s; break;
    case WS_PRMT_RC16: sel[0] = (s & 1) * 2; sel[1] = (s & 1) * 2 + 1; sel[2] = sel[0]; sel[3] = sel[1]; break;
    default:
        for (int i = 0; i < 4; i++) sel[i] = (c >> (4 * i)) & 0xf;
        sign_ok = 1;
        break;
    }
    uint32_t d = 0;
    for (int i = 0; i < 4; i++) {
        unsigned q = sel[i];
        uint32_t byte = (uint32_t)(src >> (8 * (q & 7))) & 0xff;
        if (sign_ok && (q & 8)) byte = (byte & 0x80) ? 0xff : 0;
        d |= byte << (8 * i);
    }
    return d;
}

static inline uint64_t brev64(uint64_t v)
{
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
    return __builtin_bswap64(v);
}

/* mov.v2/.v4 {d...}, {a...}: element-wise (PTX ISA 6.4.2.2 vector operands); all sources
 * are read before any destination is written, so {a, b} <- {b, a} swaps. */
static int exec_mov_elements(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const uint64_t M = ws_mask_bits(ws_ty_bits[in->type]);
    uint32_t ws = x->ws;
    unsigned n = in->vec;
    uint64_t tmp[4][WS_MAX_WARP_SIZE];
    for (unsigned i = 0; i < n; i++) {
        uint32_t r = in->src[0].vec[i];
        LANE_LOOP(x->exec) { unsigned l = LANE; tmp[i][l] = r == WS_NO_REG ? 0 : ws_reg_lanes(x->w, r, ws)[l] & M; }
    }
    for (unsigned i = 0; i < n; i++) {
        uint32_t r = in->dst[0].vec[i];
        if (r == WS_NO_REG) continue;
        LANE_LOOP(x->exec) { unsigned l = LANE; ws_reg_lanes(x->w, r, ws)[l] = tmp[i][l]; }
    }
    return WS_EXEC_OK;
}

/* Pack (dst VEC) / unpack (src VEC) for mov. */
static int exec_mov_vec(ws_xctx *x)
{
    const ws_inst *in = x->in;
    unsigned bits = ws_ty_bits[in->type];
    uint32_t ws = x->ws;
    if (in->vec > 1) return exec_mov_elements(x);
    if (in->src[0].kind == WS_OK_VEC) {
        unsigned n = in->src[0].nvec ? in->src[0].nvec : 1, eb = bits / n;
        uint64_t em = ws_mask_bits(eb);
        uint64_t *d = ws_dst(x, &in->dst[0]);
        LANE_LOOP(x->exec) {
            unsigned l = LANE;
            uint64_t v = (uint64_t)in->src[0].imm;   /* integer elements (parse_operand.c) */
            for (unsigned i = 0; i < n; i++) {
                uint32_t r = in->src[0].vec[i];
                if (r != WS_NO_REG) v |= (ws_reg_lanes(x->w, r, ws)[l] & em) << (i * eb);
            }
            d[l] = v & ws_mask_bits(bits);
        }
    } else {
        unsigned n = in->dst[0].nvec ? in->dst[0].nvec : 1, eb = bits / n;
        uint64_t em = ws_mask_bits(eb);
        ws_src a = ws_opnd(x, &in->src[0], 0);
        uint64_t tmp[WS_MAX_WARP_SIZE];
        LANE_LOOP(x->exec) { unsigned l = LANE; tmp[l] = SV(a, l); }
        for (unsigned i = 0; i < n; i++) {
            uint32_t r = in->dst[0].vec[i];
            if (r == WS_NO_REG) continue;
            uint64_t *d = ws_reg_lanes(x->w, r, ws);
            LANE_LOOP(x->exec) { unsigned l = LANE; d[l] = (tmp[l] >> (i * eb)) & em; }
        }
    }
    return WS_EXEC_OK;
}

int ws_exec_int(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const unsigned t = in->type;
    const unsigned bits = ws_ty_bits[t];
    const uint64_t M = ws_mask_bits(bits);
    const int sg = ws_ty_signed[t];
    const uint64_t E = x->exec;
    const uint32_t mods = in->mods;
    uint8_t *cc = x->w->cc;

    if (in->op == WS_OP_MOV && (in->src[0].kind == WS_OK_VEC || in->dst[0].kind == WS_OK_VEC))
        return exec_mov_vec(x);

    ws_src a = ws_opnd(x, &in->src[0], 0);
    ws_src b = ws_opnd(x, &in->src[1], 1);
    ws_src c = ws_opnd(x, &in->src[2], 2);
    uint64_t *d = ws_dst(x, &in->dst[0]);

    switch (in->op) {
    case WS_OP_MOV:
        LANE_LOOP(E) { unsigned l = LANE; d[l] = SV(a, l) & M; }
        break;

    case WS_OP_ADD:
    case WS_OP_SUB: {
        int sub = in->op == WS_OP_SUB;
        if (mods & WS_MOD_SAT) {
            LANE_LOOP(E) {
                unsigned l = LANE;
                __int128 va = ws_sext(SV(a, l), bits), vb = ws_sext(SV(b, l), bits);
                d[l] = (uint64_t)sat_signed(sub ? va - vb : va + vb, bits) & M;
            }
        } else if (mods & WS_MOD_CC) {
            LANE_LOOP(E) {
                unsigned l = LANE;
                uint64_t va = SV(a, l) & M, vb = SV(b, l) & M, r = sub ? va - vb : va + vb;
                cc[l] = sub ? (va >= vb) : ((r & M) < va);   /* sub: carry of a + ~b + 1 */
                d[l] = r & M;
            }
        } else if (sub) {
            LANE_LOOP(E) { unsigned l = LANE; d[l] = (SV(a, l) - SV(b, l)) & M; }
        } else {
            LANE_LOOP(E) { unsigned l = LANE; d[l] = (SV(a, l) + SV(b, l)) & M; }
        }
        break;
    }

    case WS_OP_ADDC:
    case WS_OP_SUBC: {
        int sub = in->op == WS_OP_SUBC, wcc = (mods & WS_MOD_CC) != 0;
        LANE_LOOP(E) {
            unsigned l = LANE;
            unsigned __int128 va = SV(a, l) & M, vb = SV(b, l) & M, cin = cc[l] & 1;
            unsigned __int128 r;
            uint8_t cout;
            if (sub) { r = va + (~vb & M) + cin; cout = (r >> bits) & 1; }   /* a - b - !CF */
            else { r = va + vb + cin; cout = (r >> bits) & 1; }
            d[l] = (uint64_t)r & M;
            if (wcc) cc[l] = cout;
        }
        break;
    }

    case WS_OP_MUL:
    case WS_OP_MAD:
    case WS_OP_MADC: {
        int mad = in->op != WS_OP_MUL;
        int madc = in->op == WS_OP_MADC;
        int wide = (mods & WS_MOD_WIDE) != 0, hi = (mods & WS_MOD_HI) != 0;
        int sat = (mods & WS_MOD_SAT) != 0, wcc = (mods & WS_MOD_CC) != 0;
        unsigned W = wide ? bits * 2 : bits;
        uint64_t WM = ws_mask_bits(W);
        LANE_LOOP(E) {
            unsigned l = LANE;
            uint64_t ra = SV(a, l), rb = SV(b, l);
            __int128 p;
            if (sg) p = (__int128)ws_sext(ra, bits) * (__int128)ws_sext(rb, bits);
            else p = (__int128)((unsigned __int128)(ra & M) * (unsigned __int128)(rb & M));
            uint64_t part;
            __int128 spart;     /* signed value of the part, for .sat */
            if (wide) { part = (uint64_t)p & WM; spart = p; }
            else if (hi) { spart = p >> bits; part = (uint64_t)spart & M; }
            else { part = (uint64_t)p & M; spart = ws_sext(part, bits); }
            if (!mad) { d[l] = part; continue; }
            uint64_t rc = SV(c, l);
            if (sat && sg) {
                d[l] = (uint64_t)sat_signed(spart + ws_sext(rc, W), W) & WM;
                continue;
            }
            unsigned __int128 r = (unsigned __int128)part + (rc & WM) + (madc ? (cc[l] & 1) : 0);
            if (wcc) cc[l] = (uint8_t)((r >> W) & 1);
            d[l] = (uint64_t)r & WM;
        }
        break;
    }

    case WS_OP_MUL24:
    case WS_OP_MAD24: {
        int hi = (mods & WS_MOD_HI) != 0, mad = in->op == WS_OP_MAD24, sat = (mods & WS_MOD_SAT) != 0;
        LANE_LOOP(E) {
            unsigned l = LANE;
            int64_t va = sg ? ws_sext(SV(a, l), 24) : (int64_t)(SV(a, l) & 0xffffff);
            int64_t vb = sg ? ws_sext(SV(b, l), 24) : (int64_t)(SV(b, l) & 0xffffff);
            int64_t p = va * vb;                   /* 48-bit product */
            int64_t part = hi ? (p >> 16) : p;
            uint64_t r;
            if (!mad) r = (uint64_t)part;
            else if (sat && sg) r = (uint64_t)sat_signed((__int128)ws_sext((uint64_t)part, 32) + ws_sext(SV(c, l), 32), 32);
            else r = (uint64_t)part + SV(c, l);
            d[l] = r & M;
        }
        break;
    }

    case WS_OP_SAD:
        LANE_LOOP(E) {
            unsigned l = LANE;
            uint64_t va = SV(a, l), vb = SV(b, l), diff;
            if (sg) { int64_t x1 = ws_sext(va, bits), x2 = ws_sext(vb, bits); diff = x1 > x2 ? (uint64_t)x1 - (uint64_t)x2 : (uint64_t)x2 - (uint64_t)x1; }
            else { va &= M; vb &= M; diff = va > vb ? va - vb : vb - va; }
            d[l] = (SV(c, l) + diff) & M;
        }
        break;

    case WS_OP_DIV:
    case WS_OP_REM: {
        int rem = in->op == WS_OP_REM;
        LANE_LOOP(E) {
            unsigned l = LANE;
            uint64_t r;
            if (sg) {
                int64_t va = ws_sext(SV(a, l), bits), vb = ws_sext(SV(b, l), bits);
                if (vb == 0) r = rem ? (uint64_t)va : ~0ull;
                else if (vb == -1) r = rem ? 0 : 0 - (uint64_t)va;   /* MIN / -1 wraps to MIN */
                else r = rem ? (uint64_t)(va % vb) : (uint64_t)(va / vb);
            } else {
                uint64_t va = SV(a, l) & M, vb = SV(b, l) & M;
                if (vb == 0) r = rem ? va : ~0ull;
                else r = rem ? va % vb : va / vb;
            }
            d[l] = r & M;
        }
        break;
    }

    case WS_OP_ABS:
        LANE_LOOP(E) {
            unsigned l = LANE;
            int64_t v = ws_sext(SV(a, l), bits);
            d[l] = (sg && v < 0 ? 0 - (uint64_t)v : (uint64_t)v) & M;
        }
        break;
    case WS_OP_NEG:
        LANE_LOOP(E) { unsigned l = LANE; d[l] = (0 - SV(a, l)) & M; }
        break;
    case WS_OP_MIN:
    case WS_OP_MAX: {
        int mx = in->op == WS_OP_MAX;
        LANE_LOOP(E) {
            unsigned l = LANE;
            uint64_t va = SV(a, l), vb = SV(b, l);
            int lt = sg ? ws_sext(va, bits) < ws_sext(vb, bits) : (va & M) < (vb & M);
            d[l] = (mx ? (lt ? vb : va) : (lt ? va : vb)) & M;
        }
        break;
    }

    case WS_OP_AND: LANE_LOOP(E) { unsigned l = LANE; d[l] = SV(a, l) & SV(b, l) & M; } break;
    case WS_OP_OR:  LANE_LOOP(E) { unsigned l = LANE; d[l] = (SV(a, l) | SV(b, l)) & M; } break;
    case WS_OP_XOR: LANE_LOOP(E) { unsigned l = LANE; d[l] = (SV(a, l) ^ SV(b, l)) & M; } break;
    case WS_OP_NOT: LANE_LOOP(E) { unsigned l = LANE; d[l] = ~SV(a, l) & M; } break;
    case WS_OP_CNOT: LANE_LOOP(E) { unsigned l = LANE; d[l] = (SV(a, l) & M) == 0; } break;

    case WS_OP_SHL:
        LANE_LOOP(E) {
            unsigned l = LANE;
            uint32_t n = (uint32_t)SV(b, l);
            d[l] = n >= bits ? 0 : (SV(a, l) << n) & M;
        }
        break;
    case WS_OP_SHR:
        if (sg) {
            LANE_LOOP(E) {
                unsigned l = LANE;
                uint32_t n = (uint32_t)SV(b, l);
                if (n >= bits) n = bits - 1;
                d[l] = (uint64_t)(ws_sext(SV(a, l), bits) >> n) & M;
            }
        } else {
            LANE_LOOP(E) {
                unsigned l = LANE;
                uint32_t n = (uint32_t)SV(b, l);
                d[l] = n >= bits ? 0 : (SV(a, l) & M) >> n;
            }
        }
        break;
    case WS_OP_SHF: {
        unsigned mode = in->subop;
        int clamp = mode == WS_SHF_L_CLAMP || mode == WS_SHF_R_CLAMP;
        int left = mode == WS_SHF_L_WRAP || mode == WS_SHF_L_CLAMP;
        LANE_LOOP(E) {
            unsigned l = LANE;
            uint64_t va = SV(a, l) & 0xffffffffu, vb = SV(b, l) & 0xffffffffu;
            uint32_t n = (uint32_t)SV(c, l);
            n = clamp ? (n > 32 ? 32 : n) : (n & 31);
            uint64_t r = left ? (vb << n) | (va >> (32 - n)) : (vb << (32 - n)) | (va >> n);
            d[l] = r & 0xffffffffu;
        }
        break;
    }
    case WS_OP_PRMT:
        LANE_LOOP(E) {
            unsigned l = LANE;
            d[l] = prmt((uint32_t)SV(a, l), (uint32_t)SV(b, l), (uint32_t)SV(c, l), in->subop);
        }
        break;
    case WS_OP_POPC:
        LANE_LOOP(E) { unsigned l = LANE; d[l] = (uint64_t)__builtin_popcountll(SV(a, l) & M); }
        break;
    case WS_OP_CLZ:
        LANE_LOOP(E) {
            unsigned l = LANE;
            uint64_t v = SV(a, l) & M;
            d[l] = v ? (uint64_t)(__builtin_clzll(v) - (64 - (int)bits)) : bits;
        }
        break;
    case WS_OP_BREV:
        LANE_LOOP(E) { unsigned l = LANE; d[l] = brev64(SV(a, l)) >> (64 - bits); }
        break;
    case WS_OP_BFIND:   /* most significant 1 (signed: most significant non-sign) bit; none: 0xffffffff */
        LANE_LOOP(E) {
            unsigned l = LANE;
            uint64_t v = SV(a, l) & M;
            if (sg && (v >> (bits - 1)))
                v = ~v & M;
            unsigned pos = v ? 63u - (unsigned)__builtin_clzll(v) : 0;
            d[l] = !v ? 0xffffffffu : in->subop == WS_BFIND_SHIFTAMT ? bits - 1 - pos : pos;
        }
        break;
    case WS_OP_BFE:
        LANE_LOOP(E) {
            unsigned l = LANE;
            uint64_t va = SV(a, l) & M;
            unsigned pos = (unsigned)(SV(b, l) & 0xff), len = (unsigned)(SV(c, l) & 0xff);
            unsigned msb = bits - 1;
            unsigned n = pos > msb ? 0 : (len < bits - pos ? len : bits - pos);
            uint64_t field = n ? (va >> pos) & ws_mask_bits(n) : 0;
            unsigned sbit = 0;
            if (sg && len) {
                unsigned sb = pos + len - 1;
                if (sb > msb) sb = msb;
                sbit = (unsigned)((va >> sb) & 1);
            }
            d[l] = sbit ? (field | (M & ~ws_mask_bits(n))) : field;
        }
        break;
    case WS_OP_BFI: {
        ws_src e = ws_opnd(x, &in->src[3], 3);
        LANE_LOOP(E) {
            unsigned l = LANE;
            uint64_t va = SV(a, l), vb = SV(b, l) & M;
            unsigned pos = (unsigned)(SV(c, l) & 0xff), len = (unsigned)(SV(e, l) & 0xff);
            unsigned n = pos >= bits ? 0 : (len < bits - pos ? len : bits - pos);
            uint64_t m = n ? ws_mask_bits(n) << pos : 0;
            d[l] = ((vb & ~m) | ((va << (pos & 63)) & m)) & M;
        }
        break;
    }
    default:
        return ws_xfault(x, (unsigned)__builtin_ctzll(E), "%s: not an integer instruction", ws_opcode_name(in->op));
    }
    return WS_EXEC_OK;
}
