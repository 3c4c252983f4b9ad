#ifndef WARPSWEEP_STRUTIL_H
#define WARPSWEEP_STRUTIL_H
/* Small string helpers shared by every layer that reports "did you mean". */
#include <stddef.h>

/* Levenshtein distance; names longer than 63 characters count as far apart. */
int ws_edit_distance(const char *a, const char *b);

/* Index of the candidate closest to word (first on ties), or -1 when n == 0. */
int ws_closest(const char *word, const char *const *candidates, size_t n, int *distance);

/* 1-based line and column of byte offset off in text[0..len) (columns count
 * bytes); used for libyaml reader errors, which give only an offset. */
void ws_text_position(const char *text, size_t len, size_t off, int *line, int *col);

#endif
