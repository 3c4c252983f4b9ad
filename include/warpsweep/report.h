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

/* The same with "per_launch": [{name, stmt, launch, iteration, start,
 * cycles, ctas, warp_insts, thread_insts, steady_cycles, steady_ipc,
 * tail_fraction, sampled}, ...] after the metrics (ls NULL: none). */
void ws_result_print_json_launches(FILE *out, const ws_result *res, const char *workload_name,
                                   const ws_config *cfg, const ws_launch_stats *ls, uint32_t nls);
/* The per-launch table of a sequence: one line per launch run. */
void ws_launches_print_text(FILE *out, const ws_launch_stats *ls, uint32_t n);
/* ws_json_string (a JSON string literal): warpsweep/strutil.h */
#include "warpsweep/strutil.h"

#endif
