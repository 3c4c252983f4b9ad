/* warpsweep inspect: the decoded kernel, its basic blocks and each branch's
 * reconvergence point (immediate post-dominator). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "cli.h"
#include "warpsweep/ptxas.h"
#include "warpsweep/ptx.h"
#include "warpsweep/workload.h"
#include "warpsweep/passes.h"
#include "warpsweep/params.h"
#include "sim/div/divergence.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: warpsweep inspect WORKLOAD.yaml|KERNEL.ptx [--entry NAME] [--divergence SCHEME]\n"
                 "                         [--set inst_order=ptxas|ptx] [--set lowering=ptxas|none] [--set barrier_regs=N]\n"
                 "                         [--set barrier_yield=spin|all]\n");
}

/* where each source line starts, built once: looking lines up by scanning
 * from the top made inspect quadratic (500k instructions: hours) */
typedef struct srcidx {
    const char **line;
    uint32_t n;
} srcidx;

static void srcidx_build(srcidx *x, const char *text)
{
    x->line = NULL;
    x->n = 0;
    if (!text) return;
    size_t n = 1;
    for (const char *s = text; *s; s++) n += *s == '\n';
    if (n > UINT32_MAX || !(x->line = malloc(n * sizeof *x->line))) return;
    x->line[x->n++] = text;
    for (const char *s = text; *s; s++)
        if (*s == '\n') x->line[x->n++] = s + 1;
}

/* text of source line `line` (1-based) */
static const char *line_text(const srcidx *x, uint32_t line, size_t *len)
{
    if (!line || line > x->n) { *len = 0; return ""; }
    const char *s = x->line[line - 1];
    const char *e = strchr(s, '\n');
    *len = e ? (size_t)(e - s) : strlen(s);
    return s;
}

/* the label naming instruction i in the source, if any: a "NAME:" on the
 * lines between the previous instruction and this one */
static int label_of(const ws_kernel *k, const srcidx *x, uint32_t i, char *buf, size_t n)
{
    buf[0] = 0;
    if (i >= k->ninsts) return 0;
    uint32_t from = i > 0 ? k->insts[i - 1].line + 1 : 1, to = k->insts[i].line;
    if (i > 0 && k->insts[i - 1].line == to) return 0;
    for (uint32_t l = to; l >= from && l > 0; l--) {
        size_t len;
        const char *s = line_text(x, l, &len);
        const char *e = s + len;
        while (s < e && isspace((unsigned char)*s)) s++;
        /* another instruction (or a call's closing ");"): the label is not this one's (after
         * inlining, the previous instruction may come from a callee elsewhere in the file) */
        const char *z = e;
        while (z > s && isspace((unsigned char)z[-1])) z--;
        if (l < to && z > s && z[-1] == ';' && *s != '.') break;
        const char *id = s;
        while (s < e && (isalnum((unsigned char)*s) || *s == '_' || *s == '$')) s++;
        if (s > id && s < e && *s == ':') {
            const char *r = s + 1;
            while (r < e && isspace((unsigned char)*r)) r++;
            if (e - r >= 14 && !memcmp(r, ".branchtargets", 14)) continue;
            snprintf(buf, n, "%.*s", (int)(s - id), id);
            return 1;
        }
    }
    return 0;
}

static void describe_pc(const ws_kernel *k, const srcidx *x, uint32_t pc, char *buf, size_t n)
{
    if (pc == WS_PC_EXIT || pc >= k->ninsts) { snprintf(buf, n, "exit"); return; }
    char lab[128];
    if (label_of(k, x, pc, lab, sizeof lab)) snprintf(buf, n, "%u (%s, line %u)", pc, lab, k->insts[pc].line);
    else snprintf(buf, n, "%u (line %u)", pc, k->insts[pc].line);
}

static const char *const space_names[] = {"", "generic", "global", "shared", "local", "const", "param"};

/* ptx_pos[i] = the index instruction i of k has in lk, the same kernel in PTX
 * order (same blocks: the scheduling pass only permutes within a block): the
 * n-th instruction of a block with a given line, column and opcode is the n-th
 * such one of lk's block. NULL when the layouts differ or on allocation failure. */
typedef struct poskey {
    uint32_t block, line, col, op, index;
} poskey;

