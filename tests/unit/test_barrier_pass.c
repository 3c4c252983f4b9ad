/*
 * The convergence-barrier pass on hand-made kernels. Expected layouts are
 * written out by hand from the placement rules in passes.h: ADD before a
 * divergent branch (hoisted to the loop entry when the branch leaves a loop),
 * WAIT before its immediate post-dominator, YIELD before back edges.
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
#define ADD WS_OP_BADD
#define WAIT WS_OP_BWAIT
#define YIELD WS_OP_YIELD
#define BRA WS_OP_BRA

static ws_kernel *xform_p(const ws_kernel *k, unsigned nregs, int policy)
{
    ws_error e = {{0}};
    ws_kernel *t = ws_barrier_transform(k, nregs, policy, &e);
    if (!t) fprintf(stderr, "transform: %s\n", e.msg);
    assert_non_null(t);
    return t;
}

/* the pre-existing layouts below use the literal reading: a YIELD
 * before every back-edge */
static ws_kernel *xform(const ws_kernel *k, unsigned nregs)
{
    return xform_p(k, nregs, WS_YIELD_ALL);
}

/* ops[i] for every instruction; a negative entry is "any original instruction" */
static void expect_ops(const ws_kernel *t, const int *ops, uint32_t n)
{
    assert_int_equal(t->ninsts, n);
    for (uint32_t i = 0; i < n; i++) {
        if (ops[i] < 0) {
            assert_true(t->insts[i].op != ADD && t->insts[i].op != WAIT && t->insts[i].op != YIELD);
            continue;
        }
        if (t->insts[i].op != ops[i]) fprintf(stderr, "inst %u: op %d, expected %d\n", i, t->insts[i].op, ops[i]);
        assert_int_equal(t->insts[i].op, ops[i]);
    }
}

static void expect_pseudo(const ws_inst *in, uint16_t op, uint32_t barrier, uint32_t line)
{
    assert_int_equal(in->op, op);
    if (op != YIELD) assert_int_equal(in->barrier, barrier);
    assert_int_equal(in->line, line);
    assert_int_equal(in->guard, WS_NO_REG);
    assert_int_equal(in->n_rd, 0);
    assert_int_equal(in->n_wr, 0);
    assert_int_equal(in->ndst, 0);
    assert_int_equal(in->nsrc, 0);
    assert_int_equal(in->unit, op == WAIT ? WS_UNIT_SYNC : WS_UNIT_CTRL);
}

#define O -1   /* an original instruction */

/* if/else on %tid:
 *   0 tid; 1 setp; 2 @p bra 5 | 3 A; 4 bra 6 | 5 B | 6 Z; 7 exit
 * =>
 *   0 tid; 1 setp; 2 ADD B0; 3 @p bra 6; 4 A; 5 bra 7; 6 B; 7 WAIT B0; 8 Z; 9 exit */
static void test_if_else(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("ifelse", 16);
    k_sreg(k, R0, WS_SR_TID_X); k_setp(k, P0, R0, 4); k_bra(k, P0, 5);
    k_nop(k); k_bra(k, NOREG, 6);
    k_nop(k);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->insts[2].uniform, 0);
    ws_kernel *t = xform(k, 16);
    const int ops[] = {O, O, ADD, BRA, O, BRA, O, WAIT, O, WS_OP_EXIT};
    expect_ops(t, ops, 10);
    expect_pseudo(&t->insts[2], ADD, 0, 3);      /* line of the branch (index 2 + 1) */
    expect_pseudo(&t->insts[7], WAIT, 0, 3);
    assert_int_equal(t->insts[3].target, 6);     /* B */
    assert_int_equal(t->insts[3].guard, P0);
    assert_int_equal(t->insts[5].target, 7);     /* the join now enters through WAIT */
    assert_int_equal(t->insts[3].ipdom, 7);      /* rebuilt CFG: reconverge at the WAIT */
    assert_int_equal(t->insts[8].line, 7);       /* Z keeps its line */
    assert_non_null(t->blocks);
    assert_int_equal(t->block_of[7], t->block_of[8]);
    /* the original is untouched */
    assert_int_equal(k->ninsts, 8);
    assert_int_equal(k->insts[2].target, 5);
    assert_int_equal(k->insts[4].target, 6);
    assert_ptr_not_equal(t->insts, k->insts);
    assert_ptr_not_equal(t->name, k->name);
    assert_string_equal(t->name, "ifelse");
    kb_free(t);
    kb_free(k);
}

/* spin lock:
 *   0 L: atom.cas; 1 setp; 2 @p bra 0 | 3 critical; 4 unlock; 5 exit
 * The branch leaves the loop {0-2}: its ADD is hoisted in front of the loop
 * (the back edge skips it) and the WAIT sits at the post-dominator:
 *   0 ADD B0; 1 atom.cas; 2 setp; 3 YIELD; 4 @p bra 1; 5 WAIT B0; 6 crit; 7 unlock; 8 exit */
