/*
 * multipath: Multi-Path IPDOM (ElTantawy, Ma, O'Connor, Aamodt, "A Scalable
 * Multi-Path Microarchitecture for Efficient GPU Control Flow", HPCA 2014),
 * on the untransformed kernel (reconvergence at each branch's IPDOM, the
 * ws_inst.ipdom the stack uses):
 *
 *  - a warp split table (ST): entries {PC, lanes, RT entry}; every entry is a
 *    schedulable split, so a split stalled on memory lets another issue
 *    ("splits scheduled on stalls"); tried round-robin in ST order after the
 *    split that issued last.
 *  - a reconvergence table (RT): entries {reconvergence PC R, its own outer
 *    entry, reconvergence mask (the lanes that diverged), pending mask (those
 *    not yet at R)}.
 *  - a divergent branch of split S (its entry E) with IPDOM R: when R is E's
 *    PC the groups stay in E (no new entry); otherwise a new RT entry
 *    {R, outer E, mask = pending = S's lanes} is made. S is replaced by one ST
 *    entry per group {next PC, lanes, the entry}; a group already at R has
 *    arrived (pending loses it).
 *  - a split reaching its entry's R leaves the ST (pending loses its lanes);
 *    pending empty: the RT entry goes and one ST entry {R, mask, outer} takes
 *    its place (reconvergence).
 *  - exited lanes leave every entry; an RT entry with nothing pending
 *    reconverges.
 *  - two splits of one RT entry at one PC are one split (they would issue
 *    the same instructions; AWARE's timeouts make such pairs).
 * The SIMT deadlock of the stack remains (a spin lock's winner waits at R for
 * the spinners: ElTantawy and Aamodt, MICRO 2016).
 *
 * aware (div_aware.c) is this with a timeout (ElTantawy and Aamodt, MICRO
 * 2016, AWARE): lanes that have waited at R for aware_timeout cycles go on
 * without the others (mp_release_timed).
 */
#include <string.h>
#include <stdio.h>
#include "div_mp.h"
#include "warpsweep/area.h"

#define NONE UINT32_MAX

static uint32_t cap_of(const ws_div_ctx *c) { return 2 * c->warp_size + 2; }

size_t mp_size(const ws_div_ctx *c)
{
    return sizeof(mpst) + cap_of(c) * (sizeof(ws_split) + sizeof(mp_rt));
}

static ws_split *st_of(mpst *s) { return (ws_split *)s->data; }
static mp_rt *rt_of(mpst *s) { return (mp_rt *)(st_of(s) + s->cap); }
static const ws_split *cst_of(const mpst *s) { return (const ws_split *)s->data; }
static const mp_rt *crt_of(const mpst *s) { return (const mp_rt *)(cst_of(s) + s->cap); }

void mp_init(const ws_div_ctx *c, void *st, uint64_t valid)
{
    mpst *s = st;
    memset(s, 0, mp_size(c));
    s->cap = cap_of(c);
    s->cursor = 0;
    ws_split *e = &st_of(s)[0];
    e->pc = 0;
    e->mask = valid;
    e->aux = NONE;
    s->nst = 1;
    s->max_splits = 1;
    for (uint32_t i = 0; i < s->cap; i++) rt_of(s)[i].used = 0;
}

uint32_t mp_splits(void *st, const ws_split **out, uint32_t *start)
{
    mpst *s = st;
    *out = st_of(s);
    *start = s->nst ? s->cursor % s->nst : 0;
    return s->nst;
}

static uint32_t rt_pc(const mpst *s, uint32_t rt) { return rt == NONE ? WS_PC_EXIT : crt_of(s)[rt].pc; }

static int add_split(mpst *s, uint32_t pc, uint64_t lanes, uint32_t rt, char *err, size_t errlen)
{
    if (!lanes) return 0;
    for (uint32_t i = 0; i < s->nst; i++)      /* same PC, same RT entry: one split */
        if (st_of(s)[i].pc == pc && st_of(s)[i].aux == rt) {
            st_of(s)[i].mask |= lanes;
            return 0;
        }
    if (s->nst >= s->cap) {
        snprintf(err, errlen, "warp split table overflow (%u entries) at pc %u", s->cap, pc);
        return -1;
    }
    ws_split *e = &st_of(s)[s->nst++];
    e->pc = pc;
    e->mask = lanes;
    e->aux = rt;
    if (s->nst > s->max_splits) s->max_splits = s->nst;
    return 0;
}

