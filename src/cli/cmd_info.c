/* warpsweep info FILE.h5 [--best [METRIC]] [--top N] [--min] [--where A=V,...] [--by AXIS]
 * Summary of a results file: sweep, counts by status, what limits occupancy,
 * the columns, and the best points (status ok) by a metric (highest first;
 * --min: lowest). --best alone ranks by work_per_area: the launch's fixed
 * work per second per mm2, which neither spin iterations (ipc) nor a larger
 * chip hide (docs/model.md "Work throughput"). --where keeps the rows of
 * one scenario, --by ranks each value of some axes on its own (row_select.h):
 * a ranking over several memory latencies says more about the latency than
 * about the design. Each workload is always ranked apart.
 * The rows that differ only in seed (`repeat: R`, perturbed by jitter) are
 * one configuration: it is ranked by its mean, printed as mean +- the
 * half-width of a 95% Student-t interval (n=R), and every configuration
 * whose interval overlaps the best's is marked tied (docs/noise.md); --top
 * counts configurations. A file without repeats prints as it always has.
 * Two passes: the first keeps each configuration's statistics, the second
 * the rows of the printed ones.
 * A journal beside the file (or in place of a missing file) is an
 * interrupted run: info says so, and that `run --resume` continues it. */
#define _GNU_SOURCE   /* qsort_r */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "axis_effect.h"
#include "row_select.h"
#include "warpsweep/digest.h"
#include "warpsweep/replicates.h"
#include "warpsweep/sim.h"
#include "warpsweep/store.h"
#include "warpsweep/sweep.h"

#define DEFAULT_BEST "work_per_area"
#define USAGE "usage: warpsweep info FILE.h5 [--best [METRIC]] [--top N] [--min] [--where NAME=VALUE,...] [--by AXIS,...]\n" \
              "                          [--columns NAME,...]\n" \
              "  --best alone: " DEFAULT_BEST "; one ranking per workload; --where keeps one scenario, --by ranks each\n" \
              "  value of the AXIS list apart; the best show the axes that vary, --columns more (parameters, metrics)\n"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A configuration: the ranked rows that differ only in seed (replicates.h). */
typedef struct conf {
    int group;           /* --by group */
    uint64_t point;      /* its lowest point */
    rep_stat key;        /* the ranked metric over its rows */
    uint64_t mhash;      /* sum over its rows of a digest of (seed, every metric): equal = identical results */
    int shown;           /* its printed line, or -1 */
} conf;

/* A printed line: a configuration, with the configurations whose every
 * metric is identical to it (the same mhash and mean) merged in (issue 46:
 * three L1/shared splits with identical results are one line, not the top
 * three). Its first member's lowest row (parameters, labels), every member's
 * parameters, and the --columns metrics over the first member's rows. */
typedef struct shown_conf {
    size_t conf;                 /* the first member */
    int have_row, tied;
    ws_row row;
    rep_stat col[ROW_COLUMNS_MAX];
    size_t nmembers;
    size_t *members;             /* configurations, the first one first */
    ws_value (*params)[WS_NPARAMS];   /* each member's lowest row's parameters */
} shown_conf;

typedef struct info_ctx {
    uint64_t by_status[WS_ST_COUNT];
    uint64_t by_limit[WS_OCC_COUNT];   /* ok rows by occupancy_limit */
    uint64_t rows, selected;
    int metric;          /* -1: none */
    int minimize;
    int top;
    row_where *where;         /* or NULL */
    row_workloads wls;
    row_groups groups;
    int too_many_groups, too_many_workloads, oom;
    ws_varying var;             /* parameters that differ between the ranked rows: shown with the best */
    row_columns extra;          /* --columns */
    rep_index ix;               /* configurations by key */
    conf *conf;
    size_t cap;
    int replicated;             /* some configuration has more than one row */
    shown_conf *shown;
    size_t nshown;
    uint8_t show[WS_NPARAMS];   /* the axes shown with the best (shown_axes) */
    axis_effect effect;         /* which of them changed no metric */
} info_ctx;

static double metric_value(const ws_row *r, int m)
{
    return ws_metrics[m].is_float ? r->metrics[m].f : (double)r->metrics[m].i;
}

