#ifndef WS_WL_TYPES_H
#define WS_WL_TYPES_H
/* Private helpers of the workload loader and the memory image: element
 * types of buffers and the values of value specs (ws_values). */
#include <stdint.h>
#include <string.h>
#include "warpsweep/ptx.h"
#include "warpsweep/workload.h"

static inline int wl_type_bytes(int t)
{
    switch (t) {
    case WS_TY_PRED: case WS_TY_B8: case WS_TY_U8: case WS_TY_S8: return 1;
    case WS_TY_B16: case WS_TY_U16: case WS_TY_S16: case WS_TY_F16: return 2;
    case WS_TY_B32: case WS_TY_U32: case WS_TY_S32: case WS_TY_F32: return 4;
    case WS_TY_B64: case WS_TY_U64: case WS_TY_S64: case WS_TY_F64: return 8;
    default: return 0;
    }
}
static inline int wl_type_signed(int t) { return t >= WS_TY_S8 && t <= WS_TY_S64; }
static inline int wl_type_float(int t) { return t == WS_TY_F32 || t == WS_TY_F64 || t == WS_TY_F16; }

static inline const char *wl_type_name(int t)
{
    static const char *const names[WS_TY_COUNT] = {
        "none", "pred", "b8", "b16", "b32", "b64", "u8", "u16", "u32", "u64",
        "s8", "s16", "s32", "s64", "f16", "f32", "f64"};
    return t >= 0 && t < WS_TY_COUNT ? names[t] : "?";
}

/* Truncates an integer to the type's width (sign-extends signed types). */
static inline uint64_t wl_int_bits(int t, uint64_t v)
{
    int b = wl_type_bytes(t) * 8;
    if (b >= 64)
        return v;
    v &= (1ull << b) - 1;
    if (wl_type_signed(t) && (v >> (b - 1)) & 1)
        v |= ~((1ull << b) - 1);
    return v;
}

/* Bits of a double stored as the float type t (f32 or f64). */
static inline uint64_t wl_float_bits(int t, double d)
{
    if (t == WS_TY_F32) {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* Element i of a CONST / IOTA / LIST value spec as the bits of type t
 * (low wl_type_bytes(t) bytes significant). LIST elements past the end are 0. */
static inline uint64_t wl_values_elem(const ws_values *v, int t, uint64_t i)
{
    if (wl_type_float(t)) {
        double d = 0;
        switch (v->kind) {
        case WS_INIT_CONST: d = v->start; break;
        case WS_INIT_IOTA: d = v->start + (double)i * v->step; break;
        case WS_INIT_LIST: d = i < v->nlist ? v->list[i] : 0; break;
        default: break;
        }
        return wl_float_bits(t, d);
    }
    uint64_t x = 0;
    switch (v->kind) {
    case WS_INIT_CONST: x = v->nlist ? (uint64_t)v->ilist[0] : (uint64_t)(int64_t)v->start; break;
    case WS_INIT_IOTA: x = (uint64_t)(int64_t)v->start + i * (uint64_t)(int64_t)v->step; break;
    case WS_INIT_LIST: x = i < v->nlist ? (uint64_t)v->ilist[i] : 0; break;
    default: break;
    }
    return wl_int_bits(t, x);
}

/* Reads / writes element i of a typed array. */
static inline uint64_t wl_load(const uint8_t *data, int t, uint64_t i)
{
    int n = wl_type_bytes(t);
    uint64_t v = 0;
    memcpy(&v, data + i * (uint64_t)n, (size_t)n);   /* little-endian host */
    return wl_type_float(t) ? v : wl_int_bits(t, v);
}
static inline void wl_store(uint8_t *data, int t, uint64_t i, uint64_t v)
{
    int n = wl_type_bytes(t);
    memcpy(data + i * (uint64_t)n, &v, (size_t)n);
}

#endif
