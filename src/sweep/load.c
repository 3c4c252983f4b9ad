/* Sweep files: YAML (a stream of one or more documents) -> ws_sweep.
 * Every error is one line, file:line:col: message, raised before anything
 * runs. The format is documented in docs/sweeps.md. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>
#include "warpsweep/sweep.h"
#include "warpsweep/inputs.h"
#include "sweep_internal.h"
#include "warpsweep/strutil.h"

typedef struct ctx {
    const char *file;
    yaml_document_t *doc;
    ws_error *err;
    ws_sweep *sw;
    const ws_sweep_opts *opts;
    /* where each parameter was set: 0 nowhere, 1 base, 2 axis, 3 --set */
    int where[WS_NPARAMS];
    int where_line[WS_NPARAMS], where_col[WS_NPARAMS];
    int seed_set;
    /* workload variables: wl.NAME keys of grid (several values) and base (one) */
    struct wlvar { char name[32]; double *vals; int n, line, col, in_grid, zip; } wlv[WS_MAX_WL_VARS];   /* zip: entry index + 1, 0: own axis */
    int nwlv;
} ctx;

static int line_of(const yaml_node_t *n) { return (int)n->start_mark.line + 1; }
static int col_of(const yaml_node_t *n) { return (int)n->start_mark.column + 1; }

#define FAIL(c, node, ...) ws_fail_at((c)->err, (c)->file, line_of(node), col_of(node), __VA_ARGS__)


static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static const char *closest(const char *name, const char *const *names, int n)
{
    return names[ws_closest(name, names, (size_t)n, NULL)];
}

static int is_wl_var(const yaml_node_t *key)
{
    const char *s = scalar(key);
    return s && strncmp(s, "wl.", 3) == 0;
}

/* wl.NAME: VALUE or [VALUES]: a variable of the sweep's workloads (README
 * "Workload variables"); grid values make the workload axis one variant of
 * each workload per combination. */
static int parse_wl_var(ctx *c, yaml_node_t *k, yaml_node_t *v, int in_grid)
{
    const char *name = scalar(k) + 3;
    if (!*name || strlen(name) >= sizeof c->wlv[0].name)
        return FAIL(c, k, "wl.: expected a workload variable name after 'wl.'");
    for (int i = 0; i < c->nwlv; i++)
        if (strcmp(c->wlv[i].name, name) == 0)
            return FAIL(c, k, "workload variable wl.%s is already set at line %d:%d", name, c->wlv[i].line, c->wlv[i].col);
    if (c->nwlv == WS_MAX_WL_VARS)
        return FAIL(c, k, "more than %d workload variables", WS_MAX_WL_VARS);
    struct wlvar *w = &c->wlv[c->nwlv];
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%s", name);
    w->line = line_of(k);
    w->col = col_of(k);
    w->in_grid = in_grid;
    yaml_node_t *one[1] = {v};
    yaml_node_t **items = one;
    int n = 1;
    yaml_node_t *list[256];
    if (v->type == YAML_SEQUENCE_NODE) {
        if (!in_grid) return FAIL(c, v, "base: wl.%s takes one value (lists go in grid)", name);
        n = 0;
        for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
            if (n == 256) return FAIL(c, v, "wl.%s: more than 256 values", name);
            list[n++] = yaml_document_get_node(c->doc, *it);
        }
        if (!n) return FAIL(c, v, "wl.%s: the list is empty", name);
        items = list;
    } else if (v->type != YAML_SCALAR_NODE) {
        return FAIL(c, v, "wl.%s: expected a number or a list of numbers", name);
    }
    w->vals = malloc((size_t)n * sizeof *w->vals);
    if (!w->vals) return FAIL(c, v, "out of memory");
    for (int i = 0; i < n; i++) {
        const char *t = scalar(items[i]);
        char *end;
        double d = t ? strtod(t, &end) : 0;
        if (!t || end == t || *end || !isfinite(d)) {
            free(w->vals);
            return FAIL(c, items[i], "wl.%s: '%s' is not a number", name, t ? t : "?");
        }
        w->vals[i] = d;
    }
    w->n = n;
    c->nwlv++;
    return 0;
}

/* The workload axis with the wl.* variables: each workload once per
 * combination of the grid values (in grid order, the first varying
 * slowest), named "NAME[var=value,...]", every variant loaded with the base
 * and its combination's values. */
static int expand_wl_vars(ctx *c)
{
    ws_sweep *sw = c->sw;
    ws_sweep_private *pv = ws_sweep_priv(sw);
    if (!c->nwlv) return 0;
    /* dimensions of the variants: each variable of the grid on its own, the
     * variables of one zip entry together (their value index moves as one) */
    int dim_of[WS_MAX_WL_VARS], dim_n[WS_MAX_WL_VARS], ndims = 0;
    for (int i = 0; i < c->nwlv; i++) {
        int d = -1;
        for (int j = 0; j < i && d < 0; j++)
            if (c->wlv[i].zip && c->wlv[j].zip == c->wlv[i].zip)
                d = dim_of[j];
        if (d < 0) {
            d = ndims++;
            dim_n[d] = c->wlv[i].n;
        }
        dim_of[i] = d;
    }
    uint64_t combos = 1;
    for (int d = 0; d < ndims; d++) combos *= (uint64_t)dim_n[d];
    uint64_t total = combos * (uint64_t)sw->nworkloads;
    if (total > 4096) return ws_fail(c->err, "%s: %llu workload variants (workloads x wl.* values), more than 4096",
                                     c->file, (unsigned long long)total);
    char **names = calloc(total, sizeof *names), **paths = calloc(total, sizeof *paths);
    int *lines = calloc(total, sizeof *lines), *cols = calloc(total, sizeof *cols), *nv = calloc(total, sizeof *nv);
    ws_wl_var (*vars)[WS_MAX_WL_VARS] = calloc(total, sizeof *vars);
    ws_workload **wls = calloc(total, sizeof *wls);
    if (!names || !paths || !lines || !cols || !nv || !vars || !wls) return ws_fail(c->err, "out of memory");
    uint64_t k = 0;
    for (int w = 0; w < sw->nworkloads; w++)
        for (uint64_t m = 0; m < combos; m++, k++) {
            char buf[1024];
            size_t len = (size_t)snprintf(buf, sizeof buf, "%s", sw->workload_names[w]);
            int shown = 0, at[WS_MAX_WL_VARS];
            uint64_t rest = m, div = combos;
            for (int d = 0; d < ndims; d++) {   /* the first dimension slowest */
                div /= (uint64_t)dim_n[d];
                at[d] = (int)(rest / div);
                rest %= div;
            }
            for (int i = 0; i < c->nwlv; i++) {
                int d = at[dim_of[i]];
                snprintf(vars[k][i].name, sizeof vars[k][i].name, "%s", c->wlv[i].name);
                vars[k][i].value = c->wlv[i].vals[d];
                if (c->wlv[i].in_grid && len < sizeof buf)
                    len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s=%.17g", shown++ ? "," : "[",
                                            c->wlv[i].name, c->wlv[i].vals[d]);
            }
            if (shown && len < sizeof buf) snprintf(buf + len, sizeof buf - len, "]");
            names[k] = strdup(buf);
            paths[k] = strdup(sw->workload_paths[w]);
            lines[k] = pv->workload_line[w];
            cols[k] = pv->workload_col[w];
            nv[k] = c->nwlv;
        }
    for (int w = 0; w < sw->nworkloads; w++) {
        free(sw->workload_names[w]);
        free(sw->workload_paths[w]);
    }
    free(sw->workload_names);
    free(sw->workload_paths);
    free(sw->workloads);
    free(pv->workload_line);
    free(pv->workload_col);
    sw->workload_names = names;
    sw->workload_paths = paths;
    sw->workloads = wls;
    pv->workload_line = lines;
    pv->workload_col = cols;
    pv->workload_vars = vars;
    pv->workload_nvars = nv;
    sw->nworkloads = (int)total;
    sw->axes[0].n = total;   /* axes[0] is the workload axis */
    return 0;
}