/* the configuration of a ranked row (status ok, a number), or -1 */
static int64_t ranked_conf(info_ctx *c, const ws_row *row, int wl, int *added)
{
    int64_t id = rep_index_get(&c->ix, rep_key_of(row, wl, row_groups_has(&c->groups, WS_P_seed)), added);
    if (id < 0 || !*added) return id;
    if ((size_t)id == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 256;
        conf *n = realloc(c->conf, cap * sizeof *n);
        if (!n) return -1;
        c->conf = n;
        c->cap = cap;
    }
    c->conf[id] = (conf){.point = row->point, .shown = -1};
    return id;
}

static int on_row(void *vctx, const ws_row *row, const char *workload)
{
    info_ctx *c = vctx;
    c->rows++;
    if (row->status >= 0 && row->status < WS_ST_COUNT)
        c->by_status[row->status]++;
    int64_t lim = row->metrics[WS_M_occupancy_limit].i;
    if (row->status == WS_ST_OK && lim >= 0 && lim < WS_OCC_COUNT)
        c->by_limit[lim]++;
    int wl = row_workload_id(&c->wls, workload);
    if (wl < 0) {
        c->too_many_workloads = 1;
        return 1;
    }
    if (c->where && !row_where_match(c->where, row, wl))
        return 0;
    c->selected++;
    ws_varying_add(&c->var, row);
    if (c->metric < 0 || row->status != WS_ST_OK)
        return 0;
    double key = metric_value(row, c->metric);
    if (isnan(key))
        return 0;
    int g = row_groups_add(&c->groups, row, wl);
    if (g < 0) {
        c->too_many_groups = 1;
        return 1;
    }
    int added;
    int64_t id = ranked_conf(c, row, wl, &added);
    if (id < 0) {
        c->oom = 1;
        return 1;
    }
    conf *f = &c->conf[id];
    f->group = g;
    if (row->point < f->point)
        f->point = row->point;
    rep_stat_add(&f->key, key);
    f->mhash += ws_xxh64(row->metrics, sizeof row->metrics, row->seed);
    c->replicated |= f->key.n > 1;
    return 0;
}

/* The second pass: the rows of the printed configurations. */
static int on_shown_row(void *vctx, const ws_row *row, const char *workload)
{
    info_ctx *c = vctx;
    int wl = row_workload_id(&c->wls, workload);   /* known from the first pass */
    if (row->status != WS_ST_OK || (c->where && !row_where_match(c->where, row, wl)))
        return 0;
    axis_effect_add(&c->effect, row, wl);
    if (isnan(metric_value(row, c->metric)))
        return 0;
    int64_t id = rep_index_find(&c->ix, rep_key_of(row, wl, row_groups_has(&c->groups, WS_P_seed)));
    if (id < 0 || c->conf[id].shown < 0)
        return 0;
    shown_conf *s = &c->shown[c->conf[id].shown];
    size_t j = 0;
    while (s->members[j] != (size_t)id)
        j++;
    if (row->point == c->conf[id].point)
        memcpy(s->params[j], row->params, sizeof row->params);
    if (j)   /* a merged member: identical metrics, only its parameters differ */
        return 0;
    if (row->point == c->conf[id].point && !s->have_row) {
        s->row = *row;
        s->have_row = 1;
    }
    for (int k = 0; k < c->extra.n; k++)
        if (c->extra.metric[k] >= 0)
            rep_stat_add(&s->col[k], metric_value(row, c->extra.metric[k]));
    return 0;
}

/* ranking order: the better mean first, then the lower point */
static int by_mean(const void *a, const void *b, void *ctx)
{
    const info_ctx *c = ctx;
    const conf *p = &c->conf[*(const size_t *)a], *q = &c->conf[*(const size_t *)b];
    if (p->key.mean != q->key.mean)
        return (c->minimize ? p->key.mean < q->key.mean : p->key.mean > q->key.mean) ? -1 : 1;
    return p->point < q->point ? -1 : p->point > q->point;
}

/* The configurations of each group, ranked; the first --top lines of each
 * are c->shown (in printing order), tied against the best; ntied[g]: group
 * g's tie group (rep_ties: 0 when the best stands alone). */
typedef struct ranking {
    size_t ntied[ROW_GROUPS_MAX];
} ranking;

