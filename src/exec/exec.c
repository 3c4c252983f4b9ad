/*
 * Instruction semantics: the dispatcher, operands, special registers,
 * control flow and synchronisation. The families live in exec_int.c,
 * exec_float.c, exec_cvt.c, exec_mem.c and exec_warp.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "exec_internal.h"

const uint8_t ws_ty_bits[WS_TY_COUNT] = {
    [WS_TY_NONE] = 64, [WS_TY_PRED] = 1,
    [WS_TY_B8] = 8, [WS_TY_B16] = 16, [WS_TY_B32] = 32, [WS_TY_B64] = 64,
    [WS_TY_U8] = 8, [WS_TY_U16] = 16, [WS_TY_U32] = 32, [WS_TY_U64] = 64,
    [WS_TY_S8] = 8, [WS_TY_S16] = 16, [WS_TY_S32] = 32, [WS_TY_S64] = 64,
    [WS_TY_F16] = 16, [WS_TY_F32] = 32, [WS_TY_F64] = 64,
    [WS_TY_BF16] = 16, [WS_TY_F16X2] = 32, [WS_TY_BF16X2] = 32,
    [WS_TY_E4M3] = 8, [WS_TY_E5M2] = 8, [WS_TY_E4M3X2] = 16, [WS_TY_E5M2X2] = 16, [WS_TY_S4] = 4, [WS_TY_U4] = 4,
};
const uint8_t ws_ty_signed[WS_TY_COUNT] = {
    [WS_TY_S8] = 1, [WS_TY_S16] = 1, [WS_TY_S32] = 1, [WS_TY_S64] = 1,
};
const uint8_t ws_ty_float[WS_TY_COUNT] = {
    [WS_TY_F16] = 1, [WS_TY_F32] = 1, [WS_TY_F64] = 1,
    [WS_TY_BF16] = 1, [WS_TY_F16X2] = 1, [WS_TY_BF16X2] = 1,
};

static const uint64_t ws_zero_col[1] = { 0 };

unsigned ws_reg_bits(const ws_xctx *x, uint32_t reg)
{
    const ws_kernel *k = x->env->launch ? x->env->launch->kernel : NULL;
    if (!k || !k->reg_types || reg >= k->nregs) return 0;
    unsigned t = k->reg_types[reg];
    if (t == WS_TY_NONE || t >= WS_TY_COUNT) return 0;
    return ws_ty_bits[t];
}

static uint64_t sreg_value(const ws_xctx *x, unsigned s, unsigned l)
{
    const ws_warp *w = x->w;
    const ws_launch *L = x->env->launch;
    unsigned lane = l & 31;
    switch (s) {
    case WS_SR_TID_X: return w->tid[0][l];
    case WS_SR_TID_Y: return w->tid[1][l];
    case WS_SR_TID_Z: return w->tid[2][l];
    case WS_SR_NTID_X: return L->block[0];
    case WS_SR_NTID_Y: return L->block[1];
    case WS_SR_NTID_Z: return L->block[2];
    case WS_SR_CTAID_X: return w->cta->ctaid[0];
    case WS_SR_CTAID_Y: return w->cta->ctaid[1];
    case WS_SR_CTAID_Z: return w->cta->ctaid[2];
    case WS_SR_NCTAID_X: return L->grid[0];
    case WS_SR_NCTAID_Y: return L->grid[1];
    case WS_SR_NCTAID_Z: return L->grid[2];
    case WS_SR_LANEID: return lane;
    case WS_SR_WARPID: return w->hw_warp;
    case WS_SR_NWARPID: return x->env->nwarps_hw;
    case WS_SR_SMID: return w->smid;
    case WS_SR_NSMID: return x->env->nsm;
    case WS_SR_GRIDID: return 0;
    case WS_SR_CLOCK: return (uint32_t)x->env->clock;
    case WS_SR_CLOCK64: return x->env->clock;
    /* %globaltimer counts nanoseconds (PTX ISA 10.21); the model has no wall clock: one per
     * cycle, which only the backoff loops of cuda::barrier read */
    case WS_SR_GLOBALTIMER: return x->env->clock;
    case WS_SR_GLOBALTIMER_LO: return (uint32_t)x->env->clock;
    case WS_SR_GLOBALTIMER_HI: return (uint32_t)(x->env->clock >> 32);
    case WS_SR_LANEMASK_EQ: return 1ull << lane;
    case WS_SR_LANEMASK_LT: return (1ull << lane) - 1;
    case WS_SR_LANEMASK_LE: return (2ull << lane) - 1;
    case WS_SR_LANEMASK_GT: return 0xffffffffull & ~((2ull << lane) - 1);
    case WS_SR_LANEMASK_GE: return 0xffffffffull & ~((1ull << lane) - 1);
    case WS_SR_WARP_SZ:   /* the lane group %laneid, shfl and vote address (see exec.h) */
        return L->warp_size < 32 ? L->warp_size : 32;
    default: return 0;
    }
}

