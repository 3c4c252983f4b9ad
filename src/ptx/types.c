/* PTX types, opcode names/units (from isa.def), special registers and the
 * modifier-name tables shared by the decoder and the disassembler. */
#include <string.h>
#include "warpsweep/ptx.h"
#include "ptx_internal.h"

static const char *const op_names[] = {
#define X(name, mnemonic, unit, cost, flags) mnemonic,
#include "warpsweep/isa.def"
#undef X
};
static const ws_unit op_units[] = {
#define X(name, mnemonic, unit, cost, flags) WS_UNIT_##unit,
#include "warpsweep/isa.def"
#undef X
};
enum { COL_ONE, COL_DIV };
static const uint8_t op_costs[] = {
#define X(name, mnemonic, unit, cost, flags) COL_##cost,
#include "warpsweep/isa.def"
#undef X
};
const uint16_t ws_op_flags[WS_OP_COUNT] = {
#define X(name, mnemonic, unit, cost, flags) (uint16_t)(flags),
#include "warpsweep/isa.def"
#undef X
};

const char *ws_opcode_name(int op) { return op >= 0 && op < WS_OP_COUNT ? op_names[op] : "?"; }
ws_unit ws_opcode_unit(int op) { return op >= 0 && op < WS_OP_COUNT ? op_units[op] : WS_UNIT_ALU; }

const char *ws_unit_name(int unit)
{
    static const char *const n[WS_NUNITS] = {"ALU", "SFU", "MEM", "CTRL", "SYNC", "INT", "FP32", "FP64", "TENSOR"};
    return unit >= 0 && unit < WS_NUNITS ? n[unit] : "?";
}

const char *ws_cost_name(int cost)
{
    static const char *const n[WS_NCOSTS] = {"one", "wide", "idiv", "fdiv", "ddiv"};
    return cost >= 0 && cost < WS_NCOSTS ? n[cost] : "?";
}

/* The type an instruction computes in: cvt and the two-type forms count as
 * FP64 / FP32 when either side is. */
static int widest_float(const ws_inst *in)
{
    int a = ws_type_is_float((ws_type)in->type) ? ws_type_bits((ws_type)in->type) : 0;
    int b = (in->op == WS_OP_CVT || in->op == WS_OP_SETP || in->op == WS_OP_SET || in->op == WS_OP_SLCT) &&
                    ws_type_is_float((ws_type)in->type2)
                ? ws_type_bits((ws_type)in->type2) : 0;
    return a > b ? a : b;
}

/* Integer arithmetic that ptxas splits into two 32-bit operations. */
static int is_wide_int(const ws_inst *in)
{
    switch (in->op) {
    case WS_OP_ADD: case WS_OP_SUB: case WS_OP_ADDC: case WS_OP_SUBC: case WS_OP_MUL: case WS_OP_MAD:
    case WS_OP_MADC: case WS_OP_SHL: case WS_OP_SHR: case WS_OP_MIN: case WS_OP_MAX: case WS_OP_ABS:
    case WS_OP_NEG: case WS_OP_AND: case WS_OP_OR: case WS_OP_XOR: case WS_OP_NOT: case WS_OP_SETP:
        return (in->mods & WS_MOD_WIDE) || ws_type_bits((ws_type)in->type) == 64;
    default:
        return 0;
    }
}

/* div/rem/rcp/sqrt/rsqrt as ptxas emits them (isa.def, cost DIV). */
static void classify_div(ws_inst *in)
{
    int fbits = widest_float(in);
    if (!fbits) { in->unit = WS_UNIT_INT; in->cost = WS_COST_IDIV; return; }
    int approx = (in->mods & (WS_MOD_APPROX | WS_MOD_FULL)) != 0;
    if (fbits == 64) {
        in->unit = approx ? WS_UNIT_SFU : WS_UNIT_FP64;
        in->cost = approx ? WS_COST_ONE : WS_COST_DDIV;
    } else {
        in->unit = approx ? WS_UNIT_SFU : WS_UNIT_FP32;
        in->cost = approx ? WS_COST_ONE : WS_COST_FDIV;
    }
}

