/*
 * PTX front end: parses a module (as nvcc -arch=sm_75 -O3 -ptx writes it, or
 * by hand) and decodes one .entry into a ws_kernel (see ptx.h).
 *
 * Operand conventions of the decoded instructions (PTX operand order, the
 * leading written operands are dst[], the rest src[]):
 *   ld/ldu     dst[0] = reg or vector; src[0] = address
 *   st         src[0] = address, src[1] = value (reg, imm or vector); no dst
 *   atom       dst[0] = d; src[0] = address, src[1] = b, src[2] = c (cas)
 *   red        src[0] = address, src[1] = b
 *   setp       dst[0] = p, dst[1] = q (p|q); src[0] = a, src[1] = b, src[2] = c (.and/.or/.xor, may be negated)
 *   selp/slct  src[2] = selector
 *   shfl.sync  dst[0] = d, dst[1] = p (optional); src[0] = a, b, c, membermask
 *   vote.sync  dst[0] = d; src[0] = predicate (may be negated), src[1] = membermask
 *   vote       (legacy, no .sync) dst[0] = d; src[0] = predicate
 *   match.sync dst[0] = d, dst[1] = p (match.all); src[0] = a, src[1] = membermask
 *   bar/barrier .sync/.arrive: src[0] = barrier, src[1] = thread count (optional)
 *              .red: dst[0] = d; src[0] = barrier, [src[1] = count,] last src = predicate
 *   bra        src[0] = LABEL (imm = target index); target = target index
 *   brx.idx    src[0] = index; targets in kernel->brx_targets[target .. target+ntargets-1]
 *   membar/fence subop = WS_SCOPE_* (ptx_internal.h)
 * Integer immediates are stored sign-extended as written (wrap to the
 * instruction's width when used); float immediates as IEEE bits of the type.
 *
 * Calls. `.func` definitions are registered by parse_module; after the entry, every function
 * it reaches is decoded once into a template (decode_funcs: the same parse_body/parse_inst,
 * with the entry's per-body state set aside in a bstate), each `call` leaving an OP_CALL
 * placeholder. `.param` variables (a function's parameters and return value, a call
 * sequence's own `.param`s) are .local variables flagged VF_PARAM: ld.param/st.param on them
 * decode as ld.local/st.local, and a call's variables share the callee's slots (varx.alias).
 * finish() lays out the variables, then expand() copies each callee at its call site
 * (fresh registers, remapped labels, ret -> bra; see the notes above expand()) and computes
 * units and rd/wr lists over the flat kernel, so nothing downstream knows about calls.
 * Refused: calls to .extern/undeclared functions (printf's vprintf), indirect calls
 * (register callee, prototypes), guarded calls, arguments that are not .param variables,
 * recursion (at the call closing the cycle), more than INLINE_MAX instructions.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>
#include "warpsweep/ptx.h"
#include "warpsweep/half.h"
#include "warpsweep/passes.h"
#include "warpsweep/exec.h"
#include "ptx_internal.h"

/* ------------------------------------------------------------------ */
/* string map (open addressing, keys point into the text or reg_names) */

#define TOMB ((const char *)1)
typedef struct { const char *key; uint32_t len; int64_t val; } ment;
typedef struct { ment *e; uint32_t cap, used; } smap;

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
static int smap_get(const smap *m, const char *s, uint32_t n, int64_t *val)
{
    ment *e = smap_find(m, s, n);
    if (e && val) *val = e->val;
    return e != NULL;
}
static int smap_put(smap *m, const char *s, uint32_t n, int64_t val)
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
static void smap_del(smap *m, const char *s, uint32_t n)
{
    ment *e = smap_find(m, s, n);
    if (e) e->key = TOMB;
}

/* ------------------------------------------------------------------ */

#define GROW(arr, n, cap)                                                    \
    do {                                                                     \
        if ((n) >= (cap)) {                                                  \
            size_t nc_ = (cap) ? (size_t)(cap) * 2 : 16;                     \
            void *na_ = realloc((arr), nc_ * sizeof *(arr));                 \
            if (!na_) return oom(p);                                         \
            (arr) = na_;                                                     \
            (cap) = nc_;                                                     \
        }                                                                    \
    } while (0)

enum { FX_LABEL, FX_BRX, FX_VAR };
typedef struct fixup { uint32_t inst; uint8_t kind; uint8_t slot; uint32_t tok; uint32_t var; } fixup;
typedef struct btlist { uint32_t start, count; } btlist;
typedef struct undo { const char *key; uint32_t len; int had; int64_t prev; int sym; } undo;
/* an address initialiser (`name`, `generic(name)`, optionally +/- offset), resolved after layout */
typedef struct ainit { uint32_t var; uint64_t byte; uint32_t tok; int esize; int64_t addend; } ainit;

/* the per-body decoding state (registers, labels, fixups, instructions): the entry's is set
 * aside while the called functions are decoded one after the other (decode_funcs) */
typedef struct bstate {
    ws_inst *insts; uint32_t ninsts; size_t cap_insts;
    char **reg_names; uint8_t *reg_types; uint32_t *reg_depth; uint32_t nregs; size_t cap_regs;
    uint32_t *brx; uint32_t *label_tok; uint32_t nbrx; size_t cap_brx;
    smap regs, params, labels, btl;
    fixup *fx; size_t nfx, cap_fx;
    btlist *bt; size_t nbt, cap_bt;
    undo *und; size_t nund, cap_undo;
    uint32_t depth;
} bstate;

/* a .func of the module: its signature's variables, and once decoded its instructions (a
 * template copied at every call site, see the inlining notes above expand()) */
typedef struct fbody {
    uint32_t name_tok;       /* the function's name */
    uint32_t def_tok;        /* '.func' of the definition; 0: declared only (.extern or prototype) */
    int decoded, active;     /* active: being expanded (recursion check) */
    uint32_t ninstances;
    uint32_t nret, nparam;
    uint32_t *formals;       /* the nret return parameters, then the nparam parameters: var indices
                                (.param), or CALL_REG | register of the function (.reg; a .v2/.v4
                                vector: CALL_REG | CALL_VEC(n) | its first element's register) */
    ws_inst *insts; uint32_t ninsts;
    char **reg_names; uint8_t *reg_types; uint32_t nregs;
    uint32_t *brx; uint32_t nbrx;
    fixup *fx; size_t nfx;   /* FX_VAR fixups, resolved once the variables are laid out */
} fbody;

/* a call: nret return values, then nargs arguments, each a caller's .param variable (var index),
 * a caller's register (CALL_REG | reg; a whole .v2/.v4 vector register: CALL_REG | CALL_VEC(n) |
 * its first element's register) or, for arguments, an immediate (CALL_IMM | token of the number,
 * CALL_NEG if it follows a '-') */
typedef struct callsite { uint32_t tok, func, nret, nargs; uint32_t *vars; } callsite;
#define CALL_REG 0x80000000u
#define CALL_IMM 0x40000000u
#define CALL_NEG 0x20000000u
#define CALL_VAL 0x1fffffffu
#define CALL_RNUM 0x000fffffu               /* a CALL_REG item's register (registers < 2^20) */
#define CALL_VEC(n) ((uint32_t)(n) << 24)    /* a CALL_REG item's vector width (0: a scalar) */
#define CALL_NVEC(item) (((item) >> 24) & 7u)

/* per variable: a .param variable of a body or signature (ld.param/st.param on it become
 * ld.local/st.local), its block depth, and the variable it shares its slot with (a call's
 * argument with the callee's parameter) */
#define VF_PARAM 1u
typedef struct varx { uint8_t flags; uint32_t depth; uint32_t alias; } varx;

#define OP_CALL WS_OP_COUNT          /* placeholder instruction of a call; target = callsite */
#define INLINE_MAX 200000u           /* instructions after inlining */

typedef struct P {
    const char *path;
    ws_tok *t;
    uint32_t nt, i;
    ws_error *err;
    ws_kernel *k;
    size_t cap_insts, cap_regs, cap_vars, cap_params, cap_brx, cap_fx, cap_bt, cap_undo, cap_ent;
    smap regs, syms, params, labels, btl;
    uint32_t *reg_depth;
    uint32_t *label_tok;     /* token of each brx_targets entry (resolved at the end) */
    fixup *fx; size_t nfx;
    btlist *bt; size_t nbt;
    undo *und; size_t nund;
    uint32_t depth;
    uint32_t *entries; size_t nentries;
    ainit *ai; size_t nai, cap_ai;
    varx *vx; size_t cap_vx;
    smap funcs;              /* name -> fns index */
    fbody *fns; size_t nfns, cap_fns;
    callsite *cs; size_t ncs, cap_cs;
    bstate saved; int have_saved;
} P;

static int oom(P *p) { return ws_fail(p->err, "%s: out of memory", p->path); }

static ws_tok *cur(P *p) { return &p->t[p->i]; }
static ws_tok *peek(P *p, uint32_t k) { uint32_t j = p->i + k; return &p->t[j < p->nt ? j : p->nt - 1]; }
static void adv(P *p) { if (p->t[p->i].kind != WS_TK_EOF) p->i++; }
static int is_punct(const ws_tok *t, char c) { return t->kind == WS_TK_PUNCT && t->ch == c; }
static int tok_eq(const ws_tok *t, const char *s) { size_t n = strlen(s); return t->n == n && memcmp(t->s, s, n) == 0; }
static int is_dir(const ws_tok *t, const char *s) { return t->kind == WS_TK_DOT && tok_eq(t, s); }

static int err_at(P *p, const ws_tok *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int err_at(P *p, const ws_tok *t, const char *fmt, ...)
{
    char buf[WS_ERROR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return ws_fail_at(p->err, p->path, (int)t->line, (int)t->col, "%s", buf);
}

/* printable text of a token */
#define TK(t) (int)((t)->kind == WS_TK_EOF ? 11 : ((t)->n > 60 ? 60 : (t)->n)), ((t)->kind == WS_TK_EOF ? "end of file" : (t)->s)

static int expect(P *p, char c, const char *what)
{
    ws_tok *t = cur(p);
    if (!is_punct(t, c)) return err_at(p, t, "expected '%c' %s, got '%.*s'", c, what, TK(t));
    adv(p);
    return 0;
}

static int expect_int(P *p, const char *what, uint64_t *v)
{
    ws_tok *t = cur(p);
    if (t->kind != WS_TK_INT) return err_at(p, t, "expected an integer %s, got '%.*s'", what, TK(t));
    *v = t->ival;
    adv(p);
    return 0;
}

static void skip_line(P *p)
{
    uint32_t line = cur(p)->line;
    while (cur(p)->kind != WS_TK_EOF && cur(p)->line == line) adv(p);
}

static int skip_to_semicolon(P *p)
{
    ws_tok *start = cur(p);
    while (cur(p)->kind != WS_TK_EOF && !is_punct(cur(p), ';')) adv(p);
    if (cur(p)->kind == WS_TK_EOF) return err_at(p, start, "missing ';' after '%.*s'", TK(start));
    adv(p);
    return 0;
}

static char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) { memcpy(d, s, n); d[n] = 0; }
    return d;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

static int type_bytes(ws_type t) { int b = ws_type_bits(t); return b <= 8 ? 1 : b / 8; }

static const char *const supported_types = ".pred .b8-.b64 .u8-.u64 .s8-.s64 .f16 .bf16 .f16x2 .bf16x2 .f32 .f64";

/* the PTX types outside the subset: tf32 and the fp8 formats */
static int is_refused_type(const char *s, size_t n)
{
    static const char *const refused[] = {"tf32", "e4m3", "e5m2", "e4m3x2", "e5m2x2", "e2m1x2", "e2m3x2",
                                          "e3m2x2", "ue8m0x2", "b128"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (strlen(refused[i]) == n && memcmp(refused[i], s, n) == 0) return 1;
    return 0;
}

/* parses a type directive token (".u32"); errors on .tf32 etc. */
static int parse_type_tok(P *p, ws_tok *t, ws_type *ty)
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
static int num_bits(P *p, const ws_tok *t, int neg, ws_type ty, int64_t *out)
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

static int declare_reg(P *p, const ws_tok *at, const char *name, uint32_t len, ws_type ty, int owned)
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

/* A vector register (.reg .v2/.v4 .TYPE name) is nvec scalar registers named name.x, name.y
 * ... (what the disassembler prints); the name itself maps in p->regs to the first of them,
 * tagged with the element count in the upper 32 bits (see lookup_reg / vreg_lookup). */
#define VREG(first, n) ((int64_t)(first) | ((int64_t)(n) << 32))

static int declare_vreg(P *p, const ws_tok *at, const char *name, uint32_t len, ws_type ty, unsigned nvec)
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
static int parse_reg(P *p)
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
            if (expect(p, '>', "after the register count")) return -1;
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
        return expect(p, ';', "after the register declaration");
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

static int parse_offset(P *p, int64_t *off);

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
    if (generic && expect(p, ')', "closing generic(")) return -1;
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
        return expect(p, '}', "closing the initialiser list");
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
static int var_added(P *p, uint32_t v, const ws_tok *at, const char *name, uint32_t len, uint8_t flags)
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

static int parse_var(P *p, int is_extern)
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
            if (expect(p, ']', "after the array size")) return -1;
        }
        ws_kernel *k = p->k;
        GROW(k->vars, k->nvars, p->cap_vars);
        ws_var *v = &k->vars[k->nvars];
        memset(v, 0, sizeof *v);
        v->name = dupn(nt->s, nt->n);
        if (!v->name) return oom(p);
        k->nvars++;
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
        return expect(p, ';', "after the variable declaration");
    }
}

/* ------------------------------------------------------------------ */
/* modifiers */

enum {
    A_TYPE = 0, A_TYPE2, A_SPACE, A_CMP, A_BOOL, A_RND, A_RNDI, A_SAT, A_FTZ, A_APPROX, A_FULL,
    A_HILO, A_WIDE, A_CC, A_UNI, A_VOL, A_TO, A_ALIGNED, A_ORDER, A_SCOPE, A_CACHE, A_NC, A_VEC,
    A_ATOM, A_SHFL, A_VOTE, A_BARK, A_MATCH, A_PRMT, A_SHF, A_TESTP, A_SYNC, A_IDX, A_NOFTZ, A_SHIFTAMT,
    A_BMODE, A_PACK, A_ACCUM, A_RELU, A_NAN, A_SHAPE, A_LAYOUT, A_LDM, A_CPA, A_GRIDDEP, A_MBAR, A_NCAT
};
#define B(x) (1ull << (x))
static const char *const cat_names[A_NCAT] = {
    [A_TYPE] = "a type", [A_TYPE2] = "two types", [A_SPACE] = "a state space", [A_CMP] = "a comparison",
    [A_BOOL] = ".and/.or/.xor", [A_RND] = ".rn/.rz/.rm/.rp", [A_RNDI] = ".rni/.rzi/.rmi/.rpi",
    [A_SAT] = ".sat", [A_FTZ] = ".ftz", [A_APPROX] = ".approx", [A_FULL] = ".full",
    [A_HILO] = ".hi/.lo", [A_WIDE] = ".wide", [A_CC] = ".cc", [A_UNI] = ".uni", [A_VOL] = ".volatile",
    [A_TO] = ".to", [A_ALIGNED] = ".aligned", [A_ORDER] = "memory order (.relaxed/.acquire/.release/.acq_rel/.sc)",
    [A_SCOPE] = "scope (.cta/.gpu/.sys/.gl)", [A_CACHE] = "cache operators (.ca/.cg/.cs/.lu/.cv/.wb/.wt/.L1::/.L2::)",
    [A_NC] = ".nc", [A_VEC] = ".v2/.v4 (ld/st: .v8)",
    [A_ATOM] = "an operation (.add .inc .dec .min .max .and .or .xor .exch .cas)",
    [A_SHFL] = ".up/.down/.bfly/.idx", [A_VOTE] = ".all/.any/.uni/.ballot", [A_BARK] = ".sync/.arrive/.red",
    [A_MATCH] = ".any/.all", [A_PRMT] = "a mode (.f4e .b4e .rc8 .ecl .ecr .rc16)", [A_SHF] = ".l/.r and .wrap/.clamp",
    [A_TESTP] = "a test (.finite .infinite .number .notanumber .normal .subnormal)", [A_SYNC] = ".sync",
    [A_IDX] = ".idx", [A_NOFTZ] = ".noftz", [A_SHIFTAMT] = ".shiftamt", [A_BMODE] = ".clamp/.wrap",
    [A_PACK] = "a convert type (.u2 .s2 .u4 .s4 .u8 .s8 .u16 .s16)", [A_ACCUM] = ".add (vshl/vshr: .add .min .max)",
    [A_RELU] = ".relu", [A_NAN] = ".NaN", [A_SHAPE] = "a shape (.m16n8k16 .m16n8k8 .m16n8k32 .m8n8k4)",
    [A_LAYOUT] = ".row.col", [A_LDM] = ".x1/.x2/.x4, .trans",
    [A_CPA] = ".ca/.cg, .commit_group, .wait_group, .wait_all",
    [A_MBAR] = "an operation (.init .arrive .arrive_drop .test_wait .try_wait .pending_count .inval), .parity",
    [A_GRIDDEP] = "griddepcontrol: .wait/.launch_dependents; createpolicy: .fractional/.range/.cvt",
};

#define ARITH (B(A_TYPE) | B(A_RND) | B(A_SAT) | B(A_FTZ))
#define MEMQ (B(A_SPACE) | B(A_VOL) | B(A_ORDER) | B(A_SCOPE) | B(A_CACHE) | B(A_NC) | B(A_VEC) | B(A_TYPE))
static const uint64_t op_allow[WS_OP_COUNT] = {
    [WS_OP_MOV] = B(A_TYPE) | B(A_VEC),
    [WS_OP_ADD] = ARITH | B(A_CC) | B(A_NOFTZ), [WS_OP_SUB] = ARITH | B(A_CC) | B(A_NOFTZ),
    [WS_OP_ADDC] = B(A_TYPE) | B(A_CC), [WS_OP_SUBC] = B(A_TYPE) | B(A_CC),
    [WS_OP_MUL] = ARITH | B(A_HILO) | B(A_WIDE),
    [WS_OP_MAD] = ARITH | B(A_HILO) | B(A_WIDE) | B(A_CC),
    [WS_OP_MADC] = B(A_TYPE) | B(A_HILO) | B(A_CC),
    [WS_OP_MUL24] = B(A_TYPE) | B(A_HILO), [WS_OP_MAD24] = B(A_TYPE) | B(A_HILO) | B(A_SAT),
    [WS_OP_SAD] = B(A_TYPE),
    [WS_OP_DIV] = B(A_TYPE) | B(A_RND) | B(A_FTZ) | B(A_APPROX) | B(A_FULL), [WS_OP_REM] = B(A_TYPE),
    [WS_OP_ABS] = B(A_TYPE) | B(A_FTZ), [WS_OP_NEG] = B(A_TYPE) | B(A_FTZ),
    [WS_OP_MIN] = B(A_TYPE) | B(A_FTZ) | B(A_RELU) | B(A_NAN), [WS_OP_MAX] = B(A_TYPE) | B(A_FTZ) | B(A_RELU) | B(A_NAN),
    [WS_OP_AND] = B(A_TYPE), [WS_OP_OR] = B(A_TYPE), [WS_OP_XOR] = B(A_TYPE),
    [WS_OP_NOT] = B(A_TYPE), [WS_OP_CNOT] = B(A_TYPE),
    [WS_OP_SHL] = B(A_TYPE), [WS_OP_SHR] = B(A_TYPE), [WS_OP_SHF] = B(A_TYPE) | B(A_SHF),
    [WS_OP_PRMT] = B(A_TYPE) | B(A_PRMT), [WS_OP_POPC] = B(A_TYPE), [WS_OP_CLZ] = B(A_TYPE),
    [WS_OP_BREV] = B(A_TYPE), [WS_OP_BFE] = B(A_TYPE), [WS_OP_BFI] = B(A_TYPE),
    [WS_OP_BFIND] = B(A_TYPE) | B(A_SHIFTAMT),
    [WS_OP_FMA] = ARITH | B(A_RELU),
    [WS_OP_RCP] = B(A_TYPE) | B(A_RND) | B(A_FTZ) | B(A_APPROX),
    [WS_OP_SQRT] = B(A_TYPE) | B(A_RND) | B(A_FTZ) | B(A_APPROX),
    [WS_OP_RSQRT] = B(A_TYPE) | B(A_FTZ) | B(A_APPROX), [WS_OP_EX2] = B(A_TYPE) | B(A_FTZ) | B(A_APPROX),
    [WS_OP_LG2] = B(A_TYPE) | B(A_FTZ) | B(A_APPROX), [WS_OP_SIN] = B(A_TYPE) | B(A_FTZ) | B(A_APPROX),
    [WS_OP_COS] = B(A_TYPE) | B(A_FTZ) | B(A_APPROX), [WS_OP_TANH] = B(A_TYPE) | B(A_APPROX),
    [WS_OP_COPYSIGN] = B(A_TYPE), [WS_OP_TESTP] = B(A_TYPE) | B(A_TESTP),
    [WS_OP_SETP] = B(A_TYPE) | B(A_CMP) | B(A_BOOL) | B(A_FTZ),
    [WS_OP_SET] = B(A_TYPE2) | B(A_CMP) | B(A_BOOL) | B(A_FTZ),
    [WS_OP_SELP] = B(A_TYPE), [WS_OP_SLCT] = B(A_TYPE2) | B(A_FTZ),
    [WS_OP_CVT] = B(A_TYPE2) | B(A_RND) | B(A_RNDI) | B(A_SAT) | B(A_FTZ) | B(A_RELU),
    [WS_OP_CVTA] = B(A_TYPE) | B(A_TO) | B(A_SPACE),
    [WS_OP_LD] = MEMQ, [WS_OP_LDU] = B(A_SPACE) | B(A_VEC) | B(A_TYPE), [WS_OP_ST] = MEMQ,
    [WS_OP_ATOM] = B(A_TYPE) | B(A_SPACE) | B(A_ORDER) | B(A_SCOPE) | B(A_ATOM) | B(A_NOFTZ),
    [WS_OP_RED] = B(A_TYPE) | B(A_SPACE) | B(A_ORDER) | B(A_SCOPE) | B(A_ATOM) | B(A_NOFTZ),
    [WS_OP_MEMBAR] = B(A_SCOPE), [WS_OP_FENCE] = B(A_ORDER) | B(A_SCOPE),
    [WS_OP_PREFETCH] = B(A_SPACE) | B(A_CACHE), [WS_OP_NANOSLEEP] = B(A_TYPE),
    [WS_OP_BRA] = B(A_UNI), [WS_OP_BRX] = B(A_IDX) | B(A_UNI), [WS_OP_RET] = B(A_UNI),
    [WS_OP_BAR] = B(A_BARK) | B(A_ALIGNED) | B(A_TYPE), [WS_OP_BARRIER] = B(A_BARK) | B(A_ALIGNED) | B(A_TYPE),
    [WS_OP_BAR_WARP] = B(A_SYNC), [WS_OP_SHFL] = B(A_SYNC) | B(A_SHFL) | B(A_TYPE),
    [WS_OP_VOTE] = B(A_SYNC) | B(A_VOTE) | B(A_TYPE), [WS_OP_ACTIVEMASK] = B(A_TYPE),
    [WS_OP_MATCH] = B(A_SYNC) | B(A_MATCH) | B(A_TYPE),
    [WS_OP_REDUX] = B(A_SYNC) | B(A_ATOM) | B(A_TYPE),
    [WS_OP_MMA] = B(A_SYNC) | B(A_ALIGNED) | B(A_SHAPE) | B(A_LAYOUT) | B(A_SAT) | B(A_TYPE),
    [WS_OP_CP_ASYNC] = B(A_CPA) | B(A_SPACE) | B(A_CACHE),
    [WS_OP_ELECT] = B(A_SYNC), [WS_OP_GRIDDEP] = B(A_GRIDDEP),
    [WS_OP_MBARRIER] = B(A_MBAR) | B(A_SPACE) | B(A_ORDER) | B(A_SCOPE) | B(A_TYPE),
    [WS_OP_CREATEPOLICY] = B(A_GRIDDEP) | B(A_CACHE) | B(A_TYPE),
    [WS_OP_LDMATRIX] = B(A_SYNC) | B(A_ALIGNED) | B(A_SHAPE) | B(A_LDM) | B(A_SPACE) | B(A_TYPE),
    [WS_OP_MOVMATRIX] = B(A_SYNC) | B(A_ALIGNED) | B(A_SHAPE) | B(A_LDM) | B(A_TYPE),
    [WS_OP_STMATRIX] = B(A_SYNC) | B(A_ALIGNED) | B(A_SHAPE) | B(A_LDM) | B(A_SPACE) | B(A_TYPE),
    [WS_OP_DP4A] = B(A_TYPE2), [WS_OP_DP2A] = B(A_TYPE2) | B(A_HILO),
    [WS_OP_FNS] = B(A_TYPE), [WS_OP_BMSK] = B(A_TYPE) | B(A_BMODE), [WS_OP_SZEXT] = B(A_TYPE) | B(A_BMODE),
    [WS_OP_CVT_PACK] = B(A_PACK) | B(A_SAT) | B(A_TYPE), [WS_OP_LOP3] = B(A_TYPE),
#define VIDEO B(A_TYPE2) | B(A_SAT) | B(A_ACCUM)
    [WS_OP_VADD2] = VIDEO, [WS_OP_VSUB2] = VIDEO, [WS_OP_VAVRG2] = VIDEO, [WS_OP_VABSDIFF2] = VIDEO,
    [WS_OP_VMIN2] = VIDEO, [WS_OP_VMAX2] = VIDEO, [WS_OP_VADD4] = VIDEO, [WS_OP_VSUB4] = VIDEO,
    [WS_OP_VAVRG4] = VIDEO, [WS_OP_VABSDIFF4] = VIDEO, [WS_OP_VMIN4] = VIDEO, [WS_OP_VMAX4] = VIDEO,
#undef VIDEO
    [WS_OP_VSHL] = B(A_TYPE2) | B(A_SAT) | B(A_BMODE) | B(A_ACCUM),
    [WS_OP_VSHR] = B(A_TYPE2) | B(A_SAT) | B(A_BMODE) | B(A_ACCUM),
};

/* the SIMD video instructions vop2/vop4 (three types: .dtype .atype .btype) */
static int is_simd_video(int op) { return op >= WS_OP_VADD2 && op <= WS_OP_VMAX4; }
/* the scalar video shifts vshl/vshr (three types: .dtype .atype .u32) */
static int is_vshift(int op) { return op == WS_OP_VSHL || op == WS_OP_VSHR; }

/* the scalar and other video instructions, refused by name (PTX ISA 9.7.16) */
static const char *const video_refused[] = {"vadd", "vsub", "vabsdiff", "vmin", "vmax", "vmad",
                                            "vset", "vset2", "vset4"};

