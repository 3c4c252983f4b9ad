/*
 * warpsweep sim WORKLOAD.yaml [--set name=value ...] [--json] [--dump BUFFER[=FILE]]
 *                             [--trace FILE.csv] [--timeline] [--reference [--lockstep | --single-turns]]
 *                             [--cycles FROM:TO] [--warps LIST] [--cores LIST]
 *
 * Runs one launch of the workload on the cycle-level core (ws_sim_run) or,
 * with --reference, as the MIMD reference execution (ws_reference_run; the
 * parameters it uses: seed, warp_size, and max_cycles as the limit on thread
 * instructions; --lockstep: in lock-step mode, ws_reference_run_lockstep,
 * the fast functional mode of sampled runs; --single-turns: one thread per
 * turn, never grouped, ws_reference_run_single, the check of the grouping), checks the expectations and prints the status, the message
 * and every metric (--json: one JSON object with the workload name, status,
 * message, every parameter and every metric as top-level keys).
 * --dump BUFFER=FILE writes the buffer to FILE instead: .npy (its dtype,
 * shape (count,)) by the extension, raw little-endian elements otherwise.
 * With --json, the --dump values and the --timeline go to stderr so that
 * stdout holds exactly one JSON object. --cycles, --warps and --cores keep
 * the trace and the timeline to a window of a long run: cycles FROM <= c <
 * TO (either side may be left out), warp slots and cores as lists such as
 * 0,4-7.
 * A timeline written to a terminal stops after TTY_TIMELINE_LINES lines or
 * TTY_TIMELINE_BYTES bytes (a 353k-cycle kernel draws 15 MB) with one line
 * saying how much was left out and how to window it; redirected to a file or
 * a pipe, it is written whole.
 * Exit code: 0 if the status is ok, 1 otherwise or on bad input, 2 on a bad
 * command line.
 */
#define _GNU_SOURCE   /* fopencookie */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "warpsweep/report.h"
#include "warpsweep/sim.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: warpsweep sim WORKLOAD.yaml [--set name=value]... [--json] [--dump BUFFER[=FILE.npy]] "
                 "[--trace FILE.csv] [--timeline] [--reference [--lockstep | --single-turns]]\n"
                 "                     [--cycles FROM:TO] [--warps LIST] [--cores LIST]   "
                 "(trace/timeline window: cycles FROM <= c < TO; LIST such as 0,4-7)\n");
}

#define SEL_BITS 1024   /* warps and cores are at most 1024 (params.def) */

/* "0,4-7" into a bitmap of SEL_BITS; -1 on a malformed list */
static int parse_list(const char *s, uint8_t *bits)
{
    memset(bits, 0, SEL_BITS / 8);
    while (*s) {
        char *end;
        long lo = strtol(s, &end, 10), hi = lo;
        if (end == s || lo < 0)
            return -1;
        if (*end == '-') {
            const char *h = end + 1;
            hi = strtol(h, &end, 10);
            if (end == h || hi < lo)
                return -1;
        }
        if (hi >= SEL_BITS || (*end && *end != ','))
            return -1;
        for (long i = lo; i <= hi; i++)
            bits[i / 8] |= (uint8_t)(1u << (i % 8));
        s = *end ? end + 1 : end;
    }
    return 0;
}

/* "FROM:TO", "FROM:" or ":TO" */
static int parse_window(const char *s, uint64_t *from, uint64_t *to)
{
    const char *colon = strchr(s, ':');
    if (!colon || strchr(s, '-'))
        return -1;
    char *end;
    *from = 0;
    *to = UINT64_MAX;
    if (colon > s) {
        *from = strtoull(s, &end, 10);
        if (end != colon)
            return -1;
    }
    if (colon[1]) {
        *to = strtoull(colon + 1, &end, 10);
        if (*end)
            return -1;
    }
    return *to > *from ? 0 : -1;
}

/* the highest bit set, +1 (0 when none) */
static uint32_t list_end(const uint8_t *bits)
{
    for (uint32_t i = SEL_BITS; i > 0; i--)
        if (bits[(i - 1) / 8] >> ((i - 1) % 8) & 1)
            return i;
    return 0;
}

