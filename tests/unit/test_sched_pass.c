/*
 * The list-scheduling pass (ws_list_schedule, passes.h) on small PTX and on
 * every test workload. The dependence rules are checked against an independent
 * statement of them (conflict() below, written from passes.h): any two
 * instructions of a block that conflict keep their PTX order. The orders the
 * scheduler must find are reasoned by hand from its priority rule (loads 400,
 * the rest 4: a load whose operands are ready goes before independent ALU
 * work). Semantics: the MIMD reference run gives the same memory with either
 * order.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpsweep/ptx.h"
#include "warpsweep/passes.h"
#include "warpsweep/workload.h"
#include "warpsweep/sim.h"

static ws_kernel *parse(const char *body)
{
    static const char head[] = ".version 8.0\n.target sm_80\n.address_size 64\n"
                               ".visible .entry k(.param .u64 p)\n{\n"
                               "  .reg .pred %p<4>;\n  .reg .b32 %r<64>;\n  .reg .b64 %rd<8>;\n"
                               "  .shared .align 4 .b32 sm[64];\n";
    size_t n = strlen(head) + strlen(body) + 8;
    char *text = malloc(n);
    snprintf(text, n, "%s%s}\n", head, body);
    ws_error err;
    ws_kernel *k = ws_ptx_parse(text, "t.ptx", NULL, &err);
    free(text);
    if (!k) fail_msg("%s", err.msg);
    return k;
}

/* -------------------------------------------- independent rule check -- */

static int has(const uint32_t *a, unsigned n, uint32_t r)
{
    for (unsigned i = 0; i < n; i++)
        if (a[i] == r) return 1;
    return 0;
}

static int clock_read(const ws_inst *in)
{
    for (unsigned j = 0; j < in->nsrc; j++)
        if (in->src[j].kind == WS_OK_SREG && (in->src[j].sreg == WS_SR_CLOCK || in->src[j].sreg == WS_SR_CLOCK64))
            return 1;
    return 0;
}

/* 1 plain load, 2 ordered memory operation, 0 neither (passes.h) */
static int mem_class(const ws_inst *in)
{
    switch (in->op) {
    case WS_OP_LD: case WS_OP_LDU:
        return in->mods & (WS_MOD_VOLATILE | WS_MOD_RELAXED | WS_MOD_ACQUIRE | WS_MOD_RELEASE) ? 2 : 1;
    case WS_OP_PREFETCH:
        return 1;
    case WS_OP_ST: case WS_OP_ATOM: case WS_OP_RED: case WS_OP_MEMBAR: case WS_OP_FENCE: case WS_OP_BAR:
    case WS_OP_BARRIER: case WS_OP_BAR_WARP: case WS_OP_SHFL: case WS_OP_VOTE: case WS_OP_MATCH:
    case WS_OP_REDUX: case WS_OP_ACTIVEMASK: case WS_OP_NANOSLEEP:
        return 2;
    default:
        return clock_read(in) ? 2 : 0;
    }
}

static int carry(const ws_inst *in)
{
    return (in->mods & WS_MOD_CC) || in->op == WS_OP_ADDC || in->op == WS_OP_SUBC || in->op == WS_OP_MADC;
}

/* Must a (earlier in the PTX) stay before b? */
static int conflict(const ws_inst *a, const ws_inst *b)
{
    for (unsigned j = 0; j < a->n_wr; j++)
        if (has(b->rd, b->n_rd, a->wr[j]) || has(b->wr, b->n_wr, a->wr[j])) return 1;   /* RAW, WAW */
    for (unsigned j = 0; j < a->n_rd; j++)
        if (has(b->wr, b->n_wr, a->rd[j])) return 1;                                   /* WAR */
    if (carry(a) && carry(b)) return 1;
    int ma = mem_class(a), mb = mem_class(b);
    return (ma == 2 && mb) || (mb == 2 && ma);
}

/* pos[i] = where original instruction i of k went in t (matched by line: one
 * instruction per line in these kernels, per line and column in nvcc's) */
