/* Disassembler: prints a decoded instruction back as PTX-like text, from the
 * same name tables the decoder reads (isa.def, ptx_internal.h). */
#include <stdio.h>
#include <string.h>
#include <stdarg.h>
#include "warpsweep/ptx.h"
#include "ptx_internal.h"

typedef struct sb { char *buf; size_t len, n; } sb;

static void put(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->n < b->len ? b->len - b->n : 0;
    int w = vsnprintf(room ? b->buf + b->n : NULL, room, fmt, ap);
    va_end(ap);
    if (w > 0) b->n += (size_t)w;
}

static const char *regname(const ws_kernel *k, uint32_t r, char *tmp, size_t n)
{
    if (r == WS_NO_REG) return "_";
    if (k && k->reg_names && r < k->nregs) return k->reg_names[r];
    snprintf(tmp, n, "%%R%u", r);
    return tmp;
}

static void flags(sb *b, uint32_t mods, uint32_t mask)
{
    mods &= mask;
    if ((mods & (WS_MOD_ACQUIRE | WS_MOD_RELEASE)) == (WS_MOD_ACQUIRE | WS_MOD_RELEASE)) {
        put(b, ".acq_rel");
        mods &= ~(WS_MOD_ACQUIRE | WS_MOD_RELEASE);
    }
    for (const ws_flag_name *f = ws_flag_names; f->name; f++)
        if (mods & f->bit) put(b, ".%s", f->name);
}

static void operand(sb *b, const ws_kernel *k, const ws_inst *in, const ws_operand *o, ws_type ty)
{
    char tmp[32];
    switch (o->kind) {
    case WS_OK_REG:
        put(b, "%s%s", o->neg ? "!" : "", regname(k, o->reg, tmp, sizeof tmp));
        break;
    case WS_OK_IMM:
        if (ty == WS_TY_F32) put(b, "0f%08X", (unsigned)(uint32_t)o->imm);
        else if (ty == WS_TY_F64) put(b, "0d%016llX", (unsigned long long)o->imm);
        else if (o->imm >= (1ll << 24)) put(b, "0x%llx", (unsigned long long)o->imm);
        else put(b, "%lld", (long long)o->imm);
        break;
    case WS_OK_SREG:
        put(b, "%s", ws_sreg_name((ws_sreg)o->sreg));
        break;
    case WS_OK_ADDR:
        put(b, "[");
        if (o->reg != WS_NO_REG) {
            put(b, "%s", regname(k, o->reg, tmp, sizeof tmp));
            if (o->imm) put(b, "%+lld", (long long)o->imm);
        } else if (in->space == WS_SP_PARAM && k && k->params) {
            const ws_kparam *best = NULL;
            for (uint32_t i = 0; i < k->nparams; i++)
                if (k->params[i].offset <= o->imm && (!best || k->params[i].offset >= best->offset)) best = &k->params[i];
            if (best) {
                put(b, "%s", best->name);
                if (o->imm != (int64_t)best->offset) put(b, "+%lld", (long long)(o->imm - best->offset));
            } else put(b, "%lld", (long long)o->imm);
        } else {
            put(b, "%lld", (long long)o->imm);
        }
        put(b, "]");
        break;
    case WS_OK_VEC:
        put(b, "{");
        for (int e = 0; e < o->nvec; e++) put(b, "%s%s", e ? ", " : "", regname(k, o->vec[e], tmp, sizeof tmp));
        put(b, "}");
        break;
    case WS_OK_LABEL: /* ws_inst.target is authoritative (passes renumber it) */
        put(b, "L%lld", in->op == WS_OP_BRA ? (long long)in->target : (long long)o->imm);
        break;
    default:
        put(b, "?");
    }
}

