#ifndef WARPSWEEP_REPORT_H
#define WARPSWEEP_REPORT_H
/* Printing a run's outcome (warpsweep sim): as text and as one JSON object. */
#include <stdio.h>
#include "params.h"
#include "sim.h"

/* "status: ok", then "message: ..." when there is one, then one
 * "name: value unit" line per metric (metrics.def order). */
void ws_result_print_text(FILE *out, const ws_result *res);

/* One JSON object on one line: "workload", "status", "message", every
 * parameter of cfg (skipped when cfg is NULL; choices as strings) and every
 * metric, all as top-level keys. Non-finite floats are written as null. */
void ws_result_print_json(FILE *out, const ws_result *res, const char *workload_name,
                          const ws_config *cfg);

/* Writes s as a JSON string literal (with quotes). */
void ws_json_string(FILE *out, const char *s);

#endif
