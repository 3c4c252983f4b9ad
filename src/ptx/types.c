/* PLACEHOLDER: replaced by the PTX front end. */
#include "warpsweep/ptx.h"
static const char *const names[] = {
#define X(name, mnemonic, unit) mnemonic,
#include "warpsweep/isa.def"
#undef X
};
static const ws_unit units[] = {
#define X(name, mnemonic, unit) WS_UNIT_##unit,
#include "warpsweep/isa.def"
#undef X
};
const char *ws_opcode_name(int op) { return op >= 0 && op < WS_OP_COUNT ? names[op] : "?"; }
ws_unit ws_opcode_unit(int op) { return op >= 0 && op < WS_OP_COUNT ? units[op] : WS_UNIT_ALU; }
int ws_type_bits(ws_type t) { (void)t; return 32; }
int ws_type_is_signed(ws_type t) { return t >= WS_TY_S8 && t <= WS_TY_S64; }
int ws_type_is_float(ws_type t) { return t >= WS_TY_F16 && t <= WS_TY_F64; }
const char *ws_type_name(ws_type t) { (void)t; return "?"; }
ws_type ws_type_from_name(const char *s, size_t n) { (void)s; (void)n; return WS_TY_NONE; }
const char *ws_sreg_name(ws_sreg s) { (void)s; return "%?"; }
