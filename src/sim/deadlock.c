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
    char buf[WS_ERROR_LEN];
    size_t n = (size_t)snprintf(buf, sizeof buf, "deadlock at cycle %llu: every live thread is blocked:",
                                (unsigned long long)r->now);
    if (n < sizeof buf) describe_all(r, buf, sizeof buf, n);
    snprintf(r->msg, sizeof r->msg, "%s", buf);
    r->status = WS_ST_DEADLOCK;
}
