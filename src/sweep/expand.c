/* Lazy expansion: point index -> configuration, without ever listing the
 * points.
 *
 * Axes form a mixed-radix number (axis 0 = workload slowest, grid axes in
 * file order, zip entries in file order, the repeat/seed axis fastest): raw
 * index r has digit d_k on axis k with r = sum d_k * prod_{j>k} n_j.
 *
 * Excludes: entry e accepts, per axis, either any digit or a set of digits;
 * a raw point is excluded when some entry accepts all its digits. The
 * number of surviving completions of a prefix is computed by count_from(k,
 * alive): `alive` is the set of entries that accept every digit chosen so
 * far. If an alive entry has no constrained axis >= k the prefix is
 * excluded (0); if none is alive, every completion survives (product of the
 * remaining sizes); otherwise the digits of axis k are grouped by the set of
 * entries that stay alive, and each group recurses once. This is exact,
 * never enumerates points, and costs O(sum of axis sizes x distinct alive
 * sets), independent of the number of points: a 10^12-point count is
 * instant. rank(raw) sums count_from over the digits below raw's digits;
 * unrank(k) walks the axes choosing the digit whose cumulative count
 * covers k, so point k maps to its raw index in O(sum of axis sizes)
 * count_from calls at worst, with no enumeration.
 *
 * Different prefixes often leave the same alive set at the same axis; without
 * a memo their subtrees would be recounted, which is exponential in the number
 * of axes (19 axes, 57 excludes: seconds; 21: minutes). count_from therefore
 * remembers each (axis, alive) result while the sweep is prepared; rank and
 * unrank only ever meet states the full count visited, so afterwards the memo
 * is read-only and the threads share it. Before a lookup the alive set drops
 * every entry whose remaining box lies inside another alive entry's (the
 * union, hence the count, is the same), so more prefixes meet one state. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sweep_internal.h"

/* At most 2^20 slots (24 MiB), 2^19 states. Counting the points outside a
 * union of boxes is #P-hard in general, so some exclude lists need more; such
 * a sweep is refused (ws_sweep_prepare) rather than counted for minutes. */
#define MEMO_MAX_SLOTS ((size_t)1 << 20)

static size_t memo_index(const ws_count_memo *m, int k, uint64_t alive)
{
    uint64_t h = (alive ^ ((uint64_t)(uint32_t)k << 57) ^ (uint64_t)k) * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 17) & (m->cap - 1);
}

static int memo_find(const ws_count_memo *m, int k, uint64_t alive, uint64_t *count)
{
    if (!m->cap)
        return 0;
    for (size_t i = memo_index(m, k, alive);; i = (i + 1) & (m->cap - 1)) {
        const struct ws_count_slot *s = &m->slot[i];
        if (s->k < 0)
            return 0;
        if (s->k == k && s->alive == alive) {
            *count = s->count;
            return 1;
        }
    }
}

static void memo_put_slot(ws_count_memo *m, int k, uint64_t alive, uint64_t count)
{
    size_t i = memo_index(m, k, alive);
    while (m->slot[i].k >= 0)
        i = (i + 1) & (m->cap - 1);
    m->slot[i] = (struct ws_count_slot){alive, count, k};
    m->used++;
}

static void memo_put(ws_count_memo *m, int k, uint64_t alive, uint64_t count)
{
    if (!m->writable)
        return;
    if (2 * (m->used + 1) > m->cap) { /* keep the load under one half */
        size_t cap = m->cap ? 2 * m->cap : 1024;
        if (cap > MEMO_MAX_SLOTS) {
            m->overflow = 1;
            return;
        }
        struct ws_count_slot *old = m->slot;
        size_t oldcap = m->cap;
        m->slot = malloc(cap * sizeof *m->slot);
        if (!m->slot) {
            m->slot = old;
            return;
        }
        m->cap = cap;
        m->used = 0;
        for (size_t i = 0; i < cap; i++)
            m->slot[i].k = -1;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].k >= 0)
                memo_put_slot(m, old[i].k, old[i].alive, old[i].count);
        free(old);
    }
    memo_put_slot(m, k, alive, count);
}

static uint64_t count_from_uncached(const ws_sweep *sw, int k, uint64_t alive);

