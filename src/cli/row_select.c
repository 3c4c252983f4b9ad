/* --where and --by for `info` and `pareto` (row_select.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>
#include "row_select.h"

#define WORKLOAD_YAML_MAX (16 << 20)   /* bytes: the largest workload file read for its name */

/* Axes that change what a front or a ranking answers without being a design
 * choice of the compared points: a preset swaps the whole machine, the node
 * scales every area (issue 27). Rows that differ in them are warned about. */
static const char *const question_axes[] = {"preset", "preset_core", "preset_mem", "preset_area", "area.node_nm"};
#define NQUESTION (int)(sizeof question_axes / sizeof question_axes[0])

/* ---- workloads ---- */


/* the top-level `name:` of the YAML file at path, or NULL. The path comes
 * from a results file, which may be damaged: only a regular file of a
 * workload's size is read (not /dev/zero, not a FIFO). */
static char *yaml_name(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > WORKLOAD_YAML_MAX)
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    yaml_parser_t parser;
    yaml_document_t doc;
    char *name = NULL;
    if (!yaml_parser_initialize(&parser)) {
        fclose(f);
        return NULL;
    }
    yaml_parser_set_input_file(&parser, f);
    if (yaml_parser_load(&parser, &doc)) {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (root && root->type == YAML_MAPPING_NODE)
            for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
                yaml_node_t *k = yaml_document_get_node(&doc, p->key), *v = yaml_document_get_node(&doc, p->value);
                if (k && v && k->type == YAML_SCALAR_NODE && v->type == YAML_SCALAR_NODE &&
                    strcmp((const char *)k->data.scalar.value, "name") == 0 && v->data.scalar.length)
                    name = strdup((const char *)v->data.scalar.value);
            }
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    fclose(f);
    return name;
}

int row_workload_id(row_workloads *w, const char *path)
{
    for (int i = 0; i < w->n; i++)
        if (strcmp(w->path[i], path) == 0)
            return i;
    if (w->n == ROW_WORKLOADS_MAX)
        return -1;
    char *name = yaml_name(path);
    w->path[w->n] = strdup(path);
    w->name[w->n] = name ? name : ws_workload_default_name(path);
    return w->n++;
}

const char *row_workload_label(const row_workloads *w, int id)
{
    for (int i = 0; i < w->n; i++)
        if (i != id && strcmp(w->name[i], w->name[id]) == 0)
            return w->path[id];
    return w->name[id];
}

void row_workloads_free(row_workloads *w)
{
    for (int i = 0; i < w->n; i++) {
        free(w->path[i]);
        free(w->name[i]);
    }
    w->n = 0;
}

/* ---- values ---- */

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

/* reading order: numbers ascending, choices in registry order */
static int value_before(int param, ws_value a, ws_value b)
{
    return ws_params[param].type == WS_PT_FLOAT ? a.f < b.f : a.i < b.i;
}

static void seen_add(row_seen *s, int param, ws_value v)
{
    for (int i = 0; i < s->n; i++)
        if (param < 0 ? s->v[i].i == v.i : same_value(param, s->v[i], v))
            return;
    if (s->n == ROW_SEEN_MAX) {
        s->more = 1;
        return;
    }
    s->v[s->n++] = v;
}

