/* wmma m16n16k16 (issue 15): PTX text through the loader (which splits each fragment into
 * parts and wmma.mma into two mma.sync m16n8k16) and the executor, on one 32-lane warp.
 * Expected values are worked out by hand: a load followed by a store is the identity (here a
 * transpose between layouts), whatever the fragment layout; one A element lands where the
 * model's layout (the mma.sync m16n8k16 table, PTX ISA 9.7.14.5.8) puts it; the product of
 * one-hot matrices has its nonzeros exactly where the matrix product says. */
#include <stdio.h>
#include "exec_harness.h"
#include "warpsweep/ptx.h"

#define GBYTES 8192
#define SBYTES 2048
static uint8_t gbuf[GBYTES], sbuf[SBYTES];
static ws_region greg[1];

#define PTX_HEAD ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n" \
    "  .reg .b32 %r<28>;\n  .reg .f32 %f<17>;\n  .reg .b64 %rd<4>;\n  .reg .f64 %fd<8>;\n"

static xh *H;
static ws_kernel *K;

static void done(void)
{
    if (K) ws_kernel_free(K);
    free(H);
    K = NULL;
    H = NULL;
}

/* parses body (rd1 = the global buffer, rd2 = its second half) and runs it on one warp;
 * H and K stay for inspection until done() */
static void run(const char *body)
{
    char text[4096];
    snprintf(text, sizeof text, "%s  mov.u64 %%rd1, %llu;\n  mov.u64 %%rd2, %llu;\n%s  ret;\n}\n",
             PTX_HEAD, (unsigned long long)WS_GLOBAL_BASE, (unsigned long long)(WS_GLOBAL_BASE + GBYTES / 2), body);
    ws_error err = {{0}};
    ws_kernel *k = K = ws_ptx_parse(text, "w.ptx", NULL, &err);
    if (!k) fail_msg("load failed: %s", err.msg);
    assert_true(k->nregs <= XH_NREGS);
    xh *h = H = xh_new(32);
    greg[0] = (ws_region){ "g", WS_GLOBAL_BASE, GBYTES, gbuf, WS_TY_U32, 1 };
    h->gm.regions = greg;
    h->gm.nregions = 1;
    h->cta.smem = sbuf;
    h->L.shared_bytes = SBYTES;
    h->L.kernel = k;
    for (uint32_t i = 0; i < k->ninsts; i++) {
        if (k->insts[i].op == WS_OP_RET) break;
        if (xrun(h, &k->insts[i]) != WS_EXEC_OK) fail_msg("inst %u: %s", i, h->env.fault);
    }
}

/* register `name` of lane l after run() */
static uint64_t R(const char *name, unsigned l)
{
    for (uint32_t r = 0; r < K->nregs; r++)
        if (!strcmp(K->reg_names[r], name)) return getr(H, r, l);
    fail_msg("no register %s", name);
    return 0;
}

static float gf(size_t i) { float f; memcpy(&f, gbuf + 4 * i, 4); return f; }
static void sf(size_t i, float f) { memcpy(gbuf + 4 * i, &f, 4); }
static uint16_t gh(const uint8_t *b, size_t i) { uint16_t v; memcpy(&v, b + 2 * i, 2); return v; }
static void sh(uint8_t *b, size_t i, uint16_t v) { memcpy(b + 2 * i, &v, 2); }

/* load.c row-major (ld 24) then store.d column-major (ld 20): out[c * 20 + r] = in[r * 24 + c];
 * the padding rows 16-19 of out keep their sentinel */
static void test_roundtrip_f32(void **s)
{
    (void)s;
    for (size_t i = 0; i < GBYTES / 4; i++) sf(i, -1.0f);
    for (unsigned r = 0; r < 16; r++)
        for (unsigned c = 0; c < 16; c++) sf(r * 24 + c, (float)(r * 100 + c));
    run("  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, [%rd1], 24;\n"
        "  mov.u32 %r1, 20;\n"
        "  wmma.store.d.sync.aligned.col.m16n16k16.f32 [%rd2], {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, %r1;\n");
    const size_t o = GBYTES / 8;
    for (unsigned c = 0; c < 16; c++)
        for (unsigned r = 0; r < 20; r++) {
            float want = r < 16 ? (float)(r * 100 + c) : -1.0f;
            if (gf(o + c * 20 + r) != want) fail_msg("D[%u][%u] = %g, expected %g", r, c, gf(o + c * 20 + r), want);
        }
    done();
}

