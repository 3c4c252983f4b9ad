/* PTX front end: string maps, tokens and literals, register and variable declarations. */
#include "parse_internal.h"

static uint64_t shash(const char *s, uint32_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}
static ment *smap_find(const smap *m, const char *s, uint32_t n)
{
    if (!m->cap) return NULL;
    for (uint64_t i = shash(s, n) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        ment *e = &m->e[i];
        if (!e->key) return NULL;
        if (e->key != TOMB && e->len == n && memcmp(e->key, s, n) == 0) return e;
    }
}
int smap_get(const smap *m, const char *s, uint32_t n, int64_t *val)
{
    ment *e = smap_find(m, s, n);
    if (e && val) *val = e->val;
    return e != NULL;
}
int smap_put(smap *m, const char *s, uint32_t n, int64_t val)
{
    ment *f = smap_find(m, s, n);
    if (f) { f->val = val; return 0; }
    if ((m->used + 1) * 2 > m->cap) {
        uint32_t nc = m->cap ? m->cap * 2 : 64;
        ment *ne = calloc(nc, sizeof *ne);
        if (!ne) return -1;
        for (uint32_t i = 0; i < m->cap; i++) {
            ment *e = &m->e[i];
            if (!e->key || e->key == TOMB) continue;
            uint64_t j = shash(e->key, e->len) & (nc - 1);
            while (ne[j].key) j = (j + 1) & (nc - 1);
            ne[j] = *e;
        }
        free(m->e);
        m->e = ne;
        m->cap = nc;
        uint32_t used = 0;
        for (uint32_t i = 0; i < nc; i++) used += ne[i].key != NULL;
        m->used = used;
    }
    uint64_t j = shash(s, n) & (m->cap - 1);
    while (m->e[j].key && m->e[j].key != TOMB) j = (j + 1) & (m->cap - 1);
    if (!m->e[j].key) m->used++;
    m->e[j].key = s;
    m->e[j].len = n;
    m->e[j].val = val;
    return 0;
}
void smap_del(smap *m, const char *s, uint32_t n)
{
    ment *e = smap_find(m, s, n);
    if (e) e->key = TOMB;
}
int err_at(P *p, const ws_tok *t, const char *fmt, ...)
{
    char buf[WS_ERROR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return ws_fail_at(p->err, p->path, (int)t->line, (int)t->col, "%s", buf);
}

int expect_punct(P *p, char c, const char *what)
{
    ws_tok *t = cur(p);
    if (!is_punct(t, c)) return err_at(p, t, "expected '%c' %s, got '%.*s'", c, what, TK(t));
    adv(p);
    return 0;
}

int expect_int(P *p, const char *what, uint64_t *v)
{
    ws_tok *t = cur(p);
    if (t->kind != WS_TK_INT) return err_at(p, t, "expected an integer %s, got '%.*s'", what, TK(t));
    *v = t->ival;
    adv(p);
    return 0;
}

void skip_line(P *p)
{
    uint32_t line = cur(p)->line;
    while (cur(p)->kind != WS_TK_EOF && cur(p)->line == line) adv(p);
}

int skip_to_semicolon(P *p)
{
    ws_tok *start = cur(p);
    while (cur(p)->kind != WS_TK_EOF && !is_punct(cur(p), ';')) adv(p);
    if (cur(p)->kind == WS_TK_EOF) return err_at(p, start, "missing ';' after '%.*s'", TK(start));
    adv(p);
    return 0;
}

int new_var(P *p, const ws_tok *nt, ws_var **out)
{
    ws_kernel *k = p->k;
    GROW(k->vars, k->nvars, p->cap_vars);
    ws_var *v = *out = &k->vars[k->nvars];
    memset(v, 0, sizeof *v);
    v->name = dupn(nt->s, nt->n);
    if (!v->name) return oom(p);
    k->nvars++;
    return 0;
}

char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) { memcpy(d, s, n); d[n] = 0; }
    return d;
}

const char *const supported_types = ".pred .b8-.b64 .u8-.u64 .s8-.s64 .f16 .bf16 .f16x2 .bf16x2 .f32 .f64";