/* mma.sync.aligned.SHAPE.row.col{.satfinite}.dtype.atype.btype.ctype (ptx.h: cmp/boolop hold .btype/.ctype) */
static void mma_mods(sb *b, const ws_inst *in)
{
    static const char *const shape[WS_NMMA] = {"", "m16n8k16", "m16n8k8", "m16n8k8", "m16n8k32", "m16n8k16", "m8n8k4",
                                               "m8n8k16", "m8n8k32", "m8n8k4", "m16n8k32", "m16n8k16"};
    int tf32 = in->subop == WS_MMA_M16N8K8_TF32, volta = in->subop == WS_MMA_M8N8K4_F16;
    put(b, ".sync.aligned.%s.%s.%s%s", in->subop < WS_NMMA ? shape[in->subop] : "?",
        volta && (in->rnd & WS_MMA_A_COL) ? "col" : "row", !volta || !(in->rnd & WS_MMA_B_ROW) ? "col" : "row",
        (in->mods & WS_MOD_SAT) ? ".satfinite" : "");
    put(b, ".%s.%s.%s.%s", ws_type_name((ws_type)in->type), tf32 ? "tf32" : ws_type_name((ws_type)in->type2),
        tf32 ? "tf32" : ws_type_name((ws_type)in->cmp), ws_type_name((ws_type)in->boolop));
}

/* the four fragments {D}, {A}, {B}, {C}; an eight-register D or C is two operands (parse_inst.c,
 * check_mma_operands) printed as one; the caller adds the ';' */
static void mma_operands(sb *b, const ws_kernel *k, const ws_inst *in)
{
    const ws_operand *frag[4][2] = {{&in->dst[0], in->ndst > 1 ? &in->dst[1] : NULL}, {&in->src[0], NULL},
                                    {&in->src[1], NULL}, {&in->src[2], in->nsrc > 3 ? &in->src[3] : NULL}};
    char tmp[32];
    for (int f = 0; f < 4; f++) {
        put(b, f ? ", {" : " {");
        for (int h = 0, n = 0; h < 2; h++)
            for (unsigned e = 0; frag[f][h] && e < frag[f][h]->nvec; e++)
                put(b, "%s%s", n++ ? ", " : "", regname(k, frag[f][h]->vec[e], tmp, sizeof tmp));
        put(b, "}");
    }
}

/* vshl/vshr.dtype.atype.u32{.sat}.mode{.op2} d{.dsel}, a{.asel}, b{.bsel}{, c} (ptx.h: cmp and
 * boolop hold the selectors and the secondary operation) */
static void vshift_format(sb *b, const ws_kernel *k, const ws_inst *in)
{
    static const char *const sel[] = {"", ".b0", ".b1", ".b2", ".b3", ".h0", ".h1", "?", "?", "?", "?", "?", "?", "?", "?", "?"};
    static const char *const op2[] = {"", ".add", ".min", ".max"};
    unsigned sels[3] = {(unsigned)in->boolop >> 4, in->cmp & 15u, (unsigned)in->cmp >> 4};
    put(b, ".%s.%s.u32%s%s%s ", ws_type_name((ws_type)in->type), ws_type_name((ws_type)in->type2),
        (in->mods & WS_MOD_SAT) ? ".sat" : "", in->subop == WS_BMODE_CLAMP ? ".clamp" : ".wrap", op2[in->boolop & 3]);
    operand(b, k, in, &in->dst[0], (ws_type)in->type);
    put(b, "%s", sel[sels[0]]);
    for (int j = 0; j < in->nsrc; j++) {
        put(b, ", ");
        operand(b, k, in, &in->src[j], ws_ptx_src_type(in, j));
        if (j < 2) put(b, "%s", sel[sels[j + 1]]);
    }
    put(b, ";");
}