/* Looks up a parameter name; error with the closest valid name. */
static int param_id(ctx *c, const yaml_node_t *key)
{
    const char *name = scalar(key);
    if (!name)
        return FAIL(c, key, "expected a parameter name");
    if (strncmp(name, "wl.", 3) == 0)
        return FAIL(c, key, "workload variable '%s': give it in grid or a zip entry (several values) or base (one), not here", name);
    int id = ws_param_find(name);
    if (id < 0)
        return FAIL(c, key, "unknown parameter '%s' (did you mean '%s'?)", name, ws_param_suggest(name));
    return id;
}

static int add_expr(ctx *c, int id, const yaml_node_t *node, const char *text, int col_base, int line)
{
    ws_sweep *sw = c->sw;
    if (ws_params[id].type == WS_PT_CHOICE)
        return ws_fail_at(c->err, c->file, line, col_base, "parameter %s is a choice (%s) and cannot be derived",
                          ws_params[id].name, ws_params[id].choices);
    int off = 0;
    ws_error e;
    ws_expr *x = ws_expr_compile(text + 1, &off, &e);
    if (!x)
        return ws_fail_at(c->err, c->file, line, col_base + 1 + off, "parameter %s: %s", ws_params[id].name, e.msg);
    if (ws_expr_uses(x, id)) {
        int o = ws_expr_use_offset(x, id);
        ws_expr_free(x);
        return ws_fail_at(c->err, c->file, line, col_base + 1 + o,
                          "derived values form a cycle: %s -> %s", ws_params[id].name, ws_params[id].name);
    }
    sw->exprs = realloc(sw->exprs, (size_t)(sw->nexprs + 1) * sizeof *sw->exprs);
    sw->expr_param = realloc(sw->expr_param, (size_t)(sw->nexprs + 1) * sizeof *sw->expr_param);
    ws_sweep_priv(sw)->expr_line = realloc(ws_sweep_priv(sw)->expr_line, (size_t)(sw->nexprs + 1) * sizeof(int));
    ws_sweep_priv(sw)->expr_col = realloc(ws_sweep_priv(sw)->expr_col, (size_t)(sw->nexprs + 1) * sizeof(int));
    sw->exprs[sw->nexprs] = x;
    sw->expr_param[sw->nexprs] = id;
    ws_sweep_priv(sw)->expr_line[sw->nexprs] = line;
    ws_sweep_priv(sw)->expr_col[sw->nexprs] = col_base;
    (void)node;
    return sw->nexprs++;
}

/* Parses a text value of parameter id into slot; line/col locate text. */
static int parse_text_slot(ctx *c, int id, const yaml_node_t *node, const char *text, int line, int col,
                           ws_slot *slot)
{
    slot->expr = -1;
    slot->v.i = 0;
    if (text[0] == '=') {
        int e = add_expr(c, id, node, text, col, line);
        if (e < 0)
            return -1;
        slot->expr = e;
        return 0;
    }
    ws_error e;
    if (ws_param_parse(id, text, &slot->v, &e))
        return ws_fail_at(c->err, c->file, line, col, "%s", e.msg);
    return 0;
}

static int parse_slot(ctx *c, int id, const yaml_node_t *node, ws_slot *slot)
{
    const char *text = scalar(node);
    if (!text || !*text)
        return FAIL(c, node, "parameter %s: expected a value%s", ws_params[id].name,
                    ws_params[id].type == WS_PT_CHOICE ? "" : " (a number or an \"=expression\")");
    int col = col_of(node);
    if (node->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
        node->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
        col++;
    return parse_text_slot(c, id, node, text, line_of(node), col, slot);
}

static yaml_node_t *map_get(ctx *c, yaml_node_t *map, const char *key)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const char *k = scalar(yaml_document_get_node(c->doc, p->key));
        if (k && strcmp(k, key) == 0)
            return yaml_document_get_node(c->doc, p->value);
    }
    return NULL;
}

static yaml_node_t *map_key(ctx *c, yaml_node_t *map, const char *key)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
        if (scalar(k) && strcmp(scalar(k), key) == 0)
            return k;
    }
    return NULL;
}

static double num(ctx *c, yaml_node_t *n, const char *what, int *bad)
{
    const char *s = scalar(n);
    char *end;
    double d = s ? strtod(s, &end) : 0;
    if (!s || end == s || *end || !isfinite(d)) {
        FAIL(c, n, "%s: expected a number", what);
        *bad = 1;
    }
    return d;
}

static int add_value(ctx *c, ws_axis *a, int id, ws_value v, yaml_node_t *at)
{
    if (a->n >= WS_MAX_AXIS_VALUES)
        return FAIL(c, at, "parameter %s: more than %u values on one axis", ws_params[id].name, WS_MAX_AXIS_VALUES);
    const ws_param_def *p = &ws_params[id];
    double d = p->type == WS_PT_FLOAT ? v.f : (double)v.i;
    if (d < p->min || d > p->max)
        return FAIL(c, at, "parameter %s: %.15g is out of range [%.15g, %.15g]%s%s", p->name, d, p->min, p->max,
                    *p->unit ? " " : "", p->unit);
    if ((a->n & (a->n - 1)) == 0) {   /* capacity doubles at powers of two: ranges may hold 10^7 values */
        ws_slot *grown = realloc(a->values, (size_t)(a->n ? 2 * a->n : 1) * sizeof *a->values);
        if (!grown)
            return FAIL(c, at, "out of memory for the values of %s", ws_params[id].name);
        a->values = grown;
    }
    a->values[a->n].v = v;
    a->values[a->n].expr = -1;
    a->n++;
    return 0;
}

