/*
 * A small harness for the instruction-semantics tests: one launch, one CTA
 * with shared memory, one warp with XH_NREGS registers, global memory with a
 * read-only data segment and two buffers separated by a guard gap, and
 * builders for hand-made ws_inst values (the tests do not depend on the PTX
 * parser).
 */
#ifndef WS_EXEC_HARNESS_H
#define WS_EXEC_HARNESS_H
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "warpsweep/exec.h"

#define XH_NREGS 64
#define XH_SMEM 256
#define XH_LOCAL 64
#define XH_PARAM 32
#define XH_BUF 64
#define XH_CONST 16
#define XH_BUF_A WS_GLOBAL_BASE
#define XH_BUF_B (WS_GLOBAL_BASE + XH_BUF + WS_GLOBAL_GAP)

typedef struct xh {
    ws_kernel k;
    ws_launch L;
    ws_cta cta;
    ws_warp w;
    ws_gmem gm;
    ws_region regions[3];
    ws_exec_env env;
    ws_effect eff;
    uint64_t regs[XH_NREGS * WS_MAX_WARP_SIZE];
    uint8_t reg_types[XH_NREGS];
    uint32_t reg_slot[XH_NREGS];   /* identity: register r in row r (no compaction) */
    uint8_t smem[XH_SMEM];
    uint8_t local[XH_LOCAL * WS_MAX_WARP_SIZE];
    uint8_t param[XH_PARAM];
    uint8_t cdata[XH_CONST];
    uint8_t bufa[XH_BUF], bufb[XH_BUF];
    uint32_t brx[4];
} xh;

static inline xh *xh_new(unsigned warp_size)
{
    xh *h = calloc(1, sizeof *h);
    h->k.nregs = XH_NREGS;
    h->k.reg_types = h->reg_types;
    h->k.param_bytes = XH_PARAM;
    h->k.brx_targets = h->brx;
    h->k.nbrx_targets = 4;
    h->brx[0] = 10; h->brx[1] = 20; h->brx[2] = 30; h->brx[3] = 40;
    h->L.kernel = &h->k;
    h->L.grid[0] = 2; h->L.grid[1] = 1; h->L.grid[2] = 1;
    h->L.block[0] = warp_size; h->L.block[1] = 1; h->L.block[2] = 1;
    h->L.threads_per_cta = warp_size;
    h->L.warps_per_cta = 1;
    h->L.warp_size = warp_size;
    h->L.param_buf = h->param;
    h->L.shared_bytes = XH_SMEM;
    h->L.local_bytes = XH_LOCAL;
    h->cta.ctaid[0] = 1;
    h->cta.smem = h->smem;
    h->w.regs = h->regs;
    for (unsigned r = 0; r < XH_NREGS; r++) h->reg_slot[r] = r;
    h->k.reg_slot = h->reg_slot;
    h->k.nslots = XH_NREGS;
    h->w.slot = h->reg_slot;
    h->w.local = h->local;
    h->w.cta = &h->cta;
    h->w.hw_warp = 3;
    h->w.smid = 0;
    h->w.nlanes = warp_size;
    h->w.valid = warp_size >= 64 ? ~0ull : (1ull << warp_size) - 1;
    for (unsigned l = 0; l < warp_size; l++) h->w.tid[0][l] = l;
    h->regions[0] = (ws_region){ "data", WS_DATA_BASE, XH_CONST, h->cdata, WS_TY_B8, 0 };
    h->regions[1] = (ws_region){ "a", XH_BUF_A, XH_BUF, h->bufa, WS_TY_U32, 1 };
    h->regions[2] = (ws_region){ "b", XH_BUF_B, XH_BUF, h->bufb, WS_TY_U32, 1 };
    h->gm.regions = h->regions;
    h->gm.nregions = 3;
    h->env.launch = &h->L;
    h->env.gmem = &h->gm;
    h->env.clock = 0x123456789ull;
    h->env.nsm = 4;
    h->env.nwarps_hw = 32;
    return h;
}