static void test_spinlock(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("spinlock", 16);
    k_cas(k, R0, R1); k_setp(k, P0, R0, 0); k_bra(k, P0, 0);
    k_nop(k); k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    ws_kernel *t = xform(k, 16);
    const int ops[] = {ADD, WS_OP_ATOM, WS_OP_SETP, YIELD, BRA, WAIT, O, O, WS_OP_EXIT};
    expect_ops(t, ops, 9);
    expect_pseudo(&t->insts[0], ADD, 0, 3);
    expect_pseudo(&t->insts[3], YIELD, 0, 3);
    expect_pseudo(&t->insts[5], WAIT, 0, 3);
    assert_int_equal(t->insts[4].target, 1);
    assert_int_equal(t->insts[4].is_backedge, 1);
    assert_int_equal(t->insts[4].ipdom, 5);
    kb_free(t);
    kb_free(k);
}

/* while loop with a divergent exit test at the top:
 *   0 tid | 1 H: setp; 2 @p bra 5 | 3 body; 4 bra 1 | 5 exit
 * =>
 *   0 tid; 1 ADD B0 (loop entry); 2 setp; 3 @p bra 7; 4 body; 5 YIELD; 6 bra 2; 7 WAIT B0; 8 exit */
static void test_while_loop(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("while", 16);
    k_sreg(k, R0, WS_SR_TID_X);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 5);
    k_add(k, R0, R0, R1); k_bra(k, NOREG, 1);
    k_nop(k); k_exit(k, NOREG);   /* work after the loop: not an exit-only block */
    kb_done(k);
    ws_kernel *t = xform(k, 4);
    const int ops[] = {O, ADD, WS_OP_SETP, BRA, O, YIELD, BRA, WAIT, O, WS_OP_EXIT};
    expect_ops(t, ops, 10);
    assert_int_equal(t->insts[3].target, 7);
    assert_int_equal(t->insts[6].target, 2);
    expect_pseudo(&t->insts[5], YIELD, 0, 5);
    kb_free(t);
    kb_free(k);
}

/* rotated loop entered at its test, body falling through into the test:
 *   0 tid; 1 bra 3 | 2 body | 3 C: setp; 4 @p bra 2 | 5 exit
 * The ADD goes in front of C for the entry edge; the body's fall-through
 * into C must skip it, through an inserted bra.uni:
 *   0 tid; 1 bra 4; 2 body; 3 bra.uni 5; 4 ADD B0; 5 setp; 6 YIELD; 7 @p bra 2; 8 WAIT B0; 9 exit */
static void test_rotated_loop_skip(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("rotated", 16);
    k_sreg(k, R0, WS_SR_TID_X); k_bra(k, NOREG, 3);
    k_add(k, R0, R0, R1);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 2);
    k_nop(k); k_exit(k, NOREG);   /* work after the loop: not an exit-only block */
    kb_done(k);
    ws_kernel *t = xform(k, 4);
    const int ops[] = {O, BRA, O, BRA, ADD, WS_OP_SETP, YIELD, BRA, WAIT, O, WS_OP_EXIT};
    expect_ops(t, ops, 11);
    assert_int_equal(t->insts[1].target, 4);
    assert_int_equal(t->insts[3].target, 5);
    assert_true(t->insts[3].mods & WS_MOD_UNI);
    assert_int_equal(t->insts[3].guard, WS_NO_REG);
    assert_int_equal(t->insts[3].line, 3);       /* the body's line */
    assert_int_equal(t->insts[7].target, 2);
    assert_int_equal(t->insts[7].ipdom, 8);
    kb_free(t);
    kb_free(k);
}

/* two sequential ifs: the regions are disjoint, both use B0.
 *   0 tid; 1 setp p; 2 @p bra 4 | 3 A | 4 setp q; 5 @q bra 7 | 6 B | 7 Z; 8 exit
 * =>
 *   0 tid; 1 setp; 2 ADD B0; 3 @p bra 5; 4 A; 5 WAIT B0; 6 setp; 7 ADD B0; 8 @q bra 10;
 *   9 B; 10 WAIT B0; 11 Z; 12 exit */
static void test_sequential_ifs_reuse(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("seq", 16);
    k_sreg(k, R0, WS_SR_TID_X); k_setp(k, P0, R0, 0); k_bra(k, P0, 4);
    k_nop(k);
    k_setp(k, P1, R0, 1); k_bra(k, P1, 7);
    k_nop(k);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    ws_kernel *t = xform(k, 1);     /* one register is enough */
    const int ops[] = {O, O, ADD, BRA, O, WAIT, O, ADD, BRA, O, WAIT, O, WS_OP_EXIT};
    expect_ops(t, ops, 13);
    assert_int_equal(t->insts[2].barrier, 0);
    assert_int_equal(t->insts[5].barrier, 0);
    assert_int_equal(t->insts[7].barrier, 0);
    assert_int_equal(t->insts[10].barrier, 0);
    assert_int_equal(t->insts[3].target, 5);
    assert_int_equal(t->insts[8].target, 10);
    kb_free(t);
    kb_free(k);
}

