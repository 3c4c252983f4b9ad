/*
 * Deadlock and livelock proofs.
 *
 *  - deadlock: nothing issued in a cycle and no pending operation will ever
 *    complete (every live thread waits at a CTA barrier, a convergence WAIT
 *    or a warp-level .sync that cannot be satisfied): ws_deadlock_report.
 *  - livelock: the complete state that determines the future (PCs, masks,
 *    stack / barrier state, registers of live threads, CTA barrier counters,
 *    scheduler state and every pending completion relative to the current
 *    cycle) recurs exactly while no thread exits and no byte of memory (global,
 *    shared, local) changes.  Memory is not hashed: the executor counts every
 *    store or atomic that changes a value (env.mem_changes), and a state only
 *    matches a saved one if that count, like the exit count, is unchanged in
 *    between, so memory is then identical by construction.  The simulator is deterministic, so from then on it repeats
 *    forever: a proof.  The state is hashed (two independent 64-bit hashes)
 *    after every `stride`-th issued back-edge branch (the second hash only to
 *    save a state or confirm a match); Brent's cycle finding keeps one saved
 *    state, replaced after 1, 2, 4, ... checks, and the stride (16 at first)
 *    quadruples at each replacement, so a run of E back-edges costs about
 *    (E/16)^(1/3) state hashes.  A thread exit or a memory change makes the
 *    saved state unmatchable: it is replaced at the next check.  A
 *    period of P back-edge events is found in the first phase with at least
 *    P / gcd(P, stride) checks.
 *
 *  - starvation: either proof, when some live warp could make progress but
 *    the policy never lets it issue, is the scheduler's fault, not the
 *    program's: status WS_ST_STARVED, naming the policy and the starved
 *    warps.  A warp could make progress if it is not parked at a CTA barrier
 *    and its last attempt found a split not waiting for a CTA barrier or a
 *    warp-level rendezvous (cached wake != WS_NEVER; a warp never tried has
 *    wake 0).  In a livelock the starved warps are those that did not issue
 *    once in the whole recurring period (swl's window, two_level's active
 *    set, or strict priority with the issue slots always taken); in a
 *    deadlock (nothing can ever issue) those the policy does not offer at all
 *    (ops->eligible).
 */
#include <string.h>
#include <stdio.h>
#include "core_internal.h"

void ws_livelock_reset(ws_simrun *r)
{
    r->ll_events = 0;
    r->ll_stride = 16;
    r->ll_power = 1;
    r->ll_count = 0;
    r->ll_saved = 0;
}

static uint64_t rel(uint64_t t, uint64_t now) { return t > now ? t - now : 0; }

static uint64_t state_hash(ws_simrun *r, uint64_t h)
{
    uint64_t now = r->now;
    h = ws_hmix(h, r->next_cta);
    h = ws_hmix(h, r->done_ctas);
    uint32_t used = r->ctas_per_core * r->warps_per_cta;
    for (uint32_t ci = 0; ci < r->ncores; ci++) {
        ws_core *c = &r->cores[ci];
        for (uint32_t s = 0; s < r->nsched; s++) h = c->scheds[s].ops->hash(&c->scheds[s], h);
        for (uint32_t s = 0; s < r->ctas_per_core; s++) {
            ws_ccta *ct = &c->ctas[s];
            h = ws_hmix(h, ct->live);
            if (!ct->live) continue;
            h = ws_hmix(h, ct->fc.linear_id);
            h = ws_hmix(h, ct->live_threads);
            for (int b = 0; b < WS_CTA_BARS; b++) h = ws_hmix(h, ((uint64_t)ct->bar_arrived[b] << 32) | ct->bar_expect[b]);
        }
        for (uint32_t wi = 0; wi < used; wi++) {
            ws_cwarp *w = &c->warps[wi];
            h = ws_hmix(h, w->live);
            if (!w->live) continue;
            uint64_t lanes = w->fw.valid & ~w->exited;
            h = ws_hmix(h, w->exited);
            h = ws_hmix(h, w->held);
            h = r->div->hash(&r->divctx, w->div, h);
            for (uint64_t m = lanes; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctzll(m);
                h = ws_hmix(h, ((uint64_t)w->fw.cc[l] << 8) | (w->held >> l & 1 ? w->held_bar[l] : 0));
                h = ws_hmix(h, rel(w->lane_ready[l], now) << 1 | w->lane_mem[l]);
                for (uint32_t q = 0; q < r->nregs; q++) h = ws_hmix(h, w->fw.regs[(size_t)q * r->ws + l]);
            }
            h = ws_hmix(h, rel(w->busy_until, now));
            for (uint32_t q = 0; q < r->nregs; q++)
                if (w->sb_ready[q] > now) {
                    h = ws_hmix(h, q);
                    h = ws_hmix(h, w->sb_mask[q]);
                    h = ws_hmix(h, (w->sb_ready[q] - now) << 1 | w->sb_mem[q]);
                }
        }
    }
    h = ws_hmix(h, rel(r->last_complete, now));
    return h;
}

