/* Configurations, replicates and 95% Student-t intervals (replicates.h). */
#define _GNU_SOURCE   /* qsort_r */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "warpsweep/replicates.h"
#include "warpsweep/digest.h"

void rep_stat_add(rep_stat *s, double x)
{
    s->n++;
    double d = x - s->mean;
    s->mean += d / s->n;
    s->m2 += d * (x - s->mean);
}

double rep_stat_sd(const rep_stat *s)
{
    return s->n < 2 ? NAN : sqrt(s->m2 / (s->n - 1));
}

double rep_stat_half(const rep_stat *s)
{
    return s->n < 2 ? NAN : rep_t975(s->n - 1) * rep_stat_sd(s) / sqrt((double)s->n);
}

/* P(|T| < t) for Student's t with integer df (A&S 26.7.3, 26.7.4), with
 * theta = atan(t / sqrt(df)):
 *   df odd:  (2/pi) [theta + sin(theta) (c + 2/3 c^3 + 2.4/(3.5) c^5 + ... c^(df-2))], c = cos(theta)
 *            (the bracketed sum empty for df 1)
 *   df even: sin(theta) [1 + 1/2 c^2 + 1.3/(2.4) c^4 + ... c^(df-2)] */
static double t_central(double t, uint32_t df)
{
    const double th = atan(t / sqrt((double)df)), c = cos(th), c2 = c * c;
    if (df % 2) {
        double sum = 0, term = c;
        for (int64_t k = 1; 2 * k - 1 <= (int64_t)df - 2; k++) {   /* the power 2k - 1 */
            sum += term;
            term *= c2 * (2.0 * k) / (2.0 * k + 1);
        }
        return 2 / M_PI * (th + sin(th) * sum);
    }
    double sum = 0, term = 1;
    for (int64_t k = 1; 2 * k - 2 <= (int64_t)df - 2; k++) {       /* the power 2k - 2 */
        sum += term;
        term *= c2 * (2.0 * k - 1) / (2.0 * k);
    }
    return sin(th) * sum;
}

double rep_t975(uint32_t df)
{
    if (df == 0) return NAN;
    if (df > 2000) {   /* A&S 26.7.5: the series in 1/df around the normal quantile */
        const double x = 1.959963984540054, v = (double)df, x2 = x * x;
        const double g1 = (x2 + 1) * x / 4;
        const double g2 = ((5 * x2 + 16) * x2 + 3) * x / 96;
        const double g3 = (((3 * x2 + 19) * x2 + 17) * x2 - 15) * x / 384;
        const double g4 = ((((79 * x2 + 776) * x2 + 1482) * x2 - 1920) * x2 - 945) * x / 92160;
        return x + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v);
    }
    double lo = 0, hi = 16;
    while (t_central(hi, df) < 0.95) hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {   /* bisection: A is increasing in t */
        double mid = (lo + hi) / 2;
        if (t_central(mid, df) < 0.95) lo = mid;
        else hi = mid;
    }
    return (lo + hi) / 2;
}

int rep_overlap(double m1, double h1, double m2, double h2)
{
    if (isnan(h1)) h1 = 0;
    if (isnan(h2)) h2 = 0;
    return fabs(m1 - m2) <= h1 + h2;
}

static double h0(double h) { return isnan(h) ? 0 : h; }

size_t rep_ties(size_t n, const double *mean, const double *half, size_t best, uint8_t *tied)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        tied[i] = i != best && rep_overlap(mean[i], half[i], mean[best], half[best]);
        k += tied[i];
    }
    if (k) tied[best] = 1;
    return k ? k + 1 : 0;
}

typedef struct front_sort { const double *kx, *ky; } front_sort;

static int by_keys(const void *a, const void *b, void *ctx)
{
    const front_sort *f = ctx;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (f->kx[i] != f->kx[j]) return f->kx[i] < f->kx[j] ? -1 : 1;
    if (f->ky[i] != f->ky[j]) return f->ky[i] < f->ky[j] ? -1 : 1;
    return i < j ? -1 : i > j;
}

/* d dominates c beyond noise (rep_front) */
static int beyond_noise(size_t d, size_t c, const double *kx, const double *hx, const double *ky, const double *hy)
{
    return kx[d] + h0(hx[d]) <= kx[c] - h0(hx[c]) && ky[d] + h0(hy[d]) <= ky[c] - h0(hy[c])
           && (kx[d] < kx[c] || ky[d] < ky[c]);
}

