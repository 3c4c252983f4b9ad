/* warpsweep pareto FILE.h5 [--x COL] [--y COL] [--min-x|--max-x] [--min-y|--max-y]
 *
 * The Pareto-optimal rows (status ok) of a results file for two columns,
 * by default x = area_mm2 (minimised) and y = work_ipc (maximised): the
 * launch's fixed work per cycle, which spin iterations and other wasted
 * instructions do not inflate as they do ipc (docs/model.md "Work
 * throughput"); area is on the x axis already, so the y axis is a
 * throughput, not a throughput per area. Each column
 * may be any metric or numeric parameter. A row is on the front when no
 * other ok row is at least as good in both and strictly better in one
 * (rows with identical x and y are all kept). Rows whose x or y is NaN are
 * ignored.
 *
 * Rows that differ only in seed (`repeat: R`, perturbed by jitter) are one
 * configuration, placed at its means (docs/noise.md): the front is computed
 * on the means, and with repeats in the file the table also lists, marked
 * `noise`, the configurations dominated on the means but by none beyond
 * the 95% Student-t intervals (rep_front, replicates.h), and gives each x
 * and y its half-width and n. A file without repeats prints as it always
 * has (every row its own configuration).
 *
 * Two passes over the file: the first keeps each configuration's x and y
 * statistics and finds the front (rep_front: O(n log n) on the means, the
 * noise test O(n) per dominated configuration); the second collects the
 * rows of the printed configurations (the lowest point's parameters, the
 * --columns metrics' means). Output: a table, one configuration per line in
 * x order: point, workload, the sweep's axes that take more than one value
 * in the file (not the parameters a preset on an axis sets, nor seed when
 * it numbers repeats), the --columns, x, y (with repeats: x, its +-, y,
 * its +-, n, front).
 *
 * --where NAME=VALUE,... keeps the rows of one scenario, and --by AXIS,...
 * finds one front per value of those axes (row_select.h): a front over
 * several memory latencies would only show the shortest latency. There is
 * always one front per workload. */
#define _GNU_SOURCE   /* qsort_r */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "row_select.h"
#include "warpsweep/replicates.h"
#include "warpsweep/store.h"
#include "warpsweep/sweep.h"

#define USAGE "usage: warpsweep pareto FILE.h5 [--x COLUMN] [--y COLUMN] [--min-x|--max-x] [--min-y|--max-y]\n" \
              "                        [--where NAME=VALUE,...] [--by AXIS,...] [--columns NAME,...]\n" \
              "  defaults: --x area_mm2 --min-x --y work_ipc --max-y; a column is a metric or a numeric parameter;\n" \
              "  one front per workload; --where keeps one scenario, --by gives one front per value of the AXIS list;\n" \
              "  shown: the sweep's axes that vary, then --columns (parameters, metrics)\n"

/* A column: metric m or parameter p (exactly one >= 0). */
typedef struct column {
    const char *name;
    int metric, param;
} column;

typedef struct cand {   /* a configuration */
    rep_stat x, y;  /* as read */
    uint64_t point; /* its lowest */
    int group;      /* --by group (sorted index after pass 1) */
    uint8_t cls;    /* REP_FRONT, REP_NOISE, REP_DOMINATED */
    int out;        /* its index in out[], or -1 */
} cand;

typedef struct front_row {
    size_t cand;
    int have_row;
    ws_row row;
    char workload[256];
    rep_stat col[ROW_COLUMNS_MAX];   /* --columns metrics over its rows */
} front_row;

typedef struct pareto_ctx {
    column cx, cy;
    int max_x, max_y;
    rep_index ix;
    cand *c;
    size_t cap;
    uint64_t rows, ok;
    int oom, too_many_groups, too_many_workloads, replicated;
    row_where *where;             /* or NULL */
    row_workloads wls;
    row_groups groups;
    uint64_t ok_in_group[ROW_GROUPS_MAX];
    ws_varying var;               /* parameters that differ between rows */
    row_columns extra;            /* --columns */
    /* second pass */
    front_row *out;
    size_t nout;
} pareto_ctx;

