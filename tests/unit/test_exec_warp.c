/* Warp-level semantics: shfl.sync (PTX pseudo-code, incl. segments and the
 * predicate), vote.sync, activemask, match.sync; narrow and wide warps. */
#include "exec_harness.h"

static ws_inst shfl(unsigned mode, ws_operand b, ws_operand c)
{
    ws_inst in = xi(WS_OP_SHFL, WS_TY_B32);
    in.subop = (uint8_t)mode;
    in.dst[0] = reg(0); in.dst[1] = reg(1); in.ndst = 2;
    in.src[0] = reg(2); in.src[1] = b; in.src[2] = c; in.src[3] = imm(0xffffffff); in.nsrc = 4;
    return in;
}

static void fill(xh *h, unsigned r)
{
    for (unsigned l = 0; l < h->L.warp_size; l++) setr(h, r, l, 100 + l);
}

static void test_shfl_basic(void **s)
{
    (void)s;
    xh *h = xh_new(32);
    fill(h, 2);
    ws_inst in = shfl(WS_SHFL_DOWN, imm(1), imm(0x1f));
    assert_int_equal(xrun(h, &in), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 0), 101);
    assert_int_equal(getr(h, 1, 0), 1);
    assert_int_equal(getr(h, 0, 30), 131);
    assert_int_equal(getr(h, 0, 31), 131);   /* own value */
    assert_int_equal(getr(h, 1, 31), 0);
    in = shfl(WS_SHFL_UP, imm(1), imm(0));
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 0), 100);
    assert_int_equal(getr(h, 1, 0), 0);
    assert_int_equal(getr(h, 0, 5), 104);
    assert_int_equal(getr(h, 1, 5), 1);
    in = shfl(WS_SHFL_BFLY, imm(1), imm(0x1f));
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 4), 105);
    assert_int_equal(getr(h, 0, 5), 104);
    in = shfl(WS_SHFL_IDX, imm(3), imm(0x1f));
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 0), 103);
    assert_int_equal(getr(h, 0, 31), 103);
    assert_int_equal(getr(h, 1, 31), 1);
    /* b is taken mod 32 */
    in = shfl(WS_SHFL_IDX, imm(35), imm(0x1f));
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 9), 103);
    /* d aliases a: sources read before any write */
    in = shfl(WS_SHFL_DOWN, imm(16), imm(0x1f));
    in.dst[0] = reg(2);
    xrun(h, &in);
    assert_int_equal(getr(h, 2, 0), 116);
    assert_int_equal(getr(h, 2, 15), 131);
    assert_int_equal(getr(h, 2, 16), 116);
    free(h);
}

static void test_shfl_segments(void **s)
{
    (void)s;
    xh *h = xh_new(32);
    fill(h, 2);
    /* width 8: c = ((32 - 8) << 8) | 0x1f for idx/down/bfly, (32 - 8) << 8 for up */
    ws_inst in = shfl(WS_SHFL_IDX, imm(2), imm(0x181f));
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 13), 110);
    assert_int_equal(getr(h, 0, 31), 126);
    in = shfl(WS_SHFL_DOWN, imm(4), imm(0x181f));
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 2), 106);
    assert_int_equal(getr(h, 1, 2), 1);
    assert_int_equal(getr(h, 0, 5), 105);    /* 9 is in the next segment */
    assert_int_equal(getr(h, 1, 5), 0);
    in = shfl(WS_SHFL_UP, imm(2), imm(0x1800));
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 9), 109);
    assert_int_equal(getr(h, 1, 9), 0);
    assert_int_equal(getr(h, 0, 11), 109);
    assert_int_equal(getr(h, 1, 11), 1);
    /* clamp value without segments: down limited to lane 15 */
    in = shfl(WS_SHFL_DOWN, imm(1), imm(0x0f));
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 14), 115);
    assert_int_equal(getr(h, 0, 15), 115);
    assert_int_equal(getr(h, 1, 15), 0);
    assert_int_equal(getr(h, 0, 20), 120);   /* above the clamp: own value */
    free(h);
}

