/* PTX front end: instruction modifiers (which each opcode allows, and what each sets). */
#include "parse_internal.h"

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
    [A_RELU] = ".relu", [A_NAN] = ".NaN", [A_SHAPE] = "a inst_shape(.m16n8k16 .m16n8k8 .m16n8k32 .m8n8k4)",
    [A_LAYOUT] = ".row.col", [A_LDM] = ".x1/.x2/.x4, .trans",
    [A_CPA] = ".ca/.cg, .commit_group, .wait_group, .wait_all",
    [A_MBAR] = "an operation (.init .arrive .arrive_drop .test_wait .try_wait .pending_count .inval), .parity",
    [A_GRIDDEP] = "griddepcontrol: .wait/.launch_dependents; createpolicy: .fractional/.range/.cvt",
};
const uint64_t op_allow[WS_OP_COUNT] = {
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

/* the scalar and other video instructions, refused by name (PTX ISA 9.7.16) */
const char *const video_refused[WS_N_VIDEO_REFUSED] = {"vadd", "vsub", "vabsdiff", "vmin", "vmax", "vmad",
                                            "vset", "vset2", "vset4"};

/* instructions of recent PTX refused by name, with the reason and what is supported instead */
const refused_inst refused_insts[WS_N_REFUSED_INSTS] = {
    {"wgmma", "sm_90a warpgroup mma is outside the subset (mma.sync is supported)"},
    {"tcgen05", "sm_100 tensor-core instructions are outside the subset (mma.sync is supported)"},
    {"mapa", "thread-block cluster instructions (sm_90) are outside the subset: one CTA is its own cluster here"},
    {"getctarank", "thread-block cluster instructions (sm_90) are outside the subset: one CTA is its own cluster here"},
    {"multimem", "sm_90 multimem instructions are outside the subset"},
    {"setmaxnreg", "sm_90a setmaxnreg is outside the subset"},
};

const char *const pack_names[9] = {"", "u2", "s2", "u4", "s4", "u8", "s8", "u16", "s16"};

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
/* cp.async.bulk's modifiers, in their order: the first state space is the destination
 * (in->space), the second the source (in->rnd), the completion mechanism in in->boolop (1
 * .mbarrier::complete_tx::bytes, 2 .bulk_group); the form is decided in check_new_forms. */
static int bulk_mod(P *p, ws_inst *in, const ws_tok *t, const char *s, size_t n)
{
#define IS(str) (n == sizeof str - 1 && !memcmp(s, str, n))
    if (IS("commit_group") || IS("wait_group") || IS("prefetch")) {
        if (in->subop != WS_CPA_BULK) return err_at(p, t, "'%.*s' after another cp.async.bulk form", TK(t)), -2;
        in->subop = (uint8_t)(s[0] == 'c' ? WS_CPA_BULK_COMMIT : s[0] == 'w' ? WS_CPA_BULK_WAIT : WS_CPA_BULK_PREFETCH);
        return A_CPA;
    }
    if (IS("read") && in->subop == WS_CPA_BULK_WAIT) return A_CPA;   /* until the sources are read: the whole copy here */
    if (IS("L2") && in->subop == WS_CPA_BULK_PREFETCH) return A_CPA;
    uint8_t sp = IS("global") ? WS_SP_GLOBAL
               : IS("shared") || IS("shared::cta") || IS("shared::cluster") ? WS_SP_SHARED : WS_SP_NONE;
    if (sp) {
        if (!in->space) in->space = sp;
        else if (!in->rnd) in->rnd = sp;
        else return err_at(p, t, "more than two state spaces on 'cp.async.bulk'"), -2;
        return A_SPACE;
    }
    if (IS("mbarrier::complete_tx::bytes")) { in->boolop = 1; return A_CPA; }
    if (IS("bulk_group")) { in->boolop = 2; return A_CPA; }
    if (IS("L2::cache_hint")) {   /* a cache-policy operand follows: accepted, ignored */
        in->mods |= WS_MOD_CACHE_HINT;
        return A_CACHE;
    }
    if (n > 10 && !memcmp(s, "multicast", 9))
        return err_at(p, t, "'cp.async.bulk%.*s' is not supported (thread-block clusters are not modelled)", TK(t)), -2;
    return -1;
#undef IS
}

static int cpa_mod(P *p, ws_inst *in, const ws_tok *t, const char *s, size_t n)
{
    if (n == 4 && !memcmp(s, "bulk", 4)) {
        if (in->subop) return err_at(p, t, "'.bulk' after another cp.async form"), -2;
        in->subop = WS_CPA_BULK;
        return A_CPA;
    }
    if (ws_cpa_is_bulk(in->subop)) return bulk_mod(p, in, t, s, n);
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

const char *const mma_shapes[WS_N_MMA_SHAPES] = {"m16n8k16", "m16n8k8", "m16n8k32", "m8n8k4", "m8n8k16", "m8n8k32"};

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
int apply_mod(P *p, ws_inst *in, modstate *ms, const ws_tok *t)
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
                                          "inval", "expect_tx", "complete_tx"};
        /* arrive{_drop}.expect_tx: an arrival with an expect-tx first (PTX ISA 8.0) */
        if (n == 9 && !memcmp(s, "expect_tx", 9) && (in->subop == WS_MBAR_ARRIVE || in->subop == WS_MBAR_ARRIVE_DROP)) {
            in->boolop = WS_MBAR_EXPECT;
            return A_MBAR;
        }
        for (int f = WS_MBAR_INIT; f <= WS_MBAR_COMPLETE_TX; f++)
            if (strlen(ops[f]) == n && !memcmp(s, ops[f], n)) {
                if (in->subop) return err_at(p, t, "more than one mbarrier operation"), -2;
                in->subop = (uint8_t)f;
                return A_MBAR;
            }
        if (n == 6 && !memcmp(s, "parity", 6)) { in->boolop = WS_MBAR_PARITY; return A_MBAR; }
        /* .shared::cluster: every launch here is of one-CTA clusters, whose shared::cluster
         * window is the CTA's own shared memory (PTX ISA "Cluster" state space) */
        if ((n == 6 && !memcmp(s, "shared", 6)) || (n == 11 && !memcmp(s, "shared::cta", 11)) ||
            (n == 15 && !memcmp(s, "shared::cluster", 15))) {
            in->space = WS_SP_SHARED;
            return A_SPACE;
        }
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
    if (op == WS_OP_FENCE && ((n == 5 && !memcmp(s, "proxy", 5)) || (n == 13 && !memcmp(s, "mbarrier_init", 13)))) {
        /* fence.proxy.async{.global,.shared::{cta,cluster}}, fence.mbarrier_init (PTX ISA 9.7.13.4):
         * they order this CTA's generic-proxy accesses against its async-proxy ones (bulk copies)
         * and an mbarrier.init against them; values move at issue here, so they cost what
         * fence.cta does (boolop marks the proxy form for the modifiers after it) */
        in->subop = WS_SCOPE_CTA;
        in->boolop = 1;
        return A_ORDER;
    }
    if (op == WS_OP_FENCE && in->boolop == 1 &&
        ((n == 5 && !memcmp(s, "async", 5)) || (n == 6 && !memcmp(s, "global", 6)) || (n == 6 && !memcmp(s, "shared", 6)) ||
         (n == 11 && !memcmp(s, "shared::cta", 11)) || (n == 15 && !memcmp(s, "shared::cluster", 15))))
        return A_ORDER;
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
        if (n == 2 && !memcmp(s, cacheops[i], 2)) {
            /* .cg caches at the global level (the L2), .cv fetches again: neither uses the L1 */
            if ((op == WS_OP_LD || op == WS_OP_LDU) && (i == 1 || i == 4)) in->mods |= WS_MOD_L1_BYPASS;   /* cg, cv */
            return A_CACHE;
        }
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

void describe_allowed(int op, char *buf, size_t len)
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