/* {from, to, step} or {from, to, mul} */
static int parse_range(ctx *c, int id, yaml_node_t *map, ws_axis *a)
{
    const ws_param_def *p = &ws_params[id];
    if (p->type == WS_PT_CHOICE)
        return FAIL(c, map, "parameter %s is a choice: give a list of names (%s)", p->name, p->choices);
    static const char *const keys[] = {"from", "to", "step", "mul"};
    for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < map->data.mapping.pairs.top; q++) {
        yaml_node_t *k = yaml_document_get_node(c->doc, q->key);
        const char *ks = scalar(k);
        int ok = 0;
        for (int i = 0; i < 4; i++)
            ok |= ks && strcmp(ks, keys[i]) == 0;
        if (!ok)
            return FAIL(c, k, "unknown range key '%s' (did you mean '%s'?)", ks ? ks : "?", closest(ks ? ks : "", keys, 4));
    }
    yaml_node_t *nf = map_get(c, map, "from"), *nt = map_get(c, map, "to");
    yaml_node_t *ns = map_get(c, map, "step"), *nm = map_get(c, map, "mul");
    if (!nf || !nt)
        return FAIL(c, map, "parameter %s: a range needs 'from' and 'to' (and 'step' or 'mul')", p->name);
    if (!!ns == !!nm)
        return FAIL(c, map, "parameter %s: a range needs exactly one of 'step' and 'mul'", p->name);
    ws_slot sf, st;
    if (parse_slot(c, id, nf, &sf) || parse_slot(c, id, nt, &st))
        return -1;
    if (sf.expr >= 0 || st.expr >= 0)
        return FAIL(c, map, "parameter %s: range bounds must be constants", p->name);
    double from = p->type == WS_PT_FLOAT ? sf.v.f : (double)sf.v.i;
    double to = p->type == WS_PT_FLOAT ? st.v.f : (double)st.v.i;
    int bad = 0;
    if (ns) {
        double step = num(c, ns, "step", &bad);
        if (bad)
            return -1;
        if (step == 0 || (to - from) * step < 0)
            return FAIL(c, ns, "parameter %s: step %g never gets from %g to %g", p->name, step, from, to);
        if (p->type == WS_PT_INT && step != floor(step))
            return FAIL(c, ns, "parameter %s is an integer: step must be an integer", p->name);
        double cnt = floor((to - from) / step * (1 + 1e-12) + 1e-9) + 1;
        if (cnt > WS_MAX_AXIS_VALUES)
            return FAIL(c, map, "parameter %s: the range has %.0f values, more than %u", p->name, cnt, WS_MAX_AXIS_VALUES);
        for (uint64_t i = 0; i < (uint64_t)cnt; i++) {
            ws_value v;
            if (p->type == WS_PT_FLOAT)
                v.f = from + (double)i * step;
            else
                v.i = sf.v.i + (int64_t)i * (int64_t)step;
            if (add_value(c, a, id, v, nt))
                return -1;
        }
        return 0;
    }
    double mul = num(c, nm, "mul", &bad);
    if (bad)
        return -1;
    if (!(mul > 1) && !(mul > 0 && mul < 1))
        return FAIL(c, nm, "parameter %s: mul must be positive and not 1", p->name);
    if (from == 0 || (mul > 1 ? to < from : to > from) || (from < 0) != (to < 0))
        return FAIL(c, nm, "parameter %s: mul %g never gets from %g to %g", p->name, mul, from, to);
    double x = from;
    for (;;) {
        if (mul > 1 ? x > to * (1 + 1e-12) : x < to * (1 - 1e-12))
            break;
        ws_value v;
        if (p->type == WS_PT_FLOAT)
            v.f = x;
        else {
            double r = nearbyint(x);
            if (fabs(r - x) > 1e-9 * fabs(x))
                return FAIL(c, nm, "parameter %s is an integer: %g * %g^k gives %g", p->name, from, mul, x);
            v.i = (int64_t)r;
        }
        if (add_value(c, a, id, v, nt))
            return -1;
        x *= mul;
    }
    return 0;
}

static int note_where(ctx *c, int id, int where, yaml_node_t *key)
{
    static const char *const what[] = {"", "base", "grid/zip", "--set"};
    if (c->where[id] == 2 || (c->where[id] && where == 2))
        return FAIL(c, key, "parameter %s is already set in %s at line %d:%d", ws_params[id].name, what[c->where[id]],
                    c->where_line[id], c->where_col[id]);
    c->where[id] = where;
    c->where_line[id] = line_of(key);
    c->where_col[id] = col_of(key);
    return 0;
}

static ws_axis *new_axis(ws_sweep *sw, ws_axis_kind kind, const char *label, int line, int col)
{
    sw->axes = realloc(sw->axes, (size_t)(sw->naxes + 1) * sizeof *sw->axes);
    ws_axis *a = &sw->axes[sw->naxes++];
    memset(a, 0, sizeof *a);
    a->kind = kind;
    a->label = strdup(label);
    a->line = line;
    a->col = col;
    return a;
}

static int parse_grid(ctx *c, yaml_node_t *grid)
{
    ws_sweep *sw = c->sw;
    if (grid->type == YAML_SCALAR_NODE && !*scalar(grid))
        return FAIL(c, grid, "the grid is empty: give at least one parameter with its values");
    if (grid->type != YAML_MAPPING_NODE)
        return FAIL(c, grid, "grid: expected a mapping of parameter: values");
    if (grid->data.mapping.pairs.start == grid->data.mapping.pairs.top)
        return FAIL(c, grid, "the grid is empty: give at least one parameter with its values");
    for (yaml_node_pair_t *q = grid->data.mapping.pairs.start; q < grid->data.mapping.pairs.top; q++) {
        yaml_node_t *k = yaml_document_get_node(c->doc, q->key);
        yaml_node_t *v = yaml_document_get_node(c->doc, q->value);
        if (is_wl_var(k)) {
            if (parse_wl_var(c, k, v, 1)) return -1;
            continue;
        }
        int id = param_id(c, k);
        if (id < 0 || note_where(c, id, 2, k))
            return -1;
        if (id == ws_param_find("seed"))
            c->seed_set = 1;
        ws_axis *a = new_axis(sw, WS_AXIS_PARAMS, ws_params[id].name, line_of(k), col_of(k));
        a->nparams = 1;
        a->params = malloc(sizeof(int));
        a->params[0] = id;
        if (v->type == YAML_SEQUENCE_NODE) {
            for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
                ws_slot s;
                if (parse_slot(c, id, yaml_document_get_node(c->doc, *it), &s))
                    return -1;
                a->values = realloc(a->values, (size_t)(a->n + 1) * sizeof *a->values);
                a->values[a->n++] = s;
            }
        } else if (v->type == YAML_MAPPING_NODE) {
            if (parse_range(c, id, v, a))
                return -1;
        } else {
            if (!*scalar(v))
                return FAIL(c, v, "grid axis %s has no values", ws_params[id].name);
            a->values = malloc(sizeof *a->values);
            if (parse_slot(c, id, v, &a->values[0]))
                return -1;
            a->n = 1;
        }
        if (a->n == 0)
            return FAIL(c, v, "grid axis %s has no values", ws_params[id].name);
    }
    return 0;
}

