/* PTX lexer: hand-written, one pass over the text, tokens point into it. */
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "ptx_internal.h"

static int ident_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%'; }
static int ident_char(int c) { return isalnum(c) || c == '_' || c == '$'; }
static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

#define LEXERR(...) do { int r_ = ws_fail_at(err, path, (int)k->line, (int)k->col, __VA_ARGS__); free(t); return r_; } while (0)

int ws_ptx_lex(const char *text, const char *path, ws_tok **out, uint32_t *nout, ws_error *err)
{
    size_t cap = 1024, n = 0;
    ws_tok *t = malloc(cap * sizeof *t);
    if (!t) return ws_fail(err, "%s: out of memory", path);
    const char *p = text;
    uint32_t line = 1;
    const char *line_start = text;
    int ws_before = 1;
    for (;;) {
        /* whitespace and comments */
        for (;;) {
            if (*p == '\n') { line++; p++; line_start = p; ws_before = 1; }
            else if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') { p++; ws_before = 1; }
            else if (p[0] == '/' && p[1] == '/') { while (*p && *p != '\n') p++; ws_before = 1; }
            else if (p[0] == '/' && p[1] == '*') {
                uint32_t l0 = line, c0 = (uint32_t)(p - line_start) + 1;
                p += 2;
                while (*p && !(p[0] == '*' && p[1] == '/')) {
                    if (*p == '\n') { line++; line_start = p + 1; }
                    p++;
                }
                if (!*p) { free(t); return ws_fail_at(err, path, (int)l0, (int)c0, "unterminated '/*' comment"); }
                p += 2;
                ws_before = 1;
            } else break;
        }
        if (n + 1 >= cap) {
            cap *= 2;
            ws_tok *nt = realloc(t, cap * sizeof *t);
            if (!nt) { free(t); return ws_fail(err, "%s: out of memory", path); }
            t = nt;
        }
        ws_tok *k = &t[n];
        memset(k, 0, sizeof *k);
        k->line = line;
        k->col = (uint32_t)(p - line_start) + 1;
        k->s = p;
        k->adj = !ws_before && n > 0;
        ws_before = 0;
        unsigned char c = (unsigned char)*p;
        if (!c) { k->kind = WS_TK_EOF; n++; break; }
        if (ident_start(c)) {
            p++;
            while (ident_char((unsigned char)*p)) p++;
            k->kind = WS_TK_IDENT;
        } else if (c == '.' && (isalnum((unsigned char)p[1]) || p[1] == '_')) {
            p++;
            for (;;) {
                while (ident_char((unsigned char)*p)) p++;
                if (p[0] == ':' && p[1] == ':' && ident_char((unsigned char)p[2])) { p += 2; continue; }
                break;
            }
            k->kind = WS_TK_DOT;
        } else if (isdigit(c)) {
            const char *q = p;
            if (q[0] == '0' && (q[1] == 'f' || q[1] == 'F' || q[1] == 'd' || q[1] == 'D')) {
                int nd = (q[1] == 'f' || q[1] == 'F') ? 8 : 16;
                uint64_t v = 0;
                int i;
                for (i = 0; i < nd && hexval((unsigned char)q[2 + i]) >= 0; i++)
                    v = v << 4 | (uint64_t)hexval((unsigned char)q[2 + i]);
                if (i != nd || ident_char((unsigned char)q[2 + nd])) {
                    LEXERR(
                                      "malformed float literal '%.*s' (0f needs 8 hex digits, 0d 16)",
                                      (int)(strcspn(q, " \t\r\n,;]}")), q);
                }
                k->kind = WS_TK_FLOAT;
                k->fform = nd == 8 ? WS_FLT_BITS32 : WS_FLT_BITS64;
                k->ival = v;
                p = q + 2 + nd;
            } else {
                int base = 10;
                const char *d = q;
                if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) { base = 16; d = q + 2; }
                else if (q[0] == '0' && (q[1] == 'b' || q[1] == 'B')) { base = 2; d = q + 2; }
                else if (q[0] == '0' && isdigit((unsigned char)q[1])) { base = 8; d = q + 1; }
                const char *e = d;
                if (base == 10) {
                    while (isdigit((unsigned char)*e)) e++;
                    if (*e == '.' || *e == 'e' || *e == 'E') {
                        char *end;
                        k->fval = strtod(q, &end);
                        k->kind = WS_TK_FLOAT;
                        k->fform = WS_FLT_DEC;
                        p = end;
                        goto num_done;
                    }
                }
                e = d;
                uint64_t v = 0;
                int overflow = 0, nd = 0;
                for (;; e++) {
                    int hv = hexval((unsigned char)*e);
                    if (hv < 0 || hv >= base) break;
                    if (v > (UINT64_MAX - (uint64_t)hv) / (uint64_t)base) overflow = 1;
                    v = v * (uint64_t)base + (uint64_t)hv;
                    nd++;
                }
                if ((base == 16 || base == 2) && nd == 0) overflow = 2;
                if (*e == 'U') e++;
                if (overflow) {
                    LEXERR( "%s integer literal '%.*s'",
                                      overflow == 1 ? "out-of-range (more than 64 bits)" : "malformed",
                                      (int)(e - q), q);
                }
                k->kind = WS_TK_INT;
                k->ival = v;
                p = e;
            }
        num_done:
            if (ident_char((unsigned char)*p) || *p == '.') {
                const char *e = p;
                while (ident_char((unsigned char)*e) || *e == '.') e++;
                LEXERR( "malformed number '%.*s'",
                                  (int)(e - k->s), k->s);
            }
        } else if (c == '"') {
            p++;
            while (*p && *p != '"' && *p != '\n') { if (*p == '\\' && p[1]) p++; p++; }
            if (*p != '"') LEXERR("unterminated string");
            p++;
            k->kind = WS_TK_STRING;
        } else if (strchr(",;:[]{}()+-!@|<>=", c)) {
            k->kind = WS_TK_PUNCT;
            k->ch = (char)c;
            p++;
        } else {
            if (c >= 0x20 && c < 0x7f)
                LEXERR("unexpected character '%c'", c);
            LEXERR("unexpected byte 0x%02x", c);
        }
        k->n = (uint32_t)(p - k->s);
        n++;
    }
    *out = t;
    *nout = (uint32_t)n;
    return 0;
}