/* "100, 400" (workload names for param -1), sorted, "..." when cut */
static void seen_format(const row_seen *s, int param, const row_workloads *wls, char *buf, size_t len)
{
    ws_value v[ROW_SEEN_MAX];
    memcpy(v, s->v, sizeof v[0] * (size_t)s->n);
    for (int i = 1; i < s->n; i++)
        for (int j = i; j > 0; j--) {
            int swap = param < 0 ? strcmp(row_workload_label(wls, (int)v[j].i), row_workload_label(wls, (int)v[j - 1].i)) < 0
                                 : value_before(param, v[j], v[j - 1]);
            if (!swap)
                break;
            ws_value t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    buf[0] = 0;
    for (int i = 0; i < s->n; i++) {
        char one[256];
        if (param < 0)
            snprintf(one, sizeof one, "%s", row_workload_label(wls, (int)v[i].i));
        else
            ws_param_format(param, v[i], one, sizeof one);
        size_t at = strlen(buf);
        snprintf(buf + at, len - at, "%s%s", i ? ", " : "", one);
    }
    if (s->more) {
        size_t at = strlen(buf);
        snprintf(buf + at, len - at, ", ...");
    }
}

static const char *axis_name(int axis) { return axis == -1 ? "workload" : ws_params[axis].name; }

/* ---- --where ---- */

int row_where_parse(const char *spec, row_where *w, const char *cmd)
{
    memset(w, 0, sizeof *w);
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

static int condition_holds(const row_where *w, int k, const ws_row *row, int wl)
{
    if (w->param[k] != -1)
        return same_value(w->param[k], row->params[w->param[k]], w->value[k]);
    return wl >= 0 && (strcmp(w->wls->path[wl], w->workload[k]) == 0 || strcmp(w->wls->name[wl], w->workload[k]) == 0);
}

int row_where_match(row_where *w, const ws_row *row, int wl)
{
    int all = 1;
    for (int k = 0; k < w->n; k++) {
        if (w->param[k] == -1)
            seen_add(&w->seen[k], -1, (ws_value){.i = wl});
        else
            seen_add(&w->seen[k], w->param[k], row->params[w->param[k]]);
        if (condition_holds(w, k, row, wl))
            w->hits[k]++;
        else
            all = 0;
    }
    w->matched += (uint64_t)all;
    return all;
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
        snprintf(buf + at, len - at, "%s%s=%s", k ? ", " : "", axis_name(w->param[k]), v);
    }
}

int row_where_report_empty(const row_where *w, const char *file, const char *cmd)
{
    if (w->matched)
        return 0;
    char cond[1024], vals[2048];
    for (int k = 0; k < w->n; k++)
        if (!w->hits[k]) {   /* this condition alone selects nothing: what it could be */
            row_where one = *w;
            one.n = 1;
            one.param[0] = w->param[k];
            one.value[0] = w->value[k];
            snprintf(one.workload[0], sizeof one.workload[0], "%s", w->workload[k]);
            row_where_format(&one, cond, sizeof cond);
            seen_format(&w->seen[k], w->param[k], w->wls, vals, sizeof vals);
            fprintf(stderr, "warpsweep %s: %s: --where %s matches no row (%s in the file: %s)\n", cmd, file, cond,
                    axis_name(w->param[k]), vals[0] ? vals : "no rows");
            return 1;
        }
    row_where_format(w, cond, sizeof cond);
    fprintf(stderr, "warpsweep %s: %s: --where %s matches no row (each condition matches some rows, no row all of them)\n",
            cmd, file, cond);
    return 1;
}

/* ---- --by ---- */

int row_groups_init(row_groups *g, const char *by, row_workloads *wls, const char *cmd)
{
    memset(g, 0, sizeof *g);
    g->wls = wls;
    int named_workload = 0;
    if (by) {
        char *copy = strdup(by), *save = NULL;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            while (*tok == ' ')
                tok++;
            int a = axis_of(tok);
            if (a == -2) {
                fprintf(stderr, "warpsweep %s: --by: unknown parameter '%s' (did you mean '%s'?)\n", cmd, tok,
                        ws_param_suggest(tok));
                free(copy);
                return -1;
            }
            if (g->naxes == ROW_BY_MAX - 1) {
                fprintf(stderr, "warpsweep %s: --by: more than %d axes\n", cmd, ROW_BY_MAX - 1);
                free(copy);
                return -1;
            }
            int dup = 0;
            for (int i = 0; i < g->naxes; i++)
                dup |= g->axis[i] == a;
            if (!dup)
                g->axis[g->naxes++] = a;
            named_workload |= a == -1;
        }
        free(copy);
    }
    if (!named_workload) {   /* the workload first: rows of two kernels are never compared */
        memmove(g->axis + 1, g->axis, sizeof g->axis[0] * (size_t)g->naxes);
        g->axis[0] = -1;
        g->naxes++;
    }
    for (int i = 0; i < NQUESTION; i++) {
        int p = ws_param_find(question_axes[i]);
        if (p >= 0 && !row_groups_has(g, p))
            g->q[g->nq++] = p;
    }
    return 0;
}

int row_groups_has(const row_groups *g, int p)
{
    for (int i = 0; i < g->naxes; i++)
        if (g->axis[i] == p)
            return 1;
    return 0;
}

static ws_value key_of(const row_groups *g, int a, const ws_row *row, int wl)
{
    return g->axis[a] == -1 ? (ws_value){.i = wl} : row->params[g->axis[a]];
}

static int same_key(const row_groups *g, int i, const ws_row *row, int wl)
{
    for (int a = 0; a < g->naxes; a++) {
        ws_value v = key_of(g, a, row, wl);
        if (g->axis[a] == -1 ? g->key[i][a].i != v.i : !same_value(g->axis[a], g->key[i][a], v))
            return 0;
    }
    return 1;
}