static void test_shfl_member_and_narrow(void **s)
{
    (void)s;
    xh *h = xh_new(32);
    ws_inst in = shfl(WS_SHFL_DOWN, imm(1), imm(0x1f));
    in.src[3] = imm(0x0000ffff);
    assert_int_equal(xrun_mask(h, &in, 0xffff), WS_EXEC_OK);
    assert_int_equal(xrun_mask(h, &in, 0x1ffff), WS_EXEC_FAULT);
    assert_non_null(strstr(h->env.fault, "lane 16 "));
    assert_non_null(strstr(h->env.fault, "membermask"));
    free(h);

    h = xh_new(8);
    fill(h, 2);
    in = shfl(WS_SHFL_DOWN, imm(1), imm(0x1f));
    assert_int_equal(xrun(h, &in), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 6), 107);
    assert_int_equal(getr(h, 0, 7), 107);    /* lane 8 does not exist */
    assert_int_equal(getr(h, 1, 7), 0);
    in = shfl(WS_SHFL_BFLY, imm(4), imm(0x1f));
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 1), 105);
    free(h);
}

static void test_vote(void **s)
{
    (void)s;
    xh *h = xh_new(32);
    for (unsigned l = 0; l < 32; l++) setr(h, 2, l, (l & 1) == 0);
    ws_inst in = xi(WS_OP_VOTE, WS_TY_B32);
    in.subop = WS_VOTE_BALLOT;
    in.dst[0] = reg(0); in.src[0] = reg(2); in.src[1] = imm(0xffffffff); in.ndst = 1; in.nsrc = 2;
    assert_int_equal(xrun(h, &in), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 7), 0x55555555);
    assert_int_equal(xrun_mask(h, &in, 0xff), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 0), 0x55);
    in.src[0] = nreg(2);
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 0), 0xaaaaaaaa);
    in.src[0] = reg(2);
    in.type = WS_TY_PRED;
    in.subop = WS_VOTE_ALL;
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 3), 0);
    assert_int_equal(xrun_mask(h, &in, 0x5), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 0), 1);
    in.subop = WS_VOTE_ANY;
    assert_int_equal(xrun_mask(h, &in, 0xa), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 1), 0);
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 1), 1);
    in.subop = WS_VOTE_UNI;
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 0), 0);
    assert_int_equal(xrun_mask(h, &in, 0xa), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 1), 1);
    /* activemask */
    ws_inst am = xi(WS_OP_ACTIVEMASK, WS_TY_B32);
    am.dst[0] = reg(3); am.ndst = 1;
    assert_int_equal(xrun_mask(h, &am, 0xf0f0), WS_EXEC_OK);
    assert_int_equal(getr(h, 3, 4), 0xf0f0);
    free(h);
}

static void test_match(void **s)
{
    (void)s;
    xh *h = xh_new(32);
    for (unsigned l = 0; l < 32; l++) setr(h, 2, l, l % 3);
    ws_inst in = xi(WS_OP_MATCH, WS_TY_B32);
    in.subop = WS_MATCH_ANY;
    in.dst[0] = reg(0); in.src[0] = reg(2); in.src[1] = imm(0xffffffff); in.ndst = 1; in.nsrc = 2;
    assert_int_equal(xrun(h, &in), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 0), 0x49249249);
    assert_int_equal(getr(h, 0, 1), 0x92492492);
    assert_int_equal(getr(h, 0, 2), 0x24924924);
    assert_int_equal(xrun_mask(h, &in, 0xf), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 3), 0x9);
    in.subop = WS_MATCH_ALL;
    in.dst[1] = reg(1); in.ndst = 2;
    assert_int_equal(xrun_mask(h, &in, 0x9), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 0), 0x9);
    assert_int_equal(getr(h, 1, 3), 1);
    assert_int_equal(xrun(h, &in), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 0), 0);
    assert_int_equal(getr(h, 1, 0), 0);
    /* b64 compares all 64 bits */
    in.type = WS_TY_B64; in.subop = WS_MATCH_ANY;
    for (unsigned l = 0; l < 32; l++) setr(h, 2, l, (uint64_t)(l & 1) << 40);
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 0), 0x55555555);
    free(h);
}