/* tex / tld4 / txq / suld.b / sust.b in PTX syntax: modifiers, then d, [h, c] or [h, c], v */
static void tex_format(sb *b, const ws_kernel *k, const ws_inst *in)
{
    static const char *const txq[] = {"", "width", "height", "depth", "normalized_coords", "filter_mode", "addr_mode_0",
                                      "addr_mode_1", "addr_mode_2", "num_mipmap_levels", "array_size", "num_samples"};
    static const char *const clamp[] = {"", "trap", "clamp", "zero"}, *const comp[] = {"r", "g", "b", "a"};
    const int op = in->op;
    char tmp[32];
    if (op == WS_OP_TXQ) put(b, ".%s.b32", in->cmp < 12 ? txq[in->cmp] : "?");
    else if (op == WS_OP_TEX || op == WS_OP_TLD4)
        put(b, "%s%s.%ud.v4.%s.%s", op == WS_OP_TLD4 ? "." : in->nsrc == 3 ? ".level" : in->nsrc == 4 ? ".grad" : "",
            op == WS_OP_TLD4 && in->cmp < 4 ? comp[in->cmp] : "",
            in->subop, ws_type_name((ws_type)in->type), ws_type_name((ws_type)in->type2));
    else
        put(b, ".b.%ud%s%s.%s.%s", in->subop, in->vec > 1 ? ".v" : "", in->vec == 2 ? "2" : in->vec == 4 ? "4" : "",
            ws_type_name((ws_type)in->type), in->boolop < 4 ? clamp[in->boolop] : "?");
    const ws_operand *h = &in->src[0], *c = op == WS_OP_TXQ ? NULL : &in->src[1];
    if (op != WS_OP_SUST) {
        put(b, " ");
        operand(b, k, in, &in->dst[0], (ws_type)in->type);
        put(b, ", [%s", regname(k, h->reg, tmp, sizeof tmp));
    } else {
        put(b, " [%s", regname(k, h->reg, tmp, sizeof tmp));
    }
    if (c) {
        put(b, ", ");
        operand(b, k, in, c, (ws_type)(in->type2 ? in->type2 : WS_TY_S32));
    }
    put(b, "]");
    if (op == WS_OP_SUST) {
        put(b, ", ");
        operand(b, k, in, &in->src[2], (ws_type)in->type);
    }
    for (int j = 2; op == WS_OP_TEX && j < in->nsrc; j++) {   /* tex.level / tex.grad */
        put(b, ", ");
        operand(b, k, in, &in->src[j], WS_TY_F32);
    }
}

