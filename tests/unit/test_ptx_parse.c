/*
 * PTX front end: every shipped kernel loads (with its CFG), and hand-written
 * snippets decode into the fields ptx.h documents. Expected values are worked
 * out from the PTX ISA by hand (IEEE bits of float literals, natural .param
 * alignment, shared/global layout), never copied from the decoder's output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <cmocka.h>
#include "warpsweep/ptx.h"
#include "warpsweep/exec.h"
#include "ptx/ptx_internal.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

static ws_kernel *dec(const char *text)
{
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_decode(text, "t.ptx", NULL, &err);
    if (!k) fprintf(stderr, "decode failed: %s\n", err.msg);
    assert_non_null(k);
    return k;
}

static uint32_t reg(const ws_kernel *k, const char *name)
{
    for (uint32_t i = 0; i < k->nregs; i++)
        if (!strcmp(k->reg_names[i], name)) return i;
    fail_msg("no register %s", name);
    return WS_NO_REG;
}

static const char *fmt(const ws_kernel *k, uint32_t i)
{
    static char buf[256];
    ws_inst_format(k, &k->insts[i], buf, sizeof buf);
    return buf;
}

/* ---- every shipped kernel ---- */
static void load_dir(const char *sub);
static void test_shipped_kernels(void **state)
{
    (void)state;
    load_dir("sweeps/kernels");
    load_dir("tests/kernels/int");   /* nvcc output for sm_75/80/90, -O3, -G, -lineinfo */
    load_dir("tests/kernels/call");  /* .func calls, inlined at load */
}

/* The names of the .entry directives of a PTX file (at most max), by a plain
 * text scan: the parser loads one entry at a time. */
static int entry_names(const char *path, char names[][128], int max)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    int n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        const char *p = strstr(line, ".entry ");
        if (p && sscanf(p + 7, " %127[A-Za-z0-9_$]", names[n]) == 1) n++;
    }
    fclose(f);
    assert_true(n >= 1);
    return n;
}

/* Load one kernel (entry NULL: the file's only one) and check its structure. */
static void check_kernel(const char *path, const char *entry, const char *name)
{
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_load(path, entry, &err);
    if (!k) fail_msg("%s: %s", name, err.msg);
    assert_true(k->ninsts > 0);
    assert_non_null(k->blocks);
    assert_true(k->nblocks > 0);
    /* every branch target is an instruction; the last instruction is ret/exit */
    for (uint32_t i = 0; i < k->ninsts; i++) {
        const ws_inst *in = &k->insts[i];
        if (in->op == WS_OP_BRA) {
            assert_true(in->target < k->ninsts);
            assert_int_equal(in->is_backedge, in->target <= i);
        }
        if (in->op == WS_OP_BRX) assert_true(in->target + in->ntargets <= k->nbrx_targets);
        assert_true(in->n_rd <= 12 && in->n_wr <= 5);
        char buf[256];
        assert_true(ws_inst_format(k, in, buf, sizeof buf) > 0);
    }
    ws_kernel_free(k);
}

static void load_dir(const char *sub)
{
    const char *src = getenv("WS_SOURCE_DIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", src ? src : ".", sub);
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 4, ".ptx")) continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        /* a file with several entries (bfs.ptx: a launch sequence's kernels) needs one
         * named: load each */
        char entries[8][128];
        int nentries = entry_names(path, entries, 8);
        for (int j = 0; j < nentries; j++)
            check_kernel(path, nentries > 1 ? entries[j] : NULL, e->d_name);
        n++;
    }
    closedir(d);
    assert_true(n >= 1);
}

/* the shipped switch kernel: brx.idx table with 7 targets (PTX lines 43-50) */
static void test_shipped_switch_brx(void **state)
{
    (void)state;
    const char *src = getenv("WS_SOURCE_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/sweeps/kernels/switch.ptx", src ? src : ".");
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_load(path, NULL, &err);
    if (!k) skip();
    int found = 0;
    for (uint32_t i = 0; i < k->ninsts; i++) {
        const ws_inst *in = &k->insts[i];
        if (in->op != WS_OP_BRX) continue;
        found = 1;
        assert_int_equal(in->ntargets, 7);
        /* $L__BB0_2 (the last list entry) is the instruction right after brx.idx */
        assert_int_equal(k->brx_targets[in->target + 6], i + 1);
        assert_int_equal(in->src[0].kind, WS_OK_REG);
        assert_int_equal(in->unit, WS_UNIT_CTRL);
    }
    assert_true(found);
    ws_kernel_free(k);
}