void ws_inst_classify(ws_inst *in)
{
    ws_unit u = ws_opcode_unit(in->op);
    in->cost = WS_COST_ONE;
    if (in->op < WS_OP_COUNT && op_costs[in->op] == COL_DIV) { classify_div(in); return; }
    if ((in->op == WS_OP_LD || in->op == WS_OP_LDU) && in->space == WS_SP_PARAM) {
        in->unit = WS_UNIT_INT;   /* a kernel parameter is a constant-bank operand: a move */
        return;
    }
    if (in->op == WS_OP_MOV || in->op == WS_OP_SELP) {
        in->unit = WS_UNIT_INT;   /* moves and selects of any type: MOV / SEL on the INT pipe */
        return;
    }
    if (u == WS_UNIT_ALU) {
        int fbits = widest_float(in);
        u = fbits == 64 ? WS_UNIT_FP64 : fbits ? WS_UNIT_FP32 : WS_UNIT_INT;
        if (u == WS_UNIT_INT && is_wide_int(in)) in->cost = WS_COST_WIDE;
    }
    in->unit = (uint8_t)u;
}

static const struct { const char *name; uint8_t bits; } type_info[WS_TY_COUNT] = {
    [WS_TY_NONE] = {"", 0},    [WS_TY_PRED] = {"pred", 1},
    [WS_TY_B8] = {"b8", 8},    [WS_TY_B16] = {"b16", 16}, [WS_TY_B32] = {"b32", 32}, [WS_TY_B64] = {"b64", 64},
    [WS_TY_U8] = {"u8", 8},    [WS_TY_U16] = {"u16", 16}, [WS_TY_U32] = {"u32", 32}, [WS_TY_U64] = {"u64", 64},
    [WS_TY_S8] = {"s8", 8},    [WS_TY_S16] = {"s16", 16}, [WS_TY_S32] = {"s32", 32}, [WS_TY_S64] = {"s64", 64},
    [WS_TY_F16] = {"f16", 16}, [WS_TY_F32] = {"f32", 32}, [WS_TY_F64] = {"f64", 64},
    [WS_TY_BF16] = {"bf16", 16}, [WS_TY_F16X2] = {"f16x2", 32}, [WS_TY_BF16X2] = {"bf16x2", 32},
    [WS_TY_E4M3] = {"e4m3", 8}, [WS_TY_E5M2] = {"e5m2", 8}, [WS_TY_E4M3X2] = {"e4m3x2", 16},
    [WS_TY_E5M2X2] = {"e5m2x2", 16}, [WS_TY_S4] = {"s4", 4}, [WS_TY_U4] = {"u4", 4},
};

int ws_type_bits(ws_type t) { return (unsigned)t < WS_TY_COUNT ? type_info[t].bits : 0; }
int ws_type_is_signed(ws_type t) { return t >= WS_TY_S8 && t <= WS_TY_S64; }
int ws_type_is_half(ws_type t) { return t == WS_TY_F16 || (t >= WS_TY_BF16 && t <= WS_TY_BF16X2); }
int ws_type_is_float(ws_type t) { return (t >= WS_TY_F16 && t <= WS_TY_F64) || ws_type_is_half(t); }
const char *ws_type_name(ws_type t) { return (unsigned)t < WS_TY_COUNT ? type_info[t].name : "?"; }

static ws_type type_lookup(const char *s, size_t n, int last)
{
    if (n > 0 && s[0] == '.') { s++; n--; }
    for (int t = 1; t <= last; t++)
        if (strlen(type_info[t].name) == n && memcmp(type_info[t].name, s, n) == 0)
            return (ws_type)t;
    return WS_TY_NONE;
}

