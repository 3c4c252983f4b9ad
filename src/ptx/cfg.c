/*
 * Control-flow graph and immediate post-dominators.
 *
 * ws_cfg_build cuts k->insts into basic blocks, links them (WS_PC_EXIT is the
 * virtual exit node), computes every block's immediate post-dominator with
 * ws_postdom, writes each branch's reconvergence instruction (ws_inst.ipdom)
 * and is_backedge, and finally runs the uniformity analysis (passes.h).
 *
 * ws_postdom is Cooper, Harvey & Kennedy's iterative dominator algorithm
 * ("A Simple, Fast Dominance Algorithm", 2001) run on the reverse graph, rooted
 * at a virtual exit node, over the reverse post-order of that graph.
 *
 * Nodes that cannot reach the exit (infinite loops with no way out) are never
 * reached by the reverse traversal: they get WS_PC_EXIT. For the other nodes,
 * post-dominance is computed over the paths that reach the exit: an edge into a
 * non-terminating region is ignored (threads that enter it never reconverge
 * anywhere, so it constrains nothing).
 *
 * Early exits. Reconvergence points are post-dominators of the graph in which
 * early exits are not paths: a *terminal* block is one that only exits (its
 * first instruction an unguarded exit/ret/trap: nvcc's shared `ret` block), or
 * a branch's private way out (straight-line code to an exit, meeting nobody,
 * entered only from that branch: mark_terminal), and an edge from a branching
 * block into a terminal block (or a guarded exit's edge to the exit) is an
 * early exit: the threads that take it leave the
 * kernel, as they do through the predicated EXIT ptxas emits for a `return`, so
 * they constrain no reconvergence. For `if (a) { if (b) return; } loop` the
 * outer branch reconverges at the loop, as ptxas's BSSY/BSYNC do, instead of
 * at the final ret (which would run the loop once per side). An early-exit edge
 * is kept when dropping it would leave its block no path to the exit (a loop
 * whose only way out falls into the final ret), repeatedly until every block
 * that reached the exit still does (cfg_reconvergence_graph).
 */
#include <stdlib.h>
#include <string.h>
#include "warpsweep/ptx.h"
#include "warpsweep/passes.h"

int ws_postdom(uint32_t n, const uint32_t *const *succ, const uint32_t *nsucc, uint32_t *ipdom)
{
    if (n == 0) return 0;
    const uint32_t X = n;          /* virtual exit node */
    const uint32_t N = n + 1;
    const uint32_t UNDEF = 0xfffffffeu;
    int rc = 0;

    /* forward predecessors (= reverse-graph successors), in node order */
    uint32_t *npred = calloc(N, sizeof *npred);
    uint32_t *pstart = calloc(N + 1, sizeof *pstart);
    uint32_t *order = malloc(N * sizeof *order);    /* reverse post-order */
    uint32_t *po = malloc(N * sizeof *po);          /* post-order number per node */
    uint32_t *dom = malloc(N * sizeof *dom);
    uint32_t *stk = malloc(N * sizeof *stk), *sidx = malloc(N * sizeof *sidx);
    uint32_t *pred = NULL;
    if (!npred || !pstart || !order || !po || !dom || !stk || !sidx) { rc = -1; goto out; }

#define SUCC_COUNT(u) (nsucc[u] ? nsucc[u] : 1u)
#define SUCC_AT(u, j) (nsucc[u] ? (succ[u][j] >= n ? X : succ[u][j]) : X)
    size_t tot = 0;
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t j = 0; j < SUCC_COUNT(u); j++) { npred[SUCC_AT(u, j)]++; tot++; }
    pred = malloc((tot ? tot : 1) * sizeof *pred);
    if (!pred) { rc = -1; goto out; }
    for (uint32_t v = 0; v < N; v++) pstart[v + 1] = pstart[v] + npred[v];
    memset(npred, 0, N * sizeof *npred);
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t j = 0; j < SUCC_COUNT(u); j++) {
            uint32_t v = SUCC_AT(u, j);
            pred[pstart[v] + npred[v]++] = u;
        }

    /* iterative DFS from the exit over predecessors: post-order */
    for (uint32_t v = 0; v < N; v++) { po[v] = UNDEF; dom[v] = UNDEF; }
    uint32_t npo = 0, sp = 0;
    uint8_t *seen = calloc(N, 1);
    if (!seen) { rc = -1; goto out; }
    stk[sp] = X; sidx[sp] = 0; sp++; seen[X] = 1;
    while (sp) {
        uint32_t v = stk[sp - 1];
        if (sidx[sp - 1] < npred[v]) {
            uint32_t w = pred[pstart[v] + sidx[sp - 1]++];
            if (!seen[w]) { seen[w] = 1; stk[sp] = w; sidx[sp] = 0; sp++; }
        } else {
            po[v] = npo;
            order[npo++] = v;
            sp--;
        }
    }
    free(seen);

    /* Cooper-Harvey-Kennedy on the reverse graph: idom over "reverse preds" =
     * forward successors. Process in reverse post-order (exit first). */
    dom[X] = X;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (uint32_t r = npo - 1; r-- > 0;) {      /* skip order[npo-1] == X */
            uint32_t u = order[r];
            uint32_t nd = UNDEF;
            for (uint32_t j = 0; j < SUCC_COUNT(u); j++) {
                uint32_t s = SUCC_AT(u, j);
                if (dom[s] == UNDEF) continue;      /* unprocessed, or cannot reach exit */
                if (nd == UNDEF) { nd = s; continue; }
                uint32_t a = s, b = nd;
                while (a != b) {
                    while (po[a] < po[b]) a = dom[a];
                    while (po[b] < po[a]) b = dom[b];
                }
                nd = a;
            }
            if (nd != UNDEF && dom[u] != nd) { dom[u] = nd; changed = 1; }
        }
    }
    for (uint32_t u = 0; u < n; u++)
        ipdom[u] = (dom[u] == UNDEF || dom[u] == X) ? WS_PC_EXIT : dom[u];
