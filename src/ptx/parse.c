/* PLACEHOLDER: replaced by the PTX front end. */
#include <stdlib.h>
#include "warpsweep/ptx.h"
ws_kernel *ws_ptx_load(const char *path, const char *entry, ws_error *err)
{ (void)entry; ws_fail(err, "%s: PTX loading not implemented yet", path); return NULL; }
ws_kernel *ws_ptx_parse(const char *text, const char *path, const char *entry, ws_error *err)
{ (void)text; (void)entry; ws_fail(err, "%s: PTX parsing not implemented yet", path); return NULL; }
void ws_kernel_free(ws_kernel *k) { (void)k; }
int ws_inst_format(const ws_kernel *k, const ws_inst *in, char *buf, size_t len)
{ (void)k; (void)in; if (len) buf[0] = 0; return 0; }
