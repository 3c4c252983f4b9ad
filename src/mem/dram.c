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
#include <stdlib.h>
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

/* ---- channels x banks with open-row buffers (mem_internal.h) ---- */

int ws_dram_banked_init(ws_dram_banked *d, uint32_t channels, uint32_t banks, uint32_t row_bytes,
                        uint32_t line, uint64_t tRCD, uint64_t tRP, uint64_t tCL, uint64_t latency,
                        double total_bw, uint32_t frfcfs_queue, ws_error *err)
{
    *d = (ws_dram_banked){0};
    if (channels == 0 || banks == 0 || line == 0 || row_bytes < line || row_bytes % line)
        return ws_fail(err, "dram_row_bytes=%u must be a multiple of the %u-byte line", row_bytes, line);
    d->channels = channels;
    d->banks = banks;
    d->line = line;
    d->lines_per_row = row_bytes / line;
    d->tRCD = tRCD;
    d->tRP = tRP;
    d->tCL = tCL;
    d->latency = latency;
    d->queue = frfcfs_queue;
    d->channel_bw = total_bw > 0 ? total_bw / channels : 0;
    d->chan = calloc(channels, sizeof *d->chan);
    if (!d->chan) return ws_fail(err, "out of memory for %u DRAM channels", channels);
    for (uint32_t c = 0; c < channels; c++) {
        ws_dram_chan *ch = &d->chan[c];
        ws_dram_init(&ch->bus, 0, d->channel_bw);
        ch->open_row = malloc((size_t)banks * sizeof *ch->open_row);
        ch->bank_free = calloc(banks, sizeof *ch->bank_free);
        ch->window = frfcfs_queue ? calloc(frfcfs_queue, sizeof *ch->window) : NULL;
        if (!ch->open_row || !ch->bank_free || (frfcfs_queue && !ch->window)) {
            ws_dram_banked_free(d);
            return ws_fail(err, "out of memory for %u DRAM banks", banks);
        }
        for (uint32_t b = 0; b < banks; b++) ch->open_row[b] = UINT64_MAX;
    }
    return 0;
}

void ws_dram_banked_free(ws_dram_banked *d)
{
    if (d->chan)
        for (uint32_t c = 0; c < d->channels; c++) {
            free(d->chan[c].open_row);
            free(d->chan[c].bank_free);
            free(d->chan[c].window);
        }
    free(d->chan);
    *d = (ws_dram_banked){0};
}

/* FR-FCFS (Rixner et al., "Memory Access Scheduling", ISCA 2000; GPGPU-Sim
 * dram_sched.cc frfcfs_scheduler): a bank serves the requests queued for its
 * open row before older ones for other rows.  Completions are computed when a
 * request arrives, so the model cannot move a request ahead of ones already
 * given their times; instead a request whose row a queued request of the same
 * bank still holds open (its burst not yet over when this one arrives) is served
 * as a row hit: no precharge or activate, the activations FR-FCFS would save,
 * its burst appended to the bank's busy time (docs/memory.md, "FR-FCFS"). */
static int frfcfs_grouped(const ws_dram_chan *ch, uint32_t queue, uint32_t bank, uint64_t row, uint64_t t)
{
    for (uint32_t k = 0; k < queue; k++) {
        const ws_dram_pending *p = &ch->window[k];
        if (p->end > t && p->bank == bank && p->row == row) return 1;
    }
    return 0;
}

uint64_t ws_dram_banked_request(ws_dram_banked *d, uint64_t t, uint64_t line, uint32_t bytes)
{
    ws_dram_chan *ch = &d->chan[line % d->channels];
    const uint64_t x = line / d->channels;
    const uint32_t bank = (uint32_t)((x / d->lines_per_row) % d->banks);
    const uint64_t row = x / ((uint64_t)d->lines_per_row * d->banks);
    const uint64_t burst = d->channel_bw > 0 ? (uint64_t)ceil((double)bytes / d->channel_bw) : 0;
    uint64_t start = t > ch->bank_free[bank] ? t : ch->bank_free[bank];
    uint64_t column = start;
    if (ch->open_row[bank] == row) {
        ch->row_hits++;
    } else if (d->queue && frfcfs_grouped(ch, d->queue, bank, row, t)) {
        ch->row_hits++;                  /* served inside its row's group: the open row is the last one's */
    } else {
        column += (ch->open_row[bank] == UINT64_MAX ? 0 : d->tRP) + d->tRCD;
        ch->open_row[bank] = row;
    }
    ch->bank_free[bank] = column + burst;
    if (d->queue) {
        ch->window[ch->window_next] = (ws_dram_pending){.bank = bank, .row = row, .end = column + burst};
        ch->window_next = ch->window_next + 1 == d->queue ? 0 : ch->window_next + 1;
    }
    uint64_t data = column + d->tCL;
    uint64_t end = ws_dram_request(&ch->bus, data, bytes);
    ch->bytes += bytes;
    ch->requests++;
    ch->queue_cycles += (start - t) + (end > data + burst ? end - data - burst : 0);
    return end + d->latency;
}
