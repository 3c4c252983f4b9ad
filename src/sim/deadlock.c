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
 *    P / gcd(P, stride) checks.  That is P checks for an odd P, and the
 *    stride has grown to ~16 P^2 back-edges by then: a period of 4345
 *    back-edges (a per-bucket spin lock under the stack with the oldest
 *    scheduler at warp_size 16) was never found in 20M cycles.  A second
 *    search therefore checks at *distinguished* back-edges, which recur with
 *    the period whatever its length: the last WS_LL_WINDOW back-edges of the
 *    chip (core, warp, pc, lanes, cycles since the previous back-edge) have
 *    a rolling hash, and a back-edge is distinguished when that hash has
 *    `bits` low zero bits.  In a periodic run the window, hence the choice,
 *    repeats every P back-edges, so the distinguished states form a periodic
 *    sequence of about P / 2^bits per period, on which Brent's search runs
 *    with no stride (bits, from 4, grows by two at each replacement: phase
 *    k spans 2^k checks at 1 in 2^(4+2k) back-edges, about 2 (E / 16)^(1/3)
 *    hashes in E back-edges, as the first search; growing by one cost
 *    2 sqrt(E / 16), a tenth of a read-only kernel's simulation.  A period
 *    is found in the first phase with 2^(3k+4) >= P beyond the pre-period,
 *    with P / 2^(4+2k) >= 2^(k-3) distinguished back-edges in it).  A period
 *    with no distinguished window under the current bits would stall this
 *    search for ever: after 8 x 2^bits back-edges without one, the selection
 *    changes (dp_backedge: a new salt).  A short period whose
 *    few windows are none distinguished at 4 bits is the first search's.
 *
 *  - starvation: either proof, when some live warp could make progress but
 *    the policy never lets it issue, is the scheduler's fault, not the
 *    program's: status WS_ST_STARVED, naming the policy and the starved
 *    warps.  A warp could make progress if it is not parked at a CTA barrier
 *    and its last attempt found a split not waiting for a CTA barrier or a
 *    warp-level rendezvous (cached wake != WS_NEVER; a warp never tried has
 *    wake 0).  In a livelock the starved warps are those that did not issue
 *    once in the whole recurring period (swl's window, two_level's active
 *    set, or strict priority with the issue slots always taken), and those
 *    with a split at a load the policy holds (ccws, daws) whose lanes did not
 *    issue once in it while the warp's other splits did (split_starved); in a
 *    deadlock (nothing can ever issue) those the policy does not offer at all
 *    (ops->eligible).
 */
#include <string.h>
#include <stdio.h>
#include "core_internal.h"
#include "warpsweep/passes.h"

/* ---------------------------------------------- relevant registers -- */
static int is_rel(const ws_simrun *r, uint32_t q) { return q < r->nregs && (r->ll_relevant[q / 64] >> (q % 64) & 1); }

/* Registers named by an operand: a register, a vector's elements, or (addr =
 * 1) the base of an address. */
static int opnd_regs(const ws_operand *o, int addr, uint32_t *out)
{
    int n = 0;
    if (o->kind == WS_OK_REG && !addr) out[n++] = o->reg;
    else if (o->kind == WS_OK_VEC && !addr)
        for (int i = 0; i < o->nvec; i++) { if (o->vec[i] != WS_NO_REG) out[n++] = o->vec[i]; }
    else if (o->kind == WS_OK_ADDR && addr && o->reg != WS_NO_REG) out[n++] = o->reg;
    return n;
}

/* The registers whose value can matter (ws_reg_relevance, src/ptx/relevance.c):
 * the livelock proof with changing memory may ignore the others. */
static void compute_relevance(ws_simrun *r)
{
    memset(r->ll_relevant, 0, ((size_t)r->nregs + 63) / 64 * 8);
    r->ll_nrelevant = ws_reg_relevance(r->k, r->ll_relevant);
}

/* Do the cores evolve independently while memory holds still?  They then
 * interact only through memory values and shared timing state.  Per core:
 * schedulers, warps, CTA slots, the L1 (src/mem/hier.c keeps one per core);
 * fixed-latency DRAM (dram_bw = 0) keeps no state; the DRAM channel with a
 * bandwidth limit is one FIFO queue shared by every core (src/mem/dram.c):
 * its timing couples them. */
static int per_core_independent(const ws_simrun *r)
{
    return ws_cfg_f(r->cfg, WS_P_dram_bw) == 0;
}

void ws_livelock_reset(ws_simrun *r)
{
    r->ll_events = 0;
    r->ll_stride = 16;
    r->ll_next = r->ll_stride;
    r->ll_power = 1;
    r->ll_count = 0;
    r->ll_saved = 0;
    memset(&r->llw, 0, sizeof r->llw);
    r->llw.every = 1;
    r->llw.power = 1;
    r->ll_watching = 0;
    memset(&r->lld, 0, sizeof r->lld);
    r->lld.power = 1;
    r->lld.bits = 4;
    r->lld.exits = r->exits_total;
    r->lld.mem = r->env.mem_changes;
    r->ll_per_core = r->ncores > 1 && per_core_independent(r);
    r->ll_epoch = 0;
    r->ll_ep_exits = r->exits_total;
    r->ll_ep_mem = r->env.mem_changes;
    for (uint32_t ci = 0; ci < r->ncores; ci++) {
        ws_llcore *x = r->cores[ci].ll;
        memset(x, 0, sizeof *x);
        x->stride = 16;
        x->next = x->stride;
        x->power = 1;
    }
    compute_relevance(r);
}

