/* Progress on stderr: a redrawn bar on a terminal, a plain line every few
 * seconds otherwise (batch logs). Called under the driver's sink lock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "warpsweep/sweep.h"

struct ws_progress {
    FILE *out;
    int tty;
    uint64_t total, done, start_done;
    uint64_t by_status[WS_ST_COUNT];
    double start, last;
    double interval;
    char label[64];
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

ws_progress *ws_progress_new(FILE *out, uint64_t total, uint64_t already_done, const char *label)
{
    ws_progress *p = calloc(1, sizeof *p);
    p->out = out;
    p->tty = isatty(fileno(out));
    p->total = total;
    p->done = p->start_done = already_done;
    p->start = p->last = now();
    const char *iv = getenv("WS_PROGRESS_INTERVAL");
    p->interval = iv ? atof(iv) : p->tty ? 0.2 : 5.0;
    snprintf(p->label, sizeof p->label, "%s", label ? label : "");
    return p;
}

static void fmt_time(char *buf, size_t n, double s)
{
    if (s < 0 || s > 1e8) {
        snprintf(buf, n, "--:--");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

static void print(ws_progress *p, int final)
{
    double t = now(), el = t - p->start;
    uint64_t ran = p->done - p->start_done;
    double rate = el > 0 ? (double)ran / el : 0;
    double eta = rate > 0 ? (double)(p->total - p->done) / rate : -1;
    char etas[32], els[32], counts[256] = "";
    fmt_time(etas, sizeof etas, eta);
    fmt_time(els, sizeof els, el);
    for (int s = 0; s < WS_ST_COUNT; s++)
        if (p->by_status[s])
            snprintf(counts + strlen(counts), sizeof counts - strlen(counts), " %s %llu", ws_status_name(s),
                     (unsigned long long)p->by_status[s]);
    /* rounded down to 0.1 %: 100.0 % means every point is done, never
     * "100.0% ETA 0:01" with points still running */
    double frac = p->total ? (double)(p->done * 1000 / p->total) / 1000 : 1;
    if (p->tty) {
        char bar[31];
        int filled = (int)(frac * 30);
        for (int i = 0; i < 30; i++)
            bar[i] = i < filled ? '#' : '.';
        bar[30] = 0;
        fprintf(p->out, "\r\033[K%s [%s] %llu/%llu %5.1f%% %.0f pts/s ETA %s |%s%s", p->label, bar,
                (unsigned long long)p->done, (unsigned long long)p->total, 100 * frac, rate, final ? els : etas,
                counts, final ? "\n" : "");
    } else {
        fprintf(p->out, "%s: %llu/%llu points (%.1f%%), %.0f points/s, %s %s,%s\n", p->label,
                (unsigned long long)p->done, (unsigned long long)p->total, 100 * frac, rate,
                final ? "elapsed" : "ETA", final ? els : etas, counts);
    }
    fflush(p->out);
    p->last = t;
}

void ws_progress_add_earlier(ws_progress *p, const uint64_t by_status[WS_ST_COUNT])
{
    for (int s = 0; s < WS_ST_COUNT; s++)
        p->by_status[s] += by_status[s];
}

void ws_progress_update(ws_progress *p, const ws_row *rows, size_t n)
{
    p->done += n;
    for (size_t i = 0; i < n; i++)
        if (rows[i].status >= 0 && rows[i].status < WS_ST_COUNT)
            p->by_status[rows[i].status]++;
    if (now() - p->last >= p->interval)
        print(p, 0);
}

void ws_progress_finish(ws_progress *p) { print(p, 1); }
void ws_progress_free(ws_progress *p) { free(p); }
