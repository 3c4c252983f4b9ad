/*
 * The SIMT stack's rules (GPGPU-Sim simt_stack::update, docs/model.md) on a
 * hand-built kernel and hand-made effects: push order, the reconvergence
 * entry, a path already at the RPC not pushed, ipdom == RPC replacing the TOS,
 * N-way brx, exits leaving every mask.  And the convergence-barrier scheme's
 * WAIT / YIELD clearing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "sim/div/divergence.h"

static ws_inst insts[16];
static ws_kernel kern;
static ws_div_ctx ctx;
static _Alignas(64) unsigned char state[8192];

static void setup_kernel(void)
{
    memset(insts, 0, sizeof insts);
    for (int i = 0; i < 16; i++) { insts[i].op = WS_OP_ADD; insts[i].line = 100 + i; insts[i].guard = WS_NO_REG; }
    memset(&kern, 0, sizeof kern);
    kern.insts = insts;
    kern.ninsts = 16;
    ctx.k = &kern;
    ctx.warp_size = 8;
    ctx.nbar = 4;
    ctx.max_depth = 40;
}

static ws_split top(const ws_div_ops *d)
{
    const ws_split *sp;
    uint32_t start;
    uint32_t n = d->splits(state, &sp, &start);
    assert_true(n >= 1);
    return sp[start % n];
}

static void run(const ws_div_ops *d, ws_split sp, ws_effect *e)
{
    char err[256];
    assert_int_equal(d->update(&ctx, state, &sp, &insts[sp.pc], e, err, sizeof err), 0);
}

static void test_if_else(void **st)
{
    (void)st;
    setup_kernel();
    /* 0: @p bra 3 (ipdom 5); 1,2: else; 3,4: then; 5: join */
    insts[0].op = WS_OP_BRA; insts[0].target = 3; insts[0].ipdom = 5;
    insts[2].op = WS_OP_BRA; insts[2].target = 5; insts[2].ipdom = 5;
    ws_div_stack.init(&ctx, state, 0xff);
    ws_effect e;
    memset(&e, 0, sizeof e);
    e.taken = 0x0f;
    run(&ws_div_stack, top(&ws_div_stack), &e);
    /* reconvergence entry {5, 0xff, exit}; fall-through {1, 0xf0} pushed first; taken {3, 0x0f} on top */
    ws_split t = top(&ws_div_stack);
    assert_int_equal(t.pc, 3);
    assert_int_equal(t.mask, 0x0f);
    assert_int_equal(t.aux, 5);
    assert_int_equal(ws_div_stack.level(state, 0), 2);
    memset(&e, 0, sizeof e);
    run(&ws_div_stack, t, &e);                       /* 3 -> 4 */
    run(&ws_div_stack, top(&ws_div_stack), &e);      /* 4 -> 5 == RPC: pop */
    t = top(&ws_div_stack);
    assert_int_equal(t.pc, 1);
    assert_int_equal(t.mask, 0xf0);
    run(&ws_div_stack, t, &e);                       /* 1 -> 2 */
    e.taken = 0xf0;
    run(&ws_div_stack, top(&ws_div_stack), &e);      /* bra 5: single group, reaches RPC: pop */
    t = top(&ws_div_stack);
    assert_int_equal(t.pc, 5);
    assert_int_equal(t.mask, 0xff);                  /* reconverged */
    assert_int_equal(ws_div_stack.level(state, 0), 0);
}

static void test_path_at_rpc_and_exit(void **st)
{
    (void)st;
    setup_kernel();
    /* spin-lock shape: 0..1 loop body, 2: @p bra 0 (ipdom 3), 3: after */
    insts[2].op = WS_OP_BRA; insts[2].target = 0; insts[2].ipdom = 3;
    ws_div_stack.init(&ctx, state, 0xff);
    ws_effect e;
    memset(&e, 0, sizeof e);
    run(&ws_div_stack, top(&ws_div_stack), &e);
    run(&ws_div_stack, top(&ws_div_stack), &e);
    e.taken = 0xfe;                                  /* lane 0 wins and falls through to 3 = RPC */
    run(&ws_div_stack, top(&ws_div_stack), &e);
    ws_split t = top(&ws_div_stack);
    assert_int_equal(t.pc, 0);
    assert_int_equal(t.mask, 0xfe);                  /* only the losers pushed */
    assert_int_equal(ws_div_stack.level(state, 0), 1);
    /* next iteration: ipdom (3) == TOS.RPC: the paths replace the TOS */
    memset(&e, 0, sizeof e);
    run(&ws_div_stack, top(&ws_div_stack), &e);
    run(&ws_div_stack, top(&ws_div_stack), &e);
    e.taken = 0xfc;                                  /* lane 1 leaves too */
    run(&ws_div_stack, top(&ws_div_stack), &e);
    t = top(&ws_div_stack);
    assert_int_equal(t.mask, 0xfc);
    assert_int_equal(ws_div_stack.level(state, 0), 1);   /* no growth */
    /* lanes 2..7 exit inside the loop: popped, the reconvergence entry keeps lanes 0,1 */
    insts[0].op = WS_OP_EXIT;
    memset(&e, 0, sizeof e);
    e.exited = 0xfc;
    run(&ws_div_stack, top(&ws_div_stack), &e);
    t = top(&ws_div_stack);
    assert_int_equal(t.pc, 3);
    assert_int_equal(t.mask, 0x03);
}

