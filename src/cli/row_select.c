/* --where and --by for `info` and `pareto` (row_select.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "row_select.h"

/* the axis a name refers to: a parameter id, -1 for "workload", -2 unknown */
static int axis_of(const char *name)
{
    if (strcmp(name, "workload") == 0)
        return -1;
    int p = ws_param_find(name);
    return p >= 0 ? p : -2;
}

static int same_value(int param, ws_value a, ws_value b)
{
    return ws_params[param].type == WS_PT_FLOAT ? a.f == b.f : a.i == b.i;
}

int row_where_parse(const char *spec, row_where *w, const char *cmd)
{
    w->n = 0;
    char *copy = strdup(spec), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok || !eq[1]) {
            fprintf(stderr, "warpsweep %s: --where expects name=value[,name=value...], got '%s'\n", cmd, tok);
            rc = -1;
            break;
        }
        *eq = 0;
        int axis = axis_of(tok);
        if (axis == -2) {
            fprintf(stderr, "warpsweep %s: --where: unknown parameter '%s' (did you mean '%s'?)\n", cmd, tok,
                    ws_param_suggest(tok));
            rc = -1;
            break;
        }
        if (w->n == ROW_WHERE_MAX) {
            fprintf(stderr, "warpsweep %s: --where: more than %d conditions\n", cmd, ROW_WHERE_MAX);
            rc = -1;
            break;
        }
        int k = w->n++;
        w->param[k] = axis;
        if (axis == -1) {
            snprintf(w->workload[k], sizeof w->workload[k], "%s", eq + 1);
        } else {
            ws_error err;
            if (ws_param_parse(axis, eq + 1, &w->value[k], &err)) {
                fprintf(stderr, "warpsweep %s: --where: %s\n", cmd, err.msg);
                rc = -1;
            }
        }
    }
    if (!rc && w->n == 0) {
        fprintf(stderr, "warpsweep %s: --where expects name=value[,name=value...]\n", cmd);
        rc = -1;
    }
    free(copy);
    return rc;
}

int row_where_match(const row_where *w, const ws_row *row, const char *workload)
{
    for (int k = 0; k < w->n; k++) {
        if (w->param[k] == -1 ? strcmp(workload, w->workload[k]) != 0
                              : !same_value(w->param[k], row->params[w->param[k]], w->value[k]))
            return 0;
    }
    return 1;
}

void row_where_format(const row_where *w, char *buf, size_t len)
{
    buf[0] = 0;
    for (int k = 0; k < w->n; k++) {
        char v[256];
        if (w->param[k] == -1)
            snprintf(v, sizeof v, "%s", w->workload[k]);
        else
            ws_param_format(w->param[k], w->value[k], v, sizeof v);
        size_t at = strlen(buf);
        snprintf(buf + at, len - at, "%s%s=%s", k ? ", " : "", w->param[k] == -1 ? "workload" : ws_params[w->param[k]].name, v);
    }
}

int row_groups_init(row_groups *g, const char *by, const char *cmd)
{
    memset(g, 0, sizeof *g);
    g->param = -2;
    if (!by)
        return 0;
    g->param = axis_of(by);
    if (g->param == -2) {
        fprintf(stderr, "warpsweep %s: --by: unknown parameter '%s' (did you mean '%s'?)\n", cmd, by,
                ws_param_suggest(by));
        return -1;
    }
    return 0;
}

int row_groups_add(row_groups *g, const ws_row *row, const char *workload)
{
    if (g->param == -2) {
        g->n = 1;
        return 0;
    }
    for (int i = 0; i < g->n; i++)
        if (g->param == -1 ? strcmp(g->workload[i], workload) == 0
                           : same_value(g->param, g->value[i], row->params[g->param]))
            return i;
    if (g->n == ROW_GROUPS_MAX)
        return -1;
    if (g->param == -1)
        g->workload[g->n] = strdup(workload);
    else
        g->value[g->n] = row->params[g->param];
    return g->n++;
}

static int before(const row_groups *g, int a, int b)
{
    if (g->param == -1)
        return strcmp(g->workload[a], g->workload[b]) < 0;
    if (ws_params[g->param].type == WS_PT_FLOAT)
        return g->value[a].f < g->value[b].f;
    return g->value[a].i < g->value[b].i;   /* choices: registry order */
}

void row_groups_sort(row_groups *g, int *map)
{
    int order[ROW_GROUPS_MAX];
    for (int i = 0; i < g->n; i++)
        order[i] = i;
    for (int i = 1; i < g->n; i++)   /* insertion sort: a few dozen groups */
        for (int j = i; j > 0 && before(g, order[j], order[j - 1]); j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    ws_value v[ROW_GROUPS_MAX];
    char *wl[ROW_GROUPS_MAX];
    for (int i = 0; i < g->n; i++) {
        v[i] = g->value[order[i]];
        wl[i] = g->workload[order[i]];
        map[order[i]] = i;
    }
    memcpy(g->value, v, sizeof v[0] * (size_t)g->n);
    memcpy(g->workload, wl, sizeof wl[0] * (size_t)g->n);
}

void row_groups_label(const row_groups *g, int i, char *buf, size_t len)
{
    if (g->param == -2) {
        buf[0] = 0;
    } else if (g->param == -1) {
        snprintf(buf, len, "workload=%s", g->workload[i]);
    } else {
        char v[128];
        ws_param_format(g->param, g->value[i], v, sizeof v);
        snprintf(buf, len, "%s=%s", ws_params[g->param].name, v);
    }
}

void row_groups_free(row_groups *g)
{
    for (int i = 0; i < g->n; i++)
        free(g->workload[i]);
}