/* ---- decoded fields ---- */
static void test_registers_params(void **state)
{
    (void)state;
    ws_kernel *k = dec(HDR
        ".visible .entry k(.param .u32 a, .param .u64 b, .param .align 16 .b8 s[12], .param .u8 c,\n"
        "                  .param .f64 d)\n"
        ".maxntid 128, 1, 1\n"
        "{\n"
        "  .reg .pred %p<3>;\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n  .reg .u32 %foo, %bar;\n"
        "  ld.param.u32 %r0, [a];\n"
        "  ld.param.u64 %rd1, [b];\n"
        "  ld.param.u32 %r1, [s+8];\n"
        "  ld.param.u8 %r2, [c];\n"
        "  add.u32 %foo, %bar, %r3;\n"
        "  ret;\n}\n");
    /* %p0..2, %r0..3, %rd0..1, %foo, %bar */
    assert_int_equal(k->nregs, 3 + 4 + 2 + 2);
    assert_int_equal(k->reg_types[reg(k, "%p2")], WS_TY_PRED);
    assert_int_equal(k->reg_types[reg(k, "%rd1")], WS_TY_B64);
    assert_int_equal(k->reg_types[reg(k, "%foo")], WS_TY_U32);
    /* 4 x 32-bit regs + 2 x 64-bit + 2 x 32-bit; predicates free: 4 + 4 + 2 */
    assert_int_equal(k->est_regs_per_thread, 10);
    /* a@0 (4), b@8 (align 8), s@16 (align 16, 12 bytes), c@28, d@32 (align 8) -> 40 */
    assert_int_equal(k->nparams, 5);
    assert_int_equal(k->params[0].offset, 0);
    assert_int_equal(k->params[1].offset, 8);
    assert_int_equal(k->params[2].offset, 16);
    assert_int_equal(k->params[2].size, 12);
    assert_int_equal(k->params[3].offset, 28);
    assert_int_equal(k->params[4].offset, 32);
    assert_int_equal(k->param_bytes, 40);
    assert_int_equal(k->maxntid[0], 128);
    assert_int_equal(k->maxntid[1], 1);
    const ws_inst *in = &k->insts[2];
    assert_int_equal(in->op, WS_OP_LD);
    assert_int_equal(in->space, WS_SP_PARAM);
    assert_int_equal(in->src[0].kind, WS_OK_ADDR);
    assert_int_equal(in->src[0].reg, WS_NO_REG);
    assert_int_equal(in->src[0].imm, 24);
    assert_int_equal(in->unit, WS_UNIT_INT);   /* ld.param is charged as an INT move */
    assert_int_equal(k->insts[0].src[0].imm, 0);
    assert_int_equal(k->insts[1].src[0].imm, 8);
    assert_int_equal(k->insts[3].src[0].imm, 28);
    assert_int_equal(k->insts[5].op, WS_OP_RET);
    assert_int_equal(k->insts[5].unit, WS_UNIT_CTRL);
    ws_kernel_free(k);
}

