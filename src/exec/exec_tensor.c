/*
 * mma.sync.aligned: the warp-wide matrix multiply-accumulate D = A * B + C
 * (PTX ISA 9.7.14.5.14), on the fragments exactly as the ISA distributes them
 * over the 32 lanes of a warp (9.7.14.5.7-10). With groupID = %laneid >> 2 and
 * threadID_in_group (t) = %laneid % 4, element i of a lane's fragment is:
 *
 *   form            A (row, col)                              B (row, col)
 *   m16n8k16 f16    (g + 8*((i>>1)&1), 2t + (i&1) + 8*(i>=4))   (2t + (i&1) + 8*(i>=2), g)
 *   m16n8k8  f16    (g + 8*(i>=2),     2t + (i&1))              (2t + i, g)
 *   m16n8k8  tf32   (g + 8*(i&1),      t + 4*(i>=2))            (t + 4*i, g)
 *   m16n8k32 s8/u8  (g + 8*((i>>2)&1), 4t + (i&3) + 16*(i>=8))  (4t + (i&3) + 16*(i>=4), g)
 *   m16n8k16 s8/u8  (g + 8*(i>=4),     4t + (i&3))              (4t + i, g)
 *   m8n8k4   f64    (g, t)                                      (t, g)
 *   m8n8k16  s8/u8  (g, 4t + i)                                 (4t + i, g)
 *   m8n8k32  s4/u4  (g, 8t + i)                                 (8t + i, g)
 *   m16n8k32 and m16n8k16 .e4m3/.e5m2: as the s8/u8 forms of the shape (9.7.14.5.9-10)
 *   C and D: (g + 8*(i>=2), 2t + (i&1)); m8n8k4 f64, m8n8k16, m8n8k32: (g, 2t + i)
 * m8n8k4 .f16 (Volta, 9.7.14.5.1): see mma_quad_pairs below.
 *
 * Elements pack low to high: two halves per .f16x2 register, four bytes per
 * .b32 (s8/u8, e4m3/e5m2), eight nibbles per .b32 (s4/u4), one tf32 per .b32
 * (its low 13 bits ignored, as the ISA states), one f64 per register.
 *
 * Arithmetic: the products of halves, tf32, FP8 and bytes are exact in double /
 * int64; float accumulation is in double from c, rounded once to .f32
 * (round-to-nearest-even) or to .f16 -- the ISA leaves the order and internal
 * precision of the sum unspecified, so this is the model's choice (exact
 * whenever the sums are representable, as in the tests). The integer forms
 * wrap modulo 2^32, or saturate with .satfinite. m8n8k4 .f64 is the chain
 * d = fma(a_k, b_k, ...) from c over k = 0..3, each rounded .rn.
 *
 * The instruction is .aligned: every lane of each 32-lane group of the warp
 * must execute it (the ISA: all threads of the warp execute the same mma);
 * otherwise -- a partial or divergent warp, or warps narrower than 32 -- it
 * faults. All fragments are read before D is written (D may alias A, B or C).
 */
#include <math.h>
#include "exec_internal.h"
#include "warpsweep/half.h"
#include "warpsweep/fp8.h"

typedef struct mma_shape { uint8_t m, n, k, na, nb, nc; } mma_shape;

static const mma_shape shapes[WS_NMMA] = {
    [WS_MMA_M16N8K16_F16] = {16, 8, 16, 8, 4, 4}, [WS_MMA_M16N8K8_F16] = {16, 8, 8, 4, 2, 4},
    [WS_MMA_M16N8K8_TF32] = {16, 8, 8, 4, 2, 4},  [WS_MMA_M16N8K32_I8] = {16, 8, 32, 16, 8, 4},
    [WS_MMA_M16N8K16_I8] = {16, 8, 16, 8, 4, 4},  [WS_MMA_M8N8K4_F64] = {8, 8, 4, 1, 1, 2},
    [WS_MMA_M8N8K16_I8] = {8, 8, 16, 4, 4, 2},    [WS_MMA_M8N8K32_I4] = {8, 8, 32, 8, 8, 2},
    [WS_MMA_M8N8K4_F16] = {8, 8, 4, 4, 4, 8},     [WS_MMA_M16N8K32_F8] = {16, 8, 32, 16, 8, 4},
    [WS_MMA_M16N8K16_F8] = {16, 8, 16, 8, 4, 4},
};

