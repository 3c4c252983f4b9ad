#ifndef WARPSWEEP_PARAMS_H
#define WARPSWEEP_PARAMS_H
/* The parameter registry (params.def) and configurations built from it. */
#include <stdint.h>
#include <stdio.h>
#include "error.h"

typedef enum ws_param_id {
#define PI(name, def, lo, hi, unit, desc) WS_P_##name,
#define PF(name, def, lo, hi, unit, desc) WS_P_##name,
#define PC(name, def, choices, desc) WS_P_##name,
#define PFN(id, name, def, lo, hi, unit, desc) WS_P_##id,
#include "params.def"
#undef PI
#undef PF
#undef PC
#undef PFN
    WS_NPARAMS
} ws_param_id;

typedef enum ws_ptype { WS_PT_INT, WS_PT_FLOAT, WS_PT_CHOICE } ws_ptype;

typedef struct ws_param_def {
    const char *name;
    ws_ptype type;
    double def;             /* INT/FLOAT default; CHOICE: index of default */
    double min, max;        /* INT/FLOAT range; CHOICE: 0 .. nchoices-1 */
    const char *unit;
    const char *desc;
    const char *choices;    /* CHOICE: "a|b|c" */
    int nchoices;
} ws_param_def;

/* A value: integers and choice indices in i, floats in f. */
typedef union ws_value {
    int64_t i;
    double f;
} ws_value;

/* One full configuration: a value for every registered parameter. */
typedef struct ws_config {
    ws_value v[WS_NPARAMS];
} ws_config;

extern const ws_param_def *const ws_params_table;   /* read-only table */
#define ws_params ws_params_table

void ws_config_defaults(ws_config *c);
int ws_param_find(const char *name);                /* id or -1 */
/* Closest registered name (edit distance), for "did you mean" messages. */
const char *ws_param_suggest(const char *name);
/* Parses text as a value of parameter id and range-checks it. */
int ws_param_parse(int id, const char *text, ws_value *out, ws_error *err);
/* "name=value" as given to --set.  Assigns one value: a preset is expanded
 * only by ws_config_apply_preset (use ws_config_assign to track what was
 * given). */
int ws_config_set(ws_config *c, const char *assignment, ws_error *err);
/* ws_config_set that also marks the parameter in given[WS_NPARAMS]. */
int ws_config_assign(ws_config *c, uint8_t *given, const char *assignment, ws_error *err);
/* Formats a value ("lrr", "400", "0.5"). */
int ws_param_format(int id, ws_value v, char *buf, size_t len);
/* Choice name of index i ("gto"), written into buf. */
const char *ws_param_choice(int id, int64_t i, char *buf, size_t len);
/* Prints the registry (warpsweep params): an aligned table followed by the
 * presets, or CSV / JSON of the parameters alone. */
typedef enum ws_params_fmt { WS_PARAMS_TABLE, WS_PARAMS_CSV, WS_PARAMS_JSON } ws_params_fmt;
void ws_params_print(FILE *out, ws_params_fmt fmt);

/* ---- presets (presets.def) ---- */

/* One line of presets.def. */
typedef struct ws_preset_value {
    const char *preset;     /* a choice of the parameter `preset` */
    int param;              /* parameter id */
    const char *value;      /* as --set would take it */
    const char *source;     /* where the value comes from */
} ws_preset_value;

extern const ws_preset_value ws_preset_values[];
extern const int ws_npreset_values;

/* Expands the preset c names (c->v[WS_P_preset]): every parameter that some
 * preset sets and given[] does not mark (given may be NULL: nothing given)
 * is reset to its registry default, then takes this preset's value.  So the
 * result is defaults, then the preset, then every given value, whatever the
 * order the values were assigned in.  preset none: the registry defaults. */
void ws_config_apply_preset(ws_config *c, const uint8_t *given);
/* The unified L1/shared array's carve-out (src/sim/carveout.c, docs/memory.md
 * "Carve-out"): with smem_carveout_kb >= 0 and l1_smem_kb > 0, smem_kb = the
 * carve-out and l1_kb = l1_smem_kb - it (ws_config_apply_preset applies it
 * last; a sweep's derived values again after them). */
void ws_config_apply_carveout(ws_config *c);
/* 0, or -1 with err set when the carve-out cannot be: no array, larger than
 * it, or not a size the memory preset's hardware offers for its own array. */
int ws_config_check_carveout(const ws_config *c, ws_error *err);
/* The parts of a preset (preset_parts.def), chosen by preset_core, preset_mem
 * and preset_area (default: `preset`'s). */
enum { WS_PART_CORE, WS_PART_MEM, WS_PART_AREA, WS_NPARTS };
/* The part (WS_PART_*) of parameter id, or -1 if no preset sets it. */
int ws_preset_part(int id);
/* The preset (a choice index of `preset`) whose part `part` c uses. */
int64_t ws_config_part_preset(const ws_config *c, int part);
/* "preset NAME sets the core: warps=64 schedulers=4 ...": the values the
 * preset c uses for `part` lists for it (presets.def); returns 0 when it
 * lists none (none, or a part it leaves at the defaults). */
int ws_preset_describe(const ws_config *c, int part, char *buf, size_t len);
/* 1 and *out = the value preset (a choice index of `preset`) gives parameter
 * id, or 0 if the preset does not set it. */
int ws_preset_get(int64_t preset, int id, ws_value *out);
/* Prints the presets: one line per preset with its values, or (sources) one
 * line per value with its source (warpsweep params [--presets]). */
void ws_presets_print(FILE *out, int sources);

static inline int64_t ws_cfg_i(const ws_config *c, ws_param_id id) { return c->v[id].i; }
static inline double ws_cfg_f(const ws_config *c, ws_param_id id) { return c->v[id].f; }

/* ---- metrics (metrics.def) ---- */
typedef enum ws_metric_id {
#define MI(name, unit, desc) WS_M_##name,
#define MF(name, unit, desc) WS_M_##name,
#define ML(name, labels, desc) WS_M_##name,
#include "metrics.def"
#undef MI
#undef MF
#undef ML
    WS_NMETRICS
} ws_metric_id;

typedef struct ws_metric_def {
    const char *name;
    int is_float;
    const char *unit;
    const char *desc;
    const char *labels;     /* ML: "a|b|c", the name of each integer code; else NULL */
} ws_metric_def;

extern const ws_metric_def ws_metrics[WS_NMETRICS];

/* The label of value v of metric m ("registers"), or NULL when m has no
 * labels or v is not one of its codes. */
const char *ws_metric_label(int m, int64_t v, char *buf, size_t len);
/* The code of label s of metric m, or -1. */
int64_t ws_metric_code(int m, const char *s);

#endif
