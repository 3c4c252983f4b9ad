/* warpsweep info FILE.h5 [--best [METRIC]] [--top N] [--min]
 * Summary of a results file: sweep, counts by status, the columns, and the
 * best points (status ok) by a metric (highest first; --min: lowest).
 * --best alone ranks by work_per_area: the launch's fixed work per second
 * per mm2, which neither spin iterations (ipc) nor a larger chip hide
 * (docs/model.md "Work throughput"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "warpsweep/store.h"
#include "warpsweep/sweep.h"

#define DEFAULT_BEST "work_per_area"
#define USAGE "usage: warpsweep info FILE.h5 [--best [METRIC]] [--top N] [--min]   (--best alone: " DEFAULT_BEST ")\n"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

typedef struct best_row {
    ws_row row;
    char workload[256];
    double key;
} best_row;

typedef struct info_ctx {
    uint64_t by_status[WS_ST_COUNT];
    uint64_t rows;
    int metric;          /* -1: none */
    int minimize;
    int top;
    best_row *best;
    int nbest;
    ws_varying var;             /* parameters that differ between rows: shown with the best */
} info_ctx;

static double metric_value(const ws_row *r, int m)
{
    return ws_metrics[m].is_float ? r->metrics[m].f : (double)r->metrics[m].i;
}

static int better(const info_ctx *c, double a, double b) { return c->minimize ? a < b : a > b; }

static int on_row(void *vctx, const ws_row *row, const char *workload)
{
    info_ctx *c = vctx;
    c->rows++;
    ws_varying_add(&c->var, row);
    if (row->status >= 0 && row->status < WS_ST_COUNT)
        c->by_status[row->status]++;
    if (c->metric < 0 || row->status != WS_ST_OK)
        return 0;
    double key = metric_value(row, c->metric);
    if (isnan(key))
        return 0;
    /* insertion into the sorted top-N (ties: lower point first) */
    int pos = c->nbest;
    while (pos > 0 && better(c, key, c->best[pos - 1].key))
        pos--;
    if (pos >= c->top)
        return 0;
    if (c->nbest < c->top)
        c->nbest++;
    memmove(&c->best[pos + 1], &c->best[pos], (size_t)(c->nbest - 1 - pos) * sizeof *c->best);
    c->best[pos].row = *row;
    snprintf(c->best[pos].workload, sizeof c->best[pos].workload, "%s", workload);
    c->best[pos].key = key;
    return 0;
}

static void print_col(void *ctx, const char *name, const char *type)
{
    int *n = ctx;
    printf("%s%s %s", (*n)++ % 4 ? ", " : "\n  ", name, type);
}

int cmd_info(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(USAGE, stdout);
        return WS_EXIT_OK;
    }
    const char *file = NULL, *best = NULL;
    info_ctx c = {.metric = -1, .top = 5};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--best") == 0)   /* its METRIC is optional: not an option, not a .h5 file */
            best = i + 1 < argc && argv[i + 1][0] != '-' && !ends_with(argv[i + 1], ".h5") ? argv[++i]
                                                                                              : DEFAULT_BEST;
        else if (strcmp(argv[i], "--top") == 0 && i + 1 < argc)
            c.top = atoi(argv[++i]);
        else if (strcmp(argv[i], "--min") == 0)
            c.minimize = 1;
        else if (argv[i][0] == '-' || file) {
            fprintf(stderr, "warpsweep info: unexpected argument '%s'\n"
                            USAGE, argv[i]);
            return WS_EXIT_USAGE;
        } else
            file = argv[i];
    }
    if (!file || c.top < 1) {
        fputs(USAGE, stderr);
        return WS_EXIT_USAGE;
    }
    if (best) {
        for (int m = 0; m < WS_NMETRICS; m++)
            if (strcmp(ws_metrics[m].name, best) == 0)
                c.metric = m;
        if (c.metric < 0) {
            const char *names[WS_NMETRICS];
            for (int m = 0; m < WS_NMETRICS; m++)
                names[m] = ws_metrics[m].name;
            fprintf(stderr, "warpsweep info: unknown metric '%s' (metrics:", best);
            for (int m = 0; m < WS_NMETRICS; m++)
                fprintf(stderr, " %s", names[m]);
            fprintf(stderr, ")\n");
            return WS_EXIT_USAGE;
        }
    }
    ws_error err;
    ws_file_info fi;
    if (ws_store_info(file, &fi, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return WS_EXIT_FAIL;
    }
    c.best = calloc((size_t)c.top + 1, sizeof *c.best);
    if (ws_store_read(file, on_row, &c, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        free(c.best);
        return WS_EXIT_FAIL;
    }
    printf("file:      %s\n", file);
    printf("sweep:     %s (hash %s)\n", fi.sweep_name, fi.sweep_hash);
    printf("created:   %s by warpsweep %s, format %lld\n", fi.created_utc, fi.warpsweep_version,
           (long long)fi.format_version);
    printf("points:    %llu of %llu%s\n", (unsigned long long)fi.rows, (unsigned long long)fi.points_total,
           fi.rows < fi.points_total ? " (incomplete: warpsweep run --resume continues it)" : " (complete)");
    printf("status:   ");
    for (int s = 0; s < WS_ST_COUNT; s++)
        printf(" %s %llu", ws_status_name(s), (unsigned long long)c.by_status[s]);
    printf("\ncolumns:");
    int ncol = 0;
    ws_store_columns(file, print_col, &ncol, &err);
    printf("\n");

    if (c.metric >= 0) {
        /* which parameters vary: the ones that differ between the file's rows */
        uint8_t show[WS_NPARAMS];
        memcpy(show, c.var.varies, sizeof show);
        int seed_id = ws_param_find("seed");
        printf("best %d by %s (%s, status ok):\n", c.nbest, ws_metrics[c.metric].name,
               c.minimize ? "lowest" : "highest");
        for (int b = 0; b < c.nbest; b++) {
            const ws_row *r = &c.best[b].row;
            printf("  %s=%.6g  point %llu  workload %s  seed %llu", ws_metrics[c.metric].name, c.best[b].key,
                   (unsigned long long)r->point, c.best[b].workload, (unsigned long long)r->seed);
            for (int i = 0; i < WS_NPARAMS; i++)
                if (show[i] && i != seed_id) {
                    char buf[64];
                    ws_param_format(i, r->params[i], buf, sizeof buf);
                    printf("  %s=%s", ws_params[i].name, buf);
                }
            printf("\n");
        }
    }
    free(c.best);
    return WS_EXIT_OK;
}