/* alive without the entries that another alive entry covers from axis k on */
static uint64_t drop_covered(const ws_sweep *sw, const ws_sweep_private *p, int k, uint64_t alive)
{
    uint64_t keep = alive;
    for (uint64_t rest = alive; rest; rest &= rest - 1) {
        int e = __builtin_ctzll(rest);
        if (p->dominated_by[(size_t)k * (size_t)sw->nexcludes + (size_t)e] & alive)
            keep &= ~(1ull << e);
    }
    return keep;
}

static uint64_t count_from(const ws_sweep *sw, int k, uint64_t alive)
{
    ws_sweep_private *p = ws_sweep_priv(sw);
    if (alive & p->ended[k])
        return 0;
    if (!alive)
        return p->suffix[k];
    alive = drop_covered(sw, p, k, alive);
    uint64_t c;
    if (memo_find(&p->memo, k, alive, &c))
        return c;
    if (p->memo.overflow)
        return 0; /* the count is abandoned: unwind at once */
    c = count_from_uncached(sw, k, alive);
    memo_put(&p->memo, k, alive, c);
    return c;
}

static uint64_t count_from_uncached(const ws_sweep *sw, int k, uint64_t alive)
{
    const ws_sweep_private *p = ws_sweep_priv(sw);
    /* k < naxes here: every alive entry has a constrained axis >= k */
    const ws_axis *a = &sw->axes[k];
    if (!(alive & p->constrained[k]))
        return a->n * count_from(sw, k + 1, alive);
    enum { NG = 64 };
    uint64_t masks[NG], mult[NG];
    int ng = 0;
    uint64_t total = 0;
    for (uint64_t d = 0; d < a->n; d++) {
        uint64_t m = alive & ~p->reject[k][d];
        int g;
        for (g = 0; g < ng && masks[g] != m; g++)
            ;
        if (g == ng) {
            if (ng == NG) { /* too many distinct sets: recurse directly */
                total += count_from(sw, k + 1, m);
                continue;
            }
            masks[ng] = m;
            mult[ng++] = 0;
        }
        mult[g]++;
    }
    for (int g = 0; g < ng; g++)
        total += mult[g] * count_from(sw, k + 1, masks[g]);
    return total;
}

/* entry a's digits include entry b's on every axis from k on */
static int box_contains(const ws_sweep *sw, int a, int b, int k)
{
    for (int j = k; j < sw->naxes; j++) {
        const uint8_t *A = sw->excludes[a].allow[j], *B = sw->excludes[b].allow[j];
        if (!A)
            continue;
        if (!B)
            return 0;
        for (uint64_t d = 0; d < sw->axes[j].n; d++)
            if (B[d] && !A[d])
                return 0;
    }
    return 1;
}

static void find_dominated(ws_sweep *sw, ws_sweep_private *p)
{
    int na = sw->naxes, ne = sw->nexcludes;
    p->dominated_by = calloc((size_t)(na + 1) * (size_t)(ne ? ne : 1), sizeof(uint64_t));
    for (int k = 0; k <= na; k++)
        for (int b = 0; b < ne; b++)
            for (int a = 0; a < ne; a++)
                if (a != b && box_contains(sw, a, b, k) && (a < b || !box_contains(sw, b, a, k)))
                    p->dominated_by[(size_t)k * (size_t)ne + (size_t)b] |= 1ull << a;
}

