/*
 * DRAM: mem_latency plus one chip-wide channel of dram_bw bytes/cycle served
 * in request order (docs/memory.md).  Sustained bandwidth follows Little's
 * law: bytes in flight / latency, capped by dram_bw.
 *
 * Exact arithmetic: dram_bw is taken in units of 1/WS_DRAM_BW_SCALE byte per
 * cycle (bw_q = round(dram_bw * WS_DRAM_BW_SCALE)) and the channel's time is
 * kept in units of 1/bw_q cycle, in which one byte takes WS_DRAM_BW_SCALE
 * units and cycle t is t * bw_q: no rounding ever accumulates.
 */
#include <math.h>
#include "mem_internal.h"

void ws_dram_init(ws_dram *d, uint64_t latency, double bw)
{
    d->latency = latency;
    d->bw = bw > 0 ? bw : 0;
    d->bw_q = bw > 0 ? (uint64_t)llround(bw * (double)WS_DRAM_BW_SCALE) : 0;
    if (bw > 0 && d->bw_q == 0) d->bw_q = 1;
    d->free_units = 0;
    d->bytes = 0;
    d->requests = 0;
}

uint64_t ws_dram_request(ws_dram *d, uint64_t t, uint32_t bytes)
{
    d->bytes += bytes;
    d->requests++;
    if (d->bw_q == 0)
        return t + d->latency;
    unsigned __int128 start = (unsigned __int128)t * d->bw_q;
    if (d->free_units > start) start = d->free_units;
    d->free_units = start + (unsigned __int128)bytes * WS_DRAM_BW_SCALE;
    uint64_t end = (uint64_t)((d->free_units + d->bw_q - 1) / d->bw_q);   /* ceil, in cycles */
    return end + d->latency;
}
