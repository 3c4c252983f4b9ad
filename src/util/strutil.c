#include <string.h>
#include "warpsweep/strutil.h"

int ws_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63)
        return 1000;
    int d[64][64];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

int ws_closest(const char *word, const char *const *candidates, size_t n, int *distance)
{
    int best = -1, best_d = 1 << 30;
    for (size_t i = 0; i < n; i++) {
        int d = ws_edit_distance(word, candidates[i]);
        if (d < best_d) {
            best_d = d;
            best = (int)i;
        }
    }
    if (distance)
        *distance = best_d;
    return best;
}

void ws_text_position(const char *text, size_t len, size_t off, int *line, int *col)
{
    int l = 1, c = 1;
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}
