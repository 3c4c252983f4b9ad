/*
 * The functional memory of one run (ws_memimage): the kernel's data segment
 * and the workload's buffers as regions of the flat global space, the .param
 * buffer, and the expectation checks over the final image.
 *
 * Layout (regions sorted by address, as ws_gmem_find requires):
 *   - one region per .global/.const variable of the kernel at
 *     WS_DATA_BASE + var->offset (.const read-only), initialised from the
 *     variable's initialiser;
 *   - then buffer i of the workload (ws_memimage_buffer(m, i)): the first at
 *     WS_GLOBAL_BASE, each next one at the previous end rounded up to 256
 *     bytes plus WS_GLOBAL_GAP unmapped bytes, so running off a buffer's end
 *     faults instead of reading its neighbour.
 */
#include <inttypes.h>
#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "warpsweep/workload.h"
#include "wl_types.h"
#include "wl_file.h"

#define BUFFER_ALIGN 256ull

/* splitmix64: a small counter-based generator; the state lives on the stack. */
static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}


/* Two's-complement bits of an integral double in [-2^63, 2^64): through
 * int64 below 2^63, directly above (each conversion in range, C11 6.3.1.4). */
static uint64_t int_bits_of(double d)
{
    return d >= 9223372036854775808.0 ? (uint64_t)d : (uint64_t)(int64_t)d;
}

static void fill_buffer(const ws_buffer_spec *b, uint32_t index, uint64_t seed, uint8_t *data)
{
    const ws_values *v = &b->init;
    if (v->kind != WS_INIT_RANDOM) {
        if (v->kind == WS_INIT_CONST && v->nlist == 0)
            return;   /* no init: zero (calloc) */
        for (uint64_t i = 0; i < b->count; i++)
            wl_store(data, b->type, i, wl_values_elem(v, b->type, i));
        return;
    }
    /* Deterministic in (seed, buffer index): independent of other buffers. */
    uint64_t s = seed * 0x9e3779b97f4a7c15ull ^ ((uint64_t)index + 1) * 0xd1b54a32d192ed03ull;
    splitmix64(&s);
    if (wl_type_float(b->type)) {
        for (uint64_t i = 0; i < b->count; i++) {
            double u = (double)(splitmix64(&s) >> 11) * 0x1.0p-53;   /* [0, 1) */
            wl_store(data, b->type, i, wl_float_bits(b->type, v->min + (v->max - v->min) * u));
        }
    } else {
        /* the parser keeps [min, max] inside the type: [-2^63, 2^63) or [0, 2^64) */
        uint64_t lo = int_bits_of(ceil(v->min)), hi = int_bits_of(floor(v->max));
        uint64_t span = hi - lo + 1;   /* 0 means the full 2^64 range */
        for (uint64_t i = 0; i < b->count; i++) {
            uint64_t r = splitmix64(&s);
            uint64_t x = lo + (span ? r % span : r);
            wl_store(data, b->type, i, wl_int_bits(b->type, x));
        }
    }
}

static void write_params(ws_memimage *m, const ws_launch_spec *L, uint8_t *buf)
{
    const ws_kernel *k = L->kernel;
    for (uint32_t i = 0; i < k->nparams && i < L->nargs; i++) {
        const ws_kparam *kp = &k->params[i];
        const ws_arg *a = &L->args[i];
        if (kp->offset + kp->size > k->param_bytes)
            continue;
        uint8_t *dst = buf + kp->offset;
        uint64_t bits;
        if (a->is_buffer)
            bits = ws_memimage_buffer(m, a->buffer)->addr;
        else if (a->is_tex)
            bits = WS_TEXOBJ_HANDLE(a->tex);
        else if (wl_type_float(kp->type))
            bits = wl_float_bits(kp->type, a->value);
        else
            bits = (uint64_t)a->ivalue;
        uint32_t n = kp->size < 8 ? kp->size : 8;
        memcpy(dst, &bits, n);
    }
}

