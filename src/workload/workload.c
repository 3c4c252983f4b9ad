/*
 * Workload files (sweeps/kernels/NAME.yaml): loading and validation.
 *
 * The file is read with libyaml's document API so that every key and value
 * keeps its position; every error is one line "file:line:col: message" at
 * the key or value it is about. The format (documented in the README):
 *
 *   name: NAME                  optional (default: file name without .yaml)
 *   kernel: FILE.ptx            required, relative to the workload file
 *   entry: NAME                 optional when the PTX has one .entry
 *   grid: N | [x, y, z]         required, 1-3 positive integers
 *   block: N | [x, y, z]        required
 *   regs_per_thread: N          optional (default: ptxas -v, else the kernel's estimate)
 *   shared_bytes: N             optional dynamic shared memory per CTA
 *   buffers:                    name: {type, count, init}
 *     a: {type: f32, count: 64, init: INIT}
 *   params: [a, 64, 2.5]        one value per .param: a buffer name or a number
 *   expect:                     buffer: EXPECT
 *   launches: [STMT, ...]       instead of entry/grid/block/params/regs_per_thread/shared_bytes:
 *                               a launch sequence (kernel: then is the launches' default PTX)
 *
 *   STMT:   {entry, grid, block, params [, name, kernel, regs_per_thread, shared_bytes]}
 *         | {set: {buffer, value}}
 *         | {loop: {repeat: N, body: [STMT, ...]}}
 *         | {loop: {until: {buffer, equals}, max: M, body: [STMT, ...]}}
 *   decoded once into wl->stmts (flat, loops as LOOP ... END with jumps; sequence.c runs it)
 *
 *   INIT:   number | iota | [v, ...] | {iota: {start, step}} | {random: {min, max}} | FILE
 *   EXPECT: number | iota | [v, ...] | {iota: {start, step}} | reference | FILE [, ulp: N | rel: R, abs: A]
 *   FILE:   {file: x.bin | x.npy} | {mtx: m.mtx, part: P} | {edges: g.el, part: P [, undirected: B]}
 *           P: row_ptr | col_idx | values (wl_file.c); count may be omitted: the file gives it
 *
 * Types: u8..u64, s8..s64, b8..b64, f32, f64.
 */
#include "wl_parse.h"

int fail_node(parser *p, const yaml_node_t *n, const char *fmt, ...)
{
    char msg[WS_ERROR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = n ? (int)n->start_mark.line + 1 : 1;
    int col = n ? (int)n->start_mark.column + 1 : 1;
    return ws_fail_at(p->err, p->path, line, col, "%s", msg);
}

const char *kind_name(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_SCALAR_NODE: return "a scalar";
    case YAML_SEQUENCE_NODE: return "a list";
    case YAML_MAPPING_NODE: return "a mapping";
    default: return "empty";
    }
}

/* ---- names and suggestions ---- */

/* " (did you mean 'x'?)" for the closest of names[0..n-1], or "" when none
 * is reasonably close. */
static const char *suggest(const char *word, const char *const *names, int n, char *buf, size_t len)
{
    int best_d;
    int best = ws_closest(word, names, (size_t)n, &best_d);
    int lim = (int)strlen(word) / 2 + 2;
    if (best < 0 || best_d > lim) {
        buf[0] = 0;
        return buf;
    }
    snprintf(buf, len, " (did you mean '%s'?)", names[best]);
    return buf;
}

/* Looks key up in keys[]; unknown keys are an error that suggests the closest. */
static int key_index(parser *p, const yaml_node_t *k, const char *const *keys, int nkeys, const char *where)
{
    const char *s = scalar(k);
    if (!s)
        return fail_node(p, k, "%s: keys must be plain names, not %s", where, kind_name(k)), -1;
    for (int i = 0; i < nkeys; i++)
        if (strcmp(s, keys[i]) == 0)
            return i;
    char sug[128];
    return fail_node(p, k, "unknown key '%s' in %s%s", s, where, suggest(s, keys, nkeys, sug, sizeof sug)), -1;
}

/* Collects the values of a mapping's known keys into vals[] (key nodes in
 * knodes[]), rejecting unknown and duplicate keys. */
int collect(parser *p, yaml_node_t *map, const char *const *keys, int nkeys, const char *where,
                   yaml_node_t **vals, yaml_node_t **knodes)
{
    for (int i = 0; i < nkeys; i++)
        vals[i] = knodes[i] = NULL;
    if (map->type != YAML_MAPPING_NODE)
        return fail_node(p, map, "%s must be a mapping, not %s", where, kind_name(map));
    for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);
        int i = key_index(p, k, keys, nkeys, where);
        if (i < 0)
            return -1;
        if (vals[i])
            return fail_node(p, k, "duplicate key '%s' in %s", keys[i], where);
        vals[i] = v;
        knodes[i] = k;
    }
    return 0;
}

/* Parses a YAML scalar as a number (decimal or 0x integers, floats, .inf,
 * .nan). Returns 0 or -1 if it is not a number. */
int parse_num(const char *s, num *out)
{
    memset(out, 0, sizeof *out);
    if (!s || !*s)
        return -1;
    const char *t = s;
    int neg = 0;
    if (*t == '+' || *t == '-') {
        neg = *t == '-';
        t++;
    }
    if (!strcmp(t, ".inf") || !strcmp(t, ".Inf") || !strcmp(t, ".INF") || !strcmp(t, "inf")) {
        out->d = neg ? -INFINITY : INFINITY;
        return 0;
    }
    if (!strcmp(t, ".nan") || !strcmp(t, ".NaN") || !strcmp(t, ".NAN") || !strcmp(t, "nan")) {
        out->d = NAN;
        return 0;
    }
    if (*t >= '0' && *t <= '9') {
        char *end;
        errno = 0;
        unsigned long long m = strtoull(t, &end, 0);   /* 0x.., decimal (leading 0: octal; see below) */
        if (*end == 0 && end != t) {
            if (t[0] == '0' && t[1] >= '0' && t[1] <= '9') {   /* YAML 1.2: 010 is decimal 10 */
                errno = 0;
                m = strtoull(t, &end, 10);
            }
            if (errno != ERANGE) {   /* out of 64 bits: read as a double below (-> big) */
                out->is_int = 1;
                out->neg = neg && m != 0;
                out->mag = m;
                out->d = neg ? -(double)m : (double)m;
                return 0;
            }
        }
    } else if (*t != '.') {
        return -1;
    }
    char *end;
    double d = strtod(s, &end);
    if (*end || end == s || isnan(d) || isinf(d))
        return -1;
    out->d = d;
    if (d == floor(d) && fabs(d) < 18446744073709551616.0) {
        out->is_int = 1;
        out->neg = d < 0;
        out->mag = (uint64_t)fabs(d);
    } else if (d == floor(d)) {
        out->big = 1;
        out->neg = d < 0;
    }
    return 0;
}

/* The integer part of d, saturated to int64: converting a double outside
 * the range of the integer type is undefined behaviour (C11 6.3.1.4), and
 * 1e23 is a fine value for an f32 buffer or parameter. NaN gives 0. */
static int64_t trunc_to_i64(double d)
{
    if (isnan(d))
        return 0;
    if (d <= -9223372036854775808.0)
        return INT64_MIN;
    if (d >= 9223372036854775808.0)
        return INT64_MAX;
    return (int64_t)d;
}

/* Converts n to type t: *bits (integers: two's complement; floats: the
 * double in *d). Fails when the value does not fit. */