/* instructions of recent PTX refused by name, with the reason and what is supported instead */
static const struct { const char *name, *why; } refused_insts[] = {
    {"wgmma", "sm_90a warpgroup mma is outside the subset (mma.sync is supported)"},
    {"tcgen05", "sm_100 tensor-core instructions are outside the subset (mma.sync is supported)"},
    {"mapa", "thread-block cluster instructions (sm_90) are outside the subset: one CTA is its own cluster here"},
    {"getctarank", "thread-block cluster instructions (sm_90) are outside the subset: one CTA is its own cluster here"},
    {"multimem", "sm_90 multimem instructions are outside the subset"},
    {"setmaxnreg", "sm_90a setmaxnreg is outside the subset"},
};

static const char *const pack_names[] = {"", "u2", "s2", "u4", "s4", "u8", "s8", "u16", "s16"};

typedef struct modstate {
    ws_type types[4];
    int ntypes;
    int shape;         /* mma: index into mma_shapes + 1 */
    char layout[2];    /* mma: 'r' / 'c' for A and B */
    int nlayout;
    int tf32;          /* mma: bit i set when types[i] was .tf32 */
    int bar_red;       /* saw .red on bar/barrier */
    int shf_dir, shf_mode;
    int sync;
    int idx;
    uint32_t type_tok[4];
} modstate;

/* ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 (PTX ISA 9.7.9.26) and
 * stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16 (PTX ISA "stmatrix", sm_90);
 * without .shared the address is generic (the ISA's .ss is optional) */
static int ldm_mod(P *p, ws_inst *in, modstate *ms, const ws_tok *t, const char *s, size_t n)
{
    if (n == 4 && !memcmp(s, "sync", 4)) { ms->sync = 1; return A_SYNC; }
    if (n == 7 && !memcmp(s, "aligned", 7)) { in->mods |= WS_MOD_ALIGNED; return A_ALIGNED; }
    if (n == 4 && !memcmp(s, "m8n8", 4)) { ms->shape = 1; return A_SHAPE; }
    if (n >= 4 && s[0] == 'm' && s[1] >= '1' && s[1] <= '9')   /* .m16n8 (.b8), .m8n16, .m16n16: sm_100a */
        return err_at(p, t, "shape '%.*s' is not supported on '%s' (supported: %s.sync.aligned.m8n8.{x1,x2,x4}{.trans}"
                      ".shared{::cta}.b16)", TK(t), ws_opcode_name(in->op), ws_opcode_name(in->op)), -2;
    if (n == 2 && s[0] == 'x' && (s[1] == '1' || s[1] == '2' || s[1] == '4')) {
        if (in->subop & 7) return err_at(p, t, "more than one matrix count on '%s'", ws_opcode_name(in->op)), -2;
        in->subop |= (uint8_t)(s[1] - '0');
        return A_LDM;
    }
    if (n == 5 && !memcmp(s, "trans", 5)) { in->subop |= WS_LDM_TRANS; return A_LDM; }
    if ((n == 6 && !memcmp(s, "shared", 6)) || (n == 11 && !memcmp(s, "shared::cta", 11))) {
        in->space = WS_SP_SHARED;
        return A_SPACE;
    }
    ws_type ty = ws_type_from_name(s, n);
    if (ty == WS_TY_NONE) return -1;
    if (ms->ntypes >= 1) return err_at(p, t, "too many types on '%s'", ws_opcode_name(in->op)), -2;
    ms->type_tok[0] = (uint32_t)(t - p->t);
    ms->types[ms->ntypes++] = ty;
    return A_TYPE;
}

/* cp.async{.ca,.cg}.shared{::cta}.global{.L2::64B/128B/256B} [dst], [src], cp-size{, src-size};
 * cp.async.commit_group; cp.async.wait_group N; cp.async.wait_all (PTX ISA 9.7.9.25) */
static int cpa_mod(P *p, ws_inst *in, const ws_tok *t, const char *s, size_t n)
{
    static const char *const forms[] = {"", "", "commit_group", "wait_group", "wait_all"};
    for (int f = WS_CPA_COMMIT; f <= WS_CPA_WAIT_ALL; f++)
        if (strlen(forms[f]) == n && !memcmp(s, forms[f], n)) {
            if (in->subop) return err_at(p, t, "'%.*s' after another cp.async form", TK(t)), -2;
            in->subop = (uint8_t)f;
            return A_CPA;
        }
    if (n == 2 && (!memcmp(s, "ca", 2) || !memcmp(s, "cg", 2))) {
        if (in->subop) return err_at(p, t, "more than one cp.async form"), -2;
        in->subop = WS_CPA_COPY;
        in->boolop = s[1] == 'a' ? 1 : 2;
        return A_CPA;
    }
    if ((n == 6 && !memcmp(s, "shared", 6)) || (n == 11 && !memcmp(s, "shared::cta", 11))) {
        if (in->space) return err_at(p, t, "'cp.async' copies .shared.global"), -2;
        in->space = WS_SP_SHARED;
        return A_SPACE;
    }
    if (n == 6 && !memcmp(s, "global", 6)) return in->space == WS_SP_SHARED ? A_SPACE : -1;
    if (n == 7 && (!memcmp(s, "L2::64B", 7))) return A_CACHE;
    if (n == 8 && (!memcmp(s, "L2::128B", 8) || !memcmp(s, "L2::256B", 8))) return A_CACHE;   /* prefetch hints */
    if (n == 14 && !memcmp(s, "L2::cache_hint", 14)) {   /* a cache-policy operand follows: accepted, ignored */
        in->mods |= WS_MOD_CACHE_HINT;
        return A_CACHE;
    }
    return -1;
}

static const char *const mma_shapes[] = {"m16n8k16", "m16n8k8", "m16n8k32", "m8n8k4", "m8n8k16", "m8n8k32"};

/* mma.sync.aligned modifiers (PTX ISA 9.7.14.5.14): shape, .row.col, four types, .satfinite */
static int mma_mod(P *p, ws_inst *in, modstate *ms, const ws_tok *t, const char *s, size_t n)
{
    if (n == 4 && !memcmp(s, "sync", 4)) { ms->sync = 1; return A_SYNC; }
    if (n == 7 && !memcmp(s, "aligned", 7)) { in->mods |= WS_MOD_ALIGNED; return A_ALIGNED; }
    if (n == 9 && !memcmp(s, "satfinite", 9)) { in->mods |= WS_MOD_SAT; return A_SAT; }
    for (int i = 0; i < (int)(sizeof mma_shapes / sizeof mma_shapes[0]); i++)
        if (strlen(mma_shapes[i]) == n && !memcmp(s, mma_shapes[i], n)) { ms->shape = i + 1; return A_SHAPE; }
    if (n == 3 && (!memcmp(s, "row", 3) || !memcmp(s, "col", 3))) {
        if (ms->nlayout >= 2) return err_at(p, t, "'mma' takes two layouts (.alayout .blayout)"), -2;
        ms->layout[ms->nlayout++] = s[0];
        return A_LAYOUT;
    }
    ws_type ty = ws_operand_type_from_name(s, n);
    int tf32 = n == 4 && !memcmp(s, "tf32", 4);
    if (ty == WS_TY_E4M3X2 || ty == WS_TY_E5M2X2) ty = WS_TY_NONE;
    if (ty == WS_TY_NONE && !tf32) return -1;
    if (ms->ntypes >= 4) return err_at(p, t, "too many types on 'mma' (.dtype .atype .btype .ctype)"), -2;
    if (tf32) { ty = WS_TY_B32; ms->tf32 |= 1 << ms->ntypes; }
    ms->type_tok[ms->ntypes] = (uint32_t)(t - p->t);
    ms->types[ms->ntypes++] = ty;
    return A_TYPE;
}

/* classifies one modifier (without the dot) for opcode op and applies it;
 * returns the category or -1 if unknown, -2 after an error */
static int apply_mod(P *p, ws_inst *in, modstate *ms, const ws_tok *t)
{
    const char *s = t->s + 1;
    size_t n = t->n - 1;
    int op = in->op, x;
    if (op == WS_OP_MMA) return mma_mod(p, in, ms, t, s, n);
    if (is_vshift(op) && n == 3 && (!memcmp(s, "add", 3) || !memcmp(s, "min", 3) || !memcmp(s, "max", 3))) {
        if (in->boolop) return err_at(p, t, "more than one secondary operation on '%s'", ws_opcode_name(op)), -2;
        in->boolop = (uint8_t)(s[1] == 'd' ? WS_VOP2_ADD : s[1] == 'i' ? WS_VOP2_MIN : WS_VOP2_MAX);
        return A_ACCUM;
    }
    if (op == WS_OP_LDMATRIX || op == WS_OP_STMATRIX || op == WS_OP_MOVMATRIX) return ldm_mod(p, in, ms, t, s, n);
    if (op == WS_OP_CP_ASYNC) return cpa_mod(p, in, t, s, n);
    if (op == WS_OP_GRIDDEP && n == 4 && !memcmp(s, "wait", 4)) { in->subop = WS_GRIDDEP_WAIT; return A_GRIDDEP; }
    if (op == WS_OP_GRIDDEP && n == 17 && !memcmp(s, "launch_dependents", 17)) { in->subop = WS_GRIDDEP_LAUNCH; return A_GRIDDEP; }
    if (op == WS_OP_MBARRIER) {
        static const char *const ops[] = {"", "init", "arrive", "arrive_drop", "test_wait", "try_wait", "pending_count",
                                          "inval"};
        for (int f = WS_MBAR_INIT; f <= WS_MBAR_INVAL; f++)
            if (strlen(ops[f]) == n && !memcmp(s, ops[f], n)) {
                if (in->subop) return err_at(p, t, "more than one mbarrier operation"), -2;
                in->subop = (uint8_t)f;
                return A_MBAR;
            }
        if (n == 6 && !memcmp(s, "parity", 6)) { in->boolop = WS_MBAR_PARITY; return A_MBAR; }
        if ((n == 6 && !memcmp(s, "shared", 6)) || (n == 11 && !memcmp(s, "shared::cta", 11))) {
            in->space = WS_SP_SHARED;
            return A_SPACE;
        }
        if ((n == 9 && !memcmp(s, "expect_tx", 9)) || (n == 11 && !memcmp(s, "complete_tx", 11)) ||
            (n == 15 && !memcmp(s, "shared::cluster", 15)))
            return err_at(p, t, "'mbarrier%.*s' is not supported (the transaction-count and cluster forms go with sm_90 "
                          "bulk copies; supported: mbarrier.init/.arrive/.arrive_drop/.test_wait/.try_wait{.parity}/"
                          ".pending_count/.inval on .shared)", TK(t)), -2;
    }
    if (op == WS_OP_CREATEPOLICY) {
        if (n == 10 && !memcmp(s, "fractional", 10)) return A_GRIDDEP;
        if (n == 5 && !memcmp(s, "range", 5)) { in->subop = 2; return A_GRIDDEP; }
        if (n == 6 && !memcmp(s, "global", 6)) return A_CACHE;
        if (n == 2 && !memcmp(s, "L2", 2)) return A_CACHE;   /* .cvt.L2 */
        if (n == 3 && !memcmp(s, "cvt", 3)) { in->subop = 1; return A_GRIDDEP; }
    }
    if (op == WS_OP_CVT_PACK && !in->subop && (x = ws_name_index(pack_names, 9, s, n)) > 0) {
        in->subop = (uint8_t)x;
        return A_PACK;
    }
    if (is_refused_type(s, n))
        return err_at(p, t, "type '%.*s' is not supported (supported types: %s)", TK(t), supported_types), -2;
    ws_type ty = ws_type_from_name(s, n);
    if (ty != WS_TY_NONE) {
        if (ms->ntypes >= (is_simd_video(op) || is_vshift(op) ? 3 : 2)) return err_at(p, t, "too many types on '%s'", ws_opcode_name(op)), -2;
        ms->type_tok[ms->ntypes] = (uint32_t)(t - p->t);
        ms->types[ms->ntypes++] = ty;
        return (op_allow[op] & B(A_TYPE2)) ? A_TYPE2 : A_TYPE;
    }
    if ((op == WS_OP_SETP || op == WS_OP_SET || op == WS_OP_SLCT) && (x = ws_name_index(ws_cmp_names, WS_NCMP_NAMES, s, n)) > 0) {
        if (in->cmp) return err_at(p, t, "more than one comparison on '%s'", ws_opcode_name(op)), -2;
        in->cmp = (uint8_t)x;
        return A_CMP;
    }
    if ((op == WS_OP_SETP || op == WS_OP_SET) && (x = ws_name_index(ws_bool_names, WS_NBOOL_NAMES, s, n)) > 0) {
        in->boolop = (uint8_t)x;
        return A_BOOL;
    }
    if ((op == WS_OP_ATOM || op == WS_OP_RED || op == WS_OP_REDUX) && (x = ws_name_index(ws_atom_names, WS_NATOM_NAMES, s, n)) > 0) {
        if (in->subop) return err_at(p, t, "more than one operation on '%s'", ws_opcode_name(op)), -2;
        in->subop = (uint8_t)x;
        return A_ATOM;
    }
    if (op == WS_OP_SHFL && (x = ws_name_index(ws_shfl_names, WS_NSHFL_NAMES, s, n)) > 0) { in->subop = (uint8_t)x; return A_SHFL; }
    if (op == WS_OP_VOTE && (x = ws_name_index(ws_vote_names, WS_NVOTE_NAMES, s, n)) > 0) { in->subop = (uint8_t)x; return A_VOTE; }
    if (op == WS_OP_MATCH && (x = ws_name_index(ws_match_names, WS_NMATCH_NAMES, s, n)) > 0) { in->subop = (uint8_t)x; return A_MATCH; }
    if (op == WS_OP_PRMT && (x = ws_name_index(ws_prmt_names, WS_NPRMT_NAMES, s, n)) > 0) { in->subop = (uint8_t)x; return A_PRMT; }
    if (op == WS_OP_TESTP && (x = ws_name_index(ws_testp_names, WS_NTESTP_NAMES, s, n)) > 0) { in->subop = (uint8_t)x; return A_TESTP; }
    if (op == WS_OP_SHF) {
        if (n == 1 && (s[0] == 'l' || s[0] == 'r')) { ms->shf_dir = s[0]; return A_SHF; }
        if (n == 4 && !memcmp(s, "wrap", 4)) { ms->shf_mode = 'w'; return A_SHF; }
        if (n == 5 && !memcmp(s, "clamp", 5)) { ms->shf_mode = 'c'; return A_SHF; }
    }
    if (op == WS_OP_BAR || op == WS_OP_BARRIER) {
        if (ms->bar_red == 1) {
            if (n == 4 && !memcmp(s, "popc", 4)) { in->subop = WS_BAR_RED_POPC; ms->bar_red = 2; return A_BARK; }
            if (n == 3 && !memcmp(s, "and", 3)) { in->subop = WS_BAR_RED_AND; ms->bar_red = 2; return A_BARK; }
            if (n == 2 && !memcmp(s, "or", 2)) { in->subop = WS_BAR_RED_OR; ms->bar_red = 2; return A_BARK; }
        }
        if (!in->subop && n == 4 && !memcmp(s, "sync", 4)) { in->subop = WS_BAR_SYNC; return A_BARK; }
        if (!in->subop && n == 6 && !memcmp(s, "arrive", 6)) { in->subop = WS_BAR_ARRIVE; return A_BARK; }
        if (!in->subop && !ms->bar_red && n == 3 && !memcmp(s, "red", 3)) { ms->bar_red = 1; return A_BARK; }
    }
    if (op == WS_OP_BRX && n == 3 && !memcmp(s, "idx", 3)) { ms->idx = 1; return A_IDX; }
    if (op == WS_OP_BFIND && n == 8 && !memcmp(s, "shiftamt", 8)) { in->subop = WS_BFIND_SHIFTAMT; return A_SHIFTAMT; }
    if ((op == WS_OP_BMSK || op == WS_OP_SZEXT || is_vshift(op)) && !in->subop) {
        if (n == 5 && !memcmp(s, "clamp", 5)) { in->subop = WS_BMODE_CLAMP; return A_BMODE; }
        if (n == 4 && !memcmp(s, "wrap", 4)) { in->subop = WS_BMODE_WRAP; return A_BMODE; }
    }
    if (n == 4 && !memcmp(s, "sync", 4) && (op_allow[op] & B(A_SYNC))) { ms->sync = 1; return A_SYNC; }
    if (op == WS_OP_MEMBAR || op == WS_OP_FENCE) {
        if (n == 3 && !memcmp(s, "cta", 3)) { in->subop = WS_SCOPE_CTA; return A_SCOPE; }
        if ((n == 2 && !memcmp(s, "gl", 2) && op == WS_OP_MEMBAR) || (n == 3 && !memcmp(s, "gpu", 3) && op == WS_OP_FENCE)) {
            in->subop = WS_SCOPE_GPU;
            return A_SCOPE;
        }
        if (n == 3 && !memcmp(s, "sys", 3)) { in->subop = WS_SCOPE_SYS; return A_SCOPE; }
    }
    if ((x = ws_name_index(ws_rnd_names, WS_NRND_NAMES, s, n)) > 0) {
        if (in->rnd) return err_at(p, t, "more than one rounding mode on '%s'", ws_opcode_name(op)), -2;
        in->rnd = (uint8_t)x;
        return x >= WS_RND_RNI ? A_RNDI : A_RND;
    }
    if ((x = ws_name_index(ws_space_names, WS_NSPACE_NAMES, s, n)) > 0) {
        if (in->space) return err_at(p, t, "more than one state space on '%s'", ws_opcode_name(op)), -2;
        in->space = (uint8_t)x;
        return A_SPACE;
    }
    for (const ws_flag_name *f = ws_flag_names; f->name; f++) {
        if (strlen(f->name) != n || memcmp(f->name, s, n)) continue;
        in->mods |= f->bit;
        switch (f->bit) {
        case WS_MOD_SAT: return A_SAT;
        case WS_MOD_FTZ: return A_FTZ;
        case WS_MOD_APPROX: return A_APPROX;
        case WS_MOD_FULL: return A_FULL;
        case WS_MOD_HI: case WS_MOD_LO: return A_HILO;
        case WS_MOD_WIDE: return A_WIDE;
        case WS_MOD_CC: return A_CC;
        case WS_MOD_UNI: return A_UNI;
        case WS_MOD_VOLATILE: return A_VOL;
        case WS_MOD_TO: return A_TO;
        case WS_MOD_ALIGNED: return A_ALIGNED;
        case WS_MOD_NOFTZ: return A_NOFTZ;
        case WS_MOD_RELAXED: case WS_MOD_ACQUIRE: case WS_MOD_RELEASE: return A_ORDER;
        case WS_MOD_NONCOHERENT: return A_NC;
        case WS_MOD_ADD: return A_ACCUM;
        case WS_MOD_RELU: return A_RELU;
        case WS_MOD_NAN: return A_NAN;
        default: in->mods &= ~f->bit; return -1;
        }
    }
    if ((n == 7 && !memcmp(s, "acq_rel", 7)) || (n == 2 && !memcmp(s, "sc", 2))) {
        in->mods |= WS_MOD_ACQUIRE | WS_MOD_RELEASE;
        return A_ORDER;
    }
    if (n == 4 && !memcmp(s, "weak", 4)) return A_ORDER;
    if ((n == 3 && (!memcmp(s, "cta", 3) || !memcmp(s, "gpu", 3) || !memcmp(s, "sys", 3))) ||
        (n == 7 && !memcmp(s, "cluster", 7)))
        return A_SCOPE;
    static const char *const cacheops[] = {"ca", "cg", "cs", "lu", "cv", "wb", "wt"};
    for (size_t i = 0; i < sizeof cacheops / sizeof cacheops[0]; i++)
        if (n == 2 && !memcmp(s, cacheops[i], 2)) return A_CACHE;
    if (op == WS_OP_PREFETCH && n == 2 && (!memcmp(s, "L1", 2) || !memcmp(s, "L2", 2))) return A_CACHE;
    if (n > 4 && (!memcmp(s, "L1::", 4) || !memcmp(s, "L2::", 4))) {
        if (n == 14 && !memcmp(s, "L2::cache_hint", 14)) {
            if (op != WS_OP_LD && op != WS_OP_LDU && op != WS_OP_ST) return -1;
            in->mods |= WS_MOD_CACHE_HINT;   /* the policy operand follows: accepted, ignored */
        }
        return A_CACHE;
    }
    if (n == 2 && s[0] == 'v' && (s[1] == '2' || s[1] == '4' || s[1] == '8')) { in->vec = (uint8_t)(s[1] - '0'); return A_VEC; }
    return -1;
}

static void describe_allowed(int op, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (int c = 0; c < A_NCAT; c++) {
        if (!(op_allow[op] & B(c))) continue;
        int w = snprintf(buf + o, len - o, "%s%s", o ? ", " : "", cat_names[c]);
        if (w < 0 || (size_t)w >= len - o) break;
        o += (size_t)w;
    }
    if (!o) snprintf(buf, len, "no modifiers");
}

/* ------------------------------------------------------------------ */
/* operands */

enum { R_REG, R_SREG, R_NUM, R_NAME, R_ADDR, R_VEC, R_PAIR };
typedef struct raw {
    uint8_t kind, neg, nvec, sreg;
    uint8_t vimm_mask;     /* R_VEC: elements that are integer constants (vimm) */
    uint64_t vimm[8];
    uint32_t tok;          /* first token */
    uint32_t reg, reg2;
    uint32_t vec[8];       /* eight: a wmma fragment (parse_wmma); other operands take up to four */
    uint32_t numtok; int numneg;
    uint32_t name_tok; int has_name;
    int64_t off;
    uint8_t sel;           /* R_REG: a video operand selector .b0-.b3 .h0 .h1 (WS_VSEL_*), token seltok */
    uint32_t seltok;
} raw;

static const char *const other_sregs[] = {"%envreg", "%pm", "%total_smem_size", "%dynamic_smem_size",
                                         "%aggr_smem_size", "%reserved_smem", "%current_graph_exec", "%clusterid",
                                         "%nclusterid", "%cluster", "%is_explicit_cluster", "%nctarank", "%ctarank"};

/* a scalar register (vector registers are not: see vreg_ref) */
static int lookup_reg(P *p, const ws_tok *t, uint32_t *r)
{
    int64_t v;
    if (smap_get(&p->regs, t->s, t->n, &v) && !(v >> 32)) { *r = (uint32_t)v; return 1; }
    return 0;
}

/* t names a vector register: 0 if not; else its element count, first register in *first,
 * and if an adjacent element selector follows (.x .y .z .w, or .r .g .b .a: PTX ISA 6.4.2.2)
 * the element's register in *elem (UINT32_MAX without one; -1 after an error) */
static int vreg_ref(P *p, const ws_tok *t, uint32_t *first, uint32_t *elem)
{
    int64_t v;
    if (t->kind != WS_TK_IDENT || !smap_get(&p->regs, t->s, t->n, &v) || !(v >> 32)) return 0;
    unsigned n = (unsigned)(v >> 32);
    *first = (uint32_t)v;
    *elem = UINT32_MAX;
    const ws_tok *d = t + 1;
    if (d->kind == WS_TK_DOT && d->adj) {
        const char *c = d->n == 2 ? strchr("xyzwrgba", d->s[1]) : NULL;
        unsigned idx = c ? (unsigned)(c - "xyzwrgba") % 4 : 4;
        if (idx >= n)
            return err_at(p, d, "'%.*s%.*s' is not an element of the %u-element vector '%.*s' (.x .y%s)", TK(t), TK(d),
                          n, TK(t), n == 4 ? " .z .w" : ""), -1;
        *elem = *first + idx;
    }
    return (int)n;
}

static int parse_offset(P *p, int64_t *off)
{
    while (is_punct(cur(p), '+') || is_punct(cur(p), '-')) {
        int neg = is_punct(cur(p), '-');
        adv(p);
        if (is_punct(cur(p), '-')) { neg = !neg; adv(p); }
        uint64_t v = 0;
        if (expect_int(p, "offset", &v)) return -1;
        *off += neg ? -(int64_t)v : (int64_t)v;
    }
    return 0;
}

/* an adjacent .b0 .b1 .b2 .b3 .h0 .h1 after a register: its WS_VSEL_* (0 if none) */
static int video_selector(const ws_tok *t)
{
    static const char *const names[] = {"", ".b0", ".b1", ".b2", ".b3", ".h0", ".h1"};
    if (t->kind != WS_TK_DOT || !t->adj || t->n != 3) return 0;
    for (int s = WS_VSEL_B0; s <= WS_VSEL_H1; s++)
        if (!memcmp(t->s, names[s], 3)) return s;
    return 0;
}