static int poskey_cmp(const void *pa, const void *pb)
{
    const poskey *a = pa, *b = pb;
    if (a->block != b->block) return a->block < b->block ? -1 : 1;
    if (a->line != b->line) return a->line < b->line ? -1 : 1;
    if (a->col != b->col) return a->col < b->col ? -1 : 1;
    if (a->op != b->op) return a->op < b->op ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static poskey *sorted_keys(const ws_kernel *k)
{
    poskey *v = malloc(k->ninsts * sizeof *v);
    if (!v) return NULL;
    for (uint32_t i = 0; i < k->ninsts; i++)
        v[i] = (poskey){ k->block_of[i], k->insts[i].line, k->insts[i].col, k->insts[i].op, i };
    qsort(v, k->ninsts, sizeof *v, poskey_cmp);
    return v;
}

static uint32_t *ptx_positions(const ws_kernel *k, const ws_kernel *lk)
{
    if (k == lk || !k->blocks || !lk->blocks || !k->ninsts || k->ninsts != lk->ninsts || k->nblocks != lk->nblocks)
        return NULL;
    poskey *a = sorted_keys(k), *b = sorted_keys(lk);
    uint32_t *pos = malloc(k->ninsts * sizeof *pos);
    if (a && b && pos)
        for (uint32_t i = 0; i < k->ninsts; i++) {
            if (a[i].block != b[i].block || a[i].line != b[i].line || a[i].col != b[i].col || a[i].op != b[i].op) {
                free(pos);   /* not the same instructions */
                pos = NULL;
                break;
            }
            pos[a[i].index] = b[i].index;
        }
    else {
        free(pos);
        pos = NULL;
    }
    free(a);
    free(b);
    return pos;
}

/* k: the kernel shown; lk: the same kernel in PTX order with k's layout (k
 * itself when k is in PTX order), for labels and the moved marks. */
/* The lowering's note for instruction i (lowering=ptxas; docs/model.md "Lowering"): what its SASS
 * takes when that is not one instruction. */
static void print_lowered(const ws_lowered *low, uint32_t i, FILE *out)
{
    if (!low) return;
    if (low[i].ifconv) fprintf(out, "    // if-converted: the body's %u SASS issue when the warp jumps", low[i].ifconv);
    else if (!low[i].slots) fprintf(out, "    // folded: no SASS");
    else if (low[i].slots > 1) fprintf(out, "    // %u SASS", low[i].slots);
    if (low[i].xu) fprintf(out, "    // on the XU");
}

static void print_kernel(const ws_kernel *k, const ws_kernel *lk, const ws_lowered *low, FILE *out)
{
    srcidx x;
    srcidx_build(&x, k->source);
    uint32_t *pos = ptx_positions(k, lk);
    if (!pos) lk = k;
    fprintf(out, "kernel %s (%s)\n", k->name, k->path);
    fprintf(out, "  %u instructions, %u registers (estimate %u regs/thread), %u params (%u bytes), "
                 "shared %u bytes, local %u bytes/thread, data %llu bytes\n",
            k->ninsts, k->nregs, k->est_regs_per_thread, k->nparams, k->param_bytes, k->shared_bytes,
            k->local_bytes, (unsigned long long)k->data_bytes);
    fprintf(out, "  register file: %u rows per lane after compaction (%u registers declared)\n", k->nslots, k->nregs);
    for (uint32_t i = 0; i < k->nparams; i++)
        fprintf(out, "  param %-40s .%s size %u align %u offset %u\n", k->params[i].name,
                ws_type_name((ws_type)k->params[i].type), k->params[i].size, k->params[i].align, k->params[i].offset);
    for (uint32_t i = 0; i < k->nvars; i++) {
        const ws_var *v = &k->vars[i];
        fprintf(out, "  var   %-40s .%s .%s size %llu align %u offset %llu%s\n", v->name,
                v->space < 7 ? space_names[v->space] : "?", ws_type_name((ws_type)v->type),
                (unsigned long long)v->size, v->align, (unsigned long long)v->offset,
                v->space == 3 && v->size == 0 ? " (dynamic)" : "");
    }
    if (k->reqntid[0]) fprintf(out, "  .reqntid %u, %u, %u\n", k->reqntid[0], k->reqntid[1], k->reqntid[2]);
    if (k->maxntid[0]) fprintf(out, "  .maxntid %u, %u, %u\n", k->maxntid[0], k->maxntid[1], k->maxntid[2]);

    char dis[512], where[192];
    uint32_t nb = k->blocks ? k->nblocks : 1;
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t first = 0, last = k->ninsts ? k->ninsts - 1 : 0;
        if (k->blocks) {
            const ws_block *bl = &k->blocks[b];
            first = bl->first;
            last = bl->last;
            fprintf(out, "\nblock B%u [%u..%u] succ:", b, first, last);
            if (!bl->nsucc) fprintf(out, " exit");
            for (uint32_t s = 0; s < bl->nsucc; s++) {
                if (bl->succ[s] == WS_PC_EXIT) fprintf(out, " exit");
                else fprintf(out, " B%u", bl->succ[s]);
            }
            if (bl->ipdom == WS_PC_EXIT) fprintf(out, "  ipdom: exit\n");
            else fprintf(out, "  ipdom: B%u\n", bl->ipdom);
        } else {
            fprintf(out, "\n(no CFG)\n");
        }
        for (uint32_t i = first; i <= last && i < k->ninsts; i++) {
            const ws_inst *in = &k->insts[i];
            char lab[128];
            if (label_of(lk, &x, i, lab, sizeof lab)) fprintf(out, "%s:\n", lab);
            ws_inst_format(k, in, dis, sizeof dis);
            fprintf(out, "  %5u  line %-5u %-4s  %s", i, in->line, ws_unit_name(in->unit), dis);
            if (in->op == WS_OP_BRA || in->op == WS_OP_BRX) {
                describe_pc(lk, &x, in->ipdom, where, sizeof where);
                fprintf(out, "    // reconverge: %s%s%s", where, in->is_backedge ? ", back edge" : "",
                        in->cta_uniform ? ", uniform (CTA)" : in->uniform ? ", uniform" : "");
            }
            if (pos && pos[i] != i) fprintf(out, "    // moved %s from %u", pos[i] > i ? "up" : "down", pos[i]);
            print_lowered(low, i, out);
            fputc('\n', out);
        }
    }
    free(pos);
    free(x.line);
}