int num_to_type(parser *p, const yaml_node_t *n, const num *v, int t, int64_t *ival, double *dval,
                       const char *what)
{
    if (wl_type_float(t)) {
        *dval = v->d;
        *ival = v->is_int ? (v->neg ? (int64_t)(0 - v->mag) : (int64_t)v->mag) : trunc_to_i64(v->d);
        return 0;
    }
    if (v->big)
        return fail_node(p, n, "%s: %s is out of range for %s", what, scalar(n), wl_type_name(t));
    if (!v->is_int)
        return fail_node(p, n, "%s: '%s' is not an integer (type %s)", what, scalar(n), wl_type_name(t));
    int bits = wl_type_bytes(t) * 8;
    int is_signed = wl_type_signed(t);
    uint64_t maxpos = is_signed ? (1ull << (bits - 1)) - 1 : (bits == 64 ? UINT64_MAX : (1ull << bits) - 1);
    uint64_t maxneg = is_signed ? (1ull << (bits - 1)) : 0;
    /* b8..b64 (bit types) also accept negative values of their width */
    if (t >= WS_TY_B8 && t <= WS_TY_B64)
        maxneg = 1ull << (bits - 1);
    if ((v->neg && v->mag > maxneg) || (!v->neg && v->mag > maxpos))
        return fail_node(p, n, "%s: %s is out of range for %s", what, scalar(n), wl_type_name(t));
    *ival = v->neg ? (int64_t)(0 - v->mag) : (int64_t)v->mag;
    *dval = v->neg ? -(double)v->mag : (double)v->mag;
    return 0;
}

/* A positive integer scalar no larger than max. */
int get_uint(parser *p, const yaml_node_t *n, const char *key, uint64_t min, uint64_t max, uint64_t *out)
{
    num v;
    const char *s = scalar(n);
    if (!s)
        return fail_node(p, n, "%s must be an integer, not %s", key, kind_name(n));
    if (parse_num(s, &v) < 0 || (!v.is_int && !v.big))
        return fail_node(p, n, "%s: '%s' is not an integer", key, s);
    if (v.big || v.neg || v.mag < min || v.mag > max)
        return fail_node(p, n, "%s: %s is out of range [%llu, %llu]", key, s, (unsigned long long)min,
                         (unsigned long long)max);
    *out = v.mag;
    return 0;
}

static int get_double(parser *p, const yaml_node_t *n, const char *key, double *out)
{
    num v;
    const char *s = scalar(n);
    if (!s)
        return fail_node(p, n, "%s must be a number, not %s", key, kind_name(n));
    if (parse_num(s, &v) < 0)
        return fail_node(p, n, "%s: '%s' is not a number", key, s);
    *out = v.d;
    return 0;
}

/* grid / block: N or [x, y, z] with 1-3 elements. */
static int get_dim3(parser *p, yaml_node_t *n, const char *key, uint32_t out[3])
{
    out[0] = out[1] = out[2] = 1;
    uint64_t v;
    if (n->type == YAML_SCALAR_NODE) {
        if (get_uint(p, n, key, 1, 0x7fffffff, &v) < 0)
            return -1;
        out[0] = (uint32_t)v;
        return 0;
    }
    if (n->type != YAML_SEQUENCE_NODE)
        return fail_node(p, n, "%s must be N or [x, y, z], not %s", key, kind_name(n));
    int cnt = (int)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (cnt < 1 || cnt > 3)
        return fail_node(p, n, "%s must have 1 to 3 elements, not %d", key, cnt);
    for (int i = 0; i < cnt; i++) {
        yaml_node_t *e = node(p, n->data.sequence.items.start[i]);
        if (get_uint(p, e, key, 1, i == 0 ? 0x7fffffff : 65535, &v) < 0)
            return -1;
        out[i] = (uint32_t)v;
    }
    return 0;
}

static int parse_type(parser *p, yaml_node_t *n, uint8_t *out)
{
    static const char *const names[] = {"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
                                        "b8", "b16", "b32", "b64", "f32", "f64"};
    static const uint8_t types[] = {WS_TY_U8, WS_TY_U16, WS_TY_U32, WS_TY_U64, WS_TY_S8, WS_TY_S16, WS_TY_S32,
                                    WS_TY_S64, WS_TY_B8, WS_TY_B16, WS_TY_B32, WS_TY_B64, WS_TY_F32, WS_TY_F64};
    const char *s = scalar(n);
    if (!s)
        return fail_node(p, n, "type must be a type name, not %s", kind_name(n));
    for (size_t i = 0; i < sizeof types; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = types[i];
            return 0;
        }
    char sug[128];
    return fail_node(p, n, "bad type '%s': expected one of u8 u16 u32 u64 s8 s16 s32 s64 b8 b16 b32 b64 f32 f64%s", s,
                     suggest(s, names, (int)(sizeof names / sizeof names[0]), sug, sizeof sug));
}

/* ---- value specs (init / expect) ---- */

static int set_const(parser *p, yaml_node_t *n, int type, ws_values *v, const char *what)
{
    num x;
    if (parse_num(scalar(n), &x) < 0)
        return -2;   /* not a number: caller decides */
    v->kind = WS_INIT_CONST;
    v->list = calloc(1, sizeof(double));
    v->ilist = calloc(1, sizeof(int64_t));
    v->nlist = 1;
    if (num_to_type(p, n, &x, type, &v->ilist[0], &v->list[0], what) < 0)
        return -1;
    v->start = v->list[0];
    return 0;
}

static int parse_iota(parser *p, yaml_node_t *n, int type, ws_values *v, const char *what)
{
    static const char *const keys[] = {"start", "step"};
    yaml_node_t *vals[2], *kn[2];
    v->kind = WS_INIT_IOTA;
    v->start = 0;
    v->step = 1;
    if (collect(p, n, keys, 2, "iota", vals, kn) < 0)
        return -1;
    if (vals[0] && get_double(p, vals[0], "iota start", &v->start) < 0)
        return -1;
    if (vals[1] && get_double(p, vals[1], "iota step", &v->step) < 0)
        return -1;
    if (!wl_type_float(type)) {
        for (int i = 0; i < 2; i++) {
            double d = i ? v->step : v->start;
            if (vals[i] && (d != floor(d) || fabs(d) > 9e15))
                return fail_node(p, vals[i], "%s: iota %s '%s' is not an integer (type %s)", what, keys[i],
                                 scalar(vals[i]), wl_type_name(type));
        }
    }
    return 0;
}

static int parse_random(parser *p, yaml_node_t *n, int type, ws_values *v, const char *what)
{
    static const char *const keys[] = {"min", "max"};
    yaml_node_t *vals[2], *kn[2];
    v->kind = WS_INIT_RANDOM;
    v->min = 0;
    v->max = 1;
    if (collect(p, n, keys, 2, "random", vals, kn) < 0)
        return -1;
    if (vals[0] && get_double(p, vals[0], "random min", &v->min) < 0)
        return -1;
    if (vals[1] && get_double(p, vals[1], "random max", &v->max) < 0)
        return -1;
    if (!(v->min <= v->max))
        return fail_node(p, n, "%s: random min %g is greater than max %g", what, v->min, v->max);
    if (!wl_type_float(type)) {
        int bits = wl_type_bytes(type) * 8;
        /* [lo, end): end = 2^63 or 2^64 is exact in a double, where 2^64 - 1 is not
         * (it rounds to 2^64, which no u64 holds: memimage.c converts floor(max)) */
        double lo = wl_type_signed(type) ? -ldexp(1, bits - 1) : 0;
        double end = wl_type_signed(type) ? ldexp(1, bits - 1) : ldexp(1, bits);
        if (ceil(v->min) > floor(v->max))
            return fail_node(p, n, "%s: random range [%g, %g] holds no integer", what, v->min, v->max);
        if (v->min < lo || floor(v->max) >= end)
            return fail_node(p, n, "%s: random range [%g, %g] is out of range for %s", what, v->min, v->max,
                             wl_type_name(type));
    }
    return 0;
}

/* ---- values from files (wl_file.c) ---- */

