/*
 * Texture and surface instructions on texture/surface objects (a .u64 handle, the form nvcc
 * emits for cudaTextureObject_t / cudaSurfaceObject_t): tex, tld4, txq, suld.b, sust.b.
 *
 * Addressing and filtering follow the CUDA C++ Programming Guide, appendix "Texture
 * Fetching": nearest-point sampling tex(x) = T[floor(x)]; linear filtering
 * tex(x) = (1 - alpha) T[i] + alpha T[i+1] with x_B = x - 0.5, i = floor(x_B),
 * alpha = frac(x_B), "alpha, beta, gamma are stored in 9-bit fixed point format with 8 bits
 * of fractional value (so 1.0 is exactly represented)"; normalized coordinates are scaled by
 * the size; wrap replaces x by frac(x), mirror by frac(x) or 1 - frac(x) as floor(x) is even
 * or odd, clamp clamps to the texture and border reads zero. What the Guide leaves open is the
 * model's choice (docs/model.md, "Textures and surfaces"): alpha rounded to the nearest
 * 1/256 (ties up), the weighted sum in f32 in the Guide's term order, missing channels
 * (0, 0, 0, 1). tld4 returns the bilinear footprint counter-clockwise from the lower left
 * (PTX ISA, tld4): T[i, j+1], T[i+1, j+1], T[i+1, j], T[i, j].
 *
 * For the timing model a fetch is a global load of the footprint's first texel (its row's
 * texels for linear filtering and tld4), through the L1, which Volta unifies with the texture
 * cache (src/sim/core.c adds tex_latency).
 */
#include <math.h>
#include "exec_internal.h"
#include "warpsweep/half.h"
#include "warpsweep/tex.h"

int64_t ws_tex_address_index(int64_t i, uint32_t n, unsigned mode)
{
    int64_t N = n;
    switch (mode) {
    case WS_TEX_WRAP: {
        int64_t r = i % N;
        return r < 0 ? r + N : r;
    }
    case WS_TEX_MIRROR: {
        int64_t r = i % (2 * N);
        if (r < 0) r += 2 * N;
        return r < N ? r : 2 * N - 1 - r;
    }
    case WS_TEX_BORDER:
        return i < 0 || i >= N ? -1 : i;
    default:   /* clamp */
        return i < 0 ? 0 : i >= N ? N - 1 : i;
    }
}

float ws_tex_coord(float x, uint32_t n, int normalized, unsigned mode)
{
    if (!normalized) return x;
    if (mode == WS_TEX_WRAP || mode == WS_TEX_MIRROR) {
        float f = floorf(x);
        float fr = x - f;
        if (mode == WS_TEX_MIRROR && fmodf(f, 2.0f) != 0.0f) fr = 1.0f - fr;
        x = fr;
    }
    return x * (float)n;
}

/* floor of a float coordinate as an integer, saturated well outside any texture (NaN: 0) */
static int64_t floor_index(float u)
{
    if (u != u) return 0;
    float f = floorf(u);
    if (f < -1073741824.0f) return -1073741824;
    if (f > 1073741824.0f) return 1073741824;
    return (int64_t)f;
}

int64_t ws_tex_linear_split(float x, uint32_t *alpha256)
{
    float xb = x - 0.5f;
    int64_t i = floor_index(xb);
    double fr = (double)xb - floor((double)xb);
    if (xb != xb || fabs(xb) > 1073741824.0f) fr = 0;
    uint32_t a = (uint32_t)floor(fr * 256.0 + 0.5);   /* nearest 1/256: 0 .. 256 */
    *alpha256 = a;
    return i;
}

/* ---- texels ---- */

static uint32_t chan_bytes(unsigned t) { return ws_ty_bits[t] / 8; }

