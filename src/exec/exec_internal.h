#ifndef WS_EXEC_INTERNAL_H
#define WS_EXEC_INTERNAL_H
/*
 * Shared pieces of the instruction semantics (exec*.c).
 *
 * One call of ws_exec_inst builds a ws_xctx, resolves each source operand
 * once into a (pointer, step) view -- step 1 for a register's per-lane
 * column, step 0 for an immediate -- and runs a tight loop over the executed
 * lanes. Nothing here allocates; strings are formatted only on the fault path.
 */
#include <stdint.h>
#include <string.h>
#include "warpsweep/exec.h"

typedef struct ws_xctx {
    ws_exec_env *env;
    ws_warp *w;
    const ws_inst *in;
    ws_effect *eff;
    uint32_t pc;
    uint32_t ws;          /* warp size */
    uint64_t active;
    uint64_t exec;        /* active & guard */
    uint64_t tmp[WS_MAX_SRC][WS_MAX_WARP_SIZE];  /* materialised sregs / negated preds */
    uint64_t sink[WS_MAX_WARP_SIZE];             /* writes to "_" / absent destinations */
} ws_xctx;

/* Sets up x for `in` on the lanes of `active`: x->exec = active & guard;
 * resets eff's scalar fields (eff->executed = x->exec). */
void ws_xctx_init(ws_xctx *x, ws_exec_env *env, ws_warp *w, const ws_inst *in, uint32_t pc, uint64_t active,
                  ws_effect *eff);

/* A source operand: value of lane l is p[l * step]. */
typedef struct ws_src {
    const uint64_t *p;
    uint32_t step;
} ws_src;

static inline uint64_t SV(ws_src s, unsigned l) { return s.p[l * s.step]; }

/* LANE_LOOP(mask) { unsigned l = LANE; ... }: ascending lanes of mask. */
#define LANE_LOOP(mask) for (uint64_t _m = (mask); _m; _m &= _m - 1)
#define LANE ((unsigned)__builtin_ctzll(_m))

/* FOR_EXEC_LANES(BODY): BODY for every lane l of `exec` (a variable in scope),
 * ascending; a full warp or lanes 0..n-1 as a plain loop the compiler
 * vectorises, other masks by LANE_LOOP. FAST_IVDEP tells the compiler the
 * lanes do not depend on each other through memory: BODY must not write what
 * another lane's BODY reads (a reduction into scalars is fine). */
#if defined(__clang__)
#define FAST_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define FAST_IVDEP _Pragma("GCC ivdep")
#else
#define FAST_IVDEP
#endif
#define FOR_EXEC_LANES(BODY)                                                         \
    do {                                                                             \
        if (exec == 0xffffffffull) {   /* a full 32-lane warp: a constant trip count */ \
            FAST_IVDEP for (unsigned l = 0; l < 32; l++) { BODY; }                    \
        } else if ((exec & (exec + 1)) == 0) {   /* lanes 0..n-1 */                 \
            unsigned n_ = exec == ~0ull ? 64u : (unsigned)__builtin_ctzll(~exec);   \
            FAST_IVDEP for (unsigned l = 0; l < n_; l++) { BODY; }                    \
        } else {                                                                     \
            LANE_LOOP(exec) { unsigned l = LANE; BODY; }                             \
        }                                                                            \
    } while (0)

/* ---- type facts (own table: no call per lane) ---- */
extern const uint8_t ws_ty_bits[WS_TY_COUNT];
extern const uint8_t ws_ty_signed[WS_TY_COUNT];
extern const uint8_t ws_ty_float[WS_TY_COUNT];

static inline uint64_t ws_mask_bits(unsigned bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }
static inline uint64_t ws_ty_mask(unsigned t) { return ws_mask_bits(ws_ty_bits[t]); }
static inline int64_t ws_sext(uint64_t v, unsigned bits)
{
    if (bits >= 64) return (int64_t)v;
    unsigned sh = 64 - bits;
    return (int64_t)(v << sh) >> sh;
}
/* The value of raw bits v as the 64-bit integer of type t (sign- or zero-extended). */
static inline uint64_t ws_ext(uint64_t v, unsigned t)
{
    unsigned b = ws_ty_bits[t];
    return ws_ty_signed[t] ? (uint64_t)ws_sext(v, b) : (v & ws_mask_bits(b));
}