static void test_modifiers_and_types(void **state)
{
    (void)state;
    ws_kernel *k = dec(HDR
        ".entry k() {\n"
        "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n  .reg .f32 %f<4>;\n  .reg .f64 %fd<2>;\n"
        "  @!%p1 setp.lt.s32 %p2, %r3, 16;\n"                  /* 0 */
        "  setp.ltu.and.ftz.f32 %p1|%p2, %f1, %f2, !%p3;\n"     /* 1 */
        "  mul.wide.u32 %rd1, %r1, %r2;\n"                      /* 2 */
        "  cvt.rzi.sat.s32.f64 %r1, %fd1;\n"                    /* 3 */
        "  mad.hi.cc.u32 %r1, %r2, %r3, %r4;\n"                 /* 4 */
        "  div.approx.ftz.f32 %f1, %f2, %f3;\n"                 /* 5 */
        "  atom.global.cas.b32 %r1, [%rd1+-8], %r2, %r3;\n"     /* 6 */
        "  red.shared.add.f32 [%r1], %f1;\n"                    /* 7 */
        "  shfl.sync.bfly.b32 %r1|%p0, %r2, 1, 31, -1;\n"       /* 8 */
        "  vote.sync.ballot.b32 %r4, !%p1, 0xffffffff;\n"       /* 9 */
        "  bar.sync 0;\n"                                      /* 10 */
        "  ld.global.nc.v4.f32 {%f0, %f1, _, %f3}, [%rd2+16];\n" /* 11 */
        "  st.volatile.shared.v2.u32 [%r5], {%r6, %r7};\n"      /* 12 */
        "  shf.r.clamp.b32 %r1, %r2, %r3, %r4;\n"               /* 13 */
        "  membar.gl;\n"                                       /* 14 */
        "  mov.u32 %r0, %laneid;\n"                            /* 15 */
        "  mov.u64 %rd3, %clock64;\n"                          /* 16 */
        "  sqrt.rn.f64 %fd0, %fd1;\n"                          /* 17 */
        "  bar.warp.sync -1;\n"                                /* 18 */
        "  exit;\n}\n");
    const ws_inst *in = &k->insts[0];
    assert_int_equal(in->op, WS_OP_SETP);
    assert_int_equal(in->cmp, WS_CMP_LT);
    assert_int_equal(in->type, WS_TY_S32);
    assert_int_equal(in->guard, reg(k, "%p1"));
    assert_int_equal(in->guard_neg, 1);
    assert_int_equal(in->src[1].kind, WS_OK_IMM);
    assert_int_equal(in->src[1].imm, 16);
    /* reads: guard %p1 and %r3; writes %p2 */
    assert_int_equal(in->n_rd, 2);
    assert_int_equal(in->n_wr, 1);
    assert_int_equal(in->wr[0], reg(k, "%p2"));
    assert_string_equal(fmt(k, 0), "@!%p1 setp.lt.s32 %p2, %r3, 16;");

    in = &k->insts[1];
    assert_int_equal(in->cmp, WS_CMP_LTU);
    assert_int_equal(in->boolop, WS_BOOL_AND);
    assert_true(in->mods & WS_MOD_FTZ);
    assert_int_equal(in->ndst, 2);
    assert_int_equal(in->dst[1].reg, reg(k, "%p2"));
    assert_int_equal(in->nsrc, 3);
    assert_int_equal(in->src[2].neg, 1);
    assert_int_equal(in->n_wr, 2);
    assert_string_equal(fmt(k, 1), "setp.ltu.and.ftz.f32 %p1|%p2, %f1, %f2, !%p3;");

    assert_true(k->insts[2].mods & WS_MOD_WIDE);
    assert_int_equal(k->insts[2].type, WS_TY_U32);
    in = &k->insts[3];
    assert_int_equal(in->op, WS_OP_CVT);
    assert_int_equal(in->type, WS_TY_S32);
    assert_int_equal(in->type2, WS_TY_F64);
    assert_int_equal(in->rnd, WS_RND_RZI);
    assert_true(in->mods & WS_MOD_SAT);
    assert_true((k->insts[4].mods & (WS_MOD_HI | WS_MOD_CC)) == (WS_MOD_HI | WS_MOD_CC));
    assert_int_equal(k->insts[5].unit, WS_UNIT_SFU);
    assert_true(k->insts[5].mods & WS_MOD_APPROX);

    in = &k->insts[6];
    assert_int_equal(in->subop, WS_ATOM_CAS);
    assert_int_equal(in->space, WS_SP_GLOBAL);
    assert_int_equal(in->src[0].kind, WS_OK_ADDR);
    assert_int_equal(in->src[0].reg, reg(k, "%rd1"));
    assert_int_equal(in->src[0].imm, -8);
    assert_int_equal(in->nsrc, 3);
    assert_int_equal(in->unit, WS_UNIT_MEM);
    assert_int_equal(k->insts[7].op, WS_OP_RED);
    assert_int_equal(k->insts[7].ndst, 0);
    assert_int_equal(k->insts[7].space, WS_SP_SHARED);
    assert_int_equal(k->insts[7].subop, WS_ATOM_ADD);

    in = &k->insts[8];
    assert_int_equal(in->subop, WS_SHFL_BFLY);
    assert_int_equal(in->ndst, 2);
    assert_int_equal(in->nsrc, 4);
    assert_int_equal(in->src[3].imm, -1);
    assert_int_equal(in->unit, WS_UNIT_SYNC);
    assert_int_equal(k->insts[9].subop, WS_VOTE_BALLOT);
    assert_int_equal(k->insts[9].src[0].neg, 1);
    assert_int_equal(k->insts[9].src[1].imm, 0xffffffffll);
    assert_int_equal(k->insts[10].subop, WS_BAR_SYNC);
    assert_int_equal(k->insts[10].nsrc, 1);

    in = &k->insts[11];
    assert_int_equal(in->vec, 4);
    assert_true(in->mods & WS_MOD_NONCOHERENT);
    assert_int_equal(in->dst[0].kind, WS_OK_VEC);
    assert_int_equal(in->dst[0].nvec, 4);
    assert_int_equal(in->dst[0].vec[2], WS_NO_REG);
    assert_int_equal(in->dst[0].vec[3], reg(k, "%f3"));
    assert_int_equal(in->n_wr, 3);   /* "_" writes nothing */
    assert_string_equal(fmt(k, 11), "ld.global.nc.v4.f32 {%f0, %f1, _, %f3}, [%rd2+16];");
    in = &k->insts[12];
    assert_true(in->mods & WS_MOD_VOLATILE);
    assert_int_equal(in->src[1].kind, WS_OK_VEC);
    assert_int_equal(in->n_rd, 3);   /* %r5, %r6, %r7 */
    assert_int_equal(k->insts[13].subop, WS_SHF_R_CLAMP);
    assert_int_equal(k->insts[14].op, WS_OP_MEMBAR);
    assert_int_equal(k->insts[15].src[0].kind, WS_OK_SREG);
    assert_int_equal(k->insts[15].src[0].sreg, WS_SR_LANEID);
    assert_int_equal(k->insts[16].src[0].sreg, WS_SR_CLOCK64);
    assert_int_equal(k->insts[17].rnd, WS_RND_RN);
    assert_int_equal(k->insts[17].unit, WS_UNIT_FP64);   /* IEEE sqrt.f64: ptxas's Newton sequence */
    assert_int_equal(k->insts[17].cost, WS_COST_DDIV);
    assert_int_equal(k->insts[18].op, WS_OP_BAR_WARP);
    assert_int_equal(k->insts[19].op, WS_OP_EXIT);
    ws_kernel_free(k);
}

