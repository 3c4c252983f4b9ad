/* Derived-value expressions: compiled once to a small stack bytecode,
 * evaluated per point.
 *
 *   expr   := term (('+' | '-') term)*
 *   term   := unary (('*' | '/' | '%') unary)*
 *   unary  := '-' unary | '+' unary | atom
 *   atom   := number | name | func '(' expr [',' expr] ')' | '(' expr ')'
 *   func   := min max (two arguments), ceil floor log2 pow2 (one)
 *
 * Arithmetic is in double precision: '/' is real division, '%' is fmod.
 * Names are registered parameters (dotted names allowed) and the workload
 * properties regs_per_thread, threads_per_cta, ctas. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "warpsweep/sweep.h"

enum op {
    OP_CONST, OP_VAR, OP_NEG, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
    OP_MIN, OP_MAX, OP_CEIL, OP_FLOOR, OP_LOG2, OP_POW2,
};

typedef struct insn {
    uint8_t op;
    int32_t var;      /* OP_VAR */
    int32_t offset;   /* OP_VAR: position in source */
    double k;         /* OP_CONST */
} insn;

struct ws_expr {
    insn *code;
    int n, cap;
    int depth, max_depth;
};

typedef struct parser {
    const char *s;
    const char *p;
    ws_expr *e;
    ws_error *err;
    int err_offset;
    int failed;
    int nest;         /* recursion depth: parentheses, calls and unary signs */
} parser;

/* Deeper nesting is refused rather than recursing until the stack runs out. */
#define EXPR_MAX_NESTING 256

static const char *const prop_names[] = {"regs_per_thread", "threads_per_cta", "ctas"};

const char *ws_var_name(int v)
{
    if (v >= 0 && v < WS_NPARAMS)
        return ws_params[v].name;
    if (v >= WS_NPARAMS && v < WS_NVARS)
        return prop_names[v - WS_NPARAMS];
    return "?";
}

static int fail(parser *ps, const char *at, const char *fmt, const char *arg)
{
    if (!ps->failed) {
        ps->failed = 1;
        ps->err_offset = (int)(at - ps->s);
        ws_fail(ps->err, fmt, arg);
    }
    return -1;
}

static void emit(parser *ps, uint8_t op, int var, int offset, double k)
{
    ws_expr *e = ps->e;
    if (ps->failed)
        return;
    if (e->n == e->cap) {
        int cap = e->cap ? e->cap * 2 : 16;
        insn *code = realloc(e->code, (size_t)cap * sizeof *e->code);
        if (!code) {
            fail(ps, ps->p, "out of memory for the expression%s", "");
            return;
        }
        e->code = code;
        e->cap = cap;
    }
    e->code[e->n++] = (insn){op, var, offset, k};
    /* track stack depth */
    if (op == OP_CONST || op == OP_VAR)
        e->depth++;
    else if (op >= OP_ADD && op <= OP_MAX)
        e->depth--;
    if (e->depth > e->max_depth)
        e->max_depth = e->depth;
}

static void skip_ws(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
        ps->p++;
}

static int parse_expr(parser *ps);
static int parse_unary(parser *ps);

static int is_name_char(int c) { return isalnum(c) || c == '_' || c == '.'; }

static int parse_atom(parser *ps)
{
    skip_ws(ps);
    const char *start = ps->p;
    if (*ps->p == '(') {
        ps->p++;
        if (parse_expr(ps))
            return -1;
        skip_ws(ps);
        if (*ps->p != ')')
            return fail(ps, ps->p, "expected ')'%s", "");
        ps->p++;
        return 0;
    }
    if (isdigit((unsigned char)*ps->p) || (*ps->p == '.' && isdigit((unsigned char)ps->p[1]))) {
        char *end;
        double k = strtod(ps->p, &end);
        if (!isfinite(k))
            return fail(ps, start, "number out of range (larger than 1.8e308)%s", "");
        ps->p = end;
        emit(ps, OP_CONST, 0, 0, k);
        return 0;
    }
    if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
        while (is_name_char((unsigned char)*ps->p))
            ps->p++;
        size_t len = (size_t)(ps->p - start);
        char name[96];
        if (len >= sizeof name)
            return fail(ps, start, "name too long%s", "");
        memcpy(name, start, len);
        name[len] = 0;
        skip_ws(ps);
        if (*ps->p == '(') {
            static const struct { const char *name; uint8_t op; int args; } fns[] = {
                {"min", OP_MIN, 2}, {"max", OP_MAX, 2}, {"ceil", OP_CEIL, 1},
                {"floor", OP_FLOOR, 1}, {"log2", OP_LOG2, 1}, {"pow2", OP_POW2, 1},
            };
            for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
                if (strcmp(fns[i].name, name) != 0)
                    continue;
                ps->p++;
                if (parse_expr(ps))
                    return -1;
                skip_ws(ps);
                if (fns[i].args == 2) {
                    if (*ps->p != ',')
                        return fail(ps, ps->p, "%s() takes two arguments", fns[i].name);
                    ps->p++;
                    if (parse_expr(ps))
                        return -1;
                    skip_ws(ps);
                }
                if (*ps->p != ')')
                    return fail(ps, ps->p, *ps->p == ',' ? "%s() takes one argument" : "expected ')' after the arguments of %s()",
                                fns[i].name);
                ps->p++;
                emit(ps, fns[i].op, 0, 0, 0);
                return 0;
            }
            return fail(ps, start, "unknown function '%s' (functions: min, max, ceil, floor, log2, pow2)", name);
        }
        int v = ws_param_find(name);
        if (v < 0)
            for (int i = 0; i < 3; i++)
                if (strcmp(name, prop_names[i]) == 0)
                    v = WS_NPARAMS + i;
        if (v < 0) {
            /* closest of parameters and properties */
            const char *best = ws_param_suggest(name);
            for (int i = 0; i < 3; i++)
                if (strncmp(name, prop_names[i], 4) == 0)
                    best = prop_names[i];
            char msg[200];
            snprintf(msg, sizeof msg, "unknown name '%s' in expression (did you mean '%s'?)", name, best);
            return fail(ps, start, "%s", msg);
        }
        if (v < WS_NPARAMS && ws_params[v].type == WS_PT_CHOICE)
            return fail(ps, start, "choice parameter '%s' cannot be used in an expression", name);
        emit(ps, OP_VAR, v, (int)(start - ps->s), 0);
        return 0;
    }
    if (*ps->p == 0)
        return fail(ps, ps->p, "unexpected end of expression%s", "");
    char c[2] = {*ps->p, 0};
    return fail(ps, ps->p, "unexpected '%s' in expression", c);
}