/* nested ifs: inner region inside outer -> two registers; with nregs 1 the
 * outer barrier (the larger region) is spilled (issue 24 item 9): a BMOV
 * spill right after its ADD, a fill right before its WAIT, branches to the
 * WAIT entering at the fill, one general register held (bmov_regs).
 *   0 tid; 1 setp p; 2 @p bra 7 | 3 setp q; 4 @q bra 6 | 5 A | 6 B | 7 Z; 8 exit
 * =>
 *   0 tid; 1 setp; 2 ADD B0; 3 @p bra 10; 4 setp; 5 ADD B1; 6 @q bra 8; 7 A;
 *   8 WAIT B1; 9 B; 10 WAIT B0; 11 Z; 12 exit */
static void test_nested_ifs_distinct(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("nest_kernel", 16);
    k_sreg(k, R0, WS_SR_TID_X); k_setp(k, P0, R0, 0); k_bra(k, P0, 7);
    k_setp(k, P1, R0, 1); k_bra(k, P1, 6);
    k_nop(k);
    k_nop(k);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    ws_kernel *t = xform(k, 2);
    const int ops[] = {O, O, ADD, BRA, O, ADD, BRA, O, WAIT, O, WAIT, O, WS_OP_EXIT};
    expect_ops(t, ops, 13);
    assert_int_equal(t->insts[2].barrier, 0);
    assert_int_equal(t->insts[5].barrier, 1);
    assert_int_equal(t->insts[8].barrier, 1);
    assert_int_equal(t->insts[10].barrier, 0);
    assert_int_equal(t->insts[3].target, 10);
    assert_int_equal(t->insts[6].target, 8);
    assert_int_equal(t->bmov_regs, 0);
    kb_free(t);

    /* 0 tid; 1 setp; 2 ADD B0; 3 BMOV R, B0; 4 @p bra 11; 5 setp; 6 ADD B1; 7 @q bra 9;
     * 8 A; 9 WAIT B1; 10 B; 11 BMOV B0, R; 12 WAIT B0; 13 Z; 14 exit */
    t = xform(k, 1);
    const int ops1[] = {O, O, ADD, WS_OP_BMOV, BRA, O, ADD, BRA, O, WAIT, O, WS_OP_BMOV, WAIT, O, WS_OP_EXIT};
    expect_ops(t, ops1, 15);
    assert_int_equal(t->insts[3].subop, 0);      /* spill: R <- B0 */
    assert_int_equal(t->insts[3].barrier, 0);
    assert_int_equal(t->insts[11].subop, 1);     /* fill: B0 <- R */
    assert_int_equal(t->insts[11].barrier, 0);
    assert_int_equal(t->insts[12].barrier, 0);
    assert_int_equal(t->insts[4].target, 11);
    assert_int_equal(t->insts[7].target, 9);
    assert_int_equal(t->insts[3].unit, WS_UNIT_INT);
    assert_int_equal(t->bmov_regs, 1);
    kb_free(t);
    kb_free(k);
}

/* nested ifs reconverging at the same instruction share the outer barrier:
 * every thread of the inner branch is a participant of the outer one, whose
 * WAIT already reconverges them (ptxas: one BSSY/BSYNC per join point).
 *   0 tid; 1 setp p; 2 @p bra 6 | 3 setp q; 4 @q bra 6 | 5 A | 6 Z; 7 exit
 * =>
 *   0 tid; 1 setp; 2 ADD B0; 3 @p bra 7; 4 setp; 5 @q bra 7; 6 A;
 *   7 WAIT B0; 8 Z; 9 exit  -- and it fits in one register */
static void test_same_join_shares(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("samejoin", 16);
    k_sreg(k, R0, WS_SR_TID_X); k_setp(k, P0, R0, 0); k_bra(k, P0, 6);
    k_setp(k, P1, R0, 1); k_bra(k, P1, 6);
    k_nop(k);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    ws_kernel *t = xform(k, 1);
    const int ops[] = {O, O, ADD, BRA, O, BRA, O, WAIT, O, WS_OP_EXIT};
    expect_ops(t, ops, 10);
    assert_int_equal(t->insts[2].barrier, 0);
    assert_int_equal(t->insts[7].barrier, 0);
    assert_int_equal(t->insts[3].target, 7);
    assert_int_equal(t->insts[5].target, 7);
    kb_free(t);
    kb_free(k);
}

/* an else-if chain of N tests that all join at Z (a switch written as ifs):
 *   for i < N: 2i setp p_i; 2i+1 @p_i bra (skip to the next test) ; A_i ; bra Z
 * laid out as  setp; @!p bra next; A_i; bra Z; next: ...; Z; exit.
 * Every branch reconverges at Z and lies inside the first branch's region,
 * reachable only through it: one barrier register for the whole chain. */
