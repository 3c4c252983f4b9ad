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
 * Two passes over the file: the first keeps (x, y, point) per ok row and
 * finds the front in O(n log n) (sort by x best-first, then y best-first;
 * a row is on the front when its y beats every y seen at a strictly better
 * x); the second collects the front rows to print them. Output: a table,
 * one front row per line in x order: point, workload, the sweep's axes
 * that take more than one value in the file (not the parameters a preset
 * on an axis sets), the --columns, x, y.
 *
 * --where NAME=VALUE,... keeps the rows of one scenario, and --by AXIS,...
 * finds one front per value of those axes (row_select.h): a front over
 * several memory latencies would only show the shortest latency. There is
 * always one front per workload. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "row_select.h"
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

typedef struct cand {
    double x, y;    /* as read */
    double kx, ky;  /* keys, smaller is better */
    uint64_t point;
    int group;      /* --by group (sorted index) */
} cand;

typedef struct front_row {
    int group;
    ws_row row;
    char workload[256];
    double x, y;
    double kx, ky;  /* keys, smaller is better */
} front_row;

typedef struct pareto_ctx {
    column cx, cy;
    int max_x, max_y;
    cand *c;
    size_t n, cap;
    uint64_t rows, ok;
    int oom, too_many_groups, too_many_workloads;
    row_where *where;             /* or NULL */
    row_workloads wls;
    row_groups groups;
    uint64_t ok_in_group[ROW_GROUPS_MAX];
    ws_varying var;               /* parameters that differ between rows */
    row_columns extra;            /* --columns */
    /* second pass */
    uint64_t *front;      /* sorted points on the front */
    size_t nfront;
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
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 1024;
        cand *c = realloc(p->c, cap * sizeof *c);
        if (!c) {
            p->oom = 1;
            return 1;
        }
        p->c = c;
        p->cap = cap;
    }
    cand *c = &p->c[p->n++];
    c->x = x;
    c->y = y;
    c->kx = p->max_x ? -x : x;
    c->ky = p->max_y ? -y : y;
    c->point = row->point;
    c->group = g;
    return 0;
}

static int cmp_cand(const void *a, const void *b)
{
    const cand *p = a, *q = b;
    if (p->group != q->group) return p->group < q->group ? -1 : 1;
    if (p->kx != q->kx) return p->kx < q->kx ? -1 : 1;
    if (p->ky != q->ky) return p->ky < q->ky ? -1 : 1;
    return p->point < q->point ? -1 : p->point > q->point;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t p = *(const uint64_t *)a, q = *(const uint64_t *)b;
    return p < q ? -1 : p > q;
}

static int pass2(void *vctx, const ws_row *row, const char *workload)
{
    pareto_ctx *p = vctx;
    int wl = row_workload_id(&p->wls, workload);   /* known from pass 1 */
    if (row->status != WS_ST_OK || (p->where && !row_where_match(p->where, row, wl)))
        return 0;
    if (!bsearch(&row->point, p->front, p->nfront, sizeof *p->front, cmp_u64))
        return 0;
    if (p->nout == p->nfront)   /* duplicate point numbers in the file: keep the first */
        return 0;
    front_row *f = &p->out[p->nout++];
    f->group = row_groups_add(&p->groups, row, wl);   /* known from pass 1 */
    f->row = *row;
    snprintf(f->workload, sizeof f->workload, "%s", row_workload_label(&p->wls, wl));   /* its name */
    f->x = col_value(&p->cx, row);
    f->y = col_value(&p->cy, row);
    f->kx = p->max_x ? -f->x : f->x;
    f->ky = p->max_y ? -f->y : f->y;
    return 0;
}