static int parse_operand(P *p, raw *r)
{
    memset(r, 0, sizeof *r);
    r->tok = p->i;
    ws_tok *t = cur(p);
    if (is_punct(t, '!')) {
        adv(p);
        ws_tok *rt = cur(p);
        if (rt->kind == WS_TK_INT) {   /* !0, !1: a negated predicate constant */
            r->kind = R_NUM;
            r->numtok = p->i;
            r->neg = 1;
            adv(p);
            return 0;
        }
        if (rt->kind != WS_TK_IDENT || !lookup_reg(p, rt, &r->reg))
            return err_at(p, rt, "expected a predicate register after '!', got '%.*s'", TK(rt));
        adv(p);
        r->kind = R_REG;
        r->neg = 1;
        return 0;
    }
    if (is_punct(t, '[')) {
        adv(p);
        ws_tok *b = cur(p);
        r->kind = R_ADDR;
        r->reg = WS_NO_REG;
        if (b->kind == WS_TK_IDENT) {
            if (!lookup_reg(p, b, &r->reg)) {
                if (b->s[0] == '%') return err_at(p, b, "undefined register '%.*s'", TK(b));
                r->has_name = 1;
                r->name_tok = p->i;
            }
            adv(p);
        } else if (b->kind == WS_TK_INT) {
            r->off = (int64_t)b->ival;
            adv(p);
        } else {
            return err_at(p, b, "expected a register, symbol or address in '[...]', got '%.*s'", TK(b));
        }
        if (parse_offset(p, &r->off)) return -1;
        return expect(p, ']', "closing the address");
    }
    if (is_punct(t, '{')) {
        adv(p);
        r->kind = R_VEC;
        for (;;) {
            ws_tok *e = cur(p);
            if (r->nvec >= 8) return err_at(p, e, "vector operand with more than 8 elements");
            uint32_t vf, ve;
            int vn = vreg_ref(p, e, &vf, &ve);
            if (vn < 0) return -1;
            if (vn && ve == UINT32_MAX) return err_at(p, e, "vector register '%.*s' inside '{...}': name an element (%.*s.x ...)", TK(e), TK(e));
            if (vn) { r->vec[r->nvec++] = ve; adv(p); }
            else if (e->kind == WS_TK_IDENT && tok_eq(e, "_")) r->vec[r->nvec++] = WS_NO_REG;
            else if (e->kind == WS_TK_IDENT && lookup_reg(p, e, &r->vec[r->nvec])) r->nvec++;
            else if (e->kind == WS_TK_IDENT && e->s[0] == '%') return err_at(p, e, "undefined register '%.*s'", TK(e));
            else if (e->kind == WS_TK_INT) {   /* mov.b32 %f, {0, %rs} (nvcc's bf16 -> f32): a constant element */
                r->vimm_mask |= (uint8_t)(1u << r->nvec);
                r->vimm[r->nvec] = e->ival;
                r->vec[r->nvec++] = WS_NO_REG;
            }
            else return err_at(p, e, "expected a register, '_' or an integer in the vector operand, got '%.*s'", TK(e));
            adv(p);
            if (is_punct(cur(p), ',')) { adv(p); continue; }
            break;
        }
        /* one: an mma fragment ({%r5}), checked in decode_operands; eight: a wmma fragment (parse_wmma) */
        if (r->nvec != 1 && r->nvec != 2 && r->nvec != 4 && r->nvec != 8)
            return err_at(p, t, "vector operand must have 2 or 4 elements, not %d", r->nvec);
        return expect(p, '}', "closing the vector operand");
    }
    if (is_punct(t, '-') || t->kind == WS_TK_INT || t->kind == WS_TK_FLOAT) {
        int neg = 0;
        if (is_punct(t, '-')) { neg = 1; adv(p); }
        ws_tok *nt = cur(p);
        if (nt->kind != WS_TK_INT && nt->kind != WS_TK_FLOAT)
            return err_at(p, nt, "expected a number after '-', got '%.*s'", TK(nt));
        r->kind = R_NUM;
        r->numtok = p->i;
        r->numneg = neg;
        adv(p);
        return 0;
    }
    if (t->kind == WS_TK_IDENT) {
        uint32_t vf, ve;
        int vn = vreg_ref(p, t, &vf, &ve);
        if (vn < 0) return -1;
        if (vn && ve != UINT32_MAX) {   /* %v.x: one element */
            adv(p);
            adv(p);
            r->kind = R_REG;
            r->reg = ve;
            return 0;
        }
        if (vn) {                       /* %v: the whole vector, as {%v.x, %v.y, ...} */
            adv(p);
            r->kind = R_VEC;
            r->nvec = (uint8_t)vn;
            for (int e = 0; e < vn; e++) r->vec[e] = vf + (uint32_t)e;
            return 0;
        }
        if (lookup_reg(p, t, &r->reg)) {
            adv(p);
            r->kind = R_REG;
            if (video_selector(cur(p))) {   /* %r1.b0: checked in video_selectors */
                r->sel = (uint8_t)video_selector(cur(p));
                r->seltok = p->i;
                adv(p);
            }
            if (is_punct(cur(p), '|')) {
                adv(p);
                ws_tok *q = cur(p);
                if (q->kind != WS_TK_IDENT || !lookup_reg(p, q, &r->reg2))
                    return err_at(p, q, "expected a register after '|', got '%.*s'", TK(q));
                adv(p);
                r->kind = R_PAIR;
            }
            return 0;
        }
        if (t->s[0] == '%') {
            char name[64];
            size_t len = t->n < 40 ? t->n : 40;
            memcpy(name, t->s, len);
            ws_tok *d = peek(p, 1);
            int dotted = d->kind == WS_TK_DOT && d->adj && d->n < 20;
            if (dotted) { memcpy(name + len, d->s, d->n); len += d->n; }
            for (int s = 0; s < WS_SR_COUNT; s++) {
                const char *sn = ws_sreg_name((ws_sreg)s);
                if (strlen(sn) == len && memcmp(sn, name, len) == 0) {
                    adv(p);
                    if (dotted) adv(p);
                    r->kind = R_SREG;
                    r->sreg = (uint8_t)s;
                    return 0;
                }
            }
            int known = dotted;
            for (size_t i = 0; i < sizeof other_sregs / sizeof other_sregs[0]; i++)
                if (t->n >= strlen(other_sregs[i]) && !memcmp(t->s, other_sregs[i], strlen(other_sregs[i]))) known = 1;
            if (known)
                return err_at(p, t, "special register '%.*s' is not supported (supported: %%tid %%ntid %%ctaid %%nctaid "
                              "(.x .y .z), %%laneid %%warpid %%nwarpid %%smid %%nsmid %%gridid %%clock %%clock64 "
                              "%%lanemask_eq/lt/le/gt/ge)", (int)len, name);
            return err_at(p, t, "undefined register '%.*s'", TK(t));
        }
        if (tok_eq(t, "WARP_SZ") && !smap_get(&p->syms, t->s, t->n, NULL)) {
            adv(p);   /* the run-time constant behind warpSize (PTX ISA 4.4, predefined identifiers): see exec.h */
            r->kind = R_SREG;
            r->sreg = WS_SR_WARP_SZ;
            return 0;
        }
        adv(p);
        r->kind = R_NAME;
        r->has_name = 1;
        r->name_tok = r->tok;
        return parse_offset(p, &r->off);
    }
    return err_at(p, t, "expected an operand, got '%.*s'", TK(t));
}

/* ------------------------------------------------------------------ */
/* instruction shapes */

enum { C_VAL, C_PRED, C_ADDR, C_LABEL, C_VALVEC, C_BRXLIST };

static int src_class(const ws_inst *in, int j, int nsrc)
{
    switch (in->op) {
    case WS_OP_LD: case WS_OP_LDU: case WS_OP_PREFETCH: case WS_OP_ATOM: case WS_OP_RED: case WS_OP_LDMATRIX:
        return j == 0 ? C_ADDR : C_VAL;
    case WS_OP_CP_ASYNC:   /* [dst], [src], cp-size, {src-size | ignore-src} */
        return in->subop == WS_CPA_COPY && j < 2 ? C_ADDR : j == 3 && (in->mods & WS_MOD_IGNORE_SRC) ? C_PRED : C_VAL;
    case WS_OP_MBARRIER: return j == 0 && in->subop != WS_MBAR_PENDING_COUNT ? C_ADDR : C_VAL;
    case WS_OP_ST: return j == 0 ? C_ADDR : j == 2 ? C_VAL : C_VALVEC;
    case WS_OP_STMATRIX: return j == 0 ? C_ADDR : C_VALVEC;
    case WS_OP_CREATEPOLICY: return in->subop == 2 && j == 0 ? C_ADDR : C_VAL;   /* .range [a], ... */
    case WS_OP_BRA: return C_LABEL;
    case WS_OP_BRX: return j == 0 ? C_VAL : C_BRXLIST;
    case WS_OP_SELP: case WS_OP_SETP: case WS_OP_SET: return j == 2 ? C_PRED : C_VAL;
    case WS_OP_VOTE: return j == 0 ? C_PRED : C_VAL;
    case WS_OP_BAR: case WS_OP_BARRIER:
        return in->subop >= WS_BAR_RED_POPC && j == nsrc - 1 ? C_PRED : C_VAL;
    case WS_OP_MOV: case WS_OP_MMA: return C_VALVEC;
    default: return C_VAL;
    }
}

ws_type ws_ptx_src_type(const ws_inst *in, int j)
{
    switch (in->op) {
    case WS_OP_CVT: case WS_OP_SET: return (ws_type)in->type2;
    case WS_OP_SLCT: return j == 2 ? (ws_type)in->type2 : (ws_type)in->type;
    case WS_OP_SHL: case WS_OP_SHR: return j == 1 ? WS_TY_U32 : (ws_type)in->type;
    case WS_OP_BFE: return j >= 1 ? WS_TY_U32 : (ws_type)in->type;
    case WS_OP_BFI: return j >= 2 ? WS_TY_U32 : (ws_type)in->type;
    case WS_OP_SHF: return j == 2 ? WS_TY_U32 : (ws_type)in->type;
    case WS_OP_SHFL: return j == 0 ? (ws_type)in->type : WS_TY_B32;
    case WS_OP_VOTE: case WS_OP_MATCH: case WS_OP_REDUX: return j >= 1 ? WS_TY_B32 : (ws_type)in->type;
    case WS_OP_BAR: case WS_OP_BARRIER: case WS_OP_BAR_WARP: case WS_OP_NANOSLEEP: case WS_OP_BRX: return WS_TY_U32;
    case WS_OP_SELP: return j == 2 ? WS_TY_PRED : (ws_type)in->type;
    case WS_OP_SETP: return j == 2 ? WS_TY_PRED : (ws_type)in->type;
    case WS_OP_CVTA: return in->type ? (ws_type)in->type : WS_TY_U64;
    case WS_OP_VSHL: case WS_OP_VSHR: return j == 0 ? (ws_type)in->type2 : j == 1 ? WS_TY_U32 : (ws_type)in->type;
    case WS_OP_DP4A: case WS_OP_DP2A:
        if (j < 2) return (ws_type)(j ? in->type2 : in->type);
        return in->type == WS_TY_U32 && in->type2 == WS_TY_U32 ? WS_TY_U32 : WS_TY_S32;
    case WS_OP_FNS: return j == 2 ? WS_TY_S32 : WS_TY_B32;
    case WS_OP_MBARRIER:   /* count: u32; state: b64; phaseParity: u32 */
        return in->subop == WS_MBAR_INIT || in->subop == WS_MBAR_ARRIVE || in->subop == WS_MBAR_ARRIVE_DROP ||
               (j == 1 && in->boolop == WS_MBAR_PARITY) || j == 2 ? WS_TY_U32 : WS_TY_B64;
    case WS_OP_CREATEPOLICY:   /* fractional: the f32 fraction; range: sizes; cvt: the b64 access property */
        return in->subop == 0 ? WS_TY_F32 : in->subop == 2 && j >= 1 ? WS_TY_U32 : WS_TY_B64;
    case WS_OP_CVT_PACK: return j == 2 ? WS_TY_B32 : WS_TY_S32;
    default:
        if (in->op >= WS_OP_VADD2 && in->op <= WS_OP_VMAX4)
            return (ws_type)(j == 0 ? in->type2 : j == 1 ? in->subop : in->type);
        return (ws_type)in->type;
    }
}

/* destinations, and the range of source counts */
static void shape(const ws_inst *in, int *nd, int *smin, int *smax)
{
    *nd = 1;
    *smin = *smax = 2;
    switch (in->op) {
    case WS_OP_MOV: case WS_OP_ABS: case WS_OP_NEG: case WS_OP_NOT: case WS_OP_CNOT: case WS_OP_POPC:
    case WS_OP_CLZ: case WS_OP_BREV: case WS_OP_BFIND: case WS_OP_RCP: case WS_OP_SQRT: case WS_OP_RSQRT: case WS_OP_EX2:
    case WS_OP_LG2: case WS_OP_SIN: case WS_OP_COS: case WS_OP_TANH: case WS_OP_CVTA: case WS_OP_TESTP:
    case WS_OP_LD: case WS_OP_LDU: case WS_OP_LDMATRIX:
        *smin = *smax = (in->mods & WS_MOD_CACHE_HINT) ? 2 : 1; break;
    case WS_OP_MAD: case WS_OP_MADC: case WS_OP_MAD24: case WS_OP_SAD: case WS_OP_FMA: case WS_OP_SHF:
    case WS_OP_PRMT: case WS_OP_BFE: case WS_OP_SELP: case WS_OP_SLCT:
        *smin = *smax = 3; break;
    case WS_OP_BFI: case WS_OP_LOP3: *smin = *smax = 4; break;
    case WS_OP_DP4A: case WS_OP_DP2A: case WS_OP_FNS: *smin = *smax = 3; break;
    case WS_OP_VADD2: case WS_OP_VSUB2: case WS_OP_VAVRG2: case WS_OP_VABSDIFF2: case WS_OP_VMIN2: case WS_OP_VMAX2:
    case WS_OP_VADD4: case WS_OP_VSUB4: case WS_OP_VAVRG4: case WS_OP_VABSDIFF4: case WS_OP_VMIN4: case WS_OP_VMAX4:
        *smin = *smax = 3; break;
    case WS_OP_CVT_PACK: *smin = *smax = in->subop >= WS_PACK_U16 ? 2 : 3; break;
    case WS_OP_VSHL: case WS_OP_VSHR: *smin = 2; *smax = 3; break;   /* c: secondary op or merge */
    case WS_OP_CVT:   /* cvt.rn.f16x2.f32 d, a, b and cvt.rn.satfinite.e4m3x2.f32 d, a, b (PTX ISA 9.7.9.21) */
        *smin = *smax = in->subop == WS_CVT_FP8 ? (in->type2 == WS_TY_F32 ? 2 : 1)
                        : in->type == WS_TY_F16X2 || in->type == WS_TY_BF16X2 ? 2 : 1;
        break;
    case WS_OP_SETP: case WS_OP_SET: *smin = *smax = in->boolop ? 3 : 2; break;
    case WS_OP_STMATRIX: *nd = 0; break;   /* [p], {r...} */
    case WS_OP_ST: case WS_OP_RED:
        *nd = 0;
        if (in->mods & WS_MOD_CACHE_HINT) *smin = *smax = 3;
        break;
    case WS_OP_ELECT: *smin = *smax = 1; break;          /* d|p, membermask */
    case WS_OP_MOVMATRIX: *smin = *smax = 1; break;      /* d, a */
    case WS_OP_MBARRIER:
        switch (in->subop) {
        case WS_MBAR_INIT: *nd = 0; *smin = *smax = 2; break;                  /* [a], count */
        case WS_MBAR_INVAL: *nd = 0; *smin = *smax = 1; break;                 /* [a] */
        case WS_MBAR_ARRIVE: case WS_MBAR_ARRIVE_DROP: *smin = 1; *smax = 2; break;   /* state, [a]{, count} */
        case WS_MBAR_PENDING_COUNT: *smin = *smax = 1; break;                  /* count, state */
        default: *smin = 2; *smax = 3; break;                                  /* p, [a], state{, hint} */
        }
        break;
    case WS_OP_GRIDDEP: *nd = 0; *smin = *smax = 0; break;
    case WS_OP_CREATEPOLICY: *smin = 0; *smax = 3; break; /* fractional [fraction]; range a, size, size; cvt a */
    case WS_OP_ATOM: *smin = *smax = in->subop == WS_ATOM_CAS ? 3 : 2; break;
    case WS_OP_MEMBAR: case WS_OP_FENCE: case WS_OP_RET: case WS_OP_EXIT: case WS_OP_TRAP:
        *nd = 0; *smin = *smax = 0; break;
    case WS_OP_PREFETCH: case WS_OP_NANOSLEEP: case WS_OP_BRA: case WS_OP_BAR_WARP:
        *nd = 0; *smin = *smax = 1; break;
    case WS_OP_BRX: *nd = 0; break;
    case WS_OP_BAR: case WS_OP_BARRIER:
        if (in->subop >= WS_BAR_RED_POPC) { *smin = 2; *smax = 3; }
        else { *nd = 0; *smin = in->subop == WS_BAR_ARRIVE ? 2 : 1; *smax = 2; }
        break;
    case WS_OP_SHFL: *smin = *smax = 4; break;
    case WS_OP_MMA: *smin = *smax = 3; break;   /* d, a, b, c: vectors */
    case WS_OP_CP_ASYNC:   /* [dst], [src], cp-size{, src-size | ignore-src} / wait_group N / commit_group, wait_all
                            * (the .L2::cache_hint policy operand is dropped before: cpa_operands) */
        *nd = 0;
        if (in->subop == WS_CPA_COPY) { *smin = 3; *smax = 4; }
        else *smin = *smax = in->subop == WS_CPA_WAIT ? 1 : 0;
        break;
    case WS_OP_VOTE: *smin = 1; *smax = 2; break;   /* legacy vote: no membermask */
    case WS_OP_ACTIVEMASK: *smin = *smax = 0; break;
    default: break; /* binary ops, match: 1 dst, 2 src */
    }
}

static int add_fixup(P *p, uint32_t inst, int kind, int slot, uint32_t tok, uint32_t var)
{
    GROW(p->fx, p->nfx, p->cap_fx);
    p->fx[p->nfx++] = (fixup){inst, (uint8_t)kind, (uint8_t)slot, tok, var};
    return 0;
}

static int resolve_symbol(P *p, ws_inst *in, uint32_t ii, int slot, const raw *r, ws_operand *o)
{
    ws_tok *nt = &p->t[r->name_tok];
    int64_t v;
    if (smap_get(&p->syms, nt->s, nt->n, &v)) {
        if (p->vx[v].flags & VF_PARAM) {
            if (o->kind != WS_OK_ADDR || in->space != WS_SP_PARAM || (in->op != WS_OP_LD && in->op != WS_OP_ST))
                return err_at(p, nt, "'%.*s' is a .param variable of a call or function: only ld.param/st.param can "
                              "access it", TK(nt));
            in->space = WS_SP_LOCAL;   /* its slot is per-thread local memory */
        }
        o->imm = r->off;
        return add_fixup(p, ii, FX_VAR, slot, r->name_tok, (uint32_t)v);
    }
    if (smap_get(&p->params, nt->s, nt->n, &v)) {
        if (o->kind == WS_OK_ADDR && in->space == WS_SP_PARAM) {
            o->imm = (int64_t)p->k->params[v].offset + r->off;
            return 0;
        }
        if (o->kind == WS_OK_IMM && in->op == WS_OP_MOV && ws_type_bits((ws_type)in->type) == 64) {
            /* mov.u64 %rd, param: the parameter's address in the .param space (PTX ISA 5.1.6.1, kernel
             * parameters: "the address of a kernel parameter may be moved into a register using mov"),
             * usable by ld.param [%rd+off]; here, its offset in the parameter buffer */
            o->imm = (int64_t)p->k->params[v].offset + r->off;
            return 0;
        }
        return err_at(p, nt, "kernel parameter '%.*s' can only be read with ld.param, or its .param address taken "
                      "with a 64-bit mov (mov.u64 %%rd, %.*s)", TK(nt), TK(nt));
    }
    if (smap_get(&p->labels, nt->s, nt->n, NULL) || smap_get(&p->btl, nt->s, nt->n, NULL))
        return err_at(p, nt, "label '%.*s' used as a value (labels are only branch targets)", TK(nt));
    return err_at(p, nt, "undefined symbol '%.*s'", TK(nt));
}

static int check_pred(P *p, uint32_t reg, const ws_tok *t, const char *what)
{
    if (p->k->reg_types[reg] != WS_TY_PRED)
        return err_at(p, t, "%s '%s' must be a .pred register (it is .%s)", what, p->k->reg_names[reg],
                      ws_type_name((ws_type)p->k->reg_types[reg]));
    return 0;
}

/* .v8 (PTX ISA 8.x, ld/st): eight 8-, 16- or 32-bit elements; the 256-bit forms (.v8 of 32-bit
 * and .v4 of 64-bit elements, sm_100) only in .global or generic space, as ptxas enforces
 * ("global state space expected for feature '256 bit wide load/store'") */
static int check_wide_vector(P *p, const ws_inst *in, const ws_tok *optok)
{
    const char *mn = ws_opcode_name(in->op);
    unsigned bits = (unsigned)ws_type_bits((ws_type)in->type) * in->vec;
    if (in->op != WS_OP_LD && in->op != WS_OP_ST) return 0;
    if (bits > 256)
        return err_at(p, optok, "'%s.v%u.%s' is %u bits wide (at most 256: .v8 of 32-bit or .v4 of 64-bit elements)", mn,
                      in->vec, ws_type_name((ws_type)in->type), bits);
    if (bits == 256 && in->space != WS_SP_GLOBAL && in->space != WS_SP_GENERIC)
        return err_at(p, optok, "256-bit '%s.v%u.%s' is allowed in .global or generic space only, not .%s", mn, in->vec,
                      ws_type_name((ws_type)in->type), ws_space_names[in->space]);
    return 0;
}

/* The operands of a cp.async copy (PTX ISA 9.7.9.25.3.1): [dst], [src], cp-size, then either a
 * src-size (an integer: the bytes read, the rest of cp-size written as zeros) or an ignore-src
 * predicate (true: no byte read, cp-size zeros written; WS_MOD_IGNORE_SRC), then with
 * .L2::cache_hint a 64-bit cache policy, which is only a hint and is dropped here (its
 * register is not waited for). Sets in->mods, shortens *nops. Returns 0 or -1. */
static int cpa_operands(P *p, ws_inst *in, raw *ops, int *nops, const ws_tok *optok)
{
    if (in->mods & WS_MOD_CACHE_HINT) {
        if (*nops < 4 || ops[*nops - 1].kind != R_REG)
            return err_at(p, *nops ? &p->t[ops[*nops - 1].tok] : optok,
                          "'cp.async...L2::cache_hint' takes a 64-bit cache-policy register as its last operand");
        (*nops)--;
        in->mods &= ~WS_MOD_CACHE_HINT;
    }
    if (*nops == 4 && ops[3].kind == R_REG && p->k->reg_types[ops[3].reg] == WS_TY_PRED) in->mods |= WS_MOD_IGNORE_SRC;
    else if (*nops == 4 && ops[3].neg)
        return err_at(p, &p->t[ops[3].tok], "'!' negates a predicate: the src-size of 'cp.async' is an integer");
    return 0;
}

static int decode_operands(P *p, ws_inst *in, uint32_t ii, raw *ops, int nops, const ws_tok *optok)
{
    int nd, smin, smax;
    shape(in, &nd, &smin, &smax);
    const char *mn = ws_opcode_name(in->op);
    if (in->vec == 8 && in->op != WS_OP_LD && in->op != WS_OP_ST)
        return err_at(p, optok, "'.v8' is allowed on ld and st only");
    for (int j = 0; j < nops; j++)   /* eight elements only in ld/st.v8, a wmma fragment (parse_wmma) and mma */
        if (ops[j].kind == R_VEC && ops[j].nvec > 4 && !((in->op == WS_OP_LD || in->op == WS_OP_ST) && in->vec == 8)
            && !(in->op == WS_OP_MMA && ops[j].nvec == 8))
            return err_at(p, &p->t[ops[j].tok], "vector operand must have 2 or 4 elements%s, not %d",
                          in->op == WS_OP_LD || in->op == WS_OP_ST ? " (8 with .v8)" : "", ops[j].nvec);
    if (nops < nd + smin || nops > nd + smax) {
        if (smin == smax)
            return err_at(p, optok, "'%s' takes %d operand%s, got %d", mn, nd + smin, nd + smin == 1 ? "" : "s", nops);
        return err_at(p, optok, "'%s' takes %d to %d operands, got %d", mn, nd + smin, nd + smax, nops);
    }
    in->ndst = 0;
    for (int j = 0; j < nd; j++) {
        raw *r = &ops[j];
        ws_tok *t = &p->t[r->tok];
        ws_operand *o = &in->dst[in->ndst];
        if (r->kind == R_REG && !r->neg) {
            o->kind = WS_OK_REG;
            o->reg = r->reg;
            in->ndst++;
        } else if (r->kind == R_PAIR) {
            if (in->op != WS_OP_SETP && in->op != WS_OP_SHFL && in->op != WS_OP_ELECT &&
                !(in->op == WS_OP_MATCH && in->subop == WS_MATCH_ALL))
                return err_at(p, t, "'%s' has no second destination ('a|b' is for setp, shfl.sync, match.all.sync and "
                              "elect.sync)", mn);
            o->kind = WS_OK_REG;
            o->reg = r->reg;
            in->dst[1].kind = WS_OK_REG;
            in->dst[1].reg = r->reg2;
            in->ndst = 2;
            if (in->op != WS_OP_SETP && check_pred(p, r->reg2, t, "the second destination")) return -1;
        } else if (r->kind == R_VEC && (in->op == WS_OP_LD || in->op == WS_OP_LDU || in->op == WS_OP_MOV || in->op == WS_OP_MMA ||
                    in->op == WS_OP_LDMATRIX) &&
                   !r->vimm_mask && (r->nvec > 1 || in->op == WS_OP_MMA || in->op == WS_OP_LDMATRIX)) {
            o->kind = WS_OK_VEC;
            o->nvec = (uint8_t)(in->op == WS_OP_MMA && r->nvec > 4 ? 4 : r->nvec);   /* mma: eight, split by check_mma_operands */
            memcpy(o->vec, r->vec, sizeof o->vec);
            in->ndst++;
        } else if (in->op == WS_OP_MBARRIER && r->kind == R_NAME && tok_eq(t, "_")) {
            o->kind = WS_OK_REG;   /* mbarrier.arrive _, [a]: no state */
            o->reg = WS_NO_REG;
            in->ndst++;
        } else {
            return err_at(p, t, "destination of '%s' must be a register, got '%.*s'", mn, TK(t));
        }
    }
    if (in->op == WS_OP_SETP || in->op == WS_OP_TESTP || (in->op == WS_OP_VOTE && in->subop != WS_VOTE_BALLOT) ||
        (in->op == WS_OP_MBARRIER && (in->subop == WS_MBAR_TEST_WAIT || in->subop == WS_MBAR_TRY_WAIT)))
        for (int j = 0; j < in->ndst; j++)
            if (check_pred(p, in->dst[j].reg, &p->t[ops[0].tok], "the destination")) return -1;
    in->nsrc = 0;
    int nsrc = nops - nd;
    for (int j = 0; j < nsrc; j++) {
        raw *r = &ops[nd + j];
        ws_tok *t = &p->t[r->tok];
        int cls = src_class(in, j, nsrc);
        ws_operand *o = &in->src[in->nsrc];
        if (cls == C_LABEL || cls == C_BRXLIST) {
            if (r->kind != R_NAME || r->off)
                return err_at(p, t, "'%s' expects a label, got '%.*s'", mn, TK(t));
            if (cls == C_LABEL) {
                o->kind = WS_OK_LABEL;
                if (add_fixup(p, ii, FX_LABEL, in->nsrc, r->name_tok, 0)) return -1;
                in->nsrc++;
            } else if (add_fixup(p, ii, FX_BRX, 0, r->name_tok, 0)) {
                return -1;
            }
            continue;
        }
        if (cls == C_ADDR) {
            if (r->kind != R_ADDR)
                return err_at(p, t, "'%s' expects a memory operand '[...]' here, got '%.*s'", mn, TK(t));
            o->kind = WS_OK_ADDR;
            o->reg = r->reg;
            o->imm = r->off;
            if (r->has_name && resolve_symbol(p, in, ii, in->nsrc, r, o)) return -1;
            if (in->space == WS_SP_PARAM && !r->has_name && r->reg == WS_NO_REG)
                return err_at(p, t, "ld.param needs a parameter name, e.g. [%s]", p->k->nparams ? p->k->params[0].name : "param");
            in->nsrc++;
            continue;
        }
        if (r->kind == R_ADDR)
            return err_at(p, t, "memory operand '[...]' is not allowed as operand %d of '%s'", nd + j + 1, mn);
        if (r->kind == R_PAIR) return err_at(p, t, "'a|b' is only allowed as a destination");
        if (r->kind == R_VEC) {
            if (cls != C_VALVEC) return err_at(p, t, "vector operand is not allowed as operand %d of '%s'", nd + j + 1, mn);
            if (r->nvec == 1 && in->op != WS_OP_MMA && in->op != WS_OP_STMATRIX) return err_at(p, t, "vector operand must have 2 or 4 elements, not 1");
            o->kind = WS_OK_VEC;
            o->nvec = (uint8_t)(in->op == WS_OP_MMA && r->nvec > 4 ? 4 : r->nvec);   /* mma: eight, split by check_mma_operands */
            memcpy(o->vec, r->vec, sizeof o->vec);
            if (r->vimm_mask) {   /* constants of a packing mov: their bits in imm at their element's place */
                if (in->op != WS_OP_MOV || in->vec > 1)
                    return err_at(p, t, "integer elements in '{...}' are only supported in the source of a packing mov");
                unsigned eb = (unsigned)ws_type_bits((ws_type)in->type) / r->nvec;
                for (unsigned e = 0; e < r->nvec; e++)
                    if (r->vimm_mask & (1u << e))
                        o->imm |= (int64_t)((r->vimm[e] & ((1ull << eb) - 1)) << (e * eb));
            }
            in->nsrc++;
            continue;
        }
        if (cls == C_PRED && r->kind == R_NUM && p->t[r->numtok].kind == WS_TK_INT) {
            /* PTX ISA 4.5.1 (predicate constants): an integer in a predicate operand is false
             * when zero, true otherwise, as in C; '!' is folded in here */
            o->kind = WS_OK_IMM;
            o->reg = WS_NO_REG;
            o->imm = (p->t[r->numtok].ival != 0) != (r->neg != 0);
            in->nsrc++;
            continue;
        }
        if (cls == C_PRED) {
            if (r->kind != R_REG) return err_at(p, t, "operand %d of '%s' must be a predicate register, got '%.*s'", nd + j + 1, mn, TK(t));
            if (check_pred(p, r->reg, t, "the predicate operand")) return -1;
            o->kind = WS_OK_REG;
            o->reg = r->reg;
            o->neg = r->neg;
            in->nsrc++;
            continue;
        }
        switch (r->kind) {
        case R_REG:
            if (r->neg) return err_at(p, t, "'!' negates only predicate operands of setp/selp/vote/bar.red");
            o->kind = WS_OK_REG;
            o->reg = r->reg;
            break;
        case R_SREG:
            o->kind = WS_OK_SREG;
            o->sreg = r->sreg;
            break;
        case R_NUM:
            if (r->neg) return err_at(p, t, "'!' negates only predicate operands of setp/selp/vote/bar.red");
            o->kind = WS_OK_IMM;
            if (num_bits(p, &p->t[r->numtok], r->numneg, ws_ptx_src_type(in, in->nsrc), &o->imm)) return -1;
            if (ws_ptx_src_type(in, in->nsrc) == WS_TY_PRED) o->imm = o->imm != 0;   /* PTX ISA 4.5.1 */
            break;
        case R_NAME:
            o->kind = WS_OK_IMM;
            if (resolve_symbol(p, in, ii, in->nsrc, r, o)) return -1;
            break;
        default:
            return err_at(p, t, "unexpected operand '%.*s'", TK(t));
        }
        in->nsrc++;
    }
    /* vector widths */
    if (in->op == WS_OP_MOV && in->vec > 1) {   /* mov.v2/.v4: element-wise copy (PTX ISA 6.4.2.2) */
        if (in->dst[0].kind != WS_OK_VEC || in->src[0].kind != WS_OK_VEC || in->dst[0].nvec != in->vec ||
            in->src[0].nvec != in->vec)
            return err_at(p, optok, "'mov.v%d' needs vector operands of %d elements on both sides", in->vec, in->vec);
    }
    if (in->op == WS_OP_LD || in->op == WS_OP_LDU || in->op == WS_OP_ST) {
        ws_operand *v = in->op == WS_OP_ST ? &in->src[1] : &in->dst[0];
        int isvec = v->kind == WS_OK_VEC;
        if (in->vec > 1 && (!isvec || v->nvec != in->vec))
            return err_at(p, optok, "'%s.v%d' needs a vector operand of %d registers", mn, in->vec, in->vec);
        if (in->vec <= 1 && isvec)
            return err_at(p, optok, "vector operand on '%s' without .v2/.v4", mn);
    }
    return check_wide_vector(p, in, optok);
}