static void test_else_if_chain_one_register(void **st)
{
    (void)st;
    enum { N = 20 };
    ws_kernel *k = kb_new("chain", 16);
    k_sreg(k, R0, WS_SR_TID_X);
    /* test i occupies 4 instructions starting at 1 + 4i: setp, @p bra next, A, bra Z */
    const uint32_t z = 1 + 4 * N;
    for (uint32_t i = 0; i < N; i++) {
        uint32_t next = 1 + 4 * (i + 1);
        k_setp(k, P0, R0, (int)i); k_bra(k, P0, next);
        k_nop(k); k_bra(k, NOREG, z);
    }
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    ws_kernel *t = xform(k, 1);
    uint32_t adds = 0, waits = 0;
    for (uint32_t i = 0; i < t->ninsts; i++) {
        if (t->insts[i].op == ADD) { adds++; assert_int_equal(t->insts[i].barrier, 0); }
        if (t->insts[i].op == WAIT) { waits++; assert_int_equal(t->insts[i].barrier, 0); }
    }
    assert_int_equal(adds, 1);
    assert_int_equal(waits, 1);
    kb_free(t);
    kb_free(k);
}

/* ifs on the two sides of an if/else run concurrently (the splits interleave):
 * they need different registers although their regions are disjoint.
 *   0 tid; 1 setp; 2 @p bra 7 | 3 setp; 4 @q bra 6 | 5 A | 6 bra 11 |
 *   7 setp; 8 @s bra 10 | 9 B | 10 C | 11 Z; 12 exit
 * outer B0, then-side if B1, else-side if B2. */
static void test_concurrent_siblings(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("siblings", 16);
    k_sreg(k, R0, WS_SR_TID_X); k_setp(k, P0, R0, 0); k_bra(k, P0, 7);
    k_setp(k, P1, R0, 1); k_bra(k, P1, 6);
    k_nop(k);
    k_bra(k, NOREG, 11);
    k_setp(k, P2, R0, 2); k_bra(k, P2, 10);
    k_nop(k);
    k_nop(k);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    /* nregs 2: B0 (the outermost) spilled: 0 tid; 1 setp; 2 ADD B0; 3 BMOV; 4 @p bra 11;
     * 5 setp; 6 ADD B1; 7 @q bra 9; 8 A; 9 WAIT B1; 10 bra 17; 11 setp; 12 ADD B2;
     * 13 @s bra 15; 14 B; 15 WAIT B2; 16 C; 17 BMOV; 18 WAIT B0; 19 Z; 20 exit */
    ws_kernel *t = xform(k, 2);
    const int ops2[] = {O, O, ADD, WS_OP_BMOV, BRA, O, ADD, BRA, O, WAIT, BRA, O, ADD, BRA, O, WAIT, O,
                        WS_OP_BMOV, WAIT, O, WS_OP_EXIT};
    expect_ops(t, ops2, 21);
    assert_int_equal(t->insts[4].target, 11);
    assert_int_equal(t->insts[10].target, 17);   /* the then side enters B0's WAIT at its fill */
    assert_int_equal(t->insts[13].target, 15);
    assert_int_equal(t->insts[17].barrier, 0);
    assert_int_equal(t->bmov_regs, 1);
    kb_free(t);
    /* nregs 1: then B1 too (B1 and B2 tie in size; B1's ADD comes first), B2 stays:
     * 0 tid; 1 setp; 2 ADD B0; 3 BMOV; 4 @p bra 13; 5 setp; 6 ADD B1; 7 BMOV; 8 @q bra 10;
     * 9 A; 10 BMOV; 11 WAIT B1; 12 bra 19; 13 setp; 14 ADD B2; 15 @s bra 17; 16 B;
     * 17 WAIT B2; 18 C; 19 BMOV; 20 WAIT B0; 21 Z; 22 exit */
    t = xform(k, 1);
    const int ops1[] = {O, O, ADD, WS_OP_BMOV, BRA, O, ADD, WS_OP_BMOV, BRA, O, WS_OP_BMOV, WAIT, BRA, O, ADD, BRA,
                        O, WAIT, O, WS_OP_BMOV, WAIT, O, WS_OP_EXIT};
    expect_ops(t, ops1, 23);
    assert_int_equal(t->insts[4].target, 13);
    assert_int_equal(t->insts[8].target, 10);
    assert_int_equal(t->insts[12].target, 19);
    assert_int_equal(t->insts[15].target, 17);
    assert_int_equal(t->insts[7].barrier, 1);
    assert_int_equal(t->insts[10].barrier, 1);
    assert_int_equal(t->insts[19].barrier, 0);
    assert_int_equal(t->bmov_regs, 2);           /* B0 and B1 spilled over the then side */
    kb_free(t);
    t = xform(k, 3);
    /* 0 tid; 1 setp; 2 ADD B0; 3 @p bra 10; 4 setp; 5 ADD B1; 6 @q bra 8; 7 A; 8 WAIT B1;
     * 9 bra 16; 10 setp; 11 ADD B2; 12 @s bra 14; 13 B; 14 WAIT B2; 15 C; 16 WAIT B0; 17 Z; 18 exit */
    const int ops[] = {O, O, ADD, BRA, O, ADD, BRA, O, WAIT, BRA, O, ADD, BRA, O, WAIT, O, WAIT, O, WS_OP_EXIT};
    expect_ops(t, ops, 19);
    assert_int_equal(t->insts[2].barrier, 0);
    assert_int_equal(t->insts[5].barrier, 1);
    assert_int_equal(t->insts[8].barrier, 1);
    assert_int_equal(t->insts[11].barrier, 2);
    assert_int_equal(t->insts[14].barrier, 2);
    assert_int_equal(t->insts[16].barrier, 0);
    assert_int_equal(t->insts[3].target, 10);    /* else side: setp s */
    assert_int_equal(t->insts[6].target, 8);
    assert_int_equal(t->insts[9].target, 16);
    assert_int_equal(t->insts[12].target, 14);
    kb_free(t);
    kb_free(k);
}

