/* stmatrix.sync.aligned.m8n8.xN{.trans}.shared.b16 (PTX ISA "stmatrix", PTX 7.8, sm_90), PTX text through
 * the loader and the executor on one 32-lane warp. The ISA: lanes 8m .. 8m + 7 give the
 * addresses of the rows of matrix m; "a group of four threads stores an entire row", lane l
 * holding from register m the elements (row l / 4, columns 2 (l % 4), 2 (l % 4) + 1), the
 * lower column in the lower half; .trans stores the matrix column-major. So with lane l's
 * register m = (base_m + 2l) | (base_m + 2l + 1) << 16, element (r, c) of matrix m is
 * base_m + 2 (4r + c / 2) + c % 2 = base_m + 8r + c: a closed form worked out by hand from
 * the ISA's table, not from the program. */
#include <stdio.h>
#include "exec_harness.h"
#include "warpsweep/ptx.h"

#define SBYTES 1024
static uint8_t sbuf[SBYTES];

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n" \
    "  .reg .b32 %r<12>;\n  .reg .b64 %rd<4>;\n"

static xh *H;
static ws_kernel *K;

static void done(void)
{
    if (K) ws_kernel_free(K);
    free(H);
    K = NULL;
    H = NULL;
}

static ws_kernel *parse(const char *body, ws_error *err)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s  ret;\n}\n", PTX_HEAD, body);
    return ws_ptx_parse(text, "s.ptx", NULL, err);
}

/* register number of `name` */
static uint32_t regno(const char *name)
{
    for (uint32_t r = 0; r < K->nregs; r++)
        if (!strcmp(K->reg_names[r], name)) return r;
    fail_msg("no register %s", name);
    return 0;
}

/* Loads body; lane l's %rd1 = row_addr(l) (the shared offset of the row it provides), %r1..%r4 the
 * fragment values above with base_m = 0x100 * (m + 1); runs every instruction before ret. */
static void run(const char *body, uint64_t (*row_addr)(unsigned lane))
{
    ws_error err = {{0}};
    K = parse(body, &err);
    if (!K) fail_msg("load failed: %s", err.msg);
    H = xh_new(32);
    H->cta.smem = sbuf;
    H->L.shared_bytes = SBYTES;
    H->L.kernel = K;
    for (unsigned l = 0; l < 32; l++) {
        setr(H, regno("%rd1"), l, row_addr(l));
        for (unsigned m = 0; m < 4; m++) {
            char nm[8];
            snprintf(nm, sizeof nm, "%%r%u", m + 1);
            uint64_t b = 0x100u * (m + 1) + 2 * l;
            setr(H, regno(nm), l, b | (b + 1) << 16);
        }
    }
    for (uint32_t i = 0; i < K->ninsts; i++) {
        if (K->insts[i].op == WS_OP_RET) break;
        if (xrun(H, &K->insts[i]) != WS_EXEC_OK) fail_msg("inst %u: %s", i, H->env.fault);
    }
}

static uint16_t smem16(size_t byte)
{
    uint16_t v;
    memcpy(&v, sbuf + byte, 2);
    return v;
}

/* rows in reverse order: the row lane 8m + r provides (row r of matrix m) sits at shared offset
 * m * 128 + (7 - r) * 16. Lanes whose address the form does not use point outside shared memory
 * (a use would fault). */
static unsigned g_nm;
static uint64_t reversed_rows(unsigned lane)
{
    unsigned m = lane / 8, r = lane % 8;
    return m < g_nm ? m * 128 + (7 - r) * 16 : 0x100000;
}

static void check_matrices(unsigned nm, int trans)
{
    for (unsigned m = 0; m < nm; m++)
        for (unsigned r = 0; r < 8; r++)         /* memory row r (provided by lane 8m + r), column c */
            for (unsigned c = 0; c < 8; c++) {
                unsigned want = trans ? 0x100u * (m + 1) + 8 * c + r : 0x100u * (m + 1) + 8 * r + c;
                unsigned got = smem16(m * 128 + (7 - r) * 16 + 2 * c);
                if (got != want) fail_msg("x%u%s matrix %u row %u col %u: 0x%x, expected 0x%x", nm, trans ? ".trans" : "",
                                          m, r, c, got, want);
            }
}

static void test_x1(void **s)
{
    (void)s;
    memset(sbuf, 0xee, SBYTES);
    g_nm = 1;
    run("  stmatrix.sync.aligned.m8n8.x1.shared.b16 [%rd1], {%r1};\n", reversed_rows);
    /* a hand-checked element: lane 13 (row 3, columns 2, 3) high half = 0x100 + 27 = row 3, col 3,
     * stored at the row lane 3 provides: offset (7 - 3) * 16 + 3 * 2 = 70 */
    assert_int_equal(smem16(70), 0x100 + 27);
    check_matrices(1, 0);
    /* nothing beyond the one matrix was written */
    for (size_t b = 128; b < SBYTES; b++) assert_int_equal(sbuf[b], 0xee);
    done();
}

/* without .shared the row addresses are generic (PTX ISA "stmatrix": the state space is
 * optional): the same stores, through the shared window */
static uint64_t generic_reversed_rows(unsigned lane)
{
    return WS_SHARED_WINDOW + reversed_rows(lane);
}