/* opcode lookup through isa.def (never a second list of mnemonics) */
static int lookup_opcode(P *p, uint32_t *ntok)
{
    ws_tok *t = cur(p);
    ws_tok *d = peek(p, 1);
    /* dotted mnemonics first ("bar.warp") */
    for (int op = 0; op < WS_OP_BADD; op++) {
        const char *m = ws_opcode_name(op);
        const char *dot = strchr(m, '.');
        if (!dot) continue;
        size_t pre = (size_t)(dot - m);
        if (t->n == pre && !memcmp(t->s, m, pre) && d->kind == WS_TK_DOT && tok_eq(d, dot)) { *ntok = 2; return op; }
    }
    for (int op = 0; op < WS_OP_BADD; op++) {
        const char *m = ws_opcode_name(op);
        if (!strchr(m, '.') && tok_eq(t, m)) { *ntok = 1; return op; }
    }
    return -1;
}

/* `(a, b ...)` of a call: the caller's .param variables (nvcc's ABI), or registers (scalar or a
 * whole .v2/.v4 vector register; not a vector's element %v.x, which ptxas refuses too) and, for
 * arguments, immediates (the .reg parameters of PTX ISA 7.1 ".func", 9.7.12.2 "call") */
static int call_list(P *p, uint32_t **vars, uint32_t *n, size_t *cap, const char *what, int imm_ok)
{
    if (expect(p, '(', what)) return -1;
    while (!is_punct(cur(p), ')')) {
        ws_tok *a = cur(p);
        int64_t v;
        uint32_t reg, item, vf, ve;
        int neg = imm_ok && is_punct(a, '-') && (peek(p, 1)->kind == WS_TK_INT || peek(p, 1)->kind == WS_TK_FLOAT);
        if (neg) { adv(p); a = cur(p); }
        int vn = vreg_ref(p, a, &vf, &ve);
        if (vn < 0) return -1;
        if (imm_ok && (a->kind == WS_TK_INT || a->kind == WS_TK_FLOAT))
            item = CALL_IMM | (neg ? CALL_NEG : 0) | (uint32_t)(a - p->t);
        else if (a->kind == WS_TK_IDENT && lookup_reg(p, a, &reg))
            item = CALL_REG | reg;
        else if (vn && ve != UINT32_MAX)   /* as ptxas: "Parsing error near '.x'" */
            return err_at(p, a, "%s '%.*s%.*s': a vector's element cannot be a call operand (pass the whole vector "
                          "register or copy the element to a scalar register)", what, TK(a), TK(a + 1));
        else if (vn)
            item = CALL_REG | CALL_VEC(vn) | vf;
        else if (a->kind == WS_TK_IDENT && smap_get(&p->syms, a->s, a->n, &v) && (p->vx[v].flags & VF_PARAM))
            item = (uint32_t)v;
        else
            return err_at(p, a, "%s '%.*s' must be a .param variable declared before the call or a register%s", what,
                          TK(a), imm_ok ? " or an immediate" : "");
        if ((item & CALL_IMM) && (uint32_t)(a - p->t) > CALL_VAL) return err_at(p, a, "PTX file too large");
        if ((item & CALL_REG) && (item & CALL_RNUM) + (CALL_NVEC(item) ? CALL_NVEC(item) : 1) > CALL_RNUM)
            return err_at(p, a, "too many registers (more than 2^20) to pass '%.*s' to a call", TK(a));
        GROW(*vars, *n, *cap);
        (*vars)[(*n)++] = item;
        adv(p);
        if (is_punct(cur(p), ',')) adv(p);
        else if (!is_punct(cur(p), ')')) return err_at(p, cur(p), "expected ',' or ')' in the call, got '%.*s'", TK(cur(p)));
    }
    adv(p);
    return 0;
}

/* call[.uni] [(ret),] fname [, (args)];  a placeholder instruction (OP_CALL) that expand()
 * replaces by a copy of the callee */
static int parse_call(P *p, ws_tok *optok)
{
    adv(p);
    while (cur(p)->kind == WS_TK_DOT && cur(p)->adj) {
        if (!is_dir(cur(p), ".uni")) return err_at(p, cur(p), "modifier '%.*s' is not supported on 'call' (accepted: .uni)", TK(cur(p)));
        adv(p);
    }
    callsite c = {(uint32_t)(optok - p->t), 0, 0, 0, NULL};
    uint32_t *rets = NULL, *args = NULL, nr = 0, na = 0;
    size_t capr = 0, capa = 0;
    int rc = -1;
    if (is_punct(cur(p), '(')) {
        if (call_list(p, &rets, &nr, &capr, "return value", 0)) goto out;
        if (expect(p, ',', "after the call's return value")) goto out;
    }
    ws_tok *ft = cur(p);
    uint32_t reg;
    if (ft->kind != WS_TK_IDENT || ft->s[0] == '%' || lookup_reg(p, ft, &reg)) {
        err_at(p, ft, "indirect calls (through a register, '%.*s') are not supported (direct calls to functions "
               "defined in the module are inlined)", TK(ft));
        goto out;
    }
    int64_t fi;
    if (!smap_get(&p->funcs, ft->s, ft->n, &fi)) { err_at(p, ft, "call to undefined function '%.*s'", TK(ft)); goto out; }
    if (!p->fns[fi].def_tok) {
        err_at(p, ft, "call to '%.*s', which is declared but not defined in this module (.extern .func): only "
               "functions defined in the module are inlined (printf/vprintf and other external functions are "
               "not supported)", TK(ft));
        goto out;
    }
    adv(p);
    if (is_punct(cur(p), ',')) {
        adv(p);
        if (call_list(p, &args, &na, &capa, "argument", 1)) goto out;
        if (is_punct(cur(p), ',')) {
            err_at(p, cur(p), "call with a prototype or target list (indirect call) is not supported");
            goto out;
        }
    }
    if (expect(p, ';', "after the call")) goto out;
    c.func = (uint32_t)fi;
    c.nret = nr;
    c.nargs = na;
    c.vars = malloc((nr + na + 1) * sizeof *c.vars);
    if (!c.vars) { oom(p); goto out; }
    if (nr) memcpy(c.vars, rets, nr * sizeof *rets);
    if (na) memcpy(c.vars + nr, args, na * sizeof *args);
    if (p->ncs >= p->cap_cs) {
        size_t nc = p->cap_cs ? p->cap_cs * 2 : 16;
        callsite *n = realloc(p->cs, nc * sizeof *n);
        if (!n) { free(c.vars); oom(p); goto out; }
        p->cs = n;
        p->cap_cs = nc;
    }
    p->cs[p->ncs] = c;
    ws_kernel *k = p->k;
    if (k->ninsts >= p->cap_insts) {
        size_t nc = p->cap_insts ? p->cap_insts * 2 : 16;
        ws_inst *n = realloc(k->insts, nc * sizeof *n);
        if (!n) { free(c.vars); oom(p); goto out; }
        k->insts = n;
        p->cap_insts = nc;
    }
    ws_inst *in = &k->insts[k->ninsts++];
    memset(in, 0, sizeof *in);
    in->op = OP_CALL;
    in->target = (uint32_t)p->ncs++;
    in->guard = WS_NO_REG;
    in->line = optok->line;
    in->col = optok->col;
    rc = 0;
out:
    free(rets);
    free(args);
    return rc;
}

static int is_u32_s32(unsigned t) { return t == WS_TY_U32 || t == WS_TY_S32; }

/* the type and modifier rules of dp4a dp2a fns bmsk szext cvt.pack lop3 and the SIMD video
 * instructions (PTX ISA 9.7.1.23-24, 9.7.1.26-27 (dp4a, dp2a), 9.7.1.22 (fns), 9.7.8.6 (lop3),
 * 9.7.9.22 (cvt.pack), 9.7.16.2 (vop2/vop4)) */
static int check_new_forms(P *p, ws_inst *in, const ws_tok *optok)
{
    const char *mn = ws_opcode_name(in->op);
    switch (in->op) {
    case WS_OP_DP4A: case WS_OP_DP2A:
        if (!is_u32_s32(in->type) || !is_u32_s32(in->type2))
            return err_at(p, optok, "'%s' takes .atype and .btype from .u32/.s32", mn);
        if (in->op == WS_OP_DP2A && !!(in->mods & WS_MOD_LO) == !!(in->mods & WS_MOD_HI))
            return err_at(p, optok, "'dp2a' needs one of .lo or .hi");
        return 0;
    case WS_OP_FNS: case WS_OP_LOP3:
        if (in->type != WS_TY_B32) return err_at(p, optok, "'%s' takes .b32", mn);
        return 0;
    case WS_OP_BMSK: case WS_OP_SZEXT:
        if (!in->subop) return err_at(p, optok, "'%s' needs .clamp or .wrap", mn);
        if (in->op == WS_OP_BMSK ? in->type != WS_TY_B32 : !is_u32_s32(in->type))
            return err_at(p, optok, "'%s' takes %s", mn, in->op == WS_OP_BMSK ? ".b32" : ".u32 or .s32");
        return 0;
    case WS_OP_CVT_PACK:
        if (!(in->mods & WS_MOD_SAT)) return err_at(p, optok, "'cvt.pack' needs .sat");
        if (in->type != WS_TY_S32 || (in->subop < WS_PACK_U16 && in->type2 != WS_TY_B32))
            return err_at(p, optok, "'cvt.pack.sat' takes .s32 sources%s", in->subop < WS_PACK_U16 ? " and a .b32 c operand" : "");
        return 0;
    case WS_OP_VSHL: case WS_OP_VSHR:
        if (!is_u32_s32(in->type) || !is_u32_s32(in->type2))
            return err_at(p, optok, "'%s' takes .dtype and .atype from .u32/.s32", mn);
        if (!in->subop) return err_at(p, optok, "'%s' needs .clamp or .wrap", mn);
        return 0;
    default:
        if (!is_simd_video(in->op)) return 0;
        if (!is_u32_s32(in->type) || !is_u32_s32(in->type2) || !is_u32_s32(in->subop))
            return err_at(p, optok, "'%s' takes .dtype .atype .btype from .u32/.s32", mn);
        if ((in->mods & WS_MOD_SAT) && (in->mods & WS_MOD_ADD))
            return err_at(p, optok, "'%s': .sat cannot be used with the secondary accumulate .add", mn);
        return 0;
    }
}

/* vshl/vshr d{.dsel}, a{.asel}, b{.bsel}{, c} (PTX ISA 9.7.16.1): the selectors into cmp and
 * boolop (ptx.h); c goes with a secondary operation or a merge (.dsel), never both. Any other
 * instruction refuses a selector. */
static int video_selectors(P *p, ws_inst *in, const raw *ops, int nops, const ws_tok *optok)
{
    const char *mn = ws_opcode_name(in->op);
    for (int j = 0; j < nops; j++)
        if (ops[j].sel && (!is_vshift(in->op) || j > 2))
            return err_at(p, &p->t[ops[j].seltok], "operand selector '%.*s' is not allowed here (only on the a, b and d "
                          "operands of vshl/vshr)", TK(&p->t[ops[j].seltok]));
    if (!is_vshift(in->op)) return 0;
    unsigned dsel = ops[0].sel, vop2 = in->boolop;
    in->cmp = (uint8_t)(ops[1].sel | ops[2].sel << 4);
    in->boolop = (uint8_t)(vop2 | dsel << 4);
    if (dsel && vop2) return err_at(p, optok, "'%s': a destination selector (data merge) and a secondary operation "
                                    "exclude each other", mn);
    if ((dsel || vop2) != (in->nsrc == 3))
        return err_at(p, optok, "'%s' takes a c operand exactly with a secondary operation (.add .min .max) or a "
                      "destination selector (d.b0 .. d.h1)", mn);
    return 0;
}

/* the instructions and modifiers the half types take (PTX ISA 9.7.4, 9.7.9.21 cvt,
 * 9.7.13.5 atom); everything else on a half type is refused here, at load */
static int check_half_forms(P *p, ws_inst *in, const ws_tok *optok)
{
    const char *mn = ws_opcode_name(in->op);
    ws_type t = (ws_type)in->type, t2 = (ws_type)in->type2;
    int h = ws_type_is_half(t), h2 = ws_type_is_half(t2);
    int pair = t == WS_TY_F16X2 || t == WS_TY_BF16X2;
    if (in->op == WS_OP_CVT && in->subop == WS_CVT_FP8) return 0;   /* checked by parse_cvt_fp8 */
    if ((in->mods & WS_MOD_RELU) && !h)
        return err_at(p, optok, "'.relu' is for half types only (fma min max cvt .f16 .bf16 .f16x2 .bf16x2)");
    if ((in->mods & WS_MOD_NAN) && !h)
        return err_at(p, optok, "'%s.NaN' is supported on half types only", mn);
    if ((!h && !h2) || in->op == WS_OP_MMA) return 0;   /* mma: check_mma_form */
    switch (in->op) {
    case WS_OP_ADD: case WS_OP_SUB: case WS_OP_MUL: case WS_OP_FMA:
        if (in->rnd && in->rnd != WS_RND_RN) return err_at(p, optok, "'%s.%s' takes only .rn", mn, ws_type_name(t));
        if (in->mods & (WS_MOD_CC | WS_MOD_NOFTZ | WS_MOD_HI | WS_MOD_LO | WS_MOD_WIDE))
            return err_at(p, optok, "'%s.%s' takes .rn .ftz .sat (fma also .relu)", mn, ws_type_name(t));
        return 0;
    case WS_OP_NEG: case WS_OP_ABS: case WS_OP_MIN: case WS_OP_MAX: case WS_OP_SETP: case WS_OP_MOV:
    case WS_OP_LD: case WS_OP_LDU: case WS_OP_ST: case WS_OP_SELP:
        return 0;
    case WS_OP_EX2: case WS_OP_TANH:
        if (!(in->mods & WS_MOD_APPROX)) return err_at(p, optok, "'%s.%s' needs .approx", mn, ws_type_name(t));
        return 0;
    case WS_OP_SET:
        if (pair ? ws_type_is_half(t2) : 1) return 0;
        break;
    case WS_OP_CVT:
        if (ws_type_is_half(t2) && (t2 == WS_TY_F16X2 || t2 == WS_TY_BF16X2))
            return err_at(p, optok, "'cvt' from .%s is not supported (unpack with mov.b32 {lo, hi})", ws_type_name(t2));
        if (pair && t2 != WS_TY_F32)
            return err_at(p, optok, "'cvt' into .%s takes two .f32 sources (cvt.rn.%s.f32 d, a, b)", ws_type_name(t),
                          ws_type_name(t));
        return 0;
    case WS_OP_ATOM: case WS_OP_RED:
        if (in->subop == WS_ATOM_ADD && (in->mods & WS_MOD_NOFTZ)) return 0;
        if (in->subop == WS_ATOM_EXCH || in->subop == WS_ATOM_CAS) break;
        return err_at(p, optok, "'%s' on .%s supports .add.noftz only", mn, ws_type_name(t));
    default:
        break;
    }
    return err_at(p, optok, "'%s' is not supported on .%s (half precision: add sub mul fma neg abs min max setp set "
                  "selp mov ld st cvt atom.add.noftz ex2.approx tanh.approx)", mn, ws_type_name(h ? t : t2));
}

/* The FP8 conversions (PTX ISA 9.7.9.21): cvt.rn.satfinite{.relu}.f8x2type.{f32,f16x2,bf16x2} and
 * cvt.rn{.relu}.f16x2.f8x2type, f8x2type = .e4m3x2/.e5m2x2 (src/exec/exec_fp8.c). When the
 * modifiers of a cvt name an f8x2 type, reads them all (0 if they do not: the other forms). */
static int parse_cvt_fp8(P *p, ws_inst *in, modstate *ms)
{
    static const char forms[] = "supported: cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32,f16x2,bf16x2}, "
        "cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}";
    uint32_t j = p->i, first = p->i;
    int fp8 = 0;
    for (; j < p->nt && p->t[j].kind == WS_TK_DOT && p->t[j].adj; j++)
        fp8 |= tok_eq(&p->t[j], ".e4m3x2") || tok_eq(&p->t[j], ".e5m2x2");
    if (!fp8) return 0;
    for (; p->i < j; adv(p)) {
        const ws_tok *t = cur(p);
        ws_type ty = ws_operand_type_from_name(t->s, t->n);
        if (tok_eq(t, ".rn")) in->rnd = WS_RND_RN;
        else if (tok_eq(t, ".satfinite")) in->mods |= WS_MOD_SAT;
        else if (tok_eq(t, ".relu")) in->mods |= WS_MOD_RELU;
        else if (ty != WS_TY_NONE && ms->ntypes < 2) {
            ms->type_tok[ms->ntypes] = p->i;
            ms->types[ms->ntypes++] = ty;
        } else {
            return err_at(p, t, "modifier '%.*s' is not supported on an FP8 'cvt' (%s)", TK(t), forms);
        }
    }
    const ws_type d = ms->types[0], a = ms->types[1];
    const int to8 = (d == WS_TY_E4M3X2 || d == WS_TY_E5M2X2) && (a == WS_TY_F32 || a == WS_TY_F16X2 || a == WS_TY_BF16X2);
    const int from8 = d == WS_TY_F16X2 && (a == WS_TY_E4M3X2 || a == WS_TY_E5M2X2);
    if (ms->ntypes != 2 || (!to8 && !from8))
        return err_at(p, &p->t[first], "this FP8 'cvt' form is not supported (%s)", forms);
    if (in->rnd != WS_RND_RN || (to8 && !(in->mods & WS_MOD_SAT)) || (from8 && (in->mods & WS_MOD_SAT)))
        return err_at(p, &p->t[first], "'cvt' %s FP8 needs %s (%s)", to8 ? "into" : "out of",
                      to8 ? ".rn.satfinite" : ".rn and takes no .satfinite", forms);
    in->subop = WS_CVT_FP8;
    return 0;
}

/* the mma forms the tensor unit runs (PTX ISA 9.7.14.5.14 mma, the fragments of 9.7.14.5.7-10):
 * sets in->subop to the form and in->cmp/boolop to .btype/.ctype */
static int check_mma_form(P *p, ws_inst *in, const modstate *ms, const ws_tok *optok)
{
    static const char *const supported = "supported: mma.sync.aligned.m16n8k16/.m16n8k8.row.col with .f16 "
        "(.f16/.f32 accumulators) or .bf16 (.f32), .m16n8k8 .tf32 -> .f32, .m16n8k32/.m16n8k16 .s8/.u8 -> .s32 "
        "(.satfinite), .m16n8k32/.m16n8k16 .e4m3/.e5m2 (.f16.f16 or .f32.f32), .m8n8k16 .s8/.u8 and .m8n8k32 "
        ".s4/.u4 -> .s32 (.satfinite), .m8n8k4 .f64, .m8n8k4.{row,col}.{row,col} .f16 (.f16/.f32 accumulators)";
    if (!ms->sync || !(in->mods & WS_MOD_ALIGNED)) return err_at(p, optok, "'mma' needs .sync.aligned");
    if (!ms->shape) return err_at(p, optok, "'mma' needs a shape (%s)", supported);
    ws_type d = ms->types[0], a = ms->types[1], b = ms->types[2], c = ms->types[3];
    const int f16acc = (d == WS_TY_F32 || d == WS_TY_F16) && (c == WS_TY_F32 || c == WS_TY_F16);
    /* m8n8k4 .f16: .f16.f16, .f32.f32 or .f32 from .f16 (ptxas: ".dtype must be '.f32' when .ctype is '.f32'") */
    const int volta = ms->shape == 4 && a == WS_TY_F16 && b == WS_TY_F16 && f16acc && !ms->tf32 &&
                      !(d == WS_TY_F16 && c == WS_TY_F32);
    if (ms->nlayout != 2 || (!volta && (ms->layout[0] != 'r' || ms->layout[1] != 'c')))
        return err_at(p, optok, "'mma' takes .row.col (any .alayout.blayout only in .m8n8k4 .f16) (%s)", supported);
    int tfa = (ms->tf32 >> 1) & 1, tfb = (ms->tf32 >> 2) & 1;
    const char *shape = mma_shapes[ms->shape - 1];
    int form = 0;
    int half = (a == WS_TY_F16 || a == WS_TY_BF16) && a == b;
    int acc_ok = half && (a == WS_TY_F16 ? ((d == WS_TY_F32 || d == WS_TY_F16) && (c == WS_TY_F32 || c == WS_TY_F16))
                                         : d == WS_TY_F32 && c == WS_TY_F32);
    int i8 = (a == WS_TY_S8 || a == WS_TY_U8) && (b == WS_TY_S8 || b == WS_TY_U8) && d == WS_TY_S32 && c == WS_TY_S32;
    int i4 = (a == WS_TY_S4 || a == WS_TY_U4) && (b == WS_TY_S4 || b == WS_TY_U4) && d == WS_TY_S32 && c == WS_TY_S32;
    /* FP8: .f16.f16 or .f32.f32 accumulators (ptxas: "Unexpected instruction types" for a mix) */
    int f8 = (a == WS_TY_E4M3 || a == WS_TY_E5M2) && (b == WS_TY_E4M3 || b == WS_TY_E5M2) && f16acc && d == c;
    if (ms->tf32 & 1 || ms->tf32 & 8) form = 0;
    else if (volta) form = WS_MMA_M8N8K4_F16;
    else if (ms->shape == 5 && i8) form = WS_MMA_M8N8K16_I8;
    else if (ms->shape == 6 && i4) form = WS_MMA_M8N8K32_I4;
    else if (ms->shape == 3 && f8) form = WS_MMA_M16N8K32_F8;
    else if (ms->shape == 1 && f8) form = WS_MMA_M16N8K16_F8;
    else if (ms->shape == 1 && acc_ok) form = WS_MMA_M16N8K16_F16;
    else if (ms->shape == 2 && acc_ok) form = WS_MMA_M16N8K8_F16;
    else if (ms->shape == 2 && tfa && tfb && d == WS_TY_F32 && c == WS_TY_F32) form = WS_MMA_M16N8K8_TF32;
    else if (ms->shape == 3 && i8) form = WS_MMA_M16N8K32_I8;
    else if (ms->shape == 1 && i8) form = WS_MMA_M16N8K16_I8;
    else if (ms->shape == 4 && a == WS_TY_F64 && b == WS_TY_F64 && c == WS_TY_F64 && d == WS_TY_F64) form = WS_MMA_M8N8K4_F64;
    if (!form)
        return err_at(p, &p->t[ms->type_tok[0]], "'mma.%s' with .%s.%s.%s.%s is not supported (%s)", shape,
                      ms->tf32 & 1 ? "tf32" : ws_type_name(d), tfa ? "tf32" : ws_type_name(a),
                      tfb ? "tf32" : ws_type_name(b), ms->tf32 & 8 ? "tf32" : ws_type_name(c), supported);
    if ((in->mods & WS_MOD_SAT) && !i8 && !i4) return err_at(p, optok, "'.satfinite' is for the integer mma forms");
    in->subop = (uint8_t)form;
    if (volta) in->rnd = (uint8_t)((ms->layout[0] == 'c' ? WS_MMA_A_COL : 0) | (ms->layout[1] == 'r' ? WS_MMA_B_ROW : 0));
    in->cmp = (uint8_t)b;
    in->boolop = (uint8_t)c;
    return 0;
}