#undef SUCC_COUNT
#undef SUCC_AT
out:
    if (rc) for (uint32_t u = 0; u < n; u++) ipdom[u] = WS_PC_EXIT;
    free(npred); free(pstart); free(order); free(po); free(dom); free(stk); free(sidx); free(pred);
    return rc;
}

static int is_block_end(const ws_inst *in)
{
    switch (in->op) {
    case WS_OP_BRA: case WS_OP_BRX: case WS_OP_EXIT: case WS_OP_RET: case WS_OP_TRAP:
        return 1;
    default:
        return 0;
    }
}

static int is_exit_block(const ws_kernel *k, const ws_block *bl)
{
    const ws_inst *in = &k->insts[bl->first];
    return in->guard == WS_NO_REG && (in->op == WS_OP_EXIT || in->op == WS_OP_RET || in->op == WS_OP_TRAP);
}

/* Marks the terminal blocks, the targets of early exits: those that only exit
 * (their first instruction an unguarded exit/ret/trap: nvcc's shared `ret`
 * block that every `return` branches to), and the private way out of one
 * branch: straight-line code (ws_block.leaves) through blocks with one
 * predecessor each, down to an exit or an exit-only block (`if (c) {
 * out[i] = x; return; }`; ptxas ends it with its own EXIT). A block with
 * several predecessors on the way is a join (the common tail `out[i] = x;
 * ret`): threads meeting there run it once, so it stays a reconvergence
 * point, and the chain leading to it is no way out. Needs mark_leaves. */
static void mark_terminal(const ws_kernel *k, ws_block *b, uint32_t nb)
{
    uint32_t *npred = calloc(nb ? nb : 1, sizeof *npred);
    if (npred)
        for (uint32_t u = 0; u < nb; u++)
            for (uint32_t j = 0; j < b[u].nsucc; j++)
                if (b[u].succ[j] != WS_PC_EXIT) npred[b[u].succ[j]]++;
    for (uint32_t u = 0; u < nb; u++) b[u].terminal = (uint8_t)is_exit_block(k, &b[u]);
    /* private chains: one predecessor each, down to an exit or an exit-only
     * block (a chain that reaches a join is no way out: threads meet there) */
    for (int changed = npred != NULL; changed;) {
        changed = 0;
        for (uint32_t u = nb; u-- > 1;) {
            if (b[u].terminal || !b[u].leaves || npred[u] != 1 || b[u].nsucc != 1) continue;
            uint32_t s = b[u].succ[0];
            if (s == WS_PC_EXIT || (s != u && b[s].terminal)) { b[u].terminal = 1; changed = 1; }
        }
    }
    free(npred);
}

static int waits_for_others(const ws_inst *in)
{
    switch (in->op) {
    case WS_OP_BAR: case WS_OP_BARRIER: case WS_OP_BAR_WARP: case WS_OP_SHFL: case WS_OP_VOTE:
    case WS_OP_MATCH: case WS_OP_REDUX: case WS_OP_MMA: case WS_OP_LDMATRIX:
    case WS_OP_ELECT: case WS_OP_WMMA_LOAD: case WS_OP_WMMA_STORE: case WS_OP_STMATRIX: case WS_OP_MOVMATRIX:
        return 1;
    default:
        return 0;
    }
}

