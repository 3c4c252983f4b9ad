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

#include "kernel_builder.h"

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