static int cmp_var_offset(const void *a, const void *b)
{
    const ws_var *x = *(const ws_var *const *)a, *y = *(const ws_var *const *)b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

int ws_memimage_init(ws_memimage *m, const ws_workload *wl, uint64_t seed, ws_error *err)
{
    memset(m, 0, sizeof *m);
    ws_launch_spec top;                      /* a workload built in code: its top-level launch */
    const ws_launch_spec *launches = wl->launches;
    uint32_t nlaunches = wl->nlaunches;
    if (!nlaunches) {
        ws_launch_of_top(wl, &top);
        launches = &top;
        nlaunches = 1;
    }
    const ws_kernel *k = wl->nlaunches ? wl->data_kernel : wl->kernel;
    uint32_t ndata = 0;
    const ws_var **dvars = NULL;
    if (k && k->nvars) {
        dvars = malloc(k->nvars * sizeof *dvars);
        if (!dvars)
            return ws_fail(err, "%s: out of memory", wl->path);
        for (uint32_t i = 0; i < k->nvars; i++) {
            const ws_var *v = &k->vars[i];
            if ((v->space == WS_SP_GLOBAL || v->space == WS_SP_CONST) && v->size > 0)
                dvars[ndata++] = v;
        }
        qsort(dvars, ndata, sizeof *dvars, cmp_var_offset);
    }
    m->gmem.nregions = ndata + wl->nbuffers;
    m->gmem.regions = calloc(m->gmem.nregions ? m->gmem.nregions : 1, sizeof(ws_region));
    m->first_buffer = ndata;
    m->maps = calloc(wl->nbuffers ? wl->nbuffers : 1, sizeof *m->maps);
    if (!m->gmem.regions || !m->maps) {
        free(dvars);
        free(m->gmem.regions);
        free(m->maps);
        return ws_fail(err, "%s: out of memory", wl->path);
    }
    for (uint32_t i = 0; i < ndata; i++) {
        const ws_var *v = dvars[i];
        ws_region *r = &m->gmem.regions[i];
        r->name = v->name;
        r->addr = WS_DATA_BASE + v->offset;
        r->size = v->size;
        r->type = v->type;
        r->writable = v->space != WS_SP_CONST;
        r->data = calloc(1, v->size);
        if (!r->data) {
            free(dvars);
            ws_memimage_free(m);
            return ws_fail(err, "%s: out of memory", wl->path);
        }
        if (v->init)
            memcpy(r->data, v->init, v->size);
    }
    free(dvars);
    uint64_t addr = WS_GLOBAL_BASE;
    for (uint32_t i = 0; i < wl->nbuffers; i++) {
        const ws_buffer_spec *b = &wl->buffers[i];
        ws_region *r = ws_memimage_buffer(m, i);
        r->name = b->name;
        r->addr = addr;
        r->size = b->count * (uint64_t)wl_type_bytes(b->type);
        r->type = b->type;
        r->writable = 1;
        if (b->init.kind == WS_INIT_FILE) {   /* the file's pages, copied only where the kernel writes */
            if (wl_file_map_private(b->init.file, &m->maps[i].base, &m->maps[i].len, &r->data, err) < 0) {
                ws_memimage_free(m);
                return -1;
            }
            addr = (addr + r->size + BUFFER_ALIGN - 1) / BUFFER_ALIGN * BUFFER_ALIGN + WS_GLOBAL_GAP;
            continue;
        }
        r->data = calloc(1, r->size ? r->size : 1);
        if (!r->data) {
            ws_memimage_free(m);
            return ws_fail(err, "%s: buffer '%s': cannot allocate %" PRIu64 " bytes", wl->path, b->name, r->size);
        }
        fill_buffer(b, i, seed, r->data);
        addr = (addr + r->size + BUFFER_ALIGN - 1) / BUFFER_ALIGN * BUFFER_ALIGN + WS_GLOBAL_GAP;
    }
    /* the texture and surface objects, bound to the buffers just placed */
    m->texobjs = calloc(wl->ntexs ? wl->ntexs : 1, sizeof *m->texobjs);
    if (!m->texobjs) {
        ws_memimage_free(m);
        return ws_fail(err, "%s: out of memory", wl->path);
    }
    for (uint32_t i = 0; i < wl->ntexs; i++) {
        m->texobjs[i] = wl->texs[i].desc;
        m->texobjs[i].region = ws_memimage_buffer(m, wl->texs[i].desc.buffer);
    }
    m->gmem.tex = m->texobjs;
    m->gmem.ntex = wl->ntexs;
    /* every launch's .param buffer, 8-byte aligned one after the other */
    m->param_off = calloc(nlaunches + 1, sizeof *m->param_off);
    if (!m->param_off) {
        ws_memimage_free(m);
        return ws_fail(err, "%s: out of memory", wl->path);
    }
    uint64_t total = 0;
    for (uint32_t i = 0; i < nlaunches; i++) {
        m->param_off[i] = (uint32_t)total;
        const ws_kernel *lk = launches[i].kernel;
        total += ((uint64_t)(lk ? lk->param_bytes : 0) + 7) & ~7ull;
        if (total > UINT32_MAX) {
            ws_memimage_free(m);
            return ws_fail(err, "%s: the launches' .param buffers exceed 4 GiB", wl->path);
        }
    }
    m->param_off[nlaunches] = (uint32_t)total;
    m->param_bytes = launches[0].kernel ? launches[0].kernel->param_bytes : 0;
    m->param_buf = calloc(1, total ? total : 1);
    if (!m->param_buf) {
        ws_memimage_free(m);
        return ws_fail(err, "%s: out of memory", wl->path);
    }
    for (uint32_t i = 0; i < nlaunches; i++)
        if (launches[i].kernel)
            write_params(m, &launches[i], m->param_buf + m->param_off[i]);
    return 0;
}

void ws_memimage_free(ws_memimage *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->gmem.nregions; i++) {
        uint32_t b = i - m->first_buffer;
        if (m->maps && i >= m->first_buffer && m->maps[b].base)
            munmap(m->maps[b].base, m->maps[b].len);
        else if (m->gmem.regions)
            free(m->gmem.regions[i].data);
    }
    free(m->maps);
    free(m->texobjs);
    free(m->gmem.regions);
    free(m->param_buf);
    free(m->param_off);
    memset(m, 0, sizeof *m);
}