/* Marks the blocks whose threads just leave: straight-line code (one
 * successor each) to an unguarded exit/ret/trap that meets no other thread on
 * the way (no CTA barrier, no warp-level .sync op). The stack runs such paths
 * first (div_stack.c). */
static void mark_leaves(const ws_kernel *k, ws_block *b, uint32_t nb)
{
    for (uint32_t u = 0; u < nb; u++) {
        b[u].leaves = 0;
        for (uint32_t i = b[u].first; i <= b[u].last; i++)
            if (waits_for_others(&k->insts[i])) b[u].leaves = 2;   /* 2: never */
    }
    for (uint32_t u = 0; u < nb; u++)
        if (!b[u].leaves && b[u].nsucc == 1 && b[u].succ[0] == WS_PC_EXIT) b[u].leaves = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t u = nb; u-- > 0;) {
            if (b[u].leaves || b[u].nsucc != 1 || b[u].succ[0] == WS_PC_EXIT) continue;
            if (b[b[u].succ[0]].leaves == 1) { b[u].leaves = 1; changed = 1; }
        }
    }
    for (uint32_t u = 0; u < nb; u++) b[u].leaves = b[u].leaves == 1;
}

static int is_early_exit(const ws_block *b, uint32_t s)
{
    return s == WS_PC_EXIT || b[s].terminal;
}

/* Blocks that reach the exit in the graph (sl, sn): reach[u] = 1. */
static void reaches_exit(const ws_block *b, uint32_t nb, uint32_t *const *sl, const uint32_t *sn,
                         uint8_t *reach)
{
    for (uint32_t u = 0; u < nb; u++) reach[u] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t u = nb; u-- > 0;) {
            if (reach[u]) continue;
            for (uint32_t j = 0; j < sn[u] && !reach[u]; j++)
                if (sl[u][j] == WS_PC_EXIT || reach[sl[u][j]]) reach[u] = 1;
            if (reach[u]) changed = 1;
        }
    }
    (void)b;
}

/* A block cut off from the exit by dropping early exits: it reached the exit
 * before (full), not now, and had edges dropped. */
static int cut_off(const uint8_t *dropped, const uint8_t *full, const uint8_t *now, uint32_t u)
{
    return dropped[u] && full[u] && !now[u];
}

/* Gives back the early exits of the cut-off blocks that are cut off by
 * themselves: those from which no other cut-off block is reachable (a loop
 * whose only way out was dropped), not those stuck only behind one (a branch
 * before that loop: it keeps its early exit once the loop is restored).
 * When every cut-off block waits behind another (a cycle of them), all are
 * restored. Returns 1 if anything was restored. */
static int restore_cut_off(uint32_t nb, uint32_t *const *sl, const uint32_t *sn, uint8_t *dropped,
                           const uint8_t *full, const uint8_t *now, uint8_t *seen, uint32_t *stack)
{
    int any = 0, restored = 0;
    for (uint32_t u = 0; u < nb; u++) {
        if (!cut_off(dropped, full, now, u)) continue;
        any = 1;
        memset(seen, 0, nb);
        uint32_t sp = 0;
        int behind = 0;
        for (uint32_t j = 0; j < sn[u]; j++)
            if (sl[u][j] != WS_PC_EXIT && !seen[sl[u][j]]) { seen[sl[u][j]] = 1; stack[sp++] = sl[u][j]; }
        while (sp && !behind) {
            uint32_t v = stack[--sp];
            if (v != u && cut_off(dropped, full, now, v)) { behind = 1; break; }
            for (uint32_t j = 0; j < sn[v]; j++)
                if (sl[v][j] != WS_PC_EXIT && !seen[sl[v][j]]) { seen[sl[v][j]] = 1; stack[sp++] = sl[v][j]; }
        }
        if (!behind) { dropped[u] = 2; restored = 1; }   /* 2: restore after this pass */
    }
    for (uint32_t u = 0; u < nb; u++)
        if (dropped[u] == 2) dropped[u] = 0;
    if (any && !restored)
        for (uint32_t u = 0; u < nb; u++)
            if (cut_off(dropped, full, now, u)) { dropped[u] = 0; restored = 1; }
    return restored;
}

/* The graph whose post-dominators are the reconvergence points (see the top
 * of this file): each block's successors minus its early exits, unless it has
 * nothing else, or dropping them cuts it off from the exit. sl[u] are fresh
 * arrays (caller frees), sn[u] their lengths. Returns 0 or -1 (out of memory). */
