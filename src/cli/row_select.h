#ifndef WS_ROW_SELECT_H
#define WS_ROW_SELECT_H
/* Conditioning a results file on scenario axes, for `info --best` and
 * `pareto`: --where 'mem_latency=200,scheduler=gto' keeps the rows with
 * those values; --by AXIS splits the rows into one group per value of a
 * parameter (or of the workload), so that a ranking or a front never mixes
 * scenarios. */
#include "warpsweep/sweep.h"

#define ROW_WHERE_MAX 32
#define ROW_GROUPS_MAX 4096

typedef struct row_where {
    int n;
    int param[ROW_WHERE_MAX];        /* parameter id, or -1: the workload */
    ws_value value[ROW_WHERE_MAX];
    char workload[ROW_WHERE_MAX][256];
} row_where;

/* Parses "name=value,name=value"; on a bad name or value prints one line
 * prefixed with cmd and returns -1. */
int row_where_parse(const char *spec, row_where *w, const char *cmd);
int row_where_match(const row_where *w, const ws_row *row, const char *workload);
/* The --where condition as text for headings ("mem_latency=200, scheduler=gto"). */
void row_where_format(const row_where *w, char *buf, size_t len);

/* --by: the distinct values of one axis, in the order a reader expects
 * (numbers ascending, choices in registry order, workloads by name). */
typedef struct row_groups {
    int param;                        /* parameter id, or -1: the workload; -2: no --by */
    int n;
    ws_value value[ROW_GROUPS_MAX];
    char *workload[ROW_GROUPS_MAX];
} row_groups;

/* Resolves the --by axis (NULL: one group). Prints one line and returns -1
 * for an unknown name. */
int row_groups_init(row_groups *g, const char *by, const char *cmd);
/* The group of a row, added when new; -1 when there are more than
 * ROW_GROUPS_MAX values. */
int row_groups_add(row_groups *g, const ws_row *row, const char *workload);
/* Sorts the groups; fills map[old index] = new index. */
void row_groups_sort(row_groups *g, int *map);
/* "mem_latency=200" for group i ("" without --by). */
void row_groups_label(const row_groups *g, int i, char *buf, size_t len);
void row_groups_free(row_groups *g);
#endif
