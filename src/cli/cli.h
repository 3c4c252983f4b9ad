#ifndef WS_CLI_H
#define WS_CLI_H
/* Subcommands of the warpsweep command line; each lives in its own file
 * src/cli/cmd_NAME.c and returns the process exit code. */
int cmd_sim(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_params(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_expand(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_pareto(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_slurm(int argc, char **argv);

/* Nonzero when the command line asks for help (--help or -h anywhere): the
 * command then prints its usage on stdout and exits 0. */
int cli_wants_help(int argc, char **argv);

/* The note on the parts `preset` sets besides the memory (preset_note.c). */
#include <stdio.h>
#include "warpsweep/params.h"
void cli_note_preset(FILE *out, const ws_config *c);
struct ws_sweep;
void cli_note_sweep_presets(FILE *out, const struct ws_sweep *sw);

/* --set wl.NAME=NUMBER (wl_set.c): 0 collected into vars[*n], 1 not a
 * workload variable, -1 malformed (one line printed). */
#include "warpsweep/workload.h"
int cli_wl_var_set(const char *cmd, const char *set, ws_wl_var *vars, int *n);

/* Exit codes (documented in the README). */
enum {
    WS_EXIT_OK = 0,
    WS_EXIT_FAIL = 1,        /* the run finished but its status is not ok / bad input */
    WS_EXIT_USAGE = 2,       /* bad command line */
    WS_EXIT_INTERRUPTED = 3, /* SIGINT/SIGTERM: partial results written, --resume continues */
};
#endif
