/* PLACEHOLDER: replaced by the workload loader. */
#include <stdio.h>
#include "warpsweep/workload.h"
ws_workload *ws_workload_load(const char *path, ws_error *err) { ws_fail(err, "%s: workloads not implemented yet", path); return NULL; }
void ws_workload_free(ws_workload *wl) { (void)wl; }
int ws_memimage_init(ws_memimage *m, const ws_workload *wl, uint64_t seed, ws_error *err) { (void)m; (void)wl; (void)seed; return ws_fail(err, "not implemented"); }
void ws_memimage_free(ws_memimage *m) { (void)m; }
int ws_expect_check(const ws_workload *wl, ws_memimage *m, ws_memimage *reference, char *msg, size_t len)
{ (void)wl; (void)m; (void)reference; snprintf(msg, len, "not implemented"); return -1; }
void ws_buffer_dump(const ws_workload *wl, ws_memimage *m, uint32_t i, FILE *out) { (void)wl; (void)m; (void)i; (void)out; }