static int form_is_int(unsigned form)
{
    return form == WS_MMA_M16N8K32_I8 || form == WS_MMA_M16N8K16_I8 || form == WS_MMA_M8N8K16_I8 ||
           form == WS_MMA_M8N8K32_I4;
}
/* the FP8 forms share the fragment layout of the 8-bit integer forms of their shape */
static unsigned layout_form(unsigned form)
{
    return form == WS_MMA_M16N8K32_F8 ? WS_MMA_M16N8K32_I8 : form == WS_MMA_M16N8K16_F8 ? WS_MMA_M16N8K16_I8 : form;
}

static void a_pos(unsigned form, unsigned lane, unsigned i, unsigned *r, unsigned *c)
{
    unsigned g = lane >> 2, t = lane & 3;
    switch (layout_form(form)) {
    case WS_MMA_M16N8K16_F16: *r = g + 8 * ((i >> 1) & 1); *c = 2 * t + (i & 1) + 8 * (i >= 4); break;
    case WS_MMA_M16N8K8_F16:  *r = g + 8 * (i >= 2); *c = 2 * t + (i & 1); break;
    case WS_MMA_M16N8K8_TF32: *r = g + 8 * (i & 1); *c = t + 4 * (i >= 2); break;
    case WS_MMA_M16N8K32_I8:  *r = g + 8 * ((i >> 2) & 1); *c = 4 * t + (i & 3) + 16 * (i >= 8); break;
    case WS_MMA_M16N8K16_I8:  *r = g + 8 * (i >= 4); *c = 4 * t + (i & 3); break;
    case WS_MMA_M8N8K16_I8:   *r = g; *c = 4 * t + i; break;
    case WS_MMA_M8N8K32_I4:   *r = g; *c = 8 * t + i; break;
    default:                  *r = g; *c = t; break;   /* m8n8k4 f64 */
    }
}

static void b_pos(unsigned form, unsigned lane, unsigned i, unsigned *r, unsigned *c)
{
    unsigned g = lane >> 2, t = lane & 3;
    *c = g;
    switch (layout_form(form)) {
    case WS_MMA_M16N8K16_F16: *r = 2 * t + (i & 1) + 8 * (i >= 2); break;
    case WS_MMA_M16N8K8_F16:  *r = 2 * t + i; break;
    case WS_MMA_M16N8K8_TF32: *r = t + 4 * i; break;
    case WS_MMA_M16N8K32_I8:  *r = 4 * t + (i & 3) + 16 * (i >= 4); break;
    case WS_MMA_M16N8K16_I8:  *r = 4 * t + i; break;
    case WS_MMA_M8N8K16_I8:   *r = 4 * t + i; break;
    case WS_MMA_M8N8K32_I4:   *r = 8 * t + i; break;
    default:                  *r = t; break;
    }
}

static void c_pos(unsigned form, unsigned lane, unsigned i, unsigned *r, unsigned *c)
{
    unsigned g = lane >> 2, t = lane & 3;
    if (form == WS_MMA_M8N8K4_F64 || form == WS_MMA_M8N8K16_I8 || form == WS_MMA_M8N8K32_I4) { *r = g; *c = 2 * t + i; return; }
    *r = g + 8 * (i >= 2);
    *c = 2 * t + (i & 1);
}

/* element i of a multiplicand fragment: its register and value (float forms) or integer */
static double elem_f(const uint64_t *regs, unsigned ty, int tf32, unsigned i)
{
    if (tf32) return (double)ws_f32(regs[i] & 0xffffe000u);
    if (ty == WS_TY_F64) return ws_f64(regs[i]);
    if (ty == WS_TY_E4M3 || ty == WS_TY_E5M2)
        return ws_fp8_value((uint8_t)(regs[i / 4] >> (8 * (i % 4))), ty == WS_TY_E5M2);
    return ws_half_value(regs[i / 2], ty == WS_TY_BF16 ? WS_TY_BF16 : WS_TY_F16, i % 2, 0);
}
static int64_t elem_i(const uint64_t *regs, unsigned ty, unsigned i)
{
    if (ty == WS_TY_S4 || ty == WS_TY_U4) {
        uint64_t nib = (regs[i / 8] >> (4 * (i % 8))) & 0xf;
        return ty == WS_TY_S4 ? (int64_t)(nib ^ 8) - 8 : (int64_t)nib;
    }
    uint64_t byte = (regs[i / 4] >> (8 * (i % 4))) & 0xff;
    return ty == WS_TY_S8 ? (int64_t)(int8_t)byte : (int64_t)byte;
}

