/*
 * CFG and immediate post-dominators on hand-made kernels. Every expected block
 * partition and post-dominator below is worked out by hand from the CFG drawn
 * in the comment above each test (virtual exit = EXIT).
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

static void expect_block(const ws_kernel *k, uint32_t b, uint32_t first, uint32_t last, uint32_t ipdom)
{
    assert_true(b < k->nblocks);
    assert_int_equal(k->blocks[b].first, first);
    assert_int_equal(k->blocks[b].last, last);
    assert_int_equal(k->blocks[b].ipdom, ipdom);
    for (uint32_t i = first; i <= last; i++) assert_int_equal(k->block_of[i], b);
}

static int has_succ(const ws_kernel *k, uint32_t b, uint32_t s)
{
    for (uint32_t j = 0; j < k->blocks[b].nsucc; j++)
        if (k->blocks[b].succ[j] == s) return 1;
    return 0;
}

/*  0 tid; 1 setp; 2 @p bra 5 | 3 A; 4 bra 6 | 5 B | 6 Z; 7 exit
 *  B0[0-2] -> B2, B1;  B1[3-4] -> B3;  B2[5] -> B3;  B3[6-7] -> EXIT */
static void test_diamond(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("diamond", 16);
    k_sreg(k, R0, WS_SR_TID_X); k_setp(k, P0, R0, 4); k_bra(k, P0, 5);
    k_nop(k); k_bra(k, NOREG, 6);
    k_nop(k);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->nblocks, 4);
    expect_block(k, 0, 0, 2, 3);
    expect_block(k, 1, 3, 4, 3);
    expect_block(k, 2, 5, 5, 3);
    expect_block(k, 3, 6, 7, EXITB);
    assert_int_equal(k->blocks[0].nsucc, 2);
    assert_true(has_succ(k, 0, 2) && has_succ(k, 0, 1));
    assert_int_equal(k->blocks[1].nsucc, 1); assert_true(has_succ(k, 1, 3));
    assert_int_equal(k->blocks[2].nsucc, 1); assert_true(has_succ(k, 2, 3));
    assert_int_equal(k->blocks[3].nsucc, 1); assert_true(has_succ(k, 3, EXITB));
    assert_int_equal(k->insts[2].ipdom, 6);
    assert_int_equal(k->insts[4].ipdom, 6);
    assert_int_equal(k->insts[7].ipdom, EXITB);
    assert_int_equal(k->insts[2].is_backedge, 0);
    kb_free(k);
}

/*  0 setp; 1 @p bra 3 | 2 A | 3 Z; 4 exit   : ipdom(B0) = B2 (the join) */
static void test_if_then(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("ifthen", 16);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 3);
    k_nop(k);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->nblocks, 3);
    expect_block(k, 0, 0, 1, 2);
    expect_block(k, 1, 2, 2, 2);
    expect_block(k, 2, 3, 4, EXITB);
    assert_int_equal(k->insts[1].ipdom, 3);
    kb_free(k);
}

/*  0 setp p; 1 @p bra 7 | 2 setp q; 3 @q bra 5 | 4 A | 5 B; 6 C | 7 Z; 8 exit
 *  inner branch reconverges at 5, outer at 7 */
static void test_nested_ifs(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("nested", 16);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 7);
    k_setp(k, P1, R1, 0); k_bra(k, P1, 5);
    k_nop(k);
    k_nop(k); k_nop(k);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->nblocks, 5);
    expect_block(k, 0, 0, 1, 4);
    expect_block(k, 1, 2, 3, 3);
    expect_block(k, 2, 4, 4, 3);
    expect_block(k, 3, 5, 6, 4);
    expect_block(k, 4, 7, 8, EXITB);
    assert_int_equal(k->insts[1].ipdom, 7);
    assert_int_equal(k->insts[3].ipdom, 5);
    kb_free(k);
}

/*  0 init | 1 H: setp; 2 @p bra 5 | 3 body; 4 bra 1 | 5 after; 6 exit
 *  B1 -> B3 (leave), B2;  B2 -> B1 (back edge);  ipdom(B1) = B3, ipdom(B2) = B1 */
static void test_while_loop(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("while", 16);
    k_nop(k);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 5);
    k_add(k, R0, R0, R1); k_bra(k, NOREG, 1);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->nblocks, 4);
    expect_block(k, 0, 0, 0, 1);
    expect_block(k, 1, 1, 2, 3);
    expect_block(k, 2, 3, 4, 1);
    expect_block(k, 3, 5, 6, EXITB);
    assert_int_equal(k->insts[2].ipdom, 5);
    assert_int_equal(k->insts[4].ipdom, 1);
    assert_int_equal(k->insts[2].is_backedge, 0);
    assert_int_equal(k->insts[4].is_backedge, 1);
    kb_free(k);
}

