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
 * count_from calls at worst, with no enumeration. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sweep_internal.h"

static uint64_t count_from(const ws_sweep *sw, int k, uint64_t alive)
{
    const ws_sweep_private *p = ws_sweep_priv(sw);
    if (alive & p->ended[k])
        return 0;
    if (!alive)
        return p->suffix[k];
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
    sw->count = sw->nexcludes ? count_from(sw, 0, p->all_entries) : sw->raw_count;
    return 0;
}

uint64_t ws_sweep_rank(const ws_sweep *sw, uint64_t raw_limit)
{
    const ws_sweep_private *p = ws_sweep_priv(sw);
    if (raw_limit >= sw->raw_count)
        return sw->count;
    if (!sw->nexcludes)
        return raw_limit;
    uint64_t alive = p->all_entries, r = 0;
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
    uint64_t alive = p->all_entries, raw = 0;
    for (int j = 0; j < sw->naxes; j++) {
        const ws_axis *a = &sw->axes[j];
        if (!alive)
            return raw * p->suffix[j] + k;
        if (!(alive & p->constrained[j])) {
            uint64_t sub = count_from(sw, j + 1, alive);
            raw = raw * a->n + k / sub;
            k %= sub;
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
        alive = m;
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
}

void ws_sweep_point(const ws_sweep *sw, uint64_t k, ws_point *pt)
{
    ws_sweep_point_raw(sw, ws_sweep_unrank(sw, k), k, pt);
}