/* Uniform branches (predicate from a kernel parameter, bra.uni) get nothing. */
static void test_uniform_no_barrier(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("uni", 16);
    k_ld(k, WS_SP_PARAM, R0, NOREG, 0); k_setp(k, P0, R0, 0); k_bra(k, P0, 5);
    k_nop(k); k_brauni(k, 6);
    k_nop(k);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->insts[2].uniform, 1);
    ws_kernel *t = xform(k, 0);   /* needs no register at all */
    assert_int_equal(t->ninsts, 8);
    for (uint32_t i = 0; i < 8; i++) {
        assert_int_equal(t->insts[i].op, k->insts[i].op);
        assert_int_equal(t->insts[i].target, k->insts[i].target);
    }
    kb_free(t);
    kb_free(k);
}

/* A divergent branch whose paths only meet at the virtual exit: no barrier. */
static void test_exit_ipdom_no_barrier(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("exitipdom", 16);
    k_sreg(k, R0, WS_SR_TID_X); k_setp(k, P0, R0, 0); k_bra(k, P0, 5);
    k_nop(k); k_exit(k, NOREG);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    ws_kernel *t = xform(k, 0);
    assert_int_equal(t->ninsts, 7);
    assert_int_equal(t->insts[2].target, 5);
    kb_free(t);
    kb_free(k);
}

/* brx.idx on %tid with 4 targets rejoining at 9: ADD before the brx, the
 * table remapped, WAIT before the join.
 *   0 tid; 1 brx {2,4,6,8} | 2 c0; 3 bra 9 | 4 c1; 5 bra 9 | 6 c2; 7 bra 9 | 8 c3 | 9 Z; 10 exit
 * =>
 *   0 tid; 1 ADD B0; 2 brx {3,5,7,9}; 3 c0; 4 bra 10; 5 c1; 6 bra 10; 7 c2; 8 bra 10; 9 c3;
 *   10 WAIT B0; 11 Z; 12 exit */
static void test_brx(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("brx", 16);
    k_sreg(k, R0, WS_SR_TID_X);
    k_brx(k, R0, 4, 2u, 4u, 6u, 8u);
    k_nop(k); k_bra(k, NOREG, 9);
    k_nop(k); k_bra(k, NOREG, 9);
    k_nop(k); k_bra(k, NOREG, 9);
    k_nop(k);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    ws_kernel *t = xform(k, 1);
    const int ops[] = {O, ADD, WS_OP_BRX, O, BRA, O, BRA, O, BRA, O, WAIT, O, WS_OP_EXIT};
    expect_ops(t, ops, 13);
    const ws_inst *b = &t->insts[2];
    assert_int_equal(b->ntargets, 4);
    assert_true(b->target + 4 <= t->nbrx_targets);
    assert_int_equal(t->brx_targets[b->target + 0], 3);
    assert_int_equal(t->brx_targets[b->target + 1], 5);
    assert_int_equal(t->brx_targets[b->target + 2], 7);
    assert_int_equal(t->brx_targets[b->target + 3], 9);
    assert_int_equal(t->insts[4].target, 10);
    assert_int_equal(t->insts[8].target, 10);
    assert_int_equal(b->ipdom, 10);
    assert_ptr_not_equal(t->brx_targets, k->brx_targets);
    assert_int_equal(k->brx_targets[0], 2);
    kb_free(t);
    kb_free(k);
}

/* loop with a break and a divergent latch: both branches leave the loop to the
 * same block, share one barrier ADDed at the loop entry.
 *   0 tid | 1 H: body; 2 @p bra 5 | 3 more; 4 @q bra 1 | 5 after; 6 exit
 * =>
 *   0 tid; 1 ADD B0; 2 body; 3 @p bra 7; 4 more; 5 YIELD; 6 @q bra 2; 7 WAIT B0; 8 after; 9 exit */
static void test_loop_break_shared(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("brk", 16);
    k_sreg(k, R0, WS_SR_TID_X);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 5);
    k_setp(k, P1, R0, 1); k_bra(k, P1, 1);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    ws_kernel *t = xform(k, 1);
    const int ops[] = {O, ADD, WS_OP_SETP, BRA, WS_OP_SETP, YIELD, BRA, WAIT, O, WS_OP_EXIT};
    expect_ops(t, ops, 10);
    assert_int_equal(t->insts[3].target, 7);
    assert_int_equal(t->insts[6].target, 2);
    kb_free(t);
    kb_free(k);
}

/* ---- YIELD policy (passes.h: barrier_yield spin|all) ---- */

enum { R4 = 4, R5, R6, R7 };

