#ifndef WARPSWEEP_INPUTS_H
#define WARPSWEEP_INPUTS_H
/* The files a workload was loaded from (src/workload/wl_inputs.c): what the
 * sweep hash covers besides the sweep itself. */
#include <stdint.h>
#include <stdio.h>      /* workload.h uses FILE */
#include "workload.h"

/* One file a workload was loaded from, with a digest of what was loaded:
 * the YAML text, the PTX text, a data file's elements (a CSR part: the
 * converted array). */
typedef struct ws_input {
    const char *role;          /* "workload", "kernel", "init" or "expect" */
    const char *buffer;        /* init / expect: the buffer's name, else NULL */
    const char *path;          /* as shown in messages */
    uint64_t bytes;            /* what the digest covers (0 for the YAML: not kept) */
    uint64_t digest;           /* ws_xxh64 of it */
} ws_input;

/* Calls fn once for every input of wl, in a fixed order (the YAML, its PTX
 * file(s), then the data files by buffer and by expect): what the sweep hash
 * covers besides the sweep itself (wl_inputs.c). */
void ws_workload_inputs(const ws_workload *wl, void (*fn)(void *ctx, const ws_input *in), void *ctx);

#endif