/* What a terminal is shown of a timeline: enough to read a window of it. */
#define TTY_TIMELINE_LINES 2000
#define TTY_TIMELINE_BYTES (256 * 1024)

/* A stream that passes the first lines to out and counts the rest. */
typedef struct tty_cap {
    FILE *out;
    uint64_t lines, bytes;        /* passed on */
    uint64_t cut_lines, cut_bytes; /* left out (a line cut mid-way counts in both) */
    int cut;
    char last;                    /* the last character passed on */
} tty_cap;

static ssize_t tty_cap_write(void *vc, const char *buf, size_t n)
{
    tty_cap *c = vc;
    for (size_t i = 0; i < n; i++) {
        if (!c->cut && (c->lines >= TTY_TIMELINE_LINES || c->bytes >= TTY_TIMELINE_BYTES)) {
            c->cut = 1;
            if (c->bytes && c->last != '\n')
                fputc('\n', c->out);   /* end the line cut mid-way */
        }
        if (c->cut) {
            c->cut_bytes++;
            c->cut_lines += buf[i] == '\n';
            continue;
        }
        fputc(buf[i], c->out);
        c->last = buf[i];
        c->bytes++;
        c->lines += buf[i] == '\n';
    }
    return (ssize_t)n;
}

static FILE *tty_cap_open(tty_cap *c, FILE *out)
{
    *c = (tty_cap){.out = out};
    return fopencookie(c, "w", (cookie_io_functions_t){.write = tty_cap_write});
}

/* Closes the capped stream; says what was left out. */
static void tty_cap_close(tty_cap *c, FILE *f)
{
    fclose(f);
    if (c->cut)
        fprintf(c->out, "... timeline cut at %llu lines for the terminal (%llu more lines, %llu bytes): window it with "
                        "--cycles FROM:TO, --warps LIST or --cores LIST, or redirect it to a file (> FILE)\n",
                (unsigned long long)c->lines, (unsigned long long)c->cut_lines, (unsigned long long)c->cut_bytes);
}

static int find_buffer(const ws_workload *wl, const char *name)
{
    for (uint32_t i = 0; i < wl->nbuffers; i++)
        if (strcmp(wl->buffers[i].name, name) == 0)
            return (int)i;
    return -1;
}

