#ifndef WARPSWEEP_EXEC_H
#define WARPSWEEP_EXEC_H
/*
 * Functional state of a launch and the instruction semantics, implemented
 * once over the active lanes of a warp and shared by every execution mode
 * (the MIMD reference run and the cycle-level core).
 *
 * Per-lane registers are stored structure-of-arrays: the value of register r
 * in lane l is regs[r * warp_size + l], always as 64 bits (narrower types use
 * the low bits; predicates are 0 or 1).
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

typedef struct ws_gmem {
    ws_region *regions;   /* sorted by addr */
    uint32_t nregions;
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
    uint64_t *regs;           /* nregs * warp_size, SoA */
    uint8_t *local;           /* local_bytes * warp_size: lane l at l * local_bytes */
    ws_cta *cta;
    uint32_t warp_in_cta;     /* 0.. warps_per_cta-1 */
    uint32_t hw_warp;         /* hardware warp slot (%warpid) */
    uint32_t smid;            /* core (%smid) */
    uint32_t nlanes;          /* threads present (last warp of a CTA may be partial) */
    uint64_t valid;           /* mask of lanes holding a thread */
    uint32_t tid[3][WS_MAX_WARP_SIZE]; /* %tid of each lane */
} ws_warp;

/* What executing one instruction did, beyond registers and memory: the
 * control-flow outcome for the divergence scheme and the memory access
 * for the timing model. */
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
} ws_effect;

/* Everything the executor needs besides the warp itself. */
typedef struct ws_exec_env {
    const ws_launch *launch;
    ws_gmem *gmem;
    uint64_t clock;           /* current cycle, for %clock/%clock64 */
    uint32_t nsm;             /* %nsmid */
    uint32_t nwarps_hw;       /* %nwarpid */
    char fault[WS_ERROR_LEN]; /* set when WS_EXEC_FAULT is returned */
} ws_exec_env;

enum { WS_EXEC_OK = 0, WS_EXEC_FAULT = -1 };

/* Executes in on the lanes of `active` (a subset of w->valid), applying the
 * guard predicate. Control-flow instructions do not move any PC: they report
 * their outcome in *eff for the divergence scheme. Warp-level operations
 * (shfl, vote, match, activemask) treat `active` as the participating lanes.
 * Atomics are applied one lane at a time in ascending lane order.
 * Returns WS_EXEC_OK or WS_EXEC_FAULT with env->fault naming lane, PC, PTX
 * line and address. */
int ws_exec_inst(ws_exec_env *env, ws_warp *w, const ws_inst *in, uint32_t pc,
                 uint64_t active, ws_effect *eff);

/* Sets the per-lane registers of a freshly launched warp to zero. */
void ws_warp_reset_regs(ws_warp *w, uint32_t nregs, uint32_t warp_size);

#endif