ws_src ws_opnd(ws_xctx *x, const ws_operand *o, unsigned slot)
{
    ws_src s;
    switch (o->kind) {
    case WS_OK_REG:
        if (o->reg == WS_NO_REG) { s.p = ws_zero_col; s.step = 0; return s; }
        s.p = ws_reg_lanes(x->w, o->reg, x->ws);
        s.step = 1;
        if (o->neg) {
            uint64_t *t = x->tmp[slot];
            for (unsigned l = 0; l < x->ws; l++) t[l] = s.p[l] == 0;
            s.p = t;
        }
        return s;
    case WS_OK_IMM:
        s.p = (const uint64_t *)&o->imm;
        s.step = 0;
        return s;
    case WS_OK_SREG: {
        uint64_t *t = x->tmp[slot];
        LANE_LOOP(x->exec) { unsigned l = LANE; t[l] = sreg_value(x, o->sreg, l); }
        s.p = t; s.step = 1;
        return s;
    }
    default:
        s.p = ws_zero_col; s.step = 0;
        return s;
    }
}

int ws_xfault(ws_xctx *x, unsigned lane, const char *fmt, ...)
{
    char what[WS_ERROR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const ws_warp *w = x->w;
    unsigned c0 = w->cta ? w->cta->ctaid[0] : 0, c1 = w->cta ? w->cta->ctaid[1] : 0,
             c2 = w->cta ? w->cta->ctaid[2] : 0;
    snprintf(x->env->fault, sizeof x->env->fault,
             "lane %u (thread tid=(%u,%u,%u) cta=(%u,%u,%u)): pc %u (PTX line %u): %.300s",
             lane, w->tid[0][lane], w->tid[1][lane], w->tid[2][lane], c0, c1, c2,
             x->pc, x->in->line, what);
    return WS_EXEC_FAULT;
}

int ws_xaligned_width(ws_xctx *x, const char *what)
{
    if (x->ws >= 32) return 0;
    return ws_xfault(x, 0, "%s.sync.aligned needs 32-lane warps (warp_size is %u)", what, x->ws);
}

int ws_xaligned_group(ws_xctx *x, unsigned base, const char *what)
{
    uint32_t g = (uint32_t)(x->exec >> base);
    if (!g) return 0;
    if (g == 0xffffffffu) return 1;
    ws_xfault(x, base + (unsigned)__builtin_ctzll(~(uint64_t)g & 0xffffffffull),
              "%s.sync.aligned executed by a partial warp (lanes 0x%08x of the 32-lane group at lane %u): "
              "every lane must execute it", what, g, base);
    return -1;
}

static int exec_brx(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const ws_kernel *k = x->env->launch->kernel;
    ws_src idx = ws_opnd(x, &in->src[0], 0);
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        uint32_t i = (uint32_t)SV(idx, l);
        if (i >= in->ntargets || (uint64_t)in->target + i >= k->nbrx_targets)
            return ws_xfault(x, l, "brx.idx index %u out of range (%u targets)", i, in->ntargets);
        x->eff->lane_target[l] = k->brx_targets[in->target + i];
    }
    x->eff->taken = x->exec;
    return WS_EXEC_OK;
}

/* Bit l set when g[l] != 0, for the lanes 0..n-1. */
#ifdef __SSE2__
#include <emmintrin.h>
static inline uint64_t nonzero_lanes(const uint64_t *g, unsigned n)
{
    const __m128i zero = _mm_setzero_si128();
    uint64_t set = 0;
    unsigned l = 0;
    for (; l + 4 <= n; l += 4) {   /* four lanes: OR each high half into its low half, compare the lows */
        __m128i a = _mm_loadu_si128((const __m128i *)(g + l));
        __m128i b = _mm_loadu_si128((const __m128i *)(g + l + 2));
        a = _mm_or_si128(a, _mm_srli_epi64(a, 32));
        b = _mm_or_si128(b, _mm_srli_epi64(b, 32));
        __m128 lows = _mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), _MM_SHUFFLE(2, 0, 2, 0));
        int zeros = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_castps_si128(lows), zero)));
        set |= (uint64_t)(~zeros & 0xf) << l;
    }
    for (; l < n; l++) set |= (uint64_t)(g[l] != 0) << l;
    return set;
}
#else
static inline uint64_t nonzero_lanes(const uint64_t *g, unsigned n)
{
    uint64_t set = 0;
    for (unsigned l = 0; l < n; l++) set |= (uint64_t)(g[l] != 0) << l;
    return set;
}
#endif

