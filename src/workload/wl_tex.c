/* Workload YAML: textures and surfaces (README "Textures and surfaces", include/warpsweep/tex.h). */
#include "wl_parse.h"

/* ---- textures and surfaces (README "Textures and surfaces", include/warpsweep/tex.h) ---- */

const char *wl_tex_kind(const ws_workload *wl, uint32_t i)
{
    return wl->texs[i].desc.surface ? "surface" : "texture";
}

int find_tex(const ws_workload *wl, const char *name)
{
    for (uint32_t i = 0; i < wl->ntexs; i++)
        if (strcmp(wl->texs[i].name, name) == 0)
            return (int)i;
    return -1;
}

static int get_bool(parser *p, yaml_node_t *n, const char *what, uint8_t *out)
{
    const char *s = scalar(n);
    if (!s || (strcmp(s, "true") && strcmp(s, "false")))
        return fail_node(p, n, "%s must be true or false", what);
    *out = strcmp(s, "true") == 0;
    return 0;
}

/* one of names[0..n-1] (as its index), else an error naming them */
static int get_choice(parser *p, yaml_node_t *n, const char *what, const char *const *names, int cnt, uint8_t *out)
{
    const char *s = scalar(n);
    for (int i = 0; s && i < cnt; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (uint8_t)i;
            return 0;
        }
    char list[160] = "";
    for (int i = 0; i < cnt; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    return fail_node(p, n, "%s must be one of %s", what, list);
}

static int tex_channel_type(parser *p, yaml_node_t *n, const char *where, uint8_t *out)
{
    static const char *const names[] = {"u8", "s8", "u16", "s16", "u32", "s32", "f16", "f32"};
    static const uint8_t types[] = {WS_TY_U8, WS_TY_S8, WS_TY_U16, WS_TY_S16, WS_TY_U32, WS_TY_S32, WS_TY_F16, WS_TY_F32};
    char what[192];
    snprintf(what, sizeof what, "%s: type (of one channel)", where);
    uint8_t i = 0;
    if (get_choice(p, n, what, names, 8, &i) < 0)
        return -1;
    *out = types[i];
    return 0;
}

/* address: MODE or [MODE, ...] (one per dimension; one mode applies to every dimension) */
static int tex_address_modes(parser *p, yaml_node_t *n, const char *where, ws_texobj *t)
{
    static const char *const names[] = {"wrap", "clamp", "mirror", "border"};   /* cudaTextureAddressMode order */
    char what[192];
    snprintf(what, sizeof what, "%s: address", where);
    if (n->type == YAML_SEQUENCE_NODE) {
        uint32_t cnt = (uint32_t)(n->data.sequence.items.top - n->data.sequence.items.start);
        if (cnt != t->dims)
            return fail_node(p, n, "%s has %u modes for a %uD texture (one per dimension, or one for all)", what, cnt,
                             t->dims);
        for (uint32_t d = 0; d < cnt; d++)
            if (get_choice(p, node(p, n->data.sequence.items.start[d]), what, names, 4, &t->address[d]) < 0)
                return -1;
    } else {
        if (get_choice(p, n, what, names, 4, &t->address[0]) < 0)
            return -1;
        t->address[1] = t->address[2] = t->address[0];
    }
    for (unsigned d = 0; d < t->dims; d++)
        if ((t->address[d] == WS_TEX_WRAP || t->address[d] == WS_TEX_MIRROR) && !t->normalized_coords)
            return fail_node(p, n, "%s: %s needs normalized_coords: true (the CUDA Programming Guide: wrap and mirror "
                             "are only supported for normalized texture coordinates)", what, names[t->address[d]]);
    return 0;
}

static int parse_one_tex(parser *p, yaml_node_t *k, yaml_node_t *v, int surface)
{
    ws_workload *wl = p->wl;
    const char *name = scalar(k);
    if (!name || !*name)
        return fail_node(p, k, "%s names must be plain names", surface ? "surface" : "texture");
    if (find_tex(wl, name) >= 0 || find_buffer(wl, name) >= 0)
        return fail_node(p, k, "duplicate name '%s' (buffers, textures and surfaces share one namespace)", name);
    ws_tex_spec *ts = &wl->texs[wl->ntexs++];
    ts->name = strdup(name);
    ts->line = (int)k->start_mark.line + 1;
    ts->col = (int)k->start_mark.column + 1;
    ws_texobj *t = &ts->desc;
    t->surface = (uint8_t)surface;
    t->channels = 1;
    t->address[0] = t->address[1] = t->address[2] = WS_TEX_CLAMP;
    char where[160];
    snprintf(where, sizeof where, "%s '%s'", surface ? "surface" : "texture", name);
    static const char *const keys[T_N] = {"buffer", "type", "channels", "width", "height", "depth", "pitch",
                                          "normalized_coords", "address", "filter", "read_mode"};
    yaml_node_t *vals[T_N], *kn[T_N];
    if (collect(p, v, keys, surface ? T_PITCH + 1 : T_N, where, vals, kn) < 0)
        return -1;
    static const int required[] = {T_BUFFER, T_TYPE, T_WIDTH};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!vals[required[i]])
            return fail_node(p, v, "%s: missing required key '%s'", where, keys[required[i]]);
    const char *bname = scalar(vals[T_BUFFER]);
    int b = bname ? find_buffer(wl, bname) : -1;
    if (b < 0) {
        char sug[128];
        return fail_node(p, vals[T_BUFFER], "%s: missing buffer '%s' (not declared under buffers)%s", where,
                         bname ? bname : "?", bname ? suggest_buffer(wl, bname, sug, sizeof sug) : "");
    }
    t->buffer = (uint32_t)b;
    if (tex_channel_type(p, vals[T_TYPE], where, &t->ctype) < 0)
        return -1;
    char key[192];
    uint64_t u;
    if (vals[T_CHANNELS]) {
        snprintf(key, sizeof key, "%s: channels", where);
        if (get_uint(p, vals[T_CHANNELS], key, 1, 4, &u) < 0)
            return -1;
        if (u == 3)
            return fail_node(p, vals[T_CHANNELS], "%s must be 1, 2 or 4 (CUDA has no 3-channel texel format)", key);
        t->channels = (uint8_t)u;
    }
    static const int dimkeys[3] = {T_WIDTH, T_HEIGHT, T_DEPTH};
    t->dims = 1;
    for (int d = 0; d < 3; d++) {
        t->size[d] = 1;
        if (!vals[dimkeys[d]])
            continue;
        if (d == 2 && !vals[T_HEIGHT])
            return fail_node(p, kn[T_DEPTH], "%s: depth without height (a 3D texture has width, height and depth)", where);
        snprintf(key, sizeof key, "%s: %s", where, keys[dimkeys[d]]);
        if (get_uint(p, vals[dimkeys[d]], key, 1, 1u << 16, &u) < 0)
            return -1;
        t->size[d] = (uint32_t)u;
        t->dims = (uint8_t)(d + 1);
    }
    t->texel_bytes = t->channels * (uint32_t)wl_type_bytes(t->ctype);
    t->pitch = (uint64_t)t->size[0] * t->texel_bytes;
    if (vals[T_PITCH]) {
        snprintf(key, sizeof key, "%s: pitch", where);
        if (get_uint(p, vals[T_PITCH], key, 1, 1u << 30, &u) < 0)
            return -1;
        if (u < t->pitch)
            return fail_node(p, vals[T_PITCH], "%s (%llu bytes) is less than a row of %u texels of %u bytes", key,
                             (unsigned long long)u, t->size[0], t->texel_bytes);
        t->pitch = u;
    }
    const ws_buffer_spec *bs = &wl->buffers[b];
    uint64_t need = ((uint64_t)t->size[2] * t->size[1] - 1) * t->pitch + (uint64_t)t->size[0] * t->texel_bytes;
    uint64_t have = bs->count * (uint64_t)wl_type_bytes(bs->type);
    if (need > have)
        return fail_node(p, vals[T_BUFFER], "%s: %ux%ux%u texels of %u bytes (pitch %llu) need %llu bytes, buffer '%s' "
                         "holds %llu", where, t->size[0], t->size[1], t->size[2], t->texel_bytes,
                         (unsigned long long)t->pitch, (unsigned long long)need, bs->name, (unsigned long long)have);
    if (surface)
        return 0;
    if (vals[T_NORMCOORDS]) {
        snprintf(key, sizeof key, "%s: normalized_coords", where);
        if (get_bool(p, vals[T_NORMCOORDS], key, &t->normalized_coords) < 0)
            return -1;
    }
    if (vals[T_READ]) {
        static const char *const modes[] = {"element", "normalized_float"};
        snprintf(key, sizeof key, "%s: read_mode", where);
        if (get_choice(p, vals[T_READ], key, modes, 2, &t->read_normalized) < 0)
            return -1;
        int small = t->ctype == WS_TY_U8 || t->ctype == WS_TY_S8 || t->ctype == WS_TY_U16 || t->ctype == WS_TY_S16;
        if (t->read_normalized && !small)
            return fail_node(p, vals[T_READ], "%s: normalized_float applies to 8- and 16-bit integer channels, not %s",
                             key, wl_type_name(t->ctype));
    }
    if (vals[T_ADDRESS] && tex_address_modes(p, vals[T_ADDRESS], where, t) < 0)
        return -1;
    if (vals[T_FILTER]) {
        static const char *const modes[] = {"point", "linear"};
        snprintf(key, sizeof key, "%s: filter", where);
        if (get_choice(p, vals[T_FILTER], key, modes, 2, &t->filter) < 0)
            return -1;
        int fl = t->ctype == WS_TY_F32 || t->ctype == WS_TY_F16 || t->read_normalized;
        if (t->filter == WS_TEX_LINEAR && !fl)
            return fail_node(p, vals[T_FILTER], "%s: linear filtering needs a texture that returns floats (f16/f32 "
                             "channels or read_mode: normalized_float), as cudaErrorInvalidFilterSetting says", key);
    }
    return 0;
}

int parse_texs(parser *p, yaml_node_t *tex, yaml_node_t *surf)
{
    ws_workload *wl = p->wl;
    yaml_node_t *secs[2] = {tex, surf};
    uint32_t cnt = 0;
    for (int s = 0; s < 2; s++) {
        if (!secs[s])
            continue;
        if (secs[s]->type != YAML_MAPPING_NODE)
            return fail_node(p, secs[s], "%s must be a mapping of name: {buffer, type, width, ...}, not %s",
                             s ? "surfaces" : "textures", kind_name(secs[s]));
        cnt += (uint32_t)(secs[s]->data.mapping.pairs.top - secs[s]->data.mapping.pairs.start);
    }
    wl->texs = calloc(cnt ? cnt : 1, sizeof *wl->texs);
    if (!wl->texs)
        return fail_node(p, tex ? tex : surf, "out of memory");
    for (int s = 0; s < 2; s++)
        for (yaml_node_pair_t *pr = secs[s] ? secs[s]->data.mapping.pairs.start : NULL;
             secs[s] && pr < secs[s]->data.mapping.pairs.top; pr++)
            if (parse_one_tex(p, node(p, pr->key), node(p, pr->value), s) < 0)
                return -1;
    return 0;
}