/* one more member of a printed line */
static int add_member(shown_conf *s, size_t conf_id)
{
    size_t *m = realloc(s->members, (s->nmembers + 1) * sizeof *m);
    if (!m)
        return -1;
    s->members = m;
    ws_value(*p)[WS_NPARAMS] = realloc(s->params, (s->nmembers + 1) * sizeof *p);
    if (!p)
        return -1;
    s->params = p;
    s->members[s->nmembers++] = conf_id;
    return 0;
}

static int rank_groups(info_ctx *c, ranking *rk)
{
    size_t n = c->ix.n;
    int map[ROW_GROUPS_MAX];
    row_groups_sort(&c->groups, map);
    for (size_t i = 0; i < n; i++)
        c->conf[i].group = map[c->conf[i].group];
    size_t start[ROW_GROUPS_MAX + 1] = {0}, fill[ROW_GROUPS_MAX];   /* configurations, group by group */
    for (size_t i = 0; i < n; i++)
        start[c->conf[i].group + 1]++;
    for (int g = 0; g < c->groups.n; g++)
        start[g + 1] += start[g];
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    double *mean = malloc((n ? n : 1) * sizeof *mean), *half = malloc((n ? n : 1) * sizeof *half);
    uint8_t *tied = malloc(n ? n : 1);
    size_t most = (size_t)c->groups.n * (size_t)c->top;   /* at most --top per group */
    c->shown = calloc((n < most ? n : most) + 1, sizeof *c->shown);
    if (!order || !mean || !half || !tied || !c->shown)
        goto oom;
    memcpy(fill, start, sizeof fill[0] * (size_t)c->groups.n);
    for (size_t i = 0; i < n; i++)
        order[fill[c->conf[i].group]++] = i;
    for (int g = 0; g < c->groups.n; g++) {
        size_t *o = order + start[g], m = start[g + 1] - start[g];
        qsort_r(o, m, sizeof *o, by_mean, c);
        for (size_t k = 0; k < m; k++) {
            mean[k] = c->conf[o[k]].key.mean;
            half[k] = rep_stat_half(&c->conf[o[k]].key);
        }
        rk->ntied[g] = m ? rep_ties(m, mean, half, 0, tied) : 0;
        size_t first_line = c->nshown;
        for (size_t k = 0; k < m; k++) {
            conf *f = &c->conf[o[k]];
            /* identical to a line of an equal mean already shown: one of its members */
            size_t l = c->nshown;
            while (l > first_line && c->conf[c->shown[l - 1].conf].key.mean == f->key.mean
                   && c->conf[c->shown[l - 1].conf].mhash != f->mhash)
                l--;
            if (l > first_line && c->conf[c->shown[l - 1].conf].key.mean == f->key.mean) {
                shown_conf *s = &c->shown[l - 1];
                if (add_member(s, o[k]) < 0)
                    goto oom;
                f->shown = (int)(l - 1);
                continue;
            }
            if (c->nshown - first_line == (size_t)c->top)
                break;   /* --top lines, and no later one can join them (a different mean) */
            f->shown = (int)c->nshown;
            shown_conf *s = &c->shown[c->nshown++];
            s->conf = o[k];
            s->tied = tied[k];
            if (add_member(s, o[k]) < 0)
                goto oom;
        }
    }
    free(order); free(mean); free(half); free(tied);
    return 0;
oom:
    free(order); free(mean); free(half); free(tied);
    return -1;
}

static void print_col(void *ctx, const char *name, const char *type)
{
    int *n = ctx;
    printf("%s%s %s", (*n)++ % 4 ? ", " : "\n  ", name, type);
}

static void count_col(void *ctx, const char *name, const char *type)
{
    (void)name;
    (void)type;
    ++*(int *)ctx;
}

/* A missing file with a journal beside it is a run killed before it wrote
 * the file (kill -9, a node failure): say what the journal holds. */
