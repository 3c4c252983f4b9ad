/*
 * The shared cache of a sweep (include/warpsweep/kcache.h): transformed
 * kernels, reference runs and reference thread instruction counts, each
 * computed once per key by the first thread that asks for it.
 *
 * One table of entries per kind behind one OpenMP lock (mu), scanned
 * linearly: it holds tens of entries, looked up once per launch and per
 * point. A thread that finds no entry for its key inserts one marked
 * computing, holding the entry's own lock (busy), and computes it without
 * mu; a thread that asks for the same key meanwhile pins the entry and
 * waits on busy. The computing thread marks the entry ready under mu, then
 * releases busy. A ready entry never changes, so its holders read it
 * without a lock (setting and unsetting an OpenMP lock flush memory, OpenMP
 * 5.2 section 18.9), and it is freed only when no point holds it (users 0):
 * an eviction changes the cost of a sweep, never its results.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include "kcache.h"
#include "warpsweep/passes.h"

enum { KC_KERNEL, KC_REF, KC_WORK, KC_NKINDS };
enum { KC_NO, KC_WAIT, KC_YES };   /* how an entry answers a request */

typedef struct kc_kernel_key {
    const ws_kernel *src;
    uint32_t ninsts;                 /* guards against another kernel at the same address */
    int scheduled, barrier, yield;   /* yield, nregs: 0 unless barrier; budget: 0 unless scheduled */
    unsigned budget, nregs;
} kc_kernel_key;

typedef struct kc_ref_key {          /* the key of today's per-ws_sim reference cache */
    const ws_workload *wl;
    const ws_kernel *kernel;
    const ws_launch_spec *launches;
    uint64_t seed;
    uint32_t warp_size;
    int lockstep;                    /* always 0 for KC_WORK */
    char path[512];
} kc_ref_key;

typedef struct kc_ref_val {
    ws_memimage img;
    ws_result res;
} kc_ref_val;

struct ws_kc_entry {
    int kind;
    int ready;                       /* published: nothing below changes any more */
    uint32_t users;                  /* pins of running points, the computing thread's included */
    uint64_t stamp;                  /* last use, for least-recently-used eviction */
    uint64_t bytes;                  /* KC_REF: its memory image */
    omp_lock_t busy;                 /* held by the computing thread until ready */
    union {
        kc_kernel_key k;
        kc_ref_key r;
    } key;
    uint64_t max_steps;              /* KC_REF, KC_WORK: the step limit it ran with */
    ws_kernel *xk;                   /* KC_KERNEL: the result, or NULL with err */
    ws_error err;
    int status;                      /* KC_WORK: of the reference run ... */
    uint64_t thread_insts;           /* ... and its thread instructions */
    kc_ref_val ref[];                /* KC_REF only */
};

typedef struct kc_table {
    ws_kc_entry **e;
    uint32_t n, alloc;
    uint32_t keep;                   /* entries kept when no point holds them */
    uint64_t bytes, max_bytes;       /* KC_REF: memory images held, and their limit */
} kc_table;

struct ws_kcache {
    omp_lock_t mu;
    kc_table t[KC_NKINDS];
    uint64_t clock;
    ws_kcache_stats st;
    ws_result oom;                   /* the answer when an entry cannot be allocated */
};

ws_kcache *ws_kcache_new_sized(uint32_t kernels, uint32_t references, uint64_t reference_bytes, uint32_t works)
{
    ws_kcache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    omp_init_lock(&c->mu);
    c->t[KC_KERNEL].keep = kernels;
    c->t[KC_REF].keep = references;
    c->t[KC_REF].max_bytes = reference_bytes;
    c->t[KC_WORK].keep = works;
    c->t[KC_KERNEL].max_bytes = c->t[KC_WORK].max_bytes = UINT64_MAX;
    c->oom.status = WS_ST_ERROR;
    snprintf(c->oom.message, sizeof c->oom.message, "out of memory for the reference run");
    return c;
}

ws_kcache *ws_kcache_new(void)
{
    return ws_kcache_new_sized(WS_KC_KERNELS, WS_KC_REFERENCES, WS_KC_REFERENCE_BYTES, WS_KC_WORKS);
}

static void entry_free(ws_kc_entry *e)
{
    if (e->kind == KC_KERNEL) ws_kernel_free(e->xk);
    if (e->kind == KC_REF) ws_memimage_free(&e->ref->img);
    omp_destroy_lock(&e->busy);
    free(e);
}

void ws_kcache_free(ws_kcache *c)
{
    if (!c) return;
    for (int k = 0; k < KC_NKINDS; k++) {
        for (uint32_t i = 0; i < c->t[k].n; i++) entry_free(c->t[k].e[i]);
        free(c->t[k].e);
    }
    omp_destroy_lock(&c->mu);
    free(c);
}