int ws_inst_format(const ws_kernel *k, const ws_inst *in, char *buf, size_t len)
{
    sb b = {buf, len, 0};
    if (len) buf[0] = 0;
    char tmp[32];
    int op = in->op;
    if (in->guard != WS_NO_REG) put(&b, "@%s%s ", in->guard_neg ? "!" : "", regname(k, in->guard, tmp, sizeof tmp));
    put(&b, "%s", ws_opcode_name(op));
    if (op == WS_OP_BADD || op == WS_OP_BWAIT) put(&b, " B%u", in->barrier);
    if (op == WS_OP_BMOV) put(&b, in->subop ? " B%u, R(spill of B%u)" : " R(spill of B%u), B%u", in->barrier, in->barrier);
    if (op == WS_OP_MMA) {
        mma_mods(&b, in);
        mma_operands(&b, k, in);
        goto done;
    }
    if (op == WS_OP_VSHL || op == WS_OP_VSHR) {
        vshift_format(&b, k, in);
        if (len && b.n >= len) buf[len - 1] = 0;
        return (int)(b.n < len ? b.n : (len ? len - 1 : 0));
    }
    if (op == WS_OP_MBARRIER) {
        static const char *const f[] = {"", "init", "arrive", "arrive_drop", "test_wait", "try_wait", "pending_count", "inval",
                                        "expect_tx", "complete_tx"};
        put(&b, ".%s%s%s.b64", in->subop <= WS_MBAR_COMPLETE_TX ? f[in->subop] : "?",
            in->boolop == WS_MBAR_PARITY ? ".parity" : in->boolop == WS_MBAR_EXPECT ? ".expect_tx" : "",
            in->space == WS_SP_SHARED ? ".shared" : "");
        goto operands;
    }
    if (op == WS_OP_GRIDDEP) { put(&b, in->subop == WS_GRIDDEP_WAIT ? ".wait" : ".launch_dependents"); goto operands; }
    if (op == WS_OP_ELECT) { put(&b, ".sync"); goto operands; }
    if (op == WS_OP_CVT && in->subop == WS_CVT_TF32_RNA) { put(&b, ".rna.tf32.f32"); goto operands; }
    if (op == WS_OP_CVT && in->subop == WS_CVT_FP8) {   /* src/exec/exec_fp8.c */
        put(&b, ".rn%s%s.%s.%s", (in->mods & WS_MOD_SAT) ? ".satfinite" : "", (in->mods & WS_MOD_RELU) ? ".relu" : "",
            ws_type_name((ws_type)in->type), ws_type_name((ws_type)in->type2));
        goto operands;
    }
    if (op == WS_OP_CP_ASYNC) {
        static const char *const f[] = {"", "", ".commit_group", ".wait_group", ".wait_all"};
        static const char *const bulk[] = {".bulk", ".bulk.shared::cluster.global.mbarrier::complete_tx::bytes",
                                           ".bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes",
                                           ".bulk.global.shared::cta.bulk_group", ".bulk.commit_group", ".bulk.wait_group",
                                           ".bulk.prefetch.L2.global"};
        if (in->subop == WS_CPA_COPY) put(&b, ".%s.shared.global", in->boolop == 2 ? "cg" : "ca");
        else if (in->subop <= WS_CPA_WAIT_ALL) put(&b, "%s", f[in->subop]);
        else if (in->subop <= WS_CPA_BULK_PREFETCH) put(&b, "%s", bulk[in->subop - WS_CPA_BULK]);
        goto operands;
    }
    if (op == WS_OP_WMMA_LOAD || op == WS_OP_WMMA_STORE) {   /* one part of a fragment: registers 4 * part .. */
        static const char *const shapes[8] = {"m16n16k16", "m32n8k16", "m8n32k16", "m16n16k8", "m8n8k4", "?", "?", "?"};
        put(&b, ".%c.sync.aligned.%s.%s", op == WS_OP_WMMA_STORE ? 'd' : "abc"[in->subop & 3],
            (in->subop & WS_WMMA_COL) ? "col" : "row", shapes[WS_WMMA_SHAPE(in->subop)]);
        if (in->space > WS_SP_GENERIC && in->space < WS_NSPACE_NAMES) put(&b, ".%s", ws_space_names[in->space]);
        put(&b, ".%s.part%u", in->type == WS_TY_B32 ? "tf32" : ws_type_name((ws_type)in->type), WS_WMMA_PART(in->subop));
        goto operands;
    }
    if (op == WS_OP_MOVMATRIX) { put(&b, ".sync.aligned.m8n8.trans.b16"); goto operands; }
    if (op == WS_OP_LDMATRIX || op == WS_OP_STMATRIX) {
        put(&b, ".sync.aligned.m8n8.x%u%s%s.b16", in->subop & 7, (in->subop & WS_LDM_TRANS) ? ".trans" : "",
            in->space == WS_SP_SHARED ? ".shared" : "");   /* without: generic */
        goto operands;
    }
    if (op == WS_OP_TEX || op == WS_OP_TLD4 || op == WS_OP_TXQ || op == WS_OP_SULD || op == WS_OP_SUST) {
        tex_format(&b, k, in);
        goto done;
    }
    flags(&b, in->mods, WS_MOD_TO | WS_MOD_VOLATILE | WS_MOD_RELAXED | WS_MOD_ACQUIRE | WS_MOD_RELEASE);
    if ((op == WS_OP_MEMBAR || op == WS_OP_FENCE) && in->subop && in->subop < WS_NSCOPE_NAMES)
        put(&b, ".%s", op == WS_OP_MEMBAR && in->subop == WS_SCOPE_GPU ? "gl" : ws_scope_names[in->subop]);
    if (in->space > WS_SP_GENERIC && in->space < WS_NSPACE_NAMES) put(&b, ".%s", ws_space_names[in->space]);
    flags(&b, in->mods, WS_MOD_NONCOHERENT);
    if (in->mods & WS_MOD_CACHE_HINT) put(&b, ".L2::cache_hint");
    const char *sub = NULL;
    switch (op) {
    case WS_OP_ATOM: case WS_OP_RED: if (in->subop < WS_NATOM_NAMES) sub = ws_atom_names[in->subop]; break;
    case WS_OP_SHFL: put(&b, ".sync"); if (in->subop < WS_NSHFL_NAMES) sub = ws_shfl_names[in->subop]; break;
    case WS_OP_VOTE:   /* legacy vote (no membermask) prints without .sync */
        if (in->nsrc >= 2) put(&b, ".sync");
        if (in->subop < WS_NVOTE_NAMES) sub = ws_vote_names[in->subop];
        break;
    case WS_OP_MATCH: if (in->subop < WS_NMATCH_NAMES) sub = ws_match_names[in->subop]; break;
    case WS_OP_REDUX: put(&b, ".sync"); if (in->subop < WS_NATOM_NAMES) sub = ws_atom_names[in->subop]; break;
    case WS_OP_BAR: case WS_OP_BARRIER: if (in->subop < WS_NBAR_NAMES) sub = ws_bar_names[in->subop]; break;
    case WS_OP_PRMT: if (in->subop < WS_NPRMT_NAMES) sub = ws_prmt_names[in->subop]; break;
    case WS_OP_SHF: if (in->subop < WS_NSHF_NAMES) sub = ws_shf_names[in->subop]; break;
    case WS_OP_TESTP: if (in->subop < WS_NTESTP_NAMES) sub = ws_testp_names[in->subop]; break;
    case WS_OP_BFIND: if (in->subop == WS_BFIND_SHIFTAMT) sub = "shiftamt"; break;
    case WS_OP_BAR_WARP: sub = "sync"; break;
    case WS_OP_BMSK: case WS_OP_SZEXT: sub = in->subop == WS_BMODE_CLAMP ? "clamp" : "wrap"; break;
    case WS_OP_CVT_PACK: {
        static const char *const pk[] = {"", "u2", "s2", "u4", "s4", "u8", "s8", "u16", "s16"};
        put(&b, ".sat");
        if (in->subop < 9) sub = pk[in->subop];
        break;
    }
    default: break;
    }
    if (sub && sub[0]) put(&b, ".%s", sub);
    if (op == WS_OP_MATCH) put(&b, ".sync");
    if (op == WS_OP_BRX) put(&b, ".idx");
    flags(&b, in->mods, WS_MOD_UNI);
    if (in->cmp && in->cmp < WS_NCMP_NAMES) put(&b, ".%s", ws_cmp_names[in->cmp]);
    if (op == WS_OP_FENCE && in->boolop == 1) put(&b, ".proxy.async");   /* also fence.mbarrier_init: the same cost */
    else if (in->boolop && in->boolop < WS_NBOOL_NAMES) put(&b, ".%s", ws_bool_names[in->boolop]);
    if (in->rnd && in->rnd < WS_NRND_NAMES) put(&b, ".%s", ws_rnd_names[in->rnd]);
    int video = op >= WS_OP_VADD2 && op <= WS_OP_VMAX4;
    flags(&b, in->mods, WS_MOD_HI | WS_MOD_LO | WS_MOD_WIDE | WS_MOD_CC | WS_MOD_APPROX | WS_MOD_FULL |
                            WS_MOD_FTZ | WS_MOD_NOFTZ | WS_MOD_ALIGNED | WS_MOD_SHIFTAMT |
                            (op == WS_OP_CVT_PACK || video ? 0 : WS_MOD_SAT));
    if (in->vec > 1) put(&b, ".v%u", in->vec);
    if (in->type) put(&b, ".%s", ws_type_name((ws_type)in->type));
    if (in->type2) put(&b, ".%s", ws_type_name((ws_type)in->type2));
    if (video) {   /* vop.dtype.atype.btype{.sat|.add} */
        put(&b, ".%s", ws_type_name((ws_type)in->subop));
        flags(&b, in->mods, WS_MOD_SAT | WS_MOD_ADD);
    }

operands:;
    int first = 1;
    if (in->ndst == 2 && in->dst[0].kind == WS_OK_REG && in->dst[1].kind == WS_OK_REG) {
        put(&b, " %s|", regname(k, in->dst[0].reg, tmp, sizeof tmp));
        put(&b, "%s", regname(k, in->dst[1].reg, tmp, sizeof tmp));
        first = 0;
    } else {
        for (int j = 0; j < in->ndst; j++) {
            put(&b, first ? " " : ", ");
            first = 0;
            operand(&b, k, in, &in->dst[j], (ws_type)in->type);
        }
    }
    for (int j = 0; j < in->nsrc; j++) {
        put(&b, first ? " " : ", ");
        first = 0;
        operand(&b, k, in, &in->src[j], ws_ptx_src_type(in, j));
    }
    if (op == WS_OP_BRX) {
        put(&b, first ? " {" : ", {");
        for (uint32_t j = 0; j < in->ntargets; j++) {
            uint32_t t = k && k->brx_targets && in->target + j < k->nbrx_targets ? k->brx_targets[in->target + j] : 0;
            put(&b, "%sL%u", j ? ", " : "", t);
        }
        put(&b, "}");
    }
done:
    put(&b, ";");
    if (len && b.n >= len) buf[len - 1] = 0;
    return (int)(b.n < len ? b.n : (len ? len - 1 : 0));
}