/* raw bits of channel c of texel (ix, iy, iz) (indices in range) */
static uint64_t texel_bits(const ws_texobj *t, int64_t ix, int64_t iy, int64_t iz, unsigned c)
{
    uint64_t off = (uint64_t)iz * t->pitch * t->size[1] + (uint64_t)iy * t->pitch + (uint64_t)ix * t->texel_bytes +
                   (uint64_t)c * chan_bytes(t->ctype);
    uint64_t v = 0;
    memcpy(&v, t->region->data + off, chan_bytes(t->ctype));
    return v;
}

/* channel c as the float a float-returning fetch filters (read mode applied) */
static float chan_float(const ws_texobj *t, uint64_t bits)
{
    switch (t->ctype) {
    case WS_TY_F32: return ws_f32(bits);
    case WS_TY_F16: return (float)ws_half_to_double((uint16_t)bits, 0);
    /* cudaReadModeNormalizedFloat: unsigned to [0, 1], signed to [-1, 1] (Guide, "Read mode") */
    case WS_TY_U8: return (float)(uint8_t)bits / 255.0f;
    case WS_TY_U16: return (float)(uint16_t)bits / 65535.0f;
    case WS_TY_S8: { float f = (float)(int8_t)bits / 127.0f; return f < -1.0f ? -1.0f : f; }
    case WS_TY_S16: { float f = (float)(int16_t)bits / 32767.0f; return f < -1.0f ? -1.0f : f; }
    default: return 0.0f;
    }
}

static int returns_float(const ws_texobj *t)
{
    return t->ctype == WS_TY_F32 || t->ctype == WS_TY_F16 || t->read_normalized;
}

/* One texel's four channels (missing ones 0, 0, 0, 1) as result bits of dtype: f32 bits for
 * a float fetch, the sign- or zero-extended 32-bit integer otherwise. ix < 0: border (zero). */
static void texel4(const ws_texobj *t, int64_t ix, int64_t iy, int64_t iz, float f[4], uint32_t u[4])
{
    for (unsigned c = 0; c < 4; c++) {
        int absent = c >= t->channels;
        if (ix < 0 || iy < 0 || iz < 0) {
            f[c] = 0.0f;
            u[c] = 0;
            continue;
        }
        if (absent) {
            f[c] = c == 3 ? 1.0f : 0.0f;
            u[c] = c == 3 ? 1u : 0u;
            continue;
        }
        uint64_t b = texel_bits(t, ix, iy, iz, c);
        f[c] = chan_float(t, b);
        u[c] = (uint32_t)ws_ext(b, t->ctype);
    }
}

/* ---- the handle ---- */

enum { WANT_TEXTURE = 0, WANT_SURFACE = 1, WANT_ANY = 2 };

/* the object behind a lane's handle (want: WANT_*), or NULL after a fault */
static const ws_texobj *texobj_of(ws_xctx *x, unsigned l, uint64_t handle, int want, const char *what)
{
    const ws_gmem *g = x->env->gmem;
    uint64_t i = handle - WS_TEXOBJ_BASE;
    if (!g || handle < WS_TEXOBJ_BASE || i >= g->ntex) {
        ws_xfault(x, l, "%s: handle 0x%llx is not a %s object of the workload (textures:/surfaces:)", what,
                  (unsigned long long)handle, want == WANT_SURFACE ? "surface" : "texture");
        return NULL;
    }
    const ws_texobj *t = &g->tex[i];
    if (want != WANT_ANY && t->surface != (want == WANT_SURFACE)) {
        ws_xfault(x, l, "%s: handle 0x%llx names a %s, not a %s", what, (unsigned long long)handle,
                  t->surface ? "surface" : "texture", want == WANT_SURFACE ? "surface" : "texture");
        return NULL;
    }
    return t;
}

/* The global address of texel (ix, iy, iz). */
static uint64_t texel_addr(const ws_texobj *t, int64_t ix, int64_t iy, int64_t iz)
{
    return t->region->addr + (uint64_t)iz * t->pitch * t->size[1] + (uint64_t)iy * t->pitch +
           (uint64_t)ix * t->texel_bytes;
}