static char *resolve_path(const char *yaml_path, const char *rel);

/* A mapping with a key file, mtx or edges. */
static int is_file_form(parser *p, yaml_node_t *n)
{
    for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
        const char *k = scalar(node(p, pr->key));
        if (k && (!strcmp(k, "file") || !strcmp(k, "mtx") || !strcmp(k, "edges")))
            return 1;
    }
    return 0;
}

/* The matrix at path, read once per workload load however many buffers name it. */
static wl_csr *matrix(parser *p, const char *path, int format, int undirected)
{
    for (int i = 0; i < p->ncsrs; i++)
        if (p->csrs[i]->format == format && p->csrs[i]->undirected == undirected && !strcmp(p->csrs[i]->path, path))
            return p->csrs[i];
    if (p->ncsrs == (int)(sizeof p->csrs / sizeof p->csrs[0])) {
        ws_fail(p->err, "%s: more than %d different matrix files in one workload", p->path, p->ncsrs);
        return NULL;
    }
    wl_csr *c = wl_csr_load(path, format, undirected, p->err);
    if (c)
        p->csrs[p->ncsrs++] = c;
    return c;
}

/* {file: F} | {mtx: F, part: P} | {edges: F, part: P, undirected: B}, and in
 * an expect also ulp: N, or rel: R and/or abs: A (floats; |got - want| <=
 * abs + rel |want|, as numpy.allclose). count 0: the file gives it. */
static int parse_file_values(parser *p, yaml_node_t *n, int type, uint64_t count, int is_expect, const char *what,
                             ws_values *v)
{
    enum { F_FILE, F_MTX, F_EDGES, F_PART, F_UNDIRECTED, F_ULP, F_REL, F_ABS, F_N };
    static const char *const keys[F_N] = {"file", "mtx", "edges", "part", "undirected", "ulp", "rel", "abs"};
    yaml_node_t *val[F_N], *kn[F_N];
    if (!is_expect && n->type == YAML_MAPPING_NODE)   /* a tolerance in an init: say so, not "unknown key" */
        for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
            const char *k = scalar(node(p, pr->key));
            for (int i = F_ULP; k && i < F_N; i++)
                if (strcmp(k, keys[i]) == 0)
                    return fail_node(p, node(p, pr->key), "%s: a tolerance belongs to an expect, not an init", what);
        }
    /* only the keys valid here are known (and suggested): the tolerances in an expect */
    if (collect(p, n, keys, is_expect ? F_N : F_ULP, what, val, kn) < 0)
        return -1;
    for (int i = is_expect ? F_N : F_ULP; i < F_N; i++)
        val[i] = kn[i] = NULL;
    int which = val[F_FILE] ? F_FILE : val[F_MTX] ? F_MTX : F_EDGES;
    if (!!val[F_FILE] + !!val[F_MTX] + !!val[F_EDGES] != 1)
        return fail_node(p, n, "%s: give one of file, mtx or edges", what);
    const char *rel = scalar(val[which]);
    if (!rel || !*rel)
        return fail_node(p, val[which], "%s: %s must be a file name (relative to the workload)", what, keys[which]);
    if (which == F_FILE && (val[F_PART] || val[F_UNDIRECTED]))
        return fail_node(p, kn[val[F_PART] ? F_PART : F_UNDIRECTED], "%s: '%s' belongs to mtx or edges, not file",
                         what, val[F_PART] ? "part" : "undirected");
    if (which == F_MTX && val[F_UNDIRECTED])
        return fail_node(p, kn[F_UNDIRECTED], "%s: 'undirected' belongs to edges (a .mtx says symmetric itself)", what);
    if (val[F_ULP] && (val[F_REL] || val[F_ABS]))
        return fail_node(p, kn[val[F_REL] ? F_REL : F_ABS], "%s: give ulp, or rel and/or abs, not both kinds", what);
    int tol = val[F_ULP] ? F_ULP : val[F_REL] ? F_REL : val[F_ABS] ? F_ABS : -1;
    if (tol >= 0 && !wl_type_float(type))
        return fail_node(p, kn[tol], "%s: a tolerance applies to float buffers; %s compares exactly", what,
                         wl_type_name(type));
    uint64_t u;
    if (val[F_ULP]) {
        if (get_uint(p, val[F_ULP], "ulp", 0, 1u << 30, &u) < 0)
            return -1;
        v->ulp = (uint32_t)u;
    }
    if (val[F_REL] && get_double(p, val[F_REL], "rel", &v->rel) < 0)
        return -1;
    if (val[F_REL] && !(v->rel >= 0 && v->rel < 1))
        return fail_node(p, val[F_REL], "rel: %s is out of range [0, 1)", scalar(val[F_REL]));
    if (val[F_ABS] && get_double(p, val[F_ABS], "abs", &v->abs) < 0)
        return -1;
    if (val[F_ABS] && !(v->abs >= 0 && isfinite(v->abs)))
        return fail_node(p, val[F_ABS], "abs: %s must be a finite number >= 0", scalar(val[F_ABS]));
    int part = 0, undirected = 0;
    if (which != F_FILE) {
        static const char *const parts[] = {"row_ptr", "col_idx", "values"};
        const char *ps = val[F_PART] ? scalar(val[F_PART]) : NULL;
        if (!val[F_PART])
            return fail_node(p, n, "%s: missing key 'part' (row_ptr, col_idx or values)", what);
        for (part = 0; part < 3 && (!ps || strcmp(ps, parts[part])); part++)
            ;
        if (part == 3) {
            char sug[128];
            return fail_node(p, val[F_PART], "%s: part '%s': expected row_ptr, col_idx or values%s", what,
                             ps ? ps : "?", ps ? suggest(ps, parts, 3, sug, sizeof sug) : "");
        }
        if (val[F_UNDIRECTED]) {
            const char *b = scalar(val[F_UNDIRECTED]);
            if (!b || (strcmp(b, "true") && strcmp(b, "false")))
                return fail_node(p, val[F_UNDIRECTED], "undirected must be true or false");
            undirected = !strcmp(b, "true");
        }
    }
    char *full = resolve_path(p->path, rel);
    if (!full)
        return fail_node(p, n, "out of memory");
    if (which == F_FILE) {
        v->file = wl_file_open(full, type, p->err);
    } else {
        wl_csr *c = matrix(p, full, which == F_MTX ? WL_CSR_MTX : WL_CSR_EDGES, undirected);
        v->file = c ? wl_file_from_csr(c, part, type, p->err) : NULL;
    }
    free(full);
    if (!v->file)
        return -1;   /* the error names the data file and the position in it */
    v->kind = WS_INIT_FILE;
    if (count && v->file->count != count)
        return fail_node(p, val[which], "%s: %s holds %llu %s elements but the buffer's count is %llu", what,
                         v->file->path, (unsigned long long)v->file->count, wl_type_name(type),
                         (unsigned long long)count);
    return 0;
}

/* Parses an init (is_expect = 0) or expect (1) value spec for a buffer of
 * type/count. Returns 0, -1 on error, or 1 for `reference` (expect only). */
