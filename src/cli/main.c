/* warpsweep: the command line. Dispatches to one function per subcommand. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "warpsweep/params.h"
#include "warpsweep/store.h"

#define NOT_YET(name)                                                          \
    __attribute__((weak)) int cmd_##name(int argc, char **argv)                \
    {                                                                          \
        (void)argc; (void)argv;                                                \
        fprintf(stderr, "warpsweep: '" #name "' is not built into this version\n"); \
        return WS_EXIT_USAGE;                                                  \
    }
NOT_YET(sim)
NOT_YET(inspect)
NOT_YET(run)
NOT_YET(expand)
NOT_YET(info)
NOT_YET(pareto)
NOT_YET(merge)
NOT_YET(slurm)

int cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

#define PARAMS_USAGE "usage: warpsweep params [--presets] [--format table|csv|json]\n"

int cmd_params(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(PARAMS_USAGE, stdout);
        return WS_EXIT_OK;
    }
    ws_params_fmt fmt = WS_PARAMS_TABLE;
    int presets = 0;
    for (int i = 1; i < argc; i++) {
        const char *f = NULL;
        if (strcmp(argv[i], "--presets") == 0)
            presets = 1;
        else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc)
            f = argv[++i];
        else if (strncmp(argv[i], "--format=", 9) == 0)
            f = argv[i] + 9;
        else {
            fprintf(stderr, "warpsweep params: unexpected argument '%s'\n" PARAMS_USAGE, argv[i]);
            return WS_EXIT_USAGE;
        }
        if (!f)
            continue;
        if (strcmp(f, "table") == 0)
            fmt = WS_PARAMS_TABLE;
        else if (strcmp(f, "csv") == 0)
            fmt = WS_PARAMS_CSV;
        else if (strcmp(f, "json") == 0)
            fmt = WS_PARAMS_JSON;
        else {
            fprintf(stderr, "warpsweep params: --format expects table, csv or json, got '%s'\n", f);
            return WS_EXIT_USAGE;
        }
    }
    if (presets && fmt != WS_PARAMS_TABLE) {
        fprintf(stderr, "warpsweep params: --presets prints a table; --format applies to the parameters\n");
        return WS_EXIT_USAGE;
    }
    if (presets)
        ws_presets_print(stdout, 1);
    else
        ws_params_print(stdout, fmt);
    return WS_EXIT_OK;
}

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} commands[] = {
    {"run", cmd_run, "run SWEEP.yaml [-o OUT.h5] [-j N] [--set name=value]... [--resume|--force] [--shard K/N]"},
    {"expand", cmd_expand, "expand SWEEP.yaml [--count]: the sweep's points as CSV"},
    {"info", cmd_info, "info FILE.h5 [--best [METRIC]] [--where A=V,...] [--by AXIS]: counts by status, columns, best points (default work_per_area)"},
    {"pareto", cmd_pareto, "pareto FILE.h5 [--x area_mm2 --y work_ipc] [--where A=V,...] [--by AXIS]: Pareto-optimal points"},
    {"merge", cmd_merge, "merge OUT.h5 SHARD.h5...: join shard files"},
    {"slurm", cmd_slurm, "slurm SWEEP.yaml --tasks N: write SLURM batch scripts"},
    {"sim", cmd_sim, "sim WORKLOAD.yaml [--set name=value]... [--json] [--dump BUF] [--trace F.csv] [--timeline] [--reference]"},
    {"inspect", cmd_inspect, "inspect WORKLOAD.yaml|KERNEL.ptx [--divergence SCHEME]: decoded kernel, blocks, post-dominators"},
    {"params", cmd_params, "params [--presets] [--format table|csv|json]: the parameter registry and the presets (--presets: every value's source)"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: warpsweep COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %s\n", commands[i].help);
    fprintf(out, "  --version\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return WS_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
#ifdef WS_HAVE_MPI
        printf("warpsweep %s, model version %d (MPI: yes)\n", WS_VERSION, WS_MODEL_VERSION);
#else
        printf("warpsweep %s, model version %d (MPI: no)\n", WS_VERSION, WS_MODEL_VERSION);
#endif
        return WS_EXIT_OK;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return WS_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "warpsweep: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return WS_EXIT_USAGE;
}