/* p = setp.lt a, b (registers) */
static uint32_t k_setp_rr(ws_kernel *k, uint32_t p, uint32_t a, uint32_t b)
{
    uint32_t i = k_setp(k, p, a, 0);
    ws_inst *in = &k->insts[i];
    in->cmp = WS_CMP_LT;
    in->src[1].kind = WS_OK_REG; in->src[1].reg = b; in->src[1].imm = 0;
    in->rd[in->n_rd++] = b;
    return i;
}

static uint32_t count_op(const ws_kernel *t, uint16_t op)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < t->ninsts; i++) c += t->insts[i].op == op;
    return c;
}

/* The spin lock (atom.cas exit test) gets its YIELD under both policies, at the
 * same place (layout of test_spinlock). */
static void test_yield_spinlock_both(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("spinlock", 16);
    k_cas(k, R0, R1); k_setp(k, P0, R0, 0); k_bra(k, P0, 0);
    k_nop(k); k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    const int ops[] = {ADD, WS_OP_ATOM, WS_OP_SETP, YIELD, BRA, WAIT, O, O, WS_OP_EXIT};
    for (int pol = WS_YIELD_SPIN; pol <= WS_YIELD_ALL; pol++) {
        ws_kernel *t = xform_p(k, 16, pol);
        expect_ops(t, ops, 9);
        assert_int_equal(t->insts[4].target, 1);
        kb_free(t);
    }
    uint8_t y[6];
    assert_int_equal(ws_yield_points(k, WS_YIELD_SPIN, y), 0);
    for (int i = 0; i < 6; i++) assert_int_equal(y[i], i == 2);
    kb_free(k);
}

/* Counted loop, per-thread trip count: counter R1 += R2 until R1 >= tid.
 *   0 tid R0 | 1 L: add R1; 2 setp.lt p, R1, R0; 3 @p bra 1 | 4 exit
 * spin: 0 tid; 1 ADD B0; 2 add; 3 setp; 4 @p bra 2; 5 WAIT B0; 6 exit   (no YIELD)
 * all:  0 tid; 1 ADD B0; 2 add; 3 setp; 4 YIELD; 5 @p bra 2; 6 WAIT B0; 7 exit */
static void test_yield_counted_tid_bound(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("counted", 16);
    k_sreg(k, R0, WS_SR_TID_X);
    k_add(k, R1, R1, R2); k_setp_rr(k, P0, R1, R0); k_bra(k, P0, 1);
    k_nop(k); k_exit(k, NOREG);   /* work after the loop: not an exit-only block */
    kb_done(k);
    assert_int_equal(k->insts[3].uniform, 0);
    ws_kernel *t = xform_p(k, 1, WS_YIELD_SPIN);
    const int ops_spin[] = {O, ADD, WS_OP_ADD, WS_OP_SETP, BRA, WAIT, O, WS_OP_EXIT};
    expect_ops(t, ops_spin, 8);
    assert_int_equal(t->insts[4].target, 2);
    assert_int_equal(t->insts[4].ipdom, 5);
    kb_free(t);
    t = xform_p(k, 1, WS_YIELD_ALL);
    const int ops_all[] = {O, ADD, WS_OP_ADD, WS_OP_SETP, YIELD, BRA, WAIT, O, WS_OP_EXIT};
    expect_ops(t, ops_all, 9);
    expect_pseudo(&t->insts[4], YIELD, 0, 4);
    assert_int_equal(t->insts[5].target, 2);
    kb_free(t);
    kb_free(k);
}

/* Counted loop with a constant bound (uniform exit: no barrier at all):
 *   0 L: add R1; 1 setp.ne p, R1, 10; 2 @p bra 0 | 3 exit
 * spin: unchanged (4 instructions); all: a YIELD before the back-edge. */
static void test_yield_counted_const_bound(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("counted_uni", 16);
    k_add(k, R1, R1, R2); k_setp(k, P0, R1, 10); k_bra(k, P0, 0);
    k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->insts[2].uniform, 1);
    ws_kernel *t = xform_p(k, 1, WS_YIELD_SPIN);
    const int ops_spin[] = {WS_OP_ADD, WS_OP_SETP, BRA, WS_OP_EXIT};
    expect_ops(t, ops_spin, 4);
    kb_free(t);
    t = xform_p(k, 1, WS_YIELD_ALL);
    const int ops_all[] = {WS_OP_ADD, WS_OP_SETP, YIELD, BRA, WS_OP_EXIT};
    expect_ops(t, ops_all, 5);
    assert_int_equal(t->insts[3].target, 0);
    kb_free(t);
    kb_free(k);
}

/* Wait for a flag: the exit depends on a volatile load in the loop.
 *   0 L: ld.volatile.global R1, [R2]; 1 setp.ne p, R1, 0; 2 @p bra 0 | 3 exit
 * both policies: 0 ADD B0; 1 ld; 2 setp; 3 YIELD; 4 @p bra 1; 5 WAIT B0; 6 exit */
