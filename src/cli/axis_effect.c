/* Axes that changed no metric (axis_effect.h). */
#include <stdlib.h>
#include <string.h>
#include "axis_effect.h"
#include "warpsweep/digest.h"

void axis_effect_init(axis_effect *e, const uint8_t *show)
{
    memset(e, 0, sizeof *e);
    for (int p = 0; p < WS_NPARAMS && e->n < AXIS_EFFECT_MAX; p++)
        if (show[p] && p != WS_P_seed)
            e->axis[e->n++] = p;
}

void axis_effect_add(axis_effect *e, const ws_row *row, int wl)
{
    const uint64_t mh = ws_xxh64(row->metrics, sizeof row->metrics, 0);
    ws_value v[WS_NPARAMS + 1];
    memcpy(v, row->params, sizeof row->params);
    v[WS_NPARAMS].i = wl;
    for (int k = 0; k < e->n && !e->oom; k++) {
        if (e->matters[k])
            continue;
        const int a = e->axis[k];
        const ws_value keep = v[a];
        v[a].i = 0;   /* the row's place with this axis left out */
        rep_key key = {ws_xxh64(v, sizeof v, 0x5eed), ws_xxh64(v, sizeof v, 0xc0ffee)};
        v[a] = keep;
        int added;
        int64_t id = rep_index_get(&e->ix[k], key, &added);
        if (id >= 0 && added && (size_t)id == e->cap[k]) {
            size_t cap = e->cap[k] ? 2 * e->cap[k] : 1024;
            uint64_t *h = realloc(e->mhash[k], cap * sizeof *h);
            if (!h)
                id = -1;
            else
                e->mhash[k] = h, e->cap[k] = cap;
        }
        if (id < 0) {
            e->oom = 1;
            return;
        }
        if (added) {
            e->mhash[k][id] = mh;
        } else {
            e->pairs[k]++;
            if (e->mhash[k][id] != mh)
                e->matters[k] = 1;
        }
    }
}

int axis_effect_none(const axis_effect *e, int k)
{
    return !e->oom && !e->matters[k] && e->pairs[k] > 0;
}

void axis_effect_free(axis_effect *e)
{
    for (int k = 0; k < e->n; k++) {
        rep_index_free(&e->ix[k]);
        free(e->mhash[k]);
    }
    memset(e, 0, sizeof *e);
}
