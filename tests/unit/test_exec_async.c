/* cp.async semantics (issue 15): PTX ISA 9.7.9.25 -- cp-size bytes land in shared memory,
 * the first src-size of them from global memory and the rest zero; src-size 0 reads nothing
 * (so an out-of-range source is fine); the effect the timing model charges is the global read;
 * misaligned addresses and src-size > cp-size fault; commit/wait have no functional effect. */
#include "exec_harness.h"

static xh *H;

static ws_inst cp(unsigned cpsize, ws_operand srcsize)
{
    ws_inst in = xi(WS_OP_CP_ASYNC, WS_TY_NONE);
    in.subop = WS_CPA_COPY;
    in.boolop = cpsize == 16 ? 2 : 1;
    in.space = WS_SP_SHARED;
    in.src[0] = addr(1, 0);          /* shared destination: register 1 */
    in.src[1] = addr(2, 0);          /* global source: register 2 */
    in.src[2] = imm(cpsize);
    in.src[3] = srcsize;
    in.nsrc = srcsize.kind == WS_OK_NONE ? 3 : 4;
    return in;
}

static void fill(void)
{
    for (unsigned i = 0; i < XH_BUF; i++) H->bufa[i] = (uint8_t)(0x10 + i);
    memset(H->smem, 0xee, XH_SMEM);
}

static void test_copy_and_zero_fill(void **s)
{
    (void)s;
    fill();
    setall(H, 1, 32); setall(H, 2, XH_BUF_A + 16);
    /* 16 bytes, src-size 16: bytes 0x20..0x2f */
    ws_inst in = cp(16, none());
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_OK);
    for (unsigned i = 0; i < 16; i++) assert_int_equal(H->smem[32 + i], 0x20 + i);
    assert_int_equal(H->smem[48], 0xee);                 /* nothing beyond cp-size */
    assert_int_equal(H->eff.mem_kind, 1);
    assert_int_equal(H->eff.mem_space, WS_SP_GLOBAL);
    assert_int_equal(H->eff.mem_bytes, 16);
    assert_int_equal(H->eff.mem_addr[0], XH_BUF_A + 16);
    /* src-size 3 (not a multiple of 4): 0x20 0x21 0x22, then 13 zeros */
    memset(H->smem, 0xee, XH_SMEM);
    in = cp(16, imm(3));
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_OK);
    assert_int_equal(H->smem[32], 0x20);
    assert_int_equal(H->smem[34], 0x22);
    for (unsigned i = 3; i < 16; i++) assert_int_equal(H->smem[32 + i], 0);
    /* src-size 0 from a register, source outside every buffer: 8 zeros, no global read */
    memset(H->smem, 0xee, XH_SMEM);
    setall(H, 2, 0x10);
    setall(H, 3, 0);
    in = cp(8, reg(3));
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_OK);
    for (unsigned i = 0; i < 8; i++) assert_int_equal(H->smem[32 + i], 0);
    assert_int_equal(H->smem[40], 0xee);
    assert_int_equal(H->eff.mem_kind, 0);
    assert_int_equal(H->eff.mem_mask, 0);
}

static void test_faults(void **s)
{
    (void)s;
    fill();
    /* a 16-byte copy needs 16-byte-aligned addresses */
    setall(H, 1, 32); setall(H, 2, XH_BUF_A + 8);
    ws_inst in = cp(16, none());
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "misaligned 16-byte cp.async source"));
    setall(H, 1, 36); setall(H, 2, XH_BUF_A);
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_FAULT);
    /* src-size above cp-size (a register value) */
    setall(H, 1, 32); setall(H, 3, 5);
    in = cp(4, reg(3));
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "src-size 5 exceeds the cp-size 4"));
    /* the buffer's last 4 bytes are fine; 16 bytes just past the buffer (aligned) are not, but
     * with src-size 0 nothing is read */
    setall(H, 2, XH_BUF_A + XH_BUF - 4);
    setall(H, 3, 4);
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_OK);
    setall(H, 2, XH_BUF_A + XH_BUF);
    in = cp(16, none());
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "out-of-bounds"));
    in = cp(16, imm(0));
    assert_int_equal(xrun_mask(H, &in, 1), WS_EXEC_OK);
}

int main(void)
{
    H = xh_new(32);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_and_zero_fill),
        cmocka_unit_test(test_faults),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    free(H);
    return r;
}
