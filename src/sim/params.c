/* The parameter and metric registries, generated from params.def and
 * metrics.def, and the helpers that validate and format values. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "warpsweep/params.h"
#include "warpsweep/strutil.h"

static int count_choices(const char *s)
{
    int n = 1;
    for (; *s; s++)
        n += *s == '|';
    return n;
}

#define PI(name, def, lo, hi, unit, desc) {#name, WS_PT_INT, def, lo, hi, unit, desc, NULL, 0},
#define PF(name, def, lo, hi, unit, desc) {#name, WS_PT_FLOAT, def, lo, hi, unit, desc, NULL, 0},
#define PC(name, def, choices, desc) {#name, WS_PT_CHOICE, 0, 0, 0, "", desc, choices, 0},
#define PFN(id, name, def, lo, hi, unit, desc) {name, WS_PT_FLOAT, def, lo, hi, unit, desc, NULL, 0},
static ws_param_def param_table[WS_NPARAMS] = {
#include "warpsweep/params.def"
};
#undef PI
#undef PF
#undef PC
#undef PFN

#define PI(name, def, lo, hi, unit, desc) NULL,
#define PF(name, def, lo, hi, unit, desc) NULL,
#define PC(name, def, choices, desc) def,
#define PFN(id, name, def, lo, hi, unit, desc) NULL,
static const char *const choice_defaults[WS_NPARAMS] = {
#include "warpsweep/params.def"
};
#undef PI
#undef PF
#undef PC
#undef PFN

/* Index of the choice named s (length n) in "a|b|c", or -1. */
static int choice_index(const char *choices, const char *s, size_t n)
{
    int i = 0;
    const char *p = choices;
    while (*p) {
        const char *end = strchr(p, '|');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, s, n) == 0)
            return i;
        if (!end)
            break;
        p = end + 1;
        i++;
    }
    return -1;
}

/* The table is filled in completely at compile time except the choice
 * counts and defaults, which are derived from the strings once. The
 * derivation is idempotent and produces the same bytes every time, so a
 * race between threads doing it concurrently is harmless; we still do it
 * before main() to keep the simulator free of lazy global state. */
__attribute__((constructor)) static void init_param_table(void)
{
    for (int i = 0; i < WS_NPARAMS; i++) {
        ws_param_def *p = &param_table[i];
        if (p->type != WS_PT_CHOICE)
            continue;
        p->nchoices = count_choices(p->choices);
        p->def = choice_index(p->choices, choice_defaults[i], strlen(choice_defaults[i]));
        p->min = 0;
        p->max = p->nchoices - 1;
    }
}

const ws_param_def *const ws_params_table = param_table;

#define MI(name, unit, desc) {#name, 0, unit, desc},
#define MF(name, unit, desc) {#name, 1, unit, desc},
const ws_metric_def ws_metrics[WS_NMETRICS] = {
#include "warpsweep/metrics.def"
};
#undef MI
#undef MF

void ws_config_defaults(ws_config *c)
{
    for (int i = 0; i < WS_NPARAMS; i++) {
        if (ws_params[i].type == WS_PT_FLOAT)
            c->v[i].f = ws_params[i].def;
        else
            c->v[i].i = (int64_t)ws_params[i].def;
    }
}

int ws_param_find(const char *name)
{
    for (int i = 0; i < WS_NPARAMS; i++)
        if (strcmp(ws_params[i].name, name) == 0)
            return i;
    return -1;
}

const char *ws_param_suggest(const char *name)
{
    const char *names[WS_NPARAMS];
    for (int i = 0; i < WS_NPARAMS; i++)
        names[i] = ws_params[i].name;
    return names[ws_closest(name, names, WS_NPARAMS, NULL)];
}

static int range_error(int id, const char *text, ws_error *err)
{
    const ws_param_def *p = &ws_params[id];
    if (p->type == WS_PT_CHOICE)
        return ws_fail(err, "parameter %s: '%s' is not one of %s", p->name, text, p->choices);
    return ws_fail(err, "parameter %s: %s is out of range [%.15g, %.15g]%s%s", p->name, text,
                   p->min, p->max, *p->unit ? " " : "", p->unit);
}