int row_groups_add(row_groups *g, const ws_row *row, int wl)
{
    int i = 0;
    while (i < g->n && !same_key(g, i, row, wl))
        i++;
    if (i == g->n) {
        if (g->n == ROW_GROUPS_MAX)
            return -1;
        for (int a = 0; a < g->naxes; a++)
            g->key[i][a] = key_of(g, a, row, wl);
        for (int q = 0; q < g->nq; q++)
            g->qfirst[i][q] = row->params[g->q[q]];
        g->n++;
    }
    for (int q = 0; q < g->nq; q++) {
        seen_add(&g->qseen[q], g->q[q], row->params[g->q[q]]);
        if (!same_value(g->q[q], g->qfirst[i][q], row->params[g->q[q]]))
            g->qmixed[q] = 1;
    }
    return i;
}

static int group_before(const row_groups *g, int x, int y)
{
    for (int a = 0; a < g->naxes; a++) {
        ws_value u = g->key[x][a], v = g->key[y][a];
        if (g->axis[a] == -1) {
            int c = strcmp(row_workload_label(g->wls, (int)u.i), row_workload_label(g->wls, (int)v.i));
            if (c)
                return c < 0;
        } else if (!same_value(g->axis[a], u, v)) {
            return value_before(g->axis[a], u, v);
        }
    }
    return 0;
}

void row_groups_sort(row_groups *g, int *map)
{
    int order[ROW_GROUPS_MAX];
    for (int i = 0; i < g->n; i++)
        order[i] = i;
    for (int i = 1; i < g->n; i++)   /* insertion sort: a few dozen groups */
        for (int j = i; j > 0 && group_before(g, order[j], order[j - 1]); j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    ws_value(*keys)[ROW_BY_MAX] = malloc(sizeof g->key[0] * (size_t)(g->n ? g->n : 1));
    ws_value(*qf)[ROW_BY_MAX] = malloc(sizeof g->qfirst[0] * (size_t)(g->n ? g->n : 1));
    if (!keys || !qf) {   /* out of memory: keep reading order */
        for (int i = 0; i < g->n; i++)
            map[i] = i;
        free(keys);
        free(qf);
        return;
    }
    for (int i = 0; i < g->n; i++) {
        memcpy(keys[i], g->key[order[i]], sizeof keys[i]);
        memcpy(qf[i], g->qfirst[order[i]], sizeof qf[i]);
        map[order[i]] = i;
    }
    memcpy(g->key, keys, sizeof keys[0] * (size_t)g->n);
    memcpy(g->qfirst, qf, sizeof qf[0] * (size_t)g->n);
    free(keys);
    free(qf);
}

/* more than one workload among the groups: the label must name it */
static int several_workloads(const row_groups *g, int a)
{
    for (int i = 1; i < g->n; i++)
        if (g->key[i][a].i != g->key[0][a].i)
            return 1;
    return 0;
}

void row_groups_label(const row_groups *g, int i, char *buf, size_t len)
{
    buf[0] = 0;
    for (int a = 0; a < g->naxes; a++) {
        char v[256];
        if (g->axis[a] == -1) {
            if (!several_workloads(g, a))
                continue;
            snprintf(v, sizeof v, "%s", row_workload_label(g->wls, (int)g->key[i][a].i));
        } else {
            ws_param_format(g->axis[a], g->key[i][a], v, sizeof v);
        }
        size_t at = strlen(buf);
        snprintf(buf + at, len - at, "%s%s=%s", at ? ", " : "", axis_name(g->axis[a]), v);
    }
}

void row_groups_warn(const row_groups *g, const char *cmd, const char *what)
{
    char line[2048] = "", vals[1024], by[512] = "";
    for (int q = 0; q < g->nq; q++) {
        if (!g->qmixed[q])
            continue;
        seen_format(&g->qseen[q], g->q[q], g->wls, vals, sizeof vals);
        size_t at = strlen(line);
        snprintf(line + at, sizeof line - at, "%s%s (%s)", at ? " and " : "", ws_params[g->q[q]].name, vals);
        at = strlen(by);
        snprintf(by + at, sizeof by - at, ",%s", ws_params[g->q[q]].name);
    }
    if (!line[0])
        return;
    char axes[512] = "";
    for (int a = 0; a < g->naxes; a++) {
        size_t at = strlen(axes);
        snprintf(axes + at, sizeof axes - at, "%s%s", a ? "," : "", axis_name(g->axis[a]));
    }
    fprintf(stderr, "warpsweep %s: warning: %s varies inside a %s, which then compares different machines or nodes; "
                    "--by %s%s or --where keeps them apart\n", cmd, line, what, axes, by);
}

const char *row_groups_one_workload(const row_groups *g)
{
    for (int a = 0; a < g->naxes; a++)
        if (g->axis[a] == -1)
            return g->n && !several_workloads(g, a) ? row_workload_label(g->wls, (int)g->key[0][a].i) : NULL;
    return NULL;
}

/* ---- shown columns ---- */

/* the keys of a YAML mapping node that name parameters, marked in axis[] */
static void mark_keys(yaml_document_t *doc, yaml_node_t *map, uint8_t *axis)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        int id = k && k->type == YAML_SCALAR_NODE ? ws_param_find((const char *)k->data.scalar.value) : -1;
        if (id >= 0)
            axis[id] = 1;
    }
}