static void remove_split(mpst *s, uint32_t i)
{
    memmove(&st_of(s)[i], &st_of(s)[i + 1], (s->nst - i - 1) * sizeof(ws_split));
    s->nst--;
}

/* Lanes `lanes` arrive at RT entry rt; an entry with nothing pending
 * reconverges into one split, which may arrive at the outer entry at once. */
static int arrive(mpst *s, uint32_t rt, uint64_t lanes, char *err, size_t errlen)
{
    while (rt != NONE) {
        mp_rt *e = &rt_of(s)[rt];
        e->pending &= ~lanes;
        if (e->pending || e->mask == 0) {
            if (!e->mask) { e->used = 0; s->nrt--; }
            return 0;
        }
        uint32_t pc = e->pc, outer = e->outer;
        uint64_t m = e->mask;
        e->used = 0;
        s->nrt--;
        if (pc != rt_pc(s, outer)) return add_split(s, pc, m, outer, err, errlen);
        rt = outer;                          /* reconverged right at the outer point */
        lanes = m;
    }
    return 0;
}

static uint32_t new_rt(mpst *s, uint32_t pc, uint32_t outer, uint64_t mask)
{
    for (uint32_t i = 0; i < s->cap; i++) {
        mp_rt *e = &rt_of(s)[i];
        if (e->used) continue;
        e->used = 1;
        e->pc = pc;
        e->outer = outer;
        e->mask = e->pending = mask;
        e->since = 0;
        s->nrt++;
        if (s->nrt > s->max_rt) s->max_rt = s->nrt;
        return i;
    }
    return NONE;
}

/* The split's lanes moved to pc (within entry rt): a split, or an arrival. */
static int place(mpst *s, uint32_t pc, uint64_t lanes, uint32_t rt, uint64_t now, char *err, size_t errlen)
{
    if (!lanes) return 0;
    if (pc == rt_pc(s, rt)) {
        if (rt != NONE && (rt_of(s)[rt].pending & ~lanes) && !rt_of(s)[rt].since) rt_of(s)[rt].since = now ? now : 1;
        return arrive(s, rt, lanes, err, errlen);
    }
    return add_split(s, pc, lanes, rt, err, errlen);
}

static void drop_exited(mpst *s, uint64_t gone)
{
    for (uint32_t i = 0; i < s->nst;) {
        st_of(s)[i].mask &= ~gone;
        if (!st_of(s)[i].mask) remove_split(s, i);
        else i++;
    }
    for (uint32_t i = 0; i < s->cap; i++)
        if (rt_of(s)[i].used) { rt_of(s)[i].mask &= ~gone; rt_of(s)[i].pending &= ~gone; }
}

/* RT entries with nothing pending (their last pending lanes exited). */
static int settle_exits(mpst *s, char *err, size_t errlen)
{
    for (int again = 1; again;) {
        again = 0;
        for (uint32_t i = 0; i < s->cap; i++) {
            mp_rt *e = &rt_of(s)[i];
            if (!e->used || e->pending) continue;
            if (arrive(s, i, 0, err, errlen) < 0) return -1;
            again = 1;
        }
    }
    return 0;
}

/* AWARE's timeout: lanes waiting at an RT entry for `timeout` cycles go on
 * from R without the pending ones, which reconverge among themselves later
 * (the entry keeps only them). */
static int release_timed(const ws_div_ctx *c, mpst *s, uint64_t now, char *err, size_t errlen)
{
    for (uint32_t i = 0; i < s->cap; i++) {
        mp_rt *e = &rt_of(s)[i];
        if (!e->used || !e->since || now < e->since + c->timeout) continue;
        uint64_t waiting = e->mask & ~e->pending;
        e->mask = e->pending;
        e->since = 0;
        s->timeouts++;
        if (waiting && add_split(s, e->pc, waiting, e->outer, err, errlen) < 0) return -1;
    }
    return 0;
}

