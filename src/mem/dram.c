/*
 * DRAM: mem_latency plus one chip-wide channel of dram_bw bytes/cycle served
 * in request order (docs/memory.md).  Sustained bandwidth follows Little's
 * law: bytes in flight / latency, capped by dram_bw.
 */
#include <math.h>
#include "mem_internal.h"

void ws_dram_init(ws_dram *d, uint64_t latency, double bw)
{
    d->latency = latency;
    d->bw = bw > 0 ? bw : 0;
    d->free_tick = 0;
    d->bytes = 0;
    d->requests = 0;
}

uint64_t ws_dram_request(ws_dram *d, uint64_t t, uint32_t bytes)
{
    d->bytes += bytes;
    d->requests++;
    if (d->bw <= 0)
        return t + d->latency;
    uint64_t start = t * WS_DRAM_TICKS;
    if (d->free_tick > start) start = d->free_tick;
    uint64_t xfer = (uint64_t)llround((double)bytes * (double)WS_DRAM_TICKS / d->bw);
    d->free_tick = start + xfer;
    uint64_t end = (d->free_tick + WS_DRAM_TICKS - 1) / WS_DRAM_TICKS;   /* ceil */
    return end + d->latency;
}
