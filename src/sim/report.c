/* Printing a run's outcome: text for people, one JSON object for scripts. */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include "warpsweep/report.h"

void ws_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

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
    fputs("}\n", out);
}
