/* Workload YAML: launch sequences (`launches:`: launches, set, loop; src/workload/sequence.c runs them). */
#include "wl_parse.h"

/* ---- launch sequences (`launches:`) ---- */

ws_seq_stmt *add_stmt(parser *p, yaml_node_t *at, int op)
{
    if (p->nstmts == p->capstmts) {
        uint32_t cap = p->capstmts ? 2 * p->capstmts : 16;
        ws_seq_stmt *ns = realloc(p->wl->stmts, cap * sizeof *ns);
        if (!ns) {
            fail_node(p, at, "out of memory");
            return NULL;
        }
        p->wl->stmts = ns;
        p->capstmts = cap;
    }
    ws_seq_stmt *st = &p->wl->stmts[p->nstmts++];
    memset(st, 0, sizeof *st);
    st->op = (uint8_t)op;
    st->line = (int)at->start_mark.line + 1;
    st->col = (int)at->start_mark.column + 1;
    p->wl->nstmts = p->nstmts;
    return st;
}

/* A buffer name and a value of its type (set: value, until: equals). */
static int buffer_value(parser *p, yaml_node_t *map, const char *what, const char *vkey, uint32_t *buffer,
                        uint64_t *bits)
{
    const char *keys[2] = {"buffer", vkey};
    yaml_node_t *vals[2], *kn[2];
    if (collect(p, map, keys, 2, what, vals, kn) < 0)
        return -1;
    if (!vals[0])
        return fail_node(p, map, "%s: missing required key 'buffer'", what);
    if (!vals[1])
        return fail_node(p, map, "%s: missing required key '%s'", what, vkey);
    const char *name = scalar(vals[0]);
    int b = name ? find_buffer(p->wl, name) : -1;
    if (b < 0) {
        char sug[128];
        return fail_node(p, vals[0], "%s on unknown buffer '%s'%s", what, name ? name : "?",
                         name ? suggest_buffer(p->wl, name, sug, sizeof sug) : "");
    }
    const ws_buffer_spec *bs = &p->wl->buffers[b];
    num x;
    if (!scalar(vals[1]) || parse_num(scalar(vals[1]), &x) < 0)
        return fail_node(p, vals[1], "%s: %s must be a number", what, vkey);
    int64_t iv;
    double dv;
    char w[160];
    snprintf(w, sizeof w, "%s %s (buffer '%s', %s)", what, vkey, name, wl_type_name(bs->type));
    if (num_to_type(p, vals[1], &x, bs->type, &iv, &dv, w) < 0)
        return -1;
    *buffer = (uint32_t)b;
    *bits = wl_type_float(bs->type) ? wl_float_bits(bs->type, dv) : wl_int_bits(bs->type, (uint64_t)iv);
    return 0;
}

/* loop: {repeat: N, body} | {until: {buffer, equals}, max: M, body} */
static int parse_loop(parser *p, yaml_node_t *key, yaml_node_t *n, int depth)
{
    static const char *const keys[] = {"repeat", "until", "max", "body"};
    yaml_node_t *v[4], *kn[4];
    if (collect(p, n, keys, 4, "loop", v, kn) < 0)
        return -1;
    if (depth >= WS_SEQ_MAX_DEPTH)
        return fail_node(p, key, "loops nested more than %d deep", WS_SEQ_MAX_DEPTH);
    if (v[0] && v[1])
        return fail_node(p, kn[1], "loop: give either repeat: N or until: {buffer, equals} with max, not both");
    if (!v[0] && !v[1])
        return fail_node(p, n, "loop: missing repeat: N or until: {buffer, equals} (with max: M)");
    if (v[0] && v[2])
        return fail_node(p, kn[2], "loop: max goes with until; a repeat loop runs exactly its N iterations");
    if (v[1] && !v[2])
        return fail_node(p, kn[1], "loop: until needs max: M (the most iterations; reaching it ends the loop)");
    if (!v[3])
        return fail_node(p, n, "loop: missing required key 'body' (a list of statements)");
    uint64_t count;
    if (v[0] && get_uint(p, v[0], "repeat", 0, UINT32_MAX, &count) < 0)
        return -1;
    if (v[2] && get_uint(p, v[2], "max", 1, UINT32_MAX, &count) < 0)
        return -1;
    uint32_t buffer = 0;
    uint64_t bits = 0;
    if (v[1] && buffer_value(p, v[1], "until", "equals", &buffer, &bits) < 0)
        return -1;
    ws_seq_stmt *head = add_stmt(p, key, WS_SEQ_LOOP);
    if (!head)
        return -1;
    uint32_t hi = p->nstmts - 1;
    head->depth = (uint8_t)depth;
    head->count = count;
    if (parse_stmts(p, v[3], depth + 1) < 0)
        return -1;
    ws_seq_stmt *end = add_stmt(p, v[3], WS_SEQ_END);
    if (!end)
        return -1;
    end->depth = (uint8_t)depth;
    end->jump = hi;
    end->until = v[1] != NULL;
    end->buffer = buffer;
    end->bits = bits;
    p->wl->stmts[hi].jump = p->nstmts - 1;
    return 0;
}