static void test_immediates(void **state)
{
    (void)state;
    ws_kernel *k = dec(HDR
        ".entry k() {\n"
        "  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n  .reg .f32 %f<2>;\n  .reg .f64 %fd<2>;\n"
        "  mov.f32 %f0, 0f3F800000;\n"     /* 0: 1.0f */
        "  mov.f64 %fd0, 0d4000000000000000;\n" /* 1: 2.0 */
        "  mov.f32 %f1, 1.5;\n"            /* 2: 0x3FC00000 */
        "  mov.f64 %fd1, -0.5;\n"          /* 3: 0xBFE0000000000000 */
        "  add.f64 %fd1, %fd0, 0f3F800000;\n" /* 4: f32 literal widened: 1.0 = 0x3FF0000000000000 */
        "  mov.u32 %r0, 0x7fffffff;\n"     /* 5 */
        "  mov.u32 %r0, 017;\n"            /* 6: octal 15 */
        "  mov.u32 %r0, 0b101;\n"          /* 7: 5 */
        "  add.s32 %r0, %r1, -9;\n"        /* 8 */
        "  mov.b64 %rd0, 0xffffffffffffffff;\n" /* 9 */
        "  mov.b32 %r0, 0fBF800000;\n"     /* 10: bits in an integer move */
        "  ret;\n}\n");
    assert_int_equal(k->insts[0].src[0].imm, 0x3F800000);
    assert_int_equal((uint64_t)k->insts[1].src[0].imm, 0x4000000000000000ull);
    assert_int_equal(k->insts[2].src[0].imm, 0x3FC00000);
    assert_int_equal((uint64_t)k->insts[3].src[0].imm, 0xBFE0000000000000ull);
    assert_int_equal((uint64_t)k->insts[4].src[1].imm, 0x3FF0000000000000ull);
    assert_int_equal(k->insts[5].src[0].imm, 0x7fffffff);
    assert_int_equal(k->insts[6].src[0].imm, 15);
    assert_int_equal(k->insts[7].src[0].imm, 5);
    assert_int_equal(k->insts[8].src[1].imm, -9);
    assert_int_equal((uint64_t)k->insts[9].src[0].imm, 0xffffffffffffffffull);
    assert_int_equal(k->insts[10].src[0].imm, 0xBF800000);
    assert_string_equal(fmt(k, 2), "mov.f32 %f1, 0f3FC00000;");
    assert_string_equal(fmt(k, 3), "mov.f64 %fd1, 0dBFE0000000000000;");
    ws_kernel_free(k);
}

