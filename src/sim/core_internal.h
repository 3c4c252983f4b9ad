#ifndef WS_CORE_INTERNAL_H
#define WS_CORE_INTERNAL_H
/* Internal state of the cycle-level SIMT core (src/sim/core.c and friends). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "warpsweep/sim.h"
#include "warpsweep/mem.h"
#include "warpsweep/passes.h"
#include "sim/sched/sched.h"
#include "sim/div/divergence.h"
#include "sim/energy.h"

#define WS_NEVER UINT64_MAX

/* Why a unit cannot issue (also the idle-slot classes). */
enum {
    WS_STALL_NONE = 0, WS_STALL_DEP, WS_STALL_MEM, WS_STALL_SYNC, WS_STALL_EMPTY, WS_STALL_MSHR,
    WS_STALL_UNIT,                   /* structural: execution unit, LD/ST pipe or operand collectors busy */
    WS_STALL_FETCH,                  /* front end: instruction buffer empty (refetch after a redirect) */
    WS_NSTALLS
};

#define WS_MAX_RF_BANKS 64
#define WS_MAX_COLLECTORS 64
#define WS_MAX_FETCH 64
#define WS_CPA_GROUPS 16   /* committed cp.async groups tracked per warp; older ones merge */

/* The datapath of one scheduler (a Volta SM partition): its execution units,
 * register-file banks and operand collectors (docs/model.md, "Execution
 * units", "Operand collector"). Cycles are absolute. */
typedef struct ws_pipe {
    uint64_t unit_free[WS_NUNITS];           /* a unit accepts a warp instruction from this cycle */
    uint64_t unit_busy[WS_NUNITS];           /* ... and starts one from this cycle (unit_queue: later than it accepts) */
    uint64_t coll_free[WS_MAX_COLLECTORS];   /* a collector unit is free from this cycle */
    uint32_t coll_first;                     /* the first of the earliest free ones (ws_earliest_collector) */
    uint64_t bank_cycle[WS_MAX_RF_BANKS];    /* last cycle a bank serves reads in ... */
    uint8_t bank_used[WS_MAX_RF_BANKS];      /* ... and how many reads it serves then */
    /* Nothing of this scheduler can issue before idle_until (its warps' wake
     * times and its policy's next event, found in a cycle it issued nothing);
     * 0 when an event may have changed that (a warp added, finished, parked
     * or released). Spares the walk over warps waiting for a busy unit. */
    uint64_t idle_until;
    uint8_t idle_reason;
    /* the issue port issues the rest of an expansion (lowering: an
     * instruction of several SASS slots) until this cycle */
    uint64_t issue_free;
    /* A lower bound of the wake of every live warp that does not wait only
     * for a resource (stall_res NONE), with the stall reason of the warp
     * that set it; exact after a cycle the scheduler walked all its warps,
     * lowered by the warps a later walk touches, 0 (unknown) when an event
     * may have changed it (as idle_until). With the resource counts below it
     * lets a cycle in which no warp can issue be skipped without a walk. */
    uint64_t hard_min;
    uint8_t hard_reason;
    /* live warps of the scheduler, and how many of them wait only for each
     * resource (ws_cwarp.stall_res): when all do and every such resource is
     * busy, the cycle is skipped without walking the warps */
    uint32_t n_live, n_waiting;
    uint32_t n_res[WS_NUNITS + 2];
    uint32_t res_mask;                       /* bit res set iff n_res[res] > 0 */
    /* The same as bitmaps over the warps' scheduler-local index (slot /
     * schedulers, ws_cwarp.walk_bit): the live warps, and those waiting only
     * for each resource. With a policy whose list is the resident warps in
     * slot order (ws_sched_ops.slot_order) and at most 64 warps per
     * scheduler (ws_simrun.walk_bits), the walk finds its next warp with a
     * bit scan instead of passing over the skipped ones one by one. */
    uint64_t live_bits;
    uint64_t res_bits[WS_NUNITS + 2];
} ws_pipe;

#define WS_CTA_BARS 16

typedef struct ws_ccta {             /* a CTA slot on a core */
    ws_cta fc;                       /* functional: ctaid, smem */
    uint8_t live;
    uint32_t first_warp;             /* hardware slot of its warp 0 */
    uint32_t nwarps;
    uint32_t warps_done;
    uint32_t live_threads;           /* threads not exited */
    uint32_t bar_arrived[WS_CTA_BARS];
    uint32_t bar_expect[WS_CTA_BARS]; /* 0: all live threads */
    /* bar.red (docs/model.md, CTA barriers): the threads that arrived at each
     * barrier with bar.red, how many of them with a true predicate, and the
     * threads that arrived with bar.sync/bar.arrive (mixing is an error) */
    uint32_t bar_red_n[WS_CTA_BARS];
    uint32_t bar_red_true[WS_CTA_BARS];
    uint32_t bar_plain_n[WS_CTA_BARS];
    void *div;                       /* CTA-scope divergence state (ws_div_ops.cta_state_size), or NULL */
} ws_ccta;

/* A warp's async-groups of one kind (cp.async's, cp.async.bulk's): the completion of the copies
 * of the group being formed and of the committed groups, oldest first (ws_async_commit/_wait). */
