/* Register-pressure estimate (ws_reg_pressure) on small PTX whose MaxLive
 * (the most values live at one program point, the lower bound of any
 * register allocation) is counted by hand. A source whose last use is an
 * instruction is not live after it, so the result may take its register. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include "warpsweep/ptx.h"
#include "warpsweep/passes.h"

static ws_kernel *parse(const char *body)
{
    static const char head[] = ".version 7.0\n.target sm_75\n.address_size 64\n"
                               ".visible .entry k(.param .u64 p)\n{\n"
                               "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<8>;\n";
    char text[4096];
    snprintf(text, sizeof text, "%s%s}\n", head, body);
    ws_error err;
    ws_kernel *k = ws_ptx_parse(text, "t.ptx", NULL, &err);
    if (!k) fail_msg("%s", err.msg);
    return k;
}

/* A chain: each value dies where the next is made: one register. (Declared: 16 + 8 + 4.) */
static void chain(void **state)
{
    (void)state;
    ws_kernel *k = parse("  mov.u32 %r1, %tid.x;\n  add.u32 %r2, %r1, 1;\n  add.u32 %r3, %r2, 1;\n"
                         "  add.u32 %r4, %r3, 1;\n  ret;\n");
    assert_int_equal(ws_reg_pressure(k), 1);
    ws_kernel_free(k);
}

/* Three values kept for a final sum, plus a 64-bit address live throughout:
 * after `mov %r3` live = rd1 (2 slots) + r1 r2 r3 = 5; after `add %r5, %r1, %r2`
 * only rd1 + r5 r3 = 4. */
static void fan_in_with_64bit(void **state)
{
    (void)state;
    ws_kernel *k = parse("  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n"
                         "  mov.u32 %r3, %ntid.x;\n  add.u32 %r5, %r1, %r2;\n  add.u32 %r6, %r5, %r3;\n"
                         "  st.global.u32 [%rd1], %r6;\n  ret;\n");
    assert_int_equal(ws_reg_pressure(k), 5);
    ws_kernel_free(k);
}

/* A loop: the counter and the accumulator stay live around the back-edge, and
 * the bound (r3) too: at `add %r2, %r2, %r4` live = r1 r2 r3 r4 = 4; predicates
 * are free. */
static void loop_carried(void **state)
{
    (void)state;
    ws_kernel *k = parse("  mov.u32 %r1, 0;\n  mov.u32 %r2, 0;\n  mov.u32 %r3, %tid.x;\n"
                         "$L:\n  mul.lo.u32 %r4, %r1, 3;\n  add.u32 %r2, %r2, %r4;\n  add.u32 %r1, %r1, 1;\n"
                         "  setp.lt.u32 %p1, %r1, %r3;\n  @%p1 bra $L;\n"
                         "  ld.param.u64 %rd1, [p];\n  st.global.u32 [%rd1], %r2;\n  ret;\n");
    assert_int_equal(ws_reg_pressure(k), 4);
    ws_kernel_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain),
        cmocka_unit_test(fan_in_with_64bit),
        cmocka_unit_test(loop_carried),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