/* `if (i >= n) return; work; return;` as nvcc writes it: both successors of
 * the branch are ways out: B2 only exits, B1 is straight-line code into it
 * entered only from B0 (terminal, cfg.c). With no path that stays, nothing is
 * dropped: the paths meet only at B2, which only exits: EXIT.
 *  0 setp; 1 @p bra 4 | 2 work; 3 bra 4 | 4 ret
 *  B0 -> B2, B1;  B1 -> B2;  B2 -> EXIT. */
static void test_exit_only_block_is_exit(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("early_return", 16);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 4);
    k_add(k, R0, R0, R1); k_bra(k, NOREG, 4);
    k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->nblocks, 3);
    expect_block(k, 0, 0, 1, EXITB);
    expect_block(k, 1, 2, 3, EXITB);
    expect_block(k, 2, 4, 4, EXITB);
    assert_int_equal(k->insts[1].ipdom, WS_PC_EXIT);
    assert_true(k->blocks[2].terminal && k->blocks[1].terminal && !k->blocks[0].terminal);
    kb_free(k);
}

/* A private way out: `if (p) { A; return; } do { } while (q); st; ret`.
 *  0 setp; 1 @p bra 4 | 2 A; 3 ret | 4 L; 5 @q bra 4 | 6 st; 7 ret
 *  B0 [0,1] -> B2, B1;  B1 [2,3] -> EXIT;  B2 [4,5] -> B2, B3;  B3 [6,7] -> EXIT.
 * B1 is straight-line code to an exit entered only from B0: terminal, so
 * B0 -> B1 is an early exit and B0 reconverges at B2 (the survivors run the
 * loop together; strict post-dominance says EXIT). B3 is terminal too (one
 * predecessor), but dropping B2 -> B3 would cut the loop off from the exit:
 * kept, ipdom(B2) = B3. */
static void test_private_exit(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("privexit", 16);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 4);
    k_nop(k); k_exit(k, NOREG);
    k_nop(k); k_bra(k, P1, 4);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->nblocks, 4);
    assert_true(k->blocks[1].terminal && k->blocks[3].terminal && !k->blocks[2].terminal);
    expect_block(k, 0, 0, 1, 2);
    expect_block(k, 2, 4, 5, 3);
    assert_int_equal(k->insts[1].ipdom, 4);
    kb_free(k);
}

/* A common tail is a join, not an early exit: `if (p) A; else B; st; ret`.
 *  0 setp; 1 @p bra 4 | 2 A; 3 bra 5 | 4 B | 5 st; 6 ret
 *  B0 -> B2, B1;  B1 -> B3;  B2 -> B3;  B3 [5,6] -> EXIT.
 * B3 leaves but has two predecessors: a join, not terminal; B1 and B2 lead
 * into it, so they are no ways out either. B0 reconverges at B3 (the tail runs
 * once, as GPGPU-Sim's IPDOM has it). */
static void test_common_tail_joins(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("tail", 16);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 4);
    k_nop(k); k_bra(k, NOREG, 5);
    k_nop(k);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->nblocks, 4);
    assert_true(!k->blocks[1].terminal && !k->blocks[2].terminal && !k->blocks[3].terminal && k->blocks[3].leaves);
    expect_block(k, 0, 0, 1, 3);
    assert_int_equal(k->insts[1].ipdom, 5);
    kb_free(k);
}

/*  0 H: body; 1 @p bra 4 (break) | 2 more; 3 @q bra 0 | 4 after; 5 exit
 *  two ways out of the loop, both reconverge at B2 */
static void test_loop_break(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("brk", 16);
    k_nop(k); k_bra(k, P0, 4);
    k_nop(k); k_bra(k, P1, 0);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->nblocks, 3);
    expect_block(k, 0, 0, 1, 2);
    expect_block(k, 1, 2, 3, 2);
    expect_block(k, 2, 4, 5, EXITB);
    assert_int_equal(k->insts[1].ipdom, 4);
    assert_int_equal(k->insts[3].ipdom, 4);
    assert_int_equal(k->insts[3].is_backedge, 1);
    assert_int_equal(k->insts[1].is_backedge, 0);
    kb_free(k);
}

/*  0 idx; 1 brx.idx {2,4,6,8,4} | 2 c0; 3 bra 9 | 4 c1; 5 bra 9 | 6 c2; 7 bra 9 | 8 c3 | 9 Z; 10 exit
 *  four distinct targets (4 is listed twice), all rejoin at 9 */
