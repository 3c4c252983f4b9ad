/*
 * ws_mem_hier: the memory hierarchy behind the ws_mem seam (docs/memory.md).
 *
 *   access -> coalesce into l1_line lines
 *     load:   L1 (if l1_kb > 0) per line: hit -> l1_latency; fill in flight ->
 *             merge, completes with it; miss -> an MSHR (waiting for the
 *             earliest to free if all are busy) and a line fill from DRAM.
 *             No L1: every line is a DRAM line fill.
 *     store:  write-through, no-write-allocate: a present line is touched
 *             (LRU), the 32-byte sectors written go to DRAM.
 *     atomic: bypasses the L1; its sectors go to DRAM.
 *   The access completes when its last line does.
 *   A load reports its L1 misses and evictions (with the victim's owning
 *   warp) in req->events if the core passed a buffer (mem.h ws_mem_events).
 *
 * Calls must come in issue order with non-decreasing cycles per core; all
 * cores share one DRAM channel served in call order (the core calls its
 * cores in a fixed order each cycle), so the result is deterministic.
 */
#include <stdlib.h>
#include <string.h>
#include "mem_internal.h"

static void hier_fini(ws_mem *m);

static int hier_init(ws_mem *m, const ws_config *cfg, uint32_t cores, ws_error *err)
{
    m->state = NULL;
    m->latency = (uint64_t)ws_cfg_i(cfg, WS_P_mem_latency);
    m->accesses = 0;
    ws_hier *h = calloc(1, sizeof *h);
    if (!h) return ws_fail(err, "out of memory for the memory system");
    m->state = h;
    h->ncores = cores ? cores : 1;
    h->latency = m->latency;
    h->line = (uint32_t)ws_cfg_i(cfg, WS_P_l1_line);
    if (h->line < WS_SECTOR_BYTES || (h->line & (h->line - 1))) {
        hier_fini(m);
        return ws_fail(err, "l1_line=%u must be a power of two >= %u", (unsigned)ws_cfg_i(cfg, WS_P_l1_line),
                       WS_SECTOR_BYTES);
    }
    ws_dram_init(&h->dram, h->latency, ws_cfg_f(cfg, WS_P_dram_bw));
    uint32_t kb = (uint32_t)ws_cfg_i(cfg, WS_P_l1_kb);
    if (kb > 0) {
        h->l1 = calloc(h->ncores, sizeof *h->l1);
        if (!h->l1) { hier_fini(m); return ws_fail(err, "out of memory for the L1 caches"); }
        h->has_l1 = 1;
        for (uint32_t c = 0; c < h->ncores; c++)
            if (ws_l1_init(&h->l1[c], kb, (uint32_t)ws_cfg_i(cfg, WS_P_l1_ways), h->line,
                           (uint64_t)ws_cfg_i(cfg, WS_P_l1_latency), (uint32_t)ws_cfg_i(cfg, WS_P_l1_mshrs),
                           err) < 0) {
                hier_fini(m);
                return -1;
            }
    }
    return 0;
}

static void hier_fini(ws_mem *m)
{
    ws_hier *h = m->state;
    if (h) {
        if (h->l1)
            for (uint32_t c = 0; c < h->ncores; c++) ws_l1_free(&h->l1[c]);
        free(h->l1);
        free(h);
    }
    m->state = NULL;
}

/* Local memory is private to a warp: its (interleaved) lines get the warp's
 * identity above bit 30 of the address so that two warps never share one.
 * Lines below the local window (global) are left alone; order is kept. */
static void tag_local(uint64_t *x, uint32_t n, uint32_t unit, uint32_t core, uint32_t warp)
{
    const uint64_t base = WS_LOCAL_WINDOW / unit;
    const uint64_t id = ((uint64_t)core << 16 | warp) + 1;
    for (uint32_t i = 0; i < n; i++)
        if (x[i] >= base) x[i] += (id << 30) / unit;
}

static uint64_t load_lines(ws_hier *h, const ws_mem_req *req, uint32_t core, uint64_t t, uint32_t n)
{
    uint64_t done = t + 1;
    if (!h->has_l1) {
        for (uint32_t i = 0; i < n; i++) {
            uint64_t c = ws_dram_request(&h->dram, t, h->line);
            if (c > done) done = c;
        }
        return done;
    }
    ws_l1 *l1 = &h->l1[core];
    for (uint32_t i = 0; i < n; i++) {
        uint64_t c;
        int r = ws_l1_probe(l1, h->lines[i], t, &c);
        if (r == WS_L1_HIT) {
            l1->hits++;
        } else {
            l1->misses++;
            if (r == WS_L1_MERGE) {
                l1->merges++;
            } else {
                uint64_t at;
                uint32_t slot = ws_l1_mshr_pick(l1, t, &at);
                if (at > t) l1->mshr_waits++;
                c = ws_dram_request(&h->dram, at, h->line);
                uint64_t vl;
                uint32_t vo;
                ws_mem_event_push(req->events, WS_MEV_MISS, h->lines[i], req->warp);
                if (ws_l1_fill_owned(l1, slot, h->lines[i], c, req->warp, &vl, &vo))
                    ws_mem_event_push(req->events, WS_MEV_EVICT, vl, vo);
            }
        }
        if (c > done) done = c;
    }
    return done;
}