int mp_update(const ws_div_ctx *c, void *st, const ws_split *sp, const ws_inst *in, const ws_effect *eff,
              char *err, size_t errlen)
{
    mpst *s = st;
    uint64_t now = c->now ? *c->now : 0;
    uint32_t i = 0;
    while (i < s->nst && !(st_of(s)[i].pc == sp->pc && (st_of(s)[i].mask & sp->mask))) i++;
    if (i == s->nst) return 0;
    ws_split e = st_of(s)[i];
    uint64_t active = sp->mask & ~eff->exited;
    uint64_t rest = e.mask & ~sp->mask;       /* lanes of the split that did not issue (held) */
    remove_split(s, i);
    s->cursor = i;                        /* round-robin: the split after it next */
    if (rest && add_split(s, e.pc, rest, e.aux, err, errlen) < 0) return -1;
    if (eff->exited) drop_exited(s, eff->exited);
    uint32_t pc = sp->pc;
    int rc = 0;
    if (active) {
        if (in->op != WS_OP_BRA && in->op != WS_OP_BRX) {
            rc = place(s, pc + 1, active, e.aux, now, err, errlen);
        } else {
            uint64_t taken = eff->taken & active, fall = active & ~taken;
            uint32_t rt = e.aux;
            int diverged = taken && fall && !(in->op == WS_OP_BRA && in->target == pc + 1);
            if (in->op == WS_OP_BRX && taken) {
                uint32_t t0 = eff->lane_target[__builtin_ctzll(taken)];
                for (uint64_t m = taken; m; m &= m - 1) if (eff->lane_target[__builtin_ctzll(m)] != t0) diverged = 1;
                if (fall) diverged = 1;
            }
            if (diverged && in->ipdom != rt_pc(s, rt)) {
                rt = new_rt(s, in->ipdom, e.aux, active);
                if (rt == NONE) {
                    snprintf(err, errlen, "reconvergence table overflow (%u entries) at pc %u (line %u)", s->cap, pc,
                             in->line);
                    return -1;
                }
            }
            rc = place(s, pc + 1, fall, rt, now, err, errlen);
            if (in->op == WS_OP_BRA) {
                if (!rc) rc = place(s, in->target, taken, rt, now, err, errlen);
            } else {
                while (!rc && taken) {
                    uint32_t t = eff->lane_target[__builtin_ctzll(taken)];
                    uint64_t g = 0;
                    for (uint64_t m = taken; m; m &= m - 1)
                        if (eff->lane_target[__builtin_ctzll(m)] == t) g |= 1ull << __builtin_ctzll(m);
                    rc = place(s, t, g, rt, now, err, errlen);
                    taken &= ~g;
                }
            }
        }
    }
    if (!rc && eff->exited) rc = settle_exits(s, err, errlen);
    if (!rc && c->timeout) rc = release_timed(c, s, now, err, errlen);
    return rc;
}

/* AWARE's timeout while the warp has nothing to issue (ws_div_ops.tick):
 * the entries whose timeout has run out release their waiting lanes, and
 * *next is the earliest running timeout's end. */
int mp_tick(const ws_div_ctx *c, void *st, uint64_t now, uint64_t *next, char *err, size_t errlen)
{
    mpst *s = st;
    uint32_t before = s->nst;
    uint64_t timeouts = s->timeouts;
    if (release_timed(c, s, now, err, errlen) < 0) return -1;
    *next = UINT64_MAX;
    for (uint32_t i = 0; i < s->cap; i++) {
        const mp_rt *e = &rt_of(s)[i];
        if (e->used && e->since && e->since + c->timeout < *next) *next = e->since + c->timeout;
    }
    return s->nst != before || s->timeouts != timeouts;
}

uint32_t mp_level(const void *st, uint32_t idx)
{
    (void)st;
    return idx;
}

void mp_stats(const void *st, uint32_t *depth, uint32_t *splits)
{
    const mpst *s = st;
    *depth = s->max_rt;
    *splits = s->max_splits;
}

/* Lanes waiting at an RT entry whose pending lanes are all held at a CTA
 * barrier: they go on only after those lanes move. */
