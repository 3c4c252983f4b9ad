#ifndef WARPSWEEP_STRUTIL_H
#define WARPSWEEP_STRUTIL_H
/* Small string helpers shared by every layer that reports "did you mean". */
#include <stddef.h>
#include <stdio.h>

/* Levenshtein distance; names longer than 63 characters count as far apart. */
int ws_edit_distance(const char *a, const char *b);

/* Index of the candidate closest to word (first on ties), or -1 when n == 0. */
int ws_closest(const char *word, const char *const *candidates, size_t n, int *distance);

/* 1-based line and column of byte offset off in text[0..len) (columns count
 * bytes); used for libyaml reader errors, which give only an offset. */
void ws_text_position(const char *text, size_t len, size_t off, int *line, int *col);

/* Writes s (len bytes; NULs allowed) into out (cap >= 16 bytes, always
 * NUL-terminated) as one single-quoted, printable piece of a one-line
 * message: \\ \' \n \r \t and \xHH for every other byte outside 0x20..0x7e.
 * A value that does not fit keeps its start and its end with "..." in the
 * middle (never a cut escape). Returns out. */
char *ws_quote(char *out, size_t cap, const char *s, size_t len);

/* s itself when it is printable (0x20..0x7e, no quote) and shorter than cap,
 * else ws_quote(buf, cap, s, strlen(s)): file names in messages keep their
 * usual look and cannot break the line. */
const char *ws_printable_name(char *buf, size_t cap, const char *s);

/* Writes s (NULL: "") as a JSON string literal, with its quotes, escaping quote, backslash and
 * control characters. */
void ws_json_string(FILE *out, const char *s);

#endif