static uint64_t rel(uint64_t t, uint64_t now) { return t > now ? t - now : 0; }

/* Core ci's part of the state (its schedulers, CTA slots and warps). */
/* The structural state (pipe.c) the future depends on: when units, the LD/ST
 * pipe, collectors, register banks and fetch ports free, relative to now. */
static uint64_t pipe_hash(const ws_simrun *r, const ws_core *c, uint64_t h)
{
    uint64_t now = r->now;
    for (uint32_t s = 0; s < r->nsched; s++) {
        const ws_pipe *p = &c->pipes[s];
        for (int u = 0; u < WS_NUNITS; u++) h = ws_hmix(ws_hmix(h, rel(p->unit_free[u], now)), rel(p->unit_busy[u], now));
        for (uint32_t k = 0; k < r->ncoll; k++) h = ws_hmix(h, rel(p->coll_free[k], now));
        if (r->ncoll)
            for (uint32_t b = 0; b < r->rf_banks; b++)
                h = ws_hmix(h, p->bank_cycle[b] >= now ? (p->bank_cycle[b] - now) << 8 | p->bank_used[b] : 0);
    }
    h = ws_hmix(h, rel(c->lsu_free, now));
    if (r->ibuf)
        for (uint32_t k = 0; k < r->fetch_width; k++) h = ws_hmix(h, rel(c->fetch_free[k], now));
    return h;
}

/* What core_hash covers: everything (HASH_ALL); without the registers that
 * cannot matter (HASH_RELEVANT, compute_relevance); or a sketch, every
 * register of only the first live lane of each warp (HASH_SKETCH): equal
 * states have equal sketches, so a differing sketch rules a match out at a
 * 1/lanes of the cost (dp_check: a loop counter differs in every lane). */
enum { HASH_ALL = 0, HASH_RELEVANT = 1, HASH_SKETCH = 2 };

/* One register row's lanes as one word: sum of value x key[lane] (mod 2^64,
 * odd keys drawn from the running hash, so the two hashes of a check use
 * independent keys). A single differing lane always changes the sum; the
 * row word then goes through ws_hmix as every other field. About 3 host
 * instructions per value instead of ws_hmix's 8 in a serial chain: the
 * hashes of a check cover every register of every live lane. */
static uint64_t row_hash(const uint64_t *v, uint64_t lanes, const uint64_t *key)
{
    uint64_t a = 0, b = 0;
    if (lanes == 0xffffffffull) {
        for (uint32_t l = 0; l < 32; l += 2) {
            a += v[l] * key[l];
            b += v[l + 1] * key[l + 1];
        }
        return a + b;
    }
    for (uint64_t m = lanes; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        a += v[l] * key[l];
    }
    return a;
}

static uint64_t core_hash(ws_simrun *r, uint32_t ci, uint64_t h, int only_rel)
{
    uint64_t now = r->now;
    uint64_t key[WS_MAX_WARP_SIZE];
    for (uint32_t l = 0; l < WS_MAX_WARP_SIZE; l++) key[l] = ws_hmix(h, l + 1) | 1;
    uint32_t used = r->ctas_per_core * r->warps_per_cta;
    ws_core *c = &r->cores[ci];
    for (uint32_t s = 0; s < r->nsched; s++) h = c->scheds[s].ops->hash(&c->scheds[s], h);
    h = pipe_hash(r, c, h);
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
        if (only_rel == HASH_SKETCH) lanes &= 0 - lanes;   /* the first live lane */
        for (uint64_t m = lanes; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctzll(m);
            h = ws_hmix(h, ((uint64_t)w->fw.cc[l] << 8) | (w->held >> l & 1 ? w->held_bar[l] : 0));
            h = w->lanes_flat ? ws_hmix(h, rel(w->flat_ready, now) << 1 | w->flat_mem)
                              : ws_hmix(h, rel(w->lane_ready[l], now) << 1 | w->lane_mem[l]);
        }
        for (uint32_t q = 0; q < r->nregs && lanes; q++)
            if (only_rel != HASH_RELEVANT || is_rel(r, q)) h = ws_hmix(h, row_hash(ws_reg_lanes(&w->fw, q, r->ws), lanes, key));
        h = ws_hmix(h, rel(w->busy_until, now));
        if (r->ibuf) h = ws_hmix(ws_hmix(h, ((uint64_t)w->ib_pc << 32) | w->ib_left), rel(w->ib_ready, now));
        h = ws_hmix(h, ((uint64_t)w->next_pc << 8) | w->last_unit);
        for (uint32_t q = 0; q < r->nregs; q++)
            if (w->sb_ready[q] > now) {
                h = ws_hmix(h, q);
                h = ws_hmix(h, w->sb_mask[q]);
                h = ws_hmix(h, (w->sb_ready[q] - now) << 1 | w->sb_mem[q]);
            }
    }
    return h;
}