void ws_kcache_get_stats(ws_kcache *c, ws_kcache_stats *st)
{
    omp_set_lock(&c->mu);
    *st = c->st;
    st->kernels = c->t[KC_KERNEL].n;
    st->references = c->t[KC_REF].n;
    st->works = c->t[KC_WORK].n;
    omp_unset_lock(&c->mu);
}

/* ------------------------------------------------------------ matching -- */
static int kernel_answers(const ws_kc_entry *e, const ws_kc_entry *q)
{
    const kc_kernel_key *a = &e->key.k, *b = &q->key.k;
    if (a->src != b->src || a->ninsts != b->ninsts || a->scheduled != b->scheduled || a->barrier != b->barrier ||
        a->yield != b->yield || a->budget != b->budget || a->nregs != b->nregs)
        return KC_NO;
    return e->ready ? KC_YES : KC_WAIT;
}

static int same_ref_key(const kc_ref_key *a, const kc_ref_key *b)
{
    return a->wl == b->wl && a->kernel == b->kernel && a->launches == b->launches && a->seed == b->seed &&
           a->warp_size == b->warp_size && a->lockstep == b->lockstep && strcmp(a->path, b->path) == 0;
}

/* A reference run with step limit L0 answers a request with limit L when
 * L0 == L, or when it ended (anything but a timeout) after S steps with
 * S < L (or L = 0, no limit): reference.c checks the limit only before a
 * turn and before a launch, and groups turns only where that gives the
 * one-thread-per-turn outcome, so with any limit above S it takes the same
 * S steps to the same end. The answer is then the one ws_reference_run with
 * L gives, whichever point ran the entry first. */
static int ref_answers(const ws_kc_entry *e, const ws_kc_entry *q)
{
    if (!same_ref_key(&e->key.r, &q->key.r)) return KC_NO;
    if (!e->ready) return KC_WAIT;
    if (e->max_steps == q->max_steps) return KC_YES;
    int status = e->kind == KC_REF ? e->ref->res.status : e->status;
    uint64_t steps = e->kind == KC_REF ? (uint64_t)e->ref->res.metrics[WS_M_thread_insts].i : e->thread_insts;
    return status != WS_ST_TIMEOUT && (q->max_steps == 0 || steps < q->max_steps) ? KC_YES : KC_NO;
}

/* --------------------------------------------------------------- table -- */
/* Frees least recently used entries no point holds while the table holds
 * more than it keeps. Under mu. */
static void evict(kc_table *t)
{
    while (t->n > t->keep || t->bytes > t->max_bytes) {
        uint32_t victim = t->n;
        for (uint32_t i = 0; i < t->n; i++) {
            const ws_kc_entry *e = t->e[i];
            if (e->ready && !e->users && (victim == t->n || e->stamp < t->e[victim]->stamp)) victim = i;
        }
        if (victim == t->n) return;   /* every entry is in use: kept until released */
        ws_kc_entry *e = t->e[victim];
        t->bytes -= e->bytes;
        t->e[victim] = t->e[--t->n];
        entry_free(e);
    }
}

/* An entry answering q, pinned (users + 1) and ready; or, when none does, a
 * new one with q's key, pinned, not ready, its busy lock held by the caller,
 * who computes it and calls publish (*fresh = 1). NULL: out of memory. */
static ws_kc_entry *acquire(ws_kcache *c, const ws_kc_entry *q, int *fresh)
{
    kc_table *t = &c->t[q->kind];
    int (*answers)(const ws_kc_entry *, const ws_kc_entry *) = q->kind == KC_KERNEL ? kernel_answers : ref_answers;
    omp_set_lock(&c->mu);
    c->st.lookups++;
    for (;;) {
        ws_kc_entry *hit = NULL, *wait = NULL;
        for (uint32_t i = 0; i < t->n && !hit; i++) {
            int a = answers(t->e[i], q);
            if (a == KC_YES) hit = t->e[i];
            else if (a == KC_WAIT && !wait) wait = t->e[i];
        }
        if (hit) {
            hit->users++;
            hit->stamp = ++c->clock;
            omp_unset_lock(&c->mu);
            *fresh = 0;
            return hit;
        }
        if (!wait) break;
        /* being computed: wait for it, then look again (it may not answer q) */
        wait->users++;
        omp_unset_lock(&c->mu);
        omp_set_lock(&wait->busy);
        omp_unset_lock(&wait->busy);
        omp_set_lock(&c->mu);
        wait->users--;
    }
    ws_kc_entry *e = NULL;
    if (t->n == t->alloc) {
        uint32_t alloc = t->alloc ? 2 * t->alloc : 16;
        ws_kc_entry **p = realloc(t->e, alloc * sizeof *p);
        if (p) {
            t->e = p;
            t->alloc = alloc;
        }
    }
    if (t->n < t->alloc)
        e = calloc(1, sizeof *e + (q->kind == KC_REF ? sizeof(kc_ref_val) : 0));
    if (e) {
        e->kind = q->kind;
        e->key = q->key;
        e->max_steps = q->max_steps;
        e->users = 1;
        e->stamp = ++c->clock;
        omp_init_lock(&e->busy);
        omp_set_lock(&e->busy);
        t->e[t->n++] = e;
    }
    omp_unset_lock(&c->mu);
    *fresh = 1;
    return e;
}