/* The lanes of active whose guard allows them to execute in. */
static inline uint64_t guard_lanes(const ws_warp *w, const ws_inst *in, uint64_t active, unsigned ws)
{
    if (in->guard == WS_NO_REG) return active;
    const uint64_t *g = ws_reg_lanes(w, in->guard, ws);
    uint64_t set = 0;   /* lanes whose guard register is nonzero */
    if ((active & (active + 1)) == 0) {   /* lanes 0..n-1: no bit walk */
        set = nonzero_lanes(g, active == ~0ull ? 64u : (unsigned)__builtin_ctzll(~active));
    } else {
        LANE_LOOP(active) { unsigned l = LANE; set |= (uint64_t)(g[l] != 0) << l; }
    }
    return (in->guard_neg ? ~set : set) & active;
}

static inline void effect_reset(ws_effect *eff, uint64_t exec)
{
    eff->executed = exec;
    eff->taken = 0;
    eff->exited = 0;
    eff->mem_space = WS_SP_NONE;
    eff->mem_kind = 0;
    eff->mem_bytes = 0;
    eff->mem_mask = 0;
    eff->mem_extra = 0;
}

void ws_xctx_init(ws_xctx *x, ws_exec_env *env, ws_warp *w, const ws_inst *in, uint32_t pc, uint64_t active,
                  ws_effect *eff)
{
    x->env = env; x->w = w; x->in = in; x->eff = eff; x->pc = pc;
    x->ws = env->launch->warp_size;
    x->active = active;
    x->exec = guard_lanes(w, in, active, x->ws);
    effect_reset(eff, x->exec);
}

/* The generic path: every instruction through its family. Not inlined, so the fast
 * path in ws_exec_inst does not pay for this frame (ws_xctx is kilobytes). */