static int parse_values(parser *p, yaml_node_t *n, int type, uint64_t count, int is_expect, const char *bufname,
                        ws_values *v)
{
    char what[160];
    snprintf(what, sizeof what, "%s '%s'", is_expect ? "expect for" : "init of", bufname);
    memset(v, 0, sizeof *v);
    const char *forms = is_expect ? "a number, iota, [values], {iota: {start, step}}, {file: F} or reference"
                                  : "a number, iota, [values], {iota: {start, step}}, {random: {min, max}}, "
                                    "{file: F}, {mtx: F, part: P} or {edges: F, part: P}";
    if (n->type == YAML_SCALAR_NODE) {
        const char *s = scalar(n);
        if (strcmp(s, "iota") == 0) {
            v->kind = WS_INIT_IOTA;
            v->step = 1;
            return 0;
        }
        if (is_expect && strcmp(s, "reference") == 0)
            return 1;
        int r = set_const(p, n, type, v, what);
        if (r == -2)
            return fail_node(p, n, "%s: '%s' is not %s", what, s, forms);
        return r;
    }
    if (n->type == YAML_SEQUENCE_NODE) {
        uint64_t cnt = (uint64_t)(n->data.sequence.items.top - n->data.sequence.items.start);
        if (cnt > count)
            return fail_node(p, n, "%s: the list has %llu values but the buffer holds %llu", what,
                             (unsigned long long)cnt, (unsigned long long)count);
        v->kind = WS_INIT_LIST;
        v->nlist = (uint32_t)cnt;
        v->list = calloc(cnt ? cnt : 1, sizeof(double));
        v->ilist = calloc(cnt ? cnt : 1, sizeof(int64_t));
        if (!v->list || !v->ilist)
            return fail_node(p, n, "%s: out of memory", what);
        for (uint64_t i = 0; i < cnt; i++) {
            yaml_node_t *e = node(p, n->data.sequence.items.start[i]);
            num x;
            if (!scalar(e) || parse_num(scalar(e), &x) < 0)
                return fail_node(p, e, "%s: element %llu is not a number", what, (unsigned long long)i);
            if (num_to_type(p, e, &x, type, &v->ilist[i], &v->list[i], what) < 0)
                return -1;
        }
        return 0;
    }
    if (n->type == YAML_MAPPING_NODE && is_file_form(p, n))
        return parse_file_values(p, n, type, count, is_expect, what, v);
    if (n->type == YAML_MAPPING_NODE) {
        yaml_node_pair_t *pr = n->data.mapping.pairs.start;
        int npairs = (int)(n->data.mapping.pairs.top - pr);
        /* the file forms are listed for suggestions only: is_file_form took them above */
        static const char *const kinds_init[] = {"iota", "random", "file", "mtx", "edges"};
        static const char *const kinds_expect[] = {"iota", "file", "mtx", "edges"};
        if (npairs != 1)
            return fail_node(p, n, "%s must be %s", what, forms);
        yaml_node_t *k = node(p, pr->key), *val = node(p, pr->value);
        int i = key_index(p, k, is_expect ? kinds_expect : kinds_init, is_expect ? 4 : 5, what);
        if (i < 0)
            return -1;
        return i == 0 ? parse_iota(p, val, type, v, what) : parse_random(p, val, type, v, what);
    }
    return fail_node(p, n, "%s must be %s", what, forms);
}

static void values_free(ws_values *v)
{
    wl_file_free(v->file);
    v->file = NULL;
    free(v->list);
    free(v->ilist);
    v->list = NULL;
    v->ilist = NULL;
}

/* ---- sections ---- */

int find_buffer(const ws_workload *wl, const char *name)
{
    for (uint32_t i = 0; i < wl->nbuffers; i++)
        if (strcmp(wl->buffers[i].name, name) == 0)
            return (int)i;
    return -1;
}

const char *suggest_buffer(const ws_workload *wl, const char *name, char *buf, size_t len)
{
    const char *names[256];
    int n = 0;
    for (uint32_t i = 0; i < wl->nbuffers && n < 256; i++)
        names[n++] = wl->buffers[i].name;
    return suggest(name, names, n, buf, len);
}

static int parse_buffers(parser *p, yaml_node_t *n)
{
    ws_workload *wl = p->wl;
    if (n->type != YAML_MAPPING_NODE)
        return fail_node(p, n, "buffers must be a mapping of name: {type, count, init}, not %s", kind_name(n));
    uint32_t cnt = (uint32_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
    wl->buffers = calloc(cnt ? cnt : 1, sizeof *wl->buffers);
    if (!wl->buffers)
        return fail_node(p, n, "out of memory");
    uint64_t total = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        yaml_node_pair_t *pr = &n->data.mapping.pairs.start[i];
        yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);
        const char *name = scalar(k);
        if (!name || !*name)
            return fail_node(p, k, "buffer names must be plain names");
        if (find_buffer(wl, name) >= 0)
            return fail_node(p, k, "duplicate buffer '%s'", name);
        ws_buffer_spec *b = &wl->buffers[wl->nbuffers++];
        b->name = strdup(name);
        b->line = (int)k->start_mark.line + 1;
        b->col = (int)k->start_mark.column + 1;
        char where[160];
        snprintf(where, sizeof where, "buffer '%s'", name);
        static const char *const keys[] = {"type", "count", "init"};
        yaml_node_t *vals[3], *kn[3];
        if (collect(p, v, keys, 3, where, vals, kn) < 0)
            return -1;
        if (!vals[0])
            return fail_node(p, v, "%s: missing required key 'type'", where);
        int from_file = vals[2] && vals[2]->type == YAML_MAPPING_NODE && is_file_form(p, vals[2]);
        if (!vals[1] && !from_file)
            return fail_node(p, v, "%s: missing required key 'count'", where);
        if (parse_type(p, vals[0], &b->type) < 0)
            return -1;
        uint64_t c = 0;
        char ckey[192];
        snprintf(ckey, sizeof ckey, "%s: count", where);
        if (vals[1] && get_uint(p, vals[1], ckey, 1, 1ull << 32, &c) < 0)
            return -1;
        if (from_file) {   /* count optional: the file gives it (and checks a given one) */
            if (parse_values(p, vals[2], b->type, c, 0, name, &b->init) < 0)
                return -1;
            c = b->init.file->count;
            if (c > 1ull << 32)
                return fail_node(p, vals[2], "%s: %s holds %llu elements, more than 2^32", where, b->init.file->path,
                                 (unsigned long long)c);
        }
        b->count = c;
        total += (c * (uint64_t)wl_type_bytes(b->type) + 255) / 256 * 256;   /* as laid out (memimage.c) */
        if (total > MAX_BUFFER_BYTES)
            return fail_node(p, vals[1], "%s: the buffers hold %llu bytes up to here, more than the limit of %llu "
                             "bytes (4 GiB) per workload", ckey, (unsigned long long)total,
                             (unsigned long long)MAX_BUFFER_BYTES);
        if (!vals[2]) {
            b->init.kind = WS_INIT_CONST;   /* zero */
        } else if (!from_file) {
            int r = parse_values(p, vals[2], b->type, b->count, 0, name, &b->init);
            if (r < 0)
                return -1;
        }
    }
    return 0;
}

/* Resolves params names before the kernel is loaded (so a missing buffer is
 * reported even when the PTX is broken); types are checked afterwards. */
int parse_params(parser *p, yaml_node_t *n, ws_launch_spec *L)
{
    ws_workload *wl = p->wl;
    if (n->type != YAML_SEQUENCE_NODE)
        return fail_node(p, n, "params must be a list [buffer or number, ...], not %s", kind_name(n));
    uint32_t cnt = (uint32_t)(n->data.sequence.items.top - n->data.sequence.items.start);
    L->args = calloc(cnt ? cnt : 1, sizeof *L->args);
    if (!L->args)
        return fail_node(p, n, "out of memory");
    L->nargs = cnt;
    for (uint32_t i = 0; i < cnt; i++) {
        yaml_node_t *e = node(p, n->data.sequence.items.start[i]);
        ws_arg *a = &L->args[i];
        a->line = (int)e->start_mark.line + 1;
        a->col = (int)e->start_mark.column + 1;
        const char *s = scalar(e);
        if (!s)
            return fail_node(p, e, "params[%u] must be a buffer name or a number, not %s", i, kind_name(e));
        num x;
        if (parse_num(s, &x) == 0) {
            a->value = x.d;
            a->ivalue = x.is_int ? (x.neg ? (int64_t)(0 - x.mag) : (int64_t)x.mag) : trunc_to_i64(x.d);
            continue;
        }
        int b = find_buffer(wl, s);
        int tx = b < 0 ? find_tex(wl, s) : -1;
        if (tx >= 0) {
            a->is_tex = 1;
            a->tex = (uint32_t)tx;
            continue;
        }
        if (b < 0) {
            char sug[128];
            return fail_node(p, e, "params[%u]: missing buffer '%s' (not declared under buffers, textures or surfaces)%s", i, s,
                             suggest_buffer(wl, s, sug, sizeof sug));
        }
        a->is_buffer = 1;
        a->buffer = (uint32_t)b;
    }
    return 0;
}

