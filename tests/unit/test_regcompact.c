/* Register compaction (ws_reg_compact, src/ptx/regcompact.c) on small PTX
 * whose intervals are derived by hand. A register's interval runs over the
 * instruction indices where it is read, written or live after; registers
 * share a row of the register file only when their intervals are disjoint
 * (so an instruction's sources and results never share), and the rows
 * needed are the most intervals that overlap at one index, counted
 * separately for the registers that matter (ws_reg_relevance: they steer a
 * branch, a guard, an address, a warp-level or non-pure instruction) and the
 * others (values that only flow into stores), which take the rows after
 * them. Every register is one 64-bit row, predicates included. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
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

/* the row of the register named `name` */
static uint32_t row(const ws_kernel *k, const char *name)
{
    for (uint32_t r = 0; r < k->nregs; r++)
        if (!strcmp(k->reg_names[r], name)) {
            assert_true(k->reg_slot[r] < k->nslots);
            return k->reg_slot[r];
        }
    fail_msg("no register %s", name);
    return 0;
}

/* r1 [0,1], r2 [1,2], r3 [2,3], r4 [3,3], none of them matters: two rows, r1/r3 and
 * r2/r4 (28 declared). */
static void chain(void **state)
{
    (void)state;
    ws_kernel *k = parse("  mov.u32 %r1, %tid.x;\n  add.u32 %r2, %r1, 1;\n  add.u32 %r3, %r2, 1;\n"
                         "  add.u32 %r4, %r3, 1;\n  ret;\n");
    assert_int_equal(k->nregs, 28);
    assert_int_equal(k->nslots, 2);
    assert_int_equal(row(k, "%r1"), row(k, "%r3"));
    assert_int_equal(row(k, "%r2"), row(k, "%r4"));
    assert_int_not_equal(row(k, "%r1"), row(k, "%r2"));
    ws_kernel_free(k);
}

/* rd1 [0,6] (an address: it matters; one row, 64 bits) and the stored values r1 [1,4],
 * r2 [2,4], r3 [3,5], r5 [4,5], r6 [5,6]: at index 4 r1 r2 r3 r5 overlap: 1 + 4 rows. */
static void fan_in(void **state)
{
    (void)state;
    ws_kernel *k = parse("  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n"
                         "  mov.u32 %r3, %ntid.x;\n  add.u32 %r5, %r1, %r2;\n  add.u32 %r6, %r5, %r3;\n"
                         "  st.global.u32 [%rd1], %r6;\n  ret;\n");
    assert_int_equal(k->nslots, 5);
    assert_int_equal(row(k, "%r6"), row(k, "%r1"));   /* r1's row is the lowest freed at 5 */
    ws_kernel_free(k);
}

/* Blocks [0,2] [3,7] [8,10]; r1 r2 r3 live around the back edge. Registers that matter
 * (the branch's p1, the setp's r1 r3, the address rd1): r1 [0,7], r3 [2,7], p1 [6,7],
 * rd1 [8,9]: 3 rows, rd1 in r1's (the lowest free). The stored sum r2 [1,9] and r4 [3,4]:
 * 2 rows after them, so p1 does not take r4's. */
static void loop_carried(void **state)
{
    (void)state;
    ws_kernel *k = parse("  mov.u32 %r1, 0;\n  mov.u32 %r2, 0;\n  mov.u32 %r3, %tid.x;\n"
                         "$L:\n  mul.lo.u32 %r4, %r1, 3;\n  add.u32 %r2, %r2, %r4;\n  add.u32 %r1, %r1, 1;\n"
                         "  setp.lt.u32 %p1, %r1, %r3;\n  @%p1 bra $L;\n"
                         "  ld.param.u64 %rd1, [p];\n  st.global.u32 [%rd1], %r2;\n  ret;\n");
    assert_int_equal(k->nslots, 5);
    assert_int_not_equal(row(k, "%p1"), row(k, "%r4"));
    assert_int_equal(row(k, "%rd1"), row(k, "%r1"));
    assert_true(row(k, "%r1") < 3 && row(k, "%r3") < 3 && row(k, "%p1") < 3);
    assert_true(row(k, "%r2") >= 3 && row(k, "%r4") >= 3);
    assert_int_not_equal(row(k, "%r2"), row(k, "%r1"));
    assert_int_not_equal(row(k, "%r2"), row(k, "%r3"));
    ws_kernel_free(k);
}

/* r2 is read before it is written on the path through $S (its value there is the zero
 * every register starts with): live into the first block, r2 [0,4] overlaps r1 [0,1]
 * and p1 [1,2]; without that r2 [3,4] could take r1's row and read the thread's %tid.
 * All of them matter (r3 steers the second branch): r3 [4,5] takes r1's row, p2 [5,6]
 * r2's, rd1 [7,8] r1's again: 3 rows. */
static void read_before_write(void **state)
{
    (void)state;
    ws_kernel *k = parse("  mov.u32 %r1, %tid.x;\n  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra $S;\n"
                         "  mov.u32 %r2, 5;\n$S:\n  add.u32 %r3, %r2, 1;\n  setp.eq.u32 %p2, %r3, 6;\n"
                         "  @%p2 bra $E;\n  ld.param.u64 %rd1, [p];\n  st.global.u32 [%rd1], 0;\n$E:\n  ret;\n");
    assert_int_equal(k->nslots, 3);
    assert_int_not_equal(row(k, "%r2"), row(k, "%r1"));
    assert_int_not_equal(row(k, "%r2"), row(k, "%p1"));
    assert_int_equal(row(k, "%r3"), row(k, "%r1"));
    ws_kernel_free(k);
}

