/* PTX front end: one instruction (opcode lookup, calls, form checks, wmma, textures). */
#include "parse_internal.h"

/* opcode lookup through isa.def (never a second list of mnemonics: besides it only call and
 * wmma.mma, which take paths of their own, and the names of refused instructions appear here) */
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
    if (expect_punct(p, '(', what)) return -1;
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
        if ((item & CALL_REG) && (item & CALL_RNUM) + CALL_NREGS(item) > CALL_RNUM)
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

/* call[.uni] [(ret),] fname [, (args)];  a placeholder instruction (OP_CALL) that expand_calls()
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
        if (expect_punct(p, ',', "after the call's return value")) goto out;
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
    if (expect_punct(p, ';', "after the call")) goto out;
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

/* the type and modifier rules of dp4a dp2a fns bmsk szext cvt.pack lop3 and the SIMD video
 * instructions (PTX ISA 9.7.1.23-24, 9.7.1.26-27 (dp4a, dp2a), 9.7.1.22 (fns), 9.7.8.6 (lop3),
 * 9.7.9.22 (cvt.pack), 9.7.16.2 (vop2/vop4)) */
static int check_new_forms(P *p, ws_inst *in, const ws_tok *optok)
{
    const char *mn = ws_opcode_name(in->op);
    switch (in->op) {
    case WS_OP_CP_ASYNC:   /* cp.async.bulk: the form from its spaces and completion (parse_mod.c bulk_mod) */
        if (in->subop == WS_CPA_BULK) {
            if (in->space == WS_SP_SHARED && in->rnd == WS_SP_GLOBAL && in->boolop == 1) in->subop = WS_CPA_BULK_G2S;
            else if (in->space == WS_SP_SHARED && in->rnd == WS_SP_SHARED && in->boolop == 1) in->subop = WS_CPA_BULK_S2S;
            else if (in->space == WS_SP_GLOBAL && in->rnd == WS_SP_SHARED && in->boolop == 2) in->subop = WS_CPA_BULK_S2G;
        }
        if ((in->subop == WS_CPA_BULK_PREFETCH && (in->space != WS_SP_GLOBAL || in->rnd)) || in->subop == WS_CPA_BULK ||
            ((in->subop == WS_CPA_BULK_COMMIT || in->subop == WS_CPA_BULK_WAIT) && (in->space || in->boolop)))
            return err_at(p, optok, "'cp.async.bulk' is supported as .shared::cluster.global.mbarrier::complete_tx::bytes, "
                          ".shared::cluster.shared::cta.mbarrier::complete_tx::bytes, .global.shared::cta.bulk_group, "
                          ".commit_group, .wait_group{.read} and .prefetch.L2.global");
        in->rnd = 0;
        if (in->subop == WS_CPA_BULK_G2S || in->subop == WS_CPA_BULK_PREFETCH) in->mods |= WS_MOD_L1_BYPASS;   /* L2 -> SM */
        return 0;
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
int video_selectors(P *p, ws_inst *in, const raw *ops, int nops, const ws_tok *optok)
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
    if (!ms->shape) return err_at(p, optok, "'mma' needs a inst_shape(%s)", supported);
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
int check_mma_operands(P *p, ws_inst *in, const raw *ops)
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

/* A new instruction at the end of the kernel's list (not yet counted in
 * ninsts): op under guard (negated: gneg), at first's position, one element,
 * no reconvergence point yet; everything else zero. */
static int new_inst(P *p, const ws_tok *first, uint32_t guard, int gneg, int op, ws_inst **out)
{
    ws_kernel *k = p->k;
    GROW(k->insts, k->ninsts, p->cap_insts);
    ws_inst *in = *out = &k->insts[k->ninsts];
    memset(in, 0, sizeof *in);
    in->op = (uint16_t)op;
    in->guard = guard;
    in->guard_neg = (uint8_t)gneg;
    in->line = first->line;
    in->col = first->col;
    in->vec = 1;
    in->ipdom = WS_PC_EXIT;
    return 0;
}

static int wmma_inst(P *p, const ws_tok *first, uint32_t guard, int gneg, int op, ws_inst **out)
{
    if (new_inst(p, first, guard, gneg, op, out) < 0) return -1;
    p->k->ninsts++;
    (*out)->mods = WS_MOD_ALIGNED;
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
    if (expect_punct(p, '[', "opening the texture operand")) return -1;
    ws_tok *h = cur(p);
    if (h->kind != WS_TK_IDENT || !lookup_reg(p, h, handle))
        return err_at(p, h, "expected a .u64 register holding a texture or surface object, got '%.*s' (.texref/.surfref "
                      "variables are not supported)", TK(h));
    if (ws_type_bits((ws_type)p->k->reg_types[*handle]) != 64)
        return err_at(p, h, "the texture/surface object '%.*s' must be a 64-bit register", TK(h));
    adv(p);
    if (want_coords) {
        if (expect_punct(p, ',', "after the texture object")) return -1;
        if (parse_operand(p, coords)) return -1;
        if (coords->kind != R_VEC && coords->kind != R_REG)
            return err_at(p, &p->t[coords->tok], "the coordinates must be a register or a vector {x, ...}");
    }
    return expect_punct(p, ']', "closing the texture operand");
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
        if (tex_address(p, &h, &c, 1) || expect_punct(p, ',', "after the surface operand") || parse_operand(p, &d)) return -1;
    } else {
        if (parse_operand(p, &d)) return -1;
        if (d.kind == R_PAIR) return err_at(p, &p->t[d.tok], "'%s' with a residency predicate (d|p) is not supported", mn);
        if (expect_punct(p, ',', "after the destination") || tex_address(p, &h, &c, op != WS_OP_TXQ)) return -1;
    }
    raw lod[2];
    for (int j = 0; j < m.lod; j++) {   /* tex.level: lod; tex.grad: dPdx, dPdy */
        if (expect_punct(p, ',', m.lod == 1 ? "before the level of detail" : "before the gradients") || parse_operand(p, &lod[j]))
            return -1;
        int want = m.lod == 1 ? 1 : m.dims == 3 ? 4 : m.dims;
        if (tex_check_vec(p, &lod[j], want, m.lod == 1 ? "the level of detail" : "a gradient", "tex")) return -1;
    }
    if (is_punct(cur(p), ','))
        return err_at(p, cur(p), "'%s' with an offset or depth-compare operand is not supported", mn);
    if (expect_punct(p, ';', "ending the instruction")) return -1;
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

int parse_wmma(P *p, const ws_tok *first, uint32_t guard, int gneg)
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

int parse_inst(P *p)
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
    static const int texops[] = {WS_OP_TEX, WS_OP_TLD4, WS_OP_TXQ, WS_OP_SULD, WS_OP_SUST};   /* their mnemonics: isa.def */
    for (size_t q = 0; q < sizeof texops / sizeof texops[0]; q++)
        if (tok_eq(optok, ws_opcode_name(texops[q]))) return parse_texinst(p, first, guard, gneg, texops[q]);
    uint32_t nt;
    int op = lookup_opcode(p, &nt);
    for (size_t v = 0; op < 0 && v < sizeof video_refused / sizeof video_refused[0]; v++)
        if (tok_eq(optok, video_refused[v]))
            return err_at(p, optok, "video instruction '%.*s' is not supported (of the video instructions only the SIMD "
                          "vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2 and their 4-way forms are, with the default "
                          "selectors and mask, and the scalar vshl vshr)", TK(optok));
    if (op == WS_OP_CP_ASYNC && peek(p, 2)->kind == WS_TK_DOT && peek(p, 2)->adj && tok_eq(peek(p, 2), ".mbarrier"))
        return err_at(p, peek(p, 2), "'cp.async%.*s' is not supported (the sm_80 cp.async-to-mbarrier arrive is "
                      "outside the subset; supported: cp.async.ca/.cg.shared.global, .commit_group, .wait_group, "
                      ".wait_all, cp.async.bulk)", TK(peek(p, 2)));
    if (op == WS_OP_CP_ASYNC && tok_eq(peek(p, 2), ".bulk") && peek(p, 3)->kind == WS_TK_DOT && peek(p, 3)->adj &&
        tok_eq(peek(p, 3), ".tensor"))
        return err_at(p, peek(p, 3), "'cp.async.bulk.tensor' is not supported (TMA tensor copies need tensor maps, not "
                      "modelled yet; supported: the non-tensor cp.async.bulk forms)");
    for (size_t v = 0; op < 0 && v < sizeof refused_insts / sizeof refused_insts[0]; v++)
        if (tok_eq(optok, refused_insts[v].name))
            return err_at(p, optok, "instruction '%.*s' is not supported: %s", TK(optok), refused_insts[v].why);
    if (op < 0)
        return err_at(p, optok, "unknown or unsupported instruction '%.*s' (supported: integer/logic, f32/f64 arithmetic, setp/selp/cvt, ld/st/atom/red, bra/brx.idx/ret/exit, bar/membar, shfl/vote/match.sync; see isa.def)", TK(optok));
    for (uint32_t j = 0; j < nt; j++) adv(p);
    ws_inst *in;
    if (new_inst(p, first, guard, gneg, op, &in) < 0) return -1;
    uint32_t ii = k->ninsts;
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
                                 (in->boolop == WS_MBAR_PARITY && in->subop != WS_MBAR_TEST_WAIT && in->subop != WS_MBAR_TRY_WAIT)))
        return err_at(p, optok, "'mbarrier' needs an operation and .b64 (supported: mbarrier.init/.arrive{.expect_tx}/"
                      ".arrive_drop{.expect_tx}/.expect_tx/.complete_tx/.test_wait/.try_wait{.parity}/.pending_count/"
                      ".inval{.shared{::cta,::cluster}}.b64)");
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
    if (op == WS_OP_VOTE && nops != (ms.sync ? 3 : 2))   /* inst_shape() allows both forms */
        return err_at(p, optok, "'%s' takes %d operands, got %d", ms.sync ? "vote.sync" : "vote", ms.sync ? 3 : 2, nops);
    if (op == WS_OP_CP_ASYNC && (in->subop == WS_CPA_COPY || ws_cpa_is_bulk(in->subop)) &&
        cpa_operands(p, in, ops, &nops, optok))
        return -1;
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
    if (op == WS_OP_CP_ASYNC && (in->subop == WS_CPA_WAIT || in->subop == WS_CPA_BULK_WAIT) && in->src[0].kind != WS_OK_IMM)
        return err_at(p, &p->t[ops[0].tok], "'cp.async%s.wait_group' takes an integer constant",
                      in->subop == WS_CPA_BULK_WAIT ? ".bulk" : "");
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