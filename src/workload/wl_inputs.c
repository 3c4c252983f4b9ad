/* The files a workload was loaded from (inputs.h, ws_workload_inputs):
 * what the sweep hash covers besides the sweep file, so that --resume and
 * merge notice a changed input. The data files' digests were taken at load
 * over the sealed copies the runs read (wl_file.c), so the hash describes the
 * very bytes the results came from; the YAML's digest was taken over the text
 * that was parsed; the PTX's is taken here over the text the kernel keeps. */
#include <string.h>
#include "warpsweep/digest.h"
#include "warpsweep/inputs.h"
#include "wl_file.h"

typedef void (*input_fn)(void *ctx, const ws_input *in);

static void kernel_input(const ws_kernel *k, input_fn fn, void *ctx)
{
    size_t n = k->source ? strlen(k->source) : 0;
    ws_input in = {"kernel", NULL, k->path, n, ws_xxh64(k->source ? k->source : "", n, 0)};
    fn(ctx, &in);
}

static void data_input(const char *role, const char *buffer, const ws_values *v, input_fn fn, void *ctx)
{
    if (v->kind != WS_INIT_FILE || !v->file)
        return;
    ws_input in = {role, buffer, v->file->path, v->file->bytes, v->file->digest};
    fn(ctx, &in);
}

void ws_workload_inputs(const ws_workload *wl, input_fn fn, void *ctx)
{
    ws_input yaml = {"workload", NULL, wl->path, 0, wl->digest};
    fn(ctx, &yaml);
    /* with several PTX files (launch sequences): one kernel_input per distinct file, here */
    if (wl->kernel)
        kernel_input(wl->kernel, fn, ctx);
    for (uint32_t i = 0; i < wl->nbuffers; i++)
        data_input("init", wl->buffers[i].name, &wl->buffers[i].init, fn, ctx);
    for (uint32_t i = 0; i < wl->nexpects; i++)
        data_input("expect", wl->buffers[wl->expects[i].buffer].name, &wl->expects[i].values, fn, ctx);
}