/* A guarded write does not end a live range: in lanes where p1 is false r2 is never
 * written and `add` reads its initial zero, so r2 is live around the loop and into the
 * first block: r2 [0,6] overlaps r1 [0,2], p1 [1,6], r5 [2,8]: 4 rows. (Were the guarded
 * mov a kill, r2 [3,4] would take r1's row, freed at 2, and read the thread's %tid: 3 rows.) */
static void guarded_write(void **state)
{
    (void)state;
    ws_kernel *k = parse("  mov.u32 %r1, %tid.x;\n  setp.ne.u32 %p1, %r1, 3;\n  add.u32 %r5, %r1, 0;\n"
                         "$L:\n  @%p1 mov.u32 %r2, %r5;\n  add.u32 %r5, %r5, %r2;\n"
                         "  setp.lt.u32 %p2, %r5, 100;\n  @%p2 bra $L;\n"
                         "  ld.param.u64 %rd1, [p];\n  st.global.u32 [%rd1], %r5;\n  ret;\n");
    assert_int_equal(k->nslots, 4);
    assert_int_not_equal(row(k, "%r2"), row(k, "%r1"));
    ws_kernel_free(k);
}

/* Vector destinations: rd1 [0,5] (matters), the stored r1 r2 [1,2], r3 r4 [1,3], r5 [2,4],
 * r6 [3,4], r7 [4,5]: at 2 r1 r2 r3 r4 r5: 1 + 5 rows. */
static void vector_operands(void **state)
{
    (void)state;
    ws_kernel *k = parse("  ld.param.u64 %rd1, [p];\n  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];\n"
                         "  add.u32 %r5, %r1, %r2;\n  add.u32 %r6, %r3, %r4;\n  add.u32 %r7, %r5, %r6;\n"
                         "  st.global.u32 [%rd1], %r7;\n  ret;\n");
    assert_int_equal(k->nslots, 6);
    ws_kernel_free(k);
}

/* shfl reads its source in lanes that do not execute it: r1 keeps a row of its own for
 * the whole kernel, though its last use is the shfl; the chain after it shares the rest. */
static void shfl_source_pinned(void **state)
{
    (void)state;
    ws_kernel *k = parse("  mov.u32 %r1, %tid.x;\n  shfl.sync.idx.b32 %r2, %r1, 0, 31, -1;\n"
                         "  add.u32 %r3, %r2, 1;\n  add.u32 %r4, %r3, 1;\n"
                         "  ld.param.u64 %rd1, [p];\n  st.global.u32 [%rd1], %r4;\n  ret;\n");
    uint32_t own = row(k, "%r1");
    for (uint32_t r = 0; r < k->nregs; r++)
        if (strcmp(k->reg_names[r], "%r1") && k->reg_slot[r] == own &&
            (!strcmp(k->reg_names[r], "%r2") || !strcmp(k->reg_names[r], "%r3") ||
             !strcmp(k->reg_names[r], "%r4") || !strcmp(k->reg_names[r], "%rd1")))
            fail_msg("%s shares %%r1's row", k->reg_names[r]);
    /* matter: r1 everywhere, rd1 [4,5]: 2 rows; stored: r2 [1,2], r3 [2,3], r4 [3,5]: 2 */
    assert_int_equal(k->nslots, 4);
    ws_kernel_free(k);
}

/* Nothing but ret: one row, every declared register in it. */
static void no_registers_used(void **state)
{
    (void)state;
    ws_kernel *k = parse("  ret;\n");
    assert_int_equal(k->nslots, 1);
    for (uint32_t r = 0; r < k->nregs; r++) assert_int_equal(k->reg_slot[r], 0);
    ws_kernel_free(k);
}

/* The map survives the passes that copy and reorder the kernel: it is rebuilt for the
 * copy's own order (here the list scheduler's). */
static void rebuilt_for_a_copy(void **state)
{
    (void)state;
    ws_kernel *k = parse("  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n"
                         "  mov.u32 %r3, %ntid.x;\n  add.u32 %r5, %r1, %r2;\n  add.u32 %r6, %r5, %r3;\n"
                         "  st.global.u32 [%rd1], %r6;\n  ret;\n");
    ws_error err;
    ws_kernel *c = ws_kernel_clone(k);
    assert_non_null(c);
    assert_ptr_not_equal(c->reg_slot, k->reg_slot);
    assert_memory_equal(c->reg_slot, k->reg_slot, k->nregs * sizeof *k->reg_slot);
    ws_kernel *s = ws_list_schedule(k, 0, &err);
    assert_non_null(s);
    assert_true(s->nslots >= 1 && s->nslots <= s->nregs);
    ws_kernel_free(s);
    ws_kernel_free(c);
    ws_kernel_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain),
        cmocka_unit_test(fan_in),
        cmocka_unit_test(loop_carried),
        cmocka_unit_test(read_before_write),
        cmocka_unit_test(guarded_write),
        cmocka_unit_test(vector_operands),
        cmocka_unit_test(shfl_source_pinned),
        cmocka_unit_test(no_registers_used),
        cmocka_unit_test(rebuilt_for_a_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
