/* Hand-made kernels for the CFG, uniformity and barrier-pass tests (no parser needed). */
#ifndef WS_TEST_KERNEL_BUILDER_H
#define WS_TEST_KERNEL_BUILDER_H
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static inline ws_kernel *kb_new(const char *name, uint32_t nregs)
{
    ws_kernel *k = calloc(1, sizeof *k);
    k->name = strdup(name);
    k->path = strdup("test.ptx");
    k->nregs = nregs;
    return k;
}

static inline void kb_free(ws_kernel *k)   /* frees every field a kernel owns */
{
    if (!k) return;
    free(k->path); free(k->name); free(k->insts);
    if (k->reg_names) for (uint32_t r = 0; r < k->nregs; r++) free(k->reg_names[r]);
    free(k->reg_names); free(k->reg_types); free(k->reg_slot);
    if (k->params) for (uint32_t p = 0; p < k->nparams; p++) free(k->params[p].name);
    free(k->params);
    if (k->vars) for (uint32_t v = 0; v < k->nvars; v++) { free(k->vars[v].name); free(k->vars[v].init); }
    free(k->vars); free(k->brx_targets);
    if (k->blocks) for (uint32_t b = 0; b < k->nblocks; b++) free(k->blocks[b].succ);
    free(k->blocks); free(k->block_of); free(k->source);
    free(k);
}

static inline ws_inst kb_blank(uint16_t op)
{
    ws_inst in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.unit = (uint8_t)ws_opcode_unit(op);
    in.vec = 1;
    in.guard = WS_NO_REG;
    in.ipdom = WS_PC_EXIT;
    return in;
}

static inline uint32_t kb_emit(ws_kernel *k, ws_inst in)
{
    k->insts = realloc(k->insts, (k->ninsts + 1) * sizeof *k->insts);
    in.line = k->ninsts + 1;     /* line = index + 1, to check copies */
    in.col = 5;
    k->insts[k->ninsts] = in;
    return k->ninsts++;
}

static inline void kb_rd(ws_inst *in, uint32_t r) { if (r != WS_NO_REG) in->rd[in->n_rd++] = r; }
static inline void kb_wr(ws_inst *in, uint32_t r) { in->wr[in->n_wr++] = r; }

