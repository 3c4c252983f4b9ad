/* Run statuses: their names, and ending a run with one (ws_run_fail). */
#include <stdarg.h>
#include <stdio.h>
#include "warpsweep/sim.h"
#include "core_internal.h"

static const char *const status_names[WS_ST_COUNT] = {"ok", "deadlock", "timeout", "invalid", "mismatch", "error", "starved"};
const char *ws_status_name(int status)
{
    return status >= 0 && status < WS_ST_COUNT ? status_names[status] : "unknown";
}

/* Ends run r with status and the formatted message; the first failure stands (a later call
 * changes nothing). */
void ws_run_fail(ws_simrun *r, int status, const char *fmt, ...)
{
    if (r->status >= 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
    r->status = status;
}