static int parse_launch_stmt(parser *p, yaml_node_t *n)
{
    enum { L_ENTRY, L_NAME, L_KERNEL, L_GRID, L_BLOCK, L_PARAMS, L_REGS, L_SHARED, L_DSHARED, L_N };
    static const char *const keys[L_N] = {"entry", "name", "kernel", "grid", "block", "params",
                                          "regs_per_thread", "shared_bytes", "dyn_shared_bytes"};
    yaml_node_t *v[L_N], *kn[L_N];
    if (collect(p, n, keys, L_N, "a launch statement (or set:, loop:)", v, kn) < 0)
        return -1;
    if (v[L_SHARED] && v[L_DSHARED])
        return fail_node(p, kn[L_DSHARED], "give shared_bytes or dyn_shared_bytes (the same), not both");
    if (!v[L_GRID])
        return fail_node(p, n, "launch: missing required key 'grid'");
    if (!v[L_BLOCK])
        return fail_node(p, n, "launch: missing required key 'block'");
    ws_workload *wl = p->wl;
    ws_launch_spec *nl = realloc(wl->launches, (wl->nlaunches + 1) * sizeof *nl);
    if (!nl)
        return fail_node(p, n, "out of memory");
    wl->launches = nl;
    ws_launch_spec *L = &wl->launches[wl->nlaunches++];
    memset(L, 0, sizeof *L);
    L->line = (int)n->start_mark.line + 1;
    L->col = (int)n->start_mark.column + 1;
    launch_nodes ln = {.name = v[L_NAME], .kernel = v[L_KERNEL], .entry = v[L_ENTRY], .grid = v[L_GRID],
                       .block = v[L_BLOCK], .regs = v[L_REGS], .shared = v[L_SHARED] ? v[L_SHARED] : v[L_DSHARED],
                       .params = v[L_PARAMS], .at = n};
    if (launch_shape(p, L, &ln) < 0)
        return -1;
    if (ln.params && parse_params(p, ln.params, L) < 0)
        return -1;
    if (launch_kernel(p, L, &ln, 1) < 0)
        return -1;
    ws_seq_stmt *st = add_stmt(p, n, WS_SEQ_LAUNCH);
    if (!st)
        return -1;
    st->launch = wl->nlaunches - 1;
    return 0;
}

/* A list of statements: launches, set: {buffer, value}, loop: {...}. */
int parse_stmts(parser *p, yaml_node_t *list, int depth)
{
    if (list->type != YAML_SEQUENCE_NODE)
        return fail_node(p, list, "%s must be a list of statements (launches, set:, loop:), not %s",
                         depth ? "a loop's body" : "launches", kind_name(list));
    for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
        yaml_node_t *n = node(p, *it);
        if (n->type != YAML_MAPPING_NODE)
            return fail_node(p, n, "a statement must be a mapping (a launch {entry, grid, block, params}, set: or "
                             "loop:), not %s", kind_name(n));
        yaml_node_pair_t *first = n->data.mapping.pairs.start;
        int npairs = (int)(n->data.mapping.pairs.top - first);
        const char *k0 = npairs ? scalar(node(p, first->key)) : NULL;
        int is_set = k0 && strcmp(k0, "set") == 0, is_loop = k0 && strcmp(k0, "loop") == 0;
        if (is_set || is_loop) {
            if (npairs != 1)
                return fail_node(p, node(p, first[1].key), "a %s statement has no other keys (one statement per "
                                 "list item)", k0);
            yaml_node_t *key = node(p, first->key), *val = node(p, first->value);
            if (is_loop) {
                if (parse_loop(p, key, val, depth) < 0)
                    return -1;
                continue;
            }
            uint32_t b;
            uint64_t bits;
            if (buffer_value(p, val, "set", "value", &b, &bits) < 0)
                return -1;
            ws_seq_stmt *st = add_stmt(p, key, WS_SEQ_SET);
            if (!st)
                return -1;
            st->buffer = b;
            st->bits = bits;
            continue;
        }
        if (parse_launch_stmt(p, n) < 0)
            return -1;
    }
    return 0;
}