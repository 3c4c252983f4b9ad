/* The PTX front end's internals, shared by parse.c (the module, bodies, calls, inlining and
 * the public entry points), parse_util.c (string maps, tokens, registers, variables),
 * parse_mod.c (modifiers), parse_operand.c (operands and instruction shapes) and parse_inst.c
 * (one instruction: its form checks, wmma, textures). Not a public header. */
#ifndef WS_PARSE_INTERNAL_H
#define WS_PARSE_INTERNAL_H
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
 * template copied at every call site, see the inlining notes above expand_calls() in parse.c) */
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
#define CALL_NREGS(item) (CALL_NVEC(item) ? CALL_NVEC(item) : 1u)   /* registers a CALL_REG item spans */

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

static inline int oom(P *p) { return ws_fail(p->err, "%s: out of memory", p->path); }

static inline ws_tok *cur(P *p) { return &p->t[p->i]; }
static inline ws_tok *peek(P *p, uint32_t k) { uint32_t j = p->i + k; return &p->t[j < p->nt ? j : p->nt - 1]; }
static inline void adv(P *p) { if (p->t[p->i].kind != WS_TK_EOF) p->i++; }
static inline int is_punct(const ws_tok *t, char c) { return t->kind == WS_TK_PUNCT && t->ch == c; }
static inline int tok_eq(const ws_tok *t, const char *s) { size_t n = strlen(s); return t->n == n && memcmp(t->s, s, n) == 0; }
static inline int is_dir(const ws_tok *t, const char *s) { return t->kind == WS_TK_DOT && tok_eq(t, s); }

/* printable text of a token */
#define TK(t) (int)((t)->kind == WS_TK_EOF ? 11 : ((t)->n > 60 ? 60 : (t)->n)), ((t)->kind == WS_TK_EOF ? "end of file" : (t)->s)

static inline uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

static inline int type_bytes(ws_type t) { int b = ws_type_bits(t); return b <= 8 ? 1 : b / 8; }

/* A vector register (.reg .v2/.v4 .TYPE name) is nvec scalar registers named name.x, name.y
 * ... (what the disassembler prints); the name itself maps in p->regs to the first of them,
 * tagged with the element count in the upper 32 bits (see lookup_reg / vreg_lookup). */
#define VREG(first, n) ((int64_t)(first) | ((int64_t)(n) << 32))

/* ------------------------------------------------------------------ */
/* modifiers */

enum {
    A_TYPE = 0, A_TYPE2, A_SPACE, A_CMP, A_BOOL, A_RND, A_RNDI, A_SAT, A_FTZ, A_APPROX, A_FULL,
    A_HILO, A_WIDE, A_CC, A_UNI, A_VOL, A_TO, A_ALIGNED, A_ORDER, A_SCOPE, A_CACHE, A_NC, A_VEC,
    A_ATOM, A_SHFL, A_VOTE, A_BARK, A_MATCH, A_PRMT, A_SHF, A_TESTP, A_SYNC, A_IDX, A_NOFTZ, A_SHIFTAMT,
    A_BMODE, A_PACK, A_ACCUM, A_RELU, A_NAN, A_SHAPE, A_LAYOUT, A_LDM, A_CPA, A_GRIDDEP, A_MBAR, A_NCAT
};
#define B(x) (1ull << (x))

#define ARITH (B(A_TYPE) | B(A_RND) | B(A_SAT) | B(A_FTZ))
#define MEMQ (B(A_SPACE) | B(A_VOL) | B(A_ORDER) | B(A_SCOPE) | B(A_CACHE) | B(A_NC) | B(A_VEC) | B(A_TYPE))

/* the SIMD video instructions vop2/vop4 (three types: .dtype .atype .btype) */
static inline int is_simd_video(int op) { return op >= WS_OP_VADD2 && op <= WS_OP_VMAX4; }
/* the scalar video shifts vshl/vshr (three types: .dtype .atype .u32) */
static inline int is_vshift(int op) { return op == WS_OP_VSHL || op == WS_OP_VSHR; }

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

/* ------------------------------------------------------------------ */
/* instruction shapes */

enum { C_VAL, C_PRED, C_ADDR, C_LABEL, C_VALVEC, C_BRXLIST };

static inline int is_u32_s32(unsigned t) { return t == WS_TY_U32 || t == WS_TY_S32; }

typedef struct wmma_mods {
    int kind;          /* 'l' load, 's' store, 'm' mma */
    int matrix;        /* WS_WMMA_A/B/C (store: C) */
    int sync, aligned, shape, nlayout, col;   /* shape: WS_WMMA_* + 1 */
    int space, satfinite, rn;
    ws_type types[4];  /* .tf32: WS_TY_B32 */
    int ntypes;
} wmma_mods;

/* registers of a C/D fragment: 4 .f16x2, 8 .f32/.s32, 2 .f64 (m8n8k4) */
static inline int wmma_acc_regs(ws_type t) { return t == WS_TY_F16 ? 4 : t == WS_TY_F64 ? 2 : 8; }

/* One mma.sync of a wmma.mma (the model's fragment layout, src/exec/exec_tensor.c): the A and
 * B registers of half h. m16n16k16/k8: A 0 .. na-1 x B h*nb ..; m32n8k16: A h*na .. x B 0 ..;
 * m8n32k16 (transposed): the wmma B h*na .. as A x the wmma A 0 .. as B; m8n8k4: one mma.
 * C and D: block h (nc, nd registers each). */
