#ifndef WARPSWEEP_STRUTIL_H
#define WARPSWEEP_STRUTIL_H
/* Small string helpers shared by every layer that reports "did you mean". */
#include <stddef.h>

/* Levenshtein distance; names longer than 63 characters count as far apart. */
int ws_edit_distance(const char *a, const char *b);

/* Index of the candidate closest to word (first on ties), or -1 when n == 0. */
int ws_closest(const char *word, const char *const *candidates, size_t n, int *distance);

#endif