/* address initialisers (nvcc: `__device__ int *p = tab + 2;` -> `= generic(tab)+8`) get the
 * target's data-segment address: tab at offset 0, c at 16 (.u64 p at 8 after the 8-byte tab) */
static void test_address_initialisers(void **state)
{
    (void)state;
    ws_kernel *k = dec(HDR
        ".global .align 4 .b8 tab[8];\n"
        ".global .align 8 .u64 p = generic(tab)+4;\n"
        ".const .align 4 .u32 c[3] = {7, c, tab - 0 + 2};\n"
        ".entry k() {\n  ret;\n}\n");
    assert_int_equal(k->nvars, 3);
    assert_int_equal(k->vars[1].offset, 8);
    assert_int_equal(k->vars[2].offset, 16);
    uint64_t pv = 0;
    memcpy(&pv, k->vars[1].init, 8);
    assert_int_equal(pv, WS_DATA_BASE + 4);
    uint32_t cv[3];
    memcpy(cv, k->vars[2].init, 12);
    assert_int_equal(cv[0], 7);
    assert_int_equal(cv[1], WS_DATA_BASE + 16);
    assert_int_equal(cv[2], WS_DATA_BASE + 2);
    ws_kernel_free(k);
}

static void test_variables_and_symbols(void **state)
{
    (void)state;
    ws_kernel *k = dec(HDR
        ".global .align 4 .u32 gtab[3] = {1, 2, 0x30};\n"
        ".const .align 8 .f64 cval = 0.5;\n"
        ".visible .entry k() {\n"
        "  .reg .b32 %r<3>;\n  .reg .b64 %rd<3>;\n"
        "  .shared .align 4 .b8 sa[10];\n"
        "  .shared .align 8 .f64 sb[2];\n"
        "  .extern .shared .align 16 .b8 dyn[];\n"
        "  .local .align 4 .b8 depot[24];\n"
        "  mov.u32 %r0, sb;\n"               /* 0: shared offset 16 */
        "  ld.shared.u32 %r1, [sa+4];\n"      /* 1: 4 */
        "  mov.u64 %rd0, gtab;\n"             /* 2: WS_DATA_BASE + 0 */
        "  ld.const.f64 %rd1, [cval];\n"      /* 3: WS_DATA_BASE + 16 */
        "  mov.u32 %r2, dyn;\n"               /* 4: 32 (after 16 + 16 static, 16-aligned) */
        "  mov.u64 %rd2, depot;\n"            /* 5: local 0 */
        "  ret;\n}\n");
    /* sa@0 (10 bytes), sb@16 (align 8, 16 bytes) -> 32 static; dyn at 32 */
    assert_int_equal(k->insts[0].src[0].kind, WS_OK_IMM);
    assert_int_equal(k->insts[0].src[0].imm, 16);
    assert_int_equal(k->insts[1].src[0].kind, WS_OK_ADDR);
    assert_int_equal(k->insts[1].src[0].reg, WS_NO_REG);
    assert_int_equal(k->insts[1].src[0].imm, 4);
    assert_int_equal(k->insts[2].src[0].imm, (int64_t)WS_DATA_BASE);
    /* gtab 12 bytes at 0, cval aligned to 8 -> 16 */
    assert_int_equal(k->insts[3].src[0].imm, (int64_t)WS_DATA_BASE + 16);
    assert_int_equal(k->insts[4].src[0].imm, 32);
    assert_int_equal(k->insts[5].src[0].imm, 0);
    assert_int_equal(k->shared_bytes, 32);
    assert_int_equal(k->local_bytes, 24);
    assert_int_equal(k->data_bytes, 24);
    int found = 0;
    for (uint32_t i = 0; i < k->nvars; i++) {
        const ws_var *v = &k->vars[i];
        if (!strcmp(v->name, "gtab")) {
            found++;
            assert_int_equal(v->size, 12);
            assert_non_null(v->init);
            uint8_t want[12] = {1, 0, 0, 0, 2, 0, 0, 0, 0x30, 0, 0, 0};
            assert_memory_equal(v->init, want, 12);
        } else if (!strcmp(v->name, "cval")) {
            found++;
            uint64_t b;
            memcpy(&b, v->init, 8);
            assert_int_equal(b, 0x3FE0000000000000ull);
            assert_int_equal(v->space, WS_SP_CONST);
        } else if (!strcmp(v->name, "dyn")) {
            found++;
            assert_int_equal(v->size, 0);
            assert_int_equal(v->offset, 32);
        }
    }
    assert_int_equal(found, 3);
    ws_kernel_free(k);
}