/* The fragments' register counts per lane (PTX ISA 9.7.14.5.7-10): A and B by form; C and D
 * four .f32/.s32 registers (m8n8k4 .f64, m8n8k16, m8n8k32: two), or two .f16x2 for an .f16
 * accumulator; m8n8k4 .f16: eight .f32 or four .f16x2. An eight-register C or D is split into
 * two operands of four (src[2], src[3]; dst[0], dst[1]). */
static int check_mma_operands(P *p, ws_inst *in, const raw *ops)
{
    static const uint8_t ra[WS_NMMA] = {0, 4, 2, 4, 4, 2, 1, 1, 1, 2, 4, 2}, rb[WS_NMMA] = {0, 2, 1, 2, 2, 1, 1, 1, 1, 2, 2, 1};
    const unsigned f = in->subop;
    int acc = f == WS_MMA_M8N8K4_F64 || f == WS_MMA_M8N8K16_I8 || f == WS_MMA_M8N8K32_I4 ? 2 : f == WS_MMA_M8N8K4_F16 ? 8 : 4;
    const int want[4] = {in->type == WS_TY_F16 ? acc / 2 : acc, ra[f], rb[f], in->boolop == WS_TY_F16 ? acc / 2 : acc};
    static const char *const what[4] = {"D", "A", "B", "C"};
    for (int j = 0; j < 4; j++) {
        if (ops[j].kind != R_VEC || ops[j].nvec != want[j])
            return err_at(p, &p->t[ops[j].tok], "the %s fragment of this 'mma' form is {%d register%s}", what[j], want[j],
                          want[j] == 1 ? "" : "s");
        for (int e = 0; e < ops[j].nvec; e++)
            if (ops[j].vec[e] == WS_NO_REG || ops[j].vimm_mask)
                return err_at(p, &p->t[ops[j].tok], "'mma' fragments take registers only");
    }
    for (int j = 0; j < 4; j += 3) {
        if (want[j] != 8) continue;
        ws_operand *lo = j ? &in->src[2] : &in->dst[0], *hi = j ? &in->src[3] : &in->dst[1];
        *hi = *lo;
        hi->nvec = lo->nvec = 4;
        memset(hi->vec, 0, sizeof hi->vec);
        memcpy(hi->vec, ops[j].vec + 4, 4 * sizeof hi->vec[0]);
        if (j) in->nsrc = 4;
        else in->ndst = 2;
    }
    return 0;
}

/* ---- wmma (PTX ISA 9.7.14.4) ------------------------------------------------------
 * wmma.load.{a,b,c}.sync.aligned.{row,col}.shape{.global,.shared{::cta}}.type r, [p]{, stride}
 * wmma.store.d.sync.aligned.{row,col}.shape{.ss}.type [p], r{, stride}
 * wmma.mma.sync.aligned.{row,col}.{row,col}.shape.dtype.ctype d, a, b, c          (.f16 A/B)
 * wmma.mma.sync.aligned.{row,col}.{row,col}.shape.dtype.atype.btype.ctype{.satfinite,.rn} d, a, b, c
 * A fragment of eight registers does not fit one ws_inst (four per vector), so the loader
 * emits the parts: a load or store per four registers (WS_OP_WMMA_LOAD/_STORE, subop
 * part), and wmma.mma as the one or two mma.sync it is in the model's fragment layout
 * (ws_wmma_geometry; src/exec/exec_tensor.c, ws_wmma_pos). */
static const char wmma_supported[] = "supported: .m16n16k16 .m32n8k16 .m8n32k16 with .f16 (.f16/.f32 accumulators), "
    ".bf16 (.f32) or .s8/.u8 (.s32, .satfinite); .m16n16k8 .tf32 (.f32); .m8n8k4 .f64 (.rn); .sync.aligned.{row,col}, "
    ".global, .shared{::cta} or generic addresses";

typedef struct wmma_mods {
    int kind;          /* 'l' load, 's' store, 'm' mma */
    int matrix;        /* WS_WMMA_A/B/C (store: C) */
    int sync, aligned, shape, nlayout, col;   /* shape: WS_WMMA_* + 1 */
    int space, satfinite, rn;
    ws_type types[4];  /* .tf32: WS_TY_B32 */
    int ntypes;
} wmma_mods;

static int wmma_mod(P *p, wmma_mods *w, const ws_tok *t)
{
    static const char *const shapes[WS_NWMMA_SHAPES] = {".m16n16k16", ".m32n8k16", ".m8n32k16", ".m16n16k8", ".m8n8k4"};
    const char *s = t->s + 1;
    size_t n = t->n - 1;
    if (!w->kind) {
        if (tok_eq(t, ".load")) w->kind = 'l';
        else if (tok_eq(t, ".store")) w->kind = 's';
        else if (tok_eq(t, ".mma")) w->kind = 'm';
        else return err_at(p, t, "'wmma%.*s' is not supported (%s)", TK(t), wmma_supported);
        return 0;
    }
    if (w->kind != 'm' && w->matrix < 0) {
        if (w->kind == 'l' && n == 1 && (s[0] == 'a' || s[0] == 'b' || s[0] == 'c')) w->matrix = s[0] - 'a';
        else if (w->kind == 's' && n == 1 && s[0] == 'd') w->matrix = WS_WMMA_C;
        else return err_at(p, t, "'wmma.%s' needs %s here, got '%.*s'", w->kind == 'l' ? "load" : "store",
                           w->kind == 'l' ? ".a, .b or .c" : ".d", TK(t));
        return 0;
    }
    if (tok_eq(t, ".sync")) { w->sync = 1; return 0; }
    if (tok_eq(t, ".aligned")) { w->aligned = 1; return 0; }
    if (tok_eq(t, ".row") || tok_eq(t, ".col")) {
        if (w->nlayout >= (w->kind == 'm' ? 2 : 1)) return err_at(p, t, "too many layouts on 'wmma'");
        if (w->kind != 'm') w->col = s[0] == 'c';
        w->nlayout++;
        return 0;
    }
    for (int i = 0; i < WS_NWMMA_SHAPES; i++)
        if (tok_eq(t, shapes[i])) { w->shape = i + 1; return 0; }
    if (n >= 6 && s[0] == 'm' && s[1] >= '1' && s[1] <= '9')   /* .m8n8k32 (.s4/.u4), .m8n8k128 (.b1) ... */
        return err_at(p, t, "wmma shape '%.*s' is not supported (%s)", TK(t), wmma_supported);
    if (w->kind != 'm' && (tok_eq(t, ".global") || tok_eq(t, ".shared") || tok_eq(t, ".shared::cta"))) {
        w->space = s[0] == 'g' ? WS_SP_GLOBAL : WS_SP_SHARED;
        return 0;
    }
    if (w->kind == 'm' && tok_eq(t, ".satfinite")) { w->satfinite = 1; return 0; }
    if (w->kind == 'm' && tok_eq(t, ".rn")) { w->rn = 1; return 0; }
    ws_type ty = tok_eq(t, ".tf32") ? WS_TY_B32 : ws_type_from_name(s, n);
    if (ty != WS_TY_F16 && ty != WS_TY_F32 && ty != WS_TY_BF16 && ty != WS_TY_B32 && ty != WS_TY_S8 &&
        ty != WS_TY_U8 && ty != WS_TY_S32 && ty != WS_TY_F64)
        return err_at(p, t, "'%.*s' is not supported on 'wmma' (%s)", TK(t), wmma_supported);
    if (w->ntypes >= (w->kind == 'm' ? 4 : 1))
        return err_at(p, t, "too many types on 'wmma' (%s)", wmma_supported);
    w->types[w->ntypes++] = ty;
    return 0;
}

/* the accumulator types a shape takes: .f16/.f32/.s32 with k16 shapes, .f32 with m16n16k8, .f64 with m8n8k4 */
static int wmma_acc_ok(int shape, ws_type t)
{
    if (shape == WS_WMMA_M16N16K8) return t == WS_TY_F32;
    if (shape == WS_WMMA_M8N8K4) return t == WS_TY_F64;
    return t == WS_TY_F16 || t == WS_TY_F32 || t == WS_TY_S32;
}

/* registers of a C/D fragment: 4 .f16x2, 8 .f32/.s32, 2 .f64 (m8n8k4) */
static int wmma_acc_regs(ws_type t) { return t == WS_TY_F16 ? 4 : t == WS_TY_F64 ? 2 : 8; }

/* a fragment operand of want registers */
static int wmma_frag(P *p, const raw *r, int want, const char *what)
{
    const ws_tok *t = &p->t[r->tok];
    if (r->kind != R_VEC || r->nvec != want || r->vimm_mask)
        return err_at(p, t, "the %s fragment of this 'wmma' form is {%d register%s}", what, want, want == 1 ? "" : "s");
    for (int e = 0; e < want; e++)
        if (r->vec[e] == WS_NO_REG) return err_at(p, t, "'wmma' fragments take registers only");
    return 0;
}

static int wmma_inst(P *p, const ws_tok *first, uint32_t guard, int gneg, int op, ws_inst **out)
{
    ws_kernel *k = p->k;
    GROW(k->insts, k->ninsts, p->cap_insts);
    ws_inst *in = *out = &k->insts[k->ninsts++];
    memset(in, 0, sizeof *in);
    in->op = (uint16_t)op;
    in->guard = guard;
    in->guard_neg = (uint8_t)gneg;
    in->line = first->line;
    in->col = first->col;
    in->vec = 1;
    in->ipdom = WS_PC_EXIT;
    in->mods = WS_MOD_ALIGNED;
    return 0;
}

static void wmma_vec(ws_operand *o, const raw *r, int from, int n)
{
    o->kind = WS_OK_VEC;
    o->nvec = (uint8_t)n;
    for (int e = 0; e < n; e++) o->vec[e] = r->vec[from + e];
}

static int vec_has(const raw *r, int from, int n, uint32_t reg)
{
    for (int e = 0; e < n; e++) if (r->vec[from + e] == reg) return 1;
    return 0;
}

/* One mma.sync of a wmma.mma (the model's fragment layout, src/exec/exec_tensor.c): the A and
 * B registers of half h. m16n16k16/k8: A 0 .. na-1 x B h*nb ..; m32n8k16: A h*na .. x B 0 ..;
 * m8n32k16 (transposed): the wmma B h*na .. as A x the wmma A 0 .. as B; m8n8k4: one mma.
 * C and D: block h (nc, nd registers each). */
typedef struct mma_half { const raw *a, *b; int a0, b0; } mma_half;

static mma_half wmma_half(int shape, const ws_wmma_geom *g, const raw *ops, int h)
{
    if (shape == WS_WMMA_M32N8K16) return (mma_half){&ops[1], &ops[2], h * g->mma_a, 0};
    if (shape == WS_WMMA_M8N32K16) return (mma_half){&ops[2], &ops[1], h * g->mma_a, 0};
    return (mma_half){&ops[1], &ops[2], 0, h * g->mma_b};
}

/* the wmma.mma type combination: dtype/ctype with .f16 A/B (two types) or four types */
static int wmma_mma_types(P *p, const ws_tok *optok, const wmma_mods *w, ws_type *d, ws_type *a, ws_type *b, ws_type *c)
{
    const int shape = w->shape - 1;
    if (w->ntypes == 2) { *d = w->types[0]; *c = w->types[1]; *a = *b = WS_TY_F16; }
    else { *d = w->types[0]; *a = w->types[1]; *b = w->types[2]; *c = w->types[3]; }
    const ws_wmma_geom g = ws_wmma_geometry((unsigned)shape, *a);
    const int i8 = *a == WS_TY_S8 || *a == WS_TY_U8;
    int ok = g.form && *a == *b;
    if (*a == WS_TY_F16) ok = ok && w->ntypes == 2 && (*d == WS_TY_F16 || *d == WS_TY_F32) && (*c == WS_TY_F16 || *c == WS_TY_F32);
    else if (i8) ok = ok && *d == WS_TY_S32 && *c == WS_TY_S32;
    else if (*a == WS_TY_F64) ok = ok && *d == WS_TY_F64 && *c == WS_TY_F64;
    else ok = ok && *d == WS_TY_F32 && *c == WS_TY_F32;   /* .bf16, .tf32 */
    if (!ok)
        return err_at(p, optok, "this 'wmma.mma' type combination is not supported (%s)", wmma_supported);
    if (w->satfinite && !i8) return err_at(p, optok, "'.satfinite' on 'wmma.mma' is supported for .s8/.u8 only (%s)",
                                          wmma_supported);
    if (w->rn && *a != WS_TY_F64) return err_at(p, optok, "'.rn' on 'wmma.mma' is for .f64 (%s)", wmma_supported);
    return 0;
}

static int wmma_emit_mma(P *p, const ws_tok *first, const ws_tok *optok, uint32_t guard, int gneg, const wmma_mods *w,
                         const raw *ops)
{
    ws_type dt, at, bt, ct;
    if (wmma_mma_types(p, optok, w, &dt, &at, &bt, &ct)) return -1;
    const int shape = w->shape - 1;
    const ws_wmma_geom g = ws_wmma_geometry((unsigned)shape, at);
    const int nd = wmma_acc_regs(dt), nc = wmma_acc_regs(ct), hd = nd / g.nmma, hc = nc / g.nmma;
    if (wmma_frag(p, &ops[0], nd, "D") || wmma_frag(p, &ops[1], g.frag_a, "A") || wmma_frag(p, &ops[2], g.frag_b, "B") ||
        wmma_frag(p, &ops[3], nc, "C"))
        return -1;
    /* the first half writes D's first registers before the second reads its A, B and C */
    if (g.nmma == 2) {
        const mma_half second = wmma_half(shape, &g, ops, 1);
        for (int e = 0; e < hd; e++) {
            uint32_t d = ops[0].vec[e];
            if (vec_has(second.a, second.a0, g.mma_a, d) || vec_has(second.b, second.b0, g.mma_b, d) ||
                vec_has(&ops[3], hc, hc, d))
                return err_at(p, &p->t[ops[0].tok], "'wmma.mma' whose D fragment shares registers with A, B or the "
                              "second half of C is not supported");
        }
    }
    for (int h = 0; h < g.nmma; h++) {
        const mma_half mh = wmma_half(shape, &g, ops, h);
        ws_inst *in;
        if (wmma_inst(p, first, guard, gneg, WS_OP_MMA, &in)) return -1;
        in->subop = g.form;
        in->type = (uint8_t)dt;
        in->type2 = (uint8_t)(shape == WS_WMMA_M8N32K16 ? bt : at);   /* the transposed form: B^T is the mma A */
        in->cmp = (uint8_t)(shape == WS_WMMA_M8N32K16 ? at : bt);
        in->boolop = (uint8_t)ct;
        if (w->satfinite) in->mods |= WS_MOD_SAT;
        in->ndst = 1;
        in->nsrc = 3;
        wmma_vec(&in->dst[0], &ops[0], h * hd, hd);
        wmma_vec(&in->src[0], mh.a, mh.a0, g.mma_a);
        wmma_vec(&in->src[1], mh.b, mh.b0, g.mma_b);
        wmma_vec(&in->src[2], &ops[3], h * hc, hc);
    }
    return 0;
}

/* wmma.load / wmma.store: one instruction per four fragment registers */
static int wmma_emit_ldst(P *p, const ws_tok *first, const ws_tok *optok, uint32_t guard, int gneg, const wmma_mods *w,
                          raw *ops, int nops)
{
    const int store = w->kind == 's', shape = w->shape - 1;
    const raw *fr = &ops[store ? 1 : 0], *ar = &ops[store ? 0 : 1];
    const ws_type ty = w->types[0];
    int nregs;
    if (w->matrix == WS_WMMA_C) {
        if (!wmma_acc_ok(shape, ty))
            return err_at(p, optok, "'wmma.%s' with this shape and type is not supported (%s)",
                          store ? "store.d" : "load.c", wmma_supported);
        nregs = wmma_acc_regs(ty);
    } else {
        const ws_wmma_geom g = ws_wmma_geometry((unsigned)shape, ty);
        if (!g.form)
            return err_at(p, optok, "'wmma.load.%c' with this shape and type is not supported (%s)", 'a' + w->matrix,
                          wmma_supported);
        nregs = w->matrix == WS_WMMA_A ? g.frag_a : g.frag_b;
    }
    if (nops != 2 && nops != 3)
        return err_at(p, &p->t[ops[0].tok], "'wmma.%s' takes %s{, stride}", store ? "store" : "load",
                      store ? "[p], fragment" : "fragment, [p]");
    if (wmma_frag(p, fr, nregs, store ? "D" : w->matrix == WS_WMMA_A ? "A" : w->matrix == WS_WMMA_B ? "B" : "C"))
        return -1;
    if (ar->kind != R_ADDR) return err_at(p, &p->t[ar->tok], "'wmma' expects a memory operand '[...]' here");
    /* the default stride: the leading dimension (columns of a row-major matrix, rows of a column-major one) */
    static const uint8_t dims[WS_NWMMA_SHAPES][3][2] = {{{16, 16}, {16, 16}, {16, 16}}, {{32, 16}, {16, 8}, {32, 8}},
                                                        {{8, 16}, {16, 32}, {8, 32}}, {{16, 8}, {8, 16}, {16, 16}},
                                                        {{8, 4}, {4, 8}, {8, 8}}};
    ws_operand stride = { .kind = WS_OK_IMM, .reg = WS_NO_REG, .imm = dims[shape][w->matrix][w->col ? 0 : 1] };
    if (nops == 3) {
        const raw *sr = &ops[2];
        if (sr->kind == R_REG) { stride.kind = WS_OK_REG; stride.reg = sr->reg; }
        else if (sr->kind == R_NUM && p->t[sr->numtok].kind == WS_TK_INT && !sr->numneg) stride.imm = (int64_t)p->t[sr->numtok].ival;
        else return err_at(p, &p->t[sr->tok], "the stride of 'wmma' is a .u32 register or a non-negative integer");
    }
    if (!store)   /* the first part must not overwrite what the second reads */
        for (int e = 0; nregs > 4 && e < 4; e++)
            if (fr->vec[e] == ar->reg || (stride.kind == WS_OK_REG && fr->vec[e] == stride.reg))
                return err_at(p, &p->t[fr->tok], "a 'wmma.load' fragment that includes its address or stride register "
                              "is not supported");
    for (int part = 0; part * 4 < nregs; part++) {
        uint32_t ii = p->k->ninsts;
        const int n = nregs - 4 * part < 4 ? nregs - 4 * part : 4;
        ws_inst *in;
        if (wmma_inst(p, first, guard, gneg, store ? WS_OP_WMMA_STORE : WS_OP_WMMA_LOAD, &in)) return -1;
        in->subop = (uint8_t)(w->matrix | part << 2 | (w->col ? WS_WMMA_COL : 0) | shape << 4);
        in->type = (uint8_t)ty;
        in->space = (uint8_t)(w->space ? w->space : WS_SP_GENERIC);
        ws_operand *ao = &in->src[0];
        ao->kind = WS_OK_ADDR;
        ao->reg = ar->reg;
        ao->imm = ar->off;
        if (ar->has_name && resolve_symbol(p, in, ii, 0, ar, ao)) return -1;
        if (store) {
            wmma_vec(&in->src[1], fr, 4 * part, n);
            in->src[2] = stride;
            in->nsrc = 3;
        } else {
            in->ndst = 1;
            wmma_vec(&in->dst[0], fr, 4 * part, n);
            in->src[1] = stride;
            in->nsrc = 2;
        }
    }
    return 0;
}

/* ---- texture and surface instructions on object handles (src/exec/exec_tex.c) ----
 *   tex{.level,.grad}.{1d,2d,3d}.v4.{u32,s32,f32}.{s32,f32}   d, [h, c] {, lod | , dPdx, dPdy}
 *                                                (PTX ISA 9.7.10.3)
 *   tld4.{r,g,b,a}.2d.v4.{u32,s32,f32}.f32       d, [h, c]    (PTX ISA 9.7.10.4)
 *   txq.QUERY.b32                                d, [h]       (PTX ISA 9.7.10.5)
 *   suld.b.{1d,2d,3d}{.cop}{.v2,.v4}.{b8..b64}{.trap,.clamp,.zero}  d, [h, c]  (9.7.11.1)
 *   sust.b.{1d,2d,3d}{.cop}{.v2,.v4}.{b8..b64}{.trap,.clamp,.zero}  [h, c], v  (9.7.11.2)
 * h is a .u64 register holding a texture/surface object. */
typedef struct texmods {
    int dims, vec, comp, query, clamp, b, p, ntypes;
    int lod;           /* tex.level: 1 (one .f32 lod operand), tex.grad: 2 (two gradient vectors) */
    ws_type types[2];
} texmods;

static const char *const txq_names[] = {"", "width", "height", "depth", "normalized_coords", "filter_mode",
                                        "addr_mode_0", "addr_mode_1", "addr_mode_2", "num_mipmap_levels",
                                        "array_size", "num_samples"};

static int tex_mod(P *p, int op, texmods *m, const ws_tok *t)
{
    const char *s = t->s + 1;
    size_t n = t->n - 1;
    const char *mn = ws_opcode_name(op);
#define IS(str) (n == strlen(str) && !memcmp(s, str, n))
    if ((IS("1d") || IS("2d") || IS("3d")) && op != WS_OP_TXQ) { m->dims = s[0] - '0'; return 0; }
    if (IS("a1d") || IS("a2d") || IS("cube") || IS("acube") || IS("2dms") || IS("a2dms"))
        return err_at(p, t, "'%s%.*s' is not supported: layered, cube and multisample textures are outside the "
                      "subset (.1d .2d .3d)", mn, TK(t));
    if ((IS("level") || IS("grad")) && op == WS_OP_TEX) { m->lod = s[0] == 'l' ? 1 : 2; return 0; }
    if (IS("base") || IS("level") || IS("grad"))
        return err_at(p, t, "'%s%.*s' is not supported (mipmapped forms: tex.level and tex.grad)", mn, TK(t));
    if (IS("v4") || IS("v2")) { m->vec = s[1] - '0'; return 0; }
    if (op == WS_OP_TLD4 && n == 1 && strchr("rgba", s[0])) { m->comp = s[0] == 'r' ? 0 : s[0] == 'g' ? 1 : s[0] == 'b' ? 2 : 3; return 0; }
    if (op == WS_OP_TXQ) {
        for (int q = 1; q < (int)(sizeof txq_names / sizeof txq_names[0]); q++)
            if (IS(txq_names[q])) { m->query = q; return 0; }
        if (IS("channel_data_type") || IS("channel_order") || IS("force_unnormalized_coords"))
            return err_at(p, t, "'txq%.*s' is not supported: the values the driver returns are not publicly "
                          "documented", TK(t));
    }
    if (op == WS_OP_SULD || op == WS_OP_SUST) {
        if (IS("b")) { m->b = 1; return 0; }
        if (IS("p")) return err_at(p, t, "'%s.p' (formatted surface access) is not supported (%s.b is)", mn, mn), -1;
        if (IS("trap")) { m->clamp = WS_SURF_TRAP; return 0; }
        if (IS("clamp")) { m->clamp = WS_SURF_CLAMP; return 0; }
        if (IS("zero")) { m->clamp = WS_SURF_ZERO; return 0; }
        if (IS("ca") || IS("cg") || IS("cs") || IS("cv") || IS("wb") || IS("wt")) return 0;   /* cache hints */
    }
#undef IS
    ws_type ty = ws_type_from_name(s, n);
    if (ty != WS_TY_NONE && m->ntypes < 2) { m->types[m->ntypes++] = ty; return 0; }
    return err_at(p, t, "modifier '%.*s' is not supported on '%s'", TK(t), mn);
}

/* [h] or [h, c]: the handle register and the coordinate operand */
static int tex_address(P *p, uint32_t *handle, raw *coords, int want_coords)
{
    if (expect(p, '[', "opening the texture operand")) return -1;
    ws_tok *h = cur(p);
    if (h->kind != WS_TK_IDENT || !lookup_reg(p, h, handle))
        return err_at(p, h, "expected a .u64 register holding a texture or surface object, got '%.*s' (.texref/.surfref "
                      "variables are not supported)", TK(h));
    if (ws_type_bits((ws_type)p->k->reg_types[*handle]) != 64)
        return err_at(p, h, "the texture/surface object '%.*s' must be a 64-bit register", TK(h));
    adv(p);
    if (want_coords) {
        if (expect(p, ',', "after the texture object")) return -1;
        if (parse_operand(p, coords)) return -1;
        if (coords->kind != R_VEC && coords->kind != R_REG)
            return err_at(p, &p->t[coords->tok], "the coordinates must be a register or a vector {x, ...}");
    }
    return expect(p, ']', "closing the texture operand");
}

static void raw_to_opnd(const raw *r, ws_operand *o)
{
    memset(o, 0, sizeof *o);
    if (r->kind == R_VEC) {
        o->kind = WS_OK_VEC;
        o->nvec = r->nvec;
        for (int e = 0; e < r->nvec && e < 4; e++) o->vec[e] = r->vec[e];
    } else {
        o->kind = WS_OK_REG;
        o->reg = r->reg;
    }
}

static int tex_check_vec(P *p, const raw *r, int want, const char *what, const char *mn)
{
    int n = r->kind == R_VEC ? r->nvec : 1;
    if (r->kind != R_VEC && r->kind != R_REG)
        return err_at(p, &p->t[r->tok], "'%s' expects a register or a vector {...} as %s", mn, what);
    if (r->kind == R_VEC && r->vimm_mask)
        return err_at(p, &p->t[r->tok], "'%s': %s must be registers", mn, what);
    if (n != want) return err_at(p, &p->t[r->tok], "'%s' takes %d element%s as %s, got %d", mn, want, want == 1 ? "" : "s", what, n);
    return 0;
}