int ws_sweep_prepare(ws_sweep *sw, ws_error *err)
{
    ws_sweep_private *p = ws_sweep_priv(sw);
    int na = sw->naxes;
    p->seed_id = ws_param_find("seed");
    p->suffix = malloc((size_t)(na + 1) * sizeof(uint64_t));
    p->suffix[na] = 1;
    for (int k = na - 1; k >= 0; k--) {
        if (__builtin_mul_overflow(p->suffix[k + 1], sw->axes[k].n, &p->suffix[k]))
            return ws_fail_at(err, sw->file, sw->grid_line, sw->grid_col,
                              "sweep %s has more than 2^64 points", sw->name);
    }
    sw->raw_count = p->suffix[0];
    p->ended = calloc((size_t)(na + 1), sizeof(uint64_t));
    p->constrained = calloc((size_t)(na + 1), sizeof(uint64_t));
    p->last_axis = calloc((size_t)(sw->nexcludes ? sw->nexcludes : 1), sizeof(int));
    p->reject = calloc((size_t)na, sizeof(uint64_t *));
    p->all_entries = 0;
    for (int e = 0; e < sw->nexcludes; e++) {
        p->all_entries |= 1ull << e;
        p->last_axis[e] = -1;
        for (int k = 0; k < na; k++) {
            const uint8_t *allow = sw->excludes[e].allow[k];
            if (!allow)
                continue;
            p->last_axis[e] = k;
            p->constrained[k] |= 1ull << e;
            if (!p->reject[k])
                p->reject[k] = calloc((size_t)sw->axes[k].n, sizeof(uint64_t));
            for (uint64_t d = 0; d < sw->axes[k].n; d++)
                if (!allow[d])
                    p->reject[k][d] |= 1ull << e;
        }
        for (int k = p->last_axis[e] + 1; k <= na; k++)
            p->ended[k] |= 1ull << e;
    }
    find_dominated(sw, p);
    p->memo.writable = 1;
    sw->count = sw->nexcludes ? count_from(sw, 0, p->all_entries) : sw->raw_count;
    p->memo.writable = 0;
    if (p->memo.overflow)
        return ws_fail_at(err, sw->file, sw->excludes[0].line, sw->excludes[0].col,
                          "exclude: the %d entries overlap in more than %zu ways to count; "
                          "merge entries or split the sweep", sw->nexcludes, MEMO_MAX_SLOTS / 2);
    return 0;
}

uint64_t ws_sweep_rank(const ws_sweep *sw, uint64_t raw_limit)
{
    const ws_sweep_private *p = ws_sweep_priv(sw);
    if (raw_limit >= sw->raw_count)
        return sw->count;
    if (!sw->nexcludes)
        return raw_limit;
    /* alive is kept reduced (drop_covered) as count_from keeps it, so every
     * count asked for is one the memo holds */
    uint64_t alive = drop_covered(sw, p, 0, p->all_entries), r = 0;
    for (int k = 0; k < sw->naxes; k++) {
        const ws_axis *a = &sw->axes[k];
        uint64_t digit = (raw_limit / p->suffix[k + 1]) % a->n;
        if (!(alive & p->constrained[k])) {
            r += digit * count_from(sw, k + 1, alive);
        } else {
            for (uint64_t d = 0; d < digit; d++)
                r += count_from(sw, k + 1, alive & ~p->reject[k][d]);
            alive &= ~p->reject[k][digit];
        }
        alive = drop_covered(sw, p, k + 1, alive);
        if (alive & p->ended[k + 1])
            break; /* this prefix and everything below it is excluded */
    }
    return r;
}

uint64_t ws_sweep_unrank(const ws_sweep *sw, uint64_t k)
{
    const ws_sweep_private *p = ws_sweep_priv(sw);
    if (!sw->nexcludes)
        return k;
    uint64_t alive = drop_covered(sw, p, 0, p->all_entries), raw = 0; /* reduced, as in ws_sweep_rank */
    for (int j = 0; j < sw->naxes; j++) {
        const ws_axis *a = &sw->axes[j];
        if (!alive)
            return raw * p->suffix[j] + k;
        if (!(alive & p->constrained[j])) {
            uint64_t sub = count_from(sw, j + 1, alive);
            raw = raw * a->n + k / sub;
            k %= sub;
            alive = drop_covered(sw, p, j + 1, alive);
            continue;
        }
        enum { NC = 16 };
        uint64_t cm[NC], cc[NC];
        int nc = 0;
        uint64_t d, m = 0;
        for (d = 0; d < a->n; d++) {
            m = alive & ~p->reject[j][d];
            uint64_t c;
            int i;
            for (i = 0; i < nc && cm[i] != m; i++)
                ;
            if (i < nc) {
                c = cc[i];
            } else {
                c = count_from(sw, j + 1, m);
                if (nc < NC) {
                    cm[nc] = m;
                    cc[nc++] = c;
                }
            }
            if (k < c)
                break;
            k -= c;
        }
        alive = drop_covered(sw, p, j + 1, m);
        raw = raw * a->n + d;
    }
    return raw;
}

