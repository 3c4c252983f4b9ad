/*
 * Coalescing (docs/memory.md): a warp's global or local access becomes one
 * request per distinct line touched by its accessing lanes.
 */
#include <string.h>
#include "mem_internal.h"

/* Inserts x into the ascending, duplicate-free out[0..n); returns the new n.
 * Lanes usually come in ascending address order, so the append and
 * same-as-last cases are checked first. */
static uint32_t insert_sorted(uint64_t *out, uint32_t n, uint64_t x)
{
    if (n == 0 || x > out[n - 1]) {
        if (n >= WS_COALESCE_MAX) return n;
        out[n] = x;
        return n + 1;
    }
    if (x == out[n - 1]) return n;
    uint32_t lo = 0, hi = n;              /* first index with out[i] >= x */
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (out[mid] < x) lo = mid + 1; else hi = mid;
    }
    if (out[lo] == x) return n;
    if (n >= WS_COALESCE_MAX) n--;        /* full: drop the largest (never with line_bytes >= mem_bytes) */
    memmove(out + lo + 1, out + lo, (size_t)(n - lo) * sizeof *out);
    out[lo] = x;
    return n + 1;
}

/* The lines of the bytes [a, a + bytes). */
static uint32_t insert_lines(uint64_t *out, uint32_t n, uint64_t a, uint64_t bytes, uint32_t line_bytes)
{
    for (uint64_t x = a / line_bytes; x <= (a + bytes - 1) / line_bytes; x++) n = insert_sorted(out, n, x);
    return n;
}

/* The common access: every lane global (or const) at the previous lane's
 * address + bytes, no texture footprint. Its lines are those of one range,
 * ascending: what the general walk below inserts, computed at once (up to
 * WS_COALESCE_MAX, the walk's cap). Returns the count, or -1 when the access
 * is not of that form. */
static int64_t contiguous_lines(const ws_effect *eff, uint64_t bytes, uint32_t line_bytes, uint64_t *out)
{
    uint64_t mask = eff->mem_mask;
    if (eff->mem_extra || !mask) return -1;
    const uint64_t first = eff->mem_addr[__builtin_ctzll(mask)];
    uint64_t next = first;
    for (; mask; mask &= mask - 1) {
        unsigned l = (unsigned)__builtin_ctzll(mask);
        if (l >= WS_MAX_WARP_SIZE || eff->mem_addr[l] != next) return -1;
        uint8_t sp = eff->mem_lane_space[l];
        if (sp != WS_SP_GLOBAL && sp != WS_SP_CONST) return -1;
        next += bytes;
    }
    uint64_t lo = first / line_bytes, hi = (next - 1) / line_bytes;
    uint32_t n = 0;
    for (uint64_t x = lo; x <= hi && n < WS_COALESCE_MAX; x++) out[n++] = x;
    return n;
}

uint32_t ws_coalesce(const ws_effect *eff, uint32_t line_bytes, uint64_t *lines_out)
{
    uint32_t n = 0;
    if (!line_bytes) line_bytes = 1;
    const uint64_t bytes = eff->mem_bytes ? eff->mem_bytes : 1;
    int64_t c = contiguous_lines(eff, bytes, line_bytes, lines_out);
    if (c >= 0) return (uint32_t)c;
    uint64_t mask = eff->mem_mask;
    uint64_t span_lo = 1, span_hi = 0;    /* bytes of the line(s) last inserted: [lo, hi) */
    while (mask) {
        unsigned l = (unsigned)__builtin_ctzll(mask);
        mask &= mask - 1;
        if (l >= WS_MAX_WARP_SIZE) break;
        uint64_t a = eff->mem_addr[l];
        switch (eff->mem_lane_space[l]) {
        case WS_SP_GLOBAL:
        case WS_SP_CONST:
            break;
        case WS_SP_LOCAL:
            a = WS_LOCAL_WINDOW + a * WS_MAX_WARP_SIZE + (uint64_t)l * bytes;
            break;
        default:
            continue;                     /* shared lanes: timed by the core */
        }
        for (uint32_t k = 0; k < eff->mem_extra; k++)   /* a texture footprint's other texels */
            n = insert_lines(lines_out, n, eff->mem_extra_addr[k][l], bytes, line_bytes);
        if (a >= span_lo && a + bytes <= span_hi) continue;   /* the previous lane's line(s): in out */
        n = insert_lines(lines_out, n, a, bytes, line_bytes);
        span_lo = a / line_bytes * line_bytes;
        span_hi = ((a + bytes - 1) / line_bytes + 1) * line_bytes;
    }
    return n;
}