static int cfg_reconvergence_graph(const ws_block *b, uint32_t nb, uint32_t **sl, uint32_t *sn)
{
    uint8_t *dropped = calloc(nb ? nb : 1, 1), *full = malloc(nb ? nb : 1), *now = malloc(nb ? nb : 1);
    uint8_t *seen = malloc(nb ? nb : 1);
    uint32_t *stack = malloc((nb ? nb : 1) * sizeof *stack);
    int rc = -1;
    for (uint32_t u = 0; u < nb; u++) sl[u] = NULL;
    if (!dropped || !full || !now || !seen || !stack) goto out;
    for (uint32_t u = 0; u < nb; u++) {
        if (!(sl[u] = malloc((b[u].nsucc ? b[u].nsucc : 1) * sizeof **sl))) goto out;
        uint32_t keep = 0;
        for (uint32_t j = 0; j < b[u].nsucc; j++) keep += !is_early_exit(b, b[u].succ[j]);
        dropped[u] = b[u].nsucc >= 2 && keep > 0 && keep < b[u].nsucc;
    }
    /* which blocks reach the exit with every edge */
    for (uint32_t u = 0; u < nb; u++) { memcpy(sl[u], b[u].succ, b[u].nsucc * sizeof **sl); sn[u] = b[u].nsucc; }
    reaches_exit(b, nb, sl, sn, full);
    for (int again = 1; again;) {
        for (uint32_t u = 0; u < nb; u++) {
            sn[u] = 0;
            for (uint32_t j = 0; j < b[u].nsucc; j++)
                if (!dropped[u] || !is_early_exit(b, b[u].succ[j])) sl[u][sn[u]++] = b[u].succ[j];
        }
        reaches_exit(b, nb, sl, sn, now);
        again = restore_cut_off(nb, sl, sn, dropped, full, now, seen, stack);
    }
    rc = 0;
out:
    if (rc) for (uint32_t u = 0; u < nb; u++) { free(sl[u]); sl[u] = NULL; }
    free(dropped); free(full); free(now); free(seen); free(stack);
    return rc;
}

static void free_cfg(ws_kernel *k)
{
    if (k->blocks)
        for (uint32_t b = 0; b < k->nblocks; b++) free(k->blocks[b].succ);
    free(k->blocks);
    free(k->block_of);
    k->blocks = NULL;
    k->block_of = NULL;
    k->nblocks = 0;
}

static int add_succ(uint32_t *list, uint32_t *n, uint32_t s)
{
    for (uint32_t i = 0; i < *n; i++)
        if (list[i] == s) return 0;
    list[(*n)++] = s;
    return 1;
}