static int parse_texinst(P *p, const ws_tok *first, uint32_t guard, int gneg, int op)
{
    const ws_tok *optok = cur(p);
    const char *mn = ws_opcode_name(op);
    texmods m;
    memset(&m, 0, sizeof m);
    m.comp = -1;
    adv(p);
    while (cur(p)->kind == WS_TK_DOT && cur(p)->adj) {
        if (tex_mod(p, op, &m, cur(p))) return -1;
        adv(p);
    }
    raw d, c;
    uint32_t h = WS_NO_REG;
    memset(&c, 0, sizeof c);
    if (op == WS_OP_SUST) {
        if (tex_address(p, &h, &c, 1) || expect(p, ',', "after the surface operand") || parse_operand(p, &d)) return -1;
    } else {
        if (parse_operand(p, &d)) return -1;
        if (d.kind == R_PAIR) return err_at(p, &p->t[d.tok], "'%s' with a residency predicate (d|p) is not supported", mn);
        if (expect(p, ',', "after the destination") || tex_address(p, &h, &c, op != WS_OP_TXQ)) return -1;
    }
    raw lod[2];
    for (int j = 0; j < m.lod; j++) {   /* tex.level: lod; tex.grad: dPdx, dPdy */
        if (expect(p, ',', m.lod == 1 ? "before the level of detail" : "before the gradients") || parse_operand(p, &lod[j]))
            return -1;
        int want = m.lod == 1 ? 1 : m.dims == 3 ? 4 : m.dims;
        if (tex_check_vec(p, &lod[j], want, m.lod == 1 ? "the level of detail" : "a gradient", "tex")) return -1;
    }
    if (is_punct(cur(p), ','))
        return err_at(p, cur(p), "'%s' with an offset or depth-compare operand is not supported", mn);
    if (expect(p, ';', "ending the instruction")) return -1;
    /* the form */
    int ncoord = m.dims == 3 ? 4 : m.dims;
    if (op == WS_OP_TEX || op == WS_OP_TLD4) {
        if (!m.dims || (op == WS_OP_TLD4 && (m.dims != 2 || m.comp < 0)) || m.vec != 4 || m.ntypes != 2)
            return err_at(p, optok, "'%s' is supported as %s", mn, op == WS_OP_TEX ? "tex.{1d,2d,3d}.v4.{u32,s32,f32}.{s32,f32}"
                                                                                  : "tld4.{r,g,b,a}.2d.v4.{u32,s32,f32}.f32");
        if ((m.types[0] != WS_TY_U32 && m.types[0] != WS_TY_S32 && m.types[0] != WS_TY_F32) ||
            (m.types[1] != WS_TY_S32 && m.types[1] != WS_TY_F32) || (op == WS_OP_TLD4 && m.types[1] != WS_TY_F32))
            return err_at(p, optok, "'%s.%s.%s' is not supported (destination .u32 .s32 .f32, coordinates .s32 .f32%s)", mn,
                          ws_type_name(m.types[0]), ws_type_name(m.types[1]), op == WS_OP_TLD4 ? "; tld4: .f32" : "");
        if (tex_check_vec(p, &d, 4, "the destination", mn) || tex_check_vec(p, &c, ncoord, "the coordinates", mn)) return -1;
    } else if (op == WS_OP_TXQ) {
        if (!m.query || m.ntypes != 1 || m.types[0] != WS_TY_B32)
            return err_at(p, optok, "'txq' is supported as txq.{width,height,depth,normalized_coords,filter_mode,"
                          "addr_mode_0/1/2,num_mipmap_levels,array_size,num_samples}.b32 d, [h]");
        if (d.kind != R_REG) return err_at(p, &p->t[d.tok], "'txq' writes one .b32 register");
    } else {
        int bits = m.ntypes == 1 ? ws_type_bits(m.types[0]) : 0;
        if (!m.b || !m.dims || m.ntypes != 1 || m.types[0] < WS_TY_B8 || m.types[0] > WS_TY_B64)
            return err_at(p, optok, "'%s' is supported as %s.b.{1d,2d,3d}{.v2,.v4}.{b8,b16,b32,b64}{.trap,.clamp,.zero}", mn, mn);
        int nv = m.vec ? m.vec : 1;
        if (bits == 64 && nv == 4) return err_at(p, optok, "'%s.v4.b64' is not a valid form", mn);
        if (tex_check_vec(p, &d, nv, op == WS_OP_SUST ? "the values" : "the destination", mn) ||
            tex_check_vec(p, &c, ncoord, "the coordinates", mn)) return -1;
    }
    ws_inst *in;
    if (wmma_inst(p, first, guard, gneg, op, &in)) return -1;
    in->mods = 0;
    in->subop = (uint8_t)m.dims;
    in->type = (uint8_t)m.types[0];
    in->type2 = (uint8_t)m.types[1];
    in->cmp = (uint8_t)(op == WS_OP_TLD4 ? m.comp : op == WS_OP_TXQ ? m.query : 0);
    in->boolop = (uint8_t)(m.clamp ? m.clamp : WS_SURF_TRAP);
    in->vec = (uint8_t)(m.vec ? m.vec : 1);
    in->src[0] = (ws_operand){.kind = WS_OK_REG, .reg = h};
    if (op == WS_OP_SUST) {
        raw_to_opnd(&c, &in->src[1]);
        raw_to_opnd(&d, &in->src[2]);
        in->nsrc = 3;
    } else {
        raw_to_opnd(&d, &in->dst[0]);
        in->ndst = 1;
        if (op != WS_OP_TXQ) raw_to_opnd(&c, &in->src[1]);
        in->nsrc = op == WS_OP_TXQ ? 1 : 2;
        /* the level of detail / gradients: read (the scoreboard waits for them), and then the
         * only level there is, 0 (the workload's textures have no mipmaps) */
        for (int j = 0; j < m.lod; j++) raw_to_opnd(&lod[j], &in->src[in->nsrc++]);
    }
    return 0;
}

static int parse_wmma(P *p, const ws_tok *first, uint32_t guard, int gneg)
{
    const ws_tok *optok = cur(p);
    wmma_mods w;
    memset(&w, 0, sizeof w);
    w.matrix = -1;
    adv(p);
    while (cur(p)->kind == WS_TK_DOT && cur(p)->adj) {
        if (wmma_mod(p, &w, cur(p))) return -1;
        adv(p);
    }
    if (!w.kind) return err_at(p, optok, "'wmma' needs .load, .store or .mma (%s)", wmma_supported);
    if (!w.sync || !w.aligned || !w.shape || w.nlayout != (w.kind == 'm' ? 2 : 1) ||
        (w.kind == 'm' ? w.ntypes != 2 && w.ntypes != 4 : w.ntypes != 1) || (w.kind != 'm' && w.matrix < 0))
        return err_at(p, optok, "this 'wmma' form is incomplete or not supported (%s)", wmma_supported);
    raw ops[4];
    int nops = 0;
    while (!is_punct(cur(p), ';')) {
        if (nops >= 4) return err_at(p, cur(p), "too many operands for 'wmma'");
        if (parse_operand(p, &ops[nops])) return -1;
        nops++;
        if (is_punct(cur(p), ',')) { adv(p); continue; }
        break;
    }
    if (!is_punct(cur(p), ';')) return err_at(p, cur(p), "expected ',' or ';' after operand of 'wmma', got '%.*s'", TK(cur(p)));
    adv(p);
    if (w.kind == 'm') {
        if (nops != 4) return err_at(p, optok, "'wmma.mma' takes 4 operands (d, a, b, c), got %d", nops);
        return wmma_emit_mma(p, first, optok, guard, gneg, &w, ops);
    }
    if (nops < 2) return err_at(p, optok, "'wmma.%s' takes 2 or 3 operands, got %d", w.kind == 's' ? "store" : "load", nops);
    return wmma_emit_ldst(p, first, optok, guard, gneg, &w, ops, nops);
}

static int parse_inst(P *p)
{
    ws_kernel *k = p->k;
    ws_tok *first = cur(p);
    uint32_t guard = WS_NO_REG;
    int gneg = 0;
    if (is_punct(first, '@')) {
        adv(p);
        if (is_punct(cur(p), '!')) { gneg = 1; adv(p); }
        ws_tok *g = cur(p);
        if (g->kind != WS_TK_IDENT) return err_at(p, g, "expected a predicate register after '@', got '%.*s'", TK(g));
        if (!lookup_reg(p, g, &guard)) return err_at(p, g, "undefined register '%.*s'", TK(g));
        if (check_pred(p, guard, g, "guard")) return -1;
        adv(p);
    }
    ws_tok *optok = cur(p);
    if (optok->kind != WS_TK_IDENT) return err_at(p, optok, "expected an instruction, got '%.*s'", TK(optok));
    if (tok_eq(optok, "call")) {
        if (guard != WS_NO_REG) return err_at(p, first, "guarded calls ('@p call') are not supported");
        return parse_call(p, optok);
    }
    if (tok_eq(optok, "wmma")) return parse_wmma(p, first, guard, gneg);
    static const struct { const char *name; int op; } texops[] = {{"tex", WS_OP_TEX}, {"tld4", WS_OP_TLD4},
        {"txq", WS_OP_TXQ}, {"suld", WS_OP_SULD}, {"sust", WS_OP_SUST}};
    for (size_t q = 0; q < sizeof texops / sizeof texops[0]; q++)
        if (tok_eq(optok, texops[q].name)) return parse_texinst(p, first, guard, gneg, texops[q].op);
    uint32_t nt;
    int op = lookup_opcode(p, &nt);
    for (size_t v = 0; op < 0 && v < sizeof video_refused / sizeof video_refused[0]; v++)
        if (tok_eq(optok, video_refused[v]))
            return err_at(p, optok, "video instruction '%.*s' is not supported (of the video instructions only the SIMD "
                          "vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2 and their 4-way forms are, with the default "
                          "selectors and mask, and the scalar vshl vshr)", TK(optok));
    if (op == WS_OP_CP_ASYNC && peek(p, 2)->kind == WS_TK_DOT && peek(p, 2)->adj &&
        (tok_eq(peek(p, 2), ".bulk") || tok_eq(peek(p, 2), ".mbarrier")))
        return err_at(p, peek(p, 2), "'cp.async%.*s' is not supported (sm_90 bulk/TMA copies and the mbarrier forms are "
                      "outside the subset; supported: cp.async.ca/.cg.shared.global, .commit_group, .wait_group, "
                      ".wait_all)", TK(peek(p, 2)));
    for (size_t v = 0; op < 0 && v < sizeof refused_insts / sizeof refused_insts[0]; v++)
        if (tok_eq(optok, refused_insts[v].name))
            return err_at(p, optok, "instruction '%.*s' is not supported: %s", TK(optok), refused_insts[v].why);
    if (op < 0)
        return err_at(p, optok, "unknown or unsupported instruction '%.*s' (supported: integer/logic, f32/f64 arithmetic, setp/selp/cvt, ld/st/atom/red, bra/brx.idx/ret/exit, bar/membar, shfl/vote/match.sync; see isa.def)", TK(optok));
    for (uint32_t j = 0; j < nt; j++) adv(p);
    GROW(k->insts, k->ninsts, p->cap_insts);
    uint32_t ii = k->ninsts;
    ws_inst *in = &k->insts[ii];
    memset(in, 0, sizeof *in);
    in->op = (uint16_t)op;
    in->guard = guard;
    in->guard_neg = (uint8_t)gneg;
    in->line = first->line;
    in->col = first->col;
    in->vec = 1;
    in->ipdom = WS_PC_EXIT;
    modstate ms;
    memset(&ms, 0, sizeof ms);
    /* cvt.rna.tf32.f32 (PTX ISA 9.7.9.21, sm_80): the one .tf32 conversion in the subset, the
     * rounding nvcc emits for wmma::__float_to_tf32; a .b32 result (WS_CVT_TF32_RNA) */
    if (op == WS_OP_CVT && p->i + 3 <= p->nt && is_dir(&p->t[p->i], ".rna") && p->t[p->i].adj &&
        is_dir(&p->t[p->i + 1], ".tf32") && p->t[p->i + 1].adj && is_dir(&p->t[p->i + 2], ".f32") && p->t[p->i + 2].adj &&
        !(p->t[p->i + 3].kind == WS_TK_DOT && p->t[p->i + 3].adj)) {
        ms.types[0] = WS_TY_B32; ms.type_tok[0] = p->i + 1;
        ms.types[1] = WS_TY_F32; ms.type_tok[1] = p->i + 2;
        ms.ntypes = 2;
        in->subop = WS_CVT_TF32_RNA;
        adv(p); adv(p); adv(p);
    }
    if (op == WS_OP_CVT && !in->subop && parse_cvt_fp8(p, in, &ms)) return -1;
    /* a type outside the subset is the reason, even behind modifiers only its forms have
     * (cvt.rn.satfinite.e4m3x2.f32): name it first */
    for (uint32_t j = p->i; j < p->nt && p->t[j].kind == WS_TK_DOT && p->t[j].adj; j++)
        if (is_refused_type(p->t[j].s + 1, p->t[j].n - 1) &&
            !(op == WS_OP_MMA && (tok_eq(&p->t[j], ".tf32") || tok_eq(&p->t[j], ".e4m3") || tok_eq(&p->t[j], ".e5m2")))) {
            if (op == WS_OP_CVT && tok_eq(&p->t[j], ".tf32"))
                return err_at(p, &p->t[j], "type '.tf32' is supported only in cvt.rna.tf32.f32 (this conversion is not supported)");
            return err_at(p, &p->t[j], "type '%.*s' is not supported (supported types: %s)", TK(&p->t[j]), supported_types);
        }
    while (cur(p)->kind == WS_TK_DOT && cur(p)->adj) {
        ws_tok *m = cur(p);
        int c = apply_mod(p, in, &ms, m);
        if (c == -2) return -1;
        if (c < 0 || !(op_allow[op] & B(c))) {
            char buf[300];
            describe_allowed(op, buf, sizeof buf);
            return err_at(p, m, "modifier '%.*s' is not supported on '%s' (accepted: %s)", TK(m), ws_opcode_name(op), buf);
        }
        adv(p);
    }
    const char *mn = ws_opcode_name(op);
    /* required modifiers */
    int want_types = (op_allow[op] & B(A_TYPE2)) ? 2 : (op_allow[op] & B(A_TYPE)) ? 1 : 0;
    if (op == WS_OP_BAR || op == WS_OP_BARRIER) want_types = ms.bar_red ? 1 : 0;
    if (is_simd_video(op) || is_vshift(op)) want_types = 3;
    if (op == WS_OP_MMA) want_types = 4;
    if (op == WS_OP_CVT_PACK) {
        if (!in->subop) return err_at(p, optok, "'cvt.pack' needs a convert type (.u2 .s2 .u4 .s4 .u8 .s8 .u16 .s16)");
        want_types = in->subop >= WS_PACK_U16 ? 1 : 2;
    }
    if (ms.ntypes != want_types) {
        if (want_types == 0)
            return err_at(p, &p->t[ms.type_tok[0]], "'%s' takes no type", mn);
        if (op == WS_OP_CVT_PACK)
            return err_at(p, optok, "'cvt.pack.sat.%s' takes %s", pack_names[in->subop],
                          want_types == 1 ? "one type (.s32 sources)" : "two types (.s32 sources, .b32 c operand)");
        if (want_types == 3)
            return err_at(p, optok, "'%s' needs three types (.dtype .atype .btype), got %d", mn, ms.ntypes);
        if (want_types == 4)
            return err_at(p, optok, "'mma' needs four types (.dtype .atype .btype .ctype), got %d", ms.ntypes);
        return err_at(p, optok, "'%s' needs %s, got %d", mn, want_types == 2 ? "two types (destination and source)" : "a type", ms.ntypes);
    }
    in->type = (uint8_t)ms.types[0];
    in->type2 = (uint8_t)ms.types[1];
    if (is_simd_video(op)) in->subop = (uint8_t)ms.types[2];
    if (is_vshift(op) && ms.types[2] != WS_TY_U32)
        return err_at(p, &p->t[ms.type_tok[2]], "'%s' takes .u32 as its third type (the shift amount)", mn);
    if (op == WS_OP_MMA && check_mma_form(p, in, &ms, optok)) return -1;
    if (op == WS_OP_MBARRIER && (!in->subop || in->type != WS_TY_B64 ||
                                 (in->boolop && in->subop != WS_MBAR_TEST_WAIT && in->subop != WS_MBAR_TRY_WAIT)))
        return err_at(p, optok, "'mbarrier' needs an operation and .b64 (supported: mbarrier.init/.arrive/.arrive_drop/"
                      ".test_wait/.try_wait{.parity}/.pending_count/.inval{.shared}.b64)");
    if (op == WS_OP_GRIDDEP && !in->subop) return err_at(p, optok, "'griddepcontrol' needs .wait or .launch_dependents");
    if (op == WS_OP_CP_ASYNC && !in->subop)
        return err_at(p, optok, "'cp.async' needs .ca/.cg (a copy), .commit_group, .wait_group or .wait_all");
    if (op == WS_OP_CP_ASYNC && in->subop == WS_CPA_COPY && in->space != WS_SP_SHARED)
        return err_at(p, optok, "'cp.async' copies .shared.global (cp.async.ca.shared.global)");
    if ((op == WS_OP_LDMATRIX || op == WS_OP_STMATRIX) &&
        (!ms.sync || !(in->mods & WS_MOD_ALIGNED) || !ms.shape || !(in->subop & 7) ||
         (in->space != WS_SP_SHARED && in->space != WS_SP_NONE) || in->type != WS_TY_B16))
        return err_at(p, optok, "'%s' is supported as %s.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared{::cta}}.b16", mn, mn);
    if (op == WS_OP_MOVMATRIX && (!ms.sync || !(in->mods & WS_MOD_ALIGNED) || !ms.shape || in->subop != WS_LDM_TRANS ||
                                  in->type != WS_TY_B16))
        return err_at(p, optok, "'movmatrix' is supported as movmatrix.sync.aligned.m8n8.trans.b16 (the PTX ISA's one form)");
    if (check_new_forms(p, in, optok)) return -1;
    if ((op == WS_OP_SETP || op == WS_OP_SET) && !in->cmp) return err_at(p, optok, "'%s' needs a comparison (.eq .ne .lt .le .gt .ge .lo .ls .hi .hs .equ .neu .ltu .leu .gtu .geu .num .nan)", mn);
    if (op == WS_OP_SLCT && in->cmp) return err_at(p, optok, "'slct' takes no comparison");
    if ((op == WS_OP_ATOM || op == WS_OP_RED) && !in->subop) return err_at(p, optok, "'%s' needs an operation (.add .inc .dec .min .max .and .or .xor .exch .cas)", mn);
    /* vote without .sync is the legacy (sm_6x) form: over the active lanes, no membermask */
    if ((op == WS_OP_SHFL || op == WS_OP_MATCH || op == WS_OP_REDUX || op == WS_OP_ELECT) && !ms.sync)
        return err_at(p, optok, "'%s' needs .sync (the non-.sync forms are not supported)", mn);
    if (op == WS_OP_BAR_WARP && !ms.sync) return err_at(p, optok, "'bar.warp' needs .sync");
    if (op == WS_OP_SHFL && !in->subop) return err_at(p, optok, "'shfl.sync' needs a mode (.up .down .bfly .idx)");
    if (op == WS_OP_VOTE && !in->subop) return err_at(p, optok, "'%s' needs a mode (.all .any .uni .ballot)", ms.sync ? "vote.sync" : "vote");
    if (op == WS_OP_MATCH && !in->subop) return err_at(p, optok, "'match.sync' needs a mode (.any .all)");
    if (op == WS_OP_REDUX) {   /* redux.sync: .add/.min/.max on .u32/.s32, .and/.or/.xor on .b32 */
        int arith = in->subop == WS_ATOM_ADD || in->subop == WS_ATOM_MIN || in->subop == WS_ATOM_MAX;
        int logic = in->subop == WS_ATOM_AND || in->subop == WS_ATOM_OR || in->subop == WS_ATOM_XOR;
        if (!arith && !logic) return err_at(p, optok, "'redux.sync' needs an operation (.add .min .max .and .or .xor)");
        if (arith ? (in->type != WS_TY_U32 && in->type != WS_TY_S32) : in->type != WS_TY_B32)
            return err_at(p, optok, "'redux.sync' takes .u32/.s32 with .add/.min/.max and .b32 with .and/.or/.xor (got .%s)",
                          ws_type_name((ws_type)in->type));
    }
    if (op == WS_OP_TANH && ((in->type != WS_TY_F32 && !ws_type_is_half((ws_type)in->type)) || !(in->mods & WS_MOD_APPROX)))
        return err_at(p, optok, "'tanh' is supported as tanh.approx with .f32 .f16 .bf16 .f16x2 .bf16x2 only");
    if (check_half_forms(p, in, optok)) return -1;
    if (op == WS_OP_TESTP && !in->subop) return err_at(p, optok, "'testp' needs a test (.finite .infinite .number .notanumber .normal .subnormal)");
    if (op == WS_OP_BRX && !ms.idx) return err_at(p, optok, "'brx' needs .idx");
    if (op == WS_OP_BFIND && in->type != WS_TY_U32 && in->type != WS_TY_S32 && in->type != WS_TY_U64 && in->type != WS_TY_S64)
        return err_at(p, optok, "'bfind' takes .u32 .s32 .u64 or .s64");
    if (op == WS_OP_CVTA && !in->space) return err_at(p, optok, "'cvta' needs a state space (.global .shared .local .const)");
    if (op == WS_OP_CVTA && in->space == WS_SP_PARAM) return err_at(p, optok, "'cvta.param' is not supported");
    if ((op == WS_OP_BAR || op == WS_OP_BARRIER) && ms.bar_red == 1) return err_at(p, optok, "'%s.red' needs .popc, .and or .or", mn);
    if ((op == WS_OP_BAR || op == WS_OP_BARRIER) && !in->subop) return err_at(p, optok, "'%s' needs .sync, .arrive or .red", mn);
    if (op == WS_OP_SHF) {
        if (!ms.shf_dir || !ms.shf_mode) return err_at(p, optok, "'shf' needs .l or .r and .wrap or .clamp");
        in->subop = (uint8_t)(ms.shf_dir == 'l' ? (ms.shf_mode == 'w' ? WS_SHF_L_WRAP : WS_SHF_L_CLAMP)
                                               : (ms.shf_mode == 'w' ? WS_SHF_R_WRAP : WS_SHF_R_CLAMP));
    }
    if ((op == WS_OP_MUL || op == WS_OP_MAD) && !ws_type_is_float((ws_type)in->type) &&
        !(in->mods & (WS_MOD_HI | WS_MOD_LO | WS_MOD_WIDE)))
        return err_at(p, optok, "integer '%s' needs .lo, .hi or .wide", mn);
    if ((in->mods & WS_MOD_WIDE) && ws_type_bits((ws_type)in->type) != 16 && ws_type_bits((ws_type)in->type) != 32)
        return err_at(p, optok, "'%s.wide' takes a 16- or 32-bit type", mn);
    if (in->space == WS_SP_NONE && (op == WS_OP_LD || op == WS_OP_LDU || op == WS_OP_ST || op == WS_OP_ATOM ||
                                    op == WS_OP_RED || op == WS_OP_PREFETCH))
        in->space = WS_SP_GENERIC;
    if ((op == WS_OP_ATOM || op == WS_OP_RED) && in->space != WS_SP_GLOBAL && in->space != WS_SP_SHARED &&
        in->space != WS_SP_GENERIC)
        return err_at(p, optok, "'%s' on .%s is not supported (.global, .shared or generic)", mn, ws_space_names[in->space]);
    if (op == WS_OP_ST && in->space == WS_SP_CONST)
        return err_at(p, optok, "'st.%s' is not allowed (read-only state space)", ws_space_names[in->space]);
    if ((op == WS_OP_ATOM || op == WS_OP_RED) && in->type == WS_TY_F64 && in->subop != WS_ATOM_ADD && in->subop != WS_ATOM_EXCH)
        return err_at(p, optok, "'%s.%s.f64' is not supported", mn, ws_atom_names[in->subop]);

    /* operands */
    raw ops[8];
    int nops = 0;
    if (!is_punct(cur(p), ';')) {
        for (;;) {
            if (nops >= 8) return err_at(p, cur(p), "too many operands for '%s'", mn);
            if (parse_operand(p, &ops[nops])) return -1;
            nops++;
            if (is_punct(cur(p), ',')) { adv(p); continue; }
            break;
        }
    }
    if (!is_punct(cur(p), ';'))
        return err_at(p, cur(p), "expected ',' or ';' after operand of '%s', got '%.*s'", mn, TK(cur(p)));
    adv(p);
    k->ninsts++;
    if (op == WS_OP_VOTE && nops != (ms.sync ? 3 : 2))   /* shape() allows both forms */
        return err_at(p, optok, "'%s' takes %d operands, got %d", ms.sync ? "vote.sync" : "vote", ms.sync ? 3 : 2, nops);
    if (op == WS_OP_CP_ASYNC && in->subop == WS_CPA_COPY && cpa_operands(p, in, ops, &nops, optok)) return -1;
    if (decode_operands(p, in, ii, ops, nops, optok)) return -1;
    if (video_selectors(p, in, ops, nops, optok)) return -1;
    if (op == WS_OP_MMA && check_mma_operands(p, in, ops)) return -1;
    if (op == WS_OP_CP_ASYNC && in->subop == WS_CPA_COPY) {
        int64_t sz = in->src[2].imm;
        if (in->src[2].kind != WS_OK_IMM || (sz != 4 && sz != 8 && sz != 16) || (in->boolop == 2 && sz != 16))
            return err_at(p, &p->t[ops[2].tok], "the cp-size of 'cp.async.%s' is %s", in->boolop == 2 ? "cg" : "ca",
                          in->boolop == 2 ? "16" : "4, 8 or 16");
        if (in->nsrc == 4 && in->src[3].kind == WS_OK_IMM && (in->src[3].imm < 0 || in->src[3].imm > sz))
            return err_at(p, &p->t[ops[3].tok], "the src-size of 'cp.async' must be 0 .. cp-size (%lld)", (long long)sz);
    }
    if (op == WS_OP_CP_ASYNC && in->subop == WS_CPA_WAIT && in->src[0].kind != WS_OK_IMM)
        return err_at(p, &p->t[ops[0].tok], "'cp.async.wait_group' takes an integer constant");
    if (op == WS_OP_LDMATRIX && (in->dst[0].kind != WS_OK_VEC || in->dst[0].nvec != (in->subop & 7)))
        return err_at(p, &p->t[ops[0].tok], "'ldmatrix.x%u' writes {%u register%s}", in->subop & 7, in->subop & 7,
                      (in->subop & 7) == 1 ? "" : "s");
    if (op == WS_OP_STMATRIX && (in->src[1].kind != WS_OK_VEC || in->src[1].nvec != (in->subop & 7)))
        return err_at(p, &p->t[ops[1].tok], "'stmatrix.x%u' stores {%u register%s}", in->subop & 7, in->subop & 7,
                      (in->subop & 7) == 1 ? "" : "s");
    /* st.param only writes a call's or function's .param variables (now .local) */
    if (op == WS_OP_LOP3 && in->src[3].kind != WS_OK_IMM)
        return err_at(p, &p->t[ops[nops - 1].tok], "the lookup table of 'lop3' (last operand) must be an immediate");
    if (op == WS_OP_ST && in->space == WS_SP_PARAM)
        return err_at(p, optok, "'st.param' is only allowed on a call's or a function's .param variables (kernel "
                      "parameters are read-only)");
    return 0;
}