/* A lane's filter footprint: the texels the hardware reads (border texels,
 * index -1, are the border colour and read nothing). */
typedef struct footprint {
    int64_t at[WS_TEX_FOOTPRINT][3];
    unsigned n;
} footprint;

static void fp_add(footprint *fp, int64_t x, int64_t y, int64_t z)
{
    if (x < 0 || y < 0 || z < 0 || fp->n >= WS_TEX_FOOTPRINT) return;
    fp->at[fp->n][0] = x;
    fp->at[fp->n][1] = y;
    fp->at[fp->n][2] = z;
    fp->n++;
}

/* Records lane l's access: its footprint's first texel in mem_addr (texel 0
 * when every texel is border colour, as a fetch still issues), the others in
 * mem_extra_addr; *cnt: how many extra addresses the lane has. */
static void note_access(ws_xctx *x, unsigned l, const ws_texobj *t, const footprint *fp, unsigned *cnt)
{
    ws_effect *eff = x->eff;
    eff->mem_mask |= 1ull << l;
    eff->mem_addr[l] = fp->n ? texel_addr(t, fp->at[0][0], fp->at[0][1], fp->at[0][2]) : t->region->addr;
    eff->mem_lane_space[l] = WS_SP_GLOBAL;
    unsigned k = 0;
    for (unsigned i = 1; i < fp->n; i++, k++)
        eff->mem_extra_addr[k][l] = texel_addr(t, fp->at[i][0], fp->at[i][1], fp->at[i][2]);
    *cnt = k;
    if (k > eff->mem_extra) eff->mem_extra = (uint8_t)k;
}

/* Lanes with a smaller footprint than the instruction's largest repeat their
 * first texel (ws_effect.mem_extra_addr). */
static void pad_footprints(ws_effect *eff, const unsigned *cnt)
{
    if (!eff->mem_extra) return;
    for (uint64_t m = eff->mem_mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctzll(m);
        for (unsigned k = cnt[l]; k < eff->mem_extra; k++) eff->mem_extra_addr[k][l] = eff->mem_addr[l];
    }
}

/* ---- tex and tld4 ---- */

typedef struct fetch {
    float f[4];
    uint32_t u[4];
} fetch;

/* the index of dimension d of a point fetch at coordinate bits c */
static int64_t point_index(const ws_texobj *t, const ws_inst *in, unsigned d, uint64_t c)
{
    unsigned mode = t->address[d];
    int64_t i;
    if (in->type2 == WS_TY_S32) i = (int32_t)c;
    else i = floor_index(ws_tex_coord(ws_f32(c), t->size[d], t->normalized_coords, mode));
    return ws_tex_address_index(i, t->size[d], mode);
}

static void tex_point(const ws_texobj *t, const ws_inst *in, const uint64_t *c, fetch *r, footprint *fp)
{
    int64_t ix[3] = {0, 0, 0};
    for (unsigned d = 0; d < t->dims; d++) ix[d] = point_index(t, in, d, c[d]);
    int border = ix[0] < 0 || ix[1] < 0 || ix[2] < 0;
    texel4(t, border ? -1 : ix[0], ix[1], ix[2], r->f, r->u);
    fp_add(fp, ix[0], ix[1], ix[2]);
}

/* the footprint of dimension d: indices of texels i and i+1 and alpha * 256 */
static void linear_dim(const ws_texobj *t, unsigned d, uint64_t c, int64_t i2[2], uint32_t *a)
{
    if (d >= t->dims) {
        i2[0] = i2[1] = 0;
        *a = 0;
        return;
    }
    unsigned mode = t->address[d];
    float u = ws_tex_coord(ws_f32(c), t->size[d], t->normalized_coords, mode);
    int64_t i = ws_tex_linear_split(u, a);
    i2[0] = ws_tex_address_index(i, t->size[d], mode);
    i2[1] = ws_tex_address_index(i + 1, t->size[d], mode);
}