static void test_wide_warp(void **s)
{
    (void)s;
    xh *h = xh_new(64);
    fill(h, 2);
    ws_inst in = shfl(WS_SHFL_DOWN, imm(1), imm(0x1f));
    assert_int_equal(xrun(h, &in), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 31), 131);   /* groups of 32 */
    assert_int_equal(getr(h, 0, 32), 133);
    assert_int_equal(getr(h, 0, 63), 163);
    assert_int_equal(getr(h, 1, 63), 0);
    for (unsigned l = 0; l < 64; l++) setr(h, 3, l, l >= 40);
    ws_inst v = xi(WS_OP_VOTE, WS_TY_B32);
    v.subop = WS_VOTE_BALLOT;
    v.dst[0] = reg(0); v.src[0] = reg(3); v.src[1] = imm(0xffffffff); v.ndst = 1; v.nsrc = 2;
    assert_int_equal(xrun(h, &v), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 0), 0);
    assert_int_equal(getr(h, 0, 63), 0xffffff00);
    ws_inst m = inst2(WS_OP_MOV, WS_TY_U32, reg(4), sreg(WS_SR_LANEID));
    xrun(h, &m);
    assert_int_equal(getr(h, 4, 45), 13);
    free(h);
}

/* redux.sync: every participating lane of a 32-lane group gets the reduction
 * over its group's participating lanes; .add wraps, .min/.max signed for .s32 */
static void test_redux(void **s)
{
    (void)s;
    xh *h = xh_new(64);
    for (unsigned l = 0; l < 64; l++) setr(h, 2, l, l < 32 ? l : (uint32_t)-(int32_t)l);
    ws_inst in = xi(WS_OP_REDUX, WS_TY_U32);
    in.subop = WS_ATOM_ADD;
    in.dst[0] = reg(0); in.src[0] = reg(2); in.src[1] = imm(0xffffffff); in.ndst = 1; in.nsrc = 2;
    assert_int_equal(xrun(h, &in), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 0), 496);                            /* 0+..+31 */
    assert_int_equal(getr(h, 0, 63), (uint32_t)-(32 * 32 + 496));    /* group 1 separately, mod 2^32 */
    in.type = WS_TY_S32; in.subop = WS_ATOM_MIN;
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 5), 0);
    assert_int_equal(getr(h, 0, 40), (uint32_t)-63);
    in.type = WS_TY_U32;
    xrun(h, &in);
    assert_int_equal(getr(h, 0, 40), (uint32_t)-63);                 /* unsigned: 2^32-63 < 2^32-32 */
    in.subop = WS_ATOM_MAX; in.type = WS_TY_S32;
    assert_int_equal(xrun_mask(h, &in, 0xf0), WS_EXEC_OK);           /* partial: lanes 4..7 */
    assert_int_equal(getr(h, 0, 4), 7);
    in.type = WS_TY_B32; in.subop = WS_ATOM_OR;
    assert_int_equal(xrun_mask(h, &in, 0x30), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 5), 5 | 4);
    in.subop = WS_ATOM_XOR;
    assert_int_equal(xrun_mask(h, &in, 0x7), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 0), 1 ^ 2);
    in.subop = WS_ATOM_AND;
    assert_int_equal(xrun_mask(h, &in, 0x6), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 1), 1 & 2);
    /* an executing lane outside its membermask is a fault, as for shfl/vote */
    in.src[1] = imm(0x1);
    assert_int_equal(xrun_mask(h, &in, 0x3), WS_EXEC_FAULT);
    free(h);
}

/* Each lane's result is over ITS OWN membermask (PTX ISA vote/match/redux.sync:
 * "across all non-exited threads in membermask"): a converged warp whose lanes
 * pass different masks gets one result per group. */