static void test_brx_four_targets(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("brx", 16);
    k_sreg(k, R0, WS_SR_TID_X);
    k_brx(k, R0, 5, 2u, 4u, 6u, 8u, 4u);
    k_nop(k); k_bra(k, NOREG, 9);
    k_nop(k); k_bra(k, NOREG, 9);
    k_nop(k); k_bra(k, NOREG, 9);
    k_nop(k);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->nblocks, 6);
    expect_block(k, 0, 0, 1, 5);
    expect_block(k, 1, 2, 3, 5);
    expect_block(k, 2, 4, 5, 5);
    expect_block(k, 3, 6, 7, 5);
    expect_block(k, 4, 8, 8, 5);
    expect_block(k, 5, 9, 10, EXITB);
    assert_int_equal(k->blocks[0].nsucc, 4);
    for (uint32_t b = 1; b <= 4; b++) assert_true(has_succ(k, 0, b));
    assert_int_equal(k->insts[1].ipdom, 9);
    assert_int_equal(k->insts[1].is_backedge, 0);
    kb_free(k);
}

/*  0 setp; 1 @p bra 4 | 2 A; 3 exit | 4 B; 5 Z; 6 exit
 *  The paths never meet again: ipdom = the virtual exit. */
static void test_exit_in_branch(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("exitbr", 16);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 4);
    k_nop(k); k_exit(k, NOREG);
    k_nop(k); k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->nblocks, 3);
    expect_block(k, 0, 0, 1, EXITB);
    expect_block(k, 1, 2, 3, EXITB);
    expect_block(k, 2, 4, 6, EXITB);
    assert_int_equal(k->insts[1].ipdom, EXITB);
    kb_free(k);
}

/*  0 setp; 1 @p bra 4 | 2 A; 3 @q exit | 4 Z; 5 exit
 *  B1 has successors B2 (fall-through) and EXIT. The guarded exit is an early
 *  exit (lanes that take it leave), so for reconvergence B1's only successor is
 *  B2: ipdom(B1) = B2 and the lanes of B0's two paths that are still alive
 *  meet at B2: ipdom(B0) = B2 (strict post-dominance would say EXIT for both,
 *  running Z once per path). */
static void test_guarded_exit_in_branch(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("gexit", 16);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 4);
    k_nop(k); k_exit(k, P1);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->nblocks, 3);
    expect_block(k, 0, 0, 1, 2);
    expect_block(k, 1, 2, 3, 2);
    expect_block(k, 2, 4, 5, EXITB);
    assert_int_equal(k->blocks[1].nsucc, 2);
    assert_true(has_succ(k, 1, 2) && has_succ(k, 1, EXITB));
    assert_int_equal(k->insts[1].ipdom, 4);
    assert_int_equal(k->insts[3].ipdom, 4);
    kb_free(k);
}

/*  0 setp; 1 @p bra 3 | 2 L: bra 2 | 3 Z; 4 exit
 *  B1 spins forever (cannot reach the exit): ipdom(B1) = EXIT by convention;
 *  B0's post-dominator is computed over the paths that reach the exit: B2. */
static void test_infinite_loop(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("inf", 16);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 3);
    k_bra(k, NOREG, 2);
    k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->nblocks, 3);
    expect_block(k, 0, 0, 1, 2);
    expect_block(k, 1, 2, 2, EXITB);
    expect_block(k, 2, 3, 4, EXITB);
    assert_int_equal(k->insts[1].ipdom, 3);
    assert_int_equal(k->insts[2].ipdom, EXITB);
    assert_int_equal(k->insts[2].is_backedge, 1);
    kb_free(k);

    /* a kernel that is nothing but a spin: 0 nop; 1 bra 0 */
    k = kb_new("spin", 4);
    k_nop(k); k_bra(k, NOREG, 0);
    kb_done(k);
    assert_int_equal(k->nblocks, 1);
    expect_block(k, 0, 0, 1, EXITB);
    kb_free(k);
}

/*  0 L: atom.cas; 1 setp; 2 @p bra 0 | 3 critical; 4 unlock; 5 exit
 *  The loser's back edge and the winner's fall-through: ipdom = 3. */
static void test_spinlock(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("spinlock", 16);
    k_cas(k, R0, R1); k_setp(k, P0, R0, 0); k_bra(k, P0, 0);
    k_nop(k); k_nop(k); k_exit(k, NOREG);
    kb_done(k);
    assert_int_equal(k->nblocks, 2);
    expect_block(k, 0, 0, 2, 1);
    expect_block(k, 1, 3, 5, EXITB);
    assert_int_equal(k->insts[2].ipdom, 3);
    assert_int_equal(k->insts[2].is_backedge, 1);
    assert_true(has_succ(k, 0, 0) && has_succ(k, 0, 1));
    kb_free(k);
}

