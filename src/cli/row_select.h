#ifndef WS_ROW_SELECT_H
#define WS_ROW_SELECT_H
/* Conditioning a results file on scenario axes, for `info --best` and
 * `pareto`: --where 'mem_latency=200,scheduler=gto' keeps the rows with
 * those values; --by AXIS,... splits the rows into one group per value of
 * those parameters, and always per workload (a front of one kernel's points
 * says nothing about another's), so that a ranking or a front never mixes
 * scenarios. Axes that change the question but are not split on (preset,
 * area.node_nm) are warned about when they vary inside a group. */
#include "warpsweep/store.h"
#include "warpsweep/sweep.h"

#define ROW_WHERE_MAX 32
#define ROW_GROUPS_MAX 4096
#define ROW_BY_MAX 8
#define ROW_WORKLOADS_MAX 1024
#define ROW_SEEN_MAX 32        /* distinct values kept per axis for messages */

/* The workloads of a file: the stored string (the path as the sweep wrote
 * it) and the workload's name, as a sweep's `exclude` knows it: the `name:`
 * of the workload file when it can be read at that path from here, else the
 * file name without .yaml (which is what a workload without `name:` is
 * called). */
typedef struct row_workloads {
    int n;
    char *path[ROW_WORKLOADS_MAX];
    char *name[ROW_WORKLOADS_MAX];
} row_workloads;

/* The id of a workload string, added when new; -1 when there are too many. */
int row_workload_id(row_workloads *w, const char *path);
/* What to call workload id in headings: its name, or its path when another
 * workload of the file has the same name. */
const char *row_workload_label(const row_workloads *w, int id);
void row_workloads_free(row_workloads *w);

/* Distinct values of one axis seen in the file (for "could match" lists). */
typedef struct row_seen {
    int n, more;                      /* more: values beyond ROW_SEEN_MAX */
    ws_value v[ROW_SEEN_MAX];
} row_seen;

typedef struct row_where {
    int n;
    int param[ROW_WHERE_MAX];        /* parameter id, or -1: the workload */
    ws_value value[ROW_WHERE_MAX];
    char workload[ROW_WHERE_MAX][256];
    row_workloads *wls;              /* the file's workloads (set by the caller) */
    uint64_t hits[ROW_WHERE_MAX];    /* rows matching condition k on its own */
    uint64_t matched;                /* rows matching them all */
    row_seen seen[ROW_WHERE_MAX];    /* the values of condition k's axis in the file */
} row_where;

/* Parses "name=value,name=value"; on a bad name or value prints one line
 * prefixed with cmd and returns -1. */
int row_where_parse(const char *spec, row_where *w, const char *cmd);
/* 1 when the row (of workload id wl) matches; counts what matched. A
 * workload condition matches the stored path or the workload's name. */
int row_where_match(row_where *w, const ws_row *row, int wl);
/* After the rows are read: when no row matched, prints one line saying so
 * and listing the values the condition could match, and returns 1. */
int row_where_report_empty(const row_where *w, const char *file, const char *cmd);
/* The --where condition as text for headings ("mem_latency=200, scheduler=gto"). */
void row_where_format(const row_where *w, char *buf, size_t len);

/* --by: the distinct value tuples of the workload and the --by axes, in the
 * order a reader expects (workloads by name, numbers ascending, choices in
 * registry order). */
typedef struct row_groups {
    int naxes;
    int axis[ROW_BY_MAX];             /* parameter id, or -1: the workload (an id of wls) */
    row_workloads *wls;               /* set by the caller */
    int n;
    ws_value key[ROW_GROUPS_MAX][ROW_BY_MAX];
    /* axes that change the question (preset, area.node_nm) when not split on */
    int nq;
    int q[ROW_BY_MAX];
    ws_value qfirst[ROW_GROUPS_MAX][ROW_BY_MAX];
    uint8_t qmixed[ROW_BY_MAX];       /* varies inside some group */
    row_seen qseen[ROW_BY_MAX];
} row_groups;

/* Resolves the --by axes ("a,b"; NULL: the workload only; the workload is
 * put first when not named). Prints one line and returns -1 for an unknown
 * name. */
int row_groups_init(row_groups *g, const char *by, row_workloads *wls, const char *cmd);
/* 1 when parameter p is one of the --by axes (shown in each heading). */
int row_groups_has(const row_groups *g, int p);
/* The group of a row, added when new; -1 when there are more than
 * ROW_GROUPS_MAX values. */
int row_groups_add(row_groups *g, const ws_row *row, int wl);
/* Sorts the groups; fills map[old index] = new index. */
void row_groups_sort(row_groups *g, int *map);
/* "workload=vecadd, mem_latency=200" for group i; the workload is left out
 * when the groups hold one workload only ("" when nothing is left). */
void row_groups_label(const row_groups *g, int i, char *buf, size_t len);
/* One line on stderr when an axis that changes the question varies inside
 * a group: what (a "front", a "ranking") then mixes incomparable rows. */
void row_groups_warn(const row_groups *g, const char *cmd, const char *what);
/* The workload's label when every group holds the same one, else NULL. */
const char *row_groups_one_workload(const row_groups *g);

/* ---- what is shown next to a result ---- */

/* The parameters worth showing: those on an axis of the file's sweep (its
 * stored text read back) that take more than one value among the rows
 * (var), and seed when it varies. A preset on an axis varies the ~20
 * parameters it sets: they are not shown (--columns names them). When the
 * stored sweep cannot be read back, every parameter that varies. */
void row_axes_shown(const char *file, const char *sweep_name, const ws_varying *var, uint8_t *show);

/* --columns a,b,c: parameters or metrics to show as well. */
#define ROW_COLUMNS_MAX 64
typedef struct row_columns {
    int n;
    int param[ROW_COLUMNS_MAX];      /* a parameter id, or -1 */
    int metric[ROW_COLUMNS_MAX];     /* a metric index, or -1 */
} row_columns;
/* Prints one line prefixed with cmd and returns -1 on an unknown name. */
int row_columns_parse(const char *spec, row_columns *c, const char *cmd);
const char *row_column_name(const row_columns *c, int k);
/* column k of row as text */
void row_column_format(const row_columns *c, int k, const ws_row *row, char *buf, size_t len);
#endif