static void test_per_lane_members(void **s)
{
    (void)s;
    xh *h = xh_new(32);
    for (unsigned l = 0; l < 32; l++) {
        setr(h, 2, l, l);                                   /* a = lane */
        setr(h, 3, l, (l & 1) ? 0xaaaaaaaa : 0x55555555);   /* even / odd groups */
        setr(h, 4, l, l < 16 ? 0x0000ffff : 0xffff0000);    /* halves (tiled_partition<16>) */
        setr(h, 5, l, l % 3 == 0);                          /* predicate */
    }
    ws_inst rd = xi(WS_OP_REDUX, WS_TY_U32);
    rd.subop = WS_ATOM_ADD;
    rd.dst[0] = reg(0); rd.src[0] = reg(2); rd.src[1] = reg(3); rd.ndst = 1; rd.nsrc = 2;
    assert_int_equal(xrun(h, &rd), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 0), 240);                   /* 0+2+..+30 */
    assert_int_equal(getr(h, 0, 30), 240);
    assert_int_equal(getr(h, 0, 1), 256);                   /* 1+3+..+31 */
    rd.subop = WS_ATOM_MAX; rd.src[1] = reg(4);
    xrun(h, &rd);
    assert_int_equal(getr(h, 0, 3), 15);
    assert_int_equal(getr(h, 0, 16), 31);
    ws_inst v = xi(WS_OP_VOTE, WS_TY_B32);
    v.subop = WS_VOTE_BALLOT;
    v.dst[0] = reg(0); v.src[0] = reg(5); v.src[1] = reg(3); v.ndst = 1; v.nsrc = 2;
    xrun(h, &v);
    /* lanes 0,3,6,..,30: the even ones are 0,6,12,18,24,30, the odd ones 3,9,15,21,27 */
    assert_int_equal(getr(h, 0, 2), 0x41041041);
    assert_int_equal(getr(h, 0, 5), 0x08208208);
    v.type = WS_TY_PRED; v.subop = WS_VOTE_ANY; v.src[1] = reg(4);
    for (unsigned l = 0; l < 32; l++) setr(h, 5, l, l == 20);
    xrun(h, &v);
    assert_int_equal(getr(h, 0, 0), 0);                     /* lane 20 is in the other half */
    assert_int_equal(getr(h, 0, 31), 1);
    v.subop = WS_VOTE_UNI;
    xrun(h, &v);
    assert_int_equal(getr(h, 0, 7), 1);
    assert_int_equal(getr(h, 0, 17), 0);
    ws_inst m = xi(WS_OP_MATCH, WS_TY_B32);
    m.subop = WS_MATCH_ALL;
    m.dst[0] = reg(0); m.dst[1] = reg(1); m.src[0] = reg(6); m.src[1] = reg(4); m.ndst = 2; m.nsrc = 2;
    for (unsigned l = 0; l < 32; l++) setr(h, 6, l, l < 16 ? 7 : l);
    xrun(h, &m);
    assert_int_equal(getr(h, 0, 9), 0x0000ffff);            /* the low half agrees */
    assert_int_equal(getr(h, 1, 9), 1);
    assert_int_equal(getr(h, 0, 25), 0);
    assert_int_equal(getr(h, 1, 25), 0);
    m.subop = WS_MATCH_ANY;
    xrun(h, &m);
    assert_int_equal(getr(h, 0, 25), 1u << 25);
    free(h);
}

/* Legacy vote (no .sync, no membermask): over the executing lanes of the warp
 * (PTX ISA vote: "across all active threads in a warp"). */
static void test_legacy_vote(void **s)
{
    (void)s;
    xh *h = xh_new(32);
    for (unsigned l = 0; l < 32; l++) setr(h, 2, l, l >= 4);
    ws_inst v = xi(WS_OP_VOTE, WS_TY_B32);
    v.subop = WS_VOTE_BALLOT;
    v.dst[0] = reg(0); v.src[0] = reg(2); v.ndst = 1; v.nsrc = 1;
    assert_int_equal(xrun_mask(h, &v, 0xff), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 0), 0xf0);
    v.type = WS_TY_PRED; v.subop = WS_VOTE_ALL;
    xrun_mask(h, &v, 0xf0);
    assert_int_equal(getr(h, 0, 4), 1);
    xrun_mask(h, &v, 0x18);
    assert_int_equal(getr(h, 0, 3), 0);
    free(h);
}

/* A rendezvous of two instructions (the two branches of an if/else): each lane
 * reads its operands from its own instruction, the combine step spans both. */