static int find_column(const char *name, column *c)
{
    c->name = name;
    c->metric = c->param = -1;
    for (int m = 0; m < WS_NMETRICS; m++)
        if (strcmp(ws_metrics[m].name, name) == 0) {
            c->metric = m;
            return 0;
        }
    int p = ws_param_find(name);
    if (p >= 0 && ws_params[p].type != WS_PT_CHOICE) {
        c->param = p;
        return 0;
    }
    return -1;
}

static double col_value(const column *c, const ws_row *r)
{
    if (c->metric >= 0)
        return ws_metrics[c->metric].is_float ? r->metrics[c->metric].f : (double)r->metrics[c->metric].i;
    return ws_params[c->param].type == WS_PT_FLOAT ? r->params[c->param].f : (double)r->params[c->param].i;
}

static int pass1(void *vctx, const ws_row *row, const char *workload)
{
    pareto_ctx *p = vctx;
    p->rows++;
    int wl = row_workload_id(&p->wls, workload);
    if (wl < 0) {
        p->too_many_workloads = 1;
        return 1;
    }
    if (p->where && !row_where_match(p->where, row, wl))
        return 0;
    ws_varying_add(&p->var, row);
    if (row->status != WS_ST_OK)
        return 0;
    int g = row_groups_add(&p->groups, row, wl);
    if (g < 0) {
        p->too_many_groups = 1;
        return 1;
    }
    p->ok++;
    p->ok_in_group[g]++;
    double x = col_value(&p->cx, row), y = col_value(&p->cy, row);
    if (isnan(x) || isnan(y))
        return 0;
    int added;
    int64_t id = rep_index_get(&p->ix, rep_key_of(row, wl, row_groups_has(&p->groups, WS_P_seed)), &added);
    if (id >= 0 && added && (size_t)id == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 1024;
        cand *c = realloc(p->c, cap * sizeof *c);
        if (!c)
            id = -1;
        else {
            p->c = c;
            p->cap = cap;
        }
    }
    if (id < 0) {
        p->oom = 1;
        return 1;
    }
    cand *c = &p->c[id];
    if (added)
        *c = (cand){.point = row->point, .out = -1};
    c->group = g;
    if (row->point < c->point)
        c->point = row->point;
    rep_stat_add(&c->x, x);
    rep_stat_add(&c->y, y);
    p->replicated |= c->x.n > 1;
    return 0;
}

static double key_x(const pareto_ctx *p, const cand *c) { return p->max_x ? -c->x.mean : c->x.mean; }
static double key_y(const pareto_ctx *p, const cand *c) { return p->max_y ? -c->y.mean : c->y.mean; }

/* rep_front over each group's configurations: c[].cls; the printed ones
 * (the front; with repeats, the noise-dominated too) get out[] slots. */
static int classify(pareto_ctx *p)
{
    size_t n = p->ix.n;
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    double *kx = malloc((n ? n : 1) * sizeof *kx), *hx = malloc((n ? n : 1) * sizeof *hx);
    double *ky = malloc((n ? n : 1) * sizeof *ky), *hy = malloc((n ? n : 1) * sizeof *hy);
    uint8_t *cls = malloc(n ? n : 1);
    int rc = -1;
    if (!order || !kx || !hx || !ky || !hy || !cls)
        goto out;
    size_t start[ROW_GROUPS_MAX + 1] = {0};
    for (size_t i = 0; i < n; i++)
        start[p->c[i].group + 1]++;
    for (int g = 0; g < p->groups.n; g++)
        start[g + 1] += start[g];
    size_t fill[ROW_GROUPS_MAX];
    memcpy(fill, start, sizeof fill[0] * (size_t)p->groups.n);
    for (size_t i = 0; i < n; i++)
        order[fill[p->c[i].group]++] = i;
    size_t shown = 0;
    for (int g = 0; g < p->groups.n; g++) {
        size_t *o = order + start[g], m = start[g + 1] - start[g];
        for (size_t k = 0; k < m; k++) {
            const cand *c = &p->c[o[k]];
            kx[k] = key_x(p, c);
            ky[k] = key_y(p, c);
            hx[k] = rep_stat_half(&c->x);
            hy[k] = rep_stat_half(&c->y);
        }
        if (rep_front(m, kx, hx, ky, hy, cls))
            goto out;
        for (size_t k = 0; k < m; k++) {
            p->c[o[k]].cls = cls[k];
            if (cls[k] == REP_FRONT || (p->replicated && cls[k] == REP_NOISE))
                p->c[o[k]].out = (int)shown++;
        }
    }
    p->out = calloc(shown ? shown : 1, sizeof *p->out);
    if (!p->out)
        goto out;
    for (size_t i = 0; i < n; i++)
        if (p->c[i].out >= 0)
            p->out[p->c[i].out].cand = i;
    p->nout = shown;
    rc = 0;
out:
    free(order); free(kx); free(hx); free(ky); free(hy); free(cls);
    return rc;
}