static int parse_zip(ctx *c, yaml_node_t *zip)
{
    ws_sweep *sw = c->sw;
    if (zip->type != YAML_SEQUENCE_NODE)
        return FAIL(c, zip, "zip: expected a list of {param: [values], param: [values]} entries");
    int idx = 0;
    for (yaml_node_item_t *it = zip->data.sequence.items.start; it < zip->data.sequence.items.top; it++, idx++) {
        yaml_node_t *e = yaml_document_get_node(c->doc, *it);
        if (e->type != YAML_MAPPING_NODE || e->data.mapping.pairs.start == e->data.mapping.pairs.top)
            return FAIL(c, e, "zip entry: expected a mapping of parameter: [values]");
        /* an entry of workload variables (wl.NAME lists) moves them together on the
         * workload axis; parameters and workload variables do not mix in one entry */
        int nwl = 0, np0 = 0;
        yaml_node_t *a_wl = NULL, *a_param = NULL;
        for (yaml_node_pair_t *q = e->data.mapping.pairs.start; q < e->data.mapping.pairs.top; q++, np0++)
            if (is_wl_var(yaml_document_get_node(c->doc, q->key)))
                nwl++, a_wl = a_wl ? a_wl : yaml_document_get_node(c->doc, q->key);
            else
                a_param = a_param ? a_param : yaml_document_get_node(c->doc, q->key);
        if (nwl && nwl < np0)
            return FAIL(c, a_param, "zip entry: %s is a parameter and %s a workload variable: an entry moves "
                        "workload variables together (variants of the workload axis) or parameters, not both",
                        scalar(a_param), scalar(a_wl));
        if (nwl) {
            int first = c->nwlv;
            for (yaml_node_pair_t *q = e->data.mapping.pairs.start; q < e->data.mapping.pairs.top; q++) {
                yaml_node_t *k = yaml_document_get_node(c->doc, q->key), *v = yaml_document_get_node(c->doc, q->value);
                if (v->type != YAML_SEQUENCE_NODE)
                    return FAIL(c, v, "zip: %s needs a list of values", scalar(k));
                if (parse_wl_var(c, k, v, 1)) return -1;
                c->wlv[c->nwlv - 1].zip = idx + 1;
                if (c->wlv[c->nwlv - 1].n != c->wlv[first].n)
                    return FAIL(c, v, "zip lists of unequal length: %s has %d values, wl.%s (line %d) has %d", scalar(k),
                                c->wlv[c->nwlv - 1].n, c->wlv[first].name, c->wlv[first].line, c->wlv[first].n);
            }
            continue;
        }
        char label[32];
        snprintf(label, sizeof label, "zip[%d]", idx);
        ws_axis *a = new_axis(sw, WS_AXIS_PARAMS, label, line_of(e), col_of(e));
        int np = (int)(e->data.mapping.pairs.top - e->data.mapping.pairs.start);
        a->params = malloc((size_t)np * sizeof(int));
        a->nparams = np;
        int j = 0;
        yaml_node_t *first_list = NULL;
        const char *first_name = NULL;
        for (yaml_node_pair_t *q = e->data.mapping.pairs.start; q < e->data.mapping.pairs.top; q++, j++) {
            yaml_node_t *k = yaml_document_get_node(c->doc, q->key);
            yaml_node_t *v = yaml_document_get_node(c->doc, q->value);
            int id = param_id(c, k);
            if (id < 0 || note_where(c, id, 2, k))
                return -1;
            if (id == ws_param_find("seed"))
                c->seed_set = 1;
            a->params[j] = id;
            if (v->type != YAML_SEQUENCE_NODE)
                return FAIL(c, v, "zip: %s needs a list of values", ws_params[id].name);
            uint64_t n = (uint64_t)(v->data.sequence.items.top - v->data.sequence.items.start);
            if (n == 0)
                return FAIL(c, v, "zip: %s has no values", ws_params[id].name);
            if (j == 0) {
                a->n = n;
                a->values = calloc((size_t)(n * (uint64_t)np), sizeof *a->values);
                first_list = v;
                first_name = ws_params[id].name;
            } else if (n != a->n) {
                return FAIL(c, v, "zip lists of unequal length: %s has %llu values, %s (line %d) has %llu",
                            ws_params[id].name, (unsigned long long)n, first_name, line_of(first_list),
                            (unsigned long long)a->n);
            }
            uint64_t d = 0;
            for (yaml_node_item_t *vi = v->data.sequence.items.start; vi < v->data.sequence.items.top; vi++, d++)
                if (parse_slot(c, id, yaml_document_get_node(c->doc, *vi), &a->values[d * (uint64_t)np + (uint64_t)j]))
                    return -1;
        }
    }
    return 0;
}

static int parse_base(ctx *c, yaml_node_t *base)
{
    if (base->type == YAML_SCALAR_NODE && !*scalar(base))
        return 0;
    if (base->type != YAML_MAPPING_NODE)
        return FAIL(c, base, "base: expected a mapping of parameter: value");
    for (yaml_node_pair_t *q = base->data.mapping.pairs.start; q < base->data.mapping.pairs.top; q++) {
        yaml_node_t *k = yaml_document_get_node(c->doc, q->key);
        yaml_node_t *v = yaml_document_get_node(c->doc, q->value);
        if (is_wl_var(k)) {
            if (parse_wl_var(c, k, v, 0)) return -1;
            continue;
        }
        int id = param_id(c, k);
        if (id < 0)
            return -1;
        if (c->where[id] == 1)
            return FAIL(c, k, "parameter %s is set twice in base", ws_params[id].name);
        if (note_where(c, id, 1, k))
            return -1;
        if (id == ws_param_find("seed"))
            c->seed_set = 1;
        if (v->type != YAML_SCALAR_NODE)
            return FAIL(c, v, "base: %s takes one value (lists go in grid or zip)", ws_params[id].name);
        if (parse_slot(c, id, v, &c->sw->base[id]))
            return -1;
    }
    return 0;
}

static int apply_sets(ctx *c)
{
    for (int i = 0; i < (c->opts ? c->opts->nsets : 0); i++) {
        const char *s = c->opts->sets[i];
        const char *eq = strchr(s, '=');
        if (!eq)
            return ws_fail(c->err, "--set %s: expected name=value", s);
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - s), s);
        int id = ws_param_find(name);
        if (id < 0)
            return ws_fail(c->err, "--set %s: unknown parameter '%s' (did you mean '%s'?)", s, name,
                           ws_param_suggest(name));
        if (c->where[id] == 2)
            return ws_fail(c->err, "--set %s: %s is an axis of the sweep (%s:%d:%d); --set overrides base only", s, name,
                           c->file, c->where_line[id], c->where_col[id]);
        ws_slot slot = {.expr = -1};
        if (eq[1] == '=') {
            char file[160];
            snprintf(file, sizeof file, "--set %s", s);
            const char *saved = c->file;
            c->file = file;
            int r = parse_text_slot(c, id, NULL, eq + 1, 1, (int)(eq - s) + 2, &slot);
            c->file = saved;
            if (r)
                return -1;
        } else {
            ws_error e;
            if (ws_param_parse(id, eq + 1, &slot.v, &e))
                return ws_fail(c->err, "--set %s: %s", s, e.msg);
        }
        if (id == ws_param_find("seed"))
            c->seed_set = 1;
        c->sw->base[id] = slot;
        c->where[id] = 3;
    }
    return 0;
}

