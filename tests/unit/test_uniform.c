/*
 * Uniformity analysis on hand-made kernels: which branches are proven to go
 * the same way for every active thread of a warp (rules in passes.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>
#include "warpsweep/ptx.h"
#include "warpsweep/passes.h"

/* ---- hand-made kernels (no parser needed) ---- */
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
    free(k->reg_names); free(k->reg_types);
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

/* 0 r0 = <source>; 1 p = setp r0; 2 @p bra 4 | 3 A | 4 exit */
static int branch_on(void (*src)(ws_kernel *))
{
    ws_kernel *k = kb_new("u", 16);
    src(k);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 4);
    k_nop(k);
    k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->ninsts, 5);
    int u = k->insts[2].uniform;
    kb_free(k);
    return u;
}

static void src_tid(ws_kernel *k) { k_sreg(k, R0, WS_SR_TID_X); }
static void src_laneid(ws_kernel *k) { k_sreg(k, R0, WS_SR_LANEID); }
static void src_clock(ws_kernel *k) { k_sreg(k, R0, WS_SR_CLOCK); }
static void src_ctaid(ws_kernel *k) { k_sreg(k, R0, WS_SR_CTAID_X); }
static void src_ntid(ws_kernel *k) { k_sreg(k, R0, WS_SR_NTID_X); }
static void src_param(ws_kernel *k) { k_ld(k, WS_SP_PARAM, R0, NOREG, 8); }
static void src_global(ws_kernel *k) { k_ld(k, WS_SP_GLOBAL, R0, NOREG, 0); }
static void src_shared(ws_kernel *k) { k_ld(k, WS_SP_SHARED, R0, NOREG, 0); }
static void src_generic(ws_kernel *k) { k_ld(k, WS_SP_GENERIC, R0, NOREG, 0); }
static void src_const(ws_kernel *k) { k_ld(k, WS_SP_CONST, R0, NOREG, 16); }
static void src_atom(ws_kernel *k) { k_cas(k, R0, R1); }

static void test_sources(void **st)
{
    (void)st;
    assert_int_equal(branch_on(src_tid), 0);
    assert_int_equal(branch_on(src_laneid), 0);
    assert_int_equal(branch_on(src_clock), 0);
    assert_int_equal(branch_on(src_ctaid), 1);
    assert_int_equal(branch_on(src_ntid), 1);
    assert_int_equal(branch_on(src_param), 1);
    assert_int_equal(branch_on(src_const), 1);
    assert_int_equal(branch_on(src_global), 0);
    assert_int_equal(branch_on(src_shared), 0);
    assert_int_equal(branch_on(src_generic), 0);
    assert_int_equal(branch_on(src_atom), 0);
}

/* data flow through arithmetic, loads from a param address, and a load from
 * global through a uniform (param) pointer */
static void test_dataflow(void **st)
{
    (void)st;
    /* r1 = param; r2 = ctaid; r0 = r1 + r2 -> uniform */
    ws_kernel *k = kb_new("df", 16);
    k_ld(k, WS_SP_PARAM, R1, NOREG, 0); k_sreg(k, R2, WS_SR_CTAID_X); k_add(k, R0, R1, R2);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 6);
    k_nop(k);
    k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->insts[4].uniform, 1);
    kb_free(k);

    /* r1 = param (a pointer); r0 = ld.global [r1]: the value loaded is varying */
    k = kb_new("df2", 16);
    k_ld(k, WS_SP_PARAM, R1, NOREG, 0); k_ld(k, WS_SP_GLOBAL, R0, R1, 0);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 5);
    k_nop(k);
    k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->insts[3].uniform, 0);
    kb_free(k);

    /* r1 = tid; r0 = param + r1 (varying through add) */
    k = kb_new("df3", 16);
    k_sreg(k, R1, WS_SR_TID_X); k_ld(k, WS_SP_PARAM, R2, NOREG, 0); k_add(k, R0, R2, R1);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 6);
    k_nop(k);
    k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->insts[4].uniform, 0);
    kb_free(k);

    /* ld.param through a varying address register is varying */
    k = kb_new("df4", 16);
    k_sreg(k, R1, WS_SR_TID_X); k_ld(k, WS_SP_PARAM, R0, R1, 0);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 5);
    k_nop(k);
    k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->insts[3].uniform, 0);
    kb_free(k);
}

/* Unguarded bra and bra.uni are uniform; bra.uni is trusted even when guarded. */
static void test_unconditional(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("unc", 16);
    k_bra(k, NOREG, 2);          /* 0 */
    k_nop(k);                    /* 1 */
    k_sreg(k, R0, WS_SR_TID_X);  /* 2 */
    k_setp(k, P0, R0, 0);        /* 3 */
    k_brauni(k, 6);              /* 4 */
    k_nop(k);                    /* 5 */
    k_bra(k, P0, 8);             /* 6: guarded, varying */
    k_nop(k);                    /* 7 */
    k_exit(k, NOREG);            /* 8 */
    k->insts[4].guard = P0;      /* @p bra.uni: the programmer's promise */
    k->insts[4].rd[k->insts[4].n_rd++] = P0;
    kb_done(k);
    assert_int_equal(k->insts[0].uniform, 1);
    assert_int_equal(k->insts[4].uniform, 1);
    assert_int_equal(k->insts[6].uniform, 0);
    assert_int_equal(k->insts[3].uniform, 0);   /* not a branch */
    kb_free(k);
}