static void test_x1_generic(void **s)
{
    (void)s;
    memset(sbuf, 0xee, SBYTES);
    g_nm = 1;
    run("  stmatrix.sync.aligned.m8n8.x1.b16 [%rd1], {%r1};\n", generic_reversed_rows);
    assert_int_equal(smem16(70), 0x100 + 27);
    check_matrices(1, 0);
    for (size_t b = 128; b < SBYTES; b++) assert_int_equal(sbuf[b], 0xee);
    assert_int_equal(H->eff.mem_space, WS_SP_SHARED);
    done();
}

static void test_x2_trans(void **s)
{
    (void)s;
    memset(sbuf, 0xee, SBYTES);
    g_nm = 2;
    run("  stmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 [%rd1], {%r1, %r2};\n", reversed_rows);
    /* hand-checked: fragment element (row 3, col 3) of matrix 1 = 0x200 + 27 goes to memory row 3,
     * col 3 (the diagonal); element (row 0, col 5) = 0x200 + 5 goes to memory row 5, col 0, the
     * row lane 8 + 5 provides: 128 + (7 - 5) * 16 */
    assert_int_equal(smem16(128 + 2 * 16), 0x200 + 5);
    check_matrices(2, 1);
    for (size_t b = 256; b < SBYTES; b++) assert_int_equal(sbuf[b], 0xee);
    done();
}

static void test_x4(void **s)
{
    (void)s;
    memset(sbuf, 0xee, SBYTES);
    g_nm = 4;
    run("  stmatrix.sync.aligned.m8n8.x4.shared.b16 [%rd1], {%r1, %r2, %r3, %r4};\n", reversed_rows);
    check_matrices(4, 0);
    done();
}

/* stmatrix then ldmatrix with the same qualifiers and addresses gives the registers back (the
 * ISA describes the two with the same fragment table) */
static void test_inverse_of_ldmatrix(void **s)
{
    (void)s;
    for (int trans = 0; trans < 2; trans++) {
        g_nm = 4;
        run(trans ? "  stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%rd1], {%r1, %r2, %r3, %r4};\n"
                    "  ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r5, %r6, %r7, %r8}, [%rd1];\n"
                  : "  stmatrix.sync.aligned.m8n8.x4.shared.b16 [%rd1], {%r1, %r2, %r3, %r4};\n"
                    "  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r5, %r6, %r7, %r8}, [%rd1];\n",
            reversed_rows);
        for (unsigned l = 0; l < 32; l++)
            for (unsigned m = 0; m < 4; m++) {
                char a[8], b[8];
                snprintf(a, sizeof a, "%%r%u", m + 1);
                snprintf(b, sizeof b, "%%r%u", m + 5);
                assert_int_equal(getr(H, regno(b), l), getr(H, regno(a), l));
            }
        done();
    }
}

/* .aligned: a partial warp faults; the effect is one 16-byte shared store per address lane */
static void test_partial_warp_and_effect(void **s)
{
    (void)s;
    ws_error err = {{0}};
    K = parse("  stmatrix.sync.aligned.m8n8.x2.shared.b16 [%rd1], {%r1, %r2};\n", &err);
    assert_non_null(K);
    H = xh_new(32);
    H->cta.smem = sbuf;
    H->L.shared_bytes = SBYTES;
    for (unsigned l = 0; l < 32; l++) setr(H, regno("%rd1"), l, 16 * (l % 16));
    assert_int_equal(xrun_mask(H, &K->insts[0], 0x7fffffffull), WS_EXEC_FAULT);
    assert_non_null(strstr(H->env.fault, "partial warp"));
    assert_int_equal(xrun(H, &K->insts[0]), WS_EXEC_OK);
    assert_int_equal(H->eff.mem_kind, 2);
    assert_int_equal(H->eff.mem_bytes, 16);
    assert_int_equal(H->eff.mem_mask, 0xffffull);
    assert_int_equal(H->eff.mem_space, WS_SP_SHARED);
    done();
}

/* forms outside the subset: one line with file:line:col */
static void test_refused(void **s)
{
    (void)s;
    static const struct { const char *body, *want; } t[] = {
        {"  stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 [%rd1], {%r1};\n", "s.ptx:8:24: shape '.m16n8' is not supported on 'stmatrix' (supported: stmatrix.sync.aligned.m8n8"},
        {"  stmatrix.sync.aligned.m8n8.x1.global.b16 [%rd1], {%r1};\n", "s.ptx:8:32: modifier '.global' is not supported on 'stmatrix'"},
        {"  stmatrix.sync.m8n8.x1.b16 [%rd1], {%r1};\n", "s.ptx:8:3: 'stmatrix' is supported as stmatrix"},
        {"  stmatrix.sync.aligned.m8n8.x2.shared.b16 [%rd1], {%r1};\n", "s.ptx:8:52: 'stmatrix.x2' stores {2 registers}"},
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        ws_error err = {{0}};
        ws_kernel *k = parse(t[i].body, &err);
        if (k) { ws_kernel_free(k); fail_msg("accepted: %s", t[i].body); }
        if (strncmp(err.msg, t[i].want, strlen(t[i].want))) fail_msg("%s: got '%s'", t[i].body, err.msg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_x1),
        cmocka_unit_test(test_x1_generic),
        cmocka_unit_test(test_x2_trans),
        cmocka_unit_test(test_x4),
        cmocka_unit_test(test_inverse_of_ldmatrix),
        cmocka_unit_test(test_partial_warp_and_effect),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
