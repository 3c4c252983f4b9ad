#ifndef WARPSWEEP_PTX_H
#define WARPSWEEP_PTX_H
/*
 * A PTX kernel, decoded once at load time into plain arrays.
 *
 * Nothing in here is a string the simulator has to look at while it runs:
 * registers are small integers indexing a per-lane register file,
 * symbols are resolved to addresses in their state space, labels to
 * instruction indices, and every modifier to a field or a flag.
 */
#include <stdint.h>
#include <stddef.h>
#include "error.h"

/* ---- opcodes (see isa.def) ---- */
typedef enum ws_opcode {
#define X(name, mnemonic, unit, cost, flags) WS_OP_##name,
#include "isa.def"
#undef X
    WS_OP_COUNT
} ws_opcode;

/* isa.def's flags column (its header says what each means) */
enum {
    WS_OPF_MEMT = 1u << 0, WS_OPF_LSU = 1u << 1, WS_OPF_TEXP = 1u << 2, WS_OPF_LOAD = 1u << 3,
    WS_OPF_STORE = 1u << 4, WS_OPF_ATOMIC = 1u << 5, WS_OPF_REDUCE = 1u << 6, WS_OPF_CPASYNC = 1u << 7,
    WS_OPF_FENCE = 1u << 8, WS_OPF_SLEEP = 1u << 9, WS_OPF_CTABAR = 1u << 10, WS_OPF_DIVOP = 1u << 11,
    WS_OPF_SPILL = 1u << 12, WS_OPF_LAT_UNIT = 1u << 13, WS_OPF_LAT_MAD = 1u << 14, WS_OPF_LAT_MINMAX = 1u << 15
};
#define OPF(f) WS_OPF_##f
extern const uint16_t ws_op_flags[WS_OP_COUNT];
/* The flags column of op's row (0 for an out-of-range op). */
static inline unsigned ws_opcode_flags(unsigned op) { return op < WS_OP_COUNT ? ws_op_flags[op] : 0; }

/* Units: the first five and TENSOR are isa.def's column (ALU is resolved by
 * type); ws_inst.unit holds the execution unit the decoder resolved: INT,
 * FP32, FP64, SFU, TENSOR (mma), MEM (LD/ST), CTRL (branch) or SYNC. */
typedef enum ws_unit {
    WS_UNIT_ALU, WS_UNIT_SFU, WS_UNIT_MEM, WS_UNIT_CTRL, WS_UNIT_SYNC,
    WS_UNIT_INT, WS_UNIT_FP32, WS_UNIT_FP64, WS_UNIT_TENSOR,
    WS_NUNITS
} ws_unit;

/* Cost classes (isa.def's last column, resolved per instruction): one
 * operation, a 64-bit integer operation (int64_cost), and the sequences
 * ptxas emits for integer, IEEE f32 and f64 division and roots. */
typedef enum ws_cost { WS_COST_ONE, WS_COST_WIDE, WS_COST_IDIV, WS_COST_FDIV, WS_COST_DDIV, WS_NCOSTS } ws_cost;

const char *ws_opcode_name(int op);      /* mnemonic from isa.def */
ws_unit ws_opcode_unit(int op);          /* unit column of isa.def */
const char *ws_unit_name(int unit);      /* "INT", "FP32", ... */
const char *ws_cost_name(int cost);      /* "one", "wide", "idiv", ... */