static inline float ws_f32(uint64_t v) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); return f; }
static inline double ws_f64(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t ws_bits32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t ws_bits64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* ---- operands ---- */
ws_src ws_opnd(ws_xctx *x, const ws_operand *o, unsigned slot);
/* Per-lane column of a destination register (the sink for "_"/absent). */
static inline uint64_t *ws_dst(ws_xctx *x, const ws_operand *o)
{
    if (o->kind != WS_OK_REG || o->reg == WS_NO_REG) return x->sink;
    return ws_reg_lanes(x->w, o->reg, x->ws);
}
/* Bits of the declared register size of reg (0 if unknown: no widening). */
unsigned ws_reg_bits(const ws_xctx *x, uint32_t reg);

/* Formats env->fault as "lane L (thread tid=(..) cta=(..)): pc P (PTX line N): what"
 * and returns WS_EXEC_FAULT. */
int ws_xfault(ws_xctx *x, unsigned lane, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The .aligned rule (mma, ldmatrix, stmatrix, wmma parts: every lane of each
 * 32-lane group executes the instruction together). ws_xaligned_width faults
 * (WS_EXEC_FAULT) on warps narrower than 32 lanes, else 0; ws_xaligned_group
 * returns 0 when no lane of the group at base executes, 1 when every lane does,
 * and faults naming the lanes of a partial group (-1). what: "mma", ... */
int ws_xaligned_width(ws_xctx *x, const char *what);
int ws_xaligned_group(ws_xctx *x, unsigned base, const char *what);

/* ---- float helpers ---- */
#include <fenv.h>
/* Directed rounding: sets the host rounding mode for .rz/.rm/.rp (and the
 * integer-rounding .rzi/.rmi/.rpi, used by cvt.f.f) around a lane loop.
 * fenv is per thread, so this is safe under OpenMP. Returns the mode to
 * restore, or -1 when nothing changed (round-to-nearest). */
static inline int ws_rnd_enter(unsigned rnd)
{
    int m;
    switch (rnd) {
    case WS_RND_RZ: case WS_RND_RZI: m = FE_TOWARDZERO; break;
    case WS_RND_RM: case WS_RND_RMI: m = FE_DOWNWARD; break;
    case WS_RND_RP: case WS_RND_RPI: m = FE_UPWARD; break;
    default: return -1;
    }
    int old = fegetround();
    if (old == m) return -1;
    fesetround(m);
    return old;
}
static inline void ws_rnd_leave(int old) { if (old >= 0) fesetround(old); }

/* f32 input with optional flush-to-zero of subnormals (sign preserved). */
static inline float ws_in32(uint64_t v, int ftz)
{
    uint32_t u = (uint32_t)v;
    if (ftz && (u & 0x7f800000u) == 0) u &= 0x80000000u;
    float f; memcpy(&f, &u, 4); return f;
}
static inline double ws_in64(uint64_t v, int ftz)
{
    if (ftz && (v & 0x7ff0000000000000ull) == 0) v &= 0x8000000000000000ull;
    double f; memcpy(&f, &v, 8); return f;
}
/* f32 result: .sat clamps to [0, 1] (NaN -> +0), .ftz flushes subnormals,
 * NaN becomes the canonical 0x7fffffff. */
static inline uint64_t ws_out32(float r, int ftz, int sat)
{
    if (sat) { if (!(r > 0.0f)) r = 0.0f; else if (r > 1.0f) r = 1.0f; }
    uint32_t u; memcpy(&u, &r, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fffffffu;
    if (ftz && (u & 0x7f800000u) == 0) u &= 0x80000000u;
    return u;
}
static inline uint64_t ws_out64(double r, int ftz, int sat)
{
    if (sat) { if (!(r > 0.0)) r = 0.0; else if (r > 1.0) r = 1.0; }
    uint64_t u; memcpy(&u, &r, 8);
    if ((u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) return 0x7fffffffffffffffull;
    if (ftz && (u & 0x7ff0000000000000ull) == 0) u &= 0x8000000000000000ull;
    return u;
}

/* ---- half precision (exec_half.c) ---- */
static inline int ws_ty_half(unsigned t)
{
    return t == WS_TY_F16 || t == WS_TY_BF16 || t == WS_TY_F16X2 || t == WS_TY_BF16X2;
}
static inline int ws_ty_pair(unsigned t) { return t == WS_TY_F16X2 || t == WS_TY_BF16X2; }
uint64_t ws_half_atom_add(uint64_t old, uint64_t v, unsigned t);
double ws_half_value(uint64_t v, unsigned t, unsigned e, int ftz);

/* ---- families ---- */
/* Runs the fast-path handler in->fast (nonzero, exec_fast.c) on the lanes of exec (nonzero). */
void ws_exec_fast(ws_warp *w, const ws_inst *in, uint64_t exec, unsigned ws, ws_effect *eff);
int ws_exec_int(ws_xctx *x);     /* integer, logic, mov */
int ws_exec_float(ws_xctx *x);   /* float arithmetic, testp, copysign */
int ws_exec_half(ws_xctx *x);    /* f16/bf16/f16x2/bf16x2 arithmetic */
int ws_exec_mma(ws_xctx *x);     /* mma.sync.aligned (exec_tensor.c) */
int ws_exec_movmatrix(ws_xctx *x);   /* movmatrix.sync.aligned.m8n8.trans.b16 (exec_tensor.c) */
int ws_exec_cmp(ws_xctx *x);     /* setp, set, selp, slct */
int ws_exec_cvt(ws_xctx *x);     /* cvt */
int ws_exec_cvt_fp8(ws_xctx *x); /* cvt to and from .e4m3x2/.e5m2x2 (exec_fp8.c) */
int ws_exec_mem(ws_xctx *x);     /* ld, ldu, st, atom, red, cvta */
int ws_exec_warp(ws_xctx *x);    /* shfl, vote, match, activemask */
int ws_exec_tex(ws_xctx *x);     /* tex, tld4, txq, suld, sust (exec_tex.c) */
int ws_exec_simd(ws_xctx *x);    /* dp4a dp2a fns bmsk szext lop3 cvt.pack, SIMD video */

#endif