static void test_labels_brx_backedge(void **state)
{
    (void)state;
    ws_kernel *k = dec(HDR
        ".entry k(.param .u32 n) {\n"
        "  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
        "  ld.param.u32 %r0, [n];\n"          /* 0 */
        "  mov.u32 %r1, 0;\n"                 /* 1 */
        "LOOP:\n"
        "  add.s32 %r1, %r1, 1;\n"            /* 2 */
        "  setp.lt.s32 %p1, %r1, %r0;\n"      /* 3 */
        "  @%p1 bra LOOP;\n"                  /* 4: back edge to 2 */
        "  and.b32 %r2, %r1, 1;\n"            /* 5 */
        "  tbl: .branchtargets A, B;\n"
        "  brx.idx %r2, tbl;\n"               /* 6 */
        "A: mov.u32 %r3, 7;\n"                /* 7 */
        "  bra.uni DONE;\n"                   /* 8: forward */
        "B:\n  mov.u32 %r3, 9;\n"             /* 9 */
        "DONE:\n  ret;\n}\n");                /* 10 */
    const ws_inst *b = &k->insts[4];
    assert_int_equal(b->op, WS_OP_BRA);
    assert_int_equal(b->target, 2);
    assert_int_equal(b->src[0].kind, WS_OK_LABEL);
    assert_int_equal(b->src[0].imm, 2);
    assert_int_equal(b->is_backedge, 1);
    assert_int_equal(b->n_rd, 1);   /* guard */
    const ws_inst *x = &k->insts[6];
    assert_int_equal(x->op, WS_OP_BRX);
    assert_int_equal(x->ntargets, 2);
    assert_int_equal(k->brx_targets[x->target], 7);
    assert_int_equal(k->brx_targets[x->target + 1], 9);
    assert_int_equal(x->is_backedge, 0);
    assert_int_equal(k->insts[8].target, 10);
    assert_true(k->insts[8].mods & WS_MOD_UNI);
    assert_int_equal(k->insts[8].is_backedge, 0);
    ws_kernel_free(k);
}

