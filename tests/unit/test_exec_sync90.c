/* mbarrier and elect.sync (issue 15). mbarrier (PTX ISA 9.7.13.15): a phase completes when its
 * expected count of arrivals is in; test_wait on the state an arrive returned is true once that
 * phase has completed, .parity p once the phase of parity p has; arrive_drop lowers the count
 * of the next phases. elect.sync (9.7.13.11): the lowest-numbered member lane is the leader. */
#include "exec_harness.h"

static xh *H;

static ws_inst mbar(unsigned op, ws_operand d, ws_operand a, ws_operand b)
{
    ws_inst in = xi(WS_OP_MBARRIER, WS_TY_B64);
    in.subop = (uint8_t)op;
    in.space = WS_SP_SHARED;
    in.dst[0] = d; in.ndst = d.kind == WS_OK_NONE ? 0 : 1;
    in.src[0] = a; in.src[1] = b;
    in.nsrc = b.kind == WS_OK_NONE ? 1 : 2;
    return in;
}

static void test_mbarrier_phases(void **s)
{
    (void)s;
    memset(H->smem, 0, XH_SMEM);
    ws_inst init = mbar(WS_MBAR_INIT, none(), addr(WS_NO_REG, 8), imm(3));
    assert_int_equal(xrun_mask(H, &init, 1), WS_EXEC_OK);
    /* lanes 0 and 1 arrive: phase 0 is not complete for either */
    ws_inst arrive = mbar(WS_MBAR_ARRIVE, reg(1), addr(WS_NO_REG, 8), none());
    assert_int_equal(xrun_mask(H, &arrive, 0x3), WS_EXEC_OK);
    ws_inst wait = mbar(WS_MBAR_TEST_WAIT, reg(2), addr(WS_NO_REG, 8), reg(1));
    assert_int_equal(xrun_mask(H, &wait, 0x3), WS_EXEC_OK);
    assert_int_equal(getr(H, 2, 0), 0);
    assert_int_equal(getr(H, 2, 1), 0);
    /* pending_count of the states: 2 after lane 0's arrival, 1 after lane 1's */
    ws_inst pc = mbar(WS_MBAR_PENDING_COUNT, reg(3), reg(1), none());
    assert_int_equal(xrun_mask(H, &pc, 0x3), WS_EXEC_OK);
    assert_int_equal(getr(H, 3, 0), 2);
    assert_int_equal(getr(H, 3, 1), 1);
    /* .parity: phase 0 (parity 0) not complete yet */
    ws_inst par = mbar(WS_MBAR_TRY_WAIT, reg(4), addr(WS_NO_REG, 8), imm(0));
    par.boolop = WS_MBAR_PARITY;
    assert_int_equal(xrun_mask(H, &par, 1), WS_EXEC_OK);
    assert_int_equal(getr(H, 4, 0), 0);
    /* the third arrival (lane 2) completes phase 0: the waits on lanes 0/1's states are now true */
    assert_int_equal(xrun_mask(H, &arrive, 0x4), WS_EXEC_OK);
    assert_int_equal(xrun_mask(H, &wait, 0x3), WS_EXEC_OK);
    assert_int_equal(getr(H, 2, 0), 1);
    assert_int_equal(getr(H, 2, 1), 1);
    assert_int_equal(xrun_mask(H, &par, 1), WS_EXEC_OK);
    assert_int_equal(getr(H, 4, 0), 1);
    par.src[1] = imm(1);   /* phase 1 (parity 1) has just begun */
    assert_int_equal(xrun_mask(H, &par, 1), WS_EXEC_OK);
    assert_int_equal(getr(H, 4, 0), 0);
    /* phase 1: lane 0 arrives with arrive_drop (count 3 -> 2 for phase 2), lanes 1, 2 arrive:
     * complete; phase 2 then needs only 2 arrivals */
    ws_inst drop = mbar(WS_MBAR_ARRIVE_DROP, reg(1), addr(WS_NO_REG, 8), none());
    assert_int_equal(xrun_mask(H, &drop, 0x1), WS_EXEC_OK);
    assert_int_equal(xrun_mask(H, &arrive, 0x6), WS_EXEC_OK);
    assert_int_equal(xrun_mask(H, &arrive, 0x3), WS_EXEC_OK);   /* two arrivals complete phase 2 */
    par.src[1] = imm(0);   /* phase 2 has parity 0 again: complete */
    assert_int_equal(xrun_mask(H, &par, 1), WS_EXEC_OK);
    assert_int_equal(getr(H, 4, 0), 1);
    /* arrive with a count above the pending arrivals is undefined: a fault; init count 0 too */
    ws_inst big = mbar(WS_MBAR_ARRIVE, reg(1), addr(WS_NO_REG, 8), imm(5));
    big.nsrc = 2;
    assert_int_equal(xrun_mask(H, &big, 1), WS_EXEC_FAULT);
    init.src[1] = imm(0);
    assert_int_equal(xrun_mask(H, &init, 1), WS_EXEC_FAULT);
}

static void test_elect(void **s)
{
    (void)s;
    setall(H, 5, 0xfffffff0u);
    ws_inst in = xi(WS_OP_ELECT, WS_TY_NONE);
    in.dst[0] = reg(0); in.dst[1] = reg(1); in.ndst = 2;
    in.src[0] = reg(5); in.nsrc = 1;
    /* lanes 4..31 execute with membermask 0xfffffff0: the leader is lane 4 */
    assert_int_equal(xrun_mask(H, &in, 0xfffffff0u), WS_EXEC_OK);
    for (unsigned l = 4; l < 32; l++) {
        assert_int_equal(getr(H, 0, l), 4);
        assert_int_equal(getr(H, 1, l), l == 4);
    }
    /* lane 4 not executing: the leader is the lowest executing member, lane 5 */
    assert_int_equal(xrun_mask(H, &in, 0xffffffe0u), WS_EXEC_OK);
    assert_int_equal(getr(H, 0, 9), 5);
    assert_int_equal(getr(H, 1, 5), 1);
    /* an executing lane outside its membermask is undefined: a fault */
    assert_int_equal(xrun_mask(H, &in, 0xffffffffu), WS_EXEC_FAULT);
}

int main(void)
{
    H = xh_new(32);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mbarrier_phases),
        cmocka_unit_test(test_elect),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    free(H);
    return r;
}