static int parse_workloads(ctx *c, yaml_node_t *w)
{
    ws_sweep *sw = c->sw;
    enum { MAX_WORKLOADS = 4096 };
    yaml_node_t *items[MAX_WORKLOADS];
    int n = 0;
    if (w->type == YAML_SCALAR_NODE) {
        items[n++] = w;
    } else if (w->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *it = w->data.sequence.items.start; it < w->data.sequence.items.top; it++) {
            if (n == MAX_WORKLOADS)
                return FAIL(c, yaml_document_get_node(c->doc, *it), "workload: more than %d workloads in the list",
                            MAX_WORKLOADS);
            items[n++] = yaml_document_get_node(c->doc, *it);
        }
    } else {
        return FAIL(c, w, "workload: expected a path or a list of paths");
    }
    if (n == 0)
        return FAIL(c, w, "workload: the list is empty");
    sw->workload_names = calloc((size_t)n, sizeof(char *));
    sw->workload_paths = calloc((size_t)n, sizeof(char *));
    sw->workloads = calloc((size_t)n, sizeof(ws_workload *));
    ws_sweep_priv(sw)->workload_line = calloc((size_t)n, sizeof(int));
    ws_sweep_priv(sw)->workload_col = calloc((size_t)n, sizeof(int));
    sw->nworkloads = n;
    ws_axis *a = new_axis(sw, WS_AXIS_WORKLOAD, "workload", line_of(w), col_of(w));
    a->n = (uint64_t)n;
    const char *slash = strrchr(c->file, '/');
    for (int i = 0; i < n; i++) {
        const char *s = scalar(items[i]);
        if (!s || !*s)
            return FAIL(c, items[i], "workload: expected a path");
        for (int j = 0; j < i; j++)
            if (strcmp(sw->workload_names[j], s) == 0)
                return FAIL(c, items[i], "workload %s is listed twice", s);
        sw->workload_names[i] = strdup(s);
        if (s[0] == '/' || !slash) {
            sw->workload_paths[i] = strdup(s);
        } else {
            size_t dl = (size_t)(slash - c->file) + 1;
            char *p = malloc(dl + strlen(s) + 1);
            memcpy(p, c->file, dl);
            strcpy(p + dl, s);
            sw->workload_paths[i] = p;
        }
        ws_sweep_priv(sw)->workload_line[i] = line_of(items[i]);
        ws_sweep_priv(sw)->workload_col[i] = col_of(items[i]);
    }
    return 0;
}

static int load_workloads(ctx *c)
{
    ws_sweep *sw = c->sw;
    for (int i = 0; i < sw->nworkloads; i++) {
        ws_error e = {{0}};
        ws_sweep_private *pv = ws_sweep_priv(sw);
        sw->workloads[i] = pv->workload_vars
                               ? ws_workload_load_vars(sw->workload_paths[i], pv->workload_vars[i], pv->workload_nvars[i], &e)
                               : ws_workload_load(sw->workload_paths[i], &e);
        if (!sw->workloads[i]) {
            /* a variable the workload lacks: at its wl.NAME key */
            const char *q = strstr(e.msg, "has no variable '");
            for (int v = 0; q && v < c->nwlv; v++) {
                size_t l = strlen(c->wlv[v].name);
                if (!strncmp(q + 17, c->wlv[v].name, l) && q[17 + l] == '\'')
                    return ws_fail_at(c->err, c->file, c->wlv[v].line, c->wlv[v].col, "wl.%s: %s", c->wlv[v].name, e.msg);
            }
            /* the workload's own error passes through; say where it was named when it has no position */
            return ws_fail(c->err, "%s", e.msg[0] ? e.msg : "cannot load workload");
        }
    }
    return 0;
}

/* exclude entries -> allow tables over the axes */
static int parse_excludes(ctx *c, yaml_node_t *ex)
{
    ws_sweep *sw = c->sw;
    if (ex->type == YAML_SCALAR_NODE && !*scalar(ex))
        return 0;
    if (ex->type != YAML_SEQUENCE_NODE)
        return FAIL(c, ex, "exclude: expected a list of {param: value, ...} entries");
    for (yaml_node_item_t *it = ex->data.sequence.items.start; it < ex->data.sequence.items.top; it++) {
        yaml_node_t *e = yaml_document_get_node(c->doc, *it);
        if (e->type != YAML_MAPPING_NODE || e->data.mapping.pairs.start == e->data.mapping.pairs.top)
            return FAIL(c, e, "exclude entry: expected a non-empty mapping of parameter: value");
        if (sw->nexcludes == WS_MAX_EXCLUDES)
            return FAIL(c, e, "more than %d exclude entries", WS_MAX_EXCLUDES);
        sw->excludes = realloc(sw->excludes, (size_t)(sw->nexcludes + 1) * sizeof *sw->excludes);
        ws_exclude *x = &sw->excludes[sw->nexcludes++];
        x->allow = calloc((size_t)sw->naxes, sizeof(uint8_t *));
        x->line = line_of(e);
        x->col = col_of(e);
        for (yaml_node_pair_t *q = e->data.mapping.pairs.start; q < e->data.mapping.pairs.top; q++) {
            yaml_node_t *k = yaml_document_get_node(c->doc, q->key);
            yaml_node_t *v = yaml_document_get_node(c->doc, q->value);
            const char *ks = scalar(k);
            int axis = -1, id = -1;
            int wv = -1;   /* a workload variable: the variants of the workload axis with that value */
            if (ks && strcmp(ks, "workload") == 0) {
                axis = 0;
            } else if (is_wl_var(k)) {
                for (int i = 0; i < c->nwlv && wv < 0; i++)
                    if (strcmp(c->wlv[i].name, ks + 3) == 0)
                        wv = i;
                if (wv < 0 || !c->wlv[wv].in_grid)
                    return FAIL(c, k, "exclude: %s does not vary in this sweep (it is not in grid or zip)", ks);
                axis = 0;
            } else if (ks && strcmp(ks, "seed") == 0 && sw->repeat > 1) {
                axis = sw->naxes - 1;
            } else {
                id = param_id(c, k);
                if (id < 0)
                    return -1;
                axis = sw->param_axis[id];
                if (axis < 0)
                    return FAIL(c, k, "exclude: %s does not vary in this sweep (it is not in grid or zip)", ks);
            }
            ws_axis *a = &sw->axes[axis];
            /* the values this key accepts (one scalar or a list: any of them) */
            yaml_node_item_t one = q->value;
            yaml_node_item_t *vfirst = &one, *vend = &one + 1;
            if (v->type == YAML_SEQUENCE_NODE) {
                vfirst = v->data.sequence.items.start;
                vend = v->data.sequence.items.top;
                if (vfirst == vend)
                    return FAIL(c, v, "exclude: expected a value for %s, got an empty list", ks);
            }
            uint8_t *allow = calloc((size_t)a->n, 1);
            if (!allow)
                return FAIL(c, v, "exclude: out of memory");
            for (yaml_node_item_t *vi = vfirst; vi < vend; vi++) {
                yaml_node_t *val = yaml_document_get_node(c->doc, *vi);
                const char *vs = scalar(val);
                if (!vs || !*vs) {
                    free(allow);
                    return FAIL(c, val, "exclude: expected a value for %s", ks);
                }
                int hits = 0;
                if (wv >= 0) {
                    char *end;
                    double want = strtod(vs, &end);
                    if (*end) {
                        free(allow);
                        return FAIL(c, val, "exclude: %s: '%s' is not a number", ks, vs);
                    }
                    const ws_sweep_private *pv = ws_sweep_priv(sw);
                    for (uint64_t d = 0; d < a->n; d++)
                        if (pv->workload_vars[d][wv].value == want)
                            allow[d] = 1, hits++;
                } else if (a->kind == WS_AXIS_WORKLOAD) {
                    for (uint64_t d = 0; d < a->n; d++) {
                        const ws_workload *wl = sw->workloads[d];
                        if (strcmp(sw->workload_names[d], vs) == 0 || (wl && wl->name && strcmp(wl->name, vs) == 0))
                            allow[d] = 1, hits++;
                    }
                } else if (a->kind == WS_AXIS_SEED) {
                    char *end;
                    unsigned long long s = strtoull(vs, &end, 10);
                    if (*end == 0 && s < a->n)
                        allow[s] = 1, hits++;
                } else {
                    ws_value want;
                    ws_error pe;
                    if (ws_param_parse(id, vs, &want, &pe)) {
                        free(allow);
                        return FAIL(c, val, "exclude: %s", pe.msg);
                    }
                    int j = 0;
                    while (a->params[j] != id)
                        j++;
                    for (uint64_t d = 0; d < a->n; d++) {
                        const ws_slot *s = &a->values[d * (uint64_t)a->nparams + (uint64_t)j];
                        if (s->expr < 0 && (ws_params[id].type == WS_PT_FLOAT ? s->v.f == want.f : s->v.i == want.i))
                            allow[d] = 1, hits++;
                    }
                }
                if (!hits) {
                    free(allow);
                    return FAIL(c, val, "exclude: %s=%s is not one of the sweep's values for %s", ks, vs, ks);
                }
            }
            if (x->allow[axis]) { /* two keys on one (zip) axis: both must match */
                for (uint64_t d = 0; d < a->n; d++)
                    x->allow[axis][d] &= allow[d];
                free(allow);
            } else {
                x->allow[axis] = allow;
            }
        }
    }
    return 0;
}

