#include <stdio.h>
#include "warpsweep/error.h"

int ws_fail(ws_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int ws_fail_at(ws_error *err, const char *file, int line, int col, const char *fmt, ...)
{
    if (err) {
        int n = snprintf(err->msg, sizeof err->msg, "%s:%d:%d: ", file ? file : "?", line, col);
        if (n < 0 || (size_t)n >= sizeof err->msg)
            return -1;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}
