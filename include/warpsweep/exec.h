#ifndef WARPSWEEP_EXEC_H
#define WARPSWEEP_EXEC_H
/*
 * Functional state of a launch and the instruction semantics, implemented
 * once over the active lanes of a warp and shared by every execution mode
 * (the MIMD reference run and the cycle-level core).
 *
 * Per-lane registers are stored structure-of-arrays: the value of register r
 * in lane l is regs[slot[r] * warp_size + l] (ws_reg_lanes), always as 64 bits
 * (narrower types use the low bits; predicates are 0 or 1). slot is the
 * kernel's register compaction (src/ptx/regcompact.c): registers never live
 * at the same time share a row.
 *
 * Register convention (src/exec/exec*.c): a value of an N-bit type is stored
 * zero-extended (masked to N bits); readers sign-extend when the instruction
 * type is signed. f32 is its IEEE bits in the low 32, f64 its bits. Where PTX
 * widens into a register larger than the instruction type (ld.sN, cvt to a
 * narrower type), the value is sign-/zero-extended to the register's declared
 * size (kernel->reg_types; none when it is unknown) and stored zero-extended
 * from there.
 * Immediates (WS_OK_IMM) hold the bits in the instruction type's
 * representation (sign-extended int64 or not: only the low N bits are used).
 *
 * Operand layout expected in ws_inst (PTX order, destinations first):
 *   most ops       dst[0]=d, src[0..]=a,b,c
 *   setp           dst[0]=p, dst[1]=q (WS_OK_NONE if absent), src a,b[,c]; c may be negated
 *   set/slct/cvt   type = destination type, type2 = source (set: stype, slct: type of c)
 *   selp           d, a, b, c(pred)
 *   bfi            dst f, src a,b,c(pos),d(len)
 *   ld/ldu         dst[0]=d (REG or VEC), src[0]=ADDR
 *   st/red         src[0]=ADDR, src[1]=value (REG/IMM/VEC); dst[0]=ADDR, src[0]=value also accepted
 *   atom           dst[0]=d, src[0]=ADDR, src[1]=b, src[2]=c (cas)
 *   shfl.sync      dst[0]=d, dst[1]=p (optional), src a, b, c, membermask
 *   vote.sync      dst[0]=d, src[0]=a (pred, may be negated), src[1]=membermask
 *                  (legacy vote without .sync: no src[1]; over the executing lanes)
 *   match.sync     dst[0]=d, dst[1]=p (all, optional), src a, membermask
 *   brx.idx        src[0]=index; in->target/ntargets index kernel->brx_targets
 *   mov            src or dst may be a VEC: packs/unpacks type_bits/nvec-bit elements
 *
 * Division by zero (integer): unsigned a/0 = all ones, a%0 = a; signed a/0 = -1,
 * a%0 = a; signed MIN/-1 = MIN, MIN%-1 = 0 (two's-complement wrap).
 * Float NaN results of arithmetic are canonical (f32 0x7fffffff,
 * f64 0x7fffffffffffffff), as NVIDIA hardware produces for f32.
 *
 * warp_size != 32: warp-level operations (shfl, vote, match, activemask) and
 * %laneid/%lanemask_* work on aligned groups of 32 lanes, each group behaving as
 * one 32-thread warp (the PTX masks and lane fields are 32 bits wide); a warp
 * narrower than 32 is one group whose lanes >= warp_size do not exist (a shfl
 * source lane beyond the warp is out of range: p = false, own value).
 * WARP_SZ (the PTX constant behind CUDA's warpSize) is consistently the size of
 * that group, min(warp_size, 32): `tid % warpSize` equals %laneid and a
 * `for (o = warpSize/2; o; o /= 2) shfl.down` reduction covers exactly one group.
 */
#include <stdint.h>
#include "ptx.h"

#define WS_MAX_WARP_SIZE 64

/* Address map of the flat 64-bit generic space.  Global buffers live in
 * [WS_GLOBAL_BASE, ...) with unmapped guard gaps between them, so running
 * off the end of one faults instead of reading its neighbour. */
/* The kernel's own .global/.const variables form one data segment at
 * WS_DATA_BASE (the decoder folds symbol addresses into immediates with it);
 * workload buffers follow from WS_GLOBAL_BASE. .const addresses are global
 * addresses in this segment. */
#define WS_DATA_BASE     0x0000000008000000ull
#define WS_GLOBAL_BASE   0x0000000010000000ull
#define WS_GLOBAL_GAP    0x0000000000100000ull  /* 1 MiB unmapped between buffers */
#define WS_SHARED_WINDOW 0x0000700000000000ull  /* generic address of shared offset 0 */
#define WS_LOCAL_WINDOW  0x0000710000000000ull  /* generic address of local offset 0 */
#define WS_WINDOW_SIZE   0x0000010000000000ull

/* One region of global memory: a workload buffer or the kernel's
 * .global/.const data segment. */