/* f16 accumulators through shared memory: load.c column-major (default ld 16), store.d
 * row-major (ld 16): out[r * 16 + c] = in[c * 16 + r] */
static void test_roundtrip_f16_shared(void **s)
{
    (void)s;
    for (unsigned i = 0; i < 256; i++) sh(sbuf, i, (uint16_t)(0x1000 + i));
    memset(sbuf + 512, 0, 512);
    run("  wmma.load.c.sync.aligned.col.m16n16k16.shared.f16 {%r1,%r2,%r3,%r4}, [0];\n"
        "  wmma.store.d.sync.aligned.row.m16n16k16.shared::cta.f16 [512], {%r1,%r2,%r3,%r4};\n");
    for (unsigned r = 0; r < 16; r++)
        for (unsigned c = 0; c < 16; c++)
            assert_int_equal(gh(sbuf + 512, r * 16 + c), 0x1000 + c * 16 + r);
    done();
}

/* A[r][c] = r * 16 + c (raw bits). The model's A layout is the m16n8k16 A fragment: lane 5
 * (g 1, t 1), element 5 = the high half of register 2: row g = 1, col 2t + 1 + 8 = 11 ->
 * A[1][11] = 27; element 0 (low half of register 0): (g, 2t) = (1, 2) -> 18; registers 4-7
 * repeat 0-3. Column-major the same elements sit at memory index c * 16 + r: 177 and 33. */
static void test_a_position(void **s)
{
    (void)s;
    for (unsigned i = 0; i < 256; i++) sh(gbuf, i, (uint16_t)i);
    run("  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1];\n"
        "  wmma.load.a.sync.aligned.col.m16n16k16.f16 {%r9,%r10,%r11,%r12,%r13,%r14,%r15,%r16}, [%rd1];\n");
    assert_int_equal(R("%r3", 5) >> 16, 27);
    assert_int_equal(R("%r7", 5) >> 16, 27);
    assert_int_equal(R("%r1", 5) & 0xffff, 18);
    assert_int_equal(R("%r5", 5) & 0xffff, 18);
    assert_int_equal(R("%r11", 5) >> 16, 177);
    assert_int_equal(R("%r9", 5) & 0xffff, 33);
    done();
}

/* A = e(3,10) + 1.5 e(14,1), B = 2 e(10,12) - e(1,5), C = 0.5 everywhere (f32):
 * A * B = 2 e(3,12) - 1.5 e(14,5) (the cross terms vanish), so D = 0.5 except
 * D[3][12] = 2.5 (columns 8-15: the second mma.sync) and D[14][5] = -1 (the first).
 * A row-major, B column-major, C and D row-major. f16: 1.0 0x3c00, 1.5 0x3e00, 2.0 0x4000,
 * -1.0 0xbc00. */
static void test_one_hot_mma(void **s)
{
    (void)s;
    memset(gbuf, 0, GBYTES);
    sh(gbuf, 3 * 16 + 10, 0x3c00);
    sh(gbuf, 14 * 16 + 1, 0x3e00);
    sh(gbuf + 512, 12 * 16 + 10, 0x4000);   /* B col-major: (r, c) at c * 16 + r */
    sh(gbuf + 512, 5 * 16 + 1, 0xbc00);
    for (unsigned i = 0; i < 256; i++) sf(256 + i, 0.5f);   /* C at byte 1024 */
    run("  wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1];\n"
        "  wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%r9,%r10,%r11,%r12,%r13,%r14,%r15,%r16}, [%rd1+512];\n"
        "  wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, [%rd1+1024];\n"
        "  wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, "
        "{%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r9,%r10,%r11,%r12,%r13,%r14,%r15,%r16}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};\n"
        "  wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd2], {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};\n");
    for (unsigned r = 0; r < 16; r++)
        for (unsigned c = 0; c < 16; c++) {
            float want = r == 3 && c == 12 ? 2.5f : r == 14 && c == 5 ? -1.0f : 0.5f;
            if (gf(GBYTES / 8 + r * 16 + c) != want) fail_msg("D[%u][%u] = %g, expected %g", r, c, gf(GBYTES / 8 + r * 16 + c), want);
        }
    done();
}