static void test_yield_volatile_flag(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("flag", 16);
    uint32_t ld = k_ld(k, WS_SP_GLOBAL, R1, R2, 0);
    k->insts[ld].mods |= WS_MOD_VOLATILE;
    k_setp(k, P0, R1, 0); k_bra(k, P0, 0);
    k_nop(k); k_exit(k, NOREG);   /* work after the loop: not an exit-only block */
    kb_done(k);
    const int ops[] = {ADD, WS_OP_LD, WS_OP_SETP, YIELD, BRA, WAIT, O, WS_OP_EXIT};
    for (int pol = WS_YIELD_SPIN; pol <= WS_YIELD_ALL; pol++) {
        ws_kernel *t = xform_p(k, 1, pol);
        expect_ops(t, ops, 8);
        expect_pseudo(&t->insts[3], YIELD, 0, 3);
        kb_free(t);
    }
    kb_free(k);
}

/* A loop that loads data but exits on its counter only (varloop's shape):
 *   0 tid R0 | 1 L: ld.global R3, [R4]; 2 add R5 = R5 + R3; 3 add R4 = R4 + R6;
 *   4 add R1 = R1 + R2; 5 setp.lt p, R1, R0; 6 @p bra 1 | 7 exit
 * spin: no YIELD (ADD hoisted before 1, WAIT before 7: 10 instructions);
 * all: a YIELD before the back-edge (11). */
static void test_yield_loads_counter_exit(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("sumloop", 16);
    k_sreg(k, R0, WS_SR_TID_X);
    k_ld(k, WS_SP_GLOBAL, R3, R4, 0); k_add(k, R5, R5, R3); k_add(k, R4, R4, R6);
    k_add(k, R1, R1, R2); k_setp_rr(k, P0, R1, R0); k_bra(k, P0, 1);
    k_nop(k); k_exit(k, NOREG);   /* work after the loop: not an exit-only block */
    kb_done(k);
    ws_kernel *t = xform_p(k, 1, WS_YIELD_SPIN);
    const int ops_spin[] = {O, ADD, WS_OP_LD, WS_OP_ADD, WS_OP_ADD, WS_OP_ADD, WS_OP_SETP, BRA, WAIT,
                            O, WS_OP_EXIT};
    expect_ops(t, ops_spin, 11);
    kb_free(t);
    t = xform_p(k, 1, WS_YIELD_ALL);
    assert_int_equal(t->ninsts, 12);
    assert_int_equal(count_op(t, YIELD), 1);
    assert_int_equal(t->insts[7].op, YIELD);
    kb_free(t);
    /* the same loop whose bound is reloaded from global memory in the loop
     * (a value live into it and redefined in it): may spin */
    ws_kernel *k2 = kb_new("sumloop2", 16);
    k_sreg(k2, R0, WS_SR_TID_X);
    k_ld(k2, WS_SP_GLOBAL, R3, R4, 0); k_add(k2, R5, R5, R3); k_ld(k2, WS_SP_GLOBAL, R0, R4, 4);
    k_add(k2, R1, R1, R2); k_setp_rr(k2, P0, R1, R0); k_bra(k2, P0, 1);
    k_nop(k2); k_exit(k2, NOREG);
    kb_done(k2);
    t = xform_p(k2, 1, WS_YIELD_SPIN);
    assert_int_equal(count_op(t, YIELD), 1);
    kb_free(t);
    kb_free(k2);
    kb_free(k);
}

/* A bound loaded from global memory BEFORE the loop (never redefined in it) is
 * loop-invariant: the loop is counted, no YIELD under spin. A loaded bound read
 * through .local or .param in the loop does not make it spin either. */
static void test_yield_invariant_loaded_bound(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("invbound", 16);
    k_ld(k, WS_SP_GLOBAL, R0, R4, 0);
    k_ld(k, WS_SP_LOCAL, R3, R4, 0); k_add(k, R1, R1, R3); k_ld(k, WS_SP_PARAM, R2, NOREG, 0);
    k_add(k, R1, R1, R2); k_setp_rr(k, P0, R1, R0); k_bra(k, P0, 1);
    k_nop(k); k_exit(k, NOREG);   /* work after the loop: not an exit-only block */
    kb_done(k);
    ws_kernel *t = xform_p(k, 1, WS_YIELD_SPIN);
    assert_int_equal(count_op(t, YIELD), 0);
    assert_int_equal(count_op(t, ADD), 1);
    assert_int_equal(count_op(t, WAIT), 1);
    kb_free(t);
    t = xform_p(k, 1, WS_YIELD_ALL);
    assert_int_equal(count_op(t, YIELD), 1);
    kb_free(t);
    kb_free(k);
}

/* Control dependence: the counter advances only when a loaded flag is set, so
 * the exit (on the counter) waits on memory; and %clock in the exit test.
 *   0 tid R0 | 1 L: ld.global R3, [R4]; 2 setp.ne q, R3, 0; 3 @q bra 5 |
 *   4 add R1 = R1 + R2 | 5 setp.lt p, R1, R0; 6 @p bra 1 | 7 exit */
