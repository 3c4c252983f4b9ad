#include "warpsweep/sim.h"
static const char *const status_names[WS_ST_COUNT] = {"ok", "deadlock", "timeout", "invalid", "mismatch", "error", "starved"};
const char *ws_status_name(int status)
{
    return status >= 0 && status < WS_ST_COUNT ? status_names[status] : "unknown";
}
