#ifndef WARPSWEEP_WORKLOAD_H
#define WARPSWEEP_WORKLOAD_H
/* A workload: a kernel plus how it is launched and what its result must be
 * (sweeps/kernels/NAME.yaml; the format is documented in the README). */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "ptx.h"
#include "exec.h"
#include "tex.h"

typedef enum ws_init_kind {
    WS_INIT_CONST,     /* every element = value[0]                */
    WS_INIT_IOTA,      /* start + i * step                        */
    WS_INIT_LIST,      /* explicit values (rest zero)             */
    WS_INIT_RANDOM,    /* uniform in [min, max], seeded by the run */
    WS_INIT_FILE,      /* the elements of a file (raw, .npy, a CSR part of .mtx / edges) */
} ws_init_kind;

struct ws_file_data;   /* src/workload/wl_file.h */

/* A value spec: used for buffer initialisers and for expectations. */
typedef struct ws_values {
    ws_init_kind kind;
    double start, step;        /* IOTA (also CONST: start) */
    double min, max;           /* RANDOM */
    double *list;              /* LIST (as doubles; integers exact to 2^53);
                                  CONST from a file: also list[0]/ilist[0], nlist = 1 */
    int64_t *ilist;            /* LIST as integers (for 64-bit exactness) */
    uint32_t nlist;
    struct ws_file_data *file; /* FILE: read-only, shared by every run */
    uint32_t ulp;              /* FILE expect on floats: tolerance in units in the last place */
    double rel;                /*   or relative and absolute, as numpy.allclose: */
    double abs;                /*   |got - want| <= abs + rel * |want| (both 0: exact) */
} ws_values;

typedef struct ws_buffer_spec {
    char *name;
    uint8_t type;              /* ws_type */
    uint64_t count;
    ws_values init;
    int line, col;             /* position in the workload file */
} ws_buffer_spec;

/* A texture or surface object (`textures:` / `surfaces:` in the README): its descriptor,
 * region unset (a run's memory image binds it to the buffer). */
typedef struct ws_tex_spec {
    char *name;
    ws_texobj desc;
    int line, col;
} ws_tex_spec;

typedef enum ws_expect_kind { WS_EXPECT_VALUES, WS_EXPECT_REFERENCE } ws_expect_kind;

typedef struct ws_expect {
    uint32_t buffer;           /* index into buffers */
    ws_expect_kind kind;
    ws_values values;          /* VALUES: CONST / IOTA / LIST (prefix) */
    int line, col;
} ws_expect;

typedef struct ws_arg {        /* one .param value */
    int is_buffer;
    uint32_t buffer;           /* is_buffer: its address is passed */
    int is_tex;                /* a texture or surface object: WS_TEXOBJ_HANDLE(tex) is passed */
    uint32_t tex;              /* index into wl->texs */
    double value;              /* scalar, converted to the .param's type */
    int64_t ivalue;
    int line, col;
} ws_arg;

/* One launch of the workload's sequence: a kernel with its grid, block and
 * .param values. A one-launch workload (top-level entry/grid/block/params)
 * has exactly one. */
typedef struct ws_launch_spec {
    char *name;                /* `name:`, else the entry name */
    const ws_kernel *kernel;   /* one of wl->kernels */
    uint32_t grid[3], block[3];
    uint32_t regs_per_thread;  /* from the file, else ptxas -v, else the kernel's estimate */
    uint8_t regs_source;       /* ws_regs_source (ptxas.h) */
    char regs_detail[320];
    uint32_t dyn_shared_bytes;
    ws_arg *args;
    uint32_t nargs;
    int line, col;             /* the statement in the workload file */
} ws_launch_spec;

/* The sequence, decoded once into a flat statement list (`launches:` in the
 * README). A loop is LOOP ... END: LOOP jumps past its END when it runs no
 * iteration; END jumps back to the statement after its LOOP until the loop
 * is over. Running it allocates nothing (src/workload/sequence.c). */
typedef enum ws_seq_op {
    WS_SEQ_LAUNCH,             /* launches[launch] */
    WS_SEQ_SET,                /* every element of buffer = bits */
    WS_SEQ_LOOP,               /* a loop's head: count iterations at most (repeat: N, or until's max) */
    WS_SEQ_END,                /* a loop's end: with until, done when every element of buffer == bits */
} ws_seq_op;