static void test_brx_nway(void **st)
{
    (void)st;
    setup_kernel();
    insts[1].op = WS_OP_BRX; insts[1].ipdom = 9;
    ws_div_stack.init(&ctx, state, 0xff);
    ws_effect e;
    memset(&e, 0, sizeof e);
    run(&ws_div_stack, top(&ws_div_stack), &e);      /* 0 -> 1 */
    /* guard false on lane 7 (falls through to 2); lanes 0-6 to 6,4,8,4,6,9,4 */
    e.taken = 0x7f;
    uint32_t tg[7] = {6, 4, 8, 4, 6, 9, 4};
    for (int l = 0; l < 7; l++) e.lane_target[l] = tg[l];
    run(&ws_div_stack, top(&ws_div_stack), &e);
    /* pushed: fall-through {2: 0x80}, then ascending {4: 0x4a}, {6: 0x11}, {8: 0x04};
     * lane 5 is already at the RPC 9 and waits. Pops reveal them in reverse. */
    uint32_t want_pc[4] = {8, 6, 4, 2};
    uint64_t want_mask[4] = {0x04, 0x11, 0x4a, 0x80};
    for (int i = 0; i < 4; i++) {
        ws_split t = top(&ws_div_stack);
        assert_int_equal(t.pc, want_pc[i]);
        assert_int_equal(t.mask, want_mask[i]);
        /* jump straight to the RPC */
        insts[t.pc].op = WS_OP_BRA; insts[t.pc].target = 9; insts[t.pc].ipdom = 9;
        memset(&e, 0, sizeof e);
        e.taken = t.mask;
        run(&ws_div_stack, t, &e);
    }
    ws_split t = top(&ws_div_stack);
    assert_int_equal(t.pc, 9);
    assert_int_equal(t.mask, 0xff);
}

static void test_barrier_wait_yield(void **st)
{
    (void)st;
    setup_kernel();
    /* 0: ADD B1; 1: YIELD; 2: @p bra 1 (back-edge); 3: WAIT B1; 4: after */
    insts[0].op = WS_OP_BADD; insts[0].barrier = 1;
    insts[1].op = WS_OP_YIELD;
    insts[2].op = WS_OP_BRA; insts[2].target = 1;
    insts[3].op = WS_OP_BWAIT; insts[3].barrier = 1;
    ws_div_sbi.init(&ctx, state, 0xff);
    ws_split t = top(&ws_div_sbi);
    assert_int_equal(t.pc, 2);                       /* ADD and YIELD took no issue */
    ws_effect e;
    memset(&e, 0, sizeof e);
    e.taken = 0xfe;                                  /* lane 0 leaves: blocked at WAIT */
    run(&ws_div_sbi, t, &e);
    const ws_split *sp;
    uint32_t start;
    uint32_t n = ws_div_sbi.splits(state, &sp, &start);
    /* losers passed YIELD again (yielded): B1's participants are all blocked or
     * yielded, so lane 0 was released at 4 */
    assert_int_equal(n, 2);
    assert_int_equal(sp[0].pc, 2);
    assert_int_equal(sp[0].mask, 0xfe);
    assert_int_equal(sp[1].pc, 4);
    assert_int_equal(sp[1].mask, 0x01);
}

static void test_barrier_reconverge(void **st)
{
    (void)st;
    setup_kernel();
    /* 0: ADD B0; 1: @p bra 3; 2: else (bra 4); 3: then; 4: WAIT B0; 5: join */
    insts[0].op = WS_OP_BADD; insts[0].barrier = 0;
    insts[1].op = WS_OP_BRA; insts[1].target = 3;
    insts[2].op = WS_OP_BRA; insts[2].target = 4;
    insts[4].op = WS_OP_BWAIT; insts[4].barrier = 0;
    ws_div_sbi.init(&ctx, state, 0xff);
    ws_effect e;
    memset(&e, 0, sizeof e);
    e.taken = 0x0f;
    run(&ws_div_sbi, top(&ws_div_sbi), &e);
    const ws_split *sp;
    uint32_t start;
    assert_int_equal(ws_div_sbi.splits(state, &sp, &start), 2);
    /* round-robin after the branch at pc 1: the fall-through split (pc 2) first */
    assert_int_equal(sp[start].pc, 2);
    memset(&e, 0, sizeof e);
    run(&ws_div_sbi, sp[1], &e);                 /* then-path 3 -> WAIT: blocked */
    assert_int_equal(ws_div_sbi.splits(state, &sp, &start), 1);
    assert_int_equal(sp[0].pc, 2);
    e.taken = 0xf0;
    run(&ws_div_sbi, sp[0], &e);                 /* else path to WAIT: all arrived */
    assert_int_equal(ws_div_sbi.splits(state, &sp, &start), 1);
    assert_int_equal(sp[0].pc, 5);
    assert_int_equal(sp[0].mask, 0xff);              /* reconverged after the WAIT */
}

