#ifndef WS_SCHED_H
#define WS_SCHED_H
/*
 * Warp schedulers, pluggable like SQLite's VFS: one file per policy, each
 * exporting one const ws_sched_ops.  A core has `schedulers` ws_sched
 * instances; warp slot w belongs to scheduler w % schedulers.
 *
 * Every cycle the core asks ops->order for this cycle's priority list and
 * walks it, issuing from the first warps that can issue (at most issue_width
 * per cycle, one instruction per warp); ops->issued is called for each warp
 * that issued.  The list is out[(start + i) % n] for i = 0..n-1, so a
 * round-robin policy can return its resident list with a rotated start and
 * copy nothing.
 *
 * Policies (see docs/model.md):
 *   lrr        loose round-robin: start after the warp that issued last.
 *   gto        greedy-then-oldest: the warp that issued last, then oldest first.
 *   oldest     oldest first (by dynamic warp id = launch order).
 *   two_level  active set of two_level_active warps, round-robin; a warp whose
 *              next instruction waits on a long-latency (global memory)
 *              result is demoted to the tail of a FIFO pending list; free
 *              active entries are refilled from the FIFO's head (GPGPU-Sim
 *              two_level_active, Gebhart et al. ISCA 2011).
 *   fetch_group  Narasiman et al. (MICRO 2011): fixed groups of
 *              fetch_group_size warp slots; round-robin inside the active
 *              group, which keeps priority until all its warps wait on long
 *              latency (or a CTA barrier); then the next group takes over.
 *   swl        GTO restricted to the swl_limit oldest resident warps.
 *   ccws       Rogers et al. (MICRO 2012): GTO; the warps a lost-locality
 *              score (per-warp victim tag arrays fed by L1 evictions)
 *              throttles may not issue global/local loads (may_issue_load);
 *              see sched_ccws.c.
 *   daws       Rogers et al. (MICRO 2013): GTO; oldest first, warps may load
 *              while their predicted footprints (per-load-PC locality from
 *              the VTAs, lines per access, active lanes) fit the L1; see
 *              sched_daws.c.
 */
#include <stddef.h>
#include <stdint.h>
#include "warpsweep/mem.h"
#include "warpsweep/ptx.h"
#include "warpsweep/params.h"

struct ws_core;
typedef struct ws_sched ws_sched;

typedef struct ws_sched_ops {
    const char *name;
    void (*add)(ws_sched *s, uint32_t slot);        /* warp launched (ages increase) */
    void (*remove)(ws_sched *s, uint32_t slot);     /* warp finished */
    uint32_t (*order)(ws_sched *s, uint64_t now, const uint32_t **out, uint32_t *start);
    void (*issued)(ws_sched *s, uint32_t slot, uint64_t now);
    uint64_t (*hash)(const ws_sched *s, uint64_t h); /* policy state, for livelock proofs */
    /* Optional: earliest cycle > now at which order() may change state with no
     * issue in between (event skipping must not jump past it); NULL = never. */
    uint64_t (*next_event)(ws_sched *s, uint64_t now);
    /* Optional: lanes of warp `slot` reached or left a CTA barrier, or exited
     * (whether the warp is parked at a barrier may have changed); NULL = ignore. */
    void (*parking)(ws_sched *s, uint32_t slot);
    /* Optional: may the policy choose warp `slot` at all in its current state
     * (in the active set / window)?  NULL = every resident warp is in every
     * order (lrr, gto, oldest).  Used to tell a policy's starvation from a
     * program deadlock (deadlock.c); call after order() of the same cycle. */
    int (*eligible)(const ws_sched *s, uint32_t slot);
    const char *limit_param;   /* the parameter bounding the eligible set, or NULL */
    /* order() always returns s->res (the resident warps in slot order) from
     * the first one after s->last (wrapping; from the first without
     * has_last) and has no side effect: the core may then walk bitmaps over
     * slots from there without asking order() (lrr). */
    uint8_t slot_order;
    /* Optional: reads the policy's parameters and allocates its state with
     * alloc (the run's arena: freed with the run; not zeroed) once per
     * scheduler, after the common fields are set, schedulers in order (a
     * policy with per-core state allocates it for scheduler 0 and the others
     * take s->core->scheds[0].pstate).  -1: out of memory. */
    int (*setup)(ws_sched *s, const ws_config *cfg, void *(*alloc)(void *ctx, size_t n), void *ctx);
    /* Optional: an L1 event (mem.h ws_mem_event) of a load issued at `now`
     * concerning warp ev->warp of this scheduler: the core passes every load
     * an event buffer only if the policy has this hook. */
    void (*mem_event)(ws_sched *s, const ws_mem_event *ev, uint64_t now);
    /* Optional: may warp `slot` issue a global/local load at `now`?  Asked by
     * the core just before such a load issues; a refused load waits a cycle
     * (next_event must cover any change with time).  NULL = always (ccws:
     * throttled warps issue everything but these loads). */
    int (*may_issue_load)(ws_sched *s, uint32_t slot, uint64_t now);
    /* Optional: warp `slot` issued the global/local load at `pc`, touching
     * `lines` L1 lines with `lanes` active lanes; called before the load's
     * mem_event calls (daws: per-PC footprints and the PC of a VTA hit). */
    void (*load_access)(ws_sched *s, uint32_t slot, uint32_t pc, uint32_t lines, uint32_t lanes, uint64_t now);
} ws_sched_ops;