/* a C element of lane l as a double (float forms) */
static double acc_f(const uint64_t *regs, unsigned ty, unsigned i)
{
    if (ty == WS_TY_F16) return ws_half_value(regs[i / 2], WS_TY_F16, i % 2, 0);
    if (ty == WS_TY_F64) return ws_f64(regs[i]);
    return (double)ws_f32(regs[i]);
}

/* one 32-lane group: lanes base .. base + 31 */
static void mma_group(ws_xctx *x, unsigned base)
{
    const ws_inst *in = x->in;
    const unsigned form = in->subop;
    const mma_shape *S = &shapes[form];
    const int is_int = form_is_int(form);
    const int tf32 = form == WS_MMA_M16N8K8_TF32;
    const uint32_t ws = x->ws;
    double A[16][32], B[32][8], C[16][8];
    int64_t Ai[16][32], Bi[32][8], Ci[16][8];
    for (unsigned lane = 0; lane < 32; lane++) {
        uint64_t ra[4], rb[4], rc[4];
        for (unsigned j = 0; j < in->src[0].nvec; j++) ra[j] = ws_reg_lanes(x->w, in->src[0].vec[j], ws)[base + lane];
        for (unsigned j = 0; j < in->src[1].nvec; j++) rb[j] = ws_reg_lanes(x->w, in->src[1].vec[j], ws)[base + lane];
        for (unsigned j = 0; j < in->src[2].nvec; j++) rc[j] = ws_reg_lanes(x->w, in->src[2].vec[j], ws)[base + lane];
        unsigned r, c;
        for (unsigned i = 0; i < S->na; i++) {
            a_pos(form, lane, i, &r, &c);
            if (is_int) Ai[r][c] = elem_i(ra, in->type2, i);
            else A[r][c] = elem_f(ra, in->type2, tf32, i);
        }
        for (unsigned i = 0; i < S->nb; i++) {
            b_pos(form, lane, i, &r, &c);
            if (is_int) Bi[r][c] = elem_i(rb, in->cmp, i);
            else B[r][c] = elem_f(rb, in->cmp, tf32, i);
        }
        for (unsigned i = 0; i < S->nc; i++) {
            c_pos(form, lane, i, &r, &c);
            if (is_int) Ci[r][c] = (int64_t)(int32_t)(uint32_t)rc[i];
            else C[r][c] = acc_f(rc, in->boolop, i);
        }
    }
    /* D, then the destination registers */
    uint64_t out[32][4];
    for (unsigned lane = 0; lane < 32; lane++) {
        memset(out[lane], 0, sizeof out[lane]);
        for (unsigned i = 0; i < S->nc; i++) {
            unsigned r, c;
            c_pos(form, lane, i, &r, &c);
            uint64_t bits;
            if (is_int) {
                int64_t s = Ci[r][c];
                for (unsigned k = 0; k < S->k; k++) s += Ai[r][k] * Bi[k][c];
                if (in->mods & WS_MOD_SAT) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                bits = (uint32_t)s;
            } else if (form == WS_MMA_M8N8K4_F64) {
                double s = C[r][c];
                for (unsigned k = 0; k < S->k; k++) s = fma(A[r][k], B[k][c], s);
                bits = ws_bits64(s);
            } else {
                double s = C[r][c];
                for (unsigned k = 0; k < S->k; k++) s += A[r][k] * B[k][c];
                bits = in->type == WS_TY_F16 ? ws_half_round(s, WS_HALF_F16, WS_RND_RN) : ws_out32((float)s, 0, 0);
            }
            if (in->type == WS_TY_F16) out[lane][i / 2] |= bits << (16 * (i % 2));
            else out[lane][i] = bits;
        }
    }
    for (unsigned j = 0; j < in->dst[0].nvec; j++) {
        uint64_t *d = ws_reg_lanes(x->w, in->dst[0].vec[j], ws) + base;
        for (unsigned lane = 0; lane < 32; lane++) d[lane] = out[lane][j];
    }
}