/* ---- checks and dumps ---- */

static void format_elem(char *buf, size_t len, int t, uint64_t bits)
{
    if (t == WS_TY_F32) {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, 4);
        snprintf(buf, len, "%.9g", (double)f);
    } else if (t == WS_TY_F64) {
        double d;
        memcpy(&d, &bits, 8);
        snprintf(buf, len, "%.17g", d);
    } else if (wl_type_signed(t)) {
        snprintf(buf, len, "%" PRId64, (int64_t)bits);
    } else {
        int b = wl_type_bytes(t) * 8;
        snprintf(buf, len, "%" PRIu64, (uint64_t)(b >= 64 ? bits : bits & ((1ull << b) - 1)));
    }
}

static int is_nan_bits(int t, uint64_t bits)
{
    if (t == WS_TY_F32)
        return ((bits >> 23) & 0xff) == 0xff && (bits & 0x7fffff) != 0;
    if (t == WS_TY_F64)
        return ((bits >> 52) & 0x7ff) == 0x7ff && (bits & 0xfffffffffffffull) != 0;
    return 0;
}

static int elem_equal(int t, uint64_t a, uint64_t b)
{
    int n = wl_type_bytes(t) * 8;
    uint64_t mask = n >= 64 ? ~0ull : (1ull << n) - 1;
    if ((a & mask) == (b & mask))
        return 1;
    return is_nan_bits(t, a & mask) && is_nan_bits(t, b & mask);
}

/* A float's bits as an integer that orders like the value (-0 and +0 both
 * 0), so that the difference of two is their distance in ulps. */
static int64_t ordered_bits(int t, uint64_t bits)
{
    int top = t == WS_TY_F32 ? 31 : 63;
    uint64_t mag = bits & ((1ull << top) - 1);
    return (bits >> top) & 1 ? -(int64_t)mag : (int64_t)mag;
}