/* only_rel: HASH_ALL, HASH_RELEVANT or HASH_SKETCH (core_hash). */
static uint64_t state_hash_sel(ws_simrun *r, uint64_t h, int only_rel)
{
    h = ws_hmix(h, r->next_cta);
    h = ws_hmix(h, r->done_ctas);
    for (uint32_t ci = 0; ci < r->ncores; ci++) h = core_hash(r, ci, h, only_rel);
    h = ws_hmix(h, rel(r->last_complete, r->now));
    return h;
}

static uint64_t state_hash(ws_simrun *r, uint64_t h) { return state_hash_sel(r, h, 0); }

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
    if (w->mbar_parked) {   /* issue.c mbarrier_timing */
        n += (size_t)snprintf(buf + n, len - n, "suspended in mbarrier.try_wait (no phase of its CTA's mbarriers can "
                              "complete); ");
        if (n >= len) return (int)len;
    }
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
    if (!w->live || w->wake == WS_NEVER || ws_core_parked_at_barrier(c, slot)) return 0;
    /* CTA scope (tbc): a warp slot hosting no running dynamic warp waits for
     * the CTA's block-wide stack, whatever its cached wake says */
    const ws_simrun *r = c->run;
    const ws_split *sps;
    uint32_t start;
    return !r->div->parts || r->div->splits(w->div, &sps, &start) > 0;
}

/* Is warp `slot` starved: able to progress, yet not issued since cycle `since`
 * (livelock: the start of the recurring period) or, with since = WS_NEVER,
 * not offered by the policy at all (deadlock)? */
#define SINCE_PER_CORE (WS_NEVER - 1)    /* each core's own recurring period */

/* Livelock: the lanes of a split of warp `slot` that wait at a load the
 * policy holds (may_issue_load: ccws, daws; it does not offer the warp's
 * loads now) and did not issue once since `since`, while other splits of the
 * warp did (a lock holder at its critical section's load while its warp's
 * spinners keep issuing): the policy starves them.  0 if none; *pc: where. */
static uint64_t split_starved(const ws_simrun *r, const ws_core *c, uint32_t slot, uint64_t since, uint32_t *pc)
{
    const ws_cwarp *w = &c->warps[slot];
    const ws_sched *s = &c->scheds[w->sched];
    if (!s->ops->eligible || s->ops->eligible(s, slot)) return 0;
    const ws_split *sps;
    uint32_t start;
    uint32_t ns = r->div->splits(w->div, &sps, &start);
    for (uint32_t i = 0; i < ns; i++) {
        if (sps[i].pc >= r->k->ninsts || !ws_core_load_gated(s, &r->k->insts[sps[i].pc])) continue;
        uint64_t lanes = sps[i].mask & ~w->held & ~w->exited, idle = lanes;
        for (uint64_t m = lanes; m; m &= m - 1)
            if (w->lane_issue[__builtin_ctzll(m)] > since) idle = 0;
        if (idle) {
            *pc = sps[i].pc;
            return idle;
        }
    }
    return 0;
}

static uint64_t since_for(const ws_core *c, uint64_t since)
{
    return since == SINCE_PER_CORE ? c->ll->from : since;
}

static int starved(ws_simrun *r, ws_core *c, uint32_t slot, uint64_t since)
{
    if (!could_progress(c, slot)) return 0;
    since = since_for(c, since);
    uint32_t pc;
    if (since != WS_NEVER) return c->warps[slot].last_issue <= since || split_starved(r, c, slot, since, &pc);
    const ws_sched *s = &c->scheds[c->warps[slot].sched];
    (void)r;
    return s->ops->eligible && !s->ops->eligible(s, slot);
}

