#ifndef WS_PTX_INTERNAL_H
#define WS_PTX_INTERNAL_H
/* Shared by the PTX lexer, parser/decoder and disassembler (not public).
 * The modifier-name tables below are the single source for both decoding
 * ("rn" -> WS_RND_RN) and printing (WS_RND_RN -> "rn"). */
#include <stdint.h>
#include "warpsweep/ptx.h"

/* ---- tokens ---- */
enum { WS_TK_EOF, WS_TK_IDENT, WS_TK_DOT, WS_TK_INT, WS_TK_FLOAT, WS_TK_STRING, WS_TK_PUNCT };
enum { WS_FLT_DEC = 0, WS_FLT_BITS32 = 32, WS_FLT_BITS64 = 64 };

typedef struct ws_tok {
    uint8_t kind;
    uint8_t adj;        /* no whitespace between this token and the previous one */
    uint8_t fform;      /* WS_TK_FLOAT: WS_FLT_DEC, _BITS32 (0f...), _BITS64 (0d...) */
    char ch;            /* WS_TK_PUNCT */
    uint32_t line, col;
    const char *s;      /* points into the source text */
    uint32_t n;
    uint64_t ival;      /* WS_TK_INT value; WS_TK_FLOAT bits for 0f/0d */
    double fval;        /* WS_TK_FLOAT decimal */
} ws_tok;

/* Tokenises text (comments dropped, last token WS_TK_EOF). 0 or -1 + err. */
int ws_ptx_lex(const char *text, const char *path, ws_tok **out, uint32_t *nout, ws_error *err);

/* ---- name tables (types.c), indexed by the enum; NULL/"" where none ---- */
extern const char *const ws_space_names[];  /* ws_space: "global" ... */
extern const char *const ws_cmp_names[];    /* ws_cmp */
extern const char *const ws_bool_names[];   /* ws_boolop */
extern const char *const ws_rnd_names[];    /* ws_rnd */
extern const char *const ws_atom_names[];   /* WS_ATOM_* */
extern const char *const ws_shfl_names[];   /* WS_SHFL_* */
extern const char *const ws_vote_names[];   /* WS_VOTE_* */
extern const char *const ws_bar_names[];    /* WS_BAR_* ("sync", "arrive", "red.popc" ...) */
extern const char *const ws_match_names[];  /* WS_MATCH_* */
extern const char *const ws_prmt_names[];   /* WS_PRMT_* */
extern const char *const ws_shf_names[];    /* WS_SHF_* ("l.wrap" ...) */
extern const char *const ws_testp_names[];  /* WS_TESTP_* */
#define WS_NSPACE_NAMES 7
#define WS_NCMP_NAMES   19
#define WS_NBOOL_NAMES  4
#define WS_NRND_NAMES   9
#define WS_NATOM_NAMES  11
#define WS_NSHFL_NAMES  5
#define WS_NVOTE_NAMES  5
#define WS_NBAR_NAMES   6
#define WS_NMATCH_NAMES 3
#define WS_NPRMT_NAMES  7
#define WS_NSHF_NAMES   5
#define WS_NTESTP_NAMES 7

typedef struct ws_flag_name { uint32_t bit; const char *name; } ws_flag_name;
extern const ws_flag_name ws_flag_names[];  /* WS_MOD_* bits in PTX print order, {0, NULL}-terminated */

/* index of name[0..n) in table[0..count), or -1 (empty strings never match) */
int ws_name_index(const char *const *table, int count, const char *name, size_t n);

#endif

/* Decodes like ws_ptx_parse but without building the CFG (used by tests
 * and by ws_ptx_parse itself). */
ws_kernel *ws_ptx_decode(const char *text, const char *path, const char *entry, ws_error *err);

/* The type an immediate in source slot j of `in` has (float immediates are
 * stored as the IEEE bits of this type). */
ws_type ws_ptx_src_type(const ws_inst *in, int j);

/* membar/fence: ws_inst.subop holds the scope */
enum { WS_SCOPE_CTA = 1, WS_SCOPE_GPU, WS_SCOPE_SYS };
#define WS_NSCOPE_NAMES 4
extern const char *const ws_scope_names[]; /* "", "cta", "gl"/"gpu" (by opcode), "sys" */