struct ws_sched {
    const ws_sched_ops *ops;
    struct ws_core *core;
    uint32_t id;
    uint32_t cap;          /* warp slots of this scheduler */
    uint32_t *res;         /* resident warps in slot order */
    uint32_t nres;
    uint32_t *age;         /* resident warps oldest first */
    uint32_t nage;
    uint32_t *prio;        /* order built by the policy */
    uint32_t nprio;
    uint32_t *fifo;        /* two_level: pending FIFO (ring of cap) */
    uint32_t fhead, nfifo;
    uint32_t last;         /* warp that issued last (valid if has_last) */
    uint8_t has_last;
    uint32_t issued_at;    /* set by the core: index of the warp that issued in the list
                              order() returned that cycle (a hint: the list may change) */
    uint8_t dirty;         /* prio must be rebuilt */
    uint32_t limit;        /* two_level_active / swl_limit / fetch_group_size */
    uint32_t stride;       /* schedulers per core: slot w is local warp w / stride */
    uint32_t group;        /* fetch_group: the active group */
    void *pstate;          /* policy state from ops->setup (ccws, daws: the core's, shared by its schedulers) */
};

/* Shared helpers (sched_common in sched_lrr.c). */
void ws_sched_list_add_sorted(uint32_t *list, uint32_t *n, uint32_t slot);
void ws_sched_list_append(uint32_t *list, uint32_t *n, uint32_t slot);
int ws_sched_list_remove(uint32_t *list, uint32_t *n, uint32_t slot);
int ws_sched_in_prio(const ws_sched *s, uint32_t slot);   /* slot is in s->prio */
uint64_t ws_sched_hash_common(const ws_sched *s, uint64_t h);
/* Core query for two_level: is warp `slot` waiting on a long-latency result? */
int ws_core_waiting_long(const struct ws_core *c, uint32_t slot, uint64_t now);
/* Core query for swl: does every live thread of warp `slot` wait at a CTA barrier? */
int ws_core_parked_at_barrier(const struct ws_core *c, uint32_t slot);
/* Cached cycle before which warp `slot` cannot issue (0: unknown). */
uint64_t ws_core_wake(const struct ws_core *c, uint32_t slot);
/* Core queries for a policy with per-core state (ccws, daws): the state its scheduler 0 set up
 * (schedulers are set up in order), and the kernel of the launch (daws: its branches). */
void *ws_core_policy_state(const struct ws_core *c);
const ws_kernel *ws_core_kernel(const struct ws_core *c);

/* Scheduler-local index of warp slot `slot` (0 .. cap-1). */
static inline uint32_t ws_sched_local(const ws_sched *s, uint32_t slot)
{
    return s->stride > 1 ? slot / s->stride : slot;
}
void ws_sched_gto_build(ws_sched *s, uint32_t limit);

extern const ws_sched_ops ws_sched_lrr, ws_sched_gto, ws_sched_two_level,
                          ws_sched_oldest, ws_sched_swl, ws_sched_fetch_group, ws_sched_ccws,
                          ws_sched_daws;
/* The policy of parameter scheduler's choice `index` (sched_table.c), NULL for
 * none; the number of policies registered. */
const ws_sched_ops *ws_sched_policy(int64_t index);
size_t ws_sched_npolicies(void);

#endif