/* ---- types ---- */
typedef enum ws_type {
    WS_TY_NONE,
    WS_TY_PRED,
    WS_TY_B8, WS_TY_B16, WS_TY_B32, WS_TY_B64,
    WS_TY_U8, WS_TY_U16, WS_TY_U32, WS_TY_U64,
    WS_TY_S8, WS_TY_S16, WS_TY_S32, WS_TY_S64,
    WS_TY_F16, WS_TY_F32, WS_TY_F64,
    /* half precision (PTX ISA 5.2.1, 9.7.4): bfloat16 and the packed pairs, element 0 in
     * bits 15:0 and element 1 in bits 31:16 (see include/warpsweep/half.h) */
    WS_TY_BF16, WS_TY_F16X2, WS_TY_BF16X2,
    /* operand types of cvt and mma only (the parser refuses them elsewhere): the OCP FP8
     * formats (PTX ISA 5.2.5 alternate floating point types) and their packed pairs
     * (element 0 in bits 7:0), and the 4-bit integers of mma.m8n8k32 (eight per .b32) */
    WS_TY_E4M3, WS_TY_E5M2, WS_TY_E4M3X2, WS_TY_E5M2X2, WS_TY_S4, WS_TY_U4,
    WS_TY_COUNT
} ws_type;

int ws_type_bits(ws_type t);        /* 1 for pred, 8..64 */
int ws_type_is_signed(ws_type t);   /* sN */
int ws_type_is_float(ws_type t);    /* fN, bf16, f16x2, bf16x2 */
int ws_type_is_half(ws_type t);     /* f16, bf16, f16x2, bf16x2 */
const char *ws_type_name(ws_type t);/* "u32" ... */
ws_type ws_type_from_name(const char *s, size_t n); /* WS_TY_NONE if unknown */
/* also the cvt/mma operand types (.e4m3 .e5m2 .e4m3x2 .e5m2x2 .s4 .u4) */
ws_type ws_operand_type_from_name(const char *s, size_t n);

/* ---- state spaces ---- */
typedef enum ws_space {
    WS_SP_NONE, WS_SP_GENERIC, WS_SP_GLOBAL, WS_SP_SHARED, WS_SP_LOCAL,
    WS_SP_CONST, WS_SP_PARAM
} ws_space;

/* ---- comparison (setp/set/slct), rounding, sub-operations ---- */
typedef enum ws_cmp {
    WS_CMP_NONE,
    WS_CMP_EQ, WS_CMP_NE, WS_CMP_LT, WS_CMP_LE, WS_CMP_GT, WS_CMP_GE,
    WS_CMP_LO, WS_CMP_LS, WS_CMP_HI, WS_CMP_HS,
    WS_CMP_EQU, WS_CMP_NEU, WS_CMP_LTU, WS_CMP_LEU, WS_CMP_GTU, WS_CMP_GEU,
    WS_CMP_NUM, WS_CMP_NAN
} ws_cmp;

typedef enum ws_boolop { WS_BOOL_NONE, WS_BOOL_AND, WS_BOOL_OR, WS_BOOL_XOR } ws_boolop;

typedef enum ws_rnd {
    WS_RND_NONE,
    WS_RND_RN, WS_RND_RZ, WS_RND_RM, WS_RND_RP,      /* float rounding   */
    WS_RND_RNI, WS_RND_RZI, WS_RND_RMI, WS_RND_RPI   /* round to integer */
} ws_rnd;

/* ws_inst.subop, by opcode */
enum { WS_ATOM_ADD = 1, WS_ATOM_INC, WS_ATOM_DEC, WS_ATOM_MIN, WS_ATOM_MAX,
       WS_ATOM_AND, WS_ATOM_OR, WS_ATOM_XOR, WS_ATOM_EXCH, WS_ATOM_CAS };