/* m32n8k16: A = e(30,9) (row 30: the second mma.sync), B = -1 e(9,6), C = 0 -> D = -e(30,6);
 * m8n32k16 (the transposed form): A = e(7,3), B = 2 e(3,29) (column 29: the second mma.sync)
 * -> D = 2 e(7,29). All row-major with the default strides (16, 8, 8 and 16, 32, 32). */
static void test_one_hot_shapes(void **s)
{
    (void)s;
    static const char body[] =
        "  wmma.load.a.sync.aligned.row.SHAPE.global.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, [%rd1];\n"
        "  wmma.load.b.sync.aligned.row.SHAPE.global.f16 {%r9,%r10,%r11,%r12,%r13,%r14,%r15,%r16}, [%rd1+1024];\n"
        "  wmma.load.c.sync.aligned.row.SHAPE.global.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, [%rd1+2048];\n"
        "  wmma.mma.sync.aligned.row.row.SHAPE.f32.f32 {%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16}, "
        "{%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, {%r9,%r10,%r11,%r12,%r13,%r14,%r15,%r16}, {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};\n"
        "  wmma.store.d.sync.aligned.row.SHAPE.global.f32 [%rd2], {%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16};\n";
    static const struct { const char *shape; unsigned m, n, ar, ak, bc; uint16_t bv; float want; } t[] = {
        {"m32n8k16", 32, 8, 30, 9, 6, 0xbc00, -1.0f},
        {"m8n32k16", 8, 32, 7, 3, 29, 0x4000, 2.0f},
    };
    for (unsigned i = 0; i < 2; i++) {
        char text[2048], *o = text;
        for (const char *q = body; *q; q++) {   /* SHAPE -> the shape */
            if (!strncmp(q, "SHAPE", 5)) { o += sprintf(o, "%s", t[i].shape); q += 4; }
            else *o++ = *q;
        }
        *o = 0;
        memset(gbuf, 0, GBYTES);
        sh(gbuf, t[i].ar * 16 + t[i].ak, 0x3c00);                 /* A[ar][ak] = 1, lda 16 */
        sh(gbuf + 1024, t[i].ak * t[i].n + t[i].bc, t[i].bv);     /* B[ak][bc], ldb n */
        run(text);
        for (unsigned r = 0; r < t[i].m; r++)
            for (unsigned c = 0; c < t[i].n; c++) {
                float want = r == t[i].ar && c == t[i].bc ? t[i].want : 0.0f, got = gf(GBYTES / 8 + r * t[i].n + c);
                if (got != want) fail_msg("%s D[%u][%u] = %g, expected %g", t[i].shape, r, c, got, want);
            }
        done();
    }
}

/* The element types beyond .f16 (PTX ISA 9.7.14.4: .bf16 .tf32 .s8 .u8 .f64), one-hot: A = a e(ar, ak),
 * B = b e(ak, bc), C = c everywhere, so D = c except D[ar][bc] = a b + c (s8 .satfinite: clamped
 * to INT32_MAX), whatever the fragment layout. Row-major with the default strides; A at byte 0,
 * B at 1024, C at 2048, D at 4096. */
typedef struct onehot {
    const char *shape, *ab, *acc, *mma_types, *sat;   /* PTX names */
    unsigned m, n, k, fa, fb, esize, csize;           /* fragment registers of A and B; element bytes */
    unsigned ar, ak, bc;
    uint64_t abits, bbits, cbits, want;               /* raw element bits */
} onehot;

static void put_elem(uint8_t *b, size_t i, unsigned size, uint64_t v) { memcpy(b + i * size, &v, size); }