/* Orders the derived parameters so each comes after what it reads;
 * a cycle is an error at one of its expressions. */
static int order_derived(ctx *c)
{
    ws_sweep *sw = c->sw;
    uint8_t derived[WS_NPARAMS] = {0};
    for (int e = 0; e < sw->nexprs; e++)
        derived[sw->expr_param[e]] = 1;
    int state[WS_NPARAMS] = {0}; /* 0 new, 1 on stack, 2 done */
    int stack[WS_NPARAMS + 1], sp = 0;
    sw->nderived = 0;
    /* iterative DFS over parameters with expressions */
    for (int root = 0; root < WS_NPARAMS; root++) {
        if (!derived[root] || state[root])
            continue;
        int next_dep[WS_NPARAMS] = {0};
        stack[sp++] = root;
        state[root] = 1;
        while (sp) {
            int p = stack[sp - 1];
            int pushed = 0;
            for (int q = next_dep[p]; q < WS_NPARAMS; q++) {
                next_dep[p] = q + 1;
                if (!derived[q])
                    continue;
                int uses = 0, at = -1;
                for (int e = 0; e < sw->nexprs; e++)
                    if (sw->expr_param[e] == p && ws_expr_uses(sw->exprs[e], q)) {
                        uses = 1;
                        at = e;
                        break;
                    }
                if (!uses)
                    continue;
                if (state[q] == 1) {
                    char path[512];
                    int n = 0;
                    int k = 0;
                    while (stack[k] != q)
                        k++;
                    for (int i = k; i < sp && n < (int)sizeof path - 40; i++)
                        n += snprintf(path + n, sizeof path - (size_t)n, "%s -> ", ws_params[stack[i]].name);
                    snprintf(path + n, sizeof path - (size_t)n, "%s", ws_params[q].name);
                    int off = ws_expr_use_offset(sw->exprs[at], q);
                    return ws_fail_at(c->err, c->file, ws_sweep_priv(sw)->expr_line[at],
                                      ws_sweep_priv(sw)->expr_col[at] + 1 + off, "derived values form a cycle: %s", path);
                }
                if (state[q] == 0) {
                    state[q] = 1;
                    stack[sp++] = q;
                    pushed = 1;
                    break;
                }
            }
            if (!pushed) {
                state[p] = 2;
                sw->derived_order[sw->nderived++] = p;
                sp--;
            }
        }
    }
    return 0;
}

/* A preset (or a part of one: preset_core, preset_mem, preset_area) on an
 * axis makes every parameter it sets, and the sweep does not give, vary with
 * it: mark those whose value differs between the combinations of the values
 * of the axes holding them (none included, which is the registry defaults).
 * More than 4096 combinations: every parameter a preset sets is marked. */
static void mark_preset_varying(ws_sweep *sw)
{
    static const int pids[] = {WS_P_preset, WS_P_preset_core, WS_P_preset_mem, WS_P_preset_area};
    enum { NP = sizeof pids / sizeof pids[0] };
    int axes[NP], na = 0;
    uint64_t combos = 1;
    for (int i = 0; i < NP; i++) {
        int ax = sw->param_axis[pids[i]], seen = 0;
        for (int k = 0; k < na; k++) seen |= axes[k] == ax;
        if (ax < 0 || seen) continue;
        axes[na++] = ax;
        combos = combos > 4096 ? combos : combos * sw->axes[ax].n;
    }
    if (!na) return;
    if (combos > 4096) {
        for (int i = 0; i < WS_NPARAMS; i++)
            if (!sw->given[i] && ws_preset_part(i) >= 0) sw->varying[i] = 1;
        return;
    }
    ws_config base, first, cfg;
    ws_config_defaults(&base);
    for (int i = 0; i < NP; i++)
        if (sw->param_axis[pids[i]] < 0 && sw->given[pids[i]]) base.v[pids[i]] = sw->base[pids[i]].v;
    for (uint64_t c = 0; c < combos; c++) {
        cfg = base;
        uint64_t rest = c;
        for (int k = 0; k < na; k++) {          /* digit of axis k, and its preset parameters' values */
            const ws_axis *a = &sw->axes[axes[k]];
            uint64_t d = rest % a->n;
            rest /= a->n;
            for (int j = 0; j < a->nparams; j++)
                for (int i = 0; i < NP; i++)
                    if (a->params[j] == pids[i]) cfg.v[pids[i]] = a->values[d * (uint64_t)a->nparams + (uint64_t)j].v;
        }
        ws_config_apply_preset(&cfg, sw->given);
        if (c == 0)
            first = cfg;
        for (int i = 0; i < WS_NPARAMS; i++)
            if (!sw->given[i] && memcmp(&cfg.v[i], &first.v[i], sizeof cfg.v[i]) != 0)
                sw->varying[i] = 1;
    }
}

static const char *const top_keys[] = {"name", "description", "workload", "base", "grid", "zip", "exclude", "repeat"};

static int valid_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
            return 0;
    return 1;
}