static int explain_journal(const char *file, int file_exists)
{
    char jpath[4200];
    snprintf(jpath, sizeof jpath, "%s.journal", file);
    if (access(jpath, F_OK) != 0)
        return 0;
    ws_journal_info ji;
    ws_error err;
    if (ws_journal_scan(jpath, NULL, &ji, NULL, NULL, &err)) {
        fprintf(file_exists ? stdout : stderr, "%s%s: a journal is there but cannot be read: %s\n",
                file_exists ? "journal:   " : "", jpath, err.msg);
        return 1;
    }
    if (file_exists)
        printf("journal:   %s: %llu of %llu points of an interrupted run (sweep hash %s); "
               "`warpsweep run SWEEP.yaml -o %s --resume` continues it\n",
               jpath, (unsigned long long)ji.records, (unsigned long long)ji.points_total, ji.hash, file);
    else
        fprintf(stderr, "%s: no such file, but its journal %s holds %llu of %llu points of an interrupted run "
                        "(sweep hash %s, started %s): `warpsweep run SWEEP.yaml -o %s --resume` continues it\n",
                file, jpath, (unsigned long long)ji.records, (unsigned long long)ji.points_total, ji.hash,
                ji.created_utc, file);
    return 1;
}

/* One printed configuration: the metric (with a file of repeats, the mean
 * +- its 95% half-width, the runs and the tie mark), its lowest point, the
 * axes, occupancy_limit and the --columns (metrics: the mean over its rows). */
static void print_conf(const info_ctx *c, const shown_conf *s, const uint8_t *show, int extra_limit)
{
    const conf *f = &c->conf[s->conf];
    const ws_row *r = &s->row;
    char lim[64];
    printf("  %s=%.6g", ws_metrics[c->metric].name, f->key.mean);
    if (c->replicated) {
        double h = rep_stat_half(&f->key);
        if (!isnan(h))
            printf(" \u00b1%.3g", h);
        printf(" (n=%u)%s", f->key.n, s->tied ? "  tied" : "");
    }
    if (s->nmembers > 1) {   /* identical results: every member's point, the axes' values that differ */
        printf("  points");
        for (size_t j = 0; j < s->nmembers; j++)
            printf("%s%llu", j ? "," : " ", (unsigned long long)c->conf[s->members[j]].point);
        printf(" (identical metrics)");
    } else {
        printf("  point %llu", (unsigned long long)f->point);
    }
    for (int i = 0; i < WS_NPARAMS; i++)
        if (show[i]) {
            char buf[64];
            printf("  %s=", ws_params[i].name);
            for (size_t j = 0; j < s->nmembers; j++) {
                size_t d = 0;   /* shown once: the first member with this value */
                while (d < j && !(ws_params[i].type == WS_PT_FLOAT ? s->params[d][i].f == s->params[j][i].f
                                                                   : s->params[d][i].i == s->params[j][i].i))
                    d++;
                if (d < j)
                    continue;
                ws_param_format(i, s->params[j][i], buf, sizeof buf);
                printf("%s%s", j ? "|" : "", buf);
            }
        }    if (!extra_limit && ws_metric_label(WS_M_occupancy_limit, r->metrics[WS_M_occupancy_limit].i, lim, sizeof lim))
        printf("  occupancy_limit=%s", lim);
    for (int k = 0; k < c->extra.n; k++) {
        char buf[256];
        int m = c->extra.metric[k];
        if (c->replicated && m >= 0 && !ws_metric_label(m, r->metrics[m].i, buf, sizeof buf))
            snprintf(buf, sizeof buf, "%.6g", s->col[k].mean);
        else
            row_column_format(&c->extra, k, r, buf, sizeof buf);
        printf("  %s=%s", row_column_name(&c->extra, k), buf);
    }
    printf("\n");
}

/* The axes shown with the best: those that vary among the ranked rows
 * (row_axes_shown), less seed for repeats, the --columns and the --by axes. */
static void shown_axes(info_ctx *c, const char *file, const ws_file_info *fi, uint8_t *show)
{
    row_axes_shown(file, fi->sweep_name, &c->var, show);
    if (c->replicated && !row_groups_has(&c->groups, WS_P_seed))
        show[WS_P_seed] = 0;   /* the replicates of a configuration */
    for (int k = 0; k < c->extra.n; k++)
        if (c->extra.param[k] >= 0)
            show[c->extra.param[k]] = 0;   /* where --columns puts it */
    for (int i = 0; i < WS_NPARAMS; i++)
        if (row_groups_has(&c->groups, i))
            show[i] = 0;
}