static uint32_t *positions(const ws_kernel *k, const ws_kernel *t)
{
    assert_int_equal(t->ninsts, k->ninsts);
    assert_int_equal(t->nblocks, k->nblocks);
    uint32_t *pos = malloc(k->ninsts * sizeof *pos);
    uint8_t *used = calloc(k->ninsts, 1);
    for (uint32_t b = 0; b < k->nblocks; b++) {
        const ws_block *bk = &k->blocks[b], *bt = &t->blocks[b];
        assert_int_equal(bt->first, bk->first);
        assert_int_equal(bt->last, bk->last);
        for (uint32_t i = bk->first; i <= bk->last; i++) {
            pos[i] = UINT32_MAX;
            for (uint32_t j = bk->first; j <= bk->last && pos[i] == UINT32_MAX; j++)
                if (!used[j] && t->insts[j].line == k->insts[i].line && t->insts[j].col == k->insts[i].col &&
                    t->insts[j].op == k->insts[i].op && t->insts[j].guard == k->insts[i].guard &&
                    t->insts[j].n_rd == k->insts[i].n_rd && t->insts[j].n_wr == k->insts[i].n_wr &&
                    !memcmp(t->insts[j].rd, k->insts[i].rd, sizeof k->insts[i].rd) &&
                    !memcmp(t->insts[j].wr, k->insts[i].wr, sizeof k->insts[i].wr)) {
                    used[j] = 1;
                    pos[i] = j;
                }
            if (pos[i] == UINT32_MAX) fail_msg("instruction %u (line %u) lost", i, k->insts[i].line);
        }
    }
    free(used);
    return pos;
}

/* t is a legal schedule of k: a permutation within blocks, every conflicting
 * pair in PTX order, the block's terminator last and the control flow intact. */
static void check_legal(const ws_kernel *k, const ws_kernel *t)
{
    uint32_t *pos = positions(k, t);
    for (uint32_t b = 0; b < k->nblocks; b++) {
        const ws_block *bl = &k->blocks[b];
        const ws_inst *last = &k->insts[bl->last];
        int term = last->op == WS_OP_BRA || last->op == WS_OP_BRX || last->op == WS_OP_EXIT ||
                   last->op == WS_OP_RET || last->op == WS_OP_TRAP;
        if (term) assert_int_equal(pos[bl->last], bl->last);
        for (uint32_t i = bl->first; i <= bl->last; i++)
            for (uint32_t j = i + 1; j <= bl->last; j++)
                if (conflict(&k->insts[i], &k->insts[j]) && pos[i] > pos[j])
                    fail_msg("block %u: PTX %u (line %u) now after PTX %u (line %u)", b, i, k->insts[i].line, j,
                             k->insts[j].line);
        assert_int_equal(t->blocks[b].nsucc, bl->nsucc);
        for (uint32_t s = 0; s < bl->nsucc; s++) assert_int_equal(t->blocks[b].succ[s], bl->succ[s]);
        assert_int_equal(t->blocks[b].ipdom, bl->ipdom);
        if (term) {
            assert_int_equal(t->insts[bl->last].target, last->target);
            assert_int_equal(t->insts[bl->last].ipdom, last->ipdom);
            assert_int_equal(t->insts[bl->last].uniform, last->uniform);
        }
    }
    free(pos);
}

static ws_kernel *sched(const ws_kernel *k, unsigned budget)
{
    ws_error err = {{0}};
    ws_kernel *t = ws_list_schedule(k, budget, &err);
    if (!t) fail_msg("%s", err.msg);
    check_legal(k, t);
    return t;
}

/* position in t of the instruction at PTX index i of k */
static uint32_t at(const ws_kernel *k, const ws_kernel *t, uint32_t i)
{
    uint32_t *pos = positions(k, t);
    uint32_t p = pos[i];
    free(pos);
    return p;
}

/* ------------------------------------------------------------- orders -- */