/* Is warp `slot` starved only in one of its splits (split_starved)? */
static int split_only(ws_simrun *r, ws_core *c, uint32_t slot, uint64_t since)
{
    since = since_for(c, since);
    return since != WS_NEVER && c->warps[slot].last_issue > since && starved(r, c, slot, since);
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
            while (hi + 1 < used && starved(r, c, hi + 1, since) && !split_only(r, c, hi + 1, since)) hi++;
            if (split_only(r, c, wi, since)) hi = wi;
            const char *sep = count ? ", " : (hi > wi ? "s " : " ");
            if (r->ncores > 1) n += (size_t)snprintf(buf + n, len - n, "%score %u: ", sep, ci), sep = "";
            if (hi > wi) n += (size_t)snprintf(buf + n, len - n, "%s%u..%u", sep, wi, hi);
            else n += (size_t)snprintf(buf + n, len - n, "%s%u", sep, wi);
            uint32_t pc = 0;
            uint64_t lanes = split_only(r, c, wi, since) ? split_starved(r, c, wi, since_for(c, since), &pc) : 0;
            if (lanes && n + 1 < len)
                n += (size_t)snprintf(buf + n, len - n, " (lanes 0x%llx at the load at pc %u, line %u; its other "
                                      "splits issue)", (unsigned long long)lanes, pc, r->k->insts[pc].line);
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
/* A starvation no proof can show (the policy's state keeps changing, e.g.
 * ccws's scores): at a timeout, the live warps that could progress, issued
 * nothing in the second half of the run and are not offered by the policy now. */
static int withheld(ws_simrun *r, ws_core *c, uint32_t slot, uint64_t since)
{
    return could_progress(c, slot) && c->warps[slot].last_issue <= since && starved(r, c, slot, WS_NEVER);
}

void ws_starvation_hint(ws_simrun *r, char *buf, size_t len)
{
    uint32_t used = r->ctas_per_core * r->warps_per_cta, count = 0;
    uint64_t since = r->now / 2;
    size_t n = 0;
    buf[0] = 0;
    for (uint32_t ci = 0; ci < r->ncores && n + 1 < len; ci++) {
        ws_core *c = &r->cores[ci];
        for (uint32_t wi = 0; wi < used && n + 1 < len; wi++) {
            if (!withheld(r, c, wi, since)) continue;
            if (!count) {
                const char *lp = r->sched->limit_param;
                int id = lp ? ws_param_find(lp) : -1;
                n = id >= 0 ? (size_t)snprintf(buf, len, "; %s (%s=%lld) has not issued warp", r->sched->name, lp,
                                               (long long)ws_cfg_i(r->cfg, (ws_param_id)id))
                            : (size_t)snprintf(buf, len, "; %s has not issued warp", r->sched->name);
            }
            if (n + 1 >= len) break;
            if (r->ncores > 1) n += (size_t)snprintf(buf + n, len - n, "%score %u: %u", count ? ", " : " ", ci, wi);
            else n += (size_t)snprintf(buf + n, len - n, "%s%u", count ? ", " : " ", wi);
            count++;
        }
    }
    if (count && n + 1 < len)
        snprintf(buf + n, len - n, " since cycle %llu and does not offer %s now (scheduler starvation?)",
                 (unsigned long long)since, count > 1 ? "them" : "it");
}

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

/* ------------------------------------------ livelock, memory changing --
 * A loop whose memory changes every iteration (a retry counter) never
 * recurs exactly.  It still repeats forever if the state without the
 * irrelevant registers (compute_relevance) recurs after a period P with no
 * thread exiting and, during that period, no location that may hold a
 * different value (W: written with a changed value, by a red, or by a store
 * of an irrelevant register) is read into a register that matters (R: loads
 * and atomics with a relevant destination).  Then every instruction of the
 * next period reads the same relevant registers and the same values from
 * memory outside W, so it runs the same instructions at the same addresses,
 * and writes outside W only relevant values that did not change in the first
 * period; by induction the period repeats forever.  Locations are compared as
 * byte ranges per state space (shared and local offsets of different CTAs or
 * threads conflated, which can only forbid a proof).
 *
 * Search: at the checks where memory changed since the previous one, a second
 * Brent search over the relevant state finds a candidate period P; it is then
 * armed: the memory accesses of the next P back-edges are watched
 * (ws_livelock_watch, only then), and the proof needs the relevant state to
 * recur exactly P back-edges later. */
static int ranges_meet(const ws_llrange *a, const ws_llrange *b)
{
    return a->space == b->space && a->lo < b->hi && b->lo < a->hi;
}

static void range_add(ws_llwatch *x, ws_llrange *set, uint32_t *n, const ws_llrange *v,
                      const ws_llrange *other, uint32_t nother, int is_write)
{
    for (uint32_t i = 0; i < nother; i++)
        if (ranges_meet(v, &other[i]) && !x->conflict) {
            x->conflict = 1;
            x->cw = is_write ? *v : other[i];
            x->cr = is_write ? other[i] : *v;
        }
    for (uint32_t i = 0; i < *n; i++)          /* extend a touching range of the same space */
        if (set[i].space == v->space && v->lo <= set[i].hi && set[i].lo <= v->hi) {
            if (v->lo < set[i].lo) set[i].lo = v->lo;
            if (v->hi > set[i].hi) set[i].hi = v->hi;
            return;
        }
    if (*n == WS_LL_RANGES) { x->overflow = 1; return; }
    set[(*n)++] = *v;
}

static int dst_relevant(const ws_simrun *r, const ws_inst *in)
{
    uint32_t regs[8];
    for (int i = 0; i < in->ndst; i++) {
        int n = opnd_regs(&in->dst[i], 0, regs);
        for (int j = 0; j < n; j++)
            if (is_rel(r, regs[j])) return 1;
    }
    return 0;
}

static int value_relevant(const ws_simrun *r, const ws_inst *in)
{
    uint32_t regs[8];
    for (int i = 0; i < in->nsrc; i++) {
        int n = opnd_regs(&in->src[i], 0, regs);
        for (int j = 0; j < n; j++)
            if (is_rel(r, regs[j])) return 1;
    }
    return 0;
}

void ws_livelock_watch(ws_simrun *r, const ws_inst *in, uint32_t pc, const ws_effect *eff)
{
    ws_llwatch *x = &r->llw;
    int changed = r->env.mem_changes != x->seen_changes;
    x->seen_changes = r->env.mem_changes;
    if (changed && eff->mem_mask) {
        uint32_t l = (uint32_t)__builtin_ctzll(eff->mem_mask);
        x->last = (ws_llrange){eff->mem_addr[l], eff->mem_addr[l] + eff->mem_bytes, eff->mem_lane_space[l], pc};
        x->have_last = 1;
    }
    if (!x->armed || x->conflict || x->overflow) return;
    int writes = 0, reads = 0;
    const unsigned f = ws_opcode_flags(in->op);   /* isa.def's access flags */
    if (f & WS_OPF_LOAD) reads = dst_relevant(r, in);
    else if (f & WS_OPF_STORE) writes = changed || !value_relevant(r, in);
    else if (f & WS_OPF_REDUCE) writes = 1;
    else if (f & WS_OPF_ATOMIC) { reads = dst_relevant(r, in); writes = changed; }
    else { reads = 1; writes = changed; }   /* anything else touching memory: assume both */
    for (uint64_t m = eff->mem_mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctzll(m);
        uint8_t sp = eff->mem_lane_space[l];
        if (sp == WS_SP_PARAM || sp == WS_SP_CONST) continue;   /* read-only */
        ws_llrange v = {eff->mem_addr[l], eff->mem_addr[l] + (eff->mem_bytes ? eff->mem_bytes : 1), sp, pc};
        if (writes) range_add(x, x->w, &x->nw, &v, x->rd, x->nr, 1);
        if (reads) range_add(x, x->rd, &x->nr, &v, x->w, x->nw, 0);
    }
}

static const char *space_name(uint8_t sp)
{
    switch (sp) {
    case WS_SP_GLOBAL: return "global";
    case WS_SP_SHARED: return "shared";
    case WS_SP_LOCAL: return "local";
    default: return "memory";
    }
}

static uint32_t pc_line(const ws_simrun *r, uint32_t pc) { return pc < r->k->ninsts ? r->k->insts[pc].line : 0; }

const char *ws_livelock_why(ws_simrun *r)
{
    ws_llwatch *x = &r->llw;
    if (!x->why[0] && x->have_last && r->ll_watching)
        snprintf(x->why, sizeof x->why,
                 "; no livelock proof: memory changes between checks (last at 0x%llx %s, pc %u line %u) and the "
                 "state that steers control flow and addresses never recurred",
                 (unsigned long long)x->last.lo, space_name(x->last.space), x->last.pc, pc_line(r, x->last.pc));
    return x->why;
}

static void disarm(ws_simrun *r, const char *why)
{
    ws_llwatch *x = &r->llw;
    if (why) snprintf(x->why, sizeof x->why, "; no livelock proof: %s", why);
    x->armed = 0;
    x->saved = 0;
    x->cooldown = 4;
    x->every *= 2;     /* fewer candidates from here on */
}

static void watch_save(ws_simrun *r, uint64_t h1)
{
    ws_llwatch *x = &r->llw;
    x->saved = 1;
    x->h1 = h1;
    x->h2 = state_hash_sel(r, 0x13198a2e03707344ull, 1);
    x->events = r->ll_events;
    x->count = 0;
}

static void arm(ws_simrun *r, uint64_t h1, uint64_t h2)
{
    ws_llwatch *x = &r->llw;
    x->armed = 1;
    x->conflict = x->overflow = 0;
    x->nw = x->nr = 0;
    x->arm_h1 = h1;
    x->arm_h2 = h2;
    x->arm_period = r->ll_events - x->events;
    x->arm_events = r->ll_events;
    x->arm_cycle = r->now;
    x->seen_changes = r->env.mem_changes;
}

static int prove_changing(ws_simrun *r)
{
    ws_llwatch *x = &r->llw;
    char what[WS_ERROR_LEN];
    int n = snprintf(what, sizeof what,
                     "the state at cycle %llu recurs at cycle %llu with no thread exiting, ignoring the %u register(s) "
                     "whose values never steer control flow or addresses, and memory changing only where no "
                     "instruction reads it into a register that does (%u range(s), e.g. 0x%llx..0x%llx %s written "
                     "by pc %u line %u)",
                     (unsigned long long)x->arm_cycle, (unsigned long long)r->now, r->nregs - r->ll_nrelevant, x->nw,
                     x->nw ? (unsigned long long)x->w[0].lo : 0ull, x->nw ? (unsigned long long)x->w[0].hi : 0ull,
                     x->nw ? space_name(x->w[0].space) : "-", x->nw ? x->w[0].pc : 0, x->nw ? pc_line(r, x->w[0].pc) : 0);
    (void)n;
    if (starvation_report(r, x->arm_cycle, what)) return 1;
    char buf[WS_ERROR_LEN];
    size_t m = (size_t)snprintf(buf, sizeof buf, "livelock: %s; looping/waiting:", what);
    if (m < sizeof buf) describe_all(r, buf, sizeof buf, m);
    snprintf(r->msg, sizeof r->msg, "%s", buf);
    r->status = WS_ST_DEADLOCK;
    return 1;
}

static int armed_check(ws_simrun *r)
{
    ws_llwatch *x = &r->llw;
    if (r->ll_events < x->arm_events + x->arm_period) return 0;
    uint64_t h1 = state_hash_sel(r, 0x243f6a8885a308d3ull, 1);
    int same = r->ll_events == x->arm_events + x->arm_period && h1 == x->arm_h1 &&
               state_hash_sel(r, 0x13198a2e03707344ull, 1) == x->arm_h2;
    if (same && !x->conflict && !x->overflow) return prove_changing(r);
    char why[200];
    if (x->conflict)
        snprintf(why, sizeof why, "memory at 0x%llx (%s) changes in the loop (pc %u line %u) and is read by pc %u "
                 "(line %u) into a register that steers control flow, an address or another thread",
                 (unsigned long long)x->cw.lo, space_name(x->cw.space), x->cw.pc, pc_line(r, x->cw.pc), x->cr.pc,
                 pc_line(r, x->cr.pc));
    else if (x->overflow)
        snprintf(why, sizeof why, "more than %d separate memory ranges change in the loop", WS_LL_RANGES);
    else
        snprintf(why, sizeof why, "memory changes every iteration and the state without it did not recur");
    disarm(r, why);
    return 0;
}

/* A check at which memory changed since the previous one. */
static int changing_check(ws_simrun *r)
{
    ws_llwatch *x = &r->llw;
    r->ll_watching = 1;                      /* note where memory changes (why) */
    if (x->cooldown) { x->cooldown--; return 0; }
    if (++x->checks % x->every) return 0;
    uint64_t h1 = state_hash_sel(r, 0x243f6a8885a308d3ull, 1);
    if (!x->saved) { watch_save(r, h1); return 0; }
    if (h1 == x->h1) {
        uint64_t h2 = state_hash_sel(r, 0x13198a2e03707344ull, 1);
        if (h2 == x->h2) { arm(r, h1, h2); return 0; }
    }
    if (++x->count >= x->power) {            /* Brent, sampling ever fewer checks */
        watch_save(r, h1);
        x->power *= 2;
        if (x->every < ((uint64_t)1 << 40)) x->every *= 4;
    }
    return 0;
}

/* The whole state at cycle `from` recurs now, no thread exited and no
 * memory changed in between: the proof (status and message set). */
static int exact_recurrence(ws_simrun *r, uint64_t from)
{
    char what[96];
    snprintf(what, sizeof what, "the state at cycle %llu recurs exactly at cycle %llu; looping/waiting",
             (unsigned long long)from, (unsigned long long)r->now);
    if (starvation_report(r, from, what)) return 1;
    char buf[WS_ERROR_LEN];
    size_t n = (size_t)snprintf(buf, sizeof buf,
                                "livelock: the state at cycle %llu recurs exactly at cycle %llu with no thread "
                                "exiting and memory unchanged; looping/waiting:",
                                (unsigned long long)from, (unsigned long long)r->now);
    if (n < sizeof buf) describe_all(r, buf, sizeof buf, n);
    snprintf(r->msg, sizeof r->msg, "%s", buf);
    r->status = WS_ST_DEADLOCK;
    return 1;
}

/* ------------------------------------- distinguished back-edges -- */
#define LL_ROLL 0x9e3779b97f4a7c15ull   /* the rolling hash's multiplier (odd) */

/* Adds a back-edge's key to the window; returns its rolling hash,
 * sum of key[i] * LL_ROLL^age (mod 2^64) over the window. */
static uint64_t window_push(ws_lldp *d, uint64_t key)
{
    uint64_t top = 1;                          /* LL_ROLL^(WS_LL_WINDOW - 1) */
    for (int i = 1; i < WS_LL_WINDOW; i++) top *= LL_ROLL;
    uint64_t old = d->key[d->pos];
    d->key[d->pos] = key;
    d->pos = (d->pos + 1) % WS_LL_WINDOW;
    d->win = (d->win - old * top) * LL_ROLL + key;
    return d->win;
}

/* The saved state is kept as its sketch only (HASH_SKETCH, 1/lanes of a
 * full hash): saves follow every exit or memory change, which come often.
 * The full hashes are taken at the first later state with the same sketch,
 * which then stands for the saved one: a state that recurs does so again
 * one period later, when the full hashes compare. */
static void dp_save(ws_simrun *r, uint64_t sketch)
{
    ws_lldp *d = &r->lld;
    d->saved = 1;
    d->full = 0;
    d->sketch = sketch;
    d->cycle = r->now;
    d->count = 0;
}

/* At a distinguished back-edge. Hashes only when no thread exited and no
 * memory changed since the previous distinguished back-edge (a saved state
 * is then still comparable); otherwise notes the counters, as chip_check. */
static int dp_check(ws_simrun *r)
{
    ws_lldp *d = &r->lld;
    if (d->exits != r->exits_total || d->mem != r->env.mem_changes) {
        d->exits = r->exits_total;
        d->mem = r->env.mem_changes;
        d->saved = 0;
        return 0;
    }
    uint64_t sketch = state_hash_sel(r, 0x452821e638d01377ull, HASH_SKETCH);
    if (!d->saved) {
        dp_save(r, sketch);
        return 0;
    }
    if (sketch == d->sketch) {
        uint64_t h1 = state_hash(r, 0x243f6a8885a308d3ull), h2 = state_hash(r, 0x13198a2e03707344ull);
        if (d->full && h1 == d->h1 && h2 == d->h2) return exact_recurrence(r, d->cycle);
        d->full = 1;                         /* this state now stands for the saved one */
        d->h1 = h1;
        d->h2 = h2;
        d->cycle = r->now;
    }
    if (++d->count >= d->power) {            /* Brent; fewer distinguished back-edges from here on */
        d->power *= 2;
        if (d->bits < 40) d->bits += 2;
        d->saved = 0;   /* saved at the next one: this one may not be distinguished under the new bits */
    }
    return 0;
}

/* Every back-edge: its key into the window, a check if distinguished.
 * A periodic run has only the P windows of its period, and none of them may
 * be distinguished under the current bits and salt (probability about
 * (1 - 2^-bits)^P: a per-bucket lock under tbc with P = 151 back-edges had
 * none at bits 8 and was never proven). A sequence that is not periodic
 * goes 8 x 2^bits back-edges without a distinguished one with probability
 * e^-8; when that happens the selection changes to a new salt at the same
 * bits (each salt another chance, about 1 - e^(-P / 2^bits), that the period
 * has one), and the saved state, chosen under the old selection, is dropped.
 * The bits stay: lowering them made a loop whose back-edge timing repeats
 * while its registers do not (bench_callgrind's ALU kernel) hash every few
 * back-edges, 1.8x its host instructions. */
static int dp_backedge(ws_simrun *r, ws_core *c, uint32_t slot, uint32_t pc, uint64_t mask)
{
    ws_lldp *d = &r->lld;
    uint64_t key = ws_hmix(ws_hmix(ws_hmix(((uint64_t)c->id << 32) | slot, pc), mask), r->now - d->last_be);
    d->last_be = r->now;
    uint64_t w = ws_hmix(d->salt, window_push(d, key));
    if (w & (((uint64_t)1 << d->bits) - 1)) {
        if (++d->since > ((uint64_t)8 << d->bits)) {
            d->salt = ws_hmix(d->salt + 1, d->since);
            d->since = 0;
            d->saved = 0;
        }
        return 0;
    }
    d->since = 0;
    return dp_check(r);
}

/* The chip-wide search, every ll_stride back-edges of the chip. */
static int chip_check(ws_simrun *r)
{
    if (r->ll_exits != r->exits_total) {          /* threads exit: nothing to prove */
        r->llw.armed = 0;
        r->llw.saved = 0;
        r->llw.why[0] = 0;
        r->ll_watching = 0;
    } else if (r->llw.armed) {
        r->ll_mem_changes = r->env.mem_changes;
        r->ll_saved = 0;
        return armed_check(r);
    } else if (r->ll_mem_changes != r->env.mem_changes) {
        r->ll_mem_changes = r->env.mem_changes;
        r->ll_saved = 0;
        return changing_check(r);
    } else {
        r->ll_watching = 0;
        r->llw.why[0] = 0;
    }
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
    /* A chip state that recurs is every core's state recurring: the per-core
     * search, when on, finds what this one would, hashing 1/ncores as much. */
    if (r->ll_per_core) return 0;
    uint64_t h1 = state_hash(r, 0x243f6a8885a308d3ull);
    if (!r->ll_saved) {
        livelock_save(r, h1);
        return 0;
    }
    if (h1 == r->ll_h1 && state_hash(r, 0x13198a2e03707344ull) == r->ll_h2) return exact_recurrence(r, r->ll_cycle);
    /* Brent: replace the saved state after 1, 2, 4, ... checks, widening the
     * stride.  Checks are counted from here (ws_livelock_backedge), so the
     * saved state stays aligned with the later ones: at multiples of the
     * stride, a state saved at a multiple of s but not of 4s could never be
     * matched at multiples of 4s when the period is one. */
    if (++r->ll_count >= r->ll_power) {
        livelock_save(r, h1);
        r->ll_power *= 2;
        if (r->ll_stride < ((uint64_t)1 << 40)) r->ll_stride *= 4;
    }
    return 0;
}

/* ------------------------------------------------ livelock, per core --
 * With several cores the chip's state recurs only after the least common
 * multiple of the cores' periods, and a sampled search needs about
 * P / gcd(P, stride) checks for a period of P back-edges: with periods of 4
 * and 8 back-edges that are 408 and 416 cycles long, P = 616 = 8 x 77, and
 * 77 checks at every stride come only at the 8th level, after ~10^9 cycles.
 * When the cores evolve independently (per_core_independent), a core's next
 * state depends only on its own state and on memory; memory is identical
 * while env.mem_changes stays (see above).  So if, inside one window in
 * which no thread exits anywhere and no memory changes, every core's state
 * recurs (core c: from its state at cycle a_c to the same at b_c), then by
 * induction on time each core repeats [a_c, b_c) forever: every step it
 * takes is one it took in that window, which changed no memory and exited
 * no thread, so memory and the other cores' premises stay.  The chip is in
 * a product cycle.  A core with no live warp, or whose live warps all wait
 * for a rendezvous only that core could complete (wake WS_NEVER), does not
 * change at all.  Event skipping is exact (docs/model.md), so the cycles
 * another core makes the loop visit change nothing.  Each core runs its own
 * Brent search over its own state at its own back-edges. */
static int core_settled(const ws_simrun *r, const ws_core *c)
{
    if (c->ll->proven_epoch == r->ll_epoch + 1 || !c->live_ctas) return 1;
    uint32_t used = r->ctas_per_core * r->warps_per_cta;
    for (uint32_t wi = 0; wi < used; wi++)
        if (c->warps[wi].live && c->warps[wi].wake != WS_NEVER) return 0;
    return 1;
}

static int per_core_report(ws_simrun *r)
{
    char what[WS_ERROR_LEN];
    size_t n = (size_t)snprintf(what, sizeof what, "every core's state recurs exactly (");
    for (uint32_t ci = 0; ci < r->ncores && n + 1 < sizeof what; ci++) {
        const ws_llcore *x = r->cores[ci].ll;
        const char *sep = ci ? ", " : "";
        if (x->proven_epoch == r->ll_epoch + 1)
            n += (size_t)snprintf(what + n, sizeof what - n, "%score %u: cycle %llu again at cycle %llu", sep, ci,
                                  (unsigned long long)x->from, (unsigned long long)x->to);
        else
            n += (size_t)snprintf(what + n, sizeof what - n, "%score %u: %s", sep, ci,
                                  r->cores[ci].live_ctas ? "blocked" : "no live warp");
    }
    if (n + 1 < sizeof what)
        snprintf(what + n, sizeof what - n, ") with no thread exiting and memory unchanged; looping/waiting");
    if (starvation_report(r, SINCE_PER_CORE, what)) return 1;
    char buf[WS_ERROR_LEN];
    size_t m = (size_t)snprintf(buf, sizeof buf, "livelock: %s:", what);
    if (m < sizeof buf) describe_all(r, buf, sizeof buf, m);
    snprintf(r->msg, sizeof r->msg, "%s", buf);
    r->status = WS_ST_DEADLOCK;
    return 1;
}

static void core_save(ws_simrun *r, ws_core *c, uint64_t h1)
{
    ws_llcore *x = c->ll;
    x->saved = 1;
    x->h1 = h1;
    x->h2 = core_hash(r, c->id, 0x13198a2e03707344ull, 0);
    x->cycle = r->now;
    x->count = 0;
}

/* Every stride back-edges of core c. */
static int per_core_check(ws_simrun *r, ws_core *c)
{
    ws_llcore *x = c->ll;
    if (r->ll_ep_exits != r->exits_total || r->ll_ep_mem != r->env.mem_changes) {
        r->ll_epoch++;                       /* a new window: every saved state and proof is void */
        r->ll_ep_exits = r->exits_total;
        r->ll_ep_mem = r->env.mem_changes;
        return 0;
    }
    if (x->proven_epoch == r->ll_epoch + 1) return 0;
    if (x->epoch != r->ll_epoch) {           /* a window that began since this core's last check: */
        x->epoch = r->ll_epoch;              /* save at the next check if it lasts (short windows, */
        x->saved = 0;                        /* exits every few back-edges, then cost no hashing) */
        return 0;
    }
    uint64_t h1 = core_hash(r, c->id, 0x243f6a8885a308d3ull, 0);
    if (!x->saved) {
        core_save(r, c, h1);
        return 0;
    }
    if (h1 == x->h1 && core_hash(r, c->id, 0x13198a2e03707344ull, 0) == x->h2) {
        x->proven_epoch = r->ll_epoch + 1;
        x->from = x->cycle;
        x->to = r->now;
        for (uint32_t ci = 0; ci < r->ncores; ci++)
            if (!core_settled(r, &r->cores[ci])) return 0;
        return per_core_report(r);
    }
    if (++x->count >= x->power) {            /* Brent, as chip_check */
        core_save(r, c, h1);
        x->power *= 2;
        if (x->stride < ((uint64_t)1 << 40)) x->stride *= 4;
    }
    return 0;
}

/* The next check comes `stride` back-edges after this one (not at the next
 * multiple of the stride): every check after a save is a whole number of
 * strides from it.  A comparison, not a division, on the hot path. */
int ws_livelock_backedge(ws_simrun *r, ws_core *c, uint32_t slot, uint32_t pc, uint64_t mask)
{
    /* a bulk copy in flight will change an mbarrier (bulk.c): a recurring state proves nothing yet */
    if (r->bulk_next != WS_NEVER) return 0;
    if (dp_backedge(r, c, slot, pc, mask)) return 1;
    if (r->ll_per_core && ++c->ll->events == c->ll->next) {
        int proven = per_core_check(r, c);
        c->ll->next = c->ll->events + c->ll->stride;
        if (proven) return 1;
    }
    if (++r->ll_events != r->ll_next) return 0;
    int proven = chip_check(r);
    r->ll_next = r->ll_events + r->ll_stride;
    return proven;
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