/* After the kernel is loaded: count and types against its .param list. */
static int check_params(parser *p, yaml_node_t *n, yaml_node_t *root, ws_launch_spec *L)
{
    const ws_kernel *k = L->kernel;
    if (!n) {
        if (k->nparams)
            return fail_node(p, root, "missing required key 'params': kernel %s declares %u .param", k->name,
                             k->nparams);
        return 0;
    }
    if (L->nargs != k->nparams)
        return fail_node(p, n, "params has %u values but kernel %s declares %u .param", L->nargs, k->name,
                         k->nparams);
    for (uint32_t i = 0; i < L->nargs; i++) {
        yaml_node_t *e = node(p, n->data.sequence.items.start[i]);
        ws_arg *a = &L->args[i];
        const ws_kparam *kp = &k->params[i];
        int tb = wl_type_bytes(kp->type);
        if (a->is_buffer) {
            if (kp->size != 8 || wl_type_float(kp->type))
                return fail_node(p, e, "params[%u]: buffer '%s' passed to .param %s of %u bytes (%s); a buffer's "
                                 "address needs a 64-bit integer .param", i, scalar(e), kp->name, kp->size,
                                 wl_type_name(kp->type));
            continue;
        }
        if (a->is_tex) {
            if (kp->size != 8 || wl_type_float(kp->type))
                return fail_node(p, e, "params[%u]: %s '%s' passed to .param %s of %u bytes (%s); a texture or surface "
                                 "object needs a 64-bit integer .param", i, wl_tex_kind(p->wl, a->tex), scalar(e),
                                 kp->name, kp->size, wl_type_name(kp->type));
            continue;
        }
        if (tb == 0 || (uint32_t)tb != kp->size)
            return fail_node(p, e, "params[%u]: cannot pass a number to .param %s (%u bytes, not a scalar)", i,
                             kp->name, kp->size);
        num x;
        parse_num(scalar(e), &x);
        char what[160];
        snprintf(what, sizeof what, "params[%u] (.param .%s %s)", i, wl_type_name(kp->type), kp->name);
        /* nvcc declares every integer parameter unsigned (int -> .u32, signed char -> .u8,
         * long long -> .u64): a negative value of the width is passed in two's complement */
        if (x.is_int && x.neg && !wl_type_float(kp->type) && !wl_type_signed(kp->type) &&
            x.mag <= 1ull << (tb * 8 - 1)) {
            x.neg = 0;
            x.mag = (tb == 8 ? 0 : 1ull << (tb * 8)) - x.mag;
        }
        if (num_to_type(p, e, &x, kp->type, &a->ivalue, &a->value, what) < 0)
            return -1;
    }
    return 0;
}

static int parse_expect(parser *p, yaml_node_t *n)
{
    ws_workload *wl = p->wl;
    if (n->type != YAML_MAPPING_NODE)
        return fail_node(p, n, "expect must be a mapping of buffer: values, not %s", kind_name(n));
    uint32_t cnt = (uint32_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
    wl->expects = calloc(cnt ? cnt : 1, sizeof *wl->expects);
    if (!wl->expects)
        return fail_node(p, n, "out of memory");
    for (uint32_t i = 0; i < cnt; i++) {
        yaml_node_pair_t *pr = &n->data.mapping.pairs.start[i];
        yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);
        const char *name = scalar(k);
        if (!name)
            return fail_node(p, k, "expect keys must be buffer names");
        int b = find_buffer(wl, name);
        if (b < 0) {
            char sug[128];
            return fail_node(p, k, "expect on unknown buffer '%s'%s", name, suggest_buffer(wl, name, sug, sizeof sug));
        }
        for (uint32_t j = 0; j < wl->nexpects; j++)
            if (wl->expects[j].buffer == (uint32_t)b)
                return fail_node(p, k, "duplicate expect for buffer '%s'", name);
        ws_expect *e = &wl->expects[wl->nexpects++];
        e->buffer = (uint32_t)b;
        e->line = (int)k->start_mark.line + 1;
        e->col = (int)k->start_mark.column + 1;
        const ws_buffer_spec *bs = &wl->buffers[b];
        int r = parse_values(p, v, bs->type, bs->count, 1, name, &e->values);
        if (r < 0)
            return -1;
        if (r == 1) {
            e->kind = WS_EXPECT_REFERENCE;
            wl->needs_reference = 1;
        } else {
            e->kind = WS_EXPECT_VALUES;
        }
    }
    return 0;
}

static char *resolve_path(const char *yaml_path, const char *rel)
{
    if (rel[0] == '/')
        return strdup(rel);
    const char *slash = strrchr(yaml_path, '/');
    size_t dl = slash ? (size_t)(slash - yaml_path + 1) : 0;
    char *out = malloc(dl + strlen(rel) + 1);
    if (!out)
        return NULL;
    memcpy(out, yaml_path, dl);
    strcpy(out + dl, rel);
    return out;
}

char *ws_workload_default_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".yaml") == 0)
        n -= 5;
    else if (n > 4 && strcmp(base + n - 4, ".yml") == 0)
        n -= 4;
    return strndup(base, n);
}
static const char *const top_keys[K_N] = {"name",  "kernel",          "entry",        "grid",    "block",
                                          "regs_per_thread", "shared_bytes", "buffers", "params", "expect",
                                          "launches", "textures", "surfaces", "work", "vars"};

/* A sweep file handed to `sim` (or `inspect`) fails on its first sweep-only
 * key; say which command takes it instead of "unknown key". */
static int refuse_sweep_file(parser *p, yaml_node_t *root)
{
    static const char *const sweep_only[] = {"workload", "base", "zip", "exclude", "repeat", "description"};
    if (root->type != YAML_MAPPING_NODE)
        return 0;
    for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = node(p, pr->key);
        const char *s = scalar(k);
        for (size_t i = 0; s && i < sizeof sweep_only / sizeof sweep_only[0]; i++)
            if (strcmp(s, sweep_only[i]) == 0)
                return fail_node(p, k, "this is a sweep file (key '%s'), not a workload: `warpsweep run` "
                                       "runs a sweep, `warpsweep sim` one workload", s), -1;
    }
    return 0;
}

/* grid, block, shared_bytes, regs_per_thread of a launch. */
int launch_shape(parser *p, ws_launch_spec *L, const launch_nodes *n)
{
    if (get_dim3(p, n->grid, "grid", L->grid) < 0 || get_dim3(p, n->block, "block", L->block) < 0)
        return -1;
    uint64_t threads = (uint64_t)L->block[0] * L->block[1] * L->block[2];
    if (threads > MAX_BLOCK_THREADS)
        return fail_node(p, n->block, "block has %llu threads; a CTA holds at most %u", (unsigned long long)threads,
                         MAX_BLOCK_THREADS);
    if (ws_launch_ctas(L) > (1ull << 31))
        return fail_node(p, n->grid, "grid has %llu CTAs; at most 2^31", (unsigned long long)ws_launch_ctas(L));
    uint64_t x;
    if (n->shared) {
        if (get_uint(p, n->shared, "shared_bytes", 0, 1u << 24, &x) < 0)
            return -1;
        L->dyn_shared_bytes = (uint32_t)x;
    }
    if (n->regs) {
        if (get_uint(p, n->regs, "regs_per_thread", 1, 65536, &x) < 0)
            return -1;
        L->regs_per_thread = (uint32_t)x;
    }
    return 0;
}