static inline ws_operand reg(uint32_t r) { ws_operand o; memset(&o, 0, sizeof o); o.kind = WS_OK_REG; o.reg = r; return o; }
static inline ws_operand nreg(uint32_t r) { ws_operand o = reg(r); o.neg = 1; return o; }
static inline ws_operand imm(int64_t v) { ws_operand o; memset(&o, 0, sizeof o); o.kind = WS_OK_IMM; o.reg = WS_NO_REG; o.imm = v; return o; }
static inline ws_operand sreg(unsigned s) { ws_operand o; memset(&o, 0, sizeof o); o.kind = WS_OK_SREG; o.reg = WS_NO_REG; o.sreg = (uint8_t)s; return o; }
static inline ws_operand none(void) { ws_operand o; memset(&o, 0, sizeof o); o.kind = WS_OK_NONE; o.reg = WS_NO_REG; return o; }
static inline ws_operand addr(uint32_t r, int64_t off) { ws_operand o; memset(&o, 0, sizeof o); o.kind = WS_OK_ADDR; o.reg = r; o.imm = off; return o; }
static inline ws_operand vec(unsigned n, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    ws_operand o; memset(&o, 0, sizeof o); o.kind = WS_OK_VEC; o.reg = WS_NO_REG; o.nvec = (uint8_t)n;
    o.vec[0] = a; o.vec[1] = b; o.vec[2] = c; o.vec[3] = d; return o;
}

static inline ws_inst xi(unsigned op, unsigned type)
{
    ws_inst in; memset(&in, 0, sizeof in);
    in.op = (uint16_t)op; in.type = (uint8_t)type; in.guard = WS_NO_REG; in.vec = 1; in.line = 42;
    for (int i = 0; i < WS_MAX_DST; i++) in.dst[i] = none();
    for (int i = 0; i < WS_MAX_SRC; i++) in.src[i] = none();
    return in;
}
static inline ws_inst inst2(unsigned op, unsigned type, ws_operand d, ws_operand a)
{ ws_inst in = xi(op, type); in.dst[0] = d; in.src[0] = a; in.ndst = 1; in.nsrc = 1; return in; }
static inline ws_inst inst3(unsigned op, unsigned type, ws_operand d, ws_operand a, ws_operand b)
{ ws_inst in = inst2(op, type, d, a); in.src[1] = b; in.nsrc = 2; return in; }
static inline ws_inst inst4(unsigned op, unsigned type, ws_operand d, ws_operand a, ws_operand b, ws_operand c)
{ ws_inst in = inst3(op, type, d, a, b); in.src[2] = c; in.nsrc = 3; return in; }

static inline void setr(xh *h, unsigned r, unsigned lane, uint64_t v) { h->regs[r * h->L.warp_size + lane] = v; }
static inline uint64_t getr(xh *h, unsigned r, unsigned lane) { return h->regs[r * h->L.warp_size + lane]; }
static inline void setall(xh *h, unsigned r, uint64_t v) { for (unsigned l = 0; l < h->L.warp_size; l++) setr(h, r, l, v); }

static inline int xrun_mask(xh *h, const ws_inst *in, uint64_t active)
{
    h->env.fault[0] = 0;
    return ws_exec_inst(&h->env, &h->w, in, 5, active, &h->eff);
}
static inline int xrun(xh *h, const ws_inst *in) { return xrun_mask(h, in, h->w.valid); }

/* Runs a one-lane-value instruction on lane 0 with all lanes active and
 * returns register r of lane 0. */
static inline uint64_t run_r(xh *h, const ws_inst *in, unsigned r)
{
    assert_int_equal(xrun(h, in), WS_EXEC_OK);
    return getr(h, r, 0);
}

/* bit helpers for float tests (values worked out by hand, compared as bits) */
static inline uint64_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static inline float asf(uint64_t b) { uint32_t u = (uint32_t)b; float f; memcpy(&f, &u, 4); return f; }
static inline double asd(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }

#endif