static void test_yield_control_dependent_and_clock(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("cdep", 16);
    k_sreg(k, R0, WS_SR_TID_X);
    k_ld(k, WS_SP_GLOBAL, R3, R4, 0); k_setp(k, P1, R3, 0); k_bra(k, P1, 5);
    k_add(k, R1, R1, R2);
    k_setp_rr(k, P0, R1, R0); k_bra(k, P0, 1);
    k_exit(k, NOREG);
    kb_done(k);
    uint8_t y[8];
    assert_int_equal(ws_yield_points(k, WS_YIELD_SPIN, y), 0);
    for (int i = 0; i < 8; i++) assert_int_equal(y[i], i == 6);
    kb_free(k);

    /* busy-wait on the clock: 0 L: mov R1, %clock; 1 setp.lt p, R1, R0; 2 @p bra 0 | 3 exit */
    k = kb_new("clock", 16);
    k_sreg(k, R1, WS_SR_CLOCK); k_setp_rr(k, P0, R1, R0); k_bra(k, P0, 0);
    k_exit(k, NOREG);
    kb_done(k);
    uint8_t y2[4];
    assert_int_equal(ws_yield_points(k, WS_YIELD_SPIN, y2), 0);
    assert_int_equal(y2[2], 1);
    kb_free(k);

    /* the exit waits on a warp-level result (vote / shfl / redux of a register):
     *   0 L: add R1 = R1 + R2; 1 R3 = <op> R1; 2 setp.ne p, R3, 0; 3 @p bra 0 | 4 exit */
    const uint16_t warp_ops[] = {WS_OP_VOTE, WS_OP_SHFL, WS_OP_REDUX};
    for (unsigned w = 0; w < 3; w++) {
        k = kb_new("warpop", 16);
        k_add(k, R1, R1, R2);
        ws_inst in = kb_blank(warp_ops[w]);
        in.type = WS_TY_B32;
        in.ndst = 1; in.dst[0].kind = WS_OK_REG; in.dst[0].reg = R3; kb_wr(&in, R3);
        in.nsrc = 1; in.src[0].kind = WS_OK_REG; in.src[0].reg = R0; kb_rd(&in, R0);
        kb_emit(k, in);
        k_setp(k, P0, R3, 0); k_bra(k, P0, 0);
        k_exit(k, NOREG);
        kb_done(k);
        uint8_t y3[5];
        assert_int_equal(ws_yield_points(k, WS_YIELD_SPIN, y3), 0);
        assert_int_equal(y3[3], 1);
        kb_free(k);
    }
}

/* Nested: a counted outer loop around a spin lock. Only the inner back-edge
 * (the spin) gets a YIELD under spin; both under all.
 *   0 tid R0 | 1 O: mov | 2 I: atom.cas R3; 3 setp.ne q, R3, 0; 4 @q bra 2 |
 *   5 add R1 = R1 + R2; 6 setp.lt p, R1, R0; 7 @p bra 1 | 8 exit */
static void test_yield_nested(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("nested", 16);
    k_sreg(k, R0, WS_SR_TID_X);
    k_nop(k);
    k_cas(k, R3, R4); k_setp(k, P1, R3, 0); k_bra(k, P1, 2);
    k_add(k, R1, R1, R2); k_setp_rr(k, P0, R1, R0); k_bra(k, P0, 1);
    k_exit(k, NOREG);
    kb_done(k);
    uint8_t y[9];
    assert_int_equal(ws_yield_points(k, WS_YIELD_SPIN, y), 0);
    for (int i = 0; i < 9; i++) assert_int_equal(y[i], i == 4);
    assert_int_equal(ws_yield_points(k, WS_YIELD_ALL, y), 0);
    for (int i = 0; i < 9; i++) assert_int_equal(y[i], i == 4 || i == 7);
    ws_kernel *t = xform_p(k, 4, WS_YIELD_SPIN);
    assert_int_equal(count_op(t, YIELD), 1);
    for (uint32_t i = 0; i + 1 < t->ninsts; i++)     /* the YIELD guards the inner back-edge */
        if (t->insts[i].op == YIELD) assert_int_equal(t->insts[i + 1].guard, P1);
    kb_free(t);
    kb_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_spinlock),
        cmocka_unit_test(test_while_loop),
        cmocka_unit_test(test_rotated_loop_skip),
        cmocka_unit_test(test_sequential_ifs_reuse),
        cmocka_unit_test(test_nested_ifs_distinct),
        cmocka_unit_test(test_same_join_shares),
        cmocka_unit_test(test_else_if_chain_one_register),
        cmocka_unit_test(test_concurrent_siblings),
        cmocka_unit_test(test_uniform_no_barrier),
        cmocka_unit_test(test_exit_ipdom_no_barrier),
        cmocka_unit_test(test_brx),
        cmocka_unit_test(test_loop_break_shared),
        cmocka_unit_test(test_yield_spinlock_both),
        cmocka_unit_test(test_yield_counted_tid_bound),
        cmocka_unit_test(test_yield_counted_const_bound),
        cmocka_unit_test(test_yield_volatile_flag),
        cmocka_unit_test(test_yield_loads_counter_exit),
        cmocka_unit_test(test_yield_invariant_loaded_bound),
        cmocka_unit_test(test_yield_control_dependent_and_clock),
        cmocka_unit_test(test_yield_nested),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