/* The kernel (PTX file, entry) of a launch: each distinct pair is loaded
 * once per workload and shared by the launches naming it. */
static const ws_kernel *kernel_for(parser *p, const char *full, const char *entry, ws_error *err)
{
    ws_workload *wl = p->wl;
    for (uint32_t i = 0; i < p->nkeys; i++)
        if (strcmp(p->kkeys[i].path, full) == 0 &&
            ((!entry && !p->kkeys[i].entry) || (entry && p->kkeys[i].entry && strcmp(entry, p->kkeys[i].entry) == 0)))
            return wl->kernels[i];
    ws_kernel *k = ws_ptx_load(full, entry, err);
    if (!k)
        return NULL;
    ws_kernel **nk = realloc(wl->kernels, (wl->nkernels + 1) * sizeof *nk);
    struct kkey *kk = realloc(p->kkeys, (p->nkeys + 1) * sizeof *kk);
    if (nk)
        wl->kernels = nk;
    if (kk)
        p->kkeys = kk;
    if (!nk || !kk) {
        ws_kernel_free(k);
        ws_fail(err, "%s: out of memory", p->path);
        return NULL;
    }
    wl->kernels[wl->nkernels++] = k;
    p->kkeys[p->nkeys].path = strdup(full);
    p->kkeys[p->nkeys].entry = entry ? strdup(entry) : NULL;
    p->nkeys++;
    return k;
}

static int has_module_data(const ws_kernel *k)
{
    for (uint32_t i = 0; i < k->nvars; i++)
        if ((k->vars[i].space == WS_SP_GLOBAL || k->vars[i].space == WS_SP_CONST) && k->vars[i].size > 0)
            return 1;
    return 0;
}

/* Loads the launch's kernel (its own `kernel:` or the top-level one) and
 * checks block and params against it. in_seq: a statement of `launches:`,
 * whose PTX-side errors without a position get the statement's. */
int launch_kernel(parser *p, ws_launch_spec *L, const launch_nodes *n, int in_seq)
{
    yaml_node_t *kn = n->kernel ? n->kernel : p->top_kernel;
    if (!kn)
        return fail_node(p, n->at, "launch without a kernel: give kernel: FILE.ptx here or at the top level");
    const char *kpath = scalar(kn);
    if (!kpath || !*kpath)
        return fail_node(p, kn, "kernel must be the path of a .ptx file");
    const char *entry = NULL;
    if (n->entry) {
        entry = scalar(n->entry);
        if (!entry || !*entry)
            return fail_node(p, n->entry, "entry must be the name of an .entry");
    }
    char *full = resolve_path(p->path, kpath);
    if (!full)
        return fail_node(p, kn, "out of memory");
    /* O_NONBLOCK: a FIFO without a writer must not block the open */
    int fd = open(full, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        fail_node(p, kn, "kernel '%s': cannot open %s: %s", kpath, full, strerror(e));
        free(full);
        return -1;
    }
    struct stat st;
    int got = fstat(fd, &st) == 0;
    close(fd);
    if (got && !S_ISREG(st.st_mode)) {
        fail_node(p, kn, "kernel '%s': %s is %s, not a .ptx file", kpath, full,
                  S_ISDIR(st.st_mode) ? "a directory" : "not a regular file (a device, FIFO or socket)");
        free(full);
        return -1;
    }
    if (got && (uint64_t)st.st_size > WS_PTX_MAX_BYTES) {
        fail_node(p, kn, "kernel '%s': %s has %lld bytes, more than the %zu MiB a PTX file may have", kpath,
                  full, (long long)st.st_size, WS_PTX_MAX_BYTES >> 20);
        free(full);
        return -1;
    }
    ws_error kerr = {{0}};
    L->kernel = kernel_for(p, full, entry, &kerr);   /* its errors carry their own position */
    free(full);
    if (!L->kernel) {
        if (in_seq && (strstr(kerr.msg, "no .entry") || strstr(kerr.msg, ".entry kernels in the file")))
            return fail_node(p, n->entry ? n->entry : n->at, "%s", kerr.msg);
        *p->err = kerr;
        return -1;
    }
    const ws_kernel *k = L->kernel;
    yaml_node_t *bn = n->block;
    uint64_t threads = ws_launch_threads_per_cta(L);
    if (k->reqntid[0] && (k->reqntid[0] != L->block[0] || (k->reqntid[1] ? k->reqntid[1] : 1) != L->block[1] ||
                          (k->reqntid[2] ? k->reqntid[2] : 1) != L->block[2]))
        return fail_node(p, bn, "block [%u, %u, %u] differs from the kernel's .reqntid %u, %u, %u", L->block[0],
                         L->block[1], L->block[2], k->reqntid[0], k->reqntid[1] ? k->reqntid[1] : 1,
                         k->reqntid[2] ? k->reqntid[2] : 1);
    if (k->maxntid[0]) {
        uint64_t maxt = (uint64_t)k->maxntid[0] * (k->maxntid[1] ? k->maxntid[1] : 1) *
                        (k->maxntid[2] ? k->maxntid[2] : 1);
        if (threads > maxt)
            return fail_node(p, bn, "block has %llu threads; the kernel's .maxntid allows %llu",
                             (unsigned long long)threads, (unsigned long long)maxt);
    }
    if (check_params(p, n->params, n->at, L) < 0)
        return -1;
    /* one data segment per memory image: module data from two PTX files would overlap */
    if (has_module_data(k)) {
        const ws_kernel *d = p->wl->data_kernel;
        if (d && strcmp(d->path, k->path) != 0)
            return fail_node(p, kn, "kernel %s (%s) and kernel %s (%s) both define module data (.global/.const "
                             "variables): at most one PTX file of a sequence may", d->name, d->path, k->name, k->path);
        if (!d)
            p->wl->data_kernel = k;
    }
    if (n->name) {
        const char *nm = scalar(n->name);
        if (!nm || !*nm)
            return fail_node(p, n->name, "name must be a plain string");
        L->name = strdup(nm);
    } else {
        L->name = strdup(k->name);
    }
    return L->name ? 0 : fail_node(p, n->at, "out of memory");
}

/* The first launch's fields at the top level of the workload (see ws_workload). */
static void mirror_first_launch(ws_workload *wl)
{
    const ws_launch_spec *L = &wl->launches[0];
    wl->kernel = L->kernel;
    memcpy(wl->grid, L->grid, sizeof wl->grid);
    memcpy(wl->block, L->block, sizeof wl->block);
    wl->regs_per_thread = L->regs_per_thread;
    wl->regs_source = L->regs_source;
    memcpy(wl->regs_detail, L->regs_detail, sizeof wl->regs_detail);
    wl->dyn_shared_bytes = L->dyn_shared_bytes;
    wl->args = L->args;
    wl->nargs = L->nargs;
}

/* work: {name: NAME, per_launch: N, per_thread: M}: the unit the work
 * metrics count (docs/model.md "Work throughput"); at least one of the two
 * counts, both finite and >= 0, not both 0. */