typedef struct ws_region {
    const char *name;
    uint64_t addr;        /* global address of byte 0 */
    uint64_t size;        /* bytes */
    uint8_t *data;
    uint8_t type;         /* ws_type of elements (buffers), for dumps */
    uint8_t writable;     /* .const data is read-only */
} ws_region;

struct ws_texobj;          /* include/warpsweep/tex.h */
typedef struct ws_gmem {
    ws_region *regions;   /* sorted by addr */
    uint32_t nregions;
    const struct ws_texobj *tex;   /* texture and surface objects: handle WS_TEXOBJ_HANDLE(i) is tex[i] */
    uint32_t ntex;
} ws_gmem;

/* Finds the region holding [addr, addr+size); NULL if unmapped or it
 * straddles a region's end. */
ws_region *ws_gmem_find(const ws_gmem *m, uint64_t addr, uint64_t size);

/* A launch's constant facts, shared by all its warps. */
typedef struct ws_launch {
    const ws_kernel *kernel;
    uint32_t grid[3], block[3];
    uint32_t threads_per_cta;
    uint32_t warps_per_cta;
    uint32_t warp_size;
    uint8_t *param_buf;       /* kernel->param_bytes: .param space contents */
    uint32_t shared_bytes;    /* per CTA, static + dynamic */
    uint32_t local_bytes;     /* per thread */
} ws_launch;

/* A resident CTA's functional state. */
typedef struct ws_cta {
    uint32_t ctaid[3];
    uint32_t linear_id;
    uint8_t *smem;            /* launch->shared_bytes */
} ws_cta;

/* A warp's functional state. */
typedef struct ws_warp {
    uint64_t *regs;           /* kernel->nslots * warp_size, SoA: register r's lanes at row slot[r] */
    const uint32_t *slot;     /* kernel->reg_slot (register compaction, src/ptx/regcompact.c) */
    uint8_t *local;           /* local_bytes * warp_size: lane l at l * local_bytes */
    ws_cta *cta;
    uint32_t warp_in_cta;     /* 0.. warps_per_cta-1 */
    uint32_t hw_warp;         /* hardware warp slot (%warpid) */
    uint32_t smid;            /* core (%smid) */
    uint32_t nlanes;          /* threads present (last warp of a CTA may be partial) */
    uint64_t valid;           /* mask of lanes holding a thread */
    uint32_t tid[3][WS_MAX_WARP_SIZE]; /* %tid of each lane */
    uint8_t cc[WS_MAX_WARP_SIZE];      /* per-lane carry flag CC.CF (add.cc/addc/sub.cc/subc/mad.cc/madc);
                                          zeroed by ws_warp_reset_regs */
} ws_warp;

/* The lanes of register r in w's register file. */
static inline uint64_t *ws_reg_lanes(const ws_warp *w, uint32_t r, uint32_t warp_size)
{
    return &w->regs[(uint64_t)w->slot[r] * warp_size];
}

/* What executing one instruction did, beyond registers and memory: the
 * control-flow outcome for the divergence scheme and the memory access
 * for the timing model. ws_exec_inst sets every scalar field; the per-lane
 * arrays are valid only for the lanes of taken (lane_target, brx) and
 * mem_mask (mem_addr, mem_lane_space). */
/* Texels of the largest filter footprint (3D linear: 2 x 2 x 2). */
#define WS_TEX_FOOTPRINT 8

typedef struct ws_effect {
    uint64_t executed;        /* lanes that executed (active & guard true)      */
    uint64_t taken;           /* bra: lanes that branch; brx: lanes executed    */
    uint64_t exited;          /* exit/ret: lanes that finished                  */
    uint32_t lane_target[WS_MAX_WARP_SIZE]; /* brx.idx: target instruction of each executed lane */
    /* memory access (ld/st/atom/red/ldu on any space) */
    uint8_t  mem_space;       /* resolved space (generic resolved per access: GLOBAL if any lane global) */
    uint8_t  mem_kind;        /* 0 none, 1 load, 2 store, 3 atomic */
    uint32_t mem_bytes;       /* bytes per lane (vector size included) */
    uint64_t mem_mask;        /* lanes that accessed memory */
    uint64_t mem_addr[WS_MAX_WARP_SIZE]; /* per-lane address in its space (global: global address; shared: CTA offset) */
    uint8_t  mem_lane_space[WS_MAX_WARP_SIZE]; /* per-lane resolved space (generic may differ per lane) */
    /* tex/tld4: the other texels of each lane's filter footprint (global addresses,
     * mem_bytes each), mem_extra of them per lane of mem_mask; a lane with fewer
     * repeats mem_addr. 0 for every other instruction. */
    uint8_t  mem_extra;
    uint64_t mem_extra_addr[WS_TEX_FOOTPRINT - 1][WS_MAX_WARP_SIZE];
    /* nanosleep only (set by it, not reset for other instructions): the longest sleep the
     * executed lanes ask for, in ns, at most 10^6 (PTX ISA: "the maximum sleep duration is
     * 1 millisecond"); 0 when no lane executes */
    uint32_t sleep_ns;
    /* mbarrier only (set by it, read only after it): WS_MBAR_FX_FLIP when a lane completed a
     * phase, WS_MBAR_FX_WAITING when a try_wait found the phase incomplete in every lane it
     * executed in */
    uint8_t mbar;
    /* cp.async.bulk only (set by it, read only after it): the lanes that copied, each one's
     * global address (the source; a shared -> global copy's destination) and size, and the
     * mbarrier a copy completes its bytes on when the timing run defers that (env->defer_bulk) */
    uint64_t bulk_mask;
    uint64_t bulk_gaddr[WS_MAX_WARP_SIZE];
    uint32_t bulk_size[WS_MAX_WARP_SIZE];
    uint8_t *bulk_mbar[WS_MAX_WARP_SIZE];
} ws_effect;
enum { WS_MBAR_FX_FLIP = 1, WS_MBAR_FX_WAITING = 2 };