static size_t describe_all(ws_simrun *r, char *buf, size_t len, size_t n)
{
    uint32_t used = r->ctas_per_core * r->warps_per_cta;
    for (uint32_t ci = 0; ci < r->ncores && n + 1 < len; ci++)
        for (uint32_t wi = 0; wi < used && n + 1 < len; wi++) {
            if (!r->cores[ci].warps[wi].live) continue;
            n += (size_t)ws_describe_warp(r, &r->cores[ci], wi, buf + n, len - n);
        }
    if (n >= len) {
        n = len - 1;
        if (len > 4) memcpy(buf + len - 4, "...", 4);
    }
    return n;
}

int ws_describe_warp(ws_simrun *r, ws_core *c, uint32_t wi, char *buf, size_t len)
{
    ws_cwarp *w = &c->warps[wi];
    size_t n = 0;
    if (r->ncores > 1) n += (size_t)snprintf(buf + n, len - n, " [core %u warp %u: ", c->id, wi);
    else n += (size_t)snprintf(buf + n, len - n, " [warp %u: ", wi);
    if (n >= len) return (int)len;
    if (w->held) {
        uint32_t l = (uint32_t)__builtin_ctzll(w->held);
        ws_ccta *ct = &c->ctas[w->cta_slot];
        uint32_t b = w->held_bar[l];
        uint32_t need = ct->bar_expect[b] ? ct->bar_expect[b] : ct->live_threads;
        n += (size_t)snprintf(buf + n, len - n, "lanes 0x%llx at CTA barrier %u (%u of %u threads arrived); ",
                              (unsigned long long)w->held, b, ct->bar_arrived[b], need);
        if (n >= len) return (int)len;
    }
    n += (size_t)r->div->describe(&r->divctx, w->div, buf + n, len - n);
    if (n >= len) return (int)len;
    n += (size_t)snprintf(buf + n, len - n, "]");
    return (int)(n < len ? n : len);
}

static int could_progress(const ws_core *c, uint32_t slot)
{
    const ws_cwarp *w = &c->warps[slot];
    return w->live && w->wake != WS_NEVER && !ws_core_parked_at_barrier(c, slot);
}

/* Is warp `slot` starved: able to progress, yet not issued since cycle `since`
 * (livelock: the start of the recurring period) or, with since = WS_NEVER,
 * not offered by the policy at all (deadlock)? */
static int starved(ws_simrun *r, ws_core *c, uint32_t slot, uint64_t since)
{
    if (!could_progress(c, slot)) return 0;
    if (since != WS_NEVER) return c->warps[slot].last_issue <= since;
    const ws_sched *s = &c->scheds[c->warps[slot].sched];
    (void)r;
    return s->ops->eligible && !s->ops->eligible(s, slot);
}

/* "scheduler starvation: swl (swl_limit=1) never issues warps 1..3 while" into
 * buf; returns its length, 0 if no warp is starved. */
static size_t describe_starved(ws_simrun *r, uint64_t since, char *buf, size_t len)
{
    uint32_t used = r->ctas_per_core * r->warps_per_cta, count = 0;
    size_t n = 0;
    const char *lp = r->sched->limit_param;
    int id = lp ? ws_param_find(lp) : -1;
    if (id >= 0)
        n = (size_t)snprintf(buf, len, "scheduler starvation: %s (%s=%lld) never issues warp", r->sched->name, lp,
                             (long long)ws_cfg_i(r->cfg, (ws_param_id)id));
    else
        n = (size_t)snprintf(buf, len, "scheduler starvation: %s never issues warp", r->sched->name);
    size_t head = n;
    for (uint32_t ci = 0; ci < r->ncores && n + 1 < len; ci++) {
        ws_core *c = &r->cores[ci];
        for (uint32_t wi = 0; wi < used && n + 1 < len; wi++) {
            if (!starved(r, c, wi, since)) continue;
            uint32_t hi = wi;                       /* print runs as a..b */
            while (hi + 1 < used && starved(r, c, hi + 1, since)) hi++;
            const char *sep = count ? ", " : (hi > wi ? "s " : " ");
            if (r->ncores > 1) n += (size_t)snprintf(buf + n, len - n, "%score %u: ", sep, ci), sep = "";
            if (hi > wi) n += (size_t)snprintf(buf + n, len - n, "%s%u..%u", sep, wi, hi);
            else n += (size_t)snprintf(buf + n, len - n, "%s%u", sep, wi);
            count += hi - wi + 1;
            wi = hi;
        }
    }
    if (!count || n >= len) return count ? len - 1 : 0;
    (void)head;
    n += (size_t)snprintf(buf + n, len - n, " (able to issue: not at a CTA barrier or warp-level wait) while");
    return n < len ? n : len - 1;
}