/* the second pass: the rows of the printed configurations */
static int pass2(void *vctx, const ws_row *row, const char *workload)
{
    pareto_ctx *p = vctx;
    int wl = row_workload_id(&p->wls, workload);   /* known from pass 1 */
    if (row->status != WS_ST_OK || (p->where && !row_where_match(p->where, row, wl)))
        return 0;
    if (isnan(col_value(&p->cx, row)) || isnan(col_value(&p->cy, row)))
        return 0;
    int64_t id = rep_index_find(&p->ix, rep_key_of(row, wl, row_groups_has(&p->groups, WS_P_seed)));
    if (id < 0 || p->c[id].out < 0)
        return 0;
    front_row *f = &p->out[p->c[id].out];
    if (row->point == p->c[id].point && !f->have_row) {   /* duplicate point numbers: the first */
        f->have_row = 1;
        f->row = *row;
        snprintf(f->workload, sizeof f->workload, "%s", row_workload_label(&p->wls, wl));   /* its name */
    }
    for (int k = 0; k < p->extra.n; k++)
        if (p->extra.metric[k] >= 0)
            rep_stat_add(&f->col[k], ws_metrics[p->extra.metric[k]].is_float ? row->metrics[p->extra.metric[k]].f
                                                                              : (double)row->metrics[p->extra.metric[k]].i);
    return 0;
}

/* printing order: group, x best first, y best first, point */
static int cmp_front(const void *a, const void *b, void *ctx)
{
    const pareto_ctx *p = ctx;
    const cand *u = &p->c[((const front_row *)a)->cand], *v = &p->c[((const front_row *)b)->cand];
    if (u->group != v->group) return u->group < v->group ? -1 : 1;
    double ux = key_x(p, u), vx = key_x(p, v), uy = key_y(p, u), vy = key_y(p, v);
    if (ux != vx) return ux < vx ? -1 : 1;
    if (uy != vy) return uy < vy ? -1 : 1;
    return u->point < v->point ? -1 : u->point > v->point;
}

static void fmt_value(char *buf, size_t len, double v, int is_float)
{
    if (is_float)
        snprintf(buf, len, "%.9g", v);
    else
        snprintf(buf, len, "%lld", (long long)v);
}

static int col_is_float(const column *c)
{
    return c->metric >= 0 ? ws_metrics[c->metric].is_float : ws_params[c->param].type == WS_PT_FLOAT;
}