enum { WS_SHFL_UP = 1, WS_SHFL_DOWN, WS_SHFL_BFLY, WS_SHFL_IDX };
enum { WS_VOTE_ALL = 1, WS_VOTE_ANY, WS_VOTE_UNI, WS_VOTE_BALLOT };
enum { WS_BAR_SYNC = 1, WS_BAR_ARRIVE, WS_BAR_RED_POPC, WS_BAR_RED_AND, WS_BAR_RED_OR };
enum { WS_MATCH_ANY = 1, WS_MATCH_ALL };
enum { WS_PRMT_DEFAULT = 0, WS_PRMT_F4E, WS_PRMT_B4E, WS_PRMT_RC8, WS_PRMT_ECL, WS_PRMT_ECR, WS_PRMT_RC16 };
enum { WS_SHF_L_WRAP = 1, WS_SHF_L_CLAMP, WS_SHF_R_WRAP, WS_SHF_R_CLAMP };
enum { WS_BFIND_SHIFTAMT = 1 };
/* bmsk / szext (PTX ISA 9.7.1.23 bmsk, 9.7.1.24 szext) */
enum { WS_BMODE_CLAMP = 1, WS_BMODE_WRAP };
/* vshl/vshr (PTX ISA 9.7.16.1): subop = .clamp/.wrap (WS_BMODE_*); cmp = .asel | .bsel << 4;
 * boolop = the secondary operation | .dsel << 4 (the data-merge destination selector) */
enum { WS_VSEL_NONE, WS_VSEL_B0, WS_VSEL_B1, WS_VSEL_B2, WS_VSEL_B3, WS_VSEL_H0, WS_VSEL_H1 };
enum { WS_VOP2_NONE, WS_VOP2_ADD, WS_VOP2_MIN, WS_VOP2_MAX };
/* cvt.pack.sat: the convert type (PTX ISA 9.7.9.22 cvt.pack); .abType is in->type (.s32),
 * .cType in->type2 (.b32, absent for the 16-bit forms) */
enum { WS_PACK_U2 = 1, WS_PACK_S2, WS_PACK_U4, WS_PACK_S4, WS_PACK_U8, WS_PACK_S8, WS_PACK_U16, WS_PACK_S16 };
/* cvt.rna.tf32.f32 (PTX ISA 9.7.9.21): ws_inst.subop (type .b32, type2 .f32) */
#define WS_CVT_TF32_RNA 1u
/* the FP8 conversions (PTX ISA 9.7.9.21, sm_89): cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32,f16x2}
 * and cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} (src/exec/exec_fp8.c) */
#define WS_CVT_FP8 2u
/* SIMD video vop2/vop4 (PTX ISA 9.7.16.2): in->type = .dtype, in->type2 = .atype,
 * in->subop = .btype (a ws_type); WS_MOD_ADD selects the secondary accumulate */
/* mma.sync.aligned (PTX ISA 9.7.14.5): ws_inst.subop = the form (shape and operand family),
 * type = .dtype, type2 = .atype, cmp = .btype, boolop = .ctype (tf32 operands: .b32) */
enum { WS_MMA_M16N8K16_F16 = 1, WS_MMA_M16N8K8_F16, WS_MMA_M16N8K8_TF32, WS_MMA_M16N8K32_I8,
       WS_MMA_M16N8K16_I8, WS_MMA_M8N8K4_F64,
       WS_MMA_M8N8K16_I8, WS_MMA_M8N8K32_I4, WS_MMA_M8N8K4_F16, WS_MMA_M16N8K32_F8, WS_MMA_M16N8K16_F8, WS_NMMA };
/* mma.m8n8k4 .f16 (the one form with a choice of layouts): ws_inst.rnd holds the layouts */
#define WS_MMA_A_COL 1u   /* .alayout = .col (else .row) */
#define WS_MMA_B_ROW 2u   /* .blayout = .row (else .col) */
/* ldmatrix.sync.aligned.m8n8 (PTX ISA 9.7.9.26): ws_inst.subop = the matrix count (1, 2, 4)
 * | WS_LDM_TRANS */
#define WS_LDM_TRANS 8u
/* wmma.load/.store (PTX ISA 9.7.14.4): ws_inst.subop = matrix | part << 2 | WS_WMMA_COL |
 * shape << 4; ws_inst.type the element type (.f16 .bf16 .s8 .u8 .f64, .b32 for .tf32; C/D
 * .f16 .f32 .s32 .f64); src[0] (load) or src[0] / src[1] (store: address, fragment part)
 * and the stride as the last source (an immediate when the instruction has none: the
 * default). The fragment layout: docs/model.md, src/exec/exec_tensor.c. */