/* Lanes blocked at a convergence barrier whose other participants all wait at
 * a warp .sync op count as arrived there (ws_div_ops.sync_parked, docs/model.md
 * "Lanes parked behind a .sync operation"): `@lane0 bra TAIL; vote.sync ~0;
 * TAIL:` with lane 0 at TAIL's WAIT; aware's timeout releases it instead
 * (ws_div_ops.tick). The stack-based schemes keep the wait. */
static void test_sync_parked(void **st)
{
    (void)st;
    const ws_div_ops *cb[] = {&ws_div_sbi, &ws_div_barrier};
    for (int i = 0; i < 2; i++) {
        setup_kernel();
        /* 0: ADD B0; 1: @p bra 3; 2: vote.sync; 3: WAIT B0; 4: join */
        insts[0].op = WS_OP_BADD; insts[0].barrier = 0;
        insts[1].op = WS_OP_BRA; insts[1].target = 3;
        insts[2].op = WS_OP_VOTE;
        insts[3].op = WS_OP_BWAIT; insts[3].barrier = 0;
        const ws_div_ops *d = cb[i];
        d->init(&ctx, state, 0xff);
        ws_effect e;
        memset(&e, 0, sizeof e);
        if (d->issues_div_ops) run(d, top(d), &e);    /* the ADD */
        e.taken = 0x01;
        run(d, top(d), &e);                           /* lane 0 to the WAIT */
        memset(&e, 0, sizeof e);
        const ws_split *sp;
        uint32_t start, n = d->splits(state, &sp, &start);
        for (uint32_t k = 0; k < n; k++)
            if (sp[k].pc == 3) { run(d, sp[k], &e); break; }   /* barrier: issue the WAIT */
        assert_int_equal(d->parked(&ctx, state, 0), 0);
        assert_non_null(d->sync_parked);
        assert_int_equal(d->sync_parked(&ctx, state, 0xfe, 2), 0x01);   /* all others at the vote */
        assert_int_equal(d->sync_parked(&ctx, state, 0x7e, 2), 0);      /* lane 7 may still release it */
        assert_int_equal(d->sync_parked(&ctx, state, 0xfe, 4), 0);      /* a vote after the WAIT */
    }
    /* aware: lane 0 waits at the reconvergence point (pc 2) for lanes at the vote;
     * nothing can issue, so the timeout runs on by itself (ws_div_ops.tick): at
     * the first arrival (cycle 0, recorded as 1) + aware_timeout lane 0 goes on */
    setup_kernel();
    insts[0].op = WS_OP_BRA; insts[0].target = 2; insts[0].ipdom = 2;
    insts[1].op = WS_OP_VOTE;
    ctx.timeout = 1000;
    ws_div_aware.init(&ctx, state, 0xff);
    ws_effect e;
    memset(&e, 0, sizeof e);
    e.taken = 0x01;
    run(&ws_div_aware, top(&ws_div_aware), &e);
    assert_null(ws_div_aware.sync_parked);
    char err[128];
    uint64_t next = 0;
    assert_int_equal(ws_div_aware.tick(&ctx, state, 500, &next, err, sizeof err), 0);
    assert_int_equal(next, 1001);
    const ws_split *sp;
    uint32_t start;
    assert_int_equal(ws_div_aware.splits(state, &sp, &start), 1);
    assert_int_equal(ws_div_aware.tick(&ctx, state, 1001, &next, err, sizeof err), 1);
    assert_int_equal(next, UINT64_MAX);
    assert_int_equal(ws_div_aware.splits(state, &sp, &start), 2);
    assert_int_equal(sp[1].pc, 2);
    assert_int_equal(sp[1].mask, 0x01);
    ctx.timeout = 0;
    /* the stack-based schemes: a SIMT deadlock (no callback) */
    assert_null(ws_div_stack.sync_parked);
    assert_null(ws_div_multipath.sync_parked);
    assert_null(ws_div_dualpath.sync_parked);
    assert_null(ws_div_tbc.sync_parked);
    assert_null(ws_div_multipath.tick);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_path_at_rpc_and_exit),
        cmocka_unit_test(test_brx_nway),
        cmocka_unit_test(test_barrier_wait_yield),
        cmocka_unit_test(test_barrier_reconverge),
        cmocka_unit_test(test_sync_parked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