ws_type ws_type_from_name(const char *s, size_t n) { return type_lookup(s, n, WS_TY_BF16X2); }
ws_type ws_operand_type_from_name(const char *s, size_t n) { return type_lookup(s, n, WS_TY_COUNT - 1); }

static const char *const sreg_names[WS_SR_COUNT] = {
    "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
    "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
    "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid", "%clock", "%clock64",
    "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt", "%lanemask_ge", "WARP_SZ",
    "%globaltimer", "%globaltimer_lo", "%globaltimer_hi",
};
const char *ws_sreg_name(ws_sreg s) { return (unsigned)s < WS_SR_COUNT ? sreg_names[s] : "%?"; }

/* ---- modifier names ---- */
const char *const ws_space_names[WS_NSPACE_NAMES] = {
    [WS_SP_NONE] = "", [WS_SP_GENERIC] = "", [WS_SP_GLOBAL] = "global", [WS_SP_SHARED] = "shared",
    [WS_SP_LOCAL] = "local", [WS_SP_CONST] = "const", [WS_SP_PARAM] = "param",
};
const char *const ws_cmp_names[WS_NCMP_NAMES] = {
    "", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
    "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan",
};
const char *const ws_bool_names[WS_NBOOL_NAMES] = {"", "and", "or", "xor"};
const char *const ws_rnd_names[WS_NRND_NAMES] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
const char *const ws_atom_names[WS_NATOM_NAMES] = {
    "", "add", "inc", "dec", "min", "max", "and", "or", "xor", "exch", "cas",
};
const char *const ws_shfl_names[WS_NSHFL_NAMES] = {"", "up", "down", "bfly", "idx"};
const char *const ws_vote_names[WS_NVOTE_NAMES] = {"", "all", "any", "uni", "ballot"};
const char *const ws_bar_names[WS_NBAR_NAMES] = {"", "sync", "arrive", "red.popc", "red.and", "red.or"};
const char *const ws_match_names[WS_NMATCH_NAMES] = {"", "any", "all"};
const char *const ws_prmt_names[WS_NPRMT_NAMES] = {"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
const char *const ws_shf_names[WS_NSHF_NAMES] = {"", "l.wrap", "l.clamp", "r.wrap", "r.clamp"};
const char *const ws_testp_names[WS_NTESTP_NAMES] = {
    "", "finite", "infinite", "number", "notanumber", "normal", "subnormal",
};

const char *const ws_scope_names[WS_NSCOPE_NAMES] = {"", "cta", "gpu", "sys"};

const ws_flag_name ws_flag_names[] = {
    {WS_MOD_TO, "to"},           {WS_MOD_VOLATILE, "volatile"}, {WS_MOD_RELAXED, "relaxed"},
    {WS_MOD_ACQUIRE, "acquire"}, {WS_MOD_RELEASE, "release"},   {WS_MOD_NONCOHERENT, "nc"},
    {WS_MOD_UNI, "uni"},         {WS_MOD_ALIGNED, "aligned"},   {WS_MOD_HI, "hi"},
    {WS_MOD_LO, "lo"},           {WS_MOD_WIDE, "wide"},         {WS_MOD_CC, "cc"},
    {WS_MOD_APPROX, "approx"},   {WS_MOD_FULL, "full"},         {WS_MOD_FTZ, "ftz"},
    {WS_MOD_NOFTZ, "noftz"},     {WS_MOD_SAT, "sat"},           {WS_MOD_SHIFTAMT, "shiftamt"},
    {WS_MOD_ADD, "add"},         {WS_MOD_RELU, "relu"},         {WS_MOD_NAN, "NaN"},
    {0, NULL},
};

int ws_name_index(const char *const *table, int count, const char *name, size_t n)
{
    for (int i = 0; i < count; i++)
        if (table[i] && table[i][0] && strlen(table[i]) == n && memcmp(table[i], name, n) == 0)
            return i;
    return -1;
}
