/* The parameter and metric registries, generated from params.def and
 * metrics.def, the helpers that validate and format values, and the presets
 * (presets.def) with their expansion. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "warpsweep/params.h"
#include "warpsweep/report.h"
#include "warpsweep/strutil.h"


/* The scheduler and divergence choices are the names of schedulers.def and divergence.def
 * ("|" before each: the choices start one character in); divergence's description is made from
 * the rows' descriptions. */
static const char ws_sched_choices[] =
#define SCHED(name, ops, desc) "|" #name
#include "warpsweep/schedulers.def"
#undef SCHED
    ;
static const char ws_div_choices[] =
#define DIV(name, ops, desc) "|" #name
#include "warpsweep/divergence.def"
#undef DIV
    ;
static const char ws_div_desc[] =
#define DIV(name, ops, desc) #name ": " desc "; "
#include "warpsweep/divergence.def"
#undef DIV
    "default sbi: independent thread scheduling as on Volta (the volta preset's scheme); the seed: stack";

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

#define PRESET(preset, param, value, source) {#preset, WS_P_##param, value, source},
const ws_preset_value ws_preset_values[] = {
#include "warpsweep/presets.def"
};
#undef PRESET
const int ws_npreset_values = (int)(sizeof ws_preset_values / sizeof ws_preset_values[0]);

/* presets.def parsed once (init_param_table): the preset's choice index (-1
 * if it names no choice: test_presets fails) and the value (ok = 0 if the
 * text does not parse: test_presets fails, apply skips it). */
static struct preset_parsed {
    int preset;
    int ok;
    ws_value v;
} preset_parsed[sizeof ws_preset_values / sizeof ws_preset_values[0]];
/* 1 for every parameter some preset sets. */
static uint8_t preset_controlled[WS_NPARAMS];

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
    const char *presets = param_table[WS_P_preset].choices;
    for (int k = 0; k < ws_npreset_values; k++) {
        const ws_preset_value *e = &ws_preset_values[k];
        preset_parsed[k].preset = choice_index(presets, e->preset, strlen(e->preset));
        preset_parsed[k].ok = ws_param_parse(e->param, e->value, &preset_parsed[k].v, NULL) == 0;
        preset_controlled[e->param] = 1;
    }
}

const ws_param_def *const ws_params_table = param_table;

#define MI(name, unit, desc) {#name, 0, unit, desc, NULL},
#define MF(name, unit, desc) {#name, 1, unit, desc, NULL},
#define ML(name, labels, desc) {#name, 0, "", desc, labels},
const ws_metric_def ws_metrics[WS_NMETRICS] = {
#include "warpsweep/metrics.def"
};
#undef MI
#undef MF
#undef ML

const char *ws_metric_label(int m, int64_t v, char *buf, size_t len)
{
    const char *p = ws_metrics[m].labels;
    if (!p || v < 0)
        return NULL;
    for (int64_t i = 0; i < v && p; i++) {
        p = strchr(p, '|');
        if (p)
            p++;
    }
    if (!p)
        return NULL;
    size_t n = strcspn(p, "|");
    snprintf(buf, len, "%.*s", (int)n, p);
    return buf;
}

int64_t ws_metric_code(int m, const char *s)
{
    char buf[64];
    for (int64_t i = 0; ws_metric_label(m, i, buf, sizeof buf); i++)
        if (strcmp(buf, s) == 0)
            return i;
    return -1;
}

static ws_value default_value(int id)
{
    ws_value v;
    if (ws_params[id].type == WS_PT_FLOAT)
        v.f = ws_params[id].def;
    else
        v.i = (int64_t)ws_params[id].def;
    return v;
}