#define WS_SEQ_MAX_DEPTH 16    /* loops nested in loops */

typedef struct ws_seq_stmt {
    uint8_t op;                /* ws_seq_op */
    uint8_t depth;             /* LOOP/END: the loop's nesting level (0: outermost) */
    uint8_t until;             /* END: the loop has an until condition */
    uint32_t launch;           /* LAUNCH */
    uint32_t buffer;           /* SET, END with until */
    uint64_t bits;             /* SET, END with until: the value in the buffer's type */
    uint32_t jump;             /* LOOP: index of its END; END: index of its LOOP */
    uint64_t count;            /* LOOP: repeat N / until's max */
    int line, col;
} ws_seq_stmt;

/* A workload variable (`vars:`): its name and value. */
#define WS_MAX_WL_VARS 16
typedef struct ws_wl_var {
    char name[32];
    double value;
} ws_wl_var;

typedef struct ws_workload {
    char *path;                /* the .yaml file */
    uint64_t digest;           /* ws_xxh64 of its text (ws_workload_inputs) */
    char *name;
    /* The first launch (the only one of a one-launch workload): kernel ...
     * args mirror launches[0], for code that looks at one launch (inspect,
     * expand's variables); the sequence's runs read launches[]. */
    const ws_kernel *kernel;
    uint32_t grid[3], block[3];
    uint32_t regs_per_thread;  /* from the file, else ptxas -v, else the kernel's estimate */
    uint8_t regs_source;       /* ws_regs_source (ptxas.h): where regs_per_thread came from */
    char regs_detail[320];     /* ptxas: the target counted for (and a fallback); estimate: why */
    uint32_t dyn_shared_bytes;
    ws_buffer_spec *buffers;
    uint32_t nbuffers;
    ws_arg *args;
    uint32_t nargs;
    ws_tex_spec *texs;         /* textures, then surfaces, in file order */
    uint32_t ntexs;
    ws_expect *expects;
    uint32_t nexpects;
    int needs_reference;       /* some expect is `reference` */
    ws_launch_spec *launches;  /* every launch statement, in file order */
    uint32_t nlaunches;
    ws_seq_stmt *stmts;        /* the sequence (one LAUNCH for a one-launch workload) */
    uint32_t nstmts;
    ws_kernel **kernels;       /* owned: each distinct (PTX file, entry) once */
    uint32_t nkernels;
    const ws_kernel *data_kernel;   /* the kernel whose module data (.global/.const) the image holds, or NULL */
    /* work: the unit of work the workload declares (NULL: none; the work metrics
     * then count the reference run's thread instructions): each launch does
     * work_per_launch + work_per_thread x its threads units. */
    char *work_name;
    double work_per_launch, work_per_thread;
    /* vars: the file's variables with the values this load used (defaults,
     * then the overrides given to ws_workload_load_vars) */
    ws_wl_var vars[WS_MAX_WL_VARS];
    int nvars;
} ws_workload;

ws_workload *ws_workload_load(const char *path, ws_error *err);
/* The same with the variables of `vars:` overridden (each name must be one of
 * the file's variables): every "=EXPR" value of the file is computed from
 * them (README "Workload variables"). */
ws_workload *ws_workload_load_vars(const char *path, const ws_wl_var *overrides, int noverrides, ws_error *err);
/* "=EXPR" of workload variables: 0 and *out, or -1 with a message and the
 * byte offset in text where it went wrong (wl_expr.c). */
int ws_wl_expr_eval(const char *text, const ws_wl_var *vars, int nvars, double *out, int *err_off, char *err,
                    size_t errlen);
void ws_workload_free(ws_workload *wl);
/* The name of a workload file without `name:`: its file name without .yaml/.yml
 * ("kernels/vecadd.yaml" -> "vecadd"); malloc'd, NULL without memory. */
char *ws_workload_default_name(const char *path);