int ws_sweep_raw_excluded(const ws_sweep *sw, uint64_t raw)
{
    const ws_sweep_private *p = ws_sweep_priv(sw);
    for (int e = 0; e < sw->nexcludes; e++) {
        int all = 1;
        for (int k = 0; k < sw->naxes && all; k++) {
            const uint8_t *allow = sw->excludes[e].allow[k];
            if (allow && !allow[(raw / p->suffix[k + 1]) % sw->axes[k].n])
                all = 0;
        }
        if (all)
            return 1;
    }
    return 0;
}

void ws_sweep_point_raw(const ws_sweep *sw, uint64_t raw, uint64_t k, ws_point *pt)
{
    const ws_sweep_private *p = ws_sweep_priv(sw);
    int32_t cur_expr[WS_NPARAMS];
    pt->point = k;
    pt->raw = raw;
    pt->workload = 0;
    pt->invalid = 0;
    pt->message[0] = 0;
    for (int i = 0; i < WS_NPARAMS; i++) {
        pt->cfg.v[i] = sw->base[i].v;
        cur_expr[i] = sw->base[i].expr;
    }
    uint64_t seed_digit = 0;
    for (int j = sw->naxes - 1; j >= 0; j--) {
        const ws_axis *a = &sw->axes[j];
        uint64_t d = raw % a->n;
        raw /= a->n;
        switch (a->kind) {
        case WS_AXIS_WORKLOAD:
            pt->workload = (uint32_t)d;
            break;
        case WS_AXIS_SEED:
            seed_digit = d;
            if (sw->repeat > 1 && p->seed_id >= 0)
                pt->cfg.v[p->seed_id].i = (int64_t)d;
            break;
        case WS_AXIS_PARAMS:
            for (int i = 0; i < a->nparams; i++) {
                const ws_slot *s = &a->values[d * (uint64_t)a->nparams + (uint64_t)i];
                pt->cfg.v[a->params[i]] = s->v;
                cur_expr[a->params[i]] = s->expr;
            }
            break;
        }
    }
    /* the preset first, then the values the sweep gives; derived values below see both */
    ws_config_apply_preset(&pt->cfg, sw->given);
    pt->seed = p->seed_id >= 0 ? (uint64_t)pt->cfg.v[p->seed_id].i : seed_digit;
    if (!sw->nderived)
        return;
    double vars[WS_NVARS];
    for (int i = 0; i < WS_NPARAMS; i++)
        vars[i] = ws_params[i].type == WS_PT_FLOAT ? pt->cfg.v[i].f : (double)pt->cfg.v[i].i;
    const ws_workload *wl = sw->workloads ? sw->workloads[pt->workload] : NULL;
    vars[WS_VAR_REGS_PER_THREAD] = wl ? wl->regs_per_thread : 0;
    vars[WS_VAR_THREADS_PER_CTA] = wl ? ws_workload_threads_per_cta(wl) : 0;
    vars[WS_VAR_CTAS] = wl ? (double)ws_workload_ctas(wl) : 0;
    for (int n = 0; n < sw->nderived; n++) {
        int id = sw->derived_order[n];
        if (cur_expr[id] < 0)
            continue;
        const ws_param_def *def = &ws_params[id];
        double x = ws_expr_eval(sw->exprs[cur_expr[id]], vars);
        /* integer parameters: rounded up (ceil) */
        if (def->type == WS_PT_INT)
            x = ceil(x);
        int ok = isfinite(x) && x >= def->min && x <= def->max;
        if (!ok && !pt->invalid) {
            pt->invalid = 1;
            snprintf(pt->message, sizeof pt->message, "derived %s = %.15g is out of range [%.15g, %.15g]", def->name,
                     x, def->min, def->max);
        }
        if (def->type == WS_PT_FLOAT) {
            pt->cfg.v[id].f = x;
        } else {
            double c = isfinite(x) ? x : 0;
            if (c > 9.2e18)
                c = 9.2e18;
            if (c < -9.2e18)
                c = -9.2e18;
            pt->cfg.v[id].i = (int64_t)c;
        }
        vars[id] = def->type == WS_PT_FLOAT ? pt->cfg.v[id].f : (double)pt->cfg.v[id].i;
    }
    ws_config_apply_carveout(&pt->cfg);   /* a derived carve-out or array sets smem_kb and l1_kb too */
}

void ws_sweep_point(const ws_sweep *sw, uint64_t k, ws_point *pt)
{
    ws_sweep_point_raw(sw, ws_sweep_unrank(sw, k), k, pt);
}
