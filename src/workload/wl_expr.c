/*
 * Arithmetic of workload variables (workload files' `vars:`, docs: README
 * "Workload variables"): "=EXPR" in any value of a workload is replaced by
 * its value before the file is read. EXPR: numbers, variable names, + - * /
 * % (of integers: the C remainder), unary -, parentheses and the functions
 * cdiv(a, b) (ceiling division, for grids), min, max, floor, ceil.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wl_types.h"

typedef struct xp {
    const char *s, *p;
    const ws_wl_var *vars;
    int nvars;
    char *err;
    size_t errlen;
    int failed;
} xp;

static double fail(xp *x, const char *msg, const char *what)
{
    if (!x->failed) snprintf(x->err, x->errlen, "%s%s", msg, what ? what : "");
    x->failed = 1;
    return NAN;
}

static void skip(xp *x) { while (*x->p == ' ' || *x->p == '\t' || *x->p == '\n' || *x->p == '\r') x->p++; }   /* as the sweep's expressions (src/sweep/expr.c) */

static double expr(xp *x);

static double call(xp *x, const char *name, size_t len)
{
    double a[2];
    int n = 0;
    x->p++;                                  /* '(' */
    for (;;) {
        if (n == 2) return fail(x, "too many arguments to ", name);
        a[n++] = expr(x);
        skip(x);
        if (*x->p == ',') { x->p++; continue; }
        if (*x->p == ')') { x->p++; break; }
        return fail(x, "expected ',' or ')' in a call of ", name);
    }
    int two = n == 2;
    if (len == 4 && !strncmp(name, "cdiv", 4) && two) {
        if (a[1] == 0) return fail(x, "cdiv by zero", NULL);
        return ceil(a[0] / a[1]);
    }
    if (len == 3 && !strncmp(name, "min", 3) && two) return a[0] < a[1] ? a[0] : a[1];
    if (len == 3 && !strncmp(name, "max", 3) && two) return a[0] > a[1] ? a[0] : a[1];
    if (len == 5 && !strncmp(name, "floor", 5) && !two) return floor(a[0]);
    if (len == 4 && !strncmp(name, "ceil", 4) && !two) return ceil(a[0]);
    return fail(x, "unknown function or wrong argument count: ", name);
}

static double primary(xp *x)
{
    skip(x);
    if (*x->p == '(') {
        x->p++;
        double v = expr(x);
        skip(x);
        if (*x->p != ')') return fail(x, "expected ')'", NULL);
        x->p++;
        return v;
    }
    if (*x->p == '-') { x->p++; return -primary(x); }
    if (isdigit((unsigned char)*x->p) || *x->p == '.') {
        char *end;
        double v = strtod(x->p, &end);
        x->p = end;
        return v;
    }
    if (isalpha((unsigned char)*x->p) || *x->p == '_') {
        const char *b = x->p;
        while (isalnum((unsigned char)*x->p) || *x->p == '_') x->p++;
        size_t len = (size_t)(x->p - b);
        skip(x);
        if (*x->p == '(') {
            char name[32];
            snprintf(name, sizeof name, "%.*s", (int)(len < 31 ? len : 31), b);
            return call(x, name, len);
        }
        for (int i = 0; i < x->nvars; i++)
            if (strlen(x->vars[i].name) == len && !strncmp(x->vars[i].name, b, len)) return x->vars[i].value;
        char name[40];
        snprintf(name, sizeof name, "'%.*s'", (int)(len < 30 ? len : 30), b);
        x->p = b;
        return fail(x, "unknown variable ", name);
    }
    return fail(x, *x->p ? "unexpected character in the expression" : "the expression ends too early", NULL);
}

static double term(xp *x)
{
    double v = primary(x);
    for (;;) {
        skip(x);
        char op = *x->p;
        if (op != '*' && op != '/' && op != '%') return v;
        const char *at = x->p++;
        double r = primary(x);
        if (op == '*') v *= r;
        else if (r == 0 && !x->failed) {
            x->p = at;                       /* the error points at the operator */
            return fail(x, op == '/' ? "division by zero" : "remainder by zero", NULL);
        }
        else if (op == '/') v /= r;
        else if (v != floor(v) || r != floor(r)) return fail(x, "% needs integers", NULL);
        else v = fmod(v, r);
    }
}

static double expr(xp *x)
{
    double v = term(x);
    for (;;) {
        skip(x);
        if (*x->p == '+') { x->p++; v += term(x); }
        else if (*x->p == '-') { x->p++; v -= term(x); }
        else return v;
    }
}

int ws_wl_expr_eval(const char *text, const ws_wl_var *vars, int nvars, double *out, int *err_off, char *err,
                    size_t errlen)
{
    xp x = {.s = text, .p = text, .vars = vars, .nvars = nvars, .err = err, .errlen = errlen};
    double v = expr(&x);
    skip(&x);
    if (!x.failed && *x.p) fail(&x, "unexpected text after the expression", NULL);
    if (!x.failed && !isfinite(v)) fail(&x, "the value is not finite", NULL);
    *err_off = (int)(x.p - text);
    if (x.failed) return -1;
    *out = v;
    return 0;
}