/* The computing thread is done with e: it is ready for everyone. */
static void publish(ws_kcache *c, ws_kc_entry *e, int ran_reference)
{
    kc_table *t = &c->t[e->kind];
    omp_set_lock(&c->mu);
    e->ready = 1;
    t->bytes += e->bytes;
    if (e->kind == KC_KERNEL) c->st.kernels_built++;
    if (ran_reference) c->st.references_run++;
    evict(t);
    omp_unset_lock(&c->mu);
    omp_unset_lock(&e->busy);
}

static void unpin(ws_kcache *c, ws_kc_entry *e)
{
    omp_set_lock(&c->mu);
    e->users--;
    evict(&c->t[e->kind]);
    omp_unset_lock(&c->mu);
}

/* Records e in pins. Should the array not grow, e stays pinned until the
 * cache is freed: kept too long, never freed while in use. */
static void pin(ws_kc_pins *p, ws_kc_entry *e)
{
    if (p->n == p->cap) {
        uint32_t cap = p->cap ? 2 * p->cap : 8;
        ws_kc_entry **a = realloc(p->e, cap * sizeof *a);
        if (!a) return;
        p->e = a;
        p->cap = cap;
    }
    p->e[p->n++] = e;
}

void ws_kcache_release(ws_kcache *c, ws_kc_pins *p)
{
    if (!p->n) return;
    omp_set_lock(&c->mu);
    for (uint32_t i = 0; i < p->n; i++) p->e[i]->users--;
    for (int k = 0; k < KC_NKINDS; k++) evict(&c->t[k]);
    omp_unset_lock(&c->mu);
    p->n = 0;
}

/* ------------------------------------------------------------- kernels -- */
static ws_kc_entry *kernel_entry(ws_kcache *c, const ws_kc_entry *q);

/* The list-scheduled kernel comes from its own entry (key: kernel, budget),
 * so the barrier pass under several barrier_regs / barrier_yield settings
 * schedules the kernel once. */
static void build_kernel(ws_kcache *c, ws_kc_entry *e)
{
    const kc_kernel_key *k = &e->key.k;
    if (k->scheduled && !k->barrier) {
        e->xk = ws_list_schedule(k->src, k->budget, &e->err);
        return;
    }
    ws_kc_entry *sched = NULL;
    const ws_kernel *from = k->src;
    if (k->scheduled) {
        ws_kc_entry q;
        memset(&q, 0, sizeof q);
        q.kind = KC_KERNEL;
        q.key.k = (kc_kernel_key){.src = k->src, .ninsts = k->ninsts, .scheduled = 1, .budget = k->budget};
        sched = kernel_entry(c, &q);
        if (!sched) {
            ws_fail(&e->err, "out of memory");
            return;
        }
        if (!sched->xk) {
            e->err = sched->err;
            unpin(c, sched);
            return;
        }
        from = sched->xk;
    }
    ws_kernel *xk = ws_barrier_transform(from, k->nregs, k->yield, &e->err);
    if (sched) unpin(c, sched);
    if (xk && k->barrier == 2 && ws_barrier_sink_release(xk, &e->err)) {
        ws_kernel_free(xk);
        xk = NULL;
    }
    e->xk = xk;
}

/* The KC_KERNEL entry answering q, pinned; NULL: out of memory. */
static ws_kc_entry *kernel_entry(ws_kcache *c, const ws_kc_entry *q)
{
    int fresh;
    ws_kc_entry *e = acquire(c, q, &fresh);
    if (e && fresh) {
        build_kernel(c, e);
        publish(c, e, 0);
    }
    return e;
}