typedef struct mma_half { const raw *a, *b; int a0, b0; } mma_half;

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

/* ---- tables shared by the parse_*.c files ---- */
#define supported_types ws_pp_supported_types
#define op_allow ws_pp_op_allow
#define video_refused ws_pp_video_refused
#define refused_insts ws_pp_refused_insts
#define pack_names ws_pp_pack_names
#define mma_shapes ws_pp_mma_shapes
extern const char *const supported_types;          /* parse_util.c */
extern const uint64_t op_allow[WS_OP_COUNT];        /* parse_mod.c: the modifier categories each opcode allows */
#define WS_N_VIDEO_REFUSED 9
extern const char *const video_refused[WS_N_VIDEO_REFUSED];
typedef struct refused_inst { const char *name, *why; } refused_inst;
#define WS_N_REFUSED_INSTS 6
extern const refused_inst refused_insts[WS_N_REFUSED_INSTS];
extern const char *const pack_names[9];
#define WS_N_MMA_SHAPES 6
extern const char *const mma_shapes[WS_N_MMA_SHAPES];

/* Their symbols carry a ws_pp_ prefix (the names below stay short in the sources). */
#define smap_get ws_pp_smap_get
#define smap_put ws_pp_smap_put
#define smap_del ws_pp_smap_del
#define err_at ws_pp_err_at
#define expect_punct ws_pp_expect_punct
#define expect_int ws_pp_expect_int
#define skip_line ws_pp_skip_line
#define skip_to_semicolon ws_pp_skip_to_semicolon
#define dupn ws_pp_dupn
#define is_refused_type ws_pp_is_refused_type
#define parse_type_tok ws_pp_parse_type_tok
#define num_bits ws_pp_num_bits
#define declare_reg ws_pp_declare_reg
#define declare_vreg ws_pp_declare_vreg
#define parse_reg ws_pp_parse_reg
#define new_var ws_pp_new_var
#define var_added ws_pp_var_added
#define parse_var ws_pp_parse_var
#define apply_mod ws_pp_apply_mod
#define describe_allowed ws_pp_describe_allowed
#define lookup_reg ws_pp_lookup_reg
#define vreg_ref ws_pp_vreg_ref
#define parse_offset ws_pp_parse_offset
#define parse_operand ws_pp_parse_operand
#define inst_shape ws_pp_inst_shape
#define resolve_symbol ws_pp_resolve_symbol
#define check_pred ws_pp_check_pred
#define cpa_operands ws_pp_cpa_operands
#define decode_operands ws_pp_decode_operands
#define video_selectors ws_pp_video_selectors
#define check_mma_operands ws_pp_check_mma_operands
#define parse_wmma ws_pp_parse_wmma
#define parse_inst ws_pp_parse_inst

/* ---- functions shared by the parse_*.c files ---- */
/* parse_util.c */
int smap_get(const smap *m, const char *s, uint32_t n, int64_t *val);
int smap_put(smap *m, const char *s, uint32_t n, int64_t val);
void smap_del(smap *m, const char *s, uint32_t n);
int err_at(P *p, const ws_tok *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int expect_punct(P *p, char c, const char *what);
int expect_int(P *p, const char *what, uint64_t *v);
void skip_line(P *p);
int skip_to_semicolon(P *p);
char *dupn(const char *s, size_t n);
int is_refused_type(const char *s, size_t n);
int parse_type_tok(P *p, ws_tok *t, ws_type *ty);
int num_bits(P *p, const ws_tok *t, int neg, ws_type ty, int64_t *out);
int declare_reg(P *p, const ws_tok *at, const char *name, uint32_t len, ws_type ty, int owned);
int declare_vreg(P *p, const ws_tok *at, const char *name, uint32_t len, ws_type ty, unsigned nvec);
int parse_reg(P *p);
/* A new variable named nt at the end of the kernel's list, counted, zero but
 * its name; -1 when out of memory. */
int new_var(P *p, const ws_tok *nt, ws_var **out);
int var_added(P *p, uint32_t v, const ws_tok *at, const char *name, uint32_t len, uint8_t flags);
int parse_var(P *p, int is_extern);
/* parse_mod.c */
int apply_mod(P *p, ws_inst *in, modstate *ms, const ws_tok *t);
void describe_allowed(int op, char *buf, size_t len);
/* parse_operand.c */
int lookup_reg(P *p, const ws_tok *t, uint32_t *r);
int vreg_ref(P *p, const ws_tok *t, uint32_t *first, uint32_t *elem);
int parse_offset(P *p, int64_t *off);
int parse_operand(P *p, raw *r);
void inst_shape(const ws_inst *in, int *nd, int *smin, int *smax);
int resolve_symbol(P *p, ws_inst *in, uint32_t ii, int slot, const raw *r, ws_operand *o);
int check_pred(P *p, uint32_t reg, const ws_tok *t, const char *what);
int cpa_operands(P *p, ws_inst *in, raw *ops, int *nops, const ws_tok *optok);
int decode_operands(P *p, ws_inst *in, uint32_t ii, raw *ops, int nops, const ws_tok *optok);
/* parse_inst.c */
int video_selectors(P *p, ws_inst *in, const raw *ops, int nops, const ws_tok *optok);
int check_mma_operands(P *p, ws_inst *in, const raw *ops);
int parse_wmma(P *p, const ws_tok *first, uint32_t guard, int gneg);
int parse_inst(P *p);

#endif