static int parse_sweep(ctx *c, yaml_node_t *root, const char *default_name)
{
    ws_sweep *sw = c->sw;
    sw->line = line_of(root);
    sw->col = col_of(root);
    if (root->type != YAML_MAPPING_NODE)
        return FAIL(c, root, "a sweep must be a mapping (name, workload, base, grid, ...)");
    for (yaml_node_pair_t *q = root->data.mapping.pairs.start; q < root->data.mapping.pairs.top; q++) {
        yaml_node_t *k = yaml_document_get_node(c->doc, q->key);
        const char *ks = scalar(k);
        int ok = 0;
        for (size_t i = 0; i < sizeof top_keys / sizeof top_keys[0]; i++)
            ok |= ks && strcmp(ks, top_keys[i]) == 0;
        if (!ok && ks && (strcmp(ks, "kernel") == 0 || strcmp(ks, "buffers") == 0 || strcmp(ks, "block") == 0))
            return FAIL(c, k, "this is a workload file (key '%s'), not a sweep: `warpsweep sim` runs a workload, "
                              "`warpsweep run` a sweep (its `workload:` key names workload files)", ks);
        if (!ok)
            return FAIL(c, k, "unknown key '%s' (did you mean '%s'?)", ks ? ks : "?",
                        closest(ks ? ks : "", top_keys, (int)(sizeof top_keys / sizeof top_keys[0])));
    }
    for (int i = 0; i < WS_NPARAMS; i++) {
        sw->base[i].expr = -1;
        sw->param_axis[i] = -1;
    }
    ws_config def;
    ws_config_defaults(&def);
    for (int i = 0; i < WS_NPARAMS; i++)
        sw->base[i].v = def.v[i];

    yaml_node_t *n = map_get(c, root, "name");
    if (n) {
        const char *s = scalar(n);
        if (!s || !valid_name(s))
            return FAIL(c, n, "name: expected a word of letters, digits, '_', '-' or '.' (it names the output file)");
        sw->name = strdup(s);
    } else {
        sw->name = strdup(default_name);
    }
    n = map_get(c, root, "description");
    sw->description = strdup(n && scalar(n) ? scalar(n) : "");

    n = map_get(c, root, "workload");
    if (!n)
        return FAIL(c, root, "sweep %s has no workload", sw->name);
    if (parse_workloads(c, n))
        return -1;
    if ((n = map_get(c, root, "base")) && parse_base(c, n))
        return -1;
    yaml_node_t *grid = map_get(c, root, "grid");
    if (grid) {
        sw->grid_line = line_of(map_key(c, root, "grid"));
        sw->grid_col = col_of(map_key(c, root, "grid"));
        if (grid->type == YAML_SCALAR_NODE && !*scalar(grid))
            return FAIL(c, map_key(c, root, "grid"), "the grid is empty: give at least one parameter with its values");
        if (parse_grid(c, grid))
            return -1;
    } else {
        sw->grid_line = sw->line;
        sw->grid_col = sw->col;
    }
    if ((n = map_get(c, root, "zip")) && parse_zip(c, n))
        return -1;
    if (expand_wl_vars(c))
        return -1;
    if (apply_sets(c))
        return -1;
    sw->repeat = 1;
    n = map_get(c, root, "repeat");
    if (n) {
        const char *s = scalar(n);
        char *end;
        errno = 0;
        long long r = s ? strtoll(s, &end, 10) : 0;
        if (!s || end == s || *end || errno || r < 1 || r > 1000000)
            return FAIL(c, n, "repeat: expected an integer in [1, 1000000]");
        if (c->seed_set && WS_NPARAMS > 0)
            return FAIL(c, n, "repeat sets the seed of every point (0..%lld): remove seed from base/grid/zip", r - 1);
        sw->repeat = (uint64_t)r;
    }
    ws_axis *sa = new_axis(sw, WS_AXIS_SEED, "seed", n ? line_of(n) : sw->line, n ? col_of(n) : sw->col);
    sa->n = sw->repeat;

    for (int a = 0; a < sw->naxes; a++) {
        ws_axis *ax = &sw->axes[a];
        for (int j = 0; j < ax->nparams; j++) {
            sw->param_axis[ax->params[j]] = a;
            sw->varying[ax->params[j]] = 1;
        }
    }
    for (int e = 0; e < sw->nexprs; e++)
        sw->varying[sw->expr_param[e]] = 1;
    for (int i = 0; i < WS_NPARAMS; i++)
        sw->given[i] = c->where[i] != 0;
    if (sw->repeat > 1)
        sw->given[ws_param_find("seed")] = 1;
    mark_preset_varying(sw);

    /* workloads: always for run; for expand when an expression needs their properties, or a
     * wl.NAME axis names variables that each workload must have (issue 46: expand refuses an
     * unknown one as run does) */
    int need = (c->opts && c->opts->load_workloads) || c->nwlv > 0;
    for (int e = 0; e < sw->nexprs; e++)
        for (int v = WS_NPARAMS; v < WS_NVARS; v++)
            need |= ws_expr_uses(sw->exprs[e], v);
    if (need && load_workloads(c))
        return -1;

    if ((n = map_get(c, root, "exclude")) && parse_excludes(c, n))
        return -1;
    if (order_derived(c))
        return -1;
    return ws_sweep_prepare(sw, c->err);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Adds one input to the inputs hash: its size and content digest, not its
 * path, so that the same files reached from another directory (a relative
 * sweep path, another working directory) give the same hash. */
static void mix_input(void *ctx, const ws_input *in)
{
    uint64_t *h = ctx;
    *h = fnv(*h, &in->bytes, sizeof in->bytes);
    *h = fnv(*h, &in->digest, sizeof in->digest);
}

/* The sweep's identity (sweep.h): own_hash over the text, the sweep's name
 * and the --set overrides; inputs_hash over every file of its workloads in
 * order (ws_workload_inputs), when they were loaded; hash over both. */
static void set_hashes(ws_sweep *sw, const char *text, size_t len, const ws_sweep_opts *opts)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = fnv(h, text, len);
    h = fnv(h, "", 1);
    h = fnv(h, sw->name, strlen(sw->name) + 1);
    for (int s = 0; opts && s < opts->nsets; s++)
        h = fnv(h, opts->sets[s], strlen(opts->sets[s]) + 1);
    snprintf(sw->own_hash, sizeof sw->own_hash, "%016llx", (unsigned long long)h);
    sw->inputs_hash[0] = 0;
    if (sw->nworkloads && sw->workloads[0]) {
        uint64_t in = 0xcbf29ce484222325ull;
        for (int w = 0; w < sw->nworkloads; w++)
            ws_workload_inputs(sw->workloads[w], mix_input, &in);
        snprintf(sw->inputs_hash, sizeof sw->inputs_hash, "%016llx", (unsigned long long)in);
        h = fnv(h, sw->inputs_hash, sizeof sw->inputs_hash);
    }
    snprintf(sw->hash, sizeof sw->hash, "%016llx", (unsigned long long)h);
}

const char *ws_sweep_what_changed(const ws_sweep *sw, const char *own_hash, const char *inputs_hash)
{
    if (!own_hash || !own_hash[0] || !inputs_hash || !inputs_hash[0] || !sw->inputs_hash[0])
        return "the sweep changed";   /* written before the hash had parts, or inputs not loaded */
    int own = strncmp(own_hash, sw->own_hash, 16) != 0, inputs = strncmp(inputs_hash, sw->inputs_hash, 16) != 0;
    if (own && inputs)
        return "the sweep and its input files changed";
    if (inputs)
        return "an input file of the sweep changed (a workload, its PTX or a data file)";
    return "the sweep changed";
}