enum { WS_WMMA_A = 0, WS_WMMA_B = 1, WS_WMMA_C = 2 };
enum { WS_WMMA_M16N16K16 = 0, WS_WMMA_M32N8K16 = 1, WS_WMMA_M8N32K16 = 2, WS_WMMA_M16N16K8 = 3,
       WS_WMMA_M8N8K4 = 4, WS_NWMMA_SHAPES };
#define WS_WMMA_PART(subop) (((subop) >> 2) & 1u)
#define WS_WMMA_SHAPE(subop) (((subop) >> 4) & 7u)
#define WS_WMMA_COL 8u

/* How a wmma tile maps onto mma.sync (the model's choice, src/exec/exec_tensor.c): for the
 * A/B element type ab (.f16 .bf16, .b32 = tf32, .s8/.u8, .f64) the mma.sync form, the
 * registers of its A and B fragments (mma_a, mma_b), and the registers of the wmma A and B
 * fragments (frag_a, frag_b: PTX ISA 9.7.14.4.1's counts; .f16 keeps eight with copies).
 * m8n8k4 is one mma.sync, the other shapes two. form 0: not a wmma form. */
typedef struct ws_wmma_geom { uint8_t form, mma_a, mma_b, frag_a, frag_b, nmma; } ws_wmma_geom;

static inline ws_wmma_geom ws_wmma_geometry(unsigned shape, unsigned ab)
{
    ws_wmma_geom g = {0, 0, 0, 0, 0, 2};
    int k16 = shape <= WS_WMMA_M8N32K16;
    if ((ab == WS_TY_F16 || ab == WS_TY_BF16) && k16) g = (ws_wmma_geom){WS_MMA_M16N8K16_F16, 4, 2, 0, 0, 2};
    else if ((ab == WS_TY_S8 || ab == WS_TY_U8) && k16) g = (ws_wmma_geom){WS_MMA_M16N8K16_I8, 2, 1, 0, 0, 2};
    else if (ab == WS_TY_B32 && shape == WS_WMMA_M16N16K8) g = (ws_wmma_geom){WS_MMA_M16N8K8_TF32, 4, 2, 0, 0, 2};
    else if (ab == WS_TY_F64 && shape == WS_WMMA_M8N8K4) return (ws_wmma_geom){WS_MMA_M8N8K4_F64, 1, 1, 1, 1, 1};
    else return g;
    if (ab == WS_TY_F16) { g.frag_a = g.frag_b = 8; return g; }
    /* m32n8k16 stacks two A fragments (rows 0-15, 16-31); m16n16k16/k8 two B fragments
     * (columns 0-7, 8-15); m8n32k16 is the transposed m32n8k16 (A and B exchange roles) */
    g.frag_a = (uint8_t)(shape == WS_WMMA_M32N8K16 ? 2 * g.mma_a : shape == WS_WMMA_M8N32K16 ? g.mma_b : g.mma_a);
    g.frag_b = (uint8_t)(shape == WS_WMMA_M32N8K16 ? g.mma_b : shape == WS_WMMA_M8N32K16 ? 2 * g.mma_a : 2 * g.mma_b);
    return g;
}
/* cp.async (PTX ISA 9.7.9.25): ws_inst.subop; .cg is WS_MOD_NONCOHERENT-free: in->rnd unused,
 * the copy's cache operator is in ws_inst.boolop (1 .ca, 2 .cg) */
