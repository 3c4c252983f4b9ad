#ifndef WARPSWEEP_TEX_H
#define WARPSWEEP_TEX_H
/*
 * Texture and surface objects (cudaTextureObject_t / cudaSurfaceObject_t): the descriptor a
 * workload binds to a .u64 kernel parameter (README "Textures and surfaces"), and the
 * addressing and filtering rules of the CUDA C++ Programming Guide, appendix "Texture
 * Fetching" (src/exec/exec_tex.c executes tex, tld4, txq, suld.b and sust.b with them).
 *
 * The parameter's value is an opaque handle, WS_TEXOBJ_HANDLE(i) for the workload's i-th
 * texture or surface; the executor maps it back to the descriptor (ws_gmem.tex).
 */
#include <stdint.h>

#define WS_TEXOBJ_BASE 0x00007e0000000000ull   /* outside every memory window (exec.h) */
#define WS_TEXOBJ_HANDLE(i) (WS_TEXOBJ_BASE + (uint64_t)(i))

/* Address modes, numbered as cudaTextureAddressMode (what txq.addr_mode_N returns) */
enum { WS_TEX_WRAP = 0, WS_TEX_CLAMP = 1, WS_TEX_MIRROR = 2, WS_TEX_BORDER = 3 };
/* Filter modes, numbered as cudaTextureFilterMode (txq.filter_mode) */
enum { WS_TEX_POINT = 0, WS_TEX_LINEAR = 1 };

struct ws_region;

typedef struct ws_texobj {
    uint8_t surface;           /* 1: a surface object (suld/sust), 0: a texture object */
    uint8_t dims;              /* 1, 2 or 3 */
    uint8_t channels;          /* 1, 2 or 4 */
    uint8_t ctype;             /* ws_type of one channel: u8 s8 u16 s16 u32 s32 f16 f32 */
    uint8_t read_normalized;   /* cudaReadModeNormalizedFloat (8/16-bit integer channels) */
    uint8_t normalized_coords;
    uint8_t filter;            /* WS_TEX_POINT / WS_TEX_LINEAR */
    uint8_t address[3];        /* per dimension, WS_TEX_* */
    uint32_t size[3];          /* width, height, depth (1 for absent dimensions) */
    uint64_t pitch;            /* bytes per row (2D/3D); a slice is pitch * height */
    uint32_t texel_bytes;      /* channels * channel bytes */
    uint32_t buffer;           /* the workload buffer holding the texels */
    const struct ws_region *region;   /* that buffer in a run's memory (ws_memimage_init) */
} ws_texobj;

/* The Guide's addressing of one integer texel coordinate i in [0, n) for an address mode:
 * the texel index, or -1 for a border texel (value zero). Wrap and mirror of integer
 * indices (the neighbours of a linear footprint) are periodic with n and 2n. */
int64_t ws_tex_address_index(int64_t i, uint32_t n, unsigned mode);

/* Coordinate transform before indexing: for normalized coordinates, wrap replaces x by
 * frac(x) and mirror by frac(x) or 1 - frac(x) (floor(x) even / odd); then x is scaled by n.
 * Unnormalized coordinates are returned unchanged. */
float ws_tex_coord(float x, uint32_t n, int normalized, unsigned mode);

/* Linear filtering: x_B = x - 0.5, i = floor(x_B), and alpha = frac(x_B) in the 9-bit fixed
 * point format with 8 fractional bits (returned as the integer 0..256 = alpha * 256). */
int64_t ws_tex_linear_split(float x, uint32_t *alpha256);

#endif