static int parse_work(parser *p, yaml_node_t *n)
{
    static const char *const keys[] = {"name", "per_launch", "per_thread"};
    yaml_node_t *v[3], *kn[3];
    if (n->type != YAML_MAPPING_NODE)
        return fail_node(p, n, "work must be a mapping such as {name: elements, per_thread: 1}");
    if (collect(p, n, keys, 3, "work", v, kn) < 0)
        return -1;
    if (!v[0] || !scalar(v[0]) || !*scalar(v[0]))
        return fail_node(p, v[0] ? v[0] : n, "work needs a name (the unit: elements, options, pixels, ...)");
    if (!v[1] && !v[2])
        return fail_node(p, n, "work needs per_launch (units per launch) or per_thread (units per thread of a launch)");
    double c[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        if (!v[i + 1]) continue;
        if (get_double(p, v[i + 1], keys[i + 1], &c[i]) < 0) return -1;
        if (!isfinite(c[i]) || c[i] < 0)
            return fail_node(p, v[i + 1], "work %s must be a finite number >= 0, not %s", keys[i + 1], scalar(v[i + 1]));
    }
    if (c[0] == 0 && c[1] == 0)
        return fail_node(p, n, "work: per_launch and per_thread are both 0; a launch must do some work");
    p->wl->work_name = strdup(scalar(v[0]));
    if (!p->wl->work_name) return fail_node(p, n, "out of memory");
    p->wl->work_per_launch = c[0];
    p->wl->work_per_thread = c[1];
    return 0;
}

static int load_doc(parser *p, yaml_node_t *root)
{
    ws_workload *wl = p->wl;
    yaml_node_t *v[K_N], *kn[K_N];
    if (refuse_sweep_file(p, root) < 0)
        return -1;
    if (collect(p, root, top_keys, K_N, "the workload", v, kn) < 0)
        return -1;
    if (v[K_LAUNCHES]) {
        static const int one_launch[] = {K_ENTRY, K_GRID, K_BLOCK, K_PARAMS, K_REGS, K_SHARED};
        for (size_t i = 0; i < sizeof one_launch / sizeof one_launch[0]; i++)
            if (v[one_launch[i]])
                return fail_node(p, kn[one_launch[i]], "'%s' at the top level and 'launches': give each launch's "
                                 "%s in its statement under launches", top_keys[one_launch[i]],
                                 top_keys[one_launch[i]]);
    } else {
        static const int required[] = {K_KERNEL, K_GRID, K_BLOCK};
        for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
            if (!v[required[i]])
                return fail_node(p, root, "missing required key '%s'", top_keys[required[i]]);
    }
    p->top_kernel = v[K_KERNEL];

    if (v[K_NAME]) {
        if (!scalar(v[K_NAME]) || !*scalar(v[K_NAME]))
            return fail_node(p, v[K_NAME], "name must be a plain string");
        wl->name = strdup(scalar(v[K_NAME]));
    } else {
        wl->name = ws_workload_default_name(p->path);
    }
    if (v[K_WORK] && parse_work(p, v[K_WORK]) < 0)
        return -1;
    if (v[K_LAUNCHES]) {
        if (v[K_BUFFERS] && parse_buffers(p, v[K_BUFFERS]) < 0)
            return -1;
        if ((v[K_TEXTURES] || v[K_SURFACES]) && parse_texs(p, v[K_TEXTURES], v[K_SURFACES]) < 0)
            return -1;
        if (v[K_EXPECT] && parse_expect(p, v[K_EXPECT]) < 0)
            return -1;
        if (parse_stmts(p, v[K_LAUNCHES], 0) < 0)
            return -1;
        if (!wl->nlaunches)
            return fail_node(p, v[K_LAUNCHES], "launches has no launch statement");
        return 0;
    }
    /* one launch: the top-level keys, checked in the order of the original format */
    wl->launches = calloc(1, sizeof *wl->launches);
    if (!wl->launches)
        return fail_node(p, root, "out of memory");
    wl->nlaunches = 1;
    ws_launch_spec *L = &wl->launches[0];
    L->line = L->col = 1;
    launch_nodes ln = {.name = NULL, .kernel = v[K_KERNEL], .entry = v[K_ENTRY], .grid = v[K_GRID],
                       .block = v[K_BLOCK], .regs = v[K_REGS], .shared = v[K_SHARED], .params = v[K_PARAMS],
                       .at = root};
    if (launch_shape(p, L, &ln) < 0)
        return -1;
    if (v[K_BUFFERS] && parse_buffers(p, v[K_BUFFERS]) < 0)
        return -1;
    if ((v[K_TEXTURES] || v[K_SURFACES]) && parse_texs(p, v[K_TEXTURES], v[K_SURFACES]) < 0)
        return -1;
    if (v[K_PARAMS] && parse_params(p, v[K_PARAMS], L) < 0)
        return -1;
    if (v[K_EXPECT] && parse_expect(p, v[K_EXPECT]) < 0)
        return -1;
    if (launch_kernel(p, L, &ln, 0) < 0)
        return -1;
    ws_seq_stmt *st = add_stmt(p, root, WS_SEQ_LAUNCH);
    return st ? 0 : -1;
}

/* The whole file (NUL-terminated), or NULL with err set: a directory, an
 * unreadable file or more than 64 MiB (a workload file is a few KiB; its
 * data lives in the buffers' init specs). */
static char *read_text(const char *path, size_t *len, ws_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        ws_fail(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        ws_fail(err, "%s: is a directory, not a workload file", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1 || cap > (64u << 20))
            break;
        char *nb = realloc(buf, cap *= 2);
        if (!nb)
            free(buf);
        buf = nb;
    }
    int bad = ferror(f);
    int e = errno;
    fclose(f);
    if (!buf) {
        ws_fail(err, "%s: out of memory", path);
        return NULL;
    }
    if (bad || n >= cap - 1) {
        free(buf);
        if (bad)
            ws_fail(err, "%s: cannot read: %s", path, strerror(e));
        else
            ws_fail(err, "%s: more than 64 MiB: not a workload file", path);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* regs_per_thread when the file gives none: what ptxas allocates, else the
 * MaxLive estimate with one warning line (on the test kernels ptxas's count
 * is 0.6-3.9x the estimate, median 1.4x: occupancy usually comes out high). Runs once per
 * load, after every check has passed: a sweep loads each workload once and
 * all its points share the count. */
static void resolve_regs(ws_workload *wl, ws_launch_spec *L)
{
    if (L->regs_per_thread) {
        L->regs_source = WS_REGS_WORKLOAD;
        return;
    }
    for (ws_launch_spec *o = wl->launches; o < L; o++)   /* ptxas once per kernel */
        if (o->kernel == L->kernel && o->regs_source != WS_REGS_WORKLOAD) {
            L->regs_per_thread = o->regs_per_thread;
            L->regs_source = o->regs_source;
            memcpy(L->regs_detail, o->regs_detail, sizeof L->regs_detail);
            return;
        }
    const ws_kernel *k = L->kernel;
    ws_ptxas_result pr;
    if (ws_ptxas_regs(k->path, k->name, &pr) == 0) {
        L->regs_per_thread = pr.regs;
        L->regs_source = WS_REGS_PTXAS;
        snprintf(L->regs_detail, sizeof L->regs_detail, "--gpu-name %s%s%s", pr.gpu,
                 pr.note[0] ? ": " : "", pr.note);
        return;
    }
    L->regs_per_thread = k->est_regs_per_thread ? k->est_regs_per_thread : 1;
    L->regs_source = WS_REGS_ESTIMATE;
    snprintf(L->regs_detail, sizeof L->regs_detail, "%s", pr.note);
    fprintf(stderr,
            "warpsweep: warning: %s: %s%s%sno regs_per_thread and %s; using the PTX MaxLive estimate of %u registers "
            "per thread (ptxas allocates up to 4x more on real kernels: give regs_per_thread for exact occupancy)\n",
            wl->path, wl->nstmts > 1 ? "launch " : "", wl->nstmts > 1 ? L->name : "", wl->nstmts > 1 ? ": " : "",
            pr.note, L->regs_per_thread);
}

/* ---- variables (vars:, "=EXPR" values) ---- */

static int valid_var_name(const char *s)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_') || strlen(s) >= sizeof(((ws_wl_var *)0)->name)) return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_') return 0;
    return 1;
}