uint64_t mp_parked(const ws_div_ctx *c, const void *st, uint64_t held)
{
    (void)c;
    const mpst *s = st;
    uint64_t parked = 0;
    for (uint32_t i = 0; i < s->cap; i++) {
        const mp_rt *e = &crt_of(s)[i];
        if (e->used && e->pending && !(e->pending & ~held)) parked |= e->mask & ~e->pending;
    }
    return parked;
}

uint64_t mp_hash(const ws_div_ctx *c, const void *st, uint64_t h)
{
    const mpst *s = st;
    uint64_t now = c->now ? *c->now : 0;
    h = ws_hmix(h, s->nst);
    h = ws_hmix(h, s->cursor);
    for (uint32_t i = 0; i < s->nst; i++) {
        h = ws_hmix(h, cst_of(s)[i].pc);
        h = ws_hmix(h, cst_of(s)[i].mask);
        h = ws_hmix(h, cst_of(s)[i].aux);
    }
    for (uint32_t i = 0; i < s->cap; i++) {
        const mp_rt *e = &crt_of(s)[i];
        if (!e->used) continue;
        h = ws_hmix(h, i);
        h = ws_hmix(h, e->pc);
        h = ws_hmix(h, e->outer);
        h = ws_hmix(h, e->mask);
        h = ws_hmix(h, e->pending);
        /* a running timeout makes the state differ until it fires */
        if (c->timeout && e->since) h = ws_hmix(h, now - e->since < c->timeout ? now - e->since : c->timeout);
    }
    return h;
}

static uint32_t line_of(const ws_kernel *k, uint32_t pc) { return pc < k->ninsts ? k->insts[pc].line : 0; }

int mp_describe(const ws_div_ctx *c, const void *st, char *buf, size_t len)
{
    const mpst *s = st;
    size_t n = 0;
    /* lanes waiting at a reconvergence point for lanes that never arrive */
    for (uint32_t i = 0; i < s->cap && n < len; i++) {
        const mp_rt *e = &crt_of(s)[i];
        uint64_t at = e->mask & ~e->pending;
        if (!e->used || !at || !e->pending) continue;
        n += (size_t)snprintf(buf + n, len - n, "%sSIMT deadlock: lanes 0x%llx wait at reconvergence point pc %u "
                              "(line %u) for lanes 0x%llx", n ? "; " : "", (unsigned long long)at, e->pc,
                              line_of(c->k, e->pc), (unsigned long long)e->pending);
    }
    for (uint32_t i = 0; i < s->nst && n < len; i++) {
        const ws_split *e = &cst_of(s)[i];
        uint32_t r = rt_pc(s, e->aux);
        char rpc[32];
        if (r == WS_PC_EXIT) snprintf(rpc, sizeof rpc, "exit");
        else snprintf(rpc, sizeof rpc, "%u", r);
        n += (size_t)snprintf(buf + n, len - n, "%ssplit pc %u (line %u) rpc %s lanes 0x%llx", n ? "; " : "", e->pc,
                              line_of(c->k, e->pc), rpc, (unsigned long long)e->mask);
    }
    return (int)n;
}

/* area.stack_entries entries in each table (the stack's budget):
 * ST {PC, mask, RT index (6 bits)} + RT {PC, outer index, 2 masks} */
uint64_t mp_state_bits(const ws_config *cfg)
{
    uint64_t ws = (uint64_t)ws_cfg_i(cfg, WS_P_warp_size);
    uint64_t pc = ws_area_count(cfg, WS_P_area_pc_bits);
    uint64_t n = ws_area_count(cfg, WS_P_area_stack_entries);
    return n * (pc + ws + 6) + n * (pc + 6 + 2 * ws);
}

const ws_div_ops ws_div_multipath = {
    .name = "multipath",
    .at_branch = "one split-table entry per path, a reconvergence-table entry at its IPDOM (// reconverge: N); any split issues",
    .per_lane_blocking = 1,
    .warp_sync_waits = 1,
    .state_size = mp_size,
    .init = mp_init,
    .splits = mp_splits,
    .update = mp_update,
    .level = mp_level,
    .stats = mp_stats,
    .hash = mp_hash,
    .parked = mp_parked,
    .describe = mp_describe,
    .state_bits = mp_state_bits,
};