enum { WS_CPA_COPY = 1, WS_CPA_COMMIT, WS_CPA_WAIT, WS_CPA_WAIT_ALL,
       /* cp.async.bulk (PTX ISA 9.7.9.25.4, sm_90): global -> shared::cluster and shared::cta ->
        * shared::cluster completing on an mbarrier, shared::cta -> global in bulk async-groups,
        * their .commit_group / .wait_group{.read}, and .prefetch.L2; WS_CPA_BULK while parsing */
       WS_CPA_BULK, WS_CPA_BULK_G2S, WS_CPA_BULK_S2S, WS_CPA_BULK_S2G, WS_CPA_BULK_COMMIT, WS_CPA_BULK_WAIT,
       WS_CPA_BULK_PREFETCH };
static inline int ws_cpa_is_bulk(unsigned subop) { return subop >= WS_CPA_BULK; }
/* mbarrier (PTX ISA 9.7.13.15): ws_inst.subop; in ws_inst.boolop WS_MBAR_PARITY for the .parity
 * waits, WS_MBAR_EXPECT for arrive{_drop}.expect_tx (an expect-tx of the last source first) */
enum { WS_MBAR_INIT = 1, WS_MBAR_ARRIVE, WS_MBAR_ARRIVE_DROP, WS_MBAR_TEST_WAIT, WS_MBAR_TRY_WAIT,
       WS_MBAR_PENDING_COUNT, WS_MBAR_INVAL, WS_MBAR_EXPECT_TX, WS_MBAR_COMPLETE_TX };
#define WS_MBAR_PARITY 1
#define WS_MBAR_EXPECT 2
enum { WS_GRIDDEP_WAIT = 1, WS_GRIDDEP_LAUNCH };
/* tex / tld4 / txq / suld / sust (src/exec/exec_tex.c): subop = the geometry's dimensions
 * (1, 2, 3), type = .dtype, type2 = the coordinate type (.s32 / .f32), tld4: cmp = the
 * component (0 r .. 3 a), txq: cmp = the query, suld/sust: boolop = the out-of-range mode;
 * src[0] the handle register, src[1] the coordinates, sust: src[2] the values */
enum { WS_TXQ_WIDTH = 1, WS_TXQ_HEIGHT, WS_TXQ_DEPTH, WS_TXQ_NORMALIZED, WS_TXQ_FILTER, WS_TXQ_ADDR0,
       WS_TXQ_ADDR1, WS_TXQ_ADDR2, WS_TXQ_MIPMAPS, WS_TXQ_ARRAY_SIZE, WS_TXQ_SAMPLES };
enum { WS_SURF_TRAP = 1, WS_SURF_CLAMP, WS_SURF_ZERO };
enum { WS_TESTP_FINITE = 1, WS_TESTP_INFINITE, WS_TESTP_NUMBER, WS_TESTP_NOTANUMBER,
       WS_TESTP_NORMAL, WS_TESTP_SUBNORMAL };

/* ws_inst.mods flags */
#define WS_MOD_SAT      (1u << 0)
#define WS_MOD_FTZ      (1u << 1)
#define WS_MOD_APPROX   (1u << 2)
#define WS_MOD_FULL     (1u << 3)
#define WS_MOD_HI       (1u << 4)
#define WS_MOD_LO       (1u << 5)
#define WS_MOD_WIDE     (1u << 6)
#define WS_MOD_CC       (1u << 7)   /* writes the carry flag (add.cc, sub.cc, mad.cc) */
#define WS_MOD_UNI      (1u << 8)   /* bra.uni / brx.idx.uni */
#define WS_MOD_VOLATILE (1u << 9)
#define WS_MOD_TO       (1u << 10)  /* cvta.to */
#define WS_MOD_ALIGNED  (1u << 11)  /* bar.warp.sync / barrier.sync.aligned */
#define WS_MOD_NOFTZ    (1u << 12)
#define WS_MOD_RELAXED  (1u << 13)  /* memory-order qualifiers: accepted, sequentially consistent here */
#define WS_MOD_ACQUIRE  (1u << 14)
#define WS_MOD_RELEASE  (1u << 15)
#define WS_MOD_SHIFTAMT (1u << 16)  /* bfe/bfi etc. spare */
#define WS_MOD_NONCOHERENT (1u << 17) /* ld.global.nc */
#define WS_MOD_ADD      (1u << 18)  /* video vop2/vop4 .add: secondary accumulate */
#define WS_MOD_RELU     (1u << 19)  /* half fma/min/max/cvt .relu: negative results -> +0 */
#define WS_MOD_NAN      (1u << 20)  /* half min/max .NaN: a NaN operand gives the canonical NaN */
#define WS_MOD_CACHE_HINT (1u << 21) /* ld/st .L2::cache_hint: one more source, the policy (ignored) */
#define WS_MOD_IGNORE_SRC (1u << 22) /* cp.async: src[3] is the ignore-src predicate, not a src-size */
#define WS_MOD_L1_BYPASS (1u << 23) /* ld .cg/.cv: cached in the L2 only, not the L1 (PTX ISA "Cache operators") */

