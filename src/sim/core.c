/* PLACEHOLDER: replaced by the cycle-level SIMT core. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpsweep/sim.h"
struct ws_sim { int unused; };
ws_sim *ws_sim_new(void) { return calloc(1, sizeof(ws_sim)); }
void ws_sim_free(ws_sim *s) { free(s); }
void ws_sim_run(ws_sim *s, const ws_workload *wl, const ws_config *cfg, const ws_run_opts *opts, ws_result *res)
{ (void)s; (void)wl; (void)cfg; (void)opts; memset(res, 0, sizeof *res); res->status = WS_ST_ERROR;
  snprintf(res->message, sizeof res->message, "cycle-level core not implemented yet"); }
