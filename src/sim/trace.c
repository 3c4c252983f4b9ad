/*
 * --trace FILE.csv (one row per issued instruction) and --timeline (ASCII,
 * one row per warp split, one column per cycle, long idle stretches
 * compressed).  Only used when asked for: strings are fine here.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "core_internal.h"

struct ws_tl_rec {
    uint64_t cycle;
    uint64_t mask;
    uint32_t core, warp, pc;
    uint32_t launch;          /* the launch of the sequence (0: the first) */
};

#define WS_TL_MAX (1u << 22)

void ws_trace_header(ws_simrun *r)
{
    fprintf(r->opts->trace, "cycle,core,warp,split,pc,ptx_line,opcode,active_mask,launch\n");
}

static int bit_set(const uint8_t *bits, uint32_t nbits, uint32_t i)
{
    return !bits || (i < nbits && (bits[i / 8] >> (i % 8) & 1));
}

static int selected(const ws_trace_filter *f, uint64_t cycle, uint32_t core, uint32_t warp)
{
    return !f || (cycle >= f->from && cycle < f->to && bit_set(f->warps, f->nwarp_bits, warp) &&
                  bit_set(f->cores, f->ncore_bits, core));
}

void ws_trace_issue(ws_simrun *r, uint32_t core, uint32_t warp, uint32_t split, const ws_split *sp,
                    const ws_inst *in)
{
    if (!selected(r->opts->filter, r->now, core, warp))
        return;
    if (r->opts->trace)
        fprintf(r->opts->trace, "%llu,%u,%u,%u,%u,%u,%s,0x%llx,%u\n", (unsigned long long)r->now, core, warp, split,
                sp->pc, in->line, ws_opcode_name(in->op), (unsigned long long)sp->mask, r->nrun);
    if (r->opts->timeline && r->ntl < WS_TL_MAX) {
        if (r->ntl == r->captl) {
            size_t nc = r->captl ? r->captl * 2 : 4096;
            struct ws_tl_rec *p = realloc(r->tl, nc * sizeof *p);
            if (!p) return;
            r->tl = p;
            r->captl = nc;
        }
        struct ws_tl_rec *t = &r->tl[r->ntl++];
        t->cycle = r->now;
        t->mask = sp->mask;
        t->core = core;
        t->warp = warp;
        t->pc = sp->pc;
        t->launch = r->nrun;
    }
}

typedef struct { uint32_t core, warp; uint64_t mask; size_t first; } tl_row;

