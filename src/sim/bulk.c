/*
 * Bulk asynchronous copies in the timing run (cp.async.bulk, sm_90; docs/model.md "sm_80/sm_90
 * instructions of ordinary code"). The copy's values move when it issues (src/exec/exec_mem.c
 * exec_bulk); here its global side goes through the memory hierarchy line by line (a 128-byte
 * chunk per request, past the L1 for reads as the Tensor Memory Accelerator's are), at most
 * bulk_bytes_per_cycle a cycle through the core's copy engine, and its completion decides when
 * things that wait for it may go on:
 *   - into shared memory: the copy's bytes complete on its mbarrier (complete_tx) at the copy's
 *     completion cycle, an event of the core applied at the start of that cycle (a completed
 *     phase wakes the CTA's warps suspended in try_wait);
 *   - shared -> global: the copy counts for the warp's open bulk async-group; commit_group
 *     closes it, wait_group N holds the warp until all but the newest N groups are done
 *     (.read: the whole copy here, not only its reads);
 *   - prefetch.L2: its lines are read into the L2; nothing waits for it.
 */
#include "core_internal.h"

/* The lines of [g, g + n) through the memory system as reads or writes from cycle t0; returns
 * when the last is done. */
static uint64_t traffic(ws_simrun *r, ws_core *c, uint32_t slot, const ws_inst *in, uint64_t g, uint32_t n,
                        int write, uint64_t t0)
{
    uint64_t done = t0 + 1;
    ws_effect e;
    e.mem_kind = write ? 2 : 1;
    e.mem_space = WS_SP_GLOBAL;
    e.mem_bytes = 4;
    e.mem_extra = 0;
    for (uint64_t a = g; a < g + n;) {
        uint64_t end = (a / 128 + 1) * 128;
        if (end > g + n) end = g + n;
        const uint32_t k = (uint32_t)(end - a) / 4;   /* 16-byte multiples: 4 .. 32 words */
        e.mem_mask = (1ull << k) - 1;
        for (uint32_t i = 0; i < k; i++) {
            e.mem_addr[i] = a + 4 * i;
            e.mem_lane_space[i] = WS_SP_GLOBAL;
        }
        uint64_t tc = t0;
        if (r->bulk_bw) {
            if (c->bulk_free > tc) tc = c->bulk_free;
            c->bulk_free = tc + (end - a + r->bulk_bw - 1) / r->bulk_bw;
        }
        ws_mem_req q = {.cycle = tc, .core = c->id, .warp = slot, .inst = in, .eff = &e};
        uint64_t d = r->memsys.ops->access(&r->memsys, &q);
        if (d > done) done = d;
        a = end;
    }
    return done;
}

/* A copy into shared memory completes `bytes` on mbarrier `mbar` at cycle t. */
static void push(ws_simrun *r, ws_core *c, const ws_cwarp *w, uint8_t *mbar, uint32_t bytes, uint64_t t)
{
    if (c->bulk_n == c->bulk_cap) {   /* full (bulk_cap copies in flight): the oldest lands now */
        c->bulk_ev[0].t = r->now;
        ws_bulk_apply(r, c, r->now);
    }
    const ws_ccta *ct = &c->ctas[w->cta_slot];
    c->bulk_ev[c->bulk_n++] = (ws_bulk_ev){.t = t, .mbar = mbar, .bytes = bytes, .cta_slot = w->cta_slot,
                                           .cta_id = ct->fc.linear_id};
    if (t < c->bulk_next) c->bulk_next = t;
    if (t < r->bulk_next) r->bulk_next = t;
}

void ws_bulk_due(ws_simrun *r, uint64_t now)
{
    uint64_t next = WS_NEVER;
    for (uint32_t ci = 0; ci < r->ncores; ci++) {
        ws_core *c = &r->cores[ci];
        if (c->bulk_next <= now) ws_bulk_apply(r, c, now);
        if (c->bulk_next < next) next = c->bulk_next;
    }
    r->bulk_next = next;
}

/* commit_group / wait_group N of the bulk async-groups (core_internal.h ws_async_*, as cp.async's). */
static uint64_t groups(ws_cwarp *w, const ws_inst *in, uint64_t t0)
{
    if (in->subop == WS_CPA_BULK_COMMIT) {
        ws_async_commit(&w->bulk);
        return t0 + 1;
    }
    uint64_t ready = ws_async_wait(&w->bulk, (uint32_t)in->src[0].imm, t0);
    if (ready > w->cpa_hold) w->cpa_hold = ready;
    return ready;
}

uint64_t ws_bulk_timing(ws_simrun *r, ws_core *c, ws_cwarp *w, uint32_t slot, const ws_inst *in, const ws_effect *eff,
                        uint64_t t0)
{
    if (in->subop == WS_CPA_BULK_COMMIT || in->subop == WS_CPA_BULK_WAIT) return groups(w, in, t0);
    for (uint64_t m = eff->bulk_mask; m; m &= m - 1) {
        const uint32_t l = (uint32_t)__builtin_ctzll(m), n = eff->bulk_size[l];
        uint64_t done;
        if (in->subop == WS_CPA_BULK_S2S) done = t0 + 1 + (n + 127) / 128;   /* shared memory's 128 B/cycle */
        else done = traffic(r, c, slot, in, eff->bulk_gaddr[l], n, in->subop == WS_CPA_BULK_S2G, t0);
        if (done > r->last_complete) r->last_complete = done;   /* the kernel ends after its copies */
        if (in->subop == WS_CPA_BULK_S2G && done > w->bulk.open) w->bulk.open = done;
        if (eff->bulk_mbar[l] && (in->subop == WS_CPA_BULK_G2S || in->subop == WS_CPA_BULK_S2S))
            push(r, c, w, eff->bulk_mbar[l], n, done);
    }
    return t0 + 1;
}

void ws_bulk_apply(ws_simrun *r, ws_core *c, uint64_t now)
{
    uint32_t keep = 0;
    uint64_t next = WS_NEVER;
    for (uint32_t i = 0; i < c->bulk_n; i++) {
        const ws_bulk_ev ev = c->bulk_ev[i];
        if (ev.t > now) {
            c->bulk_ev[keep++] = ev;
            if (ev.t < next) next = ev.t;
            continue;
        }
        ws_ccta *ct = &c->ctas[ev.cta_slot];
        if (!ct->live || ct->fc.linear_id != ev.cta_id) continue;   /* its CTA has finished: nobody waits */
        int rc = ws_mbar_complete_tx(ev.mbar, ev.bytes);
        r->env.mem_changes++;
        if (rc < 0) {
            ws_run_fail(r, WS_ST_ERROR, "%s: CTA %u: a cp.async.bulk's %u bytes move its mbarrier's tx-count out of "
                        "+-(2^20 - 1) (undefined in PTX)", r->k->path ? r->k->path : "kernel", ev.cta_id, ev.bytes);
            continue;
        }
        if (rc > 0) ws_mbar_wake(c, ct, now);
    }
    c->bulk_n = keep;
    c->bulk_next = next;
}