void ws_config_defaults(ws_config *c)
{
    for (int i = 0; i < WS_NPARAMS; i++)
        c->v[i] = default_value(i);
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

/* The choice of parameter id closest to text when it is a likely typo
 * (within half its length in edits), else NULL. */
static const char *choice_suggest(int id, const char *text, char *buf, size_t len)
{
    const ws_param_def *p = &ws_params[id];
    const char *best = NULL;
    int best_d = (int)strlen(text) / 2 + 1;
    for (int i = 0; i < p->nchoices; i++) {
        char name[64];
        ws_param_choice(id, i, name, sizeof name);
        int d = ws_edit_distance(text, name);
        if (d < best_d) {
            best_d = d;
            snprintf(buf, len, "%s", name);
            best = buf;
        }
    }
    return best;
}

static int range_error(int id, const char *text, ws_error *err)
{
    const ws_param_def *p = &ws_params[id];
    if (p->type == WS_PT_CHOICE) {
        char buf[64];
        const char *near = choice_suggest(id, text, buf, sizeof buf);
        if (near)
            return ws_fail(err, "parameter %s: '%s' is not one of %s (did you mean '%s'?)", p->name, text,
                           p->choices, near);
        return ws_fail(err, "parameter %s: '%s' is not one of %s", p->name, text, p->choices);
    }
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

int ws_config_assign(ws_config *c, uint8_t *given, const char *assignment, ws_error *err)
{
    if (ws_config_set(c, assignment, err))
        return -1;
    const char *eq = strchr(assignment, '=');
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(eq - assignment), assignment);
    given[ws_param_find(name)] = 1;
    return 0;
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

/* The registry's fields of parameter i as text: name, type, default, unit, range. */
static void param_fields(int i, char f[5][128])
{
    const ws_param_def *p = &ws_params[i];
    snprintf(f[0], 128, "%s", p->name);
    snprintf(f[1], 128, "%s", p->type == WS_PT_INT ? "int" : p->type == WS_PT_FLOAT ? "float" : "choice");
    ws_param_format(i, default_value(i), f[2], 128);
    snprintf(f[3], 128, "%s", p->unit);
    if (p->type == WS_PT_CHOICE)
        snprintf(f[4], 128, "%s", p->choices);
    else
        snprintf(f[4], 128, "%.15g..%.15g", p->min, p->max);
}

static const char *const field_names[6] = {"name", "type", "default", "unit", "range", "description"};

/* Columns as wide as their widest value, so that the table stays aligned
 * whatever a description or a choice list holds; an empty unit prints "-". */
static void print_table(FILE *out)
{
    fprintf(out, "# The defaults are one coherent SM: a V100 SM's core (64 warps, 4 schedulers, gto, sbi, its units and\n"
                 "# latencies) and its share of the chip's memory (the volta preset's values, sources in presets.def).\n"
                 "# The seed's idealised core and fixed-latency memory: preset=seed. Parts: preset_core, preset_mem, preset_area.\n");
    size_t w[5];
    for (int c = 0; c < 5; c++)
        w[c] = strlen(field_names[c]);
    char f[5][128];
    for (int i = 0; i < WS_NPARAMS; i++) {
        param_fields(i, f);
        for (int c = 0; c < 5; c++)
            if (strlen(f[c]) > w[c])
                w[c] = strlen(f[c]);
    }
    for (int c = 0; c < 5; c++)
        fprintf(out, "%-*s  ", (int)w[c], field_names[c]);
    fprintf(out, "%s\n", field_names[5]);
    for (int i = 0; i < WS_NPARAMS; i++) {
        param_fields(i, f);
        for (int c = 0; c < 5; c++)
            fprintf(out, "%-*s  ", (int)w[c], c == 3 && !f[c][0] ? "-" : f[c]);
        fprintf(out, "%s\n", ws_params[i].desc);
    }
}

static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void print_csv(FILE *out)
{
    fprintf(out, "name,type,default,unit,min,max,choices,description\n");
    char f[5][128], num[64];
    for (int i = 0; i < WS_NPARAMS; i++) {
        const ws_param_def *p = &ws_params[i];
        param_fields(i, f);
        for (int c = 0; c < 4; c++) {
            csv_field(out, f[c]);
            fputc(',', out);
        }
        if (p->type == WS_PT_CHOICE) {
            fputs(",,", out);
            csv_field(out, p->choices);
        } else {
            snprintf(num, sizeof num, "%.17g", p->min);
            fprintf(out, "%s,", num);
            snprintf(num, sizeof num, "%.17g", p->max);
            fprintf(out, "%s,", num);
        }
        fputc(',', out);
        csv_field(out, p->desc);
        fputc('\n', out);
    }
}

/* One JSON array of objects; numbers as JSON numbers, choice lists as arrays. */
static void print_json(FILE *out)
{
    fputs("[\n", out);
    char f[5][128];
    for (int i = 0; i < WS_NPARAMS; i++) {
        const ws_param_def *p = &ws_params[i];
        param_fields(i, f);
        fputs("  {\"name\": ", out);
        ws_json_string(out, f[0]);
        fputs(", \"type\": ", out);
        ws_json_string(out, f[1]);
        fputs(", \"default\": ", out);
        if (p->type == WS_PT_CHOICE)
            ws_json_string(out, f[2]);
        else
            fputs(f[2], out);
        fputs(", \"unit\": ", out);
        ws_json_string(out, f[3]);
        if (p->type == WS_PT_CHOICE) {
            fputs(", \"choices\": [", out);
            char name[64];
            for (int k = 0; k < p->nchoices; k++) {
                fputs(k ? ", " : "", out);
                ws_json_string(out, ws_param_choice(i, k, name, sizeof name));
            }
            fputs("]", out);
        } else {
            fprintf(out, ", \"min\": %.17g, \"max\": %.17g", p->min, p->max);
        }
        fputs(", \"description\": ", out);
        ws_json_string(out, p->desc);
        fputs(i + 1 < WS_NPARAMS ? "},\n" : "}\n", out);
    }
    fputs("]\n", out);
}

void ws_params_print(FILE *out, ws_params_fmt fmt)
{
    if (fmt == WS_PARAMS_CSV) {
        print_csv(out);
        return;
    }
    if (fmt == WS_PARAMS_JSON) {
        print_json(out);
        return;
    }
    print_table(out);
    fprintf(out, "\npresets (preset=NAME: the registry defaults, then these values, then every value given "
                 "explicitly; sources: warpsweep params --presets)\n");
    ws_presets_print(out, 0);
}

/* ---- presets ---- */

/* The part of each parameter some preset sets (preset_parts.def); -1: none. */
static int8_t param_part(int id)
{
    switch (id) {
#define PART(param, part) case WS_P_##param: return WS_PART_##part;
#include "warpsweep/preset_parts.def"
#undef PART
    default: return -1;
    }
}

int ws_preset_part(int id) { return param_part(id); }

static const int part_param[WS_NPARTS] = {WS_P_preset_core, WS_P_preset_mem, WS_P_preset_area};

int64_t ws_config_part_preset(const ws_config *c, int part)
{
    int64_t v = c->v[part_param[part]].i;   /* 0: "preset"; k >= 1: preset's choice k - 1 */
    return v == 0 ? c->v[WS_P_preset].i : v - 1;
}

void ws_config_apply_preset(ws_config *c, const uint8_t *given)
{
    int64_t chosen[WS_NPARTS];
    for (int p = 0; p < WS_NPARTS; p++) chosen[p] = ws_config_part_preset(c, p);
    for (int i = 0; i < WS_NPARAMS; i++)
        if (preset_controlled[i] && !(given && given[i]))
            c->v[i] = default_value(i);
    for (int k = 0; k < ws_npreset_values; k++) {
        int id = ws_preset_values[k].param, part = param_part(id);
        if (part >= 0 && preset_parsed[k].preset == chosen[part] && preset_parsed[k].ok && !(given && given[id]))
            c->v[id] = preset_parsed[k].v;
    }
    ws_config_apply_carveout(c);
}

int ws_preset_describe(const ws_config *c, int part, char *buf, size_t len)
{
    static const char *const names[WS_NPARTS] = {"core", "memory", "area"};
    int64_t preset = ws_config_part_preset(c, part);
    char pname[64];
    ws_param_choice(WS_P_preset, preset, pname, sizeof pname);
    size_t n = (size_t)snprintf(buf, len, "preset %s sets the %s:", pname, names[part]);
    int any = 0;
    for (int k = 0; k < ws_npreset_values && n < len; k++) {
        const ws_preset_value *e = &ws_preset_values[k];
        if (preset_parsed[k].preset != preset || param_part(e->param) != part) continue;
        n += (size_t)snprintf(buf + n, len - n, " %s=%s", ws_params[e->param].name, e->value);
        any = 1;
    }
    return any;
}

int ws_preset_get(int64_t preset, int id, ws_value *out)
{
    for (int k = 0; k < ws_npreset_values; k++)
        if (preset_parsed[k].preset == preset && ws_preset_values[k].param == id && preset_parsed[k].ok) {
            *out = preset_parsed[k].v;
            return 1;
        }
    return 0;
}

void ws_presets_print(FILE *out, int sources)
{
    const ws_param_def *p = &ws_params[WS_P_preset];
    if (sources)
        fprintf(out, "%-8s %-20s %-10s %s\n", "preset", "parameter", "value", "source");
    for (int64_t preset = 1; preset < p->nchoices; preset++) {
        char name[64];
        ws_param_choice(WS_P_preset, preset, name, sizeof name);
        int col = sources ? 0 : fprintf(out, "%-8s", name);
        for (int k = 0; k < ws_npreset_values; k++) {
            const ws_preset_value *e = &ws_preset_values[k];
            if (preset_parsed[k].preset != preset)
                continue;
            if (sources) {
                fprintf(out, "%-8s %-20s %-10s %s\n", name, ws_params[e->param].name, e->value, e->source);
                continue;
            }
            int w = (int)(strlen(ws_params[e->param].name) + strlen(e->value)) + 2;
            if (col + w > 100 && col > 8)
                col = fprintf(out, "\n%8s", "") - 1;
            col += fprintf(out, " %s=%s", ws_params[e->param].name, e->value);
        }
        if (!sources)
            fputc('\n', out);
    }
}