static int row_cmp(const void *a, const void *b)
{
    const tl_row *x = a, *y = b;
    if (x->core != y->core) return x->core < y->core ? -1 : 1;
    if (x->warp != y->warp) return x->warp < y->warp ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

static void print_grid(ws_simrun *r, FILE *out, const struct ws_tl_rec *tl, size_t ntl)
{
    if (ntl == 0) {
        fprintf(out, r->opts->filter ? "timeline: no instruction issued in the selected cycles, warps and cores\n"
                                     : "timeline: no instruction issued\n");
        return;
    }
    /* rows: distinct (core, warp, mask), ordered by warp then first issue */
    size_t nrows = 0, caprows = 64;
    tl_row *rows = malloc(caprows * sizeof *rows);
    uint32_t *rowof = malloc(ntl * sizeof *rowof);
    if (!rows || !rowof) { free(rows); free(rowof); return; }
    for (size_t i = 0; i < ntl; i++) {
        const struct ws_tl_rec *t = &tl[i];
        size_t k = 0;
        while (k < nrows && !(rows[k].core == t->core && rows[k].warp == t->warp && rows[k].mask == t->mask)) k++;
        if (k == nrows) {
            if (nrows == caprows) {
                caprows *= 2;
                tl_row *p = realloc(rows, caprows * sizeof *rows);
                if (!p) { free(rows); free(rowof); return; }
                rows = p;
            }
            rows[nrows].core = t->core;
            rows[nrows].warp = t->warp;
            rows[nrows].mask = t->mask;
            rows[nrows].first = i;
            nrows++;
        }
    }
    qsort(rows, nrows, sizeof *rows, row_cmp);
    for (size_t i = 0; i < ntl; i++) {
        const struct ws_tl_rec *t = &tl[i];
        for (size_t k = 0; k < nrows; k++)
            if (rows[k].core == t->core && rows[k].warp == t->warp && rows[k].mask == t->mask) { rowof[i] = (uint32_t)k; break; }
    }
    /* columns: every cycle from the first to the last issue; a gap of more
     * than 8 idle cycles becomes one '~' column */
    uint64_t c0 = tl[0].cycle, c1 = tl[ntl - 1].cycle;
    size_t ncol = 0, capcol = 256;
    uint64_t *colc = malloc(capcol * sizeof *colc);   /* cycle of column, or UINT64_MAX for a gap */
    if (!colc) { free(rows); free(rowof); return; }
    uint64_t prev = c0;
    for (size_t i = 0; i < ntl; i++) {
        uint64_t c = tl[i].cycle;
        if (i > 0 && c == tl[i - 1].cycle) continue;
        uint64_t from = (i == 0) ? c0 : prev + 1;
        if (c > from + 8) {
            if (ncol + 1 >= capcol) { capcol *= 2; colc = realloc(colc, capcol * sizeof *colc); if (!colc) goto end; }
            colc[ncol++] = UINT64_MAX;
            from = c;
        }
        for (uint64_t q = from; q <= c; q++) {
            if (ncol + 1 >= capcol) { capcol *= 2; colc = realloc(colc, capcol * sizeof *colc); if (!colc) goto end; }
            colc[ncol++] = q;
        }
        prev = c;
    }
    (void)c1;
    char *line = malloc(ncol + 1);
    if (!line) goto end;
    fprintf(out, "timeline (%s, %s): one row per warp split (lanes mask), one column per cycle; "
                 "'#' issued, '~' idle cycles skipped\n", r->div->name, r->sched->name);
    /* ruler: cycle number every 10 columns */
    fprintf(out, "%-22s", "cycle");
    for (size_t col = 0; col < ncol;) {
        if (colc[col] != UINT64_MAX && col % 10 == 0) {
            int n = fprintf(out, "%-10llu", (unsigned long long)colc[col]);
            col += (size_t)(n > 10 ? n : 10);
        } else {
            fputc(' ', out);
            col++;
        }
    }
    fputc('\n', out);
    size_t ti = 0;
    for (size_t k = 0; k < nrows; k++) {
        for (size_t col = 0; col < ncol; col++) line[col] = colc[col] == UINT64_MAX ? '~' : '.';
        line[ncol] = 0;
        size_t col = 0;
        for (ti = 0; ti < ntl; ti++) {
            if (rowof[ti] != k) continue;
            while (col < ncol && (colc[col] == UINT64_MAX || colc[col] < tl[ti].cycle)) col++;
            if (col < ncol) line[col] = '#';
        }
        char label[64];
        if (r->ncores > 1) snprintf(label, sizeof label, "c%u w%u 0x%llx", rows[k].core, rows[k].warp, (unsigned long long)rows[k].mask);
        else snprintf(label, sizeof label, "w%u 0x%llx", rows[k].warp, (unsigned long long)rows[k].mask);
        fprintf(out, "%-22s%s\n", label, line);
    }
    free(line);
end:
    free(colc);
    free(rows);
    free(rowof);
}

void ws_timeline_free(ws_simrun *r)
{
    free(r->tl);
    r->tl = NULL;
    r->ntl = r->captl = 0;
}

/* One grid for a one-launch run (as before sequences); with several
 * launches, a header line per launch and the grid of its cycles. */
void ws_timeline_print(ws_simrun *r, FILE *out, const ws_launch_stats *ls, uint32_t nls)
{
    if (nls <= 1) {
        print_grid(r, out, r->tl, r->ntl);
        return;
    }
    size_t i = 0;
    for (uint32_t l = 0; l < nls; l++) {
        fprintf(out, "launch %u: %s (iteration %llu), cycles %llu-%llu\n", l, ls[l].name ? ls[l].name : "?",
                (unsigned long long)ls[l].iteration, (unsigned long long)ls[l].start,
                (unsigned long long)(ls[l].start + ls[l].cycles));
        size_t j = i;
        while (j < r->ntl && r->tl[j].launch == l) j++;
        if (j > i) print_grid(r, out, r->tl + i, j - i);
        else fprintf(out, "timeline: no instruction issued%s\n", r->opts->filter ? " in the selected cycles, warps and cores" : "");
        i = j;
    }
}