int ws_sweep_load_text(const char *path, const char *text, size_t len, const char *name,
                       const ws_sweep_opts *opts, ws_sweep ***out, int *nout, ws_error *err)
{
    *out = NULL;
    *nout = 0;
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    ws_sweep **all = NULL;
    int n = 0, rc = 0;
    /* default name: the file's stem */
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char stem[256];
    snprintf(stem, sizeof stem, "%s", base);
    char *dot = strrchr(stem, '.');
    if (dot && dot != stem)
        *dot = 0;
    for (int docno = 0;; docno++) {
        yaml_document_t doc;
        if (!yaml_parser_load(&parser, &doc)) {
            int line = (int)parser.problem_mark.line + 1, col = (int)parser.problem_mark.column + 1;
            if (parser.error == YAML_READER_ERROR) {   /* bad encoding: libyaml gives a byte offset, no mark */
                ws_text_position(text, len, parser.problem_offset, &line, &col);
                rc = ws_fail_at(err, path, line, col, "YAML: %s (byte 0x%02x): a sweep file is UTF-8 text",
                                parser.problem ? parser.problem : "syntax error", parser.problem_offset < len ? (unsigned char)text[parser.problem_offset] : 0u);
            } else {
                rc = ws_fail_at(err, path, line, col, "YAML: %s%s%s", parser.problem ? parser.problem : "syntax error",
                                parser.context ? " " : "", parser.context ? parser.context : "");
            }
            break;
        }
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (!root) {
            yaml_document_delete(&doc);
            break;
        }
        ws_sweep *sw = calloc(1, sizeof(ws_sweep) + sizeof(ws_sweep_private));
        ctx c = {.file = path, .doc = &doc, .err = err, .sw = sw, .opts = opts};
        sw->file = strdup(path);
        sw->text = malloc(len + 1);
        memcpy(sw->text, text, len);
        sw->text[len] = 0;
        sw->text_len = len;
        all = realloc(all, (size_t)(n + 1) * sizeof *all);
        all[n++] = sw;
        /* parse only the sweeps asked for, but check every document's name */
        yaml_node_t *nn = root->type == YAML_MAPPING_NODE ? map_get(&c, root, "name") : NULL;
        const char *this_name = nn && scalar(nn) ? scalar(nn) : NULL;
        if (!this_name && docno > 0) {
            rc = FAIL(&c, root, "several sweeps share this file: each needs a name");
            yaml_document_delete(&doc);
            break;
        }
        for (int i = 0; i < n - 1; i++)
            if (this_name && strcmp(all[i]->name, this_name) == 0) {
                rc = FAIL(&c, nn, "a sweep named %s is already in this file", this_name);
                break;
            }
        if (rc) {
            yaml_document_delete(&doc);
            break;
        }
        if (name && (!this_name || strcmp(this_name, name) != 0)) {
            sw->name = strdup(this_name ? this_name : stem);
            ws_sweep_priv(sw)->skipped = 1;
        } else if (parse_sweep(&c, root, stem)) {
            rc = -1;
        }
        for (int i = 0; i < c.nwlv; i++) free(c.wlv[i].vals);
        if (rc) {
            yaml_document_delete(&doc);
            break;
        }
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    if (!rc && n == 0)
        rc = ws_fail_at(err, path, 1, 1, "the file holds no sweep");
    /* keep the selected ones */
    ws_sweep **sel = NULL;
    int ns = 0;
    if (!rc) {
        for (int i = 0; i < n; i++)
            if (!ws_sweep_priv(all[i])->skipped) {
                sel = realloc(sel, (size_t)(ns + 1) * sizeof *sel);
                sel[ns++] = all[i];
                all[i] = NULL;
            }
        if (ns == 0) {
            char names[400];
            int k = 0;
            names[0] = 0;
            for (int i = 0; i < n && k < 350; i++)
                k += snprintf(names + k, sizeof names - (size_t)k, "%s%s", i ? ", " : "", all[i]->name);
            rc = ws_fail_at(err, path, 1, 1, "no sweep named '%s' in this file (it has: %s)", name, names);
        }
    }
    for (int i = 0; i < n; i++)
        ws_sweep_free(all[i]);
    free(all);
    if (rc) {
        ws_sweeps_free(sel, ns);
        return -1;
    }
    for (int i = 0; i < ns; i++)
        set_hashes(sel[i], text, len, opts);
    *out = sel;
    *nout = ns;
    return 0;
}

int ws_sweep_load(const char *path, const char *name, const ws_sweep_opts *opts, ws_sweep ***out, int *n,
                  ws_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return ws_fail(err, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return ws_fail(err, "%s: is a directory, not a sweep file", path);
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + len, 1, cap - len, f)) > 0) {
        len += r;
        if (len == cap) {
            char *nb = cap < (256u << 20) ? realloc(buf, cap * 2) : NULL;   /* a sweep is a few KiB */
            if (!nb) {
                free(buf);
                fclose(f);
                return ws_fail(err, "%s: more than 256 MiB: not a sweep file", path);
            }
            buf = nb;
            cap *= 2;
        }
    }
    int bad = ferror(f);
    int e = errno;
    fclose(f);
    if (!buf)
        return ws_fail(err, "%s: out of memory", path);
    if (bad) {
        free(buf);
        return ws_fail(err, "%s: cannot read: %s", path, strerror(e));
    }
    int rc = ws_sweep_load_text(path, buf, len, name, opts, out, n, err);
    free(buf);
    return rc;
}

void ws_sweep_free(ws_sweep *sw)
{
    if (!sw)
        return;
    free(sw->file);
    free(sw->name);
    free(sw->description);
    free(sw->text);
    for (int i = 0; i < sw->nworkloads; i++) {
        free(sw->workload_names[i]);
        free(sw->workload_paths[i]);
        if (sw->workloads[i])
            ws_workload_free(sw->workloads[i]);
    }
    free(sw->workload_names);
    free(sw->workload_paths);
    free(sw->workloads);
    for (int e = 0; e < sw->nexcludes; e++) {
        for (int a = 0; a < sw->naxes; a++)
            free(sw->excludes[e].allow[a]);
        free(sw->excludes[e].allow);
    }
    free(sw->excludes);
    for (int a = 0; a < sw->naxes; a++) {
        free(sw->axes[a].label);
        free(sw->axes[a].params);
        free(sw->axes[a].values);
    }
    free(sw->axes);
    for (int e = 0; e < sw->nexprs; e++)
        ws_expr_free(sw->exprs[e]);
    free(sw->exprs);
    free(sw->expr_param);
    ws_sweep_private *p = ws_sweep_priv(sw);
    free(p->expr_line);
    free(p->expr_col);
    free(p->workload_line);
    free(p->workload_col);
    free(p->workload_vars);
    free(p->workload_nvars);
    free(p->suffix);
    if (p->reject) {
        for (int a = 0; a < sw->naxes; a++)
            free(p->reject[a]);
        free(p->reject);
    }
    free(p->last_axis);
    free(p->ended);
    free(p->constrained);
    free(p->memo.slot);
    free(p->dominated_by);
    free(sw);
}

void ws_sweeps_free(ws_sweep **sws, int n)
{
    for (int i = 0; i < n; i++)
        ws_sweep_free(sws[i]);
    free(sws);
}

int ws_sweep_check_size(const ws_sweep *sw, uint64_t max_points, ws_error *err)
{
    if (!max_points)
        max_points = WS_DEFAULT_MAX_POINTS;
    if (sw->count > max_points)
        return ws_fail_at(err, sw->file, sw->grid_line, sw->grid_col,
                          "sweep %s has %llu points, more than the limit of %llu (raise it with --max-points N)",
                          sw->name, (unsigned long long)sw->count, (unsigned long long)max_points);
    if (sw->count == 0)
        return ws_fail_at(err, sw->file, sw->grid_line, sw->grid_col, "sweep %s has no points (the excludes drop every one)",
                          sw->name);
    return 0;
}