/*
 * mma.m8n8k4 .f16 (PTX ISA 9.7.14.5.1, "Matrix Fragments for mma.m8n8k4 with .f16 floating
 * point type"): the warp computes four independent 8x8x4 products, one per quad pair --
 * lanes 4p .. 4p+3 with 4p+16 .. 4p+19 (p = 0..3) hold the fragments of product p. With
 * q = %laneid % 4 and h = 1 for %laneid >= 16, element i of a lane's fragment is:
 *   A (8x4, two .f16x2)     .row: (q + 4h, i)      .col: (i + 4h, q)
 *   B (4x8, two .f16x2)     .row: (q, i + 4h)      .col: (i, q + 4h)
 *   C/D .f16 (four .f16x2): (q + 4h, i)
 *   C/D .f32 (eight .f32):  ((q & 1) + (i & 2) + 4h, (i & 4) + (q & 2) + (i & 1))
 * The sum is the one of mma_group: exact products, accumulated in double from c, rounded once.
 */
static void volta_a_pos(unsigned lay, unsigned q, unsigned h, unsigned i, unsigned *r, unsigned *c)
{
    if (lay & WS_MMA_A_COL) { *r = i + 4 * h; *c = q; }
    else { *r = q + 4 * h; *c = i; }
}
static void volta_b_pos(unsigned lay, unsigned q, unsigned h, unsigned i, unsigned *r, unsigned *c)
{
    if (lay & WS_MMA_B_ROW) { *r = q; *c = i + 4 * h; }
    else { *r = i; *c = q + 4 * h; }
}
static void volta_c_pos(unsigned ty, unsigned q, unsigned h, unsigned i, unsigned *r, unsigned *c)
{
    if (ty == WS_TY_F16) { *r = q + 4 * h; *c = i; return; }
    *r = (q & 1) + (i & 2) + 4 * h;
    *c = (i & 4) + (q & 2) + (i & 1);
}

/* the registers of an operand that may be split in two (C: src[2], src[3]; D: dst[0], dst[1]) */
static unsigned frag_regs(const ws_operand *o, unsigned n, uint32_t *reg)
{
    unsigned k = 0;
    for (unsigned j = 0; j < n; j++)
        for (unsigned e = 0; e < o[j].nvec; e++) reg[k++] = o[j].vec[e];
    return k;
}