/* Replaces every "=EXPR" scalar value under n (not keys, not the vars
 * mapping itself) by its value. */
static int substitute(parser *p, yaml_node_t *n, const yaml_node_t *vars, int depth)
{
    if (n == vars || depth > WS_WL_SUBST_DEPTH) return 0;
    if (n->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
            if (substitute(p, node(p, *it), vars, depth + 1) < 0) return -1;
        return 0;
    }
    if (n->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++)
            if (substitute(p, node(p, pr->value), vars, depth + 1) < 0) return -1;
        return 0;
    }
    const char *s = scalar(n);
    if (!s || s[0] != '=') return 0;
    double v;
    int off;
    char msg[200];
    if (ws_wl_expr_eval(s + 1, p->wl->vars, p->wl->nvars, &v, &off, msg, sizeof msg) < 0) {
        int line = (int)n->start_mark.line + 1, col = (int)n->start_mark.column + 1 + 1 + off;
        if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) col++;   /* the opening quote */
        return ws_fail_at(p->err, p->path, line, col, "'%s': %s", s, msg);
    }
    char buf[64];
    if (v == floor(v) && fabs(v) < 9007199254740992.0) snprintf(buf, sizeof buf, "%.0f", v);
    else snprintf(buf, sizeof buf, "%.17g", v);
    unsigned char *t = (unsigned char *)strdup(buf);
    if (!t) return fail_node(p, n, "out of memory");
    free(n->data.scalar.value);
    n->data.scalar.value = t;
    n->data.scalar.length = strlen(buf);
    return 0;
}

/* vars: {name: number, ...}, then the overrides, then every "=EXPR". */
static int apply_vars(parser *p, yaml_node_t *root, const ws_wl_var *ov, int nov)
{
    ws_workload *wl = p->wl;
    yaml_node_t *vars = NULL;
    if (root->type == YAML_MAPPING_NODE)
        for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
            const char *k = scalar(node(p, pr->key));
            if (k && strcmp(k, "vars") == 0) vars = node(p, pr->value);
        }
    if (vars) {
        if (vars->type != YAML_MAPPING_NODE)
            return fail_node(p, vars, "vars must be a mapping of name: number, such as {block: 256, n: 65536}");
        for (yaml_node_pair_t *pr = vars->data.mapping.pairs.start; pr < vars->data.mapping.pairs.top; pr++) {
            yaml_node_t *k = node(p, pr->key), *v = node(p, pr->value);
            const char *ks = scalar(k);
            if (!valid_var_name(ks))
                return fail_node(p, k, "vars: '%s' is not a variable name (letters, digits, '_'; at most 31)", ks ? ks : "?");
            for (int i = 0; i < wl->nvars; i++)
                if (strcmp(wl->vars[i].name, ks) == 0) return fail_node(p, k, "vars: %s is given twice", ks);
            if (wl->nvars == WS_MAX_WL_VARS) return fail_node(p, k, "vars: more than %d variables", WS_MAX_WL_VARS);
            double d;
            if (get_double(p, v, ks, &d) < 0) return -1;
            snprintf(wl->vars[wl->nvars].name, sizeof wl->vars[0].name, "%s", ks);
            wl->vars[wl->nvars++].value = d;
        }
    }
    for (int j = 0; j < nov; j++) {
        int i = 0;
        while (i < wl->nvars && strcmp(wl->vars[i].name, ov[j].name) != 0) i++;
        if (i == wl->nvars) {
            char names[256] = "";
            for (int k = 0; k < wl->nvars; k++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "", wl->vars[k].name);
            return ws_fail(p->err, "%s: the workload has no variable '%s' (vars: %s)", p->path, ov[j].name,
                           wl->nvars ? names : "none");
        }
        wl->vars[i].value = ov[j].value;
    }
    return substitute(p, root, vars, 0);
}

ws_workload *ws_workload_load(const char *path, ws_error *err)
{
    return ws_workload_load_vars(path, NULL, 0, err);
}

ws_workload *ws_workload_load_vars(const char *path, const ws_wl_var *overrides, int noverrides, ws_error *err)
{
    size_t len;
    char *text = read_text(path, &len, err);
    if (!text)
        return NULL;
    yaml_parser_t yp;
    if (!yaml_parser_initialize(&yp)) {
        free(text);
        ws_fail(err, "%s: cannot initialise the YAML parser", path);
        return NULL;
    }
    yaml_parser_set_input_string(&yp, (const unsigned char *)text, len);
    parser p = {.path = path, .err = err};
    if (!yaml_parser_load(&yp, &p.doc)) {
        int line = (int)yp.problem_mark.line + 1, col = (int)yp.problem_mark.column + 1;
        if (yp.error == YAML_READER_ERROR) {   /* bad encoding: libyaml gives a byte offset, no mark */
            ws_text_position(text, len, yp.problem_offset, &line, &col);
            ws_fail_at(err, path, line, col, "YAML syntax error: %s (byte 0x%02x): a workload file is UTF-8 text",
                       yp.problem ? yp.problem : "?", yp.problem_offset < len ? (unsigned char)text[yp.problem_offset] : 0u);
        } else {
            ws_fail_at(err, path, line, col, "YAML syntax error: %s%s%s", yp.problem ? yp.problem : "?",
                       yp.context ? " " : "", yp.context ? yp.context : "");
        }
        yaml_parser_delete(&yp);
        free(text);
        return NULL;
    }
    yaml_parser_delete(&yp);
    uint64_t digest = ws_xxh64(text, len, 0);
    free(text);

    ws_workload *wl = calloc(1, sizeof *wl);
    p.wl = wl;
    int rc = -1;
    if (wl) {
        wl->path = strdup(path);
        wl->digest = digest;
        yaml_node_t *root = yaml_document_get_root_node(&p.doc);
        if (!root)
            ws_fail_at(err, path, 1, 1, "empty workload file: expected keys kernel, grid, block, buffers, params");
        else if (refuse_sweep_file(&p, root) == 0 && apply_vars(&p, root, overrides, noverrides) == 0)
            rc = load_doc(&p, root);
    } else {
        ws_fail(err, "%s: out of memory", path);
    }
    yaml_document_delete(&p.doc);
    for (int i = 0; i < p.ncsrs; i++)   /* their parts live on in the buffers' memory files */
        wl_csr_free(p.csrs[i]);
    for (uint32_t i = 0; i < p.nkeys; i++) {
        free(p.kkeys[i].path);
        free(p.kkeys[i].entry);
    }
    free(p.kkeys);
    if (rc < 0) {
        ws_workload_free(wl);
        return NULL;
    }
    for (uint32_t i = 0; i < wl->nlaunches; i++)
        resolve_regs(wl, &wl->launches[i]);
    mirror_first_launch(wl);
    return wl;
}

void ws_workload_free(ws_workload *wl)
{
    if (!wl)
        return;
    free(wl->path);
    free(wl->name);
    free(wl->work_name);
    for (uint32_t i = 0; i < wl->nkernels; i++)
        ws_kernel_free(wl->kernels[i]);
    free(wl->kernels);
    for (uint32_t i = 0; i < wl->nlaunches; i++) {
        free(wl->launches[i].name);
        free(wl->launches[i].args);
    }
    free(wl->launches);
    free(wl->stmts);
    for (uint32_t i = 0; i < wl->nbuffers; i++) {
        free(wl->buffers[i].name);
        values_free(&wl->buffers[i].init);
    }
    free(wl->buffers);
    for (uint32_t i = 0; i < wl->ntexs; i++)
        free(wl->texs[i].name);
    free(wl->texs);
    for (uint32_t i = 0; i < wl->nexpects; i++)
        values_free(&wl->expects[i].values);
    free(wl->expects);
    free(wl);
}