const ws_kernel *ws_kcache_kernel(ws_kcache *c, ws_kc_pins *pins, const ws_kernel *k, int scheduled,
                                  unsigned budget, int barrier, unsigned nregs, int yield, ws_error *err)
{
    if (!scheduled && !barrier) return k;
    ws_kc_entry q;
    memset(&q, 0, sizeof q);
    q.kind = KC_KERNEL;
    q.key.k = (kc_kernel_key){.src = k, .ninsts = k->ninsts, .scheduled = scheduled, .barrier = barrier,
                              .yield = barrier ? yield : 0, .nregs = barrier ? nregs : 0,
                              .budget = scheduled ? budget : 0};
    /* a sequence launching the kernel again: already held, no lock needed */
    const ws_kc_entry *e = NULL;
    for (uint32_t i = 0; i < pins->n && !e; i++)
        if (pins->e[i]->kind == KC_KERNEL && kernel_answers(pins->e[i], &q) == KC_YES) e = pins->e[i];
    if (!e) {
        ws_kc_entry *n = kernel_entry(c, &q);
        if (!n) {
            ws_fail(err, "out of memory");
            return NULL;
        }
        pin(pins, n);
        e = n;
    }
    if (!e->xk && err) *err = e->err;
    return e->xk;
}

/* ---------------------------------------------------------- references -- */
static void ref_query(ws_kc_entry *q, int kind, const ws_workload *wl, uint64_t seed, uint32_t warp_size,
                      uint64_t max_steps, int lockstep)
{
    memset(q, 0, sizeof *q);
    q->kind = kind;
    q->key.r.wl = wl;
    q->key.r.kernel = wl->kernel;
    q->key.r.launches = wl->launches;
    q->key.r.seed = seed;
    q->key.r.warp_size = warp_size;
    q->key.r.lockstep = lockstep;
    snprintf(q->key.r.path, sizeof q->key.r.path, "%s", wl->path ? wl->path : "");
    q->max_steps = max_steps;
}

static uint64_t image_bytes(const ws_memimage *m)
{
    uint64_t b = 0;
    for (uint32_t i = 0; i < m->gmem.nregions; i++) b += m->gmem.regions[i].size;
    return b;
}

/* The KC_REF entry answering q, pinned; NULL: out of memory. */
static ws_kc_entry *reference_entry(ws_kcache *c, const ws_kc_entry *q)
{
    int fresh;
    ws_kc_entry *e = acquire(c, q, &fresh);
    if (e && fresh) {
        const kc_ref_key *k = &e->key.r;
        (k->lockstep ? ws_reference_run_lockstep : ws_reference_run)(k->wl, k->seed, k->warp_size, e->max_steps,
                                                                     &e->ref->img, &e->ref->res);
        e->bytes = image_bytes(&e->ref->img);
        publish(c, e, 1);
    }
    return e;
}

const ws_result *ws_kcache_reference(ws_kcache *c, ws_kc_pins *pins, const ws_workload *wl, uint64_t seed,
                                     uint32_t warp_size, uint64_t max_steps, int lockstep,
                                     const ws_memimage **img)
{
    ws_kc_entry q;
    ref_query(&q, KC_REF, wl, seed, warp_size, max_steps, lockstep);
    ws_kc_entry *e = reference_entry(c, &q);
    if (!e) {
        *img = NULL;
        return &c->oom;
    }
    pin(pins, e);
    *img = &e->ref->img;
    return &e->ref->res;
}

/* A KC_WORK entry's count: from the reference entry when the workload
 * compares memory with the reference (its points want that entry anyway),
 * else from a run whose memory is dropped at once. */
static int count_work(ws_kcache *c, ws_kc_entry *e)
{
    const kc_ref_key *k = &e->key.r;
    if (k->wl->needs_reference) {
        ws_kc_entry q;
        ref_query(&q, KC_REF, k->wl, k->seed, k->warp_size, e->max_steps, 0);
        ws_kc_entry *r = reference_entry(c, &q);
        const ws_result *res = r ? &r->ref->res : &c->oom;
        e->status = res->status;
        e->thread_insts = (uint64_t)res->metrics[WS_M_thread_insts].i;
        if (r) unpin(c, r);
        return 0;
    }
    ws_memimage img;
    ws_result res;
    memset(&img, 0, sizeof img);
    ws_reference_run(k->wl, k->seed, k->warp_size, e->max_steps, &img, &res);
    ws_memimage_free(&img);
    e->status = res.status;
    e->thread_insts = (uint64_t)res.metrics[WS_M_thread_insts].i;
    return 1;
}

void ws_kcache_work(ws_kcache *c, const ws_workload *wl, uint64_t seed, uint32_t warp_size, uint64_t max_steps,
                    int *status, uint64_t *thread_insts)
{
    ws_kc_entry q;
    ref_query(&q, KC_WORK, wl, seed, warp_size, max_steps, 0);
    int fresh;
    ws_kc_entry *e = acquire(c, &q, &fresh);
    if (!e) {
        *status = c->oom.status;
        *thread_insts = 0;
        return;
    }
    if (fresh) publish(c, e, count_work(c, e));
    *status = e->status;
    *thread_insts = e->thread_insts;
    unpin(c, e);
}
