/* PTX front end: operands, instruction shapes, and decoding operands into a ws_inst. */
#include "parse_internal.h"

static const char *const other_sregs[] = {"%envreg", "%pm", "%total_smem_size", "%dynamic_smem_size",
                                         "%aggr_smem_size", "%reserved_smem", "%current_graph_exec", "%clusterid",
                                         "%nclusterid", "%cluster", "%is_explicit_cluster", "%nctarank", "%ctarank"};

/* a scalar register (vector registers are not: see vreg_ref) */
int lookup_reg(P *p, const ws_tok *t, uint32_t *r)
{
    int64_t v;
    if (smap_get(&p->regs, t->s, t->n, &v) && !(v >> 32)) { *r = (uint32_t)v; return 1; }
    return 0;
}

/* t names a vector register: 0 if not; else its element count, first register in *first,
 * and if an adjacent element selector follows (.x .y .z .w, or .r .g .b .a: PTX ISA 6.4.2.2)
 * the element's register in *elem (UINT32_MAX without one; -1 after an error) */
int vreg_ref(P *p, const ws_tok *t, uint32_t *first, uint32_t *elem)
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

int parse_offset(P *p, int64_t *off)
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

int parse_operand(P *p, raw *r)
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
        return expect_punct(p, ']', "closing the address");
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
        return expect_punct(p, '}', "closing the vector operand");
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

static int src_class(const ws_inst *in, int j, int nsrc)
{
    switch (in->op) {
    case WS_OP_LD: case WS_OP_LDU: case WS_OP_PREFETCH: case WS_OP_ATOM: case WS_OP_RED: case WS_OP_LDMATRIX:
        return j == 0 ? C_ADDR : C_VAL;
    case WS_OP_CP_ASYNC:   /* [dst], [src], cp-size, {src-size | ignore-src}; bulk: [dst], [src], size{, [mbar]} */
        if (in->subop == WS_CPA_BULK_PREFETCH) return j == 0 ? C_ADDR : C_VAL;   /* [src], size */
        if (in->subop == WS_CPA_BULK_G2S || in->subop == WS_CPA_BULK_S2S || in->subop == WS_CPA_BULK_S2G)
            return j == 2 ? C_VAL : C_ADDR;
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
    case WS_OP_CP_ASYNC:   /* a bulk copy's size and a wait_group's N: u32 */
        if (ws_cpa_is_bulk(in->subop)) return WS_TY_U32;
        return (ws_type)in->type;
    case WS_OP_MBARRIER:   /* count: u32; state: b64; phaseParity: u32 */
        return in->subop == WS_MBAR_INIT || in->subop == WS_MBAR_ARRIVE || in->subop == WS_MBAR_ARRIVE_DROP ||
               in->subop == WS_MBAR_EXPECT_TX || in->subop == WS_MBAR_COMPLETE_TX ||
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
void inst_shape(const ws_inst *in, int *nd, int *smin, int *smax)
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
        case WS_MBAR_ARRIVE: case WS_MBAR_ARRIVE_DROP:                          /* state, [a]{, count | txCount} */
            *smin = in->boolop == WS_MBAR_EXPECT ? 2 : 1;
            *smax = 2;
            break;
        case WS_MBAR_EXPECT_TX: case WS_MBAR_COMPLETE_TX: *nd = 0; *smin = *smax = 2; break;   /* [a], txCount */
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
        else if (in->subop == WS_CPA_BULK_G2S || in->subop == WS_CPA_BULK_S2S) *smin = *smax = 4;
        else if (in->subop == WS_CPA_BULK_S2G) *smin = *smax = 3;
        else if (in->subop == WS_CPA_BULK_PREFETCH) *smin = *smax = 2;
        else *smin = *smax = in->subop == WS_CPA_WAIT || in->subop == WS_CPA_BULK_WAIT ? 1 : 0;
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

int resolve_symbol(P *p, ws_inst *in, uint32_t ii, int slot, const raw *r, ws_operand *o)
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

int check_pred(P *p, uint32_t reg, const ws_tok *t, const char *what)
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
int cpa_operands(P *p, ws_inst *in, raw *ops, int *nops, const ws_tok *optok)
{
    if (in->mods & WS_MOD_CACHE_HINT) {
        if (*nops < (in->subop == WS_CPA_BULK_PREFETCH ? 3 : 4) || ops[*nops - 1].kind != R_REG)
            return err_at(p, *nops ? &p->t[ops[*nops - 1].tok] : optok,
                          "'cp.async...L2::cache_hint' takes a 64-bit cache-policy register as its last operand");
        (*nops)--;
        in->mods &= ~WS_MOD_CACHE_HINT;
    }
    if (in->subop != WS_CPA_COPY) return 0;
    if (*nops == 4 && ops[3].kind == R_REG && p->k->reg_types[ops[3].reg] == WS_TY_PRED) in->mods |= WS_MOD_IGNORE_SRC;
    else if (*nops == 4 && ops[3].neg)
        return err_at(p, &p->t[ops[3].tok], "'!' negates a predicate: the src-size of 'cp.async' is an integer");
    return 0;
}

int decode_operands(P *p, ws_inst *in, uint32_t ii, raw *ops, int nops, const ws_tok *optok)
{
    int nd, smin, smax;
    inst_shape(in, &nd, &smin, &smax);
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