/* "no effect: A (v1, v2), B (...)": the shown axes along which no metric of any row changed */
static void print_no_effect(const info_ctx *c)
{
    int any = 0;
    for (int k = 0; k < c->effect.n; k++)
        if (axis_effect_none(&c->effect, k)) {
            printf("%s%s", any++ ? ", " : "no effect: every metric of every row is the same along ",
                   ws_params[c->effect.axis[k]].name);
        }
    if (any)
        printf(" (rows differing only there are identical: a ranking over it ranks equal results)\n");
}

static void print_best(info_ctx *c, const ranking *rk, const row_where *where)
{
    const uint8_t *show = c->show;
    int extra_limit = 0;   /* occupancy_limit, shown by default, is in --columns */
    for (int k = 0; k < c->extra.n; k++)
        extra_limit |= c->extra.metric[k] == WS_M_occupancy_limit;
    char cond[1024] = "";
    if (where)
        row_where_format(where, cond, sizeof cond);
    const char *one = row_groups_one_workload(&c->groups);
    printf("best %zu %sby %s (%s%s, status ok%s%s%s%s%s):\n", c->nshown, c->replicated ? "configurations " : "",
           ws_metrics[c->metric].name, c->minimize ? "lowest" : "highest",
           c->replicated ? " mean over seeds, 95% Student-t intervals, tied: overlapping the best's" : "",
           where ? ", where " : "", cond, one ? ", workload " : "", one ? one : "",
           c->groups.n > 1 ? ", per group" : "");
    size_t k = 0;
    for (int g = 0; g < c->groups.n; g++) {
        char label[256];
        row_groups_label(&c->groups, g, label, sizeof label);
        if (label[0])
            printf(" %s:\n", label);
        size_t tied_shown = 0;
        for (; k < c->nshown && c->conf[c->shown[k].conf].group == g; k++) {
            print_conf(c, &c->shown[k], show, extra_limit);
            tied_shown += c->shown[k].tied ? c->shown[k].nmembers : 0;
        }
        if (rk->ntied[g] > tied_shown)
            printf("  ... %zu configurations tied with the best in all (--top %zu lists them)\n", rk->ntied[g],
                   rk->ntied[g]);
    }
}