static double float_value(int t, uint64_t bits)
{
    if (t == WS_TY_F32) {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

/* An expect from a file with ulp:, or rel: and/or abs: (floats only; NaN
 * matches NaN only; |got - want| <= abs + rel |want|, numpy.allclose's rule). */
static int within_tolerance(const ws_values *v, int t, uint64_t got, uint64_t want)
{
    if (elem_equal(t, got, want))
        return 1;
    if (is_nan_bits(t, got) || is_nan_bits(t, want) || !wl_type_float(t))
        return 0;
    if (v->ulp) {
        int64_t a = ordered_bits(t, got), b = ordered_bits(t, want);
        uint64_t d = a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
        return d <= v->ulp;
    }
    double g = float_value(t, got), w = float_value(t, want);
    return (v->rel > 0 || v->abs > 0) && fabs(g - w) <= v->abs + v->rel * fabs(w);
}

int ws_expect_check(const ws_workload *wl, ws_memimage *m, ws_memimage *reference, char *msg, size_t len)
{
    if (len)
        msg[0] = 0;
    for (uint32_t e = 0; e < wl->nexpects; e++) {
        const ws_expect *x = &wl->expects[e];
        const ws_buffer_spec *b = &wl->buffers[x->buffer];
        const ws_region *r = ws_memimage_buffer(m, x->buffer);
        const uint8_t *want = NULL;
        uint64_t n = b->count;
        if (x->kind == WS_EXPECT_REFERENCE) {
            if (!reference) {
                snprintf(msg, len, "expect %s: reference: no reference run to compare with", b->name);
                return -1;
            }
            want = ws_memimage_buffer(reference, x->buffer)->data;
        } else if (x->values.kind == WS_INIT_LIST) {
            n = x->values.nlist;
        } else if (x->values.kind == WS_INIT_FILE) {
            want = x->values.file->view;   /* count checked against the file at load */
        }
        /* bit-identical (the common case): one memcmp, not n element compares */
        if (want && memcmp(r->data, want, n * (uint64_t)wl_type_bytes(b->type)) == 0)
            continue;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t got = wl_load(r->data, b->type, i);
            uint64_t exp = want ? wl_load(want, b->type, i) : wl_values_elem(&x->values, b->type, i);
            if (!within_tolerance(&x->values, b->type, got, exp)) {
                char gs[64], es[64];
                format_elem(gs, sizeof gs, b->type, got);
                format_elem(es, sizeof es, b->type, exp);
                const char *from = x->kind == WS_EXPECT_REFERENCE ? " (reference run)" : "";
                char file_note[600];
                if (x->kind != WS_EXPECT_REFERENCE && x->values.kind == WS_INIT_FILE) {
                    if (x->values.ulp)
                        snprintf(file_note, sizeof file_note, " (%s, within %u ulp)", x->values.file->path, x->values.ulp);
                    else if (x->values.rel > 0 || x->values.abs > 0)
                        snprintf(file_note, sizeof file_note, " (%s, within abs %g + rel %g x |want|)",
                                 x->values.file->path, x->values.abs, x->values.rel);
                    else
                        snprintf(file_note, sizeof file_note, " (%s)", x->values.file->path);
                    from = file_note;
                }
                snprintf(msg, len, "mismatch: %s[%" PRIu64 "] = %s, expected %s%s", b->name, i, gs, es, from);
                return -1;
            }
        }
    }
    return 0;
}

void ws_buffer_dump(const ws_workload *wl, ws_memimage *m, uint32_t i, FILE *out)
{
    const ws_buffer_spec *b = &wl->buffers[i];
    const ws_region *r = ws_memimage_buffer(m, i);
    char s[64];
    for (uint64_t j = 0; j < b->count; j++) {
        format_elem(s, sizeof s, b->type, wl_load(r->data, b->type, j));
        fprintf(out, "%s%s", j ? ", " : "", s);
    }
    fputc('\n', out);
}

/* numpy's dtype string of a buffer type: '<' (or '|' for one byte), the
 * kind (f float, i signed, u unsigned and b-types), the width in bytes */
static void npy_dtype(int type, char *d, size_t len)
{
    int w = wl_type_bytes(type);
    snprintf(d, len, "%c%c%d", w == 1 ? '|' : '<', wl_type_float(type) ? 'f' : wl_type_signed(type) ? 'i' : 'u', w);
}

int ws_buffer_save(const ws_workload *wl, ws_memimage *m, uint32_t i, const char *path, ws_error *err)
{
    const ws_buffer_spec *b = &wl->buffers[i];
    const ws_region *r = ws_memimage_buffer(m, i);
    const size_t n = strlen(path), bytes = (size_t)b->count * (size_t)wl_type_bytes(b->type);
    FILE *f = fopen(path, "wb");
    if (!f)
        return ws_fail(err, "%s: cannot write the dump of '%s': %s", path, b->name, strerror(errno));
    int ok = 1;
    if (n >= 4 && strcmp(path + n - 4, ".npy") == 0) {
        /* NumPy format 1.0: magic, version, a little-endian u16 header length, then the
         * dict padded with spaces and a newline so that data starts at a multiple of 64 */
        char d[8], hdr[256];
        npy_dtype(b->type, d, sizeof d);
        int len = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': (%llu,), }", d,
                           (unsigned long long)b->count);
        int total = 10 + len + 1, pad = (64 - total % 64) % 64;
        memset(hdr + len, ' ', (size_t)pad);
        hdr[len + pad] = '\n';
        uint16_t hl = (uint16_t)(len + pad + 1);
        unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hl & 0xff), (unsigned char)(hl >> 8)};
        ok = fwrite(pre, 1, 10, f) == 10 && fwrite(hdr, 1, hl, f) == hl;
    }
    /* the image holds each element little-endian, as the buffer's type */
    ok = ok && fwrite(r->data, 1, bytes, f) == bytes;
    if (fclose(f) != 0)
        ok = 0;
    return ok ? 0 : ws_fail(err, "%s: cannot write the dump of '%s': %s", path, b->name, strerror(errno));
}