typedef struct ws_async_groups {
    uint64_t open;
    uint64_t group[WS_CPA_GROUPS];
    uint32_t n;
} ws_async_groups;

typedef struct ws_cwarp {            /* a hardware warp slot */
    ws_warp fw;                      /* functional state (regs SoA, local, tid) */
    uint8_t live;                    /* resident, some lane not exited */
    uint8_t sched;                   /* scheduler index */
    uint32_t cta_slot;
    uint64_t age;                    /* dynamic warp id (launch order) */
    uint64_t exited;                 /* lanes that exited */
    uint64_t held;                   /* lanes waiting at a CTA barrier */
    uint8_t held_bar[WS_MAX_WARP_SIZE];
    const ws_inst *held_red[WS_MAX_WARP_SIZE]; /* bar.red a held lane waits at (its destination), or NULL */
    uint64_t wake;                   /* cached: cannot issue before this cycle */
    uint8_t wake_reason;             /* WS_STALL_* of that wait */
    uint64_t busy_until;             /* blocking: max over lane_ready */
    uint64_t *lane_ready;            /* blocking: per lane, cycle its last op completes */
    uint8_t *lane_mem;               /* blocking: that op was a memory access */
    /* blocking: while lanes_flat, every live lane's lane_ready is flat_ready and its
     * lane_mem flat_mem (the arrays are stale): the common case of a warp whose last
     * operation covered all its live lanes costs no per-lane walk (lanes_unflatten) */
    uint64_t flat_ready;
    uint8_t flat_mem, lanes_flat;
    uint64_t *sb_mask;               /* scoreboard: per register, lanes with a pending write */
    uint64_t *sb_ready;              /* scoreboard: cycle the pending write completes */
    uint8_t *sb_mem;                 /* scoreboard: the pending write is a memory load */
    void *div;                       /* divergence scheme state */
    uint32_t max_depth, max_splits;
    uint64_t last_issue;             /* 1 + cycle of its last issue, 0 = never (starvation proofs) */
    uint64_t *lane_issue;            /* per lane: the same for the lane (a split the policy starves) */
    /* front end (ibuffer > 0): instructions ib_pc .. ib_pc + ib_left - 1 are
     * in the instruction buffer from cycle ib_ready */
    uint64_t ib_ready;
    uint32_t ib_pc, ib_left;
    uint32_t next_pc;                /* dual issue: the instruction after the last one issued */
    uint8_t last_unit;               /* dual issue: unit of the last one issued */
    uint8_t stall_res;               /* one split stalled only for this resource (WS_RES_*) until
                                        stall_wake: the scheduler re-checks the resource without a
                                        full try (forget_stall when anything else changes) */
    uint64_t stall_wake;
    uint64_t walk_bit;               /* 1 << (slot / schedulers), 0 beyond 64 (ws_pipe.live_bits) */
    /* prestall found the operands of the split (deps_pc, deps_mask) ready:
     * they stay ready until the warp issues or a CTA barrier releases it
     * (the only writers of its scoreboard), so try_warp need not look again */
    uint32_t deps_pc;
    uint64_t deps_mask;
    /* cp.async (docs/model.md, "Asynchronous copies") and cp.async.bulk's shared -> global
     * copies (bulk.c) each in their own async-groups; cpa_hold: the cycle a wait_group of
     * either holds the warp until */
    ws_async_groups cpa, bulk;
    uint64_t cpa_hold;
    uint8_t mbar_parked;             /* suspended by an mbarrier.try_wait until a phase of its CTA completes */
} ws_cwarp;

/* Per-core livelock search (deadlock.c, per_core_check): Brent's cycle
 * finding over one core's state at that core's own back-edges. */
typedef struct ws_llcore {
    uint64_t events, next, stride, power, count;   /* next: events at the next check */
    uint64_t h1, h2, cycle;          /* the saved state, the cycle it was saved */
    uint64_t epoch;                  /* the window the saved state belongs to */
    uint64_t proven_epoch;           /* 1 + the window in which the state recurred, 0 = none */
    uint64_t from, to;               /* cycles of that recurrence */
    int saved;
} ws_llcore;

/* A cp.async.bulk's bytes to complete on an mbarrier at cycle t (src/sim/bulk.c). */
typedef struct ws_bulk_ev {
    uint64_t t;
    uint8_t *mbar;
    uint32_t bytes, cta_slot, cta_id;
} ws_bulk_ev;