static void tex_linear(const ws_texobj *t, const uint64_t *c, fetch *r, footprint *fp)
{
    int64_t ix[3][2];
    uint32_t a[3];
    for (unsigned d = 0; d < 3; d++) linear_dim(t, d, d < t->dims ? c[d] : 0, ix[d], &a[d]);
    float w[3][2];
    for (unsigned d = 0; d < 3; d++) {
        w[d][0] = (float)(256 - a[d]) / 256.0f;
        w[d][1] = (float)a[d] / 256.0f;
    }
    unsigned nk = t->dims == 3 ? 2 : 1, nj = t->dims >= 2 ? 2 : 1;
    float acc[4] = {0, 0, 0, 0};
    int first = 1;
    /* the Guide's term order: i fastest, then j, then k */
    for (unsigned k = 0; k < nk; k++)
        for (unsigned j = 0; j < nj; j++)
            for (unsigned i = 0; i < 2; i++) {
                float wt = w[0][i];
                if (t->dims >= 2) wt = wt * w[1][j];
                if (t->dims == 3) wt = wt * w[2][k];
                int64_t X = ix[0][i], Y = ix[1][j], Z = ix[2][k];
                int border = X < 0 || Y < 0 || Z < 0;
                fetch tx;
                texel4(t, border ? -1 : X, Y, Z, tx.f, tx.u);
                fp_add(fp, X, Y, Z);
                for (unsigned ch = 0; ch < 4; ch++) {
                    float term = wt * tx.f[ch];
                    acc[ch] = first ? term : acc[ch] + term;
                }
                first = 0;
            }
    for (unsigned ch = 0; ch < 4; ch++) {
        r->f[ch] = acc[ch];
        r->u[ch] = 0;
    }
}

static void tld4_fetch(const ws_texobj *t, unsigned comp, const uint64_t *c, fetch *r, footprint *fp)
{
    int64_t ix[2][2];
    uint32_t a;
    linear_dim(t, 0, c[0], ix[0], &a);
    linear_dim(t, 1, c[1], ix[1], &a);
    static const uint8_t order[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};   /* (i, j) offsets */
    for (unsigned e = 0; e < 4; e++) {
        int64_t X = ix[0][order[e][0]], Y = ix[1][order[e][1]];
        fetch tx;
        texel4(t, X < 0 || Y < 0 ? -1 : X, Y, 0, tx.f, tx.u);
        fp_add(fp, X, Y, 0);
        r->f[e] = tx.f[comp];
        r->u[e] = tx.u[comp];
    }
}