int ws_cfg_build(ws_kernel *k, ws_error *err)
{
    free_cfg(k);
    const uint32_t n = k->ninsts;
    const char *file = k->path ? k->path : (k->name ? k->name : "<kernel>");
    if (n == 0) return 0;

    /* validate targets */
    for (uint32_t i = 0; i < n; i++) {
        ws_inst *in = &k->insts[i];
        if (in->op == WS_OP_BRA && in->target >= n)
            return ws_fail_at(err, file, (int)in->line, (int)in->col,
                              "branch target %u out of range (kernel has %u instructions)",
                              in->target, n);
        if (in->op == WS_OP_BRX) {
            if (in->ntargets == 0 || (uint64_t)in->target + in->ntargets > k->nbrx_targets)
                return ws_fail_at(err, file, (int)in->line, (int)in->col,
                                  "brx.idx target list out of range");
            for (uint32_t j = 0; j < in->ntargets; j++)
                if (k->brx_targets[in->target + j] >= n)
                    return ws_fail_at(err, file, (int)in->line, (int)in->col,
                                      "brx.idx target %u out of range", k->brx_targets[in->target + j]);
        }
    }

    uint8_t *leader = calloc(n, 1);
    uint32_t *block_of = malloc(n * sizeof *block_of);
    if (!leader || !block_of) { free(leader); free(block_of); return ws_fail(err, "%s: out of memory", file); }
    leader[0] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const ws_inst *in = &k->insts[i];
        if (in->op == WS_OP_BRA) leader[in->target] = 1;
        if (in->op == WS_OP_BRX)
            for (uint32_t j = 0; j < in->ntargets; j++) leader[k->brx_targets[in->target + j]] = 1;
        if (is_block_end(in) && i + 1 < n) leader[i + 1] = 1;
    }
    uint32_t nb = 0;
    for (uint32_t i = 0; i < n; i++) { if (leader[i]) nb++; block_of[i] = nb - 1; }
    free(leader);

    ws_block *blocks = calloc(nb, sizeof *blocks);
    uint32_t *bipdom = malloc(nb * sizeof *bipdom);
    if (!blocks || !bipdom) {
        free(blocks); free(bipdom); free(block_of);
        return ws_fail(err, "%s: out of memory", file);
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = block_of[i];
        if (i == 0 || block_of[i - 1] != b) blocks[b].first = i;
        blocks[b].last = i;
    }
    int oom = 0;
    for (uint32_t b = 0; b < nb && !oom; b++) {
        const ws_inst *in = &k->insts[blocks[b].last];
        uint32_t last = blocks[b].last;
        uint32_t fall = last + 1 < n ? block_of[last + 1] : WS_PC_EXIT;
        int guarded = in->guard != WS_NO_REG;
        uint32_t cap = 2 + (in->op == WS_OP_BRX ? in->ntargets : 0);
        uint32_t *s = malloc(cap * sizeof *s), ns = 0;
        if (!s) { oom = 1; break; }
        switch (in->op) {
        case WS_OP_BRA:
            add_succ(s, &ns, block_of[in->target]);
            if (guarded) add_succ(s, &ns, fall);
            break;
        case WS_OP_BRX:
            for (uint32_t j = 0; j < in->ntargets; j++)
                add_succ(s, &ns, block_of[k->brx_targets[in->target + j]]);
            if (guarded) add_succ(s, &ns, fall);
            break;
        case WS_OP_EXIT: case WS_OP_RET: case WS_OP_TRAP:
            if (guarded) add_succ(s, &ns, fall);
            add_succ(s, &ns, WS_PC_EXIT);
            break;
        default:
            add_succ(s, &ns, fall);
            break;
        }
        blocks[b].succ = s;
        blocks[b].nsucc = ns;
    }
    uint32_t **sl = oom ? NULL : calloc(nb, sizeof *sl);
    uint32_t *sn = oom ? NULL : malloc(nb * sizeof *sn);
    if (!oom) { mark_leaves(k, blocks, nb); mark_terminal(k, blocks, nb); }
    if (oom || !sl || !sn || cfg_reconvergence_graph(blocks, nb, sl, sn)) {
        for (uint32_t b = 0; b < nb; b++) free(blocks[b].succ);
        free(blocks); free(bipdom); free(block_of); free(sl); free(sn);
        return ws_fail(err, "%s: out of memory", file);
    }
    int prc = ws_postdom(nb, (const uint32_t *const *)sl, sn, bipdom);
    for (uint32_t b = 0; b < nb; b++) free(sl[b]);
    free(sl); free(sn);
    if (prc) {
        for (uint32_t b = 0; b < nb; b++) free(blocks[b].succ);
        free(blocks); free(bipdom); free(block_of);
        return ws_fail(err, "%s: out of memory", file);
    }
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t p = bipdom[b];
        /* A block that only exits (its first instruction an unguarded
         * ret/exit/trap) is as good as the virtual exit: paths meeting there
         * have nothing left to do together, and ptxas turns branches to it into
         * predicated EXITs. Reconverging there would keep finished lanes alive,
         * e.g. `if (i >= n) return; ... __syncthreads();` would wait at the
         * CTA barrier for lanes parked at the final ret. */
        if (p != WS_PC_EXIT && is_exit_block(k, &blocks[p])) p = WS_PC_EXIT;
        blocks[b].ipdom = p;
    }
    free(bipdom);

    k->blocks = blocks;
    k->nblocks = nb;
    k->block_of = block_of;

    for (uint32_t i = 0; i < n; i++) {
        ws_inst *in = &k->insts[i];
        in->ipdom = WS_PC_EXIT;
        in->is_backedge = 0;
        uint32_t b = block_of[i];
        if (is_block_end(in) && blocks[b].last == i) {
            uint32_t p = blocks[b].ipdom;
            in->ipdom = p == WS_PC_EXIT ? WS_PC_EXIT : blocks[p].first;
        }
        if (in->op == WS_OP_BRA) in->is_backedge = in->target <= i;
        if (in->op == WS_OP_BRX)
            for (uint32_t j = 0; j < in->ntargets; j++)
                if (k->brx_targets[in->target + j] <= i) in->is_backedge = 1;
    }
    ws_uniformity(k);
    ws_exec_fast_forms(k);
    if (ws_reg_compact(k)) return ws_fail(err, "%s: out of memory", file);
    return 0;
}