typedef struct ws_core {
    struct ws_simrun *run;
    uint32_t id;
    ws_cwarp *warps;                 /* cfg warps slots */
    ws_ccta *ctas;                   /* ctas_per_core slots */
    ws_sched *scheds;
    ws_pipe *pipes;                  /* per scheduler */
    uint64_t lsu_free;               /* the LD/ST (MIO) pipe accepts an access from this cycle */
    uint64_t fetch_free[WS_MAX_FETCH]; /* per fetch port: free from this cycle */
    uint32_t live_ctas;
    uint64_t busy_from;              /* the cycle live_ctas last became nonzero (energy.c: active SM) */
    uint64_t cta_next;               /* cta_launch_interval: the next CTA dispatched here starts no sooner */
    uint64_t next_age;
    ws_bulk_ev *bulk_ev;             /* bulk copies in flight into shared memory (bulk.c); NULL: none in the kernel */
    uint32_t bulk_n, bulk_cap;
    uint64_t bulk_next;              /* the earliest one's cycle (WS_NEVER: none) */
    uint64_t bulk_free;              /* the copy engine takes the next chunk from this cycle */
    ws_llcore *ll;                   /* livelock search (deadlock.c) */
    /* per warp slot, what the issue loop's walk needs first, in one byte:
     * WS_WALK_DEAD (not live), the resource it waits for only (stall_res)
     * or WS_WALK_TRY; a walk passes warps whose byte's bit is set in its
     * skip mask without touching their ws_cwarp */
    uint8_t *walk;
} ws_core;

/* Livelock proof with memory changing in the loop (deadlock.c). */
#define WS_LL_RANGES 64
typedef struct ws_llrange {
    uint64_t lo, hi;                 /* bytes [lo, hi) */
    uint8_t space;
    uint32_t pc;                     /* an instruction that accessed it */
} ws_llrange;

typedef struct ws_llwatch {
    /* Brent search over the relevant state, at checks where memory changed */
    uint64_t checks, every, power, count, h1, h2, events;
    int saved;
    /* the armed period: relevant state, written and relevant-read ranges */
    int armed, conflict, overflow;
    uint64_t arm_h1, arm_h2, arm_events, arm_period, arm_cycle;
    uint32_t nw, nr;
    ws_llrange w[WS_LL_RANGES], rd[WS_LL_RANGES];
    ws_llrange cw, cr;               /* the conflicting write and read */
    uint64_t cooldown, seen_changes;
    int have_last;
    ws_llrange last;                 /* last value-changing access seen */
    char why[256];
} ws_llwatch;

/* Livelock search at distinguished back-edges (deadlock.c): the keys of the
 * last WS_LL_WINDOW back-edges of the chip, their rolling hash, and a Brent
 * search over the states at the back-edges whose window hash has `bits` low
 * zero bits. */
#define WS_LL_WINDOW 8
typedef struct ws_lldp {
    uint64_t key[WS_LL_WINDOW];
    uint32_t pos;
    uint64_t win, last_be;       /* rolling hash; cycle of the previous back-edge */
    int saved, full;             /* full: h1/h2 taken (deadlock.c dp_save) */
    uint64_t sketch, h1, h2, cycle, count, power;   /* sketch: deadlock.c HASH_SKETCH */
    uint64_t exits, mem;         /* the counters at the previous distinguished back-edge */
    uint32_t bits;
    uint64_t since, salt;        /* back-edges since the last distinguished one; the selection's salt */
} ws_lldp;

/* Sampled simulation (sample.c, docs/sampling.md): CTAs [0, detail_ctas)
 * run cycle by cycle, the rest functionally. mark[j] is the cycle the first
 * CTA of wave j was launched and the thread instructions issued before it;
 * mark[nmarks - 1] that of the last detailed CTA. */
#define WS_SAMPLE_MAX_WAVES 1024   /* params.def: sample_max_waves at most this */
typedef struct ws_sample_mark { uint64_t t, insts, dram; } ws_sample_mark;   /* dram: DRAM bytes so far */
typedef struct ws_sample {
    int on;                          /* this launch is sampled */
    int running;                     /* the initial dispatch is done: later CTAs launch at now + 1 */
    uint64_t start;                  /* the launch's first cycle */
    uint64_t full_ctas;              /* CTAs of the grid */
    uint64_t wave, detail_ctas;      /* CTAs per wave; CTAs run in detail (grows by waves) */
    uint32_t warmup, max_waves;
    uint32_t l2_warm;                /* first mark after which the L2 is warm (0: not yet) */
    uint64_t l2_bytes;               /* L2 capacity of the chip */
    double tolerance;
    ws_sample_mark mark[WS_SAMPLE_MAX_WAVES + 1];
    uint32_t nmarks;
    uint32_t win_from, win_to;       /* the rate window: marks [from, to] */
    uint64_t ff_insts;               /* thread instructions of the fast-forwarded CTAs */
    /* the run's counters at the launch's start (ws_sample_begin) */
    uint64_t thread0, warp0, div0, low0, smem0, idle0[WS_NSTALLS];
} ws_sample;

/* Everything one ws_sim_run needs; lives in the ws_sim arena. */
/* What the issue checks need of each instruction of the run's kernel,
 * decoded once (ws_pipe_decode): its unit occupancy, whether it takes the
 * LD/ST pipe, whether it reads registers through an operand collector. */
#define WS_PIPE_MAX_RF (sizeof(((ws_inst *)0)->rd) / sizeof(uint32_t))
/* How issue() finds an instruction's completion (ws_pipe_inst.timing, from
 * isa.def's flags): its unit's latency, the memory path (MEMT), or cp.async's
 * copy groups (CPASYNC). */
enum { WS_TIME_UNIT, WS_TIME_MEM, WS_TIME_CPASYNC };

