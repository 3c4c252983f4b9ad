/* One-line error messages (error.h): formatted whole, then made to fit one
 * line of WS_ERROR_LEN - 1 bytes without losing their reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpsweep/error.h"

/* src escaped into out (cap >= 4 x strlen(src) + 1): a control byte or DEL
 * becomes \n, \r, \t or \xHH, so a quoted value with a newline cannot break
 * the line; everything else is kept (UTF-8 names stay readable). */
static size_t escape_controls(char *out, const char *src)
{
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)src; *p; p++) {
        if (*p >= 0x20 && *p != 0x7f) {
            out[o++] = (char)*p;
            continue;
        }
        out[o++] = '\\';
        if (*p == '\n') out[o++] = 'n';
        else if (*p == '\r') out[o++] = 'r';
        else if (*p == '\t') out[o++] = 't';
        else o += (size_t)sprintf(out + o, "x%02x", *p);
    }
    out[o] = 0;
    return o;
}

/* s (n bytes) into dst[cap] with its middle elided when it does not fit:
 * from the longest single-quoted value if that alone can make room (a long
 * value quoted whole would push the reason after it past the end), else from
 * the middle of the message; either way the start (file:line:col) and the
 * end (the reason) stay. */
static void fit(char *dst, size_t cap, const char *s, size_t n)
{
    if (n < cap) {
        memcpy(dst, s, n + 1);
        return;
    }
    const size_t cut = n - (cap - 1) + 3;   /* bytes to remove, "..." put in */
    size_t best_at = 0, best_len = 0;
    for (const char *q = strchr(s, '\''); q;) {   /* quote pairs, in order */
        const char *e = strchr(q + 1, '\'');
        if (!e)
            break;
        if ((size_t)(e - q - 1) > best_len)
            best_at = (size_t)(q + 1 - s), best_len = (size_t)(e - q - 1);
        q = strchr(e + 1, '\'');
    }
    size_t from;
    if (best_len > cut + 8)   /* elide inside the value, keeping some of both its ends */
        from = best_at + (best_len - cut) / 2;
    else
        from = (n - cut) / 2;
    size_t o = 0;
    memcpy(dst, s, from);
    o = from;
    memcpy(dst + o, "...", 3);
    o += 3;
    memcpy(dst + o, s + from + cut, n - from - cut);
    o += n - from - cut;
    dst[o] = 0;
}

/* msg (formatted from fmt, ap after prefix) into err, one line, fitted */
static void put(ws_error *err, const char *prefix, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int len = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    size_t plen = strlen(prefix);
    if (len < 0)
        len = 0;
    char *raw = malloc(plen + (size_t)len + 1);
    char *esc = raw ? malloc(4 * (plen + (size_t)len) + 1) : NULL;
    if (!raw || !esc) {   /* out of memory: the plain, possibly cut, message */
        free(raw);
        int n = snprintf(err->msg, sizeof err->msg, "%s", prefix);
        if (n >= 0 && (size_t)n < sizeof err->msg)
            vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
        return;
    }
    memcpy(raw, prefix, plen);
    vsnprintf(raw + plen, (size_t)len + 1, fmt, ap);
    size_t n = escape_controls(esc, raw);
    fit(err->msg, sizeof err->msg, esc, n);
    free(raw);
    free(esc);
}

int ws_fail(ws_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        put(err, "", fmt, ap);
        va_end(ap);
    }
    return -1;
}

int ws_fail_at(ws_error *err, const char *file, int line, int col, const char *fmt, ...)
{
    if (err) {
        char prefix[WS_ERROR_LEN];
        snprintf(prefix, sizeof prefix, "%s:%d:%d: ", file ? file : "?", line, col);
        va_list ap;
        va_start(ap, fmt);
        put(err, prefix, fmt, ap);
        va_end(ap);
    }
    return -1;
}
