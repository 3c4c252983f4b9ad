/* PLACEHOLDER: replaced by the MIMD reference execution. */
#include <string.h>
#include <stdio.h>
#include "warpsweep/sim.h"
void ws_reference_run(const ws_workload *wl, uint64_t seed, uint32_t warp_size, uint64_t max_steps, ws_memimage *mem, ws_result *res)
{ (void)wl; (void)seed; (void)warp_size; (void)max_steps; (void)mem; memset(res, 0, sizeof *res); res->status = WS_ST_ERROR;
  snprintf(res->message, sizeof res->message, "reference execution not implemented yet"); }