typedef struct ws_pipe_inst {
    uint32_t occ;
    uint64_t lat;                    /* ws_unit_latency */
    uint8_t lsu, rf;                 /* rf: nrf > 0 and collectors modelled */
    uint8_t nrf;                     /* register sources read through the collector ... */
    uint32_t rf_reg[WS_PIPE_MAX_RF]; /* ... (ws_inst.rd minus predicates and out-of-range) */
    const ws_operand *membermask;    /* ws_warp_membermask: a warp-level .sync op */
    uint8_t aligned;                 /* ws_warp_aligned: every live lane of its 32-lane group executes it together */
    /* none of the opcodes issue() and try_splits treat apart: no memory or
     * texture access, cp.async, fence, CTA barrier, divergence op (badd,
     * bwait, yield, bmov), warp-level .sync or .aligned op (ws_inst_plain) */
    uint8_t plain;
    uint8_t timing;                  /* WS_TIME_*: how issue() times it (from opf) */
    uint16_t opf;                    /* isa.def's flags of its opcode (WS_OPF_*) */
    /* lowering (src/sim/lower.c): SASS instructions its issue takes (0: folded,
     * no slot, unit or latency); an if-converted branch: the body's slots,
     * issued when the whole warp jumps over it */
    uint8_t slots, ifconv;
    uint8_t unit;                    /* the unit it occupies: ws_inst.unit, or the SFU (XU) for a
                                        conversion under lowering=ptxas */
    /* issues of this instruction and their active lanes in the launch
     * (energy.c folds them into ws_energy_events when the launch ends) */
    uint64_t n_warp, n_lanes;
} ws_pipe_inst;

typedef struct ws_simrun {
    const ws_workload *wl;
    const ws_launch_spec *spec;      /* the launch running */
    uint32_t nrun;                   /* launches of the sequence started before it */
    const ws_kernel *k;              /* possibly the barrier-transformed kernel */
    ws_pipe_inst *pinst;             /* per instruction of k */
    const ws_config *cfg;
    const ws_run_opts *opts;
    ws_result *res;
    ws_launch launch;
    ws_memimage mem;
    ws_exec_env env;
    ws_mem memsys;
    const ws_div_ops *div;
    ws_div_ctx divctx;
    /* CTA-scope schemes (tbc): per warp of a CTA, its lanes of a dynamic warp
     * (ws_div_ops.parts) and, at launch, its divergence state (cta_init) */
    uint64_t *part_lanes;
    void **cta_warp_st;
    const ws_sched_ops *sched;
    ws_mem_events mev;               /* L1 events of one load, for sched->mem_event (cap 0: none) */
    uint32_t ncores, nwarps, nsched, width, ws;
    uint32_t ctas_per_core, warps_per_cta;
    uint32_t nregs;
    uint32_t nslots;             /* rows of a warp's register file (k->nslots, register compaction) */
    int blocking;
    uint64_t lat_alu, lat_sfu, lat_smem;
    double clock_ghz;                /* clock_ghz: nanosleep durations in cycles */
    uint64_t lat_pipe;                /* pipe_latency: added to every result */
    uint64_t lat_simple, lat_mad, lat_minmax;   /* per-opcode latencies (pipe.c opcode_latency; 0: the unit's) */
    int lat_by_opcode;                /* one of them is set */
    uint32_t unit_queue;              /* unit_queue: instructions that may wait for a busy unit */
    uint64_t unit_back[WS_NUNITS];    /* ... as cycles of each unit's interval (pipe.c ws_pipe_issue) */
    uint64_t lat_const;               /* const_latency: ld.const via the constant cache (0: lat_alu) */
    uint64_t lat_tex;                 /* tex_latency: texture pipeline beyond the L1 path */
    int fence_stores;                 /* fence=stores: membar/fence .gl/.sys wait for the warp's stores */
    /* execution units (setup_units): latency and initiation interval per
     * unit, the overrides of the cost classes (0: the unit's) */
    uint64_t lat_unit[WS_NUNITS], lat_cost[WS_NCOSTS];
    uint32_t ii_unit[WS_NUNITS], occ_cost[WS_NCOSTS], int64_cost;
    uint32_t ii_mma[WS_NMMA];                /* tensor unit occupancy per mma form (pipe.c) */
    uint32_t lsu_bytes, l1_line;     /* LD/ST data path (0: unlimited), line size */
    uint32_t rf_banks, rf_ports, ncoll;
    uint32_t ibuf, fetch_lat, fetch_width;
    int walk_bits;                   /* at most 64 warps per scheduler: ws_pipe.live_bits / res_bits hold them all */
    uint64_t total_ctas, next_cta;   /* CTAs in the grid, next to launch */
    uint64_t done_ctas;
    /* steady state (docs/model.md "Steady state and tail"): cores holding
     * fewer than ctas_per_core CTAs; while none does, every cycle, its thread
     * instructions and the CTAs it finishes count towards the steady metrics */
    uint32_t cores_short;
    int steady_open;                 /* the steady window is open since cycle steady_from, */
    uint64_t steady_from, steady_ti0, steady_done0;   /* when thread_insts, done_ctas were these */
    uint64_t steady_cycles, steady_thread_insts, steady_ctas;
    ws_core *cores;
    uint8_t *reasons;                /* per scheduler: idle class of the last cycle */
    uint64_t now;
    uint64_t last_complete;          /* max completion cycle of anything issued */
    uint32_t bulk_bw;                /* bulk_bytes_per_cycle (0: unlimited) */
    uint64_t bulk_next;              /* the earliest bulk-copy event of any core (WS_NEVER: none) */
    /* metrics */
    uint64_t warp_insts, thread_insts;
    uint64_t div_insts;              /* issued ADD/WAIT/YIELD (ws_div_ops.issues_div_ops) */
    uint64_t lowered_insts;          /* SASS issue slots taken (lowering; ws_pipe_inst.slots) */
    uint32_t issued_slots;           /* ... by the last instruction issue() issued */
    uint64_t throttled_loads;        /* loads the scheduler's policy held (may_issue_load refused) */
    double declared_work;            /* the workload's work: units of the launches run (metric work_units) */
    uint64_t idle[WS_NSTALLS];       /* indexed by WS_STALL_* */
    uint32_t smem_banks;             /* smem_banks parameter */
    int smem_atomic_serial;          /* smem_atomic_serial: same-word atomic lanes take a pass each */
    uint64_t smem_conflicts;         /* shared-memory replays: sum of (degree - 1) */
    uint64_t smem_accesses;          /* shared-memory warp accesses (each then takes 1 + its replays) */
    ws_energy_events ev;             /* energy.c: events of the launches run */
    uint32_t max_depth, max_splits;
    /* outcome */
    int status;                      /* -1 running */
    char msg[WS_ERROR_LEN];
    /* livelock detector (deadlock.c) */
    uint64_t ll_events, ll_next, ll_stride, ll_power, ll_count;  /* ll_next: events at the next check */
    uint64_t ll_h1, ll_h2, ll_cycle, ll_exits, ll_mem_changes;
    int ll_saved;
    uint64_t exits_total;
    /* active SMs (energy.c): cycles some CTA was resident, summed over the
     * cores; the cycle a CTA launched now starts being resident (the start
     * of a launch, or the cycle after the refill); cycles simulated */
    uint64_t core_busy, cta_from, sim_cycles;
    uint64_t cta_interval;           /* cta_launch_interval */
    /* per-core livelock search (deadlock.c): on when no timing state is
     * shared between cores; the current window with no exit and no memory
     * change (its number and the counters at its start) */
    int ll_per_core;
    uint64_t ll_epoch, ll_ep_exits, ll_ep_mem;
    /* livelock with changing memory (deadlock.c): registers whose value can
     * steer control flow, addresses or other threads, a second Brent search
     * over the state without the others, and the memory watch of one period */
    uint64_t *ll_relevant;           /* bitmap over registers */
    uint32_t ll_nrelevant;
    int ll_watching;                 /* ws_livelock_watch wanted */
    ws_llwatch llw;
    ws_lldp lld;
    /* timeline records (trace.c) */
    struct ws_tl_rec *tl;
    size_t ntl, captl;
    ws_sample smp;                   /* sample.c: the current launch */
    uint64_t smp_ff_insts;           /* sample.c: fast-forwarded thread instructions, all launches */
    uint64_t smp_ff_cycles;          /* sample.c: extrapolated (not simulated) cycles, all launches */
    double smp_err_cycles;           /* sample.c: their uncertainty, cycles (NaN: a launch without a window) */
} ws_simrun;