static uint64_t write_lines(ws_hier *h, const ws_mem_req *req, uint32_t n)
{
    const uint64_t t = req->cycle;
    uint64_t done = t + 1;
    const int store = req->eff->mem_kind != 3;
    if (store && h->has_l1)
        for (uint32_t i = 0; i < n; i++) ws_l1_store(&h->l1[req->core], h->lines[i], t);
    uint32_t ns = ws_coalesce(req->eff, WS_SECTOR_BYTES, h->sectors);
    tag_local(h->sectors, ns, WS_SECTOR_BYTES, req->core, req->warp);
    const uint64_t per_line = h->line / WS_SECTOR_BYTES;
    for (uint32_t i = 0; i < ns;) {            /* one DRAM request per line: its sectors */
        uint32_t j = i + 1;
        while (j < ns && h->sectors[j] / per_line == h->sectors[i] / per_line) j++;
        uint64_t c = ws_dram_request(&h->dram, t, (j - i) * WS_SECTOR_BYTES);
        if (c > done) done = c;
        i = j;
    }
    return done;
}

static uint64_t hier_access(ws_mem *m, const ws_mem_req *req)
{
    ws_hier *h = m->state;
    m->accesses++;
    const ws_effect *eff = req->eff;
    const uint32_t core = req->core < h->ncores ? req->core : 0;
    uint32_t n = ws_coalesce(eff, h->line, h->lines);
    tag_local(h->lines, n, h->line, core, req->warp);
    h->gmem_lines += n;
    if (req->lines_out) *req->lines_out = n;
    if (n == 0)
        return req->cycle + h->latency;
    if (eff->mem_kind == 1)
        return load_lines(h, req, core, req->cycle, n);
    ws_mem_req r = *req;
    r.core = core;
    return write_lines(h, &r, n);
}

static uint64_t hier_accept(ws_mem *m, const ws_mem_req *req)
{
    ws_hier *h = m->state;
    if (!h->has_l1 || !req->inst) return req->cycle;
    const ws_inst *in = req->inst;
    if (in->op != WS_OP_LD && in->op != WS_OP_LDU) return req->cycle;
    if (in->space != WS_SP_GLOBAL && in->space != WS_SP_LOCAL && in->space != WS_SP_GENERIC
        && in->space != WS_SP_NONE)
        return req->cycle;
    const uint32_t core = req->core < h->ncores ? req->core : 0;
    return ws_l1_mshr_free_at(&h->l1[core], req->cycle);
}

static void hier_stats(ws_mem *m, ws_value *mt)
{
    ws_hier *h = m->state;
    uint64_t hits = 0, misses = 0;
    if (h->has_l1)
        for (uint32_t c = 0; c < h->ncores; c++) { hits += h->l1[c].hits; misses += h->l1[c].misses; }
    const double cycles = (double)mt[WS_M_cycles].i, insts = (double)mt[WS_M_warp_insts].i;
    mt[WS_M_l1_hit_rate].f = hits + misses ? (double)hits / (double)(hits + misses) : 0.0;
    mt[WS_M_l1_mpki].f = insts > 0 ? (double)misses * 1000.0 / insts : 0.0;
    mt[WS_M_gmem_lines].i = (int64_t)h->gmem_lines;
    mt[WS_M_dram_bytes].i = (int64_t)h->dram.bytes;
    mt[WS_M_dram_utilization].f = h->dram.bw > 0 && cycles > 0 ? (double)h->dram.bytes / (h->dram.bw * cycles) : 0.0;
}

const ws_mem_ops ws_mem_hier = {
    .name = "hier",
    .init = hier_init,
    .access = hier_access,
    .fini = hier_fini,
    .accept = hier_accept,
    .stats = hier_stats,
};

uint64_t ws_mem_accept(ws_mem *m, const ws_mem_req *req)
{
    return m->ops && m->ops->accept ? m->ops->accept(m, req) : req->cycle;
}

void ws_mem_stats(ws_mem *m, ws_value *mt)
{
    mt[WS_M_l1_hit_rate].f = 0;
    mt[WS_M_l1_mpki].f = 0;
    mt[WS_M_gmem_lines].i = 0;
    mt[WS_M_dram_bytes].i = 0;
    mt[WS_M_dram_utilization].f = 0;
    if (m->ops && m->ops->stats && m->state) m->ops->stats(m, mt);
}