int cmd_pareto(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(USAGE, stdout);
        return WS_EXIT_OK;
    }
    const char *file = NULL, *xs = "area_mm2", *ys = "work_ipc", *where_spec = NULL, *by = NULL, *columns = NULL;
    pareto_ctx *p = calloc(1, sizeof *p);   /* large (the --by groups): not on the stack */
    if (!p)
        return WS_EXIT_FAIL;
    p->max_y = 1;
    row_where where = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--x") == 0 && i + 1 < argc)
            xs = argv[++i];
        else if (strcmp(argv[i], "--y") == 0 && i + 1 < argc)
            ys = argv[++i];
        else if (strcmp(argv[i], "--min-x") == 0)
            p->max_x = 0;
        else if (strcmp(argv[i], "--max-x") == 0)
            p->max_x = 1;
        else if (strcmp(argv[i], "--min-y") == 0)
            p->max_y = 0;
        else if (strcmp(argv[i], "--max-y") == 0)
            p->max_y = 1;
        else if (strcmp(argv[i], "--where") == 0 && i + 1 < argc)
            where_spec = argv[++i];
        else if (strcmp(argv[i], "--by") == 0 && i + 1 < argc)
            by = argv[++i];
        else if (strcmp(argv[i], "--columns") == 0 && i + 1 < argc)
            columns = argv[++i];
        else if (argv[i][0] == '-' || file) {
            fprintf(stderr, "warpsweep pareto: unexpected argument '%s'\n" USAGE, argv[i]);
            free(p);
            return WS_EXIT_USAGE;
        } else
            file = argv[i];
    }
    if (!file) {
        fprintf(stderr, USAGE);
        free(p);
        return WS_EXIT_USAGE;
    }
    if ((where_spec && row_where_parse(where_spec, &where, "pareto")) ||
        row_groups_init(&p->groups, by, &p->wls, "pareto") ||
        (columns && row_columns_parse(columns, &p->extra, "pareto"))) {
        free(p);
        return WS_EXIT_USAGE;
    }
    where.wls = &p->wls;
    if (where_spec)
        p->where = &where;
    const char *names[2] = {xs, ys};
    column *cols[2] = {&p->cx, &p->cy};
    for (int k = 0; k < 2; k++)
        if (find_column(names[k], cols[k])) {
            fprintf(stderr, "warpsweep pareto: unknown column '%s' (a metric or a numeric parameter; metrics:",
                    names[k]);
            for (int m = 0; m < WS_NMETRICS; m++)
                fprintf(stderr, " %s", ws_metrics[m].name);
            fprintf(stderr, ")\n");
            free(p);
            return WS_EXIT_USAGE;
        }

    ws_error err;
    ws_file_info fi;
    int rc = WS_EXIT_FAIL;
    if (ws_store_info(file, &fi, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        goto out;
    }
    if (ws_store_read(file, pass1, p, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        goto out;
    }
    if (p->oom) {
        fprintf(stderr, "warpsweep pareto: out of memory\n");
        goto out;
    }
    if (p->too_many_workloads) {
        fprintf(stderr, "warpsweep pareto: %s: more than %d workloads\n", file, ROW_WORKLOADS_MAX);
        goto out;
    }
    if (p->too_many_groups) {
        fprintf(stderr, "warpsweep pareto: --by %s: more than %d values\n", by ? by : "workload", ROW_GROUPS_MAX);
        goto out;
    }
    if (p->where && row_where_report_empty(p->where, file, "pareto"))
        goto out;
    row_groups_warn(&p->groups, "pareto", "front");
    {   /* groups in reading order (numbers ascending, choices in registry order) */
        int map[ROW_GROUPS_MAX];
        uint64_t ok_sorted[ROW_GROUPS_MAX];
        row_groups_sort(&p->groups, map);
        for (size_t i = 0; i < p->ix.n; i++)
            p->c[i].group = map[p->c[i].group];
        for (int g = 0; g < p->groups.n; g++)
            ok_sorted[map[g]] = p->ok_in_group[g];
        memcpy(p->ok_in_group, ok_sorted, sizeof ok_sorted[0] * (size_t)p->groups.n);
    }

    if (classify(p)) {
        fprintf(stderr, "warpsweep pareto: out of memory\n");
        goto out;
    }
    if (ws_store_read(file, pass2, p, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        goto out;
    }
    if (p->nout)
        qsort_r(p->out, p->nout, sizeof *p->out, cmp_front, p);

    /* the parameters shown: the sweep's axes that differ between the rows, then --columns */
    uint8_t show[WS_NPARAMS];
    row_axes_shown(file, fi.sweep_name, &p->var, show);
    for (int k = 0; k < p->extra.n; k++)
        if (p->extra.param[k] >= 0)
            show[p->extra.param[k]] = 0;
    for (int k = 0; k < 2; k++)
        if (cols[k]->param >= 0)
            show[cols[k]->param] = 0;
    for (int i = 0; i < WS_NPARAMS; i++)
        if (row_groups_has(&p->groups, i))
            show[i] = 0;   /* in the heading of each front */
    if (p->replicated && !row_groups_has(&p->groups, WS_P_seed))
        show[WS_P_seed] = 0;   /* the replicates of a configuration */

    char cond[1024] = "";
    if (p->where) {
        snprintf(cond, sizeof cond, ", where ");
        row_where_format(p->where, cond + strlen(cond), sizeof cond - strlen(cond));
    }
    for (size_t r = 0; r < p->nout || (r == 0 && p->nout == 0); r++) {
        const front_row *f = p->nout ? &p->out[r] : NULL;
        const cand *c = f ? &p->c[f->cand] : NULL;
        char buf[256];
        if (!f || r == 0 || c->group != p->c[p->out[r - 1].cand].group) {   /* a heading per front */
            size_t n = 0, noise = 0;
            for (size_t k = r; k < p->nout && p->c[p->out[k].cand].group == (c ? c->group : -1); k++) {
                n += p->c[p->out[k].cand].cls == REP_FRONT;
                noise += p->c[p->out[k].cand].cls == REP_NOISE;
            }
            int g = c ? c->group : 0;
            buf[0] = 0;
            if (p->groups.n)
                row_groups_label(&p->groups, g, buf, sizeof buf);
            if (r)
                printf("\n");
            if (p->replicated)
                printf("# %s: %s%sPareto front of %zu configuration(s) on the means over seeds, and %zu dominated only "
                       "within noise (95%% Student-t intervals overlap), among %llu ok of %llu rows%s: %s %s, %s %s\n",
                       file, buf, buf[0] ? ": " : "", n, noise, (unsigned long long)(c ? p->ok_in_group[g] : p->ok),
                       (unsigned long long)p->rows, cond, p->max_x ? "max" : "min", xs, p->max_y ? "max" : "min", ys);
            else
                printf("# %s: %s%sPareto front of %zu point(s) among %llu ok of %llu rows%s: %s %s, %s %s\n", file,
                       buf, buf[0] ? ": " : "", n, (unsigned long long)(c ? p->ok_in_group[g] : p->ok),
                       (unsigned long long)p->rows, cond, p->max_x ? "max" : "min", xs, p->max_y ? "max" : "min", ys);
            printf("%-8s %-16s", "point", "workload");
            for (int i = 0; i < WS_NPARAMS; i++)
                if (show[i])
                    printf(" %12s", ws_params[i].name);
            for (int k = 0; k < p->extra.n; k++)
                printf(" %12s", row_column_name(&p->extra, k));
            if (p->replicated)
                printf(" %14s %9s %14s %9s %4s %s\n", xs, "\u00b1", ys, "\u00b1", "n", "front");
            else
                printf(" %14s %14s\n", xs, ys);
        }
        if (!f)
            break;
        printf("%-8llu %-16s", (unsigned long long)f->row.point, f->workload);
        for (int i = 0; i < WS_NPARAMS; i++)
            if (show[i]) {
                ws_param_format(i, f->row.params[i], buf, sizeof buf);
                printf(" %12s", buf);
            }
        for (int k = 0; k < p->extra.n; k++) {
            int m = p->extra.metric[k];
            if (p->replicated && m >= 0 && !ws_metric_label(m, f->row.metrics[m].i, buf, sizeof buf))
                snprintf(buf, sizeof buf, "%.6g", f->col[k].mean);
            else
                row_column_format(&p->extra, k, &f->row, buf, sizeof buf);
            printf(" %12s", buf);
        }
        if (p->replicated) {
            char hx[32] = "-", hy[32] = "-";   /* one run: no interval */
            if (c->x.n > 1) {
                snprintf(hx, sizeof hx, "%.3g", rep_stat_half(&c->x));
                snprintf(hy, sizeof hy, "%.3g", rep_stat_half(&c->y));
            }
            printf(" %14.9g %9s %14.9g %9s %4u %s\n", c->x.mean, hx, c->y.mean, hy, c->x.n,
                   c->cls == REP_FRONT ? "yes" : "noise");
            continue;
        }
        fmt_value(buf, sizeof buf, c->x.mean, col_is_float(&p->cx));
        printf(" %14s", buf);
        fmt_value(buf, sizeof buf, c->y.mean, col_is_float(&p->cy));
        printf(" %14s\n", buf);
    }
    rc = WS_EXIT_OK;
out:
    free(p->c);
    free(p->out);
    rep_index_free(&p->ix);
    row_workloads_free(&p->wls);
    free(p);
    return rc;
}