int ws_param_parse(int id, const char *text, ws_value *out, ws_error *err)
{
    const ws_param_def *p = &ws_params[id];
    char *end;
    errno = 0;
    switch (p->type) {
    case WS_PT_CHOICE: {
        int i = choice_index(p->choices, text, strlen(text));
        if (i < 0)
            return range_error(id, text, err);
        out->i = i;
        return 0;
    }
    case WS_PT_INT: {
        long long v = strtoll(text, &end, 0);
        if (end == text || *end || errno) {
            /* accept integral floats such as "1e3" or "64.0" */
            double d = strtod(text, &end);
            if (end == text || *end || d != floor(d))
                return ws_fail(err, "parameter %s: '%s' is not an integer", p->name, text);
            if (fabs(d) > 9.2e18)   /* integral but beyond int64 (e.g. 99999999999999999999999) */
                return range_error(id, text, err);
            v = (long long)d;
        }
        if ((double)v < p->min || (double)v > p->max)
            return range_error(id, text, err);
        out->i = v;
        return 0;
    }
    case WS_PT_FLOAT: {
        double d = strtod(text, &end);
        if (end == text || *end || isnan(d))
            return ws_fail(err, "parameter %s: '%s' is not a number", p->name, text);
        if (d < p->min || d > p->max)
            return range_error(id, text, err);
        out->f = d;
        return 0;
    }
    }
    return -1;
}

int ws_config_set(ws_config *c, const char *assignment, ws_error *err)
{
    const char *eq = strchr(assignment, '=');
    if (!eq)
        return ws_fail(err, "--set expects name=value, got '%s'", assignment);
    char name[128];
    size_t n = (size_t)(eq - assignment);
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, assignment, n);
    name[n] = 0;
    int id = ws_param_find(name);
    if (id < 0)
        return ws_fail(err, "unknown parameter '%s' (did you mean '%s'?)", name, ws_param_suggest(name));
    return ws_param_parse(id, eq + 1, &c->v[id], err);
}

const char *ws_param_choice(int id, int64_t i, char *buf, size_t len)
{
    const char *p = ws_params[id].choices;
    for (int64_t k = 0; k < i && p; k++) {
        p = strchr(p, '|');
        if (p)
            p++;
    }
    if (!p) {
        snprintf(buf, len, "?");
        return buf;
    }
    const char *end = strchr(p, '|');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    snprintf(buf, len, "%.*s", (int)n, p);
    return buf;
}

int ws_param_format(int id, ws_value v, char *buf, size_t len)
{
    switch (ws_params[id].type) {
    case WS_PT_CHOICE:
        ws_param_choice(id, v.i, buf, len);
        return (int)strlen(buf);
    case WS_PT_INT:
        return snprintf(buf, len, "%lld", (long long)v.i);
    default: {
        /* shortest of %.15g / %.17g that reads back as the same double */
        int n = snprintf(buf, len, "%.15g", v.f);
        if (strtod(buf, NULL) != v.f)
            n = snprintf(buf, len, "%.17g", v.f);
        return n;
    }
    }
}

void ws_params_print(FILE *out)
{
    fprintf(out, "%-18s %-7s %-12s %-10s %-28s %s\n", "name", "type", "default", "unit", "range", "description");
    for (int i = 0; i < WS_NPARAMS; i++) {
        const ws_param_def *p = &ws_params[i];
        char def[64], range[128];
        ws_value v;
        if (p->type == WS_PT_FLOAT)
            v.f = p->def;
        else
            v.i = (int64_t)p->def;
        ws_param_format(i, v, def, sizeof def);
        if (p->type == WS_PT_CHOICE)
            snprintf(range, sizeof range, "%s", p->choices);
        else
            snprintf(range, sizeof range, "%.15g..%.15g", p->min, p->max);
        fprintf(out, "%-18s %-7s %-12s %-10s %-28s %s\n", p->name,
                p->type == WS_PT_INT ? "int" : p->type == WS_PT_FLOAT ? "float" : "choice",
                def, p->unit, range, p->desc);
    }
}
