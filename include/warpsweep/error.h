#ifndef WARPSWEEP_ERROR_H
#define WARPSWEEP_ERROR_H
/* One-line error messages carried back to the caller.
 * Convention: "file:line:col: what went wrong" where a position is known. */
#include <stdarg.h>

#define WS_ERROR_LEN 512

typedef struct ws_error {
    char msg[WS_ERROR_LEN];
} ws_error;

/* Formats into err (if err is not NULL); returns -1 so callers can
 * `return ws_fail(err, ...)`. */
int ws_fail(ws_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int ws_fail_at(ws_error *err, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