static void test_rendezvous(void **s)
{
    (void)s;
    xh *h = xh_new(32);
    for (unsigned l = 0; l < 32; l++) { setr(h, 2, l, 100 + l); setr(h, 3, l, 200 + l); setr(h, 4, l, l & 1); }
    /* if (odd) d = shfl.idx(r3, lane+1) else d = shfl.idx(r2, lane+1) */
    ws_inst even = shfl(WS_SHFL_IDX, reg(5), imm(0x1f)), odd = even;
    odd.src[0] = reg(3);
    for (unsigned l = 0; l < 32; l++) setr(h, 5, l, (l + 1) & 31);
    ws_warp_part parts[2] = {{.in = &even, .pc = 10, .active = 0x55555555},
                             {.in = &odd, .pc = 20, .active = 0xaaaaaaaa}};
    assert_int_equal(ws_exec_warp_rendezvous(&h->env, &h->w, parts, 2), WS_EXEC_OK);
    assert_int_equal(getr(h, 0, 0), 201);                   /* lane 1 is odd: its r3 */
    assert_int_equal(getr(h, 0, 1), 102);                   /* lane 2 is even: its r2 */
    assert_int_equal(getr(h, 0, 31), 100);
    assert_int_equal(parts[0].executed, 0x55555555);
    /* ballot with a negated predicate in one branch */
    ws_inst b0 = xi(WS_OP_VOTE, WS_TY_B32);
    b0.subop = WS_VOTE_BALLOT;
    b0.dst[0] = reg(6); b0.src[0] = reg(4); b0.src[1] = imm(0xffffffff); b0.ndst = 1; b0.nsrc = 2;
    ws_inst b1 = b0;
    b1.src[0] = nreg(4);
    parts[0].in = &b0; parts[1].in = &b1;
    assert_int_equal(ws_exec_warp_rendezvous(&h->env, &h->w, parts, 2), WS_EXEC_OK);
    assert_int_equal(getr(h, 6, 0), 0);                     /* evens vote 0, odds vote !1 */
    parts[0].active = 0x0000ffff; parts[1].active = 0xffff0000;
    ws_exec_warp_rendezvous(&h->env, &h->w, parts, 2);
    assert_int_equal(getr(h, 6, 3), 0x5555aaaa);            /* lanes 1,3,..,15 then 16,18,..,30 */
    /* redux across branches, destination in different registers */
    ws_inst r0 = xi(WS_OP_REDUX, WS_TY_U32);
    r0.subop = WS_ATOM_ADD;
    r0.dst[0] = reg(7); r0.src[0] = reg(2); r0.src[1] = imm(0xffffffff); r0.ndst = 1; r0.nsrc = 2;
    ws_inst r1 = r0;
    r1.dst[0] = reg(8); r1.src[0] = imm(1);
    parts[0].in = &r0; parts[1].in = &r1;
    ws_exec_warp_rendezvous(&h->env, &h->w, parts, 2);
    assert_int_equal(getr(h, 7, 0), 16 * 100 + 120 + 16);   /* 100..115 plus sixteen 1s */
    assert_int_equal(getr(h, 8, 31), 16 * 100 + 120 + 16);
    /* kinds: the same opcode and qualifiers only */
    ws_inst down = shfl(WS_SHFL_DOWN, imm(1), imm(0x1f));
    assert_true(ws_warp_same_kind(&even, &odd));
    assert_false(ws_warp_same_kind(&even, &down));
    assert_false(ws_warp_same_kind(&b0, &r0));
    r1.type = WS_TY_S32;
    assert_false(ws_warp_same_kind(&r0, &r1));
    ws_inst w0 = xi(WS_OP_BAR_WARP, WS_TY_NONE), w1 = w0;
    w0.src[0] = imm(0xffffffff); w0.nsrc = 1;
    w1.src[0] = reg(3); w1.nsrc = 1;
    assert_true(ws_warp_same_kind(&w0, &w1));
    parts[0].in = &even; parts[1].in = &down;
    assert_int_equal(ws_exec_warp_rendezvous(&h->env, &h->w, parts, 2), WS_EXEC_FAULT);
    free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shfl_basic),
        cmocka_unit_test(test_shfl_segments),
        cmocka_unit_test(test_shfl_member_and_narrow),
        cmocka_unit_test(test_vote),
        cmocka_unit_test(test_match),
        cmocka_unit_test(test_wide_warp),
        cmocka_unit_test(test_redux),
        cmocka_unit_test(test_per_lane_members),
        cmocka_unit_test(test_legacy_vote),
        cmocka_unit_test(test_rendezvous),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