static void mma_quad_pairs(ws_xctx *x, unsigned base)
{
    const ws_inst *in = x->in;
    const unsigned lay = in->rnd, ct = in->boolop, dt = in->type;
    const uint32_t ws = x->ws;
    uint32_t creg[8], dreg[8];
    const unsigned nc = frag_regs(&in->src[2], in->nsrc - 2u, creg), nd = frag_regs(&in->dst[0], in->ndst, dreg);
    double A[4][8][4], B[4][4][8], C[4][8][8];
    for (unsigned lane = 0; lane < 32; lane++) {
        const unsigned p = (lane >> 2) & 3, q = lane & 3, h = lane >> 4;
        uint64_t ra[2], rb[2], rc[8];
        for (unsigned j = 0; j < 2; j++) ra[j] = ws_reg_lanes(x->w, in->src[0].vec[j], ws)[base + lane];
        for (unsigned j = 0; j < 2; j++) rb[j] = ws_reg_lanes(x->w, in->src[1].vec[j], ws)[base + lane];
        for (unsigned j = 0; j < nc; j++) rc[j] = ws_reg_lanes(x->w, creg[j], ws)[base + lane];
        unsigned r, c;
        for (unsigned i = 0; i < 4; i++) {
            volta_a_pos(lay, q, h, i, &r, &c);
            A[p][r][c] = ws_half_value(ra[i / 2], WS_TY_F16, i % 2, 0);
            volta_b_pos(lay, q, h, i, &r, &c);
            B[p][r][c] = ws_half_value(rb[i / 2], WS_TY_F16, i % 2, 0);
        }
        for (unsigned i = 0; i < 8; i++) {
            volta_c_pos(ct, q, h, i, &r, &c);
            C[p][r][c] = acc_f(rc, ct, i);
        }
    }
    uint64_t out[32][8];
    for (unsigned lane = 0; lane < 32; lane++) {
        const unsigned p = (lane >> 2) & 3, q = lane & 3, h = lane >> 4;
        memset(out[lane], 0, sizeof out[lane]);
        for (unsigned i = 0; i < 8; i++) {
            unsigned r, c;
            volta_c_pos(dt, q, h, i, &r, &c);
            double s = C[p][r][c];
            for (unsigned k = 0; k < 4; k++) s += A[p][r][k] * B[p][k][c];
            if (dt == WS_TY_F16) out[lane][i / 2] |= (uint64_t)ws_half_round(s, WS_HALF_F16, WS_RND_RN) << (16 * (i % 2));
            else out[lane][i] = ws_out32((float)s, 0, 0);
        }
    }
    for (unsigned j = 0; j < nd; j++) {
        uint64_t *d = ws_reg_lanes(x->w, dreg[j], ws) + base;
        for (unsigned lane = 0; lane < 32; lane++) d[lane] = out[lane][j];
    }
}