int cmd_info(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(USAGE, stdout);
        return WS_EXIT_OK;
    }
    const char *file = NULL, *best = NULL, *where_spec = NULL, *by = NULL, *columns = NULL;
    info_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return WS_EXIT_FAIL;
    c->metric = -1;
    c->top = 5;
    int rc = WS_EXIT_USAGE;
    row_where where = {0};
    ranking rk = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--best") == 0)   /* its METRIC is optional: not an option, not a .h5 file */
            best = i + 1 < argc && argv[i + 1][0] != '-' && !ends_with(argv[i + 1], ".h5") ? argv[++i]
                                                                                              : DEFAULT_BEST;
        else if (strcmp(argv[i], "--top") == 0 && i + 1 < argc)
            c->top = atoi(argv[++i]);
        else if (strcmp(argv[i], "--min") == 0)
            c->minimize = 1;
        else if (strcmp(argv[i], "--where") == 0 && i + 1 < argc)
            where_spec = argv[++i];
        else if (strcmp(argv[i], "--by") == 0 && i + 1 < argc)
            by = argv[++i];
        else if (strcmp(argv[i], "--columns") == 0 && i + 1 < argc)
            columns = argv[++i];
        else if (argv[i][0] == '-' || file) {
            fprintf(stderr, "warpsweep info: unexpected argument '%s'\n" USAGE, argv[i]);
            goto out;
        } else
            file = argv[i];
    }
    if (!file || c->top < 1) {
        fputs(USAGE, stderr);
        goto out;
    }
    if ((where_spec || by || columns) && !best)
        best = DEFAULT_BEST;   /* conditioning is about the ranking */
    if (where_spec) {
        if (row_where_parse(where_spec, &where, "info"))
            goto out;
        c->where = &where;
    }
    where.wls = &c->wls;
    if (row_groups_init(&c->groups, by, &c->wls, "info"))
        goto out;
    if (columns && row_columns_parse(columns, &c->extra, "info"))
        goto out;
    if (best) {
        for (int m = 0; m < WS_NMETRICS; m++)
            if (strcmp(ws_metrics[m].name, best) == 0)
                c->metric = m;
        if (c->metric < 0) {
            fprintf(stderr, "warpsweep info: unknown metric '%s' (metrics:", best);
            for (int m = 0; m < WS_NMETRICS; m++)
                fprintf(stderr, " %s", ws_metrics[m].name);
            fprintf(stderr, ")\n");
            goto out;
        }
    }
    rc = WS_EXIT_FAIL;
    ws_error err;
    ws_file_info fi;
    if (access(file, F_OK) != 0 && explain_journal(file, 0))
        goto out;
    if (ws_store_info(file, &fi, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        goto out;
    }
    if (ws_store_read(file, on_row, c, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        goto out;
    }
    if (c->too_many_workloads) {
        fprintf(stderr, "warpsweep info: %s: more than %d workloads\n", file, ROW_WORKLOADS_MAX);
        goto out;
    }
    if (c->oom) {
        fprintf(stderr, "warpsweep info: out of memory\n");
        goto out;
    }
    if (c->too_many_groups) {
        fprintf(stderr, "warpsweep info: --by %s: more than %d values\n", by ? by : "workload", ROW_GROUPS_MAX);
        goto out;
    }
    if (c->where && row_where_report_empty(c->where, file, "info"))
        goto out;
    if (c->metric >= 0) {
        row_groups_warn(&c->groups, "info", "ranking");
        shown_axes(c, file, &fi, c->show);
        axis_effect_init(&c->effect, c->show);
        if (rank_groups(c, &rk)) {
            fprintf(stderr, "warpsweep info: out of memory\n");
            goto out;
        }
        if (ws_store_read(file, on_shown_row, c, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            goto out;
        }
    }
    printf("file:      %s\n", file);
    printf("sweep:     %s (hash %s)\n", fi.sweep_name, fi.sweep_hash);
    printf("created:   %s by warpsweep %s, format %lld, ", fi.created_utc, fi.warpsweep_version,
           (long long)fi.format_version);
    if (fi.model_version)
        printf("model version %lld%s\n", (long long)fi.model_version,
               fi.model_version == WS_MODEL_VERSION ? "" : " (not this warpsweep's: CHANGES.md says what differs)");
    else
        printf("before model versions (this warpsweep's model is version %d)\n", WS_MODEL_VERSION);
    printf("points:    %llu of %llu%s\n", (unsigned long long)fi.rows, (unsigned long long)fi.points_total,
           fi.rows < fi.points_total ? " (incomplete: warpsweep run --resume continues it)" : " (complete)");
    explain_journal(file, 1);
    printf("status:   ");
    for (int s = 0; s < WS_ST_COUNT; s++)
        printf(" %s %llu", ws_status_name(s), (unsigned long long)c->by_status[s]);
    printf("\nlimits:    occupancy of the ok points limited by");
    for (int l = 0; l < WS_OCC_COUNT; l++)
        printf(" %s %llu", ws_occupancy_limit_name(l), (unsigned long long)c->by_limit[l]);
    int ncol = 0;
    if (c->metric < 0) {   /* the file's layout; with a ranking, what the ranking shows */
        printf("\ncolumns:");
        ws_store_columns(file, print_col, &ncol, &err);
        printf("\n");
    } else {
        ws_store_columns(file, count_col, &ncol, &err);
        printf("\ncolumns:   %d (`warpsweep info %s` lists them; --columns A,B shows some with the best)\n", ncol, file);
    }
    if (c->where)
        printf("selected:  %llu of %llu rows\n", (unsigned long long)c->selected, (unsigned long long)c->rows);
    if (c->metric >= 0) {
        print_best(c, &rk, c->where);
        print_no_effect(c);
    }
    rc = WS_EXIT_OK;
out:
    free(c->conf);
    for (size_t l = 0; c->shown && l < c->nshown; l++) {
        free(c->shown[l].members);
        free(c->shown[l].params);
    }
    free(c->shown);
    rep_index_free(&c->ix);
    axis_effect_free(&c->effect);
    row_workloads_free(&c->wls);
    free(c);
    return rc;
}