/* the PTX types outside the subset: tf32 and the fp8 formats */
int is_refused_type(const char *s, size_t n)
{
    static const char *const refused[] = {"tf32", "e4m3", "e5m2", "e4m3x2", "e5m2x2", "e2m1x2", "e2m3x2",
                                          "e3m2x2", "ue8m0x2", "b128"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (strlen(refused[i]) == n && memcmp(refused[i], s, n) == 0) return 1;
    return 0;
}

/* parses a type directive token (".u32"); errors on .tf32 etc. */
int parse_type_tok(P *p, ws_tok *t, ws_type *ty)
{
    if (t->kind == WS_TK_DOT && is_refused_type(t->s + 1, t->n - 1))
        return err_at(p, t, "type '%.*s' is not supported (supported types: %s)", TK(t), supported_types);
    ws_type x = t->kind == WS_TK_DOT ? ws_type_from_name(t->s, t->n) : WS_TY_NONE;
    if (x == WS_TY_NONE)
        return err_at(p, t, "expected a type, got '%.*s' (supported types: %s)", TK(t), supported_types);
    *ty = x;
    return 0;
}

/* value of a numeric literal token as bits of type ty */
int num_bits(P *p, const ws_tok *t, int neg, ws_type ty, int64_t *out)
{
    if (ws_type_is_half(ty)) {
        /* PTX has no half-precision literal: an integer is the raw bits (0x3C00 is 1.0 in .f16,
         * 0x3C003C00 the .f16x2 pair), as nvcc writes them; a 0f/0d/decimal float literal is
         * rounded to nearest even into a scalar .f16/.bf16 */
        int bf = ty == WS_TY_BF16 || ty == WS_TY_BF16X2;
        if (t->kind == WS_TK_INT) {
            uint64_t v = neg ? (uint64_t)0 - t->ival : t->ival;
            *out = (int64_t)(v & (ws_type_bits(ty) == 32 ? 0xffffffffull : 0xffffull));
            return 0;
        }
        if (ty == WS_TY_F16X2 || ty == WS_TY_BF16X2)
            return err_at(p, t, "a float literal cannot be a .%s operand (give the packed bits as an integer, "
                          "e.g. 0x3C003C00)", ws_type_name(ty));
        double d;
        if (t->fform == WS_FLT_DEC) d = t->fval;
        else if (t->fform == WS_FLT_BITS32) { uint32_t b = (uint32_t)t->ival; float f; memcpy(&f, &b, 4); d = f; }
        else { uint64_t b = t->ival; memcpy(&d, &b, 8); }
        *out = ws_half_round(neg ? -d : d, bf, WS_RND_RN);
        return 0;
    }
    if (ws_type_is_float(ty)) {
        double d;
        if (t->kind == WS_TK_INT) {
            d = (double)t->ival;
        } else if (t->fform == WS_FLT_DEC) {
            d = t->fval;
        } else if (t->fform == WS_FLT_BITS32) {
            uint32_t b = (uint32_t)t->ival;
            if (ty == WS_TY_F32) { *out = (int64_t)(uint32_t)(neg ? b ^ 0x80000000u : b); return 0; }
            float f;
            memcpy(&f, &b, 4);
            d = f;
        } else {
            uint64_t b = t->ival;
            if (ty == WS_TY_F64) { *out = (int64_t)(neg ? b ^ 0x8000000000000000ull : b); return 0; }
            memcpy(&d, &b, 8);
        }
        if (neg) d = -d;
        if (ty == WS_TY_F32) {
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            *out = (int64_t)b;
        } else {
            uint64_t b;
            memcpy(&b, &d, 8);
            *out = (int64_t)b;
        }
        return 0;
    }
    if (t->kind == WS_TK_FLOAT && t->fform == WS_FLT_DEC)
        return err_at(p, t, "floating-point literal '%.*s' used where an integer (.%s) is expected",
                      TK(t), ws_type_name(ty));
    uint64_t v = t->ival;
    *out = (int64_t)(neg ? (uint64_t)0 - v : v);
    return 0;
}

/* ------------------------------------------------------------------ */
/* registers */

int declare_reg(P *p, const ws_tok *at, const char *name, uint32_t len, ws_type ty, int owned)
{
    ws_kernel *k = p->k;
    int64_t prev = -1;
    int had = smap_get(&p->regs, name, len, &prev);
    if (had && p->reg_depth[(uint32_t)prev] == p->depth)
        return err_at(p, at, "register '%.*s' declared twice", (int)len, name);
    if (k->nregs >= (1u << 20)) return err_at(p, at, "too many registers (more than 2^20)");
    size_t old_cap = p->cap_regs;
    GROW(k->reg_names, k->nregs, p->cap_regs);
    if (p->cap_regs != old_cap) {   /* only when reg_names grew: realloc per register was quadratic under ASan */
        void *nt = realloc(k->reg_types, p->cap_regs * sizeof *k->reg_types);
        if (!nt) return oom(p);
        k->reg_types = nt;
        void *nd = realloc(p->reg_depth, p->cap_regs * sizeof *p->reg_depth);
        if (!nd) return oom(p);
        p->reg_depth = nd;
    }
    char *s = owned ? (char *)name : dupn(name, len);
    if (!s) return oom(p);
    uint32_t r = k->nregs++;
    k->reg_names[r] = s;
    k->reg_types[r] = (uint8_t)ty;
    p->reg_depth[r] = p->depth;
    if (p->depth > 1) {
        GROW(p->und, p->nund, p->cap_undo);
        p->und[p->nund++] = (undo){s, len, had, prev, 0};
    }
    if (smap_put(&p->regs, s, len, r)) return oom(p);
    return 0;
}

int declare_vreg(P *p, const ws_tok *at, const char *name, uint32_t len, ws_type ty, unsigned nvec)
{
    static const char comp[] = "xyzw";
    uint32_t first = p->k->nregs;
    for (unsigned e = 0; e < nvec; e++) {
        char buf[104];
        int n = snprintf(buf, sizeof buf, "%.*s.%c", (int)(len > 96 ? 96 : len), name, comp[e]);
        char *s = dupn(buf, (size_t)n);
        if (!s) return oom(p);
        if (declare_reg(p, at, s, (uint32_t)n, ty, 1)) { free(s); return -1; }
    }
    int64_t prev = -1;
    int had = smap_get(&p->regs, name, len, &prev);
    if (had && p->reg_depth[(uint32_t)prev] == p->depth)
        return err_at(p, at, "register '%.*s' declared twice", (int)len, name);
    char *key = p->k->reg_names[first];   /* "name.x": its first len bytes are the name */
    if (p->depth > 1) {
        GROW(p->und, p->nund, p->cap_undo);
        p->und[p->nund++] = (undo){key, len, had, prev, 0};
    }
    if (smap_put(&p->regs, key, len, VREG(first, nvec))) return oom(p);
    return 0;
}

/* .reg [.v2|.v4] .TYPE name[<N>] {, name[<N>]} ; */
int parse_reg(P *p)
{
    adv(p);
    ws_tok *tt = cur(p);
    unsigned nvec = 0;
    if (is_dir(tt, ".v2") || is_dir(tt, ".v4")) {   /* PTX ISA 5.4.2 (vectors) */
        nvec = (unsigned)(tt->s[2] - '0');
        adv(p);
        tt = cur(p);
    }
    ws_type ty;
    if (parse_type_tok(p, tt, &ty)) return -1;
    if (nvec && ty == WS_TY_PRED) return err_at(p, tt, "vector registers of .pred are not allowed");
    adv(p);
    for (;;) {
        ws_tok *nt = cur(p);
        if (nt->kind != WS_TK_IDENT) return err_at(p, nt, "expected a register name, got '%.*s'", TK(nt));
        adv(p);
        if (is_punct(cur(p), '<')) {
            adv(p);
            uint64_t n = 0;
            if (expect_int(p, "register count in '<N>'", &n)) return -1;
            if (expect_punct(p, '>', "after the register count")) return -1;
            if (n > (1u << 20)) return err_at(p, nt, "register range '%.*s<%llu>' too large", TK(nt), (unsigned long long)n);
            for (uint64_t j = 0; j < n; j++) {
                char buf[96];
                int len = snprintf(buf, sizeof buf, "%.*s%llu", (int)(nt->n > 80 ? 80 : nt->n), nt->s,
                                   (unsigned long long)j);
                if (nvec) {
                    if (declare_vreg(p, nt, buf, (uint32_t)len, ty, nvec)) return -1;
                    continue;
                }
                char *s = dupn(buf, (size_t)len);
                if (!s) return oom(p);
                if (declare_reg(p, nt, s, (uint32_t)len, ty, 1)) { free(s); return -1; }
            }
        } else if (nvec ? declare_vreg(p, nt, nt->s, nt->n, ty, nvec) : declare_reg(p, nt, nt->s, nt->n, ty, 0)) {
            return -1;
        }
        if (is_punct(cur(p), ',')) { adv(p); continue; }
        return expect_punct(p, ';', "after the register declaration");
    }
}

/* ------------------------------------------------------------------ */
/* variables: .global/.const/.shared/.local [.align N] [.vN] .TYPE name[dims] [= init] ; */

static int put_init(P *p, ws_var *v, uint64_t *cap, uint64_t idx, int esize, ws_type ety, int64_t bits)
{
    uint64_t need = (idx + 1) * (uint64_t)esize;
    if (need > *cap) {
        uint64_t nc = *cap ? *cap * 2 : 64;
        while (nc < need) nc *= 2;
        if (nc > (1ull << 30)) return oom(p);
        uint8_t *ni = realloc(v->init, nc);
        if (!ni) return oom(p);
        memset(ni + *cap, 0, nc - *cap);
        v->init = ni;
        *cap = nc;
    }
    (void)ety;
    uint64_t u = (uint64_t)bits;
    for (int b = 0; b < esize; b++) v->init[idx * (uint64_t)esize + (uint64_t)b] = (uint8_t)(u >> (8 * b));
    return 0;
}

/* `name`, `generic(name)`, each optionally followed by +/- offsets: the element gets the
 * variable's address (global/const: data segment; generic = global here) once laid out */
static int parse_addr_init(P *p, ws_var *v, uint64_t *cap, uint64_t *count, int esize, ws_type ety)
{
    ws_tok *t = cur(p);
    int generic = tok_eq(t, "generic") && is_punct(peek(p, 1), '(');
    if (generic) { adv(p); adv(p); }
    ws_tok *nt = cur(p);
    if (nt->kind != WS_TK_IDENT || nt->s[0] == '%')
        return err_at(p, nt, "expected a variable name in the address initialiser, got '%.*s'", TK(nt));
    if (esize != 4 && esize != 8)
        return err_at(p, nt, "address initialiser '%.*s' in a %d-byte element (needs .u32/.u64/.b32/.b64/.s32/.s64)",
                      TK(nt), esize);
    adv(p);
    if (generic && expect_punct(p, ')', "closing generic(")) return -1;
    int64_t addend = 0;
    if (parse_offset(p, &addend)) return -1;
    if (put_init(p, v, cap, *count, esize, ety, 0)) return -1;
    GROW(p->ai, p->nai, p->cap_ai);
    p->ai[p->nai++] = (ainit){(uint32_t)(v - p->k->vars), *count * (uint64_t)esize, (uint32_t)(nt - p->t), esize, addend};
    (*count)++;
    return 0;
}

static int parse_init_list(P *p, ws_var *v, uint64_t *cap, uint64_t *count, int esize, ws_type ety, int depth)
{
    ws_tok *t = cur(p);
    if (is_punct(t, '{')) {
        if (depth > 8) return err_at(p, t, "initialiser nested too deeply");
        adv(p);
        if (!is_punct(cur(p), '}')) {
            for (;;) {
                if (parse_init_list(p, v, cap, count, esize, ety, depth + 1)) return -1;
                if (is_punct(cur(p), ',')) { adv(p); continue; }
                break;
            }
        }
        return expect_punct(p, '}', "closing the initialiser list");
    }
    int neg = 0;
    if (is_punct(t, '-')) { neg = 1; adv(p); t = cur(p); }
    if (t->kind == WS_TK_IDENT && !neg)
        return parse_addr_init(p, v, cap, count, esize, ety);
    if (t->kind != WS_TK_INT && t->kind != WS_TK_FLOAT)
        return err_at(p, t, "expected a number in the initialiser, got '%.*s'", TK(t));
    int64_t bits;
    if (num_bits(p, t, neg, ety, &bits)) return -1;
    adv(p);
    if (put_init(p, v, cap, *count, esize, ety, bits)) return -1;
    (*count)++;
    return 0;
}

/* k->vars[v] was just added: its varx, and its name in syms (scoped to the block inside a body) */
int var_added(P *p, uint32_t v, const ws_tok *at, const char *name, uint32_t len, uint8_t flags)
{
    if (p->cap_vx < p->cap_vars) {
        varx *n = realloc(p->vx, p->cap_vars * sizeof *n);
        if (!n) return oom(p);
        memset(n + p->cap_vx, 0, (p->cap_vars - p->cap_vx) * sizeof *n);
        p->vx = n;
        p->cap_vx = p->cap_vars;
    }
    p->vx[v] = (varx){flags, p->depth, UINT32_MAX};
    int64_t prev = -1;
    int had = smap_get(&p->syms, name, len, &prev);
    if (had && (!p->depth || p->vx[prev].depth == p->depth))
        return err_at(p, at, "symbol '%.*s' declared twice", (int)len, name);
    if (p->depth) {   /* body variables leave syms at the end of their block */
        GROW(p->und, p->nund, p->cap_undo);
        p->und[p->nund++] = (undo){name, len, had, prev, 1};
    }
    if (smap_put(&p->syms, name, len, v)) return oom(p);
    return 0;
}

int parse_var(P *p, int is_extern)
{
    ws_tok *st = cur(p);
    /* .param inside a body: a call's argument or return value, a per-thread .local slot */
    int is_param = is_dir(st, ".param");
    ws_space sp = is_dir(st, ".global") ? WS_SP_GLOBAL : is_dir(st, ".const") ? WS_SP_CONST
                : is_dir(st, ".shared") ? WS_SP_SHARED : WS_SP_LOCAL;
    adv(p);
    uint64_t align = 0, vecn = 1;
    ws_type ty = WS_TY_NONE;
    for (;;) {
        ws_tok *t = cur(p);
        if (is_dir(t, ".align")) {
            adv(p);
            if (expect_int(p, "after .align", &align)) return -1;
            if (!align || (align & (align - 1)) || align > 4096)
                return err_at(p, t, ".align %llu is not a power of two up to 4096", (unsigned long long)align);
        } else if (is_dir(t, ".v2") || is_dir(t, ".v4")) {
            vecn = t->s[2] - '0';
            adv(p);
        } else if (t->kind == WS_TK_DOT && ty == WS_TY_NONE) {
            if (parse_type_tok(p, t, &ty)) return -1;
            if (ty == WS_TY_PRED) return err_at(p, t, ".pred variables are not supported");
            adv(p);
        } else break;
    }
    if (ty == WS_TY_NONE) return err_at(p, cur(p), "expected a type in the variable declaration, got '%.*s'", TK(cur(p)));
    int esize = type_bytes(ty) * (int)vecn;
    if (!align) align = (uint64_t)esize;
    for (;;) {
        ws_tok *nt = cur(p);
        if (nt->kind != WS_TK_IDENT || nt->s[0] == '%')
            return err_at(p, nt, "expected a variable name, got '%.*s'", TK(nt));
        adv(p);
        uint64_t count = 1;
        int unsized = 0;
        while (is_punct(cur(p), '[')) {
            ws_tok *b = cur(p);
            adv(p);
            if (is_punct(cur(p), ']')) {
                if (unsized) return err_at(p, b, "only the first array dimension may be empty");
                unsized = 1;
            } else {
                uint64_t d = 0;
                if (expect_int(p, "array size", &d)) return -1;
                if (d == 0 || d > (1ull << 32) || count * d > (1ull << 32))
                    return err_at(p, b, "array size %llu out of range", (unsigned long long)d);
                count *= d;
            }
            if (expect_punct(p, ']', "after the array size")) return -1;
        }
        ws_kernel *k = p->k;
        ws_var *v;
        if (new_var(p, nt, &v) < 0) return -1;
        v->space = (uint8_t)sp;
        v->type = (uint8_t)ty;
        v->align = (uint32_t)align;
        if (is_punct(cur(p), '=')) {
            ws_tok *eq = cur(p);
            if (sp == WS_SP_SHARED || sp == WS_SP_LOCAL)
                return err_at(p, eq, "%s variables cannot have initialisers", sp == WS_SP_SHARED ? ".shared" : is_param ? ".param" : ".local");
            adv(p);
            uint64_t cap = 0, n = 0;
            /* the element type of the initialiser: b8 arrays take bytes */
            if (parse_init_list(p, v, &cap, &n, type_bytes(ty), ty, 0)) return -1;
            uint64_t elems = unsized ? (n + vecn - 1) / vecn * count : count;
            if (!unsized && n > count * vecn)
                return err_at(p, eq, "%llu initialisers for '%.*s' of %llu elements", (unsigned long long)n,
                              TK(nt), (unsigned long long)(count * vecn));
            v->size = elems * (uint64_t)esize;
            if (v->size > cap) {
                uint8_t *ni = realloc(v->init, v->size);
                if (!ni) return oom(p);
                memset(ni + cap, 0, v->size - cap);
                v->init = ni;
            }
        } else if (unsized) {
            if (!(is_extern && sp == WS_SP_SHARED))
                return err_at(p, nt, "array '%.*s' has no size (only .extern .shared arrays may be unsized)", TK(nt));
            v->size = 0;
        } else {
            v->size = count * (uint64_t)esize;
        }
        if (is_extern && sp == WS_SP_SHARED && v->size)
            return err_at(p, nt, ".extern .shared '%.*s' must be an unsized array (dynamic shared memory)", TK(nt));
        if (is_extern && sp == WS_SP_SHARED) v->offset = UINT64_MAX; /* marks dynamic */
        if (var_added(p, k->nvars - 1, nt, nt->s, nt->n, is_param ? VF_PARAM : 0)) return -1;
        if (is_punct(cur(p), ',')) { adv(p); continue; }
        return expect_punct(p, ';', "after the variable declaration");
    }
}