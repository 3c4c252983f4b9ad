/*
 * The launch-sequence driver: ws_sequence_run walks a workload's flattened
 * statement list (ws_seq_stmt, decoded once by workload.c) on one memory
 * image. The cycle-level core (src/sim/core.c) and the MIMD reference
 * (src/sim/reference.c) both run their launches through it, so both follow
 * the same host program, each on its own memory: an `until` condition is
 * read from the memory of the run that evaluates it.
 *
 * The host side is instantaneous here: a `set` and a loop test take no
 * simulated time (the core charges the launch overhead between launches).
 */
#include <string.h>
#include "warpsweep/workload.h"
#include "wl_types.h"

static double float_value(int t, uint64_t bits)
{
    if (t == WS_TY_F32) {
        float f;
        uint32_t u = (uint32_t)bits;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

/* Every element of buffer b is value (integers: the bits of the type;
 * floats: compared as numbers, so -0 == 0 and a NaN never equals). */
static int buffer_all_equal(const ws_workload *wl, ws_memimage *mem, uint32_t b, uint64_t bits)
{
    const ws_buffer_spec *bs = &wl->buffers[b];
    const ws_region *r = ws_memimage_buffer(mem, b);
    int t = bs->type;
    if (wl_type_float(t)) {
        double want = float_value(t, bits);
        for (uint64_t i = 0; i < bs->count; i++)
            if (!(float_value(t, wl_load(r->data, t, i)) == want)) return 0;
        return 1;
    }
    for (uint64_t i = 0; i < bs->count; i++)
        if (wl_load(r->data, t, i) != bits) return 0;
    return 1;
}

static void buffer_fill(const ws_workload *wl, ws_memimage *mem, uint32_t b, uint64_t bits)
{
    const ws_buffer_spec *bs = &wl->buffers[b];
    ws_region *r = ws_memimage_buffer(mem, b);
    for (uint64_t i = 0; i < bs->count; i++) wl_store(r->data, bs->type, i, bits);
}

int ws_sequence_run(const ws_workload *wl, ws_memimage *mem, ws_seq_launch_fn launch, void *ctx)
{
    if (!wl->nstmts) {                 /* built in code: the top-level launch */
        ws_launch_spec top;
        ws_launch_of_top(wl, &top);
        return launch(ctx, &top, 0, 0, 0);
    }
    uint64_t iter[WS_SEQ_MAX_DEPTH];   /* per open loop: iterations finished */
    int depth = -1;                    /* innermost open loop */
    for (uint32_t pc = 0; pc < wl->nstmts;) {
        const ws_seq_stmt *s = &wl->stmts[pc];
        switch (s->op) {
        case WS_SEQ_LAUNCH: {
            int rc = launch(ctx, &wl->launches[s->launch], s->launch, pc, depth >= 0 ? iter[depth] : 0);
            if (rc) return rc;
            pc++;
            break;
        }
        case WS_SEQ_SET:
            buffer_fill(wl, mem, s->buffer, s->bits);
            pc++;
            break;
        case WS_SEQ_LOOP:
            if (s->count == 0) {
                pc = s->jump + 1;
                break;
            }
            depth = s->depth;
            iter[depth] = 0;
            pc++;
            break;
        case WS_SEQ_END: {
            const ws_seq_stmt *head = &wl->stmts[s->jump];
            uint64_t done = ++iter[s->depth];
            int stop = done >= head->count || (s->until && buffer_all_equal(wl, mem, s->buffer, s->bits));
            if (stop) {
                depth = s->depth - 1;
                pc++;
            } else {
                depth = s->depth;
                pc = s->jump + 1;
            }
            break;
        }
        default:
            pc++;
        }
    }
    return 0;
}

/* Launches of stmts [from, to): loops count at their maximum. */
static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
static uint64_t sat_mul(uint64_t a, uint64_t b) { return a && b > UINT64_MAX / a ? UINT64_MAX : a * b; }

static uint64_t launches_in(const ws_workload *wl, uint32_t from, uint32_t to)
{
    uint64_t n = 0;
    for (uint32_t pc = from; pc < to; pc++) {
        const ws_seq_stmt *s = &wl->stmts[pc];
        if (s->op == WS_SEQ_LAUNCH) n = sat_add(n, 1);
        if (s->op == WS_SEQ_LOOP) {
            n = sat_add(n, sat_mul(s->count, launches_in(wl, pc + 1, s->jump)));
            pc = s->jump;
        }
    }
    return n;
}

uint64_t ws_sequence_max_launches(const ws_workload *wl) { return launches_in(wl, 0, wl->nstmts); }