/* pipe.c: structural limits (execution units, LD/ST pipe, operand
 * collectors, front end) */
void ws_pipe_setup(ws_simrun *r, const ws_config *cfg);
/* Fills r->pinst (k->ninsts entries) for r->k; after ws_pipe_setup. */
int ws_pipe_decode(ws_simrun *r);

/* issue.c: is `in` none of the opcodes issue() and try_splits treat apart? */
int ws_inst_plain(const ws_inst *in);
uint32_t ws_unit_occupancy(const ws_simrun *r, const ws_inst *in);
uint64_t ws_unit_latency(const ws_simrun *r, const ws_inst *in);
int ws_uses_lsu(const ws_inst *in);

/* Resources a structural stall waits for: a unit (ws_unit), the LD/ST pipe,
 * the collectors; WS_RES_NONE: none. */
enum { WS_RES_LSU = WS_NUNITS, WS_RES_COLLECTOR, WS_RES_NONE = 0xff };
enum { WS_WALK_DEAD = 62, WS_WALK_TRY = 63 };   /* ws_core.walk, beside resources < 32 */

/* `in` is an instruction of r->k. */
static inline const ws_pipe_inst *ws_pipe_inst_of(const ws_simrun *r, const ws_inst *in)
{
    return &r->pinst[in - r->k->insts];
}

/* The collector an instruction issued now takes: the first of those free
 * earliest (kept by ws_pipe_issue, the only writer of coll_free). */
static inline uint32_t ws_earliest_collector(const ws_simrun *r, const ws_pipe *p)
{
    (void)r;
    return p->coll_first;
}

/* The cycle from which resource `res` of scheduler p is free (inline: the
 * issue loop asks it per skipped cycle and per re-checked warp). */