/* 0 ld.param; 1 ld a; 2 add (uses a); 3 mul; 4 ld b; 5 add; 6 st; 7 ret.
 * In-order, the PTX waits for a before b is even requested; scheduled, b's
 * load (priority 400 + 4 + 4) goes right after a's, above a's uses. */
static void hoists_independent_load(void **st)
{
    (void)st;
    ws_kernel *k = parse("  ld.param.u64 %rd1, [p];\n  ld.global.u32 %r1, [%rd1];\n  add.u32 %r2, %r1, 1;\n"
                         "  mul.lo.u32 %r3, %r2, 3;\n  ld.global.u32 %r4, [%rd1+4];\n  add.u32 %r5, %r4, %r3;\n"
                         "  st.global.u32 [%rd1+8], %r5;\n  ret;\n");
    ws_kernel *t = sched(k, 0);
    assert_int_equal(at(k, t, 1), 1);
    assert_int_equal(at(k, t, 4), 2);
    assert_int_equal(at(k, t, 2), 3);
    assert_int_equal(at(k, t, 6), 6);
    /* k itself untouched */
    assert_int_equal(k->insts[4].op, WS_OP_LD);
    assert_int_equal(k->insts[4].line, t->insts[2].line);
    assert_ptr_not_equal(k->insts, t->insts);
    ws_kernel_free(t);
    ws_kernel_free(k);
}

/* Loads pass loads: 1 ld a (used only at the end) is passed by 2 ld b, whose
 * chain b -> c (another load) is longer. */
static void loads_pass_loads(void **st)
{
    (void)st;
    ws_kernel *k = parse("  ld.param.u64 %rd1, [p];\n  ld.global.u32 %r1, [%rd1];\n  ld.global.u32 %r2, [%rd1+4];\n"
                         "  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  ld.global.u32 %r3, [%rd3];\n"
                         "  add.u32 %r4, %r3, %r1;\n  st.global.u32 [%rd1+8], %r4;\n  ret;\n");
    ws_kernel *t = sched(k, 0);
    assert_true(at(k, t, 2) < at(k, t, 1));
    ws_kernel_free(t);
    ws_kernel_free(k);
}

/* Register dependences hold a load back:
 *   2 add r2 <- r1; 3 ld r1 (WAR with 2);
 *   4 mov r3, 7; 5 add r6 <- r3; 6 ld r3 (WAW with 4, WAR with 5); 7 add <- r3 (RAW). */
static void war_waw_raw(void **st)
{
    (void)st;
    ws_kernel *k = parse("  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  add.u32 %r2, %r1, 1;\n"
                         "  ld.global.u32 %r1, [%rd1];\n  mov.u32 %r3, 7;\n  add.u32 %r6, %r3, %r2;\n"
                         "  ld.global.u32 %r3, [%rd1+4];\n  add.u32 %r4, %r3, %r1;\n  add.u32 %r5, %r4, %r6;\n"
                         "  st.global.u32 [%rd1+8], %r5;\n  ret;\n");
    ws_kernel *t = sched(k, 0);
    assert_true(at(k, t, 2) < at(k, t, 3));
    assert_true(at(k, t, 4) < at(k, t, 6));
    assert_true(at(k, t, 5) < at(k, t, 6));
    assert_true(at(k, t, 6) < at(k, t, 7));
    /* and they move as far up as those allow: right after what they wait for */
    assert_int_equal(at(k, t, 3), at(k, t, 2) + 1);
    assert_int_equal(at(k, t, 6), at(k, t, 5) + 1);
    ws_kernel_free(t);
    ws_kernel_free(k);
}

/* Predicates: 3 @p1 ld reads p1 (RAW on 2); 4 setp p1 rewrites it (WAR on the
 * guard of 3, WAW on 2); 5 @p1 ld after 4. */
