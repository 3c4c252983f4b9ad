#ifndef WS_REPLICATES_H
#define WS_REPLICATES_H
/* Configurations and their replicates, for `info --best` and `pareto`
 * (docs/noise.md): the rows of a results file that differ only in seed (the
 * R seeds of `repeat: R`, perturbed runs when jitter > 0) are one
 * configuration, summarised by the mean, the sample standard deviation and
 * the half-width of a 95% Student-t confidence interval for the mean. */
#include <stddef.h>
#include <stdint.h>
#include "warpsweep/sweep.h"

/* Running mean and sum of squared deviations (Welford, Technometrics 1962). */
typedef struct rep_stat {
    uint32_t n;
    double mean, m2;
} rep_stat;

void rep_stat_add(rep_stat *s, double x);
/* The sample standard deviation (n - 1 in the denominator); NaN when n < 2. */
double rep_stat_sd(const rep_stat *s);
/* Half-width of the 95% interval mean +- t(0.975, n - 1) sd / sqrt(n);
 * NaN when n < 2 (one run says nothing about its noise). */
double rep_stat_half(const rep_stat *s);

/* The 0.975 quantile of Student's t with df degrees of freedom (df >= 1):
 * the two-sided 95% critical value, 12.706 at df 1, 2.571 at df 5, 1.960 in
 * the limit. Exact to ~1e-12 from the closed-form CDF for integer df
 * (Abramowitz and Stegun 26.7.3-26.7.4) up to df 2000, the Cornish-Fisher
 * expansion in 1/df (A&S 26.7.5) beyond. */
double rep_t975(uint32_t df);

/* 1 when the intervals m1 +- h1 and m2 +- h2 overlap (a NaN half-width, a
 * configuration of one run, counts as 0: only an equal mean overlaps it). */
int rep_overlap(double m1, double h1, double m2, double h2);

/* Ties (docs/noise.md): of n configurations with means mean[] and
 * half-widths half[] (NaN: one run), best being the one ranked first,
 * tied[i] = 1 for every i whose interval overlaps best's, best included
 * when any other does: a tie group, not a single winner. Returns how many
 * are tied (0: the best stands alone). */
size_t rep_ties(size_t n, const double *mean, const double *half, size_t best, uint8_t *tied);

/* The Pareto classification of n configurations by two keys, smaller
 * better (a maximised column negated), with half-widths (NaN: 0):
 *   REP_FRONT      no other mean is at least as good in both keys and better
 *                  in one (equal means are all kept);
 *   REP_NOISE      dominated on the means, but by none beyond noise: d
 *                  dominates c beyond noise when in both keys d's interval
 *                  lies at or below c's (kd + hd <= kc - hc) and the means
 *                  differ in one; c may be on the front of the true means;
 *   REP_DOMINATED  dominated beyond noise.
 * With every half-width 0 no configuration is REP_NOISE. Returns -1 when
 * out of memory, else 0. */
enum { REP_FRONT, REP_NOISE, REP_DOMINATED };
int rep_front(size_t n, const double *kx, const double *hx, const double *ky, const double *hy, uint8_t *cls);

/* A configuration's identity: a 128-bit digest of the workload id and every
 * parameter but seed (keep_seed: seed too, for a ranking split by seed). */
typedef struct rep_key {
    uint64_t a, b;
} rep_key;

rep_key rep_key_of(const ws_row *row, int workload, int keep_seed);

/* Configuration ids by key, an open-addressing table; ids count from 0 in
 * the order keys were first seen. */
typedef struct rep_index {
    size_t n, cap;   /* ids given; table slots (a power of two) */
    rep_key *keys;   /* keys[id] */
    int64_t *slot;   /* -1 empty, else an id */
} rep_index;

/* The id of key (added when new, *added set then); -1 when out of memory. */
int64_t rep_index_get(rep_index *ix, rep_key key, int *added);
/* The id of key, or -1 when not there. */
int64_t rep_index_find(const rep_index *ix, rep_key key);
void rep_index_free(rep_index *ix);

#endif