int rep_front(size_t n, const double *kx, const double *hx, const double *ky, const double *hy, uint8_t *cls)
{
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order) return -1;
    for (size_t i = 0; i < n; i++) order[i] = i;
    front_sort fs = {kx, ky};
    qsort_r(order, n, sizeof *order, by_keys, &fs);
    /* the front on the means: sorted best x first (equal x: best y first), a
     * run of equal x adds its rows of the run's best y when that y beats
     * every y at a strictly better x */
    double best_ky = INFINITY;
    size_t nfront = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && kx[order[j]] == kx[order[i]]) cls[order[j++]] = REP_DOMINATED;
        if (ky[order[i]] < best_ky) {
            for (size_t k = i; k < j && ky[order[k]] == ky[order[i]]; k++) cls[order[k]] = REP_FRONT;
            best_ky = ky[order[i]];
        }
        i = j;
    }
    /* the front first: most configurations are dominated beyond noise by
     * one of it, so the scan usually stops early */
    for (size_t i = 0; i < n; i++)
        if (cls[order[i]] == REP_FRONT) {
            size_t t = order[nfront];
            order[nfront++] = order[i];
            order[i] = t;
        }
    for (size_t c = 0; c < n; c++) {
        if (cls[c] == REP_FRONT) continue;
        cls[c] = REP_NOISE;
        for (size_t k = 0; k < n; k++)
            if (beyond_noise(order[k], c, kx, hx, ky, hy)) {
                cls[c] = REP_DOMINATED;
                break;
            }
    }
    free(order);
    return 0;
}

rep_key rep_key_of(const ws_row *row, int workload, int keep_seed)
{
    ws_value v[WS_NPARAMS + 1];
    memcpy(v, row->params, sizeof row->params);
    if (!keep_seed) v[WS_P_seed].i = 0;
    v[WS_NPARAMS].i = workload;
    return (rep_key){ws_xxh64(v, sizeof v, 0x5eed), ws_xxh64(v, sizeof v, 0xc0ffee)};
}

static size_t slot_of(rep_key k, size_t cap) { return (size_t)(k.a ^ (k.b >> 7)) & (cap - 1); }

static int grow(rep_index *ix)
{
    size_t cap = ix->cap ? 2 * ix->cap : 1024;
    int64_t *slot = malloc(cap * sizeof *slot);
    rep_key *keys = realloc(ix->keys, cap / 2 * sizeof *keys);
    if (!slot || !keys) {
        free(slot);
        if (keys) ix->keys = keys;
        return -1;
    }
    ix->keys = keys;
    for (size_t i = 0; i < cap; i++) slot[i] = -1;
    for (size_t id = 0; id < ix->n; id++) {
        size_t s = slot_of(keys[id], cap);
        while (slot[s] >= 0) s = (s + 1) & (cap - 1);
        slot[s] = (int64_t)id;
    }
    free(ix->slot);
    ix->slot = slot;
    ix->cap = cap;
    return 0;
}

int64_t rep_index_find(const rep_index *ix, rep_key key)
{
    if (!ix->cap) return -1;
    for (size_t s = slot_of(key, ix->cap);; s = (s + 1) & (ix->cap - 1)) {
        int64_t id = ix->slot[s];
        if (id < 0) return -1;
        if (ix->keys[id].a == key.a && ix->keys[id].b == key.b) return id;
    }
}

int64_t rep_index_get(rep_index *ix, rep_key key, int *added)
{
    *added = 0;
    int64_t id = rep_index_find(ix, key);
    if (id >= 0) return id;
    if (2 * (ix->n + 1) > ix->cap && grow(ix) < 0) return -1;   /* load at most 1/2 */
    size_t s = slot_of(key, ix->cap);
    while (ix->slot[s] >= 0) s = (s + 1) & (ix->cap - 1);
    ix->keys[ix->n] = key;
    ix->slot[s] = (int64_t)ix->n;
    *added = 1;
    return (int64_t)ix->n++;
}

void rep_index_free(rep_index *ix)
{
    free(ix->keys);
    free(ix->slot);
    memset(ix, 0, sizeof *ix);
}
