/* Parsing ptxas -v output and the PTX .target (src/workload/ptxas.c).
 * The outputs below are what CUDA 13.0's ptxas (V13.0.88) printed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "warpsweep/ptxas.h"

/* `ptxas -v --gpu-name sm_75 two.ptx` of a .cu with __global__ a(int*) and
 * b(float*, float*, int): two entries, b compiled first. */
static const char TWO[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z1bPfS_i' for 'sm_75'\n"
    "ptxas info    : Function properties for _Z1bPfS_i\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 26 registers, used 0 barriers, 372 bytes cmem[0]\n"
    "ptxas info    : Compile time = 10.383 ms\n"
    "ptxas info    : Compiling entry function '_Z1aPi' for 'sm_75'\n"
    "ptxas info    : Function properties for _Z1aPi\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 8 registers, used 0 barriers, 360 bytes cmem[0]\n"
    "ptxas info    : Compile time = 1.086 ms\n";

/* tests/kernels/call/dtrig.ptx: the entry, then properties of its .func
 * callees (which have no "Used" line of their own). */
static const char DTRIG[] =
    "ptxas info    : 272 bytes gmem, 16 bytes cmem[4]\n"
    "ptxas info    : Compiling entry function '_Z5dtrigPKdS0_Pdi' for 'sm_75'\n"
    "ptxas info    : Function properties for _Z5dtrigPKdS0_Pdi\n"
    "    40 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 36 registers, used 0 barriers, 40 bytes cumulative stack size, 380 bytes cmem[0], 320 bytes cmem[2]\n"
    "ptxas info    : Compile time = 59.521 ms\n"
    "ptxas info    : Function properties for __internal_accurate_pow\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Function properties for __internal_trig_reduction_slowpathd\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";

static void parse_picks_the_entry(void **state)
{
    (void)state;
    assert_int_equal(ws_ptxas_parse_regs(TWO, "_Z1bPfS_i"), 26);
    assert_int_equal(ws_ptxas_parse_regs(TWO, "_Z1aPi"), 8);
    assert_int_equal(ws_ptxas_parse_regs(TWO, "_Z1a"), -1);       /* a prefix is another name */
    assert_int_equal(ws_ptxas_parse_regs(TWO, "nosuch"), -1);
    assert_int_equal(ws_ptxas_parse_regs(DTRIG, "_Z5dtrigPKdS0_Pdi"), 36);
    assert_int_equal(ws_ptxas_parse_regs(DTRIG, "__internal_accurate_pow"), -1);
    assert_int_equal(ws_ptxas_parse_regs("", "k"), -1);
    assert_int_equal(ws_ptxas_parse_regs("ptxas fatal   : Value 'sm_70' is not defined for option 'gpu-name'\n", "k"),
                     -1);
}

static void parse_crlf_and_no_trailing_newline(void **state)
{
    (void)state;
    assert_int_equal(ws_ptxas_parse_regs("ptxas info    : Function properties for k\r\n"
                                         "ptxas info    : Used 12 registers, 356 bytes cmem[0]", "k"), 12);
}

static void target_directive(void **state)
{
    (void)state;
    char t[32];
    const char *a = "//\n// .target sm_50 in a comment\n/* .target sm_52 */\n.version 9.0\n.target sm_75\n";
    assert_int_equal(ws_ptx_target(a, strlen(a), t, sizeof t), 0);
    assert_string_equal(t, "sm_75");
    const char *b = ".version 8.0\n.target\tsm_90a, texmode_independent\n.address_size 64\n";
    assert_int_equal(ws_ptx_target(b, strlen(b), t, sizeof t), 0);
    assert_string_equal(t, "sm_90a");
    const char *c = ".version 8.0\n.address_size 64\n.targets sm_75\n";
    assert_int_equal(ws_ptx_target(c, strlen(c), t, sizeof t), -1);
    assert_int_equal(ws_ptx_target(a, strlen(a), t, 5), -1);        /* does not fit */
}

static void source_names(void **state)
{
    (void)state;
    assert_string_equal(ws_regs_source_name(WS_REGS_WORKLOAD), "workload");
    assert_string_equal(ws_regs_source_name(WS_REGS_PTXAS), "ptxas");
    assert_string_equal(ws_regs_source_name(WS_REGS_ESTIMATE), "estimate");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_picks_the_entry),
        cmocka_unit_test(parse_crlf_and_no_trailing_newline),
        cmocka_unit_test(target_directive),
        cmocka_unit_test(source_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