static void predicates_and_guards(void **st)
{
    (void)st;
    ws_kernel *k = parse("  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  setp.eq.u32 %p1, %r1, 0;\n"
                         "  @%p1 ld.global.u32 %r2, [%rd1];\n  setp.ne.u32 %p1, %r1, 5;\n"
                         "  @%p1 ld.global.u32 %r3, [%rd1+4];\n  add.u32 %r4, %r2, %r3;\n"
                         "  st.global.u32 [%rd1+8], %r4;\n  ret;\n");
    ws_kernel *t = sched(k, 0);
    assert_true(at(k, t, 2) < at(k, t, 3));
    assert_true(at(k, t, 3) < at(k, t, 4));
    assert_true(at(k, t, 4) < at(k, t, 5));
    ws_kernel_free(t);
    ws_kernel_free(k);
}

/* The carry chain: 2 add.cc, 3 addc, 4 add.cc, 5 addc feeding a load's address.
 * Without carries the second pair (a longer path: it feeds the load) would go
 * first; with them the four keep their order. */
static void carry_chain(void **st)
{
    (void)st;
    static const char fmt[] =
        "  ld.param.u64 %%rd1, [p];\n  mov.u32 %%r1, %%tid.x;\n  add%s.u32 %%r2, %%r1, 1;\n  add%s.u32 %%r3, %%r1, 2;\n"
        "  add%s.u32 %%r4, %%r1, 3;\n  add%s.u32 %%r5, %%r1, 4;\n  mul.wide.u32 %%rd2, %%r5, 4;\n"
        "  add.s64 %%rd3, %%rd1, %%rd2;\n  ld.global.u32 %%r6, [%%rd3];\n  add.u32 %%r7, %%r6, %%r2;\n"
        "  add.u32 %%r8, %%r7, %%r3;\n  add.u32 %%r9, %%r8, %%r4;\n  st.global.u32 [%%rd1+8], %%r9;\n  ret;\n";
    char body[1024];
    snprintf(body, sizeof body, fmt, ".cc", "c", ".cc", "c");
    ws_kernel *k = parse(body);
    assert_true(k->insts[2].mods & WS_MOD_CC);
    assert_int_equal(k->insts[3].op, WS_OP_ADDC);
    ws_kernel *t = sched(k, 0);
    assert_true(at(k, t, 2) < at(k, t, 3));
    assert_true(at(k, t, 3) < at(k, t, 4));
    assert_true(at(k, t, 4) < at(k, t, 5));
    ws_kernel_free(t);
    ws_kernel_free(k);
    snprintf(body, sizeof body, fmt, "", "", "", "");
    k = parse(body);
    t = sched(k, 0);
    assert_true(at(k, t, 5) < at(k, t, 2));   /* what the chain prevents */
    ws_kernel_free(t);
    ws_kernel_free(k);
}

/* A load after an ordered operation X never goes above it; after a plain ALU
 * instruction in X's place it does (the control). Index 3 is X, 4 the load. */