int cmd_sim(int argc, char **argv)
{
    const char *path = NULL, *dump = NULL, *trace = NULL, *window = NULL, *warp_list = NULL, *core_list = NULL;
    int json = 0, timeline = 0, reference = 0, lockstep = 0, single_turns = 0;
    const char **sets = calloc((size_t)argc + 1, sizeof *sets);
    int nsets = 0;
    if (!sets)
        return WS_EXIT_FAIL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--set") == 0 || strcmp(a, "-s") == 0) {
            if (++i >= argc) {
                fprintf(stderr, "warpsweep sim: --set needs name=value\n");
                free(sets);
                return WS_EXIT_USAGE;
            }
            sets[nsets++] = argv[i];
        } else if (strncmp(a, "--set=", 6) == 0) {
            sets[nsets++] = a + 6;
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--timeline") == 0) {
            timeline = 1;
        } else if (strcmp(a, "--reference") == 0) {
            reference = 1;
        } else if (strcmp(a, "--lockstep") == 0) {
            lockstep = 1;
        } else if (strcmp(a, "--single-turns") == 0) {
            single_turns = 1;
        } else if (strcmp(a, "--dump") == 0 || strcmp(a, "--trace") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "warpsweep sim: %s needs an argument\n", a);
                free(sets);
                return WS_EXIT_USAGE;
            }
            if (a[2] == 'd')
                dump = argv[++i];
            else
                trace = argv[++i];
        } else if (strcmp(a, "--cycles") == 0 || strcmp(a, "--warps") == 0 || strcmp(a, "--cores") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "warpsweep sim: %s needs an argument\n", a);
                free(sets);
                return WS_EXIT_USAGE;
            }
            const char **dst = a[3] == 'y' ? &window : a[3] == 'a' ? &warp_list : &core_list;
            *dst = argv[++i];
        } else if (strncmp(a, "--dump=", 7) == 0) {
            dump = a + 7;
        } else if (strncmp(a, "--trace=", 8) == 0) {
            trace = a + 8;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            free(sets);
            return WS_EXIT_OK;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "warpsweep sim: unknown option '%s'\n", a);
            usage(stderr);
            free(sets);
            return WS_EXIT_USAGE;
        } else if (!path) {
            path = a;
        } else {
            fprintf(stderr, "warpsweep sim: more than one workload ('%s' and '%s')\n", path, a);
            free(sets);
            return WS_EXIT_USAGE;
        }
    }
    if (!path) {
        usage(stderr);
        free(sets);
        return WS_EXIT_USAGE;
    }

    ws_error err;
    ws_config cfg;
    uint8_t given[WS_NPARAMS] = {0};
    ws_config_defaults(&cfg);
    ws_wl_var wvars[WS_MAX_WL_VARS];
    int nwvars = 0;
    for (int i = 0; i < nsets; i++) {
        int wv = cli_wl_var_set("sim", sets[i], wvars, &nwvars);   /* a workload variable (vars:) */
        if (wv < 0) {
            free(sets);
            return WS_EXIT_USAGE;
        }
        if (wv == 0) continue;
        if (ws_config_assign(&cfg, given, sets[i], &err) < 0) {
            fprintf(stderr, "%s\n", err.msg);
            free(sets);
            return WS_EXIT_FAIL;
        }
    }
    free(sets);
    ws_config_apply_preset(&cfg, given);   /* --set values beat the preset, in any order */
    if (!json) cli_note_preset(stderr, &cfg);

    uint8_t warp_bits[SEL_BITS / 8], core_bits[SEL_BITS / 8];
    ws_trace_filter filter = {.from = 0, .to = UINT64_MAX};
    int filtered = window || warp_list || core_list;
    if (filtered && !trace && !timeline) {
        fprintf(stderr, "warpsweep sim: --cycles, --warps and --cores select what --trace and --timeline show; "
                        "give one of them\n");
        return WS_EXIT_USAGE;
    }
    if (window && parse_window(window, &filter.from, &filter.to)) {
        fprintf(stderr, "warpsweep sim: --cycles expects FROM:TO with FROM < TO (FROM: or :TO for an open end), "
                        "got '%s'\n", window);
        return WS_EXIT_USAGE;
    }
    const char *lists[2] = {warp_list, core_list};
    uint8_t *bits[2] = {warp_bits, core_bits};
    const char *what[2] = {"warps", "cores"};
    int64_t have[2] = {ws_cfg_i(&cfg, WS_P_warps), ws_cfg_i(&cfg, WS_P_cores)};
    for (int k = 0; k < 2; k++) {
        if (!lists[k])
            continue;
        if (parse_list(lists[k], bits[k])) {
            fprintf(stderr, "warpsweep sim: --%s expects a list such as 0,4-7 (each below %d), got '%s'\n", what[k],
                    SEL_BITS, lists[k]);
            return WS_EXIT_USAGE;
        }
        uint32_t end = list_end(bits[k]);
        if ((int64_t)end > have[k]) {
            fprintf(stderr, "warpsweep sim: --%s %s: the configuration has %s=%lld (numbered from 0)\n", what[k],
                    lists[k], what[k], (long long)have[k]);
            return WS_EXIT_USAGE;
        }
        if (k == 0) {
            filter.warps = warp_bits;
            filter.nwarp_bits = end;
        } else {
            filter.cores = core_bits;
            filter.ncore_bits = end;
        }
    }

    ws_workload *wl = ws_workload_load_vars(path, wvars, nwvars, &err);
    if (!wl) {
        fprintf(stderr, "%s\n", err.msg);
        return WS_EXIT_FAIL;
    }
    int dump_index = -1;
    char dump_name[256];
    const char *dump_path = NULL;   /* --dump BUF=FILE */
    if (dump) {
        const char *eq = strchr(dump, '=');
        if (eq && (!eq[1] || eq == dump)) {
            fprintf(stderr, "warpsweep sim: --dump %s: expected BUFFER or BUFFER=FILE\n", dump);
            ws_workload_free(wl);
            return WS_EXIT_USAGE;
        }
        snprintf(dump_name, sizeof dump_name, "%.*s", eq ? (int)(eq - dump) : (int)strlen(dump), dump);
        dump_path = eq ? eq + 1 : NULL;
        dump = dump_name;
        dump_index = find_buffer(wl, dump);
        if (dump_index < 0) {
            fprintf(stderr, "%s: --dump: no buffer '%s' in the workload (buffers:", path, dump);
            for (uint32_t i = 0; i < wl->nbuffers; i++)
                fprintf(stderr, " %s", wl->buffers[i].name);
            fprintf(stderr, ")\n");
            ws_workload_free(wl);
            return WS_EXIT_FAIL;
        }
    }
    FILE *aux = json ? stderr : stdout;   /* dump and timeline */
    ws_result res;
    if (reference) {
        ws_memimage mem;
        if (trace || timeline)
            fprintf(stderr, "warpsweep sim: --trace and --timeline show the cycle-level core; ignored with --reference\n");
        (lockstep ? ws_reference_run_lockstep : single_turns ? ws_reference_run_single : ws_reference_run)(
            wl, (uint64_t)ws_cfg_i(&cfg, WS_P_seed), (uint32_t)ws_cfg_i(&cfg, WS_P_warp_size),
            (uint64_t)ws_cfg_i(&cfg, WS_P_max_cycles), &mem, &res);
        if (res.status == WS_ST_OK &&
            ws_expect_check(wl, &mem, &mem, res.message, sizeof res.message) < 0)
            res.status = WS_ST_MISMATCH;
        if (dump_index >= 0 && mem.gmem.regions) {
            if (!dump_path)
                ws_buffer_dump(wl, &mem, (uint32_t)dump_index, aux);
            else if (ws_buffer_save(wl, &mem, (uint32_t)dump_index, dump_path, &err) < 0)
                fprintf(stderr, "warpsweep sim: %s\n", err.msg);
        }
        ws_memimage_free(&mem);
    } else {
        ws_run_opts opts = {.trace = NULL, .timeline = timeline ? aux : NULL, .filter = filtered ? &filter : NULL,
                            .dump_buffer = dump_index, .dump_out = aux, .dump_path = dump_path};
        if (trace) {
            opts.trace = fopen(trace, "w");
            if (!opts.trace) {
                perror(trace);
                ws_workload_free(wl);
                return WS_EXIT_FAIL;
            }
        }
        tty_cap cap;
        FILE *capped = NULL;
        if (timeline && isatty(fileno(aux)) && (capped = tty_cap_open(&cap, aux)))
            opts.timeline = capped;
        ws_sim *s = ws_sim_new();
        if (!s) {
            fprintf(stderr, "warpsweep sim: out of memory\n");
            if (opts.trace)
                fclose(opts.trace);
            if (capped)
                fclose(capped);
            ws_workload_free(wl);
            return WS_EXIT_FAIL;
        }
        ws_sim_run(s, wl, &cfg, &opts, &res);
        if (capped)
            tty_cap_close(&cap, capped);
        if (opts.trace && fclose(opts.trace) != 0)
            perror(trace);
        uint32_t nls;
        const ws_launch_stats *ls = ws_sim_launches(s, &nls);
        if (json) {
            ws_result_print_json_launches(stdout, &res, wl->name, &cfg, ls, nls);
        } else {
            ws_result_print_text(stdout, &res);
            if (wl->nstmts > 1)   /* a sequence: the table (a one-launch workload's output is unchanged) */
                ws_launches_print_text(stdout, ls, nls);
        }
        ws_sim_free(s);
        int status = res.status;
        ws_workload_free(wl);
        return status == WS_ST_OK ? WS_EXIT_OK : WS_EXIT_FAIL;
    }
    if (json)
        ws_result_print_json(stdout, &res, wl->name, &cfg);
    else
        ws_result_print_text(stdout, &res);
    int status = res.status;
    ws_workload_free(wl);
    return status == WS_ST_OK ? WS_EXIT_OK : WS_EXIT_FAIL;
}