static uint64_t get_elem(const uint8_t *b, size_t i, unsigned size)
{
    uint64_t v = 0;
    memcpy(&v, b + i * size, size);
    return v;
}

/* "{%P1, %P2, ...}" of n registers from first */
static char *regs(char *o, const char *pfx, unsigned first, unsigned n)
{
    o += sprintf(o, "{");
    for (unsigned i = 0; i < n; i++) o += sprintf(o, "%s%%%s%u", i ? ", " : "", pfx, first + i);
    return o + sprintf(o, "}");
}

static void test_one_hot_types(void **s)
{
    (void)s;
    static const onehot t[] = {
        /* bf16 1.0 = 0x3f80, 2.0 = 0x4000: D[3][12] = 2 + 0.5 */
        {"m16n16k16", "bf16", "f32", "f32.bf16.bf16.f32", "", 16, 16, 16, 4, 4, 2, 4, 3, 10, 12,
         0x3f80, 0x4000, 0x3f000000, 0x40200000},
        /* bf16 m8n32k16 (the transposed form), column 29 in the second mma: -1.5 * 2 + 0.5 = -2.5 */
        {"m8n32k16", "bf16", "f32", "f32.bf16.bf16.f32", "", 8, 32, 16, 2, 8, 2, 4, 7, 3, 29,
         0xbfc0, 0x4000, 0x3f000000, 0xc0200000},
        /* tf32 (f32 bit patterns) 1.5 * -1 + 0.5 = -1.0; the 13 low bits of A are ignored */
        {"m16n16k8", "tf32", "f32", "f32.tf32.tf32.f32", "", 16, 16, 8, 4, 4, 4, 4, 14, 5, 9,
         0x3fc01fff, 0xbf800000, 0x3f000000, 0xbf800000},
        /* s8 100 * 3 + (2^31 - 100) saturates with .satfinite */
        {"m16n16k16", "s8", "s32", "s32.s8.s8.s32", ".satfinite", 16, 16, 16, 2, 2, 1, 4, 2, 7, 15,
         100, 3, 0x7fffff9c, 0x7fffffff},
        /* u8 m32n8k16 row 25 (the second mma): 200 * 250 + 7 */
        {"m32n8k16", "u8", "s32", "s32.u8.u8.s32", "", 32, 8, 16, 4, 1, 1, 4, 25, 3, 6, 200, 250, 7, 50007},
        /* s8 m8n32k16: -5 * 7 + 0 */
        {"m8n32k16", "s8", "s32", "s32.s8.s8.s32", "", 8, 32, 16, 1, 4, 1, 4, 6, 11, 30, 0xfb, 7, 0, 0xffffffdd},
        /* f64 m8n8k4 (.rn): 0.5 * 3 + 0.25 = 1.75 */
        {"m8n8k4", "f64", "f64", "f64.f64.f64.f64", ".rn", 8, 8, 4, 1, 1, 8, 8, 7, 2, 1,
         0x3fe0000000000000ull, 0x4008000000000000ull, 0x3fd0000000000000ull, 0x3ffc000000000000ull},
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        const onehot *c = &t[i];
        const int f64 = c->csize == 8, i32 = !strcmp(c->acc, "s32");
        const char *cr = f64 ? "fd" : i32 ? "r" : "f";
        const unsigned nc = f64 ? 2 : 8, c0 = f64 ? 3 : i32 ? 9 : 1, d0 = f64 ? 5 : i32 ? 17 : 9;
        const char *abr = f64 ? "fd" : "r";
        const unsigned b0 = f64 ? 2 : 5;
        char body[3072], *o = body;
        o += sprintf(o, "  wmma.load.a.sync.aligned.row.%s.global.%s ", c->shape, c->ab);
        o = regs(o, abr, 1, c->fa);
        o += sprintf(o, ", [%%rd1];\n  wmma.load.b.sync.aligned.row.%s.global.%s ", c->shape, c->ab);
        o = regs(o, abr, b0, c->fb);
        o += sprintf(o, ", [%%rd1+1024];\n  wmma.load.c.sync.aligned.row.%s.global.%s ", c->shape, c->acc);
        o = regs(o, cr, c0, nc);
        o += sprintf(o, ", [%%rd1+2048];\n  wmma.mma.sync.aligned.row.row.%s.%s%s ", c->shape, c->mma_types, c->sat);
        o = regs(o, cr, d0, nc);
        o += sprintf(o, ", ");
        o = regs(o, abr, 1, c->fa);
        o += sprintf(o, ", ");
        o = regs(o, abr, b0, c->fb);
        o += sprintf(o, ", ");
        o = regs(o, cr, c0, nc);
        o += sprintf(o, ";\n  wmma.store.d.sync.aligned.row.%s.global.%s [%%rd2], ", c->shape, c->acc);
        o = regs(o, cr, d0, nc);
        sprintf(o, ";\n");
        memset(gbuf, 0, GBYTES);
        put_elem(gbuf, c->ar * c->k + c->ak, c->esize, c->abits);
        put_elem(gbuf + 1024, c->ak * c->n + c->bc, c->esize, c->bbits);
        for (unsigned e = 0; e < c->m * c->n; e++) put_elem(gbuf + 2048, e, c->csize, c->cbits);
        run(body);
        for (unsigned r = 0; r < c->m; r++)
            for (unsigned col = 0; col < c->n; col++) {
                uint64_t got = get_elem(gbuf + GBYTES / 2, r * c->n + col, c->csize);
                uint64_t want = r == c->ar && col == c->bc ? c->want : c->cbits;
                if (got != want)
                    fail_msg("%s .%s D[%u][%u] = 0x%llx, expected 0x%llx", c->shape, c->ab, r, col,
                             (unsigned long long)got, (unsigned long long)want);
            }
        done();
    }
}