int cmd_inspect(int argc, char **argv)
{
    const char *file = NULL, *entry = NULL;
    int barrier = 0;
    ws_config cfg;
    uint8_t given[WS_NPARAMS] = {0};
    ws_wl_var wvars[WS_MAX_WL_VARS];
    int nwvars = 0;
    ws_config_defaults(&cfg);
    ws_error err = {{0}};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--entry") && i + 1 < argc) {
            entry = argv[++i];
        } else if (!strcmp(argv[i], "--divergence") && i + 1 < argc) {
            char set[80];
            snprintf(set, sizeof set, "divergence=%s", argv[++i]);
            if (ws_config_assign(&cfg, given, set, &err)) {
                fprintf(stderr, "warpsweep inspect: --divergence: %s\n", err.msg);
                return WS_EXIT_USAGE;
            }
        } else if (!strcmp(argv[i], "--set") && i + 1 < argc) {
            int wv = cli_wl_var_set("inspect", argv[++i], wvars, &nwvars);
            if (wv < 0) return WS_EXIT_USAGE;
            if (wv == 0) continue;
            if (ws_config_assign(&cfg, given, argv[i], &err)) {
                fprintf(stderr, "%s\n", err.msg);
                return WS_EXIT_USAGE;
            }
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return WS_EXIT_OK;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "warpsweep inspect: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return WS_EXIT_USAGE;
        } else if (!file) {
            file = argv[i];
        } else {
            fprintf(stderr, "warpsweep inspect: more than one file ('%s')\n", argv[i]);
            return WS_EXIT_USAGE;
        }
    }
    if (!file) {
        usage(stderr);
        return WS_EXIT_USAGE;
    }
    ws_config_apply_preset(&cfg, given);
    const ws_div_ops *div = ws_div_scheme(ws_cfg_i(&cfg, WS_P_divergence));
    barrier = div && div->barrier_pass;
    size_t n = strlen(file);
    int is_yaml = (n > 5 && !strcmp(file + n - 5, ".yaml")) || (n > 4 && !strcmp(file + n - 4, ".yml"));
    ws_workload *wl = NULL;
    ws_kernel *owned = NULL;
    const ws_kernel *k;
    if (is_yaml) {
        if (entry) {
            fprintf(stderr, "warpsweep inspect: --entry applies to .ptx files (a workload names its entry)\n");
            return WS_EXIT_USAGE;
        }
        wl = ws_workload_load_vars(file, wvars, nwvars, &err);
        if (!wl) { fprintf(stderr, "%s\n", err.msg); return WS_EXIT_FAIL; }
        k = wl->kernel;
    } else {
        owned = ws_ptx_load(file, entry, &err);
        if (!owned) { fprintf(stderr, "%s\n", err.msg); return WS_EXIT_FAIL; }
        k = owned;
    }
    /* the order the core runs (setup() in src/sim/core.c): scheduled, then
     * the barrier pass; lk is the same in PTX order, for labels and marks */
    int scheduled = ws_cfg_i(&cfg, WS_P_inst_order) == 0;
    unsigned budget = wl && wl->regs_per_thread ? wl->regs_per_thread : k->est_regs_per_thread;
    ws_kernel *sk = NULL, *bk = NULL, *blk = NULL;
    const ws_kernel *lk = k;
    int rc = WS_EXIT_OK;
    if (scheduled) {
        if (!(sk = ws_list_schedule(k, budget, &err))) goto fail;
        k = sk;
    }
    if (barrier) {
        unsigned nbar = (unsigned)ws_cfg_i(&cfg, WS_P_barrier_regs);
        int yield = (int)ws_cfg_i(&cfg, WS_P_barrier_yield);
        if (!(bk = ws_barrier_transform(k, nbar, yield, &err))) goto fail;
        if (scheduled && !(blk = ws_barrier_transform(lk, nbar, yield, &err))) goto fail;
        if (div->sink_release && (ws_barrier_sink_release(bk, &err) || (blk && ws_barrier_sink_release(blk, &err))))
            goto fail;
        k = bk;
        lk = scheduled ? blk : bk;
    } else if (!scheduled) {
        lk = k;
    }
    if (wl) {
        printf("workload %s (%s): grid [%u, %u, %u] block [%u, %u, %u]\n", wl->name, wl->path, wl->grid[0],
               wl->grid[1], wl->grid[2], wl->block[0], wl->block[1], wl->block[2]);
        /* e.g. "40 (workload)", "36 (ptxas --gpu-name sm_75)", "12 (estimate: no ptxas found)" */
        printf("regs_per_thread: %u (%s%s%s)\n", wl->regs_per_thread, ws_regs_source_name(wl->regs_source),
               !wl->regs_detail[0] ? "" : wl->regs_source == WS_REGS_ESTIMATE ? ": " : " ", wl->regs_detail);
        if (wl->nstmts > 1) {   /* a sequence: its launches; the kernel below is the first one's */
            printf("launch sequence: %u statements, %u launch statements (the kernel shown: the first launch's)\n",
                   wl->nstmts, wl->nlaunches);
            for (uint32_t i = 0; i < wl->nlaunches; i++) {
                const ws_launch_spec *l = &wl->launches[i];
                printf("  launch %u %s (line %d): %s, grid [%u, %u, %u] block [%u, %u, %u], regs_per_thread %u (%s)\n",
                       i, l->name, l->line, l->kernel->name, l->grid[0], l->grid[1], l->grid[2], l->block[0],
                       l->block[1], l->block[2], l->regs_per_thread, ws_regs_source_name(l->regs_source));
            }
        }
    }
    if (scheduled)
        printf("order: ptxas (each basic block list-scheduled, register budget %u; \"moved\" gives an "
               "instruction's index in PTX order)\n", budget);
    else
        printf("order: ptx (as in the PTX file)\n");
    if (div) printf("divergence: %s%s; at a divergent branch: %s\n", div->name,
                    barrier ? " (convergence-barrier instructions inserted)" : " (nothing inserted)", div->at_branch);
    ws_lowered *low = NULL;
    if (ws_cfg_i(&cfg, WS_P_lowering) == 0 && (low = malloc(sizeof *low * (k->ninsts ? k->ninsts : 1)))) {
        if (ws_lower_kernel(k, low) < 0) { free(low); low = NULL; }
        else printf("lowering: ptxas (SASS instructions per PTX instruction noted where not one; docs/model.md \"Lowering\")\n");
    }
    print_kernel(k, lk, low, stdout);
    free(low);
    goto done;
fail:
    fprintf(stderr, "%s\n", err.msg);
    rc = WS_EXIT_FAIL;
done:
    ws_kernel_free(blk);
    ws_kernel_free(bk);
    ws_kernel_free(sk);
    ws_kernel_free(owned);
    if (wl) ws_workload_free(wl);
    return rc;
}