static int parse_unary_nested(parser *ps)
{
    skip_ws(ps);
    if (*ps->p == '-') {
        ps->p++;
        if (parse_unary(ps))
            return -1;
        emit(ps, OP_NEG, 0, 0, 0);
        return 0;
    }
    if (*ps->p == '+') {
        ps->p++;
        return parse_unary(ps);
    }
    return parse_atom(ps);
}

/* Every recursion (parentheses, function arguments, signs) passes here. */
static int parse_unary(parser *ps)
{
    if (ps->nest >= EXPR_MAX_NESTING)
        return fail(ps, ps->p, "expression nested more than %s levels deep", "256");
    ps->nest++;
    int r = parse_unary_nested(ps);
    ps->nest--;
    return r;
}

static int parse_term(parser *ps)
{
    if (parse_unary(ps))
        return -1;
    for (;;) {
        skip_ws(ps);
        char c = *ps->p;
        if (c != '*' && c != '/' && c != '%')
            return 0;
        ps->p++;
        if (parse_unary(ps))
            return -1;
        emit(ps, c == '*' ? OP_MUL : c == '/' ? OP_DIV : OP_MOD, 0, 0, 0);
    }
}

static int parse_expr(parser *ps)
{
    if (parse_term(ps))
        return -1;
    for (;;) {
        skip_ws(ps);
        char c = *ps->p;
        if (c != '+' && c != '-')
            return 0;
        ps->p++;
        if (parse_term(ps))
            return -1;
        emit(ps, c == '+' ? OP_ADD : OP_SUB, 0, 0, 0);
    }
}

ws_expr *ws_expr_compile(const char *text, int *err_offset, ws_error *err)
{
    parser ps = {text, text, calloc(1, sizeof(ws_expr)), err, 0, 0, 0};
    if (!ps.e) {
        if (err_offset)
            *err_offset = 0;
        ws_fail(err, "out of memory for the expression");
        return NULL;
    }
    if (parse_expr(&ps) == 0 && !ps.failed) {
        skip_ws(&ps);
        if (*ps.p)
            fail(&ps, ps.p, *ps.p == ')' ? "unbalanced ')'%s" : "unexpected text after the expression%s", "");
    }
    if (ps.failed) {
        if (err_offset)
            *err_offset = ps.err_offset;
        ws_expr_free(ps.e);
        return NULL;
    }
    return ps.e;
}

double ws_expr_eval(const ws_expr *e, const double *vars)
{
    double stack[64];
    double *big = NULL, *st = stack;
    if (e->max_depth > 64) {
        st = big = malloc((size_t)e->max_depth * sizeof(double));
        if (!big)
            return NAN;
    }
    int sp = 0;
    for (int i = 0; i < e->n; i++) {
        const insn *in = &e->code[i];
        switch (in->op) {
        case OP_CONST: st[sp++] = in->k; break;
        case OP_VAR: st[sp++] = vars[in->var]; break;
        case OP_NEG: st[sp - 1] = -st[sp - 1]; break;
        case OP_ADD: sp--; st[sp - 1] += st[sp]; break;
        case OP_SUB: sp--; st[sp - 1] -= st[sp]; break;
        case OP_MUL: sp--; st[sp - 1] *= st[sp]; break;
        case OP_DIV: sp--; st[sp - 1] /= st[sp]; break;
        case OP_MOD: sp--; st[sp - 1] = st[sp] == 0 ? NAN : fmod(st[sp - 1], st[sp]); break;
        case OP_MIN: sp--; st[sp - 1] = st[sp] < st[sp - 1] ? st[sp] : st[sp - 1]; break;
        case OP_MAX: sp--; st[sp - 1] = st[sp] > st[sp - 1] ? st[sp] : st[sp - 1]; break;
        case OP_CEIL: st[sp - 1] = ceil(st[sp - 1]); break;
        case OP_FLOOR: st[sp - 1] = floor(st[sp - 1]); break;
        case OP_LOG2: st[sp - 1] = log2(st[sp - 1]); break;
        case OP_POW2: st[sp - 1] = exp2(st[sp - 1]); break;
        }
    }
    double r = sp ? st[0] : NAN;
    free(big);
    return r;
}

int ws_expr_use_offset(const ws_expr *e, int v)
{
    for (int i = 0; i < e->n; i++)
        if (e->code[i].op == OP_VAR && e->code[i].var == v)
            return e->code[i].offset;
    return -1;
}

int ws_expr_uses(const ws_expr *e, int v) { return ws_expr_use_offset(e, v) >= 0; }

void ws_expr_free(ws_expr *e)
{
    if (!e)
        return;
    free(e->code);
    free(e);
}
