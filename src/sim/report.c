/* Printing a run's outcome: text for people, one JSON object for scripts. */
#include <math.h>
#include <string.h>
#include <stdlib.h>
#include <stdio.h>
#include "warpsweep/report.h"

void ws_result_print_text(FILE *out, const ws_result *res)
{
    fprintf(out, "status: %s\n", ws_status_name(res->status));
    if (res->message[0])
        fprintf(out, "message: %s\n", res->message);
    for (int i = 0; i < WS_NMETRICS; i++) {
        const ws_metric_def *m = &ws_metrics[i];
        char label[64];
        if (ws_metric_label(i, res->metrics[i].i, label, sizeof label))
            fprintf(out, "%s: %s", m->name, label);
        else if (m->is_float)
            fprintf(out, "%s: %.6g", m->name, res->metrics[i].f);
        else
            fprintf(out, "%s: %lld", m->name, (long long)res->metrics[i].i);
        if (m->unit && *m->unit)
            fprintf(out, " %s", m->unit);
        fputc('\n', out);
    }
}

static void json_double(FILE *out, double d)
{
    if (!isfinite(d)) {
        fputs("null", out);
        return;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", d);
    /* prefer the shortest form that reads back identically */
    for (int prec = 1; prec <= 17; prec++) {
        char b2[64];
        snprintf(b2, sizeof b2, "%.*g", prec, d);
        if (strtod(b2, NULL) == d) {
            snprintf(buf, sizeof buf, "%s", b2);
            break;
        }
    }
    fputs(buf, out);
}

void ws_result_print_json(FILE *out, const ws_result *res, const char *workload_name, const ws_config *cfg)
{
    ws_result_print_json_launches(out, res, workload_name, cfg, NULL, 0);
}

void ws_launches_print_text(FILE *out, const ws_launch_stats *ls, uint32_t n)
{
    fprintf(out, "launches run: %u\n", n);
    fprintf(out, "%6s %-24s %9s %12s %12s %8s %14s %14s %8s %6s\n", "launch", "name", "iteration", "start",
            "cycles", "ctas", "warp_insts", "thread_insts", "ipc", "tail");
    for (uint32_t i = 0; i < n; i++) {
        const ws_launch_stats *l = &ls[i];
        fprintf(out, "%6u %-24.24s %9llu %12llu %12llu %8llu %14llu %14llu %8.4g %6.3f\n", i, l->name ? l->name : "?",
                (unsigned long long)l->iteration, (unsigned long long)l->start, (unsigned long long)l->cycles,
                (unsigned long long)l->ctas, (unsigned long long)l->warp_insts, (unsigned long long)l->thread_insts,
                l->cycles ? (double)l->thread_insts / (double)l->cycles : 0.0, l->tail_fraction);
    }
}

static void json_launches(FILE *out, const ws_launch_stats *ls, uint32_t n)
{
    fputs(", \"per_launch\": [", out);
    for (uint32_t i = 0; i < n; i++) {
        const ws_launch_stats *l = &ls[i];
        fputs(i ? ", {\"name\": " : "{\"name\": ", out);
        ws_json_string(out, l->name);
        fprintf(out, ", \"stmt\": %u, \"launch\": %u, \"iteration\": %llu, \"start\": %llu, \"cycles\": %llu, "
                     "\"ctas\": %llu, \"warp_insts\": %llu, \"thread_insts\": %llu, \"steady_cycles\": %llu",
                l->stmt, l->launch, (unsigned long long)l->iteration, (unsigned long long)l->start,
                (unsigned long long)l->cycles, (unsigned long long)l->ctas, (unsigned long long)l->warp_insts,
                (unsigned long long)l->thread_insts, (unsigned long long)l->steady_cycles);
        fputs(", \"steady_ipc\": ", out);
        json_double(out, l->steady_ipc);
        fputs(", \"tail_fraction\": ", out);
        json_double(out, l->tail_fraction);
        fputs(", \"sampled\": ", out);
        json_double(out, l->sampled);
        fputs("}", out);
    }
    fputs("]", out);
}

void ws_result_print_json_launches(FILE *out, const ws_result *res, const char *workload_name, const ws_config *cfg,
                                   const ws_launch_stats *ls, uint32_t nls)
{
    fputs("{\"workload\": ", out);
    ws_json_string(out, workload_name);
    fputs(", \"status\": ", out);
    ws_json_string(out, ws_status_name(res->status));
    fputs(", \"message\": ", out);
    ws_json_string(out, res->message);
    if (cfg) {
        for (int i = 0; i < WS_NPARAMS; i++) {
            const ws_param_def *p = &ws_params[i];
            fputs(", ", out);
            ws_json_string(out, p->name);
            fputs(": ", out);
            if (p->type == WS_PT_CHOICE) {
                char buf[64];
                ws_json_string(out, ws_param_choice(i, cfg->v[i].i, buf, sizeof buf));
            } else if (p->type == WS_PT_FLOAT) {
                json_double(out, cfg->v[i].f);
            } else {
                fprintf(out, "%lld", (long long)cfg->v[i].i);
            }
        }
    }
    for (int i = 0; i < WS_NMETRICS; i++) {
        fputs(", ", out);
        ws_json_string(out, ws_metrics[i].name);
        fputs(": ", out);
        char label[64];
        if (ws_metric_label(i, res->metrics[i].i, label, sizeof label))
            ws_json_string(out, label);
        else if (ws_metrics[i].is_float)
            json_double(out, res->metrics[i].f);
        else
            fprintf(out, "%lld", (long long)res->metrics[i].i);
    }
    if (ls)
        json_launches(out, ls, nls);
    fputs("}\n", out);
}