/* d = a + b (registers) */
static inline uint32_t k_add(ws_kernel *k, uint32_t d, uint32_t a, uint32_t b)
{
    ws_inst in = kb_blank(WS_OP_ADD);
    in.type = WS_TY_U32;
    in.ndst = 1; in.dst[0].kind = WS_OK_REG; in.dst[0].reg = d; kb_wr(&in, d);
    in.nsrc = 2; in.src[0].kind = WS_OK_REG; in.src[0].reg = a; in.src[1].kind = WS_OK_REG; in.src[1].reg = b;
    kb_rd(&in, a); kb_rd(&in, b);
    return kb_emit(k, in);
}
/* a plain instruction with no registers (stands for "some work") */
static inline uint32_t k_nop(ws_kernel *k)
{
    ws_inst in = kb_blank(WS_OP_MOV);
    in.type = WS_TY_U32;
    return kb_emit(k, in);
}
/* d = special register */
static inline uint32_t k_sreg(ws_kernel *k, uint32_t d, ws_sreg s)
{
    ws_inst in = kb_blank(WS_OP_MOV);
    in.type = WS_TY_U32;
    in.ndst = 1; in.dst[0].kind = WS_OK_REG; in.dst[0].reg = d; kb_wr(&in, d);
    in.nsrc = 1; in.src[0].kind = WS_OK_SREG; in.src[0].sreg = (uint8_t)s;
    return kb_emit(k, in);
}
/* d = ld.<space> [base + off] (base WS_NO_REG: absolute) */
static inline uint32_t k_ld(ws_kernel *k, ws_space sp, uint32_t d, uint32_t base, int64_t off)
{
    ws_inst in = kb_blank(WS_OP_LD);
    in.type = WS_TY_U32; in.space = (uint8_t)sp;
    in.ndst = 1; in.dst[0].kind = WS_OK_REG; in.dst[0].reg = d; kb_wr(&in, d);
    in.nsrc = 1; in.src[0].kind = WS_OK_ADDR; in.src[0].reg = base; in.src[0].imm = off; kb_rd(&in, base);
    return kb_emit(k, in);
}
/* d = atom.global.cas [base], 0, 1 */
static inline uint32_t k_cas(ws_kernel *k, uint32_t d, uint32_t base)
{
    ws_inst in = kb_blank(WS_OP_ATOM);
    in.type = WS_TY_B32; in.space = WS_SP_GLOBAL; in.subop = WS_ATOM_CAS;
    in.ndst = 1; in.dst[0].kind = WS_OK_REG; in.dst[0].reg = d; kb_wr(&in, d);
    in.nsrc = 3; in.src[0].kind = WS_OK_ADDR; in.src[0].reg = base; kb_rd(&in, base);
    in.src[1].kind = WS_OK_IMM; in.src[1].imm = 0; in.src[2].kind = WS_OK_IMM; in.src[2].imm = 1;
    return kb_emit(k, in);
}
/* p = setp.ne a, imm */
static inline uint32_t k_setp(ws_kernel *k, uint32_t p, uint32_t a, int64_t imm)
{
    ws_inst in = kb_blank(WS_OP_SETP);
    in.type = WS_TY_U32; in.cmp = WS_CMP_NE;
    in.ndst = 1; in.dst[0].kind = WS_OK_REG; in.dst[0].reg = p; kb_wr(&in, p);
    in.nsrc = 2; in.src[0].kind = WS_OK_REG; in.src[0].reg = a; kb_rd(&in, a);
    in.src[1].kind = WS_OK_IMM; in.src[1].imm = imm;
    return kb_emit(k, in);
}
/* [@p] bra target; p = WS_NO_REG: unguarded */
static inline uint32_t k_bra(ws_kernel *k, uint32_t p, uint32_t target)
{
    ws_inst in = kb_blank(WS_OP_BRA);
    in.guard = p; kb_rd(&in, p);
    in.target = target; in.ntargets = 1;
    in.nsrc = 1; in.src[0].kind = WS_OK_LABEL; in.src[0].imm = target;
    return kb_emit(k, in);
}
static inline uint32_t k_brauni(ws_kernel *k, uint32_t target)
{
    uint32_t i = k_bra(k, WS_NO_REG, target);
    k->insts[i].mods |= WS_MOD_UNI;
    return i;
}
/* brx.idx idx, {targets...} */
static inline uint32_t k_brx(ws_kernel *k, uint32_t idx, uint32_t n, ...)
{
    ws_inst in = kb_blank(WS_OP_BRX);
    in.nsrc = 1; in.src[0].kind = WS_OK_REG; in.src[0].reg = idx; kb_rd(&in, idx);
    in.target = k->nbrx_targets; in.ntargets = n;
    k->brx_targets = realloc(k->brx_targets, (k->nbrx_targets + n) * sizeof *k->brx_targets);
    va_list ap;
    va_start(ap, n);
    for (uint32_t j = 0; j < n; j++) k->brx_targets[k->nbrx_targets++] = va_arg(ap, uint32_t);
    va_end(ap);
    return kb_emit(k, in);
}
static inline uint32_t k_exit(ws_kernel *k, uint32_t p)
{
    ws_inst in = kb_blank(WS_OP_EXIT);
    in.guard = p; kb_rd(&in, p);
    return kb_emit(k, in);
}
/* builds the CFG, asserting success */
static inline ws_kernel *kb_done(ws_kernel *k)
{
    ws_error e = {{0}};
    int rc = ws_cfg_build(k, &e);
    if (rc) fprintf(stderr, "cfg: %s\n", e.msg);
    assert_int_equal(rc, 0);
    return k;
}
#define NOREG WS_NO_REG
#define EXITB WS_PC_EXIT

enum { R0 = 0, R1, R2, R3, P0 = 8, P1, P2 };
#endif