static int exec_fetch(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const int gather = in->op == WS_OP_TLD4;
    const char *what = gather ? "tld4" : "tex";
    ws_src h = ws_opnd(x, &in->src[0], 0);
    const ws_operand *co = &in->src[1];
    unsigned nc = co->kind == WS_OK_VEC ? co->nvec : 1;
    uint64_t *d[4];
    for (unsigned e = 0; e < 4; e++) {
        ws_operand one = {.kind = WS_OK_REG, .reg = e < in->dst[0].nvec ? in->dst[0].vec[e] : WS_NO_REG};
        d[e] = ws_dst(x, in->dst[0].kind == WS_OK_VEC ? &one : &in->dst[0]);
        if (in->dst[0].kind != WS_OK_VEC && e) d[e] = x->sink;
    }
    x->eff->mem_kind = 1;
    x->eff->mem_space = WS_SP_GLOBAL;
    unsigned cnt[WS_MAX_WARP_SIZE];
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        const ws_texobj *t = texobj_of(x, l, SV(h, l), WANT_TEXTURE, what);
        if (!t) return WS_EXEC_FAULT;
        if (t->dims != in->subop)
            return ws_xfault(x, l, "%s.%ud on a %uD texture", what, in->subop, t->dims);
        int fl = ws_ty_float[in->type];
        if (fl != returns_float(t))
            return ws_xfault(x, l, "%s.%s on a texture that returns %s (channel type %s, %s read mode)", what,
                             ws_type_name((ws_type)in->type), returns_float(t) ? "floats" : "integers",
                             ws_type_name((ws_type)t->ctype), t->read_normalized ? "normalized-float" : "element");
        uint64_t c[4] = {0, 0, 0, 0};
        for (unsigned e = 0; e < nc && e < 4; e++) {
            uint32_t reg = co->kind == WS_OK_VEC ? co->vec[e] : co->reg;
            c[e] = reg == WS_NO_REG ? 0 : ws_reg_lanes(x->w, reg, x->ws)[l];
        }
        fetch r;
        footprint fp = {.n = 0};
        if (gather) tld4_fetch(t, in->cmp, c, &r, &fp);
        else if (t->filter == WS_TEX_LINEAR && in->type2 == WS_TY_F32) tex_linear(t, c, &r, &fp);
        else tex_point(t, in, c, &r, &fp);
        x->eff->mem_bytes = t->texel_bytes;
        note_access(x, l, t, &fp, &cnt[l]);
        for (unsigned e = 0; e < 4; e++) d[e][l] = fl ? ws_bits32(r.f[e]) : r.u[e];
    }
    pad_footprints(x->eff, cnt);
    return WS_EXEC_OK;
}

/* ---- txq ---- */

static int exec_txq(ws_xctx *x)
{
    const ws_inst *in = x->in;
    ws_src h = ws_opnd(x, &in->src[0], 0);
    uint64_t *d = ws_dst(x, &in->dst[0]);
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        const ws_texobj *t = texobj_of(x, l, SV(h, l), WANT_ANY, "txq");
        if (!t) return WS_EXEC_FAULT;
        uint32_t v = 0;
        switch (in->cmp) {
        case WS_TXQ_WIDTH: v = t->size[0]; break;
        case WS_TXQ_HEIGHT: v = t->dims >= 2 ? t->size[1] : 0; break;
        case WS_TXQ_DEPTH: v = t->dims == 3 ? t->size[2] : 0; break;
        case WS_TXQ_NORMALIZED: v = t->normalized_coords; break;
        case WS_TXQ_FILTER: v = t->filter; break;
        case WS_TXQ_ADDR0: v = t->address[0]; break;
        case WS_TXQ_ADDR1: v = t->address[1]; break;
        case WS_TXQ_ADDR2: v = t->address[2]; break;
        case WS_TXQ_MIPMAPS: v = 1; break;     /* one level: the workload describes no mipmaps */
        default: v = 0; break;                 /* array_size, num_samples: not a layered / multisample texture */
        }
        d[l] = v;
    }
    return WS_EXEC_OK;
}

/* ---- suld.b / sust.b ---- */

/* the byte offset of a surface access of `bytes` at (x bytes, y, z), or -1 (.zero, out of range) */
static int64_t surf_offset(ws_xctx *x, unsigned l, const ws_texobj *t, const int64_t c[3], uint32_t bytes, int store)
{
    const ws_inst *in = x->in;
    int64_t row = (int64_t)t->size[0] * t->texel_bytes;
    int64_t X = c[0], Y = t->dims >= 2 ? c[1] : 0, Z = t->dims == 3 ? c[2] : 0;
    if (bytes > row)
        return ws_xfault(x, l, "%s: a %u-byte access is wider than the surface's %lld-byte rows", store ? "sust" : "suld",
                         bytes, (long long)row), -2;
    if (X % bytes)
        return ws_xfault(x, l, "%s: x = %lld bytes is not a multiple of the access size %u", store ? "sust" : "suld",
                         (long long)X, bytes), -2;
    int out = X < 0 || X + bytes > row || Y < 0 || Y >= t->size[1] || Z < 0 || Z >= t->size[2];
    if (out) {
        if (in->boolop == WS_SURF_ZERO) return -1;
        if (in->boolop == WS_SURF_TRAP)
            return ws_xfault(x, l, "%s.trap: (x = %lld bytes, y = %lld, z = %lld) is outside the %ux%ux%u surface",
                             store ? "sust" : "suld", (long long)X, (long long)Y, (long long)Z, t->size[0], t->size[1],
                             t->size[2]), -2;
        /* .clamp: the nearest location, sized appropriately (PTX ISA, suld) */
        X = X < 0 ? 0 : X + bytes > row ? row - bytes : X;
        Y = Y < 0 ? 0 : Y >= t->size[1] ? t->size[1] - 1 : Y;
        Z = Z < 0 ? 0 : Z >= t->size[2] ? t->size[2] - 1 : Z;
    }
    return Z * (int64_t)t->pitch * t->size[1] + Y * (int64_t)t->pitch + X;
}

