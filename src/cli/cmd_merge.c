/* warpsweep merge OUT.h5 SHARD.h5... [--allow-partial] [--force] [--quiet]
 * Joins the files of `warpsweep run --shard K/N` into one file equal to a
 * single-process run (see docs/cluster.md). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "warpsweep/shard.h"

static void usage_to(FILE *out)
{
    fprintf(out, "usage: warpsweep merge OUT.h5 SHARD.h5... [--allow-partial] [--force] [--quiet]\n");
}

static void usage(void) { usage_to(stderr); }

int cmd_merge(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        usage_to(stdout);
        return WS_EXIT_OK;
    }
    const char *out = NULL;
    const char **inputs = calloc((size_t)argc + 1, sizeof(char *));
    int n = 0, quiet = 0;
    ws_merge_opts o = {.report = stderr};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--allow-partial") == 0)
            o.allow_partial = 1;
        else if (strcmp(a, "--force") == 0)
            o.force = 1;
        else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0)
            quiet = 1;
        else if (strcmp(a, "-o") == 0 && i + 1 < argc && !out)
            out = argv[++i];
        else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "warpsweep merge: unexpected argument '%s'\n", a);
            usage();
            free(inputs);
            return WS_EXIT_USAGE;
        } else if (!out)
            out = a;
        else
            inputs[n++] = a;
    }
    if (!out || n == 0) {
        usage();
        free(inputs);
        return WS_EXIT_USAGE;
    }
    for (int i = 0; i < n; i++)
        if (strcmp(inputs[i], out) == 0) {
            fprintf(stderr, "warpsweep merge: the output %s is also an input\n", out);
            free(inputs);
            return WS_EXIT_USAGE;
        }
    ws_merge_result r;
    ws_error err;
    int rc = ws_store_merge(out, inputs, n, &o, &r, &err);
    free(inputs);
    if (rc) {
        fprintf(stderr, "%s\n", err.msg);
        return WS_EXIT_FAIL;
    }
    if (!quiet || r.missing) {
        fprintf(stderr, "warpsweep merge: %s: %" PRIu64 " of %" PRIu64 " points from %d shard file%s", out, r.rows,
                r.points_total, n, n == 1 ? "" : "s");
        if (r.missing)
            fprintf(stderr, " (partial: %" PRIu64 " missing, listed above)", r.missing);
        fprintf(stderr, "\n");
    }
    return WS_EXIT_OK;
}