/* Everything the executor needs besides the warp itself. */
typedef struct ws_exec_env {
    const ws_launch *launch;
    ws_gmem *gmem;
    uint64_t clock;           /* current cycle, for %clock/%clock64 */
    uint32_t nsm;             /* %nsmid */
    uint32_t nwarps_hw;       /* %nwarpid */
    uint64_t mem_changes;     /* store/atomic lane writes that changed memory (any space):
                                 the livelock proof compares this instead of hashing memory */
    int defer_bulk;           /* a cp.async.bulk leaves its mbarrier complete_tx to the caller, who
                                 applies it when the copy completes (the timing run: src/sim/bulk.c);
                                 0: at once (the reference, fast-forward) */
    char fault[WS_ERROR_LEN]; /* set when WS_EXEC_FAULT is returned */
} ws_exec_env;

enum { WS_EXEC_OK = 0, WS_EXEC_FAULT = -1 };

/* mbarrier.complete_tx of n bytes on the 8-byte object at p (src/exec/exec_mem.c): 1 when it
 * completed the current phase, 0 when not, -1 when the tx-count leaves the ISA's range. */
int ws_mbar_complete_tx(uint8_t *p, uint32_t n);

/* Executes in on the lanes of `active` (a subset of w->valid), applying the
 * guard predicate. Control-flow instructions do not move any PC: they report
 * their outcome in *eff for the divergence scheme. Warp-level operations
 * (shfl, vote, match, activemask) treat `active` as the participating lanes.
 * Atomics are applied one lane at a time in ascending lane order.
 * Returns WS_EXEC_OK or WS_EXEC_FAULT with env->fault naming lane, PC, PTX
 * line and address. */
int ws_exec_inst(ws_exec_env *env, ws_warp *w, const ws_inst *in, uint32_t pc,
                 uint64_t active, ws_effect *eff);

/* Warp-level .sync operations (docs/model.md, "Warp-level operations and
 * member masks"). Each executing lane's result is computed over the lanes of
 * its own membermask that execute with it; an executing lane outside its own
 * membermask is a fault (undefined in PTX).
 *
 * The membermask operand of a .sync warp-level instruction (shfl/vote/match/
 * redux .sync, bar.warp.sync), or NULL (not one, or legacy vote without
 * .sync). */
const ws_operand *ws_warp_membermask(const ws_inst *in);

/* 1 if lanes waiting at a and b may meet in one rendezvous: the same .sync
 * opcode with the same qualifiers (shfl: mode; vote: mode; match: mode and
 * type; redux: operation and type; bar.warp.sync: any), as the PTX ISA's
 * "executed <op>.sync with the same qualifiers and same membermask value". */
int ws_warp_same_kind(const ws_inst *a, const ws_inst *b);

/* 1 for the .aligned warp-wide instructions without a membermask (mma, ldmatrix):
 * every lane of the 32-lane group executes them together, at the same instruction
 * (the reference run meets them like a .sync operation over the whole group). */
int ws_warp_aligned(const ws_inst *in);

/* One instruction of a rendezvous: the lanes `active` run `in` at `pc`;
 * `executed` is set to active & guard. */
typedef struct ws_warp_part {
    const ws_inst *in;
    uint32_t pc;
    uint64_t active;
    uint64_t executed;
} ws_warp_part;

/* Executes parts[0..n) (disjoint lane sets, ws_warp_same_kind of each other)
 * as one warp-level operation: every lane reads its operands from its own
 * instruction, the combine step (ballot, reduction, match, shuffle source)
 * spans the executing lanes of all parts, and every lane writes its own
 * instruction's destinations. No control or memory effect. n = 1 is the same
 * as ws_exec_inst on that instruction. Returns WS_EXEC_OK or WS_EXEC_FAULT
 * (env->fault). */
int ws_exec_warp_rendezvous(ws_exec_env *env, ws_warp *w, ws_warp_part *parts, unsigned n);

/* Sets the per-lane registers of a freshly launched warp to zero. */
void ws_warp_reset_regs(ws_warp *w, uint32_t nregs, uint32_t warp_size);

#endif