/* ---- special registers ---- */
typedef enum ws_sreg {
    WS_SR_TID_X, WS_SR_TID_Y, WS_SR_TID_Z,
    WS_SR_NTID_X, WS_SR_NTID_Y, WS_SR_NTID_Z,
    WS_SR_CTAID_X, WS_SR_CTAID_Y, WS_SR_CTAID_Z,
    WS_SR_NCTAID_X, WS_SR_NCTAID_Y, WS_SR_NCTAID_Z,
    WS_SR_LANEID, WS_SR_WARPID, WS_SR_NWARPID, WS_SR_SMID, WS_SR_NSMID,
    WS_SR_GRIDID, WS_SR_CLOCK, WS_SR_CLOCK64,
    WS_SR_LANEMASK_EQ, WS_SR_LANEMASK_LT, WS_SR_LANEMASK_LE,
    WS_SR_LANEMASK_GT, WS_SR_LANEMASK_GE,
    WS_SR_WARP_SZ,        /* the WARP_SZ constant (warpSize): min(warp_size, 32), see exec.h */
    WS_SR_GLOBALTIMER, WS_SR_GLOBALTIMER_LO, WS_SR_GLOBALTIMER_HI,   /* ns: here 1 per core cycle */
    WS_SR_COUNT
} ws_sreg;
const char *ws_sreg_name(ws_sreg s);     /* "%tid.x" */

/* ---- operands ---- */
#define WS_NO_REG 0xffffffffu

typedef enum ws_opnd_kind {
    WS_OK_NONE,
    WS_OK_REG,    /* reg                                                  */
    WS_OK_IMM,    /* imm holds the bits (float immediates as IEEE bits of
                     the instruction's type; symbol addresses resolved)   */
    WS_OK_SREG,   /* sreg                                                 */
    WS_OK_ADDR,   /* [reg + imm] or [imm]; reg == WS_NO_REG without base;
                     a symbol's address in its space is folded into imm   */
    WS_OK_VEC,    /* {a, b, c, d}: vec[0..nvec-1], WS_NO_REG for "_"      */
    WS_OK_LABEL   /* imm = target instruction index                       */
} ws_opnd_kind;

typedef struct ws_operand {
    uint8_t kind;     /* ws_opnd_kind */
    uint8_t neg;      /* !%p as a source predicate */
    uint8_t nvec;
    uint8_t sreg;     /* ws_sreg */
    uint32_t reg;
    uint32_t vec[8];  /* eight: ld/st.v8 */
    int64_t imm;
} ws_operand;

/* ---- one decoded instruction ---- */
#define WS_MAX_DST 2
#define WS_MAX_WR 9              /* registers one instruction writes (ld.v8: eight) */
#define WS_MAX_SRC 4
#define WS_PC_EXIT 0xffffffffu   /* the virtual exit node, as a reconvergence PC */

