/* warpsweep expand SWEEP.yaml [--count] [--name N] [--all] [--set name=value]... [--max-points N]
 * Prints the sweep's points as CSV (header: point, workload, seed, then the
 * parameters that vary: grid, zip and derived ones; --all: every
 * parameter), or with --count only the number of points. The note column
 * says why a point will be invalid: a derived value out of range, or a CTA
 * that needs more warp slots, registers or shared memory than the point's
 * core has (the occupancy check the simulator makes before it runs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "warpsweep/sim.h"
#include "warpsweep/sweep.h"

static void usage_to(FILE *out)
{
    fprintf(out, "usage: warpsweep expand SWEEP.yaml [--count] [--name NAME] [--all] [--set name=value]... "
                    "[--max-points N]\n");
}

static void usage(void) { usage_to(stderr); }

/* Why point pt will be invalid ("" when it will run): the derived-value
 * check, then one CTA that does not fit the core. */
static const char *point_note(ws_workload *const *wls, const ws_point *pt, char *buf, size_t len)
{
    if (pt->invalid)
        return pt->message;
    const ws_workload *wl = wls[pt->workload];
    if (!wl)
        return "";
    ws_occupancy occ;
    if (wl->nstmts <= 1) {
        ws_occupancy_compute(wl, wl->kernel, &pt->cfg, &occ);
        if (occ.fits)
            return "";
        snprintf(buf, len, "invalid: %s", occ.why);
        return buf;
    }
    for (uint32_t i = 0; i < wl->nlaunches; i++) {   /* a sequence: every launch must fit */
        ws_occupancy_launch(&wl->launches[i], wl->launches[i].kernel, &pt->cfg, &occ);
        if (!occ.fits) {
            snprintf(buf, len, "invalid: launch %.60s: %.400s", wl->launches[i].name, occ.why);
            return buf;
        }
    }
    return "";
}

static void csv_str(const char *s)
{
    if (strpbrk(s, ",\"\n")) {
        putchar('"');
        for (; *s; s++) {
            if (*s == '"')
                putchar('"');
            putchar(*s);
        }
        putchar('"');
    } else {
        fputs(s, stdout);
    }
}

int cmd_expand(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        usage_to(stdout);
        return WS_EXIT_OK;
    }
    const char *file = NULL, *name = NULL;
    int count_only = 0, all = 0;
    uint64_t max_points = 0;
    const char **sets = calloc((size_t)argc + 1, sizeof(char *));
    int nsets = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--count") == 0)
            count_only = 1;
        else if (strcmp(argv[i], "--all") == 0)
            all = 1;
        else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
            name = argv[++i];
        else if (strcmp(argv[i], "--set") == 0 && i + 1 < argc)
            sets[nsets++] = argv[++i];
        else if (strcmp(argv[i], "--max-points") == 0 && i + 1 < argc)
            max_points = strtoull(argv[++i], NULL, 10);
        else if (argv[i][0] == '-' || file) {
            fprintf(stderr, "warpsweep expand: unexpected argument '%s'\n", argv[i]);
            usage();
            free(sets);
            return WS_EXIT_USAGE;
        } else
            file = argv[i];
    }
    if (!file) {
        usage();
        free(sets);
        return WS_EXIT_USAGE;
    }
    ws_sweep_opts opts = {.sets = sets, .nsets = nsets, .load_workloads = 0};
    ws_sweep **sws;
    int n;
    ws_error err;
    if (ws_sweep_load(file, name, &opts, &sws, &n, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        free(sets);
        return WS_EXIT_FAIL;
    }
    free(sets);
    int rc = WS_EXIT_OK;
    if (count_only) {
        for (int s = 0; s < n; s++) {
            if (n > 1)
                printf("%s ", sws[s]->name);
            printf("%llu\n", (unsigned long long)sws[s]->count);
        }
        ws_sweeps_free(sws, n);
        return rc;
    }
    if (n > 1) {
        fprintf(stderr, "warpsweep expand: %s holds %d sweeps; choose one with --name (", file, n);
        for (int s = 0; s < n; s++)
            fprintf(stderr, "%s%s", s ? ", " : "", sws[s]->name);
        fprintf(stderr, ")\n");
        ws_sweeps_free(sws, n);
        return WS_EXIT_USAGE;
    }
    ws_sweep *sw = sws[0];
    if (ws_sweep_check_size(sw, max_points, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        ws_sweeps_free(sws, n);
        return WS_EXIT_FAIL;
    }
    int seed_id = ws_param_find("seed");
    /* the workloads, for the occupancy check of the note column; expand is
     * a preview, so one that does not load only loses that check */
    ws_workload **wls = calloc((size_t)sw->nworkloads, sizeof *wls);
    for (int w = 0; wls && w < sw->nworkloads; w++)
        if (sw->workloads && sw->workloads[w])   /* loaded by the sweep (wl.NAME variants): with their variables */
            wls[w] = sw->workloads[w];
        else if (!(wls[w] = ws_workload_load(sw->workload_paths[w], &err)))
            fprintf(stderr, "warpsweep expand: note: the occupancy check is skipped for %s: %s\n",
                    sw->workload_names[w], err.msg);
    ws_point pt;
    char buf[128], note[WS_ERROR_LEN + 16];
    int with_note = sw->nderived > 0;   /* a note column when some point needs one */
    for (uint64_t k = 0; k < sw->count && !with_note && wls; k++) {
        ws_sweep_point(sw, k, &pt);
        with_note = point_note(wls, &pt, note, sizeof note)[0] != 0;
    }
    printf("point,workload,seed");
    for (int i = 0; i < WS_NPARAMS; i++)
        if (i != seed_id && (all || sw->varying[i]))
            printf(",%s", ws_params[i].name);
    if (with_note)
        printf(",note");
    printf("\n");
    for (uint64_t k = 0; k < sw->count; k++) {
        ws_sweep_point(sw, k, &pt);
        printf("%llu,", (unsigned long long)k);
        csv_str(sw->workload_names[pt.workload]);
        printf(",%llu", (unsigned long long)pt.seed);
        for (int i = 0; i < WS_NPARAMS; i++)
            if (i != seed_id && (all || sw->varying[i])) {
                ws_param_format(i, pt.cfg.v[i], buf, sizeof buf);
                printf(",%s", buf);
            }
        if (with_note) {
            putchar(',');
            csv_str(wls ? point_note(wls, &pt, note, sizeof note) : pt.invalid ? pt.message : "");
        }
        putchar('\n');
    }
    for (int w = 0; wls && w < sw->nworkloads; w++)
        if (wls[w] && !(sw->workloads && sw->workloads[w] == wls[w]))
            ws_workload_free(wls[w]);
    free(wls);
    ws_sweeps_free(sws, n);
    return rc;
}