static int exec_surf(ws_xctx *x)
{
    const ws_inst *in = x->in;
    const int store = in->op == WS_OP_SUST;
    ws_src h = ws_opnd(x, &in->src[0], 0);
    const ws_operand *co = &in->src[1];
    const ws_operand *vo = store ? &in->src[2] : &in->dst[0];
    unsigned nv = vo->kind == WS_OK_VEC ? vo->nvec : 1, eb = ws_ty_bits[in->type] / 8;
    uint32_t bytes = nv * eb;
    x->eff->mem_kind = store ? 2 : 1;
    x->eff->mem_space = WS_SP_GLOBAL;
    x->eff->mem_bytes = bytes;
    LANE_LOOP(x->exec) {
        unsigned l = LANE;
        const ws_texobj *t = texobj_of(x, l, SV(h, l), WANT_SURFACE, store ? "sust" : "suld");
        if (!t) return WS_EXEC_FAULT;
        if (t->dims != in->subop)
            return ws_xfault(x, l, "%s.b.%ud on a %uD surface", store ? "sust" : "suld", in->subop, t->dims);
        int64_t c[3] = {0, 0, 0};
        for (unsigned e = 0; e < 3 && e < (co->kind == WS_OK_VEC ? co->nvec : 1u); e++) {
            uint32_t reg = co->kind == WS_OK_VEC ? co->vec[e] : co->reg;
            c[e] = reg == WS_NO_REG ? 0 : (int32_t)ws_reg_lanes(x->w, reg, x->ws)[l];
        }
        int64_t off = surf_offset(x, l, t, c, bytes, store);
        if (off == -2) return WS_EXEC_FAULT;
        uint8_t *p = off >= 0 ? t->region->data + off : NULL;
        if (p) {
            x->eff->mem_mask |= 1ull << l;
            x->eff->mem_addr[l] = t->region->addr + (uint64_t)off;
            x->eff->mem_lane_space[l] = WS_SP_GLOBAL;
        }
        for (unsigned e = 0; e < nv; e++) {
            uint32_t reg = vo->kind == WS_OK_VEC ? vo->vec[e] : vo->reg;
            if (store) {
                uint64_t v = reg == WS_NO_REG ? 0 : ws_reg_lanes(x->w, reg, x->ws)[l];
                if (!p) continue;
                if (memcmp(p + e * eb, &v, eb)) x->env->mem_changes++;
                memcpy(p + e * eb, &v, eb);
            } else {
                uint64_t v = 0;
                if (p) memcpy(&v, p + e * eb, eb);
                if (reg != WS_NO_REG) ws_reg_lanes(x->w, reg, x->ws)[l] = v;
            }
        }
    }
    return WS_EXEC_OK;
}

int ws_exec_tex(ws_xctx *x)
{
    switch (x->in->op) {
    case WS_OP_TEX: case WS_OP_TLD4: return exec_fetch(x);
    case WS_OP_TXQ: return exec_txq(x);
    default: return exec_surf(x);
    }
}