/* ------------------------------------------------------------------ */

static int parse_branchtargets(P *p, ws_tok *lab)
{
    ws_kernel *k = p->k;
    adv(p); /* .branchtargets */
    if (smap_get(&p->btl, lab->s, lab->n, NULL) || smap_get(&p->labels, lab->s, lab->n, NULL))
        return err_at(p, lab, "label '%.*s' defined twice", TK(lab));
    btlist b = {k->nbrx_targets, 0};
    for (;;) {
        ws_tok *t = cur(p);
        if (t->kind != WS_TK_IDENT || t->s[0] == '%') return err_at(p, t, "expected a label in .branchtargets, got '%.*s'", TK(t));
        GROW(k->brx_targets, k->nbrx_targets, p->cap_brx);
        p->label_tok = realloc(p->label_tok, p->cap_brx * sizeof *p->label_tok);
        if (!p->label_tok) return oom(p);
        p->label_tok[k->nbrx_targets] = p->i;
        k->brx_targets[k->nbrx_targets++] = 0;
        b.count++;
        adv(p);
        if (is_punct(cur(p), ',')) { adv(p); continue; }
        break;
    }
    if (expect(p, ';', "after the .branchtargets list")) return -1;
    GROW(p->bt, p->nbt, p->cap_bt);
    p->bt[p->nbt] = b;
    if (smap_put(&p->btl, lab->s, lab->n, (int64_t)p->nbt)) return oom(p);
    p->nbt++;
    return 0;
}

/* leaves a block: its registers and variables go out of scope */
static void pop_scope(P *p, size_t mark)
{
    while (p->nund > mark) {
        undo *u = &p->und[--p->nund];
        smap *m = u->sym ? &p->syms : &p->regs;
        if (u->had) smap_put(m, u->key, u->len, u->prev);
        else smap_del(m, u->key, u->len);
    }
}

static int parse_body(P *p)
{
    for (;;) {
        ws_tok *t = cur(p);
        if (t->kind == WS_TK_EOF) return err_at(p, t, "missing '}' at the end of the kernel body");
        if (is_punct(t, '}')) { adv(p); return 0; }
        if (is_punct(t, '{')) {
            if (p->depth >= 256) return err_at(p, t, "blocks nested more than 256 deep");
            adv(p);
            size_t mark = p->nund;
            p->depth++;
            if (parse_body(p)) return -1;
            p->depth--;
            pop_scope(p, mark);
            continue;
        }
        if (t->kind == WS_TK_DOT) {
            if (is_dir(t, ".reg")) { if (parse_reg(p)) return -1; continue; }
            if (is_dir(t, ".shared") || is_dir(t, ".local") || is_dir(t, ".global") || is_dir(t, ".const") ||
                is_dir(t, ".param")) {
                if (parse_var(p, 0)) return -1;
                continue;
            }
            if (is_dir(t, ".extern")) {
                adv(p);
                if (!is_dir(cur(p), ".shared")) return err_at(p, cur(p), "only '.extern .shared' is supported inside a kernel, got '%.*s'", TK(cur(p)));
                if (parse_var(p, 1)) return -1;
                continue;
            }
            if (is_dir(t, ".pragma")) { adv(p); if (skip_to_semicolon(p)) return -1; continue; }
            if (is_dir(t, ".loc") || is_dir(t, ".file")) { skip_line(p); continue; }
            if (is_dir(t, ".callprototype") || is_dir(t, ".calltargets"))
                return err_at(p, t, "'%.*s' is only used for indirect calls (through a function pointer), which are "
                              "not supported (direct calls to functions defined in the module are inlined)", TK(t));
            if (is_dir(t, ".branchtargets")) return err_at(p, t, ".branchtargets needs a label ('NAME: .branchtargets L1, L2;')");
            return err_at(p, t, "unsupported directive '%.*s' in a kernel body (supported: .reg .shared .local .global .const .param .pragma .loc .branchtargets)", TK(t));
        }
        if (t->kind == WS_TK_IDENT && is_punct(peek(p, 1), ':')) {
            adv(p);
            adv(p);
            if (is_dir(cur(p), ".branchtargets")) { if (parse_branchtargets(p, t)) return -1; continue; }
            if (is_dir(cur(p), ".callprototype") || is_dir(cur(p), ".calltargets"))
                return err_at(p, cur(p), "'%.*s' is only used for indirect calls (through a function pointer), which "
                              "are not supported (direct calls to functions defined in the module are inlined)", TK(cur(p)));
            if (smap_get(&p->labels, t->s, t->n, NULL) || smap_get(&p->btl, t->s, t->n, NULL))
                return err_at(p, t, "label '%.*s' defined twice", TK(t));
            if (smap_put(&p->labels, t->s, t->n, p->k->ninsts)) return oom(p);
            continue;
        }
        if (is_punct(t, '@') || t->kind == WS_TK_IDENT) { if (parse_inst(p)) return -1; continue; }
        return err_at(p, t, "unexpected '%.*s' in a kernel body", TK(t));
    }
}

/* One parameter declarator, after its '.param' (kernel and .func parameter
 * lists alike): [.align N] [.ptr .space ...] .TYPE name ['[' N ']']. align is 0
 * when not given (the type's size applies). */
static int parse_param_decl(P *p, uint64_t *align, ws_type *ty, ws_tok **name, uint64_t *count)
{
    *align = 0;
    *ty = WS_TY_NONE;
    *count = 1;
    for (;;) {
        ws_tok *a = cur(p);
        if (is_dir(a, ".align")) {
            adv(p);
            if (expect_int(p, "after .align", align)) return -1;
            if (!*align || (*align & (*align - 1)) || *align > 4096)
                return err_at(p, a, ".align must be a power of two up to 4096");
        } else if (is_dir(a, ".ptr") || is_dir(a, ".global") || is_dir(a, ".shared") || is_dir(a, ".const") ||
                   is_dir(a, ".local")) {
            adv(p);
        } else if (a->kind == WS_TK_DOT && *ty == WS_TY_NONE) {
            if (parse_type_tok(p, a, ty)) return -1;
            if (*ty == WS_TY_PRED) return err_at(p, a, ".pred parameters are not supported");
            adv(p);
        } else break;
    }
    if (*ty == WS_TY_NONE) return err_at(p, cur(p), "expected a parameter type, got '%.*s'", TK(cur(p)));
    ws_tok *nt = cur(p);
    if (nt->kind != WS_TK_IDENT || nt->s[0] == '%') return err_at(p, nt, "expected a parameter name, got '%.*s'", TK(nt));
    adv(p);
    if (is_punct(cur(p), '[')) {
        adv(p);
        if (expect_int(p, "array size", count)) return -1;
        if (!*count || *count > 65536) return err_at(p, nt, "parameter array size out of range");
        if (expect(p, ']', "after the array size")) return -1;
    }
    *name = nt;
    return 0;
}

static int parse_params(P *p)
{
    ws_kernel *k = p->k;
    uint64_t off = 0;
    if (is_punct(cur(p), ')')) { adv(p); return 0; }
    for (;;) {
        ws_tok *t = cur(p);
        if (!is_dir(t, ".param"))
            return err_at(p, t, "expected '.param' in the kernel parameter list, got '%.*s'", TK(t));
        adv(p);
        uint64_t align, count;
        ws_type ty;
        ws_tok *nt;
        if (parse_param_decl(p, &align, &ty, &nt, &count)) return -1;
        if (!align) align = (uint64_t)type_bytes(ty);
        off = align_up(off, align);
        GROW(k->params, k->nparams, p->cap_params);
        ws_kparam *kp = &k->params[k->nparams];
        kp->name = dupn(nt->s, nt->n);
        if (!kp->name) return oom(p);
        k->nparams++;
        kp->type = (uint8_t)ty;
        kp->size = (uint32_t)(count * (uint64_t)type_bytes(ty));
        kp->align = (uint32_t)align;
        kp->offset = (uint32_t)off;
        off += kp->size;
        if (off > 32764) return err_at(p, nt, "kernel parameters exceed 32764 bytes");
        if (smap_get(&p->params, nt->s, nt->n, NULL)) return err_at(p, nt, "parameter '%.*s' declared twice", TK(nt));
        if (smap_put(&p->params, nt->s, nt->n, k->nparams - 1)) return oom(p);
        if (is_punct(cur(p), ',')) { adv(p); continue; }
        if (expect(p, ')', "closing the parameter list")) return -1;
        break;
    }
    k->param_bytes = (uint32_t)off;
    return 0;
}

static int parse_dims(P *p, uint32_t d[3])
{
    d[0] = d[1] = d[2] = 1;
    for (int j = 0; j < 3; j++) {
        uint64_t v = 0;
        if (expect_int(p, "dimension", &v)) return -1;
        d[j] = (uint32_t)v;
        if (!is_punct(cur(p), ',')) break;
        adv(p);
    }
    return 0;
}

static int parse_entry(P *p)
{
    ws_kernel *k = p->k;
    adv(p); /* .entry */
    ws_tok *nt = cur(p);
    k->name = dupn(nt->s, nt->n);
    if (!k->name) return oom(p);
    adv(p);
    if (is_punct(cur(p), '(')) {
        adv(p);
        if (parse_params(p)) return -1;
    }
    for (;;) {
        ws_tok *t = cur(p);
        if (is_dir(t, ".maxntid") || is_dir(t, ".reqntid")) {
            adv(p);
            if (parse_dims(p, is_dir(t, ".maxntid") ? k->maxntid : k->reqntid)) return -1;
        } else if (is_dir(t, ".minnctapersm") || is_dir(t, ".maxnreg") || is_dir(t, ".maxclusterrank") ||
                   is_dir(t, ".maxnctapersm")) {
            adv(p);
            uint64_t v = 0;
            if (expect_int(p, "value", &v)) return -1;
        } else if (is_dir(t, ".reqnctapercluster")) {
            uint32_t d[3];
            adv(p);
            if (parse_dims(p, d)) return -1;
        } else if (is_dir(t, ".noreturn") || is_dir(t, ".explicitcluster")) {
            adv(p);
        } else if (is_dir(t, ".pragma")) {
            adv(p);
            if (skip_to_semicolon(p)) return -1;
        } else break;
    }
    if (expect(p, '{', "opening the kernel body")) return -1;
    p->depth = 1;
    return parse_body(p);
}

/* first pass: module-level directives and variables, entry positions */
static int parse_module(P *p)
{
    int is_extern = 0;
    while (cur(p)->kind != WS_TK_EOF) {
        ws_tok *t = cur(p);
        if (t->kind != WS_TK_DOT) return err_at(p, t, "expected a directive, got '%.*s'", TK(t));
        if (is_dir(t, ".version") || is_dir(t, ".target") || is_dir(t, ".file") || is_dir(t, ".loc")) {
            skip_line(p);
        } else if (is_dir(t, ".address_size")) {
            adv(p);
            uint64_t v = 0;
            if (expect_int(p, "after .address_size", &v)) return -1;
            if (v != 64) return err_at(p, t, ".address_size %llu is not supported (only 64)", (unsigned long long)v);
        } else if (is_dir(t, ".visible") || is_dir(t, ".weak") || is_dir(t, ".common")) {
            adv(p);
            continue;
        } else if (is_dir(t, ".extern")) {
            adv(p);
            is_extern = 1;
            continue;
        } else if (is_dir(t, ".entry")) {
            ws_tok *nt = peek(p, 1);
            if (nt->kind != WS_TK_IDENT) return err_at(p, nt, "expected the kernel name after .entry, got '%.*s'", TK(nt));
            GROW(p->entries, p->nentries, p->cap_ent);
            uint32_t at = p->i;
            adv(p);
            adv(p);
            int depth = 0;
            while (cur(p)->kind != WS_TK_EOF) {
                ws_tok *x = cur(p);
                if (is_punct(x, '(')) depth++;
                else if (is_punct(x, ')')) depth--;
                else if (depth == 0 && (is_punct(x, '{') || is_punct(x, ';'))) break;
                adv(p);
            }
            if (is_punct(cur(p), ';')) { adv(p); is_extern = 0; continue; } /* declaration only */
            if (cur(p)->kind == WS_TK_EOF) return err_at(p, t, "kernel '%.*s' has no body", TK(nt));
            int b = 0;
            while (cur(p)->kind != WS_TK_EOF) {
                if (is_punct(cur(p), '{')) b++;
                else if (is_punct(cur(p), '}') && --b == 0) break;
                adv(p);
            }
            if (cur(p)->kind == WS_TK_EOF) return err_at(p, t, "missing '}' at the end of kernel '%.*s'", TK(nt));
            adv(p);
            if (!is_extern) p->entries[p->nentries++] = at;
        } else if (is_dir(t, ".func")) {
            /* [.extern|.visible|.weak] .func [(ret)] name [(params)] [attributes] {body} | ; */
            uint32_t at = p->i;
            adv(p);
            if (is_punct(cur(p), '(')) {
                while (cur(p)->kind != WS_TK_EOF && !is_punct(cur(p), ')')) adv(p);
                adv(p);
            }
            ws_tok *nt = cur(p);
            if (nt->kind != WS_TK_IDENT || nt->s[0] == '%')
                return err_at(p, nt, "expected the function name after .func, got '%.*s'", TK(nt));
            int64_t fi;
            if (!smap_get(&p->funcs, nt->s, nt->n, &fi)) {
                GROW(p->fns, p->nfns, p->cap_fns);
                fi = (int64_t)p->nfns++;
                memset(&p->fns[fi], 0, sizeof p->fns[fi]);
                p->fns[fi].name_tok = (uint32_t)(nt - p->t);
                if (smap_put(&p->funcs, nt->s, nt->n, fi)) return oom(p);
            }
            adv(p);
            int depth = 0;
            while (cur(p)->kind != WS_TK_EOF) {
                ws_tok *x = cur(p);
                if (is_punct(x, '(')) depth++;
                else if (is_punct(x, ')')) depth--;
                else if (depth == 0 && (is_punct(x, '{') || is_punct(x, ';'))) break;
                adv(p);
            }
            if (cur(p)->kind == WS_TK_EOF) return err_at(p, t, "function '%.*s' has no body", TK(nt));
            if (is_punct(cur(p), ';')) { adv(p); is_extern = 0; continue; }   /* declaration */
            if (is_extern) return err_at(p, t, ".extern function '%.*s' has a body", TK(nt));
            if (p->fns[fi].def_tok) return err_at(p, nt, "function '%.*s' defined twice", TK(nt));
            p->fns[fi].def_tok = at + 1;   /* +1: 0 means declared only */
            int b = 0;
            while (cur(p)->kind != WS_TK_EOF) {
                if (is_punct(cur(p), '{')) b++;
                else if (is_punct(cur(p), '}') && --b == 0) break;
                adv(p);
            }
            if (cur(p)->kind == WS_TK_EOF) return err_at(p, t, "missing '}' at the end of function '%.*s'", TK(nt));
            adv(p);
        } else if (is_dir(t, ".global") || is_dir(t, ".const") || is_dir(t, ".shared") || is_dir(t, ".local")) {
            if (parse_var(p, is_extern)) return -1;
        } else if (is_dir(t, ".section")) {
            adv(p);
            adv(p);
            if (is_punct(cur(p), '{')) {
                int b = 0;
                while (cur(p)->kind != WS_TK_EOF) {
                    if (is_punct(cur(p), '{')) b++;
                    else if (is_punct(cur(p), '}') && --b == 0) break;
                    adv(p);
                }
                adv(p);
            }
        } else if (is_dir(t, ".pragma")) {
            adv(p);
            if (skip_to_semicolon(p)) return -1;
        } else {
            return err_at(p, t, "unsupported directive '%.*s' (supported: .version .target .address_size .entry .func .global .const .shared .extern .visible .weak .pragma .file .loc)", TK(t));
        }
        is_extern = 0;
    }
    return 0;
}

static uint64_t var_address(const ws_var *v)
{
    return v->space == WS_SP_GLOBAL || v->space == WS_SP_CONST ? WS_DATA_BASE + v->offset : v->offset;
}

/* ------------------------------------------------------------------ */
/* labels of one body (the entry or a function): right after its parse, while its label
 * maps are live; keeps only the FX_VAR fixups (resolved after the variable layout) */
static int resolve_labels(P *p)
{
    ws_kernel *k = p->k;
    for (uint32_t i = 0; i < k->nbrx_targets; i++) {
        ws_tok *t = &p->t[p->label_tok[i]];
        int64_t v;
        if (!smap_get(&p->labels, t->s, t->n, &v)) return err_at(p, t, "undefined label '%.*s'", TK(t));
        if ((uint64_t)v >= k->ninsts) return err_at(p, t, "label '%.*s' is not followed by an instruction", TK(t));
        k->brx_targets[i] = (uint32_t)v;
    }
    size_t keep = 0;
    for (size_t f = 0; f < p->nfx; f++) {
        fixup *x = &p->fx[f];
        ws_inst *in = &k->insts[x->inst];
        ws_tok *t = &p->t[x->tok];
        int64_t v;
        if (x->kind == FX_LABEL) {
            if (!smap_get(&p->labels, t->s, t->n, &v)) {
                if (smap_get(&p->btl, t->s, t->n, NULL)) return err_at(p, t, "'%.*s' names a .branchtargets list; use it with brx.idx", TK(t));
                return err_at(p, t, "undefined label '%.*s'", TK(t));
            }
            if ((uint64_t)v >= k->ninsts) return err_at(p, t, "label '%.*s' is not followed by an instruction", TK(t));
            in->src[x->slot].imm = v;
            in->target = (uint32_t)v;
        } else if (x->kind == FX_BRX) {
            if (!smap_get(&p->btl, t->s, t->n, &v)) {
                if (smap_get(&p->labels, t->s, t->n, NULL)) return err_at(p, t, "'%.*s' is not a .branchtargets list", TK(t));
                return err_at(p, t, "undefined .branchtargets list '%.*s'", TK(t));
            }
            in->target = p->bt[v].start;
            in->ntargets = p->bt[v].count;
        } else {
            p->fx[keep++] = *x;
        }
    }
    p->nfx = keep;
    return 0;
}

/* A variable named in the address of a generically addressed access (ld [sym], no state space)
 * stands for its generic address (PTX ISA 6.4.1 "Generic Addressing": .shared and .local are
 * windows of the generic space), not its state-space address (what mov and cvta's source take) */
static uint64_t generic_window(const ws_inst *in, const ws_operand *o, const ws_var *v)
{
    if (o->kind != WS_OK_ADDR || (in->space != WS_SP_NONE && in->space != WS_SP_GENERIC)) return 0;
    return v->space == WS_SP_SHARED ? WS_SHARED_WINDOW : v->space == WS_SP_LOCAL ? WS_LOCAL_WINDOW : 0;
}

static void resolve_vars(ws_kernel *k, ws_inst *insts, const fixup *fx, size_t nfx)
{
    for (size_t f = 0; f < nfx; f++) {
        ws_inst *in = &insts[fx[f].inst];
        ws_operand *o = &in->src[fx[f].slot];
        const ws_var *v = &k->vars[fx[f].var];
        o->imm += (int64_t)(var_address(v) + generic_window(in, o, v));
    }
}

/* moves the per-body state out of p/k into s (p/k left empty), or back */
static void bs_take(P *p, bstate *s)
{
    ws_kernel *k = p->k;
    *s = (bstate){k->insts, k->ninsts, p->cap_insts, k->reg_names, k->reg_types, p->reg_depth, k->nregs, p->cap_regs,
                  k->brx_targets, p->label_tok, k->nbrx_targets, p->cap_brx, p->regs, p->params, p->labels, p->btl,
                  p->fx, p->nfx, p->cap_fx, p->bt, p->nbt, p->cap_bt, p->und, p->nund, p->cap_undo, p->depth};
    k->insts = NULL; k->ninsts = 0; p->cap_insts = 0;
    k->reg_names = NULL; k->reg_types = NULL; p->reg_depth = NULL; k->nregs = 0; p->cap_regs = 0;
    k->brx_targets = NULL; p->label_tok = NULL; k->nbrx_targets = 0; p->cap_brx = 0;
    memset(&p->regs, 0, sizeof p->regs); memset(&p->params, 0, sizeof p->params);
    memset(&p->labels, 0, sizeof p->labels); memset(&p->btl, 0, sizeof p->btl);
    p->fx = NULL; p->nfx = p->cap_fx = 0; p->bt = NULL; p->nbt = p->cap_bt = 0;
    p->und = NULL; p->nund = p->cap_undo = 0; p->depth = 0;
}

static void bs_put(P *p, const bstate *s)
{
    ws_kernel *k = p->k;
    k->insts = s->insts; k->ninsts = s->ninsts; p->cap_insts = s->cap_insts;
    k->reg_names = s->reg_names; k->reg_types = s->reg_types; p->reg_depth = s->reg_depth;
    k->nregs = s->nregs; p->cap_regs = s->cap_regs;
    k->brx_targets = s->brx; p->label_tok = s->label_tok; k->nbrx_targets = s->nbrx; p->cap_brx = s->cap_brx;
    p->regs = s->regs; p->params = s->params; p->labels = s->labels; p->btl = s->btl;
    p->fx = s->fx; p->nfx = s->nfx; p->cap_fx = s->cap_fx; p->bt = s->bt; p->nbt = s->nbt; p->cap_bt = s->cap_bt;
    p->und = s->und; p->nund = s->nund; p->cap_undo = s->cap_undo; p->depth = s->depth;
}

/* frees a body state's maps and scratch (keep_code: its instructions, registers and
 * target lists have been moved elsewhere) */
static void bs_free(bstate *s, int keep_code)
{
    if (!keep_code) {
        free(s->insts);
        for (uint32_t r = 0; s->reg_names && r < s->nregs; r++) free(s->reg_names[r]);
        free(s->reg_names);
        free(s->reg_types);
        free(s->brx);
    }
    free(s->reg_depth); free(s->label_tok);
    free(s->regs.e); free(s->params.e); free(s->labels.e); free(s->btl.e);
    free(s->fx); free(s->bt); free(s->und);
}

/* .param list of a .func signature: ( .param [.align N] .TYPE name[[N]], ... ) -> .local
 * variables of the function (VF_PARAM) */
static int parse_formals(P *p, fbody *f, uint32_t *count)
{
    if (expect(p, '(', "opening the function's parameter list")) return -1;
    while (!is_punct(cur(p), ')')) {
        ws_tok *t = cur(p);
        if (is_dir(t, ".reg")) {   /* a register parameter: a register (or vector) of the function's body */
            adv(p);
            unsigned nvec = 0;
            if (is_dir(cur(p), ".v2") || is_dir(cur(p), ".v4")) {   /* PTX ISA 5.4.2 (vectors) */
                nvec = (unsigned)(cur(p)->s[2] - '0');
                adv(p);
            }
            ws_type ty;
            if (parse_type_tok(p, cur(p), &ty)) return -1;
            if (nvec && ty == WS_TY_PRED) return err_at(p, cur(p), "vector registers of .pred are not allowed");
            adv(p);
            ws_tok *nt = cur(p);
            if (nt->kind != WS_TK_IDENT) return err_at(p, nt, "expected a register name, got '%.*s'", TK(nt));
            uint32_t first = p->k->nregs;
            if (nvec ? declare_vreg(p, nt, nt->s, nt->n, ty, nvec) : declare_reg(p, nt, nt->s, nt->n, ty, 0)) return -1;
            if (p->k->nregs > CALL_RNUM) return err_at(p, nt, "too many registers (more than 2^20)");
            adv(p);
            uint32_t *nf = realloc(f->formals, (f->nret + f->nparam + 1) * sizeof *nf);
            if (!nf) return oom(p);
            f->formals = nf;
            f->formals[f->nret + f->nparam] = CALL_REG | CALL_VEC(nvec) | first;
            (*count)++;
            if (is_punct(cur(p), ',')) adv(p);
            else if (!is_punct(cur(p), ')')) return err_at(p, cur(p), "expected ',' or ')' in the parameter list, got '%.*s'", TK(cur(p)));
            continue;
        }
        if (!is_dir(t, ".param")) return err_at(p, t, "expected '.param' in the function's parameter list, got '%.*s'", TK(t));
        adv(p);
        uint64_t align, n;
        ws_type ty;
        ws_tok *nt;
        if (parse_param_decl(p, &align, &ty, &nt, &n)) return -1;
        ws_kernel *k = p->k;
        GROW(k->vars, k->nvars, p->cap_vars);
        ws_var *v = &k->vars[k->nvars];
        memset(v, 0, sizeof *v);
        v->name = dupn(nt->s, nt->n);
        if (!v->name) return oom(p);
        k->nvars++;
        v->space = WS_SP_LOCAL;
        v->type = (uint8_t)ty;
        v->align = (uint32_t)(align ? align : (uint64_t)type_bytes(ty));
        v->size = n * (uint64_t)type_bytes(ty);
        uint32_t *nf = realloc(f->formals, (f->nret + f->nparam + 1) * sizeof *nf);
        if (!nf) return oom(p);
        f->formals = nf;
        f->formals[f->nret + f->nparam] = k->nvars - 1;
        (*count)++;
        if (var_added(p, k->nvars - 1, nt, v->name, nt->n, VF_PARAM)) return -1;
        if (is_punct(cur(p), ',')) adv(p);
        else if (!is_punct(cur(p), ')')) return err_at(p, cur(p), "expected ',' or ')' in the parameter list, got '%.*s'", TK(cur(p)));
    }
    adv(p);
    return 0;
}