/* Falling off the end flows to the exit; rebuilding frees the old CFG. */
static void test_fall_off_end_and_rebuild(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("falloff", 16);
    k_setp(k, P0, R0, 0); k_bra(k, P0, 3);
    k_nop(k);
    k_nop(k);
    kb_done(k);
    assert_int_equal(k->nblocks, 3);
    expect_block(k, 2, 3, 3, EXITB);
    assert_true(has_succ(k, 2, EXITB));
    kb_done(k);   /* rebuild: same result, no leak (sanitizer build) */
    assert_int_equal(k->nblocks, 3);
    assert_int_equal(k->insts[1].ipdom, 3);
    kb_free(k);
}

static void test_bad_target(void **st)
{
    (void)st;
    ws_kernel *k = kb_new("bad", 4);
    k_nop(k); k_bra(k, NOREG, 7);
    ws_error e = {{0}};
    assert_int_equal(ws_cfg_build(k, &e), -1);
    assert_non_null(strstr(e.msg, "test.ptx:2:5:"));
    assert_non_null(strstr(e.msg, "out of range"));
    kb_free(k);
}

/* ws_postdom on raw graphs. Graph (n = 6):
 *   0 -> 1, 2;  1 -> 3;  2 -> 3, 4;  3 -> 5;  4 -> EXIT;  5 -> (none: exit)
 * Paths from 2: 2-3-5-X, 2-4-X  => ipdom(2) = X; from 0: through 1 or 2 => X.
 * ipdom(1) = 3, ipdom(3) = 5, ipdom(5) = X, ipdom(4) = X. */
static void test_postdom_raw(void **st)
{
    (void)st;
    uint32_t s0[] = {1, 2}, s1[] = {3}, s2[] = {3, 4}, s3[] = {5}, s4[] = {WS_PC_EXIT};
    const uint32_t *succ[] = {s0, s1, s2, s3, s4, NULL};
    uint32_t nsucc[] = {2, 1, 2, 1, 1, 0};
    uint32_t ip[6];
    assert_int_equal(ws_postdom(6, succ, nsucc, ip), 0);
    assert_int_equal(ip[0], EXITB);
    assert_int_equal(ip[1], 3);
    assert_int_equal(ip[2], EXITB);
    assert_int_equal(ip[3], 5);
    assert_int_equal(ip[4], EXITB);
    assert_int_equal(ip[5], EXITB);

    /* Loop nest: 0 -> 1; 1 -> 2, 5; 2 -> 3; 3 -> 1, 4; 4 -> 2; 5 -> exit.
     * 2 and 3 and 4 all leave through 1 -> 5: ipdom(2) = 3 (2's only succ),
     * ipdom(3) = 1 (3 -> 1 directly or 3 -> 4 -> 2 -> 3 -> 1), ipdom(4) = 2,
     * ipdom(1) = 5, ipdom(0) = 1. */
    uint32_t t0[] = {1}, t1[] = {2, 5}, t2[] = {3}, t3[] = {1, 4}, t4[] = {2};
    const uint32_t *succ2[] = {t0, t1, t2, t3, t4, NULL};
    uint32_t nsucc2[] = {1, 2, 1, 2, 1, 0};
    assert_int_equal(ws_postdom(6, succ2, nsucc2, ip), 0);
    assert_int_equal(ip[0], 1);
    assert_int_equal(ip[1], 5);
    assert_int_equal(ip[2], 3);
    assert_int_equal(ip[3], 1);
    assert_int_equal(ip[4], 2);
    assert_int_equal(ip[5], EXITB);

    /* Infinite loop not reachable backward from exit: 0 -> 1, 2; 1 -> 1; 2 -> exit.
     * ipdom(1) = X (cannot reach exit), ipdom(0) = 2 (over exit-reaching paths). */
    uint32_t u0[] = {1, 2}, u1[] = {1}, u2[] = {WS_PC_EXIT};
    const uint32_t *succ3[] = {u0, u1, u2};
    uint32_t nsucc3[] = {2, 1, 1};
    assert_int_equal(ws_postdom(3, succ3, nsucc3, ip), 0);
    assert_int_equal(ip[0], 2);
    assert_int_equal(ip[1], EXITB);
    assert_int_equal(ip[2], EXITB);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diamond),
        cmocka_unit_test(test_if_then),
        cmocka_unit_test(test_nested_ifs),
        cmocka_unit_test(test_while_loop),
        cmocka_unit_test(test_exit_only_block_is_exit),
        cmocka_unit_test(test_private_exit),
        cmocka_unit_test(test_common_tail_joins),
        cmocka_unit_test(test_loop_break),
        cmocka_unit_test(test_brx_four_targets),
        cmocka_unit_test(test_exit_in_branch),
        cmocka_unit_test(test_guarded_exit_in_branch),
        cmocka_unit_test(test_infinite_loop),
        cmocka_unit_test(test_spinlock),
        cmocka_unit_test(test_fall_off_end_and_rebuild),
        cmocka_unit_test(test_bad_target),
        cmocka_unit_test(test_postdom_raw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