static void loads_stay_after_ordered_ops(void **st)
{
    (void)st;
    static const char *const ordered[] = {
        "st.global.u32 [%rd1+8], %r1;", "st.shared.u32 [sm], %r1;", "st.local.u32 [%rd2], %r1;",
        "atom.global.add.u32 %r9, [%rd1+8], 1;", "red.global.add.u32 [%rd1+8], 1;",
        "atom.shared.add.u32 %r9, [sm], 1;", "membar.gl;", "fence.acq_rel.gpu;", "bar.sync 0;",
        "barrier.sync 0;", "bar.warp.sync -1;", "shfl.sync.idx.b32 %r9, %r1, 0, 31, -1;",
        "vote.sync.ballot.b32 %r9, %p1, -1;", "match.any.sync.b32 %r9, %r1, -1;",
        "redux.sync.add.u32 %r9, %r1, -1;", "activemask.b32 %r9;", "nanosleep.u32 10;",
        "mov.u32 %r9, %clock;", "mov.u64 %rd4, %clock64;", "ld.volatile.global.u32 %r9, [%rd1+12];",
        "ld.acquire.gpu.global.u32 %r9, [%rd1+12];",
    };
    char body[1024];
    for (size_t x = 0; x <= sizeof ordered / sizeof *ordered; x++) {
        const char *op = x < sizeof ordered / sizeof *ordered ? ordered[x] : "add.u32 %r9, %r1, 1;";
        snprintf(body, sizeof body,
                 "  ld.param.u64 %%rd1, [p];\n  mov.u32 %%r1, %%tid.x;\n  setp.eq.u32 %%p1, %%r1, 0;\n  %s\n"
                 "  ld.global.u32 %%r2, [%%rd1+4];\n  add.u32 %%r3, %%r2, %%r1;\n"
                 "  st.global.u32 [%%rd1+16], %%r3;\n  ret;\n", op);
        ws_kernel *k = parse(body);
        ws_kernel *t = sched(k, 0);
        if (x < sizeof ordered / sizeof *ordered) {
            if (at(k, t, 4) < at(k, t, 3)) fail_msg("load moved above '%s'", op);
        } else {
            assert_true(at(k, t, 4) < at(k, t, 3));
        }
        ws_kernel_free(t);
        ws_kernel_free(k);
    }
}

/* Ordered operations keep their order among themselves (st then membar then
 * atom, whatever the priorities), and a store does not pass a load. */
static void ordered_ops_keep_order(void **st)
{
    (void)st;
    ws_kernel *k = parse("  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  ld.global.u32 %r2, [%rd1];\n"
                         "  st.global.u32 [%rd1+4], %r1;\n  membar.gl;\n  atom.global.add.u32 %r3, [%rd1+8], 1;\n"
                         "  mul.wide.u32 %rd2, %r3, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  ld.global.u32 %r4, [%rd3];\n"
                         "  add.u32 %r5, %r4, %r2;\n  st.global.u32 [%rd1+12], %r5;\n  ret;\n");
    ws_kernel *t = sched(k, 0);
    assert_true(at(k, t, 2) < at(k, t, 3));
    assert_true(at(k, t, 3) < at(k, t, 4));
    assert_true(at(k, t, 4) < at(k, t, 5));
    assert_true(at(k, t, 5) < at(k, t, 8));
    ws_kernel_free(t);
    ws_kernel_free(k);
}

/* A loop: the back-edge branch stays last, the loop's loads are hoisted inside
 * the body, the exit block is untouched, targets and reconvergence intact. */
static void branch_stays_last(void **st)
{
    (void)st;
    ws_kernel *k = parse("  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 0;\n  mov.u32 %r2, 0;\n"
                         "$L:\n  ld.global.u32 %r3, [%rd1];\n  add.u32 %r2, %r2, %r3;\n  add.u32 %r1, %r1, 1;\n"
                         "  setp.lt.u32 %p1, %r1, 4;\n  ld.global.u32 %r4, [%rd1+4];\n  add.u32 %r2, %r2, %r4;\n"
                         "  @%p1 bra $L;\n  st.global.u32 [%rd1+8], %r2;\n  ret;\n");
    assert_int_equal(k->nblocks, 3);
    ws_kernel *t = sched(k, 0);
    assert_int_equal(t->insts[9].op, WS_OP_BRA);
    assert_int_equal(t->insts[9].target, 3);
    assert_true(t->insts[9].is_backedge);
    assert_true(at(k, t, 7) < at(k, t, 4));   /* the second load above the first's use */
    assert_int_equal(t->insts[11].op, WS_OP_RET);
    ws_kernel_free(t);
    ws_kernel_free(k);
}

/* Register budget. mov r10; then six times `ld ri; add r10, r10, ri`; st; ret.
 * PTX order: live = rd1 (2 slots) + r10 + one loaded value = 4. Unbounded, the
 * six loads go first: rd1 + r10 + r1..r6 = 9 at once. With budget 4 no load may
 * pass an add (each would make 5); with 6, two may. */