/* decodes function fi into its template (p's per-body state is empty on entry and after) */
static int decode_func(P *p, uint32_t fi)
{
    fbody *f = &p->fns[fi];
    p->i = f->def_tok - 1;
    adv(p);   /* .func */
    p->depth = 1;
    if (is_punct(cur(p), '(') && parse_formals(p, f, &f->nret)) return -1;
    adv(p);   /* the name */
    if (is_punct(cur(p), '(') && parse_formals(p, f, &f->nparam)) return -1;
    for (;;) {
        ws_tok *t = cur(p);
        if (is_punct(t, '{')) break;
        if (is_dir(t, ".noreturn")) { adv(p); continue; }
        if (is_dir(t, ".pragma")) { adv(p); if (skip_to_semicolon(p)) return -1; continue; }
        return err_at(p, t, "unexpected '%.*s' before the body of function '%.*s'", TK(t), TK(&p->t[f->name_tok]));
    }
    adv(p);
    if (parse_body(p) || resolve_labels(p)) return -1;
    pop_scope(p, 0);
    ws_kernel *k = p->k;
    if (!k->ninsts) return err_at(p, &p->t[f->name_tok], "function '%.*s' has no instructions", TK(&p->t[f->name_tok]));
    bstate s;
    bs_take(p, &s);
    f->insts = s.insts; f->ninsts = s.ninsts;
    f->reg_names = s.reg_names; f->reg_types = s.reg_types; f->nregs = s.nregs;
    f->brx = s.brx; f->nbrx = s.nbrx;
    f->fx = s.fx; f->nfx = s.nfx;
    s.fx = NULL;
    bs_free(&s, 1);
    f->decoded = 1;
    return 0;
}

/* after the entry: decodes every function it calls (transitively), then gives each call's
 * .param variables the slots of the callee's parameters */
static int decode_funcs(P *p)
{
    bs_take(p, &p->saved);
    p->have_saved = 1;
    for (size_t c = 0; c < p->ncs; c++)   /* decoding adds the callee's own calls */
        if (!p->fns[p->cs[c].func].decoded && decode_func(p, p->cs[c].func)) return -1;
    bs_put(p, &p->saved);
    p->have_saved = 0;
    ws_kernel *k = p->k;
    for (size_t c = 0; c < p->ncs; c++) {
        callsite *cs = &p->cs[c];
        fbody *f = &p->fns[cs->func];
        ws_tok *t = &p->t[cs->tok], *ft = &p->t[f->name_tok];
        if (cs->nret != f->nret || cs->nargs != f->nparam)
            return err_at(p, t, "call passes %u argument%s and %u return value%s, '%.*s' takes %u and %u", cs->nargs,
                          cs->nargs == 1 ? "" : "s", cs->nret, cs->nret == 1 ? "" : "s", TK(ft), f->nparam, f->nret);
        for (uint32_t j = 0; j < cs->nret + cs->nargs; j++) {
            uint32_t a = cs->vars[j], fv = f->formals[j];
            int by_reg = (fv & CALL_REG) != 0;
            if (by_reg != ((a & (CALL_REG | CALL_IMM)) != 0))
                return err_at(p, t, "%s %u of the call to '%.*s' is %s, but the function declares it %s",
                              j < cs->nret ? "return value" : "argument", j < cs->nret ? j + 1 : j - cs->nret + 1,
                              TK(ft), by_reg ? "a .param variable" : "a register or immediate",
                              by_reg ? ".reg" : ".param");
            unsigned an = a & CALL_REG ? CALL_NVEC(a) : 0, fn = CALL_NVEC(fv);
            if (by_reg && an != fn) {
                static const char *const shape[] = {"a scalar", "?", "a .v2 vector register", "?", "a .v4 vector register"};
                return err_at(p, t, "%s %u of the call to '%.*s' is %s, but the function declares %s",
                              j < cs->nret ? "return value" : "argument", j < cs->nret ? j + 1 : j - cs->nret + 1, TK(ft),
                              shape[an], shape[fn]);
            }
            if (by_reg) continue;   /* copied by mov at the call site (emit_body) */
            ws_var *av = &k->vars[a], *fvv = &k->vars[fv];
            if (av->size != fvv->size)
                return err_at(p, t, "'%s' is %llu bytes but parameter '%s' of '%.*s' is %llu", av->name,
                              (unsigned long long)av->size, fvv->name, TK(ft), (unsigned long long)fvv->size);
            if (p->vx[a].alias != UINT32_MAX && p->vx[a].alias != fv)
                return err_at(p, t, "'%s' is passed to two calls", av->name);
            if (a == fv) continue;
            p->vx[a].alias = fv;
            if (av->align > fvv->align) fvv->align = av->align;
        }
    }
    return 0;
}


/* ------------------------------------------------------------------ */
/* Inlining. Every call placeholder (OP_CALL) is replaced by a fresh copy of the callee's
 * decoded instructions, recursively for the callee's own calls:
 *  - the callee's registers become new registers of the kernel (named "%r4@f#2": register
 *    %r4 of the 2nd copy of f, for the disassembler); the entry keeps its own numbers;
 *  - branch targets and brx.idx lists are remapped to the copy's positions; a branch to the
 *    call itself lands on the first instruction of the inlined body;
 *  - `ret` in the callee becomes a branch (bra.uni if unguarded) to the instruction after
 *    the call; an unguarded `ret` ending the body is dropped (falls through);
 *  - line/col, operands and modifiers stay as the decoder set them for the callee's own
 *    lines; units, rd/wr lists and back edges are computed afterwards over the flat kernel.
 * The .param variables (the callee's parameters and return value, the caller's call-site
 * variables) are per-thread .local slots; a call's variables share the callee's slots
 * (decode_funcs), so st.param/ld.param on either side are st.local/ld.local of the same
 * address. A function's parameters and .local depot get one slot per function, not one per
 * inlined copy: recursion is refused, so a thread never has two live activations of one
 * function (the static frames of a non-recursive call graph). */
typedef struct emitter {
    ws_inst *insts; uint32_t n; size_t cap;
    uint32_t *brx; uint32_t nbrx; size_t cap_brx;
    uint32_t stack[64]; uint32_t depth;
} emitter;

/* mov.TYPE dst, src (a register, or CALL_IMM item) at a call site: how a .reg parameter or
 * return value of an inlined function is passed */
static int emit_mov(P *p, emitter *e, uint32_t dst, uint32_t item, uint32_t src_reg, const ws_tok *site)
{
    ws_kernel *k = p->k;
    ws_type ty = (ws_type)k->reg_types[dst];
    if (!(item & CALL_IMM) && ws_type_bits((ws_type)k->reg_types[src_reg]) != ws_type_bits(ty))
        return err_at(p, site, "call passes register '%s' (.%s) for a .%s register parameter", k->reg_names[src_reg],
                      ws_type_name((ws_type)k->reg_types[src_reg]), ws_type_name(ty));
    if (e->n >= INLINE_MAX) return err_at(p, site, "inlining the calls makes kernel '%s' longer than %u instructions", k->name, INLINE_MAX);
    GROW(e->insts, e->n, e->cap);
    ws_inst *o = &e->insts[e->n];
    memset(o, 0, sizeof *o);
    o->op = WS_OP_MOV;
    o->type = (uint8_t)ty;
    o->vec = 1;
    o->guard = WS_NO_REG;
    o->ipdom = WS_PC_EXIT;
    o->line = site->line;
    o->col = site->col;
    o->ndst = o->nsrc = 1;
    o->dst[0].kind = WS_OK_REG;
    o->dst[0].reg = dst;
    if (item & CALL_IMM) {
        o->src[0].kind = WS_OK_IMM;
        o->src[0].reg = WS_NO_REG;
        if (num_bits(p, &p->t[item & CALL_VAL], (item & CALL_NEG) != 0, ty, &o->src[0].imm)) return -1;
        if (ty == WS_TY_PRED) o->src[0].imm = o->src[0].imm != 0;
    } else {
        o->src[0].kind = WS_OK_REG;
        o->src[0].reg = src_reg;
    }
    e->n++;
    return 0;
}

static int emit_body(P *p, emitter *e, const ws_inst *src, uint32_t n, const uint32_t *brx, uint32_t base, int is_func,
                     const ws_tok *site)
{
    ws_kernel *k = p->k;
    uint32_t *pos = malloc((size_t)(n + 1) * sizeof *pos), *at = malloc((size_t)(n + 1) * sizeof *at);
    int rc = -1;
    if (!pos || !at) { oom(p); goto out; }
    for (uint32_t i = 0; i < n; i++) {
        const ws_inst *in = &src[i];
        pos[i] = e->n;
        at[i] = UINT32_MAX;
        if (in->op == OP_CALL) {
            const callsite *cs = &p->cs[in->target];
            fbody *f = &p->fns[cs->func];
            const ws_tok *ct = &p->t[cs->tok], *fn = &p->t[f->name_tok];
            if (f->active || e->depth >= sizeof e->stack / sizeof e->stack[0]) {
                char chain[400] = "";
                size_t o = 0;
                uint32_t d = 0;
                while (d < e->depth && e->stack[d] != cs->func) d++;
                for (; d < e->depth && o < sizeof chain - 80; d++) {
                    const ws_tok *t = &p->t[p->fns[e->stack[d]].name_tok];
                    o += (size_t)snprintf(chain + o, sizeof chain - o, "%.*s -> ", TK(t));
                }
                err_at(p, ct, "recursive call to '%.*s' (%s%.*s): recursive functions cannot be inlined", TK(fn), chain, TK(fn));
                goto out;
            }
            /* the copy's registers */
            uint32_t nb = k->nregs;
            f->ninstances++;
            for (uint32_t r = 0; r < f->nregs; r++) {
                if (k->nregs >= (1u << 20)) { err_at(p, ct, "too many registers after inlining (more than 2^20)"); goto out; }
                GROW(k->reg_names, k->nregs, p->cap_regs);
                uint8_t *nt = realloc(k->reg_types, p->cap_regs * sizeof *nt);
                if (!nt) { oom(p); goto out; }
                k->reg_types = nt;
                char buf[200];
                int len = snprintf(buf, sizeof buf, "%s@%.*s#%u", f->reg_names[r], TK(fn), f->ninstances);
                if (!(k->reg_names[k->nregs] = dupn(buf, (size_t)len))) { oom(p); goto out; }
                k->reg_types[k->nregs++] = f->reg_types[r];
            }
            /* .reg arguments into the copy's parameter registers, then the body, then the .reg
             * return values back (a ret of the body branches to the first of those movs) */
            for (uint32_t j = cs->nret; j < cs->nret + cs->nargs; j++)   /* a vector: one mov per element */
                for (uint32_t el = 0; (f->formals[j] & CALL_REG) && el < (CALL_NVEC(f->formals[j]) ? CALL_NVEC(f->formals[j]) : 1); el++)
                    if (emit_mov(p, e, nb + (f->formals[j] & CALL_RNUM) + el, cs->vars[j],
                                 base + (cs->vars[j] & CALL_RNUM) + el, ct))
                        goto out;
            f->active = 1;
            e->stack[e->depth++] = cs->func;
            int r = emit_body(p, e, f->insts, f->ninsts, f->brx, nb, 1, ct);
            e->depth--;
            f->active = 0;
            if (r) goto out;
            for (uint32_t j = 0; j < cs->nret; j++)
                for (uint32_t el = 0; (f->formals[j] & CALL_REG) && el < (CALL_NVEC(f->formals[j]) ? CALL_NVEC(f->formals[j]) : 1); el++)
                    if (emit_mov(p, e, base + (cs->vars[j] & CALL_RNUM) + el, CALL_REG, nb + (f->formals[j] & CALL_RNUM) + el, ct))
                        goto out;
            continue;
        }
        if (is_func && in->op == WS_OP_RET && i == n - 1 && in->guard == WS_NO_REG) continue; /* falls through */
        if (e->n >= INLINE_MAX) {
            err_at(p, site, "inlining the calls makes kernel '%s' longer than %u instructions", k->name, INLINE_MAX);
            goto out;
        }
        GROW(e->insts, e->n, e->cap);
        ws_inst *o = &e->insts[e->n];
        *o = *in;
#define RM(r) ((r) == WS_NO_REG ? (r) : (r) + base)
        o->guard = RM(o->guard);
        for (int j = 0; j < o->ndst + o->nsrc; j++) {
            ws_operand *x = j < o->ndst ? &o->dst[j] : &o->src[j - o->ndst];
            if (x->kind == WS_OK_REG || x->kind == WS_OK_ADDR) x->reg = RM(x->reg);
            else if (x->kind == WS_OK_VEC) for (int v = 0; v < x->nvec; v++) x->vec[v] = RM(x->vec[v]);
        }
#undef RM
        if (is_func && in->op == WS_OP_RET) {   /* -> branch to the instruction after the call */
            o->op = WS_OP_BRA;
            o->nsrc = 1;
            memset(&o->src[0], 0, sizeof o->src[0]);
            o->src[0].kind = WS_OK_LABEL;
            o->mods = in->guard == WS_NO_REG ? WS_MOD_UNI : 0;
        }
        at[i] = e->n++;
    }
    pos[n] = e->n;
    for (uint32_t i = 0; i < n; i++) {
        if (at[i] == UINT32_MAX) continue;
        ws_inst *o = &e->insts[at[i]];
        if (is_func && src[i].op == WS_OP_RET) {
            o->target = e->n;
            o->src[0].imm = e->n;
        } else if (o->op == WS_OP_BRA) {
            o->target = pos[src[i].target];
            o->src[0].imm = o->target;
        } else if (o->op == WS_OP_BRX) {
            o->target = e->nbrx;
            for (uint32_t j = 0; j < src[i].ntargets; j++) {
                GROW(e->brx, e->nbrx, e->cap_brx);
                e->brx[e->nbrx++] = pos[brx[src[i].target + j]];
            }
        }
    }
    rc = 0;
out:
    free(pos);
    free(at);
    return rc;
}

static int expand(P *p)
{
    ws_kernel *k = p->k;
    emitter e;
    memset(&e, 0, sizeof e);
    int rc = emit_body(p, &e, k->insts, k->ninsts, k->brx_targets, 0, 0, NULL);
    if (!rc && e.n == 0) rc = ws_fail(p->err, "%s: kernel '%s' has no instructions", p->path, k->name);
    for (uint32_t i = 0; !rc && i < e.n; i++) {
        const ws_inst *in = &e.insts[i];
        if ((in->op == WS_OP_BRA && in->target >= e.n) || (in->op == WS_OP_BRX && in->ntargets &&
                                                          e.brx[in->target + in->ntargets - 1] >= e.n))
            rc = ws_fail(p->err, "%s:%u:%u: a call at the end of kernel '%s' returns past its last instruction",
                         p->path, in->line, in->col, k->name);
    }
    if (rc) { free(e.insts); free(e.brx); return -1; }
    free(k->insts);
    free(k->brx_targets);
    k->insts = e.insts;
    k->ninsts = e.n;
    p->cap_insts = e.cap;
    k->brx_targets = e.brx;
    k->nbrx_targets = e.nbrx;
    p->cap_brx = e.cap_brx;
    return 0;
}

static int finish(P *p)
{
    ws_kernel *k = p->k;
    /* variable layout */
    uint64_t data = 0, shared = 0, local = 0, dyn_align = 0;
    for (uint32_t i = 0; i < k->nvars; i++) {
        ws_var *v = &k->vars[i];
        if (p->vx && p->vx[i].alias != UINT32_MAX) continue;   /* a call's .param: the callee's slot */
        if (v->space == WS_SP_GLOBAL || v->space == WS_SP_CONST) {
            v->offset = data = align_up(data, v->align);
            data += v->size;
        } else if (v->space == WS_SP_SHARED && v->offset != UINT64_MAX) {
            v->offset = shared = align_up(shared, v->align);
            shared += v->size;
        } else if (v->space == WS_SP_SHARED) {
            if (v->align > dyn_align) dyn_align = v->align;
        } else {
            v->offset = local = align_up(local, v->align);
            local += v->size;
        }
    }
    for (uint32_t i = 0; p->vx && i < k->nvars; i++) {
        uint32_t a = i, hops = 0;
        while (p->vx[a].alias != UINT32_MAX && hops++ < k->nvars) a = p->vx[a].alias;
        if (a != i) k->vars[i].offset = k->vars[a].offset;
    }
    if (dyn_align) shared = align_up(shared, dyn_align);
    for (uint32_t i = 0; i < k->nvars; i++)
        if (k->vars[i].space == WS_SP_SHARED && k->vars[i].offset == UINT64_MAX) k->vars[i].offset = shared;
    if (shared > 0xffffffffu || local > 0xffffffffu) return ws_fail(p->err, "%s: shared or local variables too large", p->path);
    k->shared_bytes = (uint32_t)shared;
    k->local_bytes = (uint32_t)local;
    k->data_bytes = data;
    if (data >= WS_GLOBAL_BASE - WS_DATA_BASE) return ws_fail(p->err, "%s: .global/.const data too large", p->path);
    for (size_t i = 0; i < p->nai; i++) {   /* address initialisers, now that every variable has its place */
        const ainit *a = &p->ai[i];
        ws_tok *t = &p->t[a->tok];
        int64_t sv;
        if (!smap_get(&p->syms, t->s, t->n, &sv)) return err_at(p, t, "undefined variable '%.*s' in an initialiser", TK(t));
        const ws_var *tv = &k->vars[sv];
        if (tv->space != WS_SP_GLOBAL && tv->space != WS_SP_CONST)
            return err_at(p, t, "initialiser takes the address of %s variable '%.*s' (only .global/.const are supported)",
                          tv->space == WS_SP_SHARED ? "a .shared" : "a .local", TK(t));
        uint64_t addr = var_address(tv) + (uint64_t)a->addend;
        if (a->esize == 4 && addr > 0xffffffffu)
            return err_at(p, t, "address of '%.*s' does not fit a 32-bit initialiser", TK(t));
        uint8_t *dst = k->vars[a->var].init + a->byte;
        for (int b = 0; b < a->esize; b++) dst[b] = (uint8_t)(addr >> (8 * b));
    }

    if (k->ninsts == 0) return ws_fail(p->err, "%s: kernel '%s' has no instructions", p->path, k->name);
    resolve_vars(k, k->insts, p->fx, p->nfx);
    for (size_t f = 0; f < p->nfns; f++)
        if (p->fns[f].decoded) resolve_vars(k, p->fns[f].insts, p->fns[f].fx, p->fns[f].nfx);
    if (p->ncs && expand(p)) return -1;
    /* per instruction: unit, back edges, registers read and written */
    for (uint32_t i = 0; i < k->ninsts; i++) {
        ws_inst *in = &k->insts[i];
        ws_inst_classify(in);
        if (in->op == WS_OP_BRA) in->is_backedge = in->target <= i;
        if (in->op == WS_OP_BRX)
            for (uint32_t j = 0; j < in->ntargets; j++)
                if (k->brx_targets[in->target + j] <= i) in->is_backedge = 1;
        uint32_t rd[32], wr[16];
        int nr = 0, nw = 0;
#define ADD(arr, n, r) do { int d_ = 0; for (int q_ = 0; q_ < (n); q_++) d_ |= (arr)[q_] == (r); if (!d_ && (r) != WS_NO_REG) (arr)[(n)++] = (r); } while (0)
        if (in->guard != WS_NO_REG) ADD(rd, nr, in->guard);
        for (int j = 0; j < in->nsrc; j++) {
            ws_operand *o = &in->src[j];
            if (o->kind == WS_OK_REG || o->kind == WS_OK_ADDR) ADD(rd, nr, o->reg);
            else if (o->kind == WS_OK_VEC) for (int e = 0; e < o->nvec; e++) ADD(rd, nr, o->vec[e]);
        }
        for (int j = 0; j < in->ndst; j++) {
            ws_operand *o = &in->dst[j];
            if (o->kind == WS_OK_REG) ADD(wr, nw, o->reg);
            else if (o->kind == WS_OK_VEC) for (int e = 0; e < o->nvec; e++) ADD(wr, nw, o->vec[e]);
        }
#undef ADD
        if (nr > 16 || nw > WS_MAX_WR) return ws_fail(p->err, "%s:%u:%u: too many registers in one instruction", p->path, in->line, in->col);
        memcpy(in->rd, rd, (size_t)nr * sizeof *rd);
        memcpy(in->wr, wr, (size_t)nw * sizeof *wr);
        in->n_rd = (uint8_t)nr;
        in->n_wr = (uint8_t)nw;
    }
    uint32_t est = 0;
    for (uint32_t r = 0; r < k->nregs; r++) {
        int b = ws_type_bits((ws_type)k->reg_types[r]);
        est += b <= 1 ? 0 : b <= 32 ? 1 : 2;
        if (est > 255) { est = 255; break; }
    }
    k->est_regs_per_thread = est;
    return 0;
}

void ws_kernel_free(ws_kernel *k)
{
    if (!k) return;
    free(k->path);
    free(k->name);
    free(k->insts);
    if (k->reg_names)
        for (uint32_t i = 0; i < k->nregs; i++) free(k->reg_names[i]);
    free(k->reg_names);
    free(k->reg_types);
    free(k->reg_slot);
    if (k->params)
        for (uint32_t i = 0; i < k->nparams; i++) free(k->params[i].name);
    free(k->params);
    if (k->vars)
        for (uint32_t i = 0; i < k->nvars; i++) { free(k->vars[i].name); free(k->vars[i].init); }
    free(k->vars);
    free(k->brx_targets);
    if (k->blocks)
        for (uint32_t i = 0; i < k->nblocks; i++) free(k->blocks[i].succ);
    free(k->blocks);
    free(k->block_of);
    free(k->source);
    free(k);
}

static void p_free(P *p)
{
    if (p->have_saved) bs_free(&p->saved, 0);
    for (size_t f = 0; f < p->nfns; f++) {
        fbody *b = &p->fns[f];
        free(b->formals);
        free(b->insts);
        for (uint32_t r = 0; b->reg_names && r < b->nregs; r++) free(b->reg_names[r]);
        free(b->reg_names);
        free(b->reg_types);
        free(b->brx);
        free(b->fx);
    }
    free(p->fns);
    for (size_t c = 0; c < p->ncs; c++) free(p->cs[c].vars);
    free(p->cs);
    free(p->funcs.e);
    free(p->vx);
    free(p->t);
    free(p->regs.e); free(p->syms.e); free(p->params.e); free(p->labels.e); free(p->btl.e);
    free(p->reg_depth); free(p->label_tok); free(p->fx); free(p->bt); free(p->und); free(p->entries); free(p->ai);
}

ws_kernel *ws_ptx_decode(const char *text, const char *path, const char *entry, ws_error *err)
{
    if (!path) path = "<ptx>";
    if (!text) { ws_fail(err, "%s: no PTX text", path); return NULL; }
    P pp, *p = &pp;
    memset(p, 0, sizeof *p);
    p->path = path;
    p->err = err;
    ws_kernel *k = calloc(1, sizeof *k);
    if (!k) { ws_fail(err, "%s: out of memory", path); return NULL; }
    p->k = k;
    for (int j = 0; j < 3; j++) k->reqntid[j] = k->maxntid[j] = 0;
    k->path = strdup(path);
    k->source = strdup(text);
    if (!k->path || !k->source) { oom(p); goto fail; }
    /* the tokens point into k->source (kept with the kernel) */
    if (ws_ptx_lex(k->source, path, &p->t, &p->nt, err)) goto fail;
    if (parse_module(p)) goto fail;
    uint32_t chosen = UINT32_MAX;
    if (p->nentries == 0) { ws_fail(err, "%s: no .entry kernel in the file", path); goto fail; }
    if (!entry) {
        if (p->nentries > 1) {
            char list[400] = "";
            size_t o = 0;
            for (size_t e = 0; e < p->nentries && o < sizeof list - 80; e++) {
                ws_tok *nt = &p->t[p->entries[e] + 1];
                o += (size_t)snprintf(list + o, sizeof list - o, "%s%.*s", e ? ", " : "", TK(nt));
            }
            ws_fail(err, "%s: %zu .entry kernels in the file; choose one (entry:): %s", path, p->nentries, list);
            goto fail;
        }
        chosen = p->entries[0];
    } else {
        for (size_t e = 0; e < p->nentries; e++)
            if (tok_eq(&p->t[p->entries[e] + 1], entry)) chosen = p->entries[e];
        if (chosen == UINT32_MAX) {
            char list[400] = "";
            size_t o = 0;
            for (size_t e = 0; e < p->nentries && o < sizeof list - 80; e++) {
                ws_tok *nt = &p->t[p->entries[e] + 1];
                o += (size_t)snprintf(list + o, sizeof list - o, "%s%.*s", e ? ", " : "", TK(nt));
            }
            ws_fail(err, "%s: no .entry named '%s' (the file has: %s)", path, entry, list);
            goto fail;
        }
    }
    p->i = chosen;
    if (parse_entry(p) || resolve_labels(p)) goto fail;
    pop_scope(p, 0);   /* the entry's variables leave syms before the functions are decoded */
    if (p->ncs && decode_funcs(p)) goto fail;
    if (finish(p)) goto fail;
    p_free(p);
    return k;
fail:
    p_free(p);
    ws_kernel_free(k);
    return NULL;
}

ws_kernel *ws_ptx_parse(const char *text, const char *path, const char *entry, ws_error *err)
{
    ws_kernel *k = ws_ptx_decode(text, path, entry, err);
    if (!k) return NULL;
    if (ws_cfg_build(k, err)) {
        ws_kernel_free(k);
        return NULL;
    }
    k->est_regs_per_thread = ws_reg_pressure(k);
    return k;
}

/* Opens path for reading if it is a regular file: O_NONBLOCK so that a FIFO
 * without a writer cannot block the open itself. */
static FILE *open_regular(const char *path, ws_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        ws_fail(err, "%s: cannot open PTX file: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st)) {
        ws_fail(err, "%s: cannot open PTX file: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        ws_fail(err, "%s: not a regular file (%s): cannot be a PTX file", path,
                S_ISDIR(st.st_mode) ? "a directory" : "a device, FIFO or socket");
        close(fd);
        return NULL;
    }
    if ((uint64_t)st.st_size > WS_PTX_MAX_BYTES) {
        ws_fail(err, "%s: %lld bytes, more than the %zu MiB a PTX file may have", path, (long long)st.st_size,
                WS_PTX_MAX_BYTES >> 20);
        close(fd);
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        ws_fail(err, "%s: cannot open PTX file: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

ws_kernel *ws_ptx_load(const char *path, const char *entry, ws_error *err)
{
    FILE *f = open_regular(path, err);
    if (!f) return NULL;
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) { fclose(f); ws_fail(err, "%s: out of memory", path); return NULL; }
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        if (n > WS_PTX_MAX_BYTES) { /* grew since fstat */
            free(buf);
            fclose(f);
            ws_fail(err, "%s: more than the %zu MiB a PTX file may have", path, WS_PTX_MAX_BYTES >> 20);
            return NULL;
        }
        cap *= 2;
        char *nb = realloc(buf, cap);
        if (!nb) free(buf);
        buf = nb;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) { free(buf); ws_fail(err, "%s: read error", path); return NULL; }
    buf[n] = 0;
    if (memchr(buf, 0, n)) { free(buf); ws_fail(err, "%s: not a text file (contains NUL bytes)", path); return NULL; }
    ws_kernel *k = ws_ptx_parse(buf, path, entry, err);
    free(buf);
    return k;
}
