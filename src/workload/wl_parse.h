/* Workload YAML internals shared by workload.c, wl_tex.c (textures and surfaces) and wl_seq.c
 * (launch sequences): the parser state, node helpers and limits. Not a public header. */
#ifndef WS_WL_PARSE_H
#define WS_WL_PARSE_H
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>
#include "warpsweep/ptx.h"
#include "warpsweep/ptxas.h"
#include "warpsweep/workload.h"
#include "wl_types.h"
#include "wl_file.h"
#include "warpsweep/strutil.h"
#include "warpsweep/digest.h"


#define MAX_BLOCK_THREADS 1024u
/* All buffers of a workload together: every run holds them in memory (and a
 * reference run a second copy), so a typo such as count: 10000000000 is an
 * error at load, not an out-of-memory kill in the middle of a sweep. */
#define MAX_BUFFER_BYTES (1ull << 32)

typedef struct parser {
    const char *path;
    yaml_document_t doc;
    ws_error *err;
    ws_workload *wl;
    wl_csr *csrs[16];          /* matrices read for CSR parts, each read once per load */
    int ncsrs;
    yaml_node_t *top_kernel;   /* top-level kernel: the launches' default PTX file */
    struct kkey { char *path, *entry; } *kkeys;   /* per wl->kernels[i]: what loaded it */
    uint32_t nkeys;
    uint32_t nstmts, capstmts;
} parser;

static inline yaml_node_t *node(parser *p, int i) { return yaml_document_get_node(&p->doc, i); }

static inline const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* ---- numbers ---- */

typedef struct num {
    int is_int;         /* an integer literal (or an integral float) */
    int big;            /* integral but beyond 64 bits (e.g. 99999999999999999999999) */
    int neg;
    uint64_t mag;       /* is_int: |value| */
    double d;
} num;

enum { T_BUFFER, T_TYPE, T_CHANNELS, T_WIDTH, T_HEIGHT, T_DEPTH, T_PITCH, T_NORMCOORDS, T_ADDRESS, T_FILTER, T_READ, T_N };

enum { K_NAME, K_KERNEL, K_ENTRY, K_GRID, K_BLOCK, K_REGS, K_SHARED, K_BUFFERS, K_PARAMS, K_EXPECT, K_LAUNCHES,
       K_TEXTURES, K_SURFACES, K_WORK, K_VARS, K_N };

/* The YAML nodes of one launch: the top-level keys of a one-launch
 * workload, or one launch statement of `launches:`. */
typedef struct launch_nodes {
    yaml_node_t *name, *kernel, *entry, *grid, *block, *regs, *shared, *params;
    yaml_node_t *at;           /* the statement (or the root): where "missing key" points */
} launch_nodes;

/* No workload field nests deeper than this (the deepest, a sequence of
 * loops WS_SEQ_MAX_DEPTH deep, takes three YAML levels per loop); a deeper
 * document is refused by the field's own check, so substitution need not
 * (and, on hostile input 20000 levels deep, must not) recurse further. */
#define WS_WL_SUBST_DEPTH (4 * WS_SEQ_MAX_DEPTH + 16)

/* Shared functions; their symbols carry a ws_wp_ prefix. */
#define fail_node ws_wp_fail_node
#define kind_name ws_wp_kind_name
#define collect ws_wp_collect
#define parse_num ws_wp_parse_num
#define num_to_type ws_wp_num_to_type
#define get_uint ws_wp_get_uint
#define find_buffer ws_wp_find_buffer
#define suggest_buffer ws_wp_suggest_buffer
#define wl_tex_kind ws_wp_wl_tex_kind
#define find_tex ws_wp_find_tex
#define parse_texs ws_wp_parse_texs
#define parse_params ws_wp_parse_params
#define launch_shape ws_wp_launch_shape
#define launch_kernel ws_wp_launch_kernel
#define add_stmt ws_wp_add_stmt
#define parse_stmts ws_wp_parse_stmts
/* workload.c */
int fail_node(parser *p, const yaml_node_t *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *kind_name(const yaml_node_t *n);
int collect(parser *p, yaml_node_t *map, const char *const *keys, int nkeys, const char *where, yaml_node_t **vals, yaml_node_t **knodes);
int parse_num(const char *s, num *out);
int num_to_type(parser *p, const yaml_node_t *n, const num *v, int t, int64_t *ival, double *dval, const char *what);
int get_uint(parser *p, const yaml_node_t *n, const char *key, uint64_t min, uint64_t max, uint64_t *out);
int find_buffer(const ws_workload *wl, const char *name);
const char *suggest_buffer(const ws_workload *wl, const char *name, char *buf, size_t len);
int parse_params(parser *p, yaml_node_t *n, ws_launch_spec *L);
int launch_shape(parser *p, ws_launch_spec *L, const launch_nodes *n);
int launch_kernel(parser *p, ws_launch_spec *L, const launch_nodes *n, int in_seq);
/* wl_seq.c */
ws_seq_stmt *add_stmt(parser *p, yaml_node_t *at, int op);
int parse_stmts(parser *p, yaml_node_t *list, int depth);
/* wl_tex.c */
const char *wl_tex_kind(const ws_workload *wl, uint32_t i);
int find_tex(const ws_workload *wl, const char *name);
int parse_texs(parser *p, yaml_node_t *tex, yaml_node_t *surf);

#endif