static inline uint64_t ws_pipe_resource_free(const ws_simrun *r, const ws_core *c, const ws_pipe *p, uint8_t res)
{
    if (res == WS_RES_LSU) return c->lsu_free;
    if (res == WS_RES_COLLECTOR) return p->coll_free[ws_earliest_collector(r, p)];
    return p->unit_free[res];
}

/* The cycle the unit, LD/ST pipe and a collector the instruction at pc
 * needs are all free (0 if they are at any cycle), with WS_STALL_UNIT in
 * *why and the latest of them in *res; inline: the issue loop asks it twice
 * per instruction. */
static inline uint64_t ws_pipe_ready_at(const ws_simrun *r, ws_core *c, const ws_cwarp *w, uint32_t pc,
                                        uint8_t *why, uint8_t *res)
{
    const ws_pipe *p = &c->pipes[w->sched];
    const ws_pipe_inst *pi = &r->pinst[pc];
    uint64_t t = 0;
    uint8_t what = WS_STALL_NONE;
    if (pi->occ && p->unit_free[pi->unit] > t) { t = p->unit_free[pi->unit]; what = pi->unit; }
    if (pi->lsu && c->lsu_free > t) { t = c->lsu_free; what = WS_RES_LSU; }
    if (pi->rf) {
        uint64_t f = p->coll_free[ws_earliest_collector(r, p)];
        if (f > t) { t = f; what = WS_RES_COLLECTOR; }
    }
    if (t) { *why = WS_STALL_UNIT; *res = what; }
    return t;
}
/* Cycle from which the instruction at pc is in w's instruction buffer; books
 * a refetch when it is not (a switch of splits). */
uint64_t ws_front_end_ready_at(const ws_simrun *r, ws_core *c, ws_cwarp *w, uint32_t pc, uint64_t now);
/* Occupies the unit and a collector for the instruction at pc; returns the
 * cycles its operand reads add to its latency (bank conflicts). */
uint64_t ws_pipe_issue(const ws_simrun *r, ws_core *c, ws_cwarp *w, uint32_t slot, uint32_t pc, uint64_t now);
/* Occupies the LD/ST pipe for `bytes`; returns the cycles it takes. */
uint64_t ws_lsu_occupy(const ws_simrun *r, ws_core *c, uint64_t bytes, uint64_t now);
/* After w issued the instruction at pc: buffer bookkeeping and the refetch
 * of a redirect or an empty buffer. */
void ws_front_end_issued(const ws_simrun *r, ws_core *c, ws_cwarp *w, uint32_t pc, uint64_t now);

/* trace.c */
void ws_trace_header(ws_simrun *r);
void ws_trace_issue(ws_simrun *r, uint32_t core, uint32_t warp, uint32_t split, const ws_split *sp,
                    const ws_inst *in);
void ws_timeline_print(ws_simrun *r, FILE *out, const ws_launch_stats *ls, uint32_t nls);
void ws_timeline_free(ws_simrun *r);

/* deadlock.c */
void ws_livelock_reset(ws_simrun *r);
/* Called after a back-edge branch of core c issued (warp slot, its pc and
 * the lanes that took it); returns 1 if a livelock is proven (r->status/msg set). */
int ws_livelock_backedge(ws_simrun *r, ws_core *c, uint32_t slot, uint32_t pc, uint64_t mask);
/* Called for every memory access while r->ll_watching. */
void ws_livelock_watch(ws_simrun *r, const ws_inst *in, uint32_t pc, const ws_effect *eff);
/* "" or "; no livelock proof: why", for the timeout message. */
const char *ws_livelock_why(ws_simrun *r);
/* For a timeout message: "; ccws (ccws_kthrottle=8) has not issued warp 1 since
 * cycle N and does not offer it" when the policy withholds live warps that
 * issued nothing in the second half of the run; "" otherwise. */
void ws_starvation_hint(ws_simrun *r, char *buf, size_t len);
/* Every live thread blocked and nothing pending: fills r->msg. */
void ws_deadlock_report(ws_simrun *r);

/* sample.c: sampled simulation (docs/sampling.md). ws_sample_plan after
 * the launch's occupancy is known (may shorten r->total_ctas to the detailed
 * CTAs; -1: invalid settings, r->status set); ws_sample_begin before its
 * CTAs are dispatched; ws_sample_cta_launched from launch_cta; ws_sample_end
 * after its cycle loop ended ok: runs the remaining CTAs functionally on
 * r->mem, adds their extrapolated share to the run's counters and returns
 * the launch's extrapolated end (end itself when it was not sampled), with
 * *sampled the fraction of its thread instructions run in detail (r->status
 * set when the fast-forward fails). */
int ws_sample_plan(ws_simrun *r);
void ws_sample_begin(ws_simrun *r, uint64_t start);
void ws_sample_cta_launched(ws_simrun *r, uint64_t id);
uint64_t ws_sample_end(ws_simrun *r, const ws_launch_spec *spec, const uint8_t *param_buf, uint64_t start,
                       uint64_t end, double *sampled);
int ws_describe_warp(ws_simrun *r, ws_core *c, uint32_t w, char *buf, size_t len);
/* Can scheduler s's policy hold `in` (may_issue_load: a global/local/generic load)? */
int ws_core_load_gated(const ws_sched *s, const ws_inst *in);