static __attribute__((noinline)) int exec_generic(ws_exec_env *env, ws_warp *w, const ws_inst *in,
                                                  uint32_t pc, uint64_t active, ws_effect *eff)
{
    ws_xctx x;
    ws_xctx_init(&x, env, w, in, pc, active, eff);
    const uint64_t exec = x.exec;

    switch ((ws_opcode)in->op) {
    case WS_OP_MOV: case WS_OP_ADDC: case WS_OP_SUBC: case WS_OP_MADC:
    case WS_OP_MUL24: case WS_OP_MAD24: case WS_OP_SAD: case WS_OP_REM:
    case WS_OP_AND: case WS_OP_OR: case WS_OP_XOR: case WS_OP_NOT: case WS_OP_CNOT:
    case WS_OP_SHL: case WS_OP_SHR: case WS_OP_SHF: case WS_OP_PRMT: case WS_OP_POPC:
    case WS_OP_CLZ: case WS_OP_BREV: case WS_OP_BFE: case WS_OP_BFI: case WS_OP_BFIND:
        return exec ? ws_exec_int(&x) : WS_EXEC_OK;
    case WS_OP_ADD: case WS_OP_SUB: case WS_OP_MUL: case WS_OP_MAD: case WS_OP_DIV:
    case WS_OP_ABS: case WS_OP_NEG: case WS_OP_MIN: case WS_OP_MAX:
        if (!exec) return WS_EXEC_OK;
        return ws_ty_float[in->type] ? ws_exec_float(&x) : ws_exec_int(&x);
    case WS_OP_FMA: case WS_OP_RCP: case WS_OP_SQRT: case WS_OP_RSQRT: case WS_OP_EX2:
    case WS_OP_LG2: case WS_OP_SIN: case WS_OP_COS: case WS_OP_TANH: case WS_OP_COPYSIGN: case WS_OP_TESTP:
        return exec ? ws_exec_float(&x) : WS_EXEC_OK;
    case WS_OP_SETP: case WS_OP_SET: case WS_OP_SELP: case WS_OP_SLCT:
        return exec ? ws_exec_cmp(&x) : WS_EXEC_OK;
    case WS_OP_CVT:
        if (exec && in->subop == WS_CVT_FP8) return ws_exec_cvt_fp8(&x);
        return exec ? ws_exec_cvt(&x) : WS_EXEC_OK;
    case WS_OP_CVTA: case WS_OP_LD: case WS_OP_LDU: case WS_OP_ST: case WS_OP_ATOM: case WS_OP_RED: case WS_OP_LDMATRIX:
    case WS_OP_CP_ASYNC: case WS_OP_MBARRIER: case WS_OP_WMMA_LOAD: case WS_OP_WMMA_STORE: case WS_OP_STMATRIX:
        return exec ? ws_exec_mem(&x) : WS_EXEC_OK;
    case WS_OP_SHFL: case WS_OP_VOTE: case WS_OP_MATCH: case WS_OP_REDUX: case WS_OP_ACTIVEMASK: case WS_OP_ELECT:
        return exec ? ws_exec_warp(&x) : WS_EXEC_OK;
    case WS_OP_CREATEPOLICY: {   /* an opaque policy: .cvt passes the CUDA access property through, else 0 */
        uint64_t *d = ws_dst(&x, &in->dst[0]);
        ws_src a = ws_opnd(&x, &in->src[0], 0);
        LANE_LOOP(exec) { unsigned l = LANE; d[l] = in->subop == 1 ? SV(a, l) : 0; }
        return WS_EXEC_OK;
    }
    case WS_OP_GRIDDEP:   /* griddepcontrol.wait / .launch_dependents: one kernel at a time, nothing to wait for */
        return WS_EXEC_OK;
    case WS_OP_DP4A: case WS_OP_DP2A: case WS_OP_FNS: case WS_OP_BMSK: case WS_OP_SZEXT: case WS_OP_LOP3:
    case WS_OP_CVT_PACK: case WS_OP_VADD2: case WS_OP_VSUB2: case WS_OP_VAVRG2: case WS_OP_VABSDIFF2:
    case WS_OP_VMIN2: case WS_OP_VMAX2: case WS_OP_VADD4: case WS_OP_VSUB4: case WS_OP_VAVRG4:
    case WS_OP_VABSDIFF4: case WS_OP_VMIN4: case WS_OP_VMAX4: case WS_OP_VSHL: case WS_OP_VSHR:
        return exec ? ws_exec_simd(&x) : WS_EXEC_OK;
    case WS_OP_MMA:
        return exec ? ws_exec_mma(&x) : WS_EXEC_OK;
    case WS_OP_MOVMATRIX:
        return exec ? ws_exec_movmatrix(&x) : WS_EXEC_OK;
    case WS_OP_TEX: case WS_OP_TLD4: case WS_OP_TXQ: case WS_OP_SULD: case WS_OP_SUST:
        return exec ? ws_exec_tex(&x) : WS_EXEC_OK;
    case WS_OP_BRA:
        eff->taken = exec;
        return WS_EXEC_OK;
    case WS_OP_BRX:
        return exec ? exec_brx(&x) : WS_EXEC_OK;
    case WS_OP_RET: case WS_OP_EXIT:
        eff->exited = exec;
        return WS_EXEC_OK;
    case WS_OP_TRAP:
        if (exec) return ws_xfault(&x, (unsigned)__builtin_ctzll(exec), "trap executed");
        return WS_EXEC_OK;
    case WS_OP_BAR: case WS_OP_BARRIER: case WS_OP_BAR_WARP: case WS_OP_MEMBAR: case WS_OP_FENCE:
    case WS_OP_NANOSLEEP: {   /* the timing model suspends the warp (src/sim/issue.c, docs/model.md "nanosleep") */
        ws_src t = ws_opnd(&x, &in->src[0], 0);
        uint64_t ns = 0;
        LANE_LOOP(exec) { uint64_t v = SV(t, LANE) & 0xffffffffu; if (v > ns) ns = v; }
        eff->sleep_ns = (uint32_t)(ns > 1000000 ? 1000000 : ns);
        return WS_EXEC_OK;
    }
    case WS_OP_PREFETCH: case WS_OP_BADD: case WS_OP_BWAIT: case WS_OP_YIELD: case WS_OP_BMOV:
        /* no functional effect: the core implements synchronisation */
        return WS_EXEC_OK;
    default:
        if (!exec) return WS_EXEC_OK;
        return ws_xfault(&x, (unsigned)__builtin_ctzll(exec), "instruction %s not supported by the executor",
                         ws_opcode_name(in->op));
    }
}

int ws_exec_inst(ws_exec_env *env, ws_warp *w, const ws_inst *in, uint32_t pc,
                 uint64_t active, ws_effect *eff)
{
    if (!in->fast) return exec_generic(env, w, in, pc, active, eff);
    /* exec_fast.c: one of the common forms, chosen when the kernel was built */
    const unsigned ws = env->launch->warp_size;
    const uint64_t exec = guard_lanes(w, in, active, ws);
    effect_reset(eff, exec);
    if (exec) ws_exec_fast(w, in, exec, ws, eff);
    return WS_EXEC_OK;
}

void ws_warp_reset_regs(ws_warp *w, uint32_t nregs, uint32_t warp_size)
{
    memset(w->regs, 0, sizeof(uint64_t) * nregs * warp_size);
    memset(w->cc, 0, sizeof w->cc);
}