/* Control dependence: a uniform value defined under a varying branch is varying
 * after the join (only some lanes executed the definition).
 *   0 tid; 1 p = setp; 2 @p bra 4 | 3 r1 = ld.param | 4 q = setp r1; 5 @q bra 7 | 6 nop | 7 exit */
static void test_control_dependence(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("cd", 16);
    k_sreg(k, R0, WS_SR_TID_X); k_setp(k, P0, R0, 0); k_bra(k, P0, 4);
    k_ld(k, WS_SP_PARAM, R1, NOREG, 0);
    k_setp(k, P1, R1, 0); k_bra(k, P1, 7);
    k_nop(k);
    k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->insts[2].uniform, 0);
    assert_int_equal(k->insts[5].uniform, 0);
    kb_free(k);

    /* same shape with a uniform first branch: everything uniform */
    k = kb_new("cd2", 16);
    k_sreg(k, R0, WS_SR_CTAID_X); k_setp(k, P0, R0, 0); k_bra(k, P0, 4);
    k_ld(k, WS_SP_PARAM, R1, NOREG, 0);
    k_setp(k, P1, R1, 0); k_bra(k, P1, 7);
    k_nop(k);
    k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->insts[2].uniform, 1);
    assert_int_equal(k->insts[5].uniform, 1);
    kb_free(k);
}

/* A definition under a varying guard is varying. */
static void test_guarded_def(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("gd", 16);
    k_sreg(k, R0, WS_SR_TID_X); k_setp(k, P0, R0, 0);   /* 0, 1 */
    uint32_t i = k_ld(k, WS_SP_PARAM, R1, NOREG, 0);     /* 2: @p r1 = param */
    k->insts[i].guard = P0; k->insts[i].rd[k->insts[i].n_rd++] = P0;
    k_setp(k, P1, R1, 0); k_bra(k, P1, 6);               /* 3, 4 */
    k_nop(k);                                            /* 5 */
    k_exit(k, NOREG);                                    /* 6 */
    kb_done(k);
    assert_int_equal(k->insts[4].uniform, 0);
    kb_free(k);
}

/* Loops: a counter in a loop with a varying exit is varying (threads leave at
 * different iterations); the fixed point must reach a branch that comes
 * before the definition in program order.
 *   0 r0 = param; 1 r3 = tid | 2 H: p = setp r0; 3 @p bra 8 | 4 r0 = r0 + r3;
 *   5 q = setp r3; 6 @q bra 2 | 7 bra 2 | 8 exit
 * r0 is redefined from the varying r3: the exit test at 3 becomes varying. */
static void test_loop_fixed_point(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("loop", 16);
    k_ld(k, WS_SP_PARAM, R0, NOREG, 0); k_sreg(k, R3, WS_SR_TID_X);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 8);
    k_add(k, R0, R0, R3); k_setp(k, P1, R3, 0); k_bra(k, P1, 2);
    k_bra(k, NOREG, 2);
    k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->insts[3].uniform, 0);
    assert_int_equal(k->insts[6].uniform, 0);
    assert_int_equal(k->insts[7].uniform, 1);
    kb_free(k);

    /* uniform loop: r0 = param; H: p = setp r0; @p bra exit; r0 = r0 + r1(param); bra H */
    k = kb_new("loop2", 16);
    k_ld(k, WS_SP_PARAM, R0, NOREG, 0); k_ld(k, WS_SP_PARAM, R1, NOREG, 4);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 6);
    k_add(k, R0, R0, R1); k_bra(k, NOREG, 2);
    k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->insts[3].uniform, 1);
    kb_free(k);
}

/* brx.idx on a uniform index is uniform; on %tid it is not. */
static void test_brx(void **st)
{
    (void)st;
    for (int v = 0; v < 2; v++) {
        ws_kernel *k = kb_new("brx", 16);
        if (v) k_sreg(k, R0, WS_SR_TID_X); else k_ld(k, WS_SP_PARAM, R0, NOREG, 0);
        k_brx(k, R0, 2, 2u, 3u);
        k_nop(k);
        k_exit(k, NOREG);
        kb_done(k);
        assert_int_equal(k->insts[1].uniform, v ? 0 : 1);
        kb_free(k);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sources),
        cmocka_unit_test(test_dataflow),
        cmocka_unit_test(test_unconditional),
        cmocka_unit_test(test_control_dependence),
        cmocka_unit_test(test_guarded_def),
        cmocka_unit_test(test_loop_fixed_point),
        cmocka_unit_test(test_brx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