static int cmp_front(const void *a, const void *b)
{
    const front_row *p = a, *q = b;
    if (p->group != q->group) return p->group < q->group ? -1 : 1;
    if (p->kx != q->kx) return p->kx < q->kx ? -1 : 1;
    if (p->ky != q->ky) return p->ky < q->ky ? -1 : 1;
    return p->row.point < q->row.point ? -1 : p->row.point > q->row.point;
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
        for (size_t i = 0; i < p->n; i++)
            p->c[i].group = map[p->c[i].group];
        for (int g = 0; g < p->groups.n; g++)
            ok_sorted[map[g]] = p->ok_in_group[g];
        memcpy(p->ok_in_group, ok_sorted, sizeof ok_sorted[0] * (size_t)p->groups.n);
    }

    /* the front: sorted best-x first (ties best-y first); a group of equal
     * x contributes its rows with the group's best y when that y strictly
     * beats every y at a better x */
    if (p->n)   /* no ok rows: p->c is NULL, which qsort must not get */
        qsort(p->c, p->n, sizeof *p->c, cmp_cand);
    p->front = malloc((p->n ? p->n : 1) * sizeof *p->front);
    if (!p->front) {
        fprintf(stderr, "warpsweep pareto: out of memory\n");
        goto out;
    }
    double best_ky = INFINITY;
    for (size_t i = 0; i < p->n;) {
        if (i == 0 || p->c[i].group != p->c[i - 1].group)
            best_ky = INFINITY;   /* each --by group has its own front */
        size_t j = i;
        while (j < p->n && p->c[j].group == p->c[i].group && p->c[j].kx == p->c[i].kx)
            j++;
        double gy = p->c[i].ky;  /* best y of the group */
        if (gy < best_ky) {
            for (size_t k = i; k < j && p->c[k].ky == gy; k++)
                p->front[p->nfront++] = p->c[k].point;
            best_ky = gy;
        }
        i = j;
    }
    qsort(p->front, p->nfront, sizeof *p->front, cmp_u64);
    p->out = calloc(p->nfront ? p->nfront : 1, sizeof *p->out);
    if (!p->out) {
        fprintf(stderr, "warpsweep pareto: out of memory\n");
        goto out;
    }
    if (ws_store_read(file, pass2, p, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        goto out;
    }
    qsort(p->out, p->nout, sizeof *p->out, cmp_front);

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

    char cond[1024] = "";
    if (p->where) {
        snprintf(cond, sizeof cond, ", where ");
        row_where_format(p->where, cond + strlen(cond), sizeof cond - strlen(cond));
    }
    for (size_t r = 0; r < p->nout || (r == 0 && p->nout == 0); r++) {
        const front_row *f = p->nout ? &p->out[r] : NULL;
        char buf[256];
        if (!f || r == 0 || f->group != p->out[r - 1].group) {   /* a heading per front */
            size_t n = 0;
            for (size_t k = r; k < p->nout && p->out[k].group == (f ? f->group : -1); k++)
                n++;
            int g = f ? f->group : 0;
            buf[0] = 0;
            if (p->groups.n)
                row_groups_label(&p->groups, g, buf, sizeof buf);
            if (r)
                printf("\n");
            printf("# %s: %s%sPareto front of %zu point(s) among %llu ok of %llu rows%s: %s %s, %s %s\n", file, buf,
                   buf[0] ? ": " : "", n, (unsigned long long)(f ? p->ok_in_group[g] : p->ok),
                   (unsigned long long)p->rows, cond, p->max_x ? "max" : "min", xs, p->max_y ? "max" : "min", ys);
            printf("%-8s %-16s", "point", "workload");
            for (int i = 0; i < WS_NPARAMS; i++)
                if (show[i])
                    printf(" %12s", ws_params[i].name);
            for (int k = 0; k < p->extra.n; k++)
                printf(" %12s", row_column_name(&p->extra, k));
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
            row_column_format(&p->extra, k, &f->row, buf, sizeof buf);
            printf(" %12s", buf);
        }
        fmt_value(buf, sizeof buf, f->x, col_is_float(&p->cx));
        printf(" %14s", buf);
        fmt_value(buf, sizeof buf, f->y, col_is_float(&p->cy));
        printf(" %14s\n", buf);
    }
    rc = WS_EXIT_OK;
out:
    free(p->c);
    free(p->front);
    free(p->out);
    row_workloads_free(&p->wls);
    free(p);
    return rc;
}