/* ---------------------------------------------- the core's files share -- */
/* core.c: the run stops with `status` and the message (the first one wins). */
void ws_run_fail(ws_simrun *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* cta.c: CTA launch, CTA barriers and the end of warps and CTAs */
void ws_launch_cta(ws_simrun *r, ws_core *c, uint32_t slot);
/* Launches CTAs into the core's free CTA slots; returns how many. */
uint32_t ws_fill_core(ws_simrun *r, ws_core *c);
void ws_track_residency(ws_simrun *r, ws_core *c, uint64_t *max_ctas);
/* Releases the CTA barriers of ct that every (or the expected number of)
 * thread has reached. */
void ws_cta_check_bars(ws_simrun *r, ws_core *c, ws_ccta *ct, uint64_t now);
/* A CTA-scope scheme changed the CTA's dynamic warps: its warps look again. */
void ws_wake_cta(ws_core *c, const ws_ccta *ct);
/* The CTA's warps suspended in mbarrier.try_wait look again from cycle t (a phase completed). */
void ws_mbar_wake(ws_core *c, const ws_ccta *ct, uint64_t t);
/* bulk.c: a cp.async.bulk's timing after its values moved (returns its completion for the
 * issuing warp), and the start of cycle now for core c's copies landing in shared memory. */
uint64_t ws_bulk_timing(struct ws_simrun *r, ws_core *c, ws_cwarp *w, uint32_t slot, const ws_inst *in,
                        const ws_effect *eff, uint64_t t0);
void ws_bulk_apply(struct ws_simrun *r, ws_core *c, uint64_t now);
void ws_bulk_due(struct ws_simrun *r, uint64_t now);   /* every core's events due at now; r->bulk_next */
/* Lanes `executed` of warp `slot` arrive at CTA barrier instruction `in`. */
void ws_bar_arrive(ws_simrun *r, ws_core *c, ws_ccta *ct, uint32_t slot, const ws_inst *in, uint64_t executed);
/* Every lane of warp `slot` exited: it leaves its scheduler, its CTA may be done. */
void ws_warp_finished(ws_simrun *r, ws_core *c, uint32_t slot);

/* rendezvous.c: warp-level .sync operations (docs/model.md, "Warp-level
 * operations and member masks") */
uint64_t ws_sync_members(const ws_simrun *r, const ws_cwarp *w, const ws_operand *mo, uint64_t lanes);
uint64_t ws_consistent_members(const ws_simrun *r, const ws_cwarp *w, const ws_operand *mo, uint64_t lanes);
uint64_t ws_aligned_members(const ws_cwarp *w, uint64_t lanes);
uint64_t ws_sync_parked_lanes(const ws_simrun *r, const ws_cwarp *w, uint32_t pc, const ws_split *sps, uint32_t ns);
uint32_t ws_collect_rendezvous(const ws_simrun *r, const ws_cwarp *w, const ws_split *sps, uint32_t ns,
                               uint32_t first, uint64_t need, uint64_t parked, ws_split *parts);
int ws_issue_rendezvous(ws_simrun *r, ws_core *c, uint32_t slot, const ws_split *parts, uint32_t n, uint64_t now);
void ws_stack_sync_deadlock(ws_simrun *r, uint32_t slot, const ws_split *sp, const ws_inst *in, uint64_t missing);

/* issue.c: the cycle loop of one launch from cycle `now` until its last CTA
 * is done or the run stops (r->status set); returns the cycle it stopped at. */
uint64_t ws_run_cycles(ws_simrun *r, uint64_t now, uint64_t *max_ctas);

/* Small helpers of several of those files, inline: the issue loop calls
 * them per instruction. */
/* commit_group: the open group joins the committed ones (past WS_CPA_GROUPS the two oldest merge). */
static inline void ws_async_commit(ws_async_groups *g)
{
    if (g->n == WS_CPA_GROUPS) {
        if (g->group[1] < g->group[0]) g->group[1] = g->group[0];
        memmove(g->group, g->group + 1, sizeof g->group[0] * (WS_CPA_GROUPS - 1));
        g->n--;
    }
    g->group[g->n++] = g->open;
    g->open = 0;
}

/* wait_group N at t0: every committed group but the newest `keep` is done; returns when (at
 * least t0 + 1) and forgets them. */
static inline uint64_t ws_async_wait(ws_async_groups *g, uint32_t keep, uint64_t t0)
{
    uint64_t ready = t0 + 1;
    while (g->n > keep) {
        if (g->group[0] > ready) ready = g->group[0];
        memmove(g->group, g->group + 1, sizeof g->group[0] * (g->n - 1));
        g->n--;
    }
    return ready;
}

/* An event (a warp added, finished, parked or released) may let a warp of
 * scheduler p issue earlier than p's cached bounds say. */
static inline void pipe_changed(ws_pipe *p)
{
    p->idle_until = 0;
    p->hard_min = 0;
}

/* w no longer waits only for a resource (it issued, was released, finished). */
static inline void forget_stall(ws_core *c, ws_cwarp *w)
{
    if (w->stall_res == WS_RES_NONE) return;
    ws_pipe *p = &c->pipes[w->sched];
    if (!--p->n_res[w->stall_res]) p->res_mask &= ~(1u << w->stall_res);
    p->res_bits[w->stall_res] &= ~w->walk_bit;
    p->n_waiting--;
    w->stall_res = WS_RES_NONE;
    c->walk[w - c->warps] = WS_WALK_TRY;
}

/* w waits for resource res until `until` and for nothing else. */
static inline void note_stall(ws_core *c, ws_cwarp *w, uint8_t res, uint64_t until)
{
    forget_stall(c, w);
    w->stall_wake = until;
    if (res == WS_RES_NONE) return;
    ws_pipe *p = &c->pipes[w->sched];
    if (!p->n_res[res]++) p->res_mask |= 1u << res;
    p->res_bits[res] |= w->walk_bit;
    p->n_waiting++;
    w->stall_res = res;
    c->walk[w - c->warps] = res;
}

/* Tells the warp's scheduler that its CTA-barrier or exit state changed. */
static inline void note_parking(ws_core *c, ws_cwarp *w, uint32_t slot)
{
    pipe_changed(&c->pipes[w->sched]);
    ws_sched *s = &c->scheds[w->sched];
    if (s->ops->parking) s->ops->parking(s, slot);
}

/* Writes a flat warp's lane state (ws_cwarp.lanes_flat) into the per-lane
 * arrays, before a change to some of its lanes. */
static inline void lanes_unflatten(ws_cwarp *w, uint32_t nlanes)
{
    if (!w->lanes_flat) return;
    for (uint32_t l = 0; l < nlanes; l++) w->lane_ready[l] = w->flat_ready;
    memset(w->lane_mem, w->flat_mem, nlanes);
    w->lanes_flat = 0;
}

/* Timing state after lanes `mask` of w issued `in`, complete at `done`:
 * blocking issue holds the lanes (barrier) or the warp (stack); scoreboard
 * issue marks the registers `in` writes as pending on those lanes. */
static inline void note_pending(ws_simrun *r, ws_cwarp *w, const ws_inst *in, uint64_t mask, uint64_t done, int is_mem,
                         uint64_t now)
{
    if (r->blocking) {
        const uint64_t live = w->fw.valid & ~w->exited;
        if (!r->div->per_lane_blocking || (mask & live) == live) {
            /* every live lane (the stack holds the whole warp): one value for all */
            w->lanes_flat = 1;
            w->flat_ready = done;
            w->flat_mem = (uint8_t)is_mem;
        } else {
            lanes_unflatten(w, w->fw.nlanes);
            for (uint64_t m = mask; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctzll(m);
                w->lane_ready[l] = done;
                w->lane_mem[l] = (uint8_t)is_mem;
            }
        }
        if (done > w->busy_until) w->busy_until = done;
    } else {
        for (uint32_t i = 0; i < in->n_wr; i++) {
            uint32_t reg = in->wr[i];
            if (reg >= r->nregs) continue;
            if (w->sb_ready[reg] <= now) {
                w->sb_mask[reg] = mask;
                w->sb_ready[reg] = done;
                w->sb_mem[reg] = (uint8_t)is_mem;
            } else {
                w->sb_mask[reg] |= mask;
                if (done >= w->sb_ready[reg]) {
                    w->sb_ready[reg] = done;
                    w->sb_mem[reg] = (uint8_t)is_mem;
                }
            }
        }
    }
}

/* The lanes that issue at cycle now (deadlock.c: a split the policy starves).
 * Only a policy that can hold loads (ccws, daws) starves a split, so the
 * other schedulers skip the per-lane loop. */
static inline void stamp_lanes(const ws_core *c, ws_cwarp *w, uint64_t lanes, uint64_t now)
{
    if (!c->scheds[w->sched].ops->may_issue_load) return;
    for (uint64_t m = lanes; m; m &= m - 1) w->lane_issue[__builtin_ctzll(m)] = now + 1;
}

/* A split without its lanes held at a CTA barrier (barrier scheme: the
 * others may go on); 0 if none is left or the scheme holds the whole split. */
static inline int split_free_part(const ws_simrun *r, const ws_cwarp *w, const ws_split *sp, ws_split *out)
{
    *out = *sp;
    if (sp->mask & w->held) {
        if (!r->div->per_lane_blocking || !(sp->mask & ~w->held)) return 0;
        out->mask &= ~w->held;
    }
    return 1;
}

/* The watchdog limits the cycles simulated (docs/sampling.md): the run's
 * clock also holds the cycles sample.c extrapolated for the fast-forwarded
 * CTAs of earlier launches, which cost no simulation, so the limit on the
 * clock is max_cycles plus them (max_cycles itself without sampling). */
static inline uint64_t watchdog_limit(const ws_simrun *r)
{
    uint64_t max_cycles = (uint64_t)ws_cfg_i(r->cfg, WS_P_max_cycles);
    return max_cycles + (r->smp_ff_cycles < UINT64_MAX - max_cycles ? r->smp_ff_cycles : UINT64_MAX - max_cycles);
}

#endif
