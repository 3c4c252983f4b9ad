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
 * finish_kernel() lays out the variables, then expand_calls() copies each callee at its call site
 * (fresh registers, remapped labels, ret -> bra; see the notes above expand_calls()) and computes
 * units and rd/wr lists over the flat kernel, so nothing downstream knows about calls.
 * Refused: calls to .extern/undeclared functions (printf's vprintf), indirect calls
 * (register callee, prototypes), guarded calls, arguments that are not .param variables,
 * recursion (at the call closing the cycle), more than INLINE_MAX instructions.
 */
#include "parse_internal.h"

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
    if (expect_punct(p, ';', "after the .branchtargets list")) return -1;
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
        if (expect_punct(p, ']', "after the array size")) return -1;
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
        if (expect_punct(p, ')', "closing the parameter list")) return -1;
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
    if (expect_punct(p, '{', "opening the kernel body")) return -1;
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
    if (expect_punct(p, '(', "opening the function's parameter list")) return -1;
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
        ws_var *v;
        if (new_var(p, nt, &v) < 0) return -1;
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
                for (uint32_t el = 0; (f->formals[j] & CALL_REG) && el < CALL_NREGS(f->formals[j]); el++)
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
                for (uint32_t el = 0; (f->formals[j] & CALL_REG) && el < CALL_NREGS(f->formals[j]); el++)
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

static int expand_calls(P *p)
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

static int finish_kernel(P *p)
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
    if (p->ncs && expand_calls(p)) return -1;
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
    if (finish_kernel(p)) goto fail;
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