/* The warps that did issue (livelock) or wait (deadlock), for the message. */
static size_t describe_others(ws_simrun *r, uint64_t since, char *buf, size_t len, size_t n)
{
    uint32_t used = r->ctas_per_core * r->warps_per_cta;
    for (uint32_t ci = 0; ci < r->ncores && n + 1 < len; ci++)
        for (uint32_t wi = 0; wi < used && n + 1 < len; wi++) {
            if (!r->cores[ci].warps[wi].live || starved(r, &r->cores[ci], wi, since)) continue;
            n += (size_t)ws_describe_warp(r, &r->cores[ci], wi, buf + n, len - n);
        }
    if (n >= len) {
        n = len - 1;
        if (len > 4) memcpy(buf + len - 4, "...", 4);
    }
    return n;
}

/* If some warp is starved by the policy: sets status and message, returns 1. */
static int starvation_report(ws_simrun *r, uint64_t since, const char *what)
{
    char buf[WS_ERROR_LEN];
    size_t n = describe_starved(r, since, buf, sizeof buf);
    if (!n) return 0;
    if (n + 1 < sizeof buf) n += (size_t)snprintf(buf + n, sizeof buf - n, " %s:", what);
    if (n + 1 < sizeof buf) describe_others(r, since, buf, sizeof buf, n);
    snprintf(r->msg, sizeof r->msg, "%s", buf);
    r->status = WS_ST_STARVED;
    return 1;
}

static void livelock_save(ws_simrun *r, uint64_t h1)
{
    r->ll_saved = 1;
    r->ll_h1 = h1;
    r->ll_h2 = state_hash(r, 0x13198a2e03707344ull);
    r->ll_cycle = r->now;
    r->ll_exits = r->exits_total;
    r->ll_mem_changes = r->env.mem_changes;
    r->ll_count = 0;
}

int ws_livelock_backedge(ws_simrun *r)
{
    r->ll_events++;
    if (r->ll_events % r->ll_stride) return 0;
    /* A thread exited or memory changed since the last check: no state before
     * this point can recur, and while that keeps happening there is nothing to
     * prove, so only note the counters (no hashing: kernels that store in
     * every iteration would otherwise hash at every check). The search resumes
     * once they stay unchanged for a whole stride; the stride is kept. */
    if (r->ll_exits != r->exits_total || r->ll_mem_changes != r->env.mem_changes) {
        r->ll_exits = r->exits_total;
        r->ll_mem_changes = r->env.mem_changes;
        r->ll_saved = 0;
        return 0;
    }
    uint64_t h1 = state_hash(r, 0x243f6a8885a308d3ull);
    if (!r->ll_saved) {
        livelock_save(r, h1);
        return 0;
    }
    if (h1 == r->ll_h1 && state_hash(r, 0x13198a2e03707344ull) == r->ll_h2) {
        char what[96];
        snprintf(what, sizeof what, "the state at cycle %llu recurs exactly at cycle %llu; looping/waiting",
                 (unsigned long long)r->ll_cycle, (unsigned long long)r->now);
        if (starvation_report(r, r->ll_cycle, what)) return 1;
        char buf[WS_ERROR_LEN];
        size_t n = (size_t)snprintf(buf, sizeof buf,
                                    "livelock: the state at cycle %llu recurs exactly at cycle %llu with no thread "
                                    "exiting and memory unchanged; looping/waiting:",
                                    (unsigned long long)r->ll_cycle, (unsigned long long)r->now);
        if (n < sizeof buf) describe_all(r, buf, sizeof buf, n);
        snprintf(r->msg, sizeof r->msg, "%s", buf);
        r->status = WS_ST_DEADLOCK;
        return 1;
    }
    /* Brent: replace the saved state after 1, 2, 4, ... checks, widening the stride */
    if (++r->ll_count >= r->ll_power) {
        livelock_save(r, h1);
        r->ll_power *= 2;
        if (r->ll_stride < ((uint64_t)1 << 40)) r->ll_stride *= 4;
    }
    return 0;
}

void ws_deadlock_report(ws_simrun *r)
{
    if (starvation_report(r, WS_NEVER, "nothing else can ever issue")) return;
    char buf[WS_ERROR_LEN];
    size_t n = (size_t)snprintf(buf, sizeof buf, "deadlock at cycle %llu: every live thread is blocked:",
                                (unsigned long long)r->now);
    if (n < sizeof buf) describe_all(r, buf, sizeof buf, n);
    snprintf(r->msg, sizeof r->msg, "%s", buf);
    r->status = WS_ST_DEADLOCK;
}