static void test_warp_and_misc(void **state)
{
    (void)state;
    ws_kernel *k = dec(HDR
        ".entry k() .reqntid 64, 2 {\n"
        "  .reg .pred %p<3>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<2>;\n"
        "  match.all.sync.b32 %r1|%p1, %r2, -1;\n"          /* 0 */
        "  bar.red.popc.u32 %r3, 0, !%p1;\n"                /* 1 */
        "  barrier.sync.aligned 1, 64;\n"                  /* 2 */
        "  mov.b64 {%r4, %r5}, %rd1;\n"                    /* 3 */
        "  mov.b64 %rd0, {%r4, %r5};\n"                    /* 4 */
        "  prefetch.global.L2 [%rd0];\n"                   /* 5 */
        "  { .reg .b32 %r1;\n    add.s32 %r1, %r2, 1;\n  }\n" /* 6: inner %r1 shadows */
        "  add.s32 %r1, %r2, 1;\n"                          /* 7: outer %r1 again */
        "  activemask.b32 %r0;\n"                           /* 8 */
        "  fence.acq_rel.gpu;\n"                            /* 9 */
        "  ret;\n}\n");
    assert_int_equal(k->reqntid[0], 64);
    assert_int_equal(k->reqntid[1], 2);
    assert_int_equal(k->reqntid[2], 1);
    const ws_inst *in = &k->insts[0];
    assert_int_equal(in->op, WS_OP_MATCH);
    assert_int_equal(in->subop, WS_MATCH_ALL);
    assert_int_equal(in->ndst, 2);
    assert_int_equal(in->dst[1].reg, reg(k, "%p1"));
    in = &k->insts[1];
    assert_int_equal(in->subop, WS_BAR_RED_POPC);
    assert_int_equal(in->type, WS_TY_U32);
    assert_int_equal(in->ndst, 1);
    assert_int_equal(in->nsrc, 2);
    assert_int_equal(in->src[1].neg, 1);
    assert_int_equal(in->unit, WS_UNIT_SYNC);
    assert_int_equal(k->insts[2].op, WS_OP_BARRIER);
    assert_true(k->insts[2].mods & WS_MOD_ALIGNED);
    assert_int_equal(k->insts[2].src[1].imm, 64);
    assert_int_equal(k->insts[3].dst[0].kind, WS_OK_VEC);
    assert_int_equal(k->insts[3].n_wr, 2);
    assert_int_equal(k->insts[4].src[0].kind, WS_OK_VEC);
    assert_int_equal(k->insts[4].n_rd, 2);
    assert_int_equal(k->insts[5].op, WS_OP_PREFETCH);
    /* the inner block declares a new %r1: a 7th b32 register */
    assert_int_equal(k->nregs, 3 + 6 + 2 + 1);
    assert_int_not_equal(k->insts[6].dst[0].reg, k->insts[7].dst[0].reg);
    assert_int_equal(k->insts[7].dst[0].reg, k->insts[0].dst[0].reg);
    assert_int_equal(k->insts[8].op, WS_OP_ACTIVEMASK);
    assert_int_equal(k->insts[9].mods & (WS_MOD_ACQUIRE | WS_MOD_RELEASE), WS_MOD_ACQUIRE | WS_MOD_RELEASE);
    assert_string_equal(fmt(k, 1), "bar.red.popc.u32 %r3, 0, !%p1;");
    assert_string_equal(fmt(k, 0), "match.all.sync.b32 %r1|%p1, %r2, -1;");
    ws_kernel_free(k);
}

/* integer bit instructions nvcc emits (__ffs, __clz of a shifted value: bfind.shiftamt) */
static void test_bfind_decode(void **state)
{
    (void)state;
    ws_kernel *k = dec(HDR
        ".entry k() {\n"
        "  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n"
        "  bfind.shiftamt.u32 %r1, %r2;\n"                 /* 0 */
        "  bfind.s64 %r3, %rd1;\n"                         /* 1 */
        "  ret;\n}\n");
    assert_int_equal(k->insts[0].op, WS_OP_BFIND);
    assert_int_equal(k->insts[0].subop, WS_BFIND_SHIFTAMT);
    assert_int_equal(k->insts[0].type, WS_TY_U32);
    assert_int_equal(k->insts[0].nsrc, 1);
    assert_int_equal(k->insts[1].subop, 0);
    assert_int_equal(k->insts[1].type, WS_TY_S64);
    assert_string_equal(fmt(k, 0), "bfind.shiftamt.u32 %r1, %r2;");
    assert_string_equal(fmt(k, 1), "bfind.s64 %r3, %rd1;");
    ws_kernel_free(k);
    ws_error err = {{0}};
    k = ws_ptx_decode(HDR ".entry k() {\n  .reg .b32 %r<4>;\n  bfind.b32 %r1, %r2;\n  ret;\n}\n", "t.ptx", NULL, &err);
    assert_null(k);
    assert_non_null(strstr(err.msg, "t.ptx:6:3: "));
}

static void test_entry_selection(void **state)
{
    (void)state;
    const char *two = HDR ".entry a() { ret; }\n.entry b() { exit; }\n";
    ws_error err = {{0}};
    ws_kernel *k = ws_ptx_decode(two, "m.ptx", NULL, &err);
    assert_null(k);
    assert_non_null(strstr(err.msg, "a, b"));
    k = ws_ptx_decode(two, "m.ptx", "b", &err);
    assert_non_null(k);
    assert_string_equal(k->name, "b");
    assert_int_equal(k->insts[0].op, WS_OP_EXIT);
    ws_kernel_free(k);
    k = ws_ptx_decode(two, "m.ptx", "c", &err);
    assert_null(k);
    assert_non_null(strstr(err.msg, "'c'"));
}