int ws_exec_mma(ws_xctx *x)
{
    const ws_inst *in = x->in;
    if (in->subop == 0 || in->subop >= WS_NMMA)
        return ws_xfault(x, (unsigned)__builtin_ctzll(x->exec), "mma: unknown form %u", in->subop);
    if (ws_xaligned_width(x, "mma")) return WS_EXEC_FAULT;
    for (unsigned base = 0; base < x->ws; base += 32) {
        const int group = ws_xaligned_group(x, base, "mma");
        if (group < 0) return WS_EXEC_FAULT;
        if (!group) continue;
        if (in->subop == WS_MMA_M8N8K4_F16) mma_quad_pairs(x, base);
        else mma_group(x, base);
    }
    return WS_EXEC_OK;
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a (PTX ISA 9.7.14.5.16 "movmatrix", sm_75): per
 * 32-lane group, a holds an 8x8 matrix of b16 elements in the ldmatrix fragment layout (lane l:
 * row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1, the lower column in the lower half); d receives
 * its transpose in the same layout, so lane l's half h is source element (2 (l % 4) + h, l / 4),
 * held by lane 4 (2 (l % 4) + h) + (l / 4) / 2 in half (l / 4) % 2. Every source register is read
 * before d is written (d may be a). .aligned: every lane of the group executes it. */
int ws_exec_movmatrix(ws_xctx *x)
{
    const ws_inst *in = x->in;
    if (ws_xaligned_width(x, "movmatrix")) return WS_EXEC_FAULT;
    ws_src a = ws_opnd(x, &in->src[0], 0);
    uint64_t *d = ws_dst(x, &in->dst[0]);
    for (unsigned base = 0; base < x->ws; base += 32) {
        const int group = ws_xaligned_group(x, base, "movmatrix");
        if (group < 0) return WS_EXEC_FAULT;
        if (!group) continue;
        uint16_t m[8][8];   /* m[row][col] of the source */
        for (unsigned l = 0; l < 32; l++) {
            uint64_t v = SV(a, base + l);
            m[l >> 2][2 * (l & 3)] = (uint16_t)v;
            m[l >> 2][2 * (l & 3) + 1] = (uint16_t)(v >> 16);
        }
        for (unsigned l = 0; l < 32; l++)
            d[base + l] = (uint64_t)m[2 * (l & 3)][l >> 2] | (uint64_t)m[2 * (l & 3) + 1][l >> 2] << 16;
    }
    return WS_EXEC_OK;
}

/*
 * wmma fragments (PTX ISA 9.7.14.4). The distribution of the elements over a fragment's
 * registers is unspecified, so this is the model's choice: the mma.sync layouts above,
 * extended so that one wmma.mma is exactly one or two mma.sync of the form
 * ws_wmma_geometry names (.f16/.bf16: m16n8k16, .tf32: m16n8k8, .s8/.u8: m16n8k16,
 * .f64: m8n8k4; the loader emits them, src/ptx/parse_inst.c). With na, nb the registers of the
 * mma.sync A and B fragments and nc those of its C fragment (four 32-bit, two .f16x2 or two
 * .f64), wmma register reg holds mma.sync register reg % n of block reg / n:
 * m16n16k16, m16n16k8 (the two mma: columns 0-7 and 8-15 of B, C, D)
 *   A: the mma A fragment (na registers; .f16 repeats it in registers 4-7)
 *   B: block 0 columns 0-7, block 1 columns 8-15 (.f16: registers 4-7 repeat 0-3)
 *   C/D: block 0 columns 0-7, block 1 columns 8-15
 * m32n8k16 (the two mma: rows 0-15 and 16-31 of A, C, D)
 *   A: block 0 rows 0-15, block 1 rows 16-31; B: the mma B fragment (.f16: repeated);
 *   C/D: block 0 rows 0-15, block 1 rows 16-31
 * m8n32k16: the transpose of m32n8k16 (D^T = B^T A^T + C^T): B holds B^T (32x16) as the
 *   m32n8k16 A, A holds A^T (16x8) as the m32n8k16 B, C and D hold their transposes.
 * m8n8k4 .f64: exactly the mma.sync m8n8k4 fragments (one mma).
 * Register reg element e (its place in the register, low first) of lane:
 */
static unsigned elems_per_reg(unsigned ty)
{
    unsigned bits = ws_ty_bits[ty];
    return bits && bits < 32 ? 32 / bits : 1;
}

static void wmma_ab_pos(unsigned shape, unsigned matrix, unsigned ab, unsigned reg, unsigned e, unsigned lane,
                        unsigned *r, unsigned *c)
{
    const ws_wmma_geom g = ws_wmma_geometry(shape, ab);
    const unsigned per = elems_per_reg(ab);
    if (matrix == WS_WMMA_A) {
        a_pos(g.form, lane, (reg % g.mma_a) * per + e, r, c);
        if (shape == WS_WMMA_M32N8K16) *r += 16 * ((reg / g.mma_a) & 1);
        return;
    }
    b_pos(g.form, lane, (reg % g.mma_b) * per + e, r, c);
    if (shape == WS_WMMA_M16N16K16 || shape == WS_WMMA_M16N16K8) *c += 8 * ((reg / g.mma_b) & 1);
}

static void wmma_c_pos(unsigned shape, unsigned ct, unsigned reg, unsigned e, unsigned lane, unsigned *r, unsigned *c)
{
    const unsigned per = elems_per_reg(ct), n = ct == WS_TY_F16 || ct == WS_TY_F64 ? 2 : 4;
    c_pos(shape == WS_WMMA_M8N8K4 ? WS_MMA_M8N8K4_F64 : WS_MMA_M16N8K16_F16, lane, (reg % n) * per + e, r, c);
    if (shape == WS_WMMA_M32N8K16) *r += 16 * (reg / n);
    else if (shape != WS_WMMA_M8N8K4) *c += 8 * (reg / n);
}

void ws_wmma_pos(unsigned shape, unsigned matrix, unsigned ty, unsigned reg, unsigned e, unsigned lane, unsigned *r,
                 unsigned *c)
{
    if (shape == WS_WMMA_M8N32K16) {   /* the transposed m32n8k16 position, A and B exchanging roles */
        unsigned tr, tc, m = matrix == WS_WMMA_A ? WS_WMMA_B : matrix == WS_WMMA_B ? WS_WMMA_A : matrix;
        ws_wmma_pos(WS_WMMA_M32N8K16, m, ty, reg, e, lane, &tr, &tc);
        *r = tc;
        *c = tr;
        return;
    }
    if (matrix == WS_WMMA_C) wmma_c_pos(shape, ty, reg, e, lane, r, c);
    else wmma_ab_pos(shape, matrix, ty, reg, e, lane, r, c);
}
