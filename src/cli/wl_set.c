/*
 * `--set wl.NAME=NUMBER` of sim and inspect: a variable of the workload's
 * vars: (README "Workload variables"), collected for ws_workload_load_vars.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cli_wl_var_set(const char *cmd, const char *set, ws_wl_var *vars, int *n)
{
    if (strncmp(set, "wl.", 3) != 0) return 1;
    const char *eq = strchr(set, '=');
    char *end = NULL;
    double v = eq ? strtod(eq + 1, &end) : 0;
    size_t len = eq ? (size_t)(eq - set - 3) : 0;
    if (!eq || !len || len >= sizeof vars[0].name || end == eq + 1 || *end || *n == WS_MAX_WL_VARS) {
        fprintf(stderr, "warpsweep %s: --set %s: expected wl.NAME=NUMBER (a variable of the workload's vars:)\n", cmd,
                set);
        return -1;
    }
    snprintf(vars[*n].name, sizeof vars[*n].name, "%.*s", (int)len, set + 3);
    vars[(*n)++].value = v;
    return 0;
}