/* The model's layout of the new types (src/exec/exec_tensor.c): a .bf16 m16n16k16 A fragment is
 * the mma.sync m16n8k16 A fragment (PTX ISA 9.7.14.5.8) without the copy .f16 keeps: lane 5
 * (g 1, t 1) register 2 high half is element 5: (g, 2t + 1 + 8) = A[1][11]; an .s8 A fragment
 * is the m16n8k16 .s8 one (9.7.14.5.10): lane 5 register 1 byte 2 is element 6:
 * (g + 8, 4t + 2) = A[9][6]. A[r][c] = r * 16 + c (raw bits). */
static void test_new_type_positions(void **s)
{
    (void)s;
    for (unsigned i = 0; i < 256; i++) sh(gbuf, i, (uint16_t)i);
    for (unsigned i = 0; i < 256; i++) gbuf[1024 + i] = (uint8_t)i;
    run("  wmma.load.a.sync.aligned.row.m16n16k16.global.bf16 {%r1,%r2,%r3,%r4}, [%rd1];\n"
        "  wmma.load.a.sync.aligned.row.m16n16k16.global.s8 {%r5,%r6}, [%rd1+1024];\n");
    assert_int_equal(R("%r3", 5) >> 16, 27);
    assert_int_equal((R("%r6", 5) >> 16) & 0xff, 9 * 16 + 6);
    done();
}

/* the instruction is .aligned: a partial warp faults */
static void test_partial_warp(void **s)
{
    (void)s;
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_parse(PTX_HEAD "  wmma.load.c.sync.aligned.row.m16n16k16.shared.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, [0];\n"
                                "  ret;\n}\n", "w.ptx", NULL, &err);
    assert_non_null(k);
    xh *h = xh_new(32);
    h->cta.smem = sbuf;
    h->L.shared_bytes = SBYTES;
    assert_int_equal(xrun_mask(h, &k->insts[0], 0xfffffffeull), WS_EXEC_FAULT);
    assert_non_null(strstr(h->env.fault, "partial warp"));
    ws_kernel_free(k);
    free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip_f32),
        cmocka_unit_test(test_roundtrip_f16_shared),
        cmocka_unit_test(test_a_position),
        cmocka_unit_test(test_one_hot_mma),
        cmocka_unit_test(test_one_hot_shapes),
        cmocka_unit_test(test_one_hot_types),
        cmocka_unit_test(test_new_type_positions),
        cmocka_unit_test(test_partial_warp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