static void register_budget(void **st)
{
    (void)st;
    char body[2048];
    size_t o = (size_t)snprintf(body, sizeof body, "  ld.param.u64 %%rd1, [p];\n  mov.u32 %%r10, 0;\n");
    for (int i = 1; i <= 6; i++)
        o += (size_t)snprintf(body + o, sizeof body - o,
                              "  ld.global.u32 %%r%d, [%%rd1+%d];\n  add.u32 %%r10, %%r10, %%r%d;\n", i, 4 * i, i);
    snprintf(body + o, sizeof body - o, "  st.global.u32 [%%rd1], %%r10;\n  ret;\n");
    ws_kernel *k = parse(body);
    assert_int_equal(ws_reg_pressure(k), 4);
    ws_kernel *t = sched(k, 0);
    assert_int_equal(ws_reg_pressure(t), 9);
    ws_kernel_free(t);
    t = sched(k, 4);
    assert_int_equal(ws_reg_pressure(t), 4);
    for (uint32_t i = 0; i < k->ninsts; i++) assert_int_equal(at(k, t, i), i);   /* nothing could move */
    ws_kernel_free(t);
    t = sched(k, 6);
    assert_int_equal(ws_reg_pressure(t), 6);
    ws_kernel_free(t);
    ws_kernel_free(k);
}

/* A block of 1200 instructions (more than one 256-instruction window): legal. */
static void long_block(void **st)
{
    (void)st;
    size_t cap = 200000, o = 0;
    char *body = malloc(cap);
    o += (size_t)snprintf(body + o, cap - o, "  ld.param.u64 %%rd1, [p];\n  mov.u32 %%r10, 0;\n");
    for (int i = 0; i < 400; i++)
        o += (size_t)snprintf(body + o, cap - o,
                              "  ld.global.u32 %%r%d, [%%rd1+%d];\n  add.u32 %%r10, %%r10, %%r%d;\n"
                              "%s",
                              1 + i % 8, 4 * (i % 64), 1 + i % 8,
                              i % 50 == 49 ? "  st.global.u32 [%rd1], %r10;\n" : "  xor.b32 %r11, %r10, 5;\n");
    snprintf(body + o, cap - o, "  st.global.u32 [%%rd1], %%r10;\n  ret;\n");
    ws_kernel *k = parse(body);
    free(body);
    assert_true(k->ninsts > 1200);
    ws_kernel *t = sched(k, 0);
    ws_kernel_free(t);
    ws_kernel_free(k);
}

/* ------------------------------------------------ every test workload -- */

static int workload_paths(glob_t *g)
{
    memset(g, 0, sizeof *g);
    glob("tests/kernels/*/*.yaml", 0, NULL, g);
    glob("sweeps/kernels/*.yaml", GLOB_APPEND, NULL, g);
    return (int)g->gl_pathc;
}

static int images_equal(const ws_memimage *a, const ws_memimage *b)
{
    if (a->gmem.nregions != b->gmem.nregions) return 0;
    for (uint32_t i = 0; i < a->gmem.nregions; i++) {
        const ws_region *x = &a->gmem.regions[i], *y = &b->gmem.regions[i];
        if (x->size != y->size || (x->size && memcmp(x->data, y->data, x->size))) return 0;
    }
    return 1;
}

/* Does k read %clock, %clock64 or %globaltimer (a value that depends on the instruction order)? */
static int reads_clock(const ws_kernel *k)
{
    for (uint32_t i = 0; i < k->ninsts; i++)
        for (int j = 0; j < k->insts[i].nsrc; j++) {
            const ws_operand *o = &k->insts[i].src[j];
            if (o->kind == WS_OK_SREG && (o->sreg == WS_SR_CLOCK || o->sreg == WS_SR_CLOCK64 || o->sreg == WS_SR_GLOBALTIMER ||
                                          o->sreg == WS_SR_GLOBALTIMER_LO || o->sreg == WS_SR_GLOBALTIMER_HI))
                return 1;
        }
    return 0;
}