typedef struct ws_inst {
    uint16_t op;          /* ws_opcode */
    uint8_t  type;        /* instruction type (cvt: destination type)        */
    uint8_t  type2;       /* cvt: source type; other two-type forms          */
    uint8_t  space;       /* ld/st/atom/red/cvta/prefetch: ws_space          */
    uint8_t  cmp;         /* setp/set/slct                                   */
    uint8_t  boolop;      /* setp.and / .or / .xor                           */
    uint8_t  rnd;         /* ws_rnd                                          */
    uint8_t  subop;       /* atom/red op, shfl mode, vote mode, bar kind ... */
    uint8_t  vec;         /* 1, 2, 4 or 8 (ld/st .v2/.v4/.v8)                */
    uint8_t  unit;        /* ws_unit, resolved by ws_inst_classify           */
    uint8_t  cost;        /* ws_cost, resolved by ws_inst_classify           */
    uint8_t  ndst, nsrc;
    uint8_t  guard_neg;   /* @!%p                                            */
    uint8_t  fast;        /* the executor's warp-wide fast path, 0 for none:
                             ws_exec_fast_forms at the end of ws_cfg_build  */
    uint32_t guard;       /* guard predicate register, WS_NO_REG if none     */
    uint32_t mods;        /* WS_MOD_*                                        */
    ws_operand dst[WS_MAX_DST];  /* setp p|q uses dst[0], dst[1]             */
    ws_operand src[WS_MAX_SRC];
    /* Control flow (filled by the loader): bra -> target; brx.idx -> the
     * targets are kernel->brx_targets[target .. target + ntargets - 1]. */
    uint32_t target;
    uint32_t ntargets;
    uint32_t ipdom;       /* branches: immediate post-dominator instruction
                             index (WS_PC_EXIT for the virtual exit)          */
    uint16_t barrier;     /* BADD/BWAIT: convergence-barrier register index  */
    uint8_t  uniform;     /* branch proven uniform by the uniformity analysis */
    uint8_t  cta_uniform; /* ... and the same for every thread of the CTA (.uni, a warp-level
                             assertion, not taken as proof: passes.h) */
    uint8_t  is_backedge; /* branch that jumps backwards (loop)              */
    /* Registers read and written, for the scoreboard (no operand walk in
     * the hot loop). Guard predicate included in reads. */
    uint8_t  n_rd, n_wr;
    uint32_t rd[16];      /* 16: mma.m8n8k4 .f32 reads 12 registers (and a guard); it writes 8 */
    uint32_t wr[WS_MAX_WR];
    /* Where it came from */
    uint32_t line, col;
} ws_inst;

/* Resolves isa.def's unit and cost columns for one decoded instruction
 * (type, rounding, .approx, .wide, state space) into in->unit / in->cost. */
void ws_inst_classify(ws_inst *in);

/* The executor's fast-path handler of one decoded instruction (src/exec/exec_fast.c;
 * 0: the generic path), and the pass storing it into every ws_inst.fast of k.
 * ws_cfg_build runs the pass, so every kernel it builds or rebuilds carries them;
 * a hand-built instruction with fast = 0 runs the generic path. */
uint8_t ws_exec_fast_form(const ws_inst *in);
struct ws_kernel;
void ws_exec_fast_forms(struct ws_kernel *k);

/* ---- kernel-level declarations ---- */
typedef struct ws_kparam {
    char *name;
    uint8_t type;         /* ws_type */
    uint32_t size;        /* bytes (arrays: element size * count) */
    uint32_t align;
    uint32_t offset;      /* in the param buffer */
} ws_kparam;

typedef struct ws_var {   /* .global/.const/.shared/.local variable */
    char *name;
    uint8_t space;        /* ws_space */
    uint8_t type;
    uint32_t align;
    uint64_t size;        /* bytes (0 for extern .shared: dynamic) */
    uint64_t offset;      /* address within its space (global/const: offset in the
                             kernel's data segment, placed by the loader) */
    uint8_t *init;        /* initial bytes or NULL (zero) */
} ws_var;