static yaml_node_t *map_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return NULL;
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        if (k && k->type == YAML_SCALAR_NODE && strcmp((const char *)k->data.scalar.value, key) == 0)
            return yaml_document_get_node(doc, p->value);
    }
    return NULL;
}

/* The parameters on an axis of the sweep called name in a stored sweep text:
 * the keys of its grid and of each zip entry (docs/sweeps.md). Read here
 * rather than by ws_sweep_load_text, which would need the workload files
 * (an exclude names workloads by their name:). 0, or -1 when not found. */
static int sweep_axes(const char *text, const char *name, uint8_t *axis)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return -1;
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    int found = -1;
    for (;;) {
        yaml_document_t doc;
        if (!yaml_parser_load(&parser, &doc))
            break;
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (!root) {   /* the end of the stream */
            yaml_document_delete(&doc);
            break;
        }
        yaml_node_t *nm = map_get(&doc, root, "name");
        if (found < 0 && nm && nm->type == YAML_SCALAR_NODE && strcmp((const char *)nm->data.scalar.value, name) == 0) {
            found = 0;
            mark_keys(&doc, map_get(&doc, root, "grid"), axis);
            yaml_node_t *zip = map_get(&doc, root, "zip");
            if (zip && zip->type == YAML_SEQUENCE_NODE)
                for (yaml_node_item_t *i = zip->data.sequence.items.start; i < zip->data.sequence.items.top; i++)
                    mark_keys(&doc, yaml_document_get_node(&doc, *i), axis);
            else
                mark_keys(&doc, zip, axis);
        }
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    return found;
}

void row_axes_shown(const char *file, const char *sweep_name, const ws_varying *var, uint8_t *show)
{
    memcpy(show, var->varies, WS_NPARAMS);
    ws_error err;
    char *text = ws_store_sweep_text(file, &err);
    uint8_t axis[WS_NPARAMS] = {0};
    if (text && sweep_axes(text, sweep_name, axis) == 0) {
        int seed = ws_param_find("seed");
        for (int p = 0; p < WS_NPARAMS; p++)
            show[p] = var->varies[p] && (axis[p] || p == seed);
    }
    free(text);
}

int row_columns_parse(const char *spec, row_columns *c, const char *cmd)
{
    memset(c, 0, sizeof *c);
    char *copy = strdup(spec), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        int m = -1, p = ws_param_find(tok);
        for (int i = 0; i < WS_NMETRICS && p < 0; i++)
            if (strcmp(ws_metrics[i].name, tok) == 0)
                m = i;
        if (p < 0 && m < 0) {
            fprintf(stderr, "warpsweep %s: --columns: '%s' is neither a parameter nor a metric (did you mean '%s'? "
                            "`warpsweep info FILE` lists the columns)\n",
                    cmd, tok, ws_param_suggest(tok));
            rc = -1;
            break;
        }
        if (c->n == ROW_COLUMNS_MAX) {
            fprintf(stderr, "warpsweep %s: --columns: more than %d columns\n", cmd, ROW_COLUMNS_MAX);
            rc = -1;
            break;
        }
        c->param[c->n] = p;
        c->metric[c->n++] = m;
    }
    free(copy);
    return rc;
}

const char *row_column_name(const row_columns *c, int k)
{
    return c->param[k] >= 0 ? ws_params[c->param[k]].name : ws_metrics[c->metric[k]].name;
}

void row_column_format(const row_columns *c, int k, const ws_row *row, char *buf, size_t len)
{
    int m = c->metric[k];
    if (c->param[k] >= 0)
        ws_param_format(c->param[k], row->params[c->param[k]], buf, len);
    else if (ws_metrics[m].is_float)
        snprintf(buf, len, "%.6g", row->metrics[m].f);
    else if (!ws_metric_label(m, row->metrics[m].i, buf, len))
        snprintf(buf, len, "%lld", (long long)row->metrics[m].i);
}