/* Each workload's kernel scheduled with its budget is legal, deterministic
 * (two runs identical) and leaves the original as it was; the reference run
 * of the scheduled kernel ends with the same status, its expectations hold,
 * and the final memory is byte for byte the same. (The reference interleaves
 * threads one instruction per turn: a future workload whose memory depends on
 * the interleaving, e.g. atomic tickets kept in memory, could differ with the
 * order and would be exempted from the byte comparison here by name. A kernel
 * that reads the clock may store times, which the order changes: its memory
 * is not compared.) */
static void workloads(void **st)
{
    (void)st;
    glob_t g;
    assert_true(workload_paths(&g) >= 20);
    int same = 0, checked = 0, clocked = 0;
    for (size_t w = 0; w < g.gl_pathc; w++) {
        ws_error err = {{0}};
        ws_workload *wl = ws_workload_load(g.gl_pathv[w], &err);
        if (!wl) continue;   /* a deliberately bad one */
        const ws_kernel *orig = wl->kernel;
        ws_kernel *copy = ws_kernel_clone(orig);
        unsigned budget = wl->regs_per_thread ? wl->regs_per_thread : orig->est_regs_per_thread;
        ws_kernel *t = sched(orig, budget);
        ws_kernel *t2 = sched(orig, budget);
        assert_memory_equal(t->insts, t2->insts, t->ninsts * sizeof *t->insts);
        assert_memory_equal(orig->insts, copy->insts, orig->ninsts * sizeof *orig->insts);
        assert_int_equal(t->est_regs_per_thread, orig->est_regs_per_thread);
        ws_kernel_free(t2);
        ws_kernel_free(copy);

        ws_memimage m1, m2;
        ws_result r1, r2;
        memset(&m1, 0, sizeof m1);
        memset(&m2, 0, sizeof m2);
        ws_reference_run(wl, 0, 32, 20000000, &m1, &r1);
        wl->kernel = wl->launches[0].kernel = t;   /* the run reads launches[] */
        ws_reference_run(wl, 0, 32, 20000000, &m2, &r2);
        wl->kernel = wl->launches[0].kernel = orig;
        if (r1.status != r2.status)
            fail_msg("%s: reference status %d with the PTX order, %d scheduled (%s)", g.gl_pathv[w], r1.status,
                     r2.status, r2.message);
        if (r1.status == WS_ST_OK && !wl->needs_reference) {
            char msg[512];
            if (ws_expect_check(wl, &m1, NULL, msg, sizeof msg) == 0 &&
                ws_expect_check(wl, &m2, NULL, msg, sizeof msg) != 0)
                fail_msg("%s scheduled: %s", g.gl_pathv[w], msg);
        }
        int eq = images_equal(&m1, &m2);
        if (!eq && reads_clock(orig)) {   /* what it stores may be a time: the order moves work between reads */
            eq = 1;
            clocked++;
        }
        if (!eq) fprintf(stderr, "%s: final memory differs between the PTX and the scheduled order\n", g.gl_pathv[w]);
        same += eq;
        checked++;
        ws_memimage_free(&m1);
        ws_memimage_free(&m2);
        ws_kernel_free(t);
        ws_workload_free(wl);
    }
    fprintf(stderr, "%d workloads, %d with identical final memory (%d of them read the clock and differ)\n", checked, same,
            clocked);
    assert_true(checked >= 20);
    assert_int_equal(same, checked);
    globfree(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hoists_independent_load),
        cmocka_unit_test(loads_pass_loads),
        cmocka_unit_test(war_waw_raw),
        cmocka_unit_test(predicates_and_guards),
        cmocka_unit_test(carry_chain),
        cmocka_unit_test(loads_stay_after_ordered_ops),
        cmocka_unit_test(ordered_ops_keep_order),
        cmocka_unit_test(branch_stays_last),
        cmocka_unit_test(register_budget),
        cmocka_unit_test(long_block),
        cmocka_unit_test(workloads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