typedef struct ws_block {  /* basic block: instructions [first, last] */
    uint32_t first, last;
    uint32_t nsucc;
    uint32_t *succ;        /* successor block indices; WS_PC_EXIT for exit */
    uint32_t ipdom;        /* immediate post-dominator block, WS_PC_EXIT for exit */
    uint8_t terminal;      /* a branch into it is an early exit: it only exits, or it is one
                            * branch's private straight-line way out (cfg.c, mark_terminal) */
    uint8_t leaves;        /* straight-line code from here to an unguarded exit/ret/trap,
                            * with no CTA barrier or warp-level .sync op on the way */
} ws_block;

typedef struct ws_kernel {
    char *path;            /* the .ptx file */
    char *name;            /* entry name */
    ws_inst *insts;
    uint32_t ninsts;

    uint32_t nregs;        /* size of the per-lane register file */
    char **reg_names;      /* for the disassembler */
    uint8_t *reg_types;    /* ws_type of each register */
    uint32_t *reg_slot;    /* register -> row of the per-lane register file (src/ptx/regcompact.c,
                              rebuilt with the CFG): registers never live at once share a row */
    uint32_t nslots;       /* rows of the per-lane register file (>= 1 once the CFG is built) */

    ws_kparam *params;
    uint32_t nparams;
    uint32_t param_bytes;

    ws_var *vars;          /* module and kernel variables */
    uint32_t nvars;
    uint32_t shared_bytes; /* static shared memory per CTA */
    uint32_t local_bytes;  /* .local per thread */
    uint64_t data_bytes;   /* .global/.const data segment size */

    uint32_t *brx_targets; /* brx.idx target lists */
    uint32_t nbrx_targets;

    ws_block *blocks;      /* CFG, built at load */
    uint32_t nblocks;
    uint32_t *block_of;    /* instruction index -> block index */

    uint32_t reqntid[3], maxntid[3];
    uint32_t est_regs_per_thread; /* estimate from the PTX (for workloads without regs_per_thread) */
    char *source;          /* the PTX text (for --trace line lookup / inspect) */
    uint32_t bmov_regs;    /* barrier pass: general registers holding spilled barriers at once (BMOV) */
} ws_kernel;

/* The largest PTX file read: a kernel's PTX is kilobytes to a few
 * megabytes; the bound keeps `kernel: /dev/zero` or a runaway file from
 * being read without limit. */
#define WS_PTX_MAX_BYTES ((size_t)32 << 20)

/* Loads a PTX file and decodes entry (NULL: the file's only .entry).
 * Builds the CFG and post-dominators. Only regular files of at most
 * WS_PTX_MAX_BYTES are read. Returns NULL and a one-line
 * "file:line:col: ..." message in err on failure. */
ws_kernel *ws_ptx_load(const char *path, const char *entry, ws_error *err);
ws_kernel *ws_ptx_parse(const char *text, const char *path, const char *entry, ws_error *err);
void ws_kernel_free(ws_kernel *k);

/* Disassembles one instruction into buf (PTX-like syntax). Returns length. */
int ws_inst_format(const ws_kernel *k, const ws_inst *in, char *buf, size_t len);

/* ---- CFG and post-dominators (src/ptx/cfg.c) ---- */
/* (Re)builds k->blocks/block_of and each branch's ipdom. */
int ws_cfg_build(ws_kernel *k, ws_error *err);

/* Immediate post-dominators of a graph of n nodes with successor lists
 * succ[i][0..nsucc[i]-1]; a node with no successors, or a successor equal
 * to WS_PC_EXIT, flows to the virtual exit. Writes ipdom[i] (node index or
 * WS_PC_EXIT). Nodes that cannot reach the exit (infinite loops) get
 * WS_PC_EXIT. Returns 0. */
int ws_postdom(uint32_t n, const uint32_t *const *succ, const uint32_t *nsucc, uint32_t *ipdom);

#endif