static inline uint32_t ws_launch_threads_per_cta(const ws_launch_spec *l)
{
    return l->block[0] * l->block[1] * l->block[2];
}
static inline uint64_t ws_launch_ctas(const ws_launch_spec *l)
{
    return (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
}
/* A workload built in code with only the top-level fields (no launches):
 * its one launch. */
static inline void ws_launch_of_top(const ws_workload *wl, ws_launch_spec *L)
{
    *L = (ws_launch_spec){.name = wl->kernel ? wl->kernel->name : NULL, .kernel = wl->kernel,
                          .regs_per_thread = wl->regs_per_thread, .regs_source = wl->regs_source,
                          .dyn_shared_bytes = wl->dyn_shared_bytes, .args = wl->args, .nargs = wl->nargs};
    for (int i = 0; i < 3; i++) {
        L->grid[i] = wl->grid[i];
        L->block[i] = wl->block[i];
    }
}
static inline uint32_t ws_workload_threads_per_cta(const ws_workload *wl)
{
    return wl->block[0] * wl->block[1] * wl->block[2];
}
static inline uint64_t ws_workload_ctas(const ws_workload *wl)
{
    return (uint64_t)wl->grid[0] * wl->grid[1] * wl->grid[2];
}

/* Functional memory of one run: allocates the buffers (in order, from
 * WS_GLOBAL_BASE with guard gaps) and the data segment of wl->data_kernel,
 * fills them from their initialisers with `seed`, and writes the .param
 * buffer of every launch (ws_memimage_params).
 * ws_memimage_free releases everything. */
typedef struct ws_memimage {
    ws_gmem gmem;              /* regions sorted by address: the kernel's data
                                  segment variables (WS_DATA_BASE) first, then
                                  the buffers (WS_GLOBAL_BASE ...) in file order */
    uint8_t *param_buf;        /* every launch's .param buffer, one after the other */
    uint32_t param_bytes;      /* launches[0]'s */
    uint32_t *param_off;       /* per launch: its offset in param_buf (nlaunches + 1 entries) */
    uint32_t first_buffer;     /* index in gmem.regions of buffer 0 */
    ws_texobj *texobjs;        /* wl->texs bound to this image's buffers (gmem.tex) */
    struct ws_mapping { void *base; size_t len; } *maps;   /* per buffer: its private
                                  mapping of a file init (base NULL: data is heap) */
} ws_memimage;

int ws_memimage_init(ws_memimage *m, const ws_workload *wl, uint64_t seed, ws_error *err);
/* The .param buffer of launch i (its kernel's param_bytes long). */
static inline uint8_t *ws_memimage_params(const ws_memimage *m, uint32_t i)
{
    return m->param_buf + (m->param_off ? m->param_off[i] : 0);
}
void ws_memimage_free(ws_memimage *m);
/* Region of buffer i (buffers follow the data segment, in file order). */
static inline ws_region *ws_memimage_buffer(ws_memimage *m, uint32_t i)
{
    return &m->gmem.regions[m->first_buffer + i];
}

/* Checks the expectations. reference may be NULL when no expect needs it.
 * Returns 0 if all hold, else -1 with the first failure described in msg
 * (buffer, index, got, expected). */
int ws_expect_check(const ws_workload *wl, ws_memimage *m, ws_memimage *reference,
                    char *msg, size_t len);

/* The sequence driver (src/workload/sequence.c): walks wl->stmts on mem,
 * doing the `set`s and evaluating the loops' conditions on mem itself, and
 * calls launch(ctx, ...) for each launch statement in turn: stmt is its
 * index in wl->stmts, iteration the iteration of its innermost loop (0
 * outside loops). A nonzero return from launch stops the sequence and is
 * returned; 0 when the sequence ran to its end. Allocates nothing. */
typedef int (*ws_seq_launch_fn)(void *ctx, const ws_launch_spec *l, uint32_t launch, uint32_t stmt,
                                uint64_t iteration);
int ws_sequence_run(const ws_workload *wl, ws_memimage *mem, ws_seq_launch_fn launch, void *ctx);
/* Launch statements a sequence runs when every until loop runs to its max
 * (saturated at UINT64_MAX): an upper bound for sizing. */
uint64_t ws_sequence_max_launches(const ws_workload *wl);

/* Prints buffer i's values, comma separated, to out. */
void ws_buffer_dump(const ws_workload *wl, ws_memimage *m, uint32_t i, FILE *out);
/* Writes buffer i to path: a .npy file (NumPy format 1.0, the buffer's dtype
 * such as '<f4', shape (count,)) when path ends in .npy, else its elements'
 * raw little-endian bytes. 0, or -1 with err set (one line naming the file). */
int ws_buffer_save(const ws_workload *wl, ws_memimage *m, uint32_t i, const char *path, ws_error *err);

#endif
