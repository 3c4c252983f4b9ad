#include <stdio.h>
#include <string.h>
#include "warpsweep/strutil.h"

int ws_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 1000;
    int d[64][64];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

int ws_closest(const char *word, const char *const *candidates, size_t n, int *distance)
{
    int best = -1, best_d = 1 << 30;
    for (size_t i = 0; i < n; i++) {
        int d = ws_edit_distance(word, candidates[i]);
        if (d < best_d) {
            best_d = d;
            best = (int)i;
        }
    }
    if (distance)
        *distance = best_d;
    return best;
}

void ws_text_position(const char *text, size_t len, size_t off, int *line, int *col)
{
    int l = 1, c = 1;
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}

/* the escaped form of byte c into e (at most 5 bytes with the NUL); its length */
static size_t escape_byte(unsigned char c, char e[5])
{
    static const char hex[] = "0123456789abcdef";
    const char *named = c == '\\' ? "\\\\" : c == '\'' ? "\\'" : c == '\n' ? "\\n" : c == '\r' ? "\\r"
                      : c == '\t' ? "\\t" : NULL;
    if (named) {
        memcpy(e, named, 3);
        return 2;
    }
    if (c >= 0x20 && c < 0x7f) {
        e[0] = (char)c;
        e[1] = 0;
        return 1;
    }
    e[0] = '\\';
    e[1] = 'x';
    e[2] = hex[c >> 4];
    e[3] = hex[c & 15];
    e[4] = 0;
    return 4;
}

static size_t escaped_len(const char *s, size_t len)
{
    size_t n = 0;
    char e[5];
    for (size_t i = 0; i < len; i++)
        n += escape_byte((unsigned char)s[i], e);
    return n;
}

char *ws_quote(char *out, size_t cap, const char *s, size_t len)
{
    char e[5];
    size_t o = 0, room = cap - 3; /* the two quotes and the NUL */
    out[o++] = '\'';
    if (escaped_len(s, len) <= room) {
        for (size_t i = 0; i < len; i++)
            for (size_t k = 0, n = escape_byte((unsigned char)s[i], e); k < n; k++)
                out[o++] = e[k];
    } else { /* head ... tail: whole escapes only, the head gets the odd byte */
        size_t budget = room - 3, head_room = budget - budget / 2, tail_room = budget / 2;
        size_t head = 0, head_len = 0, tail = len, tail_len = 0;
        while (head < len && head_len + escape_byte((unsigned char)s[head], e) <= head_room)
            head_len += escape_byte((unsigned char)s[head++], e);
        while (tail > head && tail_len + escape_byte((unsigned char)s[tail - 1], e) <= tail_room)
            tail_len += escape_byte((unsigned char)s[--tail], e);
        for (size_t i = 0; i < head; i++)
            for (size_t k = 0, n = escape_byte((unsigned char)s[i], e); k < n; k++)
                out[o++] = e[k];
        memcpy(out + o, "...", 3);
        o += 3;
        for (size_t i = tail; i < len; i++)
            for (size_t k = 0, n = escape_byte((unsigned char)s[i], e); k < n; k++)
                out[o++] = e[k];
    }
    out[o++] = '\'';
    out[o] = 0;
    return out;
}

const char *ws_printable_name(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(s);
    int plain = n < cap;
    for (size_t i = 0; i < n && plain; i++)
        plain = (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f && s[i] != '\'';
    return plain ? s : ws_quote(buf, cap, s, n);
}

void ws_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}