static void test_types_table(void **state)
{
    (void)state;
    assert_int_equal(ws_type_bits(WS_TY_PRED), 1);
    assert_int_equal(ws_type_bits(WS_TY_U8), 8);
    assert_int_equal(ws_type_bits(WS_TY_S64), 64);
    assert_int_equal(ws_type_bits(WS_TY_F32), 32);
    assert_true(ws_type_is_signed(WS_TY_S16));
    assert_false(ws_type_is_signed(WS_TY_U16));
    assert_true(ws_type_is_float(WS_TY_F64));
    assert_string_equal(ws_type_name(WS_TY_B16), "b16");
    assert_int_equal(ws_type_from_name("u32", 3), WS_TY_U32);
    assert_int_equal(ws_type_from_name(".f64", 4), WS_TY_F64);
    assert_int_equal(ws_type_from_name("x32", 3), WS_TY_NONE);
    assert_string_equal(ws_opcode_name(WS_OP_SETP), "setp");
    assert_int_equal(ws_opcode_unit(WS_OP_DIV), WS_UNIT_SFU);
    assert_string_equal(ws_sreg_name(WS_SR_CTAID_Y), "%ctaid.y");
    assert_string_equal(ws_sreg_name(WS_SR_LANEMASK_GE), "%lanemask_ge");
}

/* redux.sync (sm_80 __reduce_*_sync) and tanh.approx.f32 (fast-math tanhf) */
static void test_redux_tanh_decode(void **state)
{
    (void)state;
    ws_kernel *k = dec(HDR
        ".entry k() {\n  .reg .b32 %r<4>;\n  .reg .f32 %f<3>;\n"
        "  redux.sync.add.s32 %r1, %r2, -1;\n"      /* 0 */
        "  redux.sync.max.u32 %r1, %r2, %r3;\n"     /* 1 */
        "  redux.sync.xor.b32 %r1, %r2, 4095;\n"    /* 2 */
        "  tanh.approx.f32 %f1, %f2;\n"             /* 3 */
        "  ret;\n}\n");
    const ws_inst *in = &k->insts[0];
    assert_int_equal(in->op, WS_OP_REDUX);
    assert_int_equal(in->subop, WS_ATOM_ADD);
    assert_int_equal(in->type, WS_TY_S32);
    assert_int_equal(in->nsrc, 2);
    assert_int_equal(in->unit, WS_UNIT_SYNC);
    assert_string_equal(fmt(k, 0), "redux.sync.add.s32 %r1, %r2, -1;");
    assert_int_equal(k->insts[1].subop, WS_ATOM_MAX);
    assert_int_equal(k->insts[1].src[1].reg, reg(k, "%r3"));
    assert_int_equal(k->insts[2].subop, WS_ATOM_XOR);
    assert_int_equal(k->insts[3].op, WS_OP_TANH);
    assert_true(k->insts[3].mods & WS_MOD_APPROX);
    assert_int_equal(k->insts[3].unit, WS_UNIT_SFU);
    ws_kernel_free(k);
    static const char *const badk[] = {
        "  redux.add.s32 %r1, %r2, -1;\n",         /* needs .sync */
        "  redux.sync.add.b32 %r1, %r2, -1;\n",    /* add takes .u32/.s32 */
        "  redux.sync.and.u32 %r1, %r2, -1;\n",    /* and takes .b32 */
        "  redux.sync.exch.b32 %r1, %r2, -1;\n",   /* not a reduction */
        "  tanh.f32 %f1, %f2;\n",                  /* needs .approx */
    };
    for (size_t i = 0; i < sizeof badk / sizeof badk[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, HDR ".entry k() {\n  .reg .b32 %%r<4>;\n  .reg .f32 %%f<3>;\n%s  ret;\n}\n", badk[i]);
        ws_error err = {{0}};
        ws_kernel *bk = ws_ptx_decode(text, "t.ptx", NULL, &err);
        assert_null(bk);
        assert_non_null(strstr(err.msg, "t.ptx:7:"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_kernels),
        cmocka_unit_test(test_shipped_switch_brx),
        cmocka_unit_test(test_registers_params),
        cmocka_unit_test(test_modifiers_and_types),
        cmocka_unit_test(test_immediates),
        cmocka_unit_test(test_address_initialisers),
        cmocka_unit_test(test_variables_and_symbols),
        cmocka_unit_test(test_labels_brx_backedge),
        cmocka_unit_test(test_warp_and_misc),
        cmocka_unit_test(test_bfind_decode),
        cmocka_unit_test(test_entry_selection),
        cmocka_unit_test(test_types_table),
        cmocka_unit_test(test_redux_tanh_decode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
